"""Cellulae position files and their analysis JSON (docs/cellulae.md): structure errors
from tests/data/bad/cellulae/position_*.yaml with exact messages, and the analysis of
legal, illegal and skipped turns."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from micropul_print.base.errors import UserError
from micropul_print.games.cellulae.analysis import (
    analyse_cellulae,
    load_cellulae_position,
    read_cellulae_position,
)
from micropul_print.games.cellulae.catalogue import CellulaeCatalogue

BAD = Path(__file__).resolve().parents[2] / "data" / "bad" / "cellulae"

EXPECTED = {
    "bad_move": [
        "{path}:5:34: error: 'from' must be a square [x, y], got '0'",
        "{path}:5:41: error: 'to' must be a square [x, y], got a list",
        "{path}:6:27: error: 'move' is missing the required key 'from'",
        "{path}:7:27: error: 'skip' can only be true (leave the key out otherwise)",
    ],
    "board_not_offered": [
        "{path}:1:8: error: board 11 is not offered (expected a side of 5, 7 or 9)",
    ],
    "missing_tiles": [
        "{path}:1:1: error: the position is missing the required key 'tiles'",
    ],
    "square_off_board": [
        "{path}:3:15: error: 'y' is 5, off the 5 × 5 board (expected 0 to 4)",
        "{path}:5:47: error: x of 'to' is -1, off the 5 × 5 board (expected 0 to 4)",
        "{path}:5:51: error: y of 'to' is 9, off the 5 × 5 board (expected 0 to 4)",
    ],
    "turn_with_two_actions": [
        "{path}:5:5: error: a turn needs exactly one of replicate, move or skip, got 2",
        "{path}:6:5: error: a turn needs exactly one of replicate, move or skip, got none",
    ],
    "two_tiles_on_a_square": [
        "{path}:4:5: error: square (2, 2) has a tile already (at line 3; expected one tile "
        "per square)",
    ],
    "unknown_colour": [
        "{path}:2:10: error: 'to_move' is 'red' (expected black or white)",
        "{path}:4:26: error: 'colour' is 'grey' (expected black or white)",
        "{path}:6:14: error: 'player' is '1' (expected black or white)",
    ],
    "unknown_key": [
        "{path}:3:33: warning: unknown key 'flipped' in tile (expected x, y or colour)",
        "{path}:5:1: warning: unknown key 'stones' in the position (expected board, tiles, "
        "to_move or turns)",
    ],
    "wrong_root_type": [
        "{path}:1:1: error: a Cellulae position must be a mapping with the keys 'board' and "
        "'tiles', and optionally 'to_move' and 'turns', got a list",
    ],
}


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "position.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_bad_position_reports_exactly(name: str, catalogue: CellulaeCatalogue) -> None:
    path = BAD / f"position_{name}.yaml"
    position, diagnostics = read_cellulae_position(path, catalogue)
    assert [str(d) for d in diagnostics] == [line.format(path=path) for line in EXPECTED[name]]
    assert (position is None) == (name != "unknown_key")


def test_every_bad_position_fixture_is_tested() -> None:
    found = {p.stem.removeprefix("position_") for p in BAD.glob("position_*.yaml")}
    assert found == set(EXPECTED)


def test_load_raises_every_error_and_warnings_when_strict(catalogue: CellulaeCatalogue) -> None:
    path = BAD / "position_unknown_colour.yaml"
    with pytest.raises(UserError) as raised:
        load_cellulae_position(path, catalogue)
    assert len(raised.value.diagnostics) == 3
    warned = BAD / "position_unknown_key.yaml"
    assert load_cellulae_position(warned, catalogue).side == 5
    with pytest.raises(UserError):
        load_cellulae_position(warned, catalogue, strict=True)


EXAMPLE = """\
board: 5
tiles:
  - {x: 0, y: 0, colour: white}
  - {x: 4, y: 4, colour: black}
turns:
  - {player: black, replicate: {x: 4, y: 3}}
  - {player: white, move: {from: [0, 0], to: [3, 3]}}
  - {player: white, replicate: {x: 1, y: 0}}
  - {player: black, replicate: {x: 0, y: 0}}
  - {player: black, move: {from: [4, 4], to: [2, 2]}}
"""


def test_analysis_of_legal_and_illegal_turns(tmp_path: Path, catalogue: CellulaeCatalogue) -> None:
    position = load_cellulae_position(write(tmp_path, EXAMPLE), catalogue)
    result = analyse_cellulae(position, catalogue, legal_for="white")
    assert result["turns"] == [
        {"player": "black", "action": "replicate", "to": [4, 3], "legal": True,
         "reason": None, "flipped": []},
        # (3,3) shares a side with (4,3) and (3,4): (4,3) is black, so it turns white.
        {"player": "white", "action": "move", "from": [0, 0], "to": [3, 3], "legal": True,
         "reason": None, "flipped": [[4, 3]]},
        {"player": "white", "action": "replicate", "to": [1, 0], "legal": False,
         "reason": "it is the other player's turn", "flipped": []},
        {"player": "black", "action": "replicate", "to": [0, 0], "legal": False,
         "reason": "no tile of the player's colour shares a side with the square",
         "flipped": []},
        {"player": "black", "action": "move", "from": [4, 4], "to": [2, 2], "legal": True,
         "reason": None, "flipped": []},
    ]
    assert result["board"] == [".....", ".....", "..B..", "...WW", "....."]
    assert result["counts"] == {"black": 1, "white": 2}
    assert (result["over"], result["end"], result["winner"], result["to_move"]) == (
        False, None, None, "white",
    )
    assert len(result["legal"]) == 14  # 5 replications; 9 diagonal squares, 2 of them behind B
    json.dumps(result)  # JSON-able as it is


def test_a_skip_is_legal_only_for_a_stuck_player(
    tmp_path: Path, catalogue: CellulaeCatalogue
) -> None:
    text = """\
board: 5
to_move: white
tiles:
  - {x: 0, y: 0, colour: black}
  - {x: 1, y: 0, colour: white}
  - {x: 0, y: 1, colour: white}
  - {x: 1, y: 1, colour: white}
  - {x: 2, y: 2, colour: white}
  - {x: 3, y: 3, colour: white}
  - {x: 4, y: 4, colour: white}
turns:
  - {player: white, skip: true}
  - {player: white, replicate: {x: 2, y: 0}}
  - {player: black, skip: true}
"""
    result = analyse_cellulae(load_cellulae_position(write(tmp_path, text), catalogue), catalogue)
    assert [(t["legal"], t["reason"]) for t in result["turns"]] == [
        (False, "a player may skip only when no replication or movement is possible"),
        (True, None),
        (True, None),
    ]
    assert result["turns"][2]["action"] == "skip"
    assert result["to_move"] == "white"


def test_a_finished_game_has_a_winner(tmp_path: Path, catalogue: CellulaeCatalogue) -> None:
    text = """\
board: 5
tiles:
  - {x: 0, y: 0, colour: black}
  - {x: 1, y: 0, colour: white}
  - {x: 0, y: 1, colour: white}
turns:
  - {player: black, move: {from: [0, 0], to: [1, 1]}}
  - {player: white, replicate: {x: 2, y: 1}}
"""
    result = analyse_cellulae(
        load_cellulae_position(write(tmp_path, text), catalogue), catalogue, legal_for="black"
    )
    assert result["turns"][0]["flipped"] == [[1, 0], [0, 1]]
    assert result["turns"][1]["reason"] == "the game is over"
    assert (result["over"], result["end"], result["winner"], result["to_move"]) == (
        True, "a player has no tile left", "black", None,
    )
    assert result["legal"] == []


def test_unknown_legal_player_is_a_user_error(
    tmp_path: Path, catalogue: CellulaeCatalogue
) -> None:
    position = load_cellulae_position(write(tmp_path, EXAMPLE), catalogue)
    with pytest.raises(UserError, match="--legal red: no such player"):
        analyse_cellulae(position, catalogue, legal_for="red")


def test_the_documented_example_is_what_the_analysis_says(
    tmp_path: Path, catalogue: CellulaeCatalogue
) -> None:
    """docs/cellulae.md shows a position file and its analysis: they must agree."""
    doc = (Path(__file__).resolve().parents[3] / "docs" / "cellulae.md").read_text("utf-8")
    section = doc.split("## Position files", 1)[1]
    position_text = section.split("```yaml\n", 1)[1].split("```", 1)[0]
    shown = section.split("```json\n", 1)[1].split("```", 1)[0]
    position = load_cellulae_position(write(tmp_path, position_text), catalogue)
    assert analyse_cellulae(position, catalogue, legal_for="black") == json.loads(shown)


def test_a_board_the_analysing_catalogue_lacks_is_refused_at_the_board_key(
    tmp_path: Path, catalogue: CellulaeCatalogue
) -> None:
    """A position read with one catalogue and analysed with another (a variant without
    its board) was refused at the file alone: every user error is file:line:col."""
    path = write(tmp_path, EXAMPLE)
    position = load_cellulae_position(path, catalogue)
    fewer = replace(catalogue, boards=tuple(b for b in catalogue.boards if b.side != 5))
    with pytest.raises(UserError) as raised:
        analyse_cellulae(position, fewer)
    assert [str(d) for d in raised.value.diagnostics] == [
        f"{path}:1:8: error: board 5 is not offered (expected a side of 7 or 9)"]
