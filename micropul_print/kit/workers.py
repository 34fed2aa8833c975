"""What every forked worker process of the tool does first (the build's jobs, the lab's
games): the one place that decides how workers meet signals."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time
from collections.abc import Iterator
from typing import Any

# glibc's malloc_trim, found by each worker (init_worker); None elsewhere.
_MALLOC_TRIM: Any = None

# Set in a worker once its SIGTERM handler has run (_end_worker).
_ENDING = False

# How long a worker's watchdog lets a SIGTERM's handler run before it delivers the
# signal again (_watch_for_sigterm).
_RETRY_SECONDS = 0.2
# How long a worker may take to end once its SIGTERM's handler has run: unwinding takes
# milliseconds; what outlasts this is stuck in an exit step (multiprocessing's
# finalizers join threads) and is ended outright (_watch_for_sigterm).
ENDING_GRACE_SECONDS = 2.0


class _WorkerEnding(SystemExit):
    """The SystemExit a SIGTERM raises in a worker (_end_worker). Its status is always
    143, whatever it is made with: reportlab re-raises an exception from inside a
    paragraph or a flowable as a new one of the same class, its message annotated
    (``annotateException``), and a SystemExit whose code is a text ends the process
    with status 1 after printing that text (reportlab's "raised by class ... wrap").
    """

    def __init__(self, *_annotations: object) -> None:
        super().__init__(128 + signal.SIGTERM)


def _end_worker(_signum: int, _frame: Any) -> None:
    """SIGTERM in a worker: unwind, then end quietly with status 143. Unwinding releases
    the locks of the pool's queues: an idle worker waits for its next task holding the
    task queue's read lock, and one killed outright there (SIGTERM sent to the whole
    process group: ``kill -TERM -PGID``, a service manager) left it held for ever, so
    that the parent's Pool.terminate, which takes that lock, never returned. A second
    SIGTERM meanwhile (the parent stopping the pool) ends the worker outright."""
    global _ENDING
    _ENDING = True
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    raise _WorkerEnding


def _ending_lost(unraisable: Any) -> None:
    """sys.unraisablehook in a worker. Python runs a signal handler wherever the worker
    is, and a handler that runs inside a callback whose exceptions Python only reports
    (a weak reference's, as the import system uses while init_worker imports ctypes; a
    __del__) loses its exception: the worker went on to wait for a task, with the parent
    holding the queue's lock, and the parent waited for it for ever (a CI hang). A
    SIGTERM whose unwinding was lost so ends the worker at once, and silently."""
    if isinstance(unraisable.exc_value, _WorkerEnding):
        os._exit(128 + signal.SIGTERM)
    sys.__unraisablehook__(unraisable)


def _watch_for_sigterm(wakeups: int, main_thread: int) -> None:
    """A worker's watchdog thread. Python runs a handler only between two steps of the
    main thread: a SIGTERM that arrives after the last such step and before the worker
    blocks (waiting for the queue's lock or for a task) leaves the handler pending for
    ever, and the parent, in Pool.terminate, waits for the worker for ever (a CI hang).
    The C-level handler writes each signal's number to ``wakeups`` (set_wakeup_fd)
    whether or not Python's runs; until _end_worker has run, the watchdog delivers
    SIGTERM to the main thread again, which interrupts the wait."""
    while True:
        try:
            got = os.read(wakeups, 64)
        except OSError:
            return
        if not got:
            return
        if signal.SIGTERM not in got:
            continue
        while not _ENDING:
            time.sleep(_RETRY_SECONDS)
            if not _ENDING:
                signal.pthread_kill(main_thread, signal.SIGTERM)
        # The handler ran: the worker unwinds, releasing the pool's locks, then goes
        # through multiprocessing's exit steps, which can wait for ever (a queue's
        # feeder thread joined while it waits for a pipe no one reads, or in a
        # condition a signal interrupted): the parent then waited for it for ever.
        time.sleep(ENDING_GRACE_SECONDS)
        os._exit(128 + signal.SIGTERM)


def _start_watchdog() -> None:
    """Route the C-level handler's wake-ups to a watchdog thread (_watch_for_sigterm).
    The fd inherited from the parent, if any, is the parent's: a worker must not write
    its signals there."""
    import threading  # only in a forked worker: the tile unit imports no threading

    wakeups, wakeup_writer = os.pipe()
    os.set_blocking(wakeup_writer, False)
    signal.set_wakeup_fd(wakeup_writer, warn_on_full_buffer=False)
    threading.Thread(target=_watch_for_sigterm, args=(wakeups, threading.get_ident()),
                     name="sigterm-watchdog", daemon=True).start()


def init_worker() -> None:
    """In each forked worker: leave Ctrl-C to the parent (which stops every worker), let
    SIGTERM (how the parent stops a pool) end the worker quietly (_end_worker) instead
    of running the handler it inherited from the command line, and die with the parent
    even if it is killed outright (Linux: PR_SET_PDEATHSIG); find glibc's malloc_trim
    for give_back_memory. A worker forked while its pool is given up ends at once."""
    global _MALLOC_TRIM
    if _GIVEN_UP:  # forked while its pool is given up (give_up)
        os._exit(0)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    sys.unraisablehook = _ending_lost
    _start_watchdog()
    signal.signal(signal.SIGTERM, _end_worker)
    if hasattr(signal, "pthread_sigmask"):  # held while forking (forking_workers)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, set(HELD_WHILE_FORKING))
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            pr_set_pdeathsig = 1
            libc.prctl(pr_set_pdeathsig, signal.SIGTERM)
            _MALLOC_TRIM = libc.malloc_trim  # AttributeError: not glibc (musl)
    if os.getppid() == 1:  # the parent died before the line above took effect
        os._exit(1)


# The signals held while a pool forks its workers (forking_workers).
HELD_WHILE_FORKING = (signal.SIGINT, signal.SIGTERM)


@contextlib.contextmanager
def forking_workers() -> Iterator[None]:
    """Hold SIGTERM and SIGINT while a pool forks its workers. A SIGTERM reaching a
    worker before it has finished forking would be lost (CPython drops the signals its
    inherited handler caught then), and the worker would wait for work for ever while
    the parent waits for it to end. A Ctrl-C then was lost too: raised in the parent
    inside logging's at-fork hook, whose exceptions Python only prints, the build ran on
    and ended with status 0 (and a worker printed a KeyboardInterrupt traceback). Held,
    each signal waits in each worker until init_worker has settled it there (SIGINT
    ignored, SIGTERM fatal), and in the parent until the pool is made (the pool's own
    threads keep them held, so they reach the main thread)."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    held = signal.pthread_sigmask(signal.SIG_BLOCK, set(HELD_WHILE_FORKING))
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def give_back_memory() -> None:
    """In a worker, hand the memory a job freed back to the system (glibc keeps freed
    heap memory, such as a tile image's, for the process): the next job starts from a
    smaller footprint instead of adding its own peak to the last one's."""
    if _MALLOC_TRIM is not None:
        _MALLOC_TRIM(0)


# Set while a pool is given up (give_up): a worker the pool forks meanwhile, to replace
# one that ended, ends at once (init_worker) instead of waiting for a task holding the
# task queue's read lock, which Pool.terminate takes first.
_GIVEN_UP = False

# How long give_up waits for each worker it ended: its watchdog ends a stuck one within
# ENDING_GRACE_SECONDS.
_GIVING_UP_SECONDS = 5.0


def how_it_ended(exitcode: int) -> str:
    """How a process of this exit code ended, as a message says it ("was killed by
    signal SIGKILL", "ended with exit status 5")."""
    if exitcode < 0:
        try:
            return f"was killed by signal {signal.Signals(-exitcode).name}"
        except ValueError:
            return f"was killed by signal {-exitcode}"
    return f"ended with exit status {exitcode}"


def give_up(pool: Any) -> None:
    """End a multiprocessing pool one of whose workers ended before its work was done
    (killed, the system out of memory, os._exit). The pool starts another worker and
    waits for the lost task's result for ever, and Pool.terminate alone could hang too:
    it first takes the task queue's read lock, which an idle worker holds while it waits
    for a task, or which the lost worker held as it ended; and it puts a sentinel on the
    result queue, whose write lock the lost worker may have held as it sent a result.
    So: no new worker may start, every worker is ended with SIGTERM (_end_worker unwinds
    it, releasing the locks it holds) and waited for, the locks an ended worker held are
    freed, and then the pool is terminated."""
    global _GIVEN_UP
    _GIVEN_UP = True
    try:
        workers = [worker for worker in list(getattr(pool, "_pool", ()))
                   if worker.exitcode is None]
        for worker in workers:
            worker.terminate()
        for worker in workers:
            worker.join(_GIVING_UP_SECONDS)
        if all(worker.exitcode is not None for worker in workers):  # none left to free them
            for queue, name in (("_inqueue", "_rlock"), ("_outqueue", "_wlock")):
                _free(getattr(getattr(pool, queue, None), name, None))
        pool.terminate()
    finally:
        _GIVEN_UP = False


def _free(lock: Any) -> None:
    """Release ``lock`` (a multiprocessing Lock) if it is held: only by a process that
    ended, once every worker has (give_up)."""
    if lock is None:
        return
    if lock.acquire(False):
        lock.release()
    else:
        with contextlib.suppress(ValueError):
            lock.release()
