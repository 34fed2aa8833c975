"""The served page in headless Chromium (tests/serve/browser.py): it shows the 48 tiles,
follows an edit of one tile without a reload, shows a broken catalogue's problem with its
location over the last good kit, replays a recorded game with its slider, and logs no
console error. Screenshots go to the test's folder (docs/ keeps a few: docs/serve.md)."""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from .browser import Browser
from .running import SET_NAME, Served

# Where the screenshots go: MICROPUL_PRINT_SCREENSHOTS=DIR keeps them (docs/ has a few).
SHOTS = os.environ.get("MICROPUL_PRINT_SCREENSHOTS")
EDIT_SECONDS = 300.0  # a loaded box may take long; the latency is bench/serve.py's


@pytest.fixture(scope="module")
def browser(served: Served) -> Iterator[Browser]:
    opened = Browser()
    try:
        opened.navigate(served.url)
        opened.wait_for("window.servedState && document.querySelectorAll('#tiles img')"
                        ".length === 49")
        yield opened
    finally:
        opened.close()


def _shot(browser: Browser, name: str, selector: str | None, tmp_path: Path) -> None:
    folder = Path(SHOTS) if SHOTS else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    browser.screenshot(folder / name, selector)


def _tile_src(browser: Browser, key: str) -> str:
    return str(browser.evaluate(
        f"document.querySelector('#tiles figure[data-key=\"{key}\"] img').getAttribute('src')"))


def test_the_page_shows_48_tiles_and_the_back(browser: Browser, tmp_path: Path) -> None:
    keys = browser.evaluate("Array.from(document.querySelectorAll('#tiles figure'))"
                            ".map(f => f.dataset.key)")
    assert keys == [f"{n:02d}" for n in range(1, 49)] + ["back"]
    assert browser.evaluate("document.getElementById('tile-count').textContent") == "(48)"
    browser.wait_for("Array.from(document.querySelectorAll('#tiles img'))"
                     ".every(i => i.complete && i.naturalWidth > 0)")
    # Each tile's catalogue entry, on hover or focus.
    entry = browser.evaluate("document.querySelector('#tiles figure[data-key=\"07\"]').title")
    assert entry.startswith("variant.yaml:")
    assert "id: 7" in entry
    _shot(browser, "serve-tiles.png", None, tmp_path)


def test_the_set_name_from_the_catalogue_is_text_not_markup(browser: Browser) -> None:
    assert browser.evaluate("document.getElementById('set-name').textContent") == SET_NAME
    assert browser.evaluate("document.querySelectorAll('img[src=\"x\"]').length") == 0
    assert browser.evaluate("window.pwned") is None


def test_sheets_and_rulebook_pages_are_shown_as_they_print(browser: Browser,
                                                           tmp_path: Path) -> None:
    names = browser.evaluate("Array.from(document.querySelectorAll('#sheets figcaption'))"
                             ".map(c => c.textContent)")
    assert "micropul-tiles-a4.pdf" in names
    browser.evaluate("document.getElementById('sheets-section').scrollIntoView()")
    browser.wait_for("Array.from(document.querySelectorAll('#sheets img')).slice(0, 2)"
                     ".every(i => i.complete && i.naturalWidth > 0)")
    # True proportions: an A4 page's picture is 210 by 297.
    ratio = browser.evaluate("(() => { const i = document.querySelector('#sheets img');"
                             " return i.naturalHeight / i.naturalWidth; })()")
    assert abs(ratio - 297 / 210) < 0.01
    _shot(browser, "serve-sheets.png", "#sheets-section", tmp_path)
    # The rulebooks have a watcher of their own, which may still be building them.
    browser.wait_for("document.querySelectorAll('#language option').length >= 6",
                     timeout=EDIT_SECONDS)
    languages = browser.evaluate("Array.from(document.querySelectorAll('#language option'))"
                                 ".map(o => o.value)")
    assert {"en", "fr", "de", "it", "pl", "es"} <= set(languages)
    browser.evaluate("(() => { const s = document.getElementById('language'); s.value = 'pl';"
                     " s.dispatchEvent(new Event('change')); })()")
    browser.wait_for("document.querySelector('#rules figcaption').textContent"
                     ".includes('-rules-pl-')")


def test_an_edited_tile_changes_in_the_page_without_a_reload(
        browser: Browser, served: Served, catalogue_text: str, tmp_path: Path) -> None:
    before, other = _tile_src(browser, "01"), _tile_src(browser, "02")
    browser.evaluate("window.notReloaded = true")
    # Tile 1 is "W ." above ". .": a one-dot catalyst in its top right.
    edited = catalogue_text.replace("  - id: 1\n    face:\n      - W .\n",
                                    "  - id: 1\n    face:\n      - W 1\n", 1)
    assert edited != catalogue_text
    served.catalogue.write_text(edited, encoding="utf-8")
    browser.wait_for(f"document.querySelector('#tiles figure[data-key=\"01\"] img')"
                     f".getAttribute('src') !== {json.dumps(before)}", timeout=EDIT_SECONDS)
    assert browser.evaluate("window.notReloaded") is True
    assert _tile_src(browser, "02") == other  # only the edited tile changed
    browser.wait_for("document.querySelector('#tiles figure[data-key=\"01\"] img').complete")
    _shot(browser, "serve-edited.png", None, tmp_path)


def test_a_broken_catalogue_shows_its_problem_over_the_last_kit(
        browser: Browser, served: Served, catalogue_text: str, tmp_path: Path) -> None:
    lines = catalogue_text.splitlines(keepends=True)
    row = next(n for n, line in enumerate(lines) if line == "      - W .\n")
    lines[row] = "      - W X\n"
    served.catalogue.write_text("".join(lines), encoding="utf-8")
    browser.wait_for("Array.from(document.querySelectorAll('#problems .where'))"
                     f".some(w => w.textContent.endsWith('variant.yaml:{row + 1}:' ) ||"
                     f" w.textContent.includes('variant.yaml:{row + 1}:'))",
                     timeout=EDIT_SECONDS)
    text = browser.evaluate("document.getElementById('problems').textContent")
    assert "error" in text
    assert browser.evaluate("document.getElementById('stale').hidden") is False
    assert browser.evaluate("document.querySelectorAll('#tiles figure').length") == 49
    _shot(browser, "serve-problem.png", None, tmp_path)


def test_the_replay_slider_moves_through_a_recorded_game(browser: Browser,
                                                         tmp_path: Path) -> None:
    labels = browser.evaluate("Array.from(document.querySelectorAll('#records button'))"
                              ".map(b => b.textContent)")
    assert labels == ["games/game.json"]
    browser.evaluate("document.querySelector('#records button').click()")
    browser.wait_for("Number(document.getElementById('replay-slider').max) > 10",
                     timeout=EDIT_SECONDS)
    moves = int(browser.evaluate("document.getElementById('replay-slider').max"))
    seen = []
    for turn in (0, 1, 5, moves):
        browser.evaluate(f"(() => {{ const s = document.getElementById('replay-slider');"
                         f" s.value = '{turn}'; s.dispatchEvent(new Event('input')); }})()")
        browser.wait_for("(() => { const i = document.getElementById('replay-picture');"
                         " return i.complete && i.naturalWidth > 0; })()")
        text = browser.evaluate("document.getElementById('replay-move').textContent")
        assert text.startswith(f"turn {turn} of {moves}: ")
        src = browser.evaluate("document.getElementById('replay-picture').getAttribute('src')")
        assert re.match(rf"/replay/\d+/{turn}\.svg\?", src), src
        seen.append(text)
    # The moves in the game's notation (replay's moves.txt): player, tile, cell, rotation.
    assert seen[0].endswith("set-up") and re.search(r": P1 \d+ @ \(-?\d+,-?\d+\) r\d+$",
                                                    seen[1]), seen[1]
    browser.evaluate("document.getElementById('replay-slider').value = '5';"
                     "document.getElementById('replay-slider').dispatchEvent(new Event('input'))")
    time.sleep(0.3)
    _shot(browser, "serve-replay.png", "#lab-section", tmp_path)
    reports = browser.evaluate("Array.from(document.querySelectorAll('#reports a'))"
                               ".map(a => [a.textContent, a.getAttribute('href')])")
    assert reports == [["reports/first/report.html", "/report/0"]]


def test_no_console_error(browser: Browser) -> None:
    assert browser.console_errors() == []
