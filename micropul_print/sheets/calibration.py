"""The calibration page and its back, as drawing primitives.

Front: a 100 mm ruler along each axis (mm ticks, cm numbers), a 30 mm test square, the
print-at-actual-size instruction, and a registration cross. Back: a cross with a mm
scale at the mirrored position, so that after duplex printing, held against the light,
the two crosses coincide; any distance between them is the printer's drift, which
``--back-offset`` corrects. Positions fit both A4 and Letter.
"""

from __future__ import annotations

from micropul_print.draw.bounds import Box
from micropul_print.draw.primitives import Circle, Drawing, Line, Polygon, Primitive, Rect, Text
from micropul_print.sheets import vernier
from micropul_print.sheets.duplex import Flip, back_point
from micropul_print.sheets.layout import SheetLayout

INK = "#000000"
SQUARE_FILL = "#c8c8c8"

RULER_X, RULER_Y = 30.0, 62.0  # where the two rulers meet (their zero)
RULER_LENGTH = 100.0
SQUARE_X, SQUARE_Y, SQUARE_SIZE = 80.0, 90.0, 30.0
TARGET_X, TARGET_Y = 160.0, 205.0  # front registration cross: off both centre lines
TARGET_ARM = 10.0

FLIP_WORDS = {"long": "long edge", "short": "short edge"}
PIECES_GAP = 8.0  # between the rulers or the cross and pieces laid on the page, mm


def pieces_zone(layout: SheetLayout) -> Box:
    """Where pieces may be laid on the calibration page when the tile pages have no
    room for them: right of the rulers, below the instructions, above the cross."""
    return Box(RULER_X + RULER_LENGTH + PIECES_GAP, 42.0,
               layout.paper_width - layout.margin, TARGET_Y - TARGET_ARM - PIECES_GAP)


def calibration_front(layout: SheetLayout, flip: Flip,
                      offset: tuple[float, float] = (0.0, 0.0),
                      scale: tuple[float, float] = (100.0, 100.0)) -> Drawing:
    width = layout.paper_width
    items: list[Primitive] = [
        Text(width / 2, 22.0, "Calibration page", 5.0, INK, "middle", "bold"),
        Text(width / 2, 30.0, "Print at 100 % (“Actual size”), never “Fit to page” or "
             "“Shrink to fit”,", 3.2, INK),
        Text(width / 2, 35.0, f"double-sided, turning over on the {FLIP_WORDS[flip]}. "
             "Then check the rulers, the square and the cross.", 3.2, INK),
    ]
    items += _rulers()
    items += [
        Rect(SQUARE_X, SQUARE_Y, SQUARE_SIZE, SQUARE_SIZE, fill=SQUARE_FILL),
        Text(SQUARE_X + SQUARE_SIZE / 2, SQUARE_Y + SQUARE_SIZE + 5.0,
             "this square must measure 30 mm", 3.0, INK),
        Text(SQUARE_X + SQUARE_SIZE / 2, SQUARE_Y + SQUARE_SIZE + 9.0,
             "(otherwise the printer scaled the page)", 2.6, INK),
    ]
    items += _cross(TARGET_X, TARGET_Y, scale=False)
    items += [
        Text(TARGET_X, TARGET_Y + TARGET_ARM + 5.0, "front/back registration", 3.0, INK,
             weight="bold"),
        Text(TARGET_X, TARGET_Y + TARGET_ARM + 9.0, "its twin is printed on the back", 2.6,
             INK),
    ]
    # The back-offset gauges and scale lines (the page was made with ``offset`` and
    # ``scale``: its readings include them): sheets/vernier.py.
    # Spread, not grouped: the page's pieces go where no single mark of it lies.
    items += vernier.front_art(layout, flip, offset, scale).items
    return Drawing(width, layout.paper_height, tuple(items))


def calibration_back(layout: SheetLayout, flip: Flip,
                     offset: tuple[float, float] = (0.0, 0.0)) -> Drawing:
    width, height = layout.paper_width, layout.paper_height
    x, y = back_point(TARGET_X, TARGET_Y, width, height, flip, offset)
    items: list[Primitive] = [
        Text(width / 2, 22.0, "Calibration page — back", 5.0, INK, "middle", "bold"),
        Text(width / 2, 30.0, "Hold the sheet against the light: the cross below must lie "
             "on the cross of the front.", 3.2, INK),
        Text(width / 2, 35.0, "If it does not, read on the scale how far the front's cross "
             "lies (right and down positive, seen", 3.2, INK),
        Text(width / 2, 40.0, "from this side) and add those millimetres to the back "
             "offset of the next build (--back-offset X,Y).", 3.2, INK),
    ]
    items += _cross(x, y, scale=True)
    items += vernier.back_art(layout, flip, offset).items  # the gauges' back halves
    return Drawing(width, height, tuple(items))


def _rulers() -> list[Primitive]:
    """Two 100 mm rulers sharing their zero: one to the right, one downward.

    The horizontal ruler's base bar is the downward ruler's zero line, so that ruler
    has no tick at 0 (its own would lie on the bar, doubling it), and the horizontal
    bar starts at the outer edge of the downward one, closing the corner square."""
    ticks = [(float(mm), *_tick(mm)) for mm in range(int(RULER_LENGTH) + 1)]
    items: list[Primitive] = [
        _comb(ticks, RULER_X, RULER_Y, horizontal=True, start=-BAR),
        _comb(ticks[1:], RULER_X, RULER_Y, horizontal=False, start=0.0),
    ]
    for cm in range(int(RULER_LENGTH) // 10 + 1):
        items.append(Text(RULER_X + 10 * cm, RULER_Y - 6.5, str(cm), 3.0, INK))
        if cm:
            items.append(Text(RULER_X - 1.5, RULER_Y + 10 * cm + 1.0, str(cm), 3.0, INK, "end"))
    items.append(Text(RULER_X + RULER_LENGTH + 3.0, RULER_Y - 6.5, "cm", 3.0, INK, "start"))
    items.append(Text(RULER_X - 1.5, RULER_Y + RULER_LENGTH + 6.0, "cm", 3.0, INK, "end"))
    return items


def _tick(mm: int) -> tuple[float, float]:
    """Length and width of the tick at ``mm``: longest at each cm, middling at 5 mm."""
    if mm % 10 == 0:
        return 5.0, 0.2
    return (3.5 if mm % 5 == 0 else 2.0), 0.12


BAR = 0.2  # width of a ruler's base bar, mm


def _comb(ticks: list[tuple[float, float, float]], x0: float, y0: float, *,
          horizontal: bool, start: float) -> Polygon:
    """A ruler as one filled outline: a base bar along the axis, from ``start`` to the
    last tick, with a tooth of the given (position, length, width) at each tick. Teeth
    point up (horizontal ruler) or right (vertical ruler); the base line is the ticks'
    zero. One shape instead of a hundred strokes keeps the page light for printers and
    for the PDF writer."""
    left = [position - width / 2 for position, _length, width in ticks]
    right = [position + width / 2 for position, _length, width in ticks]
    # (a, b): a runs along the ruler, b away from it; teeth stand at negative b.
    outline = [(min(start, left[0]), BAR), (right[-1], BAR)]
    for i in range(len(ticks) - 1, -1, -1):
        outline += [(right[i], -ticks[i][1]), (left[i], -ticks[i][1])]
        if i:
            outline += [(left[i], 0.0), (right[i - 1], 0.0)]
    if start < left[0]:
        outline += [(left[0], 0.0), (start, 0.0)]
    points = [(x0 + a, y0 + b) if horizontal else (x0 - b, y0 + a) for a, b in outline]
    return Polygon(tuple(points), fill=INK)


def _cross(x: float, y: float, *, scale: bool) -> list[Primitive]:
    """A crosshair centred on (x, y); with ``scale``, mm ticks along both arms."""
    items: list[Primitive] = [
        Line(x - TARGET_ARM, y, x + TARGET_ARM, y, INK, 0.15),
        Line(x, y - TARGET_ARM, x, y + TARGET_ARM, INK, 0.15),
        Circle(x, y, 5.0, stroke=INK, stroke_width=0.15),
    ]
    if scale:
        for mm in range(-int(TARGET_ARM), int(TARGET_ARM) + 1):
            if mm == 0:
                continue
            tick = 1.2 if mm % 5 == 0 else 0.6
            items.append(Line(x + mm, y - tick, x + mm, y + tick, INK, 0.1))
            items.append(Line(x - tick, y + mm, x + tick, y + mm, INK, 0.1))
    return items
