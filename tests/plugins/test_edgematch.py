"""The third game, Edgematch (tests/plugins/edgematch), is a plugin the core has never
heard of: put on the path with its distribution metadata, it is found through the
``micropul_print.games`` entry-point group, and every command works on it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader

PLUGIN = Path(__file__).resolve().parent / "edgematch"
FIGURE = PLUGIN / "edgematch" / "book" / "figures" / "match.yaml"


def run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(PLUGIN), *filter(None, [os.environ.get("PYTHONPATH")])])}
    return subprocess.run([sys.executable, "-m", "micropul_print", *args], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=300)


def test_the_plugin_is_listed_in_the_help_and_choices(tmp_path: Path) -> None:
    result = run(tmp_path, "--help")
    assert result.returncode == 0 and "Edgematch" in result.stdout
    result = run(tmp_path, "check", "--game", "chess")
    assert result.returncode == 2 and "'edgematch'" in result.stderr


def test_catalogue_and_check(tmp_path: Path) -> None:
    result = run(tmp_path, "catalogue", "--game", "edgematch", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["tiles"][8] == {"id": 9, "edges": "RBRB"}
    result = run(tmp_path, "check", "--game", "edgematch", "--games", "5")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "5 random games: 0 solved\n"


def test_a_bad_catalogue_is_reported_at_its_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: edgematch\nname: E\ntile_count: 1\ntiles:\n  - {id: 1, edges: RGBX}\n")
    result = run(tmp_path, "check", str(bad))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.splitlines() == [
        f"{bad}:4:1: error: Edgematch has 9 tiles, got 1",
        f"{bad}:5:20: error: 'edges' must be four of RGBY (top, right, bottom, left), got 'RGBX'"]


def test_position(tmp_path: Path) -> None:
    result = run(tmp_path, "position", "--game", "edgematch", str(FIGURE))
    assert result.returncode == 0, result.stderr
    analysis = json.loads(result.stdout)
    assert [p["legal"] for p in analysis["placements"]] == [True, True, False]
    assert analysis["legal_moves"] == 35


def test_rulebook_checks_its_figure_and_builds(tmp_path: Path) -> None:
    result = run(tmp_path, "rulebook", "--game", "edgematch", "--check")
    assert result.returncode == 0, result.stderr
    assert "3 claims in 1 figures hold" in result.stderr
    result = run(tmp_path, "rulebook", "--game", "edgematch", "--out", "out")
    assert result.returncode == 0, result.stderr
    pdf = PdfReader(tmp_path / "out" / "edgematch" / "rules" / "edgematch-rules-en-a4.pdf")
    assert len(pdf.pages) == 1 and "35 moves are left" in pdf.pages[0].extract_text()


@pytest.mark.parametrize("game", ["edgematch", "all"])
def test_build(tmp_path: Path, game: str) -> None:
    result = run(tmp_path, "build", "--game", game, "--paper", "a4", "--only",
                 "svg,sheets,rulebooks", "--booklet", "--out", "out", "--quiet")
    assert result.returncode == 0, result.stderr
    made = tmp_path / "out" / "edgematch"
    # The core's kit, of the plugin's data only: its tile files, sheets and book.
    assert sorted(p.name for p in (made / "tiles" / "svg").iterdir()) == sorted(
        f"tile-{n}.svg" for n in range(1, 10))
    assert (made / "sheets" / "edgematch-tiles-a4.pdf").is_file()
    assert (made / "rules" / "edgematch-rules-en-a4.pdf").is_file()
    assert (made / "rules" / "edgematch-rules-en-booklet-a4.pdf").is_file()
    assert (tmp_path / "out" / "sheets").is_dir() is (game == "all")


def test_init_starts_a_variant_of_the_plugin_s_game(tmp_path: Path) -> None:
    result = run(tmp_path, "init", "--game", "edgematch", "variant")
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in (tmp_path / "variant").iterdir()) == [
        "edgematch.yaml", "micropul-print.toml", "theme.yaml"]
    result = run(tmp_path / "variant", "check", "--games", "3")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "3 random games: 0 solved\n"
