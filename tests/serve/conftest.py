"""One `micropul-print serve` for the tests of this folder: a variant folder with a game
record and a lab report, served on a free port until the session ends."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from .running import Served, start_serve, stop_serve, variant_catalogue, wait_built

REPORT_HTML = "<!DOCTYPE html><html><body><h1>a lab report</h1></body></html>"


@pytest.fixture(scope="session")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    folder = tmp_path_factory.mktemp("variant")
    catalogue = variant_catalogue(folder)
    subprocess.run([sys.executable, "-m", "micropul_print", "play", str(catalogue), "--bots",
                    "greedy,greedy", "--seed", "3", "--record", "games/game.json"],
                   cwd=folder, check=True, capture_output=True)
    (folder / "reports" / "first").mkdir(parents=True)
    (folder / "reports" / "first" / "report.html").write_text(REPORT_HTML, encoding="utf-8")
    running = start_serve(folder, catalogue.name)
    try:
        wait_built(running)
        yield running
    finally:
        stop_serve(running)


@pytest.fixture
def catalogue_text(served: Served) -> Iterator[str]:
    """The variant catalogue's text, put back after the test (which may edit it), and
    its kit rebuilt before the next test."""
    text = served.catalogue.read_text(encoding="utf-8")
    yield text
    if served.catalogue.read_text(encoding="utf-8") == text:
        return
    version = served.state()["version"]
    served.catalogue.write_text(text, encoding="utf-8")
    deadline = time.monotonic() + 300
    while True:
        state = served.state()
        if state["version"] > version and not any(
                p["source"] == "build" for p in state["problems"]) and state["status"]["last"]:
            return
        assert time.monotonic() < deadline, "the original catalogue was not rebuilt"
        time.sleep(0.2)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """This folder's tests share one server: they run after the others' (which need no
    server), the browser tests last."""
    here = Path(__file__).parent
    ours = [item for item in items if Path(str(item.fspath)).is_relative_to(here)]
    if ours:
        others = [item for item in items if item not in ours]
        ours.sort(key=lambda item: "test_browser" in str(item.fspath))
        items[:] = others + ours
