from __future__ import annotations

import pytest

from micropul_print.backends.fonts import text_width
from micropul_print.draw.bounds import Box, item_bounds
from micropul_print.draw.primitives import Circle, Drawing, Line, Polygon, Rect, Text
from micropul_print.sheets.duplex import Flip, back_point
from micropul_print.sheets.layout import load_layout
from micropul_print.sheets.pages import (
    FOOTER_CLEARANCE,
    SMALLEST_FOOTER,
    Card,
    Page,
    SheetOptions,
    SheetPlan,
    fitted_footer,
    footer_box,
    plan_sheets,
    slot_box,
)


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


def test_letter_is_full_with_48_so_the_stones_go_on_the_calibration_sheet() -> None:
    """Letter holds exactly 48 cards: the six stones take free room of the calibration
    sheet instead of a sheet of their own."""
    pages = plan("letter").pages
    assert [p.side for p in pages] == ["front", "back"] * 2
    assert [p.label for p in pages] == [
        "Game — calibration page, front", "Game — calibration page, back",
        "Game — fronts, page 1/1", "Game — backs, page 1/1"]
    assert [len(p.placements) for p in pages] == [6, 6, 48, 48]
    assert {p.drawing for p in pages[0].placements} == {STONE}


def test_without_the_calibration_page_the_stones_get_a_sheet_of_their_own() -> None:
    pages = plan("letter", calibration=False).pages
    assert [p.label for p in pages] == [
        "Game — fronts, page 1/2", "Game — backs, page 1/2",
        "Game — fronts, page 2/2", "Game — backs, page 2/2"]
    assert [len(p.placements) for p in pages] == [48, 48, 6, 6]


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("flip", ["long", "short"])
@pytest.mark.parametrize("offset", [(0.0, 0.0), (2.0, -1.5)])
def test_stones_on_the_calibration_page_clear_its_art_on_both_sides(
        paper: str, flip: Flip, offset: tuple[float, float]) -> None:
    full = {"a4": 54, "letter": 48}[paper]  # every slot of the tile page taken
    sheet = plan(paper, count=full, flip=flip, back_offset=offset)
    front, back = sheet.pages[0], sheet.pages[1]
    assert len(front.placements) == len(back.placements) == 6
    for page in (front, back):
        art = [item_bounds(item) for item in page.marks.items]
        for placed in page.placements:
            box = Box(placed.x, placed.y, placed.x + placed.drawing.width,
                      placed.y + placed.drawing.height)
            assert not any(box.overlaps(other) for other in art), (page.label, placed)
            printable = Box(sheet.layout.margin, sheet.layout.margin,
                            sheet.layout.paper_width - sheet.layout.margin,
                            sheet.layout.paper_height - sheet.layout.margin)
            assert printable.contains(box.x0, box.y0) and printable.contains(box.x1, box.y1)


def test_more_tokens_than_a_page_holds_go_on_as_many_pages_as_they_need() -> None:
    pages = plan("a4", count=0, tokens=[Card(STONE, STONE)] * 60, calibration=False).pages
    assert [len(p.placements) for p in pages] == [54, 54, 6, 6]


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


def _crop_marks(sheet: SheetPlan, page: Page) -> list[Line]:
    return [i for i in page.marks.items
            if isinstance(i, Line) and i.stroke_width == sheet.layout.crop_marks.width]


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("bleed", [0.0, 3.0])
def test_crop_marks_lie_outside_the_art_and_reach_the_margin(paper: str, bleed: float) -> None:
    sheet = plan(paper, bleed=bleed, calibration=False)
    layout, grid = sheet.layout, sheet.grid
    art_left, art_top = grid.left - bleed, grid.top - bleed
    art_right, art_bottom = grid.left + grid.width + bleed, grid.top + grid.height + bleed
    front = sheet.pages[0]
    marks = _crop_marks(sheet, front)
    assert len(marks) == 2 * (len(grid.cut_lines_x()) + len(grid.cut_lines_y()))
    footer = footer_box(layout, front.label)
    band_top = layout.paper_height - layout.margin - layout.footer_band
    for mark in marks:
        xs, ys = sorted((mark.x1, mark.x2)), sorted((mark.y1, mark.y2))
        outside = (xs[1] <= art_left or xs[0] >= art_right or ys[1] <= art_top
                   or ys[0] >= art_bottom)
        assert outside, mark
        assert not Box(xs[0], ys[0], xs[1], ys[1]).overlaps(footer), mark
        if mark.x1 == mark.x2:  # vertical: above or below the grid, from margin to near art
            assert mark.x1 in grid.cut_lines_x()
            under_footer = footer.x0 - FOOTER_CLEARANCE <= mark.x1 <= footer.x1 + FOOTER_CLEARANCE
            if ys[1] <= art_top:
                assert ys[0] == pytest.approx(layout.margin)
            elif under_footer:  # stops above the footer line
                assert ys[1] == pytest.approx(band_top)
            else:
                assert ys[1] == pytest.approx(layout.paper_height - layout.margin)
        else:
            assert mark.y1 in grid.cut_lines_y()
            assert xs[0] == pytest.approx(layout.margin) or xs[1] == pytest.approx(
                layout.paper_width - layout.margin)
        assert xs[1] - xs[0] + ys[1] - ys[0] >= layout.crop_marks.min_length - 1e-9
    # Every mark stays inside the printable area.
    for mark in marks:
        for x, y in ((mark.x1, mark.y1), (mark.x2, mark.y2)):
            assert layout.margin - 1e-9 <= x <= layout.paper_width - layout.margin + 1e-9
            assert layout.margin - 1e-9 <= y <= layout.paper_height - layout.margin + 1e-9


@pytest.mark.parametrize(("paper", "bleed", "tokens", "used_columns", "used_rows"), [
    ("letter", 0.0, 6, 6, 1),  # the stones' page: one row of six
    ("a4", 3.0, 6, 5, 4),  # 13 cards and 6 stones: three full rows, four in the last
    ("a4", 0.0, 3, 3, 1),  # three stones alone: three columns of one row
])
def test_marks_only_where_pieces_are_and_never_across_empty_slots(
        paper: str, bleed: float, tokens: int, used_columns: int, used_rows: int) -> None:
    count = {"letter": 48, "a4": 48}[paper] if tokens == 6 else 0
    sheet = plan(paper, count=count, bleed=bleed, calibration=False,
                 tokens=TOKENS[:tokens])
    grid, page = sheet.grid, sheet.pages[-2]
    marks = _crop_marks(sheet, page)
    vertical = {m.x1 for m in marks if m.x1 == m.x2}
    horizontal = {m.y1 for m in marks if m.y1 == m.y2}
    edges_per_line = 1 if bleed == 0 else 2  # neighbours share a cut line without bleed
    expected_x = used_columns + 1 if edges_per_line == 1 else 2 * used_columns
    expected_y = used_rows + 1 if edges_per_line == 1 else 2 * used_rows
    assert (len(vertical), len(horizontal)) == (expected_x, expected_y)
    assert len(marks) == 2 * (expected_x + expected_y)
    # No mark runs over a slot of the grid, used or empty.
    slots = [slot_box(grid, c, r).grown(bleed) for r in range(grid.rows)
             for c in range(grid.columns)]
    for mark in marks:
        reach = Box(min(mark.x1, mark.x2), min(mark.y1, mark.y2), max(mark.x1, mark.x2),
                    max(mark.y1, mark.y2))
        assert not any(reach.overlaps(slot) for slot in slots), mark


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


def test_calibration_rulers_are_100_mm_with_a_tick_each_mm() -> None:
    front = plan("a4").pages[0]
    across, down = [i for i in front.marks.items if isinstance(i, Polygon)]
    zero_x, zero_y = 30.0, 62.0  # where the rulers meet
    # Tooth tips: pairs of points at the tooth's length from the base line.
    tips_across = sorted({round(x, 6) for x, y in across.points if y < zero_y - 1.0})
    centres = [round((a + b) / 2, 6) for a, b in zip(tips_across[::2], tips_across[1::2],
                                                     strict=True)]
    assert centres == pytest.approx([zero_x + mm for mm in range(101)])
    tips_down = sorted({round(y, 6) for x, y in down.points if x > zero_x + 1.0})
    centres = [round((a + b) / 2, 6) for a, b in zip(tips_down[::2], tips_down[1::2],
                                                     strict=True)]
    # The downward ruler starts at 1 mm: its zero is the other ruler's base line.
    assert centres == pytest.approx([zero_y + mm for mm in range(1, 101)])


def test_calibration_rulers_meet_in_a_single_corner_line() -> None:
    """No tooth of one ruler lies on the other's base bar (that drew a doubled line)."""
    front = plan("a4").pages[0]
    across, down = [i for i in front.marks.items if isinstance(i, Polygon)]
    bar_across = Box(29.8, 62.0, 130.1, 62.2)  # the base bar of the horizontal ruler
    teeth_down = [(x, y) for x, y in down.points if x > 30.0 + 1e-9]
    assert all(y >= bar_across.y1 + 0.5 for _x, y in teeth_down)  # first tooth at 1 mm
    # The bars join: the horizontal one starts at the outer edge of the downward one.
    assert min(x for x, _y in across.points) == pytest.approx(min(x for x, _y in down.points))
    assert min(y for _x, y in down.points) == pytest.approx(62.0)


# --- footers that fit --------------------------------------------------------------


def _texts(drawing: Drawing) -> list[Text]:
    return [item for item in drawing.items if isinstance(item, Text)]


def _extent(text: Text) -> tuple[float, float]:
    width = text_width(text.text, text.size)
    return text.x - width / 2, text.x + width / 2


@pytest.mark.parametrize("label", [
    "Game — tiles " + ", ".join(str(n) for n in range(1, 49, 2)),
    "Game — tiles " + ", ".join(str(n) for n in range(100, 9999, 2)),
    "A catalogue whose name is far too long for any footer line " * 6,
])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_footer_too_long_for_the_page_is_fitted_inside_the_margins(label: str,
                                                                     paper: str) -> None:
    """A reprint of scattered tiles (or a long set name) made a footer line wider than
    the page: it started 60 mm left of the paper. It is set smaller, then shortened."""
    layout = load_layout(paper)
    plan = plan_sheets(layout, make_cards(3), 30.0, 30.0, label)
    for page in plan.pages:
        (footer,) = [t for t in _texts(page.marks) if t.text.startswith(label[:8])]
        left, right = _extent(footer)
        assert layout.margin - 1e-9 <= left and right <= layout.paper_width - layout.margin + 1e-9
        assert footer.size >= layout.footer_size * SMALLEST_FOOTER - 1e-9
        too_wide = text_width(page.label, layout.footer_size) > (
            layout.paper_width - 2 * layout.margin)
        assert (footer.size < layout.footer_size) == too_wide
        box = footer_box(layout, page.label)
        assert (box.x0, box.x1) == pytest.approx((left, right))


def test_a_footer_that_fits_is_left_as_it_is() -> None:
    layout = load_layout("a4")
    assert fitted_footer(layout, "Game — fronts, page 1/1") == (
        layout.paper_width / 2, "Game — fronts, page 1/1", layout.footer_size)


def test_a_footer_shortened_keeps_both_ends() -> None:
    layout = load_layout("a4")
    label = "Start " + "x" * 2000 + " end"
    x, text, size = fitted_footer(layout, label, 50.0, (20.0, 80.0))
    assert x == 50.0 and size == pytest.approx(layout.footer_size * SMALLEST_FOOTER)
    assert text.startswith("Start ") and text.endswith(" end") and "\u2026" in text
    assert text_width(text, size) <= 60.0
