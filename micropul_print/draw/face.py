"""A face described in named marks, turned into primitives with a theme.

A :class:`Face` is a square split into a grid of cells, each holding a named mark
(``disc-light``, ``dot2``, ``blank``...), or one big mark over the whole square with a
mark at its centre; plus an optional label across the middle (START), a small corner
number, and the cut outline (faces printed with bleed have none: the art runs past the
cut line instead). The theme says what each mark looks like. Nothing here knows any
game: a game module maps its pieces to a Face.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Literal

from micropul_print.backends.fonts import CAP_HEIGHT, text_width
from micropul_print.base.record import record
from micropul_print.draw.primitives import Circle, Drawing, Line, Polygon, Primitive, Rect, Text
from micropul_print.draw.theme import Hatch, MarkStyle, Theme

# How far inside the cut line the number of a face printed with bleed stays: the safe
# zone print shops ask for, where a cut a little off the line cuts no print away.
SAFE_ZONE = 3.0  # mm


@record
class Face:
    """What one face shows, by mark name.

    ``cells``: rows from top to bottom, each a tuple of mark names from left to right
    (any number of rows and columns; empty for no grid). ``big``: one mark over the
    whole face, drawn after the cells; ``centre``: a mark at the centre, drawn over
    ``big`` in its ``content`` colour. ``background``: a mark painting the whole
    drawing, bleed included (``None``: the theme's plain background). ``round``: the
    cut line is the circle inscribed in the square (tokens); nothing is painted
    outside it.
    """

    cells: tuple[tuple[str, ...], ...] = ()
    big: str | None = None
    centre: str | None = None
    label: str | None = None
    number: str | None = None
    background: str | None = None
    outline: bool = True
    round: bool = False


def face_drawing(face: Face, theme: Theme, *, size: float, bleed: float = 0.0) -> Drawing:
    """The face as a Drawing of ``size + 2 * bleed`` mm square, cut square at (bleed, bleed)."""
    full = size + 2 * bleed
    items: list[Primitive] = []
    if not face.round:
        if face.background is None:
            items.append(Rect(0.0, 0.0, _r(full), _r(full), fill=theme.background))
        else:
            items += mark_items(theme.mark(face.background), 0.0, 0.0, full, full)
    if face.cells:
        rows = len(face.cells)
        cell_h = size / rows
        for row, names in enumerate(face.cells):
            cell_w = size / len(names)
            for col, name in enumerate(names):
                items += mark_items(theme.mark(name), bleed + col * cell_w,
                                    bleed + row * cell_h, cell_w, cell_h)
    content = None
    if face.big is not None:
        big = theme.mark(face.big)
        items += mark_items(big, bleed, bleed, size, size)
        content = big.content
        if face.centre is not None and big.plate > 0.0:
            items.append(Circle(_r(full / 2), _r(full / 2), _r(big.plate / 2),
                                fill=big.plate_colour))
    if face.centre is not None:
        items += mark_items(theme.mark(face.centre), bleed, bleed, size, size, colour=content)
    if face.label:
        items += _label_items(face.label, theme, full / 2, full / 2)
    if face.number:
        if bleed > 0.0:
            # Printed with bleed (by a shop, or cut by hand along a bleed), the cut may
            # wander: the number keeps to the safe zone, centred on the bottom edge,
            # where the cells' marks leave room; over one big mark, in its content colour.
            items += _number_items(face.number, theme, full / 2, bleed + size - SAFE_ZONE,
                                   anchor="middle", colour=content)
        else:
            items += _number_items(face.number, theme, bleed + theme.number.inset,
                                   bleed + size - theme.number.inset)
    # The cut outline guides scissors on a face printed without bleed. With bleed the
    # art runs past the cut line and no line lies on it: a cut a little off the line
    # would leave a sliver of outline on the tile's edge.
    if (face.outline and theme.outline is not None and theme.outline_width > 0.0
            and (bleed == 0.0 or face.round)):
        half = theme.outline_width / 2  # the whole stroke lies inside the cut line
        if face.round:
            items.append(Circle(_r(full / 2), _r(full / 2), _r(size / 2 - half),
                                stroke=theme.outline, stroke_width=theme.outline_width))
        else:
            items.append(Rect(_r(bleed + half), _r(bleed + half), _r(size - 2 * half),
                              _r(size - 2 * half), stroke=theme.outline,
                              stroke_width=theme.outline_width))
    return Drawing(_r(full), _r(full), tuple(items))


def mark_items(style: MarkStyle, x: float, y: float, width: float, height: float,
               colour: str | None = None) -> list[Primitive]:
    """One mark painted in the box (x, y, width, height); ``colour`` replaces the fill
    of dots and crosses (marks drawn on top of another mark)."""
    cx, cy = x + width / 2, y + height / 2
    if style.shape == "disc":
        r = min(width, height) / 2 - style.margin
        if r <= 0:
            return []
        return _disc(style, cx, cy, r)
    if style.shape == "square":
        m = style.margin
        return _square(style, x + m, y + m, width - 2 * m, height - 2 * m)
    if style.shape == "dots":
        fill = colour or style.fill
        first = cx - (style.count - 1) * style.gap / 2
        return [Circle(_r(first + i * style.gap), _r(cy), _r(style.size / 2), fill=fill)
                for i in range(style.count)]
    if style.shape == "cross":
        return [Polygon(_plus_points(cx, cy, style.size, style.thickness),
                        fill=colour or style.fill)]
    return []


def _disc(style: MarkStyle, cx: float, cy: float, r: float) -> list[Primitive]:
    extras: list[Primitive] = []
    if style.hatch is not None:
        extras += _hatch_lines(style.hatch, cx, cy, _circle_chord(cx, cy, r), r)
    if style.ring is not None and r - style.ring.inset > 0:
        extras.append(Circle(_r(cx), _r(cy), _r(r - style.ring.inset), stroke=style.ring.colour,
                             stroke_width=style.ring.width))
    if style.core > 0.0:
        extras.append(Circle(_r(cx), _r(cy), _r(style.core / 2), fill=style.core_colour))
    if not extras:
        return [Circle(_r(cx), _r(cy), _r(r), fill=style.fill, stroke=style.stroke,
                       stroke_width=style.stroke_width)]
    # Fill first and stroke last, so the stroke covers the ends of the hatch lines.
    items: list[Primitive] = []
    if style.fill is not None:
        items.append(Circle(_r(cx), _r(cy), _r(r), fill=style.fill))
    items += extras
    if style.stroke is not None and style.stroke_width > 0.0:
        items.append(Circle(_r(cx), _r(cy), _r(r), stroke=style.stroke,
                            stroke_width=style.stroke_width))
    return items


def _square(style: MarkStyle, x: float, y: float, w: float, h: float) -> list[Primitive]:
    if w <= 0 or h <= 0:
        return []
    if style.hatch is None:
        return [Rect(_r(x), _r(y), _r(w), _r(h), fill=style.fill, stroke=style.stroke,
                     stroke_width=style.stroke_width)]
    items: list[Primitive] = []
    if style.fill is not None:
        items.append(Rect(_r(x), _r(y), _r(w), _r(h), fill=style.fill))
    reach = math.hypot(w, h) / 2
    items += _hatch_lines(style.hatch, x + w / 2, y + h / 2, _rect_chord(x, y, w, h), reach)
    if style.stroke is not None and style.stroke_width > 0.0:
        items.append(Rect(_r(x), _r(y), _r(w), _r(h), stroke=style.stroke,
                          stroke_width=style.stroke_width))
    return items


Chord = tuple[float, float] | None  # (t0, t1) along the line's direction, or no overlap
Clip = Callable[[float, float, float, float], Chord]  # (px, py, dx, dy) -> extent in shape


def _hatch_lines(hatch: Hatch, cx: float, cy: float, clip: Clip, reach: float) -> list[Primitive]:
    """Parallel lines through the shape around (cx, cy), ``hatch.spacing`` apart, one
    through the centre; ``clip(px, py, dx, dy)`` gives each line's extent inside the shape."""
    angle = math.radians(hatch.angle)
    dx, dy = math.cos(angle), -math.sin(angle)  # page y runs downward
    nx, ny = -dy, dx
    steps = int(reach / hatch.spacing)
    lines: list[Primitive] = []
    for k in range(-steps, steps + 1):
        px, py = cx + k * hatch.spacing * nx, cy + k * hatch.spacing * ny
        extent = clip(px, py, dx, dy)
        if extent is None:
            continue
        t0, t1 = extent
        if t1 - t0 < hatch.width:
            continue
        lines.append(Line(_r(px + t0 * dx), _r(py + t0 * dy), _r(px + t1 * dx), _r(py + t1 * dy),
                          stroke=hatch.colour, stroke_width=hatch.width))
    return lines


def _circle_chord(cx: float, cy: float, r: float) -> Clip:
    def clip(px: float, py: float, dx: float, dy: float) -> Chord:
        # The line passes at distance |d| from the centre; half its chord is sqrt(r²-d²).
        d2 = (px - cx) ** 2 + (py - cy) ** 2
        if d2 >= r * r:
            return None
        half = math.sqrt(r * r - d2)
        return (-half, half)

    return clip


def _rect_chord(x: float, y: float, w: float, h: float) -> Clip:
    def clip(px: float, py: float, dx: float, dy: float) -> Chord:
        t0, t1 = -math.inf, math.inf
        for p, d, low, high in ((px, dx, x, x + w), (py, dy, y, y + h)):
            if abs(d) < 1e-12:
                if not low <= p <= high:
                    return None
                continue
            a, b = (low - p) / d, (high - p) / d
            t0, t1 = max(t0, min(a, b)), min(t1, max(a, b))
        return (t0, t1) if t0 < t1 else None

    return clip


def _plus_points(cx: float, cy: float, size: float,
                 thickness: float) -> tuple[tuple[float, float], ...]:
    a, t = size / 2, thickness / 2
    outline = ((-t, -a), (t, -a), (t, -t), (a, -t), (a, t), (t, t),
               (t, a), (-t, a), (-t, t), (-a, t), (-a, -t), (-t, -t))
    return tuple((_r(cx + u), _r(cy + v)) for u, v in outline)


def _label_items(text: str, theme: Theme, cx: float, cy: float) -> list[Primitive]:
    style, plate = theme.label, theme.plate
    width = text_width(text, style.size, style.weight)
    cap = CAP_HEIGHT * style.size
    items: list[Primitive] = []
    if plate.fill is not None or plate.stroke is not None:
        w, h = width + 2 * plate.padding, cap + 2 * plate.padding
        items.append(Rect(_r(cx - w / 2), _r(cy - h / 2), _r(w), _r(h), fill=plate.fill,
                          stroke=plate.stroke, stroke_width=plate.stroke_width,
                          corner_radius=plate.corner_radius))
    items.append(Text(_r(cx), _r(cy + cap / 2), text, style.size, fill=style.colour,
                      anchor="middle", weight=style.weight))
    return items


def _number_items(number: str, theme: Theme, x: float, bottom: float, *,
                  anchor: Literal["start", "middle"] = "start",
                  colour: str | None = None) -> list[Primitive]:
    """The number underlined, its text box's bottom at ``bottom`` and its left edge (or
    its middle) at ``x``: the bar tells which way is down, so 6 and 9 (or a turned 11)
    can't be misread and the printed orientation shows."""
    style = theme.number
    colour = colour or style.colour
    underline_y = bottom - 0.04 * style.size
    baseline = underline_y - 0.16 * style.size
    width = text_width(number, style.size, style.weight)
    left = x - width / 2 if anchor == "middle" else x
    return [
        Text(_r(x), _r(baseline), number, style.size, fill=colour, anchor=anchor,
             weight=style.weight),
        Line(_r(left), _r(underline_y), _r(left + width), _r(underline_y), stroke=colour,
             stroke_width=_r(0.08 * style.size)),
    ]


def _r(value: float) -> float:
    """Round to 1/10000 mm: far below print resolution, and it keeps golden files and
    the SVG free of float noise like 7.499999999999999."""
    return round(value, 4) + 0.0  # + 0.0 turns -0.0 into 0.0
