"""Both games' pieces as the sheet layer receives them (cards and tokens), made from the
shipped catalogues the way the kit makes them, for tests that need real sets."""

from __future__ import annotations

from typing import NamedTuple

from micropul_print.catalogue.loader import load_catalogue, shipped_catalogue
from micropul_print.draw.theme import load_theme
from micropul_print.games.cellulae import faces as cellulae
from micropul_print.games.cellulae.catalogue import BLACK, WHITE, CellulaeCatalogue
from micropul_print.games.micropul import faces as micropul
from micropul_print.sheets.pages import Card

STONE_DIAMETER = 14.0


class GameSet(NamedTuple):
    name: str
    cards: list[Card]
    tokens: list[Card]
    size: float  # the cards' cut size, mm


def micropul_set(bleed: float = 0.0, theme: str = "classic") -> GameSet:
    catalogue = load_catalogue(shipped_catalogue("micropul"))
    look = load_theme(theme)
    back = micropul.back_drawing(look, bleed=bleed)
    cards = [Card(micropul.tile_drawing(tile, look, bleed=bleed), back)
             for tile in catalogue.tiles]
    tokens = []
    for player in micropul.PLAYERS:
        front, behind = micropul.stone_faces(player, look, STONE_DIAMETER, bleed=bleed)
        tokens += [Card(front, behind, round=True)] * 3
    return GameSet("Micropul", cards, tokens, micropul.TILE_SIZE_MM)


def cellulae_set(bleed: float = 0.0, theme: str = "classic") -> GameSet:
    catalogue = load_catalogue(shipped_catalogue("cellulae"))
    assert isinstance(catalogue, CellulaeCatalogue)
    look = load_theme(theme)
    size = catalogue.tile_size_mm
    white = cellulae.tile_drawing(catalogue.face(WHITE), look, size=size, bleed=bleed)
    black = cellulae.tile_drawing(catalogue.face(BLACK), look, size=size, bleed=bleed)
    return GameSet("Cellulae", [Card(white, black)] * catalogue.tile_total, [], size)
