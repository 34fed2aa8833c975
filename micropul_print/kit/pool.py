"""The worker pool of a build: runs a build's jobs in forked worker processes (or in
this process), results and messages collected in the jobs' fixed order, so output and
summary never depend on which worker finished first; a :class:`BuildEvents` observer
is told as things happen (each job's start, messages and end, through a queue the
workers write to), for a live display.

The jobs are kitplan.KitJob; what each returns (kitplan.Written) comes back from its
worker pickled.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

from micropul_print.base.errors import Diagnostic, UserError
from micropul_print.game import registry
from micropul_print.kit.plan import TILE_FILES, KitJob, Progress, Written
from micropul_print.kit.workers import (
    ENDING_GRACE_SECONDS,
    forking_workers,
    give_back_memory,
    give_up,
    how_it_ended,
    init_worker,
)


class BuildEvents(Protocol):
    """Told how a build goes, as it happens (jobs are numbered in their fixed order)."""

    def planned(self, labels: Sequence[str]) -> None:
        """The jobs about to run, by the names of their progress lines."""

    def started(self, index: int) -> None: ...

    def said(self, index: int, message: str) -> None:
        """A job's message (one ending in "N/M" counts its steps)."""

    def finished(self, index: int, files: Sequence[Path], seconds: float) -> None: ...


# Jobs with less than this in all but the longest are run in this process.
PARALLEL_MIN_COST = 3


def workers_for(asked: int | None, costs: Sequence[int]) -> int:
    """Worker processes for jobs of these ``costs``: never more than jobs or CPUs, and
    none (1: run in this process) where processes cannot be forked or when, by default,
    everything but the longest job is too little to repay starting processes (the 48
    SVG files and a sheet take under a tenth of a second)."""
    if not costs or (asked is None and sum(costs) - max(costs) < PARALLEL_MIN_COST):
        return 1
    import multiprocessing  # only for a pool: its import is a twentieth of the tile unit

    if "fork" not in multiprocessing.get_all_start_methods():
        return 1
    if asked is None:
        cpus = (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
                else os.cpu_count())
        asked = cpus or 1
    return max(1, min(asked, len(costs)))


# The jobs of the build being run, for forked workers to find by index: a job holds
# closures over the catalogue and drawings, which fork copies but pickle cannot carry.
_PENDING: list[KitJob] = []

# What a job sends back: its paths, its progress messages, its problems (a worker
# cannot raise UserError across processes with its diagnostics intact), and its time.
_Outcome = tuple[Written, list[str], tuple[Diagnostic, ...], float]
# Where forked workers tell (job index, "started" or "said", message) as it happens, and
# the pool's result thread (job index, "done", "") when a job's result is back.
_EVENTS: Any = None
# Which pool worker runs each job of _PENDING (its pid, 0 once the job returned): shared
# memory the workers write as they start a job, for the parent to name the job a worker
# that ended took with it (_lost_worker).
_RUNNING: Any = None


def _init_kit_worker() -> None:
    """init_worker, and the events queue's feeder thread left unjoined at exit: a
    worker that SIGTERM stops while the parent no longer reads (it is stopping the
    pool) waited for ever to flush its news, and the parent for it (a build stopped by
    Ctrl-C to its process group hung about one time in ten). Its news is only live
    progress: every job's messages come back with its result."""
    init_worker()
    if _EVENTS is not None:
        _EVENTS.cancel_join_thread()


def _run_job(index: int, news: Any = None, news_as: int | None = None) -> _Outcome:
    """Run the job of _PENDING at ``index``, telling its news on ``news`` (by default,
    the events queue) under ``news_as`` (by default, its index)."""
    messages: list[str] = []
    queue = _EVENTS if news is None else news
    key = index if news_as is None else news_as

    def say(message: str) -> None:
        messages.append(message)
        if queue is not None:
            queue.put((key, "said", message))

    running = _RUNNING if news is None else None  # the early worker's jobs are not there
    if running is not None:
        running[index] = os.getpid()
    if queue is not None:
        queue.put((key, "started", ""))
    started = time.perf_counter()
    outcome: _Outcome
    try:
        outcome = _PENDING[index].run(say), messages, (), time.perf_counter() - started
    except UserError as exc:
        outcome = Written(), messages, exc.diagnostics, time.perf_counter() - started
    except Exception as exc:  # a bug: raised in the parent, which must know whose
        registry.blame(exc)
        if running is not None:
            running[index] = 0
        raise
    finally:
        give_back_memory()
    # Not in ``finally``: a job that ends its worker (SystemExit) stays the worker's.
    if running is not None:
        running[index] = 0
    return outcome


class NoEvents:
    def planned(self, labels: Sequence[str]) -> None:
        pass

    def started(self, index: int) -> None:
        pass

    def said(self, index: int, message: str) -> None:
        pass

    def finished(self, index: int, files: Sequence[Path], seconds: float) -> None:
        pass


# How long the parent waits for a worker's message before it looks at the results.
_POLL_SECONDS = 0.05


# The rest of a build's plan after its checks (run_jobs): every job, and the workers for
# them.
Then = Callable[[], tuple[Sequence[KitJob], int]]


def run_jobs(jobs: Sequence[KitJob], workers: int, say: Progress,
              events: BuildEvents | None = None, *, then: Then | None = None,
              name: Callable[[KitJob], str] | None = None) -> list[Written]:
    """Run every job, in worker processes when ``workers`` > 1; results in job order.
    ``say`` is told each job's messages as its turn comes, ``events`` as they happen;
    every problem of every job is raised together, as one UserError. Whatever ends the
    parent's wait (a problem, Ctrl-C, SIGTERM) terminates every worker before it goes
    on.

    ``then``: the build's checks and the rest of its plan, run in this process before
    anything is told of any job (a UserError from it stops the build); it returns every
    job of the build in order, ``jobs`` among them (the same objects), and the workers
    for them all, and the results are those of all its jobs. With ``workers`` > 1,
    ``jobs`` start meanwhile, in a worker of their own; the others start after it, in
    workers forked then, which find what it checked and loaded.

    A worker that ends before its job is done (killed, the system out of memory, a job
    calling os._exit) stops the build with a UserError naming that job (by ``name``:
    by default its label) and how the worker ended, every other worker ended."""
    told: BuildEvents = events or NoEvents()
    if then is not None and (workers <= 1 or not jobs):
        jobs, workers = then()
        then = None
    if workers <= 1:  # in this process: progress as it happens, the first problem stops
        serial: list[Written] = []
        for index, job in enumerate(jobs):
            told.started(index)
            started = time.perf_counter()

            def both(message: str, index: int = index) -> None:
                told.said(index, message)
                say(message)

            serial.append(job.run(both))
            told.finished(index, serial[-1].paths, time.perf_counter() - started)
        return serial
    return _run_in_workers(jobs, workers, say, told, then, name)


def _label(job: KitJob) -> str:
    return job.label or job.part


def _run_in_workers(jobs: Sequence[KitJob], workers: int, say: Progress,
                    told: BuildEvents, then: Then | None = None,
                    name: Callable[[KitJob], str] | None = None) -> list[Written]:
    import multiprocessing

    global _EVENTS, _RUNNING
    name = name or _label
    context = multiprocessing.get_context("fork")
    # What the parent made so far is never garbage the workers must look for: out of
    # their collector's way, its pages are not copied into each worker by a collection.
    gc.freeze()
    _EVENTS = context.Queue()  # before the fork: every worker inherits it
    early: list[KitJob] = []  # the jobs started before ``then``, by the early worker
    early_results: Any = None
    early_worker: Any = None
    pool: Any = None
    collected = False
    try:
        if then is not None:
            # The jobs planned before the checks start while this process checks (the
            # two would otherwise take turns on one CPU for the first half second of a
            # build), in a worker of their own that ends with them: the memory the tile
            # files took goes with it.
            early = [jobs[index] for index in _start_order(jobs)]
            _PENDING[:] = early
            early_results = context.SimpleQueue()
            with forking_workers():
                early_worker = context.Process(target=_run_early,
                                               args=(len(early), early_results), daemon=True)
                early_worker.start()
            jobs, workers = then()  # a problem here ends the early worker (finally)
            gc.freeze()  # what the checks made, too
        # Each early job's index among all, by its number in the early worker (which
        # tells its news under -1 - that number: _run_early).
        where = {id(job): index for index, job in enumerate(jobs)}
        early_index = [where[id(job)] for job in early]
        started_early = set(early_index)
        late = [index for index in _start_order(jobs) if index not in started_early]
        _PENDING[:] = jobs
        pending: dict[int, Any] = {}
        if late:
            _prepare_workers([jobs[index] for index in late])
            _RUNNING = context.RawArray("i", len(jobs))  # before the fork, as _EVENTS
            with forking_workers():
                pool = context.Pool(max(1, min(workers, len(late))),
                                    initializer=_init_kit_worker)
            events = _EVENTS

            def arrived(_outcome: object, index: int) -> None:
                # Run by the pool's result thread in this process when a job's result
                # (or its error) has come back: the wait below wakes at once, not at
                # its next poll (the last job's would otherwise add up to a poll to
                # every build).
                with contextlib.suppress(ValueError, OSError):  # the build is over
                    events.put((index, "done", ""))

            pending = {index: pool.apply_async(
                _run_job, (index,), callback=functools.partial(arrived, index=index),
                error_callback=functools.partial(arrived, index=index)) for index in late}
            pool.close()
        results = _collect(jobs, say, told, pending, late, early_worker, early_results,
                           early_index, pool, name)
        collected = True
        if pool is not None:
            pool.join()
        if early_worker is not None:
            _let_end(early_worker, early_results)
    finally:
        if early_worker is not None:  # no worker outlives the build, however it ends
            early_worker.terminate()
            early_worker.join()
        if pool is not None:
            if collected:
                pool.terminate()
            else:  # its workers may be busy, idle holding a lock, or one of them gone
                give_up(pool)
            pool.join()
        _PENDING.clear()
        _EVENTS.close()
        _EVENTS.cancel_join_thread()
        _EVENTS = None
        _RUNNING = None
        gc.unfreeze()  # a later build in this process (build --watch) collects them
    return results


def _let_end(worker: Any, channel: Any) -> None:
    """Wait a moment for the early worker, done with its jobs, to end by itself (what it
    may still send is read meanwhile); what is still running after that is terminated
    (finally)."""
    deadline = time.monotonic() + ENDING_GRACE_SECONDS
    while worker.is_alive() and time.monotonic() < deadline:
        worker.join(_POLL_SECONDS)
        while not channel.empty():
            channel.get()


def _start_order(jobs: Sequence[KitJob]) -> list[int]:
    """The indices of ``jobs`` in the order they start: the tile files first (a game's
    one job that cannot be split, and the one that needs the most memory: run by a
    fresh worker, not one grown by other jobs), then the longest first, so that no long
    job starts last."""
    return sorted(range(len(jobs)), key=lambda i: (jobs[i].part != TILE_FILES, -jobs[i].cost))


def _collect(jobs: Sequence[KitJob], say: Progress, told: BuildEvents,
             pending: dict[int, Any], late: Sequence[int], early_worker: Any,
             early_results: Any, early_index: Sequence[int], pool: Any,
             name: Callable[[KitJob], str]) -> list[Written]:
    """The parent's wait: each job's news told as it comes, its messages said and its
    result taken in job order; every problem of every job raised together. A worker
    that ended before its job was done stops the wait (_lost_worker, _early_news)."""
    import queue as queues

    assert _EVENTS is not None
    results: dict[int, Written] = {}
    problems: list[Diagnostic] = []
    outcomes: dict[int, _Outcome] = {}
    # The jobs told started. A worker's news goes through a queue a thread of its own
    # flushes, and may come after the job's result: a job done before its "started"
    # came is told started just before it is told finished.
    started: set[int] = set()
    next_index = 0  # the next job whose messages and result are taken, in job order
    # Every worker the pool ever ran: it drops one that ended (and starts another), and
    # says nothing of the job that worker took with it, whose result never comes.
    watched: set[Any] = set()
    while next_index < len(jobs):
        watched.update(getattr(pool, "_pool", ()))
        try:  # a worker's news first, as it comes
            index, kind, message = _EVENTS.get(timeout=_POLL_SECONDS)
            if index < 0:  # the early worker's wake-up: its news is on its own pipe
                index = early_index[-1 - index]
                if kind == "done":
                    continue
            if index in outcomes:  # news of a finished job comes too late
                continue
            if kind == "started":
                started.add(index)
                told.started(index)
            elif kind == "said":
                told.said(index, message)
            if kind != "done":
                continue
            if index in pending:
                pending[index].wait()  # the callback runs just before the result is set
        except queues.Empty:
            pass
        if early_worker is not None:
            _early_news(early_worker, early_results, told, early_index, outcomes,
                        lambda index: name(jobs[index]))
        lost = _lost_worker(watched, [i for i in late if not pending[i].ready()], jobs,
                            name)
        if lost is not None:
            raise lost
        for index in [i for i in late if i not in outcomes and pending[i].ready()]:
            outcomes[index] = pending[index].get()  # a bug in a job is raised here
            written, _messages, _diagnostics, seconds = outcomes[index]
            if index not in started:
                started.add(index)
                told.started(index)
            told.finished(index, written.paths, seconds)
        while next_index in outcomes:
            written, messages, diagnostics, _seconds = outcomes[next_index]
            for message in messages:
                say(message)
            problems.extend(diagnostics)
            results[next_index] = written
            next_index += 1
    if problems:
        raise UserError(dict.fromkeys(problems))  # a problem two jobs found, once
    return [results[index] for index in range(len(jobs))]


def _run_early(count: int, channel: Any) -> None:
    """The early worker (_run_in_workers): run the first ``count`` jobs of _PENDING in
    turn. Each job's news and then its outcome (a bug: its exception, with its
    traceback, as a pool's worker sends it) go on ``channel``, a pipe of its own whose
    every put is done when it returns, under -1 - the job's number; the events queue
    only wakes the parent. That queue's news is never waited for here (as in
    _init_kit_worker): a pool worker that ends while it sends there leaves the queue's
    lock taken, and a worker flushing its news would wait for it for ever."""
    # How a pool's worker sends a job's exception (typeshed does not list them).
    from multiprocessing.pool import (  # type: ignore[attr-defined]
        ExceptionWithTraceback,
        MaybeEncodingError,
    )

    _init_kit_worker()
    for number in range(count):
        key = -1 - number
        outcome: object
        failed = False
        try:
            outcome = _run_job(number, channel, key)
        except Exception as exc:
            outcome, failed = ExceptionWithTraceback(exc, exc.__traceback__), True
        try:
            channel.put((key, "outcome", outcome))
        except Exception as exc:  # an exception pickle cannot carry, as a pool says
            channel.put((key, "outcome", MaybeEncodingError(exc, outcome)))
            failed = True
        if _EVENTS is not None:
            with contextlib.suppress(ValueError, OSError):
                _EVENTS.put((key, "done", ""))
        if failed:
            break


def _early_news(worker: Any, channel: Any, told: BuildEvents, early_index: Sequence[int],
                outcomes: dict[int, _Outcome], name: Callable[[int], str]) -> None:
    """What the early worker sent since last asked: its jobs' news told, their outcomes
    added to ``outcomes`` (by index among all jobs); a bug in its job, or its end
    before its jobs were done (a UserError naming the job it was running: ``name``),
    raised here."""
    if all(index in outcomes for index in early_index):
        return
    ended = not worker.is_alive()  # before looking: what it sent before it ended is there
    while not channel.empty():
        key, kind, news = channel.get()
        index = early_index[-1 - key]
        if kind == "started":
            told.started(index)
        elif kind == "said":
            told.said(index, news)
        elif isinstance(news, BaseException):
            raise news
        else:
            outcomes[index] = news
            told.finished(index, news[0].paths, news[3])
    unfinished = [index for index in early_index if index not in outcomes]
    if ended and unfinished:  # it runs its jobs in turn: the first unfinished was running
        raise worker_lost(how_it_ended(worker.exitcode), name(unfinished[0]))


def _lost_worker(workers: set[Any], unready: Sequence[int], jobs: Sequence[KitJob],
                 name: Callable[[KitJob], str]) -> UserError | None:
    """The error to stop the build with if one of the pool's ``workers`` ended while
    jobs (``unready``: indices) are not done: none ends before they all are, unless
    something ended it (a signal, the system out of memory, a job's os._exit) and with
    it the job it ran (its pid in _RUNNING), whose result never comes."""
    if not unready:
        return None
    for worker in sorted(workers, key=lambda process: process.pid or 0):
        code = worker.exitcode
        if code is None:
            continue
        held = [index for index in unready
                if _RUNNING is not None and _RUNNING[index] == worker.pid]
        if code == 0 and not held:  # ended by the pool, its jobs all done
            continue
        return worker_lost(how_it_ended(code), name(jobs[held[0]]) if held else None)
    return None


def worker_lost(how: str, job: str | None) -> UserError:
    """A worker that ended before its job was done: ``how`` (workers.how_it_ended), and
    ``job``, the name of the job it ran, if known (not if it ended as it took the job,
    or while it waited for one, holding the task queue's lock the others need)."""
    which = (f"the worker process running {job} {how} before its job was done" if job
             else f"a worker process of the build {how} before the build was done")
    return UserError([Diagnostic("micropul-print", 0, 0, (
        f"{which} (a crash, or the system out of memory): nothing was written, the "
        "output folder is as it was"))])


def _prepare_workers(jobs: Sequence[KitJob]) -> None:
    """Import, before forking, what the jobs will import anyway: each worker then finds
    it loaded (and shares its memory) instead of importing it again."""
    import importlib

    modules = dict.fromkeys(name for job in jobs for name in job.imports)
    for name in modules:
        with contextlib.suppress(ImportError):  # only a head start: the job will tell
            importlib.import_module(name)


