"""A rulebook's text catalogues: one YAML file per language in its game's
``books/<game>/locales/``.

English (``en.yaml``) is the reference: every other catalogue must have exactly its
keys, and each text exactly its ``{placeholders}``. The languages are the files
present, so adding a language is adding one file. Keys are nested mappings in the
files and dotted paths here (``placing.rule1``).

A number followed by a noun is written as an ICU-style plural,
``{drawn, plural, one {# tile} other {# tiles}}``: one branch per CLDR plural category
of the language (``#`` is the number). The categories come from Babel's copy of the
CLDR rules, so a new language needs no code, only its file.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import babel

from micropul_print.errors import Diagnostic, UserError, errors_in, printable
from micropul_print.yamlsource import YamlMapping, YamlScalar, read_yaml

REFERENCE_LANGUAGE = "en"

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


@dataclass(frozen=True)
class Locale:
    """One language's texts, keyed by dotted path."""

    lang: str
    source: str
    texts: dict[str, str]
    marks: dict[str, tuple[int, int]] = field(default_factory=dict, compare=False)

    @property
    def name(self) -> str:
        """The language's own name for itself (``meta.language_name``)."""
        return self.texts.get("meta.language_name", self.lang)

    def text(self, key: str, values: Mapping[str, object] | None = None) -> str:
        """The text of ``key`` with its placeholders and plurals filled from ``values``."""
        return fill(self.texts[key], values or {}, self.lang)

    def error(self, key: str, message: str) -> Diagnostic:
        line, col = self.marks.get(key, (0, 0))
        return Diagnostic(self.source, line, col, message)


def available_languages(directory: Path) -> list[str]:
    """Language codes of the catalogues present, reference first, then sorted."""
    codes = sorted(p.stem for p in directory.glob("*.yaml") if _LANG_CODE.fullmatch(p.stem))
    return sorted(codes, key=lambda code: code != REFERENCE_LANGUAGE)


def placeholders(text: str) -> set[str]:
    """The names a text needs values for: its ``{name}`` and ``{name, plural, ...}``."""
    return set(PLACEHOLDER.findall(text)) | {m.group(1) for m in PLURAL.finditer(text)}


def plural_branches(text: str) -> list[tuple[str, dict[str, str]]]:
    """Each plural of ``text``: its value's name and its branches by category."""
    return [(m.group(1), dict(_BRANCH.findall(m.group(2)))) for m in PLURAL.finditer(text)]


@functools.cache
def plural_rule(lang: str) -> Callable[[int], str] | None:
    """The CLDR plural category of a count in ``lang`` ("one", "few", ...), or None
    for a language CLDR does not know."""
    try:
        locale = babel.Locale.parse(lang)
    except (ValueError, babel.UnknownLocaleError):
        return None
    rule: Callable[[int], str] = locale.plural_form
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
    required = frozenset(rule(n) for n in _COUNTS)
    allowed = frozenset(babel.Locale.parse(lang).plural_form.tags) | {"other"}
    return required, allowed | required


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


def load_locale(lang: str, directory: Path) -> Locale:
    """Read one catalogue. Raises UserError if it is missing or not a tree of texts."""
    known = available_languages(directory)
    if lang not in known:  # a code from this closed list, never a path to follow
        where = directory / f"{lang}.yaml" if _LANG_CODE.fullmatch(lang) else directory
        raise UserError([Diagnostic(str(where), 0, 0,
                                    f"no rulebook text for language '{printable(lang)}' "
                                    f"(available: {', '.join(known) or 'none'})")])
    path = directory / f"{lang}.yaml"
    root, problems = read_yaml(path)
    texts: dict[str, str] = {}
    marks: dict[str, tuple[int, int]] = {}
    if root is not None and not isinstance(root, YamlMapping):
        problems.append(root.diagnostic("expected a mapping of keys to texts"))
    elif root is not None:
        _flatten((), root, texts, marks, problems)
    if errors_in(problems, strict=True):  # the project's own text: a warning is a mistake
        raise UserError(errors_in(problems, strict=True))
    return Locale(lang, str(path), texts, marks)


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


def check_locale(locale: Locale, reference: Locale) -> list[Diagnostic]:
    """Every problem of ``locale`` against the reference: missing and extra keys,
    placeholders added or left out, braces that are not placeholders, plurals that
    cannot be read or lack a category of the language."""
    problems: list[Diagnostic] = []
    for key in reference.texts:
        if key not in locale.texts:
            line = reference.marks.get(key, (0, 0))[0]
            problems.append(Diagnostic(locale.source, 0, 0, f"missing key '{key}' "
                                       f"({REFERENCE_LANGUAGE}.yaml line {line})"))
    for key, text in locale.texts.items():
        if key not in reference.texts:
            problems.append(locale.error(key, f"unknown key '{key}' (not in "
                                              f"{REFERENCE_LANGUAGE}.yaml)"))
            continue
        problems.extend(check_syntax(locale, key, text))
        wanted, found = placeholders(reference.texts[key]), placeholders(text)
        for name in sorted(wanted - found):
            problems.append(locale.error(key, f"'{key}' lacks placeholder {{{name}}}"))
        for name in sorted(found - wanted):
            problems.append(locale.error(key, f"'{key}' has unknown placeholder {{{name}}}"))
    return problems


def check_syntax(locale: Locale, key: str, text: str) -> list[Diagnostic]:
    """Problems of one text on its own: braces that are neither a placeholder nor a
    readable plural, and plurals without a branch for each category of the language."""
    problems: list[Diagnostic] = []
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


def load_locales(langs: Sequence[str], directory: Path) -> list[Locale]:
    """Load and check the given languages (and the reference); raise one UserError
    listing every problem of every file."""
    problems: list[Diagnostic] = []
    loaded: dict[str, Locale] = {}
    for lang in dict.fromkeys([REFERENCE_LANGUAGE, *langs]):
        try:
            loaded[lang] = load_locale(lang, directory)
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


def check_all_locales(directory: Path) -> list[Diagnostic]:
    """Problems of every catalogue present (for tests and ``--check``)."""
    try:
        load_locales(available_languages(directory), directory)
    except UserError as exc:
        return list(exc.diagnostics)
    return []
