"""The typesetting rules every book keeps, in every language present and on both
papers: its designed page count, no column or page ending inside a word, the last
page's columns balanced, every figure near the text it belongs to, and every letter
of the language copied back from the PDF."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from micropul_print.catalogue.loader import load_catalogue
from micropul_print.draw.theme import load_theme
from micropul_print.rulebook import (
    PAPERS,
    check_rulebook,
    layout,
    render_rulebook,
)
from micropul_print.rulebook.locales import load_locale

from .books import BOOKS, GAMES, every_book
from .pdftext import page_lines
from .placement import headings_alone


@pytest.fixture(scope="module")
def laid_out() -> dict[tuple[str, str, str], tuple[layout.Laid, list[layout.PageBlock]]]:
    """Each book laid out as render_rulebook lays it out (once for both papers, as a
    build does), by (game, lang, paper)."""
    books = {}
    for game, lang, book, blocks, texts in every_book():
        laid = layout.lay_out(blocks, texts, PAPERS[0], page_budget=book.pages)
        for paper in PAPERS:
            books[game, lang, paper] = laid.on(layout.PAPER_SIZES[paper]), blocks
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
# last page had a full left column and an empty right one. A left column that ends
# with a ruling box may be taller by the box's height more: the box never leaves its
# section (Cellulae's "End of the game" box, before "The winner"), nor is it split.
BALANCED_WITHIN = 100.0


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize(("game", "lang"), BOOKS)
def test_the_last_page_has_balanced_columns(
        laid_out: dict[tuple[str, str, str], tuple[layout.Laid, list[layout.PageBlock]]],
        game: str, lang: str, paper: str) -> None:
    laid, blocks = laid_out[game, lang, paper]
    lines = page_lines(laid.pdf)[-1]
    bottoms = [min(line.y for line in lines if line.column == column) for column in (0, 1)]
    left = [p for p in laid.placed if p.page == laid.pages and p.column == 0]
    last = min(left, key=lambda placed: placed.bottom)
    box = (last.top - last.bottom if last.block is not None
           and isinstance(blocks[last.block], layout.RulingBlock) else 0.0)
    assert abs(bottoms[0] - bottoms[1]) <= BALANCED_WITHIN + box, bottoms
    fills = laid.fills[-1]
    assert abs(fills[0] - fills[1]) <= BALANCED_WITHIN + box, fills


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize(("game", "lang"), BOOKS)
def test_every_figure_is_near_its_text(
        laid_out: dict[tuple[str, str, str], tuple[layout.Laid, list[layout.PageBlock]]],
        game: str, lang: str, paper: str) -> None:
    """A figure (or the legend) comes after the text before it in the book: right
    under it in its column, or, when it did not fit there, at the top of a later
    column (under other figures and ruling boxes only), on the same page or the next,
    never further."""
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
            # Under other figures or ruling boxes (which wait for a column as figures
            # do), or the rest of a list that ran on into the column (no figure
            # between a list's items).
            assert all(p.kind == "figure" or (p.block is not None and isinstance(
                blocks[p.block], layout.BulletsBlock | layout.RulingBlock))
                for p in above), (figure, above)


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize(("game", "lang"), BOOKS)
def test_no_heading_ends_a_column(
        laid_out: dict[tuple[str, str, str], tuple[layout.Laid, list[layout.PageBlock]]],
        game: str, lang: str, paper: str) -> None:
    assert headings_alone(laid_out[game, lang, paper][0]) == []



@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize(("game", "lang"), BOOKS)
def test_every_letter_of_the_language_can_be_copied(
        laid_out: dict[tuple[str, str, str], tuple[layout.Laid, list[layout.PageBlock]]],
        game: str, lang: str, paper: str) -> None:
    """Each letter beyond ASCII the book's texts use (ä, ł, ñ, œ...) is in the text
    extracted from its pages: drawn from the embedded font and mapped back to Unicode."""
    texts = load_locale(lang, GAMES[game].locales_dir).texts
    letters = {char for key, text in texts.items() if not key.startswith("meta.")
               for char in text if char.isalpha() and not char.isascii()}
    laid, _ = laid_out[game, lang, paper]
    extracted = "".join(page.extract_text() for page in PdfReader(io.BytesIO(laid.pdf)).pages)
    assert letters - set(extracted) == set()
    assert lang == "en" or letters, "no letter beyond ASCII: the check would prove nothing"
