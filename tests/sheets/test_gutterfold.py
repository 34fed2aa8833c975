"""Gutter-fold sheets measured in the PDF: every back is its front's mirror image across
the fold line, for both games on both papers."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import pytest
from pypdf import PdfReader

from micropul_print.backends.fonts import text_width
from micropul_print.draw.primitives import Drawing, Polygon, Rect, Text
from micropul_print.sheets.gutterfold import (
    TARGET_RADIUS,
    FoldPlan,
    fold_target,
    plan_gutterfold,
)
from micropul_print.sheets.layout import FOLD_LAYOUT_NAMES, load_layout
from micropul_print.sheets.pages import Card, SheetOptions
from micropul_print.sheets.pdf import DocumentInfo, render_pdf

from .games import GameSet, cellulae_set, micropul_set
from .test_sheet_pdf import PT_PER_MM, replay, viewer_preferences

INFO = DocumentInfo("Game — gutter fold", "Someone", "Test")
TOLERANCE_PT = 0.01 * PT_PER_MM
GAMES: dict[str, Callable[[float], GameSet]] = {"micropul": micropul_set,
                                                 "cellulae": cellulae_set}


def fold_plan(game: str, paper: str, bleed: float) -> tuple[GameSet, FoldPlan]:
    pieces = GAMES[game](bleed)
    plan = plan_gutterfold(load_layout(f"gutterfold-{paper}"), pieces.cards, pieces.size,
                           pieces.size, pieces.name, tokens=pieces.tokens,
                           options=SheetOptions(bleed=bleed))
    return pieces, plan


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("paper", ["a4", "letter"])
# 10 mm (the largest --bleed) leaves 5 slots a page on either paper, fewer than Micropul's six
# stones: they took one page and the build failed ("6 tokens do not fit").
@pytest.mark.parametrize("bleed", [0.0, 3.0, 10.0])
def test_every_back_mirrors_its_front_across_the_fold_in_the_pdf(game: str, paper: str,
                                                                 bleed: float) -> None:
    pieces, folded = fold_plan(game, paper, bleed)
    reader = PdfReader(io.BytesIO(render_pdf(folded.plan, INFO)))
    width = float(reader.pages[0].mediabox.width)
    fold = folded.fold_x * PT_PER_MM
    assert fold == pytest.approx(width / 2)
    gap = folded.plan.layout.fold_gap
    assert gap is not None
    placed = 0
    for number in range(len(reader.pages)):
        shapes = [f[1:] for f in replay(reader, number).forms if f[3] - f[1] > 10 * PT_PER_MM]
        fronts = [s for s in shapes if s[2] <= fold]
        backs = [s for s in shapes if s[0] >= fold]
        assert len(fronts) + len(backs) == len(shapes)  # nothing straddles the fold
        assert len(fronts) == len(backs) > 0
        for x0, y0, x1, y1 in fronts:
            assert x1 <= fold - gap * PT_PER_MM + 1e-6  # clear of the fold gap
            mirror = (2 * fold - x1, y0, 2 * fold - x0, y1)
            assert any(all(abs(a - b) <= TOLERANCE_PT for a, b in zip(back, mirror, strict=True))
                       for back in backs), (number, (x0, y0, x1, y1))
        placed += len(fronts)
    assert placed == len(pieces.cards) + len(pieces.tokens)


@pytest.mark.parametrize(("game", "paper", "pages"), [
    ("micropul", "a4", 2),  # 27 a page: 48 tiles and 6 stones
    ("micropul", "letter", 2),  # 24 a page, and the stones in a row under them
    ("cellulae", "a4", 3),
    ("cellulae", "letter", 4)])
def test_pages_per_game_and_paper(game: str, paper: str, pages: int) -> None:
    _pieces, folded = fold_plan(game, paper, 0.0)
    assert len(folded.plan.pages) == pages
    assert [p.label for p in folded.plan.pages][:1] == [
        f"{_pieces.name} — gutter fold, page 1/{pages}"]


def test_the_stones_go_under_the_tiles_rather_than_on_a_sheet_of_their_own() -> None:
    """Eight rows of tiles fill a Letter page and leave about 21 mm, no room for a ninth:
    the six stones go in a row under the tiles of the last pages, three on each, one
    under each column (clear of the crop marks down its cut lines), above the footer
    band; the grid rises to the top of its area to make the room."""
    _pieces, folded = fold_plan("micropul", "letter", 0.0)
    assert len(folded.plan.pages) <= len(fold_plan("micropul", "a4", 0.0)[1].plan.pages)
    layout, grid = folded.plan.layout, folded.front_grid
    marks = layout.crop_marks
    assert grid.top == pytest.approx(layout.margin + layout.footer_band + marks.offset
                                     + marks.min_length)
    for page in folded.plan.pages:
        stones = [p for p in page.placements if p.round]
        fronts = sorted((p for p in stones if p.x < folded.fold_x), key=lambda p: p.x)
        assert len(fronts) == 3 and len(stones) == 6, page.label
        for column, stone in enumerate(fronts):
            assert stone.cut is not None
            left = grid.left + column * grid.pitch_x
            assert stone.cut.x0 - left == pytest.approx(left + grid.card_width - stone.cut.x1)
            assert stone.cut.x0 - left > 5.0  # the column's cut lines are 8 mm away
            assert stone.cut.y0 > grid.top + grid.height + marks.offset
            assert stone.cut.y1 < layout.paper_height - layout.margin - layout.footer_band
        cut, trim = fronts[0].cut, page.trim  # the stones are cut out like the tiles
        assert cut is not None and trim is not None and trim.y1 == pytest.approx(cut.y1)


def test_the_pages_stay_centred_where_the_stones_fit_in_free_slots() -> None:
    _pieces, folded = fold_plan("micropul", "a4", 0.0)
    grid, layout = folded.front_grid, folded.plan.layout
    assert grid.top + grid.height / 2 == pytest.approx(layout.paper_height / 2)


def test_gutter_fold_pdfs_are_single_sided_at_actual_size() -> None:
    _pieces, folded = fold_plan("micropul", "a4", 0.0)
    assert viewer_preferences(render_pdf(folded.plan, INFO)) == {
        "/PrintScaling": "/None", "/Duplex": "/Simplex"}


def test_fold_targets_halves_meet_when_folded() -> None:
    """Each target's two halves are mirror images across the fold line, and there is
    one above and one below the pieces on every page."""
    fold = 105.0
    items = fold_target(fold, 9.0, 3.0)
    halves = [i for i in items if isinstance(i, Polygon)]
    assert len(halves) == 2
    left, right = halves
    assert [(round(2 * fold - x, 6), round(y, 6)) for x, y in left.points] == [
        (round(x, 6), round(y, 6)) for x, y in right.points]
    assert all(x <= fold + 1e-9 for x, _ in left.points)
    _pieces, folded = fold_plan("cellulae", "letter", 3.0)
    for page in folded.plan.pages:
        targets = [i for i in page.marks.items if isinstance(i, Polygon)]
        assert len(targets) == 4
        ys = sorted({round(sum(y for _, y in t.points) / len(t.points)) for t in targets})
        grid = folded.front_grid
        assert ys[0] < grid.top - grid.bleed and ys[-1] > grid.top + grid.height + grid.bleed


@pytest.mark.parametrize("name", FOLD_LAYOUT_NAMES)
def test_gutter_fold_layouts_fold_down_the_middle(name: str) -> None:
    layout = load_layout(name)
    assert layout.fold_gap is not None and layout.fold_gap >= 0
    _pieces, folded = fold_plan("micropul", name.split("-")[1], 0.0)
    grid, back = folded.front_grid, folded.back_grid
    assert grid.left + grid.width < folded.fold_x < back.left
    assert back.left + back.width == pytest.approx(layout.paper_width - grid.left)


def test_a_duplex_layout_is_refused() -> None:
    card = Card(Drawing(30.0, 30.0, (Rect(0, 0, 30, 30, fill="#ffffff"),)))
    with pytest.raises(ValueError, match="not a gutter-fold layout"):
        plan_gutterfold(load_layout("a4"), [card], 30.0, 30.0, "Game")


def test_only_the_bleed_of_the_options_applies() -> None:
    pieces = micropul_set(0.0)
    folded = plan_gutterfold(load_layout("gutterfold-a4"), pieces.cards, 30.0, 30.0, "Game",
                             options=SheetOptions(flip="short", back_offset=(1.0, 1.0),
                                                  calibration=True, registration=True))
    options = folded.plan.options
    assert (options.calibration, options.registration, options.back_offset) == (
        False, False, (0.0, 0.0))
    assert folded.plan.duplex is None
    assert [p.label for p in folded.plan.pages] == ["Game — gutter fold, page 1/2",
                                                    "Game — gutter fold, page 2/2"]


def test_tiles_with_gutter_fold_reprints_them_to_fold(tmp_path: Path) -> None:
    """A printer without duplex gets its reprint the way it prints the full sheets."""
    from micropul_print.cli import main

    assert main(["build", "--only", "sheets", "--tiles", "7,12,31", "--layout", "gutter-fold",
                 "--out", str(tmp_path), "--quiet", "--paper", "all"]) == 0
    assert {str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*.pdf")} == {
        f"sheets/micropul-{kind}-{paper}.pdf" for paper in ("a4", "letter")
        for kind in ("tiles-gutterfold", "reprint-gutterfold")}
    reader = PdfReader(tmp_path / "sheets/micropul-reprint-gutterfold-a4.pdf")
    assert len(reader.pages) == 1
    assert reader.metadata is not None
    assert reader.metadata.title == "Micropul — tiles 7, 12, 31, A4, gutter fold"
    fold = float(reader.pages[0].mediabox.width) / 2
    tiles = [f[1:] for f in replay(reader, 0).forms if f[3] - f[1] > 20 * PT_PER_MM]
    fronts = sorted(t for t in tiles if t[2] <= fold)
    backs = sorted((2 * fold - x1, y0, 2 * fold - x0, y1) for x0, y0, x1, y1 in tiles
                   if x0 >= fold)
    assert len(fronts) == len(backs) == 3
    for front, back in zip(fronts, backs, strict=True):
        assert back == pytest.approx(front, abs=0.01 * PT_PER_MM)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_each_half_footer_stays_on_its_half_clear_of_the_fold_target(paper: str) -> None:
    """A reprint of 24 scattered tiles named them all in the front half's footer, which
    ran off the paper on the left and into the fold target on the right."""
    pieces = micropul_set(0.0)
    title = "Micropul — tiles " + ", ".join(str(n) for n in range(1, 49, 2))
    folded = plan_gutterfold(load_layout(f"gutterfold-{paper}"), pieces.cards[:24],
                             pieces.size, pieces.size, title)
    layout = folded.plan.layout
    fold = folded.fold_x
    for page in folded.plan.pages:
        texts = [t for t in page.marks.items if isinstance(t, Text)
                 and t.y > layout.paper_height - layout.margin - layout.footer_band]
        assert len(texts) == 2
        for text in texts:
            width = text_width(text.text, text.size)
            left, right = text.x - width / 2, text.x + width / 2
            assert layout.margin <= left and right <= layout.paper_width - layout.margin
            assert right <= fold - TARGET_RADIUS or left >= fold + TARGET_RADIUS
