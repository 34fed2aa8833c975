"""The whole print-and-play kit, built into one output directory.

Catalogue and theme are read (all their problems reported at once), then each part
asked for is written through :class:`micropul_print.outputs.OutputDir`: the tile
images, the duplex PDF sheets for each paper, and the rulebooks when that package is
present. Heavy libraries are imported only by the parts that need them, so that a
build of a few parts starts fast (bench/kit.py measures it).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

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
    parts: frozenset[str] = PARTS
    strict: bool = False


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
    from micropul_print.catalogue.loader import DEFAULT_CATALOGUE, load_catalogue
    from micropul_print.draw.theme import load_theme

    started = time.perf_counter()
    say = progress or (lambda _message: None)
    unknown = set(options.parts) - PARTS
    if unknown:
        raise ValueError(f"unknown kit parts: {sorted(unknown)}")
    catalogue = load_catalogue(options.catalogue or DEFAULT_CATALOGUE, strict=options.strict)
    theme = load_theme(options.theme, strict=options.strict)
    layouts = _layouts(options.papers) if "sheets" in options.parts else []
    output = OutputDir(out)
    report = KitReport(output.root)
    art = TileArt(catalogue, theme, numbers=options.numbers)

    def wrote(part: str, paths: Sequence[Path]) -> None:
        report.files.extend(paths)
        report.counts[part] = report.counts.get(part, 0) + len(paths)

    if "png" in options.parts:  # the complete tile files: SVG, PNG and the overview
        from micropul_print.tilefiles import write_tile_files

        def tile_progress(message: str) -> None:
            say(f"writing tile files: {message}")

        if options.bleed is None:  # tilefiles' own default bleed for the PNG files
            tiles = write_tile_files(catalogue, theme, output, dpi=options.dpi,
                                     show_numbers=options.numbers, progress=tile_progress)
        else:
            tiles = write_tile_files(catalogue, theme, output, dpi=options.dpi,
                                     bleed=options.bleed, show_numbers=options.numbers,
                                     progress=tile_progress)
        wrote("tile files", tiles)
    elif "svg" in options.parts:
        wrote("tile files", write_svg_files(art, output, progress=say))

    for layout in layouts:
        path = write_sheets(art, output, layout, sheet_options(options), progress=say)
        wrote("sheets", [path])

    if "rulebooks" in options.parts:
        from micropul_print.rulebook import available_languages, build_rulebooks

        # Rulebook file names carry no paper: one set, on the first paper asked for.
        langs = available_languages() if options.langs is None else list(options.langs)
        paths = build_rulebooks(catalogue, theme, output, langs=langs, paper=options.papers[0],
                                progress=lambda message: say(f"writing {message}"))
        wrote("rulebooks", list(paths))

    report.seconds = time.perf_counter() - started
    return report


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
