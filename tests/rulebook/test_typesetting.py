"""The typesetting rules every book keeps, in every language present and on both
papers: its designed page count, no column or page ending inside a word, the last
page's columns balanced, and every figure near the text it belongs to."""

from __future__ import annotations

import pytest

from micropul_print.catalogue.loader import load_catalogue, shipped_catalogue
from micropul_print.draw.theme import load_theme
from micropul_print.rulebook import (
    PAPERS,
    check_rulebook,
    games_with_rulebooks,
    layout,
    page_blocks,
    render_rulebook,
    rulebook_for,
)

from .pdftext import page_lines
from .placement import headings_alone

# Every book in every language present (the locale files decide), on both papers.
GAMES = {game: rulebook_for(game) for game in games_with_rulebooks()}
BOOKS = [(game, lang) for game, rulebook in GAMES.items() for lang in rulebook.languages()]


@pytest.fixture(scope="module")
def laid_out() -> dict[tuple[str, str, str], tuple[layout.Laid, list[layout.PageBlock]]]:
    """Each book laid out as render_rulebook lays it out, by (game, lang, paper)."""
    theme = load_theme("classic")
    books = {}
    for game, rulebook in GAMES.items():
        catalogue = load_catalogue(shipped_catalogue(game))
        book, locales, figures = check_rulebook(catalogue, rulebook.languages())
        for locale in locales:
            blocks, texts = page_blocks(book, locale, figures, catalogue, theme)
            for paper in PAPERS:
                laid = layout.lay_out(blocks, texts, paper, page_budget=book.pages)
                books[game, locale.lang, paper] = laid, blocks
    return books


def test_the_layout_tested_is_the_one_built(
        laid_out: dict[tuple[str, str, str], tuple[layout.Laid, list[layout.PageBlock]]],
) -> None:
    catalogue, theme = load_catalogue(), load_theme("classic")
    book, (locale,), figures = check_rulebook(catalogue, ["pl"])
    pdf = render_rulebook(book, locale, figures, catalogue, theme, "letter")
    assert pdf == laid_out[catalogue.game, "pl", "letter"][0].pdf


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize(("game", "lang"), BOOKS)
def test_every_book_keeps_its_designed_pages(
        laid_out: dict[tuple[str, str, str], tuple[layout.Laid, list[layout.PageBlock]]],
        game: str, lang: str, paper: str) -> None:
    laid, _ = laid_out[game, lang, paper]
    assert laid.pages == GAMES[game].load_book().pages


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize(("game", "lang"), BOOKS)
def test_no_column_ends_inside_a_word(
        laid_out: dict[tuple[str, str, str], tuple[layout.Laid, list[layout.PageBlock]]],
        game: str, lang: str, paper: str) -> None:
    """The last line of every column of every page ends with a whole word: a word is
    never broken across a column or a page (where a figure may come between)."""
    pages = page_lines(laid_out[game, lang, paper][0].pdf)
    inside = ends = 0
    for number, lines in enumerate(pages, start=1):
        for column in (0, 1):
            body = [line for line in lines if line.column == column]
            if not body:
                continue
            *above, last = body
            assert not last.text.endswith("-"), (number, column, last.text)
            inside += sum(line.text.endswith("-") for line in above)
            ends += 1
    assert inside, "no line ends in a hyphen at all: the check above proves nothing"
    assert ends >= 2 * len(pages) - 1


# The last page's columns end within this of each other (points): 8 lines, what a
# heading keeps with it and a little (today's books: at most 4 lines). Unbalanced, a
# last page had a full left column and an empty right one.
BALANCED_WITHIN = 100.0


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize(("game", "lang"), BOOKS)
def test_the_last_page_has_balanced_columns(
        laid_out: dict[tuple[str, str, str], tuple[layout.Laid, list[layout.PageBlock]]],
        game: str, lang: str, paper: str) -> None:
    laid, _ = laid_out[game, lang, paper]
    lines = page_lines(laid.pdf)[-1]
    bottoms = [min(line.y for line in lines if line.column == column) for column in (0, 1)]
    assert abs(bottoms[0] - bottoms[1]) <= BALANCED_WITHIN, bottoms
    fills = laid.fills[-1]
    assert abs(fills[0] - fills[1]) <= BALANCED_WITHIN, fills


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize(("game", "lang"), BOOKS)
def test_every_figure_is_near_its_text(
        laid_out: dict[tuple[str, str, str], tuple[layout.Laid, list[layout.PageBlock]]],
        game: str, lang: str, paper: str) -> None:
    """A figure (or the legend) comes after the text before it in the book: right
    under it in its column, or, when it did not fit there, at the top of a later
    column (under other figures only), on the same page or the next, never further."""
    laid, blocks = laid_out[game, lang, paper]
    text_ends: dict[int, layout.Placed] = {}
    for placed in laid.placed:
        if placed.kind == "text":
            text_ends[placed.block] = placed  # type: ignore[index]  # text has a block
    figures = [p for p in laid.placed
               if p.kind == "figure" and p is max((q for q in laid.placed if q.block == p.block),
                                                  key=lambda q: (q.page, q.column, -q.bottom))]
    assert len(figures) == sum(isinstance(b, layout.FigureBlock | layout.LegendBlock)
                               for b in blocks)
    for figure in figures:
        assert figure.block is not None
        anchor = text_ends[max(b for b in text_ends if b < figure.block)]
        where = (figure.page, figure.column)
        assert (anchor.page, anchor.column) <= where, (figure, anchor)
        assert figure.page <= anchor.page + 1, (figure, anchor)
        if where != (anchor.page, anchor.column):
            above = [p for p in laid.placed if (p.page, p.column) == where
                     and p.bottom > figure.bottom and p.block != figure.block]
            assert all(p.kind == "figure" for p in above), (figure, above)


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize(("game", "lang"), BOOKS)
def test_no_heading_ends_a_column(
        laid_out: dict[tuple[str, str, str], tuple[layout.Laid, list[layout.PageBlock]]],
        game: str, lang: str, paper: str) -> None:
    assert headings_alone(laid_out[game, lang, paper][0]) == []

