"""A picture of any Micropul game state, for ``replay``: the table with the tiles in
their cells (the print sheets' own tile faces, turned as they lie), the grid's
coordinates along its edges, the last tile placed framed, and the stones on their
micropul, each ringed in its player's colour; then, below it, each player's hand (face
up), the revealed supply tiles of a solitaire game, what is face down, the stones left,
and the core. Pure: the state in, primitives out.
"""

from __future__ import annotations

from micropul_print.draw.primitives import Circle, Drawing, Group, Primitive, Rect, Text
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
BAND = 6.0  # the coordinates' band, above and left of the table
COORDINATE_SIZE = 3.2
# Each player's colour: the ring around their stones and their line below the table.
PLAYER_COLOURS = {1: "#e8590c", 2: "#862e9c"}
PLAYER_RING = 1.4  # mm of the player's colour around a stone
LAST_PLACED = "#c92a2a"  # frame of the last tile placed
LAST_PLACED_WIDTH = 1.0


def state_drawing(catalogue: Catalogue, theme: Theme, state: MicropulState) -> Drawing:
    game = state.match
    cell = TILE_SIZE_MM
    placed = game.board.placed()
    xs = [x for _tile, x, _y, _r in placed]
    ys = [y for _tile, _x, y, _r in placed]
    left, top = min(xs), min(ys)
    columns, rows = max(xs) - left + 1, max(ys) - top + 1
    table_w = columns * cell + 2 * MARGIN + BAND
    table_h = rows * cell + 2 * MARGIN + BAND
    origin = BAND + MARGIN  # of the cell (left, top)
    items: list[Primitive] = [Rect(BAND, BAND, table_w - BAND, table_h - BAND,
                                   fill=STYLE.table, corner_radius=MARGIN)]
    # The grid's coordinates, as the moves name cells: x along the top, y down the left.
    for column in range(columns):
        items.append(Text(origin + (column + 0.5) * cell, BAND - 1.5, str(left + column),
                          COORDINATE_SIZE, fill="#495057"))
    for row in range(rows):
        items.append(Text(BAND - 1.0, origin + (row + 0.5) * cell + COORDINATE_SIZE / 3,
                          str(top + row), COORDINATE_SIZE, fill="#495057", anchor="end"))
    for tile, x, y, rotation in placed:
        art = tile_drawing(catalogue.tile(tile), theme)
        items.append(Group(art.items, dx=origin + (x - left) * cell,
                           dy=origin + (y - top) * cell, rotate=rotation,
                           rotate_cx=cell / 2, rotate_cy=cell / 2))
    if len(placed) > 1:  # the start tile alone: nothing placed yet
        _tile, x, y, _rotation = placed[-1]
        inset = LAST_PLACED_WIDTH / 2
        items.append(Rect(origin + (x - left) * cell + inset, origin + (y - top) * cell + inset,
                          cell - 2 * inset, cell - 2 * inset, stroke=LAST_PLACED,
                          stroke_width=LAST_PLACED_WIDTH))

    def stone_art(player: int, diameter: float) -> Drawing:
        return stone_drawing(player, theme, diameter)

    for player, x, y, quadrant in game.board.stones:
        fx, fy = _QUADRANT_CENTRES[quadrant]
        cx, cy = origin + (x - left + fx) * cell, origin + (y - top + fy) * cell
        items.append(Circle(cx, cy, STYLE.stone_diameter / 2 + STYLE.stone_halo + PLAYER_RING,
                            fill=PLAYER_COLOURS.get(player, "#495057")))
        items += stone_items(player, cx, cy, stone_art)
    y0 = table_h + LINE
    items.append(Text(0.0, y0, f"core: {len(game.core)} tiles face down", LABEL_SIZE,
                      anchor="start"))
    width = table_w
    for p in range(game.players):
        hand = sorted(game.hands[p])
        revealed = sorted(game.revealed[p])
        y0 += LINE + 2.0
        colour = PLAYER_COLOURS.get(p + 1, "#000000")
        items.append(Circle(1.5, y0 - 1.5, 1.5, fill=colour))
        items.append(Text(4.5, y0, f"P{p + 1} (stones ringed in this colour): "
                          f"{len(hand)} in hand, "
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
