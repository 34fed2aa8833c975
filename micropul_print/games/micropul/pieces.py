"""Micropul's pieces for the core's kit (micropul_print.game.pieces): 48 square tiles with
a common back, numbered, and three stones for each player cut round from the sheets'
free slots. Each face is drawn once per bleed and kept (:class:`TileArt`): the tile
files and the sheets share them.
"""

from __future__ import annotations

from micropul_print.draw.primitives import Drawing
from micropul_print.draw.theme import Theme
from micropul_print.game.pieces import FaceGrid, KitPieces, Numbered, TileImages
from micropul_print.games.micropul import faces
from micropul_print.games.micropul.model import Catalogue
from micropul_print.sheets.pages import Card

STONES_PER_PLAYER = 3
STONE_DIAMETER = 14.0  # mm: cut with scissors from a 30 mm slot
AUTHOR = "Jean-François Lassonde (game); micropul-print (print-and-play kit)"
BACK_NAME = "tile-back"
OVERVIEW_COLUMNS = 6
OVERVIEW_GAP_PX = 12


def tile_name(tile_id: int) -> str:
    """A tile's file stem: ``tile-07``."""
    return f"tile-{tile_id:02d}"


class TileArt:
    """Each tile picture made once per build, shared by the tile files and the sheets
    (without bleed they are the very same drawings)."""

    def __init__(self, catalogue: Catalogue, theme: Theme, *, numbers: bool = True) -> None:
        self.catalogue, self.theme, self.numbers = catalogue, theme, numbers
        self._fronts: dict[float, list[Drawing]] = {}
        self._backs: dict[float, Drawing] = {}

    def fronts(self, bleed: float = 0.0) -> list[Drawing]:
        if bleed not in self._fronts:
            self._fronts[bleed] = [faces.tile_drawing(tile, self.theme, bleed=bleed,
                                                      show_number=self.numbers)
                                   for tile in self.catalogue.tiles]
        return self._fronts[bleed]

    def back(self, bleed: float = 0.0) -> Drawing:
        if bleed not in self._backs:
            self._backs[bleed] = faces.back_drawing(self.theme, bleed=bleed)
        return self._backs[bleed]

    def cards(self, bleed: float) -> list[Card]:
        """Each face with the common back."""
        back = self.back(bleed)  # one drawing behind every card
        return [Card(front, back) for front in self.fronts(bleed)]

    def stones(self, bleed: float) -> list[Card]:
        # Printed on both sides, so a cut stone shows its colour either way up; the
        # front keeps its cut circle, cut round (registration cut files follow it).
        tokens: list[Card] = []
        for player in faces.PLAYERS:
            front, back = faces.stone_faces(player, self.theme, STONE_DIAMETER, bleed=bleed)
            tokens += [Card(front, back, round=True)] * STONES_PER_PLAYER
        return tokens

    def files(self, bleed: float) -> list[tuple[str, Drawing]]:
        """The tile files' faces: every tile, then the back."""
        named = [(tile_name(tile.id), front)
                 for tile, front in zip(self.catalogue.tiles, self.fronts(bleed), strict=True)]
        return [*named, (BACK_NAME, self.back(bleed))]

    def overview_faces(self) -> list[Drawing]:
        """The faces as the overview shows them (numbered; no outline, as cut from tile
        images printed with bleed)."""
        return [faces.tile_drawing(tile, self.theme, outline=False)
                for tile in self.catalogue.tiles]


def micropul_pieces(catalogue: Catalogue, theme: Theme, *, numbers: bool) -> KitPieces:
    art = TileArt(catalogue, theme, numbers=numbers)
    size = faces.TILE_SIZE_MM
    return KitPieces(
        name=catalogue.name, author=AUTHOR, card_size=(size, size), cards=art.cards,
        tokens=art.stones,
        images=TileImages(art.files, FaceGrid(
            count=len(catalogue.tiles), columns=OVERVIEW_COLUMNS, gap=OVERVIEW_GAP_PX,
            reusable=numbers, fallback=art.overview_faces,
            captions=[str(tile.id) for tile in catalogue.tiles])),
        numbered=Numbered([tile.id for tile in catalogue.tiles], catalogue.source,
                          catalogue.tiles_at),
        imports=("micropul_print.games.micropul.pieces",))
