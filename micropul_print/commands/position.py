"""`micropul-print position FILE [--legal TILE]`: analyse a position file as JSON."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

HELP = "analyse a position file: legality, catalysts, groups (JSON on stdout)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="position file (YAML)")
    parser.add_argument(
        "--legal",
        metavar="TILE",
        type=int,
        help="also list every legal placement of this tile on the final table",
    )
    parser.add_argument(
        "--catalogue", metavar="PATH", help="tile catalogue (default: the shipped one)"
    )
    parser.add_argument("--strict", action="store_true", help="treat warnings as errors")


def run(args: argparse.Namespace) -> int:
    from micropul_print.analysis import analyse
    from micropul_print.catalogue.loader import DEFAULT_CATALOGUE, load_catalogue
    from micropul_print.catalogue.position import read_position
    from micropul_print.errors import UserError, errors_in

    catalogue = load_catalogue(args.catalogue or DEFAULT_CATALOGUE, strict=args.strict)
    position, diagnostics = read_position(args.file, catalogue)
    errors = errors_in(diagnostics, args.strict)
    if position is None or errors:
        raise UserError(errors or diagnostics)
    for diagnostic in diagnostics:  # warnings and notices that do not stop us
        print(diagnostic, file=sys.stderr)
    result = analyse(position, catalogue, args.legal)
    sys.stdout.write(format_json(result))
    return 0


def format_json(result: dict[str, Any]) -> str:
    """The analysis as JSON, one placement / group / legal placement per line."""
    parts = []
    for key, items in result.items():
        lines = ",\n".join(f"    {json.dumps(item)}" for item in items)
        parts.append(
            f"  {json.dumps(key)}: [\n{lines}\n  ]" if items else f"  {json.dumps(key)}: []"
        )
    return "{\n" + ",\n".join(parts) + "\n}\n"
