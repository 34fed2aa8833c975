"""`micropul-print rulebook`: the localized rulebook PDFs of one game alone, and their
booklets, where its kit puts them (e.g. output/rules/, or output/<game>/rules/); and a
translator's tools: a catalogue to start or update a translation (--template), the
report of missing and stale texts (--untranslated), translations of one's own
(--locales DIR)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from micropul_print.base.errors import quoted
from micropul_print.base.paper import PAPER_NAMES
from micropul_print.commands.values import (
    every_or_one,
    file_name,
    folder_name,
    list_items,
    once_each,
    theme_name,
)
from micropul_print.config import ConfigSpec
from micropul_print.draw.theme import THEME_NAMES
from micropul_print.game import registry

HELP = "build the rulebook PDFs (figures checked by the rules engine), or only --check them"
# Every option but the translator's one-off actions may be set in the configuration
# file; paths in the file are relative to it (docs/configuration.md).
CONFIG = ConfigSpec(exclude=frozenset({"untranslated", "template"}),
                    paths={"catalogue": (), "out": (), "theme": THEME_NAMES, "locales": ()})


# What names a catalogue, in the words of docs/rulebook.md.
_CODES = "two or three lower-case letters, optionally _ and a region: nl.po, pt_BR.po"


def _langs(text: str) -> list[str]:
    items = once_each(list_items(text, "language code", "en,it"), "language code", text)
    if not items:
        raise argparse.ArgumentTypeError(f"expected language codes such as en,it: {quoted(text)}")
    return items


def _langs_or_all(text: str) -> list[str]:
    return _langs(text) if text else []


def add_arguments(parser: argparse.ArgumentParser) -> None:
    names = registry.game_names()
    parser.add_argument("--game", choices=names, default=None,
                        help="whose rulebook: its shipped catalogue unless --catalogue is "
                             f"given (default: {names[0]})")
    parser.add_argument("--lang", type=_langs, metavar="LL[,LL...]",
                        help="languages, by the name of their file in the game's book "
                             "locales/ folder or in --locales (default: every one there)")
    parser.add_argument("--locales", metavar="DIR", type=folder_name,
                        help="your translations: DIR/<game>/<lang>.po, added to the "
                             "shipped languages (or used instead of a shipped one)")
    parser.add_argument("--untranslated", nargs="?", const="", type=_langs_or_all,
                        metavar="LL[,LL...]",
                        help="list the missing and stale texts of each translation (of "
                             "these languages, else --lang's; of --game's book, or of every "
                             "book); exit 1 if a shipped one has any; write nothing")
    parser.add_argument("--template", metavar="FILE", type=file_name,
                        help="write FILE, a gettext catalogue of the book's texts to "
                             "translate (its language: --lang LL); if FILE exists, bring it "
                             "up to date with the English instead (changed texts marked "
                             "fuzzy); write nothing else")
    parser.add_argument("--paper", choices=(*PAPER_NAMES, "all"), default="all",
                        help="page size, as build's: <game>-rules-<lang>-<paper>.pdf for "
                             "each (default: all)")
    parser.add_argument("--out", type=folder_name, default="output", metavar="DIR",
                        help="output directory; the PDFs go where the game's kit puts them, "
                             "e.g. DIR/rules/ (default: output)")
    parser.add_argument("--theme", default="classic", type=theme_name,
                        help="tile theme of the figures: a built-in name or a theme YAML "
                             "file (default: classic)")
    parser.add_argument("--catalogue", metavar="PATH", type=file_name,
                        help="tile catalogue; its game's rulebook is built (default: the "
                             "shipped catalogue of --game)")
    parser.add_argument("--booklet", dest="booklet", action="store_true", default=True,
                        help="also write each language's booklet, two pages up to fold, "
                             "<game>-rules-<lang>-booklet-<paper>.pdf (the default)")
    parser.add_argument("--no-booklet", dest="booklet", action="store_false",
                        help="write the rulebooks only, no booklets")
    parser.add_argument("--check", action="store_true",
                        help="only check the texts, every figure's claims and the theme; "
                             "write nothing")
    parser.add_argument("--quiet", action="store_true", help="print nothing but problems")


def run(args: argparse.Namespace) -> int:
    from micropul_print.base.errors import UserError
    from micropul_print.config import missing_inputs

    missing = missing_inputs(args, CONFIG)
    if missing:
        raise UserError(missing)
    if args.untranslated is not None:
        return _untranslated(args)
    _require_locales(args)
    if args.template is not None:
        return _template(args)
    return _build(args)


def _build(args: argparse.Namespace) -> int:
    from micropul_print.base.errors import UserError, joined
    from micropul_print.catalogue.loader import load_catalogue, require_game, shipped_catalogue
    from micropul_print.config import at_the_setting, value_problem
    from micropul_print.draw.theme import load_theme
    from micropul_print.kit.outputs import (
        check_directory_target,
        check_output_directory,
        foreign_contents,
    )
    from micropul_print.rulebook import (
        available_languages,
        build_booklets,
        build_rulebooks,
        check_rulebook,
    )

    if not args.check:
        try:
            check_output_directory(Path(args.out), "the rulebooks here")  # before any work
            check_directory_target(Path(args.out), "the rulebooks")  # read-only, as others say
        except UserError as problem:  # at the configuration's `out`, if it came from there
            raise at_the_setting(args, "out", problem) from None
        foreign = foreign_contents(Path(args.out))
        if foreign is not None:
            raise value_problem(args, "out", foreign)
    try:
        catalogue = load_catalogue(args.catalogue or shipped_catalogue(args.game))
    except UserError as problem:  # a catalogue's errors hid the theme's
        raise joined(problem, lambda: load_theme(args.theme)) from None
    if args.catalogue:
        require_game(catalogue, args.game)
    locales = _user_folder(args, catalogue.game)
    known = available_languages(catalogue.game, locales)
    langs = args.lang or known
    _require_languages(args, langs, known, catalogue.game)

    def say(message: str) -> None:
        if not args.quiet:
            print(message, file=sys.stderr)

    # The theme is an input of --check too: a typo in it passed the check, and the
    # build then refused it.
    theme = load_theme(args.theme)
    problems = registry.get(catalogue.game).theme_problems(catalogue, theme)
    if problems:
        raise UserError(problems)
    if args.check:
        _book, _locales, figures = check_rulebook(catalogue, langs, locales)
        say(f"rulebook: {', '.join(langs)}: every key and placeholder present; "
            f"{sum(len(f.figure.claims) for f in figures)} claims in {len(figures)} "
            "figures hold")
        return 0
    from micropul_print.kit.outputs import Staging

    check_rulebook(catalogue, langs, locales)  # every problem before anything is written
    staging = Staging(args.out)
    with staging as output:
        papers = every_or_one(args.paper, PAPER_NAMES)
        written = build_rulebooks(catalogue, theme, output, langs=langs, papers=papers,
                                  progress=say, locales=locales)
        if args.booklet:
            written += build_booklets(catalogue, theme, output, langs=langs, papers=papers,
                                      progress=say, locales=locales)
        removed = staging.commit({f"{catalogue.game}/rulebooks": written})
    if removed:  # as build says it: a file gone unannounced looks like a lost one
        from micropul_print.kit.build import removed_note

        say(f"note: {removed_note(removed, output.root)}")
    return 0


def _user_folder(args: argparse.Namespace, game: str, *, required: bool = True) -> Path | None:
    """The game's folder of the user's translations, DIR/<game>/, if --locales DIR has
    one. Refused if it holds a catalogue whose name is no language code (it would not
    be read) and, when ``required`` (a command about this game's book), if it holds no
    translation at all: --locales would change nothing, and saying so beats a build
    in the shipped languages only (catalogues put in DIR itself were not read)."""
    from micropul_print.base.errors import Diagnostic, UserError
    from micropul_print.rulebook.locales import TRANSLATION_SUFFIX, is_language_code

    if args.locales is None:
        return None
    folder = Path(args.locales) / game
    if not folder.is_dir():
        if required:
            raise _nothing_for(args, [game])
        return None
    unread = [Diagnostic(str(path), 0, 0, "not a catalogue --locales reads: its name is "
                         f"not a language code ({_CODES})")
              for path in sorted(folder.glob(f"*{TRANSLATION_SUFFIX}"))
              if not is_language_code(path.stem)]
    if unread:
        raise UserError(unread)
    if required and not _translations_in(folder):
        raise _nothing_for(args, [game])
    return folder


def _translations_in(folder: Path) -> list[str]:
    """The languages --locales reads from ``folder`` (a game's): its <lang>.po files,
    English (the source, never replaced) aside."""
    from micropul_print.rulebook.locales import (
        REFERENCE_LANGUAGE,
        TRANSLATION_SUFFIX,
        is_language_code,
    )

    return sorted(path.stem for path in folder.glob(f"*{TRANSLATION_SUFFIX}")
                  if is_language_code(path.stem) and path.stem != REFERENCE_LANGUAGE)


def _nothing_for(args: argparse.Namespace, games: list[str]) -> Exception:
    """The error for a --locales DIR with no translation for ``games``' books: where
    they are read from, and the catalogues DIR holds in the wrong place, if any."""
    from micropul_print.config import value_problem

    folder = Path(args.locales)
    game = games[0] if len(games) == 1 else "<game>"
    books = f"the {games[0]} rulebook" if len(games) == 1 else "any rulebook"
    named = "" if len(games) == 1 else f" (<game>: {' or '.join(games)})"
    message = (f"no translations for {books} in {str(folder)!r}: they are read from "
               f"{folder / game / '<lang>.po'}{named}")
    stray = _translations_in(folder)
    if stray:
        shown = ", ".join(f"{lang}.po" for lang in stray[:5])
        more = f" and {len(stray) - 5} more" if len(stray) > 5 else ""
        message += (f", and {folder} holds {shown}{more} directly: move "
                    f"{'it' if len(stray) == 1 else 'them'} into {folder / game}")
    return value_problem(args, "locales", message)


def _require_locales(args: argparse.Namespace) -> None:
    from micropul_print.config import value_problem

    if args.locales is not None and not Path(args.locales).is_dir():
        raise value_problem(args, "locales", f"no folder {args.locales!r}")


def _require_languages(args: argparse.Namespace, langs: list[str], known: list[str],
                       game: str) -> None:
    from micropul_print.config import value_problem

    unknown = [lang for lang in langs if lang not in known]
    if unknown:
        raise value_problem(args, "lang", f"unknown language {unknown[0]!r} for the {game} "
                            f"rulebook; choose from {','.join(known)}"
                            f"{_where_yours_go(args.locales, game, unknown[0])}")


def _where_yours_go(locales: str | None, game: str, lang: str) -> str:
    """The hint for a language --locales DIR was meant to add: where its file is read."""
    from micropul_print.rulebook.locales import is_language_code

    if locales is None or not is_language_code(lang):
        return ""
    return f" (a catalogue of yours is read from {Path(locales) / game / f'{lang}.po'})"


def _untranslated(args: argparse.Namespace) -> int:
    """Print each book's translations with what they lack; 1 if a shipped one lacks
    anything."""
    from micropul_print.base.errors import UsageError
    from micropul_print.rulebook import games_with_rulebooks, rulebook_for
    from micropul_print.rulebook.locales import REFERENCE_LANGUAGE
    from micropul_print.rulebook.translations import untranslated_report

    _require_locales(args)
    if not args.untranslated and args.lang:  # --untranslated --lang pl: as --untranslated pl
        args.untranslated = list(args.lang)
    games = [args.game] if args.game else games_with_rulebooks()
    # Without --game a DIR may hold one book's translations only: nothing for any book
    # is the mistake.
    books = {game: (rulebook_for(game), _user_folder(args, game, required=bool(args.game)))
             for game in games}
    if args.locales is not None and all(folder is None or not _translations_in(folder)
                                        for _book, folder in books.values()):
        raise _nothing_for(args, games)
    known = {game: book.languages(folder) for game, (book, folder) in books.items()}
    # A language may be in one book only: without --game, each book reports the
    # languages asked for that it has, and a language no book has is the mistake.
    for lang in args.untranslated or ():
        if not any(lang in langs for langs in known.values()):
            where = f"the {games[0]} rulebook" if args.game else "any rulebook"
            every = sorted({code for langs in known.values() for code in langs},
                           key=lambda code: (code != REFERENCE_LANGUAGE, code))
            hint = _where_yours_go(args.locales, games[0] if args.game else "<game>", lang)
            raise UsageError(f"argument --untranslated: unknown language {lang!r} for "
                             f"{where}; choose from {','.join(every)}{hint}")
    failed = False
    for game, (book, folder) in books.items():
        langs = [lang for lang in args.untranslated or known[game] if lang in known[game]]
        for entry in untranslated_report(book, langs, folder):
            print(entry.summary)
            for problem in entry.missing + entry.stale:
                print(f"  {problem}")
            failed |= entry.shipped and bool(entry.missing or entry.stale)
    return 1 if failed else 0


def _template_language(target: Path, lang: str | None) -> str | None:
    """The language of the catalogue --template writes: --lang's, else the one its file
    is named after (nl.po); refused when it is no language code, English (the source),
    or not the one --locales will read the file as."""
    from micropul_print.base.errors import UsageError
    from micropul_print.rulebook.locales import REFERENCE_LANGUAGE, is_language_code

    named = target.stem if target.suffix == ".po" and is_language_code(target.stem) else None
    if lang is not None and not is_language_code(lang):
        raise UsageError(f"argument --lang: not a language code: {lang!r} (two or three "
                         "lower-case letters, optionally _ and a region: nl, pt_BR)")
    if lang is not None and named is not None and named != lang:
        raise UsageError(f"argument --template: {target.name} holds language '{named}' "
                         f"(--locales reads DIR/<game>/<lang>.po): name it {lang}.po")
    if lang is None and not target.exists():
        lang = named
    if lang == REFERENCE_LANGUAGE:
        raise UsageError(f"argument --lang: '{lang}' is the English source of every "
                         "translation, not one of them")
    if target.suffix == ".po" and named is None:  # --locales would never read it
        raise UsageError(f"argument --template: {target.name} is not named after a "
                         f"language code ({_CODES}; --locales reads "
                         "DIR/<game>/<lang>.po)" + (f": name it {lang}.po" if lang else ""))
    return lang


def _template(args: argparse.Namespace) -> int:
    """Write a new catalogue of the book's texts to translate, or bring one up to date."""
    from micropul_print.base.errors import Diagnostic, UsageError, UserError
    from micropul_print.kit.outputs import check_file_target, write_atomic
    from micropul_print.rulebook import rulebook_for
    from micropul_print.rulebook.translations import catalogue_for

    game = args.game or registry.game_names()[0]
    if args.catalogue:
        from micropul_print.catalogue.loader import load_catalogue, require_game

        catalogue = load_catalogue(args.catalogue)
        require_game(catalogue, args.game)
        game = catalogue.game
    langs = args.lang or []
    if len(langs) > 1:
        raise UsageError("argument --lang: --template writes one language's catalogue: "
                         f"give one code, not {','.join(langs)}")
    target = Path(args.template)
    if target.is_dir():
        raise UsageError(f"argument --template: {args.template!r} is a folder; give a file "
                         "name such as nl.po")
    check_file_target(target, "the catalogue")  # a device or pipe: before reading it
    lang = _template_language(target, langs[0] if langs else None)
    data = catalogue_for(rulebook_for(game), registry.get(game).info.title, lang,
                         existing=target if target.exists() else None)
    try:
        write_atomic(target, data)  # a reader never sees half a catalogue
    except OSError as exc:  # an unwritable place: the user's to fix, not a crash
        raise UserError([Diagnostic(str(target), 0, 0,
                                    f"cannot write: {exc.strerror or exc}")]) from None
    if not args.quiet:
        count = data.count(b"\nmsgctxt ")
        print(f"rulebook: {target}: {count} texts of the {game} book", file=sys.stderr)
    return 0
