"""What the rulebook's page layout is given: the blocks of a book in one language
(title, headings, paragraphs, bullets, legend, figures as drawings), the texts of the
page furniture, and the page geometry. Plain data: nothing here knows reportlab."""

from __future__ import annotations

from dataclasses import dataclass

from micropul_print.draw.primitives import Drawing


@dataclass(frozen=True)
class Geometry:
    """Page geometry in millimetres. ``inner`` is the binding-side margin: on the left
    of odd (right-hand) pages, on the right of even ones."""

    inner: float = 20.0
    outer: float = 14.0
    top: float = 18.0
    bottom: float = 18.0
    gutter: float = 7.0
    title_height: float = 34.0  # the title band of page 1
    header_offset: float = 10.0  # running head baseline, from the top edge
    footer_offset: float = 10.0  # page number baseline, from the bottom edge
    columns: int = 2
    # Page 1 is a cover (the title lines, a picture, the language) and the text starts
    # on page 2, without a title band: a booklet's first page.
    cover: bool = False


GEOMETRY = Geometry()
# How wide (mm) the pictures of a legend's rows are drawn.
LEGEND_PICTURE_MM = 7.5


@dataclass(frozen=True)
class PageTexts:
    """The texts of the page furniture, in the book's language."""

    lang: str  # language code, for hyphenation and the PDF's /Lang
    title: str  # document title (metadata)
    subject: str
    author: str
    running_head: str
    page_number: str  # with {page}
    figure_label: str  # with {number}
    unbreakable: tuple[str, ...] = ()  # see Hyphenator
    language: str = ""  # the language's own name, on a booklet's cover


@dataclass(frozen=True)
class TitleBlock:
    lines: tuple[str, ...]  # name, tagline, further lines


@dataclass(frozen=True)
class HeadingBlock:
    text: str
    level: int


@dataclass(frozen=True)
class TextBlock:
    text: str
    lead: bool = False


@dataclass(frozen=True)
class BulletsBlock:
    items: tuple[str, ...]


@dataclass(frozen=True)
class RulingBlock:
    """A ruling of this edition: its heading and text, set in a tinted box after the
    paragraph or list it rules on, its ``anchor`` (that block's index in the book's
    blocks), and before the next heading: never earlier, never in another section."""

    heading: str
    text: str
    anchor: int


@dataclass(frozen=True)
class Picture:
    """A drawing, or the ``clip`` (x, y, width, height in drawing mm) of one, shown
    ``size`` mm wide."""

    drawing: Drawing
    size: float
    clip: tuple[float, float, float, float] | None = None
    frame: bool = False  # a thin rule around it (a part of a piece shown alone)


@dataclass(frozen=True)
class LegendBlock:
    caption: str
    rows: tuple[tuple[Picture, str], ...]


@dataclass(frozen=True)
class FigureBlock:
    drawing: Drawing
    caption: str
    tile_size: float  # the tile art's size in drawing mm (shown at a FIGURE_TILE_MM size)


PageBlock = (TitleBlock | HeadingBlock | TextBlock | BulletsBlock | RulingBlock | LegendBlock
             | FigureBlock)
