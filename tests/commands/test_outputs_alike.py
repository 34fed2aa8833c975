"""Every option that names an output makes the folders missing on its way, alike
(docs/output-layout.md): none refuses a missing folder while the others make it."""

from __future__ import annotations

from pathlib import Path

import pytest

from micropul_print.cli import main

LAB = ["--no-config", "--games", "1", "--bots", "random", "--players", "1", "--jobs", "1"]


@pytest.mark.parametrize(("words", "made"), [
    (["analyse", *LAB, "--json", "missing/deeper/x.json"], "x.json"),
    (["analyse", *LAB, "--report", "missing/deeper/report"], "report"),
    (["play", "--no-config", "--bots", "random", "--record", "missing/deeper/r.json"],
     "r.json"),
    (["rulebook", "--no-config", "--template", "missing/deeper/nl.po", "--lang", "nl"],
     "nl.po"),
    (["calibrate", "--offset", "0.5,0", "--config", "missing/deeper/x.toml"], "x.toml"),
    (["init", "missing/deeper/variant"], "variant"),
    (["build", "--no-config", "--out", "missing/deeper/kit", "--only", "svg", "--quiet"],
     "kit"),
])
def test_every_output_option_makes_its_missing_folders(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, words: list[str],
        made: str) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(words) == 0
    assert (tmp_path / "missing" / "deeper" / made).exists()


def test_replay_out_makes_its_missing_folders(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["play", "--no-config", "--bots", "random", "--record", "r.json"]) == 0
    assert main(["replay", "--no-config", "r.json", "--out", "missing/deeper/rp"]) == 0
    assert (tmp_path / "missing" / "deeper" / "rp" / "replay.pdf").is_file()
