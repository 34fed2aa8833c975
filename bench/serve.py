"""`micropul-print serve`: the page's first load, and a one-tile edit's way to the page.

    python -m bench serve [--edits=N] [--loads=N]
    (make bench / python3 tasks.py bench runs every benchmark)

Serves a copy of the shipped Micropul catalogue (pinned to two CPUs, as ``taskset -c
0,1``; the serve and its watchers inherit it), waits for the kit, then drives headless
Chromium (tests/serve/browser.py; Debian's ``chromium``) over the DevTools protocol:

- first load: from navigating to the address until the page shows all 49 tile pictures
  (48 and the back) loaded, N times (default 5), median;
- edit: tile 1's face is saved changed (alternately two faces), and the time from the
  save to the new picture loaded in the page (an ``onload`` timestamp taken in the page,
  same clock), N edits (default 5), median; beside it the watcher's own rebuild time
  as its line says it.

Goals (issue 28): first load under 1 s, a one-tile edit in the page within 1 s of the
save; exit status 1 if missed. Needs the dev extras and chromium.
"""

from __future__ import annotations

import argparse
import importlib
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench.kit import pin_to_two_cpus

GOAL_LOAD = 1.0
GOAL_EDIT = 1.0
ALL_LOADED = ("document.querySelectorAll('#tiles img').length === 49 && Array.from("
              "document.querySelectorAll('#tiles img')).every(i => i.complete && "
              "i.naturalWidth > 0)")
WATCH_LOAD = ("(() => { const i = document.querySelector('#tiles figure[data-key=\"01\"] img');"
              " window.tileLoadedAt = 0; i.addEventListener('load', () => {"
              " window.tileLoadedAt = Date.now(); }, {once: true}); return true; })()")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench serve")
    parser.add_argument("--edits", type=int, default=5, help="tile edits (default: 5)")
    parser.add_argument("--loads", type=int, default=5, help="first loads (default: 5)")
    args, _others = parser.parse_known_args(argv)  # the other benchmarks' options
    pin_to_two_cpus()
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    # The tests' own driver of serve and of Chromium (imported by name: mypy checks
    # tests/ as files of their own).
    running = importlib.import_module("tests.serve.running")
    Browser = importlib.import_module("tests.serve.browser").Browser
    start_serve, stop_serve = running.start_serve, running.stop_serve
    variant_catalogue, wait_built = running.variant_catalogue, running.wait_built

    with tempfile.TemporaryDirectory(prefix="bench-serve-") as scratch:
        folder = Path(scratch) / "variant"
        folder.mkdir()
        catalogue = variant_catalogue(folder)
        original = catalogue.read_text(encoding="utf-8")
        edited = original.replace("  - id: 1\n    face:\n      - W .\n",
                                  "  - id: 1\n    face:\n      - W 1\n", 1)
        started = time.perf_counter()
        served = start_serve(folder, catalogue.name)
        browser = None
        try:
            wait_built(served)
            print(f"first tiles built in {time.perf_counter() - started:.1f} s (wall)")
            while True:  # the rulebooks too, and the page's pictures drawn ahead
                state = served.state()
                if not state["status"]["building"] and state["rules"]:
                    break
                time.sleep(0.2)
            time.sleep(3.0)
            print(f"whole kit built in {time.perf_counter() - started:.1f} s (wall)")
            browser = Browser()
            loads = []
            for _ in range(args.loads):
                browser.navigate("about:blank")
                begun = time.perf_counter()
                browser.call("Page.navigate", url=served.url)
                browser.wait_for(ALL_LOADED, timeout=60)
                loads.append(time.perf_counter() - begun)
            edits: list[float] = []
            rebuilds: list[float] = []
            for n in range(args.edits):
                browser.evaluate(WATCH_LOAD)
                saved = time.time()
                catalogue.write_text(edited if n % 2 == 0 else original, encoding="utf-8")
                browser.wait_for("window.tileLoadedAt > 0", timeout=120)
                edits.append(browser.evaluate("window.tileLoadedAt") / 1000 - saved)
                found = re.search(r"\(\d+ files?, ([\d.]+) s\)",
                                  served.state()["status"]["last"])
                if found:
                    rebuilds.append(float(found.group(1)))
                time.sleep(1.0)  # the rulebooks' watcher settles before the next edit
            errors = browser.console_errors()
        finally:
            if browser is not None:
                browser.close()
            stop_serve(served)
    load, edit = statistics.median(loads), statistics.median(edits)
    print(f"first load (49 tile pictures shown): median {load:.3f} s of {len(loads)} "
          f"({', '.join(f'{v:.3f}' for v in loads)}); goal < {GOAL_LOAD:g} s")
    print(f"one-tile edit, save to picture in the page: median {edit:.3f} s of {len(edits)} "
          f"({', '.join(f'{v:.3f}' for v in edits)}); goal < {GOAL_EDIT:g} s")
    if rebuilds:
        print(f"  of which the watcher's rebuild of tiles and sheets: median "
              f"{statistics.median(rebuilds):.2f} s")
    if errors:
        print(f"console errors: {errors}")
    return 0 if load < GOAL_LOAD and edit < GOAL_EDIT and not errors else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
