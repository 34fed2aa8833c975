"""A Ctrl-C or SIGTERM always ends the command (130, 143), even when Python lost the
exception its handler raised; and one that comes during a commit waits for its end."""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from micropul_print import cli
from micropul_print.base import interrupts


class _SwallowsItsInterrupt:
    """Python only reports an exception raised in __del__: a signal's is lost there."""

    def __del__(self) -> None:
        os.kill(os.getpid(), signal.SIGINT)  # the handler runs here, its exception lost


def test_a_ctrl_c_whose_exception_was_lost_still_ends_the_command(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def run(_args: argparse.Namespace) -> int:
        _SwallowsItsInterrupt()  # made and dropped at once
        return 0

    from micropul_print.commands import catalogue

    monkeypatch.setattr(catalogue, "run", run)
    assert cli.main(["catalogue"]) == cli.EXIT_INTERRUPTED
    assert capsys.readouterr().err.endswith("micropul-print: interrupted\n")


def test_signals_held_during_a_block_are_acted_on_after_it() -> None:
    previous = interrupts.install()
    try:
        done = []
        with pytest.raises(interrupts.Terminated), interrupts.held():
            os.kill(os.getpid(), signal.SIGTERM)
            os.kill(os.getpid(), signal.SIGINT)
            done.append("the whole block")
        assert done == ["the whole block"]
        assert interrupts.terminated()
    finally:
        interrupts.restore(previous)


def test_a_block_outside_the_main_thread_runs_as_it_is_and_its_errors_pass_unchanged(
        ) -> None:
    import threading

    outcome: list[object] = []

    def block() -> None:
        with interrupts.held():
            outcome.append("ran")
        try:
            with interrupts.held():
                raise OSError("disk full")
        except OSError as error:
            outcome.append((str(error), error.__context__))

    worker = threading.Thread(target=block)
    worker.start()
    worker.join()
    assert outcome == ["ran", ("disk full", None)]


def _children(pid: int) -> set[int]:
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


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
@pytest.mark.parametrize("attempt", range(4))
def test_ctrl_c_as_the_workers_start_ends_the_build_with_130(tmp_path: Path,
                                                             attempt: int) -> None:
    """Ctrl-C (SIGINT to the whole process group) the moment the first worker is seen:
    it was lost one time in four (a KeyboardInterrupt traceback from logging's at-fork
    hook, and the build ran on to status 0)."""
    build = subprocess.Popen([sys.executable, "-m", "micropul_print", "build", "--game",
                              "all", "--no-config", "--out", str(tmp_path / "out")],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             start_new_session=True)
    deadline = time.monotonic() + 120
    while not _children(build.pid) and build.poll() is None and time.monotonic() < deadline:
        pass  # no sleep: the signal must come as the workers fork
    os.killpg(build.pid, signal.SIGINT)
    _, err = build.communicate(timeout=120)
    assert build.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    assert not (tmp_path / "out").exists()
