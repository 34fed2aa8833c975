"""What Micropul pieces look like: the one place that maps a Tile to a picture.

A tile face is a 2 x 2 grid of marks (a micropul is a disc, light or dark; catalysts
are one dot, two dots or a plus; a blank quadrant is empty), or, on the four big
tiles, one large disc with its catalyst in the centre. The start tile carries START.
How each mark looks is the theme's business (micropul_print.draw.theme).
"""

from __future__ import annotations

from micropul_print.draw.face import Face, face_drawing
from micropul_print.draw.primitives import Drawing
from micropul_print.draw.theme import Theme
from micropul_print.errors import Diagnostic, UserError
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


def theme_problems(theme: Theme) -> list[Diagnostic]:
    """A problem, at the theme's marks, for each mark Micropul needs and the theme does
    not define (a theme file of the user's may leave one out)."""
    return theme.missing_marks(NEEDED_MARKS, "Micropul's tiles")


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
                 show_number: bool = True) -> Drawing:
    """The tile's face, ``30 + 2 * bleed`` mm square with the cut square at
    (bleed, bleed); with bleed the background runs to the drawing's edge."""
    return face_drawing(tile_face(tile, show_number=show_number), theme,
                        size=TILE_SIZE_MM, bleed=bleed)


def back_drawing(theme: Theme, *, bleed: float = 0.0) -> Drawing:
    """The back shared by every tile: no number, nothing that tells tiles apart, and no
    cut outline (a duplex misregistration would show it on the edge)."""
    face = Face(background="back-fill", big="back-emblem", outline=False)
    return face_drawing(face, theme, size=TILE_SIZE_MM, bleed=bleed)


def stone_drawing(player: int, theme: Theme, diameter: float = 14.0) -> Drawing:
    """A round stone token of ``player`` (1 or 2) to cut out along its outline."""
    if player not in PLAYERS:
        raise ValueError(f"player must be 1 or 2, not {player!r}")
    return face_drawing(Face(big=f"stone-{player}", round=True), theme, size=diameter)
