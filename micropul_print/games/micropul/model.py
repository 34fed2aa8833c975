"""The validated Micropul tile catalogue: plain immutable values, no I/O.

Quadrants run clockwise from the top-left: top-left, top-right, bottom-right,
bottom-left, in the tile's printed orientation. Quadrant values are the strings of
the public catalogue JSON contract.
"""

from __future__ import annotations

from dataclasses import field

from micropul_print.base.record import record

WHITE = "white"
BLACK = "black"
DOT = "dot"  # one-dot catalyst: draw 1 tile
DOUBLE = "double"  # two-dot catalyst: draw 2 tiles
PLUS = "plus"  # plus catalyst: extra turn (solitaire: reveal a supply tile)
EMPTY = "empty"

MICROPUL = (WHITE, BLACK)
CATALYSTS = (DOT, DOUBLE, PLUS)
QUADRANT_VALUES = (WHITE, BLACK, DOT, DOUBLE, PLUS, EMPTY)

# Quadrant positions, clockwise from the top-left (also the order of Tile.quadrants).
TL, TR, BR, BL = 0, 1, 2, 3
QUADRANT_NAMES = ("tl", "tr", "br", "bl")
# The catalogue's symbol for each quadrant value (docs/catalogue.md), to quote faces.
SYMBOLS = {WHITE: "W", BLACK: "B", DOT: "1", DOUBLE: "2", PLUS: "P", EMPTY: "."}


@record
class BigMicropul:
    """One large micropul filling the face, with one catalyst in its centre."""

    colour: str  # WHITE or BLACK
    catalyst: str  # one of CATALYSTS


@record
class Tile:
    id: int
    quadrants: tuple[str, str, str, str]  # tl, tr, br, bl; a big tile: its colour x4
    start: bool = False
    big: BigMicropul | None = None

    def rotated(self, rotation: int) -> tuple[str, str, str, str]:
        """Quadrants as they lie on the table after a clockwise rotation in degrees.

        At 90 degrees the printed top-left quadrant lies at the top-right.
        """
        steps = (rotation // 90) % 4
        q = self.quadrants
        return (q[-steps % 4], q[(1 - steps) % 4], q[(2 - steps) % 4], q[(3 - steps) % 4])

    def colour_swapped(self) -> tuple[str, str, str, str]:
        swap = {WHITE: BLACK, BLACK: WHITE}
        return tuple(swap.get(q, q) for q in self.quadrants)  # type: ignore[return-value]

    def face_text(self) -> str:
        """The face as messages quote it: its rows in catalogue symbols."""
        if self.big is not None:
            kind = {DOT: "one-dot", DOUBLE: "two-dot", PLUS: "plus"}[self.big.catalyst]
            return f"a big {self.big.colour} micropul with a {kind} catalyst"
        tl, tr, br, bl = (SYMBOLS[q] for q in self.quadrants)
        return f"'{tl} {tr}' above '{bl} {br}'"


@record
class Catalogue:
    game: str  # "micropul"
    name: str  # display name, e.g. "Micropul"
    tiles: tuple[Tile, ...]  # sorted by id
    source: str = ""  # file it was loaded from, for messages
    _by_id: dict[int, Tile] = field(default_factory=dict, compare=False, repr=False)
    # (line, column) of the file's game key, for messages about the game (0, 0: unknown)
    game_at: tuple[int, int] = field(default=(0, 0), compare=False, repr=False)
    # Where each tile's entry and the 'tiles' and 'name' keys are, for the set check's
    # messages (absent or (0, 0): unknown, e.g. a catalogue made in code).
    tile_at: dict[int, tuple[int, int]] = field(default_factory=dict, compare=False,
                                                repr=False)
    tiles_at: tuple[int, int] = field(default=(0, 0), compare=False, repr=False)
    name_at: tuple[int, int] = field(default=(0, 0), compare=False, repr=False)

    def __post_init__(self) -> None:
        self._by_id.update({t.id: t for t in self.tiles})

    def tile(self, tile_id: int) -> Tile:
        return self._by_id[tile_id]

    def __contains__(self, tile_id: object) -> bool:
        return tile_id in self._by_id

    @property
    def start_tile(self) -> Tile:
        return next(t for t in self.tiles if t.start)

    def to_json(self) -> dict[str, object]:
        """The public catalogue JSON contract (see docs/contracts.md)."""
        return {
            "game": self.game,
            "tiles": [
                {
                    "id": t.id,
                    "start": t.start,
                    "big": None
                    if t.big is None
                    else {"colour": t.big.colour, "catalyst": t.big.catalyst},
                    "quadrants": list(t.quadrants),
                }
                for t in self.tiles
            ],
        }
