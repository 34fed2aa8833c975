"""The server's security rules (docs/serve.md), each driven against the running server:
loopback only, Host header, GET/HEAD only, files of the served kit only, escaped texts,
a port in use, and Ctrl-C."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import time
from pathlib import Path

import pytest

from .running import (
    SET_NAME,
    Served,
    start_serve,
    stop_serve,
    variant_catalogue,
)


def _tile(served: Served) -> str:
    """The address of tile 1's picture, as the page has it."""
    path = str(served.state()["tiles"][0]["path"])
    assert path.endswith("tiles/svg/tile-01.svg")
    return f"/kit/{path}"


def test_the_page_and_a_tile_are_served_to_a_loopback_host(served: Served) -> None:
    for host in (f"127.0.0.1:{served.port}", f"localhost:{served.port}",
                 f"[::1]:{served.port}", f"LOCALHOST:{served.port}"):
        status, headers, body = served.request("/", host=host)
        assert status == 200, host
        assert headers["content-type"] == "text/html; charset=utf-8"
    status, headers, body = served.request(_tile(served))
    assert (status, headers["content-type"]) == (200, "image/svg+xml")
    assert body.startswith(b"<?xml") or body.startswith(b"<svg")


@pytest.mark.parametrize("host", ["evil.example:{port}", "evil.example", "127.0.0.1",
                                  "127.0.0.1:{other}", "localhost.evil.example:{port}",
                                  "127.0.0.2:{port}", "0.0.0.0:{port}", None])
def test_a_host_header_other_than_the_loopback_is_refused(served: Served,
                                                          host: str | None) -> None:
    """DNS rebinding: a page of evil.example whose name now points at 127.0.0.1 sends
    Host: evil.example; it must get nothing."""
    named = "" if host is None else host.format(port=served.port, other=served.port + 1)
    for path in ("/", "/state", _tile(served), "/events"):
        status, _headers, body = served.request(path, host=named)
        assert status == 403, (named, path)
        assert b"loopback" in body


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE",
                                    "CONNECT", "PROPFIND", "BREW"])
def test_methods_other_than_get_and_head_are_not_allowed(served: Served, method: str) -> None:
    status, headers, _body = served.request("/", method=method)
    assert status == 405
    assert headers["allow"] == "GET, HEAD"


def test_head_answers_headers_only(served: Served) -> None:
    status, headers, body = served.request(_tile(served), method="HEAD")
    assert (status, body) == (200, b"")
    assert int(headers["content-length"]) > 0


@pytest.mark.parametrize("path", [
    "/kit/../variant.yaml", "/kit/../../etc/passwd", "/kit/tiles/../../variant.yaml",
    "/kit/%2e%2e/variant.yaml", "/kit/%2E%2E/%2e%2e/etc/passwd", "/kit/tiles/%2e%2e/%2e%2e/x",
    "/kit/..%2fvariant.yaml", "/kit/%2fetc%2fpasswd", "/kit//etc/passwd", "/kit/",
    "/kit/tiles/svg/", "/kit/./tiles/svg/tile-01.svg", "/kit/..\\variant.yaml",
    "/kit/%00", "/pdf/../variant.yaml?page=0", "/pdf/%2e%2e/x.pdf?page=0",
])
def test_a_path_that_could_leave_the_kit_is_refused(served: Served, path: str) -> None:
    status, _headers, body = served.request(path)
    assert status == 400
    assert b"SET_NAME" not in body and b"root:" not in body


@pytest.mark.parametrize("path", [
    "/kit/pieces/tiles", "/kit/pieces/tiles/svg", "/kit/pieces/sheets", "/kit/pieces",
    "/kit/pieces/.micropul-print-manifest.json", "/kit/pieces/tiles/svg/tile-01.svg/x",
    "/kit/etc/passwd", "/kit/%252e%252e/variant.yaml", "/report/../../variant.yaml",
    "/report/-1", "/report/99", "/replay/0/../../variant.yaml", "/replay/99.json",
    "/assets/../variant.yaml", "/assets/serve.py", "/variant.yaml", "/etc/passwd",
    "/pdf/pieces/tiles/svg/tile-01.svg?page=0", "/pdf/pieces/sheets?page=0",
])
def test_no_folder_listing_and_nothing_outside_the_kit(served: Served, path: str) -> None:
    status, _headers, body = served.request(path)
    assert status == 404, path
    assert b"tile-01" not in body and b"root:" not in body


def test_a_symbolic_link_in_the_kit_pointing_out_is_not_followed(served: Served) -> None:
    secret = served.folder / "secret.txt"
    secret.write_text("not for the browser", encoding="utf-8")
    kit = served.kit() / "pieces"
    link, folder_link = kit / "tiles" / "secret.svg", kit / "outside"
    link.symlink_to(secret)
    folder_link.symlink_to(served.folder, target_is_directory=True)
    try:
        for path in ("/kit/pieces/tiles/secret.svg", "/kit/pieces/outside/secret.txt",
                     "/kit/pieces/outside/variant.yaml",
                     "/pdf/pieces/outside/secret.txt?page=0"):
            status, _headers, body = served.request(path)
            assert status == 404, path
            assert b"not for the browser" not in body
    finally:
        link.unlink()
        folder_link.unlink()


def test_texts_from_the_inputs_are_escaped_in_the_page(served: Served) -> None:
    _status, headers, body = served.request("/")
    page = body.decode("utf-8")
    assert "<img src=x" not in page
    assert "&lt;img src=x onerror=&quot;window.pwned=1&quot;&gt;Variant &amp; &quot;co&quot;" \
        in page
    # Nothing but the page's own script and style runs.
    policy = headers["content-security-policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    assert headers["x-content-type-options"] == "nosniff"
    state = served.state()
    assert state["set"] == SET_NAME  # JSON, read by the script and set as text


def test_the_server_listens_on_the_loopback_only(served: Served) -> None:
    addresses: set[str] = set()
    with contextlib.suppress(OSError):
        addresses = {str(info[4][0]) for info in socket.getaddrinfo(socket.gethostname(), None,
                                                               socket.AF_INET)}
    outside = sorted(a for a in addresses if not a.startswith("127."))
    if not outside:
        probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            probe.connect(("192.0.2.1", 9))  # no packet is sent: finds the route's address
            outside = [probe.getsockname()[0]]
        except OSError:
            pytest.skip("this machine has no address but the loopback")
        finally:
            probe.close()
    for address in outside:
        with pytest.raises(OSError):
            socket.create_connection((address, served.port), timeout=5).close()


def test_a_port_in_use_is_a_usage_error_naming_it(served: Served, tmp_path: Path) -> None:
    import subprocess
    import sys

    result = subprocess.run([sys.executable, "-m", "micropul_print", "serve", "--port",
                             str(served.port)], cwd=tmp_path, capture_output=True, text=True,
                            timeout=120, env=dict(os.environ, TMPDIR=str(tmp_path)))
    assert result.returncode == 2
    assert result.stderr.splitlines()[-1] == (
        f"micropul-print serve: error: argument --port: port {served.port} on 127.0.0.1 is "
        "in use (another server, or a serve still running): choose another with --port N, "
        "or --port 0 for any free port")
    assert "Traceback" not in result.stderr
    assert list(tmp_path.glob("micropul-print-serve-*")) == []  # its temporary folder went


def test_ctrl_c_stops_serve_with_130_and_no_process_left(tmp_path: Path) -> None:
    folder = tmp_path / "variant"
    folder.mkdir()
    catalogue = variant_catalogue(folder)
    running = start_serve(folder, catalogue.name)
    deadline = time.monotonic() + 60
    while not running.children():
        assert time.monotonic() < deadline, "serve started no build watcher"
        time.sleep(0.1)
    children = running.children()
    time.sleep(1.0)  # the watcher under way
    code, err = stop_serve(running)
    assert code == 130
    assert "Traceback" not in err
    assert err.splitlines()[-1] == "micropul-print: interrupted"
    for pid in children:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
    assert list(running.temp.glob("micropul-print-serve-*")) == []


def test_sigterm_stops_serve_with_143_and_no_process_left(tmp_path: Path) -> None:
    folder = tmp_path / "variant"
    folder.mkdir()
    running = start_serve(folder)
    deadline = time.monotonic() + 60
    while not running.children():
        assert time.monotonic() < deadline, "serve started no build watcher"
        time.sleep(0.1)
    children = running.children()
    running.process.send_signal(signal.SIGTERM)
    _out, err = running.process.communicate(timeout=60)
    assert running.process.returncode == 143
    assert "Traceback" not in err
    for pid in children:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
