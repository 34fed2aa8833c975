"""analyse(): the position-analysis contract (docs/contracts.md, "Position analysis")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from micropul_print.base.errors import UserError
from micropul_print.games.micropul.analysis import analyse
from micropul_print.games.micropul.model import Catalogue
from micropul_print.games.micropul.position import load_position


def run(tmp_path: Path, catalogue: Catalogue, text: str, legal: int | None = None) -> Any:
    path = tmp_path / "position.yaml"
    path.write_text(text, encoding="utf-8")
    return analyse(load_position(path, catalogue), catalogue, legal)


POSITION = """\
placements:
  - {tile: 41, x: 0, y: 0, rotation: 0}
  - {tile: 7, x: 1, y: 0, rotation: 0}
  - {tile: 42, x: 0, y: 1, rotation: 90}
  - {tile: 43, x: 0, y: -1, rotation: 0}
stones:
  - {player: 2, x: 0, y: -1, quadrant: br}
  - {player: 1, x: 1, y: 0, quadrant: tl}
"""


def test_the_whole_contract(tmp_path: Path, catalogue: Catalogue) -> None:
    result = run(tmp_path, catalogue, POSITION, legal=44)
    assert result == {
        "placements": [
            {"tile": 41, "x": 0, "y": 0, "rotation": 0, "legal": True, "reason": None,
             "draws": 0, "plus": 0},
            {"tile": 7, "x": 1, "y": 0, "rotation": 0, "legal": True, "reason": None,
             "draws": 0, "plus": 0},
            # 42 turned 90 shows white over the start tile's black: refused, not applied.
            {"tile": 42, "x": 0, "y": 1, "rotation": 90, "legal": False,
             "reason": "colour clash", "draws": 0, "plus": 0},
            {"tile": 43, "x": 0, "y": -1, "rotation": 0, "legal": True, "reason": None,
             "draws": 1, "plus": 0},
        ],
        "groups": [
            {"colour": "white", "points": 4, "closed": False, "stones": [1, 2],
             "quadrants": [[0, -1, "tl"], [0, -1, "tr"], [0, -1, "br"], [0, -1, "bl"],
                           [0, 0, "tl"], [0, 0, "tr"], [1, 0, "tl"]]},
            {"colour": "black", "points": 2, "closed": False, "stones": [],
             "quadrants": [[0, 0, "br"], [0, 0, "bl"]]},
        ],
        "legal": [{"x": 0, "y": 1, "rotation": 0}],
    }  # fmt: skip


def test_no_legal_key_without_a_tile(tmp_path: Path, catalogue: Catalogue) -> None:
    assert "legal" not in run(tmp_path, catalogue, POSITION)


def test_legal_placements_sorted_by_x_y_rotation(tmp_path: Path, catalogue: Catalogue) -> None:
    legal = run(tmp_path, catalogue, "placements: [{tile: 41, x: 0, y: 0, rotation: 0}]\n", 13)
    assert legal["legal"] == [
        {"x": -1, "y": 0, "rotation": 90},
        {"x": 0, "y": -1, "rotation": 180},
        {"x": 0, "y": -1, "rotation": 270},
        {"x": 1, "y": 0, "rotation": 0},
    ]


def test_the_first_placement_is_not_checked(tmp_path: Path, catalogue: Catalogue) -> None:
    text = (
        "placements:\n"
        "  - {tile: 7, x: 4, y: -2, rotation: 270}\n"
        "  - {tile: 1, x: 9, y: 9, rotation: 0}\n"
    )
    result = run(tmp_path, catalogue, text)
    assert [p["legal"] for p in result["placements"]] == [True, False]
    assert result["placements"][1]["reason"] == "not adjacent"


def test_stones_off_micropul_are_errors_at_their_lines(
    tmp_path: Path, catalogue: Catalogue
) -> None:
    text = POSITION + (
        "  - {player: 1, x: 1, y: 0, quadrant: br}\n  - {player: 2, x: 5, y: 5, quadrant: tl}\n"
    )
    with pytest.raises(UserError) as info:
        run(tmp_path, catalogue, text)
    path = tmp_path / "position.yaml"
    assert [str(d) for d in info.value.diagnostics] == [
        f"{path}:9:5: error: stone of player 1 on (1, 0) br, which holds a one-dot "
        "catalyst, not a micropul",
        f"{path}:10:5: error: stone of player 2 on (5, 5) tl, an empty cell "
        "(a stone must sit on a micropul of a tile in play)",
    ]


def test_stone_on_the_cell_of_a_refused_placement(tmp_path: Path, catalogue: Catalogue) -> None:
    text = POSITION + "  - {player: 1, x: 0, y: 1, quadrant: tl}\n"
    with pytest.raises(UserError, match="on \\(0, 1\\) tl, an empty cell"):
        run(tmp_path, catalogue, text)


def test_unknown_legal_tile(tmp_path: Path, catalogue: Catalogue) -> None:
    with pytest.raises(UserError, match="--legal 99: no such tile"):
        run(tmp_path, catalogue, POSITION, legal=99)


def test_cells_too_far_away(tmp_path: Path, catalogue: Catalogue) -> None:
    text = "placements:\n  - {tile: 41, x: 100000, y: 0, rotation: 0}\n"
    with pytest.raises(UserError, match=":2:5: error: cell \\(100000, 0\\) is too far"):
        run(tmp_path, catalogue, text)
