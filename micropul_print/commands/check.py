"""`micropul-print check [CATALOGUE]`: validate the catalogue, check facts about the set
with the rules engine, and simulate random games. Never loads the drawing libraries."""

from __future__ import annotations

import argparse
import sys

from micropul_print.commands.values import (
    MAX_SEED,
    MAX_SIMULATED_GAMES,
    file_name,
    require_seeds,
    whole_number,
)
from micropul_print.config import ConfigSpec
from micropul_print.game import registry

HELP = "validate the tile catalogue, check the set with the rules engine, simulate games"
# Every option may be set in the configuration file; paths in the file are relative
# to it (docs/configuration.md).
CONFIG = ConfigSpec(paths={"catalogue": ()})


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "catalogue",
        metavar="CATALOGUE",
        nargs="?",
        type=file_name,
        help="tile catalogue (default: the shipped catalogue of --game)",
    )
    names = registry.game_names()
    parser.add_argument(
        "--game",
        choices=names,
        help=f"check the catalogue shipped for this game (default: {names[0]})",
    )
    parser.add_argument(
        "--games",
        metavar="N",
        type=whole_number(0, MAX_SIMULATED_GAMES, "the number of games"),
        default=200,
        help="random games to simulate in each mode of the game (e.g. two-player and "
        f"solitaire, or each board size), at most {MAX_SIMULATED_GAMES:,} (default 200)",
    )
    parser.add_argument(
        "--seed", metavar="S", type=whole_number(0, MAX_SEED, "the seed"), default=0,
        help="seed of the first game (default 0)"
    )
    parser.add_argument(
        "--strict", action="store_true", help="treat warnings as errors (catalogue and set)"
    )


def run(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from micropul_print.base.errors import Diagnostic, UserError, without_errors
    from micropul_print.base.shown import shown_source
    from micropul_print.catalogue.loader import read_catalogue, require_game, shipped_catalogue
    from micropul_print.config import missing_inputs

    missing = missing_inputs(args, CONFIG)
    if missing:
        raise UserError(missing)
    require_seeds(args)  # game k of each kind is dealt seed S + k
    found, diagnostics = read_catalogue(args.catalogue or shipped_catalogue(args.game))
    catalogue = without_errors(found, diagnostics, args.strict)
    if args.catalogue:
        require_game(catalogue, args.game)
    shipped = registry.get(catalogue.game).shipped_catalogue()

    def shown(diagnostic: Diagnostic) -> Diagnostic:  # the shipped set by its short name
        return replace(diagnostic, file=shown_source(diagnostic.file, [shipped]))

    for diagnostic in diagnostics:
        print(shown(diagnostic), file=sys.stderr)
    on_terminal = sys.stderr.isatty()
    show_progress = on_terminal or args.games >= 5000
    said = [0]  # on a terminal: 1 while a progress line waits for its end; else the tenths

    def progress(done: int, total: int) -> None:
        if on_terminal:  # one line, redrawn
            print(f"\rcheck: {done}/{total} games", end="", file=sys.stderr)
            said[0] = 1
        elif done * 10 // total > said[0]:  # a log or a pipe: a line every tenth
            said[0] = done * 10 // total
            print(f"check: {done}/{total} games", file=sys.stderr)

    try:
        report = registry.get(catalogue.game).check(
            catalogue, games=args.games, seed=args.seed, strict=args.strict,
            progress=progress if show_progress else None)
    finally:  # the interruption's message, if any, on a line of its own
        if on_terminal and said[0]:
            print(file=sys.stderr)
    for line in report.lines:
        print(line)
    for diagnostic in report.diagnostics:
        print(shown(diagnostic), file=sys.stderr)
    return 0 if report.ok else 1
