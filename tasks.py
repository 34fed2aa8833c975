#!/usr/bin/env python3
"""Bootstrap for a fresh machine: needs only Python 3.11+.

    python3 tasks.py build   # create .venv, install, build the whole kit (every game) into output/
    python3 tasks.py test    # create .venv, install with dev tools, run ruff, mypy, pytest
    python3 tasks.py bench   # benchmarks (speed and memory goals)

The virtual environment is (re)filled only when pyproject.toml changes, so repeated
runs start at once. Extra arguments after the task go to the underlying command.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / "python"


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
    # The whole kit is every game's; a --game among the extra arguments comes later and
    # wins, a CATALOGUE stands in for the shipped catalogue of its own game.
    return _run(PYTHON, "-m", "micropul_print", "build", "--game", "all", *extra)


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
    return _run(PYTHON, "-m", "pytest", *extra)


def task_bench(extra: list[str]) -> int:
    ensure_venv("dev")
    return _run(PYTHON, "-m", "bench", *extra)


TASKS = {"build": task_build, "test": task_test, "bench": task_bench}


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in TASKS:
        print(f"usage: python3 tasks.py {{{','.join(TASKS)}}} [args...]", file=sys.stderr)
        return 2
    return TASKS[argv[0]](argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
