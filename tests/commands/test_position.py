"""The ``position`` command, through the real command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from micropul_print.catalogue.loader import load_catalogue
from micropul_print.cli import main
from micropul_print.games.micropul.analysis import analyse
from micropul_print.games.micropul.position import load_position

POSITION = """\
placements:
  - {tile: 41, x: 0, y: 0, rotation: 0}
  - {tile: 21, x: 0, y: -1, rotation: 270}
  - {tile: 48, x: 0, y: -2, rotation: 0}
stones:
  - {player: 1, x: 0, y: 0, quadrant: bl}
"""


@pytest.fixture
def position(tmp_path: Path) -> Path:
    path = tmp_path / "figure.yaml"
    path.write_text(POSITION, encoding="utf-8")
    return path


def test_prints_the_analysis_as_json(position: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["position", str(position), "--legal", "37"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    catalogue = load_catalogue()
    result = json.loads(out)
    assert result == analyse(load_position(position, catalogue), catalogue, 37)
    assert result["placements"][1]["draws"] == 2
    assert result["placements"][2]["reason"] == "colour clash"
    assert list(result) == ["placements", "groups", "legal"]
    assert out.splitlines()[2].startswith('    {"tile": 41, "x": 0')  # one entry per line


def test_illegal_stone_exits_1_with_a_located_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(POSITION + "  - {player: 2, x: 0, y: -1, quadrant: tr}\n", encoding="utf-8")
    assert main(["position", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        f"{path}:7:5: error: stone of player 2 on (0, -1) tr, which holds a blank quadrant, "
        "not a micropul\n"
    )


def test_structural_problems_come_from_the_loader(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("placements:\n  - {tile: 99, x: 0, y: 0, rotation: 0}\n", encoding="utf-8")
    assert main(["position", str(path)]) == 1
    assert f"{path}:2:12: error: unknown tile 99" in capsys.readouterr().err


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    # --legal's meaning depends on the catalogue's game, so it is checked after loading it.
    assert main(["position", "x.yaml", "--legal", "seven"]) == 2
    with pytest.raises(SystemExit) as info:
        main(["position", "x.yaml", "--game", "chess"])
    assert info.value.code == 2


def test_imports_no_drawing_library(position: Path) -> None:
    code = (
        "import sys; from micropul_print.cli import main; "
        f"assert main(['position', {str(position)!r}]) == 0; "
        "bad = [m for m in sys.modules if m.split('.')[0] in {'reportlab', 'svgwrite', 'PIL'}]; "
        "assert not bad, bad"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_a_variant_folder_reads_its_own_catalogue(
        variant_folder: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    # The variant's tile 1 has a black micropul where the shipped one has a white one.
    variant = variant_folder
    (variant / "one.yaml").write_text("placements:\n  - {tile: 1, x: 0, y: 0, rotation: 0}\n")
    monkeypatch.chdir(variant)
    assert main(["position", "one.yaml"]) == 0
    assert json.loads(capsys.readouterr().out)["groups"][0]["colour"] == "black"
    assert main(["position", "one.yaml", "--no-config"]) == 0
    assert json.loads(capsys.readouterr().out)["groups"][0]["colour"] == "white"
    (variant / "micropul-print.toml").write_text('[position]\ncatalogue = "nope.yaml"\n')
    assert main(["position", "one.yaml"]) == 1
    assert capsys.readouterr().err == ("micropul-print.toml:2:13: error: catalogue: file not "
                                       "found: 'nope.yaml'\n")
    (variant / "micropul-print.toml").write_text('[position]\nlegal = "37"\n')
    assert main(["position", "one.yaml"]) == 1
    assert capsys.readouterr().err == ("micropul-print.toml:2:1: error: unknown option "
                                       "'legal' in [position]; [position] takes catalogue, "
                                       "game, strict\n")
