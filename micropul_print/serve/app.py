"""serve's application: the kit watcher, the lab and the server put together, and the
one loop that runs until Ctrl-C.

The kit is built into a temporary folder (``micropul-print-serve-*`` in the system's
temporary folder) that serve owns and removes when it stops: the user's output folder
is never touched, and two serves of the same variant never share files.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, TextIO

from micropul_print.serve import pdfpages, view
from micropul_print.serve.kitwatch import Children, KitWatcher, Problem
from micropul_print.serve.lab import Lab

# The kit parts the page shows (no PNG: the page draws each tile from its SVG), in two
# watchers, each into its own folder of the kit: the pieces (tiles and sheets) are
# rebuilt in a fraction of the time the rulebooks take, and reach the page first; the
# rulebooks' watcher runs at a lower priority, so that it leaves them the CPUs.
WATCHERS = (("pieces", "svg,sheets", 0), ("books", "rulebooks", 10))
ASSETS = ("serve.js", "serve.css", "icon.svg")
MAX_PROBLEMS = 200  # shown on the page; the terminal has them all


@dataclass(frozen=True)
class ServeOptions:
    catalogue: str | None = None
    game: str | None = None
    port: int = 8800
    open_browser: bool = False
    cwd: Path = Path(".")


def configured(cwd: Path, key: str) -> str | None:
    """The value of ``key`` in ``[build]`` of the working folder's micropul-print.toml,
    if the file can be read (its problems are the build's to report)."""
    config = cwd / "micropul-print.toml"
    try:
        with config.open("rb") as handle:
            table = tomllib.loads(handle.read(1024 * 1024).decode("utf-8")).get("build")
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError):
        return None
    value = table.get(key) if isinstance(table, dict) else None
    if not isinstance(value, str) or not value or "\0" in value:
        return None
    return value


class Echo:
    """The watchers' lines on the terminal, a line said by both only once."""

    REPEAT_SECONDS = 5.0

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._said: dict[str, float] = {}
        self._lock = threading.Lock()
        self.quiet = False

    def __call__(self, line: str) -> None:
        now = time.monotonic()
        with self._lock:
            if self.quiet or now - self._said.get(line, -self.REPEAT_SECONDS) < \
                    self.REPEAT_SECONDS:
                return
            self._said = {k: t for k, t in self._said.items()
                          if now - t < self.REPEAT_SECONDS}
            self._said[line] = now
        print(line, file=self._stream, flush=True)


class ServeApp:
    """Answers the server (server.App) from the kit folder and the watcher's status."""

    def __init__(self, options: ServeOptions, folder: Path, echo: TextIO) -> None:
        self.stopping = False
        self.kit = folder / "kit"
        self._children = Children()
        self._change = threading.Condition()
        self._echo = Echo(echo)
        self._options = options
        words = [*([options.catalogue] if options.catalogue else []),
                 *(["--game", options.game] if options.game else [])]
        # One paper: the configured one, else A4 (as the default build makes).
        paper = [] if configured(options.cwd, "paper") else ["--paper", "a4"]
        self.watchers = [
            KitWatcher(self.kit / name, [*words, *paper, "--only", parts],
                       self._check_words if name == "pieces" else None, self._children,
                       self._changed, self._echo, niceness)
            for name, parts, niceness in WATCHERS]
        self.watcher = self.watchers[0]
        self.lab = Lab(options.cwd, folder / "lab", lambda: self.catalogue, self._set_name,
                       self._children)
        self._warm_wanted = threading.Event()
        threading.Thread(target=self._warm, daemon=True, name="serve-warm").start()
        self._state_key: tuple[int, int] | None = None
        self._state = b""
        self._state_lock = threading.Lock()

    @property
    def catalogue(self) -> Path:
        """The catalogue the kit is built from, read again from the configuration at
        each ask: build --watch follows an edit of its [build] catalogue, and so do the
        page's set, the check and the lab (they read it once, at start-up)."""
        from micropul_print.catalogue.loader import shipped_catalogue

        options = self._options
        if options.catalogue:
            return Path(options.catalogue)
        named = configured(options.cwd, "catalogue")
        return options.cwd / named if named else shipped_catalogue(options.game)

    def _check_words(self) -> list[str]:
        """check's arguments: the build's catalogue, not [check]'s, which may differ,
        named as the build names it (the configuration's path from its folder, the
        working one), so that a problem both report is one problem on the page."""
        options = self._options
        named = None if options.catalogue else configured(options.cwd, "catalogue")
        catalogue = str(Path(named)) if named else str(self.catalogue)
        return [catalogue, *(["--game", options.game] if options.game else [])]

    def _set_name(self) -> str:
        name, _game, _entries = view.catalogue_entries(self.catalogue)
        return name

    def _changed(self) -> None:
        with self._change:
            self._change.notify_all()
        self._warm_wanted.set()

    def _warm(self) -> None:
        """After each change, the page's state and the pictures of the sheets' and the
        first rulebook's pages drawn ahead, so that a page loading finds them ready."""
        while not self.stopping:
            self._warm_wanted.wait()
            self._warm_wanted.clear()
            if self.stopping:
                return
            try:
                self._draw_ahead()
            except Exception:  # a kit replaced while read: the next change draws again
                continue

    def _draw_ahead(self) -> None:
        state = json.loads(self.state())
        rules = state["rules"]
        books: list[dict[str, Any]] = rules.get("en") or next(iter(rules.values()), [])
        for item in [*state["sheets"], *state["boards"], *books]:
            for index in range(len(item["pages"])):
                if self.stopping or self._warm_wanted.is_set():
                    return
                self.pdf_page(item["path"], index)

    # -- what the server asks --------------------------------------------------------

    def wait_change(self, seen: int, timeout: float) -> int:
        with self._change:
            self._change.wait_for(lambda: self.stopping or self._version() != seen, timeout)
            return self._version()

    def _version(self) -> int:
        return sum(watcher.status.version for watcher in self.watchers)

    def _status(self) -> tuple[int, list[Problem], list[str], dict[str, Any]]:
        """The watchers' statuses as one: the version, the problems (each once), the
        check's findings, and how the build goes."""
        problems: list[Problem] = []
        situation: dict[str, Any] = {"building": False, "built": True, "stopped": "",
                                     "last": ""}
        version = 0
        for watcher in self.watchers:
            with watcher.lock:
                status = watcher.status
                version += status.version
                problems += status.build_problems
                situation["building"] |= status.building
                situation["stopped"] = situation["stopped"] or status.stopped
                if watcher is self.watcher:
                    situation["built"] = status.built
                    situation["last"] = status.last_rebuild
                    facts = list(status.check_lines)
                    checked = list(status.check_problems)
        # A problem of the catalogue is reported by the build and by check: listed once,
        # as the build said it.
        unique: dict[tuple[str, str, str], Problem] = {}
        for problem in [*problems, *checked]:
            unique.setdefault((problem.where, problem.severity, problem.message), problem)
        return (version, list(unique.values())[:MAX_PROBLEMS], facts, situation)

    def page(self) -> bytes:
        from micropul_print.serve.page import page_html

        name, game, _entries = view.catalogue_entries(self.catalogue)
        return page_html(name, game).encode("utf-8")

    def asset(self, name: str) -> bytes | None:
        if name not in ASSETS:
            return None
        return resources.files("micropul_print.serve").joinpath("static", name).read_bytes()

    def state(self) -> bytes:
        lab = self.lab.view()
        with self._state_lock:
            version, problems, facts, situation = self._status()
            key = (version, hash(json.dumps(lab)))
            if key == self._state_key:
                return self._state
            name, game, entries = view.catalogue_entries(self.catalogue)
            files = view.kit_files(self.kit)
            groups = view.pdf_groups(files)
            for kind in ("sheets", "boards"):
                for item in groups[kind]:
                    item["pages"] = self._pages(item)
            for items in groups["rules"].values():
                for item in items:
                    item["pages"] = self._pages(item)
            document: dict[str, Any] = {
                "version": version, "set": name, "game": game,
                "catalogue": str(self.catalogue), "status": situation,
                "problems": [{"where": p.where, "severity": p.severity,
                              "message": p.message, "source": p.source} for p in problems],
                "facts": facts, "tiles": view.tiles_view(files, entries, self.kit),
                **groups, "lab": lab}
            self._state = json.dumps(document, ensure_ascii=False).encode("utf-8")
            self._state_key = key
            return self._state

    def _pages(self, item: dict[str, Any]) -> list[dict[str, float]]:
        try:
            sizes = pdfpages.page_sizes(self.kit / item["path"], item["version"])
        except Exception:
            return []
        return [{"w": width, "h": height} for width, height in sizes]

    def _kit_path(self, relative: str) -> Path | None:
        """The kit's file at ``relative`` (already free of ``..``), if it is a regular
        file inside the kit reached through no symbolic link and no hidden folder."""
        path = self.kit / relative
        parts = Path(relative).parts
        if any(part.startswith(".") for part in parts):
            return None  # the build's staging folder and manifest
        step = self.kit
        for part in parts:
            step = step / part
            if step.is_symlink():
                return None
        try:
            inside = path.resolve(strict=True).is_relative_to(self.kit.resolve(strict=True))
        except OSError:
            return None
        return path if inside and path.is_file() else None

    def kit_file(self, relative: str) -> bytes | None:
        path = self._kit_path(relative)
        try:
            return None if path is None else path.read_bytes()
        except OSError:
            return None

    def pdf_page(self, relative: str, index: int) -> bytes | None:
        path = self._kit_path(relative)
        if path is None or path.suffix != ".pdf":
            return None
        try:
            version = hashlib.sha1(path.read_bytes()).hexdigest()[:12]
            return pdfpages.page_png(path, version, index)
        except Exception:
            return None

    def report(self, number: int) -> bytes | None:
        return self.lab.report_page(number)

    def replay(self, number: int) -> bytes | None:
        found = self.lab.replay(number)
        return None if found is None else json.dumps(found, ensure_ascii=False).encode()

    def replay_turn(self, number: int, turn: int) -> bytes | None:
        return self.lab.turn_picture(number, turn)

    # -- running ---------------------------------------------------------------------

    def wait_watchers(self) -> int:
        """Until a watcher ends on its own (its status), as a usage error in the
        configuration ends a build; Ctrl-C interrupts the wait."""
        while True:
            for watcher in self.watchers:
                assert watcher.child is not None
                code = watcher.child.poll()
                if code is not None:
                    watcher.ended(code)
                    return code
            assert self.watcher.child is not None
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.watcher.child.wait(0.5)

    def stop(self) -> None:
        self.stopping = True
        self._echo.quiet = True
        self._warm_wanted.set()
        with self._change:
            self._change.notify_all()
        try:
            self._children.stop_all()
        except KeyboardInterrupt:  # a second Ctrl-C: no waiting, but no child left
            self._children.stop_all()
            raise


def serve(options: ServeOptions, out: TextIO | None = None) -> int:
    """Serve the page until Ctrl-C (KeyboardInterrupt) or until the kit's watcher ends
    (its status is returned)."""
    from micropul_print.serve.server import start

    echo = out or sys.stderr
    folder = Path(tempfile.mkdtemp(prefix="micropul-print-serve-"))
    server = None
    app: ServeApp | None = None
    try:
        app = ServeApp(options, folder, echo)
        server, _thread = start(options.port, app)
        url = f"http://127.0.0.1:{server.port}/"
        for watcher in app.watchers:
            watcher.start()
        print(f"serving {url} (loopback only; Ctrl-C to stop)", flush=True)
        if options.open_browser:
            import webbrowser

            threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()
        code = app.wait_watchers()
        if app.stopping:
            return code
        print(f"micropul-print serve: the build watcher ended (status {code}): stopping",
              file=echo, flush=True)
        return code or 1
    finally:
        if app is not None:
            app.stop()
        if server is not None:
            server.shutdown()
            server.server_close()
        shutil.rmtree(folder, ignore_errors=True)
