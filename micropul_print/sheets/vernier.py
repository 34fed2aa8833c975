"""The calibration page's gauges, as drawing primitives in millimetres: the printer's
back offset and its scale, read off the printed sheet as the numbers to type.

**Back offset** (a vernier, as the offset grids of Proxy-PDF-Maker and
silhouette-card-maker): one gauge per axis, each a row of 17 pairs of thin bars. The
first bar of a pair is printed on the front; the second, end to end with it, on the
back, drawn moved by ``k`` x 0.25 mm (k = -8..8) along the gauge's axis of the back page
on top of the build's own back offset. Held against the light, the one pair whose two
bars form a straight line is the pair whose correction cancels the printer's drift:
its label is the whole back offset to use (the build's current one included), so it is
typed as read, never added up.

**Scale**: one line per axis with a zero mark and, about 150 mm further on, marks
labelled 90 to 104 (per cent). The mark labelled ``p`` is drawn ``150 x s / p`` mm
from zero, ``s`` being the scale the sheet already makes up for: a printer printing at
``p`` % puts it exactly 150 mm from zero. With a ruler's 0 on the zero mark, the number
at the ruler's 150 mm is the printer's scale, to type as read.

Everything here is pure geometry; :func:`front_art` and :func:`back_art` are what the
calibration page (calibration.py) adds to its two sides.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, NamedTuple

from micropul_print.draw.primitives import Group, Line, Primitive, Text
from micropul_print.sheets.duplex import Flip, back_point
from micropul_print.sheets.layout import SheetLayout

INK = "#000000"
Axis = Literal["x", "y"]

OFFSET_STEP = 0.25  # mm between neighbouring pairs' corrections: the gauge's resolution
PAIRS_EACH_SIDE = 8  # 17 pairs: corrections of -2 to +2 mm around the current offset
PITCH = 4.5  # mm between neighbouring pairs
BAR = 6.0  # length of each half of a pair, mm
INDEX_EXTRA = 1.5  # the middle pair's front bar is this much longer, to find it
BAR_WIDTH = 0.15
X_GAUGE = (20.0, 224.0)  # first pair's front bar starts here; pairs run right
Y_GAUGE = (42.0, 136.0)  # first pair's front bar starts here; pairs run down

SCALE_BASE = 150.0  # mm: where a ruler is read
SCALE_PERCENTS = tuple(90 + step / 2 for step in range(29))  # 90, 90.5, ... 104
SCALE_LABEL_EVERY = 2  # per cent
X_SCALE_ZERO = (20.0, 254.0)  # the horizontal line, ticks below it
Y_SCALE_ZERO = (14.0, 48.0)  # the vertical line, ticks left of it
TEXT_AT = (68.0, 140.0)  # the instructions, left-aligned, one line every LINE_GAP
# Right of this, between the instructions' top and the cross, the calibration page
# keeps room for pieces (tokens laid on it when the tile pages have none): no art here.
ART_RIGHT_LIMIT = 134.0
LINE_GAP = 4.2
TEXT_SIZE = 2.6
LABEL_SIZE = 2.0


class Pair(NamedTuple):
    """One pair of a back-offset gauge: its front bar (front page coordinates), its back
    bar (back page coordinates) and the back offset it stands for along the axis."""

    front: Line
    back: Line
    offset: float


class Gauge(NamedTuple):
    axis: Axis
    pairs: tuple[Pair, ...]


class ScaleMark(NamedTuple):
    """A mark of a scale line: ``percent`` and its distance from the zero mark, mm."""

    percent: float
    distance: float


def offset_gauge(axis: Axis, layout: SheetLayout, flip: Flip,
                 offset: tuple[float, float]) -> Gauge:
    """The ``axis`` gauge of a page printed with back offset ``offset`` (mm, back page
    axes, as --back-offset)."""
    width, height = layout.paper_width, layout.paper_height
    x0, y0 = X_GAUGE if axis == "x" else Y_GAUGE
    current = offset[0] if axis == "x" else offset[1]
    pairs = []
    for k in range(-PAIRS_EACH_SIDE, PAIRS_EACH_SIDE + 1):
        along = (k + PAIRS_EACH_SIDE) * PITCH
        extra = INDEX_EXTRA if k == 0 else 0.0
        correction = k * OFFSET_STEP
        if axis == "x":  # vertical bars, side by side; the back half below the front one
            x = x0 + along
            front = Line(x, y0 - extra, x, y0 + BAR, INK, BAR_WIDTH)
            ends = [(x, y0 + BAR), (x, y0 + 2 * BAR)]
            shift = (offset[0] + correction, offset[1])
        else:  # horizontal bars, one under the other; the back half right of the front one
            y = y0 + along
            front = Line(x0 - extra, y, x0 + BAR, y, INK, BAR_WIDTH)
            ends = [(x0 + BAR, y), (x0 + 2 * BAR, y)]
            shift = (offset[0], offset[1] + correction)
        (bx1, by1), (bx2, by2) = (back_point(x, y, width, height, flip, shift)
                                  for x, y in ends)
        pairs.append(Pair(front, Line(bx1, by1, bx2, by2, INK, BAR_WIDTH),
                          current + correction))
    return Gauge(axis, tuple(pairs))


def scale_marks(scale: float) -> tuple[ScaleMark, ...]:
    """The marks of a scale line on a page already enlarged by 100 / ``scale``."""
    return tuple(ScaleMark(p, SCALE_BASE * scale / p) for p in SCALE_PERCENTS)


def front_art(layout: SheetLayout, flip: Flip, offset: tuple[float, float] = (0.0, 0.0),
              scale: tuple[float, float] = (100.0, 100.0)) -> Group:
    """The front's halves of the gauges, both scale lines and how to read them."""
    items: list[Primitive] = []
    for axis in ("x", "y"):
        gauge = offset_gauge(axis, layout, flip, offset)
        items += [pair.front for pair in gauge.pairs]
        items += _gauge_labels(gauge)
    items += _scale_line("x", scale_marks(scale[0]))
    items += _scale_line("y", scale_marks(scale[1]))
    items += _instructions(offset, scale)
    return Group(tuple(items))


def back_art(layout: SheetLayout, flip: Flip,
             offset: tuple[float, float] = (0.0, 0.0)) -> Group:
    """The back's halves of the gauges."""
    return Group(tuple(pair.back for axis in ("x", "y")
                       for pair in offset_gauge(axis, layout, flip, offset).pairs))


def number(value: float) -> str:
    """A value as the page prints it and the command line takes it: 1.25, -0.5, 0."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _gauge_labels(gauge: Gauge) -> list[Primitive]:
    items: list[Primitive] = []
    for index, pair in enumerate(gauge.pairs):
        label = number(pair.offset)
        line = pair.front
        if gauge.axis == "x":  # below the back halves, on two rows so labels never touch
            y = line.y2 + BAR + 3.2 + (3.0 if index % 2 else 0.0)
            items.append(Text(line.x1, y, label, LABEL_SIZE, INK))
        else:
            items.append(Text(line.x2 + BAR + 1.5, line.y1 + 0.7, label, LABEL_SIZE, INK,
                              "start"))
    first = gauge.pairs[0].front
    if gauge.axis == "x":
        items.append(Text(first.x1 - 2.0, first.y2 + 1.0, "offset X", 2.4, INK, "end",
                          "bold"))
    else:
        items.append(Text(first.x1 + BAR, first.y1 - 4.0, "offset Y", 2.4, INK,
                          weight="bold"))
    return items


def _scale_line(axis: Axis, marks: Sequence[ScaleMark]) -> list[Primitive]:
    """A line from a zero mark to past the last mark, ticks on one side, labels every
    SCALE_LABEL_EVERY per cent; the ruler is laid on the other side."""
    x0, y0 = X_SCALE_ZERO if axis == "x" else Y_SCALE_ZERO
    end = max(mark.distance for mark in marks) + 2.0

    def at(along: float, across: float) -> tuple[float, float]:
        # ``across`` > 0 is the ticks' side: below the horizontal line, left of the other.
        return (x0 + along, y0 + across) if axis == "x" else (x0 - across, y0 + along)

    def line(a1: float, c1: float, a2: float, c2: float, width: float) -> Line:
        return Line(*at(a1, c1), *at(a2, c2), INK, width)

    items: list[Primitive] = [line(0.0, 0.0, end, 0.0, 0.12),
                              line(0.0, -3.0, 0.0, 4.0, 0.2)]
    zx, zy = at(0.0, 6.5)
    items.append(Text(zx, zy + (0.0 if axis == "x" else 0.7), "0", LABEL_SIZE, INK,
                      "middle" if axis == "x" else "end"))
    for mark in marks:
        labelled = mark.percent % SCALE_LABEL_EVERY == 0
        whole = mark.percent == int(mark.percent)
        length = 3.0 if labelled else 2.0 if whole else 1.2
        items.append(line(mark.distance, 0.0, mark.distance, length, 0.1))
        if not labelled:
            continue
        if axis == "x":  # labels about 3 mm apart: on two rows, so that none touch
            row = 2.8 if mark.percent % (2 * SCALE_LABEL_EVERY) else 0.0
            lx, ly = at(mark.distance, 5.5 + row)
            items.append(Text(lx, ly, f"{mark.percent:.0f}", LABEL_SIZE, INK))
        else:
            lx, ly = at(mark.distance, 4.0)
            items.append(Text(lx, ly + 0.7, f"{mark.percent:.0f}", LABEL_SIZE, INK, "end"))
    name = "scale X" if axis == "x" else "scale Y"
    if axis == "x":
        items.append(Text(x0 + 12.0, y0 - 1.5, name, 2.4, INK, "start", "bold"))
    else:
        items.append(Group((Text(0.0, 0.0, name, 2.4, INK, "start", "bold"),),
                           dx=x0 + 1.5, dy=y0 + 12.0, rotate=90))
    return items


def instructions(offset: tuple[float, float], scale: tuple[float, float]) -> tuple[str, ...]:
    """What the page says about reading it, line by line."""
    return (
        "Reading the gauges (printed double-sided at 100 %):",
        "Scale. Lay a ruler along the line \u201cscale X\u201d, its 0 on the",
        "0 mark: the number at its 150 mm is X, the printer\u2019s scale",
        "across the page (per cent). The line \u201cscale Y\u201d gives Y.",
        "Back offset. Hold the sheet against a light. In the gauge",
        "\u201coffset X\u201d, one pair of bars (front and back) makes one",
        "straight line: its number is X (mm). \u201coffset Y\u201d gives Y.",
        "Type the four numbers as read, then build again:",
        "micropul-print calibrate --offset X,Y --scale X,Y",
        f"(this page was made with --back-offset {number(offset[0])},{number(offset[1])}",
        f"and --scale {number(scale[0])},{number(scale[1])}; the numbers include them)",
    )


def _instructions(offset: tuple[float, float], scale: tuple[float, float]) -> list[Primitive]:
    x, y = TEXT_AT
    lines = instructions(offset, scale)
    return [Text(x, y + n * LINE_GAP, text, TEXT_SIZE, INK, "start",
                 "bold" if n in (0, len(lines) - 3) else "regular")
            for n, text in enumerate(lines)]
