"""serve started in a folder whose micropul-print.toml names a theme that is not there:
it ended at start-up with the build watcher's status; it shows the problem, located,
and the kit once the file is made."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

from micropul_print.config import CONFIG_NAME
from micropul_print.draw.theme import THEMES_DIR

from .running import FIRST_BUILD_SECONDS, start_serve, stop_serve, wait_built


def test_serve_with_a_configured_theme_missing_shows_it_located_and_builds_once_made(
        tmp_path: Path) -> None:
    folder = tmp_path / "variant"
    folder.mkdir()
    (folder / CONFIG_NAME).write_text('[build]\ntheme = "mine.yaml"\n')
    running = start_serve(folder)
    try:
        deadline = time.monotonic() + FIRST_BUILD_SECONDS
        while True:
            assert running.process.poll() is None, "serve ended"
            if (state := running.state())["problems"]:
                break
            assert time.monotonic() < deadline, f"no problem shown: {state['status']}"
            time.sleep(0.2)
        assert state["problems"][0] == {
            "where": f"{CONFIG_NAME}:2:9", "severity": "error", "source": "build",
            "message": "theme: file not found: 'mine.yaml' (nor a built-in theme: classic, "
                       "ink-saver, colour-safe)"}
        assert state["status"]["stopped"] == ""
        shutil.copy(THEMES_DIR / "classic.yaml", folder / "mine.yaml")
        wait_built(running)
        # The rulebooks' watcher, which waited for the theme too, may end its rebuild
        # after the kit's: its problem goes when it does.
        deadline = time.monotonic() + FIRST_BUILD_SECONDS
        while True:
            problems = [p for p in running.state()["problems"] if p["source"] == "build"]
            if not problems:
                break
            assert time.monotonic() < deadline, f"the problem stayed: {problems}"
            time.sleep(0.2)
    finally:
        code, err = stop_serve(running)
    assert code == 130, err
    assert "Traceback" not in err
