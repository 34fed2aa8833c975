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
which worker finished first.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from micropul_print import registry
from micropul_print.errors import Diagnostic, UserError
from micropul_print.gameapi import KIT_PARTS, KitJob, KitOptions, Progress
from micropul_print.outputs import Staging
from micropul_print.sheets.layout import SheetLayout, load_layout

__all__ = ["DEFAULT_OPTIONS", "PARTS", "KitOptions", "KitReport", "build_kit", "format_summary"]

PARTS = KIT_PARTS
DEFAULT_OPTIONS = KitOptions()


class KitReport:
    """What a build wrote, filled in as it goes."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.files: list[Path] = []
        self.notes: list[str] = []
        self.counts: dict[str, int] = {}  # part -> files written
        self.seconds = 0.0


def build_kit(out: Path | str, options: KitOptions = DEFAULT_OPTIONS, *,
              progress: Progress | None = None) -> KitReport:
    """Build every part of the kit named in ``options.parts`` into ``out``.

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
    catalogues = _catalogues(options)
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
        scoped: list[tuple[str, KitJob]] = []
        for catalogue in catalogues:
            game = registry.get(catalogue.game)
            for job in game.kit_jobs(catalogue, theme, output, layouts, options,
                                     _rulebook_langs(options, catalogue.game)):
                scoped.append((f"{game.name}/{job.part}", job))
        pieces = [(scope, piece) for scope, job in scoped for piece in job.split()]
        workers = _workers(options.jobs, [piece.cost for _scope, piece in pieces])
        if workers > 1:
            scoped = pieces
        made: dict[str, list[Path]] = {}
        jobs = [job for _scope, job in scoped]
        for (scope, job), paths in zip(scoped, _run_jobs(jobs, workers, say), strict=True):
            report.files.extend(paths)
            made.setdefault(scope, []).extend(paths)
            report.counts[job.part] = report.counts.get(job.part, 0) + len(paths)
        removed = staging.commit(made)
    if removed:
        report.notes.append(f"removed {len(removed)} file(s) an earlier build made and this "
                            "one no longer does: " + ", ".join(
                                str(path.relative_to(report.root)) for path in removed))
    report.seconds = time.perf_counter() - started
    return report


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
    book = registry.get(game).rulebook
    if book is None or "rulebooks" not in options.parts:
        return []
    return list(options.langs) if options.langs is not None else book.languages()


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

# What a job sends back: its paths, its progress messages, and its problems (a worker
# cannot raise UserError across processes with its diagnostics intact).
_Outcome = tuple[list[Path], list[str], tuple[Diagnostic, ...]]


def _run_job(index: int) -> _Outcome:
    messages: list[str] = []
    try:
        return _PENDING[index].run(messages.append), messages, ()
    except UserError as exc:
        return [], messages, exc.diagnostics


def _worker_init() -> None:
    """In each forked worker: leave Ctrl-C to the parent (which stops every worker), and
    die with the parent even if it is killed outright (Linux: PR_SET_PDEATHSIG)."""
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


def _run_jobs(jobs: Sequence[KitJob], workers: int, say: Progress) -> list[list[Path]]:
    """Run every job, in worker processes when ``workers`` > 1; results in job order.
    Progress is told as each job's turn comes; every problem of every job is raised
    together, as one UserError. Whatever ends the parent's wait (a problem, Ctrl-C,
    SIGTERM) terminates every worker before it goes on."""
    if workers <= 1:  # in this process: progress as it happens, the first problem stops
        return [job.run(say) for job in jobs]
    results: list[list[Path]] = []
    problems: list[Diagnostic] = []
    _prepare_workers(jobs)
    import multiprocessing

    _PENDING[:] = jobs
    pool = multiprocessing.get_context("fork").Pool(workers, initializer=_worker_init)
    try:
        # Longest first, so that no long job starts last; results read in job order.
        order = sorted(range(len(jobs)), key=lambda i: -jobs[i].cost)
        pending = {index: pool.apply_async(_run_job, (index,)) for index in order}
        pool.close()
        for index in range(len(jobs)):
            paths, messages, diagnostics = pending[index].get()
            for message in messages:
                say(message)
            problems.extend(diagnostics)
            results.append(paths)
        pool.join()
    finally:
        pool.terminate()  # no worker outlives the build, however it ends
        pool.join()
        _PENDING.clear()
    if problems:
        raise UserError(dict.fromkeys(problems))  # a problem two jobs found, once
    return results


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
    parts = ", ".join(f"{count} {part}" for part, count in sorted(report.counts.items()))
    lines = [f"wrote {len(report.files)} files ({parts or 'nothing'}), "
             f"{_size(total)}, into {report.root} in {report.seconds:.2f} s"]
    lines += [f"note: {note}" for note in report.notes]
    return "\n".join(lines)


def _size(n: int) -> str:
    if n >= 1024 * 1024:
        return f"{n / (1024 * 1024):.1f} MiB"
    if n >= 1024:
        return f"{n / 1024:.0f} KiB"
    return f"{n} B"
