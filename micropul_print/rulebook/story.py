"""The rulebook's blocks -> platypus's story: the title (or a booklet's cover), headings
that keep a few lines below them, paragraphs and bullets, and the figures and the
legend as floats with their numbered captions."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from xml.sax.saxutils import escape

from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import (
    CondPageBreak,
    Flowable,
    FrameBreak,
    KeepTogether,
    PageBreak,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from micropul_print.backends.pdf import FONT_NAMES
from micropul_print.draw.primitives import Group, Primitive
from micropul_print.rulebook.blocks import (
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
from micropul_print.rulebook.flowables import (
    BookParagraph,
    CachedParagraph,
    Float,
    PictureFlowable,
    WrapCache,
    tagged,
)
from micropul_print.rulebook.markup import markup
from micropul_print.rulebook.nobreak import no_break
from micropul_print.rulebook.styles import RULE

# Lines of text a heading keeps below it in its column (else it waits for the next).
HEADING_KEEPS_LINES = 3
LEGEND_ROW_PADDING = 1.2  # points above and below each legend row
MAX_FIGURE_HEIGHT_MM = 110.0  # under half a column on A4 and Letter

# The cover picture: at most this wide and tall (mm).
COVER_PICTURE_MM = (100.0, 80.0)
# Between the title lines and the cover picture (its caption below must stay above
# the cover's foot).
COVER_PICTURE_GAP_MM = 10.0


def _shapes(items: Sequence[Primitive]) -> int:
    return sum(_shapes(item.items) if isinstance(item, Group) else 1 for item in items)


def cover_figure(blocks: Sequence[PageBlock]) -> FigureBlock | None:
    """The figure a booklet's cover shows, the most of the game at a glance: the
    largest in tiles, and of those the one drawn with the most shapes (e.g. a whole
    board at the end of a game)."""
    figures = [b for b in blocks if isinstance(b, FigureBlock)]
    if not figures:
        return None
    return max(figures, key=lambda f: (round(f.drawing.width * f.drawing.height
                                             / f.tile_size ** 2, 3), _shapes(f.drawing.items)))


def _cover(block: TitleBlock, blocks: Sequence[PageBlock],
           styles: dict[str, ParagraphStyle], texts: PageTexts,
           frame_width: float, wraps: WrapCache | None = None) -> list[Flowable]:
    """Page 1 of a booklet: the title lines, then the cover figure under its own
    numbered caption (what its frame and rings mark: the figure's caption inside the
    booklet, in the book's language), then a page break."""
    name, *rest = block.lines
    lang = texts.lang
    story: list[Flowable] = [Spacer(1, 22 * mm),
                             tagged(CachedParagraph(_markup(name, lang), styles["cover"],
                                                    wraps=wraps), None, "title")]
    for i, line in enumerate(rest):
        story.append(CachedParagraph(_markup(line, lang),
                                     styles["tagline" if i == 0 else "version"], wraps=wraps))
    figure = cover_figure(blocks)
    if figure is not None:
        width_mm, height_mm = COVER_PICTURE_MM
        size = min(width_mm, frame_width / mm,
                   height_mm * figure.drawing.width / figure.drawing.height)
        number = 1 + [b for b in blocks
                      if isinstance(b, FigureBlock | LegendBlock)].index(figure)
        indent = (frame_width - size * mm) / 2
        style = ParagraphStyle("cover caption", parent=styles["caption"],
                               leftIndent=indent, rightIndent=indent, spaceBefore=2)
        caption = _caption(figure.caption, {"caption": style}, texts, number, wraps)
        story += [Spacer(1, COVER_PICTURE_GAP_MM * mm),
                  PictureFlowable(Picture(figure.drawing, size)), caption]
    story.append(PageBreak())
    return story


# Every layout of a book (each figure size, pull and balancing try) builds its story
# anew from the same texts: each is marked up once (a twelfth of a layout pass).
@functools.lru_cache(maxsize=4096)
def _markup(text: str, lang: str) -> str:
    """``text`` as paragraph markup, with ``lang``'s no-break rule."""
    return markup(text, no_break(lang))


def run_start(blocks: Sequence[PageBlock], figure: int) -> int:
    """The first of the figures (and legends) that stand one after another, without
    text between them, up to ``blocks[figure]``: a run of figures moves as one."""
    first = figure
    while first > 0 and isinstance(blocks[first - 1], FigureBlock | LegendBlock):
        first -= 1
    return first


def set_before(blocks: Sequence[PageBlock], figure: int, count: int) -> int:
    """The block that the figure ``blocks[figure]``, set ``count`` blocks earlier, is
    set just before: ``count`` blocks before its run (:func:`run_start`); itself for 0."""
    return run_start(blocks, figure) - count if count else figure


def reading_order(blocks: Sequence[PageBlock], earlier: Mapping[int, int]) -> list[int]:
    """The blocks' indexes in the order they are set: each figure of ``earlier`` just
    before the block ``count`` blocks before its run (:func:`set_before`;
    :func:`can_move_up` says how far it may go). The figures of a run keep their order
    if the earlier ones move at least as far as the later ones."""
    order = list(range(len(blocks)))
    for figure, count in sorted(earlier.items()):
        if count:
            order.remove(figure)
            order.insert(order.index(set_before(blocks, figure, count)), figure)
    return order


def can_move_up(blocks: Sequence[PageBlock], figure: int, count: int) -> bool:
    """Whether the figure ``blocks[figure]`` may be set ``count`` blocks before its run
    of figures (:func:`run_start`): over paragraphs, lists and subheadings of its own
    section only (no section heading, figure or legend), never right under a heading,
    nor between a paragraph and the list it leads into. A ruling box moves so too,
    but never above the block it rules on (its anchor)."""
    first = run_start(blocks, figure)
    if count < 1 or first - count < 1:
        return False
    block = blocks[figure]
    if isinstance(block, RulingBlock) and first - count <= block.anchor:
        return False
    passed, before = blocks[first - count:first], blocks[first - count - 1]
    if not all(_passable(b) for b in passed):
        return False
    return not (isinstance(before, HeadingBlock | TitleBlock)
                or (isinstance(passed[0], BulletsBlock) and isinstance(before, TextBlock)))


def _passable(block: PageBlock) -> bool:
    return (isinstance(block, TextBlock | BulletsBlock | RulingBlock)
            or (isinstance(block, HeadingBlock) and block.level > 1))


def next_move_up(blocks: Sequence[PageBlock], figure: int, count: int) -> int | None:
    """The next count of blocks, above ``count``, that the figure ``blocks[figure]``
    may be set earlier by (:func:`can_move_up`), None if there is none."""
    first = run_start(blocks, figure)
    for further in range(count + 1, first):
        if can_move_up(blocks, figure, further):
            return further
        if not _passable(blocks[first - further]):
            return None
    return None


def build_story(blocks: Sequence[PageBlock], styles: dict[str, ParagraphStyle],
                texts: PageTexts, geometry: Geometry, column_width: float,
                tile_mm: float, earlier: Mapping[int, int] | None = None,
                wraps: WrapCache | None = None) -> list[Flowable]:
    """The story of ``blocks``, in :func:`reading_order` (``earlier``); each flowable
    tagged with the index of its block in ``blocks``. ``wraps``: the line breaks of
    the book's other layouts (:data:`flowables.WrapCache`), shared with them."""
    story: list[Flowable] = []
    figure_number = 0
    previous: int | None = None
    lang = texts.lang
    for index in reading_order(blocks, earlier or {}):
        block = blocks[index]
        before, previous = previous, index
        if isinstance(block, TitleBlock):
            if geometry.cover:
                story.extend(_cover(block, blocks, styles, texts,
                                    column_width * geometry.columns, wraps))
                continue
            name, *rest = block.lines
            story.append(tagged(CachedParagraph(_markup(name, lang), styles["title"],
                                                wraps=wraps), index, "title"))
            for i, line in enumerate(rest):
                story.append(CachedParagraph(_markup(line, lang),
                                             styles["tagline" if i == 0 else "version"],
                                             wraps=wraps))
            story.append(FrameBreak())
        elif isinstance(block, HeadingBlock):
            style = styles["h1" if block.level == 1 else "h2"]
            heading = tagged(CachedParagraph(_markup(block.text, lang), style, wraps=wraps),
                             index, "heading")
            # A heading starts a new column unless a few lines of what follows fit
            # under it. (reportlab's keepWithNext would carry the whole next paragraph
            # along, leaving the end of a column empty.) The CondPageBreak decides
            # before the heading; keep_below again when it comes (handle_flowable):
            # waiting figures may have filled the top of a new column in between.
            _, height = heading.wrap(column_width, 1000)
            heading.keep_below = (style.spaceBefore + height + style.spaceAfter
                                  + HEADING_KEEPS_LINES * styles["body"].leading)
            section = CondPageBreak(heading.keep_below)
            # Waiting figures go before a section's heading rather than on a later page;
            # a waiting ruling box before any heading (it stays in its section).
            section.starts_section = block.level == 1
            section.ends_subsection = True
            story.append(section)
            story.append(heading)
        elif isinstance(block, TextBlock):
            story.append(tagged(BookParagraph(_markup(block.text, lang),
                                               styles["lead" if block.lead else "body"],
                                               wraps=wraps),
                                 index, "text"))
        elif isinstance(block, BulletsBlock):
            items = [tagged(BookParagraph(_markup(item, lang), styles["bullet"], bulletText="•",
                                          wraps=wraps), index, "text")
                     for item in block.items]
            if before == index - 1 and isinstance(blocks[index - 1], TextBlock):
                # The paragraph before a list leads into it ("Then each player
                # scores:"): kept in one column with the list's first item, and a
                # heading over them keeps both under it. No figure comes between the
                # list's items either (FloatingDocTemplate: ``continues_list``).
                together = [story.pop(), items[0]]
                story.append(KeepTogether(together))
                _keep_below(story, together, column_width)
                for item in items[1:]:
                    item.continues_list = True
                story.extend(items[1:])
            else:
                story.extend(items)
        elif isinstance(block, RulingBlock):
            # One paragraph, its heading the first line, in one box: never split at a
            # column's end. Where the column has no room for the whole box, it waits
            # for the next column as a figure does, and the text after it in its
            # section fills this one (a box, like a figure, stands apart from the text).
            ruling = BookParagraph(f"<b>{_markup(block.heading, lang)}</b><br/>"
                                   f"{_markup(block.text, lang)}", styles["ruling"],
                                   wraps=wraps)
            ruling.keep_whole = True
            # At a column's top, its tint (not its text) starts where text does.
            ruling.top_inset = ruling.style.borderPadding
            boxed = Float([tagged(ruling, index, "text")])
            boxed.block = index
            # It never goes past the next heading (FloatingDocTemplate), and is never
            # set before its anchor (can_move_up): it follows the rule it rules on.
            boxed.stays_in_section = True
            story.append(boxed)
        elif isinstance(block, LegendBlock):
            figure_number += 1
            story.append(_legend(block, styles, texts, figure_number, column_width, index,
                                 wraps))
        else:
            figure_number += 1
            picture = Picture(block.drawing, figure_width(block, tile_mm, column_width))
            figure = Float([
                _space_above_picture(),
                tagged(PictureFlowable(picture), index, "figure"),
                tagged(_caption(block.caption, styles, texts, figure_number, wraps), index,
                       "figure"),
            ])
            figure.block = index
            story.append(figure)
    return story


# Between the text above a figure (or the legend) and its picture (points).
SPACE_ABOVE_PICTURE = 2.0


def _space_above_picture() -> Spacer:
    """The space above a figure's picture, none at a column's top: there the picture
    starts where text does (PlacingFrame's ``top_inset``)."""
    space = Spacer(1, SPACE_ABOVE_PICTURE)
    space.top_inset = -SPACE_ABOVE_PICTURE
    return space


def _keep_below(story: list[Flowable], items: list[Flowable], column_width: float) -> None:
    """A heading just before ``items`` (kept together, the last of ``story``) keeps all
    of them below itself, not only a few lines: never left alone at a column's foot."""
    if len(story) < 3 or not hasattr(story[-2], "keep_below"):
        return
    heading, condition = story[-2], story[-3]
    style = heading.style
    _, height = heading.wrap(column_width, 1000)
    below = sum(item.wrap(column_width, 1e6)[1] + item.getSpaceBefore() + item.getSpaceAfter()
                for item in items)
    heading.keep_below = condition.height = (style.spaceBefore + height + style.spaceAfter
                                             + below)


def figure_width(block: FigureBlock, tile_mm: float, column_width: float) -> float:
    """How wide (mm) a figure is drawn with tiles ``tile_mm`` wide: never wider than a
    column, nor taller than MAX_FIGURE_HEIGHT_MM (a tall figure that fits no frame
    would stop the build)."""
    width = tile_mm / block.tile_size * block.drawing.width
    tallest = MAX_FIGURE_HEIGHT_MM * block.drawing.width / block.drawing.height
    return float(min(width, column_width / mm, tallest))


def _caption(text: str, styles: dict[str, ParagraphStyle], texts: PageTexts,
             number: int, wraps: WrapCache | None = None) -> Paragraph:
    label, lang = texts.figure_label.replace("{number}", str(number)), texts.lang
    return CachedParagraph(f"<b>{escape(label)}.</b> {_markup(text, lang)}",
                           styles["caption"], wraps=wraps)


def _legend(block: LegendBlock, styles: dict[str, ParagraphStyle], texts: PageTexts,
            number: int, column_width: float, index: int,
            wraps: WrapCache | None = None) -> Float:
    """The legend as one table of (picture, text) rows with its caption, kept in one
    piece: a reader looks symbols up in it, so it never runs on into the next column."""
    picture_column = (LEGEND_PICTURE_MM + 4) * mm
    rows = [[PictureFlowable(picture),
             CachedParagraph(_markup(text, texts.lang), styles["legend"], wraps=wraps)]
            for picture, text in block.rows]
    table = Table(rows, colWidths=[picture_column, column_width - picture_column])
    table.setStyle(TableStyle([
        ("FONTNAME", (0, 0), (-1, -1), FONT_NAMES["regular"]),  # never Helvetica
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("ALIGN", (0, 0), (0, -1), "CENTER"),
        ("LEFTPADDING", (0, 0), (-1, -1), 0),
        ("RIGHTPADDING", (0, 0), (-1, -1), 0),
        ("TOPPADDING", (0, 0), (-1, -1), LEGEND_ROW_PADDING),
        ("BOTTOMPADDING", (0, 0), (-1, -1), LEGEND_ROW_PADDING),
        ("LINEBELOW", (0, 0), (-1, -2), 0.3, RULE),
    ]))
    caption = tagged(_caption(block.caption, styles, texts, number, wraps), index, "figure")
    legend = Float([_space_above_picture(), tagged(table, index, "figure"), caption])
    legend.block = index
    return legend
