"""`micropul-print replay RECORD --out DIR`: a game record played again through the
engine, every move checked (an illegal move is an error at its line in the record),
and pictured: DIR/turn-000.svg (the set-up) to DIR/turn-NNN.svg, and DIR/replay.pdf
with every turn, one per page of the kit's paper. The catalogue is the one given
(--catalogue, or the configuration file's), else the one the record names (its path
from the record's folder, checked by its digest), else the game's shipped one."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from micropul_print.base.paper import PAPER_NAMES
from micropul_print.commands.values import file_name, folder_name, theme_name
from micropul_print.config import SETTINGS, ConfigSpec
from micropul_print.draw.theme import THEME_NAMES

HELP = "check a game record move by move and draw every turn (SVG per turn, one PDF)"
# All but the record and the folder written may be set in the configuration file.
CONFIG = ConfigSpec(exclude=frozenset({"record", "out"}),
                    paths={"catalogue": (), "theme": THEME_NAMES})


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", metavar="RECORD", type=file_name,
                        help="a game record (play --record)")
    parser.add_argument("--catalogue", metavar="PATH", type=file_name,
                        help="the catalogue the game was played with (default: the one the "
                        "record names, where it says, else the shipped catalogue of the "
                        "record's game)")
    parser.add_argument("--theme", metavar="T", default="classic", type=theme_name,
                        help="theme of the pictures (default classic)")
    parser.add_argument("--paper", choices=PAPER_NAMES, default="a4",
                        help="paper of replay.pdf, as the kit's (default a4)")
    parser.add_argument("--out", metavar="DIR", type=folder_name,
                        help="write the pictures into DIR (without it, only check the record)")


def run(args: argparse.Namespace) -> int:
    from micropul_print.base.errors import UserError, printable
    from micropul_print.catalogue.loader import load_catalogue
    from micropul_print.config import missing_inputs
    from micropul_print.game import registry
    from micropul_print.kit.outputs import check_directory_target
    from micropul_print.lab.record import read_record, replay

    missing = missing_inputs(args, CONFIG)
    if missing:
        raise UserError(missing)

    from micropul_print.draw.theme import load_theme

    # Every input is judged before the record is played: a theme that is not one was
    # refused only after the replay, and not at all without --out.
    theme = load_theme(args.theme)
    if args.out is not None:
        check_directory_target(Path(args.out), "the pictures")
    read = read_record(args.record)
    for warning in read.warnings:
        print(warning, file=sys.stderr)
    record = read.record
    try:
        game = registry.get(record.game)
    except UserError as exc:
        raise UserError([read.at("game", d.message) for d in exc.diagnostics]) from None
    catalogue = load_catalogue(_catalogue_file(args, read, game.shipped_catalogue()))
    if catalogue.game != record.game:
        raise UserError([read.at("game", f"the record is of a {record.game} game, and "
                                 f"{catalogue.source} is a {catalogue.game} catalogue")])
    if catalogue.name != record.catalogue:
        raise UserError([read.at("catalogue", f"the game was played with the {record.game} "
                                 f"catalogue {record.catalogue!r}, not {catalogue.name!r} "
                                 f"({catalogue.source}): give its file with --catalogue")])
    # The marks the game draws, as build checks them: a theme without one was an
    # internal error (KeyError) once the whole game had been replayed.
    problems = game.theme_problems(catalogue, theme)
    if problems:
        raise UserError(problems)
    states = replay(read, catalogue)
    print(f"{read.source}: {len(record.moves)} moves, all legal; "
          f"{states[-1].end_reason() or 'not over'}", file=sys.stderr)
    if args.out is None:
        return 0
    from micropul_print.backends.svg import to_svg
    from micropul_print.kit.outputs import Staging
    from micropul_print.lab.record import move_notation, pages_pdf, replay_drawings

    pages = replay_drawings(read, catalogue, theme, states)
    digits = max(3, len(str(len(pages) - 1)))
    # Staged, as a build is: an interrupted replay leaves the folder as it was, and the
    # turns of a longer game replayed there before are removed (the manifest lists them).
    staging = Staging(args.out)
    with staging as output:
        written = [output.write_bytes(f"turn-{turn:0{digits}d}.svg", to_svg(page))
                   for turn, page in enumerate(pages)]
        # The title names the record's file alone: no folder of this machine.
        written.append(output.write_bytes("replay.pdf", pages_pdf(
            pages, f"{game.info.title} replay: {Path(read.source).name}", args.paper)))
        # Every move in notation, one a line, numbered by player turn: the game as text
        # (for a reader, a diff, or serve's replay viewer).
        notation = [f"{turn}. {move_notation(data, states[turn - 1])}"
                    for turn, data in enumerate(record.moves, start=1)]
        written.append(output.write_bytes("moves.txt",
                                          "".join(f"{line}\n" for line in notation)
                                          .encode("utf-8")))
        removed = staging.commit({"replay": written})
    stale = f"; removed {len(removed)} pictures of an earlier replay" if removed else ""
    print(f"wrote {len(pages)} SVG pictures, replay.pdf and moves.txt into "
          f"{printable(str(output.root))}{stale}",
          file=sys.stderr)
    return 0


def _catalogue_file(args: argparse.Namespace, read: Any, shipped: Path) -> Path | str:
    """The catalogue to replay with: --catalogue on the command line; else the one the
    record names (catalogue_path, from the record's folder) when it is there; else the
    configuration file's; else the game's shipped one. A named file that is missing is
    an error at the record's catalogue_path, unless a catalogue was given otherwise."""
    from micropul_print.base.errors import UserError
    from micropul_print.lab.record import SHIPPED, named_catalogue

    from_file = any(setting.key == "catalogue" and setting.source not in ("command line",
                                                                          "default")
                    for setting in getattr(args, SETTINGS, ()))
    if args.catalogue and not from_file:
        return str(args.catalogue)
    named: str | None = read.record.catalogue_path
    if named is not None:
        if named.startswith(SHIPPED):
            return shipped
        there = named_catalogue(read)  # refused if it leads out of the record's folder
        assert there is not None
        if there.is_file():
            return there
        if not args.catalogue:
            raise UserError([read.at("catalogue_path", f"the catalogue the game was played "
                                     f"with is not where the record says ({there}): give "
                                     "its file with --catalogue")])
    return str(args.catalogue) if args.catalogue else shipped
