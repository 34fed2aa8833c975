"""Cellulae's tile faces and board as drawings, and their recorded primitive lists
(tests/golden/cellulae/<theme>/<piece>.txt).

After a deliberate change to a picture, record the files again and read the diff:

    UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/games/test_cellulae_drawings.py
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from micropul_print.draw.primitives import Drawing, Group, Line, Primitive, Rect, Text
from micropul_print.draw.recording import drawing_lines
from micropul_print.draw.theme import THEME_NAMES, Theme, load_theme
from micropul_print.games.cellulae.catalogue import BLACK, WHITE, CellulaeCatalogue
from micropul_print.games.cellulae.faces import (
    FRAME,
    START_MARK,
    START_MARK_INSET,
    board_drawing,
    board_size_mm,
    grid_lines,
    square_name,
    start_squares,
    tile_drawing,
)

ROOT = Path(__file__).resolve().parents[3]
GOLDEN = ROOT / "tests" / "golden" / "cellulae"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"


@pytest.fixture(scope="module")
def classic() -> Theme:
    return load_theme("classic")


def _flat(items: tuple[Primitive, ...]) -> Iterator[Primitive]:
    for item in items:
        if isinstance(item, Group):
            yield from _flat(item.items)
        else:
            yield item


def test_faces_are_the_tile_size_plus_the_bleed(catalogue: CellulaeCatalogue,
                                                classic: Theme) -> None:
    for colour in (WHITE, BLACK):
        face = catalogue.face(colour)
        assert (tile_drawing(face, classic, size=30.0).width,
                tile_drawing(face, classic, size=30.0, bleed=3.0).height) == (30.0, 36.0)


def test_black_face_is_black_into_the_bleed(catalogue: CellulaeCatalogue,
                                            classic: Theme) -> None:
    drawing = tile_drawing(catalogue.face(BLACK), classic, size=30.0, bleed=3.0)
    first = drawing.items[0]
    assert first == Rect(0.0, 0.0, 36.0, 36.0, fill="#000000")


def test_only_the_white_face_has_the_cut_outline(catalogue: CellulaeCatalogue,
                                                 classic: Theme) -> None:
    """The black face is printed behind the white one: an outline there would show on
    an edge whenever the printer places the back a little off."""
    def outlined(colour: str) -> bool:
        drawing = tile_drawing(catalogue.face(colour), classic, size=30.0)
        return any(isinstance(item, Rect) and item.stroke == classic.outline
                   and item.stroke_width == classic.outline_width for item in drawing.items)

    assert outlined(WHITE)
    assert not outlined(BLACK)


def test_faces_follow_the_theme(catalogue: CellulaeCatalogue) -> None:
    safe = tile_drawing(catalogue.face(BLACK), load_theme("colour-safe"), size=30.0)
    ink = tile_drawing(catalogue.face(BLACK), load_theme("ink-saver"), size=30.0)
    assert safe.items[0].fill == "#0072b2"  # type: ignore[union-attr]
    assert sum(isinstance(item, Line) for item in ink.items) > 20  # hatched, not solid


def test_square_names_count_rows_from_the_bottom() -> None:
    assert square_name(0, 4, 5) == "a1"
    assert square_name(0, 0, 5) == "a5"
    assert square_name(4, 4, 5) == "e1"
    assert square_name(8, 0, 9) == "i9"
    with pytest.raises(ValueError, match="off a 5 × 5 board"):
        square_name(5, 0, 5)


def test_start_squares_are_opposite_corners() -> None:
    assert start_squares(5) == {WHITE: (0, 0), BLACK: (4, 4)}
    assert [square_name(*square, 7) for square in start_squares(7).values()] == ["a7", "g1"]


@pytest.mark.parametrize("side", [5, 7, 9])
def test_board_squares_are_one_tile_wide(catalogue: CellulaeCatalogue, classic: Theme,
                                         side: int) -> None:
    board = board_drawing(catalogue, side, classic)
    assert board.width == board.height == board_size_mm(side, 30.0) == side * 30.0 + 2 * FRAME
    lines = [item for item in board.items if isinstance(item, Line)]
    verticals = sorted(item.x1 for item in lines if item.x1 == item.x2)
    horizontals = sorted(item.y1 for item in lines if item.y1 == item.y2)
    assert verticals == horizontals == list(grid_lines(side, 30.0))
    edges = [FRAME, *verticals, FRAME + side * 30.0]
    assert all(b - a == pytest.approx(30.0, abs=1e-9) for a, b in itertools.pairwise(edges))
    for line in lines:  # every grid line runs across the whole board of squares
        assert (line.x1, line.y1) in ((line.x1, FRAME), (FRAME, line.y1))
        assert max(line.x2, line.y2) == FRAME + side * 30.0


def test_board_coordinates_like_a_chessboard(catalogue: CellulaeCatalogue,
                                             classic: Theme) -> None:
    board = board_drawing(catalogue, 5, classic)
    texts = [item for item in board.items if isinstance(item, Text)]
    letters = sorted((t.x, t.text) for t in texts if t.text.isalpha() and t.y < FRAME)
    assert [text for _x, text in letters] == list("abcde")
    assert [x for x, _text in letters] == [FRAME + 15.0 + 30.0 * k for k in range(5)]
    numbers = sorted((t.y, t.text) for t in texts if t.text.isdigit() and t.x < FRAME)
    assert [text for _y, text in numbers] == list("54321")  # 1 at the bottom
    assert len(texts) == 4 * 5  # each letter above and below, each number on both sides


def test_start_marks_in_the_outer_corners(catalogue: CellulaeCatalogue,
                                          classic: Theme) -> None:
    board = board_drawing(catalogue, 5, classic)
    outlines = [item for item in board.items if isinstance(item, Rect)
                and item.width == START_MARK and item.stroke is not None]
    corner = FRAME + START_MARK_INSET
    far = FRAME + 5 * 30.0 - START_MARK_INSET - START_MARK
    assert sorted((r.x, r.y) for r in outlines) == [(corner, corner), (far, far)]
    fills = {(item.x, item.y): item.fill for item in board.items if isinstance(item, Rect)
             and item.width == START_MARK and item.fill is not None}
    assert fills == {(corner, corner): "#ffffff", (far, far): "#000000"}


def test_tiles_on_the_board_lie_inside_their_squares(catalogue: CellulaeCatalogue,
                                                     classic: Theme) -> None:
    board = board_drawing(catalogue, 5, classic, tiles={(2, 1): BLACK})
    groups = [item for item in board.items if isinstance(item, Group)]
    assert len(groups) == 1
    left, top = FRAME + 2 * 30.0, FRAME + 1 * 30.0
    assert left < groups[0].dx < left + 2.0 and top < groups[0].dy < top + 2.0
    assert any(isinstance(item, Rect) and item.fill == "#000000"
               for item in _flat(groups[0].items))
    with pytest.raises(ValueError, match="off a 5 × 5 board"):
        board_drawing(catalogue, 5, classic, tiles={(5, 0): WHITE})


PIECES: dict[str, Callable[[CellulaeCatalogue, Theme], Drawing]] = {
    "tile-white": lambda c, t: tile_drawing(c.face(WHITE), t, size=c.tile_size_mm),
    "tile-black": lambda c, t: tile_drawing(c.face(BLACK), t, size=c.tile_size_mm),
    "tile-black-bleed-3": lambda c, t: tile_drawing(c.face(BLACK), t, size=c.tile_size_mm,
                                                    bleed=3.0),
    "board-5": lambda c, t: board_drawing(c, 5, t),
    "board-5-setup": lambda c, t: board_drawing(
        c, 5, t, tiles={square: colour for colour, square in start_squares(5).items()}),
}


@pytest.mark.parametrize("theme_name", THEME_NAMES)
@pytest.mark.parametrize("piece", sorted(PIECES))
def test_drawing_matches_golden_file(catalogue: CellulaeCatalogue, theme_name: str,
                                     piece: str) -> None:
    drawing = PIECES[piece](catalogue, load_theme(theme_name))
    text = "\n".join(drawing_lines(drawing)) + "\n"
    path = GOLDEN / theme_name / f"{piece}.txt"
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no golden file {path}; run with UPDATE_GOLDEN=1 to record it"
    assert text == path.read_text(encoding="utf-8")


def test_every_golden_file_is_still_produced() -> None:
    expected = {f"{theme}/{piece}.txt" for theme in THEME_NAMES for piece in PIECES}
    found = {p.relative_to(GOLDEN).as_posix() for p in GOLDEN.glob("*/*.txt")}
    assert found == expected
