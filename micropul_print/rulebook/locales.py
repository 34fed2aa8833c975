"""The rulebook's text catalogues: one YAML file per language in ``locales/``.

English (``en.yaml``) is the reference: every other catalogue must have exactly its
keys, and each text exactly its ``{placeholders}``. The languages are the files
present, so adding a language is adding one file. Keys are nested mappings in the
files and dotted paths here (``placing.rule1``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from micropul_print.errors import Diagnostic, UserError, errors_in
from micropul_print.yamlsource import YamlMapping, YamlScalar, read_yaml

LOCALES_DIR = Path(__file__).parent / "locales"
REFERENCE_LANGUAGE = "en"

# {name}: a value filled at build time. Any other brace is a mistake in the text.
PLACEHOLDER = re.compile(r"\{([a-z][a-z0-9_]*)\}")
_STRAY_BRACE = re.compile(r"[{}]")
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
        """The text of ``key`` with its placeholders filled from ``values``."""
        return fill(self.texts[key], values or {})

    def error(self, key: str, message: str) -> Diagnostic:
        line, col = self.marks.get(key, (0, 0))
        return Diagnostic(self.source, line, col, message)


def available_languages(directory: Path = LOCALES_DIR) -> list[str]:
    """Language codes of the catalogues present, reference first, then sorted."""
    codes = sorted(p.stem for p in directory.glob("*.yaml") if _LANG_CODE.fullmatch(p.stem))
    return sorted(codes, key=lambda code: code != REFERENCE_LANGUAGE)


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def fill(text: str, values: Mapping[str, object]) -> str:
    """Replace each ``{name}``; a name without a value is a bug in the caller (every
    placeholder is checked against the reference catalogue before any build)."""
    return PLACEHOLDER.sub(lambda m: str(values[m.group(1)]), text)


def load_locale(lang: str, directory: Path = LOCALES_DIR) -> Locale:
    """Read one catalogue. Raises UserError if it is missing or not a tree of texts."""
    path = directory / f"{lang}.yaml"
    if not path.is_file():
        known = ", ".join(available_languages(directory)) or "none"
        raise UserError([Diagnostic(str(path), 0, 0,
                                    f"no rulebook text for language '{lang}' "
                                    f"(available: {known})")])
    root, problems = read_yaml(path)
    texts: dict[str, str] = {}
    marks: dict[str, tuple[int, int]] = {}
    if root is not None and not isinstance(root, YamlMapping):
        problems.append(root.diagnostic("expected a mapping of keys to texts"))
    elif root is not None:
        _flatten((), root, texts, marks, problems)
    if errors_in(problems):
        raise UserError(errors_in(problems))
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
    placeholders added or left out, braces that are not placeholders."""
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
        if _STRAY_BRACE.search(PLACEHOLDER.sub("", text)):
            problems.append(locale.error(key, f"'{key}': a brace that is not a "
                                              "{placeholder}"))
        wanted, found = placeholders(reference.texts[key]), placeholders(text)
        for name in sorted(wanted - found):
            problems.append(locale.error(key, f"'{key}' lacks placeholder {{{name}}}"))
        for name in sorted(found - wanted):
            problems.append(locale.error(key, f"'{key}' has unknown placeholder {{{name}}}"))
    return problems


def load_locales(langs: Sequence[str], directory: Path = LOCALES_DIR) -> list[Locale]:
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
        for lang in langs:
            if lang in loaded:
                problems.extend(check_locale(loaded[lang], reference))
    if problems:
        raise UserError(problems)
    return [loaded[lang] for lang in langs]


def check_all_locales(directory: Path = LOCALES_DIR) -> list[Diagnostic]:
    """Problems of every catalogue present (for tests and ``--check``)."""
    try:
        load_locales(available_languages(directory), directory)
    except UserError as exc:
        return list(exc.diagnostics)
    return []
