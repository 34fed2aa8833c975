"""What every forked worker process of the tool does first (the build's jobs, the lab's
games): the one place that decides how workers meet signals."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from typing import Any

# glibc's malloc_trim, found by each worker (init_worker); None elsewhere.
_MALLOC_TRIM: Any = None


def init_worker() -> None:
    """In each forked worker: leave Ctrl-C to the parent (which stops every worker), let
    SIGTERM (how the parent stops a pool) end the worker quietly instead of running the
    handler it inherited from the command line, and die with the parent even if it is
    killed outright (Linux: PR_SET_PDEATHSIG); find glibc's malloc_trim for
    give_back_memory."""
    global _MALLOC_TRIM
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            pr_set_pdeathsig = 1
            libc.prctl(pr_set_pdeathsig, signal.SIGTERM)
            _MALLOC_TRIM = libc.malloc_trim  # AttributeError: not glibc (musl)
    if os.getppid() == 1:  # the parent died before the line above took effect
        os._exit(1)


def give_back_memory() -> None:
    """In a worker, hand the memory a job freed back to the system (glibc keeps freed
    heap memory, such as a tile image's, for the process): the next job starts from a
    smaller footprint instead of adding its own peak to the last one's."""
    if _MALLOC_TRIM is not None:
        _MALLOC_TRIM(0)
