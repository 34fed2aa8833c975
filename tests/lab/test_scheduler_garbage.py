"""``analyse --scheduler`` at an address whose listener passes Dask's handshake, then
sends garbage, hangs up or goes silent: one line, status 1, before any game; never a
MemoryError or pages of Dask's tracebacks. The listener is a tiny TCP server on
127.0.0.1 that passes the handshake by sending the client's own handshake back."""

from __future__ import annotations

import contextlib
import socket
import threading

import pytest

from micropul_print.cli import main
from micropul_print.lab import runner

pytest.importorskip("distributed")


def _serve(server: socket.socket, then: str) -> None:
    """Accept connections; echo each one's first burst (its handshake), then ``then``."""
    while True:
        try:
            connection, _ = server.accept()
        except OSError:
            return
        with connection:
            connection.settimeout(0.3)
            received = b""
            try:
                while True:
                    chunk = connection.recv(65536)
                    if not chunk:
                        break
                    received += chunk
            except TimeoutError:
                pass
            connection.sendall(received)  # the handshake, as if the scheduler's
            connection.settimeout(5)
            try:
                connection.recv(65536)  # the first question
            except OSError:
                continue
            if then == "garbage":
                connection.sendall(b"\xff" * 64)  # read as frame lengths: exabytes
            elif then == "echo":
                connection.sendall(received)
            elif then == "silent":
                with contextlib.suppress(OSError):
                    connection.recv(65536)
            # "hang up": the connection closes here


@pytest.mark.parametrize("then", ["garbage", "hang up", "echo", "silent"])
def test_a_listener_that_breaks_off_after_the_handshake_is_one_line_and_1(
        then: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(runner, "CONNECT_SECONDS", 2.0)
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        address = f"tcp://127.0.0.1:{server.getsockname()[1]}"
        threading.Thread(target=_serve, args=(server, then), daemon=True).start()
        status = main(["analyse", "--games", "1", "--bots", "random", "--players", "1",
                       "--scheduler", address])
    err = capsys.readouterr().err
    assert status == 1, err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"{address}: error: what answers at this --scheduler address "
                               "passed Dask's handshake, then failed to answer as a "
                               "scheduler ("), err
    assert lines[0].endswith("): is a Dask scheduler running there?")
    assert "Traceback" not in err and "MemoryError" not in err
