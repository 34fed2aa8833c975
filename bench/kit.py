"""Kit build speed and memory, each build as a whole process, against a floor.

    python -m bench kit [--runs=N] [--build-arg=ARG]   (make bench runs every benchmark)

Measures (a) the whole Micropul kit (``build``) and (b) the 48 SVG tiles plus the A4
sheet alone (``build --only svg,sheets --paper a4``), and for information the kit of
both games (``build --game all``), each as a fresh
``python -m micropul_print`` process, and the floor: a process that only imports the
drawing libraries. Wall time and peak resident memory come from each child itself
(``os.wait4`` returns the child's own rusage). Medians of ``--runs`` runs, run in
turns so that load on the machine falls on all three alike. The children may write
.pyc files even where PYTHONDONTWRITEBYTECODE is set (as in some sandboxes): the warm-up
run is there to write them, and without them every run would compile the package from
source (some 50 ms for the SVG + sheet build), which no installed copy ever does.

Goals: (b) within 2x the floor's time, (a) within 6x, every peak under 80 MB.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

FLOOR = "import reportlab.pdfgen.canvas, svgwrite, PIL.Image, yaml"
TIME_GOALS = {"whole kit": 6.0, "svg + A4 sheet": 2.0}
MEMORY_GOAL_MB = 80.0


@dataclass(frozen=True)
class Sample:
    seconds: float
    peak_mb: float


def child_environment() -> dict[str, str]:
    """This process's environment, minus what would stop .pyc files being written."""
    return {name: value for name, value in os.environ.items()
            if name != "PYTHONDONTWRITEBYTECODE"}


def run_once(argv: list[str]) -> Sample:
    """Run ``argv`` to completion; its wall time and its own peak memory."""
    started = time.perf_counter()
    child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             env=child_environment())
    _pid, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    err = child.stderr.read().decode(errors="replace") if child.stderr else ""
    if child.stderr:
        child.stderr.close()
    if child.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed ({child.returncode}):\n{err}")
    return Sample(seconds, usage.ru_maxrss / 1024)  # Linux reports KiB


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench kit")
    parser.add_argument("--runs", type=int, default=5, help="runs of each (default: 5)")
    parser.add_argument("--build-arg", action="append", default=[], metavar="ARG",
                        help="extra argument for both builds, e.g. --build-arg=--lang=en")
    args = parser.parse_args(argv)
    extra: list[str] = args.build_arg
    python = sys.executable
    with tempfile.TemporaryDirectory(prefix="bench-kit-") as scratch:
        commands = {
            "floor (imports only)": [python, "-c", FLOOR],
            "svg + A4 sheet": [python, "-m", "micropul_print", "build", "--quiet",
                               "--only", "svg,sheets", "--paper", "a4",
                               "--out", os.path.join(scratch, "svg-sheet"), *extra],
            "whole kit": [python, "-m", "micropul_print", "build", "--quiet",
                          "--out", os.path.join(scratch, "kit"), *extra],
            # Informational: what `python3 tasks.py build` makes (the goals above were
            # set for Micropul's kit); only the memory goal applies.
            "both games (--game all)": [python, "-m", "micropul_print", "build", "--quiet",
                                        "--game", "all", "--out",
                                        os.path.join(scratch, "all"), *extra],
        }
        samples: dict[str, list[Sample]] = {name: [] for name in commands}
        try:
            for command in commands.values():
                run_once(command)  # warm the file cache and the .pyc files
            for _ in range(max(1, args.runs)):
                for name, command in commands.items():
                    samples[name].append(run_once(command))
        except RuntimeError as exc:
            print(f"bench kit: {exc}", file=sys.stderr)
            return 1

    def median_time(name: str) -> float:
        return statistics.median(s.seconds for s in samples[name])

    floor = median_time("floor (imports only)")
    print(f"{'process':<24} {'median s':>9} {'x floor':>8} {'peak MB':>8}  goal")
    failed = False
    for name in commands:
        seconds = median_time(name)
        peak = max(s.peak_mb for s in samples[name])
        ratio = seconds / floor
        verdicts = []
        if name in TIME_GOALS:
            ok = ratio <= TIME_GOALS[name]
            failed |= not ok
            verdicts.append(f"time <= {TIME_GOALS[name]:g}x floor: {'met' if ok else 'NOT met'}")
        ok = peak < MEMORY_GOAL_MB
        failed |= not ok
        verdicts.append(f"peak < {MEMORY_GOAL_MB:g} MB: {'met' if ok else 'NOT met'}")
        print(f"{name:<24} {seconds:>9.3f} {ratio:>8.2f} {peak:>8.1f}  {'; '.join(verdicts)}")
    print(f"({args.runs} runs each, medians of wall time, peaks of resident memory)")
    print("all goals met" if not failed else "some goals NOT met")
    return 0
