"""Hyphenation patterns of pyphen's dictionaries, read fast: the same breaks as
``pyphen.Pyphen(...).iterate``, without parsing every pattern first.

pyphen parses each of a dictionary's patterns when it opens it (German's 66,000 take
some 0.3 s of CPU, in every process that sets a German book), while a rulebook looks up
a few thousand. Here a dictionary is read as one text: each pattern's letters (its text
without the digits, deleted from the whole file at once) index the pattern's line, and
a line is parsed the first time a word needs it. A dictionary with
what this reading does not handle (``^^hh`` escapes, nonstandard breaks ``a/b=c``) is
left to pyphen.

:class:`Hyphenator` says where the rulebook's lines may break a word: the
dictionary's breaks, a word's own hyphens, never inside the book's unbreakable terms.
"""

from __future__ import annotations

import itertools
import operator
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Protocol

import pyphen  # type: ignore[import-untyped]

# What pyphen skips: comments and the hunspell directives.
_IGNORED = ("%", "#", "LEFTHYPHENMIN", "RIGHTHYPHENMIN", "COMPOUNDLEFTHYPHENMIN",
            "COMPOUNDRIGHTHYPHENMIN")
_DIGITS = re.compile(r"\d")
_NONZERO = re.compile(r"[1-9]")
_ASCII_DIGITS = b"0123456789"
# A pattern: digits (break values) between letters; each digit belongs to the gap
# before the letter after it.
_VALUE_AND_LETTER = re.compile(r"(\d?)(\D?)")
# A break value table: (offset of its first non-zero value, the values from there).
_Values = tuple[int, tuple[int, ...]]


def _is_pattern(letters: str, line: str) -> bool:
    """Whether pyphen reads ``line`` (its ``letters`` without the digits) as a pattern:
    not a comment or directive, and some break value in it."""
    return (letters != line and not line.startswith(_IGNORED)
            and _NONZERO.search(line) is not None)


class Patterns:
    """One dictionary's patterns (Liang's algorithm, as pyphen applies them), each
    parsed when first needed."""

    def __init__(self, text: str, encoding: str | None = None) -> None:
        """``text``: the dictionary after its first line, which names ``encoding``
        (given, the digits are deleted from the encoded text: far faster than a regular
        expression can, when the encoding spells them as single bytes)."""
        lines = list(map(str.strip, text.split("\n")))  # pyphen strips each line
        text = "\n".join(lines)
        keys: list[str] | None = None
        if encoding is not None and "0".encode(encoding) == b"0":
            encoded = text.encode(encoding)
            letters = encoded.translate(None, _ASCII_DIGITS).decode(encoding)
            if not _DIGITS.search(letters):  # no digits of other scripts (\d is Unicode)
                keys = letters.split("\n")
                # A line is a pattern if it has a digit other than 0 (its letters then
                # differ from it without its zeros), and is no comment or directive.
                without_zeros = encoded.translate(None, b"0").decode(encoding).split("\n")
                patterns = map(operator.and_, map(operator.ne, keys, without_zeros),
                               map(operator.not_, map(str.startswith, lines,
                                                      itertools.repeat(_IGNORED))))
        if keys is None:
            keys = _DIGITS.sub("", text).split("\n")
            patterns = map(_is_pattern, keys, lines)
        # Each pattern under its letters, the last one winning, as in pyphen. (One
        # dict(), no loop in Python: a German dictionary has 78,000 lines.)
        self._lines = dict(itertools.compress(zip(keys, lines, strict=True), patterns))
        self._parsed: dict[str, _Values | None] = {}
        self._points: dict[str, list[int]] = {}
        self.maxlen = max(map(len, self._lines), default=0)

    def _values(self, letters: str) -> _Values | None:
        try:
            return self._parsed[letters]
        except KeyError:
            pass
        line = self._lines.get(letters)
        values: _Values | None = None
        if line is not None:
            digits = [int(value or 0) for value, _letter in _VALUE_AND_LETTER.findall(line)]
            if any(digits):
                start, end = 0, len(digits)
                while not digits[start]:
                    start += 1
                while not digits[end - 1]:
                    end -= 1
                values = start, tuple(digits[start:end])
        self._parsed[letters] = values
        return values

    def positions(self, word: str) -> list[int]:
        """Where ``word`` may break (indices into it), before any left/right limits."""
        word = word.lower()
        points = self._points.get(word)
        if points is None:
            dotted = f".{word}."
            scores = [0] * (len(dotted) + 1)
            for i in range(len(dotted) - 1):
                for j in range(i + 1, min(i + self.maxlen, len(dotted)) + 1):
                    found = self._values(dotted[i:j])
                    if found is None:
                        continue
                    offset, values = found
                    for k, value in enumerate(values, i + offset):
                        if value > scores[k]:
                            scores[k] = value
            points = [i - 1 for i, score in enumerate(scores) if score % 2]
            self._points[word] = points
        return points


class Dictionary:
    """The breaks of one language: ``iterate(word)`` gives (head, tail) pairs, the
    longest head first, at least ``left`` letters before a break and ``right`` after,
    as ``pyphen.Pyphen(lang=..., left=..., right=...).iterate`` does."""

    def __init__(self, patterns: Patterns, left: int, right: int) -> None:
        self.patterns, self.left, self.right = patterns, left, right

    def iterate(self, word: str) -> list[tuple[str, str]]:
        right = len(word) - self.right
        return [(word[:point], word[point:]) for point in reversed(self.patterns.positions(word))
                if self.left <= point <= right]


# Per dictionary file, read once per process (forked workers share the parent's).
_PATTERNS: dict[Path, Patterns] = {}


class Breaks(Protocol):
    """What a dictionary answers: a word's (head, tail) pairs, the longest head first."""

    def iterate(self, word: str) -> Iterable[tuple[str, str]]: ...


def dictionary(name: str, left: int, right: int) -> Breaks:
    """pyphen's dictionary ``name`` (a key of ``pyphen.LANGUAGES``) with these limits:
    a :class:`Dictionary`, or pyphen's own ``Pyphen`` for a file this reading does not
    handle."""
    path = Path(pyphen.LANGUAGES[name])
    patterns = _PATTERNS.get(path)
    if patterns is None:
        first, _newline, body = path.read_bytes().partition(b"\n")
        encoding = first.decode().strip()  # the first line names the encoding
        if encoding.lower() == "microsoft-cp1251":
            encoding = "cp1251"  # as pyphen reads it
        # As read_text() reads it: universal newlines.
        text = body.decode(encoding).replace("\r\n", "\n").replace("\r", "\n")
        if "^^" in text or ("/" in text and "=" in text and any(
                "=" in line and not line.strip().startswith(_IGNORED)
                for line in text.split("\n") if "/" in line)):
            pyphen_dictionary: Breaks = pyphen.Pyphen(filename=path, left=left,
                                                       right=right)
            return pyphen_dictionary
        patterns = _PATTERNS[path] = Patterns(text, encoding)
    return Dictionary(patterns, left, right)


# -- where the rulebook's lines may break a word -------------------------------------

# pyphen's "en" is en_GB, whose patterns break "po-s-i-tion", "ra-cing", "solit-aire";
# the en_US (TeX) patterns break British spellings correctly too.
HYPHENATION_DICTIONARIES = {"en": "en_US"}
# At least 2 letters before a break and 3 after it, in words of 6 letters or more:
# no "-ly" or "-ce" alone at the start of a line.
HYPHEN_LEFT, HYPHEN_RIGHT, HYPHEN_MIN_WORD = 2, 3, 6


class Hyphenator:
    """Where reportlab may break a word at a line end: the (head, tail) pairs, longest
    head first. A word with a hyphen breaks only at its own hyphens; an ``unbreakable``
    word with a hyphen never, nor a word that starts with an ``unbreakable`` word
    without one (case-insensitive); other words where the language's dictionary says,
    or nowhere if there is none."""

    def __init__(self, lang: str, unbreakable: Sequence[str] = ()) -> None:
        name = HYPHENATION_DICTIONARIES.get(lang) or pyphen.language_fallback(lang)
        self.dictionary = dictionary(name, HYPHEN_LEFT, HYPHEN_RIGHT) if name else None
        self.whole = frozenset(w.casefold() for w in unbreakable if "-" in w)
        self.stems = tuple(w.casefold() for w in unbreakable if "-" not in w)

    def __call__(self, word: str) -> list[tuple[str, str]]:
        folded = word.casefold()
        if folded in self.whole:
            return []
        parts = word.split("-")
        if len(parts) > 1:
            return [("-".join(parts[:i]) + "-", "-".join(parts[i:]))
                    for i in range(len(parts) - 1, 0, -1) if parts[i - 1] and parts[i]]
        if self.dictionary is None or folded.startswith(self.stems):
            return []
        return [(head, tail) for head, tail in self.dictionary.iterate(word)]

