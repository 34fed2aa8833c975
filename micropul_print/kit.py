"""The whole print-and-play kit, built into one output directory.

Catalogues and theme are read (all their problems reported at once), then each part
asked for is written through :class:`micropul_print.outputs.OutputDir`: the tile
images, the duplex PDF sheets for each paper, and the rulebooks. Micropul's parts are
made here; another game's come from its own kit module (Cellulae:
:mod:`micropul_print.cellulae_kit`, under ``cellulae/``), run as jobs of the same
build. Heavy libraries are imported only by the parts that need them, so that a build
of a few parts starts fast (bench/kit.py measures it).

The parts are independent jobs, each writing its own files. With more than one CPU
(``KitOptions.jobs``) they run in forked worker processes, after the parent has read
the inputs and imported the libraries the jobs share; results, progress messages and
problems are collected in the jobs' fixed order, so output and summary never depend on
which worker finished first.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from micropul_print.errors import Diagnostic, UserError
from micropul_print.outputs import OutputDir
from micropul_print.sheets.duplex import Flip
from micropul_print.sheets.layout import SheetLayout, load_layout
from micropul_print.sheets.pages import Card, SheetOptions, SheetPlan, plan_sheets

if TYPE_CHECKING:
    from micropul_print.catalogue.model import Catalogue
    from micropul_print.draw.primitives import Drawing
    from micropul_print.draw.theme import Theme

Progress = Callable[[str], None]

PARTS = frozenset({"svg", "png", "sheets", "rulebooks"})
STONES_PER_PLAYER = 3
STONE_DIAMETER = 14.0  # mm: cut with scissors from a 30 mm slot
AUTHOR = "Jean-François Lassonde (game); micropul-print (print-and-play kit)"


class KitOptions(NamedTuple):
    catalogue: Path | None = None  # None: the bundled catalogue
    theme: str = "classic"
    papers: Sequence[str] = ("a4", "letter")
    bleed: float | None = None  # None: 0 on sheets, the tile images' own default on PNGs
    dpi: int = 300
    numbers: bool = True
    flip: Flip = "long"
    back_offset: tuple[float, float] = (0.0, 0.0)
    calibration: bool = True
    langs: Sequence[str] | None = None  # None: every language the rulebook has
    # Games whose kits are built, from their shipped catalogues except the game of
    # ``catalogue``, which stands in for its own; None: the game of ``catalogue``, or
    # Micropul without one. A ``catalogue`` of a game left out is an error.
    games: Sequence[str] | None = None
    parts: frozenset[str] = PARTS
    strict: bool = False
    jobs: int | None = None  # worker processes; None: one per CPU; 1: all in this process


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

    Raises UserError (catalogue, theme or layout problems) before writing anything.
    """
    from micropul_print.draw.theme import load_theme

    started = time.perf_counter()
    say = progress or (lambda _message: None)
    unknown = set(options.parts) - PARTS
    if unknown:
        raise ValueError(f"unknown kit parts: {sorted(unknown)}")
    catalogues = _catalogues(options)
    theme = load_theme(options.theme, strict=options.strict)
    layouts = _layouts(options.papers) if "sheets" in options.parts else []
    output = OutputDir(out)
    report = KitReport(output.root)

    jobs: list[_Job] = []
    for catalogue in catalogues:
        if catalogue.game == "micropul":
            jobs += _micropul_jobs(catalogue, theme, output, layouts, options)
        else:
            jobs += _cellulae_jobs(catalogue, theme, output, layouts, options)
    pieces = [piece for job in jobs for piece in job.split()]
    workers = _workers(options.jobs, [piece.cost for piece in pieces])
    if workers > 1:
        jobs = pieces
    for job, paths in zip(jobs, _run_jobs(jobs, workers, say), strict=True):
        report.files.extend(paths)
        report.counts[job.part] = report.counts.get(job.part, 0) + len(paths)
    report.seconds = time.perf_counter() - started
    return report


def _catalogues(options: KitOptions) -> list[Catalogue]:
    """The catalogue of each game to build, in the order of ``options.games``: a given
    ``catalogue`` stands for its own game, the shipped ones for the others. Every
    problem of every catalogue is raised at once."""
    from micropul_print.catalogue.loader import load_catalogue, shipped_catalogue

    problems: list[Diagnostic] = []

    def read(path: Path) -> Catalogue | None:  # its problems kept, to report with the rest
        try:
            return load_catalogue(path, strict=options.strict)
        except UserError as exc:
            problems.extend(exc.diagnostics)
            return None

    games = list(options.games or ())
    given = read(options.catalogue) if options.catalogue is not None else None
    if given is not None and games and given.game not in games:
        problems.append(Diagnostic(
            given.source, *given.game_at, f"this is a {given.game} catalogue, but the build "
            f"asks for {' and '.join(games)} only: leave --game out, or give that game's "
            "catalogue"))
    if options.catalogue is not None and not games:
        found = [given]
    else:
        found = [given if given is not None and given.game == game
                 else read(shipped_catalogue(game)) for game in games or ["micropul"]]
    if problems:
        raise UserError(problems)
    return [catalogue for catalogue in found if catalogue is not None]


def _micropul_jobs(catalogue: Catalogue, theme: Theme, output: OutputDir,
                   layouts: Sequence[SheetLayout], options: KitOptions) -> list[_Job]:
    from micropul_print.games.micropul import check_theme

    check_theme(theme)  # before any job starts
    art = TileArt(catalogue, theme, numbers=options.numbers)
    jobs: list[_Job] = []
    if "png" in options.parts:  # the complete tile files: SVG, PNG and the overview
        jobs.append(_Job("tile files", _tile_files_job(art, output, options), cost=6,
                         imports=_TILE_IMPORTS))
    elif "svg" in options.parts:
        jobs.append(_Job("tile files", lambda say: write_svg_files(art, output, progress=say),
                         cost=1, imports=_TILE_IMPORTS[:1]))
    for layout in layouts:
        jobs.append(_Job("sheets", _sheets_job(art, output, layout, sheet_options(options)),
                         cost=1))
    if "rulebooks" in options.parts:
        # Rulebook file names carry no paper: one set, on the first paper asked for. In
        # parallel, a job per language (each checks its own texts and the figures).
        langs = _rulebook_langs(options, catalogue.game)
        jobs.append(_Job("rulebooks", _rulebooks_job(art, output, langs, options.papers[0]),
                         cost=4 * len(langs), imports=_RULEBOOK_IMPORTS,
                         pieces=[_rulebooks_job(art, output, [lang], options.papers[0])
                                 for lang in langs]))
    return jobs


def _cellulae_jobs(catalogue: Catalogue, theme: Theme, output: OutputDir,
                   layouts: Sequence[SheetLayout], options: KitOptions) -> list[_Job]:
    """Cellulae's parts as jobs of this build: its tile files, its sheets and boards for
    each paper, each a call of its kit module limited to that part."""
    from micropul_print.catalogue.cellulae import CellulaeCatalogue

    if not isinstance(catalogue, CellulaeCatalogue):
        raise TypeError(f"not a Cellulae catalogue: {catalogue.source}")
    cellulae = catalogue
    from micropul_print.games.cellulae import check_theme

    check_theme(cellulae, theme)  # before any job starts

    def part(parts: set[str], papers: Sequence[str],
             langs: Sequence[str] | None = None) -> Callable[[Progress], list[Path]]:
        def run(say: Progress) -> list[Path]:
            from micropul_print.cellulae_kit import build_cellulae_kit

            return build_cellulae_kit(
                cellulae, theme, output, papers=papers, bleed=options.bleed,
                dpi=options.dpi, flip=options.flip, back_offset=options.back_offset,
                calibration=options.calibration, parts=frozenset(parts), progress=say,
                langs=langs)
        return run

    imports = ("micropul_print.cellulae_kit", "micropul_print.games.cellulae")
    jobs: list[_Job] = []
    if "png" in options.parts:
        jobs.append(_Job("tile files", part({"png"}, ()), cost=2,
                         imports=(*imports, *_TILE_IMPORTS)))
    elif "svg" in options.parts:
        jobs.append(_Job("tile files", part({"svg"}, ()), cost=1, imports=imports))
    for layout in layouts:
        jobs.append(_Job("sheets", part({"sheets"}, (layout.name,)), cost=1,
                         imports=(*imports, *_PDF_IMPORTS)))
    if "rulebooks" in options.parts:  # as Micropul's: one set, on the first paper
        langs = _rulebook_langs(options, cellulae.game)
        paper = (options.papers[0],)
        jobs.append(_Job("rulebooks", part({"rulebooks"}, paper, langs), cost=4 * len(langs),
                         imports=(*imports, *_RULEBOOK_IMPORTS),
                         pieces=[part({"rulebooks"}, paper, [lang]) for lang in langs]))
    return jobs


# Rough job costs: the SVG files or a sheet 1, a rulebook 4, the PNG files 6 (the
# longest single job: started first, the rulebooks fill the other workers meanwhile).
PARALLEL_MIN_COST = 3


_TILE_IMPORTS = ("micropul_print.backends.svg", "micropul_print.tilefiles",
                 "micropul_print.backends.png")
_PDF_IMPORTS = ("micropul_print.backends.pdf", "micropul_print.sheets.pdf")
_RULEBOOK_IMPORTS = (*_PDF_IMPORTS, "micropul_print.rulebook",
                     "micropul_print.rulebook.layout")


class _Job(NamedTuple):
    """One independent part of a build: writes its files, returns their paths."""

    part: str  # as counted in the summary
    run: Callable[[Progress], list[Path]]
    cost: int  # rough relative time, to start the longest jobs first
    # Modules the job will import: loaded before forking, so workers share them.
    imports: tuple[str, ...] = _PDF_IMPORTS
    # The same work as smaller jobs (one per language...), to use in parallel.
    pieces: Sequence[Callable[[Progress], list[Path]]] = ()

    def split(self) -> list[_Job]:
        if not self.pieces:
            return [self]
        share = max(1, self.cost // len(self.pieces))
        return [_Job(self.part, run, share, self.imports) for run in self.pieces]


def _tile_files_job(art: TileArt, output: OutputDir,
                    options: KitOptions) -> Callable[[Progress], list[Path]]:
    def run(say: Progress) -> list[Path]:
        from micropul_print.tilefiles import write_tile_files

        def tile_progress(message: str) -> None:
            say(f"writing tile files: {message}")

        if options.bleed is None:  # tilefiles' own default bleed for the PNG files
            return write_tile_files(art.catalogue, art.theme, output, dpi=options.dpi,
                                    show_numbers=options.numbers, progress=tile_progress)
        return write_tile_files(art.catalogue, art.theme, output, dpi=options.dpi,
                                bleed=options.bleed, show_numbers=options.numbers,
                                progress=tile_progress)
    return run


def _sheets_job(art: TileArt, output: OutputDir, layout: SheetLayout,
                options: SheetOptions) -> Callable[[Progress], list[Path]]:
    return lambda say: [write_sheets(art, output, layout, options, progress=say)]


def _rulebooks_job(art: TileArt, output: OutputDir, langs: Sequence[str],
                   paper: str) -> Callable[[Progress], list[Path]]:
    def run(say: Progress) -> list[Path]:
        from micropul_print.rulebook import build_rulebooks

        return list(build_rulebooks(art.catalogue, art.theme, output, langs=langs,
                                    paper=paper,
                                    progress=lambda message: say(f"writing {message}")))
    return run


def _rulebook_langs(options: KitOptions, game: str) -> list[str]:
    """The languages asked for (the rulebook reports any it has no text for), or every
    language of the game's book."""
    if options.langs is not None:
        return list(options.langs)
    from micropul_print.rulebook import available_languages

    return list(available_languages(game))


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
_PENDING: list[_Job] = []

# What a job sends back: its paths, its progress messages, and its problems (a worker
# cannot raise UserError across processes with its diagnostics intact).
_Outcome = tuple[list[Path], list[str], tuple[Diagnostic, ...]]


def _run_job(index: int) -> _Outcome:
    messages: list[str] = []
    try:
        return _PENDING[index].run(messages.append), messages, ()
    except UserError as exc:
        return [], messages, exc.diagnostics


def _run_jobs(jobs: Sequence[_Job], workers: int, say: Progress) -> list[list[Path]]:
    """Run every job, in worker processes when ``workers`` > 1; results in job order.
    Progress is told as each job's turn comes; every problem of every job is raised
    together, as one UserError."""
    if workers <= 1:  # in this process: progress as it happens, the first problem stops
        return [job.run(say) for job in jobs]
    results: list[list[Path]] = []
    problems: list[Diagnostic] = []
    _prepare_workers(jobs)
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    _PENDING[:] = jobs
    try:
        with ProcessPoolExecutor(max_workers=workers,
                                 mp_context=multiprocessing.get_context("fork")) as pool:
            # Longest first, so that no long job starts last; results read in job order.
            order = sorted(range(len(jobs)), key=lambda i: -jobs[i].cost)
            futures = {index: pool.submit(_run_job, index) for index in order}
            for index in range(len(jobs)):
                paths, messages, diagnostics = futures[index].result()
                for message in messages:
                    say(message)
                problems.extend(diagnostics)
                results.append(paths)
    finally:
        _PENDING.clear()
    if problems:
        raise UserError(dict.fromkeys(problems))  # a problem two jobs found, once
    return results


def _prepare_workers(jobs: Sequence[_Job]) -> None:
    """Import, before forking, what the jobs will import anyway: each worker then finds
    it loaded (and shares its memory) instead of importing it again."""
    import importlib

    modules = dict.fromkeys(["micropul_print.games.micropul",
                             *(name for job in jobs for name in job.imports)])
    for name in modules:
        with contextlib.suppress(ImportError):  # only a head start: the job will tell
            importlib.import_module(name)


class TileArt:
    """Each tile picture made once per build, shared by the SVG files and the sheets
    (without bleed they are the very same drawings)."""

    def __init__(self, catalogue: Catalogue, theme: Theme, *, numbers: bool = True) -> None:
        self.catalogue, self.theme, self.numbers = catalogue, theme, numbers
        self._fronts: dict[float, list[Drawing]] = {}
        self._backs: dict[float, Drawing] = {}

    def fronts(self, bleed: float = 0.0) -> list[Drawing]:
        from micropul_print.games.micropul import tile_drawing

        if bleed not in self._fronts:
            self._fronts[bleed] = [tile_drawing(tile, self.theme, bleed=bleed,
                                                show_number=self.numbers)
                                   for tile in self.catalogue.tiles]
        return self._fronts[bleed]

    def back(self, bleed: float = 0.0) -> Drawing:
        from micropul_print.games.micropul import back_drawing

        if bleed not in self._backs:
            self._backs[bleed] = back_drawing(self.theme, bleed=bleed)
        return self._backs[bleed]


def write_svg_files(art: TileArt, output: OutputDir, *,
                    progress: Progress | None = None) -> list[Path]:
    """Only the SVG tile files, as tilefiles names them, from the shared drawings."""
    from micropul_print.backends.svg import to_svg
    from micropul_print.tilefiles import BACK_NAME, SVG_DIR, tile_name

    if progress:
        progress(f"writing {output.path(SVG_DIR)}/*.svg")
    written = [output.write_bytes(f"{SVG_DIR}/{tile_name(tile.id)}.svg", to_svg(drawing))
               for tile, drawing in zip(art.catalogue.tiles, art.fronts(), strict=True)]
    written.append(output.write_bytes(f"{SVG_DIR}/{BACK_NAME}.svg", to_svg(art.back())))
    return written


def sheet_options(options: KitOptions) -> SheetOptions:
    return SheetOptions(bleed=options.bleed or 0.0, flip=options.flip,
                        back_offset=options.back_offset, calibration=options.calibration)


def sheet_file_name(game: str, paper: str) -> str:
    return f"{game}-tiles-{paper}.pdf"


def plan_tile_sheets(art: TileArt, layout: SheetLayout, options: SheetOptions) -> SheetPlan:
    """The Micropul side of the sheets: 48 faces with the common back, 30 mm cut, and the
    players' stones as tokens. The sheet layer itself knows none of this."""
    from micropul_print.games import micropul

    back = art.back(options.bleed)  # one drawing behind every card
    cards = [Card(front, back) for front in art.fronts(options.bleed)]
    tokens: list[Card] = []
    for player in micropul.PLAYERS:
        stone = micropul.stone_drawing(player, art.theme, STONE_DIAMETER)
        # Printed on both sides, so a cut stone shows its colour either way up.
        tokens += [Card(stone, stone)] * STONES_PER_PLAYER
    size = micropul.TILE_SIZE_MM
    return plan_sheets(layout, cards, size, size, art.catalogue.name, tokens=tokens,
                       options=options)


def write_sheets(art: TileArt, output: OutputDir, layout: SheetLayout, options: SheetOptions,
                 *, progress: Progress | None = None) -> Path:
    """Write ``sheets/<game>-tiles-<paper>.pdf``; returns its path."""
    from micropul_print.sheets.pdf import DocumentInfo, render_pdf

    catalogue = art.catalogue
    relative = Path("sheets") / sheet_file_name(catalogue.game, layout.name)
    if progress:
        progress(f"writing {output.path(relative)}")
    plan = plan_tile_sheets(art, layout, options)
    info = DocumentInfo(
        title=f"{catalogue.name} — tiles, {layout.label}",
        author=AUTHOR,
        subject=f"Print-and-play tiles of {catalogue.name}: {len(catalogue.tiles)} tiles "
                f"of {plan.grid.card_width:g} mm, duplex sheets for {layout.label} paper",
    )
    return output.write_bytes(relative, render_pdf(plan, info))


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
