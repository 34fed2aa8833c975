"""A picture as a short list of primitives in millimetres: the one description of a
tile face (or back, or any sheet decoration) that every backend emits.

Coordinates: origin at the top-left of the drawing, x to the right, y downward, all
lengths in millimetres. Colours are ``#rrggbb`` strings; ``None`` means no paint.
Nothing here knows about any game: games turn their tiles into these primitives.

The backends (micropul_print.backends.svg / pdf / png) emit a Drawing; none of them
may draw anything that is not in the list, so the three outputs show the same picture.
"""

from __future__ import annotations

from dataclasses import field
from typing import Literal

from micropul_print.base.record import record

Colour = str | None


@record
class Rect:
    x: float
    y: float
    width: float
    height: float
    fill: Colour = None
    stroke: Colour = None
    stroke_width: float = 0.0
    corner_radius: float = 0.0


@record
class Circle:
    cx: float
    cy: float
    r: float
    fill: Colour = None
    stroke: Colour = None
    stroke_width: float = 0.0


@record
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    stroke: Colour = "#000000"
    stroke_width: float = 0.1


@record
class Polygon:
    points: tuple[tuple[float, float], ...]
    fill: Colour = None
    stroke: Colour = None
    stroke_width: float = 0.0


@record
class Text:
    """One line of text. ``x, y`` is the anchor point on the baseline."""

    x: float
    y: float
    text: str
    size: float  # em size in millimetres
    fill: Colour = "#000000"
    anchor: Literal["start", "middle", "end"] = "middle"
    weight: Literal["regular", "bold"] = "regular"


@record
class Group:
    """Items drawn after a rotation (clockwise degrees, multiple of 90) about the
    point (rotate_cx, rotate_cy), then a translation by (dx, dy)."""

    items: tuple[Primitive, ...]
    dx: float = 0.0
    dy: float = 0.0
    rotate: int = 0
    rotate_cx: float = 0.0
    rotate_cy: float = 0.0


Primitive = Rect | Circle | Line | Polygon | Text | Group


@record
class Drawing:
    """A picture of a given size; ``items`` are painted in order."""

    width: float
    height: float
    items: tuple[Primitive, ...] = field(default_factory=tuple)

    @property
    def background(self) -> Rect | None:
        """The first item when it is a filled rectangle covering the whole picture (a
        face's background), else None."""
        first = self.items[0] if self.items else None
        if (isinstance(first, Rect) and first.fill is not None and first.x <= 0
                and first.y <= 0 and first.x + first.width >= self.width
                and first.y + first.height >= self.height):
            return first
        return None
