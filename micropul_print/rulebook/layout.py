"""The rulebook's pages, set with reportlab platypus: two columns under a title on the
first page (or, for a booklet, one column after a cover page), running head and page
numbers, margins mirrored for duplex printing (the wide margin is always on the binding
side), Lato embedded as subsets, reproducible bytes. Game-independent: it sets texts,
figures and legend rows that it is given.

Typesetting rules beyond reportlab's own: no column ends inside a word (a paragraph is
split between words there), figures float to the top of the next column rather than
leave a column half empty, and the columns of the last page are balanced.
"""

from __future__ import annotations

import dataclasses
import functools
import io
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any
from xml.sax.saxutils import escape

import pyphen  # type: ignore[import-untyped]
from reportlab.lib.colors import HexColor
from reportlab.lib.enums import TA_CENTER, TA_JUSTIFY, TA_LEFT
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
    LayoutError,
    PageBreak,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from micropul_print.backends.pdf import CREATOR, FONT_NAMES, PageCanvas, register_fonts
from micropul_print.backends.pdf import draw as draw_drawing
from micropul_print.draw.primitives import Drawing, Group, Primitive
from micropul_print.paper import PAPERS
from micropul_print.rulebook import hyphenation
from micropul_print.rulebook.locales import emphasis

PAPER_SIZES: dict[str, tuple[float, float]] = {paper.name: paper.size
                                               for paper in PAPERS.values()}

INK = HexColor("#212529")
ACCENT = HexColor("#1864ab")
MUTED = HexColor("#495057")
RULE = HexColor("#adb5bd")
RULING_TINT = HexColor("#e7f0f9")  # the box of a ruling of this edition
# The box's margin around a ruling's text (pt), inside the column.
RULING_PADDING = 4.0


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
    columns: int = 2
    # Page 1 is a cover (the title lines, a picture, the language) and the text starts
    # on page 2, without a title band: a booklet's first page.
    cover: bool = False


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
    language: str = ""  # the language's own name, on a booklet's cover


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
class RulingBlock:
    """A ruling of this edition: its heading and text, set in a tinted box."""

    heading: str
    text: str


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


PageBlock = (TitleBlock | HeadingBlock | TextBlock | BulletsBlock | RulingBlock | LegendBlock
             | FigureBlock)


# -- markup -------------------------------------------------------------------------------

# "7 × 7": a size never breaks across lines, in any language.
_TIMES = re.compile(r"(?<=\w) × (?=\w)")


def markup(text: str) -> str:
    """Catalogue text -> reportlab paragraph markup: escape, then ***bold italic***,
    **bold**, *italic* (checked to nest: locales.check_syntax)."""
    return emphasis(_TIMES.sub("\u00a0×\u00a0", escape(text)))


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
        self.width, self.height = self.box
        return self.box

    def draw(self) -> None:
        _paint(self.canv, self.picture, self.box[1])


# Where reportlab breaks a paragraph into words: any white space but the no-break space.
_WORD_GAP = re.compile(r"[^\S\u00a0]+")
_TAG = re.compile(r"<(/?)([a-z]+)>")


def split_markup(words: Sequence[str], count: int) -> tuple[str, str]:
    """Paragraph markup ``words`` (as split at _WORD_GAP) cut after ``count`` words
    into two paragraphs' markup: tags open at the cut are closed in the first and
    opened again in the second."""
    open_tags: list[str] = []
    for word in words[:count]:
        for closing, tag in _TAG.findall(word):
            if closing:
                open_tags.remove(tag)
            else:
                open_tags.append(tag)
    head = " ".join(words[:count]) + "".join(f"</{tag}>" for tag in reversed(open_tags))
    tail = "".join(f"<{tag}>" for tag in open_tags) + " ".join(words[count:])
    return head, tail


class BookParagraph(Paragraph):  # type: ignore[misc]  # reportlab is untyped
    """A paragraph that never ends a column inside a word. Where reportlab would split
    it after a line ending in a broken word ("ko-" at the foot of a page, "loru" on the
    next, maybe after a figure), it is split before that word instead: the word goes
    on whole, and the shorter last line is justified like the lines above it."""

    def __init__(self, text: str | None, style: ParagraphStyle,
                 bulletText: str | None = None, **kwargs: Any) -> None:
        super().__init__(text, style, bulletText=bulletText, **kwargs)
        self.source = text  # None for the parts reportlab's own split makes

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:
        parts: list[Flowable] = super().split(availWidth, availHeight)
        if len(parts) != 2 or self.source is None:
            return parts
        lines = len(parts[0].blPara.lines)  # what fits, widows and orphans considered
        words = _WORD_GAP.split(self.source.strip())
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
        first = BookParagraph(head, self.style, bulletText=self.bulletText)
        first._JustifyLast = 1  # not the paragraph's last line: justified
        rest = BookParagraph(tail, self.style)
        for part in (first, rest):  # what Placed records
            part.block, part.kind = getattr(self, "block", None), getattr(self, "kind", None)
        return [first, rest]

    def _lines(self, source: str, width: float) -> int:
        paragraph = Paragraph(source, self.style, bulletText=self.bulletText)
        paragraph.wrap(width, 1e6)
        return len(paragraph.blPara.lines)


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
        self.dictionary = (hyphenation.dictionary(dictionary, HYPHEN_LEFT, HYPHEN_RIGHT)
                           if dictionary else None)
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


# -- the document -------------------------------------------------------------------------


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
            # KeepTogether.wrap answers a huge height to force its split; _H is the real one.
            measured[width] = self._H
        return measured[width]


@dataclass
class Placed:
    """Where a flowable of the story was drawn: its block (index in the blocks given
    to :func:`render`, None for page furniture such as a cover), page (from 1),
    column (from 0) and top and bottom (points from the page's foot)."""

    block: int | None
    page: int
    column: int
    top: float
    bottom: float
    kind: str  # "text", "heading", "figure" or "title"


@dataclass(frozen=True)
class PageRecord:
    """One laid-out page: its template (which furniture it gets) and each flowable
    the columns hold with where it goes (x, y and the width it leaves, as reportlab's
    ``drawOn`` takes them), in the coordinates of the page it was laid out on."""

    template: str
    drawn: list[tuple[Flowable, float, float, float]]


@dataclass
class Laid:
    """One layout of the book: its pages, where everything went, and what draws them.

    A layout is made on one page size and drawn, unchanged, on any paper at least that
    big (:meth:`on`): the same pages, line for line, on A4 and on Letter. Most layouts
    are tries that are never kept (other figure sizes, other column heights), so
    nothing is drawn until a PDF is asked for."""

    pages: int
    tile_mm: float
    page_size: tuple[float, float]  # the page it was laid out on (points)
    records: list[PageRecord]
    furniture: Callable[[Canvas, int, str, tuple[float, float]], None]
    texts: PageTexts
    # Per page, the height filled in each column (points, from its top).
    fills: list[list[float]] = field(default_factory=list)
    placed: list[Placed] = field(default_factory=list)
    # What :attr:`pdf` draws on: the paper (points) and its canvas; None: the page
    # laid out on, on a PageCanvas.
    paper: tuple[float, float] | None = None
    canvasmaker: Callable[..., PageCanvas] | None = None
    _pdf: bytes | None = None

    def on(self, paper: tuple[float, float],
           canvasmaker: Callable[..., PageCanvas] | None = None) -> Laid:
        """This layout to be drawn on ``paper`` (width, height in points), each page
        centred on it, on ``canvasmaker``'s canvas (default: a PageCanvas): nothing is
        laid out again."""
        return dataclasses.replace(self, paper=paper, canvasmaker=canvasmaker, _pdf=None)

    @property
    def pdf(self) -> bytes:
        """The book as PDF bytes on its paper (drawn once, when first asked for)."""
        if self._pdf is None:
            self._pdf = self._draw()
        return self._pdf

    def _draw(self) -> bytes:
        register_fonts()
        texts, paper = self.texts, self.paper or self.page_size
        buffer = io.BytesIO()
        canvas = (self.canvasmaker or PageCanvas)(
            buffer, pagesize=paper, invariant=1, pageCompression=1, lang=texts.lang,
            # Lato from the first operator on: no standard-14 font is ever referenced.
            initialFontName=FONT_NAMES["regular"])
        canvas.setAuthor(texts.author)
        canvas.setTitle(texts.title)
        canvas.setSubject(texts.subject)
        canvas.setCreator(CREATOR)
        canvas.setProducer(CREATOR)
        if self.canvasmaker is None:  # a book's pages (a booklet's canvas says its own)
            # Printed at actual size (the pages are centred on the paper, not fitted to
            # it), double-sided as its mirrored margins expect: portrait pages turn on
            # the long edge, whatever printer the tile sheets' --duplex describes.
            canvas.setViewerPreference("PrintScaling", "None")
            canvas.setViewerPreference("Duplex", "DuplexFlipLongEdge")
        dx, dy = centred(self.page_size, paper)
        for number, record in enumerate(self.records, start=1):
            canvas.saveState()
            canvas.translate(dx, dy)
            self.furniture(canvas, number, record.template, self.page_size)
            for flowable, x, y, space in record.drawn:
                flowable.drawOn(canvas, x, y, _sW=space)
            canvas.restoreState()
            canvas.showPage()
        canvas.save()
        return buffer.getvalue()


def centred(page: tuple[float, float], paper: tuple[float, float]) -> tuple[float, float]:
    """The offset (points) that centres ``page`` on ``paper``."""
    return (paper[0] - page[0]) / 2, (paper[1] - page[1]) / 2


def common_page(papers: Sequence[tuple[float, float]]) -> tuple[float, float]:
    """The largest page that fits on each of ``papers``: a book laid out on it prints
    the same on all of them."""
    return min(w for w, _ in papers), min(h for _, h in papers)


class RecordingFrame(Frame):  # type: ignore[misc]  # reportlab is untyped
    """A frame, without padding, that lays flowables out without drawing them: where
    each would be drawn goes to the canvas's record of the page (:class:`LayoutCanvas`)."""

    def __init__(self, x: float, y: float, width: float, height: float, id: str) -> None:
        super().__init__(x, y, width, height, leftPadding=0, rightPadding=0, topPadding=0,
                         bottomPadding=0, id=id)

    def _add(self, flowable: Flowable, canv: Any, trySplit: int = 0) -> int:
        where: list[tuple[float, float, float]] = []

        def record(canvas: Any, x: float, y: float, _sW: float = 0) -> None:
            where.append((x, y, _sW))

        flowable.drawOn = record  # reportlab's Frame._add draws through this
        try:
            added: int = super()._add(flowable, canv, trySplit)
        finally:
            del flowable.drawOn
        if added and where:
            canv.drawn.append((flowable, *where[0]))
        return added

    add = _add  # Frame binds its own _add to this name


class LayoutCanvas(PageCanvas):
    """The canvas of a layout pass, never saved: it keeps, per page, what the
    recording frames placed (the doc template names each page's template)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.drawn: list[tuple[Flowable, float, float, float]] = []
        self.records: list[PageRecord] = []
        self.template = ""

    def showPage(self) -> None:  # reportlab's name
        self.records.append(PageRecord(self.template, self.drawn))
        self.drawn = []
        super().showPage()


def _column(frame: Frame) -> int | None:
    """The column a frame is (its id ends in its number), None for the title or cover."""
    number = frame.id.rsplit("-", 1)[-1]
    return int(number) if number.isdigit() else None


class FloatingDocTemplate(BaseDocTemplate):  # type: ignore[misc]  # reportlab is untyped
    """A document whose Floats wait instead of leaving the end of a column empty.
    Waiting floats keep their order and go first into the next frame, or at the end
    of the story if no frame ends before it. A heading (``keep_below``) with too little
    room under it for a few lines goes to the next column. It records where each
    flowable went and how full each column is, and can set one page (the last) with
    shorter columns."""

    def __init__(self, *args: Any, short_page: tuple[int, str] | None = None,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._waiting: list[Flowable] = []
        self._story: list[Flowable] | None = None
        self.short_page = short_page  # (page number, the template to set it with)
        self.fills: list[list[float]] = []
        self.placed: list[Placed] = []

    def build(self, flowables: list[Flowable], *args: Any, **kwargs: Any) -> None:
        self._story = flowables  # the list build() consumes (not its other queues)
        super().build(flowables, *args, **kwargs)

    def handle_pageBegin(self) -> None:
        if self.short_page is not None and self.page + 1 == self.short_page[0]:
            self.pageTemplate = self.pageTemplates[
                [t.id for t in self.pageTemplates].index(self.short_page[1])]
        super().handle_pageBegin()
        # The furniture the page gets when drawn: its template's (a short page's too).
        self.canv.template = self.pageTemplate.id.removesuffix(SHORT)

    def handle_pageEnd(self) -> None:
        self.fills.append([frame._y2 - frame._y for frame in self.pageTemplate.frames
                           if _column(frame) is not None])
        super().handle_pageEnd()

    def afterFlowable(self, flowable: Flowable) -> None:
        kind = getattr(flowable, "kind", None)
        if kind is None:
            return
        frame = self.frame
        height = getattr(flowable, "_height", 0) or flowable.height  # a table's, or others'
        self.placed.append(Placed(getattr(flowable, "block", None), self.page,
                                  _column(frame) or 0, frame._y + height, frame._y, kind))

    def handle_flowable(self, flowables: list[Flowable]) -> None:
        first = flowables[0] if flowables and flowables is self._story else None
        if (first is not None and getattr(first, "_postponed", False) and self.frame is not None
                and not self.frame._atTop):
            # reportlab gives up on a flowable postponed once that fails again, the
            # second frame being empty; here waiting floats may have filled it first.
            del first._postponed
        if isinstance(first, Float) and (self._waiting or self._must_wait(first, flowables)):
            self._waiting.append(flowables.pop(0))
        elif (first is not None and self.frame is not None and not self.frame._atTop
                and getattr(first, "keep_below", 0.0) > self.frame._y - self.frame._y1p):
            self.handle_frameEnd()  # a heading, and too little room for lines under it
        else:
            super().handle_flowable(flowables)
        if flowables is self._story and not flowables and self._waiting:
            flowables.extend(self._waiting)  # the story ends before the column does
            self._waiting = []

    def _must_wait(self, float_: Float, flowables: list[Flowable]) -> bool:
        frame = self.frame
        if frame is None or frame._atTop or all(isinstance(f, Float) for f in flowables[1:]):
            return False
        return bool(float_.height_at(self.canv, frame._getAvailableWidth(), frame._aH)
                    + float_.getSpaceBefore() > frame._y - frame._y1p)

    def handle_frameEnd(self, resume: int = 0) -> None:
        super().handle_frameEnd(resume)
        if self._waiting and self._story is not None:
            self._story[0:0] = self._waiting
            self._waiting = []


@dataclass(frozen=True)
class _Setting:
    """What every layout of one book shares; only the figure size and the height of
    the last page's columns change between them."""

    blocks: Sequence[PageBlock]
    texts: PageTexts
    page_size: tuple[float, float]  # laid out on
    geometry: Geometry


# A book is laid out on the largest page that fits on both papers and drawn centred
# on either: the same pages, line for line, whichever paper a reader prints on.
BOOK_PAGE = common_page(list(PAPER_SIZES.values()))


def render(blocks: Sequence[PageBlock], texts: PageTexts,
           paper: str | tuple[float, float], geometry: Geometry = GEOMETRY, *,
           page_budget: int | None = None, pages_per_sheet: int = 1) -> bytes:
    """The rulebook as PDF bytes; identical input gives identical bytes."""
    return lay_out(blocks, texts, paper, geometry, page_budget=page_budget,
                   pages_per_sheet=pages_per_sheet).pdf


def render_papers(blocks: Sequence[PageBlock], texts: PageTexts, papers: Sequence[str], *,
                  page_budget: int | None = None) -> dict[str, bytes]:
    """The rulebook as PDF bytes on each of ``papers`` (names of PAPER_SIZES), laid out
    once (on BOOK_PAGE) and drawn on each."""
    laid = lay_out(blocks, texts, BOOK_PAGE, page_budget=page_budget)
    return {paper: laid.on(PAPER_SIZES[paper]).pdf for paper in papers}


def lay_out(blocks: Sequence[PageBlock], texts: PageTexts,
            paper: str | tuple[float, float], geometry: Geometry = GEOMETRY, *,
            page_budget: int | None = None, pages_per_sheet: int = 1) -> Laid:
    """The rulebook laid out: where everything went, and its PDF (:attr:`Laid.pdf`)
    on ``paper``.

    ``paper`` is a name of PAPER_SIZES or a page size in points. A paper named gets
    its pages laid out on BOOK_PAGE, centred on it (what fits on every paper: the book
    then reads the same on all); a size, on the size itself. :meth:`Laid.on` draws the
    same layout on another paper.

    Figures get the largest tile size of FIGURE_TILE_MM that needs no more sheets than
    the smallest (a sheet is ``pages_per_sheet`` pages: 1 for a book, 4 for a booklet):
    a translation that runs a few lines onto an extra page is set with slightly
    smaller figures instead. A book that fits in ``page_budget`` pages with the
    largest figures is kept without trying the others (each try is a whole layout).
    The last page's columns are then balanced (:func:`balance`)."""
    setting = _Setting(blocks, texts, BOOK_PAGE if isinstance(paper, str) else paper,
                       geometry)
    laid = balance(setting, _figure_size(setting, page_budget, pages_per_sheet))
    return laid.on(PAPER_SIZES[paper]) if isinstance(paper, str) else laid


def _figure_size(setting: _Setting, page_budget: int | None, pages_per_sheet: int) -> Laid:
    def sheets(laid: Laid) -> int:
        return -(-laid.pages // pages_per_sheet)

    largest, smallest = FIGURE_TILE_MM[0], FIGURE_TILE_MM[-1]
    laid = _render(setting, largest)
    if page_budget is not None and laid.pages <= page_budget:
        return laid
    if sheets(laid) <= -(-_fewest_pages(setting, laid, smallest) // pages_per_sheet):
        return laid  # no figure size could need fewer sheets: nothing else to try
    fewest = _render(setting, smallest)
    if sheets(laid) <= sheets(fewest):
        return laid
    for tile_mm in FIGURE_TILE_MM[1:-1]:
        laid = _render(setting, tile_mm)
        if sheets(laid) <= sheets(fewest):
            return laid
    return fewest


# What a column may hold more or less of the same content once laid out otherwise
# (points): a space before or after dropped or kept where the column breaks.
COLUMN_SPACING_SLACK = 12.4


def _fewest_pages(setting: _Setting, laid: Laid, tile_mm: float) -> int:
    """A lower bound on the pages the book needs with figure tiles ``tile_mm`` wide,
    from ``laid`` (a layout with larger figures): the column height it fills, less what
    the smaller figures save and COLUMN_SPACING_SLACK per column, packed with no gap
    into the pages' columns. Lets a layout that already needs no more sheets than that
    be kept without laying out the book again (each try is a whole layout)."""
    g = setting.geometry
    if _column_height(setting, 2) <= 0:  # margins taller than the page: no bound
        return 1
    column_width = _column_width(setting.page_size[0], g)
    saved = 0.0
    for block in setting.blocks:
        if isinstance(block, FigureBlock):
            ratio = block.drawing.height / block.drawing.width * mm
            saved += ratio * (_figure_width(block, laid.tile_mm, column_width)
                              - _figure_width(block, tile_mm, column_width))
    columns = sum(len(page) for page in laid.fills)
    needed = sum(sum(page) for page in laid.fills) - saved - COLUMN_SPACING_SLACK * columns
    pages, room = 0, 0.0
    while pages == 0 or room < needed:
        pages += 1
        if not (g.cover and pages == 1):  # a cover page holds no column
            room += g.columns * max(0.0, _column_height(setting, pages))
    return pages


# Balancing tries columns at least this much taller each time (points): half a line.
BALANCE_STEP = 6.0


def balance(setting: _Setting, laid: Laid) -> Laid:
    """``laid`` again with the columns of its last page shortened to about half their
    content each (the left one full, the right one empty before), the shortest height
    that keeps the page count: tried from the even share (or the tallest figure there)
    upward, by BALANCE_STEP or by half what ran over, below the taller column's height.
    A one-column book, or a last page already balanced, is returned as it is."""
    fills = laid.fills[-1]
    if len(fills) < 2 or max(fills) - min(fills) <= 2 * BALANCE_STEP:
        return laid
    figures: dict[int | None, list[Placed]] = {}
    for placed in laid.placed:
        if placed.page == laid.pages and placed.kind == "figure":
            figures.setdefault(placed.block, []).append(placed)
    tallest = max((max(p.top for p in parts) - min(p.bottom for p in parts)
                   for parts in figures.values()), default=0.0)
    # Columns as tall as the taller one already is would balance nothing: the tries
    # stop there (each try is a whole layout).
    tallest_column = min(_column_height(setting, laid.pages), max(fills))
    height = max(sum(fills) / len(fills), tallest + BALANCE_STEP)
    while height < tallest_column:
        try:
            tried = _render(setting, laid.tile_mm, short=(laid.pages, height))
        except LayoutError:  # something taller than the columns tried
            height += 4 * BALANCE_STEP
            continue
        if tried.pages == laid.pages:
            return tried
        over = sum(sum(page) for page in tried.fills[laid.pages:])
        height += max(BALANCE_STEP, over / len(fills))
    return laid


def _column_height(setting: _Setting, page: int) -> float:
    g = setting.geometry
    height = setting.page_size[1] - (g.top + g.bottom) * mm
    return float(height - (g.title_height * mm if page == 1 and not g.cover else 0))


def _render(setting: _Setting, tile_mm: float,
           short: tuple[int, float] | None = None) -> Laid:
    """The book laid out (not drawn) with figure tiles ``tile_mm`` wide; ``short`` =
    (page, height): that page's columns are only ``height`` points tall."""
    register_fonts()
    texts, geometry = setting.texts, setting.geometry
    page_width, page_height = setting.page_size
    styles = _styles(texts.lang, texts.unbreakable)
    templates = _templates(page_width, page_height, geometry)
    short_page = None
    if short is not None:
        page, height = short
        template = _short_template(templates, page, height)
        templates.append(template)
        short_page = (page, template.id)
    document = FloatingDocTemplate(
        io.BytesIO(), pagesize=(page_width, page_height), invariant=1,
        short_page=short_page, initialFontName=FONT_NAMES["regular"])
    document.addPageTemplates(templates)
    story = _story(setting.blocks, styles, texts, geometry,
                   _column_width(page_width, geometry), tile_mm)
    document._doSave = 0  # reportlab's switch: a layout pass writes no PDF
    document.build(story, canvasmaker=LayoutCanvas)
    records = document.canv.records
    if len(records) != document.page:
        raise AssertionError(f"{len(records)} pages recorded, {document.page} laid out")
    return Laid(int(document.page), tile_mm, setting.page_size, records,
                functools.partial(_page_furniture, geometry=geometry, texts=texts), texts,
                document.fills, document.placed)


def _column_width(page_width: float, g: Geometry) -> float:
    return float(page_width - (g.inner + g.outer + (g.columns - 1) * g.gutter) * mm) / g.columns


# The id suffix of a page template with shorter columns (a balanced last page).
SHORT = "-short"


def _templates(page_width: float, page_height: float, g: Geometry) -> list[PageTemplate]:
    """The page templates: "first" (page 1: the title band over the columns) or
    "cover", then "even" and "odd" pages in turn. Their frames record, not draw; the
    furniture comes when the pages are drawn (:func:`_page_furniture`)."""
    column = _column_width(page_width, g)
    body_height = page_height - (g.top + g.bottom) * mm

    def columns(left: float, height: float, name: str) -> list[Frame]:
        return [
            RecordingFrame(left + i * (column + g.gutter * mm), g.bottom * mm, column,
                           height, f"{name}-{i}")
            for i in range(g.columns)
        ]

    pages = [
        PageTemplate("even", columns(g.outer * mm, body_height, "even"),
                     autoNextPageTemplate="odd"),
        PageTemplate("odd", columns(g.inner * mm, body_height, "odd"),
                     autoNextPageTemplate="even"),
    ]
    if g.cover:
        cover = RecordingFrame(g.inner * mm, g.bottom * mm,
                               page_width - (g.inner + g.outer) * mm, body_height, "cover")
        return [PageTemplate("cover", [cover], autoNextPageTemplate="even"), *pages]
    title_height = g.title_height * mm
    title = RecordingFrame(g.inner * mm, page_height - g.top * mm - title_height,
                           page_width - (g.inner + g.outer) * mm, title_height, "title")
    return [
        PageTemplate("first", [title, *columns(g.inner * mm, body_height - title_height,
                                               "first")],
                     autoNextPageTemplate="even"),
        *pages,
    ]


def _short_template(templates: list[PageTemplate], page: int,
                    height: float) -> PageTemplate:
    """The template of ``page`` with its columns ``height`` points tall, at their top."""
    if page == 1:
        model = templates[0]
    else:
        model = next(t for t in templates if t.id == ("odd" if page % 2 else "even"))
    frames = []
    for frame in model.frames:
        if _column(frame) is not None:
            top = frame._y1 + frame._height
            frame = RecordingFrame(frame._x1, top - height, frame._width, height, frame.id)
        frames.append(frame)
    return PageTemplate(f"{model.id}{SHORT}", frames,
                        autoNextPageTemplate=model.autoNextPageTemplate)


def _page_furniture(canvas: Canvas, page: int, template: str,
                    page_size: tuple[float, float], *, geometry: Geometry,
                    texts: PageTexts) -> None:
    """What a page of ``template`` shows around its columns."""
    if template == "cover":
        _cover_furniture(canvas, page_size[0], geometry, texts)
    else:
        _furniture(canvas, page, page_size[0], page_size[1], geometry, texts)


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


def _cover_furniture(canvas: Canvas, page_width: float, g: Geometry,
                     texts: PageTexts) -> None:
    """The cover's foot, centred under a short rule: the document's title, and the
    language it is written in."""
    centre = (g.inner * mm + page_width - g.outer * mm) / 2
    y = g.bottom * mm
    canvas.saveState()
    canvas.setStrokeColor(RULE)
    canvas.setLineWidth(0.4)
    canvas.line(centre - 20 * mm, y + 11 * mm, centre + 20 * mm, y + 11 * mm)
    canvas.setFillColor(MUTED)
    canvas.setFont(FONT_NAMES["regular"], 9.5)
    canvas.drawCentredString(centre, y + 5 * mm, texts.title)
    canvas.setFont(FONT_NAMES["bold"], 9.5)
    canvas.drawCentredString(centre, y, texts.language)
    canvas.restoreState()


def _tagged(flowable: Flowable, block: int | None, kind: str) -> Flowable:
    flowable.block, flowable.kind = block, kind
    return flowable


# The cover picture: at most this wide and tall (mm).
COVER_PICTURE_MM = (100.0, 85.0)


def _shapes(items: Sequence[Primitive]) -> int:
    return sum(_shapes(item.items) if isinstance(item, Group) else 1 for item in items)


def cover_figure(blocks: Sequence[PageBlock]) -> FigureBlock | None:
    """The figure a booklet's cover shows, the most of the game at a glance: the
    largest in tiles, and of those the one drawn with the most shapes (e.g. a whole
    board at the end of a game)."""
    figures = [b for b in blocks if isinstance(b, FigureBlock)]
    if not figures:
        return None
    return max(figures, key=lambda f: (round(f.drawing.width * f.drawing.height
                                             / f.tile_size ** 2, 3), _shapes(f.drawing.items)))


def _cover(block: TitleBlock, blocks: Sequence[PageBlock],
           styles: dict[str, ParagraphStyle], frame_width: float) -> list[Flowable]:
    """Page 1 of a booklet: the title lines, then the cover figure (without its
    caption), then a page break."""
    name, *rest = block.lines
    story: list[Flowable] = [Spacer(1, 22 * mm),
                             _tagged(Paragraph(markup(name), styles["cover"]), None, "title")]
    for i, line in enumerate(rest):
        story.append(Paragraph(markup(line), styles["tagline" if i == 0 else "version"]))
    figure = cover_figure(blocks)
    if figure is not None:
        width_mm, height_mm = COVER_PICTURE_MM
        size = min(width_mm, frame_width / mm,
                   height_mm * figure.drawing.width / figure.drawing.height)
        story += [Spacer(1, 18 * mm), PictureFlowable(Picture(figure.drawing, size))]
    story.append(PageBreak())
    return story


def _story(blocks: Sequence[PageBlock], styles: dict[str, ParagraphStyle],
           texts: PageTexts, geometry: Geometry, column_width: float,
           tile_mm: float) -> list[Flowable]:
    story: list[Flowable] = []
    figure_number = 0
    for index, block in enumerate(blocks):
        if isinstance(block, TitleBlock):
            if geometry.cover:
                story.extend(_cover(block, blocks, styles,
                                    column_width * geometry.columns))
                continue
            name, *rest = block.lines
            story.append(_tagged(Paragraph(markup(name), styles["title"]), index, "title"))
            for i, line in enumerate(rest):
                story.append(Paragraph(markup(line), styles["tagline" if i == 0 else "version"]))
            story.append(FrameBreak())
        elif isinstance(block, HeadingBlock):
            style = styles["h1" if block.level == 1 else "h2"]
            heading = _tagged(Paragraph(markup(block.text), style), index, "heading")
            # A heading starts a new column unless a few lines of what follows fit
            # under it. (reportlab's keepWithNext would carry the whole next paragraph
            # along, leaving the end of a column empty.) The CondPageBreak decides
            # before the heading; keep_below again when it comes (handle_flowable):
            # waiting figures may have filled the top of a new column in between.
            _, height = heading.wrap(column_width, 1000)
            heading.keep_below = (style.spaceBefore + height + style.spaceAfter
                                  + HEADING_KEEPS_LINES * styles["body"].leading)
            story.append(CondPageBreak(heading.keep_below))
            story.append(heading)
        elif isinstance(block, TextBlock):
            story.append(_tagged(BookParagraph(markup(block.text),
                                               styles["lead" if block.lead else "body"]),
                                 index, "text"))
        elif isinstance(block, BulletsBlock):
            story.extend(_tagged(BookParagraph(markup(item), styles["bullet"], bulletText="•"),
                                 index, "text")
                         for item in block.items)
        elif isinstance(block, RulingBlock):
            # One paragraph, its heading the first line: split at a column end, each
            # part is boxed.
            story.append(_tagged(BookParagraph(f"<b>{markup(block.heading)}</b><br/>"
                                               f"{markup(block.text)}", styles["ruling"]),
                                 index, "text"))
        elif isinstance(block, LegendBlock):
            figure_number += 1
            story.append(_legend(block, styles, texts, figure_number, column_width, index))
        else:
            figure_number += 1
            picture = Picture(block.drawing, _figure_width(block, tile_mm, column_width))
            story.append(Float([
                Spacer(1, 2),
                _tagged(PictureFlowable(picture), index, "figure"),
                _tagged(_caption(block.caption, styles, texts, figure_number), index, "figure"),
            ]))
    return story


def _figure_width(block: FigureBlock, tile_mm: float, column_width: float) -> float:
    """How wide (mm) a figure is drawn with tiles ``tile_mm`` wide: never wider than a
    column, nor taller than MAX_FIGURE_HEIGHT_MM (a tall figure that fits no frame
    would stop the build)."""
    width = tile_mm / block.tile_size * block.drawing.width
    tallest = MAX_FIGURE_HEIGHT_MM * block.drawing.width / block.drawing.height
    return float(min(width, column_width / mm, tallest))


def _caption(text: str, styles: dict[str, ParagraphStyle], texts: PageTexts,
             number: int) -> Paragraph:
    label = texts.figure_label.replace("{number}", str(number))
    return Paragraph(f"<b>{escape(label)}.</b> {markup(text)}", styles["caption"])


def _legend(block: LegendBlock, styles: dict[str, ParagraphStyle], texts: PageTexts,
            number: int, column_width: float, index: int) -> Float:
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
    caption = _tagged(_caption(block.caption, styles, texts, number), index, "figure")
    return Float([Spacer(1, 2), _tagged(table, index, "figure"), caption])
