"""Interrupting a build: the workers stop with it, the exit status says why, and no
staged or half-written file is left (Linux: the test reads /proc)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")


def children(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.add(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def start_build(out: Path) -> tuple[subprocess.Popen[str], set[int]]:
    """A build of every game, and its workers once they are running."""
    build = subprocess.Popen(
        [sys.executable, "-m", "micropul_print", "build", "--game", "all", "--dpi", "600",
         "--out", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    workers: set[int] = set()
    while len(workers) < 2 and time.monotonic() < deadline and build.poll() is None:
        workers = children(build.pid)
        time.sleep(0.005)
    if len(workers) < 2:
        build.kill()
        pytest.skip("the build ended before its workers could be seen")
    return build, workers


@pytest.mark.parametrize(("signum", "status"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signal_stops_the_build_and_every_worker(tmp_path: Path, signum: int,
                                                   status: int) -> None:
    out = tmp_path / "out"
    build, workers = start_build(out)
    time.sleep(0.2)
    build.send_signal(signum)
    _, err = build.communicate(timeout=120)
    assert build.returncode == status, err
    assert "Traceback" not in err
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(alive(pid) for pid in workers)
    assert not out.exists()  # a first build, stopped: nothing at all


def test_workers_die_with_a_parent_killed_outright(tmp_path: Path) -> None:
    build, workers = start_build(tmp_path / "out")
    build.kill()  # SIGKILL: nothing runs in the parent
    build.communicate(timeout=60)
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(alive(pid) for pid in workers)


def test_an_interrupted_rebuild_keeps_the_previous_kit(tmp_path: Path) -> None:
    out = tmp_path / "out"
    first = subprocess.run([sys.executable, "-m", "micropul_print", "build", "--only",
                            "sheets", "--paper", "a4", "--out", str(out)],
                           capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stderr
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    build, _workers = start_build(out)
    time.sleep(0.2)
    os.kill(build.pid, signal.SIGTERM)
    build.communicate(timeout=120)
    assert build.returncode == 143
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
