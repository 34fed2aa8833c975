"""The localized rulebook: structure (book.yaml), texts (locales/<lang>.yaml),
figures (figures/*.yaml) whose claims the rules engine confirms, and the PDF layout.

``build_rulebooks`` is what ``micropul-print build`` and ``micropul-print rulebook``
call. Importing this package loads no drawing library: reportlab comes in with
:mod:`micropul_print.rulebook.layout`, inside the build functions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from micropul_print.catalogue.model import Catalogue, Tile
from micropul_print.draw.primitives import Drawing
from micropul_print.draw.theme import Theme
from micropul_print.errors import UserError
from micropul_print.outputs import OutputDir
from micropul_print.rulebook.book import (
    Book,
    Bullets,
    Figure,
    Heading,
    Legend,
    Paragraph,
    Title,
    load_book,
)
from micropul_print.rulebook.locales import (
    REFERENCE_LANGUAGE,
    Locale,
    available_languages,
    load_locale,
    load_locales,
)
from micropul_print.rulebook.verify import (
    VerifiedFigure,
    catalogue_values,
    check_texts,
    verify_figures,
)

__all__ = [
    "AUTHOR",
    "PAPERS",
    "available_languages",
    "build_rulebooks",
    "check_rulebook",
    "render_rulebook",
    "rulebook_path",
]

PAPERS = ("a4", "letter")
AUTHOR = "Jean-François Lassonde (game); micropul-print (rulebook)"


def rulebook_path(catalogue: Catalogue, lang: str) -> str:
    """Where a language's rulebook goes, relative to the output directory."""
    return f"rules/{catalogue.game}-rules-{lang}.pdf"


def check_rulebook(catalogue: Catalogue, langs: Sequence[str]) -> tuple[
        Book, list[Locale], list[VerifiedFigure]]:
    """Everything a build needs, checked: the structure, the texts of ``langs`` (against
    English and the structure) and every figure's claims. Raises one UserError with
    every problem found, each at its file:line:col."""
    book = load_book()
    locales = load_locales(langs)
    reference = next((locale for locale in locales if locale.lang == REFERENCE_LANGUAGE),
                     None) or load_locale(REFERENCE_LANGUAGE)
    text_problems = check_texts(book, reference)
    if text_problems:
        raise UserError(text_problems)
    return book, locales, verify_figures(book, catalogue)


def build_rulebooks(catalogue: Catalogue, theme: Theme, out: OutputDir, *,
                    langs: Sequence[str], paper: str,
                    progress: Callable[[str], None] | None = None) -> list[Path]:
    """Write ``rules/<game>-rules-<lang>.pdf`` for each language; return the paths.

    ``langs`` are language codes with a catalogue in locales/ (see
    :func:`available_languages`); ``paper`` is "a4" or "letter".
    """
    if paper not in PAPERS:
        raise ValueError(f"paper must be one of {PAPERS}, not {paper!r}")
    book, locales, figures = check_rulebook(catalogue, langs)
    written = []
    for locale in locales:
        pdf = render_rulebook(book, locale, figures, catalogue, theme, paper)
        written.append(out.write_bytes(rulebook_path(catalogue, locale.lang), pdf))
        if progress is not None:
            progress(f"rulebook {locale.lang} ({locale.name}): {written[-1]}")
    return written


def render_rulebook(book: Book, locale: Locale, figures: Sequence[VerifiedFigure],
                    catalogue: Catalogue, theme: Theme, paper: str) -> bytes:
    """One language's rulebook as PDF bytes (figures already verified)."""
    from micropul_print.games.micropul import stone_drawing, tile_drawing
    from micropul_print.rulebook import layout
    from micropul_print.rulebook.figures import figure_drawing, legend_mark, legend_symbol

    def tile_art(tile: Tile) -> Drawing:
        return tile_drawing(tile, theme, show_number=False)

    def stone_art(player: int, diameter: float) -> Drawing:
        return stone_drawing(player, theme, diameter)

    shared = catalogue_values(catalogue)
    verified = {v.figure: v for v in figures}
    cell = tile_art(catalogue.tiles[0]).width
    blocks: list[layout.PageBlock] = []
    for block in book.blocks:
        if isinstance(block, Title):
            blocks.append(layout.TitleBlock(tuple(locale.text(k, shared) for k in block.keys)))
        elif isinstance(block, Heading):
            blocks.append(layout.HeadingBlock(locale.text(block.key, shared), block.level))
        elif isinstance(block, Paragraph):
            blocks.append(layout.TextBlock(locale.text(block.key, shared), block.lead))
        elif isinstance(block, Legend):
            rows = []
            for row in block.rows:
                if row.mark:
                    picture = layout.Picture(legend_mark(row.mark, cell, stone_art),
                                             layout.LEGEND_PICTURE_MM)
                elif row.symbol == "big":
                    picture = layout.Picture(legend_symbol("big", catalogue, tile_art),
                                             layout.LEGEND_PICTURE_MM, frame=True)
                else:
                    picture = layout.Picture(legend_symbol(row.symbol, catalogue, tile_art),
                                             layout.LEGEND_PICTURE_MM,
                                             clip=(0.0, 0.0, cell / 2, cell / 2),
                                             frame=True)
                rows.append((picture, locale.text(row.text, shared)))
            blocks.append(layout.LegendBlock(locale.text(block.caption, shared), tuple(rows)))
        elif isinstance(block, Figure):
            figure = verified[block]
            drawing = figure_drawing(figure, catalogue, tile_art, stone_art)
            caption = locale.text(block.caption, {**shared, **figure.values})
            blocks.append(layout.FigureBlock(drawing, caption, cell))
        elif isinstance(block, Bullets):
            blocks.append(layout.BulletsBlock(tuple(locale.text(k, shared) for k in block.keys)))
    texts = layout.PageTexts(
        lang=locale.lang,
        title=locale.text("meta.title"),
        subject=locale.text("meta.subject"),
        author=AUTHOR,
        running_head=locale.text("meta.running_head"),
        page_number=locale.texts["meta.page_number"],
        figure_label=locale.texts["meta.figure_label"],
        unbreakable=book.unbreakable,
    )
    return layout.render(blocks, texts, paper, page_budget=book.pages)
