"""Registration marks for print-and-cut machines, as drawing primitives.

A cutting machine with an optical sensor (Silhouette Cameo, Portrait, Curio) finds a
printed sheet by three marks: a filled square at the top-left, and L-shaped corners at
the top-right and the bottom-left. These are Silhouette Studio's "Type 1" marks at its
default settings (length 20 mm, thickness 0.5 mm, inset 10 mm), drawn as Studio
draws them for a page of this size, so that the marks it expects lie on the printed
ones: the square 5 mm a side, its outer edges on the inset (10 mm from the top and the
left edge of the paper: it fills 10-15 mm); each L's lines 0.5 mm thick, centred on
the inset, each arm 20 mm long from the corner point. (The Silhouette plug-in for
Inkscape and the card makers written for Studio draw them the same way.)

The sensor must see nothing but the mark around each of them: :func:`keep_out` gives
the three corner squares that pieces and other marks stay out of.
"""

from __future__ import annotations

from micropul_print.draw.bounds import Box
from micropul_print.draw.primitives import Polygon, Primitive

INK = "#000000"
# From the paper's edges to the square's outer edges and to the Ls' centre lines, mm.
INSET = 10.0
LENGTH = 20.0  # of each arm of an L, and the side of the zone of each mark, mm
THICKNESS = 0.5  # of the Ls' lines, mm
SQUARE = 5.0  # side of the filled top-left square, mm
CLEARANCE = 2.0  # nothing else printed this close to a mark's zone, mm


def registration_marks(width: float, height: float) -> list[Primitive]:
    """The three marks of a page ``width`` x ``height`` mm, as filled outlines."""
    far = INSET + SQUARE
    square = Polygon(((INSET, INSET), (far, INSET), (far, far), (INSET, far)), fill=INK)
    right, bottom = width - INSET, height - INSET
    # Each L as its centre line drawn THICKNESS wide with square ends: the corner point
    # first, then the ends of its two arms.
    top_right = _corner((right, INSET), (right - LENGTH, INSET), (right, INSET + LENGTH))
    bottom_left = _corner((INSET, bottom), (INSET + LENGTH, bottom), (INSET, bottom - LENGTH))
    return [square, top_right, bottom_left]


def keep_out(width: float, height: float) -> list[Box]:
    """The zones round the three marks that nothing else may touch."""
    reach = INSET + LENGTH + CLEARANCE
    near = INSET - THICKNESS / 2 - CLEARANCE
    return [
        Box(near, near, reach, reach),
        Box(width - reach, near, width - near, reach),
        Box(near, height - reach, reach, height - near),
    ]


def _corner(corner: tuple[float, float], end_x: tuple[float, float],
            end_y: tuple[float, float]) -> Polygon:
    """An L from ``end_x`` along a horizontal arm to ``corner``, then along a vertical
    arm to ``end_y``, THICKNESS wide with square ends, as one outline."""
    h = THICKNESS / 2
    cx, cy = corner
    sx = 1.0 if end_x[0] > cx else -1.0  # the horizontal arm runs this way from the corner
    sy = 1.0 if end_y[1] > cy else -1.0
    ax, by = end_x[0] + sx * h, end_y[1] + sy * h  # arm ends, square caps included
    points = (
        (cx - sx * h, cy - sy * h),  # the outer corner
        (ax, cy - sy * h),
        (ax, cy + sy * h),
        (cx + sx * h, cy + sy * h),  # the inner corner
        (cx + sx * h, by),
        (cx - sx * h, by),
    )
    return Polygon(points, fill=INK)
