"""The whole print-and-play kit, built into one output directory.

Catalogues and theme are read (all their problems reported at once), then each game's
plugin turns the parts asked for into jobs (micropul_print.gameapi.KitJob) that write
through :class:`micropul_print.outputs.OutputDir`: tile images, duplex PDF sheets for
each paper, boards, rulebooks. This module knows no game: it orders and runs the jobs.
Heavy libraries are imported only by the jobs that need them, so that a build of a few
parts starts fast (bench/kit.py measures it).

The jobs are independent, each writing its own files. With more than one CPU
(``KitOptions.jobs``) they run in forked worker processes, after the parent has read
the inputs and imported the libraries the jobs share; results, progress messages and
problems are collected in the jobs' fixed order, so output and summary never depend on
which worker finished first. A :class:`BuildEvents` observer is told as things happen
(each job's start, messages and end, through a queue the workers write to), for a live
display.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import os
import re
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Protocol

from micropul_print import registry
from micropul_print.errors import Diagnostic, UserError, joined
from micropul_print.gameapi import KIT_PARTS, KitJob, KitOptions, Progress
from micropul_print.outputs import Staging
from micropul_print.sheets.layout import SheetLayout, load_layout
from micropul_print.workers import forking_workers, give_back_memory, init_worker

__all__ = ["DEFAULT_OPTIONS", "PARTS", "BuildEvents", "KitOptions", "KitReport", "build_kit",
           "format_summary"]

PARTS = KIT_PARTS
DEFAULT_OPTIONS = KitOptions()


class KitReport:
    """What a build wrote, filled in as it goes."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.files: list[Path] = []
        self.notes: list[str] = []
        self.counts: dict[str, int] = {}  # part -> files written
        self.made: dict[str, list[Path]] = {}  # "<game>/<part>" -> files written
        self.seconds = 0.0
        self.options = DEFAULT_OPTIONS


class BuildEvents(Protocol):
    """Told how a build goes, as it happens (jobs are numbered in their fixed order)."""

    def planned(self, labels: Sequence[str]) -> None:
        """The jobs about to run, by the names of their progress lines."""

    def started(self, index: int) -> None: ...

    def said(self, index: int, message: str) -> None:
        """A job's message (one ending in "N/M" counts its steps)."""

    def finished(self, index: int, files: Sequence[Path], seconds: float) -> None: ...


def build_kit(out: Path | str, options: KitOptions = DEFAULT_OPTIONS, *,
              progress: Progress | None = None, events: BuildEvents | None = None,
              keep_unmade: bool = False) -> KitReport:
    """Build every part of the kit named in ``options.parts`` into ``out``.

    ``progress`` is told every job's messages, in the jobs' order; ``events``, how each
    job goes as it happens. ``keep_unmade``: this build remakes some files of its parts
    only (one language's rulebook...), so the files the last build of those parts made
    and this one does not are kept (outputs.Staging.commit).

    Everything the build will use is read and checked first (catalogues, theme,
    layouts, languages, each rulebook's texts and figure claims): a UserError names
    every problem before anything is written. The jobs then write into a staging folder
    that replaces the files only when every job succeeded (micropul_print.outputs).
    """
    from micropul_print.draw.theme import load_theme

    started = time.perf_counter()
    say = progress or (lambda _message: None)
    unknown = set(options.parts) - PARTS
    if unknown:
        raise ValueError(f"unknown kit parts: {sorted(unknown)}")
    try:
        catalogues = _catalogues(options)
    except UserError as problem:  # a catalogue's errors hid the theme's
        raise joined(problem, lambda: load_theme(options.theme,
                                                 strict=options.strict)) from None
    theme = load_theme(options.theme, strict=options.strict)
    problems = [problem for catalogue in catalogues
                for problem in registry.get(catalogue.game).theme_problems(catalogue, theme)]
    problems += _language_problems(catalogues, options)
    if problems:  # before any job starts
        raise UserError(problems)
    layouts = _layouts(options.papers) if "sheets" in options.parts else []
    _check_rulebooks(catalogues, options)

    staging = Staging(out)
    with staging as output:
        report = KitReport(output.root)
        report.options = options
        scoped: list[tuple[str, str, KitJob]] = []  # (scope, game, job)
        for catalogue in catalogues:
            game = registry.get(catalogue.game)
            for job in game.kit_jobs(catalogue, theme, output, layouts, options,
                                     _rulebook_langs(options, catalogue.game)):
                # Always the pieces: a progress line for each (each rulebook...).
                scoped += [(f"{game.name}/{job.part}", game.name, piece)
                           for piece in job.split()]
        workers = _workers(options.jobs, [job.cost for _scope, _game, job in scoped])
        made: dict[str, list[Path]] = {}
        jobs = [job for _scope, _game, job in scoped]
        if events is not None:
            events.planned([f"{game} {job.label or job.part}" for _s, game, job in scoped])
        results = _run_jobs(jobs, workers, say, events)
        for (scope, _game, job), paths in zip(scoped, results, strict=True):
            report.files.extend(paths)
            made.setdefault(scope, []).extend(paths)
            report.counts[job.part] = report.counts.get(job.part, 0) + len(paths)
        report.made = made
        misplaced = _misplaced(output.root, scoped, results)
        if misplaced:  # nothing is swapped in: the staged files go with the staging folder
            raise UserError(misplaced)
        removed = staging.commit(made, keep_unmade=keep_unmade)
    if removed:
        report.notes.append(removed_note(removed, report.root))
    report.seconds = time.perf_counter() - started
    return report


def removed_note(removed: Sequence[Path], root: Path) -> str:
    """What a build removed from ``root``, said in its summary (docs/limits.md)."""
    return (f"removed {len(removed)} file(s) an earlier build made and this one no longer "
            "does: " + ", ".join(str(path.relative_to(root)) for path in removed))


def _misplaced(root: Path, scoped: Sequence[tuple[str, str, KitJob]],
               results: Sequence[Sequence[Path]]) -> list[Diagnostic]:
    """Files a game wrote outside its own folder (its ``output_dir``), into another
    registered game's folder, or over a file of another game: each game's kit must leave the
    others' alone, whatever plugins are installed."""
    folders = {game.name: game.output_dir for game in registry.games()}
    folders |= {game: registry.get(game).output_dir for _scope, game, _job in scoped}
    owner: dict[Path, str] = {}
    problems: list[Diagnostic] = []
    for (_scope, game, _job), paths in zip(scoped, results, strict=True):
        for path in paths:
            relative = path.relative_to(root)
            mine = folders[game]
            others = [f for g, f in folders.items() if f and g != game
                      and relative.is_relative_to(f) and not (mine and f == mine)]
            where = None
            if mine and not relative.is_relative_to(mine):
                where = f"outside its folder {mine}/ (its output_dir)"
            elif others:
                where = f"into {others[0]}/, another game's folder"
            elif owner.setdefault(path, game) != game:
                where = f"over a file of the game '{owner[path]}'"
            if where is not None:
                problems.append(Diagnostic("micropul-print", 0, 0, f"the game '{game}' wrote "
                                           f"{relative.as_posix()} {where}"))
    return problems


def _language_problems(catalogues: Sequence[Any], options: KitOptions) -> list[Diagnostic]:
    """Each language asked for that a game's rulebook lacks, named with the game."""
    if options.langs is None or "rulebooks" not in options.parts:
        return []
    problems = []
    for catalogue in catalogues:
        game = registry.get(catalogue.game)
        book = game.rulebook
        if book is None:
            continue
        have = book.languages()
        for lang in options.langs:
            if lang not in have:
                problems.append(Diagnostic(
                    str(book.locales_dir), 0, 0, f"the {game.title} rulebook has no "
                    f"language '{lang}' (it has: {', '.join(have)}); leave --lang out, or "
                    "choose among them"))
    return problems


def _check_rulebooks(catalogues: Sequence[Any], options: KitOptions) -> None:
    """Every rulebook's texts and figure claims, checked before anything is written (the
    rulebook jobs find the result ready: forked workers inherit it)."""
    if "rulebooks" not in options.parts:
        return
    from micropul_print.rulebook import check_rulebook

    problems: list[Diagnostic] = []
    for catalogue in catalogues:
        langs = _rulebook_langs(options, catalogue.game)
        if not langs:
            continue
        try:
            check_rulebook(catalogue, langs)
        except UserError as exc:
            problems.extend(exc.diagnostics)
    if problems:
        raise UserError(problems)


def _catalogues(options: KitOptions) -> list[Any]:
    """The catalogue of each game to build, in the order of ``options.games``: a given
    ``catalogue`` stands for its own game, the shipped ones for the others. Every
    problem of every catalogue is raised at once."""
    from micropul_print.catalogue.loader import load_catalogue

    problems: list[Diagnostic] = []

    def read(path: Path) -> Any:  # its problems kept, to report with the rest
        try:
            return load_catalogue(path, strict=options.strict)
        except UserError as exc:
            problems.extend(exc.diagnostics)
            return None

    games = list(options.games or ())
    given = read(options.catalogue) if options.catalogue is not None else None
    if given is not None and games and given.game not in games:
        line, col = given.game_at
        problems.append(Diagnostic(
            given.source, line, col, f"this is a {given.game} catalogue, but the build "
            f"asks for {' and '.join(games)} only: leave --game out, or give that game's "
            "catalogue"))
    if options.catalogue is not None and not games:
        found = [given]
    else:
        found = [given if given is not None and given.game == game
                 else read(registry.get(game).shipped_catalogue())
                 for game in games or [registry.default_game().name]]
    if problems:
        raise UserError(problems)
    return [catalogue for catalogue in found if catalogue is not None]


def _rulebook_langs(options: KitOptions, game: str) -> list[str]:
    """The languages asked for (the rulebook reports any it has no text for), or every
    language of the game's book; none for a game without a book."""
    if "rulebooks" not in options.parts:  # before asking for the book: it loads Babel
        return []
    book = registry.get(game).rulebook
    if book is None:
        return []
    return list(options.langs) if options.langs is not None else book.languages()


# The part of the jobs writing a game's tile images (gameapi.KitJob.part).
TILE_FILES = "tile files"

# Jobs with less than this in all but the longest are run in this process.
PARALLEL_MIN_COST = 3


def _workers(asked: int | None, costs: Sequence[int]) -> int:
    """Worker processes for jobs of these ``costs``: never more than jobs or CPUs, and
    none (1: run in this process) where processes cannot be forked or when, by default,
    everything but the longest job is too little to repay starting processes (the 48
    SVG files and a sheet take under a tenth of a second)."""
    import multiprocessing

    if "fork" not in multiprocessing.get_all_start_methods() or not costs:
        return 1
    if asked is None:
        if sum(costs) - max(costs) < PARALLEL_MIN_COST:
            return 1
        cpus = (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
                else os.cpu_count())
        asked = cpus or 1
    return max(1, min(asked, len(costs)))


# The jobs of the build being run, for forked workers to find by index: a job holds
# closures over the catalogue and drawings, which fork copies but pickle cannot carry.
_PENDING: list[KitJob] = []

# What a job sends back: its paths, its progress messages, its problems (a worker
# cannot raise UserError across processes with its diagnostics intact), and its time.
_Outcome = tuple[list[Path], list[str], tuple[Diagnostic, ...], float]
# Where forked workers tell (job index, "started" or "said", message) as it happens, and
# the pool's result thread (job index, "done", "") when a job's result is back.
_EVENTS: Any = None


def _init_kit_worker() -> None:
    """init_worker, and the events queue's feeder thread left unjoined at exit: a
    worker that SIGTERM stops while the parent no longer reads (it is stopping the
    pool) waited for ever to flush its news, and the parent for it (a build stopped by
    Ctrl-C to its process group hung about one time in ten). Its news is only live
    progress: every job's messages come back with its result."""
    init_worker()
    if _EVENTS is not None:
        _EVENTS.cancel_join_thread()


def _run_job(index: int) -> _Outcome:
    messages: list[str] = []
    queue = _EVENTS

    def say(message: str) -> None:
        messages.append(message)
        if queue is not None:
            queue.put((index, "said", message))

    if queue is not None:
        queue.put((index, "started", ""))
    started = time.perf_counter()
    try:
        return _PENDING[index].run(say), messages, (), time.perf_counter() - started
    except UserError as exc:
        return [], messages, exc.diagnostics, time.perf_counter() - started
    except Exception as exc:  # a bug: raised in the parent, which must know whose
        registry.blame(exc)
        raise
    finally:
        give_back_memory()


class _NoEvents:
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


def _run_jobs(jobs: Sequence[KitJob], workers: int, say: Progress,
              events: BuildEvents | None = None) -> list[list[Path]]:
    """Run every job, in worker processes when ``workers`` > 1; results in job order.
    ``say`` is told each job's messages as its turn comes, ``events`` as they happen;
    every problem of every job is raised together, as one UserError. Whatever ends the
    parent's wait (a problem, Ctrl-C, SIGTERM) terminates every worker before it goes
    on."""
    told: BuildEvents = events or _NoEvents()
    if workers <= 1:  # in this process: progress as it happens, the first problem stops
        serial: list[list[Path]] = []
        for index, job in enumerate(jobs):
            told.started(index)
            started = time.perf_counter()

            def both(message: str, index: int = index) -> None:
                told.said(index, message)
                say(message)

            serial.append(job.run(both))
            told.finished(index, serial[-1], time.perf_counter() - started)
        return serial
    return _run_in_workers(jobs, workers, say, told)


def _run_in_workers(jobs: Sequence[KitJob], workers: int, say: Progress,
                    told: BuildEvents) -> list[list[Path]]:
    import multiprocessing
    import queue as queues

    results: dict[int, list[Path]] = {}
    problems: list[Diagnostic] = []
    _prepare_workers(jobs)
    global _EVENTS
    context = multiprocessing.get_context("fork")
    _PENDING[:] = jobs
    _EVENTS = context.Queue()  # before the fork: every worker inherits it
    # What the parent made so far is never garbage the workers must look for: out of
    # their collector's way, its pages are not copied into each worker by a collection.
    gc.freeze()
    with forking_workers():
        pool = context.Pool(workers, initializer=_init_kit_worker)
    try:
        # The tile files first (a game's one job that cannot be split, and the one that
        # needs the most memory: run by a fresh worker, not one grown by other jobs),
        # then the longest first, so that no long job starts last.
        order = sorted(range(len(jobs)),
                       key=lambda i: (jobs[i].part != TILE_FILES, -jobs[i].cost))
        events = _EVENTS

        def arrived(_outcome: object, index: int) -> None:
            # Run by the pool's result thread in this process when a job's result (or
            # its error) has come back: the wait below wakes at once, not at its next
            # poll (the last job's would otherwise add up to a poll to every build).
            with contextlib.suppress(ValueError, OSError):  # the build is over
                events.put((index, "done", ""))

        pending = {index: pool.apply_async(_run_job, (index,),
                                           callback=functools.partial(arrived, index=index),
                                           error_callback=functools.partial(arrived,
                                                                            index=index))
                   for index in order}
        pool.close()
        outcomes: dict[int, _Outcome] = {}
        next_index = 0  # the next job whose messages and result are taken, in job order
        while next_index < len(jobs):
            try:  # a worker's news first, as it comes
                index, kind, message = _EVENTS.get(timeout=_POLL_SECONDS)
                if index in outcomes:  # news of a finished job comes too late
                    continue
                if kind == "started":
                    told.started(index)
                elif kind == "said":
                    told.said(index, message)
                if kind != "done":
                    continue
                pending[index].wait()  # the callback runs just before the result is set
            except queues.Empty:
                pass
            for index in [i for i in order if i not in outcomes and pending[i].ready()]:
                outcomes[index] = pending[index].get()  # a bug in a job is raised here
                paths, _messages, _diagnostics, seconds = outcomes[index]
                told.finished(index, paths, seconds)
            while next_index in outcomes:
                paths, messages, diagnostics, _seconds = outcomes[next_index]
                for message in messages:
                    say(message)
                problems.extend(diagnostics)
                results[next_index] = paths
                next_index += 1
        pool.join()
    finally:
        pool.terminate()  # no worker outlives the build, however it ends
        pool.join()
        _PENDING.clear()
        _EVENTS.close()
        _EVENTS.cancel_join_thread()
        _EVENTS = None
        gc.unfreeze()  # a later build in this process (build --watch) collects them
    if problems:
        raise UserError(dict.fromkeys(problems))  # a problem two jobs found, once
    return [results[index] for index in range(len(jobs))]


def _prepare_workers(jobs: Sequence[KitJob]) -> None:
    """Import, before forking, what the jobs will import anyway: each worker then finds
    it loaded (and shares its memory) instead of importing it again."""
    import importlib

    modules = dict.fromkeys(name for job in jobs for name in job.imports)
    for name in modules:
        with contextlib.suppress(ImportError):  # only a head start: the job will tell
            importlib.import_module(name)


def _layouts(papers: Sequence[str]) -> list[SheetLayout]:
    return [load_layout(paper) for paper in papers]


def format_summary(report: KitReport) -> str:
    total = 0
    for path in report.files:
        with contextlib.suppress(OSError):  # a file removed since: count what is left
            total += path.stat().st_size
    parts = ", ".join(_counted(count, part) for part, count in sorted(report.counts.items()))
    lines = [f"wrote {_counted(len(report.files), 'files')} ({parts or 'nothing'}), "
             f"{_size(total)}, into {report.root} in {report.seconds:.2f} s"]
    lines += [f"note: {note}" for note in report.notes]
    lines += print_instructions(report)
    return "\n".join(lines)


FLIPS_IN_PDF = {b"DuplexFlipLongEdge": "long", b"DuplexFlipShortEdge": "short",
                b"Simplex": None}


def print_instructions(report: KitReport) -> list[str]:
    """What to print: each PDF of the sheets parts, with its paper, how it is printed
    (double-sided, flipped on which edge, or single-sided) and its sheets of paper,
    read from the file itself; and at which scale (100 %, whatever --scale was)."""
    sheets = _readable(path for scope, paths in report.made.items()
                       if scope.endswith("/sheets") for path in paths)
    # The rulebooks and booklets, made to be printed double-sided (they say so): how to
    # print them matters as much (a booklet turns on the short edge).
    books = [(path, data) for path, data in _readable(
        path for scope, paths in report.made.items() if scope.endswith("/rulebooks")
        for path in paths) if re.search(rb"/Duplex /DuplexFlip", data)]
    if not sheets and not books:
        return []
    scale = report.options.scale
    lines = ['to print, at 100 % ("Actual size"; never "Fit to page" or "Shrink to fit"):']
    for path, data in sheets:
        lines.append(f"  {path.relative_to(report.root).as_posix()}: "
                     f"{_how_to_print(data, report.options.flip)}")
    # The books of every language print alike: a line per folder and advice.
    grouped: dict[tuple[str, str], list[str]] = {}
    for path, data in books:
        folder = path.parent.relative_to(report.root).as_posix()
        advice = _how_to_print(data, report.options.flip)
        grouped.setdefault((folder, advice), []).append(path.name)
    for (folder, advice), names in grouped.items():
        lines.append(f"  {folder}/{_pattern(names)}: {advice}"
                     + (f" each ({len(names)} files)" if len(names) > 1 else ""))
    if scale != (100.0, 100.0):
        lines.append(f"  (already enlarged for a printer that prints at {scale[0]:g} % x "
                     f"{scale[1]:g} %: --scale)")
    return lines


def _readable(paths: Iterable[Path]) -> list[tuple[Path, bytes]]:
    """Each PDF of ``paths`` with its bytes, read once; a file removed since is left out."""
    read = []
    for path in paths:
        if path.suffix == ".pdf":
            with contextlib.suppress(OSError):
                read.append((path, path.read_bytes()))
    return read


def _how_to_print(data: bytes, flip: str | None) -> str:
    """"A4, double-sided, flip on the long edge, 2 sheets", read from a PDF's bytes (its
    paper, its duplex preference, its pages); ``flip``: a tile sheet's, unless the file
    says."""
    pages = max((int(n) for n in re.findall(rb"/Count (\d+)", data)), default=0)
    duplex = flip
    preference = re.search(rb"/Duplex /(\w+)", data)
    if preference and preference.group(1) in FLIPS_IN_PDF:
        duplex = FLIPS_IN_PDF[preference.group(1)]
    how = "single-sided" if duplex is None else f"double-sided, flip on the {duplex} edge"
    count = pages if duplex is None else (pages + 1) // 2
    return f"{_paper(data)}, {how}, {count} sheet{'s' if count != 1 else ''}"


def _pattern(names: Sequence[str]) -> str:
    """One name, or the names as one with their differing parts in braces, as a shell
    writes them (``book-{de,en}-booklet-a4.pdf``): a ``*`` there also matched the
    booklets of ``book-*-a4.pdf``."""
    if len(names) == 1:
        return names[0]
    # File names compared as text, character by character (not as paths): what
    # os.path.commonprefix does.
    head = os.path.commonprefix(list(names))  # noqa: RUF071
    tail = os.path.commonprefix([name[len(head):][::-1] for name in names])[::-1]  # noqa: RUF071
    middles = [name[len(head):len(name) - len(tail)] for name in names]
    return f"{head}{{{','.join(sorted(middles))}}}{tail}"


def _paper(pdf: bytes) -> str:
    """The paper of a PDF's first page: a layout's label, or its size in mm."""
    from micropul_print.sheets.layout import LAYOUT_NAMES

    box = re.search(rb"/MediaBox \[\s*([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s*\]",
                    pdf)
    if box is None:
        return "unknown paper"
    x0, y0, x1, y1 = (float(v) for v in box.groups())
    width, height = (x1 - x0) * 25.4 / 72, (y1 - y0) * 25.4 / 72
    for name in LAYOUT_NAMES:
        layout = load_layout(name)
        if abs(layout.paper_width - width) < 0.5 and abs(layout.paper_height - height) < 0.5:
            return str(layout.label)
        if abs(layout.paper_width - height) < 0.5 and abs(layout.paper_height - width) < 0.5:
            return f"{layout.label}, landscape"  # a booklet's sheet: two pages side by side
    return f"{width:.0f} x {height:.0f} mm paper"


def _counted(count: int, plural: str) -> str:
    """"1 sheet", "2 sheets": ``plural`` is a part's name ("tile files"), in the plural
    when it ends in s."""
    return f"{count} {plural[:-1] if count == 1 and plural.endswith('s') else plural}"


def _size(n: int) -> str:
    if n >= 1024 * 1024:
        return f"{n / (1024 * 1024):.1f} MiB"
    if n >= 1024:
        return f"{n / 1024:.0f} KiB"
    return f"{n} B"
