"""The Paper table: one row per paper, which the sheets, boards, rulebooks and booklets
all read; a paper added as one row gets every part."""

from __future__ import annotations

import pytest

from micropul_print.base import paper
from micropul_print.base.paper import PAPERS, Paper, millimetres
from micropul_print.sheets import layout as sheet_layout
from micropul_print.sheets.layout import load_layout


@pytest.mark.parametrize("name", list(PAPERS))
def test_every_paper_s_layout_files_say_what_its_row_says(name: str) -> None:
    row = PAPERS[name]
    width, height = row.size_mm
    for layout in (load_layout(name), load_layout(f"gutterfold-{name}")):
        assert (layout.paper_width, layout.paper_height) == pytest.approx((width, height))
        assert layout.margin == row.margin
        assert layout.label.startswith(row.label)


def test_the_rows_are_the_sizes_reportlab_knows() -> None:
    from reportlab.lib.pagesizes import A4, A5, LETTER, landscape

    assert PAPERS["a4"].size == A4 and PAPERS["a4"].booklet_page == A5
    assert PAPERS["a4"].booklet_sheet == landscape(A4)
    assert PAPERS["letter"].size == LETTER and PAPERS["letter"].booklet_sheet == landscape(LETTER)


def test_every_part_reads_the_table() -> None:
    from micropul_print.rulebook import booklet
    from micropul_print.rulebook import layout as book_layout

    sizes = {row.name: row.size for row in PAPERS.values()}
    booklets = {row.name: (row.booklet_page, row.booklet_sheet) for row in PAPERS.values()}
    assert (sizes, booklets) == (book_layout.PAPER_SIZES, booklet.BOOKLET_PAPERS)
    assert tuple(PAPERS) == sheet_layout.LAYOUT_NAMES


def test_a_paper_added_as_one_row_gets_sheets_on_its_own_size(
        monkeypatch: pytest.MonkeyPatch) -> None:
    b5 = Paper("b5", "B5", millimetres(176, 250), booklet_page=millimetres(125, 176))
    monkeypatch.setitem(PAPERS, "b5", b5)
    monkeypatch.setattr(sheet_layout, "LAYOUT_NAMES", (*sheet_layout.LAYOUT_NAMES, "b5"))
    monkeypatch.setattr(sheet_layout, "FOLD_LAYOUT_NAMES",
                        (*sheet_layout.FOLD_LAYOUT_NAMES, "gutterfold-b5"))
    duplex, fold = load_layout("b5"), load_layout("gutterfold-b5")
    a4 = load_layout("a4")
    assert (duplex.name, duplex.label) == ("b5", "B5")
    assert (duplex.paper_width, duplex.paper_height) == pytest.approx((176, 250))
    assert duplex._replace(name="a4", label="A4", paper_width=210.0, paper_height=297.0) == a4
    assert (fold.name, fold.label, fold.fold_gap) == ("gutterfold-b5", "B5, gutter fold", 2.0)
    grid = sheet_layout.plan_grid(duplex, 30.0, 30.0)
    assert (grid.columns, grid.rows) == (5, 7)


def test_an_unknown_paper_names_the_known_ones() -> None:
    with pytest.raises(KeyError, match="known: a4, letter"):
        paper.paper("a3")
