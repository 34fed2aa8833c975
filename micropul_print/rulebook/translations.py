"""A translator's tools: the catalogue to start or bring up to date a translation of a
book, and the report of what each translation lacks (``micropul-print rulebook
--template``, ``--untranslated``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from micropul_print.base.errors import Diagnostic, Severity, UserError
from micropul_print.rulebook.games import GameRulebook
from micropul_print.rulebook.locales import (
    REFERENCE_FILE,
    REFERENCE_LANGUAGE,
    Locale,
    language_files,
    load_locale,
    missing,
    plural_categories,
    plural_rule,
    stale,
)
from micropul_print.rulebook.po import PoEntry, format_catalogue, read_catalogue, read_header


def template_header(game: str, title: str, lang: str | None) -> list[str]:
    """The comment on top of a new catalogue: what to translate and what to keep."""
    lines = [
        f"{title} rulebook: a translation of its English text ({REFERENCE_FILE}).",
        "",
        "Translate each msgstr. msgctxt is the text's key and msgid the English it is",
        "translated from: leave both as they are (when the English changes, `rulebook",
        "--template` brings the msgid up to date and marks the entry fuzzy).",
        "Keep every {placeholder}, anywhere in the sentence. A number followed by a noun",
        "is a plural, one branch per plural category of the language (# is the number):",
        "  {drawn, plural, one {# tile} other {# tiles}}",
    ]
    if lang is not None:
        if plural_rule(lang) is None:
            lines.append(f"CLDR has no plural rules for '{lang}': write one branch, other.")
        else:
            required = [c for c in ("zero", "one", "two", "few", "many", "other")
                        if c in plural_categories(lang)[0]]
            lines.append(f"'{lang}' needs the branches {', '.join(required)}.")
    lines += [
        "Markup: **bold** and *italic*. Write your own sentences: the original rule",
        "sheets are sources of facts and of the terms players know, never of text.",
        "",
        f"Check: micropul-print rulebook --game {game} --locales DIR --untranslated",
    ]
    return lines


def template_entries(reference: Locale, existing: Sequence[PoEntry] = ()) -> list[PoEntry]:
    """Every English text as an entry, in the reference's order: empty, or the
    translation ``existing`` has for its key. A translation of another English text
    is kept, marked fuzzy, with that text as its previous msgid (as gettext's msgmerge
    does), so the translator sees what changed; entries of keys English no longer has
    are dropped."""
    found = {entry.key: entry for entry in existing}
    entries = []
    for key, english in reference.texts.items():
        old = found.get(key)
        if old is None or not old.text:
            entries.append(PoEntry(key, english, "", comments=old.comments if old else ()))
        elif old.source == english:
            entries.append(PoEntry(key, english, old.text, fuzzy=old.fuzzy,
                                   comments=old.comments, previous=old.previous))
        else:
            entries.append(PoEntry(key, english, old.text, fuzzy=True, comments=old.comments,
                                   previous=old.previous or old.source))
    return entries


def catalogue_for(book: GameRulebook, title: str, lang: str | None,
                  existing: Path | None = None) -> bytes:
    """The bytes of a new catalogue of ``book``'s texts (a template when ``lang`` is
    None), or of ``existing`` brought up to date with the English."""
    reference = load_locale(REFERENCE_LANGUAGE, book.locales_dir)
    header = template_header(book.game, title, lang)
    entries: list[PoEntry] = []
    if existing is not None:
        entries, problems = read_catalogue(existing)
        if problems:
            raise UserError(problems)
        header, found = read_header(existing)
        lang = lang or found
    return format_catalogue(template_entries(reference, entries), lang=lang, header=header,
                            project=f"micropul-print {book.game} rulebook")


@dataclass(frozen=True)
class Untranslated:
    """What one translation of one book lacks."""

    game: str
    lang: str
    name: str  # the language's own name, or its code while meta.language_name is missing
    shipped: bool  # a catalogue of the package (not of the user's folder)
    missing: list[Diagnostic]
    stale: list[Diagnostic]

    @property
    def summary(self) -> str:
        who = f"{self.game} {self.lang} ({self.name}{'' if self.shipped else ', yours'})"
        if not self.missing and not self.stale:
            return f"{who}: every text translated and current"
        return f"{who}: {len(self.missing)} missing, {len(self.stale)} stale"


def untranslated_report(book: GameRulebook, langs: Sequence[str],
                        extra: Path | None = None) -> list[Untranslated]:
    """For each translation in ``langs``: its missing and stale texts, as errors in a
    shipped catalogue and as warnings in the user's (``extra``). Raises UserError
    for a catalogue that cannot be read."""
    reference = load_locale(REFERENCE_LANGUAGE, book.locales_dir)
    files = language_files(book.locales_dir, extra)
    report = []
    for lang in langs:
        if lang == REFERENCE_LANGUAGE:
            continue
        locale = load_locale(lang, book.locales_dir, extra)
        shipped = files[lang].parent == book.locales_dir
        severity = Severity.ERROR if shipped else Severity.WARNING
        report.append(Untranslated(book.game, lang, locale.texts.get("meta.language_name", lang),
                                   shipped, missing(locale, reference, severity),
                                   stale(locale, reference, severity)))
    return report
