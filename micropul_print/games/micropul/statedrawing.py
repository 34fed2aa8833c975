"""A picture of any Micropul game state, for ``replay``: the table with the tiles in
their cells (the print sheets' own tile faces, turned as they lie) and the stones on
their micropul, then, below it, each player's hand (face up), the revealed supply
tiles of a solitaire game, what is face down, the stones left, and the core.
Pure: the state in, primitives out.
"""

from __future__ import annotations

from micropul_print.draw.primitives import Drawing, Group, Primitive, Rect, Text
from micropul_print.draw.theme import Theme
from micropul_print.games.micropul.engine import MicropulState
from micropul_print.games.micropul.faces import TILE_SIZE_MM, stone_drawing, tile_drawing
from micropul_print.games.micropul.figures import STYLE, stone_items
from micropul_print.games.micropul.model import Catalogue

MARGIN = 4.0
GAP = 2.0  # between the tiles of a hand
LABEL_SIZE = 5.0
LINE = 8.0  # height of a line of text
_QUADRANT_CENTRES = ((0.25, 0.25), (0.75, 0.25), (0.75, 0.75), (0.25, 0.75))  # tl tr br bl


def state_drawing(catalogue: Catalogue, theme: Theme, state: MicropulState) -> Drawing:
    game = state.match
    cell = TILE_SIZE_MM
    placed = game.board.placed()
    xs = [x for _tile, x, _y, _r in placed]
    ys = [y for _tile, _x, y, _r in placed]
    left, top = min(xs), min(ys)
    table_w = (max(xs) - left + 1) * cell + 2 * MARGIN
    table_h = (max(ys) - top + 1) * cell + 2 * MARGIN
    items: list[Primitive] = [Rect(0.0, 0.0, table_w, table_h, fill=STYLE.table,
                                   corner_radius=MARGIN)]
    for tile, x, y, rotation in placed:
        art = tile_drawing(catalogue.tile(tile), theme)
        items.append(Group(art.items, dx=MARGIN + (x - left) * cell,
                           dy=MARGIN + (y - top) * cell, rotate=rotation,
                           rotate_cx=cell / 2, rotate_cy=cell / 2))

    def stone_art(player: int, diameter: float) -> Drawing:
        return stone_drawing(player, theme, diameter)

    for player, x, y, quadrant in game.board.stones:
        fx, fy = _QUADRANT_CENTRES[quadrant]
        items += stone_items(player, MARGIN + (x - left + fx) * cell,
                             MARGIN + (y - top + fy) * cell, stone_art)
    y0 = table_h + LINE
    items.append(Text(0.0, y0, f"core: {len(game.core)} tiles face down", LABEL_SIZE,
                      anchor="start"))
    width = table_w
    for p in range(game.players):
        hand = sorted(game.hands[p])
        revealed = sorted(game.revealed[p])
        y0 += LINE + 2.0
        items.append(Text(0.0, y0, f"player {p + 1}: {len(hand)} in hand, "
                          f"{len(game.face_down[p])} face down in supply"
                          + (f", {len(revealed)} revealed" if revealed else "")
                          + f", {game.stones_left[p]} stones left", LABEL_SIZE,
                          anchor="start", weight="bold"))
        y0 += 3.0
        x0 = 0.0
        for number, tile in enumerate([*hand, *revealed]):
            if number == len(hand):
                x0 += 3 * GAP  # the revealed tiles apart from the hand
            art = tile_drawing(catalogue.tile(tile), theme)
            items.append(Group(art.items, dx=x0, dy=y0))
            x0 += cell + GAP
        width = max(width, x0)
        y0 += cell if hand or revealed else 0.0
    return Drawing(width, y0 + MARGIN, tuple(items))
