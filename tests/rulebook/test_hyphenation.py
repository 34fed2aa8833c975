"""The fast reading of pyphen's dictionaries gives pyphen's own breaks: the same break
values for every pattern of each dictionary the books use, the same breaks for every
word of both books in every language, and pyphen itself for a file it cannot read."""

from __future__ import annotations

import re
from pathlib import Path

import pyphen  # type: ignore[import-untyped]
import pytest

from micropul_print.games.cellulae.rulebook import CELLULAE
from micropul_print.games.micropul.rulebook import MICROPUL
from micropul_print.rulebook import hyphenation
from micropul_print.rulebook.locales import load_locale

LANGS = ("en", "it", "pl", "es", "fr", "de")


def _name(lang: str) -> str:
    name = hyphenation.HYPHENATION_DICTIONARIES.get(lang) or pyphen.language_fallback(lang)
    assert name, lang
    return str(name)


@pytest.mark.parametrize("lang", LANGS)
def test_every_pattern_has_pyphens_values(lang: str) -> None:
    breaks = hyphenation.dictionary(_name(lang), 2, 3)
    assert isinstance(breaks, hyphenation.Dictionary)  # read here, not left to pyphen
    patterns = breaks.patterns
    theirs = pyphen.HyphDict(Path(pyphen.LANGUAGES[_name(lang)])).patterns
    ours = {letters: patterns._values(letters) for letters in patterns._lines}
    assert {letters: values for letters, values in ours.items() if values is not None} == {
        letters: (start, tuple(values)) for letters, (start, values) in theirs.items()}
    assert patterns._values("no such letters") is None


@pytest.mark.parametrize("lang", LANGS)
def test_every_word_of_the_books_breaks_as_pyphen_breaks_it(lang: str) -> None:
    name = _name(lang)
    ours = hyphenation.dictionary(name, hyphenation.HYPHEN_LEFT, hyphenation.HYPHEN_RIGHT)
    theirs = pyphen.Pyphen(lang=name, left=hyphenation.HYPHEN_LEFT, right=hyphenation.HYPHEN_RIGHT)
    words = {word for book in (MICROPUL, CELLULAE)
             for text in load_locale(lang, book.locales_dir).texts.values()
             for word in re.findall(r"\w+", text)}
    assert len(words) > 300
    for word in sorted(words):
        assert list(ours.iterate(word)) == list(theirs.iterate(word)), word


def test_a_file_with_nonstandard_breaks_is_left_to_pyphen(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "hyph_xx.dic"
    path.write_text("UTF-8\n% a comment/with a slash\n1ba\nc1k/k=k,1,1\n", encoding="utf-8")
    monkeypatch.setitem(pyphen.LANGUAGES, "xx_test", path)
    assert isinstance(hyphenation.dictionary("xx_test", 1, 1), pyphen.Pyphen)
    plain = tmp_path / "hyph_yy.dic"
    plain.write_text("UTF-8\n% a comment/with a slash\n1ba\n", encoding="utf-8")
    monkeypatch.setitem(pyphen.LANGUAGES, "yy_test", plain)
    breaks = hyphenation.dictionary("yy_test", 1, 1)
    assert isinstance(breaks, hyphenation.Dictionary)
    assert list(breaks.iterate("ababa")) == [("aba", "ba"), ("a", "baba")]
    assert list(breaks.iterate("ababa")) == list(
        pyphen.Pyphen(filename=plain, left=1, right=1).iterate("ababa"))


def test_a_tricky_file_reads_as_pyphen_reads_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Windows line ends, padded lines, comments and directives with digits, letters
    # written twice (the later line only zeros, or no digit at all, or a comment that
    # strips to the same letters), a line of only zeros, and Latin-1 letters.
    text = ("ISO8859-1\r\n% 2 comment 1\r\nLEFTHYPHENMIN 2\r\n 1ba \r\n\tb1c\t\r\n"
            "a1b\r\na0b\r\nc2d\r\ncd\r\n2ä1ö\r\n\r\n0x0y0\r\nx1y\r\n1x2y\r\n%1\r\n")
    path = tmp_path / "hyph_zz.dic"
    path.write_bytes(text.encode("latin-1"))
    monkeypatch.setitem(pyphen.LANGUAGES, "zz_test", path)
    breaks = hyphenation.dictionary("zz_test", 1, 1)
    assert isinstance(breaks, hyphenation.Dictionary)
    ours = {letters: breaks.patterns._values(letters) for letters in breaks.patterns._lines}
    theirs = pyphen.HyphDict(path).patterns
    assert {letters: values for letters, values in ours.items() if values is not None} == {
        letters: (start, tuple(values)) for letters, (start, values) in theirs.items()}
    assert set(theirs) == {"ba", "bc", "ab", "cd", "äö", "xy"}
    for word in ("abcd", "xyxy", "bäöc", "cdab"):
        assert list(breaks.iterate(word)) == list(
            pyphen.Pyphen(filename=path, left=1, right=1).iterate(word)), word
