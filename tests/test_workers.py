"""micropul_print.workers: how forked workers meet signals."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# A parent that handles SIGTERM, as the command line does, and terminates each pool as
# soon as it is made: the SIGTERM reaches workers that are still forking.
_TERMINATE_AT_ONCE = textwrap.dedent("""
    import multiprocessing, signal, sys
    from micropul_print.workers import forking_workers, init_worker

    class Terminated(BaseException):
        pass

    def on_sigterm(*_):
        raise Terminated()

    signal.signal(signal.SIGTERM, on_sigterm)
    context = multiprocessing.get_context("fork")
    for _ in range(int(sys.argv[1])):
        with forking_workers():
            pool = context.Pool(2, initializer=init_worker)
        pool.terminate()
        pool.join()
    print("ended")
""")


def test_pools_terminated_while_their_workers_fork_end_quietly() -> None:
    """Without forking_workers, a worker that the SIGTERM reaches before it has finished
    forking runs the parent's handler (a traceback) or loses the signal and waits for
    ever, and so does the parent's terminate(): such a run hung once in CI."""
    done = subprocess.run([sys.executable, "-c", _TERMINATE_AT_ONCE, "200"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert (done.returncode, done.stdout.strip(), done.stderr) == (0, "ended", "")
