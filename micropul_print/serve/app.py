"""serve's application: the kit watcher, the lab and the server put together, and the
one loop that runs until Ctrl-C.

The kit is built into a temporary folder (``micropul-print-serve-*`` in the system's
temporary folder) that serve owns and removes when it stops: the user's output folder
is never touched, and two serves of the same variant never share files.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sys
import tempfile
import threading
import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, TextIO

from micropul_print.serve import pdfpages, view
from micropul_print.serve.kitwatch import Children, KitWatcher
from micropul_print.serve.lab import Lab

# The kit parts the page shows (no PNG: the page draws each tile from its SVG).
PARTS = "svg,sheets,rulebooks"
ASSETS = ("serve.js", "serve.css", "icon.svg")
MAX_PROBLEMS = 200  # shown on the page; the terminal has them all


@dataclass(frozen=True)
class ServeOptions:
    catalogue: str | None = None
    game: str | None = None
    port: int = 8800
    open_browser: bool = False
    cwd: Path = Path(".")


def configured_catalogue(cwd: Path) -> Path | None:
    """The catalogue ``[build]`` of the working folder's micropul-print.toml names, if
    it can be read (its problems are the build's to report)."""
    config = cwd / "micropul-print.toml"
    try:
        with config.open("rb") as handle:
            table = tomllib.loads(handle.read(1024 * 1024).decode("utf-8")).get("build")
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError):
        return None
    value = table.get("catalogue") if isinstance(table, dict) else None
    if not isinstance(value, str) or not value or "\0" in value:
        return None
    return config.parent / value


class ServeApp:
    """Answers the server (server.App) from the kit folder and the watcher's status."""

    def __init__(self, options: ServeOptions, folder: Path, echo: TextIO) -> None:
        from micropul_print.catalogue.loader import shipped_catalogue

        self.stopping = False
        self.kit = folder / "kit"
        self._children = Children()
        self._change = threading.Condition()
        self._echo = echo
        given = Path(options.catalogue) if options.catalogue else None
        self.catalogue = (given or configured_catalogue(options.cwd)
                          or shipped_catalogue(options.game))
        words = [*([options.catalogue] if options.catalogue else []),
                 *(["--game", options.game] if options.game else [])]
        self.watcher = KitWatcher(self.kit, [*words, "--only", PARTS], words, self._children,
                                  self._changed, self._say)
        self.lab = Lab(options.cwd, folder / "lab", self.catalogue, self._set_name(),
                       self._children)
        self._state_key: tuple[int, int] | None = None
        self._state = b""
        self._state_lock = threading.Lock()

    def _set_name(self) -> str:
        name, _game, _entries = view.catalogue_entries(self.catalogue)
        return name

    def _say(self, line: str) -> None:
        if not self.stopping:
            print(line, file=self._echo, flush=True)

    def _changed(self) -> None:
        with self._change:
            self._change.notify_all()

    # -- what the server asks --------------------------------------------------------

    def wait_change(self, seen: int, timeout: float) -> int:
        with self._change:
            self._change.wait_for(lambda: self.stopping or self._version() != seen, timeout)
            return self._version()

    def _version(self) -> int:
        return self.watcher.status.version

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
            with self.watcher.lock:
                status = self.watcher.status
                version = status.version
                problems = [*status.build_problems, *status.check_problems][:MAX_PROBLEMS]
                facts = list(status.check_lines)
                situation = {"building": status.building, "built": status.built,
                             "stopped": status.stopped, "last": status.last_rebuild}
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
                "facts": facts, "tiles": view.tiles_view(files, entries), **groups, "lab": lab}
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

    def stop(self) -> None:
        self.stopping = True
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
        app.watcher.start()
        print(f"serving {url} (loopback only; Ctrl-C to stop)", flush=True)
        if options.open_browser:
            import webbrowser

            threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()
        assert app.watcher.child is not None
        code = app.watcher.child.wait()
        if app.stopping:
            return code
        app.watcher.ended(code)
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
