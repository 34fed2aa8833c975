"""Crop marks on every tile sheet, measured on the planned pages: every cut line of the
pieces has its pair of marks (one beyond each end of the pieces along it), and no mark
or other print of the page's own (fold targets, fold line, footers, registration
marks) reaches into a piece, on every layout, paper and bleed."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from micropul_print.draw.bounds import Box, item_bounds
from micropul_print.draw.primitives import Line, Text
from micropul_print.sheets.gutterfold import plan_gutterfold
from micropul_print.sheets.layout import load_layout
from micropul_print.sheets.pages import (
    CUT_LINE_COLOUR,
    MARK_COLOUR,
    Page,
    SheetOptions,
    plan_sheets,
)

from .games import GameSet, cellulae_set, micropul_set

GAMES: dict[str, Callable[[float], GameSet]] = {"micropul": micropul_set,
                                                 "cellulae": cellulae_set}
EPS = 1e-6


def _plans(game: str, paper: str, bleed: float) -> Iterator[tuple[str, tuple[Page, ...], float]]:
    """(what, pages, the fold's x or 0) of every sheet layout of the game."""
    pieces = GAMES[game](bleed)
    for registration in (False, True):
        plan = plan_sheets(load_layout(paper), pieces.cards, pieces.size, pieces.size,
                           pieces.name, tokens=pieces.tokens,
                           options=SheetOptions(bleed=bleed, registration=registration))
        yield f"duplex, registration {registration}", plan.pages, 0.0
    folded = plan_gutterfold(load_layout(f"gutterfold-{paper}"), pieces.cards, pieces.size,
                             pieces.size, pieces.name, tokens=pieces.tokens,
                             options=SheetOptions(bleed=bleed))
    yield "gutter fold", folded.plan.pages, folded.fold_x


def _crop_marks(page: Page) -> list[Line]:
    return [item for item in page.marks.items
            if isinstance(item, Line) and item.stroke == MARK_COLOUR]


def _missing_pairs(page: Page, fold: float) -> list[str]:
    """The cut lines of the page's square pieces without a mark beyond either end."""
    marks = _crop_marks(page)
    cuts = [p.cut for p in page.placements if p.cut is not None and not p.round]
    halves = [cuts] if not fold else [[c for c in cuts if c.x1 <= fold],
                                      [c for c in cuts if c.x0 >= fold]]
    missing = []
    for boxes in halves:
        for vertical in (True, False):
            lines = {round(v, 6) for box in boxes
                     for v in ((box.x0, box.x1) if vertical else (box.y0, box.y1))}
            for at in sorted(lines):
                along = [box for box in boxes
                         if any(abs(at - v) < EPS for v in ((box.x0, box.x1) if vertical
                                                            else (box.y0, box.y1)))]
                first = min(b.y0 if vertical else b.x0 for b in along)
                last = max(b.y1 if vertical else b.x1 for b in along)
                on_line = [m for m in marks
                           if (abs(m.x1 - at) < EPS and abs(m.x2 - at) < EPS if vertical
                               else abs(m.y1 - at) < EPS and abs(m.y2 - at) < EPS)]
                ends = [(min(m.y1, m.y2), max(m.y1, m.y2)) if vertical
                        else (min(m.x1, m.x2), max(m.x1, m.x2)) for m in on_line]
                if not any(high <= first + EPS for _low, high in ends):
                    missing.append(f"{'x' if vertical else 'y'} = {at}: none before {first}")
                if not any(low >= last - EPS for low, _high in ends):
                    missing.append(f"{'x' if vertical else 'y'} = {at}: none after {last}")
    return missing


def _crossings(page: Page) -> list[str]:
    """The page's own prints (marks, targets, footers) reaching into a piece's art."""
    pieces = [Box(p.x, p.y, p.x + p.drawing.width, p.y + p.drawing.height)
              for p in page.placements]
    found = []
    for item in page.marks.items:
        if isinstance(item, Line) and item.stroke == CUT_LINE_COLOUR:
            continue  # the thin cut lines lie on the pieces' edges on purpose
        reach = item_bounds(item)
        found += [f"{item!r} crosses {piece}" for piece in pieces if reach.overlaps(piece)]
    return found


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("paper", ["a4", "letter"])
# Up to the largest bleed --bleed takes: from 6.5 mm on Letter and 8 mm on A4 a piece
# beside a registration mark used to leave its cut line no room for a mark there.
@pytest.mark.parametrize("bleed", [0.0, 1.0, 3.0, 6.5, 8.0, 10.0])
def test_every_cut_line_has_its_pair_of_marks(game: str, paper: str, bleed: float) -> None:
    for what, pages, fold in _plans(game, paper, bleed):
        for number, page in enumerate(pages, 1):
            if page.side == "front" and not page.label.endswith("calibration page, front"):
                assert _missing_pairs(page, fold) == [], f"{what}, page {number}"


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("paper", ["a4", "letter"])
# 8 mm: a stone's art (14 mm and its bleed) reaches its column's cut lines, where the
# gutter-fold marks used to run on along it.
@pytest.mark.parametrize("bleed", [0.0, 1.0, 3.0, 8.0, 10.0])
def test_no_mark_crosses_a_piece(game: str, paper: str, bleed: float) -> None:
    for what, pages, _fold in _plans(game, paper, bleed):
        for number, page in enumerate(pages, 1):
            assert _crossings(page) == [], f"{what}, page {number}"


def _level_with_round_pieces(page: Page) -> list[str]:
    """Black marks of the page (crop marks, fold targets, registration marks) lying
    level with a round piece (a stone): in the band its cut circle spans across the
    page."""
    bands = [(p.cut.y0, p.cut.y1) for p in page.placements if p.round and p.cut is not None]
    found = []
    for item in page.marks.items:
        if isinstance(item, Text) or MARK_COLOUR not in (getattr(item, "stroke", None),
                                                         getattr(item, "fill", None)):
            continue
        reach = item_bounds(item)
        found += [f"{item!r} beside the piece at y {top:g}-{bottom:g}"
                  for top, bottom in bands if reach.y0 < bottom and top < reach.y1]
    return found


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("bleed", [0.0, 1.0, 3.0, 8.0, 10.0])
def test_no_mark_lies_beside_a_stone_on_gutter_fold_pages(game: str, paper: str,
                                                          bleed: float) -> None:
    """Gutter-fold Letter's stones lie in a row under the grid: the grid's crop marks ran
    down through that row, and the lower fold target sat beside the stones. (On duplex
    sheets with registration marks, a mark moved into a slot kept free for them may lie
    beside the pieces of its row, crossing none.)"""
    for what, pages, fold in _plans(game, paper, bleed):
        for number, page in enumerate(pages, 1):
            if fold:
                assert _level_with_round_pieces(page) == [], f"{what}, page {number}"


# Gutter-fold pages of (Micropul A4, Micropul Letter, Cellulae A4, Cellulae Letter) before
# the marks stopped above the row of stones: leaving them room took no sheet more.
FOLD_PAGES = {0.0: [2, 2, 3, 4], 1.0: [3, 4, 6, 6], 2.0: [4, 4, 6, 6], 3.0: [4, 4, 6, 6]}


@pytest.mark.parametrize("bleed", sorted(FOLD_PAGES))
def test_the_row_of_stones_takes_no_sheet_more(bleed: float) -> None:
    pages = []
    for game in ("micropul", "cellulae"):
        for paper in ("a4", "letter"):
            *_rest, (_what, fold_pages, _fold) = _plans(game, paper, bleed)
            pages.append(len(fold_pages))
    assert pages == FOLD_PAGES[bleed]


def _overlong_marks(page: Page, paper: str) -> list[str]:
    """Crop marks longer than the longest of the page's marks that reach the paper's
    margin (the ordinary marks): a mark standing in for one a registration mark took
    the place of is no longer than the marks around it."""
    layout = load_layout(paper)
    frame = Box(layout.margin, layout.margin, layout.paper_width - layout.margin,
                layout.paper_height - layout.margin)
    marks = _crop_marks(page)

    def length(mark: Line) -> float:
        return abs(mark.x2 - mark.x1) + abs(mark.y2 - mark.y1)

    ordinary = [length(m) for m in marks
                if any(abs(v - edge) < EPS for v in (m.x1, m.x2) for edge in (frame.x0, frame.x1))
                or any(abs(v - edge) < EPS for v in (m.y1, m.y2) for edge in (frame.y0, frame.y1))]
    if not ordinary:
        return []
    return [f"{m!r}: {length(m):.2f} mm, the ordinary marks at most {max(ordinary):.2f}"
            for m in marks if length(m) > max(ordinary) + EPS]


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("bleed", [0.0, 3.0, 8.0])
def test_a_mark_beside_a_registration_mark_is_no_longer_than_the_others(
        game: str, paper: str, bleed: float) -> None:
    # Micropul's last Letter front (3 tiles and the stones in two rows) had a 65 mm line
    # down its first column's cut, across the rows left unused, to the corner mark.
    pieces = GAMES[game](bleed)
    plan = plan_sheets(load_layout(paper), pieces.cards, pieces.size, pieces.size,
                       pieces.name, tokens=pieces.tokens,
                       options=SheetOptions(bleed=bleed, registration=True))
    for number, page in enumerate(plan.pages, 1):
        if page.side == "front":
            assert _overlong_marks(page, paper) == [], f"page {number}"
