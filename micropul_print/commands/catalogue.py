"""``micropul-print catalogue``: validate a tile catalogue and show it, as a table or as
the public catalogue JSON (docs/contracts.md)."""

from __future__ import annotations

import argparse
import json
import sys

from micropul_print.catalogue.cellulae import CellulaeCatalogue
from micropul_print.catalogue.loader import DEFAULT_CATALOGUE, read_catalogue
from micropul_print.catalogue.model import Catalogue, Tile
from micropul_print.errors import UserError, errors_in

HELP = "validate a tile catalogue and list its tiles (or print its JSON)"

# The catalogue's own symbols, to show faces as they are written in the file.
_SYMBOLS = {"white": "W", "black": "B", "dot": "1", "double": "2", "plus": "P", "empty": "."}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "catalogue",
        nargs="?",
        default=str(DEFAULT_CATALOGUE),
        metavar="CATALOGUE",
        help="catalogue YAML file (default: the shipped tiledefs/micropul.yaml)",
    )
    parser.add_argument(
        "--json", action="store_true", help="print the catalogue JSON contract on stdout"
    )
    parser.add_argument(
        "--strict", action="store_true", help="treat warnings (e.g. unknown keys) as errors"
    )


def run(args: argparse.Namespace) -> int:
    catalogue, diagnostics = read_catalogue(args.catalogue)
    if catalogue is None or errors_in(diagnostics, args.strict):
        raise UserError(diagnostics)
    for diagnostic in diagnostics:  # warnings and notices only
        print(diagnostic, file=sys.stderr)
    if args.json:
        sys.stdout.write(json.dumps(catalogue.to_json(), indent=2) + "\n")
    elif isinstance(catalogue, CellulaeCatalogue):
        sys.stdout.write(cellulae_table(catalogue))
    else:
        sys.stdout.write(table(catalogue))
    return 0


def table(catalogue: Catalogue) -> str:
    """One line per tile: id, top row, bottom row (catalogue symbols), notes."""
    lines = [f"{catalogue.name}: {len(catalogue.tiles)} tiles", "  id  top  bottom  notes"]
    for tile in catalogue.tiles:
        top, bottom = _rows(tile)
        lines.append(f"{tile.id:4}  {top:<3}  {bottom:<6}  {_notes(tile)}".rstrip())
    return "\n".join(lines) + "\n"


def cellulae_table(catalogue: CellulaeCatalogue) -> str:
    """The set of a board game: its tiles' two faces and the boards it offers."""
    faces = " / ".join(f"{face.colour} ({face.mark})" for face in catalogue.faces)
    lines = [
        f"{catalogue.name} by {catalogue.author}: {catalogue.tile_total} two-sided tiles of "
        f"{catalogue.tile_size_mm:g} mm, faces {faces}",
        "  board  tiles",
    ]
    lines += [f"  {b.side} x {b.side}  {b.tiles}" for b in catalogue.boards]
    return "\n".join(lines) + "\n"


def _rows(tile: Tile) -> tuple[str, str]:
    tl, tr, br, bl = (_SYMBOLS[q] for q in tile.quadrants)
    return f"{tl} {tr}", f"{bl} {br}"


def _notes(tile: Tile) -> str:
    notes = []
    if tile.start:
        notes.append("start tile")
    if tile.big is not None:
        notes.append(f"big {tile.big.colour} micropul, {tile.big.catalyst} catalyst")
    return "; ".join(notes)
