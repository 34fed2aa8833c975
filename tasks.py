#!/usr/bin/env python3
"""Bootstrap for a fresh machine: needs only Python 3.11+.

    python3 tasks.py build        # create .venv, install, build the whole kit into output/
                                  # (every game, both papers, books and booklets)
    python3 tasks.py test         # create .venv with dev tools; ruff, mypy, pytest, wheel-check
    python3 tasks.py wheel-check  # the sdist, the wheel built from it installed into a fresh
                                  # virtual environment, every command run from outside the
                                  # checkout (--keep leaves the scratch folder)
    python3 tasks.py bench        # benchmarks (speed and memory goals)

The virtual environment is (re)filled only when pyproject.toml changes, so repeated
runs start at once. Extra arguments after the task go to the underlying command.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import tomllib
import venv
import zipfile
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / "python"
WHEELHOUSE = VENV / "wheelhouse"


def _run(*args: str | Path) -> int:
    return subprocess.call([str(a) for a in args], cwd=ROOT)


def ensure_venv(extras: str) -> None:
    """Create .venv and install the project (editable) with `extras`, if out of date."""
    # tasks.py runs under whatever python3 the machine has, so this check is real.
    if sys.version_info < (3, 11):  # noqa: UP036
        sys.exit(f"micropul-print needs Python 3.11 or newer; this is {sys.version.split()[0]}")
    spec = (ROOT / "pyproject.toml").read_bytes() + extras.encode()
    stamp = VENV / f".installed-{extras or 'base'}"
    wanted = hashlib.sha256(spec).hexdigest()
    if stamp.exists() and stamp.read_text() == wanted and PYTHON.exists():
        return
    if not PYTHON.exists():
        print("tasks: creating .venv", file=sys.stderr)
        venv.EnvBuilder(with_pip=True, clear=True).create(VENV)
    target = f".[{extras}]" if extras else "."
    print(f"tasks: installing {target} into .venv", file=sys.stderr)
    cmd: list[str | Path] = [
        PYTHON, "-m", "pip", "install", "--disable-pip-version-check", "-q", "-e", target,
    ]
    if _run(*cmd) != 0:
        sys.exit("tasks: installation failed (see pip's message above)")
    stamp.write_text(wanted)


def task_build(extra: list[str]) -> int:
    ensure_venv("")
    # The whole kit: every game's, on every paper, the rulebooks with their booklets (a
    # plain `build` makes one paper's, books only); a --game or --paper among the extra
    # arguments comes later and wins, a CATALOGUE stands in for the shipped catalogue of
    # its own game.
    return _run(PYTHON, "-m", "micropul_print", "build", "--game", "all", "--paper", "all",
                "--booklet", *extra)


def task_test(extra: list[str]) -> int:
    ensure_venv("dev")
    checks: list[tuple[str, list[str | Path]]] = [
        ("ruff", [PYTHON, "-m", "ruff", "check", "."]),
        ("mypy", [PYTHON, "-m", "mypy"]),
    ]
    for name, cmd in checks:
        print(f"tasks: {name}", file=sys.stderr)
        if _run(*cmd) != 0:
            print(f"tasks: {name} failed", file=sys.stderr)
            return 1
    print("tasks: pytest", file=sys.stderr)
    if _run(PYTHON, "-m", "pytest", *extra) != 0:
        return 1
    return task_wheel_check([])


def task_bench(extra: list[str]) -> int:
    ensure_venv("dev")
    return _run(PYTHON, "-m", "bench", *extra)


# -- wheel-check ----------------------------------------------------------------------------

# Repository plumbing that an sdist does without: it builds, installs and tests without them.
SDIST_LEAVES_OUT = (".ci/", ".gitignore", ".gitattributes")
# What setuptools adds to every sdist besides the project's files.
SDIST_ADDS = ("PKG-INFO", "setup.cfg", "micropul_print.egg-info/")
# Whatever git says, an sdist must hold these: the tests, their data and the tools.
SDIST_NEEDS = ("pyproject.toml", "MANIFEST.in", "README.md", "CHANGELOG.md", "LICENSE",
               "tasks.py", "Makefile", "micropul_print/", "tests/", "docs/", "bench/")
# In the wheel, beside the code: the type marker, the fonts and both licences.
WHEEL_NEEDS = ("micropul_print/py.typed", "micropul_print/lato/Lato-Regular.ttf",
               "micropul_print/lato/Lato-Bold.ttf", "micropul_print/lato/Lato-Italic.ttf",
               "micropul_print/lato/Lato-BoldItalic.ttf", "micropul_print/lato/OFL.txt",
               "micropul_print-0.1.0.dist-info/licenses/LICENSE",
               "micropul_print-0.1.0.dist-info/licenses/micropul_print/lato/OFL.txt")
# A position file of each shipped game, read by `position` from the installed tool.
EXAMPLE_POSITIONS = {
    "micropul": "tests/data/good/position_two_tiles.yaml",
    "cellulae": "tests/data/good/cellulae_position.yaml",
}


def sdist_problems(names: Iterable[str], tracked: Iterable[str] | None) -> list[str]:
    """What is wrong with an sdist holding ``names`` (paths inside its top folder), for a
    checkout whose git-tracked files are ``tracked`` (None: not a git checkout)."""
    names = set(names)
    problems = [f"sdist lacks {need}" for need in SDIST_NEEDS
                if not any(name == need or name.startswith(need) for name in names)]
    if tracked is None:
        return problems
    wanted = {name for name in tracked if not name.startswith(SDIST_LEAVES_OUT)}
    problems += [f"sdist lacks {name} (git tracks it: see MANIFEST.in)"
                 for name in sorted(wanted - names)]
    problems += [f"sdist holds {name}, which git does not track"
                 for name in sorted(names - wanted) if not name.startswith(SDIST_ADDS)]
    return problems


def wheel_problems(names: Iterable[str], version: str) -> list[str]:
    """What is wrong with a wheel holding ``names``: a needed file missing, or a file of
    the checkout that has no place in an installed package."""
    names = set(names)
    needs = [need.replace("-0.1.0.", f"-{version}.") for need in WHEEL_NEEDS]
    problems = [f"wheel lacks {need}" for need in needs if need not in names]
    problems += [f"wheel holds {name}" for name in sorted(names)
                 if not name.startswith(("micropul_print/", f"micropul_print-{version}."))
                 or "__pycache__/" in name]
    return problems


def _tracked_files() -> list[str] | None:
    try:
        listing = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                                 check=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    return [name for name in listing.stdout.decode().split("\0") if name]


def _step(name: str, cmd: list[str | Path], cwd: Path, env: dict[str, str] | None = None,
          ) -> bool:
    """Run one command quietly; on failure show its output and say so."""
    start = time.perf_counter()
    result = subprocess.run([str(a) for a in cmd], cwd=cwd, env=env, capture_output=True,
                            text=True, stdin=subprocess.DEVNULL)
    seconds = time.perf_counter() - start
    if result.returncode == 0:
        print(f"tasks: wheel-check: {name}: ok ({seconds:.1f} s)", file=sys.stderr)
        return True
    print(f"tasks: wheel-check: {name}: FAILED, exit {result.returncode}\n"
          f"  command: {' '.join(str(a) for a in cmd)}\n  in: {cwd}\n"
          f"{result.stdout[-3000:]}{result.stderr[-3000:]}", file=sys.stderr)
    return False


def _installed_commands(out: Path) -> list[tuple[str, list[str]]]:
    """Every command of the tool, for every game pyproject.toml registers."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    games = list(project["entry-points"]["micropul_print.games"])
    commands = [("build --game all", ["build", "--game", "all", "--out", str(out)])]
    for game in games:
        position = EXAMPLE_POSITIONS.get(game)
        if position is None:
            sys.exit(f"tasks: wheel-check: no example position for {game} (EXAMPLE_POSITIONS)")
        commands += [
            (f"check --game {game}", ["check", "--game", game, "--games", "3"]),
            (f"rulebook --check --game {game}", ["rulebook", "--check", "--game", game]),
            (f"position --game {game}", ["position", "--game", game, str(ROOT / position)]),
            (f"catalogue --game {game} --json", ["catalogue", "--game", game, "--json"]),
            # The design lab: forked workers, a game record and its replay's pictures.
            (f"analyse --game {game}", ["analyse", "--game", game, "--games", "2", "--bots",
                                        "random,greedy", "--jobs", "2", "--json",
                                        str(out / f"{game}-analysis.json")]),
            (f"play --game {game}", ["play", "--game", game, "--bots", "greedy,greedy",
                                     "--record", str(out / f"{game}-game.json")]),
            (f"replay {game}-game.json", ["replay", str(out / f"{game}-game.json"), "--out",
                                          str(out / f"{game}-replay")]),
        ]
    return commands


def _install_wheel(wheel: Path, python: Path, cwd: Path) -> bool:
    """Install ``wheel`` and its dependencies into the environment of ``python``. The
    dependencies' wheels are kept in .venv/wheelhouse (pip's HTTP cache does not keep
    this index's files), so a rerun installs without the network; a wheelhouse that
    lacks something is filled from the index first."""
    install: list[str | Path] = [
        PYTHON, "-m", "pip", "--python", python, "install", "--disable-pip-version-check",
        "-q", "--no-compile", "--no-index", "--find-links", WHEELHOUSE, wheel]
    start = time.perf_counter()
    if subprocess.run([str(a) for a in install], cwd=cwd, capture_output=True).returncode == 0:
        print(f"tasks: wheel-check: install the wheel into a fresh venv: ok, from the "
              f"wheelhouse ({time.perf_counter() - start:.1f} s)", file=sys.stderr)
        return True
    if not _step("download the dependencies' wheels",
                 [PYTHON, "-m", "pip", "download", "--disable-pip-version-check", "-q",
                  "--dest", WHEELHOUSE, wheel], cwd):
        return False
    for own in WHEELHOUSE.glob("micropul_print-*"):
        own.unlink()  # the wheel under test is given by its path, never taken from here
    return _step("install the wheel into a fresh venv", install, cwd)


def task_wheel_check(extra: list[str]) -> int:
    """Prove the package works installed: the sdist holds what the tests need, the wheel
    built from it installs into a fresh virtual environment, and every command of the
    installed tool runs from a folder outside the checkout."""
    ensure_venv("dev")
    scratch = Path(tempfile.mkdtemp(prefix="micropul-wheel-check-"))
    try:
        ok = _wheel_check(scratch)
    finally:
        if "--keep" in extra:
            print(f"tasks: wheel-check: kept {scratch}", file=sys.stderr)
        else:
            shutil.rmtree(scratch, ignore_errors=True)
    print(f"tasks: wheel-check {'passed' if ok else 'failed'}", file=sys.stderr)
    return 0 if ok else 1


def _wheel_check(scratch: Path) -> bool:
    dist, unpacked, env_dir, run, out = (scratch / name for name in
                                         ("dist", "sdist", "venv", "run", "out"))
    # The sdist first, then the wheel built from the unpacked sdist, as pip would. The
    # build backend is .venv's, the [build-system] one (the dev extras pin it alike):
    # an isolated build would fetch it twice per run.
    if not _step("build the sdist and the wheel from it",
                 [PYTHON, "-m", "build", "--no-isolation", "--outdir", dist, ROOT], ROOT):
        return False
    (sdist,), (wheel,) = dist.glob("*.tar.gz"), dist.glob("*.whl")
    with tarfile.open(sdist) as archive:
        if hasattr(tarfile, "data_filter"):  # Python 3.11.4 on: refuse links out, devices
            archive.extractall(unpacked, filter="data")
        else:
            archive.extractall(unpacked)  # our own archive, just built
    (top,) = unpacked.iterdir()
    names = [path.relative_to(top).as_posix() for path in top.rglob("*") if path.is_file()]
    with zipfile.ZipFile(wheel) as archive:
        wheel_names = archive.namelist()
    version = wheel.name.split("-")[1]
    problems = sdist_problems(names, _tracked_files()) + wheel_problems(wheel_names, version)
    for problem in problems:
        print(f"tasks: wheel-check: {problem}", file=sys.stderr)
    if problems:
        return False
    print(f"tasks: wheel-check: {sdist.name}: {len(names)} files, {wheel.name}: "
          f"{len(wheel_names)} files", file=sys.stderr)

    # A clean environment: no system site-packages, nothing of .venv, not even pip
    # (.venv's pip installs into it).
    venv.EnvBuilder(clear=True).create(env_dir)
    bin_dir = env_dir / ("Scripts" if os.name == "nt" else "bin")
    python, tool = bin_dir / "python", bin_dir / "micropul-print"
    if not _install_wheel(wheel, python, scratch):
        return False
    run.mkdir()
    env = {name: value for name, value in os.environ.items()
           if name not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    where = subprocess.run([python, "-c", "import micropul_print; print(micropul_print.__file__)"],
                           cwd=run, env=env, capture_output=True, text=True)
    if not where.stdout.strip().startswith(str(env_dir)):
        print(f"tasks: wheel-check: micropul_print imported from {where.stdout.strip()!r}, "
              f"not from the fresh venv{where.stderr}", file=sys.stderr)
        return False
    ok = all([_step(name, [tool, *args], run, env) for name, args in _installed_commands(out)])
    written = sorted(path.name for path in run.iterdir())
    if written:
        print(f"tasks: wheel-check: the commands wrote {written} outside --out", file=sys.stderr)
        ok = False
    return ok


TASKS = {"build": task_build, "test": task_test, "wheel-check": task_wheel_check,
         "bench": task_bench}


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in TASKS:
        print(f"usage: python3 tasks.py {{{','.join(TASKS)}}} [args...]", file=sys.stderr)
        return 2
    return TASKS[argv[0]](argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
