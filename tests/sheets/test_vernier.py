"""The calibration page's gauges, computed from their primitives: the pair of bars that
lines up is the one whose label is the back offset that cancels the printer's drift,
and the scale line reads the printer's scale at a ruler's 150 mm."""

from __future__ import annotations

import pytest

from micropul_print.draw.primitives import Drawing, Group, Line, Text
from micropul_print.sheets import vernier
from micropul_print.sheets.calibration import calibration_back, calibration_front
from micropul_print.sheets.duplex import Flip, front_point
from micropul_print.sheets.layout import SheetLayout, load_layout
from micropul_print.sheets.vernier import Axis, Gauge, offset_gauge, scale_marks

PAPERS = ["a4", "letter"]
FLIPS: list[Flip] = ["long", "short"]
OFFSETS = [(0.0, 0.0), (1.5, -0.75), (-4.25, 3.0)]


def printed(back: Line, layout: SheetLayout, flip: Flip,
            drift: tuple[float, float]) -> Line:
    """Where a line drawn on the back page lies behind the front, seen from the front,
    when the printer moves everything on the back page by ``drift`` (back page axes)."""
    w, h = layout.paper_width, layout.paper_height
    x1, y1 = front_point(back.x1 + drift[0], back.y1 + drift[1], w, h, flip)
    x2, y2 = front_point(back.x2 + drift[0], back.y2 + drift[1], w, h, flip)
    return Line(x1, y1, x2, y2)


def lined_up(gauge: Gauge, layout: SheetLayout, flip: Flip,
             drift: tuple[float, float]) -> list[float]:
    """The labels of the pairs whose front and back bars make one straight line."""
    found = []
    for pair in gauge.pairs:
        back = printed(pair.back, layout, flip, drift)
        front = pair.front
        if gauge.axis == "x":  # vertical bars: the same x, the back one below the front
            straight = abs(back.x1 - front.x1) < 1e-9 and abs(back.x2 - front.x1) < 1e-9
        else:
            straight = abs(back.y1 - front.y1) < 1e-9 and abs(back.y2 - front.y1) < 1e-9
        if straight:
            found.append(pair.offset)
    return found


def _drift_cancelled_by(axis: Axis, label: float,
                        other: float) -> tuple[float, float]:
    """The printer drift that the back offset ``label`` (along ``axis``) cancels; the
    other axis drifts by ``other``."""
    return (-label, other) if axis == "x" else (other, -label)


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("flip", FLIPS)
@pytest.mark.parametrize("current", OFFSETS)
def test_the_pair_that_lines_up_is_labelled_with_the_offset_that_cancels_the_drift(
        paper: str, flip: Flip, current: tuple[float, float]) -> None:
    layout = load_layout(paper)
    for axis in ("x", "y"):
        gauge = offset_gauge(axis, layout, flip, current)
        labels = [pair.offset for pair in gauge.pairs]
        assert labels == sorted(labels) and len(labels) == 17
        assert labels[1] - labels[0] == pytest.approx(0.25)
        for label in labels:
            # The page was made with ``current``: its back bars include it. Whatever
            # that was, the printer's own drift picks the pair naming the offset to use.
            drift = _drift_cancelled_by(axis, label, 0.3)
            assert lined_up(gauge, layout, flip, drift) == [label]


@pytest.mark.parametrize("flip", FLIPS)
def test_a_back_shifted_by_the_offset_the_page_claims_reads_zero(flip: Flip) -> None:
    layout = load_layout("a4")
    drift = (-1.25, 0.75)  # the printer's, in the back page's axes
    first = {axis: lined_up(offset_gauge(axis, layout, flip, (0.0, 0.0)), layout, flip,
                            drift) for axis in ("x", "y")}
    assert first == {"x": [1.25], "y": [-0.75]}
    claimed = (first["x"][0], first["y"][0])
    # Built again with the offset the page claims, the back lies exactly behind the
    # front: the middle pair (no correction on top of the build's) is the one in line,
    # and it names the same offset, so typing it again changes nothing.
    for axis in ("x", "y"):
        gauge = offset_gauge(axis, layout, flip, claimed)
        middle = gauge.pairs[len(gauge.pairs) // 2]
        assert lined_up(gauge, layout, flip, drift) == [middle.offset]
        assert middle.offset == claimed[0 if axis == "x" else 1]
        ends = printed(middle.back, layout, flip, drift)
        front = middle.front
        assert (ends.x1, ends.y1) == pytest.approx((front.x2, front.y2))  # end to end


def test_the_labels_are_the_numbers_on_the_page() -> None:
    layout = load_layout("letter")
    art = vernier.front_art(layout, "long", (0.5, -1.0))
    texts = {item.text for item in art.items if isinstance(item, Text)}
    for axis in ("x", "y"):
        for pair in offset_gauge(axis, layout, "long", (0.5, -1.0)).pairs:
            assert vernier.number(pair.offset) in texts
    assert {"-2.5", "0.5", "2.5", "-3", "-1", "1"} <= texts
    assert [vernier.number(v) for v in (0.0, -0.0, 1.0, -0.25, 1.5, 0.75)] == [
        "0", "0", "1", "-0.25", "1.5", "0.75"]


@pytest.mark.parametrize("current", [100.0, 97.0, 103.5])
@pytest.mark.parametrize("printer", [90.0, 96.5, 97.0, 100.0, 104.0])
def test_a_ruler_s_150_mm_falls_on_the_printer_s_scale(current: float, printer: float) -> None:
    # The page is enlarged by 100 / current, then the printer prints at ``printer`` %.
    on_paper = {mark.percent: mark.distance * 100 / current * printer / 100
                for mark in scale_marks(current)}
    at_150 = [percent for percent, distance in on_paper.items()
              if distance == pytest.approx(vernier.SCALE_BASE)]
    assert at_150 == [printer]


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("flip", FLIPS)
def test_the_gauges_stay_on_the_paper_inside_the_margin(paper: str, flip: Flip) -> None:
    layout = load_layout(paper)
    pages = [calibration_front(layout, flip, (2.0, -2.0), (96.0, 104.0)),
             calibration_back(layout, flip, (2.0, -2.0))]
    for page in pages:
        # Every line of the page (the gauges' marks lie among the page's own items).
        groups = [item for item in page.items if isinstance(item, Group)]
        lines = [item for item in (*page.items, *(i for g in groups for i in g.items))
                 if isinstance(item, Line)]
        assert lines
        for line in lines:
            for x, y in ((line.x1, line.y1), (line.x2, line.y2)):
                assert layout.margin <= x <= layout.paper_width - layout.margin
                assert layout.margin <= y <= layout.paper_height - layout.margin - 6


def test_the_calibration_page_says_which_number_goes_where() -> None:
    front: Drawing = calibration_front(load_layout("a4"), "long", (0.5, 0.0), (97.0, 97.0))
    items = [*front.items, *(i for g in front.items if isinstance(g, Group) for i in g.items)]
    texts = " ".join(item.text for item in items if isinstance(item, Text))
    assert "micropul-print calibrate --offset X,Y --scale X,Y" in texts
    assert "--back-offset 0.5,0" in texts and "--scale 97,97" in texts


def test_the_art_leaves_the_right_of_the_page_free_beside_the_rulers() -> None:
    """Where the calibration page may carry pieces (right of the rulers, above the
    cross), the gauges and their text draw nothing."""
    from micropul_print.backends.fonts import text_width

    for paper in PAPERS:
        art = vernier.front_art(load_layout(paper), "long", (-12.25, -12.25),
                                (103.5, 103.5))
        for item in art.items:
            if isinstance(item, Line) and min(item.y1, item.y2) < 190:
                assert max(item.x1, item.x2) <= vernier.ART_RIGHT_LIMIT
            if isinstance(item, Text) and item.y < 190:
                right = item.x + text_width(item.text, item.size, item.weight) * (
                    {"start": 1.0, "middle": 0.5, "end": 0.0}[item.anchor])
                assert right <= vernier.ART_RIGHT_LIMIT, item.text
