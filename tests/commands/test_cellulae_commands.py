"""check, position and catalogue dispatch on the catalogue's game: Cellulae."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from micropul_print.cli import main

DATA = Path(__file__).resolve().parents[1] / "data"
POSITION = DATA / "good" / "cellulae_position.yaml"


def test_check_game_cellulae_checks_the_shipped_set(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--game", "cellulae", "--games", "3", "--seed", "7"]) == 0
    out = capsys.readouterr().out
    assert "valid (Cellulae, 81 tiles)" in out
    for side in (5, 7, 9):
        assert f"3 games on {side} × {side} (random policy, seeds 7..9)" in out
    assert out.endswith("check passed\n")


def test_position_of_cellulae_replays_turns(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["position", "--game", "cellulae", str(POSITION), "--legal", "black"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert [turn["flipped"] for turn in result["turns"]] == [[], [[1, 1]]]
    assert result["counts"] == {"black": 0, "white": 3}
    assert (result["over"], result["winner"], result["legal"]) == (True, "white", [])


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--game", "cellulae", str(POSITION), "--legal", "7"],
         "--legal takes white or black for Cellulae, got '7'"),
        ([str(DATA / "good" / "position_two_tiles.yaml"), "--legal", "white"],
         "--legal takes a tile number of Micropul (1 to 48), got 'white'"),
    ],
)
def test_legal_of_the_wrong_kind_is_a_usage_error(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["position", *argv]) == 2
    assert capsys.readouterr().err == f"micropul-print position: error: {message}\n"


def test_catalogue_lists_a_cellulae_set(capsys: pytest.CaptureFixture[str]) -> None:
    catalogue = Path(__file__).resolve().parents[2] / "tiledefs" / "cellulae.yaml"
    assert main(["catalogue", str(catalogue)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "Cellulae by Federico Latini: 81 two-sided tiles of 30 mm, "
        "faces white (square-light) / black (square-dark)",
        "  board  tiles",
        "  5 × 5  25",
        "  7 × 7  49",
        "  9 × 9  81",
    ]


def test_cellulae_commands_import_no_drawing_library() -> None:
    code = (
        "import sys; from micropul_print.cli import main; "
        "assert main(['check', '--game', 'cellulae', '--games', '2']) == 0; "
        f"assert main(['position', '--game', 'cellulae', {str(POSITION)!r}]) == 0; "
        "bad = [m for m in sys.modules if m.split('.')[0] in {'reportlab', 'svgwrite', 'PIL'}]; "
        "assert not bad, bad"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


TILEDEFS = Path(__file__).resolve().parents[2] / "tiledefs"


@pytest.mark.parametrize("command", [
    ["check", "--games", "1"],
    ["position", str(POSITION), "--catalogue"],
    ["rulebook", "--check", "--catalogue"],
])
@pytest.mark.parametrize(("catalogue", "game"), [("micropul", "cellulae"),
                                                 ("cellulae", "micropul")])
def test_a_catalogue_of_another_game_than_game_is_refused(
        command: list[str], catalogue: str, game: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = str(TILEDEFS / f"{catalogue}.yaml")
    line = next(n for n, text in enumerate(Path(path).read_text(encoding="utf-8").splitlines(),
                                           1) if text.startswith("game:"))
    assert main([*command, path, "--game", game]) == 1
    assert capsys.readouterr() == ("", (
        f"{path}:{line}:7: error: this is a {catalogue} catalogue, but --game asks for {game}: "
        f"leave --game out, or give a {game} catalogue\n"))
