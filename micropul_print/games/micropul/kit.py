"""Micropul's parts of a build, as jobs of the core's build (micropul_print.kit): the
tile files (SVG, PNG, overview), the duplex sheets of each paper with the players'
stones, and the rulebooks. Files (a contract, listed in docs/output-layout.md):

    tiles/svg/tile-NN.svg, tile-back.svg; tiles/png/...; tiles/overview.png
    sheets/micropul-tiles-<paper>.pdf (and -gutterfold-<paper>.pdf with --layout)
    sheets/micropul-cut-<paper>.svg and -page<N>.svg (with --cut-files)
    sheets/micropul-reprint-<paper>.pdf (with --tiles; -reprint-gutterfold-<paper>.pdf
        with --layout gutter-fold)
    sheets/micropul-tiles-print-shop.pdf (with --print-shop; and
    -reprint-print-shop.pdf with --tiles)
    rules/micropul-rules-<lang>-<paper>.pdf, rules/micropul-rules-<lang>-booklet-<paper>.pdf
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from micropul_print.draw.theme import Theme
from micropul_print.gameapi import KitJob, KitOptions, Progress
from micropul_print.games.micropul import faces
from micropul_print.games.micropul.model import Catalogue
from micropul_print.games.micropul.tilefiles import TileArt
from micropul_print.outputs import OutputDir
from micropul_print.sheets.duplex import Flip
from micropul_print.sheets.layout import SheetLayout
from micropul_print.sheets.pages import Card, SheetOptions, SheetPlan, plan_sheets

STONES_PER_PLAYER = 3
STONE_DIAMETER = 14.0  # mm: cut with scissors from a 30 mm slot
AUTHOR = "Jean-François Lassonde (game); micropul-print (print-and-play kit)"

_TILE_IMPORTS = ("micropul_print.backends.svg", "micropul_print.games.micropul.tilefiles",
                 "micropul_print.backends.png")
_PDF_IMPORTS = ("micropul_print.backends.pdf", "micropul_print.sheets.pdf")
_RULEBOOK_IMPORTS = (*_PDF_IMPORTS, "micropul_print.rulebook",
                     "micropul_print.rulebook.layout")


def kit_jobs(catalogue: Catalogue, theme: Theme, output: OutputDir,
             layouts: Sequence[SheetLayout], options: KitOptions,
             langs: Sequence[str]) -> list[KitJob]:
    """The jobs writing the parts of ``options.parts``; ``langs``: the rulebooks'."""
    art = TileArt(catalogue, theme, numbers=options.numbers)
    jobs: list[KitJob] = []
    if "png" in options.parts:  # the complete tile files: SVG, PNG and the overview
        jobs.append(KitJob("tile files", _tile_files_job(art, output, options), cost=6,
                           imports=_TILE_IMPORTS, label="tiles"))
    elif "svg" in options.parts:
        jobs.append(KitJob("tile files", _svg_files_job(art, output), cost=1,
                           imports=_TILE_IMPORTS[:1], label="tiles"))
    duplex = "duplex" in options.sheet_layouts
    if options.tiles is not None and layouts:  # every unknown number before any writing
        from micropul_print.sheets.reprint import choose

        choose(tile_pieces(art, options.bleed or 0.0)[0],  # drawn once: TileArt keeps them
               [tile.id for tile in catalogue.tiles], options.tiles, source=catalogue.source,
               at=catalogue.tiles_at)
    for layout in layouts:
        if duplex:
            jobs.append(KitJob("sheets", _sheets_job(art, output, layout,
                                                     sheet_options(options)),
                               cost=1, imports=_PDF_IMPORTS, label=f"sheets {layout.name}"))
        if "gutter-fold" in options.sheet_layouts:
            jobs.append(KitJob("sheets", _gutterfold_job(art, output, layout.name,
                                                         sheet_options(options)),
                               cost=1, imports=_PDF_IMPORTS,
                               label=f"gutter fold {layout.name}"))
        if options.tiles is not None:  # as the full sheets: duplex, gutter fold or both
            for fold in [False] * duplex + [True] * ("gutter-fold" in options.sheet_layouts):
                jobs.append(KitJob("sheets", _reprint_job(art, output, layout, options.tiles,
                                                          sheet_options(options), fold=fold),
                                   cost=1, imports=_PDF_IMPORTS,
                                   label=f"reprint {'gutter fold ' * fold}{layout.name}"))
    if options.print_shop and layouts:  # the sheets part, on no paper of ours
        jobs.append(KitJob("sheets", lambda say: [write_print_shop(art, output, options.flip,
                                                                   progress=say)],
                           cost=1, imports=_PDF_IMPORTS, label="print shop"))
        if options.tiles is not None:  # as the sheets: the full file and the reprint
            wanted = options.tiles
            jobs.append(KitJob("sheets", lambda say: [write_print_shop(
                art, output, options.flip, wanted=wanted, progress=say)],
                cost=1, imports=_PDF_IMPORTS, label="reprint print shop"))
    if "rulebooks" in options.parts and langs:
        # The rulebooks follow the sheets' papers. In parallel, a job per language and
        # kind (each lays its book out once and draws it on every paper; the texts and
        # figures were checked before).
        papers = list(options.papers)
        on = ",".join(papers)  # the labels name the papers: "rulebook en a4,letter"
        jobs.append(KitJob(
            "rulebooks", _rulebooks_job(art, output, langs, papers),
            cost=3 * len(langs), imports=_RULEBOOK_IMPORTS,
            pieces=[_rulebooks_job(art, output, [lang], papers) for lang in langs],
            label=f"rulebooks {on}", piece_labels=[f"rulebook {lang} {on}" for lang in langs]))
        if options.booklets:
            jobs.append(KitJob(
                "rulebooks", _rulebooks_job(art, output, langs, papers, booklet=True),
                cost=3 * len(langs), imports=_RULEBOOK_IMPORTS,
                pieces=[_rulebooks_job(art, output, [lang], papers, booklet=True)
                        for lang in langs],
                label=f"booklets {on}", piece_labels=[f"booklet {lang} {on}" for lang in langs]))
    return jobs


def _tile_files_job(art: TileArt, output: OutputDir,
                    options: KitOptions) -> Callable[[Progress], list[Path]]:
    def run(say: Progress) -> list[Path]:
        from micropul_print.games.micropul.tilefiles import write_tile_files

        def tile_progress(message: str) -> None:
            say(f"writing tile files: {message}")

        if options.bleed is None:  # tilefiles' own default bleed for the PNG files
            return write_tile_files(art, output, dpi=options.dpi, progress=tile_progress)
        return write_tile_files(art, output, dpi=options.dpi, bleed=options.bleed,
                                progress=tile_progress)
    return run


def _svg_files_job(art: TileArt, output: OutputDir) -> Callable[[Progress], list[Path]]:
    def run(say: Progress) -> list[Path]:
        from micropul_print.games.micropul.tilefiles import SVG_DIR, write_tile_svgs

        say(f"writing {output.path(SVG_DIR)}/*.svg")
        return write_tile_svgs(art, output)
    return run


def _sheets_job(art: TileArt, output: OutputDir, layout: SheetLayout,
                options: SheetOptions) -> Callable[[Progress], list[Path]]:
    def run(say: Progress) -> list[Path]:
        paths = [write_sheets(art, output, layout, options, progress=say)]
        if options.registration:  # planned with the marks the cut files line up on
            paths += write_cut_files(art, output, layout, options, progress=say)
        return paths
    return run


def _reprint_job(art: TileArt, output: OutputDir, layout: SheetLayout, wanted: Sequence[int],
                 options: SheetOptions, *, fold: bool) -> Callable[[Progress], list[Path]]:
    if fold:
        return lambda say: [write_reprint_gutterfold(art, output, layout.name, wanted, options,
                                                     progress=say)]
    return lambda say: [write_reprint(art, output, layout, wanted, options, progress=say)]


def _gutterfold_job(art: TileArt, output: OutputDir, paper: str,
                    options: SheetOptions) -> Callable[[Progress], list[Path]]:
    return lambda say: [write_gutterfold(art, output, paper, options, progress=say)]


def _rulebooks_job(art: TileArt, output: OutputDir, langs: Sequence[str],
                   papers: Sequence[str], *,
                   booklet: bool = False) -> Callable[[Progress], list[Path]]:
    def run(say: Progress) -> list[Path]:
        from micropul_print.rulebook import build_booklets, build_rulebooks

        write = build_booklets if booklet else build_rulebooks
        return list(write(art.catalogue, art.theme, output, langs=langs, papers=papers,
                          progress=lambda message: say(f"writing {message}")))
    return run


def sheet_options(options: KitOptions) -> SheetOptions:
    return SheetOptions(bleed=options.bleed or 0.0, flip=options.flip,
                        back_offset=options.back_offset, calibration=options.calibration,
                        registration=options.cut_files, scale=options.scale)


def sheet_file_name(game: str, paper: str) -> str:
    return f"{game}-tiles-{paper}.pdf"


def plan_tile_sheets(art: TileArt, layout: SheetLayout, options: SheetOptions) -> SheetPlan:
    """The Micropul side of the sheets: the faces with the common back, 30 mm cut, and
    the players' stones as tokens. The sheet layer itself knows none of this."""
    cards, tokens = tile_pieces(art, options.bleed)
    size = faces.TILE_SIZE_MM
    return plan_sheets(layout, cards, size, size, art.catalogue.name, tokens=tokens,
                       options=options)


def tile_pieces(art: TileArt, bleed: float) -> tuple[list[Card], list[Card]]:
    """The cards (each face with the common back) and the tokens (the stones)."""
    back = art.back(bleed)  # one drawing behind every card
    cards = [Card(front, back) for front in art.fronts(bleed)]
    tokens: list[Card] = []
    for player in faces.PLAYERS:
        # Printed on both sides, so a cut stone shows its colour either way up; the
        # front keeps its cut circle, cut round (registration cut files follow it).
        front, back_side = faces.stone_faces(player, art.theme, STONE_DIAMETER, bleed=bleed)
        tokens += [Card(front, back_side, round=True)] * STONES_PER_PLAYER
    return cards, tokens


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


def gutterfold_file_name(game: str, paper: str) -> str:
    return f"{game}-tiles-gutterfold-{paper}.pdf"


def write_gutterfold(art: TileArt, output: OutputDir, paper: str, options: SheetOptions,
                     *, progress: Progress | None = None) -> Path:
    """Write ``sheets/<game>-tiles-gutterfold-<paper>.pdf``: fronts and their backs side
    by side, to fold (sheets/gutterfold.py); returns its path."""
    from micropul_print.sheets.gutterfold import plan_gutterfold
    from micropul_print.sheets.layout import load_layout
    from micropul_print.sheets.pdf import DocumentInfo, render_pdf

    catalogue = art.catalogue
    relative = Path("sheets") / gutterfold_file_name(catalogue.game, paper)
    if progress:
        progress(f"writing {output.path(relative)}")
    layout = load_layout(f"gutterfold-{paper}")
    cards, tokens = tile_pieces(art, options.bleed)
    size = faces.TILE_SIZE_MM
    fold = plan_gutterfold(layout, cards, size, size, catalogue.name, tokens=tokens,
                           options=SheetOptions(bleed=options.bleed, scale=options.scale))
    info = DocumentInfo(
        title=f"{catalogue.name} — tiles to fold, {layout.label}",
        author=AUTHOR,
        subject=f"Print-and-play tiles of {catalogue.name}: {len(catalogue.tiles)} tiles "
                f"of {size:g} mm, gutter-fold sheets for {layout.label} paper, printed "
                "single-sided, folded and glued",
    )
    return output.write_bytes(relative, render_pdf(fold.plan, info))


def write_cut_files(art: TileArt, output: OutputDir, layout: SheetLayout,
                    options: SheetOptions, *, progress: Progress | None = None) -> list[Path]:
    """Write ``sheets/<game>-cut-<paper>.svg`` (a layer per page) and
    ``sheets/<game>-cut-<paper>-page<N>.svg`` for each front page of the tile sheets
    holding pieces (sheets/cutfile.py); ``options`` must ask for registration marks, as
    the sheets were printed with."""
    from micropul_print.sheets.cutfile import (
        cut_document,
        cut_document_name,
        cut_file_name,
        cut_pages,
    )

    catalogue = art.catalogue
    if progress:
        progress(f"writing {output.path(Path('sheets'))}/{catalogue.game}-cut-{layout.name}"
                 "*.svg")
    plan = plan_tile_sheets(art, layout, options)
    title = f"{catalogue.name} — tiles, {layout.label}"
    written = [output.write_bytes(Path("sheets") / cut_document_name(catalogue.game, layout.name),
                                  cut_document(plan, title))]
    return written + [
        output.write_bytes(Path("sheets") / cut_file_name(catalogue.game, layout.name,
                                                          page.number), page.svg)
        for page in cut_pages(plan, title)]


def reprint_file_name(game: str, paper: str) -> str:
    return f"{game}-reprint-{paper}.pdf"


def write_reprint(art: TileArt, output: OutputDir, layout: SheetLayout, wanted: Sequence[int],
                  options: SheetOptions, *, progress: Progress | None = None) -> Path:
    """Write ``sheets/<game>-reprint-<paper>.pdf``: duplex sheets of the tiles numbered
    ``wanted`` only, with their backs (sheets/reprint.py); returns its path."""
    from micropul_print.sheets.pdf import DocumentInfo, render_pdf
    from micropul_print.sheets.reprint import plan_reprint, reprint_title

    catalogue = art.catalogue
    relative = Path("sheets") / reprint_file_name(catalogue.game, layout.name)
    if progress:
        progress(f"writing {output.path(relative)}")
    # The tiles alone: no cut files, and no calibration page (a sheet of its own, which
    # the full sheets beside the reprint have), so a few tiles take one sheet.
    options = options._replace(registration=False, calibration=False)
    cards, _stones = tile_pieces(art, options.bleed)
    size = faces.TILE_SIZE_MM
    plan = plan_reprint(layout, cards, [tile.id for tile in catalogue.tiles], wanted, size,
                        size, catalogue.name, source=catalogue.source, options=options,
                        at=catalogue.tiles_at)
    info = DocumentInfo(
        title=f"{reprint_title(catalogue.name, wanted)}, {layout.label}",
        author=AUTHOR,
        subject=f"Reprint of {len(wanted)} tile{'s' if len(wanted) != 1 else ''} of "
                f"{catalogue.name}, duplex sheets for {layout.label} paper",
    )
    return output.write_bytes(relative, render_pdf(plan, info))


def reprint_gutterfold_file_name(game: str, paper: str) -> str:
    return f"{game}-reprint-gutterfold-{paper}.pdf"


def write_reprint_gutterfold(art: TileArt, output: OutputDir, paper: str,
                             wanted: Sequence[int], options: SheetOptions, *,
                             progress: Progress | None = None) -> Path:
    """Write ``sheets/<game>-reprint-gutterfold-<paper>.pdf``: the tiles numbered
    ``wanted`` only, each front beside its back to fold (sheets/gutterfold.py); returns
    its path."""
    from micropul_print.sheets.gutterfold import plan_gutterfold
    from micropul_print.sheets.layout import load_layout
    from micropul_print.sheets.pdf import DocumentInfo, render_pdf
    from micropul_print.sheets.reprint import choose, reprint_title

    catalogue = art.catalogue
    relative = Path("sheets") / reprint_gutterfold_file_name(catalogue.game, paper)
    if progress:
        progress(f"writing {output.path(relative)}")
    layout = load_layout(f"gutterfold-{paper}")
    cards, _stones = tile_pieces(art, options.bleed)
    chosen = choose(cards, [tile.id for tile in catalogue.tiles], wanted,
                    source=catalogue.source, at=catalogue.tiles_at)
    size = faces.TILE_SIZE_MM
    title = reprint_title(catalogue.name, wanted)
    fold = plan_gutterfold(layout, chosen, size, size, title,
                           options=SheetOptions(bleed=options.bleed, scale=options.scale))
    info = DocumentInfo(
        title=f"{title}, {layout.label}",
        author=AUTHOR,
        subject=f"Reprint of {len(wanted)} tile{'s' if len(wanted) != 1 else ''} of "
                f"{catalogue.name}, gutter-fold sheets for {layout.label} paper, printed "
                "single-sided, folded and glued",
    )
    return output.write_bytes(relative, render_pdf(fold.plan, info))


def print_shop_file_name(game: str) -> str:
    return f"{game}-tiles-print-shop.pdf"


def reprint_print_shop_file_name(game: str) -> str:
    return f"{game}-reprint-print-shop.pdf"


def write_print_shop(art: TileArt, output: OutputDir, flip: Flip = "long", *,
                     wanted: Sequence[int] | None = None,
                     progress: Progress | None = None) -> Path:
    """Write ``sheets/<game>-tiles-print-shop.pdf``: each tile alone on a page with the
    shop's bleed, then its back (sheets/printshop.py); the stones are cut from the
    sheets. With ``wanted`` (``--tiles``), ``sheets/<game>-reprint-print-shop.pdf``:
    the tiles so numbered only, in that order. Returns its path."""
    from micropul_print.sheets.pdf import DocumentInfo
    from micropul_print.sheets.printshop import (
        SHOP_BLEED,
        plan_print_shop,
        render_print_shop_pdf,
    )
    from micropul_print.sheets.reprint import choose, reprint_title

    catalogue = art.catalogue
    name = (print_shop_file_name if wanted is None else reprint_print_shop_file_name)
    relative = Path("sheets") / name(catalogue.game)
    if progress:
        progress(f"writing {output.path(relative)}")
    cards, _stones = tile_pieces(art, SHOP_BLEED)
    numbers = [tile.id for tile in catalogue.tiles]
    title = f"{catalogue.name} — tiles for a print shop"
    if wanted is not None:
        cards = choose(cards, numbers, wanted, source=catalogue.source,
                       at=catalogue.tiles_at)
        numbers = list(wanted)
        title = f"{reprint_title(catalogue.name, wanted)}, for a print shop"
    size = faces.TILE_SIZE_MM
    plan = plan_print_shop(cards, size, size, names=[f"tile {n}" for n in numbers])
    info = DocumentInfo(
        title=title,
        author=AUTHOR,
        subject=f"{len(cards)} tile{'s' if len(cards) != 1 else ''} of {catalogue.name}, "
                f"{size:g} mm with {SHOP_BLEED:g} mm bleed, one face a page, each front "
                "followed by its back",
    )
    return output.write_bytes(relative, render_print_shop_pdf(plan, info, flip))
