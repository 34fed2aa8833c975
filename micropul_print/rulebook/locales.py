"""A rulebook's texts: the English reference, ``en.yaml``, and one gettext catalogue
per translation, ``<lang>.po``, in its game's ``book/locales/``.

English is the reference: every translation gives exactly its keys, each text with
exactly its ``{placeholders}``, and each entry records the English it was made from
(msgid), so a text whose English has changed since is found (stale), as is one not
translated yet (missing). The languages are the files present, so adding a language
is adding one file; a folder of the user's (``rulebook --locales DIR``) adds or
replaces translations the same way. Keys are nested mappings in en.yaml, dotted paths
here and in the catalogues' msgctxt (``placing.rule1``).

A number followed by a noun is written as an ICU-style plural,
``{drawn, plural, one {# tile} other {# tiles}}``: one branch per CLDR plural category
of the language (``#`` is the number). The categories come from Babel's copy of the
CLDR rules, so a new language needs no code, only its file.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import escape

import babel
import babel.plural

from micropul_print.backends.fonts import missing_letters
from micropul_print.base.errors import Diagnostic, Severity, UserError, errors_in, printable
from micropul_print.base.yamlsource import (
    YamlMapping,
    YamlScalar,
    capped,
    in_file_order,
    read_input_bytes,
    read_yaml,
)
from micropul_print.rulebook.po import read_catalogue

REFERENCE_LANGUAGE = "en"
REFERENCE_FILE = f"{REFERENCE_LANGUAGE}.yaml"
TRANSLATION_SUFFIX = ".po"

# {name}: a value filled at build time. Any other brace is a mistake in the text.
PLACEHOLDER = re.compile(r"\{([a-z][a-z0-9_]*)\}")
# {name, plural, one {# tile} other {# tiles}}: the branch of the value's CLDR plural
# category, with # replaced by the value. Branches hold plain text (no braces).
PLURAL = re.compile(r"\{([a-z][a-z0-9_]*),\s*plural,((?:\s*[a-z]+\s*\{[^{}]*\})+)\s*\}")
_BRANCH = re.compile(r"\s*([a-z]+)\s*\{([^{}]*)\}")
_PLURAL_START = re.compile(r"\{\s*[a-z][a-z0-9_]*\s*,\s*plural\b")
_STRAY_BRACE = re.compile(r"[{}]")
CLDR_CATEGORIES = ("zero", "one", "two", "few", "many", "other")
# Categories a translation must write: those of the whole numbers a rulebook can show.
# (Italian and Spanish also have "many", for exact millions only: left to "other".)
_COUNTS = range(1000)
_LANG_CODE = re.compile(r"[a-z]{2,3}(_[A-Z]{2})?")
# Markup: ***bold italic***, **bold**, *italic*, read in this order, each the shortest
# run within a line; any other asterisk is plain text.
_BOLD_ITALIC = re.compile(r"\*\*\*(.+?)\*\*\*")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_ITALIC = re.compile(r"\*(.+?)\*")
_EMPHASIS_TAG = re.compile(r"<(/?)([bi])>")


def is_language_code(text: str) -> bool:
    """Whether ``text`` can name a language's catalogue: ``nl``, ``pt_BR``."""
    return _LANG_CODE.fullmatch(text) is not None


@dataclass(frozen=True)
class Locale:
    """One language's texts, keyed by dotted path."""

    lang: str
    source: str
    texts: dict[str, str]  # the texts written (a translation's empty msgstr is not one)
    marks: dict[str, tuple[int, int]] = field(default_factory=dict, compare=False)
    # A translation's: the English each entry was translated from (msgid), by key, and
    # the keys marked fuzzy. The reference has neither.
    sources: dict[str, str] = field(default_factory=dict, compare=False)
    fuzzy: frozenset[str] = frozenset()

    @property
    def is_reference(self) -> bool:
        return self.lang == REFERENCE_LANGUAGE

    @property
    def name(self) -> str:
        """The language's own name for itself (``meta.language_name``)."""
        return self.texts.get("meta.language_name", self.lang)

    def text(self, key: str, values: Mapping[str, object] | None = None) -> str:
        """The text of ``key`` with its placeholders and plurals filled from ``values``."""
        return fill(self.texts[key], values or {}, self.lang)

    def error(self, key: str, message: str,
              severity: Severity = Severity.ERROR) -> Diagnostic:
        line, col = self.marks.get(key, (0, 0))
        return Diagnostic(self.source, line, col, message, severity)


def language_files(directory: Path, extra: Path | None = None) -> dict[str, Path]:
    """Each language's file, by code, reference first, then sorted: ``en.yaml`` and the
    ``<lang>.po`` of ``directory``, those of ``extra`` (a user's folder) added or put
    in place of the shipped ones. Files whose names are not language codes are not
    languages. The reference comes from ``directory`` only: it is the source of every
    translation, not one of them."""
    found = {path.stem: path for folder in (directory, extra) if folder is not None
             for path in sorted(folder.glob(f"*{TRANSLATION_SUFFIX}"))
             if _LANG_CODE.fullmatch(path.stem) and path.stem != REFERENCE_LANGUAGE}
    reference = directory / REFERENCE_FILE
    head = {REFERENCE_LANGUAGE: reference} if reference.is_file() else {}
    return head | dict(sorted(found.items()))


def available_languages(directory: Path, extra: Path | None = None) -> list[str]:
    """Language codes of the catalogues present, reference first, then sorted."""
    return list(language_files(directory, extra))


def placeholders(text: str) -> set[str]:
    """The names a text needs values for: its ``{name}`` and ``{name, plural, ...}``."""
    return set(PLACEHOLDER.findall(text)) | {m.group(1) for m in PLURAL.finditer(text)}


def plural_branches(text: str) -> list[tuple[str, dict[str, str]]]:
    """Each plural of ``text``: its value's name and its branches by category."""
    return [(m.group(1), dict(_BRANCH.findall(m.group(2)))) for m in PLURAL.finditer(text)]


# The CLDR plural rules of the shipped languages, as Babel gives them
# (tests/rulebook/test_locales.py holds them to the installed Babel): with them a build
# need not load Babel's locale data, some 25 ms a language before any job can start.
SHIPPED_PLURAL_RULES: dict[str, dict[str, str]] = {
    "de": {"one": "i in 1 and v in 0"},
    "en": {"one": "i in 1 and v in 0"},
    "es": {"many": "e in 0 and i not in 0 and i mod 1000000 in 0 and v in 0 or e not in 0..5",
           "one": "n in 1"},
    "fr": {"many": "e in 0 and i not in 0 and i mod 1000000 in 0 and v in 0 or e not in 0..5",
           "one": "i in 0,1"},
    "it": {"many": "e in 0 and i not in 0 and i mod 1000000 in 0 and v in 0 or e not in 0..5",
           "one": "i in 1 and v in 0"},
    "pl": {"few": "v in 0 and i mod 10 in 2..4 and i mod 100 not in 12..14",
           "many": "v in 0 and i not in 1 and i mod 10 in 0..1 or v in 0 and i mod 10 in 5..9 "
                   "or v in 0 and i mod 100 in 12..14",
           "one": "i in 1 and v in 0"},
}


# The categories each shipped language's rule gives the whole numbers of _COUNTS, as
# plural_categories would find them by running the rule (some 45 ms for the six
# languages, before any job can start); the test of the table above holds these too.
SHIPPED_WHOLE_NUMBER_CATEGORIES: dict[str, frozenset[str]] = {
    "de": frozenset({"one", "other"}),
    "en": frozenset({"one", "other"}),
    "es": frozenset({"one", "other"}),
    "fr": frozenset({"one", "other"}),
    "it": frozenset({"one", "other"}),
    "pl": frozenset({"one", "few", "many"}),
}


@functools.cache
def plural_rule(lang: str) -> babel.plural.PluralRule | None:
    """The CLDR plural category of a count in ``lang`` ("one", "few", ...), or None
    for a language CLDR does not know."""
    if lang in SHIPPED_PLURAL_RULES:
        return babel.plural.PluralRule(SHIPPED_PLURAL_RULES[lang])
    try:
        locale = babel.Locale.parse(lang)
    except (ValueError, babel.UnknownLocaleError):
        return None
    rule: babel.plural.PluralRule = locale.plural_form
    return rule


@functools.cache
def plural_categories(lang: str) -> tuple[frozenset[str], frozenset[str]]:
    """The categories a text in ``lang`` must give (those of whole numbers), and those
    it may give (every CLDR category of the language, and always "other").

    Cached: it runs the rule over every count in _COUNTS, and every plural text of a
    locale asks for it."""
    rule = plural_rule(lang)
    if rule is None:
        return frozenset({"other"}), frozenset({"other"})
    required = SHIPPED_WHOLE_NUMBER_CATEGORIES.get(lang) or whole_number_categories(rule)
    allowed = frozenset(rule.tags) | {"other"}
    return required, allowed | required


def whole_number_categories(rule: babel.plural.PluralRule) -> frozenset[str]:
    """The categories ``rule`` gives the whole numbers a rulebook can show."""
    return frozenset(rule(n) for n in _COUNTS)


def fill(text: str, values: Mapping[str, object], lang: str) -> str:
    """Replace each plural by the branch of its value's category in ``lang`` (``#`` is
    the value), then each ``{name}``. A name without a value, or a category without a
    branch, is a bug in the caller: :func:`check_locale` refuses such texts first."""
    rule = plural_rule(lang)

    def branch(match: re.Match[str]) -> str:
        value = values[match.group(1)]
        branches: dict[str, str] = dict(_BRANCH.findall(match.group(2)))
        category = rule(value) if rule is not None and isinstance(value, int) else "other"
        chosen = branches[category] if category in branches else branches["other"]
        return chosen.replace("#", str(value))

    return PLACEHOLDER.sub(lambda m: str(values[m.group(1)]), PLURAL.sub(branch, text))


# The longest text a rulebook sets, in characters: about a booklet page, six times the
# longest of the shipped books. Laying a paragraph out takes time that grows with the
# square of its length (a 100 KB one took 29 s): a longer one is refused before the
# work starts (docs/limits.md).
MAX_TEXT_CHARS = 4_000
# The longest word a text may hold, soft hyphens and emphasis marks counted: over three
# times the longest shipped one (23), a line of a booklet's column. A line ends inside
# a word only at a break the word offers (a hyphen, a soft hyphen, the dictionary's),
# tried longest first, each measured anew: one 4,000-character word with 1,900 soft
# hyphens took seconds per layout try, the same text as words of this size as long as
# any other.
MAX_WORD_CHARS = 80
# Where reportlab breaks a text into words (as markup.WORD_GAP): any white space but
# the no-break space.
_WORD_GAP = re.compile(r"[^\S\u00a0]+")


def _too_long(locale: Locale) -> Locale:
    """``locale``, or UserError naming each of its texts longer than MAX_TEXT_CHARS, or
    holding a word longer than MAX_WORD_CHARS, where it is written."""
    problems = []
    for key, text in locale.texts.items():
        if len(text) > MAX_TEXT_CHARS:
            problems.append(locale.error(
                key, f"'{key}' is {len(text):,} characters long; a rulebook text holds at "
                     f"most {MAX_TEXT_CHARS:,} (about a booklet page)"))
            continue
        word = max(_WORD_GAP.split(text), key=len)
        if len(word) > MAX_WORD_CHARS:
            start = word[:12].replace("\u00ad", "")
            problems.append(locale.error(
                key, f"'{key}' holds a word of {len(word):,} characters ('{start}...'); a "
                     f"word in a rulebook text holds at most {MAX_WORD_CHARS} (about a line "
                     "of a booklet): put spaces between its words"))
    if problems:
        raise UserError(in_file_order(problems))
    return locale


def load_locale(lang: str, directory: Path, extra: Path | None = None) -> Locale:
    """Read one catalogue: en.yaml, or a translation's .po (``extra``'s before
    ``directory``'s). Raises UserError if it is missing or cannot be read."""
    files = language_files(directory, extra)
    if lang not in files:  # a code from this closed list, never a path to follow
        suffix = ".yaml" if lang == REFERENCE_LANGUAGE else TRANSLATION_SUFFIX
        where = (extra or directory) / f"{lang}{suffix}" if _LANG_CODE.fullmatch(lang) \
            else directory
        raise UserError([Diagnostic(str(where), 0, 0,
                                    f"no rulebook text for language '{printable(lang)}' "
                                    f"(available: {', '.join(files) or 'none'})")])
    path = files[lang]
    if lang != REFERENCE_LANGUAGE:
        return _too_long(_load_translation(lang, path))
    root, problems = read_yaml(path)
    texts: dict[str, str] = {}
    marks: dict[str, tuple[int, int]] = {}
    if root is not None and not isinstance(root, YamlMapping):
        problems.append(root.diagnostic("expected a mapping of keys to texts"))
    elif root is not None:
        _flatten((), root, texts, marks, problems)
    if errors_in(problems, strict=True):  # the project's own text: a warning is a mistake
        raise UserError(errors_in(problems, strict=True))
    return _too_long(Locale(lang, str(path), texts, marks))


def _load_translation(lang: str, path: Path) -> Locale:
    entries, problems = read_catalogue(path)
    if problems:
        raise UserError(problems)
    return Locale(
        lang, str(path),
        texts={e.key: e.text.strip() for e in entries if e.text.strip()},
        marks={e.key: (e.line, 1) for e in entries},
        sources={e.key: e.source for e in entries},
        fuzzy=frozenset(e.key for e in entries if e.fuzzy))


def _flatten(path: tuple[str, ...], node: YamlMapping, texts: dict[str, str],
             marks: dict[str, tuple[int, int]], problems: list[Diagnostic]) -> None:
    for key, value in node.entries:
        dotted = ".".join((*path, key.raw))
        if isinstance(value, YamlMapping):
            _flatten((*path, key.raw), value, texts, marks, problems)
        elif isinstance(value, YamlScalar) and value.tag == "str" and value.raw.strip():
            texts[dotted] = value.raw.strip()
            marks[dotted] = (value.line, value.col)
        else:
            problems.append(value.diagnostic(f"'{dotted}' must be a non-empty text"))


def untranslated(locale: Locale, reference: Locale,
                 severity: Severity = Severity.ERROR) -> list[Diagnostic]:
    """The English texts ``locale`` lacks (:func:`missing`), then those it has
    translated from another English text (:func:`stale`)."""
    return missing(locale, reference, severity) + stale(locale, reference, severity)


def missing(locale: Locale, reference: Locale,
            severity: Severity = Severity.ERROR) -> list[Diagnostic]:
    """Each English text ``locale`` has no translation of (no entry, or an empty
    msgstr), in the reference's order, at its entry. The reference lacks nothing."""
    if locale.is_reference:
        return []
    problems: list[Diagnostic] = []
    for key in reference.texts:
        if key not in locale.marks:
            problems.append(Diagnostic(locale.source, 0, 0, f"missing key '{key}' "
                                       f"({_english_at(reference, key)})", severity))
        elif key not in locale.texts:
            problems.append(locale.error(key, f"'{key}' is not translated (empty msgstr; "
                                              f"{_english_at(reference, key)})", severity))
    return problems


def stale(locale: Locale, reference: Locale,
          severity: Severity = Severity.ERROR) -> list[Diagnostic]:
    """Each translation made from another English text than today's (its msgid), or
    marked fuzzy, in the reference's order, at its entry."""
    if locale.is_reference:
        return []
    problems: list[Diagnostic] = []
    for key, english in reference.texts.items():
        if key not in locale.texts:
            continue
        if locale.sources.get(key, english) != english:
            problems.append(locale.error(
                key, f"'{key}' is stale: its msgid is not the English text "
                     f"({_english_at(reference, key)}), which has changed since it was "
                     "translated", severity))
        elif key in locale.fuzzy:
            problems.append(locale.error(
                key, f"'{key}' is marked fuzzy: review the translation, then remove the "
                     "flag", severity))
    return problems


def _english_at(reference: Locale, key: str) -> str:
    return f"{REFERENCE_FILE} line {reference.marks.get(key, (0, 0))[0]}"


def check_locale(locale: Locale, reference: Locale) -> list[Diagnostic]:
    """Every problem of ``locale`` against the reference: missing, stale and extra
    keys, placeholders added or left out, braces that are not placeholders, plurals
    that cannot be read or lack a category of the language, letters the font lacks."""
    problems = untranslated(locale, reference)
    for key in sorted(locale.marks.keys() - reference.texts.keys(),
                      key=lambda key: locale.marks[key]):
        problems.append(locale.error(key, f"unknown key '{key}' (not in {REFERENCE_FILE})"))
    for key, text in locale.texts.items():
        if key not in reference.texts:
            continue
        problems.extend(check_syntax(locale, key, text))
        missing = missing_letters(text)
        if missing:
            letters = ", ".join(f"'{printable(char)}' (U+{ord(char):04X})" for char in missing)
            them = "them" if len(missing) > 1 else "it"
            problems.append(locale.error(
                key, f"'{key}': the rulebooks' font, Lato, has no {letters}: the PDF would "
                     f"leave {them} out (a language written with {them} needs another font "
                     "first)"))
        wanted, found = placeholders(reference.texts[key]), placeholders(text)
        for name in sorted(wanted - found):
            problems.append(locale.error(key, f"'{key}' lacks placeholder {{{name}}}"))
        for name in sorted(found - wanted):
            problems.append(locale.error(key, f"'{key}' has unknown placeholder {{{name}}}"))
    return capped(problems)


def emphasis(text: str) -> str:
    """``text``, escaped paragraph markup (no tags of its own), with its emphasis as
    ``<b>`` and ``<i>`` tags: they overlap where the emphasis does (``**a *b** c*``)."""
    text = _BOLD_ITALIC.sub(r"<b><i>\1</i></b>", text)
    text = _BOLD.sub(r"<b>\1</b>", text)
    return _ITALIC.sub(r"<i>\1</i>", text)


def emphasis_overlaps(text: str) -> bool:
    """Whether the bold and italic of ``text`` overlap: reportlab cannot read their
    tags, and the build would end with nothing written."""
    open_tags: list[str] = []
    for closing, tag in _EMPHASIS_TAG.findall(emphasis(escape(text))):
        if not closing:
            open_tags.append(tag)
        elif not open_tags or open_tags.pop() != tag:
            return True
    return False


def check_syntax(locale: Locale, key: str, text: str) -> list[Diagnostic]:
    """Problems of one text on its own: bold and italic that overlap, braces that are
    neither a placeholder nor a readable plural, and plurals without a branch for each
    category of the language."""
    problems: list[Diagnostic] = []
    if emphasis_overlaps(text):
        problems.append(locale.error(
            key, f"'{key}': **bold** and *italic* overlap: close the one opened last "
                 "first (***text*** is both)"))
    rest = PLACEHOLDER.sub("", PLURAL.sub("", text))
    if _PLURAL_START.search(rest):
        problems.append(locale.error(
            key, f"'{key}': a plural that cannot be read (expected "
                 "{name, plural, one {# ...} other {# ...}}, plain text in each branch)"))
    elif _STRAY_BRACE.search(rest):
        problems.append(locale.error(key, f"'{key}': a brace that is not a "
                                          "{placeholder}"))
    branched = plural_branches(text)
    if branched and plural_rule(locale.lang) is None:
        problems.append(locale.error(
            key, f"'{key}': no CLDR plural rules for language '{locale.lang}'"))
        return problems
    required, allowed = plural_categories(locale.lang)
    for name, branches in branched:
        for category in sorted(required - branches.keys(), key=CLDR_CATEGORIES.index):
            problems.append(locale.error(
                key, f"'{key}': the plural of {{{name}}} lacks the '{category}' form "
                     f"({locale.lang} needs {_join(required)})"))
        for category in sorted(branches.keys() - allowed):
            problems.append(locale.error(
                key, f"'{key}': the plural of {{{name}}} has a '{category}' form, which is "
                     f"not a plural category of {locale.lang} ({_join(allowed)})"))
    return problems


def _join(categories: frozenset[str]) -> str:
    known = [c for c in CLDR_CATEGORIES if c in categories]
    return ", ".join(known + sorted(categories - set(known)))


# Languages loaded and checked in this process, by (language, directory, extra), with
# the bytes of the reference and of the language's file they were read from: a build
# checks every language before it writes anything, and each of its rulebook jobs
# (forked workers: they inherit this) would otherwise read and check its own again.
# An edited file has other bytes, and is read again.
_CHECKED: dict[tuple[str, Path, Path | None], tuple[bytes, bytes, Locale]] = {}


def _contents(files: Mapping[str, Path], langs: Sequence[str]) -> dict[str, bytes] | None:
    """The bytes of the reference's and of ``langs``' files; None if one cannot be read
    (loading them then says why). Read as every input is: a pipe is never opened."""
    contents: dict[str, bytes] = {}
    for lang in (REFERENCE_LANGUAGE, *langs):
        data = read_input_bytes(files[lang])[0] if lang in files else None
        if data is None:
            return None
        contents[lang] = data
    return contents


def load_locales(langs: Sequence[str], directory: Path,
                 extra: Path | None = None) -> list[Locale]:
    """Load and check the given languages (and the reference); raise one UserError
    listing every problem of every file."""
    contents = _contents(language_files(directory, extra), langs)
    if contents is not None:
        cached = [_CHECKED.get((lang, directory, extra)) for lang in langs]
        reference = contents[REFERENCE_LANGUAGE]
        if all(entry is not None and entry[:2] == (reference, contents[lang])
               for lang, entry in zip(langs, cached, strict=True)):
            return [entry[2] for entry in cached if entry is not None]
    locales = _load_locales(langs, directory, extra)
    if contents is not None:
        for locale in locales:
            _CHECKED[locale.lang, directory, extra] = (
                contents[REFERENCE_LANGUAGE], contents[locale.lang], locale)
    return locales


def _load_locales(langs: Sequence[str], directory: Path, extra: Path | None) -> list[Locale]:
    problems: list[Diagnostic] = []
    loaded: dict[str, Locale] = {}
    for lang in dict.fromkeys([REFERENCE_LANGUAGE, *langs]):
        try:
            loaded[lang] = load_locale(lang, directory, extra)
        except UserError as exc:
            problems.extend(exc.diagnostics)
    reference = loaded.get(REFERENCE_LANGUAGE)
    if reference is not None:
        # The reference too: its plurals must have every category of English.
        for lang in dict.fromkeys([REFERENCE_LANGUAGE, *langs]):
            if lang in loaded:
                problems.extend(check_locale(loaded[lang], reference))
    if problems:
        raise UserError(problems)
    return [loaded[lang] for lang in langs]


def check_all_locales(directory: Path, extra: Path | None = None) -> list[Diagnostic]:
    """Problems of every catalogue present (for tests and ``--check``)."""
    try:
        load_locales(available_languages(directory, extra), directory, extra)
    except UserError as exc:
        return list(exc.diagnostics)
    return []
