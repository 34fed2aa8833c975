"""How text and figures flow in every book and booklet, read back from their PDFs (A4; Letter
draws the same layout): no figure on a page after its section has ended, a paragraph
that leads into a list on the list's page and column with no figure between, no column
that opens with a paragraph's last line or two."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

from micropul_print.rulebook import booklet, layout, styles
from micropul_print.rulebook.booklet import BOOKLET_GEOMETRY, imposition
from micropul_print.rulebook.flowables import WIDOW_LINES
from micropul_print.rulebook.nobreak import read_rules

from .books import BOOKS, every_book
from .pdftext import Line, page_lines, sheet_halves


@dataclass
class Book:
    blocks: list[layout.PageBlock]
    texts: layout.PageTexts
    laid: layout.Laid
    # Per page (from 1: index 0 is page 1), its body lines in reading order.
    pages: list[list[Line]]


def _booklet_pages(pdf: bytes) -> list[list[Line]]:
    sides = sheet_halves(pdf, BOOKLET_GEOMETRY)
    order = imposition(sum(len(side) for side in sides))
    pages: dict[int, list[Line]] = {}
    for side, numbers in zip(sides, order, strict=True):
        for half in side:
            number = numbers[half.slot]
            assert number is not None
            pages[number] = [line for line in half.lines if line.body]
    return [pages[number] for number in sorted(pages)]


@pytest.fixture(scope="module")
def books() -> dict[tuple[str, str, str], Book]:
    """Every book and booklet on A4, by (game, lang, "book" or "booklet")."""
    found = {}
    for game, lang, book, blocks, texts in every_book():
        laid = layout.lay_out(blocks, texts, "a4", page_budget=book.pages)
        found[game, lang, "book"] = Book(blocks, texts, laid, page_lines(laid.pdf))
        small = booklet.lay_out(blocks, texts, "a4")
        found[game, lang, "booklet"] = Book(blocks, texts, small, _booklet_pages(small.pdf))
    return found


KINDS = ("book", "booklet")


def _words(text: str) -> str:
    """Text as the PDF's lines give it back: markup gone, one space between words."""
    return " ".join(re.sub(r"\*+", "", text).split())


def _where(book: Book, start: str, size: float | None = None) -> tuple[int, int, int]:
    """(page, column, line) of the first line that starts with ``start``'s first words
    (of font ``size``, if given)."""
    wanted = " ".join(_words(start).split()[:3])
    for page, lines in enumerate(book.pages, start=1):
        for number, line in enumerate(lines):
            if line.text.startswith(wanted) and (size is None or line.size == size):
                return page, line.column, number
    raise AssertionError(f"{wanted!r} not found")


def _caption(book: Book, number: int) -> tuple[int, int, int]:
    """(page, column, line) of figure ``number``'s caption: the line holding its label
    (the bold label may come back from the PDF anywhere in the line)."""
    label = re.compile(re.escape(book.texts.figure_label.replace("{number}", str(number)))
                       + r"(?!\d)")
    for page, lines in enumerate(book.pages, start=1):
        for line_number, line in enumerate(lines):
            if label.search(line.text):
                return page, line.column, line_number
    raise AssertionError(f"figure {number} not found")


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(("game", "lang"), BOOKS)
def test_no_figure_lands_on_a_page_after_its_section_ends(
        books: dict[tuple[str, str, str], Book], game: str, lang: str, kind: str) -> None:
    """A figure's caption is on the page where the next section's heading is, or on
    an earlier one (Cellulae's last figure used to fall onto the back cover, after
    the credits)."""
    book = books[game, lang, kind]
    heading_size = styles.styles(lang)["h1"].fontSize
    number, checked = 0, 0
    for index, block in enumerate(book.blocks):
        if not isinstance(block, layout.FigureBlock | layout.LegendBlock):
            continue
        number += 1
        following = [b for b in book.blocks[index + 1:]
                     if isinstance(b, layout.HeadingBlock) and b.level == 1]
        if not following:
            continue
        figure_page = _caption(book, number)[0]
        heading_page = _where(book, following[0].text, heading_size)[0]
        assert figure_page <= heading_page, (number, following[0].text)
        checked += 1
    assert checked >= 5


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(("game", "lang"), BOOKS)
def test_a_paragraph_leading_into_a_list_stays_with_it(
        books: dict[tuple[str, str, str], Book], game: str, lang: str, kind: str) -> None:
    """The paragraph's last line and the list's first are consecutive lines of one
    column: no column break, no figure between (Micropul's figure 10 used to fall
    between "Then each player scores:" and its list)."""
    book = books[game, lang, kind]
    pairs = 0
    for before, block in zip(book.blocks, book.blocks[1:], strict=False):
        if not (isinstance(before, layout.TextBlock) and isinstance(block, layout.BulletsBlock)):
            continue
        lead_page, lead_column, lead_line = _where(book, before.text)
        item_page, item_column, item_line = _where(book, "• " + block.items[0])
        lines = book.pages[lead_page - 1]
        assert (item_page, item_column) == (lead_page, lead_column), before.text
        label = book.texts.figure_label.split()[0]
        assert not any(label in line.text for line in lines[lead_line:item_line])
        assert item_line - lead_line <= len(_words(before.text)) // 5 + 1  # its own lines
        pairs += 1
    assert pairs >= 1


def test_no_column_opens_with_a_paragraphs_last_lines_breaking_a_word(
        books: dict[tuple[str, str, str], Book]) -> None:
    """A paragraph carried over to the next column brings at least WIDOW_LINES lines,
    and if it brings no more, none of them ends in a broken word (German A4 used to
    open page 3 with "... wird wie üb-" / "lich gewertet."). The parts of a paragraph
    from the layout's record, their lines from the PDF."""
    assert WIDOW_LINES == 2
    short = 0
    for book in books.values():
        leading = styles.styles(book.texts.lang)["body"].leading
        parts: dict[int, list[layout.Placed]] = {}
        for placed in book.laid.placed:
            if placed.kind == "text" and placed.block is not None \
                    and isinstance(book.blocks[placed.block], layout.TextBlock):
                parts.setdefault(placed.block, []).append(placed)
        for pieces in parts.values():
            for piece in pieces[1:]:
                count = round((piece.top - piece.bottom) / leading)
                assert count >= WIDOW_LINES, piece
                if count > WIDOW_LINES:
                    continue
                short += 1
                lines = [line.text for line in book.pages[piece.page - 1]
                         if line.column == piece.column
                         and piece.bottom <= line.y <= piece.top]
                assert len(lines) == count, (piece, lines)
                assert not any(line.endswith("-") for line in lines), lines
    assert short >= 2  # the rule is met, not only vacuously true


def test_no_line_ends_with_a_numeral_or_a_word_of_the_languages_no_break_list(
        books: dict[tuple[str, str, str], Book]) -> None:
    """A number stays with the word after it, in every language (Italian Cellulae A4
    page 1 used to leave "con 49" at a line end, "tessere" on the next); a Polish
    one-letter conjunction or preposition never ends a line (nobreak.yaml)."""
    rules = read_rules()
    ends = 0
    for (_game, lang, _kind), book in books.items():
        _numerals, words = rules.get(lang, rules["default"])
        end = re.compile(r"(^|\s)(\d+(?:[.,]\d+)*" + "".join(
            f"|{re.escape(word)}" for word in words) + r")$", re.IGNORECASE)
        # The text of the body, the story, the captions and the legend (not the
        # figures' own labels: a board's coordinates, a stone's number).
        sizes = {styles.styles(lang)[style].fontSize
                 for style in ("body", "lead", "caption", "legend")}
        for lines in book.pages:
            for line in lines:
                if line.size in sizes:
                    ends += 1
                    assert not end.search(line.text), (lang, line.text)
    assert ends > 1000


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(("game", "lang"), BOOKS)
def test_a_ruling_box_is_never_split(books: dict[tuple[str, str, str], Book], game: str,
                                     lang: str, kind: str) -> None:
    """Each ruling of this edition is set in one piece, in one column of one page
    (German A4 used to split one from page 2 to page 3); the PDF has each ruling's
    heading line in that page and column."""
    book = books[game, lang, kind]
    rulings = [b for b in book.blocks if isinstance(b, layout.RulingBlock)]
    assert rulings
    placed = []
    for index, block in enumerate(book.blocks):
        if isinstance(block, layout.RulingBlock):
            pieces = [p for p in book.laid.placed if p.block == index]
            assert len(pieces) == 1, pieces
            placed.append((pieces[0].page, pieces[0].column))
    headings = {_words(b.heading) for b in rulings}
    found = [(page, line.column) for page, lines in enumerate(book.pages, start=1)
             for line in lines if line.text in headings]
    assert sorted(found) == sorted(placed)
