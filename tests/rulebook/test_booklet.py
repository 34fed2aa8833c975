"""Booklets: pages imposed in folding order, half-size pages two up on landscape
sheets, a cover, duplex short-edge viewer preferences, identical bytes every time, for
every book in every language present and on both papers."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader
from reportlab.lib.units import mm

from micropul_print.catalogue.loader import load_catalogue, shipped_catalogue
from micropul_print.draw.theme import load_theme
from micropul_print.kit.outputs import OutputDir
from micropul_print.rulebook import (
    PAPERS,
    booklet,
    booklet_path,
    build_booklets,
    check_rulebook,
    layout,
    render_booklet,
    story,
    styles,
)
from micropul_print.rulebook.booklet import (
    BOOKLET_GEOMETRY,
    BOOKLET_PAGE,
    BOOKLET_PAPERS,
    imposition,
)
from micropul_print.rulebook.locales import load_locale

from .books import BOOKS, GAMES, every_book
from .pdftext import Half, sheet_blocks, sheet_halves
from .placement import headings_alone

SHEETS_PT = {"a4": (841.89, 595.28), "letter": (792.0, 612.0)}  # landscape
PAGES_PT = {"a4": (419.53, 595.28), "letter": (396.0, 612.0)}  # A5, half Letter
BODY_PT = styles.styles("en")["body"].fontSize  # the full-size book's
INDENT_PT = styles.styles("en")["bullet"].leftIndent


def test_eight_pages_fold_from_two_sheets() -> None:
    # Sheet 1: front 8 | 1, back 2 | 7; sheet 2: front 6 | 3, back 4 | 5.
    assert imposition(8) == [(8, 1), (2, 7), (6, 3), (4, 5)]


def test_missing_pages_are_blank_at_the_end() -> None:
    assert imposition(6) == [(None, 1), (2, None), (6, 3), (4, 5)]
    assert imposition(1) == [(None, 1), (None, None)]
    assert imposition(12)[:2] == [(12, 1), (2, 11)]


@pytest.mark.parametrize("pages", range(1, 41))
def test_every_page_once_facing_its_fold_partner(pages: int) -> None:
    sides = imposition(pages)
    sheets = -(-pages // 4)
    assert len(sides) == 2 * sheets
    printed = [page for side in sides for page in side if page is not None]
    assert sorted(printed) == list(range(1, pages + 1))
    for left, right in sides:  # pages side by side add up to the total plus one
        if left is not None and right is not None:
            assert left + right == 4 * sheets + 1


@pytest.fixture(scope="module")
def laid_out() -> dict[tuple[str, str, str], layout.Laid]:
    """Every book's booklet laid out as render_booklet lays it out (once for both
    papers, as a build does), by (game, lang, paper)."""
    built = {}
    for game, lang, _book, blocks, texts in every_book():
        laid = booklet.lay_out(blocks, texts, PAPERS[0])
        for paper in PAPERS:
            built[game, lang, paper] = booklet.on_paper(laid, paper)
    return built


@pytest.fixture(scope="module")
def page_blocks() -> dict[tuple[str, str], tuple[list[layout.PageBlock], layout.PageTexts]]:
    return {(game, lang): (blocks, texts) for game, lang, _book, blocks, texts in every_book()}


@pytest.fixture(scope="module")
def booklets(laid_out: dict[tuple[str, str, str], layout.Laid],
             ) -> dict[tuple[str, str, str], bytes]:
    """Every book's booklet PDF, by (game, lang, paper)."""
    return {key: laid.pdf for key, laid in laid_out.items()}


def test_the_booklet_tested_is_the_one_built(booklets: dict[tuple[str, str, str], bytes],
                                            ) -> None:
    catalogue = load_catalogue(shipped_catalogue("cellulae"))
    book, (locale,), figures = check_rulebook(catalogue, ["it"])
    pdf = render_booklet(book, locale, figures, catalogue, load_theme("classic"), "a4")
    assert pdf == booklets["cellulae", "it", "a4"]


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize(("game", "lang"), BOOKS)
def test_every_booklet_folds_from_two_sheets(
        laid_out: dict[tuple[str, str, str], layout.Laid], game: str, lang: str,
        paper: str) -> None:
    """At most 8 pages: the longer German, French, Italian and Polish texts with
    their ruling boxes once ran Micropul's booklets onto a ninth page, a third sheet
    with three blank pages."""
    assert laid_out[game, lang, paper].pages <= 2 * booklet.PAGES_PER_SHEET


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize(("game", "lang"), BOOKS)
def test_no_heading_ends_a_page(laid_out: dict[tuple[str, str, str], layout.Laid],
                                game: str, lang: str, paper: str) -> None:
    """Not even under figures that waited for the top of the page (Cellulae on half
    Letter used to end page 4 with a heading)."""
    assert headings_alone(laid_out[game, lang, paper]) == []


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize(("game", "lang"), BOOKS)
def test_every_figure_is_in_the_spread_of_its_text_or_the_next(
        laid_out: dict[tuple[str, str, str], layout.Laid],
        page_blocks: dict[tuple[str, str], tuple[list[layout.PageBlock], layout.PageTexts]],
        game: str, lang: str, paper: str) -> None:
    """Open, the booklet shows pages 2-3, 4-5, ... side by side: a figure that waited
    for the next page is at most one page turn away from the text before it."""
    laid = laid_out[game, lang, paper]
    blocks, _texts = page_blocks[game, lang]
    text_ends = {p.block: p for p in laid.placed if p.kind == "text"}
    figures = {p.block: p for p in laid.placed if p.kind == "figure"}
    assert len(figures) >= 7
    for block, figure in figures.items():
        assert block is not None
        # The text before the figure where it is set: its place in book.yaml, or a few
        # paragraphs earlier in its section (Laid.earlier: what kept it in its section).
        at = story.set_before(blocks, block, laid.earlier.get(block, 0))
        anchor = text_ends[max(b for b in text_ends if b is not None and b < at)]
        assert anchor.page <= figure.page, (figure, anchor)
        assert figure.page // 2 - anchor.page // 2 <= 1, (figure, anchor)


def _number(half: Half) -> int | None:
    """The page number printed in the bottom margin of a booklet page."""
    numbers = [line.text for line in half.lines
               if not line.body and line.y < BOOKLET_GEOMETRY.bottom * mm]
    assert len(numbers) <= 1, numbers
    return int(re.sub(r"\D", "", numbers[0])) if numbers else None


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize(("game", "lang"), BOOKS)
def test_pages_are_imposed_in_folding_order(booklets: dict[tuple[str, str, str], bytes],
                                            game: str, lang: str, paper: str) -> None:
    sides = sheet_halves(booklets[game, lang, paper], BOOKLET_GEOMETRY)
    printed: list[tuple[int | None, int | None]] = []
    for side in sides:
        numbers: list[int | None] = [None, None]
        for half in side:
            # The cover (page 1) has no number; every other page drawn shows its own.
            numbers[half.slot] = _number(half) or 1
        printed.append((numbers[0], numbers[1]))
    pages = sum(len(side) for side in sides)  # the blank ones are not drawn
    assert 2 * len(sides) % 4 == 0 and 2 * len(sides) - pages < 4
    assert printed == imposition(pages), printed


@pytest.mark.parametrize("paper", PAPERS)
def test_sheets_are_the_paper_in_landscape_pages_half_of_it(
        booklets: dict[tuple[str, str, str], bytes], paper: str) -> None:
    pdf = booklets["micropul", "en", paper]
    reader = PdfReader(io.BytesIO(pdf))
    from pypdf.generic import ContentStream

    page_width = PAGES_PT[paper][0]
    sheet_width, sheet_height = SHEETS_PT[paper]
    laid_width, laid_height = (round(v, 2) for v in BOOKLET_PAGE)
    for sheet in reader.pages:
        box = sheet.mediabox
        assert (round(float(box.width), 2), round(float(box.height), 2)) == SHEETS_PT[paper]
        resources: Any = sheet["/Resources"]
        # Each page is a form of the page the booklet was laid out on, placed with its
        # centre on the centre of its half of the sheet (a page of the paper's booklet
        # size, either side of the fold).
        centres = []
        for operands, operator in ContentStream(sheet.get_contents(), reader).operations:
            if operator == b"cm":
                x, y = float(operands[4]), float(operands[5])
            elif operator == b"Do":
                form = resources["/XObject"][operands[0]].get_object()
                bbox = [round(float(v), 2) for v in form["/BBox"]]
                assert bbox == [0, 0, laid_width, laid_height]
                centres.append((round(x + laid_width / 2, 1), round(y + laid_height / 2, 1)))
        margin = (sheet_width - 2 * page_width) / 2
        slots = [(round(margin + (slot + 0.5) * page_width, 1), round(sheet_height / 2, 1))
                 for slot in (0, 1)]
        assert centres and set(centres) <= set(slots), (centres, slots)
    page, sheet_size = BOOKLET_PAPERS[paper]
    assert 2 * page[0] <= sheet_size[0] and page[1] == sheet_size[1]


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize(("game", "lang"), BOOKS)
def test_the_cover_shows_title_author_picture_and_language(
        booklets: dict[tuple[str, str, str], bytes], game: str, lang: str,
        paper: str) -> None:
    pdf = booklets[game, lang, paper]
    front = sheet_halves(pdf, BOOKLET_GEOMETRY)[0]
    (cover,) = [half for half in front if half.slot == 1]  # page 1: right of sheet 1
    texts = load_locale(lang, GAMES[game].locales_dir).texts
    words = " ".join(line.text for line in cover.lines)
    name = texts["title.name"]
    author_line = texts["title.version" if game == "micropul" else "title.author"]
    for wanted in (name, texts["meta.title"], texts["meta.language_name"]):
        assert wanted in words, wanted
    assert " ".join(author_line.split()[:2]) in words
    resources: Any = PdfReader(io.BytesIO(pdf)).pages[0]["/Resources"]
    form = next(f.get_object() for name, f in resources["/XObject"].items()
                if name.endswith("Page1"))
    assert form.get_data().count(b" re") + form.get_data().count(b" c\n") > 20  # a picture


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize(("game", "lang"), BOOKS)
def test_the_text_is_reflowed_in_one_column_and_no_page_ends_inside_a_word(
        booklets: dict[tuple[str, str, str], bytes], game: str, lang: str,
        paper: str) -> None:
    lines = 0
    for half in _text_pages(booklets[game, lang, paper]):
        body = [line for line in half.lines if line.body]
        assert not body[-1].text.endswith("-"), body[-1]
        # Reflowed, not a scaled page: body text at its own size, in one column
        # (every line of it starts at the margin, or a bullet's indent).
        text = [line for line in body if line.size == BODY_PT]
        margin = min((line.x for line in text), default=0.0)
        assert all(line.x - margin <= INDENT_PT for line in text), text
        lines += len(text)
    assert lines > 30


@pytest.mark.parametrize("paper", PAPERS)
def test_words_are_hyphenated_inside_the_pages(
        booklets: dict[tuple[str, str, str], bytes], paper: str) -> None:
    """Lines inside a page do end in a hyphen (in some book: one book's text may
    happen to break nowhere), so that no page ending in one proves something."""
    inside = sum(line.text.endswith("-")
                 for (_game, _lang, on), pdf in booklets.items() if on == paper
                 for half in _text_pages(pdf)
                 for line in [line for line in half.lines if line.body][:-1])
    assert inside, "no line ends in a hyphen at all: the check above proves nothing"


def _text_pages(pdf: bytes) -> list[Half]:
    """The booklet's pages with body text, in sheet order, the cover left out."""
    return [half for side in sheet_halves(pdf, BOOKLET_GEOMETRY) for half in side
            if any(line.body for line in half.lines) and _number(half) is not None]


def test_print_duplex_short_edge_at_actual_size(
        booklets: dict[tuple[str, str, str], bytes]) -> None:
    for pdf in booklets.values():
        root: Any = PdfReader(io.BytesIO(pdf)).trailer["/Root"]
        preferences = root["/ViewerPreferences"]
        assert preferences["/Duplex"] == "/DuplexFlipShortEdge"
        assert preferences["/PrintScaling"] == "/None"


def test_same_bytes_every_time_and_named_by_paper(
        booklets: dict[tuple[str, str, str], bytes], tmp_path: Path) -> None:
    for game in GAMES:
        catalogue = load_catalogue(shipped_catalogue(game))
        out = OutputDir(tmp_path / game)
        (path,) = build_booklets(catalogue, load_theme("classic"), out, langs=["en"],
                                 paper="letter")
        assert path == out.path(booklet_path(catalogue, "en", "letter"))
        assert path.read_bytes() == booklets[game, "en", "letter"]
    assert booklet_path(load_catalogue(), "pl", "a4") == "rules/micropul-rules-pl-booklet-a4.pdf"
    assert booklet_path(load_catalogue(shipped_catalogue("cellulae")), "es", "letter") == (
        "cellulae/rules/cellulae-rules-es-booklet-letter.pdf")


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize(("game", "lang"), BOOKS)
def test_margins_mirror_across_the_fold_on_every_page(
        booklets: dict[tuple[str, str, str], bytes], game: str, lang: str,
        paper: str) -> None:
    """Measured on the printed sheet: on every page, left of the fold or right of it,
    the running head's rule ends BOOKLET_GEOMETRY's inner margin from the fold and its
    outer margin from the paper's edge (plus half of what the page leaves of its half
    sheet: it is centred there), and the text block lies under the rule, starting
    where it starts (pages used to alternate wrongly from page 3 on: text 4 mm off)."""
    page_width = BOOKLET_PAPERS[paper][0][0]
    centring = (page_width - booklet.BOOKLET_PAGE[0]) / 2
    tolerance = 0.3 * mm  # a glyph's overhang, a stroke's half width
    pages = 0
    for width, blocks in sheet_blocks(booklets[game, lang, paper], BOOKLET_GEOMETRY):
        fold, paper_edge = width / 2, (width - 2 * page_width) / 2
        for block in blocks:
            if block.rule is None:  # the cover
                continue
            pages += 1
            start, end = block.rule
            if block.slot == 0:
                outer, inner = start - paper_edge, fold - end
            else:
                inner, outer = start - fold, width - paper_edge - end
            assert abs(inner - centring - BOOKLET_GEOMETRY.inner * mm) < tolerance, block
            assert abs(outer - centring - BOOKLET_GEOMETRY.outer * mm) < tolerance, block
            assert abs(block.body[0] - start) < tolerance, block
            assert block.body[1] < end + tolerance, block
    assert pages >= 7


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize(("game", "lang"), BOOKS)
def test_the_cover_picture_has_its_caption_above_the_foot(
        booklets: dict[tuple[str, str, str], bytes],
        page_blocks: dict[tuple[str, str], tuple[list[layout.PageBlock], layout.PageTexts]],
        game: str, lang: str, paper: str) -> None:
    """The cover's picture (with its frame and rings) is explained: under it, the
    caption of the figure it is, with the figure's number, ending at least 3 mm above
    the rule of the cover's foot (11 mm above the bottom margin)."""
    blocks, texts = page_blocks[game, lang]
    cover = story.cover_figure(blocks)
    assert cover is not None
    number = 1 + [b for b in blocks
                  if isinstance(b, layout.FigureBlock | layout.LegendBlock)].index(cover)
    label = texts.figure_label.replace("{number}", str(number))
    front = sheet_halves(booklets[game, lang, paper], BOOKLET_GEOMETRY)[0]
    (half,) = [half for half in front if half.slot == 1]
    caption = [line for line in half.lines if label in line.text]
    assert caption, label
    first = caption[0]
    below = [line for line in half.lines if line.y <= first.y and line.size == first.size]
    foot = (BOOKLET_GEOMETRY.bottom + 11) * mm
    assert min(line.y for line in below) > foot + 3 * mm
    assert " ".join(line.text for line in below).count(".") >= 1


def test_a_booklet_drawn_once_for_two_papers_gives_what_drawing_on_each_gives() -> None:
    """render_papers draws the pages once and formats the document again with the
    other paper's sheets: the bytes are those of imposing the booklet on that paper
    alone (every game, every language)."""
    from .books import every_book

    for game, lang, _book, blocks, texts in every_book():
        once = booklet.render_papers(blocks, texts, ["a4", "letter"])
        again = booklet.render_papers(blocks, texts, ["letter", "a4"])
        each = {paper: booklet.lay_out(blocks, texts, paper).pdf for paper in ("a4", "letter")}
        assert once == again == each, (game, lang)
        assert each["a4"] != each["letter"]
