"""The Cellulae print-and-play kit, written under ``cellulae/`` in the output directory.

The same drawing and sheet code as Micropul's kit: tile faces are generic Faces
(games/cellulae.py), the tile sheets are planned by sheets/pages.py with the white face
as the front and the black face as the back of each card, and the boards, larger than
the paper, are split over pages by sheets/board.py. Files (a contract, listed in
docs/output-layout.md):

    cellulae/tiles/svg/tile-white.svg, tile-black.svg   tile size, no bleed, viewBox in mm
    cellulae/tiles/png/tile-white.png, tile-black.png   at ``dpi``, with the bleed
    cellulae/tiles/overview.png                         both faces and the set-up on 5 x 5
    cellulae/sheets/cellulae-tiles-<paper>.pdf          duplex tile sheets
    cellulae/sheets/cellulae-board-<side>-<paper>.pdf   each board, at its true size
    cellulae/sheets/cellulae-tiles-gutterfold-<paper>.pdf   with --layout gutter-fold
    cellulae/sheets/cellulae-cut-<paper>.svg, -page<N>.svg   with --cut-files
    cellulae/sheets/cellulae-tiles-print-shop.pdf       with --print-shop
    cellulae/rules/cellulae-rules-<lang>-<paper>.pdf    the rulebook in each language
    cellulae/rules/cellulae-rules-<lang>-booklet-<paper>.pdf   and its booklet
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from micropul_print.draw.primitives import Drawing, Group, Primitive, Rect
from micropul_print.draw.theme import Theme
from micropul_print.gameapi import KitJob, KitOptions
from micropul_print.games.cellulae.catalogue import BLACK, WHITE, CellulaeCatalogue
from micropul_print.games.cellulae.faces import check_theme
from micropul_print.outputs import OutputDir
from micropul_print.paper import DEFAULT_PAPER
from micropul_print.sheets.duplex import Flip
from micropul_print.sheets.layout import SheetLayout, load_layout
from micropul_print.sheets.pages import Card, SheetOptions, SheetPlan, plan_sheets
from micropul_print.sheets.pdf import DocumentInfo, render_pdf

Progress = Callable[[str], None]

ROOT = "cellulae"
SVG_DIR = f"{ROOT}/tiles/svg"
PNG_DIR = f"{ROOT}/tiles/png"
OVERVIEW = f"{ROOT}/tiles/overview.png"
SHEETS_DIR = f"{ROOT}/sheets"
FACE_ORDER = (WHITE, BLACK)
# The kit's parts, and the booklets (which a build makes with the rulebooks).
# "boards": the sheets part's boards alone (the tiles printed another way);
# "gutterfold": the tiles on gutter-fold sheets.
# "print-shop": the tile alone with the shop's bleed, white face then black.
PARTS = frozenset({"svg", "png", "sheets", "rulebooks", "booklets", "boards", "gutterfold",
                   "print-shop"})
PNG_BLEED = 3.0  # bleed of the PNG files when none is given, as Micropul's
OVERVIEW_DPI = 100
OVERVIEW_GAP = 4.0  # mm, between the pictures of the overview
OVERVIEW_BACKDROP = "#c8c8c8"  # mid grey, so a white face's edge shows
OVERVIEW_BOARD = 5  # the board shown with the set-up (the standard game's)


def tile_file(colour: str) -> str:
    """File stem of a face: ``tile-white`` or ``tile-black``."""
    return f"tile-{colour}"


def tiles_pdf(paper: str) -> str:
    return f"{SHEETS_DIR}/cellulae-tiles-{paper}.pdf"


def cut_file(paper: str, page: int) -> str:
    from micropul_print.sheets.cutfile import cut_file_name

    return f"{SHEETS_DIR}/{cut_file_name(ROOT, paper, page)}"


def write_cut_files(catalogue: CellulaeCatalogue, theme: Theme, out: OutputDir,
                    layout: SheetLayout, options: SheetOptions) -> list[Path]:
    """``cellulae/sheets/cellulae-cut-<paper>.svg`` (a layer per page) and
    ``cellulae/sheets/cellulae-cut-<paper>-page<N>.svg`` for each front page of the
    tile sheets holding tiles (``options`` with registration marks, as they were made)."""
    from micropul_print.sheets.cutfile import cut_document, cut_document_name, cut_pages

    plan = plan_tile_sheets(catalogue, theme, layout, options)
    title = f"{catalogue.name} — tiles, {layout.label}"
    written = [out.write_bytes(f"{SHEETS_DIR}/{cut_document_name(ROOT, layout.name)}",
                               cut_document(plan, title))]
    return written + [out.write_bytes(cut_file(layout.name, page.number), page.svg)
                      for page in cut_pages(plan, title)]


PRINT_SHOP_PDF = f"{SHEETS_DIR}/cellulae-tiles-print-shop.pdf"


def print_shop_pdf(catalogue: CellulaeCatalogue, theme: Theme, flip: Flip = "long") -> bytes:
    """The tile for a print shop: its white face with the shop's bleed on one page, its
    black face on the next. Every tile is alike, so one pair: the shop prints it
    ``tile_total`` times."""
    from micropul_print.sheets.printshop import (
        SHOP_BLEED,
        plan_print_shop,
        render_print_shop_pdf,
    )

    faces = face_drawings(catalogue, theme, bleed=SHOP_BLEED)
    size = catalogue.tile_size_mm
    plan = plan_print_shop([Card(faces[WHITE], faces[BLACK])], size, size,
                           names=[f"tile (print {catalogue.tile_total})"])
    info = DocumentInfo(
        title=f"{catalogue.name} — tiles for a print shop",
        author=_author(catalogue),
        subject=f"The tile of {catalogue.name}, {size:g} mm with {SHOP_BLEED:g} mm bleed, "
                f"white face then black: print {catalogue.tile_total}",
    )
    return render_print_shop_pdf(plan, info, flip)


def gutterfold_pdf(paper: str) -> str:
    return f"{SHEETS_DIR}/cellulae-tiles-gutterfold-{paper}.pdf"


def board_pdf(side: int, paper: str) -> str:
    return f"{SHEETS_DIR}/cellulae-board-{side}-{paper}.pdf"


def kit_jobs(catalogue: CellulaeCatalogue, theme: Theme, output: OutputDir,
             layouts: Sequence[SheetLayout], options: KitOptions,
             langs: Sequence[str]) -> list[KitJob]:
    """Cellulae's parts as jobs of a build: its tile files, its sheets and boards for
    each paper, its rulebooks (``langs``), each a call of :func:`build_cellulae_kit`
    limited to that part."""

    def part(parts: set[str], papers: Sequence[str],
             langs: Sequence[str] | None = None) -> Callable[[Progress], list[Path]]:
        def run(say: Progress) -> list[Path]:
            return build_cellulae_kit(
                catalogue, theme, output, papers=papers, bleed=options.bleed,
                dpi=options.dpi, flip=options.flip, back_offset=options.back_offset,
                calibration=options.calibration, parts=frozenset(parts), progress=say,
                langs=langs, scale=options.scale, cut_files=options.cut_files)
        return run

    imports = ("micropul_print.games.cellulae.kit", "micropul_print.games.cellulae.faces")
    tile_imports = ("micropul_print.backends.svg", "micropul_print.backends.png")
    pdf_imports = ("micropul_print.backends.pdf", "micropul_print.sheets.pdf")
    # With --game all the numbers are the other games' to reprint; Cellulae's alone, they
    # cannot be any of its tiles.
    alone = options.games is None or len(options.games) < 2
    if options.tiles is not None and "sheets" in options.parts and alone:
        from micropul_print.errors import UsageError

        raise UsageError(f"argument --tiles: the {catalogue.name} tiles have no numbers "
                         "(they are all alike): leave --tiles out for this game")
    jobs: list[KitJob] = []
    if "png" in options.parts:
        jobs.append(KitJob("tile files", part({"png"}, ()), cost=2,
                           imports=(*imports, *tile_imports), label="tiles"))
    elif "svg" in options.parts:
        jobs.append(KitJob("tile files", part({"svg"}, ()), cost=1, imports=imports,
                           label="tiles"))
    duplex = "duplex" in options.sheet_layouts
    for layout in layouts:  # the boards go with the duplex sheets, or alone
        jobs.append(KitJob("sheets", part({"sheets" if duplex else "boards"}, (layout.name,)),
                           cost=1, imports=(*imports, *pdf_imports),
                           label=f"{'sheets' if duplex else 'boards'} {layout.name}"))
        if "gutter-fold" in options.sheet_layouts:
            jobs.append(KitJob("sheets", part({"gutterfold"}, (layout.name,)), cost=1,
                               imports=(*imports, *pdf_imports),
                               label=f"gutter fold {layout.name}"))
    if options.print_shop and layouts:
        jobs.append(KitJob("sheets", part({"print-shop"}, ()), cost=1,
                           imports=(*imports, *pdf_imports), label="print shop"))
    rulebook_imports = (*pdf_imports, "micropul_print.rulebook",
                        "micropul_print.rulebook.layout")
    if "rulebooks" in options.parts and langs:
        # As Micropul's: the rulebooks follow the sheets' papers, a job per language and
        # kind, each book laid out once and drawn on every paper.
        papers = tuple(options.papers)
        on = ",".join(papers)  # the labels name the papers: "rulebook en a4,letter"
        jobs.append(KitJob("rulebooks", part({"rulebooks"}, papers, langs), cost=3 * len(langs),
                           imports=(*imports, *rulebook_imports),
                           pieces=[part({"rulebooks"}, papers, [lang]) for lang in langs],
                           label=f"rulebooks {on}",
                           piece_labels=[f"rulebook {lang} {on}" for lang in langs]))
        if options.booklets:
            jobs.append(KitJob("rulebooks", part({"booklets"}, papers, langs),
                               cost=3 * len(langs), imports=(*imports, *rulebook_imports),
                               pieces=[part({"booklets"}, papers, [lang]) for lang in langs],
                               label=f"booklets {on}",
                               piece_labels=[f"booklet {lang} {on}" for lang in langs]))
    return jobs


def build_cellulae_kit(catalogue: CellulaeCatalogue, theme: Theme, out: OutputDir, *,
                       papers: Sequence[str], bleed: float | None, dpi: int, flip: Flip,
                       back_offset: tuple[float, float], calibration: bool,
                       parts: frozenset[str], progress: Progress | None,
                       langs: Sequence[str] | None = None,
                       scale: tuple[float, float] = (100.0, 100.0),
                       cut_files: bool = False) -> list[Path]:
    """Write the parts of the Cellulae kit named in ``parts`` (``svg``: the SVG faces;
    ``png``: SVG and PNG faces and the overview; ``sheets``: tile sheets and boards for
    each paper; ``boards``: the boards alone; ``gutterfold``: gutter-fold tile sheets for
    each paper; ``print-shop``: the print shop's file; ``rulebooks``: the rulebook in
    each of ``langs``, None meaning every language of the Cellulae book; ``booklets``:
    their booklets) and return the paths written, in order.

    ``cut_files``: the tile sheets carry registration marks, and a cut file is written
    for each of their front pages holding pieces.

    The rulebooks and booklets follow ``papers`` (A4 when none is given), as
    Micropul's: each language's book laid out once and drawn on every paper.

    ``bleed`` None means none on the sheets and PNG_BLEED on the PNG files, as for
    Micropul; a number applies to both. Boards have no bleed: they are not cut to a
    tile's size. Raises UserError for an unknown paper, a tile too large for it, or a face
    mark the theme lacks."""
    say = progress or (lambda _message: None)
    unknown = set(parts) - PARTS
    if unknown:
        raise ValueError(f"unknown kit parts: {sorted(unknown)}")
    check_theme(catalogue, theme)
    written: list[Path] = []
    if "png" in parts or "svg" in parts:
        say(f"writing {out.path(SVG_DIR)}/*.svg")
        written += write_tile_svgs(catalogue, theme, out)
    if "png" in parts:
        say(f"writing {out.path(PNG_DIR)}/*.png and {out.path(OVERVIEW)}")
        written += write_tile_pngs(catalogue, theme, out, dpi=dpi,
                                   bleed=PNG_BLEED if bleed is None else bleed)
    options = SheetOptions(bleed=bleed or 0.0, flip=flip, back_offset=back_offset,
                           calibration=calibration, scale=scale)
    if "sheets" in parts or "boards" in parts:
        marked = options._replace(registration=cut_files)
        layouts = [load_layout(paper) for paper in papers]  # every problem before writing
        for layout in layouts:
            if "sheets" in parts:
                say(f"writing {out.path(tiles_pdf(layout.name))}")
                written.append(out.write_bytes(
                    tiles_pdf(layout.name), tile_sheets_pdf(catalogue, theme, layout, marked)))
                if cut_files:
                    written += write_cut_files(catalogue, theme, out, layout, marked)
            for board in catalogue.boards:
                relative = board_pdf(board.side, layout.name)
                say(f"writing {out.path(relative)}")
                written.append(out.write_bytes(relative, board_sheets_pdf(
                    catalogue, theme, layout, board.side, scale=scale,
                    page_boxes=bool(bleed))))
    if "gutterfold" in parts:
        for paper in papers:
            say(f"writing {out.path(gutterfold_pdf(paper))}")
            written.append(out.write_bytes(gutterfold_pdf(paper), gutterfold_sheets_pdf(
                catalogue, theme, paper, options)))
    if "print-shop" in parts:
        say(f"writing {out.path(PRINT_SHOP_PDF)}")
        written.append(out.write_bytes(PRINT_SHOP_PDF, print_shop_pdf(catalogue, theme, flip)))
    rulebook_papers = list(papers) or [DEFAULT_PAPER]  # they follow the sheets' papers
    if "rulebooks" in parts:
        written += write_rulebooks(catalogue, theme, out, langs=langs,
                                   papers=rulebook_papers, progress=say)
    if "booklets" in parts:
        written += write_rulebooks(catalogue, theme, out, langs=langs,
                                   papers=rulebook_papers, progress=say, booklet=True)
    return written


def write_rulebooks(catalogue: CellulaeCatalogue, theme: Theme, out: OutputDir, *,
                    langs: Sequence[str] | None, papers: Sequence[str],
                    progress: Progress | None = None, booklet: bool = False) -> list[Path]:
    """``cellulae/rules/cellulae-rules-<lang>-<paper>.pdf`` for each of ``langs`` (None: every
    language of the Cellulae book) on each of ``papers``; texts and figures checked
    first. ``booklet``: the booklets instead, ``cellulae-rules-<lang>-booklet-<paper>.pdf``."""
    from micropul_print.rulebook import available_languages, build_booklets, build_rulebooks

    chosen = list(langs) if langs is not None else available_languages(catalogue.game)
    write = build_booklets if booklet else build_rulebooks
    return write(catalogue, theme, out, langs=chosen, papers=papers,
                           progress=None if progress is None
                           else (lambda message: progress(f"writing {message}")))


def face_drawings(catalogue: CellulaeCatalogue, theme: Theme, *,
                  bleed: float = 0.0) -> dict[str, Drawing]:
    """Colour -> the face's drawing, tile size plus ``bleed`` on every side."""
    from micropul_print.games.cellulae.faces import tile_drawing

    return {colour: tile_drawing(catalogue.face(colour), theme, size=catalogue.tile_size_mm,
                                 bleed=bleed) for colour in FACE_ORDER}


def write_tile_svgs(catalogue: CellulaeCatalogue, theme: Theme, out: OutputDir) -> list[Path]:
    from micropul_print.backends.svg import to_svg

    return [out.write_bytes(f"{SVG_DIR}/{tile_file(colour)}.svg", to_svg(drawing))
            for colour, drawing in face_drawings(catalogue, theme).items()]


def write_tile_pngs(catalogue: CellulaeCatalogue, theme: Theme, out: OutputDir, *,
                    dpi: int, bleed: float) -> list[Path]:
    from micropul_print.backends.png import to_png

    written = [out.write_bytes(f"{PNG_DIR}/{tile_file(colour)}.png", to_png(drawing, dpi))
               for colour, drawing in face_drawings(catalogue, theme, bleed=bleed).items()]
    written.append(out.write_bytes(OVERVIEW, to_png(overview_drawing(catalogue, theme),
                                                    OVERVIEW_DPI)))
    return written


def overview_drawing(catalogue: CellulaeCatalogue, theme: Theme) -> Drawing:
    """Both faces side by side above the smallest board with the set-up on it (the
    standard board when the catalogue offers it), on a grey backdrop."""
    from micropul_print.games.cellulae.faces import board_drawing, start_squares

    side = OVERVIEW_BOARD if OVERVIEW_BOARD in catalogue.sides else catalogue.sides[0]
    setup = {square: colour for colour, square in start_squares(side).items()}
    board = board_drawing(catalogue, side, theme, tiles=setup)
    faces = face_drawings(catalogue, theme)
    gap, size = OVERVIEW_GAP, catalogue.tile_size_mm
    width = board.width + 2 * gap
    height = size + board.height + 3 * gap
    faces_left = (width - 2 * size - gap) / 2
    items: list[Primitive] = [Rect(0.0, 0.0, width, height, fill=OVERVIEW_BACKDROP)]
    for k, colour in enumerate(FACE_ORDER):
        items.append(Group(faces[colour].items, dx=faces_left + k * (size + gap), dy=gap))
    items.append(Group(board.items, dx=gap, dy=size + 2 * gap))
    return Drawing(width, height, tuple(items))


def plan_tile_sheets(catalogue: CellulaeCatalogue, theme: Theme, layout: SheetLayout,
                     options: SheetOptions) -> SheetPlan:
    """Every tile of the set as a card: white face on the front pages, black face behind
    it on the back pages (sheets/pages.py mirrors the slots for the flip)."""
    faces = face_drawings(catalogue, theme, bleed=options.bleed)
    card = Card(faces[WHITE], faces[BLACK])
    size = catalogue.tile_size_mm
    return plan_sheets(layout, [card] * catalogue.tile_total, size, size, catalogue.name,
                       options=options)


def tile_sheets_pdf(catalogue: CellulaeCatalogue, theme: Theme, layout: SheetLayout,
                    options: SheetOptions) -> bytes:
    """The duplex tile sheets as PDF bytes."""
    plan = plan_tile_sheets(catalogue, theme, layout, options)
    info = DocumentInfo(
        title=f"{catalogue.name} — tiles, {layout.label}",
        author=_author(catalogue),
        subject=f"Print-and-play tiles of {catalogue.name}: {catalogue.tile_total} tiles of "
                f"{catalogue.tile_size_mm:g} mm, white on the front pages and black on the "
                f"back, duplex sheets for {layout.label} paper",
    )
    return render_pdf(plan, info)


def gutterfold_sheets_pdf(catalogue: CellulaeCatalogue, theme: Theme, paper: str,
                          options: SheetOptions) -> bytes:
    """The tiles on gutter-fold sheets (black faces beside the white, to fold behind)."""
    from micropul_print.sheets.gutterfold import plan_gutterfold

    layout = load_layout(f"gutterfold-{paper}")
    faces = face_drawings(catalogue, theme, bleed=options.bleed)
    size = catalogue.tile_size_mm
    fold = plan_gutterfold(layout, [Card(faces[WHITE], faces[BLACK])] * catalogue.tile_total,
                           size, size, catalogue.name,
                           options=SheetOptions(bleed=options.bleed, scale=options.scale))
    info = DocumentInfo(
        title=f"{catalogue.name} — tiles to fold, {layout.label}",
        author=_author(catalogue),
        subject=f"Print-and-play tiles of {catalogue.name}: {catalogue.tile_total} tiles of "
                f"{size:g} mm, white faces on the left half and black on the right, "
                f"gutter-fold sheets for {layout.label} paper",
    )
    return render_pdf(fold.plan, info)


def board_sheets_pdf(catalogue: CellulaeCatalogue, theme: Theme, layout: SheetLayout,
                     side: int, *, scale: tuple[float, float] = (100.0, 100.0),
                     page_boxes: bool = False) -> bytes:
    """The ``side`` x ``side`` board at its true size, on as many pages as it needs
    (enlarged for a printer printing at ``scale`` per cent); ``page_boxes`` in a build
    with bleed: every page's trim and bleed boxes, as every sheet PDF of such a build."""
    from micropul_print.games.cellulae.faces import board_drawing, grid_lines
    from micropul_print.sheets.board import plan_board, render_board_pdf

    title = f"{catalogue.name} — board {side} x {side}"
    lines = grid_lines(side, catalogue.tile_size_mm)  # seams between squares, not across
    plan = plan_board(layout, board_drawing(catalogue, side, theme), title, stops_x=lines,
                      stops_y=lines)
    pages = len(plan.pages)
    info = DocumentInfo(
        title=f"{title}, {layout.label}",
        author=_author(catalogue),
        subject=f"The {side} x {side} board of {catalogue.name}, squares of "
                f"{catalogue.tile_size_mm:g} mm, on {pages} {layout.label} "
                f"page{'s' if pages > 1 else ''}",
    )
    return render_board_pdf([plan], info, scale=scale, page_boxes=page_boxes)


def _author(catalogue: CellulaeCatalogue) -> str:
    return f"{catalogue.author} (game); micropul-print (print-and-play kit)"
