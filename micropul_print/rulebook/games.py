"""What a game's rulebook needs besides the structure, texts and layout every book
shares: how its figures' positions are read and checked by its engine, which claims
exist, how a figure and a legend symbol are drawn, its author line and the values of
its catalogue and engine that any text may quote. One :class:`GameRulebook` per game,
given by the game's plugin (``Game.rulebook``), chosen by the catalogue's ``game`` key.
The callables take the game's own catalogue type.

Nothing here draws: ``art`` is called only when a PDF is rendered, and imports the
drawing code then.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from micropul_print.draw.primitives import Drawing
from micropul_print.draw.theme import Theme
from micropul_print.game.api import Catalogue
from micropul_print.rulebook.book import Book, BookRules, LegendRow, load_book
from micropul_print.rulebook.claims import Value
from micropul_print.rulebook.locales import available_languages
from micropul_print.rulebook.verify import VerifiedFigure

if TYPE_CHECKING:  # the page layout imports reportlab
    from micropul_print.rulebook.layout import Picture


class FigureArt(Protocol):
    """How one game's figures and legend pictures look, in one theme."""

    def figure(self, verified: VerifiedFigure) -> tuple[Drawing, float]:
        """The figure's drawing, and the size in drawing mm of one tile in it (the
        layout shows a tile at one of layout.FIGURE_TILE_MM)."""
        ...

    def legend(self, row: LegendRow) -> Picture:
        """The picture of one legend row: a tile symbol or a figure mark."""
        ...


@dataclass(frozen=True)
class GameRulebook:
    """One game's rulebook: its folder (book.yaml, figures/, locales/: en.yaml and <lang>.po, in
    the game's package) and what only the game knows."""

    game: str  # the catalogue's game key
    folder: Path  # book.yaml, figures/ and locales/
    rules: BookRules  # claims, legend marks and figure options its book.yaml may use
    output_dir: str  # where its PDFs go in the output directory
    author: Callable[[Any], str]  # the PDFs' author line
    # Placeholders any text of the structure may use, and their values for a
    # catalogue (raises UserError if the catalogue cannot give them).
    shared_names: frozenset[str]
    shared_values: Callable[[Any], dict[str, Value]]
    # Read every figure's position, ask the engine, check the claims; raise one
    # UserError naming every false claim (book, catalogue, the folder positions are
    # relative to).
    verify_figures: Callable[[Book, Any, Path], list[VerifiedFigure]]
    art: Callable[[Any, Theme], FigureArt]
    # Which tiles the book pictures, as the files of their faces (TileImages.faces
    # stems): for each figure (by its position file) and for the legend ("legend"),
    # read from the book, a catalogue and the folder positions are relative to (raises
    # UserError as verify_figures does). A watch rebuilds the books after a tile edit
    # only if they show an edited tile; None: every tile may show.
    shown_tiles: Callable[[Book, Any, Path], Mapping[str, frozenset[str]]] | None = None

    @property
    def book_file(self) -> Path:
        return self.folder / "book.yaml"

    @property
    def locales_dir(self) -> Path:
        return self.folder / "locales"

    def load_book(self, path: Path | None = None) -> Book:
        """The game's structure (or another file read with the game's rules)."""
        return load_book(path or self.book_file, self.rules)

    def languages(self, extra: Path | None = None) -> list[str]:
        """Language codes of the game's catalogues present, English first (with those
        of ``extra``, a folder of the user's translations of this book)."""
        return available_languages(self.locales_dir, extra)

    def verify(self, book: Book, catalogue: Catalogue,
               root: Path | None = None) -> list[VerifiedFigure]:
        """Every figure of ``book`` checked against the engine (positions relative to
        ``root``, the game's folder by default)."""
        return self.verify_figures(book, catalogue, root or self.folder)

    def rulebook_path(self, lang: str, paper: str) -> str:
        """Where a language's rulebook on ``paper`` goes, relative to the output
        directory: a build on both papers writes both, side by side."""
        return f"{self.output_dir}/{self.game}-rules-{lang}-{paper}.pdf"

