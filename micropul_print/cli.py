"""Argument parsing only: each command lives in ``micropul_print.commands.<name>``.

A command module defines ``HELP`` (one line), ``add_arguments(parser)`` and
``run(args) -> int``. Command modules must import heavy libraries (reportlab, svgwrite,
Pillow) inside ``run`` only, so that ``check``, ``position`` and ``catalogue`` never
load the drawing libraries.

Exit codes: 0 success, 1 invalid input or failed check, 2 usage error.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from types import ModuleType

from micropul_print import __version__
from micropul_print.errors import UserError

COMMANDS = ("check", "catalogue", "position", "build", "rulebook")


def _load(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"micropul_print.commands.{name}")
    except ModuleNotFoundError as exc:
        if exc.name == f"micropul_print.commands.{name}":
            return None  # command not built yet
        raise


def build_parser() -> tuple[argparse.ArgumentParser, dict[str, ModuleType]]:
    parser = argparse.ArgumentParser(
        prog="micropul-print",
        description="Print-and-play kit generator and rules engine for Micropul.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    modules: dict[str, ModuleType] = {}
    for name in COMMANDS:
        module = _load(name)
        if module is None:
            continue
        modules[name] = module
        command = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(command)
    return parser, modules


def main(argv: list[str] | None = None) -> int:
    parser, modules = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = modules[args.command].run(args)
    except UserError as exc:
        for diagnostic in exc.diagnostics:
            print(diagnostic, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("micropul-print: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 1
    return code
