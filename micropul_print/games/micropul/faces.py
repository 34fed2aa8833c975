"""What Micropul pieces look like: the one place that maps a Tile to a picture.

A tile face is a 2 × 2 grid of marks (a micropul is a disc, light or dark; catalysts
are one dot, two dots or a plus; a blank quadrant is empty), or, on the four big
tiles, one large disc with its catalyst in the centre. The start tile carries START.
How each mark looks is the theme's business (micropul_print.draw.theme).
"""

from __future__ import annotations

import dataclasses
import math

from micropul_print.backends.fonts import CAP_HEIGHT
from micropul_print.base.errors import Diagnostic, UserError
from micropul_print.draw.face import Face, face_drawing, mark_items
from micropul_print.draw.primitives import Circle, Drawing, Polygon, Primitive, Text
from micropul_print.draw.theme import MarkStyle, Theme
from micropul_print.games.micropul.model import (
    BL,
    BLACK,
    BR,
    DOT,
    DOUBLE,
    EMPTY,
    PLUS,
    TL,
    TR,
    WHITE,
    Tile,
)

TILE_SIZE_MM = 30.0
START_LABEL = "START"
PLAYERS = (1, 2)

# Catalogue quadrant value -> the theme's mark name.
MARKS = {
    WHITE: "disc-light",
    BLACK: "disc-dark",
    DOT: "dot1",
    DOUBLE: "dot2",
    PLUS: "plus",
    EMPTY: "blank",
}
# Every mark the tiles, the back and the stones are drawn with.
NEEDED_MARKS = (*MARKS.values(), "back-fill", "back-emblem",
                *(f"stone-{player}" for player in PLAYERS))


# The smallest cell each mark that may be a disc is painted in, mm: a quadrant for the
# micropul (the big ones fill the tile), the whole face for the back.
DISC_CELLS = {"disc-light": TILE_SIZE_MM / 2, "disc-dark": TILE_SIZE_MM / 2,
              "back-fill": TILE_SIZE_MM, "back-emblem": TILE_SIZE_MM}


def theme_problems(theme: Theme) -> list[Diagnostic]:
    """A problem, at the theme's marks, for each mark Micropul needs and the theme does
    not define (a theme file of the user's may leave one out)."""
    return (theme.missing_marks(NEEDED_MARKS, "Micropul's tiles")
            + theme.disc_margin_problems(DISC_CELLS, "Micropul paints it in a cell"))


def check_theme(theme: Theme) -> None:
    """Raise UserError with :func:`theme_problems`, if any."""
    problems = theme_problems(theme)
    if problems:
        raise UserError(problems)


def tile_face(tile: Tile, *, show_number: bool = True) -> Face:
    """The face of ``tile`` in its printed orientation, as named marks."""
    label = START_LABEL if tile.start else None
    number = str(tile.id) if show_number else None
    if tile.big is not None:
        return Face(big=MARKS[tile.big.colour], centre=MARKS[tile.big.catalyst],
                    label=label, number=number)
    q = tile.quadrants
    cells = ((MARKS[q[TL]], MARKS[q[TR]]), (MARKS[q[BL]], MARKS[q[BR]]))
    return Face(cells=cells, label=label, number=number)


def tile_drawing(tile: Tile, theme: Theme, *, bleed: float = 0.0,
                 show_number: bool = True, outline: bool = True) -> Drawing:
    """The tile's face, ``30 + 2 * bleed`` mm square with the cut square at
    (bleed, bleed); with bleed the background runs to the drawing's edge. The theme's
    cut outline is drawn only without bleed, and not at all with ``outline`` False
    (a picture of the face as cut from a print with bleed)."""
    face = dataclasses.replace(tile_face(tile, show_number=show_number), outline=outline)
    return face_drawing(face, theme, size=TILE_SIZE_MM, bleed=bleed)


def back_drawing(theme: Theme, *, bleed: float = 0.0) -> Drawing:
    """The back shared by every tile: no number, nothing that tells tiles apart, and no
    cut outline (a duplex misregistration would show it on the edge)."""
    face = Face(background="back-fill", big="back-emblem", outline=False)
    return face_drawing(face, theme, size=TILE_SIZE_MM, bleed=bleed)


# A stone is a gaming chip, so that nobody takes it for a micropul (a plain disc):
# notches round its rim, an inner ring and the player's number in the middle.
# Proportions of the stone's diameter; the theme's stone-1 / stone-2 marks give the
# colours (fill: the chip; content: the notches; ring: the inner ring, its inset and
# width given for a STONE_REFERENCE_MM stone; hatch, plate: as on any disc).
STONE_REFERENCE_MM = 14.0
STONE_NOTCHES = 8
STONE_NOTCH_INNER = 0.76  # the notches run from this fraction of the radius outward
STONE_NOTCH_HALF_ANGLE = 11.0  # degrees
STONE_NUMBER_SIZE = 0.5  # em, as a fraction of the diameter
STONE_ARC_STEPS = 4  # straight pieces along each arc of a notch


def stone_drawing(player: int, theme: Theme, diameter: float = 14.0, *, bleed: float = 0.0,
                  outline: bool = True, number: bool = True) -> Drawing:
    """A round stone token of ``player`` (1 or 2), ``diameter`` mm across, in a drawing
    ``bleed`` mm larger on every side: the chip's colour and notches run into the bleed.
    ``outline``: the theme's cut circle (the front, cut with scissors; never on a back,
    where a printer's drift would show it); ``number``: the player's number."""
    if player not in PLAYERS:
        raise ValueError(f"player must be 1 or 2, not {player!r}")
    style = theme.mark(f"stone-{player}")
    full = diameter + 2 * bleed
    c, r = full / 2, diameter / 2
    scale = diameter / STONE_REFERENCE_MM
    fill = style.fill or theme.background
    contrast = "#000000" if _is_light(fill) else "#ffffff"
    field = MarkStyle(shape="disc", fill=fill, hatch=style.hatch)
    items: list[Primitive] = list(mark_items(field, 0.0, 0.0, full, full))
    notch = style.content or contrast
    for k in range(STONE_NOTCHES):
        items.append(Polygon(_notch(c, r * STONE_NOTCH_INNER, r + bleed,
                                    360.0 * k / STONE_NOTCHES), fill=notch))
    if style.ring is not None:
        items.append(Circle(_r(c), _r(c), _r(r - style.ring.inset * scale),
                            stroke=style.ring.colour, stroke_width=_r(style.ring.width * scale)))
    if number:
        size = STONE_NUMBER_SIZE * diameter
        if style.plate > 0.0:
            items.append(Circle(_r(c), _r(c), _r(style.plate * scale / 2),
                                fill=style.plate_colour))
        colour = style.plate_colour if style.plate > 0.0 and style.plate_colour else fill
        items.append(Text(_r(c), _r(c + CAP_HEIGHT * size / 2), str(player), _r(size),
                          fill="#000000" if _is_light(colour) else "#ffffff", weight="bold"))
    if outline and theme.outline is not None and theme.outline_width > 0.0:
        half = theme.outline_width / 2  # the whole stroke inside the cut circle
        items.append(Circle(_r(c), _r(c), _r(r - half), stroke=theme.outline,
                            stroke_width=theme.outline_width))
    return Drawing(_r(full), _r(full), tuple(items))


def stone_faces(player: int, theme: Theme, diameter: float = 14.0, *,
                bleed: float = 0.0) -> tuple[Drawing, Drawing]:
    """The two sides of a printed stone: the front with its cut circle, the back (the
    same chip, so a stone shows its colour either way up) without it."""
    return (stone_drawing(player, theme, diameter, bleed=bleed),
            stone_drawing(player, theme, diameter, bleed=bleed, outline=False))


def _notch(c: float, inner: float, outer: float, angle: float) -> tuple[tuple[float, float], ...]:
    """An annular sector round (c, c) from radius ``inner`` to ``outer``, centred on
    ``angle`` degrees, its arcs as short straight pieces."""
    half = STONE_NOTCH_HALF_ANGLE
    steps = [angle - half + 2 * half * i / STONE_ARC_STEPS for i in range(STONE_ARC_STEPS + 1)]
    outer_arc = [(c + outer * math.cos(math.radians(a)), c + outer * math.sin(math.radians(a)))
                 for a in steps]
    inner_arc = [(c + inner * math.cos(math.radians(a)), c + inner * math.sin(math.radians(a)))
                 for a in reversed(steps)]
    return tuple((_r(x), _r(y)) for x, y in outer_arc + inner_arc)


def _is_light(colour: str) -> bool:
    """Whether black reads better than white on ``colour`` (#rrggbb)."""
    red, green, blue = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue > 127.5


def _r(value: float) -> float:
    """1/10000 mm, as the face layer rounds: stable golden files and SVG numbers."""
    return round(value, 4) + 0.0
