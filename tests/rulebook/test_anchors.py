"""Where ruling boxes go, and where every column starts, in every book and booklet of
both games in every language, on A4 and Letter: read from the layout's record (where
each block went, what each page draws) and from the PDFs.

- A ruling box comes after the paragraph or list it rules on (its anchor) and before
  the next heading after it: never set a block early, never in another section
  (Cellulae's "End of the game" box used to land after "The winner"; Micropul's
  catalysts box, in the booklets, before the paragraph it follows).
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from micropul_print.rulebook import booklet, layout
from micropul_print.rulebook.booklet import BOOKLET_GEOMETRY

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
