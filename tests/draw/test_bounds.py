from __future__ import annotations

import pytest

from micropul_print.backends.fonts import text_width
from micropul_print.draw.bounds import Box, item_bounds, union
from micropul_print.draw.primitives import Circle, Group, Line, Polygon, Rect, Text


def test_strokes_reach_half_their_width_past_the_shape() -> None:
    assert item_bounds(Line(1, 2, 1, 9, stroke_width=0.4)) == pytest.approx((0.8, 1.8, 1.2, 9.2))
    assert item_bounds(Rect(0, 0, 4, 2, stroke="#000000", stroke_width=1.0)) == (
        pytest.approx((-0.5, -0.5, 4.5, 2.5)))
    assert item_bounds(Rect(0, 0, 4, 2, fill="#000000", stroke_width=1.0)) == (0, 0, 4, 2)
    assert item_bounds(Circle(5, 5, 2, stroke="#000000", stroke_width=0.2)) == (
        pytest.approx((2.9, 2.9, 7.1, 7.1)))
    assert item_bounds(Polygon(((0, 0), (3, 1), (1, 4)), fill="#000000")) == (0, 0, 3, 4)


def test_text_runs_from_its_anchor() -> None:
    width = text_width("Game", 3.0)
    middle = item_bounds(Text(50, 20, "Game", 3.0, anchor="middle"))
    assert (middle.x0, middle.x1) == pytest.approx((50 - width / 2, 50 + width / 2))
    assert middle.y0 == pytest.approx(17.0) and middle.y1 > 20.0
    assert item_bounds(Text(50, 20, "Game", 3.0, anchor="end")).x1 == pytest.approx(50)


def test_a_turned_group_turns_its_bounds() -> None:
    group = Group((Rect(0, 0, 10, 2, fill="#000000"),), dx=5, rotate=90)
    assert item_bounds(group) == pytest.approx((3.0, 0.0, 5.0, 10.0))


def test_boxes() -> None:
    box = Box(0, 0, 10, 5)
    assert box.overlaps(Box(9, 4, 12, 8)) and not box.overlaps(Box(10, 0, 12, 5))
    assert box.grown(1) == (-1, -1, 11, 6) and box.moved(2, 3) == (2, 3, 12, 8)
    assert union([box, Box(-2, 1, 3, 9)]) == (-2, 0, 10, 9)
    assert union([]) is None
