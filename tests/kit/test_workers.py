"""micropul_print.kit.workers: how forked workers meet signals."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# A parent that handles SIGTERM, as the command line does, and terminates each pool as
# soon as it is made: the SIGTERM reaches workers that are still forking.
_TERMINATE_AT_ONCE = textwrap.dedent("""
    import multiprocessing, signal, sys
    from micropul_print.kit.workers import forking_workers, init_worker

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
    ever, and so does the parent's terminate(): such a run hung once in CI. So did one
    whose SIGTERM came just before a worker blocked (the watchdog's case, below), about
    one pool in two thousand."""
    done = subprocess.run([sys.executable, "-c", _TERMINATE_AT_ONCE, "600"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert (done.returncode, done.stdout.strip(), done.stderr) == (0, "ended", "")


# A worker blocked on a lock, whose SIGTERM is caught while Python cannot run its
# handler: here the signal is sent to another of its threads, which Python never lets
# run handlers, as it cannot either when the signal lands just before the main thread
# blocks. Only the C-level handler runs; the main thread is not interrupted.
_SIGTERM_BESIDE_A_BLOCKED_WORKER = textwrap.dedent("""
    import multiprocessing, signal, threading, time
    from micropul_print.kit.workers import init_worker

    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})  # as a forked worker
    init_worker()
    lock = multiprocessing.get_context("fork").Lock()
    lock.acquire()

    def catch_it_here() -> None:
        time.sleep(0.1)
        signal.pthread_kill(threading.get_ident(), signal.SIGTERM)

    threading.Thread(target=catch_it_here).start()
    lock.acquire()
    print("never")
""")


def test_a_sigterm_whose_handler_could_not_run_still_ends_the_worker() -> None:
    """The worker's watchdog delivers the signal to the main thread again, which
    interrupts its wait: the worker unwinds and ends with status 143, silently."""
    done = subprocess.run([sys.executable, "-c", _SIGTERM_BESIDE_A_BLOCKED_WORKER],
                          cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert (done.returncode, done.stdout, done.stderr) == (143, "", "")


# A worker that a SIGTERM reaches inside reportlab's layout, which re-raises the
# worker's SystemExit as a new one with its message annotated (annotateException):
# Ctrl-C sent to a whole build's process group printed "raised by class Float(...) wrap
# ... 143" and "paragraph text '<para>...</para>' caused exception 143".
_SIGTERM_INSIDE_REPORTLAB = textwrap.dedent("""
    import multiprocessing, os, signal, time
    from reportlab.lib.utils import annotateException
    from micropul_print.kit.workers import forking_workers, init_worker

    def lay_out() -> None:
        init_worker()
        try:  # as reportlab's ParaParser.parse and _Container.wrap do
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(10)
        except BaseException:
            annotateException("\\nparagraph text '<para>x</para>' caused exception")
        print("never")

    with forking_workers():
        worker = multiprocessing.get_context("fork").Process(target=lay_out)
        worker.start()
    worker.join()
    print(worker.exitcode)
""")


def test_a_sigterm_inside_reportlab_ends_the_worker_silently_with_143() -> None:
    done = subprocess.run([sys.executable, "-c", _SIGTERM_INSIDE_REPORTLAB],
                          cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert (done.returncode, done.stdout.strip(), done.stderr) == (0, "143", "")


# A worker stuck in multiprocessing's exit steps after its SIGTERM: a finalizer that
# never returns, as a queue's feeder thread joined while it waits for a pipe that no
# one reads. The watchdog ends it ENDING_GRACE_SECONDS after the handler ran.
_STUCK_IN_AN_EXIT_STEP = textwrap.dedent("""
    import multiprocessing, os, signal, threading, time
    from multiprocessing.util import Finalize
    from micropul_print.kit.workers import forking_workers, init_worker

    class Stuck:
        pass

    def work() -> None:
        init_worker()
        stuck = Stuck()
        Finalize(stuck, threading.Event().wait, exitpriority=-5)
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(60)

    with forking_workers():
        worker = multiprocessing.get_context("fork").Process(target=work)
        worker.start()
    began = time.monotonic()
    worker.join(30)
    print(worker.exitcode, time.monotonic() - began < 20)
""")


def test_a_worker_stuck_in_an_exit_step_after_sigterm_still_ends() -> None:
    done = subprocess.run([sys.executable, "-c", _STUCK_IN_AN_EXIT_STEP],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout.strip(), done.stderr) == (0, "143 True", "")
