"""The rulebook's colours and paragraph styles, in one language (its hyphenation)."""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.lib.colors import HexColor
from reportlab.lib.enums import TA_CENTER, TA_JUSTIFY, TA_LEFT
from reportlab.lib.styles import ParagraphStyle

from micropul_print.backends.pdf import FONT_NAMES
from micropul_print.rulebook.hyphenation import HYPHEN_MIN_WORD, Hyphenator

INK = HexColor("#212529")
ACCENT = HexColor("#1864ab")
MUTED = HexColor("#495057")
RULE = HexColor("#adb5bd")
RULING_TINT = HexColor("#e7f0f9")  # the box of a ruling of this edition
# The box's margin around a ruling's text (pt), inside the column.
RULING_PADDING = 4.0


def styles(lang: str, unbreakable: Sequence[str] = ()) -> dict[str, ParagraphStyle]:
    """The paragraph styles by name, hyphenating ``lang`` (never inside ``unbreakable``)."""
    hyphenation = Hyphenator(lang, unbreakable)
    regular, bold, italic = FONT_NAMES["regular"], FONT_NAMES["bold"], FONT_NAMES["italic"]
    body = ParagraphStyle(
        "body", fontName=regular, fontSize=9.2, leading=12.4, textColor=INK,
        alignment=TA_JUSTIFY, spaceAfter=4.2, hyphenationLang=hyphenation,
        # Breaks at a word's own hyphens are the Hyphenator's to allow or not.
        allowWidows=0, allowOrphans=0, embeddedHyphenation=0,
        hyphenationMinWordLength=HYPHEN_MIN_WORD,
    )
    return {
        "body": body,
        "lead": ParagraphStyle("lead", parent=body, fontName=italic, fontSize=9.6,
                               leading=13.2, spaceAfter=6),
        # reportlab moves a first line right when the bullet (plus 0.6 of its size)
        # ends past leftIndent: 1.5 + 5.2 + 5.4 pt < 12.5 keeps every line aligned.
        "bullet": ParagraphStyle("bullet", parent=body, leftIndent=12.5, bulletIndent=1.5,
                                 bulletFontName=bold, bulletFontSize=9,
                                 bulletColor=ACCENT, spaceAfter=2.6),
        "h1": ParagraphStyle("h1", parent=body, fontName=bold, fontSize=12.5, leading=15,
                             textColor=ACCENT, alignment=TA_LEFT, spaceBefore=8,
                             spaceAfter=3.5, hyphenationLang=""),
        "h2": ParagraphStyle("h2", parent=body, fontName=bold, fontSize=9.8, leading=12.4,
                             alignment=TA_LEFT, spaceBefore=3, spaceAfter=1.6,
                             hyphenationLang=""),
        # The text inset by the padding: the tint then spans the column exactly.
        "ruling": ParagraphStyle("ruling", parent=body, backColor=RULING_TINT,
                                 borderPadding=RULING_PADDING, leftIndent=RULING_PADDING,
                                 rightIndent=RULING_PADDING, spaceBefore=RULING_PADDING + 1,
                                 spaceAfter=RULING_PADDING + 4.2),
        "caption": ParagraphStyle("caption", parent=body, fontSize=8, leading=10.4,
                                  textColor=MUTED, alignment=TA_LEFT, spaceBefore=3,
                                  spaceAfter=9),
        "legend": ParagraphStyle("legend", parent=body, fontSize=8.4, leading=10.6,
                                 alignment=TA_LEFT, spaceAfter=0),
        "title": ParagraphStyle("title", fontName=bold, fontSize=30, leading=34,
                                textColor=INK, alignment=TA_CENTER),
        "cover": ParagraphStyle("cover", fontName=bold, fontSize=40, leading=46,
                                textColor=INK, alignment=TA_CENTER, spaceAfter=4),
        "tagline": ParagraphStyle("tagline", fontName=italic, fontSize=12.5, leading=16,
                                  textColor=ACCENT, alignment=TA_CENTER, spaceBefore=2),
        "version": ParagraphStyle("version", fontName=regular, fontSize=9, leading=12,
                                  textColor=MUTED, alignment=TA_CENTER, spaceBefore=2),
    }

