"""`micropul-print rulebook`: the localized rulebook PDFs of one game alone, and their
booklets, where its kit puts them (e.g. output/rules/, or output/<game>/rules/)."""

from __future__ import annotations

import argparse
import sys

from micropul_print import registry
from micropul_print.config import ConfigSpec
from micropul_print.draw.theme import THEME_NAMES

HELP = "build the rulebook PDFs (figures checked by the rules engine), or only --check them"
# Every option may be set in the configuration file; paths in the file are relative
# to it (docs/configuration.md).
CONFIG = ConfigSpec(paths={"catalogue": (), "out": (), "theme": THEME_NAMES})

PAPERS = ("a4", "letter")


def _langs(text: str) -> list[str]:
    items = list(dict.fromkeys(p.strip() for p in text.split(",") if p.strip()))
    if not items:
        raise argparse.ArgumentTypeError(f"expected language codes such as en,it: {text!r}")
    return items


def add_arguments(parser: argparse.ArgumentParser) -> None:
    names = registry.game_names()
    parser.add_argument("--game", choices=names, default=None,
                        help="whose rulebook: its shipped catalogue unless --catalogue is "
                             f"given (default: {names[0]})")
    parser.add_argument("--lang", type=_langs, metavar="LL[,LL...]",
                        help="languages, by the name of their file in the game's book "
                             "locales/ folder (default: every one there)")
    parser.add_argument("--paper", choices=(*PAPERS, "all"), default="all",
                        help="page size, as build's: <game>-rules-<lang>-<paper>.pdf for "
                             "each (default: all)")
    parser.add_argument("--out", default="output", metavar="DIR",
                        help="output directory; the PDFs go where the game's kit puts them, "
                             "e.g. DIR/rules/ (default: output)")
    parser.add_argument("--theme", default="classic",
                        help="tile theme of the figures: a built-in name or a theme YAML "
                             "file (default: classic)")
    parser.add_argument("--catalogue", metavar="PATH",
                        help="tile catalogue; its game's rulebook is built (default: the "
                             "shipped catalogue of --game)")
    parser.add_argument("--booklet", dest="booklet", action="store_true", default=True,
                        help="also write each language's booklet, two pages up to fold, "
                             "<game>-rules-<lang>-booklet-<paper>.pdf (the default)")
    parser.add_argument("--no-booklet", dest="booklet", action="store_false",
                        help="write the rulebooks only, no booklets")
    parser.add_argument("--check", action="store_true",
                        help="only check the texts and every figure's claims; write nothing")
    parser.add_argument("--quiet", action="store_true", help="print nothing but problems")


def run(args: argparse.Namespace) -> int:
    from micropul_print.catalogue.loader import load_catalogue, require_game, shipped_catalogue
    from micropul_print.errors import UserError
    from micropul_print.rulebook import (
        available_languages,
        build_booklets,
        build_rulebooks,
        check_rulebook,
    )

    catalogue = load_catalogue(args.catalogue or shipped_catalogue(args.game))
    if args.catalogue:
        require_game(catalogue, args.game)
    known = available_languages(catalogue.game)
    langs = args.lang or known
    unknown = [lang for lang in langs if lang not in known]
    if unknown:
        from micropul_print.gameapi import UsageError

        raise UsageError(f"argument --lang: unknown language {unknown[0]!r} for the "
                         f"{catalogue.game} rulebook; choose from {','.join(known)}")

    def say(message: str) -> None:
        if not args.quiet:
            print(message, file=sys.stderr)

    if args.check:
        _book, _locales, figures = check_rulebook(catalogue, langs)
        say(f"rulebook: {', '.join(langs)}: every key and placeholder present; "
            f"{sum(len(f.figure.claims) for f in figures)} claims in {len(figures)} "
            "figures hold")
        return 0
    from micropul_print.draw.theme import load_theme
    from micropul_print.outputs import Staging

    theme = load_theme(args.theme)
    problems = registry.get(catalogue.game).theme_problems(catalogue, theme)
    if problems:
        raise UserError(problems)
    check_rulebook(catalogue, langs)  # every problem before anything is written
    staging = Staging(args.out)
    with staging as output:
        written = []
        for paper in PAPERS if args.paper == "all" else (args.paper,):
            written += build_rulebooks(catalogue, theme, output, langs=langs, paper=paper,
                                       progress=say)
            if args.booklet:
                written += build_booklets(catalogue, theme, output, langs=langs, paper=paper,
                                          progress=say)
        staging.commit({f"{catalogue.game}/rulebooks": written})
    return 0
