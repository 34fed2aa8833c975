"""build --watch (and serve, which runs it) with a configuration naming a theme or a
catalogue that is not there: the problem is said at the file's value, watching goes
on, and the build follows once the file is made. The waits are bounded (a line is
awaited, up to a generous limit), never timed."""

from __future__ import annotations

import shutil
import signal
from pathlib import Path

from test_watch import LIMIT, Watcher

from micropul_print.catalogue.loader import shipped_catalogue
from micropul_print.config import CONFIG_NAME
from micropul_print.draw.theme import THEMES_DIR

THEMES = "(nor a built-in theme: classic, ink-saver, colour-safe)"


def _stop(watcher: Watcher) -> None:
    if watcher.process.poll() is None:
        watcher.process.send_signal(signal.SIGINT)
    assert watcher.process.wait(timeout=LIMIT) == 130


def test_a_configured_theme_missing_at_the_start_is_said_located_and_waited_for(
        tmp_path: Path) -> None:
    """The watch ended at once with status 1 (and serve with it)."""
    (tmp_path / CONFIG_NAME).write_text('[build]\ntheme = "themes/mine.yaml"\n')
    watcher = Watcher(tmp_path, "--only", "svg", "--quiet")
    try:
        line = watcher.wait_for(lambda name, line: "error" in line)
        assert line == (f"{CONFIG_NAME}:2:9: error: theme: file not found: "
                        f"'themes/mine.yaml' {THEMES}")
        watcher.wait_for(lambda name, line: line.startswith("watching "))
        assert watcher.process.poll() is None
        # Its folder did not exist either: made with the file, both are found.
        (tmp_path / "themes").mkdir()
        shutil.copy(THEMES_DIR / "classic.yaml", tmp_path / "themes" / "mine.yaml")
        line = watcher.wait_for(lambda name, line: "error" in line or "changed" in line)
        assert line.startswith("mine.yaml changed: rebuilt micropul svg (49 files, "), line
        assert (tmp_path / "output" / "tiles" / "svg" / "tile-01.svg").is_file()
    finally:
        _stop(watcher)


def test_a_catalogue_missing_saved_in_the_configuration_while_watching_is_located(
        tmp_path: Path) -> None:
    """The build's own "nope.yaml: error: file not found" named the path alone, not the
    line of the configuration that named it."""
    config = tmp_path / CONFIG_NAME
    config.write_text("[build]\n")
    watcher = Watcher(tmp_path, "--only", "svg", "--quiet")
    try:
        watcher.wait_for(lambda name, line: line.startswith("watching "))
        config.write_text('[build]\ncatalogue = "nope.yaml"\n')
        line = watcher.wait_for(lambda name, line: "error" in line or "changed" in line)
        assert line == f"{CONFIG_NAME}:2:13: error: catalogue: file not found: 'nope.yaml'"
        watcher.wait_for(lambda name, line: line.startswith("watching "))
        shutil.copy(shipped_catalogue("micropul"), tmp_path / "nope.yaml")
        line = watcher.wait_for(lambda name, line: "error" in line or "changed" in line)
        assert line.startswith("nope.yaml changed: rebuilt micropul svg (49 files, "), line
    finally:
        _stop(watcher)
