"""The ``catalogue`` command, through the real command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from micropul_print.catalogue.loader import load_catalogue
from micropul_print.cli import main

BAD = Path(__file__).resolve().parents[1] / "data" / "bad"


def test_json_is_exactly_the_contract(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["catalogue", "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert out == json.dumps(load_catalogue().to_json(), indent=2) + "\n"
    data = json.loads(out)
    assert data["game"] == "micropul" and len(data["tiles"]) == 48
    assert data["tiles"][18] == {
        "id": 19,
        "start": False,
        "big": None,
        "quadrants": ["white", "dot", "empty", "plus"],
    }
    assert data["tiles"][36] == {
        "id": 37,
        "start": False,
        "big": {"colour": "white", "catalyst": "plus"},
        "quadrants": ["white", "white", "white", "white"],
    }


def test_table_lists_every_tile_with_its_rows_and_notes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["catalogue"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:3] == ["Micropul: 48 tiles", "  id  top  bottom  notes", "   1  W .  . ."]
    assert "  19  W 1  P ." in lines
    assert "  41  W W  B B     start tile" in lines
    assert "  44  B B  B B     big black micropul, dot catalyst" in lines
    assert len(lines) == 2 + 48


def test_warnings_go_to_stderr_and_fail_only_when_strict(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = BAD / "unknown_key.yaml"
    warning = (
        f"{path}:6:5: warning: unknown key 'colour' in tile (expected id, face, big or start)\n"
    )
    assert main(["catalogue", str(path), "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == warning and [t["id"] for t in json.loads(out)["tiles"]] == [1, 41]
    assert main(["catalogue", str(path), "--strict"]) == 1
    assert capsys.readouterr() == (
        "", f"{warning}catalogue failed: 1 warning(s) treated as errors (--strict)\n")


def test_errors_exit_1_with_every_diagnostic(capsys: pytest.CaptureFixture[str]) -> None:
    path = BAD / "duplicate_id.yaml"
    assert main(["catalogue", str(path)]) == 1
    assert capsys.readouterr() == (
        "",
        f"{path}:9:9: error: duplicate tile id 1 (already used at line 5; expected each id once)\n",
    )
    assert main(["catalogue", "missing.yaml", "--json"]) == 1
    assert capsys.readouterr() == ("", "missing.yaml: error: file not found\n")


def test_imports_no_drawing_library() -> None:
    code = (
        "import sys; from micropul_print.cli import main; main(['catalogue','--json']); "
        "assert not any(m.split('.')[0] in {'reportlab','svgwrite','PIL'} for m in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["game"] == "micropul"


def test_a_variant_folder_lists_its_own_catalogue(
        variant_folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    variant = variant_folder
    monkeypatch.chdir(variant)
    assert main(["catalogue"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "bluebird: 48 tiles"
    assert lines[2].split() == ["1", "B", ".", ".", "."]
    assert main(["catalogue", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["tiles"][0]["quadrants"][0] == "black"
    # --no-config: the shipped set, as though the folder had no configuration.
    assert main(["catalogue", "--no-config"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Micropul: 48 tiles" and lines[2].split() == ["1", "W", ".", ".", "."]
    # From elsewhere, --config names the folder's file; its paths are relative to it.
    monkeypatch.chdir(tmp_path)
    assert main(["catalogue", "--config", "bluebird/micropul-print.toml"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "bluebird: 48 tiles"


@pytest.mark.parametrize(("table", "message"), [
    ('catalogue = "nope.yaml"', "2:13: error: catalogue: file not found: 'nope.yaml'"),
    ('strict = "yes"', "2:10: error: strict: expected true or false, not a string"),
    ('game = "go"', "2:8: error: game: invalid choice: 'go' (choose from micropul, "
                    "cellulae)"),
    ("json = true", "2:1: error: unknown option 'json' in [catalogue]; [catalogue] takes "
                    "catalogue, game, strict"),
])
def test_a_bad_value_of_its_table_is_refused_at_its_place(
        table: str, message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "micropul-print.toml").write_text(f"[catalogue]\n{table}\n")
    monkeypatch.chdir(tmp_path)
    assert main(["catalogue"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"micropul-print.toml:{message}\n"
