"""The kit's plan, one for every game: which files a build makes of a game's pieces
(micropul_print.game.pieces) for the parts, papers, sheet layouts and languages asked for,
and the jobs that write them. A game plans nothing: a new paper or layout is a change
here (and in the layout's own module), never in a game package.

Files (a contract, listed in docs/output-layout.md), under the game's ``output_dir``:

    tiles/svg/<face>.svg, tiles/png/<face>.png, tiles/overview.png     part svg / png
    sheets/<game>-tiles-<paper>.pdf, sheets/<game>-board-<key>-<paper>.pdf   part sheets
    sheets/<game>-tiles-gutterfold-<paper>.pdf                         --layout gutter-fold
    sheets/<game>-cut-<paper>.svg and -page<N>.svg                     --cut-files
    sheets/<game>-reprint-<paper>.pdf (-reprint-gutterfold-<paper>.pdf)   --tiles
    sheets/<game>-tiles-print-shop.pdf (-reprint-print-shop.pdf)       --print-shop
    rules/<game>-rules-<lang>-<paper>.pdf, -<lang>-booklet-<paper>.pdf part rulebooks

Each job writes through an OutputDir and returns what it wrote, with a record of each
PDF (its paper, how it is printed, its sheets of paper) for the build's summary: the
summary never reads a file back.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from micropul_print.base.errors import QUOTE_LIMIT, UsageError, printable, quoted
from micropul_print.base.paper import PAPER_NAMES, PAPERS
from micropul_print.base.record import record
from micropul_print.sheets.duplex import Flip

if TYPE_CHECKING:
    from micropul_print.draw.theme import Theme
    from micropul_print.game.pieces import BoardPiece, KitPieces
    from micropul_print.game.plugin import Game, GameInfo
    from micropul_print.kit.outputs import OutputDir
    from micropul_print.sheets.layout import SheetLayout
    from micropul_print.sheets.pages import Card, SheetOptions

# A job tells how it goes by messages; one ending in "N/M" (``tile 7/48``) counts its
# steps, which the build's progress line shows.
Progress = Callable[[str], None]

# The parts of a kit a build can ask for.
KIT_PARTS = frozenset({"svg", "png", "sheets", "rulebooks"})
# The ways the sheets part can lay out the tiles (KitOptions.sheet_layouts).
SHEET_LAYOUTS = ("duplex", "gutter-fold")
# The part of the jobs writing a game's tile images (KitJob.part).
TILE_FILES = "tile files"
OVERVIEW_DPI = 100  # enough to read the numbers; a whole set stays under 1 MB
OVERVIEW_BACKDROP = "#c8c8c8"  # mid grey, so white tile edges stand out
# Each tile's number under it, legible at 100 %: the faces' own numbers are 1.9 mm, a
# few pixels at the overview's resolution.
OVERVIEW_CAPTION_PX = 17  # text size: capitals and figures 12 pixels high
OVERVIEW_CAPTION_BAND_PX = 22  # height of the band under each tile
OVERVIEW_CAPTION_COLOUR = "#202020"

# The PDFs' subjects (KitPieces.subjects overrides them per game). Words: {name} the
# set, {count} the tiles in the file and {tiles} "tile" or "tiles" to go with it,
# {total} the tiles of the set, {size} a tile's width in mm, {paper} the paper's label,
# {bleed} the print shop's bleed in mm.
SUBJECTS = {
    "sheets": "Print-and-play tiles of {name}: {count} tiles of {size} mm, duplex sheets "
              "for {paper} paper",
    "gutter-fold": "Print-and-play tiles of {name}: {count} tiles of {size} mm, gutter-fold "
                   "sheets for {paper} paper, printed single-sided, folded and glued",
    "reprint": "Reprint of {count} {tiles} of {name}, duplex sheets for {paper} paper",
    "reprint-gutter-fold": "Reprint of {count} {tiles} of {name}, gutter-fold sheets for "
                           "{paper} paper, printed single-sided, folded and glued",
    "print-shop": "{count} {tiles} of {name}, {size} mm with {bleed} mm bleed, one face a "
                  "page, each front followed by its back",
}


class KitOptions(NamedTuple):
    """What the user asked of a build, whatever the game."""

    catalogue: Path | None = None  # None: the shipped catalogues
    theme: str = "classic"
    papers: Sequence[str] = PAPER_NAMES
    bleed: float | None = None  # None: 0 on sheets, the tile images' own default on PNGs
    dpi: int = 300
    numbers: bool = True
    flip: Flip = "long"
    back_offset: tuple[float, float] = (0.0, 0.0)
    calibration: bool = True
    # The printer's scale in per cent (across, down): PDF sheets and boards are enlarged
    # to make up for it (sheets.pdf.scale_page); image files are not.
    scale: tuple[float, float] = (100.0, 100.0)
    langs: Sequence[str] | None = None  # None: every language each game's book has
    # The rulebooks part also writes each language's booklet (two pages up, to fold), on
    # each paper, as the books are.
    booklets: bool = True
    # Games whose kits are built, from their shipped catalogues except the game of
    # ``catalogue``, which stands in for its own; None: the game of ``catalogue``, or
    # the first registered game without one. A ``catalogue`` of a game left out is an
    # error.
    games: Sequence[str] | None = None
    parts: frozenset[str] = KIT_PARTS
    # How the sheets part prints the tiles, one file per paper each: "duplex" (double-
    # sided sheets), "gutter-fold" (fronts and backs side by side, folded and glued).
    sheet_layouts: Sequence[str] = ("duplex",)
    # Print and cut: the duplex tile sheets carry registration marks, and a cut file
    # (SVG) is written for each of their front pages holding pieces.
    cut_files: bool = False
    # Reprint: the sheets part also writes sheets of these card numbers only, in each of
    # ``sheet_layouts`` (a game whose cards have no numbers raises UsageError when it is
    # the only game built, and reprints nothing beside other games); None: no reprint.
    tiles: tuple[int, ...] | None = None
    # The sheets part also writes a file for a print shop: each different piece alone on
    # a page with 3 mm bleed, front then back, TrimBox and BleedBox set.
    print_shop: bool = False
    strict: bool = False
    jobs: int | None = None  # worker processes; None: one per CPU; 1: all in this process
    # A watch's rebuild after some tiles were edited (micropul_print.kit.changes): the
    # tile files of these faces only (TileImages.faces stems); None: of every face.
    tile_faces: frozenset[str] | None = None
    # Whether the png part writes the overview (a watch writes it after the faces).
    tile_overview: bool = True


@record
class PrintRecord:
    """How a PDF the build wrote is printed, as its job knew it: for the summary."""

    paper: str  # "A4", "A4, landscape", or "210 × 297 mm paper"
    flip: Flip | None  # None: single-sided
    pages: int

    @property
    def sheets(self) -> int:
        return self.pages if self.flip is None else (self.pages + 1) // 2


@record(frozen=False)
class Written:
    """What a job wrote: its files in order, and a PrintRecord for each PDF to print."""

    paths: list[Path] = field(default_factory=list)
    prints: dict[Path, PrintRecord] = field(default_factory=dict)

    def add(self, path: Path, record: PrintRecord | None = None) -> None:
        self.paths.append(path)
        if record is not None:
            self.prints[path] = record


JobRun = Callable[[Progress], Written]


@record
class KitJob:
    """One independent part of a build: writes its files, returns them (Written)."""

    part: str  # as counted in the summary: one of KIT_PARTS' names or TILE_FILES
    run: JobRun
    cost: int  # rough relative time, to start the longest jobs first
    # Modules the job will import: loaded before forking, so workers share them.
    imports: tuple[str, ...] = ()
    # The same work as smaller jobs (one per language...), to use in parallel.
    pieces: Sequence[JobRun] = field(default=())
    # What the build's progress line calls the job ("sheets a4"; default: its part),
    # and each of its pieces ("rulebook en").
    label: str = ""
    piece_labels: Sequence[str] = ()
    # Each piece's cost (default: a share of the job's).
    piece_costs: Sequence[int] = ()

    def split(self) -> list[KitJob]:
        if not self.pieces:
            return [self]
        share = max(1, self.cost // len(self.pieces))
        labels = list(self.piece_labels) or [self.label] * len(self.pieces)
        costs = list(self.piece_costs) or [share] * len(self.pieces)
        return [KitJob(self.part, run, cost, self.imports, label=label)
                for run, label, cost in zip(self.pieces, labels, costs, strict=True)]


_TILE_IMPORTS = ("micropul_print.backends.svg", "micropul_print.backends.png")
_PDF_IMPORTS = ("micropul_print.backends.pdf", "micropul_print.sheets.pdf")
_RULEBOOK_IMPORTS = (*_PDF_IMPORTS, "micropul_print.rulebook",
                     "micropul_print.rulebook.layout")


@record
class GameKit:
    """One game's catalogue, theme and pieces, resolved once for a build, and where its
    files go."""

    info: GameInfo
    catalogue: Any
    theme: Theme
    pieces: KitPieces
    output: OutputDir

    def path(self, relative: str) -> str:
        """``relative`` under the game's folder of the output directory."""
        return f"{self.info.output_dir}/{relative}" if self.info.output_dir else relative

    def subject(self, kind: str, *, paper: str = "", count: int | None = None) -> str:
        template = self.pieces.subjects.get(kind, SUBJECTS[kind])
        bleed = 0.0
        if "{bleed" in template:  # the print shop's module only for its own subject
            from micropul_print.sheets.printshop import SHOP_BLEED as bleed
        # The set's cards counted only when the words need them (it draws them).
        total = len(self.pieces.cards(0.0)) if count is None or "{total}" in template else 0
        count = total if count is None else count
        return template.format(name=self.pieces.name, count=count, total=total,
                               tiles="tile" if count == 1 else "tiles",
                               size=f"{self.pieces.card_size[0]:g}", paper=paper,
                               bleed=f"{bleed:g}")


def game_kit(game: Game, catalogue: Any, theme: Theme, output: OutputDir, *,
             numbers: bool = True) -> GameKit:
    """``game``'s kit of ``catalogue`` in ``theme``, written into ``output``."""
    return GameKit(game.info, catalogue, theme,
                   game_pieces(game, catalogue, theme, numbers=numbers), output)


# The pieces last made of each game's catalogue in this process, with what they were
# made of: a watch compares an edit's faces (kit/changes.py), then builds twice of the
# same catalogue, and each face is drawn once.
_PIECES: dict[str, tuple[Any, Theme, bool, KitPieces]] = {}


def game_pieces(game: Game, catalogue: Any, theme: Theme, *, numbers: bool) -> KitPieces:
    """``game.pieces`` of this very catalogue object, made once in a row."""
    known = _PIECES.get(game.info.name)
    if (known is not None and known[0] is catalogue and known[2] == numbers
            and known[1] == theme):
        return known[3]
    pieces = game.pieces(catalogue, theme, numbers=numbers)
    _PIECES[game.info.name] = (catalogue, theme, numbers, pieces)
    return pieces


def kit_jobs(kit: GameKit, layouts: Sequence[SheetLayout], options: KitOptions,
             langs: Sequence[str], *, alone: bool = True) -> list[KitJob]:
    """The jobs writing ``kit``'s parts of ``options.parts`` on ``layouts`` (the papers'
    duplex layouts; none without the sheets part), its rulebooks in ``langs``.
    ``alone``: the only game of the build (its --tiles must be its own)."""
    unknown = set(options.parts) - KIT_PARTS
    if unknown:
        raise ValueError(f"unknown kit parts: {sorted(unknown)}")
    pieces = kit.pieces
    imports = pieces.imports
    jobs: list[KitJob] = []
    some = options.tile_faces is not None  # a few faces: cheap
    if "png" in options.parts:  # the complete tile files: SVG, PNG and the overview
        # The longest job of a kit (a PNG file per face): started first by the pool.
        jobs.append(KitJob(TILE_FILES, _tile_files_job(kit, options, png=True),
                           cost=1 if some else 6, imports=(*imports, *_TILE_IMPORTS),
                           label="tiles"))
    elif "svg" in options.parts:
        jobs.append(KitJob(TILE_FILES, _tile_files_job(kit, options, png=False), cost=1,
                           imports=(*imports, *_TILE_IMPORTS[:1]), label="tiles"))
    reprint = options.tiles
    if reprint is not None:  # every unknown number before any work, whatever --only
        if pieces.numbered is None:
            if alone:
                raise UsageError(f"argument --tiles: the {pieces.name} tiles have no numbers "
                                 "(they are all alike): leave --tiles out for this game")
            reprint = None  # the numbers are the other games'
        else:
            from micropul_print.sheets.reprint import numbers_outside

            name = kit.catalogue.name  # no bound of its own: a long one quoted and cut
            outside = numbers_outside(pieces.numbered.numbers, reprint,
                                      printable(name) if len(name) <= QUOTE_LIMIT
                                      else quoted(name))
            if outside is not None:
                raise UsageError(f"argument --tiles: {outside}")
    duplex = "duplex" in options.sheet_layouts
    fold = "gutter-fold" in options.sheet_layouts
    pdf_imports = (*imports, *_PDF_IMPORTS)
    for layout in layouts:
        # The boards go with the duplex sheets, or alone.
        if duplex or pieces.boards:
            what = "sheets" if duplex else "boards"
            jobs.append(KitJob("sheets", _sheets_job(kit, layout, options, tiles=duplex),
                               cost=1, imports=pdf_imports, label=f"{what} {layout.name}"))
        if fold:
            jobs.append(KitJob("sheets", _gutterfold_job(kit, layout.name, options),
                               cost=1, imports=pdf_imports, label=f"gutter fold {layout.name}"))
        if reprint is not None:  # as the full sheets: duplex, gutter fold or both
            for folded in [False] * duplex + [True] * fold:
                jobs.append(KitJob("sheets", _reprint_job(kit, layout, reprint, options,
                                                          fold=folded),
                                   cost=1, imports=pdf_imports,
                                   label=f"reprint {'gutter fold ' * folded}{layout.name}"))
    if options.print_shop and layouts:  # the sheets part, on no paper of ours
        jobs.append(KitJob("sheets", _print_shop_job(kit, options.flip, None), cost=1,
                           imports=pdf_imports, label="print shop"))
        if reprint is not None:  # as the sheets: the full file and the reprint
            jobs.append(KitJob("sheets", _print_shop_job(kit, options.flip, reprint),
                               cost=1, imports=pdf_imports, label="reprint print shop"))
    return jobs + rulebook_jobs(kit, options, langs)


def rulebook_jobs(kit: GameKit, options: KitOptions, langs: Sequence[str]) -> list[KitJob]:
    """The jobs writing ``kit``'s rulebooks in ``langs`` (kit_jobs' last), when
    ``options.parts`` asks for them."""
    imports = kit.pieces.imports
    jobs: list[KitJob] = []
    if "rulebooks" in options.parts and langs:
        # The rulebooks follow the sheets' papers. In parallel, a job per language and
        # kind (each lays its book out once and draws it on every paper; the texts and
        # figures were checked before).
        papers = list(options.papers)
        on = ",".join(papers)  # the labels name the papers: "rulebook en a4,letter"
        kinds = [False, True] if options.booklets else [False]
        costs = [_rulebook_cost(lang) for lang in langs]
        for booklet in kinds:
            kind = "booklet" if booklet else "rulebook"
            jobs.append(KitJob(
                "rulebooks", _rulebooks_job(kit, langs, papers, booklet=booklet),
                cost=sum(costs), imports=(*imports, *_RULEBOOK_IMPORTS),
                pieces=[_rulebooks_job(kit, [lang], papers, booklet=booklet)
                        for lang in langs],
                label=f"{kind}s {on}", piece_labels=[f"{kind} {lang} {on}" for lang in langs],
                piece_costs=costs))
    return jobs


# A rulebook job's cost (3: as the cheapest there is, kit/pool.py), and what a language's
# hyphenation patterns add: reading German's (1 MB, ten times any other's) makes its
# books the longest and largest jobs of a build, started first (on a fresh worker).
RULEBOOK_COST = 3
_PATTERN_BYTES_PER_COST = 250_000


def _rulebook_cost(lang: str) -> int:
    import pyphen  # type: ignore[import-untyped]

    from micropul_print.rulebook.hyphenation import HYPHENATION_DICTIONARIES

    name = HYPHENATION_DICTIONARIES.get(lang) or pyphen.language_fallback(lang)
    try:
        size = Path(pyphen.LANGUAGES[name]).stat().st_size if name else 0
    except (KeyError, OSError):
        size = 0
    return RULEBOOK_COST + size // _PATTERN_BYTES_PER_COST


def sheet_options(options: KitOptions) -> SheetOptions:
    from micropul_print.sheets.pages import SheetOptions

    return SheetOptions(bleed=options.bleed or 0.0, flip=options.flip,
                        back_offset=options.back_offset, calibration=options.calibration,
                        registration=options.cut_files, scale=options.scale)


def _chosen(kit: GameKit, bleed: float, wanted: Sequence[int]) -> list[Card]:
    """The cards numbered ``wanted``, in that order; UserError for numbers the set lacks."""
    from micropul_print.sheets.reprint import choose

    numbered = kit.pieces.numbered
    assert numbered is not None
    return choose(kit.pieces.cards(bleed), numbered.numbers, wanted, source=numbered.source,
                  at=numbered.at)


def _record(pdf: bytes, flip: Flip | None, paper: str) -> PrintRecord:
    """A rulebook's print record: its pages counted in the page tree of the bytes just
    made (the book's layout keeps its count to itself)."""
    import re

    pages = max((int(n) for n in re.findall(rb"/Count (\d+)", pdf)), default=0)
    return PrintRecord(paper, flip, pages)


# --- tile files ---------------------------------------------------------------------

def _tile_files_job(kit: GameKit, options: KitOptions, *, png: bool) -> JobRun:
    def run(say: Progress) -> Written:
        return write_tile_files(kit, png=png, dpi=options.dpi, bleed=options.bleed,
                                progress=say, only=options.tile_faces,
                                overview=options.tile_overview)
    return run


# The overview's thumbnail of each face last painted in this process, by (face file,
# drawing, dpi, bleed): a watch that rewrites one tile's files, then the overview, cuts
# the other tiles' thumbnails from here instead of painting every face again. One
# entry per face file, so it never outgrows a set.
_THUMBNAILS: dict[str, tuple[tuple[Any, int, float], Any]] = {}


def write_tile_files(kit: GameKit, *, png: bool, dpi: int = 300, bleed: float | None = None,
                     progress: Progress | None = None, only: frozenset[str] | None = None,
                     overview: bool = True) -> Written:
    """The SVG file of every face (cut size, no bleed) and, with ``png``, its PNG file
    (``bleed``, the pieces' own default when None) and, with ``overview``, the overview,
    in that order. ``only``: the files of the faces so named alone (a watch's rebuild of
    the tiles edited)."""
    from micropul_print.backends.svg import to_svg

    say = progress or (lambda _message: None)
    images = kit.pieces.images
    output = kit.output
    svg_dir, png_dir = kit.path("tiles/svg"), kit.path("tiles/png")
    written = Written()
    if not png:  # the PNG files count their steps instead
        say(f"writing {output.path(svg_dir)}/*.svg")
    for stem, drawing in images.faces(0.0):
        if only is None or stem in only:
            written.add(output.write_bytes(f"{svg_dir}/{stem}.svg", to_svg(drawing)))
    if not png:
        return written
    from micropul_print.backends.png import png_bytes, to_png, to_raster
    from micropul_print.game.pieces import FaceGrid

    bleed = images.png_bleed if bleed is None else bleed
    grid = images.overview if isinstance(images.overview, FaceGrid) else None
    # The overview is cut from the tile images when they show what it shows at no less
    # detail: painting the faces again at 100 dpi costs a third of the PNGs.
    reuse = overview and grid is not None and grid.reusable and dpi >= OVERVIEW_DPI
    thumbnails = []
    faces = images.faces(bleed)
    counted = grid.count if grid is not None else len(faces)
    for index, (stem, drawing) in enumerate(faces, start=1):
        wanted = only is None or stem in only
        key = (drawing, dpi, bleed)
        known = _THUMBNAILS.get(f"{kit.info.name}/{stem}")
        thumbnail = known[1] if known is not None and known[0] == key else None
        if wanted or (reuse and thumbnail is None and index <= counted):
            image = to_raster(drawing, dpi)
            if wanted:
                written.add(output.write_bytes(f"{png_dir}/{stem}.png", png_bytes(image, dpi)))
            if grid is not None and grid.reusable and index <= grid.count:
                thumbnail = _thumbnail(image, dpi, bleed, kit.pieces.card_size)
                _THUMBNAILS[f"{kit.info.name}/{stem}"] = (key, thumbnail)
        if reuse and grid is not None and index <= grid.count:
            thumbnails.append(thumbnail)
        if index <= counted and wanted:
            say(f"writing tile files: tile {index}/{counted}")
    if not overview:
        return written
    overview_path = kit.path("tiles/overview.png")
    if grid is None:
        assert not isinstance(images.overview, FaceGrid)
        picture = to_png(images.overview(), OVERVIEW_DPI)
    else:
        pictures = thumbnails if reuse else [to_raster(drawing, OVERVIEW_DPI)
                                             for drawing in grid.fallback()]
        picture = face_grid_png(pictures, columns=grid.columns, gap=grid.gap,
                                captions=grid.captions)
    written.add(output.write_bytes(overview_path, picture))
    say("writing tile files: tile overview")
    return written


def _thumbnail(image: Any, dpi: int, bleed: float, size: tuple[float, float]) -> Any:
    """The cut square of a tile image (without its bleed) at OVERVIEW_DPI: the average of
    the pixels each overview pixel covers, fractions of pixels included."""
    from PIL import Image as PILImage

    from micropul_print.backends.png import pixel_size

    px_per_mm = dpi / 25.4
    start = bleed * px_per_mm
    # The image is a whole number of pixels, rounded: without bleed its last pixel may
    # end a fraction before the cut line (30 mm at 300 dpi is 354.33 pixels, drawn 354).
    end_x = min((bleed + size[0]) * px_per_mm, image.width)
    end_y = min((bleed + size[1]) * px_per_mm, image.height)
    width, height = pixel_size(size[0], OVERVIEW_DPI), pixel_size(size[1], OVERVIEW_DPI)
    return image.resize((width, height), PILImage.Resampling.BOX,
                        box=(start, start, end_x, end_y))


def face_grid_png(images: Sequence[Any], *, columns: int, gap: int,
                  dpi: int = OVERVIEW_DPI, captions: Sequence[str] = ()) -> bytes:
    """Face images of one size, in order, ``columns`` to a row, ``gap`` pixels apart on
    a grey backdrop, as a PNG; with ``captions`` (one per image), each written under its
    image."""
    import math

    from PIL import Image as PILImage
    from PIL import ImageDraw

    from micropul_print.backends.png import overview_font, png_bytes

    if not images:
        raise ValueError("the catalogue has no tiles")
    if captions and len(captions) != len(images):
        raise ValueError("one caption per image")
    width, height = images[0].width, images[0].height
    band = OVERVIEW_CAPTION_BAND_PX if captions else 0
    rows = math.ceil(len(images) / columns)
    # Grey faces (painted in L) on a grey sheet: no colour to convert each face to,
    # and nothing for png_bytes to find grey; the same pixels.
    mode = "L" if all(image.mode == "L" for image in images) else "RGB"
    sheet = PILImage.new(mode, (columns * width + (columns + 1) * gap,
                                rows * (height + band) + (rows + 1) * gap), OVERVIEW_BACKDROP)
    pen = ImageDraw.Draw(sheet)
    font = overview_font(OVERVIEW_CAPTION_PX)
    for index, image in enumerate(images):
        row, col = divmod(index, columns)
        where = (gap + col * (width + gap), gap + row * (height + band + gap))
        if image.mode == "RGBA":
            sheet.paste(image, where, image)
        else:
            sheet.paste(image, where)
        if captions:
            middle = (where[0] + width / 2, where[1] + height + band / 2)
            pen.text(middle, captions[index], fill=OVERVIEW_CAPTION_COLOUR, font=font,
                     anchor="mm")
    return png_bytes(sheet, dpi)


# --- sheets, boards, cut files -------------------------------------------------------

def tiles_pdf_name(game: str, paper: str) -> str:
    return f"{game}-tiles-{paper}.pdf"


def _sheets_job(kit: GameKit, layout: SheetLayout, options: KitOptions, *,
                tiles: bool) -> JobRun:
    def run(say: Progress) -> Written:
        written = Written()
        marked = sheet_options(options)
        if tiles:
            write_sheets(kit, layout, marked, written, progress=say)
            if marked.registration:  # planned with the marks the cut files line up on
                write_cut_files(kit, layout, marked, written, progress=say)
        for board in kit.pieces.boards:
            write_board(kit, layout, board, written, scale=options.scale,
                        page_boxes=bool(options.bleed), progress=say)
        return written
    return run


def plan_tile_sheets(kit: GameKit, layout: SheetLayout, options: SheetOptions) -> Any:
    """Every card of the set on duplex pages of ``layout``, the tokens in the free slots."""
    from micropul_print.sheets.pages import plan_sheets

    width, height = kit.pieces.card_size
    return plan_sheets(layout, kit.pieces.cards(options.bleed), width, height, kit.pieces.name,
                       tokens=kit.pieces.tokens(options.bleed), options=options)


def write_sheets(kit: GameKit, layout: SheetLayout, options: SheetOptions, written: Written,
                 *, progress: Progress | None = None) -> None:
    """``sheets/<game>-tiles-<paper>.pdf``."""
    from micropul_print.sheets.pdf import DocumentInfo, render_pdf

    relative = kit.path(f"sheets/{tiles_pdf_name(kit.info.name, layout.name)}")
    if progress:
        progress(f"writing {kit.output.path(relative)}")
    plan = plan_tile_sheets(kit, layout, options)
    info = DocumentInfo(title=f"{kit.pieces.name} — tiles, {layout.label}",
                        author=kit.pieces.author,
                        subject=kit.subject("sheets", paper=layout.label))
    written.add(kit.output.write_bytes(relative, render_pdf(plan, info)),
                PrintRecord(layout.label, plan.duplex, len(plan.pages)))


def write_cut_files(kit: GameKit, layout: SheetLayout, options: SheetOptions,
                    written: Written, *, progress: Progress | None = None) -> None:
    """``sheets/<game>-cut-<paper>.svg`` (a layer per page) and
    ``sheets/<game>-cut-<paper>-page<N>.svg`` for each front page of the tile sheets
    holding pieces (sheets/cutfile.py); ``options`` must ask for registration marks, as
    the sheets were printed with."""
    from micropul_print.sheets.cutfile import (
        cut_document,
        cut_document_name,
        cut_file_name,
        cut_pages,
    )

    game = kit.info.name
    if progress:
        progress(f"writing {kit.output.path(kit.path('sheets'))}/{game}-cut-{layout.name}*.svg")
    plan = plan_tile_sheets(kit, layout, options)
    title = f"{kit.pieces.name} — tiles, {layout.label}"
    written.add(kit.output.write_bytes(
        kit.path(f"sheets/{cut_document_name(game, layout.name)}"), cut_document(plan, title)))
    for page in cut_pages(plan, title):
        written.add(kit.output.write_bytes(
            kit.path(f"sheets/{cut_file_name(game, layout.name, page.number)}"), page.svg))


def write_board(kit: GameKit, layout: SheetLayout, board: BoardPiece, written: Written, *,
                scale: tuple[float, float], page_boxes: bool,
                progress: Progress | None = None) -> None:
    """``sheets/<game>-board-<key>-<paper>.pdf``: the board at its true size, on as many
    pages as it needs (enlarged for a printer printing at ``scale`` per cent);
    ``page_boxes`` in a build with bleed: every page's trim and bleed boxes, as every
    sheet PDF of such a build."""
    from micropul_print.sheets.board import plan_board, render_board_pdf
    from micropul_print.sheets.pdf import DocumentInfo

    relative = kit.path(f"sheets/{kit.info.name}-board-{board.key}-{layout.name}.pdf")
    if progress:
        progress(f"writing {kit.output.path(relative)}")
    plan = plan_board(layout, board.drawing(), board.title, stops_x=board.stops,
                      stops_y=board.stops)
    pages = len(plan.pages)
    info = DocumentInfo(
        title=f"{board.title}, {layout.label}", author=kit.pieces.author,
        subject=board.subject.format(
            pages=f"{pages} {layout.label} page{'s' if pages > 1 else ''}"))
    pdf = render_board_pdf([plan], info, scale=scale, page_boxes=page_boxes)
    written.add(kit.output.write_bytes(relative, pdf),
                PrintRecord(layout.label, None, len(plan.pages)))


def _gutterfold_job(kit: GameKit, paper: str, options: KitOptions) -> JobRun:
    def run(say: Progress) -> Written:
        written = Written()
        write_gutterfold(kit, paper, sheet_options(options), written, progress=say)
        return written
    return run


def write_gutterfold(kit: GameKit, paper: str, options: SheetOptions, written: Written, *,
                     wanted: Sequence[int] | None = None,
                     progress: Progress | None = None) -> None:
    """``sheets/<game>-tiles-gutterfold-<paper>.pdf``: fronts and their backs side by
    side, to fold (sheets/gutterfold.py); with ``wanted`` (--tiles),
    ``sheets/<game>-reprint-gutterfold-<paper>.pdf``: the cards so numbered only."""
    from micropul_print.sheets.gutterfold import plan_gutterfold
    from micropul_print.sheets.layout import load_layout
    from micropul_print.sheets.pages import SheetOptions
    from micropul_print.sheets.pdf import DocumentInfo, render_pdf
    from micropul_print.sheets.reprint import reprint_title

    game, name = kit.info.name, kit.pieces.name
    kind = "tiles" if wanted is None else "reprint"
    relative = kit.path(f"sheets/{game}-{kind}-gutterfold-{paper}.pdf")
    if progress:
        progress(f"writing {kit.output.path(relative)}")
    layout = load_layout(f"gutterfold-{paper}")
    width, height = kit.pieces.card_size
    only = SheetOptions(bleed=options.bleed, scale=options.scale)
    if wanted is None:
        fold = plan_gutterfold(layout, kit.pieces.cards(options.bleed), width, height, name,
                               tokens=kit.pieces.tokens(options.bleed), options=only)
        title = f"{name} — tiles to fold, {layout.label}"
        subject = kit.subject("gutter-fold", paper=layout.label)
    else:
        fold = plan_gutterfold(layout, _chosen(kit, options.bleed, wanted), width, height,
                               reprint_title(name, wanted), options=only)
        title = f"{reprint_title(name, wanted)}, {layout.label}"
        subject = kit.subject("reprint-gutter-fold", paper=layout.label, count=len(wanted))
    pdf = render_pdf(fold.plan, DocumentInfo(title=title, author=kit.pieces.author,
                                             subject=subject))
    written.add(kit.output.write_bytes(relative, pdf),  # printed on the paper itself
                PrintRecord(PAPERS[paper].label, fold.plan.duplex, len(fold.plan.pages)))


def _reprint_job(kit: GameKit, layout: SheetLayout, wanted: Sequence[int],
                 options: KitOptions, *, fold: bool) -> JobRun:
    def run(say: Progress) -> Written:
        written = Written()
        if fold:
            write_gutterfold(kit, layout.name, sheet_options(options), written, wanted=wanted,
                             progress=say)
        else:
            write_reprint(kit, layout, wanted, sheet_options(options), written, progress=say)
        return written
    return run


def write_reprint(kit: GameKit, layout: SheetLayout, wanted: Sequence[int],
                  options: SheetOptions, written: Written, *,
                  progress: Progress | None = None) -> None:
    """``sheets/<game>-reprint-<paper>.pdf``: duplex sheets of the cards numbered
    ``wanted`` only, with their backs (sheets/reprint.py)."""
    from micropul_print.sheets.pdf import DocumentInfo, render_pdf
    from micropul_print.sheets.reprint import plan_reprint, reprint_title

    numbered = kit.pieces.numbered
    assert numbered is not None
    relative = kit.path(f"sheets/{kit.info.name}-reprint-{layout.name}.pdf")
    if progress:
        progress(f"writing {kit.output.path(relative)}")
    # The tiles alone: no cut files, and no calibration page (a sheet of its own, which
    # the full sheets beside the reprint have), so a few tiles take one sheet.
    options = options._replace(registration=False, calibration=False)
    width, height = kit.pieces.card_size
    plan = plan_reprint(layout, kit.pieces.cards(options.bleed), numbered.numbers, wanted,
                        width, height, kit.pieces.name, source=numbered.source,
                        options=options, at=numbered.at)
    info = DocumentInfo(
        title=f"{reprint_title(kit.pieces.name, wanted)}, {layout.label}",
        author=kit.pieces.author,
        subject=kit.subject("reprint", paper=layout.label, count=len(wanted)))
    written.add(kit.output.write_bytes(relative, render_pdf(plan, info)),
                PrintRecord(layout.label, plan.duplex, len(plan.pages)))


def _print_shop_job(kit: GameKit, flip: Flip, wanted: Sequence[int] | None) -> JobRun:
    def run(say: Progress) -> Written:
        written = Written()
        write_print_shop(kit, flip, written, wanted=wanted, progress=say)
        return written
    return run


def write_print_shop(kit: GameKit, flip: Flip, written: Written, *,
                     wanted: Sequence[int] | None = None,
                     progress: Progress | None = None) -> None:
    """``sheets/<game>-tiles-print-shop.pdf``: each different card alone on a page with
    the shop's bleed, then its back (sheets/printshop.py); the tokens are cut from the
    sheets. With ``wanted`` (--tiles), ``sheets/<game>-reprint-print-shop.pdf``: the
    cards so numbered only, in that order."""
    from micropul_print.sheets.pdf import DocumentInfo
    from micropul_print.sheets.printshop import (
        SHOP_BLEED,
        plan_print_shop,
        render_print_shop_pdf,
    )
    from micropul_print.sheets.reprint import reprint_title

    pieces = kit.pieces
    kind = "tiles" if wanted is None else "reprint"
    relative = kit.path(f"sheets/{kit.info.name}-{kind}-print-shop.pdf")
    if progress:
        progress(f"writing {kit.output.path(relative)}")
    title = f"{pieces.name} — tiles for a print shop"
    if wanted is not None:
        cards = _chosen(kit, SHOP_BLEED, wanted)
        names = [f"tile {n}" for n in wanted]
        title = f"{reprint_title(pieces.name, wanted)}, for a print shop"
    elif pieces.shop_cards is not None:
        named = pieces.shop_cards(SHOP_BLEED)
        names, cards = [name for name, _card in named], [card for _name, card in named]
    else:
        cards = list(pieces.cards(SHOP_BLEED))
        numbers = pieces.numbered.numbers if pieces.numbered is not None else range(
            1, len(cards) + 1)
        names = [f"tile {n}" for n in numbers]
    width, height = pieces.card_size
    plan = plan_print_shop(cards, width, height, names=names)
    info = DocumentInfo(title=title, author=pieces.author,
                        subject=kit.subject("print-shop", count=len(cards)))
    pdf = render_print_shop_pdf(plan, info, flip)
    paper = f"{width + 2 * SHOP_BLEED:.0f} × {height + 2 * SHOP_BLEED:.0f} mm paper"
    written.add(kit.output.write_bytes(relative, pdf), PrintRecord(paper, flip, len(plan.pages)))


# --- rulebooks -------------------------------------------------------------------------

def _rulebooks_job(kit: GameKit, langs: Sequence[str], papers: Sequence[str], *,
                   booklet: bool = False) -> JobRun:
    def run(say: Progress) -> Written:
        from micropul_print.rulebook import build_booklets, build_rulebooks

        write = build_booklets if booklet else build_rulebooks
        written = Written()

        def told(path: Path, paper: str, pdf: bytes) -> None:
            # Books print on both sides, flipping on the long edge; booklets two pages
            # up on the landscape sheet, flipping on the short edge (as they ask).
            label = PAPERS[paper].label
            written.add(path, _record(pdf, "short" if booklet else "long",
                                      f"{label}, landscape" if booklet else label))

        write(kit.catalogue, kit.theme, kit.output, langs=langs, papers=papers,
              progress=lambda message: say(f"writing {message}"), told=told)
        return written
    return run
