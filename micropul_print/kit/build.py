"""The whole print-and-play kit, built into one output directory.

Catalogues and theme are read (all their problems reported at once), each game is
resolved once (its plugin, catalogue, theme and pieces: a kitplan.GameKit), then the
core's plan (micropul_print.kit.plan) turns the parts asked for into jobs that write
through :class:`micropul_print.kit.outputs.OutputDir`: tile images, duplex PDF sheets for
each paper, boards, rulebooks. The jobs run in the worker pool (micropul_print.kit.pool);
each returns the files it wrote and how each PDF prints, which the summary reports.
This module knows no game. Heavy libraries are imported only by the jobs that need
them, so that a build of a few parts starts fast (bench/kit.py measures it).
"""

from __future__ import annotations

import contextlib
import os
import re
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from micropul_print.base.errors import Diagnostic, UserError, joined, printable
from micropul_print.game import registry
from micropul_print.game.plugin import Game
from micropul_print.kit.outputs import Staging
from micropul_print.kit.plan import (
    KIT_PARTS,
    TILE_FILES,
    KitJob,
    KitOptions,
    PrintRecord,
    Progress,
    game_kit,
    kit_jobs,
    rulebook_jobs,
)
from micropul_print.kit.pool import PARALLEL_MIN_COST, BuildEvents, run_jobs, workers_for
from micropul_print.sheets.layout import SheetLayout, load_layout

__all__ = ["DEFAULT_OPTIONS", "PARTS", "BuildEvents", "KitOptions", "KitReport", "build_kit",
           "format_summary"]

PARTS = KIT_PARTS
DEFAULT_OPTIONS = KitOptions()
# A game of the build and its catalogue, resolved once.
Resolved = tuple[Game, Any]


class KitReport:
    """What a build wrote, filled in as it goes."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.files: list[Path] = []
        self.notes: list[str] = []
        self.counts: dict[str, int] = {}  # part -> files written
        self.made: dict[str, list[Path]] = {}  # "<game>/<part>" -> files written
        self.prints: dict[Path, PrintRecord] = {}  # how each PDF to print prints
        self.seconds = 0.0
        self.options = DEFAULT_OPTIONS
        # What each game's kit was made of (game -> its catalogue), and in which theme:
        # a watch compares the next edit with them (micropul_print.kit.changes).
        self.catalogues: dict[str, Any] = {}
        self.theme: Any = None


def build_kit(out: Path | str, options: KitOptions = DEFAULT_OPTIONS, *,
              progress: Progress | None = None, events: BuildEvents | None = None,
              keep_unmade: bool = False, loaded: Any = None) -> KitReport:
    """Build every part of the kit named in ``options.parts`` into ``out``.

    ``progress`` is told every job's messages, in the jobs' order; ``events``, how each
    job goes as it happens. ``keep_unmade``: this build remakes some files of its parts
    only (one language's rulebook...), so the files the last build of those parts made
    and this one does not are kept (outputs.Staging.commit). ``loaded``: the catalogue
    of ``options.catalogue``, already read and validated (a watch's, which compared it
    with the last one built): built as it is, not read again.

    Everything the build will use is read and checked first (catalogues, theme,
    layouts, languages, each rulebook's texts and figure claims): a UserError names
    every problem before anything is written. The jobs then write into a staging folder
    that replaces the files only when every job succeeded (micropul_print.kit.outputs).
    """
    from micropul_print.draw.theme import load_theme

    started = time.perf_counter()
    say = progress or (lambda _message: None)
    unknown = set(options.parts) - PARTS
    if unknown:
        raise ValueError(f"unknown kit parts: {sorted(unknown)}")
    try:
        resolved = [(registry.get(catalogue.game), catalogue)
                    for catalogue in _catalogues(options, loaded)]
    except UserError as problem:  # a catalogue's errors hid the theme's
        raise joined(problem, lambda: load_theme(options.theme,
                                                 strict=options.strict)) from None
    theme = load_theme(options.theme, strict=options.strict)
    problems = [problem for game, catalogue in resolved
                for problem in game.theme_problems(catalogue, theme)]
    problems += _language_problems(resolved, options)
    if problems:  # before any job starts
        raise UserError(problems)
    layouts = _layouts(options.papers) if "sheets" in options.parts else []
    # The rulebooks' checks run while the first jobs (the tile files...) do, in a worker
    # of their own, where a user cannot tell: whatever stops the build before them
    # (the output directory refused, --tiles) is raised only once they passed, and a
    # check that fails leaves the output directory as it was. Otherwise, first.
    checked = not _quiet_staging(Path(out))
    if checked:
        _check_rulebooks(resolved, options)

    def check_first() -> None:  # before raising what would have been found after
        nonlocal checked
        if not checked:
            checked = True
            _check_rulebooks(resolved, options)

    staging = Staging(out)
    with contextlib.ExitStack() as leaving:
        try:
            output = leaving.enter_context(staging)
        except Exception:
            check_first()
            raise
        report = KitReport(output.root)
        report.options = options
        report.catalogues = {game.info.name: catalogue for game, catalogue in resolved}
        report.theme = theme
        # The jobs of each game: those that need no check first (they may start while
        # the checks run), then the rulebooks', planned after them (their languages
        # load the rulebooks' code, which the checks load anyway).
        first: list[list[tuple[str, Game, KitJob]]] = []  # (scope, game, job) per game
        kits = []
        try:
            for game, catalogue in resolved:
                kits.append(game_kit(game, catalogue, theme, output, numbers=options.numbers))
                first.append(_scoped(game, kit_jobs(kits[-1], layouts, options, (),
                                                    alone=len(resolved) == 1)))
        except Exception:
            check_first()
            raise
        scoped: list[tuple[str, Game, KitJob]] = [item for items in first for item in items]

        def then() -> tuple[list[KitJob], int]:  # run_jobs: before it tells of any job
            check_first()
            scoped[:] = []
            for (game, _catalogue), kit, planned in zip(resolved, kits, first, strict=True):
                scoped.extend(planned)
                scoped.extend(_scoped(game, rulebook_jobs(kit, options,
                                                          _rulebook_langs(options, game))))
            if events is not None:
                events.planned([f"{game.info.name} {job.label or job.part}"
                                for _s, game, job in scoped])
            jobs = [job for _scope, _game, job in scoped]
            return jobs, workers_for(options.jobs, [job.cost for job in jobs])

        def named(job: KitJob) -> str:  # as its progress line calls it
            game = next(game for _s, game, piece in scoped if piece is job)
            return f"{game.info.name} {job.label or job.part}"

        if "rulebooks" in options.parts:
            # Whether to start the first jobs in a worker: as the whole build would be
            # (workers_for) with one rulebook job at least, the cheapest there is.
            # The tile files start while the checks run: the other jobs planned so far
            # (sheets) wait for the pool, whose workers share the PDF code the
            # rulebooks import, instead of importing it once more.
            workers = workers_for(options.jobs, [job.cost for _s, _g, job in scoped]
                                  + [PARALLEL_MIN_COST])
            results = run_jobs([job for _scope, _game, job in scoped if job.part == TILE_FILES],
                               workers, say, events, then=then, name=named)
        else:  # nothing to check
            jobs, workers = then()
            results = run_jobs(jobs, workers, say, events, name=named)
        made: dict[str, list[Path]] = {}
        for (scope, _game, job), written in zip(scoped, results, strict=True):
            report.files.extend(written.paths)
            report.prints.update(written.prints)
            made.setdefault(scope, []).extend(written.paths)
            report.counts[job.part] = report.counts.get(job.part, 0) + len(written.paths)
        report.made = made
        misplaced = _misplaced(output.root, scoped, [written.paths for written in results])
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


def _misplaced(root: Path, scoped: Sequence[tuple[str, Game, KitJob]],
               results: Sequence[Sequence[Path]]) -> list[Diagnostic]:
    """Files a game wrote outside its own folder (its ``output_dir``), into another
    registered game's folder, or over a file of another game: each game's kit must leave the
    others' alone, whatever plugins are installed."""
    folders = {game.info.name: game.info.output_dir for game in registry.games()}
    folders |= {game.info.name: game.info.output_dir for _scope, game, _job in scoped}
    owner: dict[Path, str] = {}
    problems: list[Diagnostic] = []
    for (_scope, plugin, _job), paths in zip(scoped, results, strict=True):
        game = plugin.info.name
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


def _language_problems(resolved: Sequence[Resolved],
                       options: KitOptions) -> list[Diagnostic]:
    """Each language asked for that a game's rulebook lacks, named with the game."""
    if options.langs is None or "rulebooks" not in options.parts:
        return []
    problems = []
    for game, _catalogue in resolved:
        book = game.rulebook
        if book is None:
            continue
        have = book.languages()
        for lang in options.langs:
            if lang not in have:
                problems.append(Diagnostic(
                    str(book.locales_dir), 0, 0, f"the {game.info.title} rulebook has no "
                    f"language '{lang}' (it has: {', '.join(have)}); leave --lang out, or "
                    "choose among them"))
    return problems


def _check_rulebooks(resolved: Sequence[Resolved], options: KitOptions) -> None:
    """Every rulebook's texts and figure claims, checked before anything is written (the
    rulebook jobs find the result ready: forked workers inherit it)."""
    if "rulebooks" not in options.parts:
        return
    from micropul_print.rulebook import check_rulebook

    problems: list[Diagnostic] = []
    for game, catalogue in resolved:
        langs = _rulebook_langs(options, game)
        if not langs:
            continue
        try:
            check_rulebook(catalogue, langs)
        except UserError as exc:
            problems.extend(exc.diagnostics)
    if problems:
        raise UserError(problems)


def _scoped(game: Game, jobs: Sequence[KitJob]) -> list[tuple[str, Game, KitJob]]:
    """Each job's pieces (a progress line for each rulebook...), with its scope in the
    summary (``<game>/<part>``) and its game."""
    return [(f"{game.info.name}/{job.part}", game, piece) for job in jobs
            for piece in job.split()]


def _quiet_staging(out: Path) -> bool:
    """Whether entering the staging of ``out`` (outputs.Staging) leaves no trace a user
    could see when the build then stops: at most ``out`` itself is made (and removed
    again), and no earlier build's commit journal or staged files wait there to be
    finished or removed (with a note)."""
    from micropul_print.kit.outputs import JOURNAL, STAGING_PREFIX

    try:
        root = out.absolute()
        if not root.parent.is_dir():
            return False
        if not root.exists():
            return not root.is_symlink()
        return (root.is_dir() and not os.path.lexists(root / JOURNAL)
                and not any(root.glob(f"{STAGING_PREFIX}*")))
    except (OSError, ValueError):  # found again, and said, by the staging
        return False


def _catalogues(options: KitOptions, loaded: Any = None) -> list[Any]:
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
    given = (loaded if loaded is not None else read(options.catalogue)
             if options.catalogue is not None else None)
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
                 for game in games or [registry.default_game().info.name]]
    if problems:
        raise UserError(problems)
    return [catalogue for catalogue in found if catalogue is not None]


def _rulebook_langs(options: KitOptions, game: Game) -> list[str]:
    """The languages asked for (the rulebook reports any it has no text for), or every
    language of the game's book; none for a game without a book."""
    if "rulebooks" not in options.parts:  # before asking for the book: it loads Babel
        return []
    book = game.rulebook
    if book is None:
        return []
    return list(options.langs) if options.langs is not None else book.languages()



def _layouts(papers: Sequence[str]) -> list[SheetLayout]:
    return [load_layout(paper) for paper in papers]


def format_summary(report: KitReport) -> str:
    total = 0
    for path in report.files:
        with contextlib.suppress(OSError):  # a file removed since: count what is left
            total += path.stat().st_size
    parts = ", ".join(_counted(count, part) for part, count in sorted(report.counts.items()))
    lines = [f"wrote {_counted(len(report.files), 'files')} ({parts or 'nothing'}), "
             f"{_size(total)}, into {printable(str(report.root))} in {report.seconds:.2f} s"]
    lines += [f"note: {note}" for note in report.notes]
    lines += print_instructions(report)
    built = {scope.partition("/")[0] for scope in report.made}
    more = more_available(report.options, built)
    if more:
        lines.append(f"also available: {more}")
    return "\n".join(lines)


def more_available(options: KitOptions, built: set[str]) -> str:
    """In one line, what else a build of the games ``built`` can make that this one did
    not (the options that ask for it), or "" when it made everything."""
    from micropul_print.base.paper import PAPER_NAMES

    more = []
    others = [game for game in registry.games() if game.info.name not in built]
    if built and others:
        names = " and ".join(f"{game.info.title}'s" for game in others)
        more.append(f"{names} kit (--game {others[0].info.name if len(others) == 1 else 'all'}"
                    f"{' or all' if len(others) == 1 else ''})")
    if "sheets" in options.parts or "rulebooks" in options.parts:
        papers = [paper for paper in PAPER_NAMES if paper not in options.papers]
        if papers:
            more.append(f"the kit on {' and '.join(papers)} paper (--paper "
                        f"{papers[0] if len(papers) == 1 else 'all'})")
    if "rulebooks" in options.parts and not options.booklets:
        more.append("the rulebooks as booklets (--booklet)")
    if "sheets" in options.parts:
        duplex = "duplex" in options.sheet_layouts
        if "gutter-fold" not in options.sheet_layouts:
            more.append("gutter-fold sheets (--layout gutter-fold or all)")
        if not duplex:
            more.append("duplex sheets (--layout duplex or all)")
        if not options.cut_files:
            # Cut files go with the duplex sheets: --cut-files alone would be refused.
            more.append("cut files (--cut-files)" if duplex
                        else "cut files (--layout all --cut-files)")
        if not options.print_shop:
            more.append("a print shop's file (--print-shop)")
    return "; ".join(more)


def print_instructions(report: KitReport) -> list[str]:
    """What to print: each PDF of the sheets parts, with its paper, how it is printed
    (double-sided, flipped on which edge, or single-sided) and its sheets of paper, as
    the job that wrote it recorded; then the rulebooks and booklets, a line per folder
    and kind; and at which scale (100 %, whatever --scale was)."""
    def recorded(suffix: str) -> list[tuple[Path, PrintRecord]]:
        return [(path, report.prints[path]) for scope, paths in report.made.items()
                if scope.endswith(suffix) for path in paths if path in report.prints]

    sheets, books = recorded("/sheets"), recorded("/rulebooks")
    if not sheets and not books:
        return []
    scale = report.options.scale
    lines = ['to print, at 100 % ("Actual size"; never "Fit to page" or "Shrink to fit"):']
    for path, record in sheets:
        lines.append(f"  {path.relative_to(report.root).as_posix()}: {_how_to_print(record)}")
    # The books of every language print alike: a line per folder and advice.
    grouped: dict[tuple[str, str], list[str]] = {}
    for path, record in books:
        folder = path.parent.relative_to(report.root).as_posix()
        grouped.setdefault((folder, _how_to_print(record)), []).append(path.name)
    for (folder, advice), names in grouped.items():
        lines.append(f"  {folder}/{_pattern(names)}: {advice}"
                     + (f" each ({len(names)} files)" if len(names) > 1 else ""))
    if scale != (100.0, 100.0):
        lines.append(f"  (already enlarged for a printer that prints at {scale[0]:g} % x "
                     f"{scale[1]:g} %: --scale)")
    return lines


def _how_to_print(record: PrintRecord) -> str:
    """"A4, double-sided, flip on the long edge, 2 sheets"."""
    how = ("single-sided" if record.flip is None
           else f"double-sided, flip on the {record.flip} edge")
    count = record.sheets
    return f"{record.paper}, {how}, {count} sheet{'s' if count != 1 else ''}"


def _pattern(names: Sequence[str]) -> str:
    """One name, or the names as one with their differing parts in braces, as a shell
    writes them (``book-{de,en}-booklet-a4.pdf``): a ``*`` there also matched the
    booklets of ``book-*-a4.pdf``. Only whole segments (between ``-``, ``.`` and
    ``_``) are shared: ``rules-e{n,s}-a4.pdf`` was a valid pattern nobody reads; names
    that share no such part, or one of which would be left with nothing in the braces,
    are listed whole."""
    if len(names) == 1:
        return names[0]
    split = [_SEGMENTS.split(name) for name in names]  # separators kept, at odd places
    # os.path.commonprefix compares any sequences item by item: here whole segments.
    head = len(os.path.commonprefix(split))  # noqa: RUF071
    tail = len(os.path.commonprefix([parts[head:][::-1] for parts in split]))  # noqa: RUF071
    middles = ["".join(parts[head:len(parts) - tail]) for parts in split]
    if not all(middles):
        return f"{{{','.join(sorted(names))}}}"
    return (f"{''.join(split[0][:head])}{{{','.join(sorted(middles))}}}"
            f"{''.join(split[0][len(split[0]) - tail:])}")


_SEGMENTS = re.compile(r"([-._])")


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
