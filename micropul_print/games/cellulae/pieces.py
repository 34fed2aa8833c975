"""Cellulae's pieces for the core's kit (micropul_print.game.pieces): identical two-sided
tiles, the white face on the front of each card and the black behind it, and the
boards, larger than the paper, at their true size. The tile files are
``tile-white`` and ``tile-black``; the overview shows both faces above the standard
board with the set-up on it.
"""

from __future__ import annotations

from collections.abc import Callable

from micropul_print.draw.primitives import Drawing, Group, Primitive, Rect
from micropul_print.draw.theme import Theme
from micropul_print.game.pieces import BoardPiece, KitPieces, TileImages
from micropul_print.games.cellulae.catalogue import BLACK, WHITE, CellulaeCatalogue
from micropul_print.sheets.pages import Card

FACE_ORDER = (WHITE, BLACK)
PNG_BLEED = 3.0  # bleed of the PNG files when none is given, as Micropul's
OVERVIEW_GAP = 4.0  # mm, between the pictures of the overview
OVERVIEW_BACKDROP = "#c8c8c8"  # mid grey, so a white face's edge shows
OVERVIEW_BOARD = 5  # the board shown with the set-up (the standard game's)
# Round each start tile on the overview's board: a white tile on a white square showed
# only by its faint shadow.
OVERVIEW_OUTLINE = "#000000"
OVERVIEW_OUTLINE_WIDTH = 0.6  # mm, laid just outside the tile, inside its square
SUBJECTS = {
    "sheets": "Print-and-play tiles of {name}: {count} tiles of {size} mm, white on the "
              "front pages and black on the back, duplex sheets for {paper} paper",
    "gutter-fold": "Print-and-play tiles of {name}: {count} tiles of {size} mm, white faces "
                   "on the left half and black on the right, gutter-fold sheets for {paper} "
                   "paper",
    "print-shop": "The tile of {name}, {size} mm with {bleed} mm bleed, white face then "
                  "black: print {total}",
}


def tile_file(colour: str) -> str:
    """File stem of a face: ``tile-white`` or ``tile-black``."""
    return f"tile-{colour}"


def face_drawings(catalogue: CellulaeCatalogue, theme: Theme, *,
                  bleed: float = 0.0) -> dict[str, Drawing]:
    """Colour -> the face's drawing, tile size plus ``bleed`` on every side."""
    from micropul_print.games.cellulae.faces import tile_drawing

    return {colour: tile_drawing(catalogue.face(colour), theme, size=catalogue.tile_size_mm,
                                 bleed=bleed) for colour in FACE_ORDER}


def overview_drawing(catalogue: CellulaeCatalogue, theme: Theme) -> Drawing:
    """Both faces side by side above the smallest board with the set-up on it (the
    standard board when the catalogue offers it), on a grey backdrop."""
    from micropul_print.games.cellulae.faces import (
        FRAME,
        TILE_INSET,
        board_drawing,
        start_squares,
    )

    side = OVERVIEW_BOARD if OVERVIEW_BOARD in catalogue.sides else catalogue.sides[0]
    setup = {square: colour for colour, square in start_squares(side).items()}
    board = board_drawing(catalogue, side, theme, tiles=setup)
    faces = face_drawings(catalogue, theme)
    gap, size = OVERVIEW_GAP, catalogue.tile_size_mm
    width = board.width + 2 * gap
    height = size + board.height + 3 * gap
    faces_left = (width - 2 * size - gap) / 2
    items: list[Primitive] = [Rect(0.0, 0.0, width, height, fill=OVERVIEW_BACKDROP)]
    for k, colour in enumerate(FACE_ORDER):
        items.append(Group(faces[colour].items, dx=faces_left + k * (size + gap), dy=gap))
    items.append(Group(board.items, dx=gap, dy=size + 2 * gap))
    half, tile = OVERVIEW_OUTLINE_WIDTH / 2, size - 2 * TILE_INSET
    for x, y in setup:
        left, top = gap + FRAME + x * size + TILE_INSET, size + 2 * gap + FRAME + y * size
        items.append(Rect(left - half, top + TILE_INSET - half, tile + 2 * half,
                          tile + 2 * half, stroke=OVERVIEW_OUTLINE,
                          stroke_width=OVERVIEW_OUTLINE_WIDTH))
    return Drawing(width, height, tuple(items))


def boards(catalogue: CellulaeCatalogue, theme: Theme) -> list[BoardPiece]:
    """Each board of the catalogue, split only on the seams between its squares."""
    from micropul_print.games.cellulae.faces import board_drawing, grid_lines

    def drawing(side: int) -> Callable[[], Drawing]:
        return lambda: board_drawing(catalogue, side, theme)

    size = catalogue.tile_size_mm
    return [BoardPiece(
        key=str(board.side), drawing=drawing(board.side),
        title=f"{catalogue.name} — board {board.side} × {board.side}",
        stops=grid_lines(board.side, size),
        subject=f"The {board.side} × {board.side} board of {catalogue.name}, squares of "
                f"{size:g} mm, on {{pages}}") for board in catalogue.boards]


def cellulae_pieces(catalogue: CellulaeCatalogue, theme: Theme) -> KitPieces:
    size = catalogue.tile_size_mm

    def card(bleed: float) -> Card:
        faces = face_drawings(catalogue, theme, bleed=bleed)
        return Card(faces[WHITE], faces[BLACK])

    def files(bleed: float) -> list[tuple[str, Drawing]]:
        return [(tile_file(colour), drawing)
                for colour, drawing in face_drawings(catalogue, theme, bleed=bleed).items()]

    return KitPieces(
        name=catalogue.name,
        author=f"{catalogue.author} (game); micropul-print (print-and-play kit)",
        card_size=(size, size),
        cards=lambda bleed: [card(bleed)] * catalogue.tile_total,
        images=TileImages(files, lambda: overview_drawing(catalogue, theme),
                          png_bleed=PNG_BLEED),
        # Every tile is alike: the shop prints the one pair tile_total times.
        shop_cards=lambda bleed: [(f"tile (print {catalogue.tile_total})", card(bleed))],
        boards=boards(catalogue, theme), subjects=SUBJECTS,
        imports=("micropul_print.games.cellulae.pieces", "micropul_print.games.cellulae.faces"))
