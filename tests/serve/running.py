"""A `micropul-print serve` running in a subprocess, for the tests that drive it: in a
variant folder of its own, on a free port, with its temporary folder (the served kit)
under a folder the test knows."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from micropul_print.catalogue.loader import shipped_catalogue

# The variant's set name holds markup: the page must show it as text.
SET_NAME = '<img src=x onerror="window.pwned=1">Variant & "co"'
FIRST_BUILD_SECONDS = 300.0  # a loaded 2-core box; not a speed check (see bench/serve.py)


@dataclass
class Served:
    process: subprocess.Popen[str]
    port: int
    folder: Path  # the variant folder, serve's working folder
    temp: Path  # serve's TMPDIR: its kit folder is made under it
    catalogue: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def request(self, path: str, method: str = "GET", host: str | None = None,
                ) -> tuple[int, dict[str, str], bytes]:
        """One request sent as written (no normalising of the path), its answer."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
            if host != "":
                connection.putheader("Host", host or f"127.0.0.1:{self.port}")
            connection.endheaders()
            answer = connection.getresponse()
            body = answer.read()
            return answer.status, {k.lower(): v for k, v in answer.getheaders()}, body
        finally:
            connection.close()

    def state(self) -> dict[str, Any]:
        status, _headers, body = self.request("/state")
        assert status == 200
        found: dict[str, Any] = json.loads(body)
        return found

    def kit(self) -> Path:
        (folder,) = self.temp.glob("micropul-print-serve-*")
        return folder / "kit"

    def children(self) -> list[int]:
        """The serve process's child processes (Linux: from /proc)."""
        found = []
        for task in Path(f"/proc/{self.process.pid}/task").glob("*"):
            try:
                found += [int(pid) for pid in (task / "children").read_text().split()]
            except OSError:
                continue
        return found


def variant_catalogue(folder: Path) -> Path:
    """The shipped Micropul catalogue under a set name of its own."""
    text = shipped_catalogue("micropul").read_text(encoding="utf-8")
    text = re.sub(r"(?m)^name: .*$", f"name: {json.dumps(SET_NAME)}", text, count=1)
    target = folder / "variant.yaml"
    target.write_text(text, encoding="utf-8")
    return target


def start_serve(folder: Path, *words: str) -> Served:
    temp = folder.parent / f"{folder.name}-tmp"
    temp.mkdir(exist_ok=True)
    env = dict(os.environ, TMPDIR=str(temp), PYTHONUNBUFFERED="1")
    env.pop("MICROPUL_PRINT_TRACEBACK", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "micropul_print", "serve", *words, "--port", "0"], cwd=folder,
        env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    assert process.stdout is not None
    line = process.stdout.readline()
    found = re.match(r"serving http://127\.0\.0\.1:(\d+)/ ", line)
    assert found, f"serve said {line!r}; stderr: {process.stderr.read() if process.stderr else ''}"
    catalogue = folder / words[0] if words and not words[0].startswith("-") else Path()
    return Served(process, int(found.group(1)), folder, temp, catalogue)


def wait_built(served: Served, timeout: float = FIRST_BUILD_SECONDS) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        state = served.state()
        if state["status"]["built"] and len(state["tiles"]) == 49:
            return state
        assert time.monotonic() < deadline, f"no kit after {timeout} s: {state['status']}"
        time.sleep(0.2)


def stop_serve(served: Served) -> tuple[int, str]:
    """Ctrl-C (SIGINT) to serve: its status and what it printed on stderr."""
    if served.process.poll() is None:
        served.process.send_signal(signal.SIGINT)
    try:
        _out, err = served.process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        served.process.kill()
        _out, err = served.process.communicate()
    return served.process.returncode, err
