"""The rulebook's blocks -> platypus's story: the title (or a booklet's cover), headings
that keep a few lines below them, paragraphs and bullets, and the figures and the
legend as floats with their numbered captions."""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape

from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import (
    CondPageBreak,
    Flowable,
    FrameBreak,
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
    TextBlock,
    TitleBlock,
)
from micropul_print.rulebook.flowables import BookParagraph, Float, PictureFlowable, tagged
from micropul_print.rulebook.markup import markup
from micropul_print.rulebook.styles import RULE

# Lines of text a heading keeps below it in its column (else it waits for the next).
HEADING_KEEPS_LINES = 3
LEGEND_ROW_PADDING = 1.2  # points above and below each legend row
MAX_FIGURE_HEIGHT_MM = 110.0  # under half a column on A4 and Letter

# The cover picture: at most this wide and tall (mm).
COVER_PICTURE_MM = (100.0, 85.0)


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
           styles: dict[str, ParagraphStyle], frame_width: float) -> list[Flowable]:
    """Page 1 of a booklet: the title lines, then the cover figure (without its
    caption), then a page break."""
    name, *rest = block.lines
    story: list[Flowable] = [Spacer(1, 22 * mm),
                             tagged(Paragraph(markup(name), styles["cover"]), None, "title")]
    for i, line in enumerate(rest):
        story.append(Paragraph(markup(line), styles["tagline" if i == 0 else "version"]))
    figure = cover_figure(blocks)
    if figure is not None:
        width_mm, height_mm = COVER_PICTURE_MM
        size = min(width_mm, frame_width / mm,
                   height_mm * figure.drawing.width / figure.drawing.height)
        story += [Spacer(1, 18 * mm), PictureFlowable(Picture(figure.drawing, size))]
    story.append(PageBreak())
    return story


def build_story(blocks: Sequence[PageBlock], styles: dict[str, ParagraphStyle],
           texts: PageTexts, geometry: Geometry, column_width: float,
           tile_mm: float) -> list[Flowable]:
    story: list[Flowable] = []
    figure_number = 0
    for index, block in enumerate(blocks):
        if isinstance(block, TitleBlock):
            if geometry.cover:
                story.extend(_cover(block, blocks, styles,
                                    column_width * geometry.columns))
                continue
            name, *rest = block.lines
            story.append(tagged(Paragraph(markup(name), styles["title"]), index, "title"))
            for i, line in enumerate(rest):
                story.append(Paragraph(markup(line), styles["tagline" if i == 0 else "version"]))
            story.append(FrameBreak())
        elif isinstance(block, HeadingBlock):
            style = styles["h1" if block.level == 1 else "h2"]
            heading = tagged(Paragraph(markup(block.text), style), index, "heading")
            # A heading starts a new column unless a few lines of what follows fit
            # under it. (reportlab's keepWithNext would carry the whole next paragraph
            # along, leaving the end of a column empty.) The CondPageBreak decides
            # before the heading; keep_below again when it comes (handle_flowable):
            # waiting figures may have filled the top of a new column in between.
            _, height = heading.wrap(column_width, 1000)
            heading.keep_below = (style.spaceBefore + height + style.spaceAfter
                                  + HEADING_KEEPS_LINES * styles["body"].leading)
            story.append(CondPageBreak(heading.keep_below))
            story.append(heading)
        elif isinstance(block, TextBlock):
            story.append(tagged(BookParagraph(markup(block.text),
                                               styles["lead" if block.lead else "body"]),
                                 index, "text"))
        elif isinstance(block, BulletsBlock):
            story.extend(tagged(BookParagraph(markup(item), styles["bullet"], bulletText="•"),
                                 index, "text")
                         for item in block.items)
        elif isinstance(block, LegendBlock):
            figure_number += 1
            story.append(_legend(block, styles, texts, figure_number, column_width, index))
        else:
            figure_number += 1
            picture = Picture(block.drawing, figure_width(block, tile_mm, column_width))
            story.append(Float([
                Spacer(1, 2),
                tagged(PictureFlowable(picture), index, "figure"),
                tagged(_caption(block.caption, styles, texts, figure_number), index, "figure"),
            ]))
    return story


def figure_width(block: FigureBlock, tile_mm: float, column_width: float) -> float:
    """How wide (mm) a figure is drawn with tiles ``tile_mm`` wide: never wider than a
    column, nor taller than MAX_FIGURE_HEIGHT_MM (a tall figure that fits no frame
    would stop the build)."""
    width = tile_mm / block.tile_size * block.drawing.width
    tallest = MAX_FIGURE_HEIGHT_MM * block.drawing.width / block.drawing.height
    return float(min(width, column_width / mm, tallest))


def _caption(text: str, styles: dict[str, ParagraphStyle], texts: PageTexts,
             number: int) -> Paragraph:
    label = texts.figure_label.replace("{number}", str(number))
    return Paragraph(f"<b>{escape(label)}.</b> {markup(text)}", styles["caption"])


def _legend(block: LegendBlock, styles: dict[str, ParagraphStyle], texts: PageTexts,
            number: int, column_width: float, index: int) -> Float:
    """The legend as one table of (picture, text) rows with its caption, kept in one
    piece: a reader looks symbols up in it, so it never runs on into the next column."""
    picture_column = (LEGEND_PICTURE_MM + 4) * mm
    rows = [[PictureFlowable(picture), Paragraph(markup(text), styles["legend"])]
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
    caption = tagged(_caption(block.caption, styles, texts, number), index, "figure")
    return Float([Spacer(1, 2), tagged(table, index, "figure"), caption])
