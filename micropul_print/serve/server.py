"""The HTTP side of serve: the standard library's ThreadingHTTPServer, since the page
needs a dozen lines of routing and no more (no upload, no session, no template).

Security model (docs/serve.md), each rule checked on every request:
- bound to 127.0.0.1 only, with no option to bind elsewhere;
- the Host header must name the loopback (127.0.0.1, localhost, [::1]) with the port
  served, else 403: a web page whose DNS name is turned to 127.0.0.1 (DNS rebinding)
  cannot read the kit;
- GET and HEAD only, every other method 405;
- files only from the served kit, and only those it lists (no path outside it: ``..``,
  encoded ``%2e%2e``, absolute paths, symbolic links; no folder listings); lab files by
  their number in a list, never by a path;
- the page's own script and style only (Content-Security-Policy), every text from the
  inputs set as text by the script, never as markup.
"""

from __future__ import annotations

import errno
import json
import os
import socket
import threading
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import PurePosixPath
from typing import Any, Protocol
from urllib.parse import parse_qs, unquote, urlsplit

from micropul_print.base.errors import UsageError

HOST = "127.0.0.1"
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
HEARTBEAT_SECONDS = 5.0  # an idle event stream sends a comment this often
MAX_URL = 4096

PAGE_POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; "
               "img-src 'self' data:; "
               "connect-src 'self'; base-uri 'none'; form-action 'none'; "
               "frame-ancestors 'none'")
# A lab report is a self-contained page (inline style, inline SVG charts, no script).
REPORT_POLICY = ("default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox; "
                 "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
FILE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox"

TYPES = {".svg": "image/svg+xml", ".png": "image/png", ".pdf": "application/pdf",
         ".json": "application/json", ".css": "text/css; charset=utf-8",
         ".js": "text/javascript; charset=utf-8", ".html": "text/html; charset=utf-8"}


class App(Protocol):
    """What the server asks of serve's application (app.py)."""

    stopping: bool

    def page(self) -> bytes: ...
    def asset(self, name: str) -> bytes | None: ...
    def state(self) -> bytes: ...
    def wait_change(self, seen: int, timeout: float) -> int: ...
    def kit_file(self, relative: str) -> bytes | None: ...
    def pdf_page(self, relative: str, index: int) -> bytes | None: ...
    def report(self, number: int) -> bytes | None: ...
    def replay(self, number: int) -> bytes | None: ...
    def replay_turn(self, number: int, turn: int) -> bytes | None: ...


def safe_relative(text: str) -> str | None:
    """``text`` (a URL's path after its prefix, still %-encoded) as a relative POSIX
    path inside a folder, or None if it could name anything outside one: an empty or
    ``.``/``..`` segment, an absolute path, a backslash, a NUL or a control character."""
    path = unquote(text, errors="strict") if "%" in text else text
    if not path or path.startswith("/") or "\\" in path or not path.isprintable():
        return None
    parts = path.split("/")
    if any(part in ("", ".", "..") for part in parts):
        return None
    if PurePosixPath(path).is_absolute() or ":" in parts[0]:
        return None
    return path


class LoopbackServer(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    allow_reuse_address = False  # set in server_bind, for POSIX only

    def __init__(self, port: int, app: App) -> None:
        self.app = app
        try:
            super().__init__((HOST, port), Handler)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise UsageError(f"argument --port: port {port} on {HOST} is in use (another "
                                 "server, or a serve still running): choose another with "
                                 "--port N, or --port 0 for any free port") from None
            if exc.errno == errno.EACCES:
                raise UsageError(f"argument --port: port {port} on {HOST} is not allowed "
                                 "to this user (ports below 1024 need the administrator): "
                                 "choose one from 1024 to 65535") from None
            raise

    @property
    def port(self) -> int:
        return int(self.server_address[1])

    def server_bind(self) -> None:
        # SO_REUSEADDR where it only lets a port be taken again while closed connections
        # linger (POSIX); on Windows it would let a second server take a port in use.
        if os.name == "posix":
            self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        # Not HTTPServer's bind, which looks up the host's name (slow without DNS).
        self.socket.bind(self.server_address)
        self.server_address = self.socket.getsockname()
        self.server_name, self.server_port = HOST, int(self.server_address[1])

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A browser that went away mid-answer is no error to print."""


class Handler(BaseHTTPRequestHandler):
    server: LoopbackServer
    protocol_version = "HTTP/1.1"  # keep-alive: 48 tiles over a few connections
    server_version = "micropul-print"
    sys_version = ""

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the terminal shows the kit's rebuilds, not every request."""

    def __getattr__(self, name: str) -> Callable[[], None]:
        # Every method but GET and HEAD (http.server looks up do_<METHOD>).
        if name.startswith("do_"):
            return self._not_allowed
        raise AttributeError(name)

    def _not_allowed(self) -> None:
        if self._host_allowed():
            self._send(HTTPStatus.METHOD_NOT_ALLOWED, b"only GET and HEAD\n", "text/plain",
                       extra={"Allow": "GET, HEAD"})

    def do_HEAD(self) -> None:
        self._route(body=False)

    def do_GET(self) -> None:
        self._route(body=True)

    def _host_allowed(self) -> bool:
        host = (self.headers.get("Host") or "").strip().lower()
        allowed = {f"{name}:{self.server.port}" for name in LOOPBACK_NAMES}
        if host in allowed:
            return True
        self._send(HTTPStatus.FORBIDDEN, b"this server answers only to its loopback address "
                   b"(Host: 127.0.0.1, localhost or [::1] with its port)\n", "text/plain")
        return False

    def _route(self, body: bool) -> None:
        self._body = body
        if not self._host_allowed():
            return
        if len(self.path) > MAX_URL:
            self._send(HTTPStatus.REQUEST_URI_TOO_LONG, b"URL too long\n", "text/plain")
            return
        url = urlsplit(self.path)
        path, query = url.path, parse_qs(url.query)
        app = self.server.app
        if path == "/":
            self._send(HTTPStatus.OK, app.page(), TYPES[".html"], policy=PAGE_POLICY)
        elif path == "/state":
            self._send(HTTPStatus.OK, app.state(), TYPES[".json"])
        elif path == "/events":
            self._events()
        elif path.startswith("/assets/"):
            self._found(app.asset(path[len("/assets/"):]), path)
        elif path.startswith(("/kit/", "/pdf/")):
            relative = self._relative(path[5:])
            if relative is None:
                return
            if path.startswith("/kit/"):
                self._found(app.kit_file(relative), relative, policy=FILE_POLICY)
            else:
                page = _number(query.get("page", ["0"])[0])
                found = app.pdf_page(relative, page) if page is not None else None
                self._found(found, ".png")
        elif path.startswith("/report/"):
            number = _number(path[len("/report/"):])
            self._found(None if number is None else app.report(number), ".html",
                        policy=REPORT_POLICY)
        elif path.startswith("/replay/"):
            self._replay(path[len("/replay/"):])
        else:
            self._send(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain")

    def _relative(self, text: str) -> str | None:
        try:
            relative = safe_relative(text)
        except UnicodeDecodeError:
            relative = None
        if relative is None:
            self._send(HTTPStatus.BAD_REQUEST, b"a path inside the kit, please\n", "text/plain")
        return relative

    def _replay(self, rest: str) -> None:
        app = self.server.app
        if rest.endswith(".json"):
            number = _number(rest[:-5])
            self._found(None if number is None else app.replay(number), ".json")
            return
        record, _slash, turn = rest.partition("/")
        number, index = _number(record), _number(turn.removesuffix(".svg"))
        found = None
        if number is not None and index is not None and turn.endswith(".svg"):
            found = app.replay_turn(number, index)
        self._found(found, ".svg", policy=FILE_POLICY)

    def _found(self, data: bytes | None, name: str, policy: str | None = None) -> None:
        if data is None:
            self._send(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain")
            return
        suffix = PurePosixPath(name).suffix.lower() or name
        self._send(HTTPStatus.OK, data, TYPES.get(suffix, "application/octet-stream"),
                   policy=policy)

    def _headers(self, status: HTTPStatus, kind: str, policy: str | None,
                 extra: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Cache-Control", "no-cache")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("Cross-Origin-Resource-Policy", "same-origin")
        self.send_header("X-Frame-Options", "DENY")
        self.send_header("Content-Security-Policy", policy or FILE_POLICY)
        for name, value in (extra or {}).items():
            self.send_header(name, value)

    def _send(self, status: HTTPStatus, data: bytes, kind: str, policy: str | None = None,
              extra: dict[str, str] | None = None) -> None:
        if "charset" not in kind and kind.startswith("text/plain"):
            kind += "; charset=utf-8"
        self._headers(status, kind, policy, extra)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if getattr(self, "_body", True) and self.command != "HEAD":
            try:
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                self.close_connection = True

    def _events(self) -> None:
        """Server-sent events: the kit's version each time it changes."""
        app = self.server.app
        self._headers(HTTPStatus.OK, "text/event-stream", None,
                      {"Connection": "close", "X-Accel-Buffering": "no"})
        self.end_headers()
        self.close_connection = True
        if not self._body:
            return
        seen = -1
        try:
            self.wfile.write(b"retry: 1000\n\n")
            while not app.stopping:
                version = app.wait_change(seen, HEARTBEAT_SECONDS)
                if app.stopping:
                    return
                if version == seen:
                    self.wfile.write(b": still here\n\n")
                else:
                    seen = version
                    self.wfile.write(f"data: {json.dumps({'version': version})}\n\n".encode())
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, OSError):
            return


def _number(text: str) -> int | None:
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 6 else None


def start(port: int, app: App) -> tuple[LoopbackServer, threading.Thread]:
    """Bind to the loopback ``port`` (0: any free one) and answer in a thread."""
    server = LoopbackServer(port, app)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.2},
                              daemon=True, name="serve-http")
    thread.start()
    return server, thread
