"""`micropul-print position FILE [--legal TILE]`: analyse a position file as JSON."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

HELP = "analyse a position file: legality, catalysts, groups, or Cellulae moves (JSON)"
GAMES = ("micropul", "cellulae")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="position file (YAML)")
    parser.add_argument(
        "--legal",
        metavar="TILE|COLOUR",
        help="also list every legal placement of this tile on the final table "
        "(Cellulae: every legal move of white or black)",
    )
    parser.add_argument(
        "--catalogue", metavar="PATH", help="tile catalogue (default: the shipped one of --game)"
    )
    parser.add_argument(
        "--game", choices=GAMES, help="use the catalogue shipped for this game (default: micropul)"
    )
    parser.add_argument("--strict", action="store_true", help="treat warnings as errors")


def run(args: argparse.Namespace) -> int:
    from micropul_print.catalogue.loader import load_catalogue, require_game, shipped_catalogue
    from micropul_print.errors import UserError

    catalogue = load_catalogue(args.catalogue or shipped_catalogue(args.game), strict=args.strict)
    if args.catalogue:
        require_game(catalogue, args.game)
    if catalogue.game == "cellulae":
        return _run_cellulae(catalogue, args)
    from micropul_print.analysis import analyse
    from micropul_print.catalogue.position import read_position
    from micropul_print.errors import errors_in

    legal_tile = None
    if args.legal is not None:
        if not args.legal.isdigit():
            return _usage(f"--legal takes a tile number for {catalogue.name}, got {args.legal!r}")
        legal_tile = int(args.legal)
    position, diagnostics = read_position(args.file, catalogue)
    errors = errors_in(diagnostics, args.strict)
    if position is None or errors:
        raise UserError(errors or diagnostics)
    for diagnostic in diagnostics:  # warnings and notices that do not stop us
        print(diagnostic, file=sys.stderr)
    result = analyse(position, catalogue, legal_tile)
    sys.stdout.write(format_json(result))
    return 0


def _run_cellulae(catalogue: object, args: argparse.Namespace) -> int:
    from micropul_print.catalogue.cellulae import FACE_COLOURS, CellulaeCatalogue
    from micropul_print.cellulae_analysis import analyse_cellulae, load_cellulae_position

    assert isinstance(catalogue, CellulaeCatalogue)  # the loader's reader for "cellulae"
    if args.legal is not None and args.legal not in FACE_COLOURS:
        return _usage(f"--legal takes white or black for Cellulae, got {args.legal!r}")
    position = load_cellulae_position(args.file, catalogue, strict=args.strict)
    sys.stdout.write(format_json(analyse_cellulae(position, catalogue, args.legal)))
    return 0


def _usage(message: str) -> int:
    print(f"micropul-print position: error: {message}", file=sys.stderr)
    return 2


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
