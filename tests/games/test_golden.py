"""Recorded primitive lists of a few pieces per theme (tests/golden/<theme>/<piece>.txt).

Any change to a tile picture fails here with a readable diff. After a deliberate change,
regenerate and review the diff before committing:

    UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/games/test_golden.py
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from micropul_print.draw.primitives import Drawing
from micropul_print.draw.recording import drawing_lines
from micropul_print.draw.theme import THEME_NAMES, Theme, load_theme
from micropul_print.games.micropul.faces import (
    back_drawing,
    stone_drawing,
    stone_faces,
    tile_drawing,
)
from micropul_print.games.micropul.model import (
    BLACK,
    DOT,
    DOUBLE,
    EMPTY,
    PLUS,
    WHITE,
    BigMicropul,
    Tile,
)

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"

PLAIN = Tile(35, (WHITE, BLACK, WHITE, BLACK))
CATALYSTS = Tile(31, (WHITE, DOUBLE, DOT, EMPTY))
PLUS_TILE = Tile(19, (WHITE, DOT, EMPTY, PLUS))
BIG = Tile(38, (BLACK, BLACK, BLACK, BLACK), big=BigMicropul(BLACK, PLUS))
START = Tile(41, (WHITE, WHITE, BLACK, BLACK), start=True)

PIECES: dict[str, Callable[[Theme], Drawing]] = {
    "tile-35-plain": lambda theme: tile_drawing(PLAIN, theme),
    "tile-31-catalysts": lambda theme: tile_drawing(CATALYSTS, theme),
    "tile-19-plus": lambda theme: tile_drawing(PLUS_TILE, theme),
    "tile-38-big": lambda theme: tile_drawing(BIG, theme),
    "tile-41-start": lambda theme: tile_drawing(START, theme),
    "tile-41-start-bleed-3": lambda theme: tile_drawing(START, theme, bleed=3.0),
    "back": lambda theme: back_drawing(theme),
    "stone-1": lambda theme: stone_drawing(1, theme),
    "stone-2": lambda theme: stone_drawing(2, theme),
    "stone-1-bleed-3": lambda theme: stone_faces(1, theme, bleed=3.0)[0],
    "stone-2-back-bleed-3": lambda theme: stone_faces(2, theme, bleed=3.0)[1],
}


@pytest.mark.parametrize("theme_name", THEME_NAMES)
@pytest.mark.parametrize("piece", sorted(PIECES))
def test_drawing_matches_golden_file(theme_name: str, piece: str) -> None:
    text = "\n".join(drawing_lines(PIECES[piece](load_theme(theme_name)))) + "\n"
    path = GOLDEN / theme_name / f"{piece}.txt"
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no golden file {path}; run with UPDATE_GOLDEN=1 to record it"
    assert text == path.read_text(encoding="utf-8")


def test_every_golden_file_is_still_produced() -> None:
    """A golden file whose piece was renamed or dropped would silently test nothing."""
    expected = {f"{theme}/{piece}.txt" for theme in THEME_NAMES for piece in PIECES}
    found = {p.relative_to(GOLDEN).as_posix() for p in GOLDEN.glob("*/*.txt")}
    assert found == expected
