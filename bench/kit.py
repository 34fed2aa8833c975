"""Kit build speed and memory, each build as a whole process, against a floor.

    python -m bench kit [--runs=N] [--build-arg=ARG] [--editable] [--case=NAME]
                        [--against=CHECKOUT]
    (make bench / python3 tasks.py bench runs every benchmark)

What runs, as users run it: the checkout is built into a wheel (``python -m build
--wheel --no-isolation``), installed with its dependencies (from .venv/wheelhouse, as
tasks.py wheel-check does) into a fresh virtual environment in a temporary folder, and
every file of that environment is compiled to bytecode (``compileall``, as pip does on
install). The builds then run as that environment's ``micropul-print`` command, from a
folder outside the checkout (so the checkout's own package cannot be imported instead),
with ``--no-config``, each into a new output folder (a clean build). ``--editable``
skips all that and runs ``.venv``'s editable install instead, for a quick look while
working. ``--case`` measures only the cases named (``tile unit``, ``default build``,
``full build``; the floor always). ``--against`` installs another checkout (say, main's)
the same way and runs its builds in the same turns, so before and after are measured
under the same load, each as a ratio to the same floor.

The bench pins itself, and so every build, to two CPUs (the first two it may use:
``os.sched_setaffinity``, as ``taskset -c 0,1`` does), since the goals are set for a
two-core machine.

Measured, as issue 26 sets them: (a) the default build (``build``: one game, one
paper, the six rulebooks as books, SVG and PNG tiles, the duplex sheets), (b) the tile
unit: the 49 SVG files (48 tiles and the back) and one duplex A4 sheet alone (``build
--only svg,sheets --paper a4 --no-calibration``), (c) the full build: both games, both
papers, every sheet layout, books and booklets (``build --game all --paper all --layout
all --booklet``), and the floor: a process that only imports the drawing libraries
(reportlab's canvas, svgwrite, Pillow, PyYAML).
Wall time, CPU time and peak resident memory come from each child itself (``os.wait4``
returns its rusage; Linux folds in its forked workers, which it reaps: their CPU time
is added, and the peak is that of the largest process of the build). Medians of
``--runs`` runs, run in turns so that load on the machine falls on all of them alike;
the ratios are to the floor of the same run.

Goals (issue 26): (a) within 5x the floor's time, (b) within 1.3x, (c) within 12x;
every peak under 80 MB.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import venv
from dataclasses import dataclass
from pathlib import Path

FLOOR = "import reportlab.pdfgen.canvas, svgwrite, PIL.Image, yaml"
FLOOR_EXTRA = "svgwrite>=1.4.3,<2"  # as pyproject.toml's dev extra pins it
TIME_GOALS = {"tile unit": 1.3, "default build": 5.0, "full build": 12.0}
MEMORY_GOAL_MB = 80.0
CPUS = 2
ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Sample:
    seconds: float
    peak_mb: float
    cpu_seconds: float  # user + system, of the process and the workers it reaped


def child_environment() -> dict[str, str]:
    """This process's environment, minus what would point the children elsewhere
    (another checkout, another environment) or stop .pyc files being written."""
    return {name: value for name, value in os.environ.items()
            if name not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH", "PYTHONHOME",
                            "VIRTUAL_ENV")}


def run_once(argv: list[str], cwd: Path) -> Sample:
    """Run ``argv`` to completion; its wall time and its own peak memory."""
    started = time.perf_counter()
    child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             env=child_environment(), cwd=cwd)
    _pid, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    err = child.stderr.read().decode(errors="replace") if child.stderr else ""
    if child.stderr:
        child.stderr.close()
    if child.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed ({child.returncode}):\n{err}")
    return Sample(seconds, usage.ru_maxrss / 1024,  # Linux reports KiB
                  usage.ru_utime + usage.ru_stime)


def pin_to_two_cpus() -> list[int]:
    """Pin this process (and so its children) to two CPUs; the CPUs used."""
    if not hasattr(os, "sched_setaffinity"):
        return []
    cpus = sorted(os.sched_getaffinity(0))[:CPUS]
    os.sched_setaffinity(0, cpus)
    return cpus


def install_wheel(scratch: Path, checkout: Path = ROOT) -> tuple[Path, Path]:
    """``checkout`` built into a wheel and installed, compiled, in a fresh virtual
    environment under ``scratch``: (its python, its micropul-print command)."""
    sys.path.insert(0, str(ROOT))
    import tasks  # the wheelhouse and the install, as wheel-check does them

    dist, env_dir = scratch / "dist", scratch / "venv"
    subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir",
                    str(dist), str(checkout)], check=True, capture_output=True)
    (wheel,) = dist.glob("*.whl")
    venv.EnvBuilder(clear=True).create(env_dir)
    bin_dir = env_dir / ("Scripts" if os.name == "nt" else "bin")
    python = bin_dir / "python"
    if not tasks._install_wheel(wheel, python, scratch):
        raise RuntimeError("installing the wheel failed (see above)")
    # The floor imports svgwrite too (as the issue defines it), which the tool does not
    # need: a dev dependency, from the wheelhouse (filled from the index if it lacks it).
    floor_extra = [sys.executable, "-m", "pip", "--python", str(python), "install",
                   "--disable-pip-version-check", "-q", "--no-compile", "--no-index",
                   "--find-links", str(tasks.WHEELHOUSE), FLOOR_EXTRA]
    if subprocess.run(floor_extra, capture_output=True).returncode != 0:
        subprocess.run([sys.executable, "-m", "pip", "download", "--disable-pip-version-check",
                        "-q", "--dest", str(tasks.WHEELHOUSE), FLOOR_EXTRA], check=True,
                       capture_output=True)
        subprocess.run(floor_extra, check=True, capture_output=True)
    subprocess.run([str(python), "-m", "compileall", "-q", "-j", "0", str(env_dir)],
                   check=False, capture_output=True)  # a test file that won't compile: fine
    return python, bin_dir / "micropul-print"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench kit")
    parser.add_argument("--runs", type=int, default=5, help="runs of each (default: 5)")
    parser.add_argument("--build-arg", action="append", default=[], metavar="ARG",
                        help="extra argument for the builds, e.g. --build-arg=--lang=en")
    parser.add_argument("--editable", action="store_true",
                        help="run .venv's editable install instead of an installed wheel")
    parser.add_argument("--case", action="append", choices=sorted(TIME_GOALS), default=[],
                        help="measure only this case (repeatable; the floor always)")
    parser.add_argument("--against", type=Path, metavar="CHECKOUT",
                        help="also install this checkout and time its builds alongside")
    args = parser.parse_args(argv)
    if args.against is not None and args.editable:
        parser.error("--against installs wheels: leave out --editable")
    extra: list[str] = [*args.build_arg, "--quiet", "--no-config"]
    cpus = pin_to_two_cpus()
    with tempfile.TemporaryDirectory(prefix="bench-kit-") as scratch_name:
        scratch = Path(scratch_name)
        if args.editable:
            python, tool = Path(sys.executable), [sys.executable, "-m", "micropul_print"]
            where = "the editable install in .venv"
        else:
            try:
                python, installed = install_wheel(scratch)
            except (RuntimeError, subprocess.CalledProcessError) as exc:
                print(f"bench kit: {exc}", file=sys.stderr)
                return 1
            tool = [str(installed)]
            where = "a wheel installed in a fresh environment, compiled"
        tools = {"": tool}
        if args.against is not None:
            try:
                _python, other = install_wheel(scratch / "against", args.against.resolve())
            except (RuntimeError, subprocess.CalledProcessError) as exc:
                print(f"bench kit: {args.against}: {exc}", file=sys.stderr)
                return 1
            tools[f" ({args.against.name})"] = [str(other)]
        run = scratch / "run"
        run.mkdir()
        cases = {
            "tile unit": ["build", "--only", "svg,sheets", "--paper", "a4", "--no-calibration"],
            "default build": ["build"],
            "full build": ["build", "--game", "all", "--paper", "all", "--layout", "all",
                           "--booklet"],
        }
        commands = {"floor (imports only)": [str(python), "-c", FLOOR]}
        for case, words in cases.items():
            if not args.case or case in args.case:
                commands.update({case + label: [*command, *words, *extra]
                                 for label, command in tools.items()})
        samples: dict[str, list[Sample]] = {name: [] for name in commands}
        outputs = 0

        def once(command: list[str]) -> Sample:
            nonlocal outputs
            if command[-len(extra):] != extra:  # the floor writes nothing
                return run_once(command, run)
            outputs += 1
            out = scratch / f"out-{outputs}"  # a clean build each time
            try:
                return run_once([*command, "--out", str(out)], run)
            finally:
                shutil.rmtree(out, ignore_errors=True)

        try:
            for command in commands.values():
                once(command)  # warm the file cache
            for _ in range(max(1, args.runs)):
                for name, command in commands.items():
                    samples[name].append(once(command))
        except RuntimeError as exc:
            print(f"bench kit: {exc}", file=sys.stderr)
            return 1

    def median_time(name: str) -> float:
        return statistics.median(s.seconds for s in samples[name])

    def median_cpu(name: str) -> float:
        return statistics.median(s.cpu_seconds for s in samples[name])

    floor = median_time("floor (imports only)")
    floor_cpu = median_cpu("floor (imports only)")
    print(f"running {where}, on CPUs {cpus or 'unpinned'}")
    print(f"{'process':<28} {'median s':>9} {'x floor':>8} {'CPU s':>7} {'x floor':>8} "
          f"{'peak MB':>8}  goal (on wall time)")
    failed = False
    for name in commands:
        seconds = median_time(name)
        peak = max(s.peak_mb for s in samples[name])
        ratio = seconds / floor
        verdicts = []
        if name in TIME_GOALS:  # goals are this checkout's (not --against's)
            ok = ratio <= TIME_GOALS[name]
            failed |= not ok
            verdicts.append(f"time <= {TIME_GOALS[name]:g}x floor: {'met' if ok else 'NOT met'}")
        ok = peak < MEMORY_GOAL_MB
        failed |= not ok and (name in TIME_GOALS or name == "floor (imports only)")
        verdicts.append(f"peak < {MEMORY_GOAL_MB:g} MB: {'met' if ok else 'NOT met'}")
        cpu = median_cpu(name)
        print(f"{name:<28} {seconds:>9.3f} {ratio:>8.2f} {cpu:>7.3f} {cpu / floor_cpu:>8.2f} "
              f"{peak:>8.1f}  {'; '.join(verdicts)}")
    print(f"({args.runs} runs each, medians of wall and CPU time, peaks of resident memory;"
          " on a loaded machine the CPU ratios move less than the wall ones)")
    print("all goals met" if not failed else "some goals NOT met")
    return 0
