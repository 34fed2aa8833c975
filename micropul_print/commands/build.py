"""`micropul-print build`: the whole print-and-play kit into one output directory."""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from micropul_print.base.errors import quoted
from micropul_print.base.paper import DEFAULT_PAPER, PAPER_NAMES
from micropul_print.config import ConfigSpec
from micropul_print.draw.theme import THEME_NAMES
from micropul_print.kit.plan import SHEET_LAYOUTS
from micropul_print.sheets.duplex import FLIPS

if TYPE_CHECKING:
    from micropul_print.kit.build import KitOptions, KitReport

from micropul_print.commands.values import (
    decimal_number,
    every_or_one,
    file_name,
    folder_name,
    list_items,
    once_each,
    theme_name,
    whole_number,
)

HELP = "build the print-and-play kit: tile images, duplex PDF sheets, boards, rulebooks"
# Options the configuration file may set: all but --watch (a build that never ends
# is asked for each time); paths in the file are relative to it (docs/configuration.md).
CONFIG = ConfigSpec(exclude=frozenset({"watch"}),
                    paths={"catalogue": (), "out": (), "theme": THEME_NAMES})

# Parts of the kit --only can pick; the default is all of them.
PARTS = ("svg", "png", "sheets", "rulebooks")
MAX_BLEED = 10.0


def _bleed(text: str) -> float:
    try:
        value = decimal_number(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of millimetres: {quoted(text)}") from None
    if not math.isfinite(value) or not 0 <= value <= MAX_BLEED:
        raise argparse.ArgumentTypeError(f"bleed must be between 0 and {MAX_BLEED:g} mm")
    return value


def _tile_numbers(text: str) -> tuple[int, ...]:
    from micropul_print.sheets.reprint import parse_numbers

    try:
        return parse_numbers(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _offset(text: str) -> tuple[float, float]:
    parts = text.split(",")
    try:
        x, y = (decimal_number(p) for p in parts)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected two millimetre values X,Y such as 0.5,-1: {quoted(text)}") from None
    if not (math.isfinite(x) and math.isfinite(y)) or max(abs(x), abs(y)) > 20:
        raise argparse.ArgumentTypeError("each back offset must be within 20 mm")
    return x + 0.0, y + 0.0  # -0 is 0: calibrate wrote [-0.0, -0.0] and said [-0, -0]


MIN_SCALE, MAX_SCALE = 90.0, 110.0


def _scale(text: str) -> tuple[float, float]:
    """``X,Y`` or one value for both: the printer's scale in per cent, across and down
    the page, as the calibration page reads it."""
    parts = text.split(",")
    try:
        values = [decimal_number(p) for p in parts]
    except ValueError:
        values = []
    if len(values) not in (1, 2):
        raise argparse.ArgumentTypeError(
            f"expected the printer's scale in per cent, X,Y or one value for both, such as "
            f"97 or 97,98.5: {quoted(text)}")
    x, y = values[0], values[-1]
    if not all(math.isfinite(v) and MIN_SCALE <= v <= MAX_SCALE for v in (x, y)):
        raise argparse.ArgumentTypeError(
            f"each scale must be between {MIN_SCALE:g} and {MAX_SCALE:g} per cent (a printer "
            "further off is set to fit the page to the paper: print at 100 %)")
    return x, y


def _choices(allowed: tuple[str, ...], what: str) -> Callable[[str], tuple[str, ...]]:
    def parse(text: str) -> tuple[str, ...]:
        items = tuple(once_each(list_items(text, what, ",".join(allowed[:2])), what, text))
        unknown = [p for p in items if p not in allowed]
        if unknown or not items:
            raise argparse.ArgumentTypeError(
                f"unknown {what} {', '.join(unknown) or text!r}; choose from {','.join(allowed)}")
        return items
    return parse


def _languages(text: str) -> tuple[str, ...]:
    # The languages are the locale files present, so adding one needs no code here. A
    # language of one game's book only is refused by the other book, at build time.
    from micropul_print.rulebook import available_languages, games_with_rulebooks

    known = dict.fromkeys(lang for game in games_with_rulebooks()
                          for lang in available_languages(game))
    return _choices(tuple(known), "language")(text)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from micropul_print.game import registry

    names = registry.game_names()
    parser.add_argument("catalogue", nargs="?", metavar="CATALOGUE", type=file_name,
                        help="tile catalogue YAML; its game says which kit is built "
                             "(default: the shipped catalogue of --game)")
    parser.add_argument("--game", choices=(*names, "all"), default=None,
                        help="the game whose kit is built from its shipped catalogue, or "
                             "all of them; each game after the first goes under its own "
                             f"folder of DIR (default: the game of CATALOGUE, or {names[0]})")
    parser.add_argument("--theme", default="classic", type=theme_name,
                        help="tile theme: a built-in name (classic, ink-saver, colour-safe) "
                             "or a theme YAML file (default: classic)")
    parser.add_argument("--paper", choices=(*PAPER_NAMES, "all"), default=DEFAULT_PAPER,
                        help="the paper you print on, of the PDF sheets and rulebooks, or all "
                             f"of them (default: {DEFAULT_PAPER}; set 'paper' in "
                             "micropul-print.toml once)")
    parser.add_argument("--booklet", action="store_true",
                        help="also write each rulebook as a booklet to fold, two pages up: "
                             "rules/<game>-rules-<lang>-booklet-<paper>.pdf")
    parser.add_argument("--layout", choices=(*SHEET_LAYOUTS, "all"), default="duplex",
                        help="how the tile sheets are printed: duplex (double-sided), "
                             "gutter-fold (single-sided, fronts and backs side by side, to "
                             "fold and glue: sheets/<game>-tiles-gutterfold-<paper>.pdf), or "
                             "all (default: duplex)")
    parser.add_argument("--cut-files", action="store_true",
                        help="for print-and-cut machines (Silhouette): registration marks on "
                             "the duplex tile sheets, and their cut files, "
                             "sheets/<game>-cut-<paper>.svg (a layer per page) and "
                             "sheets/<game>-cut-<paper>-page<N>.svg")
    parser.add_argument("--tiles", type=_tile_numbers, default=None, metavar="N[,N-M...]",
                        help="also write sheets of these tiles only, to replace lost "
                             "or damaged ones: sheets/<game>-reprint-<paper>.pdf (and "
                             "-reprint-gutterfold-<paper>.pdf with --layout gutter-fold, "
                             "-reprint-print-shop.pdf with --print-shop; "
                             "the numbers of the catalogue's tiles, e.g. 7,12,31 or 7-9)")
    parser.add_argument("--print-shop", action="store_true",
                        help="also write sheets/<game>-tiles-print-shop.pdf for a print shop: "
                             "each tile alone on a page with 3 mm bleed, front then back, "
                             "with trim and bleed boxes")
    parser.add_argument("--bleed", type=_bleed, metavar="MM",
                        help="art beyond the cut line, in mm, on the sheets and the PNG files "
                             "(default: 0 on sheets, for home printing; 3 on the PNG files)")
    parser.add_argument("--out", type=folder_name, default="output", metavar="DIR",
                        help="output directory; nothing outside it is written (default: output)")
    parser.add_argument("--dpi", type=whole_number(30, 2400, "the resolution"), default=300,
                        metavar="N",
                        help="resolution of the PNG tile images (default: 300)")
    parser.add_argument("--no-numbers", dest="numbers", action="store_false",
                        help="leave the small tile numbers off the faces")
    parser.add_argument("--duplex", choices=FLIPS, default="long",
                        help="edge your printer turns the sheet over when printing "
                             "double-sided; backs are mirrored to match (default: long)")
    parser.add_argument("--back-offset", type=_offset, default=(0.0, 0.0), metavar="X,Y",
                        help="shift every back page by X,Y mm (right, down) to correct a "
                             "printer's front/back drift, as read on the calibration page")
    parser.add_argument("--scale", type=_scale, default=(100.0, 100.0), metavar="X[,Y]",
                        help="the printer's scale in per cent across and down the page, as "
                             "read on the calibration page (one value for both): every PDF "
                             "page is enlarged to make up for it (default: 100)")
    parser.add_argument("--no-calibration", dest="calibration", action="store_false",
                        help="leave the calibration page (and its back) out of the sheets")
    parser.add_argument("--lang", type=_languages, default=None, metavar="L[,L...]",
                        help="rulebook languages, e.g. en,pl (default: every language "
                             "the rulebook has)")
    parser.add_argument("--only", type=_choices(PARTS, "part"), default=PARTS,
                        metavar="PART[,PART...]",
                        help=f"advanced: build only these parts ({','.join(PARTS)})")
    parser.add_argument("--strict", action="store_true",
                        help="treat catalogue and theme warnings as errors")
    parser.add_argument("--quiet", action="store_true",
                        help="print nothing but problems (no progress, no summary)")
    parser.add_argument("--watch", action="store_true",
                        help="build, then rebuild the parts affected whenever the catalogue, "
                             "theme, configuration, a page layout or a rulebook language file "
                             "changes, a line per rebuild, until Ctrl-C")


def kit_options(args: argparse.Namespace) -> KitOptions:
    """What the command line (and configuration) asks of the build."""
    from micropul_print.game import registry
    from micropul_print.kit.build import KitOptions

    games = (None if args.game is None else tuple(registry.game_names()) if args.game == "all"
             else (args.game,))
    sheet_layouts = every_or_one(args.layout, SHEET_LAYOUTS)
    if args.cut_files and "duplex" not in sheet_layouts and "sheets" in args.only:
        # The marks and cut files belong to the duplex sheets: without this, --cut-files
        # was silently dropped.
        from micropul_print.base.errors import UsageError

        raise UsageError("argument --cut-files: the cut files go with the duplex sheets, "
                         "which --layout gutter-fold leaves out: use --layout all for both "
                         "kinds of sheet, or leave --cut-files out")
    return KitOptions(
        catalogue=Path(args.catalogue) if args.catalogue else None,
        games=games,
        theme=args.theme,
        papers=every_or_one(args.paper, PAPER_NAMES),
        bleed=args.bleed,
        dpi=args.dpi,
        numbers=args.numbers,
        flip=args.duplex,
        back_offset=args.back_offset,
        scale=args.scale,
        calibration=args.calibration,
        langs=args.lang,  # None: every language present
        parts=frozenset(args.only),
        cut_files=args.cut_files,
        tiles=args.tiles,
        print_shop=args.print_shop,
        booklets=args.booklet,
        sheet_layouts=sheet_layouts,
        strict=args.strict,
    )


_TILES_PROBLEM = "argument --tiles: "


def run(args: argparse.Namespace) -> int:
    from micropul_print.base.errors import UsageError, UserError
    from micropul_print.config import at_the_setting, missing_inputs, value_problem
    from micropul_print.kit.outputs import (
        check_directory_target,
        check_output_directory,
        foreign_contents,
    )

    def check_out(args: argparse.Namespace) -> None:  # before any work (a loop of links
        # first: it says more)
        try:
            check_output_directory(Path(args.out), "the kit here")
            check_directory_target(Path(args.out), "the kit")  # read-only, as others say
        except UserError as problem:  # at the configuration's `out`, if it came from there
            raise at_the_setting(args, "out", problem) from None
        foreign = foreign_contents(Path(args.out))
        if foreign is not None:
            raise value_problem(args, "out", foreign)

    if args.watch:  # a missing input is said, and waited for
        from micropul_print.watch import watch

        def checked_options(args: argparse.Namespace) -> KitOptions:
            # At each reading of the configuration: an `out` saved there while watching
            # is judged as one given at the start (a folder of someone else's files was
            # built into).
            check_out(args)
            return kit_options(args)

        return watch(args, checked_options, build,
                     missing=lambda args: missing_inputs(args, CONFIG))
    missing = missing_inputs(args, CONFIG)
    if missing:
        raise UserError(missing)
    check_out(args)
    try:
        report = build(Path(args.out), kit_options(args), quiet=args.quiet)
    except UsageError as exc:  # --tiles judged against the catalogue: at the file's value
        text = str(exc)
        if not text.startswith(_TILES_PROBLEM):
            raise
        raise value_problem(args, "tiles", text.removeprefix(_TILES_PROBLEM)) from None
    if not args.quiet:
        from micropul_print.kit.build import format_summary

        print(format_summary(report))
    return 0


def build(out: Path, options: KitOptions, *, quiet: bool, keep_unmade: bool = False,
          loaded: Any = None) -> KitReport:
    """Build into ``out``, showing progress on stderr unless ``quiet`` (``loaded``: see
    build_kit)."""
    from micropul_print.base.errors import Diagnostic, UserError
    from micropul_print.kit.build import build_kit

    try:
        if quiet:
            return build_kit(out, options, keep_unmade=keep_unmade, loaded=loaded)
        if sys.stderr.isatty():  # a live line per part, redrawn in place
            from micropul_print.kit.progress import LiveProgress

            with LiveProgress(sys.stderr) as live:
                return build_kit(out, options, events=live, keep_unmade=keep_unmade,
                                 loaded=loaded)
        # A pipe or a log: a line per part as it ends, in a fixed order.
        from micropul_print.kit.progress import LineProgress

        return build_kit(out, options, events=LineProgress(out, sys.stderr),
                         keep_unmade=keep_unmade, loaded=loaded)
    except OSError as exc:  # an unwritable --out: the user's to fix, not a crash
        where = str(exc.filename or out)
        raise UserError([Diagnostic(where, 0, 0, f"cannot write: {exc.strerror or exc}")]) from None
