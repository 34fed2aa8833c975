"""`micropul-print serve [CATALOGUE]`: the kit, its problems and the lab in a live page
on the loopback (docs/serve.md)."""

from __future__ import annotations

import argparse
from pathlib import Path

from micropul_print.commands.values import file_name, whole_number

HELP = "show the kit, its problems and the lab in a browser page that follows your edits"
DEFAULT_PORT = 8800


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from micropul_print.game import registry

    names = registry.game_names()
    parser.add_argument("catalogue", nargs="?", metavar="CATALOGUE", type=file_name,
                        help="tile catalogue YAML (default: the build's, from "
                             "micropul-print.toml, or the shipped catalogue of --game)")
    parser.add_argument("--game", choices=names, default=None,
                        help=f"the game whose shipped catalogue is shown (default: the game "
                             f"of CATALOGUE, or {names[0]})")
    parser.add_argument("--port", type=whole_number(0, 65535, "the port"),
                        default=DEFAULT_PORT, metavar="N",
                        help=f"port on 127.0.0.1 (default {DEFAULT_PORT}; 0: any free port); "
                             "the page is served on the loopback only")
    parser.add_argument("--open", dest="open_browser", action="store_true",
                        help="open the page in the default browser")


def run(args: argparse.Namespace) -> int:
    from micropul_print.serve import ServeOptions, serve

    return serve(ServeOptions(catalogue=args.catalogue, game=args.game, port=args.port,
                              open_browser=args.open_browser, cwd=Path.cwd()))
