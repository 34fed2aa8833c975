"""`build --watch` latency: from saving an edited input to its outputs rewritten.

    python -m bench watch [--edits=N]
    (make bench / python3 tasks.py bench runs every benchmark)

A watcher runs as users run it (``micropul-print build CATALOGUE --theme THEME --paper a4
--watch``, the checkout's .venv, pinned with this process to two CPUs as ``taskset -c
0,1`` does) on copies of the shipped Micropul catalogue and classic theme in a temporary
folder. The bench then saves edits, one at a time, each after the last rebuild ended:

- one tile's face (tile 1's blank lower-right quadrant turned into a one-dot catalyst
  and back): the time until that tile's SVG and PNG and the A4 tile sheet are all
  rewritten ("tile"), and until every output of the rebuild is ("all": until the
  watcher prints the line that ends the rebuild, after its last commit);
- a theme colour (the tile numbers' grey, one step lighter and back): the time until
  every tile's SVG is rewritten.

Times are measured from the save (the file's rename into place) by polling the outputs'
modification times every 5 ms; medians of ``--edits`` edits (default 10). Goals (issue
26): tile <= 0.5 s, all <= 1.5 s, theme <= 1.5 s; the exit status says whether they are
met.
"""

from __future__ import annotations

import argparse
import os
import queue
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO

from bench.kit import child_environment, pin_to_two_cpus

ROOT = Path(__file__).resolve().parent.parent
GOALS = {"tile": 0.5, "all": 1.5, "theme": 1.5}
POLL_S = 0.005
TIMEOUT_S = 60.0
TILE_LINE = ("      - . .\n", "      - . 1\n")  # tile 1's lower row, as saved and edited
NUMBER_COLOUR = ('colour: "#767676"', 'colour: "#777777"')


def _save(path: Path, text: str) -> float:
    """Write ``text`` to ``path`` as editors save (a new file renamed over the old one);
    the time of the rename."""
    new = path.with_name(path.name + ".saving")
    new.write_text(text)
    os.replace(new, path)
    return time.perf_counter()


def _mtimes(paths: Sequence[Path]) -> list[int]:
    found = []
    for path in paths:
        try:
            found.append(path.stat().st_mtime_ns)
        except FileNotFoundError:
            found.append(0)
    return found


def _until_rewritten(paths: Sequence[Path], before: Sequence[int], saved: float) -> float:
    """Seconds from ``saved`` until every one of ``paths`` has a new modification time."""
    while True:
        now = _mtimes(paths)
        if all(a != b for a, b in zip(now, before, strict=True)):
            return time.perf_counter() - saved
        if time.perf_counter() - saved > TIMEOUT_S:
            raise RuntimeError(f"no rebuild within {TIMEOUT_S:g} s of the save")
        time.sleep(POLL_S)


def _reported(lines: queue.Queue[tuple[float, str]], saved: float) -> float:
    """Seconds from ``saved`` until the watcher printed the line that ends a rebuild
    ("<file> changed: rebuilt ..."), after the last of the rebuild's commits."""
    while True:
        try:
            when, line = lines.get(timeout=TIMEOUT_S)
        except queue.Empty:
            raise RuntimeError(f"no rebuild reported within {TIMEOUT_S:g} s") from None
        if " changed: " in line:
            return when - saved


def _read_lines(stream: IO[bytes], lines: queue.Queue[tuple[float, str]]) -> None:
    for raw in stream:
        lines.put((time.perf_counter(), raw.decode(errors="replace")))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench watch")
    parser.add_argument("--edits", type=int, default=10, help="edits of each kind (10)")
    args = parser.parse_args(argv)
    cpus = pin_to_two_cpus()
    sys.path.insert(0, str(ROOT))
    from micropul_print.catalogue.loader import shipped_catalogue
    from micropul_print.draw.theme import THEMES_DIR

    with tempfile.TemporaryDirectory(prefix="bench-watch-") as scratch_name:
        scratch = Path(scratch_name)
        catalogue, theme, out = scratch / "micropul.yaml", scratch / "theme.yaml", scratch / "out"
        shutil.copy(shipped_catalogue("micropul"), catalogue)
        shutil.copy(THEMES_DIR / "classic.yaml", theme)
        catalogue_text, theme_text = catalogue.read_text(), theme.read_text()
        tile_edit = catalogue_text.replace("  - id: 1\n    face:\n      - W .\n" + TILE_LINE[0],
                                           "  - id: 1\n    face:\n      - W .\n" + TILE_LINE[1])
        theme_edit = theme_text.replace(*NUMBER_COLOUR)
        if tile_edit == catalogue_text or theme_edit == theme_text:
            print("bench watch: the shipped catalogue or theme no longer has the text edited",
                  file=sys.stderr)
            return 1
        tile_files = [out / "tiles/svg/tile-01.svg", out / "tiles/png/tile-01.png",
                      out / "sheets/micropul-tiles-a4.pdf"]
        all_svgs = [out / f"tiles/svg/tile-{n:02d}.svg" for n in range(1, 49)]
        command = [str(ROOT / ".venv/bin/micropul-print"), "build", str(catalogue), "--theme",
                   str(theme), "--paper", "a4", "--no-config", "--out", str(out), "--watch"]
        watcher = subprocess.Popen(command, env=child_environment(), cwd=scratch,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        lines: queue.Queue[tuple[float, str]] = queue.Queue()
        assert watcher.stdout is not None
        threading.Thread(target=_read_lines, args=(watcher.stdout, lines), daemon=True).start()
        samples: dict[str, list[float]] = {name: [] for name in GOALS}
        try:
            while True:  # the first build ends with the line "watching N files ..."
                try:
                    _when, line = lines.get(timeout=TIMEOUT_S)
                except queue.Empty:
                    raise RuntimeError("the first build did not finish") from None
                if line.startswith("watching "):
                    break
            for n in range(2 * max(1, args.edits)):
                before = _mtimes(tile_files)
                saved = _save(catalogue, tile_edit if n % 2 == 0 else catalogue_text)
                samples["tile"].append(_until_rewritten(tile_files, before, saved))
                samples["all"].append(_reported(lines, saved))
            for n in range(2 * max(1, args.edits)):
                before = _mtimes(all_svgs)
                saved = _save(theme, theme_edit if n % 2 == 0 else theme_text)
                samples["theme"].append(_until_rewritten(all_svgs, before, saved))
                _reported(lines, saved)
        except RuntimeError as exc:
            print(f"bench watch: {exc}", file=sys.stderr)
            return 1
        finally:
            watcher.terminate()
            watcher.wait()
    print(f"watching with the editable install in .venv, on CPUs {cpus or 'unpinned'}")
    print(f"{'edit -> outputs':<32} {'median s':>9} {'max s':>7}  goal")
    failed = False
    labels = {"tile": "tile face -> its SVG, PNG, sheet", "all": "tile face -> every output",
              "theme": "theme colour -> every tile SVG"}
    for name, goal in GOALS.items():
        median = statistics.median(samples[name])
        ok = median <= goal
        failed |= not ok
        print(f"{labels[name]:<32} {median:>9.3f} {max(samples[name]):>7.3f}  "
              f"<= {goal:g} s: {'met' if ok else 'NOT met'}")
    print(f"({len(samples['tile'])} edits of each kind, medians)")
    print("all goals met" if not failed else "some goals NOT met")
    return 1 if failed else 0
