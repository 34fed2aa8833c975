"""The kit behind the page: ``build --watch`` run as a child process into a folder serve
owns, its output read line by line, and ``check`` run after each rebuild.

The watcher's lines are its documented output (watch.py): a problem is
``file:line:col: severity: message``, a usage problem ``micropul-print build: error: ...``,
a rebuild ends with ``... changed: rebuilt ...`` (or ``... changed: nothing to
rebuild`` when the inputs are those of the kit in place), and ``watching N files`` follows the
first build. The build commits its files only when every job succeeded
(outputs.Staging), so the kit folder always holds the last good kit: while the inputs
have errors the page shows them over it.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from micropul_print.watch import PARENT_ENV

# A diagnostic as errors.Diagnostic prints it; the location is optional.
_DIAGNOSTIC = re.compile(r"^(?P<file>.+?)(?::(?P<line>\d+):(?P<col>\d+))?: "
                         r"(?P<severity>error|warning|notice): (?P<message>.*)$")
# Lines of one failed rebuild come together; a problem line this long after the last
# one starts a new list (a rebuild takes the watcher's debounce, 0.3 s, at least).
_BURST_SECONDS = 0.25
# A child that does not end within this long after SIGINT is killed.
STOP_SECONDS = 5.0
CHECK_SECONDS = 120.0  # a check's run is bounded (--games 0 takes well under a second)


@dataclass(frozen=True)
class Problem:
    """One problem the page shows: where (``file:line:col``, or empty) and what."""

    where: str
    severity: str
    message: str
    source: str  # "build" or "check"


def parse_problem(line: str, source: str) -> Problem | None:
    """The problem a child's output line reports, if it reports one."""
    found = _DIAGNOSTIC.match(line)
    if found is not None:
        where = found["file"] + (f":{found['line']}:{found['col']}" if found["line"] else "")
        return Problem(where, found["severity"], found["message"], source)
    if ": error: " in line and line.startswith("micropul-print"):
        command, _sep, message = line.partition(": error: ")
        return Problem(command, "error", message, source)
    return None


class Children:
    """Every child process serve started and that may still run: all are ended when
    serve stops, so no process is left behind."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running: set[subprocess.Popen[bytes]] = set()
        self.stopping = False

    def start(self, command: Sequence[str], **kwargs: object) -> subprocess.Popen[bytes]:
        with self._lock:
            if self.stopping:
                raise ChildrenStopped
            child: subprocess.Popen[bytes] = subprocess.Popen(
                list(command), **kwargs)  # type: ignore[call-overload]
            self._running.add(child)
            return child

    def done(self, child: subprocess.Popen[bytes]) -> None:
        with self._lock:
            self._running.discard(child)

    def run(self, command: Sequence[str], *, timeout: float, cwd: Path | None = None,
            ) -> tuple[int, str, str]:
        """Run ``command`` to its end: its status, stdout and stderr (as text)."""
        child = self.start(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, cwd=cwd, env=child_environment())
        try:
            out, err = child.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            child.kill()
            out, err = child.communicate()
        finally:
            self.done(child)
        return (child.returncode, out.decode("utf-8", "replace"),
                err.decode("utf-8", "replace"))

    def stop_all(self) -> None:
        """SIGINT to each child (as Ctrl-C sends it), then SIGKILL to any still running
        after STOP_SECONDS."""
        with self._lock:
            self.stopping = True
            running = list(self._running)
        for child in running:
            if child.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    child.send_signal(signal.SIGINT)
        deadline = time.monotonic() + STOP_SECONDS
        for child in running:
            try:
                child.wait(max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()


class ChildrenStopped(Exception):
    """Serve is stopping: no new child process is started."""


def tool_command(*words: str) -> list[str]:
    """The command line running this tool's ``words`` in a child process."""
    return [sys.executable, "-m", "micropul_print", *words]


def child_environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONUNBUFFERED"] = "1"  # each line as it is printed
    env[PARENT_ENV] = str(os.getpid())  # a build --watch left alone by serve ends
    env.pop("MICROPUL_PRINT_TRACEBACK", None)
    return env


@dataclass
class KitStatus:
    """What the watcher said last: bumped ``version`` on every change the page shows."""

    version: int = 0
    built: bool = False  # a kit was built at least once
    building: bool = True  # the first build has not ended yet
    build_problems: list[Problem] = field(default_factory=list)
    check_problems: list[Problem] = field(default_factory=list)
    check_lines: list[str] = field(default_factory=list)
    stopped: str = ""  # why the watcher ended, if it did
    last_rebuild: str = ""


class KitWatcher:
    """``build --watch`` into ``kit`` with ``build_args``; ``changed`` is called (from
    the reader thread) after each change of :attr:`status`."""

    def __init__(self, kit: Path, build_args: Sequence[str],
                 check_args: Callable[[], Sequence[str]] | None,
                 children: Children, changed: Callable[[], None],
                 echo: Callable[[str], None], niceness: int = 0) -> None:
        self.kit = kit
        self._niceness = niceness
        self.status = KitStatus()
        self.lock = threading.Lock()
        self._build_args = list(build_args)
        self._check_args = check_args  # asked at each check: the configuration may change
        self._children = children
        self._changed = changed
        self._echo = echo
        self._last_problem = 0.0
        self._check_wanted = threading.Event()
        self.child: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = tool_command("build", *self._build_args, "--out", str(self.kit), "--watch",
                               "--quiet")
        self.child = self._children.start(command, stdin=subprocess.DEVNULL,
                                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                          env=child_environment())
        if self._niceness and hasattr(os, "setpriority"):
            # Before its first build: the workers it forks inherit it.
            with contextlib.suppress(OSError):
                os.setpriority(os.PRIO_PROCESS, self.child.pid, self._niceness)
        assert self.child.stdout is not None
        threading.Thread(target=self._read, args=(self.child.stdout,), daemon=True,
                         name="serve-watch").start()
        if self._check_args is not None:
            threading.Thread(target=self._checks, daemon=True, name="serve-check").start()

    def _read(self, stream: IO[bytes]) -> None:
        for raw in stream:
            if self._children.stopping:
                return
            self.line(raw.decode("utf-8", "replace").rstrip("\r\n"))

    def line(self, line: str) -> None:
        """Take one line of the watcher's output."""
        if not line:
            return
        self._echo(line)
        problem = parse_problem(line, "build")
        with self.lock:
            status = self.status
            if problem is not None or " changed: not rebuilt" in line:
                now = time.monotonic()
                if now - self._last_problem > _BURST_SECONDS:
                    status.build_problems = []
                self._last_problem = now
                status.build_problems.append(problem or Problem("", "notice", line, "build"))
            elif " changed: rebuilt " in line or line.endswith(" changed: nothing to rebuild"):
                # Nothing to rebuild: the inputs are back to those of the kit in place
                # (a failed rebuild commits nothing), so the kit is current again.
                status.build_problems = []
                status.built = True
                status.last_rebuild = line
            elif line.startswith("watching ") and status.building:
                status.building = False
                # The first build succeeded unless it said what went wrong.
                status.built = status.built or not status.build_problems
            else:
                return
            status.version += 1
        self._check_wanted.set()
        self._changed()

    def ended(self, code: int) -> None:
        """The watcher ended on its own (not by serve's stop)."""
        with self.lock:
            self.status.stopped = f"the build watcher ended with status {code}"
            self.status.building = False
            self.status.version += 1
        self._changed()

    def _checks(self) -> None:
        """``check`` after each change, one at a time, the last change's last."""
        assert self._check_args is not None
        while not self._children.stopping:
            self._check_wanted.wait()
            self._check_wanted.clear()
            try:
                code, out, err = self._children.run(
                    tool_command("check", *self._check_args(), "--games", "0"),
                    timeout=CHECK_SECONDS)
            except ChildrenStopped:
                return
            problems = [p for p in (parse_problem(line, "check")
                                    for line in err.splitlines()) if p is not None]
            with self.lock:
                if self._children.stopping:
                    return
                self.status.check_problems = problems
                self.status.check_lines = [line for line in out.splitlines() if line.strip()]
                if code not in (0, 1) and not problems:
                    self.status.check_problems = [Problem(
                        "", "error", f"check ended with status {code}", "check")]
                self.status.version += 1
            self._changed()
