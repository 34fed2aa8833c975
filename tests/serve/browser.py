"""Headless Chromium driven over the Chrome DevTools Protocol (a websocket), for the
tests of the served page: navigate, evaluate, wait for a condition, take a screenshot,
and collect every console error and uncaught exception.

Chromium is Debian's ``chromium`` package (.ci/run installs it; README says how to
install it locally). Under CI (CI=true) a missing Chromium fails the tests instead of
skipping them."""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
import websocket

NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
START_SECONDS = 30.0


def chromium_path() -> str:
    """Chromium's executable; skips the test when there is none, but fails under CI."""
    for name in NAMES:
        found = shutil.which(name)
        if found:
            return found
    message = ("headless Chromium is needed for the browser tests: apt-get install chromium "
               "(see README, 'Running the tests')")
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


class Browser:
    """One headless Chromium with one page."""

    def __init__(self, width: int = 1280, height: int = 1000) -> None:
        self.profile = Path(tempfile.mkdtemp(prefix="serve-test-chromium-"))
        arguments = [chromium_path(), "--headless=new", "--disable-gpu", "--no-first-run",
                     "--no-default-browser-check", "--disable-extensions",
                     "--disable-background-networking", "--disable-sync",
                     "--disable-dev-shm-usage",  # a container's /dev/shm is small
                     "--remote-debugging-port=0", f"--user-data-dir={self.profile}",
                     f"--window-size={width},{height}", "--hide-scrollbars", "about:blank"]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            arguments.insert(1, "--no-sandbox")  # Chromium refuses root with its sandbox
        self.process = subprocess.Popen(arguments, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.events: list[dict[str, Any]] = []
        self._next = 0
        try:
            self.socket = websocket.create_connection(self._page_socket(), timeout=60,
                                                      suppress_origin=True)
            for domain in ("Runtime", "Log", "Page"):
                self.call(f"{domain}.enable")
        except BaseException:
            self.close()
            raise

    def _page_socket(self) -> str:
        marker = self.profile / "DevToolsActivePort"
        deadline = time.monotonic() + START_SECONDS
        while not marker.is_file() or len(marker.read_text().splitlines()) < 2:
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise RuntimeError("Chromium did not start its DevTools endpoint")
            time.sleep(0.05)
        port = marker.read_text().splitlines()[0]
        while True:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list") as answer:
                pages = [t for t in json.load(answer) if t.get("type") == "page"]
            if pages:
                return str(pages[0]["webSocketDebuggerUrl"])
            if time.monotonic() > deadline:
                raise RuntimeError("Chromium has no page")
            time.sleep(0.05)

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        self._next += 1
        ident = self._next
        self.socket.send(json.dumps({"id": ident, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == ident:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                result: dict[str, Any] = message.get("result", {})
                return result
            if "method" in message:
                self.events.append(message)

    def navigate(self, url: str) -> None:
        self.call("Page.navigate", url=url)
        self.wait_for("document.readyState === 'complete'")

    def evaluate(self, expression: str) -> Any:
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True,
                           awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression: str, timeout: float = 30.0) -> float:
        """Wait until ``expression`` is true in the page; the seconds it took."""
        started = time.monotonic()
        while not self.evaluate(f"Boolean({expression})"):
            if time.monotonic() - started > timeout:
                raise TimeoutError(f"not true after {timeout} s: {expression}")
            time.sleep(0.05)
        return time.monotonic() - started

    def screenshot(self, path: Path, selector: str | None = None) -> None:
        """The viewport as PNG, scrolled to ``selector`` first if given."""
        if selector is not None:
            self.evaluate(f"document.querySelector({json.dumps(selector)}).scrollIntoView()")
            time.sleep(0.3)
        data = self.call("Page.captureScreenshot", format="png")["data"]
        path.write_bytes(base64.b64decode(data))

    def console_errors(self) -> list[str]:
        """Console errors, uncaught exceptions and failed loads the page reported."""
        self.call("Runtime.evaluate", expression="0")  # gather the events sent so far
        errors = []
        for event in self.events:
            method, params = event["method"], event.get("params", {})
            if method == "Runtime.exceptionThrown":
                errors.append(str(params.get("exceptionDetails", {}).get("text")))
            elif method == "Runtime.consoleAPICalled" and params.get("type") in (
                    "error", "assert"):
                errors.append(" ".join(str(a.get("value")) for a in params.get("args", [])))
            elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
                errors.append(str(params["entry"].get("text")))
        return errors

    def close(self) -> None:
        sock = getattr(self, "socket", None)
        if sock is not None:
            sock.close()
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)
