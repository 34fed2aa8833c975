"""The rulebook's pages, set with reportlab platypus: two columns under a title on the
first page (or, for a booklet, one column after a cover page), running head and page
numbers, margins mirrored for duplex printing (the wide margin is always on the binding
side), Lato embedded as subsets, reproducible bytes. Game-independent: it sets texts,
figures and legend rows that it is given.

Typesetting rules beyond reportlab's own: no column ends inside a word (a paragraph is
split between words there), figures float to the top of the next column rather than
leave a column half empty, and the columns of the last page are balanced.

The work is shared among the rulebook package's modules: :mod:`.blocks` (what the
layout is given), :mod:`.markup`, :mod:`.styles`, :mod:`.hyphenation`,
:mod:`.flowables`, :mod:`.story` (blocks -> flowables), :mod:`.pages` (templates and
furniture), :mod:`.document` (a layout pass and its record) and
:mod:`.reportlab_adapter` (every use of reportlab's private state). This module fits a
book: the figure size, the balanced last page, the paper.
"""

from __future__ import annotations

import functools
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from reportlab.lib.units import mm
from reportlab.platypus import LayoutError

from micropul_print.backends.pdf import FONT_NAMES, register_fonts
from micropul_print.base.paper import PAPERS
from micropul_print.rulebook import reportlab_adapter as private
from micropul_print.rulebook.blocks import (
    GEOMETRY,
    LEGEND_PICTURE_MM,
    BulletsBlock,
    FigureBlock,
    Geometry,
    HeadingBlock,
    LegendBlock,
    PageBlock,
    PageTexts,
    Picture,
    RulingBlock,
    TextBlock,
    TitleBlock,
)
from micropul_print.rulebook.document import (
    FloatingDocTemplate,
    Laid,
    LayoutCanvas,
    PageRecord,
    Placed,
    centred,
    common_page,
)
from micropul_print.rulebook.flowables import WrapCache
from micropul_print.rulebook.pages import column_width, page_furniture, short_template, templates
from micropul_print.rulebook.story import (
    SPACE_ABOVE_PICTURE,
    build_story,
    figure_width,
    next_move_up,
    run_start,
    set_before,
)
from micropul_print.rulebook.styles import styles

# The block model and the record of a layout, as the rulebook's callers name them.
__all__ = [
    "BOOK_PAGE", "FIGURE_TILE_MM", "GEOMETRY", "LEGEND_PICTURE_MM", "PAPER_SIZES",
    "BulletsBlock", "FigureBlock", "Geometry", "HeadingBlock", "Laid", "LegendBlock",
    "PageBlock", "PageRecord", "PageTexts", "Picture", "Placed", "RulingBlock", "TextBlock",
    "TitleBlock",
    "balance", "centred", "common_page", "lay_out", "render", "render_papers",
]

PAPER_SIZES: dict[str, tuple[float, float]] = {paper.name: paper.size
                                               for paper in PAPERS.values()}

# Figures show tiles at 60 % of their printed size, or, where that costs a page
# (a last page holding a few lines), at the largest of these that does not.
FIGURE_TILE_MM = (18.0, 16.5, 15.0)


@dataclass(frozen=True)
class _Setting:
    """What every layout of one book shares; only the figure size and the height of
    the last page's columns change between them."""

    blocks: Sequence[PageBlock]
    texts: PageTexts
    page_size: tuple[float, float]  # laid out on
    geometry: Geometry
    # The paragraphs' line breaks, shared by every layout of the book (each try is a
    # whole layout; a paragraph's lines depend only on its text, style and width).
    wraps: WrapCache = field(default_factory=WrapCache, compare=False)


# A book is laid out on the largest page that fits on both papers and drawn centred
# on either: the same pages, line for line, whichever paper a reader prints on.
BOOK_PAGE = common_page(list(PAPER_SIZES.values()))


def render(blocks: Sequence[PageBlock], texts: PageTexts,
           paper: str | tuple[float, float], geometry: Geometry = GEOMETRY, *,
           page_budget: int | None = None, pages_per_sheet: int = 1) -> bytes:
    """The rulebook as PDF bytes; identical input gives identical bytes."""
    return lay_out(blocks, texts, paper, geometry, page_budget=page_budget,
                   pages_per_sheet=pages_per_sheet).pdf


def render_papers(blocks: Sequence[PageBlock], texts: PageTexts, papers: Sequence[str], *,
                  page_budget: int | None = None) -> dict[str, bytes]:
    """The rulebook as PDF bytes on each of ``papers`` (names of PAPER_SIZES), laid out
    once (on BOOK_PAGE) and drawn once (Laid.pdfs)."""
    laid = lay_out(blocks, texts, BOOK_PAGE, page_budget=page_budget)
    return dict(zip(papers, laid.pdfs([PAPER_SIZES[paper] for paper in papers]),
                    strict=True))


def lay_out(blocks: Sequence[PageBlock], texts: PageTexts,
            paper: str | tuple[float, float], geometry: Geometry = GEOMETRY, *,
            page_budget: int | None = None, pages_per_sheet: int = 1) -> Laid:
    """The rulebook laid out: where everything went, and its PDF (:attr:`Laid.pdf`)
    on ``paper``.

    ``paper`` is a name of PAPER_SIZES or a page size in points. A paper named gets
    its pages laid out on BOOK_PAGE, centred on it (what fits on every paper: the book
    then reads the same on all); a size, on the size itself. :meth:`Laid.on` draws the
    same layout on another paper.

    Figures get the largest tile size of FIGURE_TILE_MM that needs no more sheets than
    the smallest (a sheet is ``pages_per_sheet`` pages: 1 for a book, 4 for a booklet):
    a translation that runs a few lines onto an extra page is set with slightly
    smaller figures instead. A book that fits in ``page_budget`` pages with the
    largest figures is kept without trying the others (each try is a whole layout).
    The last page's columns are then balanced (:func:`balance`)."""
    setting = _Setting(blocks, texts, BOOK_PAGE if isinstance(paper, str) else paper,
                       geometry, WrapCache(parsed=_parses(texts)))
    laid = balance(setting, _figure_size(setting, page_budget, pages_per_sheet))
    return laid.on(PAPER_SIZES[paper]) if isinstance(paper, str) else laid


# Paragraphs as parsed, per language (and its unbreakable words), for every book laid
# out in this process: a book and its booklet, set in columns of other widths, parse
# the same texts in the same styles (a paragraph's parse holds no width). At most
# PARSED_LANGUAGES languages are kept, the oldest dropped first, each of at most
# PARSED_TEXTS paragraphs (a long watch sees many versions of a text).
_PARSED: dict[tuple[str, tuple[str, ...]], dict[tuple[str, str, str], dict[str, Any]]] = {}
PARSED_LANGUAGES, PARSED_TEXTS = 12, 2_000


def _parses(texts: PageTexts) -> dict[tuple[str, str, str], dict[str, Any]]:
    key = (texts.lang, tuple(texts.unbreakable))
    parsed = _PARSED.pop(key, None)
    if parsed is None or len(parsed) > PARSED_TEXTS:
        parsed = {}
    _PARSED[key] = parsed  # the most recent last
    while len(_PARSED) > PARSED_LANGUAGES:
        del _PARSED[next(iter(_PARSED))]
    return parsed


def _figure_size(setting: _Setting, page_budget: int | None, pages_per_sheet: int) -> Laid:
    def sheets(laid: Laid) -> int:
        return -(-laid.pages // pages_per_sheet)

    largest, smallest = FIGURE_TILE_MM[0], FIGURE_TILE_MM[-1]
    laid = _render(setting, largest)
    if page_budget is not None and laid.pages <= page_budget:
        return laid
    if sheets(laid) <= -(-_fewest_pages(setting, laid, smallest) // pages_per_sheet):
        return laid  # no figure size could need fewer sheets: nothing else to try
    fewest = _render(setting, smallest)
    if sheets(laid) <= sheets(fewest):
        return laid
    for tile_mm in FIGURE_TILE_MM[1:-1]:
        laid = _render(setting, tile_mm)
        if sheets(laid) <= sheets(fewest):
            return laid
    return fewest


# What a column may hold more or less of the same content once laid out otherwise
# (points): a space before or after dropped or kept where the column breaks.
COLUMN_SPACING_SLACK = 12.4


def _fewest_pages(setting: _Setting, laid: Laid, tile_mm: float) -> int:
    """A lower bound on the pages the book needs with figure tiles ``tile_mm`` wide,
    from ``laid`` (a layout with larger figures): the column height it fills, less what
    the smaller figures save and COLUMN_SPACING_SLACK per column, packed with no gap
    into the pages' columns. Lets a layout that already needs no more sheets than that
    be kept without laying out the book again (each try is a whole layout)."""
    g = setting.geometry
    if _column_height(setting, 2) <= 0:  # margins taller than the page: no bound
        return 1
    width = column_width(setting.page_size[0], g)
    saved = 0.0
    for block in setting.blocks:
        if isinstance(block, FigureBlock):
            ratio = block.drawing.height / block.drawing.width * mm
            saved += ratio * (figure_width(block, laid.tile_mm, width)
                              - figure_width(block, tile_mm, width))
    columns = sum(len(page) for page in laid.fills)
    needed = sum(sum(page) for page in laid.fills) - saved - COLUMN_SPACING_SLACK * columns
    pages, room = 0, 0.0
    while pages == 0 or room < needed:
        pages += 1
        if not (g.cover and pages == 1):  # a cover page holds no column
            room += g.columns * max(0.0, _column_height(setting, pages))
    return pages


# Balancing tries columns at least this much taller each time (points): half a line.
BALANCE_STEP = 6.0


def balance(setting: _Setting, laid: Laid) -> Laid:
    """``laid`` again with the columns of its last page shortened to about half their
    content each (the left one full, the right one empty before), the shortest height
    that keeps the page count: tried from the even share (or the tallest figure there)
    upward, by BALANCE_STEP or by half what ran over, below the taller column's height.
    A one-column book, or a last page already balanced, is returned as it is."""
    fills = laid.fills[-1]
    if len(fills) < 2 or max(fills) - min(fills) <= 2 * BALANCE_STEP:
        return laid
    figures: dict[int | None, list[Placed]] = {}
    for placed in laid.placed:
        if placed.page == laid.pages and placed.kind == "figure":
            figures.setdefault(placed.block, []).append(placed)
    tallest = max((max(p.top for p in parts) - min(p.bottom for p in parts)
                   for parts in figures.values()), default=0.0)
    # Columns as tall as the taller one already is would balance nothing: the tries
    # stop there (each try is a whole layout).
    tallest_column = min(_column_height(setting, laid.pages), max(fills))
    height = max(sum(fills) / len(fills), tallest + BALANCE_STEP)
    while height < tallest_column:
        try:
            tried = _render(setting, laid.tile_mm, short=(laid.pages, height),
                            earlier=laid.earlier)
        except LayoutError:  # something taller than the columns tried
            height += 4 * BALANCE_STEP
            continue
        if tried.pages == laid.pages:
            return tried
        over = sum(sum(page) for page in tried.fills[laid.pages:])
        height += max(BALANCE_STEP, over / len(fills))
    return laid


def _column_height(setting: _Setting, page: int) -> float:
    g = setting.geometry
    height = setting.page_size[1] - (g.top + g.bottom) * mm
    return float(height - (g.title_height * mm if page == 1 and not g.cover else 0))


# How many times a layout is tried again with figures set earlier (each try is a
# whole layout).
MAX_PULLS = 2


def _render(setting: _Setting, tile_mm: float, short: tuple[int, float] | None = None,
            earlier: Mapping[int, int] | None = None) -> Laid:
    """The book laid out (not drawn) with figure tiles ``tile_mm`` wide; ``short`` =
    (page, height): that page's columns are only ``height`` points tall.

    A figure that waited until its section ended is set before the next heading, on a
    new page, leaving the foot of the page before it empty. Such figures are tried
    earlier in their sections: at the latest place in the section where the column
    had room for them (:func:`_fitting_move`), else one place earlier
    (:func:`story.next_move_up`), up to MAX_PULLS times. Of the layouts with the
    fewest pages, the one whose pages but the last end least short
    (:func:`_empty_feet`) is kept; of those, the first. ``earlier``: the
    moves to start from (those of a layout being balanced)."""
    moves = dict(earlier or {})
    best = laid = _render_once(setting, tile_mm, short, moves)
    for _ in range(MAX_PULLS):
        further = {f: _fitting_move(setting, laid, f, moves.get(f, 0))
                   for f in laid.flushed
                   if f is not None}
        if not any(further.values()):
            break
        moves = _in_order(setting.blocks, {**moves, **{
            f: count for f, count in further.items() if count is not None}})
        laid = _render_once(setting, tile_mm, short, moves)
        if (laid.pages, _empty_feet(setting, laid)) < (best.pages, _empty_feet(setting, best)):
            best = laid
    return best


def _in_order(blocks: Sequence[PageBlock], moves: dict[int, int]) -> dict[int, int]:
    """``moves`` with each figure of a run moved at least as far as those after it in
    the run: the figures stay in their numbered order."""
    ordered = dict(moves)
    for figure in sorted(moves, reverse=True):
        for other in range(run_start(blocks, figure), figure):
            ordered[other] = max(ordered.get(other, 0), ordered[figure])
    return dict(sorted(ordered.items()))


def _empty_feet(setting: _Setting, laid: Laid) -> int:
    """How badly the columns of every page but the last end short: the sum of the
    squares of the room (points, rounded) left empty at their feet. Squared, one big
    gap weighs more than the same room spread over a few pages as a line or two each."""
    badness = 0
    for page, fills in enumerate(laid.fills[:-1], start=1):
        height = _column_height(setting, page)
        badness += sum(round(max(0.0, height - fill)) ** 2 for fill in fills)
    return badness


def _fitting_move(setting: _Setting, laid: Laid, figure: int, count: int) -> int | None:
    """How many blocks earlier than its run the figure ``blocks[figure]`` (set
    ``count`` blocks earlier in ``laid``) goes next (:func:`story.set_before`): the
    fewest, above ``count``, that put it before a block whose column, where that
    block began in ``laid``, had room for the whole figure; else the next place
    :func:`story.next_move_up` allows."""
    parts = [p for p in laid.placed if p.block == figure and p.kind == "figure"]
    first = next_move_up(setting.blocks, figure, count)
    if not parts:
        return first
    needed = max(p.top for p in parts) - min(p.bottom for p in parts) + SPACE_ABOVE_PICTURE
    foot = setting.geometry.bottom * mm
    further = first
    while further is not None:
        starts = [p for p in laid.placed if p.block == set_before(setting.blocks, figure,
                                                                   further)]
        if starts:
            start = min(starts, key=lambda p: (p.page, p.column, -p.top))
            if start.top - foot >= needed:
                return further
        further = next_move_up(setting.blocks, figure, further)
    return first


def _render_once(setting: _Setting, tile_mm: float, short: tuple[int, float] | None,
                 earlier: Mapping[int, int]) -> Laid:
    register_fonts()
    texts, geometry = setting.texts, setting.geometry
    page_width, page_height = setting.page_size
    book_styles = styles(texts.lang, texts.unbreakable)
    page_templates = templates(page_width, page_height, geometry)
    short_page = None
    if short is not None:
        page, height = short
        template = short_template(page_templates, page, height)
        page_templates.append(template)
        short_page = (page, template.id)
    document = FloatingDocTemplate(
        io.BytesIO(), pagesize=(page_width, page_height), invariant=1,
        short_page=short_page, initialFontName=FONT_NAMES["regular"])
    document.addPageTemplates(page_templates)
    story = build_story(setting.blocks, book_styles, texts, geometry,
                        column_width(page_width, geometry), tile_mm, earlier,
                        setting.wraps)
    private.without_saving(document)
    document.build(story, canvasmaker=LayoutCanvas)
    records = document.canv.records
    if len(records) != document.page:
        raise AssertionError(f"{len(records)} pages recorded, {document.page} laid out")
    return Laid(int(document.page), tile_mm, setting.page_size, records,
                functools.partial(page_furniture, geometry=geometry, texts=texts), texts,
                document.fills, document.placed, earlier=dict(earlier),
                flushed=list(document.flushed))

