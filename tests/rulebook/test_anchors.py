"""Where ruling boxes go, and where every column starts, in every book and booklet of
both games in every language, on A4 and Letter: read from the layout's record (where
each block went, what each page draws) and from the PDFs.

- A ruling box comes after the paragraph or list it rules on (its anchor) and before
  the next heading after it: never set a block early, never in another section
  (Cellulae's "End of the game" box used to land after "The winner"; Micropul's
  catalysts box, in the booklets, before the paragraph it follows).
- Every block that opens a column starts at the column's top, as text does: a ruling
  box's tint, a figure's picture (a ruling box that opened a booklet page used to start
  1.4 mm higher, 1.9 mm under the running head's rule where text starts 3.3 mm under
  it)."""

from __future__ import annotations

import ctypes
from dataclasses import dataclass

import pypdfium2  # type: ignore[import-untyped]
import pypdfium2.raw as pdfium_raw  # type: ignore[import-untyped]
import pytest
from reportlab.lib.units import mm
from reportlab.platypus import Paragraph, Spacer

from micropul_print.rulebook import booklet, layout, reportlab_adapter
from micropul_print.rulebook.booklet import BOOKLET_GEOMETRY
from micropul_print.rulebook.styles import RULING_TINT

from .books import BOOKS, every_book

PAPERS = ("a4", "letter")
KINDS = ("book", "booklet")
# The running head's rule lies this far under its baseline (pages._furniture).
RULE_UNDER_HEAD_MM = 2.2


@dataclass
class Laid:
    blocks: list[layout.PageBlock]
    geometry: layout.Geometry
    laid: layout.Laid
    pdfs: dict[str, bytes]  # by paper


@pytest.fixture(scope="module")
def books() -> dict[tuple[str, str, str], Laid]:
    """Every book and booklet, laid out once and drawn on each paper."""
    found = {}
    for game, lang, book, blocks, texts in every_book():
        laid = layout.lay_out(blocks, texts, layout.BOOK_PAGE, page_budget=book.pages)
        found[game, lang, "book"] = Laid(blocks, layout.GEOMETRY, laid, {
            paper: laid.on(layout.PAPER_SIZES[paper]).pdf for paper in PAPERS})
        small = booklet.lay_out(blocks, texts, PAPERS[0])
        found[game, lang, "booklet"] = Laid(blocks, BOOKLET_GEOMETRY, small, {
            paper: booklet.on_paper(small, paper).pdf for paper in PAPERS})
    return found


def _order(placed: layout.Placed) -> tuple[int, int, float]:
    """Reading order: page, column, then from the top down."""
    return placed.page, placed.column, -placed.top


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(("game", "lang"), BOOKS)
def test_a_ruling_box_follows_its_anchor_within_its_section(
        books: dict[tuple[str, str, str], Laid], game: str, lang: str, kind: str) -> None:
    book = books[game, lang, kind]
    blocks = book.blocks
    rulings = 0
    for index, block in enumerate(blocks):
        if not isinstance(block, layout.RulingBlock):
            continue
        rulings += 1
        # The anchor is the paragraph or list right before it in the book's structure.
        assert block.anchor == index - 1
        assert isinstance(blocks[block.anchor], layout.TextBlock | layout.BulletsBlock)
        pieces = {i: sorted((p for p in book.laid.placed if p.block == i), key=_order)
                  for i in range(len(blocks))}
        box, anchor = pieces[index], pieces[block.anchor]
        assert len(box) == 1, box  # never split
        assert _order(anchor[-1]) < _order(box[0]), (block.heading, anchor[-1], box[0])
        end = next((i for i in range(index + 1, len(blocks))
                    if isinstance(blocks[i], layout.HeadingBlock)), None)
        if end is not None:
            assert _order(box[0]) < _order(pieces[end][0]), (block.heading, blocks[end])
        # Between the anchor and the box: floats (figures that waited) and at most the
        # text after the box in its section, which the box let go first.
        between = [p.block for p in book.laid.placed if p.block is not None
                   and _order(anchor[-1]) < _order(p) < _order(box[0])
                   and not isinstance(blocks[p.block], layout.FigureBlock | layout.LegendBlock)]
        assert all(index < other < (end or len(blocks)) for other in between), between
    assert rulings >= 2


def _visible_top(flowable: object, y: float) -> float | None:
    """Where what ``flowable`` (drawn at ``y``) shows starts (points from the page's
    foot): its box's top, a tinted paragraph's tint (reportlab paints it
    ``borderPadding`` around the box); None for a spacer, which shows nothing."""
    if isinstance(flowable, Spacer):
        return None
    top = y + reportlab_adapter.drawn_height(flowable)
    if isinstance(flowable, Paragraph) and flowable.style.backColor is not None:
        top += flowable.style.borderPadding
    return top


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(("game", "lang"), BOOKS)
def test_every_column_starts_at_the_same_distance_from_the_running_head(
        books: dict[tuple[str, str, str], Laid], game: str, lang: str, kind: str) -> None:
    """The first thing each column of each page shows starts at the column's top: the
    same distance under the running head's rule on every page (page 1 of a book: under
    its title band)."""
    book = books[game, lang, kind]
    g, (width, height) = book.geometry, book.laid.page_size
    columns = 0
    kinds: set[str] = set()
    for number, record in enumerate(book.laid.records, start=1):
        if record.template == "cover":
            continue
        top = height - (g.top + (g.title_height if number == 1 else 0)) * mm
        firsts: dict[int, tuple[float, object]] = {}
        for flowable, x, y, _space in record.drawn:
            shown = _visible_top(flowable, y)
            if shown is None or y >= top - 0.01:  # a spacer; page 1's title band
                continue
            column = min(int(x / (width / g.columns)), g.columns - 1)
            if column not in firsts or shown > firsts[column][0]:
                firsts[column] = (shown, flowable)
        for column, (shown, flowable) in firsts.items():
            columns += 1
            kinds.add(type(flowable).__name__)
            assert shown == pytest.approx(top, abs=0.01), (
                number, column, type(flowable).__name__, (top - shown) / mm)
    assert columns >= 3
    # Not only text opens columns: the rule is met for what used to break it.
    if (game, kind) in (("micropul", "booklet"), ("cellulae", "book")):
        assert kinds - {"BookParagraph", "CachedParagraph"}, kinds


def _tint_tops_under_rules(pdf: bytes, booklet_sheets: bool) -> list[tuple[float, float]]:
    """Per page (a booklet page: a form on a sheet side), each ruling tint's distance
    under the running head's rule and the rule's own (points), measured by pdfium:
    the rule is the page's highest thin horizontal line, the tint a path filled
    with RULING_TINT."""
    tint = tuple(round(c * 255) for c in RULING_TINT.rgb())
    document = pypdfium2.PdfDocument(pdf)
    found: list[tuple[float, float]] = []
    # Page 1 of a book has no running head (its rulings are not measured here).
    for index in range(0 if booklet_sheets else 1, len(document)):
        page = document[index]
        width, _height = page.get_size()
        rules: dict[int, float] = {}
        tints: dict[int, list[float]] = {}
        offset = 0.0
        for item in page.get_objects(max_depth=2):
            if item.type == pdfium_raw.FPDF_PAGEOBJ_FORM:
                offset = item.get_matrix().e
                continue
            if item.type != pdfium_raw.FPDF_PAGEOBJ_PATH:
                continue
            left, low, right, high = item.get_bounds()
            if right - left < 100:  # neither a rule nor a tint (each spans a column)
                continue
            slot = int(offset + left >= width / 2 - 1) if booklet_sheets else 0
            if high - low < 2:
                rules[slot] = max(rules.get(slot, 0.0), (high + low) / 2)
                continue
            rgba = [ctypes.c_uint() for _ in range(4)]
            pdfium_raw.FPDFPageObj_GetFillColor(item.raw, *(ctypes.byref(c) for c in rgba))
            if tuple(c.value for c in rgba[:3]) == tint:
                tints.setdefault(slot, []).append(high)
        for slot, tops in tints.items():
            found.extend((rules[slot] - top, rules[slot]) for top in tops)
    return found


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(("game", "lang"), BOOKS)
def test_no_ruling_tint_starts_above_where_text_starts(
        books: dict[tuple[str, str, str], Laid], game: str, lang: str, kind: str,
        paper: str) -> None:
    """In the PDF: each ruling's tint starts no nearer the running head's rule than the
    column's top, and exactly there where it opens a column."""
    book = books[game, lang, kind]
    g = book.geometry
    standard = (g.top - g.header_offset - RULE_UNDER_HEAD_MM) * mm
    under = _tint_tops_under_rules(book.pdfs[paper], kind == "booklet")
    rulings = [b for b in book.blocks if isinstance(b, layout.RulingBlock)]
    on_first = sum(1 for p in book.laid.placed if p.page == 1 and p.block is not None
                   and isinstance(book.blocks[p.block], layout.RulingBlock))
    assert len(under) == len(rulings) - on_first
    assert all(distance >= standard - 0.05 for distance, _ in under), (standard, under)
    opening = sum(1 for p in book.laid.placed if p.block is not None
                  and isinstance(book.blocks[p.block], layout.RulingBlock) and p.page > 1
                  and not any(q.page == p.page and q.column == p.column and q.top > p.top
                              for q in book.laid.placed))
    assert sum(1 for distance, _ in under
               if distance == pytest.approx(standard, abs=0.05)) == opening
