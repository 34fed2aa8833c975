"""A figure of the Cellulae rulebook as one Drawing: the printed board
(games/cellulae.py's board_drawing, with the sheets' own tile faces on it) after the
figure's turns, plus the marks of the turns it highlights (the last by default):

- the square a tile was placed on or moved to, framed in blue;
- a movement, as a blue arrow from the square it left to its new square, over the
  squares it passed;
- each tile contamination turned over, ringed in orange (a ring, not a frame, so it
  is told from the blue frame without colour);
- an illegal action, as a tile of the player's colour on the square it aimed at, crossed
  out in red (it was not played: the board shows the position without it).

Pure: primitives in, primitives out; lengths are the board drawing's (a square is the
catalogue's tile size), and the page layout scales the whole drawing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from micropul_print.draw.primitives import Circle, Drawing, Line, Polygon, Primitive, Rect, Text
from micropul_print.draw.theme import Theme
from micropul_print.games.cellulae.catalogue import CellulaeCatalogue
from micropul_print.games.cellulae.rules import MOVE
from micropul_print.rulebook.verify import VerifiedFigure

# A figure's square is shown as large as a Micropul figure's tile divided by this:
# five squares and the coordinate frame then fit a column with room to spare.
FIGURE_SCALE = 1.2
# The figures' empty squares: the grey of the Micropul figures' table, so that a white
# tile (drawn with its outline and shadow, as on the printed board) stands out.
SQUARES_FILL = "#e9ecef"


@dataclass(frozen=True)
class FigureStyle:
    """How the marks look, as fractions of a square (so any tile size looks alike),
    and their colours (those of the Micropul figures' marks)."""

    highlight: str = "#1864ab"
    highlight_width: float = 0.05
    arrow_width: float = 0.045
    arrow_head: float = 0.2  # length of the head
    arrow_tail: float = 0.08  # radius of the dot on the square left
    flipped: str = "#f08c00"
    flipped_radius: float = 0.3
    flipped_width: float = 0.07
    cross: str = "#e03131"
    cross_width: float = 0.045
    cross_frame_width: float = 0.06
    halo: str = "#ffffff"  # under the arrow, so it reads on black tiles too
    halo_width: float = 0.03


STYLE = FigureStyle()
_LETTERS = {"black": "B", "white": "W"}


def figure_drawing(verified: VerifiedFigure, catalogue: CellulaeCatalogue, theme: Theme,
                   style: FigureStyle = STYLE) -> Drawing:
    """The board after the figure's turns, with the marks of its highlighted turns."""
    from micropul_print.games.cellulae.faces import FRAME, board_drawing

    analysis = verified.analysis
    tiles = {(x, y): colour for y, row in enumerate(analysis["board"])
             for x, letter in enumerate(row)
             for colour in _LETTERS if _LETTERS[colour] == letter}
    turns = analysis["turns"]
    shown = verified.figure.highlight
    if shown is None:
        shown = (len(turns),) if turns else ()
    marked = [turns[number - 1] for number in shown]
    for turn in marked:  # an illegal action's tile, to be crossed out
        if not turn["legal"] and "to" in turn:
            x, y = turn["to"]
            if (x, y) not in tiles:
                tiles[x, y] = turn["player"]
    board = board_drawing(catalogue, analysis["side"], theme, tiles=tiles,
                          squares_fill=SQUARES_FILL)
    size = catalogue.tile_size_mm
    marks: list[Primitive] = []
    for turn in marked:
        if "to" not in turn:
            continue
        to = _origin(turn["to"], size, FRAME)
        if not turn["legal"]:
            marks += cross_items(*to, size, style)
            continue
        for square in turn["flipped"]:
            marks += flipped_items(*_origin(square, size, FRAME), size, style)
        marks += highlight_items(*to, size, style)
        if turn["action"] == MOVE:
            marks += arrow_items(_origin(turn["from"], size, FRAME), to, size, style)
    return Drawing(board.width, board.height, (*board.items, *marks))


def _origin(square: list[int] | tuple[int, int], size: float,
            frame: float) -> tuple[float, float]:
    return frame + square[0] * size, frame + square[1] * size


def highlight_items(x: float, y: float, size: float,
                    style: FigureStyle = STYLE) -> list[Primitive]:
    width = style.highlight_width * size
    return [Rect(x + width / 2, y + width / 2, size - width, size - width,
                 stroke=style.highlight, stroke_width=width)]


def flipped_items(x: float, y: float, size: float,
                  style: FigureStyle = STYLE) -> list[Primitive]:
    return [Circle(x + size / 2, y + size / 2, style.flipped_radius * size,
                   stroke=style.flipped, stroke_width=style.flipped_width * size)]


def cross_items(x: float, y: float, size: float,
                style: FigureStyle = STYLE) -> list[Primitive]:
    inset, frame = size * 0.12, style.cross_frame_width * size
    width = style.cross_width * size
    return [
        Rect(x + frame / 2, y + frame / 2, size - frame, size - frame, stroke=style.cross,
             stroke_width=frame),
        Line(x + inset, y + inset, x + size - inset, y + size - inset, style.cross, width),
        Line(x + size - inset, y + inset, x + inset, y + size - inset, style.cross, width),
    ]


def arrow_items(start: tuple[float, float], end: tuple[float, float], size: float,
                style: FigureStyle = STYLE) -> list[Primitive]:
    """From the centre of the square at ``start`` (top-left corners) to just short of
    the centre of the one at ``end``: a dot, a shaft and a head, on a white halo."""
    x0, y0 = start[0] + size / 2, start[1] + size / 2
    x1, y1 = end[0] + size / 2, end[1] + size / 2
    length = math.hypot(x1 - x0, y1 - y0)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    head, width = style.arrow_head * size, style.arrow_width * size
    tip_x, tip_y = x1 - ux * size * 0.12, y1 - uy * size * 0.12
    base_x, base_y = tip_x - ux * head, tip_y - uy * head
    half = head * 0.55
    points = ((tip_x, tip_y), (base_x - uy * half, base_y + ux * half),
              (base_x + uy * half, base_y - ux * half))
    halo = style.halo_width * size
    tail = style.arrow_tail * size
    return [
        Line(x0, y0, base_x, base_y, style.halo, width + 2 * halo),
        Polygon(points, fill=None, stroke=style.halo, stroke_width=2 * halo),
        Circle(x0, y0, tail + halo, fill=style.halo),
        Line(x0, y0, base_x, base_y, style.highlight, width),
        Polygon(points, fill=style.highlight),
        Circle(x0, y0, tail, fill=style.highlight),
    ]


def legend_symbol(symbol: str, catalogue: CellulaeCatalogue, theme: Theme) -> Drawing:
    """A tile face (``white`` or ``black``), as on the tile sheets."""
    from micropul_print.games.cellulae.faces import tile_drawing

    return tile_drawing(catalogue.face(symbol), theme, size=catalogue.tile_size_mm)


def legend_mark(mark: str, catalogue: CellulaeCatalogue, theme: Theme,
                style: FigureStyle = STYLE) -> tuple[Drawing, tuple[float, float, float,
                                                                     float]]:
    """A figure mark on one square of the board, and the clip showing that square:
    ``start`` is the board's own top-left square with its set-up mark."""
    from micropul_print.games.cellulae.faces import FRAME, board_drawing

    size = catalogue.tile_size_mm
    side = catalogue.sides[0]
    clip = (FRAME, FRAME, size, size)
    tiles: dict[tuple[int, int], str] = {}
    items: list[Primitive] = []
    if mark == "highlight":
        tiles = {(0, 0): "black"}
        items = highlight_items(FRAME, FRAME, size, style)
    elif mark == "flipped":
        tiles = {(0, 0): "black"}
        items = flipped_items(FRAME, FRAME, size, style)
    elif mark == "cross":
        tiles = {(0, 0): "white"}
        items = cross_items(FRAME, FRAME, size, style)
    elif mark == "arrow":
        # From the middle of one square to the next along a diagonal, away from the
        # start mark; the clip holds the arrow and a little of both squares.
        start = FRAME + size
        items = arrow_items((start, start), (start + size, start + size), size, style)
        clip = (start + 0.3 * size, start + 0.3 * size, 1.4 * size, 1.4 * size)
    board = board_drawing(catalogue, side, theme, tiles=tiles, squares_fill=SQUARES_FILL)
    # The clip shows a square or two: the coordinates around the board would be hidden,
    # yet their text would still be copied, searched and read aloud from the PDF.
    unlabelled = tuple(item for item in board.items if not isinstance(item, Text))
    return Drawing(board.width, board.height, (*unlabelled, *items)), clip


__all__ = ["FIGURE_SCALE", "STYLE", "FigureStyle", "figure_drawing",
           "legend_mark", "legend_symbol"]
