"""What every forked worker process of the tool does first (the build's jobs, the lab's
games): the one place that decides how workers meet signals."""

from __future__ import annotations

import contextlib
import os
import signal
import sys


def init_worker() -> None:
    """In each forked worker: leave Ctrl-C to the parent (which stops every worker), let
    SIGTERM (how the parent stops a pool) end the worker quietly instead of running the
    handler it inherited from the command line, and die with the parent even if it is
    killed outright (Linux: PR_SET_PDEATHSIG)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            pr_set_pdeathsig = 1
            libc.prctl(pr_set_pdeathsig, signal.SIGTERM)
    if os.getppid() == 1:  # the parent died before the line above took effect
        os._exit(1)
