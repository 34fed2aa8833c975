"""Playing a plan's batches: in this process, in forked worker processes (``--jobs``), or
on a Dask cluster (``--scheduler``). Every batch is a pure function of the plan
(micropul_print.lab.analyse.run_batch), and results are kept by part and seed, so the
figures are the same however the work was shared out.

An interruption (Ctrl-C) stops the work where it is: the batches already played are
returned, marked incomplete, and no worker process is left running (they ignore
SIGINT, so that only this process decides, and are terminated). A Dask scheduler lost
during the run ends it too, the batches already played kept (SchedulerLost). A local
worker that ends while it plays (killed, out of memory, a bot plugin's os._exit) ends
the run with an error, the other workers stopped: Pool would wait for its batch for
ever.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Generator, Mapping
from typing import Any

from micropul_print.base.errors import Diagnostic, UsageError, UserError, printable, quoted
from micropul_print.game import registry
from micropul_print.kit.workers import forking_workers, give_up, how_it_ended, init_worker
from micropul_print.lab.analyse import Batch, GameSummary, Plan, run_batch

# How long --scheduler waits for its scheduler to answer: a cluster answers at once; a
# wrong address otherwise keeps the user waiting for Dask's default, 30 s.
CONNECT_SECONDS = 10.0

Results = dict[int, list[GameSummary]]  # part index -> its games, in seed order
_Finished = Generator[tuple[int, list[GameSummary]], None, None]  # (batch index, games)
BatchDone = Callable[[Batch, list[GameSummary]], None]


class SchedulerLost(Exception):
    """The Dask scheduler stopped answering during a run. ``results``: the games played
    before, as :func:`run_plan` returns them (it fills them in)."""

    def __init__(self, address: str) -> None:
        super().__init__(f"the Dask scheduler at {address} stopped answering")
        self.results: Results = {}


def cpus() -> int:
    """The CPUs this process may run on (all of them, or what ``taskset`` allows)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def run_plan(the_plan: Plan, catalogue: Any, *, jobs: int | None = None,
             scheduler: str | None = None,
             done: BatchDone | None = None,
             told: Callable[[str], None] | None = None) -> tuple[Results, bool]:
    """Play every batch; (results, whether all were played). ``jobs``: worker
    processes (None: one per CPU; 1: this process); ``scheduler``: the address of a
    Dask scheduler to send the batches to instead; ``done`` is told of each batch as
    it finishes (in the order they finish); ``told`` of what the run met on the way (a
    Dask worker lost or restarted, and the batches played again). Raises
    SchedulerLost, with the games already played, should the scheduler stop
    answering."""
    results: dict[int, list[GameSummary]] = {}
    if scheduler is not None:
        finished = _on_cluster(the_plan, catalogue, scheduler, told)
    else:
        workers = min(cpus() if jobs is None else max(1, jobs), len(the_plan.batches))
        finished = (_in_workers(the_plan, catalogue, workers) if workers > 1
                    else _here(the_plan, catalogue))
    complete = True
    lost = None
    try:
        for index, games in finished:
            batch = the_plan.batches[index]
            results.setdefault(batch.part, []).extend(games)
            if done is not None:
                done(batch, games)
    except KeyboardInterrupt:
        complete = False
    except SchedulerLost as exc:
        lost = exc
    finally:
        finished.close()
    for games in results.values():
        games.sort(key=lambda g: g.seed)
    if lost is not None:  # raised again, with what was played: the caller reports it
        lost.results = dict(sorted(results.items()))
        raise lost
    return dict(sorted(results.items())), complete


def check_scheduler(address: str, timeout: float | None = None) -> None:
    """UsageError unless a Dask scheduler answers at ``address`` (its handshake) within
    ``timeout`` seconds (default CONNECT_SECONDS). Asked before any game is played, on
    a connection of its own: a Client that fails to connect lingers, and at exit waits
    a minute to close, then prints a traceback."""
    import asyncio

    from distributed.comm.core import connect

    seconds = CONNECT_SECONDS if timeout is None else timeout
    handshook: list[bool] = []
    replies: list[object] = []

    async def probe() -> None:
        comm = await connect(address, timeout=seconds)  # type: ignore[no-untyped-call]
        handshook.append(True)
        try:
            # Past the handshake, a question every scheduler answers: what passed the
            # handshake and then sent garbage or hung up ended the run later, in a
            # MemoryError or pages of Dask's tracebacks.
            await comm.write({"op": "identity", "reply": True})
            replies.append(await comm.read())
        finally:
            comm.abort()

    try:
        # The whole probe is timed, not only the connection: a listener that accepts
        # and never answers would keep the handshake waiting for ever.
        asyncio.run(asyncio.wait_for(probe(), seconds))
    except TimeoutError:  # worded as Dask words its own connection timeout
        reason = (f"Timed out trying to connect to {address} after {seconds} s" if not
                  handshook else f"no answer within {seconds:g} s")
    except (OSError, ValueError, TypeError) as exc:
        reason = str(exc) or type(exc).__name__
    # Something that is not a scheduler (a web server, a proxy) can fail the handshake
    # in any way: MemoryError, for one, from its bytes read as a message's length.
    except Exception:
        reason = "what answers there does not speak Dask's protocol"
    else:
        reply = replies[0] if replies else None
        if isinstance(reply, dict) and reply.get("type") == "Scheduler":
            return
        reason = "its answer is not a Dask scheduler's"
    if handshook:
        raise scheduler_broken(address, reason)
    # Both cut, as every message quotes a value: Dask's reason may quote the address.
    shown = reason if len(reason) <= REASON_LIMIT else reason[:REASON_LIMIT - 1] + "…"
    raise UsageError(f"--scheduler {quoted(address)}: no Dask scheduler answers there "
                     f"({shown})")


REASON_LIMIT = 200  # characters of Dask's reason a message shows


def scheduler_broken(address: str, reason: str) -> UserError:
    """The error for a scheduler's address whose listener passed Dask's handshake, then
    sent garbage, hung up or went silent: said in one line, status 1."""
    return UserError([Diagnostic(address, 0, 0, "what answers at this --scheduler address "
                                 "passed Dask's handshake, then failed to answer as a "
                                 f"scheduler ({printable(reason)[:200]}): is a Dask "
                                 "scheduler running there?")])


def _here(the_plan: Plan, catalogue: Any) -> _Finished:
    for index, batch in enumerate(the_plan.batches):
        yield index, run_batch(the_plan.game, catalogue, the_plan.parts[batch.part], batch)


# What the forked workers play: set before the fork, so that they inherit the catalogue
# (and the game plugin) instead of receiving them through a pipe.
_PENDING: list[tuple[Plan, Any]] = []


def _work(index: int) -> tuple[int, list[GameSummary]]:
    the_plan, catalogue = _PENDING[0]
    batch = the_plan.batches[index]
    try:
        return index, run_batch(the_plan.game, catalogue, the_plan.parts[batch.part], batch)
    except Exception as exc:  # a bug, raised in the parent, which must know whose
        registry.blame(exc)
        raise


def _in_workers(the_plan: Plan, catalogue: Any,
                workers: int) -> _Finished:
    import multiprocessing

    _PENDING[:] = [(the_plan, catalogue)]
    with forking_workers():
        pool = multiprocessing.get_context("fork").Pool(workers, initializer=init_worker)
    try:
        finished = pool.imap_unordered(_work, range(len(the_plan.batches)))
        # A worker that ends while it plays (os._exit in a bot plugin, a crash, the
        # system out of memory killing it) takes its batch with it: the pool starts
        # another worker, and imap waited for that batch for ever. Every worker the
        # pool ever ran is watched while no batch comes (its list of them is private:
        # Pool says nothing of a worker lost).
        watched: set[Any] = set()
        for _ in the_plan.batches:
            while True:
                watched.update(getattr(pool, "_pool", ()))
                try:
                    played = finished.next(timeout=WATCH_SECONDS)
                    break
                except multiprocessing.TimeoutError:
                    lost = _lost_worker(watched)
                    if lost is not None:
                        give_up(pool)
                        raise lost from None
            yield played
        # Every batch played: the workers end on their own, without a signal.
        pool.close()
        pool.join()
    finally:
        pool.terminate()  # interrupted: nothing left running (a no-op once joined)
        pool.join()
        _PENDING.clear()


# How often the workers are looked at while no batch finishes.
WATCH_SECONDS = 0.5


def _lost_worker(workers: set[Any]) -> UserError | None:
    """The error to stop the run with if one of ``workers`` (multiprocessing processes)
    has ended: none ends before the pool is closed, unless something killed it."""
    for worker in sorted(workers, key=lambda process: process.pid or 0):
        code = worker.exitcode
        if code is None:
            continue
        return UserError([Diagnostic("micropul-print", 0, 0, (
            f"a worker process {how_it_ended(code)} before its games were played (a bot "
            "plugin that ends its process, a crash, or the system out of memory): no report; "
            "--jobs 1 plays them in this process"))])
    return None


def _last_event(client: Any) -> float:
    """The time of the scheduler's latest event: those after it are this run's."""
    events = client.get_events("all")
    return max((stamp for stamp, _ in events), default=0.0)


def worker_losses(events: Any, since: float, keys: Mapping[Any, int]) -> tuple[int, list[int]]:
    """(workers removed from the cluster after ``since``, indices of the batches among
    ``keys`` that they were playing or held, which the scheduler plays again) from the
    scheduler's "all" events (Dask's "remove-worker" records)."""
    lost = 0
    again: set[int] = set()
    for stamp, message in events:
        if stamp <= since or not isinstance(message, dict):
            continue
        if message.get("action") != "remove-worker":
            continue
        lost += 1
        for key in (*message.get("processing-tasks", ()),
                    *message.get("lost-computed-tasks", ())):
            if key in keys:
                again.add(keys[key])
    return lost, sorted(again)


def _losses_told(the_plan: Plan, lost: int, again: list[int]) -> str:
    parts = dict.fromkeys(the_plan.parts[the_plan.batches[index].part].label()
                          for index in again)
    games = sum(len(the_plan.batches[index].seeds) for index in again)
    workers = "1 Dask worker" if lost == 1 else f"{lost} Dask workers"
    if not again:
        return f"{workers} lost or restarted during the run; no batch had to be played again"
    return (f"{workers} lost or restarted during the run; {len(again)} "
            f"{'batch' if len(again) == 1 else 'batches'} ({games} games) played again "
            f"elsewhere, the same games from the same seeds: {'; '.join(parts)}")


def _on_cluster(the_plan: Plan, catalogue: Any,
                address: str, told: Callable[[str], None] | None = None) -> _Finished:
    try:
        from distributed import CancelledError, Client, as_completed
    except ImportError as exc:
        raise ImportError("--scheduler needs Dask's distributed package: "
                          "pip install 'micropul-print[cluster]'") from exc
    # Dask logs a lost scheduler as pages of tracebacks; SchedulerLost says it in a line.
    silenced = logging.root.manager.disable
    logging.disable(logging.CRITICAL)
    try:
        try:
            client = Client(address, set_as_default=False, timeout=CONNECT_SECONDS)  # type: ignore[no-untyped-call]
        except Exception as exc:  # garbage or a hang-up past the handshake
            raise scheduler_broken(address, str(exc) or type(exc).__name__) from None
        try:
            try:
                # A scheduler without workers would take the batches and wait for ever.
                client.wait_for_workers(1, timeout=CONNECT_SECONDS)
            except TimeoutError:
                raise UsageError(f"--scheduler {address!r}: the scheduler has no workers "
                                 f"(none joined within {CONNECT_SECONDS:g} s)") from None
            since = _last_event(client)
            futures = {client.submit(run_batch, the_plan.game, catalogue,
                                     the_plan.parts[batch.part], batch, pure=False): index
                       for index, batch in enumerate(the_plan.batches)}
            left = set(futures)
            try:
                # The client's loop: as_completed would otherwise look for a default client.
                finished = as_completed(list(futures), loop=client.loop)  # type: ignore[no-untyped-call]
                for future in finished:
                    try:
                        games = future.result()
                    except (OSError, CancelledError) as exc:
                        if future.status == "error":  # the batch's own exception: a bug
                            raise
                        raise SchedulerLost(address) from exc
                    left.discard(future)
                    yield futures[future], games
                if told is not None:
                    keys = {future.key: index for future, index in futures.items()}
                    lost, again = worker_losses(client.get_events("all"), since, keys)
                    if lost:
                        told(_losses_told(the_plan, lost, again))
            finally:
                # Only what is still to play: cancelling finished batches fills the
                # scheduler's log with a cancellation line per run.
                if left:
                    client.cancel(list(left))  # type: ignore[no-untyped-call]
        finally:
            client.close()  # type: ignore[no-untyped-call]
    finally:
        logging.disable(silenced)
