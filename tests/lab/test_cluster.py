"""``analyse --scheduler``: the batches sent to a Dask cluster (here a LocalCluster in
this process) give the very report the local workers give."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from micropul_print.cli import main
from micropul_print.commands import analyse as analyse_command
from micropul_print.lab import runner

distributed = pytest.importorskip("distributed")


def _one_game_on(address: str) -> int:
    """``analyse`` of one random solitaire game sent to the scheduler at ``address``."""
    return main(["analyse", "--games", "1", "--bots", "random", "--players", "1",
                 "--scheduler", address])


def test_a_cluster_plays_the_same_games(tmp_path: Path) -> None:
    args = ["analyse", "--game", "cellulae", "--variants", "5", "--games", "4", "--bots",
            "random,greedy"]
    assert main([*args, "--jobs", "1", "--json", str(tmp_path / "local.json")]) == 0
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster:
        assert main([*args, "--scheduler", cluster.scheduler_address, "--json",
                     str(tmp_path / "cluster.json")]) == 0
    assert (tmp_path / "cluster.json").read_bytes() == (tmp_path / "local.json").read_bytes()


def test_a_scheduler_without_workers_is_a_usage_error(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(runner, "CONNECT_SECONDS", 0.5)
    with distributed.LocalCluster(n_workers=0, processes=False,
                                  dashboard_address=None) as cluster:
        address = cluster.scheduler_address
        assert _one_game_on(address) == 2
    assert capsys.readouterr().err == (
        f"micropul-print analyse: error: --scheduler {address!r}: the scheduler has no "
        f"workers (none joined within 0.5 s)\n")


def test_a_scheduler_lost_mid_run_keeps_the_games_played(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The cluster closes once the first batch is in: one line says so, the report of
    the games played is written as after Ctrl-C, and the exit status is 1."""
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                       dashboard_address=None)
    address = cluster.scheduler_address
    callback = analyse_command._Progress.callback

    def closing(progress: analyse_command._Progress, number: int) -> Callable[..., None]:
        done = callback(progress, number)

        def first_then_close(batch: object, games: list[object]) -> None:
            done(batch, games)
            if cluster.status.name == "running":
                cluster.close()
        return first_then_close

    monkeypatch.setattr(analyse_command._Progress, "callback", closing)
    try:
        assert main(["analyse", "--game", "cellulae", "--variants", "5", "--games", "400",
                     "--bots", "random,greedy", "--scheduler", address,
                     "--json", str(tmp_path / "lost.json")]) == 1
    finally:
        cluster.close()
    err = capsys.readouterr().err
    assert err.endswith(f"micropul-print: the Dask scheduler at {address} stopped "
                        "answering: the report covers the games played so far\n")
    assert "Traceback" not in err and "internal error" not in err
    document = json.loads((tmp_path / "lost.json").read_text("utf-8"))
    assert document["complete"] is False
    assert 0 < sum(section["games"] for section in document["sections"]) < 1600


def _refused_port() -> int:
    """A local port nothing listens on (bound, then let go)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@pytest.mark.parametrize(("address", "reason"), [
    ("nonsense", "missing port number in address 'nonsense'"),
    ("http://localhost:8786", "unknown address scheme 'http'"),
])
def test_a_malformed_scheduler_address_is_a_usage_error(
        address: str, reason: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert _one_game_on(address) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"micropul-print analyse: error: --scheduler {address!r}: no Dask "
                          f"scheduler answers there ({reason}")
    assert "Traceback" not in err


def test_a_scheduler_that_does_not_answer_is_a_usage_error_before_any_game(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(runner, "CONNECT_SECONDS", 0.5)
    address = f"tcp://127.0.0.1:{_refused_port()}"
    assert _one_game_on(address) == 2
    assert capsys.readouterr().err == (
        f"micropul-print analyse: error: --scheduler {address!r}: no Dask scheduler answers "
        f"there (Timed out trying to connect to {address} after 0.5 s)\n")


def test_a_listener_that_never_answers_is_given_up_on(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """It accepts the connection and stays silent: the handshake is timed too."""
    monkeypatch.setattr(runner, "CONNECT_SECONDS", 0.5)
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        address = f"tcp://127.0.0.1:{server.getsockname()[1]}"
        assert _one_game_on(address) == 2
    assert capsys.readouterr().err == (
        f"micropul-print analyse: error: --scheduler {address!r}: no Dask scheduler answers "
        f"there (Timed out trying to connect to {address} after 0.5 s)\n")


def test_a_server_that_is_not_a_scheduler_is_told_apart(
        capsys: pytest.CaptureFixture[str]) -> None:
    """What a web server says, read as Dask's framing, asks for exabytes (MemoryError)."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]

        def answer() -> None:
            connection, _ = server.accept()
            with connection:
                connection.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
                connection.recv(1024)

        thread = threading.Thread(target=answer, daemon=True)
        thread.start()
        assert _one_game_on(f"tcp://127.0.0.1:{port}") == 2
        thread.join(5)
    err = capsys.readouterr().err
    assert err.startswith(f"micropul-print analyse: error: --scheduler "
                          f"'tcp://127.0.0.1:{port}': no Dask scheduler answers there (")
    assert "Traceback" not in err and "internal error" not in err


def test_a_huge_address_is_quoted_cut_as_every_message_quotes_a_value(
        capsys: pytest.CaptureFixture[str]) -> None:
    """A 5,000-character --scheduler was quoted whole, twice, in a 10,000-character line."""
    address = "tcp://" + "a" * 5000
    assert _one_game_on(address) == 2
    err = capsys.readouterr().err
    reason = "missing port number in address '" + "a" * 5000
    assert err == ("micropul-print analyse: error: --scheduler 'tcp://" + "a" * 54 + "…' "
                   "(5006 characters): no Dask scheduler answers there ("
                   + reason[:199] + "…)\n")


def test_a_normal_run_cancels_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every batch played: nothing to cancel. Cancelling the finished batches wrote a
    "Client ... requests to cancel" line into the scheduler's log on every run."""
    cancelled: list[object] = []
    real = distributed.Client.cancel

    def cancel(self: object, futures: object, *args: object, **kwargs: object) -> object:
        cancelled.append(futures)
        return real(self, futures, *args, **kwargs)

    monkeypatch.setattr(distributed.Client, "cancel", cancel)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster:
        assert main(["analyse", "--game", "cellulae", "--variants", "5", "--games", "2",
                     "--bots", "random", "--scheduler", cluster.scheduler_address,
                     "--json", str(tmp_path / "run.json")]) == 0
    assert cancelled == []


def test_workers_lost_are_counted_with_the_batches_played_again() -> None:
    from micropul_print.lab.analyse import Batch, Part, Plan

    the_plan = Plan("cellulae", (Part("5", ("random", "random")),), 4, 0,
                    (Batch(0, (0, 1)), Batch(0, (2, 3))))
    keys = {"run_batch-a": 0, "run_batch-b": 1}
    events = [(1.0, {"action": "remove-worker", "processing-tasks": {"run_batch-a"}}),
              (5.0, {"action": "add-worker"}),
              (6.0, {"action": "remove-worker", "processing-tasks": {"other"},
                     "lost-computed-tasks": {"run_batch-b"}}),
              (7.0, {"action": "remove-worker", "processing-tasks": set()})]
    assert runner.worker_losses(events, 0.0, keys) == (3, [0, 1])
    assert runner.worker_losses(events, 2.0, keys) == (2, [1])  # before the run: not ours
    assert runner._losses_told(the_plan, 2, [1]) == (
        "2 Dask workers lost or restarted during the run; 1 batch (2 games) played again "
        "elsewhere, the same games from the same seeds: 5, random v random")
    assert runner._losses_told(the_plan, 1, []) == (
        "1 Dask worker lost or restarted during the run; no batch had to be played again")


def test_a_worker_killed_mid_run_is_reported_and_changes_no_figure(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A worker process killed once the first batch is in: its nanny starts another,
    the scheduler plays its batches again, the run says so, and the report is the one
    --jobs 1 writes."""
    import os
    import signal

    args = ["analyse", "--game", "cellulae", "--variants", "5", "--games", "120", "--bots",
            "random,greedy"]
    assert main([*args, "--jobs", "1", "--json", str(tmp_path / "local.json")]) == 0
    capsys.readouterr()
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        client = distributed.Client(cluster, set_as_default=False)
        pids = list(client.run(os.getpid).values())
        client.close()
        callback = analyse_command._Progress.callback

        def killing(progress: analyse_command._Progress, number: int) -> Callable[..., None]:
            done = callback(progress, number)

            def first_then_kill(batch: object, games: list[object]) -> None:
                done(batch, games)
                if len(pids) == 2:  # one of the two, once
                    os.kill(pids.pop(), signal.SIGKILL)
            return first_then_kill

        monkeypatch.setattr(analyse_command._Progress, "callback", killing)
        assert main([*args, "--scheduler", cluster.scheduler_address, "--json",
                     str(tmp_path / "cluster.json")]) == 0
    err = capsys.readouterr().err
    assert "analyse: 1 Dask worker lost or restarted during the run; " in err
    assert (tmp_path / "cluster.json").read_bytes() == (tmp_path / "local.json").read_bytes()
