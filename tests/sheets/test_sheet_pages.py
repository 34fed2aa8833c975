from __future__ import annotations

import pytest

from micropul_print.draw.primitives import Circle, Drawing, Line, Polygon, Rect
from micropul_print.sheets.duplex import Flip, back_point
from micropul_print.sheets.layout import load_layout
from micropul_print.sheets.pages import Card, Page, SheetOptions, SheetPlan, plan_sheets


def make_cards(count: int, bleed: float = 0.0) -> list[Card]:
    size = 30.0 + 2 * bleed
    back = Drawing(size, size, (Rect(0, 0, size, size, fill="#224466"),))
    return [Card(Drawing(size, size, (Rect(0, 0, size, size, fill=f"#{n:06x}"),)), back)
            for n in range(count)]


STONE = Drawing(14.0, 14.0, (Circle(7.0, 7.0, 7.0, fill="#000000"),))
TOKENS = [Card(STONE, STONE)] * 6


def plan(paper: str = "a4", count: int = 48, tokens: list[Card] | None = None,
         **options: object) -> SheetPlan:
    sheet_options = SheetOptions(**options)  # type: ignore[arg-type]
    return plan_sheets(load_layout(paper), make_cards(count, sheet_options.bleed), 30.0, 30.0,
                       "Game", tokens=TOKENS if tokens is None else tokens,
                       options=sheet_options)


def test_a4_pages_calibration_then_one_sheet_with_the_stones() -> None:
    pages = plan("a4").pages
    assert [p.side for p in pages] == ["front", "back", "front", "back"]
    assert [p.label for p in pages] == [
        "Game — calibration page, front", "Game — calibration page, back",
        "Game — fronts, page 1/1", "Game — backs, page 1/1"]
    assert len(pages[2].placements) == 48 + 6  # stones fill the free last row
    assert len(pages[3].placements) == 48 + 6


def test_letter_is_full_with_48_so_the_stones_get_their_own_sheet() -> None:
    pages = plan("letter").pages
    assert [p.side for p in pages] == ["front", "back"] * 3
    assert [p.label for p in pages[2:]] == [
        "Game — fronts, page 1/2", "Game — backs, page 1/2",
        "Game — fronts, page 2/2", "Game — backs, page 2/2"]
    assert len(pages[2].placements) == 48
    assert len(pages[4].placements) == 6


def test_without_calibration_fronts_start_on_page_one() -> None:
    pages = plan("a4", calibration=False, bleed=3.0).pages
    # 35 per page with 3 mm bleed: 48 cards and 6 stones on two sheets.
    assert [p.side for p in pages] == ["front", "back", "front", "back"]
    assert [len(p.placements) for p in pages] == [35, 35, 19, 19]


def test_footer_is_part_of_the_page_marks() -> None:
    for page in plan("letter").pages:
        assert any(getattr(item, "text", None) == page.label for item in page.marks.items)


def test_cards_of_the_wrong_size_are_refused() -> None:
    with pytest.raises(ValueError, match="cut size plus bleed"):
        plan_sheets(load_layout("a4"), make_cards(3, bleed=0.0), 30.0, 30.0, "Game",
                    options=SheetOptions(bleed=2.0))


def _front_and_back(plan: SheetPlan) -> list[tuple[Page, Page]]:
    return [(plan.pages[i], plan.pages[i + 1]) for i in range(0, len(plan.pages), 2)]


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("flip", ["long", "short"])
@pytest.mark.parametrize("bleed", [0.0, 3.0])
@pytest.mark.parametrize("offset", [(0.0, 0.0), (1.5, -0.75)])
def test_every_back_lies_exactly_behind_its_front(paper: str, flip: Flip, bleed: float,
                                                   offset: tuple[float, float]) -> None:
    sheet = plan(paper, flip=flip, bleed=bleed, back_offset=offset, calibration=False)
    width, height = sheet.layout.paper_width, sheet.layout.paper_height
    for front, back in _front_and_back(sheet):
        assert len(front.placements) == len(back.placements)
        for placed_front, placed_back in zip(front.placements, back.placements, strict=True):
            size = placed_front.drawing.width
            # Opposite corners of the front's rectangle land on the back's after the flip.
            corners = [back_point(placed_front.x, placed_front.y, width, height, flip, offset),
                       back_point(placed_front.x + size, placed_front.y + size, width, height,
                                  flip, offset)]
            xs = sorted(x for x, _ in corners)
            ys = sorted(y for _, y in corners)
            assert placed_back.x == pytest.approx(xs[0], abs=1e-9)
            assert placed_back.y == pytest.approx(ys[0], abs=1e-9)
            assert xs[1] - xs[0] == pytest.approx(placed_back.drawing.width)


def test_long_edge_backs_run_right_to_left() -> None:
    sheet = plan("a4", calibration=False)
    fronts, backs = sheet.pages[0].placements, sheet.pages[1].placements
    assert fronts[0].x < fronts[1].x
    assert backs[0].x > backs[1].x
    assert backs[0].y == fronts[0].y


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("bleed", [0.0, 3.0])
def test_crop_marks_lie_outside_the_art_and_reach_the_margin(paper: str, bleed: float) -> None:
    sheet = plan(paper, bleed=bleed, calibration=False)
    layout, grid = sheet.layout, sheet.grid
    art_left, art_top = grid.left - bleed, grid.top - bleed
    art_right, art_bottom = grid.left + grid.width + bleed, grid.top + grid.height + bleed
    front = sheet.pages[0]
    marks = [i for i in front.marks.items
             if isinstance(i, Line) and i.stroke_width == layout.crop_marks.width]
    assert len(marks) == 2 * (len(grid.cut_lines_x()) + len(grid.cut_lines_y()))
    for mark in marks:
        xs, ys = sorted((mark.x1, mark.x2)), sorted((mark.y1, mark.y2))
        outside = (xs[1] <= art_left or xs[0] >= art_right or ys[1] <= art_top
                   or ys[0] >= art_bottom)
        assert outside, mark
        if mark.x1 == mark.x2:  # vertical: above or below the grid, from margin to near art
            assert mark.x1 in grid.cut_lines_x()
            assert ys[0] == pytest.approx(layout.margin + layout.footer_band) or ys[1] == (
                pytest.approx(layout.paper_height - layout.margin - layout.footer_band))
            assert ys[1] - ys[0] >= layout.crop_marks.min_length - 1e-9
        else:
            assert mark.y1 in grid.cut_lines_y()
            assert xs[0] == pytest.approx(layout.margin) or xs[1] == pytest.approx(
                layout.paper_width - layout.margin)
            assert xs[1] - xs[0] >= layout.crop_marks.min_length - 1e-9
    # Every mark stays inside the printable area.
    for mark in marks:
        for x, y in ((mark.x1, mark.y1), (mark.x2, mark.y2)):
            assert layout.margin - 1e-9 <= x <= layout.paper_width - layout.margin + 1e-9
            assert layout.margin - 1e-9 <= y <= layout.paper_height - layout.margin + 1e-9


def test_cut_lines_only_without_bleed() -> None:
    def thin_lines(sheet: SheetPlan) -> int:
        return sum(1 for i in sheet.pages[0].marks.items
                   if isinstance(i, Line) and i.stroke_width < sheet.layout.crop_marks.width)

    assert thin_lines(plan("a4", calibration=False)) == 7 + 10
    assert thin_lines(plan("a4", calibration=False, bleed=1.0)) == 0


def test_calibration_page_has_the_30_mm_square_and_mirrored_crosses() -> None:
    for flip in ("long", "short"):
        sheet = plan("a4", flip=flip, back_offset=(1.0, 2.0))
        front, back = sheet.pages[0], sheet.pages[1]
        squares = [i for i in front.marks.items if isinstance(i, Rect)]
        assert [(s.width, s.height) for s in squares] == [(30.0, 30.0)]
        texts = [getattr(i, "text", "") for i in front.marks.items]
        assert "this square must measure 30 mm" in texts
        assert any("Actual size" in t for t in texts)
        (front_ring,) = [i for i in front.marks.items if isinstance(i, Circle)]
        (back_ring,) = [i for i in back.marks.items if isinstance(i, Circle)]
        expected = back_point(front_ring.cx, front_ring.cy, 210.0, 297.0, flip, (1.0, 2.0))
        assert (back_ring.cx, back_ring.cy) == pytest.approx(expected)


def test_marks_follow_only_the_rows_in_use() -> None:
    sheet = plan("letter", calibration=False)
    stones_page = sheet.pages[2]
    assert len(stones_page.placements) == 6  # one row of the 6 x 8 grid
    horizontal = sorted({i.y1 for i in stones_page.marks.items
                         if isinstance(i, Line) and i.y1 == i.y2})
    assert horizontal == pytest.approx([sheet.grid.top, sheet.grid.top + 30.0])


def test_calibration_rulers_are_100_mm_with_a_tick_each_mm() -> None:
    front = plan("a4").pages[0]
    rulers = [i for i in front.marks.items if isinstance(i, Polygon)]
    assert len(rulers) == 2
    for ruler, axis in zip(rulers, (0, 1), strict=True):
        along = [point[axis] for point in ruler.points]
        # Outer edges of the 0 and 100 mm ticks (0.2 mm wide): 100 mm between centres.
        assert max(along) - min(along) == pytest.approx(100.2)
        # Both edges of 101 teeth plus the two ends of the base bar.
        assert len(ruler.points) == 2 + 4 * 101 - 2
