"""A rulebook as a saddle-stitched booklet: pages of half the paper (A5 on A4, half
Letter on Letter), set in one column after a cover page, printed two up on the
landscape sheet in folding order, to be printed double-sided flipping on the short
edge, folded in the middle and stapled.

The pages are laid out by :mod:`micropul_print.rulebook.layout` like the full-size
book, on a canvas (:class:`ImposingCanvas`) that keeps each page as a PDF form and, when
the book is complete, draws the forms on the sheets in :func:`imposition` order: the
PDF holds sheets, the text stays extractable, the fonts are embedded once.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import partial
from typing import Any

from micropul_print.backends.pdf import PageCanvas
from micropul_print.base.paper import PAPERS
from micropul_print.rulebook import layout
from micropul_print.rulebook import reportlab_adapter as private
from micropul_print.rulebook.document import centred

# Per paper: the booklet's page and the sheet it is printed on (points).
BOOKLET_PAPERS: dict[str, tuple[tuple[float, float], tuple[float, float]]] = {
    paper.name: (paper.booklet_page, paper.booklet_sheet) for paper in PAPERS.values()}
# One column, 113.7 mm wide (BOOKLET_PAGE's width less the margins); the wide margin
# on the fold side; page 1 is the cover. Margins as narrow as a half-size page reads
# well with (running head and page number still 8 mm from the edge, past any home
# printer's 5 mm): the longest shipped books, with their ruling boxes, then fold from
# two sheets (8 pages) rather than three.
BOOKLET_GEOMETRY = layout.Geometry(inner=15.0, outer=11.0, top=13.5, bottom=14.0,
                                   gutter=0.0, title_height=0.0, header_offset=8.0,
                                   footer_offset=8.0, columns=1, cover=True)
PAGES_PER_SHEET = 4  # two on each side


def imposition(pages: int) -> list[tuple[int | None, int | None]]:
    """The sides of the sheets in printing order (front of sheet 1, its back, front of
    sheet 2, ...), each as (left page, right page): for n pages rounded up to a
    multiple of 4, sheet k (from 0) has [n - 2k, 2k + 1] on its front and
    [2k + 2, n - 2k - 1] on its back, so that the folded stack reads 1, 2, ..., n.
    Pages past ``pages`` are blank (None): the last pages of the booklet."""
    total = -(-pages // PAGES_PER_SHEET) * PAGES_PER_SHEET
    sides: list[tuple[int | None, int | None]] = []
    for sheet in range(total // PAGES_PER_SHEET):
        for left, right in ((total - 2 * sheet, 2 * sheet + 1),
                            (2 * sheet + 2, total - 2 * sheet - 1)):
            sides.append((left if left <= pages else None, right if right <= pages else None))
    return sides


class ImposingCanvas(PageCanvas):
    """A canvas on which each page drawn becomes a form XObject; saving draws them
    two up on a sheet, in :func:`imposition` order, each page centred on its half of
    the sheet. ``papers``: (booklet page, sheet) of each paper the booklet is for, in
    points; the sheets are those of the first, and :attr:`imposed` holds, per sheet
    side, what :func:`reportlab_adapter.other_paper` changes for each of the others
    (the pages, drawn on the canvas's own page size, are the same forms on all). The
    PDF asks viewers to print it duplex, flipping on the short edge, and at its
    actual size."""

    def __init__(self, *args: Any, papers: Sequence[tuple[tuple[float, float],
                                                        tuple[float, float]]],
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.papers = list(papers)
        self.laid_page = self.page_size  # the pages' own size (the sheets' come later)
        self.pages = 0
        # Per sheet side: where its operators are, and what they read on each paper.
        self.imposed: list[tuple[private.Patch, list[str]]] = []
        self.setViewerPreference("Duplex", "DuplexFlipShortEdge")
        self.setViewerPreference("PrintScaling", "None")
        self.beginForm(self._form(1))

    @staticmethod
    def _form(page: int) -> str:
        return f"BookletPage{page}"

    def showPage(self) -> None:  # reportlab's name
        self.endForm()
        self.pages += 1
        self.beginForm(self._form(self.pages + 1))

    def save(self) -> None:
        # The form begun after the last page holds nothing: drop it (no endForm,
        # which would write it into the PDF).
        private.drop_open_form(self)
        for side in imposition(self.pages):
            self.setPageSize(self.papers[0][1])
            texts = [private.operators_of(self, partial(self._impose, side, page, sheet))
                     for page, sheet in self.papers]
            self.imposed.append((private.Patch(private.stream_offset(self), texts[0]), texts))
            self._impose(side, *self.papers[0])
            super().showPage()
        super().save()

    def _impose(self, side: tuple[int | None, int | None], page: tuple[float, float],
                sheet: tuple[float, float]) -> None:
        """Draw the pages of ``side`` on ``sheet``, each centred on its half of it:
        a ``page`` wide and high, either side of the fold."""
        page_width, page_height = page
        margin_x = (sheet[0] - 2 * page_width) / 2
        margin_y = (sheet[1] - page_height) / 2
        dx, dy = centred(self.laid_page, page)
        for slot, number in enumerate(side):
            if number is not None:
                self.saveState()
                self.translate(margin_x + slot * page_width + dx, margin_y + dy)
                self.doForm(self._form(number))
                self.restoreState()


# Booklets are laid out on the largest page that fits on A5 and on half Letter, and
# drawn centred on either (as books are: layout.BOOK_PAGE).
BOOKLET_PAGE = layout.common_page([page for page, _sheet in BOOKLET_PAPERS.values()])


def render(blocks: Sequence[layout.PageBlock], texts: layout.PageTexts, paper: str,
           *, page_budget: int | None = None) -> bytes:
    """The booklet as PDF bytes (sheets ready to print); identical input, identical
    bytes. ``page_budget`` counts booklet pages, cover included."""
    return lay_out(blocks, texts, paper, page_budget=page_budget).pdf


def render_papers(blocks: Sequence[layout.PageBlock], texts: layout.PageTexts,
                  papers: Sequence[str], *, page_budget: int | None = None) -> dict[str, bytes]:
    """The booklet as PDF bytes on each of ``papers``, laid out once and its pages
    drawn once: on the other papers only the sheets differ (ImposingCanvas.imposed)."""
    laid = lay_out(blocks, texts, papers[0], page_budget=page_budget)
    drawn = on_paper(laid, *papers)
    buffer = io.BytesIO()
    canvas, _centrings = drawn.draw(buffer, BOOKLET_PAGE)
    pdfs = {papers[0]: buffer.getvalue()}
    patches = [patch for patch, _texts in canvas.imposed]
    for index, paper in enumerate(papers[1:], start=1):
        pdfs[paper], patches = private.other_paper(
            canvas, patches, BOOKLET_PAPERS[paper][1],
            [texts[index] for _patch, texts in canvas.imposed])
    return pdfs


def on_paper(laid: layout.Laid, paper: str, *others: str) -> layout.Laid:
    """A booklet's layout (:func:`lay_out`) to be imposed on the sheets of ``paper``
    (and, by :func:`render_papers`, of ``others``)."""
    return laid.on(BOOKLET_PAGE, partial(ImposingCanvas, papers=[
        BOOKLET_PAPERS[name] for name in (paper, *others)]))


def lay_out(blocks: Sequence[layout.PageBlock], texts: layout.PageTexts, paper: str,
            *, page_budget: int | None = None) -> layout.Laid:
    """The booklet laid out (:func:`layout.lay_out`) on BOOKLET_PAGE: its PDF on
    ``paper`` and where everything went, by booklet page. Figures are shrunk only
    where that saves a sheet."""
    return on_paper(layout.lay_out(blocks, texts, BOOKLET_PAGE, BOOKLET_GEOMETRY,
                                   page_budget=page_budget, pages_per_sheet=PAGES_PER_SHEET),
                    paper)
