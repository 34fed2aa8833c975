"""A layout pass of the rulebook and what it leaves: platypus laying the story out on
recording frames (nothing drawn), floats that wait for the next column, headings that
keep lines below them; per page what goes where (:class:`PageRecord`), and the book
that draws those pages on a paper when its PDF is asked for (:class:`Laid`)."""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import BaseDocTemplate, Flowable, Frame

from micropul_print.backends.pdf import CREATOR, FONT_NAMES, PageCanvas, register_fonts
from micropul_print.rulebook import reportlab_adapter as private
from micropul_print.rulebook.blocks import PageTexts
from micropul_print.rulebook.flowables import Float

# The id suffix of a page template with shorter columns (a balanced last page).
SHORT = "-short"


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
    # The figures set earlier than their place (block index: by how many blocks), and
    # those that waited until a section's end (FloatingDocTemplate.flushed).
    earlier: dict[int, int] = field(default_factory=dict)
    flushed: list[int | None] = field(default_factory=list)
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
            buffer = io.BytesIO()
            self.draw(buffer, self.paper or self.page_size)
            self._pdf = buffer.getvalue()
        return self._pdf

    def pdfs(self, papers: Sequence[tuple[float, float]]) -> list[bytes]:
        """The book as PDF bytes on each of ``papers`` (points), in order, each what
        :meth:`on` that paper would give. The pages are drawn once: on the other
        papers they are the same operators but for the offset that centres each page.
        (A booklet's canvas imposes the pages: booklet.render_papers does the same for
        its sheets.)"""
        if self.canvasmaker is not None:
            raise ValueError("Laid.pdfs draws a book's pages; a booklet's sheets are "
                             "booklet.render_papers'")
        buffer = io.BytesIO()
        canvas, centrings = self.draw(buffer, papers[0])
        pdfs = [buffer.getvalue()]
        for paper in papers[1:]:
            line = private.centring_line(*centred(self.page_size, paper))
            pdf, centrings = private.other_paper(canvas, centrings, paper,
                                                 [line] * len(centrings))
            pdfs.append(pdf)
        return pdfs

    def draw(self, buffer: io.BytesIO,
             paper: tuple[float, float]) -> tuple[PageCanvas, list[private.Patch]]:
        """Draw the book on ``paper`` into ``buffer``: the canvas it was saved from
        (:func:`reportlab_adapter.other_paper` formats it again for another paper),
        and where each page's centring went (reportlab_adapter.centre_page)."""
        register_fonts()
        texts = self.texts
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
        centrings = []
        for number, record in enumerate(self.records, start=1):
            canvas.saveState()
            centrings.append(private.centre_page(canvas, dx, dy))
            self.furniture(canvas, number, record.template, self.page_size)
            for flowable, x, y, space in record.drawn:
                flowable.drawOn(canvas, x, y, _sW=space)
            canvas.restoreState()
            canvas.showPage()
        canvas.save()
        return canvas, centrings


def centred(page: tuple[float, float], paper: tuple[float, float]) -> tuple[float, float]:
    """The offset (points) that centres ``page`` on ``paper``."""
    return (paper[0] - page[0]) / 2, (paper[1] - page[1]) / 2


def common_page(papers: Sequence[tuple[float, float]]) -> tuple[float, float]:
    """The largest page that fits on each of ``papers``: a book laid out on it prints
    the same on all of them."""
    return min(w for w, _ in papers), min(h for _, h in papers)


class RecordingFrame(private.PlacingFrame):
    """A frame, without padding, that lays flowables out without drawing them: where
    each would be drawn goes to the canvas's record of the page (:class:`LayoutCanvas`).
    ``box``: its x, y, width and height (points)."""

    def __init__(self, x: float, y: float, width: float, height: float, id: str) -> None:
        super().__init__(x, y, width, height, id)
        self.box = (x, y, width, height)

    def placed(self, flowable: Flowable, canv: Any, x: float, y: float,
               space: float) -> None:
        canv.drawn.append((flowable, x, y, space))


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


def column_of(frame: Frame) -> int | None:
    """The column a frame is (its id ends in its number), None for the title or cover."""
    number = frame.id.rsplit("-", 1)[-1]
    return int(number) if number.isdigit() else None


class FloatingDocTemplate(BaseDocTemplate):  # type: ignore[misc]  # reportlab is untyped
    """A document whose Floats wait instead of leaving the end of a column empty.
    Waiting floats keep their order and go first into the next frame, or at the end
    of the story if no frame ends before it, or before the next heading
    (``starts_section``) if that comes first; while a ruling box (``stays_in_section``)
    waits, they all go before the next heading of any level (``ends_subsection``). A
    heading (``keep_below``) with too little
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
        # The figures (block indexes) that waited until a section's end and were set
        # before its next heading, on a new page: text could have gone around them.
        self.flushed: list[int | None] = []

    def build(self, flowables: list[Flowable], *args: Any, **kwargs: Any) -> None:
        self._story = flowables  # the list build() consumes (not its other queues)
        super().build(flowables, *args, **kwargs)

    def handle_pageBegin(self) -> None:
        # Each page's template by its number: the first one's on page 1, then "even"
        # and "odd" pages (their margins mirrored), or the short page's. reportlab's
        # autoNextPageTemplate chain keeps a stale index after the first switch and
        # gives pages 2 and 3 (6 and 7, ...) the same template.
        page = self.page + 1
        if self.short_page is not None and page == self.short_page[0]:
            wanted = self.short_page[1]
        elif page == 1:
            wanted = self.pageTemplates[0].id
        else:
            wanted = "odd" if page % 2 else "even"
        self.pageTemplate = self.pageTemplates[[t.id for t in self.pageTemplates].index(wanted)]
        super().handle_pageBegin()
        # The furniture the page gets when drawn: its template's (a short page's too).
        self.canv.template = self.pageTemplate.id.removesuffix(SHORT)

    def handle_pageEnd(self) -> None:
        self.fills.append([private.filled(frame) for frame in self.pageTemplate.frames
                           if column_of(frame) is not None])
        super().handle_pageEnd()

    def afterFlowable(self, flowable: Flowable) -> None:
        kind = getattr(flowable, "kind", None)
        if kind is None:
            return
        frame = self.frame
        height = private.drawn_height(flowable)
        bottom = private.cursor(frame)
        self.placed.append(Placed(getattr(flowable, "block", None), self.page,
                                  column_of(frame) or 0, bottom + height, bottom, kind))

    def handle_flowable(self, flowables: list[Flowable]) -> None:
        first = flowables[0] if flowables and flowables is self._story else None
        if (first is not None and private.was_postponed(first) and self.frame is not None
                and not private.at_top(self.frame)):
            # reportlab gives up on a flowable postponed once that fails again, the
            # second frame being empty; here waiting floats may have filled it first.
            private.forget_postponed(first)
        page_ends = (first is not None and getattr(first, "starts_section", False)
                     and self.frame is self.pageTemplate.frames[-1])
        if (first is not None and self._waiting
                and (page_ends or (getattr(first, "ends_subsection", False)
                                   and any(getattr(w, "stays_in_section", False)
                                           for w in self._waiting)))):
            # A section ends in the page's last column: the floats still waiting are
            # its own and go before the next heading (at the top of the next page if
            # they do not fit here) rather than on a page after the section's end.
            # So do they before any heading while a ruling box waits (in order: the
            # box never goes under another heading than its own). Only the former are
            # tried earlier (``flushed``): they leave a page's foot empty; the latter
            # mostly go where the heading's column break would have put them anyway.
            for waiting in self._waiting:
                waiting.due = True
                if page_ends:
                    self.flushed.append(getattr(waiting, "block", None))
            flowables[0:0] = self._waiting
            self._waiting = []
            first = flowables[0]
        if (isinstance(first, Float) and not getattr(first, "due", False)
                and (self._waiting or self._must_wait(first, flowables))):
            self._waiting.append(flowables.pop(0))
        elif (first is not None and self.frame is not None and not private.at_top(self.frame)
                and getattr(first, "keep_below", 0.0) > private.room(self.frame)):
            self.handle_frameEnd()  # a heading, and too little room for lines under it
        else:
            super().handle_flowable(flowables)
        if flowables is self._story and not flowables and self._waiting:
            flowables.extend(self._waiting)  # the story ends before the column does
            self._waiting = []

    def _must_wait(self, float_: Float, flowables: list[Flowable]) -> bool:
        frame = self.frame
        if frame is None or private.at_top(frame) or all(isinstance(f, Float)
                                                         for f in flowables[1:]):
            return False
        return bool(float_.height_at(self.canv, *private.available(frame))
                    + float_.getSpaceBefore() > private.room(frame))

    def handle_frameEnd(self, resume: int = 0) -> None:
        super().handle_frameEnd(resume)
        if self._waiting and self._story is not None:
            # At the top of the next column, after the rest of a list that runs on.
            at = next((i for i, f in enumerate(self._story)
                       if not getattr(f, "continues_list", False)), len(self._story))
            self._story[at:at] = self._waiting
            self._waiting = []
