"""Typography every book's texts keep, in every language: curly apostrophes, never
straight ones, and one multiplication sign for sizes ("9 × 9", as the printed boards
say too)."""

from __future__ import annotations

import re

import pytest

from micropul_print.games.cellulae.rulebook import CELLULAE
from micropul_print.games.micropul.rulebook import MICROPUL
from micropul_print.rulebook.locales import available_languages, load_locale

BOOKS = {"micropul": MICROPUL, "cellulae": CELLULAE}
TEXTS = [(game, lang) for game, book in BOOKS.items()
         for lang in available_languages(book.locales_dir)]
# A size written with a letter x: "9 x 9", "{side} x {side}", "9x9".
LETTER_X_SIZE = re.compile(r"(?:\d|\})\s*[xX]\s*(?:\d|\{)")


def _texts(game: str, lang: str) -> dict[str, str]:
    return load_locale(lang, BOOKS[game].locales_dir).texts


@pytest.mark.parametrize(("game", "lang"), TEXTS)
def test_no_straight_apostrophe(game: str, lang: str) -> None:
    """English, French and Italian write many apostrophes: all of them ’ (U+2019), as
    the rest of each book does; no language writes a straight one."""
    straight = {key: text for key, text in _texts(game, lang).items() if "'" in text}
    assert not straight, straight


@pytest.mark.parametrize(("game", "lang"), TEXTS)
def test_sizes_use_the_multiplication_sign(game: str, lang: str) -> None:
    letter_x = {key: text for key, text in _texts(game, lang).items()
                if LETTER_X_SIZE.search(text)}
    assert not letter_x, letter_x


def test_the_board_sizes_are_written_with_the_sign() -> None:
    """The Cellulae book names its boards' sizes, each with ×, in every language."""
    for lang in available_languages(CELLULAE.locales_dir):
        board = _texts("cellulae", lang)["components.board"]
        assert re.search(r"\{small_side\}\s×\s\{small_side\}", board), (lang, board)


def test_the_pattern_finds_a_letter_x() -> None:
    assert LETTER_X_SIZE.search("a 9 x 9 board") and LETTER_X_SIZE.search("{s} x {s}")
    assert not LETTER_X_SIZE.search("9 × 9") and not LETTER_X_SIZE.search("six boxes")
