"""The ``micropul-print`` command (console script and ``python -m micropul_print``).

Ctrl-C and SIGTERM are caught from the first line here, before the command line's
modules are imported: a signal during those imports (a second or more on a busy
machine) printed a KeyboardInterrupt traceback, or ended the process by the signal,
instead of saying it and ending with 130 or 143. Until micropul_print.base.interrupts is
loaded, a SIGTERM is caught through the C module ``_signal``, which imports nothing.
"""

from __future__ import annotations

import _signal  # type: ignore[import-not-found]
import sys


class _EarlySigterm(BaseException):
    """A SIGTERM before micropul_print.base.interrupts took over."""


def _early_sigterm(_signum: int, _frame: object) -> None:
    raise _EarlySigterm


def entry() -> int:
    try:
        _signal.signal(_signal.SIGTERM, _early_sigterm)
        from micropul_print.base import interrupts

        interrupts.install()  # cli.main installs them again, and restores these at its end
        from micropul_print import cli

        code = cli.entry()
    except BaseException as stop:
        interrupts_module = sys.modules.get("micropul_print.base.interrupts")
        terminated_class = getattr(interrupts_module, "Terminated", _EarlySigterm)
        if not isinstance(stop, KeyboardInterrupt | _EarlySigterm | terminated_class):
            raise
        terminated = not isinstance(stop, KeyboardInterrupt) or _sigterm_seen()
        print(f"micropul-print: {'stopped (SIGTERM)' if terminated else 'interrupted'}",
              file=sys.stderr)
        code = 143 if terminated else 130
    if code in (130, 143):
        _end_now(code)
    return code


def _end_now(code: int) -> None:
    """End a command a signal stopped with ``code``, now. Its workers and staged files
    are gone by then (each was undone on the way out), but the interpreter's own
    teardown may still end the process by SIGINT instead (status -2, not 130): CPython
    does so when it believes a KeyboardInterrupt went unhandled, and a Ctrl-C that
    came while a build was starting its workers was taken for one about one time in
    five. What is buffered is written first."""
    import contextlib
    import os

    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError, AttributeError):  # closed, gone
            stream.flush()
    os._exit(code)


def _sigterm_seen() -> bool:
    interrupts = sys.modules.get("micropul_print.base.interrupts")
    return bool(interrupts is not None and interrupts.terminated())
