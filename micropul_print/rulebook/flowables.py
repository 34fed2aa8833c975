"""The rulebook's flowables beyond reportlab's own: a picture (a drawing, or a clip of
one), a paragraph that never ends a column inside a word, and a float (a figure with
its caption) that waits for the next column rather than leave this one half empty."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, KeepTogether, Paragraph

from micropul_print.backends.pdf import PageCanvas
from micropul_print.backends.pdf import paint as paint_drawing
from micropul_print.rulebook import reportlab_adapter as private
from micropul_print.rulebook.blocks import Picture
from micropul_print.rulebook.markup import WORD_GAP, split_markup
from micropul_print.rulebook.styles import RULE


def tagged(flowable: Flowable, block: int | None, kind: str) -> Flowable:
    """``flowable`` marked with the block it sets and its kind, for :class:`Placed`."""
    flowable.block, flowable.kind = block, kind
    return flowable


def _paint(canvas: PageCanvas, picture: Picture, height_pt: float) -> None:
    """Paint ``picture`` with its top-left at the current origin's top (the flowable's
    box is ``height_pt`` tall): the same operators on every paper (Laid.pdfs)."""
    x, y, width, height = picture.clip or (0.0, 0.0, picture.drawing.width,
                                            picture.drawing.height)
    scale = picture.size / width
    canvas.saveState()
    if picture.clip is not None:
        path = canvas.beginPath()
        path.rect(0, 0, picture.size * mm, height * scale * mm)
        canvas.clipPath(path, stroke=0, fill=0)
    canvas.translate(0, height_pt)
    canvas.scale(scale, scale)
    canvas.translate(-x * mm, y * mm)
    paint_drawing(canvas, picture.drawing)
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
        self.width, self.height = self.box
        return self.box

    def draw(self) -> None:
        _paint(self.canv, self.picture, self.box[1])



@dataclass
class WrapCache:
    """A book's paragraphs parsed and broken into lines: the same for every layout of
    one book in one language (they depend on the text, the style and the width only),
    so a book laid out several times (figure sizes, balancing, figures set earlier)
    parses each paragraph once and breaks it once per width. Each paragraph gets its
    own copy of what is kept here (reportlab's split edits the words it splits)."""

    # By (text, style name, bullet): what parsing left on the paragraph.
    parsed: dict[tuple[str, str, str], dict[str, Any]] = field(default_factory=dict)
    # By (text, style name, bullet, width): what wrapping left on it.
    lines: dict[tuple[str, str, str, float], dict[str, Any]] = field(default_factory=dict)


class CachedParagraph(Paragraph):  # type: ignore[misc]  # reportlab is untyped
    """A paragraph parsed once and broken into lines once per width in ``wraps`` (a
    :class:`WrapCache` shared by the layouts of one book), not once per layout."""

    def __init__(self, text: str | None, style: ParagraphStyle,
                 bulletText: str | None = None, *, wraps: WrapCache | None = None,
                 **kwargs: Any) -> None:
        # Not the parts reportlab's split makes (no text, their fragments given).
        cached = wraps is not None and text is not None and not kwargs
        key = (text or "", str(style.name), str(bulletText))
        known = wraps.parsed.get(key) if cached and wraps is not None else None
        if known is not None:
            private.restore_parse_state(self, known, style)
        else:
            super().__init__(text, style, bulletText=bulletText, **kwargs)
            if cached and wraps is not None:
                wraps.parsed[key] = private.parse_state(self, style)
        self.source = text  # None for the parts reportlab's own split makes
        self.wraps = wraps

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        if self.wraps is None or self.source is None:
            private.own_fragments(self)
            return tuple(super().wrap(availWidth, availHeight))
        key = (self.source, self.style.name, str(self.bulletText), float(availWidth))
        known = self.wraps.lines.get(key)
        if known is None:
            private.own_fragments(self)  # breaking lines may change the fragments
            size = tuple(super().wrap(availWidth, availHeight))
            state = private.wrap_state(self)
            if state is not None:  # None: no room at all, nothing broken
                self.wraps.lines[key] = state
            return size
        private.restore_wrap_state(self, known)
        return self.width, self.height

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:
        # reportlab's split changes the lines it splits, and hands on fragments
        private.own_lines(self)
        private.own_fragments(self)
        parts: list[Flowable] = super().split(availWidth, availHeight)
        return parts


# A paragraph split between columns leaves at least two lines at the foot of the
# first and carries at least WIDOW_LINES to the top of the next (reportlab's
# allowOrphans=0, allowWidows=0); carried lines as few as that break no word: no
# column opens with "...wird wie üb-" / "lich gewertet.".
WIDOW_LINES = 2


class BookParagraph(CachedParagraph):
    """A paragraph that never ends a column inside a word, nor opens one with a broken
    word in its last WIDOW_LINES lines (nor, ``keep_whole``, is split at all). Where
    reportlab would split it after a line ending in a broken word ("ko-" at the foot of
    a page, "loru" on the next, maybe after a figure), it is split before that word
    instead: the word goes on whole, and the shorter last line is justified like the
    lines above it."""

    # A ruling's box is never split: the whole box goes on to the next column (split
    # only if it is taller than a whole column, where it was moved on once already).
    keep_whole = False

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:
        if self.keep_whole and not private.was_postponed(self):
            return []
        parts: list[Flowable] = super().split(availWidth, availHeight)
        if len(parts) != 2 or self.source is None:
            return parts
        lines = private.line_count(parts[0])  # what fits, widows and orphans considered
        ends = private.line_texts(self._wrapped(self.source, availWidth))
        # A short carried part is set without breaking words (it may take a line more).
        whole_words = len(ends) - lines <= WIDOW_LINES and any(
            end.rstrip().endswith("-") for end in ends[lines:])
        words = WORD_GAP.split(self.source.strip())
        # The most words that take no more lines. The lines of a paragraph's first k
        # words are those of the whole paragraph but the last: line breaks depend only
        # on the words before them, so the count grows with k.
        low, high = 0, len(words) - 1
        while low < high:
            middle = (low + high + 1) // 2
            if self._lines(split_markup(words, middle)[0], availWidth) <= lines:
                low = middle
            else:
                high = middle - 1
        if low == 0:
            return parts
        head, tail = split_markup(words, low)
        first = BookParagraph(head, self.style, bulletText=self.bulletText,
                              wraps=self.wraps)
        private.justify_last_line(first)  # not the paragraph's last line: justified
        rest = BookParagraph(tail, ParagraphStyle(f"{self.style.name}-whole",
                                                  parent=self.style, hyphenationLang="")
                             if whole_words else self.style, wraps=self.wraps)
        for part in (first, rest):  # what Placed records
            part.block, part.kind = getattr(self, "block", None), getattr(self, "kind", None)
        return [first, rest]

    def _lines(self, source: str, width: float) -> int:
        return private.line_count(self._wrapped(source, width))

    def _wrapped(self, source: str, width: float) -> Paragraph:
        paragraph = CachedParagraph(source, self.style, bulletText=self.bulletText,
                                    wraps=self.wraps)
        paragraph.wrap(width, 1e6)
        return paragraph



class Float(KeepTogether):  # type: ignore[misc]  # reportlab is untyped
    """Flowables kept in one piece (a figure and its caption, the legend) that, when
    the rest of a column is too short for them, wait for the top of the next column
    while the text after them fills this one."""

    def height_at(self, canvas: Canvas, width: float, height: float) -> float:
        """How tall the float is in a column ``width`` wide. A waiting float is asked
        at every column it passes; its contents' height depends on the width alone, so
        it is measured once per width."""
        measured: dict[float, float] = self.__dict__.setdefault("_measured", {})
        if width not in measured:
            self.wrapOn(canvas, width, height)
            measured[width] = private.together_height(self)
        return measured[width]

