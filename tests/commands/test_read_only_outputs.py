"""A read-only place is said alike by every command that writes (found before any
work): build and rulebook --out, init and calibrate said "cannot write: Operation not
permitted" after the work, with the path made absolute."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from micropul_print.cli import main


@pytest.fixture
def immutable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """tmp_path/ro, which nobody may write into, root included (chattr +i)."""
    folder = tmp_path / "ro"
    folder.mkdir()
    if subprocess.run(["chattr", "+i", str(folder)], capture_output=True).returncode:
        pytest.skip("chattr +i is not available here")
    monkeypatch.chdir(tmp_path)
    try:
        yield folder
    finally:
        subprocess.run(["chattr", "-i", str(folder)], check=True)


@pytest.mark.parametrize(("words", "said"), [
    (["build", "--no-config", "--out", "ro/kit", "--only", "svg"],
     "ro/kit: error: cannot write the kit here: ro is not writable"),
    (["build", "--no-config", "--out", "ro", "--only", "svg"],
     "ro: error: cannot write the kit here: ro is not writable"),
    (["rulebook", "--no-config", "--out", "ro/r", "--lang", "en"],
     "ro/r: error: cannot write the rulebooks here: ro is not writable"),
    (["init", "ro/v"], "ro/v: error: cannot write the variant here: ro is not writable"),
    (["calibrate", "--offset", "1,1", "--config", "ro/x.toml"],
     "ro/x.toml: error: cannot write the configuration here: ro is not writable"),
])
def test_a_read_only_output_place_is_said_alike_before_any_work(
        immutable: Path, capsys: pytest.CaptureFixture[str], words: list[str],
        said: str) -> None:
    assert main(words) == 1
    assert capsys.readouterr().err == said + "\n"
