"""Argument parsing only: each command lives in ``micropul_print.commands.<name>``.

A command module defines ``HELP`` (one line), ``add_arguments(parser)`` and
``run(args) -> int``. Command modules must import heavy libraries (reportlab, svgwrite,
Pillow) inside ``run`` only, so that ``check``, ``position`` and ``catalogue`` never
load the drawing libraries.

Only the module of the command being run is imported: a build must not pay for the
rules engine or the position reader just to get its parser. Every module is loaded
only when the command line names none (usage, ``--help``, ``--version``, a typo).

Exit codes: 0 success, 1 invalid input or failed check, 2 usage error.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from types import ModuleType

from micropul_print import __version__
from micropul_print.errors import UserError
from micropul_print.gameapi import UsageError

COMMANDS = ("check", "catalogue", "position", "build", "rulebook", "analyse", "play", "replay")


def _load(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"micropul_print.commands.{name}")
    except ModuleNotFoundError as exc:
        if exc.name == f"micropul_print.commands.{name}":
            return None  # command not built yet
        raise


def build_parser(only: str | None = None) -> tuple[argparse.ArgumentParser,
                                                   dict[str, ModuleType]]:
    """The parser with every command, or with the command ``only`` alone (its module is
    the only one imported)."""
    from micropul_print import registry

    games = registry.games()
    parser = argparse.ArgumentParser(
        prog="micropul-print",
        description="Print-and-play kit generator and rules engines for tile games: "
                    + "; ".join(game.summary for game in games) + ".",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    modules: dict[str, ModuleType] = {}
    for name in COMMANDS if only is None else (only,):
        module = _load(name)
        if module is None:
            continue
        modules[name] = module
        command = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(command)
    return parser, modules


def command_named(argv: Sequence[str]) -> str | None:
    """The command ``argv`` runs, when its first word is one (no option comes before a
    command: the only top-level options, --help and --version, take no value)."""
    return argv[0] if argv and argv[0] in COMMANDS else None


def main(argv: list[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else argv
    parser, modules = build_parser(command_named(words))
    args = parser.parse_args(words)
    try:
        code: int = modules[args.command].run(args)
    except UserError as exc:
        for diagnostic in exc.diagnostics:
            print(diagnostic, file=sys.stderr)
        return 1
    except UsageError as exc:  # a value argparse could not judge alone
        print(f"micropul-print {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("micropul-print: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 1
    return code
