"""Broken variants of the sample plugin (tests/plugins/edgematch): each is left out with
a one-line warning naming it, on every command, and the other games keep working
(docs/adding-a-game.md)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

PLUGIN = Path(__file__).resolve().parent / "edgematch"


def broken_plugin(root: Path, body: str) -> Path:
    """A folder holding the game 'dominoes': Edgematch with ``body`` added to its class,
    registered through its own distribution metadata as a pip package would be."""
    (root / "dominoes-0.1.dist-info").mkdir(parents=True)
    (root / "dominoes-0.1.dist-info" / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: dominoes\nVersion: 0.1\n")
    (root / "dominoes-0.1.dist-info" / "entry_points.txt").write_text(
        "[micropul_print.games]\ndominoes = dominoes:GAME\n")
    (root / "dominoes.py").write_text(
        "from dataclasses import replace\n\nfrom edgematch import EdgeGame\n\n\n"
        "class Dominoes(EdgeGame):\n"
        "    info = replace(EdgeGame.info, name='dominoes', output_dir='dominoes')\n"
        f"{body}\n\nGAME = Dominoes()\n")
    return root


def run(tmp_path: Path, plugin: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(plugin), str(PLUGIN), *filter(None, [os.environ.get("PYTHONPATH")])])}
    return subprocess.run([sys.executable, "-m", "micropul_print", *args], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize(("body", "why"), [
    ("    info = replace(info, order='fifty')", "its info's order must be an integer, got 'fifty'"),
    ("    info = replace(info, order=None)", "its info's order must be an integer, got None"),
    ("    @property\n    def info(self) -> None:\n        raise RuntimeError('no info')",
     "its info raised RuntimeError: no info"),
    ("    info = replace(info, title=7)", "its info's title must be a string, got 7"),
], ids=["order-text", "order-none", "info-raises", "title-number"])
def test_a_plugin_with_a_bad_member_is_left_out(tmp_path: Path, body: str, why: str) -> None:
    plugin = broken_plugin(tmp_path / "plugin", body)
    warning = (f"dominoes:GAME: warning: the game plugin 'dominoes' failed to load: {why} "
               "(left out)")
    result = run(tmp_path, plugin, "--help")
    assert result.returncode == 0 and "Edgematch" in result.stdout
    assert result.stderr.splitlines() == [warning]
    result = run(tmp_path, plugin, "catalogue", "--game", "micropul")
    assert result.returncode == 0 and result.stdout.startswith("Micropul: 48 tiles")
    assert result.stderr.splitlines() == [warning]
    result = run(tmp_path, plugin, "catalogue", "--game", "dominoes")
    assert result.returncode == 2 and "invalid choice: 'dominoes'" in result.stderr


def test_a_plugin_whose_rulebook_raises_is_left_out_of_the_languages(tmp_path: Path) -> None:
    plugin = broken_plugin(tmp_path / "plugin", "    @property\n    def rulebook(self) -> None:\n"
                                                "        raise RuntimeError('no book')")
    warning = ("dominoes:GAME: warning: the game plugin 'dominoes' failed to load: its "
               "rulebook raised RuntimeError: no book (left out)")
    result = run(tmp_path, plugin, "build", "--game", "micropul", "--lang", "en", "--only",
                 "rulebooks", "--paper", "a4", "--booklet", "--out", "out", "--quiet")
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines() == [warning]
    assert sorted(p.name for p in (tmp_path / "out" / "rules").iterdir()) == [
        "micropul-rules-en-a4.pdf", "micropul-rules-en-booklet-a4.pdf"]
    result = run(tmp_path, plugin, "build", "--game", "dominoes", "--lang", "en", "--only",
                 "rulebooks", "--out", "other", "--quiet")
    assert result.returncode == 1 and not (tmp_path / "other").exists()
    assert result.stderr.splitlines() == [warning.replace(" warning: ", " error: ").removesuffix(
        " (left out)"), warning]
