"""Rectangles in millimetres, and the rectangle a primitive's ink can reach.

Layouts use these to keep pieces clear of printed art (the calibration page's
rulers, a cutting machine's registration marks). Bounds are generous rather than
tight: a text's box runs from a full em above its baseline to its descenders, a
stroke's half width is added on every side.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from micropul_print.backends.fonts import text_width
from micropul_print.draw.primitives import (
    Circle,
    Drawing,
    Group,
    Line,
    Polygon,
    Primitive,
    Rect,
    Text,
)

DESCENDER = 0.22  # below the baseline, in ems (Lato's descenders reach about 0.2)


class Box(NamedTuple):
    """A rectangle by its left, top, right and bottom edges, mm (y downward)."""

    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        return self.y1 - self.y0

    def contains(self, x: float, y: float, eps: float = 1e-9) -> bool:
        return (self.x0 - eps <= x <= self.x1 + eps) and (self.y0 - eps <= y <= self.y1 + eps)

    def overlaps(self, other: Box) -> bool:
        """True when the two share more than an edge."""
        return (self.x0 < other.x1 and other.x0 < self.x1
                and self.y0 < other.y1 and other.y0 < self.y1)

    def grown(self, by: float) -> Box:
        return Box(self.x0 - by, self.y0 - by, self.x1 + by, self.y1 + by)

    def moved(self, dx: float, dy: float) -> Box:
        return Box(self.x0 + dx, self.y0 + dy, self.x1 + dx, self.y1 + dy)


def union(boxes: Iterable[Box]) -> Box | None:
    """The smallest box holding every box; None for none."""
    found = list(boxes)
    if not found:
        return None
    return Box(min(b.x0 for b in found), min(b.y0 for b in found),
               max(b.x1 for b in found), max(b.y1 for b in found))


def item_bounds(item: Primitive) -> Box:
    """Where ``item`` may put ink, in its drawing's coordinates."""
    if isinstance(item, Line):
        h = item.stroke_width / 2
        return Box(min(item.x1, item.x2) - h, min(item.y1, item.y2) - h,
                   max(item.x1, item.x2) + h, max(item.y1, item.y2) + h)
    if isinstance(item, Rect):
        h = item.stroke_width / 2 if item.stroke else 0.0
        return Box(item.x - h, item.y - h, item.x + item.width + h, item.y + item.height + h)
    if isinstance(item, Circle):
        r = item.r + (item.stroke_width / 2 if item.stroke else 0.0)
        return Box(item.cx - r, item.cy - r, item.cx + r, item.cy + r)
    if isinstance(item, Polygon):
        h = item.stroke_width / 2 if item.stroke else 0.0
        xs, ys = [p[0] for p in item.points], [p[1] for p in item.points]
        return Box(min(xs) - h, min(ys) - h, max(xs) + h, max(ys) + h)
    if isinstance(item, Text):
        width = text_width(item.text, item.size, item.weight)
        left = {"start": item.x, "middle": item.x - width / 2, "end": item.x - width}[item.anchor]
        return Box(left, item.y - item.size, left + width, item.y + DESCENDER * item.size)
    if isinstance(item, Group):
        inner = union(item_bounds(child) for child in item.items)
        if inner is None:
            return Box(item.dx, item.dy, item.dx, item.dy)
        corners = [(inner.x0, inner.y0), (inner.x1, inner.y1)]
        for _ in range((item.rotate // 90) % 4):  # a clockwise quarter turn on a y-down page
            cx, cy = item.rotate_cx, item.rotate_cy
            corners = [(cx - (y - cy), cy + (x - cx)) for x, y in corners]
        xs, ys = [x + item.dx for x, _y in corners], [y + item.dy for _x, y in corners]
        return Box(min(xs), min(ys), max(xs), max(ys))
    raise TypeError(f"not a drawing primitive: {item!r}")


def drawing_bounds(drawing: Drawing) -> list[Box]:
    """The bounds of each of the drawing's items, in order."""
    return [item_bounds(item) for item in drawing.items]
