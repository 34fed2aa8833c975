"""Cellulae figure drawings (rulebook/cellulae_figures.py): the printed board with the
sheets' tile faces after the figure's turns, and the marks of the highlighted turn:
blue frame on the square played, an arrow for a movement, orange rings on the tiles
contamination turned over, a red cross on an illegal action."""

from __future__ import annotations

import pytest

from micropul_print.draw.primitives import Circle, Drawing, Group, Line, Polygon, Rect
from micropul_print.draw.theme import load_theme
from micropul_print.games.cellulae.catalogue import CellulaeCatalogue
from micropul_print.games.cellulae.faces import FRAME, TILE_INSET, board_drawing, tile_drawing
from micropul_print.games.cellulae.figures import (
    SQUARES_FILL,
    STYLE,
    figure_drawing,
    legend_mark,
    legend_symbol,
)
from micropul_print.games.cellulae.rulebook import CELLULAE, CellulaeArt
from micropul_print.rulebook.book import LegendRow
from micropul_print.rulebook.verify import VerifiedFigure

THEME = load_theme("classic")
SQUARE = 30.0


@pytest.fixture(scope="module")
def figures(catalogue: CellulaeCatalogue) -> dict[str, VerifiedFigure]:
    return {v.figure.position: v for v in CELLULAE.verify(CELLULAE.load_book(), catalogue)}


def _drawing(figures: dict[str, VerifiedFigure], catalogue: CellulaeCatalogue,
             name: str) -> Drawing:
    return figure_drawing(figures[f"figures/{name}.yaml"], catalogue, THEME)


def _centre(x: int, y: int) -> tuple[float, float]:
    return FRAME + (x + 0.5) * SQUARE, FRAME + (y + 0.5) * SQUARE


def _marks(drawing: Drawing, catalogue: CellulaeCatalogue,
           tiles: dict[tuple[int, int], str]) -> tuple[object, ...]:
    """The drawing past the board it is drawn on (which must come first, whole)."""
    board = board_drawing(catalogue, 5, THEME, tiles=tiles, squares_fill=SQUARES_FILL)
    assert drawing.items[:len(board.items)] == board.items
    assert (drawing.width, drawing.height) == (board.width, board.height)
    return drawing.items[len(board.items):]


def test_the_board_after_the_turns_with_the_sheets_tile_faces(
        figures: dict[str, VerifiedFigure], catalogue: CellulaeCatalogue) -> None:
    drawing = _drawing(figures, catalogue, "contamination")
    board = {(x, y): {"B": "black", "W": "white"}[letter]
             for y, row in enumerate(["W....", ".WB..", ".BBB.", "..B..", "...BB"])
             for x, letter in enumerate(row) if letter != "."}
    _marks(drawing, catalogue, board)
    faces = [item for item in drawing.items if isinstance(item, Group)]
    white = tile_drawing(catalogue.face("white"), THEME, size=SQUARE - 2 * TILE_INSET)
    black = tile_drawing(catalogue.face("black"), THEME, size=SQUARE - 2 * TILE_INSET)
    assert sum(face.items == white.items for face in faces) == 2
    assert sum(face.items == black.items for face in faces) == 7


def test_the_set_up_has_no_marks(figures: dict[str, VerifiedFigure],
                                 catalogue: CellulaeCatalogue) -> None:
    drawing = _drawing(figures, catalogue, "setup")
    assert _marks(drawing, catalogue, {(0, 0): "white", (4, 4): "black"}) == ()


def test_a_replication_frames_its_square(figures: dict[str, VerifiedFigure],
                                         catalogue: CellulaeCatalogue) -> None:
    drawing = _drawing(figures, catalogue, "replication")
    tiles = {(0, 0): "white", (1, 0): "white", (0, 1): "white", (4, 4): "black",
             (3, 4): "black", (4, 3): "black", (3, 3): "black"}
    (frame,) = _marks(drawing, catalogue, tiles)
    assert isinstance(frame, Rect) and frame.stroke == STYLE.highlight
    assert FRAME + 3 * SQUARE < frame.x < FRAME + 3 * SQUARE + 2


def test_a_movement_has_an_arrow_from_the_square_left(figures: dict[str, VerifiedFigure],
                                                      catalogue: CellulaeCatalogue) -> None:
    drawing = _drawing(figures, catalogue, "movement")
    marks = drawing.items[-7:]
    frames = [m for m in marks if isinstance(m, Rect) and m.stroke == STYLE.highlight]
    (head,) = [m for m in marks if isinstance(m, Polygon) and m.fill == STYLE.highlight]
    (tail,) = [m for m in marks if isinstance(m, Circle) and m.fill == STYLE.highlight]
    assert len(frames) == 1 and FRAME + SQUARE < frames[0].x < FRAME + SQUARE + 2
    assert (tail.cx, tail.cy) == _centre(4, 4)
    tip = head.points[0]
    # The head points up-left, inside the square reached (1, 1).
    assert FRAME + SQUARE < tip[0] < FRAME + 2 * SQUARE
    assert FRAME + SQUARE < tip[1] < FRAME + 2 * SQUARE


def test_contamination_rings_each_tile_turned_over(figures: dict[str, VerifiedFigure],
                                                   catalogue: CellulaeCatalogue) -> None:
    drawing = _drawing(figures, catalogue, "contamination")
    rings = [(m.cx, m.cy) for m in drawing.items
             if isinstance(m, Circle) and m.stroke == STYLE.flipped]
    assert rings == [_centre(2, 1), _centre(1, 2), _centre(3, 2)]


def test_an_illegal_replication_is_a_crossed_out_tile(figures: dict[str, VerifiedFigure],
                                                      catalogue: CellulaeCatalogue) -> None:
    drawing = _drawing(figures, catalogue, "diagonal-only")
    # The position is unchanged, but the tile Black aimed with is drawn, to be crossed.
    tiles = {(0, 0): "white", (1, 0): "white", (4, 4): "black", (3, 4): "black",
             (2, 3): "black"}
    marks = _marks(drawing, catalogue, tiles)
    lines = [m for m in marks if isinstance(m, Line) and m.stroke == STYLE.cross]
    assert len(lines) == 2
    assert all(FRAME + 2 * SQUARE < line.x1 < FRAME + 3 * SQUARE for line in lines)
    assert all(FRAME + 3 * SQUARE < line.y1 < FRAME + 4 * SQUARE for line in lines)


@pytest.mark.parametrize("mark", ["start", "highlight", "arrow", "flipped", "cross"])
def test_each_legend_mark_is_shown_on_board_squares(mark: str,
                                                    catalogue: CellulaeCatalogue) -> None:
    drawing, clip = legend_mark(mark, catalogue, THEME)
    if mark == "arrow":  # across the corner of two squares, clear of the start mark
        corner = FRAME + 1.3 * SQUARE
        assert clip == pytest.approx((corner, corner, 1.4 * SQUARE, 1.4 * SQUARE))
    else:
        assert clip == (FRAME, FRAME, SQUARE, SQUARE)
    board = board_drawing(catalogue, 5, THEME, squares_fill=SQUARES_FILL)
    assert drawing.items[0] == board.items[0]
    picture = CellulaeArt(catalogue, THEME).legend(LegendRow("legend.x", mark=mark))
    assert picture.clip == clip


def test_a_legend_symbol_is_the_sheets_face(catalogue: CellulaeCatalogue) -> None:
    for colour in ("white", "black"):
        assert legend_symbol(colour, catalogue, THEME) == tile_drawing(
            catalogue.face(colour), THEME, size=SQUARE)
