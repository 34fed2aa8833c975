"""Page layout details: mirrored margins, markup, hyphenation per language."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader
from reportlab.lib.units import mm

from micropul_print.draw.primitives import Drawing, Rect
from micropul_print.rulebook import (
    flowables,
    games_with_rulebooks,
    hyphenation,
    layout,
    pages,
    rulebook_for,
    styles,
)
from micropul_print.rulebook.layout import GEOMETRY, PAPER_SIZES, PageTexts
from micropul_print.rulebook.markup import WORD_GAP, markup, split_markup

from .pdftext import page_lines

TEXTS = PageTexts(lang="en", title="T", subject="S", author="A", running_head="H",
                  page_number="{page}", figure_label="Figure {number}")


def test_margins_mirror_on_even_pages() -> None:
    width, height = layout.BOOK_PAGE
    templates = {t.id: t for t in pages.templates(width, height, GEOMETRY)}
    odd, even = templates["odd"].frames, templates["even"].frames
    # Odd (right-hand) pages: binding on the left; even pages: binding on the right.
    assert odd[0]._x1 == pytest.approx(GEOMETRY.inner * mm)
    assert width - (odd[1]._x1 + odd[1]._width) == pytest.approx(GEOMETRY.outer * mm)
    assert even[0]._x1 == pytest.approx(GEOMETRY.outer * mm)
    assert width - (even[1]._x1 + even[1]._width) == pytest.approx(GEOMETRY.inner * mm)
    assert templates["first"].frames[1]._x1 == odd[0]._x1
    assert [t.autoNextPageTemplate for t in templates.values()] == ["even", "odd", "even"]


def test_a_book_is_laid_out_on_the_page_that_fits_every_paper() -> None:
    width, height = layout.BOOK_PAGE
    assert width == min(w for w, _ in PAPER_SIZES.values()) == PAPER_SIZES["a4"][0]
    assert height == min(h for _, h in PAPER_SIZES.values()) == PAPER_SIZES["letter"][1]


def test_every_paper_gets_the_same_pages_centred() -> None:
    """Laid out once, drawn on A4 and on Letter: each line in the same place on the
    page, the page centred on the paper (A4 is taller, Letter wider)."""
    text = " ".join(f"word{n}" for n in range(900))
    blocks: list[layout.PageBlock] = [layout.TitleBlock(("Title",)), layout.TextBlock(text)]
    pdfs = layout.render_papers(blocks, TEXTS, ["a4", "letter"])
    assert pdfs["a4"] == layout.render(blocks, TEXTS, "a4")
    dx, dy = layout.centred(layout.BOOK_PAGE, PAPER_SIZES["a4"])
    assert dx == 0 and dy == pytest.approx((297 - 279.4) / 2 * mm)
    dx, dy = layout.centred(layout.BOOK_PAGE, PAPER_SIZES["letter"])
    assert dx == pytest.approx((215.9 - 210) / 2 * mm) and dy == 0
    # page_lines gives positions on the laid-out page: the paper's offset taken off.
    placed = {paper: [[(line.text, line.column, round(line.x, 2), round(line.y, 1), line.body)
                       for line in page] for page in page_lines(pdf)]
              for paper, pdf in pdfs.items()}
    assert placed["a4"] == placed["letter"] and len(placed["a4"]) == 2
    for paper, pdf in pdfs.items():
        box = PdfReader(io.BytesIO(pdf)).pages[0].mediabox
        assert (float(box.width), float(box.height)) == pytest.approx(PAPER_SIZES[paper])



def test_markup_escapes_then_applies_bold_and_italic() -> None:
    assert markup("**Rule #1.** a < b & *c*") == "<b>Rule #1.</b> a &lt; b &amp; <i>c</i>"
    assert markup("2 * 3 = 6") == "2 * 3 = 6"
    assert markup("***A*** movement") == "<b><i>A</i></b> movement"
    assert markup("**a *b* c** *d **e** f*") == "<b>a <i>b</i> c</b> <i>d <b>e</b> f</i>"


def test_a_size_is_bound_to_its_numbers() -> None:
    assert markup("a 7 × 7 board") == "a 7\u00a0×\u00a07 board"
    assert markup("5 ×\n5") == "5 ×\n5"  # not a size as written: left alone


UNBREAKABLE = ("Micropul", "micropul-print", "Jean-François", "Lassonde")


def test_hyphenation_follows_the_language() -> None:
    assert styles.styles("pl")["body"].hyphenationLang.dictionary is not None
    assert styles.styles("xx")["body"].hyphenationLang.dictionary is None
    assert styles.styles("en")["h1"].hyphenationLang == ""  # headings never break words


def _breaks(hyphenate: hyphenation.Hyphenator, word: str) -> list[str]:
    return [head + ("" if head.endswith("-") else "-") + tail
            for head, tail in hyphenate(word)]


def test_english_breaks_are_the_us_dictionary_ones() -> None:
    """pyphen's default English (en_GB) gives "po-s-i-tion" and "ra-cing"."""
    english = hyphenation.Hyphenator("en", UNBREAKABLE)
    assert _breaks(english, "position") == ["posi-tion", "po-sition"]
    assert _breaks(english, "racing") == ["rac-ing"]
    assert _breaks(english, "solitaire") == ["soli-taire"]
    assert _breaks(english, "physics") == []
    assert _breaks(english, "diagonally") == ["diago-nally", "diag-onally", "di-agonally"]


@pytest.mark.parametrize("lang", [*dict.fromkeys(
    lang for game in games_with_rulebooks() for lang in rulebook_for(game).languages()), "xx"])
def test_words_with_a_hyphen_break_only_there_and_names_never(lang: str) -> None:
    hyphenate = hyphenation.Hyphenator(lang, UNBREAKABLE)
    assert _breaks(hyphenate, "print-and-play") == ["print-and-play", "print-and-play"]
    assert hyphenate("print-and-play") == [("print-and-", "play"), ("print-", "and-play")]
    assert hyphenate("Giga-Micropul") == [("Giga-", "Micropul")]
    for word in ("Jean-François", "JEAN-FRANÇOIS", "micropul-print", "Lassonde", "Micropul",
                 "micropul", "micropulu", "Micropulem"):
        assert hyphenate(word) == [], word


def test_no_dictionary_means_no_break_inside_a_word() -> None:
    assert hyphenation.Hyphenator("xx")("catalysts") == []


def test_a_language_without_a_dictionary_still_renders() -> None:
    pdf = layout.render([layout.HeadingBlock("Kichwa", 1),
                         layout.TextBlock("Maandishi marefu sana " * 40)],
                        PageTexts("sw", "T", "S", "A", "H", "{page}", "Fig. {number}"), "a4")
    assert pdf.startswith(b"%PDF")


def fake_laid(pages: int, tile_mm: float) -> layout.Laid:
    """A layout whose PDF is its figure size: what a try of _figure_size returns (on a
    page size, render draws the layout it chose on that page: the PDF stays)."""
    laid = layout.Laid(pages, tile_mm, layout.BOOK_PAGE, [], lambda *_: None, TEXTS,
                       [[0.0, 0.0]])
    laid._pdf = str(tile_mm).encode()
    return laid


@pytest.mark.parametrize(("pages", "chosen"), [
    ({18.0: 3, 16.5: 3, 15.0: 3}, 18.0),  # no page to save: the largest figures
    ({18.0: 4, 16.5: 3, 15.0: 3}, 16.5),  # the largest size that saves the page
    ({18.0: 4, 16.5: 4, 15.0: 3}, 15.0),
])
def test_figures_shrink_only_to_save_a_page(monkeypatch: pytest.MonkeyPatch,
                                            pages: dict[float, int], chosen: float) -> None:
    def fake_render(setting: object, tile_mm: float) -> layout.Laid:
        return fake_laid(pages[tile_mm], tile_mm)

    monkeypatch.setattr(layout, "_render", fake_render)
    assert tuple(pages) == layout.FIGURE_TILE_MM
    assert layout.render([], TEXTS, layout.BOOK_PAGE) == str(chosen).encode()


@pytest.mark.parametrize(("budget", "chosen", "tries"), [
    (3, 18.0, [18.0]),  # fits the pages the book is designed for: no other layout tried
    (2, 16.5, [18.0, 15.0, 16.5]),  # over budget: the search as without one
    (None, 16.5, [18.0, 15.0, 16.5]),
])
def test_a_book_within_its_page_budget_keeps_the_largest_figures(
        monkeypatch: pytest.MonkeyPatch, budget: int | None, chosen: float,
        tries: list[float]) -> None:
    pages = {18.0: 3, 16.5: 2, 15.0: 2}
    tried: list[float] = []

    def fake_render(setting: object, tile_mm: float) -> layout.Laid:
        tried.append(tile_mm)
        return fake_laid(pages[tile_mm], tile_mm)

    monkeypatch.setattr(layout, "_render", fake_render)
    assert layout.render([], TEXTS, layout.BOOK_PAGE, page_budget=budget) == str(chosen).encode()
    assert tried == tries


def test_a_figure_taller_than_a_column_is_scaled_to_fit() -> None:
    """20 tiles in a column would be 360 mm tall at 18 mm: shrunk, not a LayoutError."""
    tall = Drawing(30.0, 600.0, (Rect(0.0, 0.0, 30.0, 600.0, fill="#000000"),))
    pdf = layout.render([layout.FigureBlock(tall, "A tall figure", 30.0)], TEXTS, "letter")
    assert len(PdfReader(io.BytesIO(pdf)).pages) == 1


def test_every_line_of_a_bullet_item_starts_at_the_same_place() -> None:
    """A wrapped item's first line used to start 2.8 pt right of its other lines (the
    bullet ran past the indent), a wider gap after the bullet than on other items."""
    items = ("Short item.", "A long item that runs over several lines of the column, "
             "so that its first line and the lines after it can be compared. " * 3)
    pdf = layout.render([layout.BulletsBlock(items)], TEXTS, "a4")
    starts: dict[str, set[float]] = {"bullet": set(), "text": set()}

    def visit(text: str, cm: object, tm: list[float], *_: object) -> None:
        if text.strip() and not text.strip().isdigit():  # not the page number
            starts["bullet" if text.strip() == "•" else "text"].add(round(tm[4], 2))

    PdfReader(io.BytesIO(pdf)).pages[0].extract_text(visitor_text=visit)
    style = styles.styles("en")["bullet"]
    assert starts == {"bullet": {style.bulletIndent}, "text": {style.leftIndent}}


# Text after what a test looks at, so that its page is not the last (balanced) one.
FILL_A_PAGE = layout.TextBlock(" ".join(f"more{n}" for n in range(1200)))


def test_a_figure_that_does_not_fit_waits_while_text_fills_the_column() -> None:
    """A tall figure after a column of text goes to the top of the next column, and
    the paragraph after it fills the end of the first: no empty end of column."""
    tall = Drawing(30.0, 90.0, (Rect(0.0, 0.0, 30.0, 90.0, fill="#000000"),))
    blocks: list[layout.PageBlock] = [
        layout.TitleBlock(("Title",)),
        layout.TextBlock("First words of the book. " + "Words before. " * 160),
        layout.FigureBlock(tall, "A tall figure", 30.0),
        layout.TextBlock("Text after the figure. " * 3),
        FILL_A_PAGE,  # page 1 is not the last page, whose columns are balanced
    ]
    pdf = layout.render(blocks, TEXTS, "a4")
    places: list[tuple[str, float, float]] = []

    def visit(text: str, cm: list[float], tm: list[float], *_: object) -> None:
        if text.strip():
            places.append((text.strip(), cm[4] + tm[4], cm[5] + tm[5]))

    PdfReader(io.BytesIO(pdf)).pages[0].extract_text(visitor_text=visit)
    after = next(p for p in places if p[0].startswith("Text after the figure"))
    caption = next(p for p in places if p[0].startswith("Figure 1."))
    first = next(p for p in places if p[0].startswith("First words"))
    assert after[1] == pytest.approx(first[1])  # in the first column, under the text
    assert caption[1] > first[1] + 100  # the figure is in the second column


def _word_places(pdf: bytes) -> dict[str, tuple[int, float, float]]:
    """Each word of the PDF's text: (page, x, y) of the text run that holds it."""
    places: dict[str, tuple[int, float, float]] = {}
    for number, page in enumerate(PdfReader(io.BytesIO(pdf)).pages):
        def visit(text: str, cm: list[float], tm: list[float], *_: object,
                  number: int = number) -> None:
            # reportlab moves to each column with cm and to each line with Td.
            x, y = cm[4] + tm[4], cm[5] + tm[5]
            for word in text.split():
                places.setdefault(word, (number, x, y))
        page.extract_text(visitor_text=visit)
    return places


def test_a_heading_keeps_a_few_lines_under_it_not_the_whole_paragraph() -> None:
    """Near the foot of a column a heading stays when a few lines of its paragraph fit
    under it (the rest runs on into the next column), and never stays alone."""
    split_under_heading = 0
    for filler_words in range(200, 420, 12):
        filler = " ".join(f"filler{n}" for n in range(filler_words))
        paragraph = " ".join(f"word{n}" for n in range(120))  # about 12 lines
        pdf = layout.render([layout.TitleBlock(("Title",)), layout.TextBlock(filler),
                             layout.HeadingBlock("Heading", 1), layout.TextBlock(paragraph),
                             FILL_A_PAGE], TEXTS, "a4")
        places = _word_places(pdf)
        heading, first, last = places["Heading"], places["word0"], places["word119"]
        # The heading's column (page, left edge) is its paragraph's first line's.
        assert heading[:2] == pytest.approx(first[:2]) and heading[2] > first[2]
        if last[:2] != pytest.approx(first[:2]):
            split_under_heading += 1
    assert split_under_heading  # keepWithNext would have moved them all whole


def test_markup_cut_between_words_keeps_its_tags_balanced() -> None:
    words = WORD_GAP.split("<b>Rule #1.</b> One <i>tile\u00a0there and</i> here")
    assert words[3] == "<i>tile\u00a0there"  # a no-break space binds
    assert split_markup(words, 4) == ("<b>Rule #1.</b> One <i>tile\u00a0there</i>",
                                             "<i>and</i> here")
    assert split_markup(words, 1) == ("<b>Rule</b>", "<b>#1.</b> One <i>tile\u00a0there "
                                                            "and</i> here")


def test_no_column_ends_with_a_broken_word() -> None:
    """Long hyphenated words at every place of the column end: wherever reportlab
    would leave "hyphen-" at the foot of a column, the whole word goes on instead."""
    word = "incomprehensibilities"
    broken_inside = 0
    for filler_words in range(300, 420, 9):
        filler = " ".join(f"filler{n}" for n in range(filler_words))
        pdf = layout.render([layout.TitleBlock(("Title",)), layout.TextBlock(filler),
                             layout.TextBlock(" ".join([word] * 300))], TEXTS, "a4")
        columns = [[line.text for line in page if line.column == column]
                   for page in page_lines(pdf) for column in (0, 1)]
        assert len(columns) == 4 and all(columns)
        for *above, last in columns:
            assert not last.endswith("-"), last
            broken_inside += sum(line.endswith("-") for line in above)
    assert broken_inside  # the word does break inside columns


def test_a_paragraph_cut_at_a_column_end_is_cut_between_words() -> None:
    """Its first part holds whole words, its last line justified like the others."""
    words = [f"filler{n}" for n in range(330)] + ["incomprehensibilities"] * 99
    paragraph = flowables.BookParagraph(" ".join(words), styles.styles("en")["body"])
    width = 240.0
    cuts = set()
    for height in range(200, 400, 7):
        paragraph.wrap(width, 1e6)
        first, rest = paragraph.split(width, float(height))
        assert first._JustifyLast
        assert first.wrap(width, 1e6)[1] <= height
        assert (first.source + " " + rest.source).split() == words
        cuts.add(len(first.source.split()))
    assert len(cuts) > 10


def test_the_last_page_has_its_columns_balanced() -> None:
    """Text enough for a page and a half: the second page's two columns end at about
    the same height (the left one was full, the right one empty), on the same pages."""
    text = " ".join(f"word{n}" for n in range(900))
    blocks: list[layout.PageBlock] = [layout.TitleBlock(("Title",)), layout.TextBlock(text)]
    laid = layout.lay_out(blocks, TEXTS, "a4")
    unbalanced = layout._render(layout._Setting(blocks, TEXTS, layout.BOOK_PAGE, GEOMETRY),
                                18.0)
    assert laid.pages == unbalanced.pages == 2, unbalanced.fills
    left, right = unbalanced.fills[-1]
    assert right == 0 and left > 300
    left, right = laid.fills[-1]
    assert abs(left - right) <= styles.styles("en")["body"].leading
    assert unbalanced.fills[0] == laid.fills[0]  # the pages before are untouched


def test_a_one_column_book_is_not_balanced() -> None:
    one_column = layout.Geometry(columns=1)
    blocks: list[layout.PageBlock] = [layout.TextBlock(" ".join(["word"] * 400))]
    laid = layout.lay_out(blocks, TEXTS, "a4", one_column)
    assert len(laid.fills[-1]) == 1 and laid.pages == 1


def test_text_postponed_under_waiting_figures_does_not_stop_the_build() -> None:
    """A paragraph too short to split at the foot of a page waits for the next one,
    whose top a waiting figure fills: reportlab used to give up ("too large")."""
    tall = Drawing(30.0, 180.0, (Rect(0.0, 0.0, 30.0, 180.0, fill="#000000"),))
    blocks: list[layout.PageBlock] = [
        layout.TitleBlock(("Title",)),
        layout.TextBlock(" ".join(f"w{n}" for n in range(100))),
        layout.FigureBlock(tall, "A tall figure", 30.0),
        layout.TextBlock(" ".join(f"after{n}" for n in range(40))),
        layout.TextBlock(" ".join(f"more{n}" for n in range(300))),
    ]
    laid = layout.lay_out(blocks, TEXTS, (150 * mm, 157 * mm), layout.Geometry(columns=1))
    assert laid.pages > 2


def test_where_things_go_is_recorded() -> None:
    blocks: list[layout.PageBlock] = [layout.TitleBlock(("Title",)),
                                      layout.HeadingBlock("Heading", 1),
                                      layout.TextBlock("Some words. " * 20)]
    laid = layout.lay_out(blocks, TEXTS, "letter")
    assert [(p.block, p.page, p.column, p.kind) for p in laid.placed] == [
        (0, 1, 0, "title"), (1, 1, 0, "heading"), (2, 1, 0, "text"), (2, 1, 1, "text")]
    assert all(p.top > p.bottom for p in laid.placed)


def test_balancing_stops_at_the_taller_column(monkeypatch: pytest.MonkeyPatch) -> None:
    """A last page of 648 and 666 pt: columns tried shorter than 666 pt only (a try as
    tall as the taller column balances nothing); when none keeps the page count, the
    page stays as it was."""
    laid = fake_laid(3, 18.0)
    laid.fills = [[690.0, 690.0], [690.0, 690.0], [648.0, 666.0]]
    tried: list[float] = []

    def overflowing(setting: object, tile_mm: float,
                    short: tuple[int, float] | None = None,
                    earlier: object = None) -> layout.Laid:
        assert short is not None and short[0] == 3
        tried.append(short[1])
        over = fake_laid(4, tile_mm)
        over.fills = [*laid.fills, [12.0, 0.0]]
        return over

    monkeypatch.setattr(layout, "_render", overflowing)
    setting = layout._Setting([], TEXTS, layout.BOOK_PAGE, GEOMETRY)
    assert layout.balance(setting, laid) is laid
    assert tried and max(tried) < 666.0
    assert tried[0] == pytest.approx(657.0)  # the even share first


def test_a_layout_already_on_the_fewest_sheets_possible_is_the_only_try(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A booklet whose largest figures already fit on one sheet: no smaller size can
    need fewer, so no other layout is tried."""
    from micropul_print.rulebook.booklet import BOOKLET_GEOMETRY, BOOKLET_PAGE

    figure = Drawing(60.0, 30.0, (Rect(0.0, 0.0, 60.0, 30.0, fill="#000000"),))
    blocks: list[layout.PageBlock] = [
        layout.TitleBlock(("Title",)), layout.TextBlock(" ".join(["word"] * 300)),
        layout.FigureBlock(figure, "A figure", 30.0)]
    tried: list[float] = []
    real_render = layout._render

    def spy(setting: layout._Setting, tile_mm: float,
            short: tuple[int, float] | None = None,
            earlier: dict[int, int] | None = None) -> layout.Laid:
        tried.append(tile_mm)
        return real_render(setting, tile_mm, short, earlier)

    monkeypatch.setattr(layout, "_render", spy)
    laid = layout.lay_out(blocks, TEXTS, BOOKLET_PAGE, BOOKLET_GEOMETRY, pages_per_sheet=4)
    assert laid.pages <= 4 and tried == [layout.FIGURE_TILE_MM[0]]


@pytest.mark.parametrize("game", games_with_rulebooks())
@pytest.mark.parametrize("kind", ["book", "booklet"])
def test_the_fewest_pages_is_a_lower_bound(game: str, kind: str) -> None:
    """What _fewest_pages promises for the smallest figures, from a layout with the
    largest, never exceeds the pages the smallest really take (else a layout would be
    kept that another size could print on fewer sheets), and is not far below."""
    from micropul_print.catalogue.loader import load_catalogue, shipped_catalogue
    from micropul_print.draw.theme import load_theme
    from micropul_print.rulebook import check_rulebook, page_blocks
    from micropul_print.rulebook.booklet import BOOKLET_GEOMETRY, BOOKLET_PAGE

    catalogue = load_catalogue(shipped_catalogue(game))
    book, (locale,), figures = check_rulebook(catalogue, ["en"])
    blocks, texts = page_blocks(book, locale, figures, catalogue, load_theme("classic"))
    page, geometry = ((layout.BOOK_PAGE, GEOMETRY) if kind == "book"
                      else (BOOKLET_PAGE, BOOKLET_GEOMETRY))
    setting = layout._Setting(blocks, texts, page, geometry)
    largest, smallest = (layout._render(setting, size)
                         for size in (layout.FIGURE_TILE_MM[0], layout.FIGURE_TILE_MM[-1]))
    bound = layout._fewest_pages(setting, largest, layout.FIGURE_TILE_MM[-1])
    assert smallest.pages - 1 <= bound <= smallest.pages


def test_lines_kept_from_other_layouts_give_the_same_book() -> None:
    """A book laid out with the paragraphs parsed and broken by its other layouts
    (other figure sizes: layout.WrapCache) is the book laid out from scratch, byte for
    byte, and most of what it needed was in the cache already."""
    from .books import every_book

    _game, _lang, _book, blocks, texts = next(every_book())
    fresh = layout._Setting(blocks, texts, layout.BOOK_PAGE, GEOMETRY)
    warmed = layout._Setting(blocks, texts, layout.BOOK_PAGE, GEOMETRY)
    for tile_mm in layout.FIGURE_TILE_MM[1:]:
        layout._render(warmed, tile_mm)
    assert warmed.wraps.parsed and warmed.wraps.lines
    kept = len(warmed.wraps.lines)
    tile_mm = layout.FIGURE_TILE_MM[0]
    assert layout._render(warmed, tile_mm).pdf == layout._render(fresh, tile_mm).pdf
    # Most of its paragraphs' lines were the other layouts' (a paragraph split at
    # another place is broken anew).
    assert len(warmed.wraps.lines) - kept < len(fresh.wraps.lines) / 4


def test_a_booklet_laid_out_after_its_book_parses_no_text_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A book and its booklet set the same texts in the same styles in columns of other
    widths: the booklet takes the book's parses (layout._parses) and gives the PDF it
    gives from scratch, byte for byte."""
    from micropul_print.rulebook import booklet
    from micropul_print.rulebook import reportlab_adapter as private

    from .books import every_book

    _game, _lang, _book, blocks, texts = next(every_book())
    monkeypatch.setattr(layout, "_PARSED", {})
    fresh = booklet.lay_out(blocks, texts, "a4").pdf
    monkeypatch.setattr(layout, "_PARSED", {})
    layout.lay_out(blocks, texts, "a4")
    parsed: list[str] = []
    taken = private.parse_state

    def spy(paragraph: object, style: object) -> object:
        parsed.append(getattr(style, "name", ""))
        return taken(paragraph, style)

    monkeypatch.setattr(private, "parse_state", spy)
    assert booklet.lay_out(blocks, texts, "a4").pdf == fresh
    # Only what a book has not: the cover's lines and caption.
    assert set(parsed) <= {"cover", "tagline", "version", "cover caption"}


def test_a_book_drawn_once_for_two_papers_gives_what_drawing_on_each_gives() -> None:
    """Laid.pdfs draws the pages once and formats the document again for the other
    paper: the bytes are those of drawing the book on that paper (every game, every
    language: Polish and German set letters beyond ASCII in their subsets)."""
    from micropul_print.rulebook.document import centred

    from .books import every_book

    papers = [layout.PAPER_SIZES["a4"], layout.PAPER_SIZES["letter"],
              (500.0, 820.0), layout.PAPER_SIZES["a4"]]
    for game, lang, _book, blocks, texts in every_book():
        laid = layout.lay_out(blocks, texts, layout.BOOK_PAGE)
        once = laid.pdfs(papers)
        each = [laid.on(paper).pdf for paper in papers]
        assert once == each, (game, lang)
        assert once[0] == once[3] and once[0] != once[1]
        assert centred(laid.page_size, papers[2]) != centred(laid.page_size, papers[0])


def test_the_papers_differ_in_their_page_sizes_and_centring_alone() -> None:
    from pypdf import PdfReader

    from .books import every_book

    _game, _lang, _book, blocks, texts = next(every_book())
    laid = layout.lay_out(blocks, texts, layout.BOOK_PAGE)
    a4, letter = (PdfReader(io.BytesIO(pdf)) for pdf in laid.pdfs(
        [layout.PAPER_SIZES["a4"], layout.PAPER_SIZES["letter"]]))
    assert len(a4.pages) == len(letter.pages) == laid.pages
    for page_a4, page_letter in zip(a4.pages, letter.pages, strict=True):
        assert [float(v) for v in page_letter.mediabox] == [0, 0, 612, 792]
        contents_a4, contents_letter = page_a4.get_contents(), page_letter.get_contents()
        assert contents_a4 is not None and contents_letter is not None
        lines_a4 = contents_a4.get_data().split(b"\n")
        lines_letter = contents_letter.get_data().split(b"\n")
        differ = [(one, other) for one, other in zip(lines_a4, lines_letter, strict=True)
                  if one != other]
        assert differ == [(b"1 0 0 1 0 24.94488 cm", b"1 0 0 1 8.362205 0 cm")]


def test_a_ruling_box_never_passes_a_heading_nor_its_anchor() -> None:
    """Wherever the column ends around it, a ruling box is set after the paragraph it
    rules on and before the next heading, a subheading too: where it does not fit at
    the column's foot it may let the text after it in its section go first, never a
    heading and what follows it."""
    waited = 0
    for filler_words in range(120, 300, 8):
        filler = " ".join(f"filler{n}" for n in range(filler_words))
        blocks: list[layout.PageBlock] = [
            layout.TitleBlock(("Title",)), layout.TextBlock(filler),
            layout.TextBlock("The rule it rules on. " * 6),
            layout.RulingBlock("Ruling", "What this edition decides. " * 14, anchor=2),
            layout.TextBlock("More of its section. " * 4),
            layout.HeadingBlock("Next", 2), layout.TextBlock("Text of the next part. " * 8),
            FILL_A_PAGE]
        laid = layout.lay_out(blocks, TEXTS, "a4")

        def first(block: int, laid: layout.Laid = laid) -> tuple[int, int, float]:
            return min((p.page, p.column, -p.top) for p in laid.placed if p.block == block)

        def last(block: int, laid: layout.Laid = laid) -> tuple[int, int, float]:
            return max((p.page, p.column, -p.top) for p in laid.placed if p.block == block)

        assert last(2) < first(3) < first(5), filler_words
        waited += first(4) < first(3)
    assert waited  # some boxes did not fit at a column's foot and let text go first
