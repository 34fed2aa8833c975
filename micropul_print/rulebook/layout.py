"""The rulebook's pages, set with reportlab platypus: two columns under a title on the
first page, running head and page numbers, margins mirrored for duplex printing (the
wide margin is always on the binding side), Lato embedded as subsets, reproducible
bytes. Game-independent: it sets texts, figures and legend rows that it is given.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape

import pyphen  # type: ignore[import-untyped]
from reportlab.lib.colors import HexColor
from reportlab.lib.enums import TA_CENTER, TA_JUSTIFY, TA_LEFT
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    CondPageBreak,
    Flowable,
    Frame,
    FrameBreak,
    KeepTogether,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from micropul_print.backends.pdf import CREATOR, FONT_NAMES, PageCanvas, register_fonts
from micropul_print.backends.pdf import draw as draw_drawing
from micropul_print.draw.primitives import Drawing

PAPER_SIZES: dict[str, tuple[float, float]] = {"a4": A4, "letter": LETTER}

INK = HexColor("#212529")
ACCENT = HexColor("#1864ab")
MUTED = HexColor("#495057")
RULE = HexColor("#adb5bd")


@dataclass(frozen=True)
class Geometry:
    """Page geometry in millimetres. ``inner`` is the binding-side margin: on the left
    of odd (right-hand) pages, on the right of even ones."""

    inner: float = 20.0
    outer: float = 14.0
    top: float = 18.0
    bottom: float = 18.0
    gutter: float = 7.0
    title_height: float = 34.0  # the title band of page 1
    header_offset: float = 10.0  # running head baseline, from the top edge
    footer_offset: float = 10.0  # page number baseline, from the bottom edge


GEOMETRY = Geometry()
# Figures show tiles at 60 % of their printed size, or, where that costs a page
# (a last page holding a few lines), at the largest of these that does not.
# Lines of text a heading keeps below it in its column (else it waits for the next).
HEADING_KEEPS_LINES = 3
FIGURE_TILE_MM = (18.0, 16.5, 15.0)
LEGEND_PICTURE_MM = 7.5
LEGEND_ROW_PADDING = 1.2  # points above and below each legend row
MAX_FIGURE_HEIGHT_MM = 110.0  # under half a column on A4 and Letter


# -- what the layout is given -------------------------------------------------------------


@dataclass(frozen=True)
class PageTexts:
    """The texts of the page furniture, in the book's language."""

    lang: str  # language code, for hyphenation and the PDF's /Lang
    title: str  # document title (metadata)
    subject: str
    author: str
    running_head: str
    page_number: str  # with {page}
    figure_label: str  # with {number}
    unbreakable: tuple[str, ...] = ()  # see Hyphenator


@dataclass(frozen=True)
class TitleBlock:
    lines: tuple[str, ...]  # name, tagline, further lines


@dataclass(frozen=True)
class HeadingBlock:
    text: str
    level: int


@dataclass(frozen=True)
class TextBlock:
    text: str
    lead: bool = False


@dataclass(frozen=True)
class BulletsBlock:
    items: tuple[str, ...]


@dataclass(frozen=True)
class Picture:
    """A drawing, or the ``clip`` (x, y, width, height in drawing mm) of one, shown
    ``size`` mm wide."""

    drawing: Drawing
    size: float
    clip: tuple[float, float, float, float] | None = None
    frame: bool = False  # a thin rule around it (a part of a piece shown alone)


@dataclass(frozen=True)
class LegendBlock:
    caption: str
    rows: tuple[tuple[Picture, str], ...]


@dataclass(frozen=True)
class FigureBlock:
    drawing: Drawing
    caption: str
    tile_size: float  # the tile art's size in drawing mm (shown at a FIGURE_TILE_MM size)


PageBlock = TitleBlock | HeadingBlock | TextBlock | BulletsBlock | LegendBlock | FigureBlock


# -- markup -------------------------------------------------------------------------------

_BOLD = re.compile(r"\*\*(.+?)\*\*")
_ITALIC = re.compile(r"\*(.+?)\*")


# "7 × 7": a size never breaks across lines, in any language.
_TIMES = re.compile(r"(?<=\w) × (?=\w)")


def markup(text: str) -> str:
    """Catalogue text -> reportlab paragraph markup: escape, then **bold**, *italic*."""
    text = _TIMES.sub("\u00a0×\u00a0", escape(text))
    text = _BOLD.sub(r"<b>\1</b>", text)
    return _ITALIC.sub(r"<i>\1</i>", text)


# -- flowables ----------------------------------------------------------------------------


def _paint(canvas: PageCanvas, picture: Picture, height_pt: float) -> None:
    """Paint ``picture`` with its top-left at the current origin's top (the flowable's
    box is ``height_pt`` tall). The backend positions drawings from the page's top-left,
    so the page height is taken off again first."""
    x, y, width, height = picture.clip or (0.0, 0.0, picture.drawing.width,
                                            picture.drawing.height)
    scale = picture.size / width
    page_height = float(canvas.page_size[1])
    canvas.saveState()
    if picture.clip is not None:
        path = canvas.beginPath()
        path.rect(0, 0, picture.size * mm, height * scale * mm)
        canvas.clipPath(path, stroke=0, fill=0)
    canvas.translate(0, height_pt)
    canvas.scale(scale, scale)
    canvas.translate(-x * mm, y * mm - page_height)
    draw_drawing(canvas, picture.drawing, 0.0, 0.0)
    canvas.restoreState()
    if picture.frame:
        canvas.saveState()
        canvas.setStrokeColor(RULE)
        canvas.setLineWidth(0.7)
        canvas.rect(0, 0, picture.size * mm, height * scale * mm, stroke=1, fill=0)
        canvas.restoreState()


class PictureFlowable(Flowable):  # type: ignore[misc]  # reportlab is untyped
    """A picture centred in the column."""

    def __init__(self, picture: Picture) -> None:
        super().__init__()
        self.picture = picture
        width, height = (picture.clip or (0, 0, picture.drawing.width,
                                          picture.drawing.height))[2:]
        self.box = (picture.size * mm, height * picture.size / width * mm)
        self.hAlign = "CENTER"

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        return self.box

    def draw(self) -> None:
        _paint(self.canv, self.picture, self.box[1])


# -- hyphenation --------------------------------------------------------------------------

# pyphen's "en" is en_GB, whose patterns break "po-s-i-tion", "ra-cing", "solit-aire";
# the en_US (TeX) patterns break British spellings correctly too.
HYPHENATION_DICTIONARIES = {"en": "en_US"}
# At least 2 letters before a break and 3 after it, in words of 6 letters or more:
# no "-ly" or "-ce" alone at the start of a line.
HYPHEN_LEFT, HYPHEN_RIGHT, HYPHEN_MIN_WORD = 2, 3, 6


class Hyphenator:
    """Where reportlab may break a word at a line end: the (head, tail) pairs, longest
    head first. A word with a hyphen breaks only at its own hyphens; an ``unbreakable``
    word with a hyphen never, nor a word that starts with an ``unbreakable`` word
    without one (case-insensitive); other words where the language's dictionary says,
    or nowhere if there is none."""

    def __init__(self, lang: str, unbreakable: Sequence[str] = ()) -> None:
        dictionary = HYPHENATION_DICTIONARIES.get(lang) or pyphen.language_fallback(lang)
        self.dictionary = (pyphen.Pyphen(lang=dictionary, left=HYPHEN_LEFT,
                                         right=HYPHEN_RIGHT) if dictionary else None)
        self.whole = frozenset(w.casefold() for w in unbreakable if "-" in w)
        self.stems = tuple(w.casefold() for w in unbreakable if "-" not in w)

    def __call__(self, word: str) -> list[tuple[str, str]]:
        folded = word.casefold()
        if folded in self.whole:
            return []
        parts = word.split("-")
        if len(parts) > 1:
            return [("-".join(parts[:i]) + "-", "-".join(parts[i:]))
                    for i in range(len(parts) - 1, 0, -1) if parts[i - 1] and parts[i]]
        if self.dictionary is None or folded.startswith(self.stems):
            return []
        return [(head, tail) for head, tail in self.dictionary.iterate(word)]


# -- styles -------------------------------------------------------------------------------


def _styles(lang: str, unbreakable: Sequence[str] = ()) -> dict[str, ParagraphStyle]:
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
        "caption": ParagraphStyle("caption", parent=body, fontSize=8, leading=10.4,
                                  textColor=MUTED, alignment=TA_LEFT, spaceBefore=3,
                                  spaceAfter=9),
        "legend": ParagraphStyle("legend", parent=body, fontSize=8.4, leading=10.6,
                                 alignment=TA_LEFT, spaceAfter=0),
        "title": ParagraphStyle("title", fontName=bold, fontSize=30, leading=34,
                                textColor=INK, alignment=TA_CENTER),
        "tagline": ParagraphStyle("tagline", fontName=italic, fontSize=12.5, leading=16,
                                  textColor=ACCENT, alignment=TA_CENTER, spaceBefore=2),
        "version": ParagraphStyle("version", fontName=regular, fontSize=9, leading=12,
                                  textColor=MUTED, alignment=TA_CENTER, spaceBefore=2),
    }


# -- the document -------------------------------------------------------------------------


class Float(KeepTogether):  # type: ignore[misc]  # reportlab is untyped
    """Flowables kept in one piece (a figure and its caption, the legend) that, when
    the rest of a column is too short for them, wait for the top of the next column
    while the text after them fills this one."""


class FloatingDocTemplate(BaseDocTemplate):  # type: ignore[misc]  # reportlab is untyped
    """A document whose Floats wait instead of leaving the end of a column empty.
    Waiting floats keep their order and go first into the next frame, or at the end
    of the story if no frame ends before it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._waiting: list[Flowable] = []
        self._story: list[Flowable] | None = None

    def build(self, flowables: list[Flowable], *args: Any, **kwargs: Any) -> None:
        self._story = flowables  # the list build() consumes (not its other queues)
        super().build(flowables, *args, **kwargs)

    def handle_flowable(self, flowables: list[Flowable]) -> None:
        first = flowables[0] if flowables and flowables is self._story else None
        if isinstance(first, Float) and (self._waiting or self._must_wait(first, flowables)):
            self._waiting.append(flowables.pop(0))
        else:
            super().handle_flowable(flowables)
        if flowables is self._story and not flowables and self._waiting:
            flowables.extend(self._waiting)  # the story ends before the column does
            self._waiting = []

    def _must_wait(self, float_: Float, flowables: list[Flowable]) -> bool:
        frame = self.frame
        if frame is None or frame._atTop or all(isinstance(f, Float) for f in flowables[1:]):
            return False
        float_.wrapOn(self.canv, frame._getAvailableWidth(), frame._aH)
        # KeepTogether.wrap answers a huge height to force its split; _H is the real one.
        return bool(float_._H + float_.getSpaceBefore() > frame._y - frame._y1p)

    def handle_frameEnd(self, resume: int = 0) -> None:
        super().handle_frameEnd(resume)
        if self._waiting and self._story is not None:
            self._story[0:0] = self._waiting
            self._waiting = []


def render(blocks: Sequence[PageBlock], texts: PageTexts, paper: str,
           geometry: Geometry = GEOMETRY, *, page_budget: int | None = None) -> bytes:
    """The rulebook as PDF bytes; identical input gives identical bytes.

    Figures get the largest tile size of FIGURE_TILE_MM that needs no more pages than
    the smallest: a translation that runs a few lines onto an extra page is set with
    slightly smaller figures instead. A book that fits in ``page_budget`` pages with the
    largest figures is kept without trying the others (each try is a whole layout)."""
    largest, smallest = FIGURE_TILE_MM[0], FIGURE_TILE_MM[-1]
    pdf, pages = _render(blocks, texts, paper, geometry, largest)
    if page_budget is not None and pages <= page_budget:
        return pdf
    fewest_pdf, fewest = _render(blocks, texts, paper, geometry, smallest)
    if pages <= fewest:
        return pdf
    for tile_mm in FIGURE_TILE_MM[1:-1]:
        pdf, pages = _render(blocks, texts, paper, geometry, tile_mm)
        if pages <= fewest:
            return pdf
    return fewest_pdf


def _render(blocks: Sequence[PageBlock], texts: PageTexts, paper: str, geometry: Geometry,
            tile_mm: float) -> tuple[bytes, int]:
    """The PDF with figure tiles ``tile_mm`` wide, and its number of pages."""
    register_fonts()
    page_width, page_height = PAPER_SIZES[paper]
    styles = _styles(texts.lang, texts.unbreakable)
    buffer = io.BytesIO()
    document = FloatingDocTemplate(
        buffer, pagesize=(page_width, page_height), invariant=1, pageCompression=1,
        title=texts.title, author=texts.author, subject=texts.subject, creator=CREATOR,
        producer=CREATOR, lang=texts.lang,
        # Lato from the first operator on: no standard-14 font is ever referenced.
        initialFontName=FONT_NAMES["regular"],
    )
    document.addPageTemplates(_templates(page_width, page_height, geometry, texts))
    story = _story(blocks, styles, texts, _column_width(page_width, geometry), tile_mm)
    document.build(story, canvasmaker=PageCanvas)
    return buffer.getvalue(), int(document.page)


def _column_width(page_width: float, g: Geometry) -> float:
    return float(page_width - (g.inner + g.outer + g.gutter) * mm) / 2


def _templates(page_width: float, page_height: float, g: Geometry,
               texts: PageTexts) -> list[PageTemplate]:
    column = _column_width(page_width, g)
    body_height = page_height - (g.top + g.bottom) * mm

    def columns(left: float, height: float, name: str) -> list[Frame]:
        return [
            Frame(left + i * (column + g.gutter * mm), g.bottom * mm, column, height,
                  leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0,
                  id=f"{name}-{i}")
            for i in range(2)
        ]

    def decorate(canvas: Canvas, document: Any) -> None:
        _furniture(canvas, document.page, page_width, page_height, g, texts)

    title_height = g.title_height * mm
    title = Frame(g.inner * mm, page_height - g.top * mm - title_height,
                  page_width - (g.inner + g.outer) * mm, title_height, leftPadding=0,
                  rightPadding=0, topPadding=0, bottomPadding=0, id="title")
    return [
        PageTemplate("first", [title, *columns(g.inner * mm, body_height - title_height,
                                               "first")],
                     onPage=decorate, autoNextPageTemplate="even"),
        PageTemplate("even", columns(g.outer * mm, body_height, "even"), onPage=decorate,
                     autoNextPageTemplate="odd"),
        PageTemplate("odd", columns(g.inner * mm, body_height, "odd"), onPage=decorate,
                     autoNextPageTemplate="even"),
    ]


def _furniture(canvas: Canvas, page: int, page_width: float, page_height: float,
               g: Geometry, texts: PageTexts) -> None:
    """Running head (not on page 1) and page number, both on the outer side."""
    odd = page % 2 == 1
    left = (g.inner if odd else g.outer) * mm
    right = page_width - (g.outer if odd else g.inner) * mm
    outer_x = right if odd else left
    canvas.saveState()
    canvas.setFillColor(MUTED)
    canvas.setStrokeColor(RULE)
    canvas.setLineWidth(0.4)
    if page > 1:
        y = page_height - g.header_offset * mm
        canvas.setFont(FONT_NAMES["regular"], 8)
        if odd:
            canvas.drawRightString(outer_x, y, texts.running_head)
        else:
            canvas.drawString(outer_x, y, texts.running_head)
        canvas.line(left, y - 2.2 * mm, right, y - 2.2 * mm)
    number = texts.page_number.replace("{page}", str(page))
    canvas.setFont(FONT_NAMES["bold"], 8.5)
    y = g.footer_offset * mm
    if odd:
        canvas.drawRightString(outer_x, y, number)
    else:
        canvas.drawString(outer_x, y, number)
    canvas.restoreState()


def _story(blocks: Sequence[PageBlock], styles: dict[str, ParagraphStyle],
           texts: PageTexts, column_width: float, tile_mm: float) -> list[Flowable]:
    story: list[Flowable] = []
    figure_number = 0
    for block in blocks:
        if isinstance(block, TitleBlock):
            name, *rest = block.lines
            story.append(Paragraph(markup(name), styles["title"]))
            for i, line in enumerate(rest):
                story.append(Paragraph(markup(line), styles["tagline" if i == 0 else "version"]))
            story.append(FrameBreak())
        elif isinstance(block, HeadingBlock):
            style = styles["h1" if block.level == 1 else "h2"]
            heading = Paragraph(markup(block.text), style)
            # A heading starts a new column unless a few lines of what follows fit
            # under it. (reportlab's keepWithNext would carry the whole next paragraph
            # along, leaving the end of a column empty.)
            _, height = heading.wrap(column_width, 1000)
            story.append(CondPageBreak(style.spaceBefore + height + style.spaceAfter
                                       + HEADING_KEEPS_LINES * styles["body"].leading))
            story.append(heading)
        elif isinstance(block, TextBlock):
            story.append(Paragraph(markup(block.text), styles["lead" if block.lead else "body"]))
        elif isinstance(block, BulletsBlock):
            story.extend(Paragraph(markup(item), styles["bullet"], bulletText="•")
                         for item in block.items)
        elif isinstance(block, LegendBlock):
            figure_number += 1
            story.extend(_legend(block, styles, texts, figure_number, column_width))
        else:
            figure_number += 1
            width = tile_mm / block.tile_size * block.drawing.width
            # Never wider than a column, nor taller than half of one (a tall figure
            # that fits no frame would stop the build).
            tallest = MAX_FIGURE_HEIGHT_MM * block.drawing.width / block.drawing.height
            picture = Picture(block.drawing, min(width, column_width / mm, tallest))
            story.append(Float([
                Spacer(1, 2),
                PictureFlowable(picture),
                _caption(block.caption, styles, texts, figure_number),
            ]))
    return story


def _caption(text: str, styles: dict[str, ParagraphStyle], texts: PageTexts,
             number: int) -> Paragraph:
    label = texts.figure_label.replace("{number}", str(number))
    return Paragraph(f"<b>{escape(label)}.</b> {markup(text)}", styles["caption"])


def _legend(block: LegendBlock, styles: dict[str, ParagraphStyle], texts: PageTexts,
            number: int, column_width: float) -> list[Flowable]:
    """The legend as one table of (picture, text) rows with its caption, kept in one
    piece: a reader looks symbols up in it, so it never runs on into the next column."""
    picture_column = (LEGEND_PICTURE_MM + 4) * mm
    rows = [[PictureFlowable(picture), Paragraph(markup(text), styles["legend"])]
            for picture, text in block.rows]
    table = Table(rows, colWidths=[picture_column, column_width - picture_column])
    table.setStyle(TableStyle([
        ("FONTNAME", (0, 0), (-1, -1), FONT_NAMES["regular"]),  # never Helvetica
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("ALIGN", (0, 0), (0, -1), "CENTER"),
        ("LEFTPADDING", (0, 0), (-1, -1), 0),
        ("RIGHTPADDING", (0, 0), (-1, -1), 0),
        ("TOPPADDING", (0, 0), (-1, -1), LEGEND_ROW_PADDING),
        ("BOTTOMPADDING", (0, 0), (-1, -1), LEGEND_ROW_PADDING),
        ("LINEBELOW", (0, 0), (-1, -2), 0.3, RULE),
    ]))
    caption = _caption(block.caption, styles, texts, number)
    return [Float([Spacer(1, 2), table, caption])]
