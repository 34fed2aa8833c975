"""Ctrl-C (SIGINT) and SIGTERM in the command's own process: remembered when they come,
so that one whose exception was lost still ends the command, and held back while the
kit is committed (outputs.Staging.commit), to be acted on just after.

Python raises a signal's exception wherever the main thread is. Raised inside a
callback whose exceptions Python only reports (an at-fork hook of ``logging`` while a
pool forks its workers, a weak reference's callback, a ``__del__``), it is printed as
"Exception ignored" and lost: the build ran on and ended with status 0 after a Ctrl-C.
The handlers here note the signal first; :func:`raise_if_lost` raises it again.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator
from types import FrameType
from typing import Any


class Terminated(BaseException):
    """SIGTERM arrived: unwinds like Ctrl-C, so that workers and staged files go."""


# The signals the command's handlers have seen since install(), in order.
_seen: list[int] = []


def _on_sigint(signum: int, _frame: FrameType | None) -> None:
    _seen.append(signum)
    raise KeyboardInterrupt


def _on_sigterm(signum: int, _frame: FrameType | None) -> None:
    _seen.append(signum)
    raise Terminated


def install() -> dict[int, Any]:
    """Give SIGINT and SIGTERM the command's handlers (and forget what was seen);
    returns the handlers they replace, for :func:`restore`."""
    _seen.clear()
    previous: dict[int, Any] = {signal.SIGINT: signal.signal(signal.SIGINT, _on_sigint),
                                signal.SIGTERM: signal.signal(signal.SIGTERM, _on_sigterm)}
    return previous


def restore(previous: dict[int, Any]) -> None:
    """Put back the handlers :func:`install` replaced; what was seen is forgotten (a
    build run later in this process, outside the command line, must not stop for it)."""
    _seen.clear()
    for signum, handler in previous.items():
        if handler is not None:
            signal.signal(signum, handler)


def seen() -> list[int]:
    """The signals the command's handlers have seen (SIGTERM after SIGINT wins)."""
    return list(_seen)


def ctrl_c_possible() -> bool:
    """Whether a KeyboardInterrupt raised now may be Ctrl-C's: not where SIGINT is
    ignored (a worker), nor under the command's handler when it has seen none (then
    the code that raised it did so of its own accord: a plugin's)."""
    handler = signal.getsignal(signal.SIGINT)
    if handler is signal.SIG_IGN:
        return False
    return handler is not _on_sigint or signal.SIGINT in _seen


def terminated() -> bool:
    return signal.SIGTERM in _seen


def raise_if_lost() -> None:
    """Raise the exception of a signal seen whose exception did not end the command:
    Terminated for a SIGTERM, KeyboardInterrupt for Ctrl-C."""
    if signal.SIGTERM in _seen:
        raise Terminated
    if signal.SIGINT in _seen:
        raise KeyboardInterrupt


@contextlib.contextmanager
def held() -> Iterator[None]:
    """Hold SIGINT and SIGTERM back for the block (a commit: short, and never to be
    left half done), then act on the first that came, as its handler would have.
    Outside the main thread (a library's caller) signals cannot be caught here, and
    the block runs as it is."""
    arrived: list[int] = []

    def note(signum: int, _frame: FrameType | None) -> None:
        arrived.append(signum)

    previous: dict[int, Any] | None
    try:
        previous = {signum: signal.signal(signum, note) for signum in (signal.SIGINT,
                                                                        signal.SIGTERM)}
    except ValueError:  # not the main thread: signal.signal refuses (no threading import)
        previous = None
    if previous is None:
        yield
        return
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler if handler is not None else signal.SIG_DFL)
    if arrived:
        signal.raise_signal(signal.SIGTERM if signal.SIGTERM in arrived else arrived[0])
