"""The table: tiles in play, legality of placements, catalysts, groups and stones.

Pure: no I/O. Coordinates: cell (x, y), x grows right, y grows down; quadrants of a cell
are numbered 0..3 = tl, tr, br, bl as they lie on the table. Rotations are clockwise
degrees (0, 90, 180, 270). See docs/rules-engine.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from micropul_print.games.micropul.model import QUADRANT_NAMES, Catalogue
from micropul_print.games.micropul.rules.tiles import (
    COLOUR_NAMES,
    JOINS,
    KIND_DRAWS,
    KIND_NAMES,
    KIND_PLUS,
    NO_TILE,
    OPPOSITE,
    PAIR,
    POSITION_NAMES,
    ROTATIONS,
    SIDE_QUADRANTS,
    STEP,
    TileSet,
    cell_key,
    cell_xy,
    facing_micropul,
    tileset,
)

ALL_EMPTY = 0xFFFF  # neighbourhood code of a cell with no tile around it
# Per side of a placed tile: the neighbourhood code of the cell on that side without the
# nibble that faces back (the one the tile's edge fills).
CLEAR = tuple(ALL_EMPTY & ~(15 << 4 * OPPOSITE[side]) for side in range(4))

# Reasons a placement is illegal, in order of precedence.
OCCUPIED = "occupied"
NOT_ADJACENT = "not adjacent"
COLOUR_CLASH = "colour clash"
NO_LINK = "no micropul link"
REASONS = (OCCUPIED, NOT_ADJACENT, COLOUR_CLASH, NO_LINK)


# (side, facing edge code) -> quadrant-key offsets, from an empty cell, of the micropul of
# the neighbour on that side that face it.
_FACING_KEYS = tuple(
    tuple(
        ()
        if code == NO_TILE
        else tuple(
            STEP[side] * 4 + SIDE_QUADRANTS[OPPOSITE[side]][i]
            for i, colour in enumerate((code // 3, code % 3))
            if colour
        )
        for code in range(16)
    )
    for side in range(4)
)


class IllegalPlacementError(ValueError):
    """A placement that breaks the rules; ``reason`` is one of REASONS."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


@dataclass(frozen=True)
class Catalyst:
    """One catalyst activated by a placement. ``position`` is tl/tr/br/bl as it lies on
    the table, or "centre" for a big tile's central catalyst; ``kind`` is dot/double/plus."""

    x: int
    y: int
    position: str
    kind: str


@dataclass(frozen=True)
class Placement:
    """What a placement did: the catalysts it activated (each once), the tiles they owe
    (before any core limit) and the number of plus catalysts among them."""

    tile: int
    x: int
    y: int
    rotation: int
    activated: tuple[Catalyst, ...]
    draws: int
    plus: int


@dataclass(frozen=True)
class Group:
    """A maximal set of same-colour micropul connected through shared edges."""

    colour: str
    points: int  # 1 per micropul; a big micropul counts 1 in total
    closed: bool  # every quadrant next to one of its micropul is occupied
    stones: tuple[int, ...]  # player number of each stone on it, sorted
    quadrants: tuple[tuple[int, int, int], ...]  # (x, y, quadrant 0..3), sorted

    @property
    def scores_for(self) -> int | None:
        """The player this group scores for at the end, if any."""
        return self.stones[0] if self.closed and len(self.stones) == 1 else None


class Board:
    """Tiles in play, like python-chess's Board but without turns (see rules.game.Game).

    ``place`` applies a placement; ``legality`` says why one would be illegal;
    ``legal_placements`` lists them; ``groups`` describes every group.
    """

    def __init__(self, catalogue: Catalogue | TileSet) -> None:
        self.tiles = catalogue if isinstance(catalogue, TileSet) else tileset(catalogue)
        self.cells: dict[int, int] = {}  # cell key -> orientation id
        self.frontier: dict[int, int] = {}  # empty cell next to a tile -> legal oid mask
        self._codes: dict[int, int] = {}  # the same cells -> neighbourhood code
        self._parent: dict[int, int] = {}  # union-find over quadrant keys (cell * 4 + q)
        self._points: dict[int, int] = {}  # root -> points
        self._stones: dict[int, list[int]] = {}  # root -> players with a stone on it
        self.unclaimed: set[int] = set()  # roots of groups without a stone
        self.stones: list[tuple[int, int, int, int]] = []  # (player, x, y, quadrant) in order

    def copy(self) -> Board:
        """An independent table in the same state (the tile tables are shared)."""
        board = Board.__new__(Board)
        board.tiles = self.tiles
        board.cells = self.cells.copy()
        board.frontier = self.frontier.copy()
        board._codes = self._codes.copy()
        board._parent = self._parent.copy()
        board._points = self._points.copy()
        board._stones = {root: list(players) for root, players in self._stones.items()}
        board.unclaimed = self.unclaimed.copy()
        board.stones = list(self.stones)
        return board

    # -- reading the table -------------------------------------------------------------

    def tile_at(self, x: int, y: int) -> tuple[int, int] | None:
        """(tile id, rotation) of the tile in a cell, or None."""
        oid = self.cells.get(cell_key(x, y))
        if oid is None:
            return None
        return self.tiles.tile_of[oid], self.tiles.rotation_of[oid]

    def symbol_at(self, x: int, y: int, quadrant: int) -> str | None:
        """The quadrant value (model symbols: white, black, dot, ...) as it lies, or None."""
        oid = self.cells.get(cell_key(x, y))
        return None if oid is None else self.tiles.symbols[oid][quadrant]

    def is_micropul(self, x: int, y: int, quadrant: int) -> bool:
        oid = self.cells.get(cell_key(x, y))
        return oid is not None and self.tiles.colour[oid][quadrant] != 0

    def placed(self) -> list[tuple[int, int, int, int]]:
        """(tile, x, y, rotation) of every tile in play, in placement order."""
        t = self.tiles
        return [(t.tile_of[o], *cell_xy(c), t.rotation_of[o]) for c, o in self.cells.items()]

    def __len__(self) -> int:
        return len(self.cells)

    # -- legality ------------------------------------------------------------------------

    def legality(self, tile: int, x: int, y: int, rotation: int) -> str | None:
        """None when the placement is legal, else the first reason of REASONS that applies."""
        if rotation not in ROTATIONS:
            raise ValueError(f"rotation must be one of {ROTATIONS}, not {rotation!r}")
        cell = cell_key(x, y)
        if cell in self.cells:
            return OCCUPIED
        edges = self.tiles.edge[self.tiles.oid(tile, rotation)]
        result = 0
        adjacent = False
        for side in range(4):
            neighbour = self.cells.get(cell + STEP[side])
            if neighbour is not None:
                adjacent = True
                result |= PAIR[edges[side]][self.tiles.edge[neighbour][OPPOSITE[side]]]
        if not adjacent:
            return NOT_ADJACENT
        if result & 2:
            return COLOUR_CLASH
        if not result & 1:
            return NO_LINK
        return None

    def legal_placements(self, tile: int) -> list[tuple[int, int, int]]:
        """Every legal (x, y, rotation) of a tile, sorted; a big tile at rotation 0 only."""
        index = self.tiles.index[tile]
        mask = self.tiles.tile_mask[index]
        found = []
        for cell, legal in self.frontier.items():
            bits = legal & mask
            while bits:
                low = bits & -bits
                bits ^= low
                oid = low.bit_length() - 1
                found.append((*cell_xy(cell), self.tiles.rotation_of[oid]))
        return sorted(found)

    def count_legal(self, hand_mask: int) -> int:
        """Number of legal placements of the orientations in ``hand_mask``."""
        return sum((legal & hand_mask).bit_count() for legal in self.frontier.values())

    # -- placing -------------------------------------------------------------------------

    def place(self, tile: int, x: int, y: int, rotation: int, *, check: bool = True) -> Placement:
        """Put a tile on the table. With ``check`` (the default) an illegal placement raises
        IllegalPlacementError; without, only an occupied cell does (for a first tile)."""
        reason = self.legality(tile, x, y, rotation)
        if reason is not None and (check or reason == OCCUPIED):
            raise IllegalPlacementError(
                f"illegal placement of tile {tile} at ({x}, {y}) rotation {rotation}: {reason}",
                reason,
            )
        cell = cell_key(x, y)
        oid = self.tiles.oid(tile, rotation)
        activated = self.activations(cell, oid)
        self._put(cell, oid)
        return Placement(
            tile=tile,
            x=x,
            y=y,
            rotation=self.tiles.rotation_of[oid],
            activated=catalysts(activated),
            draws=sum(KIND_DRAWS[k] for k in activated.values()),
            plus=sum(KIND_PLUS[k] for k in activated.values()),
        )

    def preview(self, tile: int, x: int, y: int, rotation: int) -> tuple[Catalyst, ...]:
        """The catalysts a placement would activate, without placing it."""
        return catalysts(self.activations(cell_key(x, y), self.tiles.oid(tile, rotation)))

    def activations(self, cell: int, oid: int) -> dict[int, int]:
        """Catalysts activated by putting ``oid`` in ``cell``: {cell * 8 + position: kind}.

        A catalyst is activated when it touches a micropul of another tile and one of
        the two is on the new tile; keyed by catalyst, so each counts once."""
        t = self.tiles
        colour = t.colour
        side_catalysts = t.side_catalysts
        found: dict[int, int] = {}
        for side in range(4):
            neighbour_cell = cell + STEP[side]
            neighbour = self.cells.get(neighbour_cell)
            if neighbour is None:
                continue
            back = OPPOSITE[side]
            for i, kind, position in side_catalysts[oid][side]:
                if colour[neighbour][SIDE_QUADRANTS[back][i]]:
                    found[cell * 8 + position] = kind
            for i, kind, position in side_catalysts[neighbour][back]:
                if colour[oid][SIDE_QUADRANTS[side][i]]:
                    found[neighbour_cell * 8 + position] = kind
        return found

    def _put(self, cell: int, oid: int) -> int:
        """Apply a placement known to be allowed: table, frontier and groups. Returns
        what it activated packed as draws + 256 * pluses (see TileSet.own_worth)."""
        t = self.tiles
        cells = self.cells
        codes = self._codes
        frontier = self.frontier
        parent = self._parent
        points = self._points
        unclaimed = self.unclaimed
        cells[cell] = oid
        frontier.pop(cell, None)
        facing = facing_micropul(codes.pop(cell, ALL_EMPTY))
        worth = 0
        for bits, value in t.own_worth[oid]:
            if facing & bits:
                worth += value
        base = cell * 4
        for q, first in t.inner_parent[oid]:
            parent[base + q] = base + first
        for first, value in t.inner_points[oid]:
            points[base + first] = value
            unclaimed.add(base + first)
        edge = t.edge
        edge_to = t.edge_to
        masks = t.masks
        at = 4 * oid
        mine = edge[oid]
        for side in (0, 1, 2, 3):
            neighbour_cell = cell + STEP[side]
            neighbour = cells.get(neighbour_cell)
            if neighbour is None:
                # The empty cell now sees this tile's edge on its side facing back here.
                code = codes.get(neighbour_cell, ALL_EMPTY) & CLEAR[side] | edge_to[at + side]
                codes[neighbour_cell] = code
                mask = masks.get(code)
                frontier[neighbour_cell] = t.mask_for(code) if mask is None else mask
                continue
            back = OPPOSITE[side]
            for bits, value in t.side_worth[4 * neighbour + back]:
                if t.micropul_on[at + side] & bits:
                    worth += value
            for q, their in JOINS[side][9 * mine[side] + edge[neighbour][back]]:
                # Union by points; on a tie the new tile's group keeps its root.
                ra = base + q
                while parent[ra] != ra:
                    ra = parent[ra]
                rb = neighbour_cell * 4 + their
                while parent[rb] != rb:
                    parent[rb] = parent[parent[rb]]
                    rb = parent[rb]
                if ra == rb:
                    continue
                if points[ra] < points[rb]:
                    ra, rb = rb, ra
                parent[rb] = ra
                points[ra] += points.pop(rb)
                moved = self._stones.pop(rb, None)
                if moved is not None:
                    self._stones.setdefault(ra, []).extend(moved)
                    unclaimed.discard(ra)
                unclaimed.discard(rb)
        return worth

    # -- groups and stones -----------------------------------------------------------------

    def _find(self, key: int) -> int:
        parent = self._parent
        while parent[key] != key:
            parent[key] = parent[parent[key]]
            key = parent[key]
        return key

    def _union(self, a: int, b: int) -> None:
        ra = self._find(a)
        rb = self._find(b)
        if ra == rb:
            return
        points = self._points
        if points[ra] < points[rb]:  # keep the bigger group's root (union by size, roughly)
            ra, rb = rb, ra
        self._parent[rb] = ra
        points[ra] += points.pop(rb)
        moved = self._stones.pop(rb, None)
        if moved is not None:
            self._stones.setdefault(ra, []).extend(moved)
            self.unclaimed.discard(ra)
        self.unclaimed.discard(rb)

    def group_root(self, x: int, y: int, quadrant: int) -> int:
        """An id of the group holding a micropul (stable until the next placement)."""
        return self._find(cell_key(x, y) * 4 + quadrant)

    def stones_on(self, x: int, y: int, quadrant: int) -> tuple[int, ...]:
        """Players with a stone on the group of this micropul."""
        return tuple(sorted(self._stones.get(self.group_root(x, y, quadrant), ())))

    def add_stone(self, player: int, x: int, y: int, quadrant: int) -> None:
        """Put a stone on a micropul (no check that its group is unclaimed: a position
        may show merged claims; rules.game.Game enforces the claiming rule)."""
        if not self.is_micropul(x, y, quadrant):
            raise ValueError(f"no micropul at ({x}, {y}) {QUADRANT_NAMES[quadrant]}")
        self._claim_key(player, cell_key(x, y) * 4 + quadrant)

    def _claim_key(self, player: int, key: int) -> None:
        self.stones.append((player, *cell_xy(key >> 2), key & 3))
        root = self._find(key)
        self._stones.setdefault(root, []).append(player)
        self.unclaimed.discard(root)

    def open_roots(self) -> set[int]:
        """Roots of the open groups: a micropul on a side of its tile faces an empty cell
        (every empty cell next to a tile is in the frontier, its code telling which
        quadrants of its neighbours face it)."""
        found = set()
        parent = self._parent
        for cell, code in self._codes.items():
            base = cell * 4
            for side in (0, 1, 2, 3):
                for offset in _FACING_KEYS[side][(code >> 4 * side) & 15]:
                    key = base + offset
                    while parent[key] != key:
                        key = parent[key]
                    found.add(key)
        return found

    def group_scores(self) -> dict[int, int]:
        """Points per player from closed groups carrying exactly one stone."""
        scores: dict[int, int] = {}
        claimed = [(root, players[0]) for root, players in self._stones.items()
                   if len(players) == 1]
        if not claimed:
            return scores
        opened = self.open_roots()
        for root, player in claimed:
            if root not in opened:
                scores[player] = scores.get(player, 0) + self._points[root]
        return scores

    def groups(self) -> list[Group]:
        """Every group on the table; quadrants sorted by (x, y, tl/tr/br/bl order), groups
        sorted by their first quadrant."""
        members: dict[int, list[tuple[int, int, int]]] = {}
        for key in self._parent:
            members.setdefault(self._find(key), []).append((*cell_xy(key >> 2), key & 3))
        opened = self.open_roots()
        result = []
        for root, quadrants in members.items():
            quadrants.sort()
            x, y, q = quadrants[0]
            colour = self.tiles.colour[self.cells[cell_key(x, y)]][q]
            result.append(
                Group(
                    colour=COLOUR_NAMES[colour],
                    points=self._points[root],
                    closed=root not in opened,
                    stones=tuple(sorted(self._stones.get(root, ()))),
                    quadrants=tuple(quadrants),
                )
            )
        result.sort(key=lambda g: g.quadrants[0])
        return result


def catalysts(activated: dict[int, int]) -> tuple[Catalyst, ...]:
    """Public form of Board.activations' result, sorted by cell then position."""
    return tuple(
        Catalyst(*cell_xy(key >> 3), POSITION_NAMES[key & 7], KIND_NAMES[kind])
        for key, kind in sorted(activated.items())
    )
