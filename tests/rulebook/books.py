"""Every shipped book in every language present, ready to lay out: what the tests of
the layout and of the booklets go through."""

from __future__ import annotations

from collections.abc import Iterator

from micropul_print.catalogue.loader import load_catalogue, shipped_catalogue
from micropul_print.draw.theme import load_theme
from micropul_print.rulebook import (
    check_rulebook,
    games_with_rulebooks,
    layout,
    page_blocks,
    rulebook_for,
)
from micropul_print.rulebook.book import Book

GAMES = {game: rulebook_for(game) for game in games_with_rulebooks()}
BOOKS = [(game, lang) for game, rulebook in GAMES.items() for lang in rulebook.languages()]


def every_book() -> Iterator[tuple[str, str, Book, list[layout.PageBlock], layout.PageTexts]]:
    """(game, lang, book, blocks, texts) for each of BOOKS, with the classic theme, as
    the rulebook build sets them (page_blocks)."""
    theme = load_theme("classic")
    for game, rulebook in GAMES.items():
        catalogue = load_catalogue(shipped_catalogue(game))
        book, locales, figures = check_rulebook(catalogue, rulebook.languages())
        for locale in locales:
            blocks, texts = page_blocks(book, locale, figures, catalogue, theme)
            yield game, locale.lang, book, blocks, texts
