"""What Cellulae pieces look like: the one drawing module that knows Cellulae.

A Cellulae tile is one theme mark over the whole face, white on one side and black on
the other (the catalogue names the marks). The board is a square of ``side x side``
squares exactly one tile wide, framed by a band carrying chess-like coordinates:
columns ``a`` to the right, rows ``1`` at the bottom, so the engine's square (x, y),
counted from the top-left, is called ``square_name(x, y, side)``. Small corner marks
show where the set-up puts the first tiles: white on the top-left square, black on
the opposite corner (docs/cellulae.md, rule 1).
"""

from __future__ import annotations

from collections.abc import Mapping

from micropul_print.backends.fonts import CAP_HEIGHT
from micropul_print.base.errors import Diagnostic, UserError
from micropul_print.draw.face import Face, face_drawing, mark_items
from micropul_print.draw.primitives import Drawing, Group, Line, Primitive, Rect, Text
from micropul_print.draw.theme import Theme
from micropul_print.games.cellulae.catalogue import BLACK, WHITE, CellFace, CellulaeCatalogue

FRAME = 8.0  # band around the squares holding the coordinates, mm
GRID_COLOUR = "#000000"
GRID_WIDTH = 0.25  # lines between squares, mm
EDGE_WIDTH = 0.5  # the squares' outer edge, mm
BORDER_WIDTH = 0.3  # the board's outer border (its cut line), mm
COORDINATE_COLOUR = "#555555"
COORDINATE_SIZE = 4.0  # em, mm
START_MARK = 7.0  # side of the corner mark on a start square, mm
START_MARK_INSET = 1.5  # from the square's corner, mm
START_MARK_STROKE = 0.25
TILE_INSET = 1.0  # a tile drawn on the board is this much smaller on every side, mm
TILE_SHADOW = "#8c8c8c"  # under a tile drawn on the board: a white tile on a white square
TILE_SHADOW_OFFSET = 0.6  # shows as a tile

Square = tuple[int, int]  # (x, y) from the top-left, as the rules engine counts


def theme_problems(catalogue: CellulaeCatalogue, theme: Theme) -> list[Diagnostic]:
    """A problem, at the catalogue's line, for each face mark the theme does not define:
    the faces name theme marks, so only the two files together can tell."""
    problems = []
    for face in catalogue.faces:
        if face.mark not in theme.marks:
            message = (f"theme {theme.name!r} has no mark {face.mark!r} (it has: "
                       f"{', '.join(sorted(theme.marks))})")
            problems.append(Diagnostic(catalogue.source, 0, 0, message)
                            if face.mark_where is None else face.mark_where.diagnostic(message))
    # A face's mark is painted as small as a start square's corner mark on the board.
    cells = {face.mark: START_MARK for face in catalogue.faces}
    return problems + theme.disc_margin_problems(cells, "Cellulae paints it in a cell")


def check_theme(catalogue: CellulaeCatalogue, theme: Theme) -> None:
    """Raise UserError with :func:`theme_problems`, if any."""
    problems = theme_problems(catalogue, theme)
    if problems:
        raise UserError(problems)


def tile_face(face: CellFace, *, outline: bool = True) -> Face:
    """One face as a generic Face: its mark paints the whole drawing, bleed included,
    so a black face stays black past the cut line."""
    return Face(background=face.mark, outline=outline)


def tile_drawing(face: CellFace, theme: Theme, *, size: float, bleed: float = 0.0) -> Drawing:
    """One face, ``size + 2 * bleed`` mm square, cut square at (bleed, bleed).

    Only the white face carries the theme's cut outline: it is the front of the sheets,
    where the cut lines are. The black face is printed behind it, and an outline there
    would show on an edge whenever the printer places the back a little off."""
    return face_drawing(tile_face(face, outline=face.colour == WHITE), theme, size=size,
                        bleed=bleed)


def square_name(x: int, y: int, side: int) -> str:
    """The square's name on the printed board: column letter, then row number counted
    from the bottom (``a1`` is the bottom-left corner, like a chessboard)."""
    if not (0 <= x < side and 0 <= y < side):
        raise ValueError(f"square ({x}, {y}) is off a {side} × {side} board")
    return f"{chr(ord('a') + x)}{side - y}"


def start_squares(side: int) -> dict[str, Square]:
    """Where the set-up puts the first tile of each colour (rule 1)."""
    return {WHITE: (0, 0), BLACK: (side - 1, side - 1)}


def board_size_mm(side: int, square: float) -> float:
    """Width (and height) of the board drawing: the squares and the coordinate frame."""
    return side * square + 2 * FRAME


def grid_lines(side: int, square: float) -> tuple[float, ...]:
    """Where the lines between squares lie in the board drawing (x, and likewise y):
    where a board split over several pages should have its seams."""
    return tuple(FRAME + k * square for k in range(1, side))


def board_drawing(catalogue: CellulaeCatalogue, side: int, theme: Theme, *,
                  tiles: Mapping[Square, str] | None = None,
                  squares_fill: str | None = None) -> Drawing:
    """The board of ``side`` squares of the catalogue's tile size, with coordinates and
    the start marks; ``tiles`` (square -> colour) are drawn on it (a position figure).
    ``squares_fill`` tints the squares (a rulebook figure, where a white tile must
    stand out from an empty square); the printed board leaves them the paper's colour."""
    if side < 1 or side > 26:
        raise ValueError(f"a board side must be 1 to 26 squares (a letter per column), "
                         f"not {side}")
    square = catalogue.tile_size_mm
    full = board_size_mm(side, square)
    inner = side * square
    left = top = FRAME
    items: list[Primitive] = [Rect(0.0, 0.0, full, full, fill=theme.background)]
    if squares_fill is not None:
        items.append(Rect(left, top, inner, inner, fill=squares_fill))
    for colour, (x, y) in start_squares(side).items():
        items += _start_mark(catalogue.face(colour), theme, left + x * square, top + y * square,
                             square, corner=(x, y) == (0, 0))
    for (x, y), colour in sorted((tiles or {}).items()):
        if not (0 <= x < side and 0 <= y < side):
            raise ValueError(f"tile on ({x}, {y}) is off a {side} × {side} board")
        face = tile_drawing(catalogue.face(colour), theme, size=square - 2 * TILE_INSET)
        tx, ty = left + x * square + TILE_INSET, top + y * square + TILE_INSET
        shift = TILE_SHADOW_OFFSET
        items.append(Rect(tx + shift, ty + shift, face.width, face.height, fill=TILE_SHADOW))
        items.append(Group(face.items, dx=tx, dy=ty))
    for line in grid_lines(side, square):  # exactly one square apart
        items.append(Line(line, top, line, top + inner, GRID_COLOUR, GRID_WIDTH))
        items.append(Line(left, line, left + inner, line, GRID_COLOUR, GRID_WIDTH))
    items.append(Rect(left, top, inner, inner, stroke=GRID_COLOUR, stroke_width=EDGE_WIDTH))
    half = BORDER_WIDTH / 2  # the whole border lies inside the drawing, on the cut line
    items.append(Rect(half, half, full - BORDER_WIDTH, full - BORDER_WIDTH, stroke=GRID_COLOUR,
                      stroke_width=BORDER_WIDTH))
    items += _coordinates(side, square)
    return Drawing(full, full, tuple(items))


def _start_mark(face: CellFace, theme: Theme, x: float, y: float, square: float, *,
                corner: bool) -> list[Primitive]:
    """A small square of the face's mark in the board's outer corner of a start square
    (top-left corner for the top-left square, bottom-right for the opposite one)."""
    inset, size = START_MARK_INSET, START_MARK
    mx = x + inset if corner else x + square - inset - size
    my = y + inset if corner else y + square - inset - size
    items = mark_items(theme.mark(face.mark), mx, my, size, size)
    items.append(Rect(mx, my, size, size, stroke=GRID_COLOUR, stroke_width=START_MARK_STROKE))
    return items


def _coordinates(side: int, square: float) -> list[Primitive]:
    """Column letters above and below the squares, row numbers left and right of them."""
    items: list[Primitive] = []
    full = board_size_mm(side, square)
    cap = CAP_HEIGHT * COORDINATE_SIZE  # centres the text in the frame
    for k in range(side):
        centre = FRAME + (k + 0.5) * square
        letter = chr(ord("a") + k)
        number = str(side - k)  # rows count up from the bottom
        for baseline in (FRAME / 2 + cap / 2, full - FRAME / 2 + cap / 2):
            items.append(Text(centre, baseline, letter, COORDINATE_SIZE, COORDINATE_COLOUR))
        for middle in (FRAME / 2, full - FRAME / 2):
            items.append(Text(middle, centre + cap / 2, number, COORDINATE_SIZE,
                              COORDINATE_COLOUR))
    return items
