"""build --watch never dies and never goes quiet: a configuration saved with a value no
option takes, a variant folder removed and made again, the folder it was started in
removed. The waits are bounded (a line is awaited, up to a generous limit), never timed."""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from test_watch import LIMIT, Watcher


@pytest.fixture()
def variant(tmp_path: Path) -> Path:
    from micropul_print.cli import main

    assert main(["init", str(tmp_path / "variant")]) == 0
    return tmp_path / "variant"


def _stop(watcher: Watcher) -> None:
    if watcher.process.poll() is None:
        watcher.process.send_signal(signal.SIGINT)
    watcher.process.wait(timeout=LIMIT)


def test_a_number_of_thousands_of_digits_saved_while_watching_is_reported(
        variant: Path) -> None:
    """tomllib's ValueError ended the watch with an internal error."""
    config = variant / "micropul-print.toml"
    text = config.read_text()
    watcher = Watcher(variant, "--only", "svg", "--quiet")
    try:
        watcher.wait_for(lambda name, line: line.startswith("watching "))
        config.write_text(text.replace("# dpi = 300", "dpi = " + "3" * 5000))
        line = watcher.wait_for(lambda name, line: "error" in line or "changed" in line)
        at = text.splitlines().index("# dpi = 300") + 1  # the line init wrote it on
        assert line.endswith(f"micropul-print.toml:{at}:7: error: a number of more than 19 "
                             "digits: no option takes one"), line
        assert watcher.process.poll() is None
        config.write_text(text.replace("# dpi = 300", "dpi = 200"))
        line = watcher.wait_for(lambda name, line: "error" in line or "changed" in line)
        assert line.startswith("micropul-print.toml changed: rebuilt micropul svg ("), line
    finally:
        _stop(watcher)
    assert watcher.process.returncode == 130


def test_a_variant_folder_removed_and_made_again_is_watched_again(variant: Path) -> None:
    """The system's watch of a removed folder ends with it: later saves rebuilt nothing,
    and nothing was said."""
    copy = variant.parent / "copy"
    shutil.copytree(variant, copy)
    watcher = Watcher(variant.parent, "--only", "svg", "--quiet", "--config",
                      "variant/micropul-print.toml")
    try:
        watcher.wait_for(lambda name, line: line.startswith("watching "))
        shutil.rmtree(variant)
        line = watcher.wait_for(lambda name, line: "removed" in line)
        assert line == f"{variant} was removed: waiting for it to be made again (Ctrl-C to stop)"
        shutil.copytree(copy, variant)
        line = watcher.wait_for(lambda name, line: "made again" in line)
        assert line == f"{variant}: made again: watching it again"
        line = watcher.wait_for(lambda name, line: "error" in line or "changed" in line)
        assert line.startswith("micropul-print.toml, micropul.yaml, theme.yaml changed: "
                               "rebuilt micropul svg ("), line
        watcher.wait_for(lambda name, line: line.startswith("watching "))
        theme = variant / "theme.yaml"
        theme.write_text(theme.read_text().replace("outline_width: 0.2", "outline_width: 0.3"))
        line = watcher.wait_for(lambda name, line: "error" in line or "changed" in line)
        assert line.startswith("theme.yaml changed: rebuilt micropul svg ("), line
        assert 'stroke-width="0.3"' in (
            variant.parent / "output/tiles/svg/tile-01.svg").read_text()
    finally:
        _stop(watcher)
    assert watcher.process.returncode == 130


def test_the_folder_the_watch_started_in_removed_ends_it_with_1(variant: Path) -> None:
    """Every relative path led nowhere: the watcher ended with an internal error (70)."""
    watcher = Watcher(variant, "--only", "svg", "--quiet")
    try:
        watcher.wait_for(lambda name, line: line.startswith("watching "))
        shutil.rmtree(variant)
        line = watcher.wait_for(lambda name, line: "error" in line)
        assert line == (f"{variant}: error: the folder this watch was started in was removed "
                        "while watching: its files cannot be found any more; start the watch "
                        "again from a folder that exists")
        assert watcher.process.wait(timeout=LIMIT) == 1
    finally:
        _stop(watcher)


def test_a_command_whose_working_folder_was_removed_says_so(tmp_path: Path) -> None:
    gone = tmp_path / "gone"
    gone.mkdir()
    done = subprocess.run(
        ["sh", "-c", f'cd "{gone}" && rmdir "{gone}" && exec "$0" -m micropul_print '
                     "build --only svg --quiet", sys.executable],
        capture_output=True, text=True, timeout=LIMIT)
    assert done.returncode == 1, done.stderr
    assert "internal error" not in done.stderr
    assert "removed" in done.stderr


def test_a_watch_whose_serve_is_gone_ends_at_its_next_wake(
        variant: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """serve killed outright (SIGKILL) cannot end its children: its `build --watch`
    processes ran on for ever. Under PARENT_ENV a watch whose parent is not the one
    named ends by itself."""
    import os

    from micropul_print.watch import PARENT_ENV

    monkeypatch.setenv(PARENT_ENV, "1" if os.getpid() != 1 else "2")  # not its parent
    watcher = Watcher(variant, "--only", "svg", "--quiet")
    try:
        assert watcher.process.wait(timeout=LIMIT) == 1
    finally:
        _stop(watcher)


def test_serve_names_itself_the_parent_of_its_watches() -> None:
    import os

    from micropul_print.serve.kitwatch import child_environment
    from micropul_print.watch import PARENT_ENV

    assert child_environment()[PARENT_ENV] == str(os.getpid())
