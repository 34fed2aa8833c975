"""`micropul-print check [CATALOGUE]`: validate the catalogue, check facts about the set
with the rules engine, and simulate random games. Never loads the drawing libraries."""

from __future__ import annotations

import argparse
import sys

HELP = "validate the tile catalogue, check the set with the rules engine, simulate games"


def _count(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 0, got {text!r}")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "catalogue",
        metavar="CATALOGUE",
        nargs="?",
        help="tile catalogue (default: the shipped catalogue of --game)",
    )
    parser.add_argument(
        "--game",
        choices=("micropul", "cellulae"),
        help="check the catalogue shipped for this game (default: micropul)",
    )
    parser.add_argument(
        "--games",
        metavar="N",
        type=_count,
        default=200,
        help="random games to simulate in each mode (Micropul: two-player and solitaire; "
        "Cellulae: each board size) (default 200)",
    )
    parser.add_argument(
        "--seed", metavar="S", type=int, default=0, help="seed of the first game (default 0)"
    )
    parser.add_argument(
        "--strict", action="store_true", help="treat warnings as errors (catalogue and set)"
    )


def run(args: argparse.Namespace) -> int:
    from micropul_print.catalogue.loader import read_catalogue, require_game, shipped_catalogue
    from micropul_print.errors import UserError, errors_in
    from micropul_print.setcheck import format_facts, format_simulation, set_facts, simulate

    catalogue, diagnostics = read_catalogue(args.catalogue or shipped_catalogue(args.game))
    errors = errors_in(diagnostics, args.strict)
    if catalogue is None or errors:
        raise UserError(errors or diagnostics)
    if args.catalogue:
        require_game(catalogue, args.game)
    for diagnostic in diagnostics:
        print(diagnostic, file=sys.stderr)
    show_progress = sys.stderr.isatty() or args.games >= 5000
    if catalogue.game == "cellulae":
        return _check_cellulae(catalogue, args, show_progress)
    out = sys.stdout
    print(f"catalogue {catalogue.source}: valid ({len(catalogue.tiles)} tiles)", file=out)
    facts = set_facts(catalogue)
    for line in format_facts(facts):
        print(line, file=out)
    for diagnostic in facts.diagnostics:
        print(diagnostic, file=out)
    failed = errors_in(facts.diagnostics, args.strict)
    if failed:
        print(f"check failed: {len(failed)} problem(s) with the set", file=out)
        return 1
    for players in (2, 1):
        mode = "two-player" if players == 2 else "solitaire"

        def progress(done: int, mode: str = mode) -> None:
            print(f"\rcheck: {done}/{args.games} {mode} games", end="", file=sys.stderr)

        sim = simulate(
            catalogue, args.games, args.seed, players, progress if show_progress else None
        )
        if show_progress:
            print(file=sys.stderr)
        for line in format_simulation(sim):
            print(line, file=out)
    print("check passed", file=out)
    return 0


def _check_cellulae(catalogue: object, args: argparse.Namespace, show_progress: bool) -> int:
    from micropul_print.catalogue.cellulae import CellulaeCatalogue
    from micropul_print.cellulae_check import check_cellulae

    assert isinstance(catalogue, CellulaeCatalogue)  # the loader's reader for "cellulae"
    total = args.games * len(catalogue.boards)

    def progress(done: int) -> None:
        print(f"\rcheck: {done}/{total} games", end="", file=sys.stderr)

    report, ok = check_cellulae(
        catalogue, args.games, args.seed, progress if show_progress else None
    )
    if show_progress:
        print(file=sys.stderr)
    sys.stdout.write(report if report.endswith("\n") else report + "\n")
    return 0 if ok else 1
