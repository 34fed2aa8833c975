"""What an edit of a catalogue changes in a game's kit, for ``build --watch``: the tile
files of the faces whose drawings changed, the sheets (they hold every tile), the
overview, and the rulebooks only if one of their figures (or the legend) shows an
edited tile or a value the books quote changed.

The faces are compared as drawings (the very primitives the SVG and PNG files are
made of), at the tile files' two bleeds: a face whose drawings did not change has the
same files. An edit that adds, removes or renames faces, or a change of theme or of
the build's options, is not a tile edit: everything is rebuilt. Pure: nothing here
reads or writes a file but a rulebook's figure positions (micropul_print.rulebook.games
GameRulebook.shown_tiles).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from micropul_print.base.errors import UserError
from micropul_print.kit.plan import KitOptions, game_pieces

if TYPE_CHECKING:
    from micropul_print.draw.primitives import Drawing
    from micropul_print.draw.theme import Theme
    from micropul_print.game.pieces import KitPieces
    from micropul_print.game.plugin import Game

class FaceOptions(NamedTuple):
    numbers: bool
    bleed: float | None
    dpi: int


@dataclass
class KitState:
    """One game's kit as a build made it: the catalogue and theme it was made of, and
    the options its tile files depend on. Its faces are drawn, and the tiles its book
    shows found, when first asked for."""

    game: Game
    catalogue: Any
    theme: Theme
    # The options a tile file's bytes depend on, besides the catalogue and theme.
    options: FaceOptions
    _pieces: KitPieces | None = field(default=None, repr=False)
    _shown: frozenset[str] | None = field(default=None, repr=False)

    @property
    def pieces(self) -> KitPieces:
        if self._pieces is None:  # shared with the build of this catalogue
            self._pieces = game_pieces(self.game, self.catalogue, self.theme,
                                       numbers=self.options.numbers)
        return self._pieces

    def faces(self, bleed: float) -> list[tuple[str, Drawing]]:
        return list(self.pieces.images.faces(bleed))

    @property
    def png_bleed(self) -> float:
        bleed = self.options.bleed
        return self.pieces.images.png_bleed if bleed is None else bleed

    def shown(self) -> frozenset[str] | None:
        """The faces the game's rulebook pictures (figures and legend); None: it does
        not say (every tile may show). UserError from the book's positions."""
        book = self.game.rulebook
        if book is None or book.shown_tiles is None:
            return None
        if self._shown is None:
            found = book.shown_tiles(book.load_book(), self.catalogue, book.folder)
            self._shown = frozenset().union(*found.values())
        return self._shown


def kit_state(game: Game, catalogue: Any, theme: Theme, options: KitOptions) -> KitState:
    return KitState(game, catalogue, theme,
                    FaceOptions(options.numbers, options.bleed, options.dpi))


def changed_faces(before: KitState, after: KitState) -> frozenset[str] | None:
    """The faces whose files ``after`` changes, or None when the edit is more than a
    change of some faces (faces added, removed or renamed; another theme; options)."""
    if (before.game is not after.game or before.options != after.options
            or before.theme != after.theme):
        return None
    changed: set[str] = set()
    for bleed in sorted({0.0, before.png_bleed, after.png_bleed}):
        old, new = before.faces(bleed), after.faces(bleed)
        if [stem for stem, _ in old] != [stem for stem, _ in new]:
            return None
        changed |= {stem for (stem, a), (_, b) in zip(old, new, strict=True) if a != b}
    return frozenset(changed)


def books_change(before: KitState, after: KitState, faces: frozenset[str]) -> bool:
    """Whether the game's rulebooks change when the kit ``before`` is remade of
    ``after``, whose changed faces are ``faces``: the values their texts quote (the
    set's name, author line, shared values) changed, or a figure or the legend shows
    one of ``faces``, before or after the edit."""
    book = after.game.rulebook
    if book is None:
        return False
    try:
        if _quoted(book, before.catalogue) != _quoted(book, after.catalogue):
            return True
        shown = [state.shown() for state in (before, after)]
    except UserError:  # the build says what is wrong, at its place
        return True
    return any(faces if tiles is None else faces & tiles for tiles in shown)


def _quoted(book: Any, catalogue: Any) -> tuple[object, ...]:
    return catalogue.name, book.author(catalogue), book.shared_values(catalogue)
