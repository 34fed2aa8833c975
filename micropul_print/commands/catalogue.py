"""``micropul-print catalogue``: validate a tile catalogue and show it, as a table or as
the public catalogue JSON (docs/contracts.md)."""

from __future__ import annotations

import argparse
import json
import sys

from micropul_print.commands.values import file_name
from micropul_print.config import ConfigSpec
from micropul_print.game import registry

HELP = "validate a tile catalogue and list its tiles (or print its JSON)"
# The catalogue (a variant's, as init writes), --game and --strict may be set in the
# configuration file, paths relative to it (docs/configuration.md); --json, the form of
# this one answer, is asked for each time.
CONFIG = ConfigSpec(exclude=frozenset({"json"}), paths={"catalogue": ()})


def add_arguments(parser: argparse.ArgumentParser) -> None:
    names = registry.game_names()
    parser.add_argument(
        "catalogue",
        nargs="?",
        default=None,
        metavar="CATALOGUE",
        type=file_name,
        help=f"catalogue YAML file (default: the shipped catalogue of --game, or of "
        f"{names[0]})",
    )
    parser.add_argument(
        "--game", choices=names, help="show the catalogue shipped for this game"
    )
    parser.add_argument(
        "--json", action="store_true", help="print the catalogue JSON contract on stdout"
    )
    parser.add_argument(
        "--strict", action="store_true", help="treat warnings (e.g. unknown keys) as errors"
    )


def run(args: argparse.Namespace) -> int:
    # Here, not above: every configurable command imports this module for its table.
    from micropul_print.base.errors import UserError, printable_lines, without_errors
    from micropul_print.catalogue.loader import read_catalogue, require_game, shipped_catalogue
    from micropul_print.config import missing_inputs

    missing = missing_inputs(args, CONFIG)
    if missing:
        raise UserError(missing)
    found, diagnostics = read_catalogue(args.catalogue or shipped_catalogue(args.game))
    catalogue = without_errors(found, diagnostics, args.strict)
    if args.catalogue:
        require_game(catalogue, args.game)
    for diagnostic in diagnostics:  # warnings and notices only
        print(diagnostic, file=sys.stderr)
    if args.json:
        sys.stdout.write(json.dumps(catalogue.to_json(), indent=2) + "\n")
    else:
        sys.stdout.write(printable_lines(registry.get(catalogue.game).describe(catalogue)))
    return 0
