"""`micropul-print position FILE [--legal TILE]`: analyse a position file as JSON."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from micropul_print.commands.values import file_name
from micropul_print.config import ConfigSpec
from micropul_print.game import registry

HELP = "analyse a position file with the game's rules engine (JSON)"
# The catalogue (a variant's, as init writes), --game and --strict may be set in the
# configuration file, paths relative to it (docs/configuration.md); the position file
# and --legal are this one question's.
CONFIG = ConfigSpec(exclude=frozenset({"file", "legal"}), paths={"catalogue": ()})


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", type=file_name, help="position file (YAML)")
    parser.add_argument(
        "--legal",
        metavar="TILE|COLOUR",
        help="also list every legal move of this piece or player in the final position "
        "(e.g. a tile number, or a colour)",
    )
    parser.add_argument(
        "--catalogue", metavar="PATH", type=file_name,
        help="tile catalogue (default: the shipped one of --game)",
    )
    names = registry.game_names()
    parser.add_argument(
        "--game", choices=names,
        help=f"use the catalogue shipped for this game (default: {names[0]})"
    )
    parser.add_argument("--strict", action="store_true", help="treat warnings as errors")


def run(args: argparse.Namespace) -> int:
    from micropul_print.base.errors import UserError
    from micropul_print.catalogue.loader import load_catalogue, require_game, shipped_catalogue
    from micropul_print.config import missing_inputs

    missing = missing_inputs(args, CONFIG)
    if missing:
        raise UserError(missing)
    catalogue = load_catalogue(args.catalogue or shipped_catalogue(args.game), strict=args.strict)
    if args.catalogue:
        require_game(catalogue, args.game)
    result, diagnostics = registry.get(catalogue.game).analyse_position(
        args.file, catalogue, args.legal, strict=args.strict)
    for diagnostic in diagnostics:  # warnings and notices that do not stop us
        print(diagnostic, file=sys.stderr)
    sys.stdout.write(format_json(result))
    return 0


def format_json(result: dict[str, Any]) -> str:
    """The analysis as JSON: each list one item per line (placement, group, turn, board
    row...), every other value on its key's line."""
    parts = []
    for key, value in result.items():
        if isinstance(value, list) and value:
            lines = ",\n".join(f"    {json.dumps(item)}" for item in value)
            parts.append(f"  {json.dumps(key)}: [\n{lines}\n  ]")
        else:
            parts.append(f"  {json.dumps(key)}: {json.dumps(value)}")
    return "{\n" + ",\n".join(parts) + "\n}\n"
