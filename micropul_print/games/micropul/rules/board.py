"""The table: tiles in play, legality of placements, catalysts, groups and stones.

Pure: no I/O. Coordinates: cell (x, y), x grows right, y grows down; quadrants of a cell
are numbered 0..3 = tl, tr, br, bl as they lie on the table. Rotations are clockwise
degrees (0, 90, 180, 270). See docs/rules-engine.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from typing import Final, NamedTuple

from micropul_print.games.micropul.model import QUADRANT_NAMES, Catalogue
from micropul_print.games.micropul.rules.tiles import (
    _OFFSET,
    ALL_EMPTY,
    COLOUR_NAMES,
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
    STRIDE,
    TileSet,
    cell_key,
    cell_xy,
    facing_micropul,
    tileset,
)

# Per side of a placed tile: the neighbourhood code of the cell on that side without the
# nibble that faces back (the one the tile's edge fills).
CLEAR: Final = tuple(ALL_EMPTY & ~(15 << 4 * OPPOSITE[side]) for side in range(4))



class PlacementReason(StrEnum):
    """Why a placement is illegal, in order of precedence."""

    OCCUPIED = "occupied"
    NOT_ADJACENT = "not adjacent"
    COLOUR_CLASH = "colour clash"
    NO_LINK = "no micropul link"


OCCUPIED: Final = PlacementReason.OCCUPIED
NOT_ADJACENT: Final = PlacementReason.NOT_ADJACENT
COLOUR_CLASH: Final = PlacementReason.COLOUR_CLASH
NO_LINK: Final = PlacementReason.NO_LINK
REASONS: Final = tuple(PlacementReason)

# Neighbourhood code -> (cell key step, quadrant) of every micropul of a neighbour that
# faces the empty cell (filled on demand): what keeps a group open.
_FACING: dict[int, tuple[tuple[int, int], ...]] = {}


# Neighbourhood code -> bit ``side`` set when no tile is on that side (filled on demand).
_EMPTY_SIDES: dict[int, int] = {}


def _empty_sides(code: int) -> int:
    empties = sum(1 << side for side in range(4) if (code >> 4 * side) & 15 == NO_TILE)
    _EMPTY_SIDES[code] = empties
    return empties


def _facing(code: int) -> tuple[tuple[int, int], ...]:
    found = _FACING.get(code)
    if found is None:
        pairs = []
        for side in range(4):
            edge = (code >> 4 * side) & 15
            if edge != NO_TILE:
                for i, colour in enumerate((edge // 3, edge % 3)):
                    if colour:
                        pairs.append((STEP[side], SIDE_QUADRANTS[OPPOSITE[side]][i]))
        found = _FACING[code] = tuple(pairs)
    return found


# Kinds of undo records (Board._history).
_PUT: Final = 0
_STONE: Final = 1
_Put = tuple[int, int, tuple[int, ...], tuple[int, ...], dict[int, int]]
_Stone = tuple[int, int, int, int]


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


class Playout(NamedTuple):
    """What Board.playout hands a random playout: its steps, and the packed counts of
    legal placements at the start (see Board.playout)."""

    put: Callable[[int, int, int], tuple[int, int]]
    claim_keys: Callable[[], list[int]]
    claim: Callable[[int, int], None]
    counts: int


class PlacementView(NamedTuple):
    """What a placement on one frontier cell would meet, whatever the tile
    (Board.placement_view): what Match.scores_after works a placement out from."""

    cell: int
    facing: int  # facing_micropul of the cell's neighbourhood code
    # (side, 4 * (4 * the neighbour's orientation + the side facing the cell)) per tile
    # around: the index of TileSet.side_worth without the new tile's micropul bits.
    worth_rows: tuple[tuple[int, int], ...]
    # Whether a group facing the cell carries a stone: the only groups a placement
    # there joins or closes a side of, and those open now (they face the cell), so
    # without a stone among them the scores from groups cannot change.
    claimed: bool
    # Whether one of those has no open side but at this cell: the only groups a
    # placement can close (joining adds open sides, never removes any), so without
    # one the scores from groups cannot change either.
    closable: bool


# (side, cell key step towards it, the side of the neighbour there facing back).
_SIDE_STEPS: Final = tuple((side, STEP[side], OPPOSITE[side]) for side in range(4))


# Reading x and y back from a quadrant key (cell key << 2 | quadrant): y in bits 2.., x
# above it.
_COORD: Final = STRIDE - 1
_X_SHIFT: Final = STRIDE.bit_length() + 1


class Board:
    """Tiles in play, like python-chess's Board but without turns (see rules.game.Match).

    ``place`` applies a placement; ``legality`` says why one would be illegal;
    ``legal_placements`` lists them; ``groups`` describes every group; ``undo`` takes
    back the last placement or stone.

    Inside, tiles are numbered in placement order, and a quadrant is ``4 * number + q``
    (a *quadrant id*): the groups are a union-find over quadrant ids, in lists. No path
    compression: it would rewrite links that ``undo`` must find as they were, and union
    by points keeps the trees shallow (a root's points at least double each level).
    """

    def __init__(self, catalogue: Catalogue | TileSet) -> None:
        self.tiles = catalogue if isinstance(catalogue, TileSet) else tileset(catalogue)
        self.cells: dict[int, int] = {}  # cell key -> tile number (placement order)
        self._oids: list[int] = []  # tile number -> orientation id
        self._keys: list[int] = []  # tile number -> cell key
        # Empty cells next to a tile -> their neighbourhood code, in the order they joined
        # (which the random policy's choice follows).
        self.frontier: dict[int, int] = {}
        self._parent: list[int] = []  # quadrant id -> its parent in the union-find
        self._points: list[int] = []  # quadrant id -> points of its group (at roots)
        self._stones: dict[int, list[int]] = {}  # root -> players with a stone on it
        self.unclaimed: set[int] = set()  # roots of groups without a stone
        # Quadrant id -> (at roots) the group's open (micropul, side) pairs: a micropul on
        # a side of its tile facing an empty cell. A group is closed at 0. None after
        # Match.play_random, which does not keep it: made again from the frontier when
        # needed (see _open_counts).
        self._open: list[int] | None = []
        self.stones: list[tuple[int, int, int, int]] = []  # (player, x, y, quadrant) in order
        # What undo needs, per placement and stone (see _put and _claim).
        # A placement: (_PUT, cell, unions, roots whose open count it lowered, the
        # frontier before it); a stone: (_STONE, quadrant id, root, unclaimed before).
        self._history: list[_Put | _Stone] = []
        # False on a search's scratch copy (Match.scratch_copy): no records are kept,
        # which spares each placement a copy of the frontier.
        self._journal = True

    def clone(self, *, journal: bool = True) -> Board:
        """An independent table in the same state (the tile tables are shared). Without
        ``journal`` (or from a table without it), one that keeps no undo records."""
        board = Board(self.tiles)
        board.cells = self.cells.copy()
        board._oids = self._oids.copy()
        board._keys = self._keys.copy()
        board.frontier = self.frontier.copy()
        board._parent = self._parent.copy()
        board._points = self._points.copy()
        board._open = None if self._open is None else self._open.copy()
        board._stones = {root: players.copy() for root, players in self._stones.items()}
        board.unclaimed = self.unclaimed.copy()
        board.stones = self.stones.copy()
        board._journal = journal and self._journal
        board._history = self._history.copy() if board._journal else []
        return board

    # -- reading the table -------------------------------------------------------------

    def _oid_at(self, x: int, y: int) -> int | None:
        number = self.cells.get(cell_key(x, y))
        return None if number is None else self._oids[number]

    def tile_at(self, x: int, y: int) -> tuple[int, int] | None:
        """(tile id, rotation) of the tile in a cell, or None."""
        oid = self._oid_at(x, y)
        if oid is None:
            return None
        return self.tiles.tile_of[oid], self.tiles.rotation_of[oid]

    def symbol_at(self, x: int, y: int, quadrant: int) -> str | None:
        """The quadrant value (model symbols: white, black, dot, ...) as it lies, or None."""
        oid = self._oid_at(x, y)
        return None if oid is None else self.tiles.symbols[oid][quadrant]

    def is_micropul(self, x: int, y: int, quadrant: int) -> bool:
        oid = self._oid_at(x, y)
        return oid is not None and self.tiles.colour[oid][quadrant] != 0

    def placed(self) -> list[tuple[int, int, int, int]]:
        """(tile, x, y, rotation) of every tile in play, in placement order."""
        t = self.tiles
        return [
            (t.tile_of[oid], *cell_xy(key), t.rotation_of[oid])
            for key, oid in zip(self._keys, self._oids, strict=True)
        ]

    def __len__(self) -> int:
        return len(self._oids)

    def quadrant_key(self, qid: int) -> int:
        """The cell key * 4 + quadrant of a quadrant id: the order claims are listed in."""
        return self._keys[qid >> 2] * 4 + (qid & 3)

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
                facing = self.tiles.edge[self._oids[neighbour]][OPPOSITE[side]]
                result |= PAIR[edges[side]][facing]
        if not adjacent:
            return NOT_ADJACENT
        if result & 2:
            return COLOUR_CLASH
        if not result & 1:
            return NO_LINK
        return None

    def legal_placements(self, tile: int) -> list[tuple[int, int, int]]:
        """Every legal (x, y, rotation) of a tile, sorted; a big tile at rotation 0 only."""
        t = self.tiles
        mask = t.tile_mask[t.index[tile]]
        found = []
        for cell, code in self.frontier.items():
            bits = t.masks[code] & mask
            while bits:
                low = bits & -bits
                bits ^= low
                oid = low.bit_length() - 1
                found.append((*cell_xy(cell), t.rotation_of[oid]))
        return sorted(found)

    def count_legal(self, hand_mask: int) -> int:
        """Number of legal placements of the orientations in ``hand_mask``."""
        masks = self.tiles.masks
        return sum((masks[code] & hand_mask).bit_count() for code in self.frontier.values())

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
            number = self.cells.get(neighbour_cell)
            if number is None:
                continue
            neighbour = self._oids[number]
            back = OPPOSITE[side]
            for i, kind, position in side_catalysts[oid][side]:
                if colour[neighbour][SIDE_QUADRANTS[back][i]]:
                    found[cell * 8 + position] = kind
            for i, kind, position in side_catalysts[neighbour][back]:
                if colour[oid][SIDE_QUADRANTS[side][i]]:
                    found[neighbour_cell * 8 + position] = kind
        return found

    def _put(self, cell: int, oid: int) -> int:
        """Apply a placement known to be allowed: table, frontier and groups, with what
        undo needs. Returns what it activated packed as draws + 256 * pluses (see
        TileSet.own_worth). Match.play_random does the same inline, without the record."""
        t = self.tiles
        cells = self.cells
        oids = self._oids
        frontier = self.frontier
        parent = self._parent
        points = self._points
        stones = self._stones
        unclaimed = self.unclaimed
        masks = t.masks
        opened = self._open
        if opened is None:
            opened = self._open_counts()
        number = len(oids)
        was = frontier.get(cell, -1)  # -1: a first tile, placed unchecked
        journal = self._journal
        # Undo puts it back, its order included.
        frontier_before = frontier.copy() if journal else None
        if was >= 0:
            del frontier[cell]
        cells[cell] = number
        oids.append(oid)
        self._keys.append(cell)
        around = ALL_EMPTY if was < 0 else was
        facing = facing_micropul(around)
        worth = 0
        for bits, value in t.own_worth[oid]:
            if facing & bits:
                worth += value
        base = 4 * number
        first = t.inner_first[oid]
        parent += (base + first[0], base + first[1], base + first[2], base + first[3])
        points += t.inner_points[oid]
        # Open pairs: the new tile's micropul facing the empty cells around it; and the
        # neighbours' micropul that faced this cell no longer do (counted before the
        # unions, at the roots they have again once undo has taken the unions back).
        empties = _EMPTY_SIDES.get(around)
        if empties is None:
            empties = _empty_sides(around)
        counts = t.open_counts.get(16 * oid + empties)
        opened += t.open_counts_for(oid, empties) if counts is None else counts
        pairs = _FACING.get(around)
        closed = []  # the roots of those neighbours' groups, for undo
        for step, q in _facing(around) if pairs is None else pairs:
            root = 4 * cells[cell + step] + q
            while parent[root] != root:
                root = parent[root]
            opened[root] -= 1
            closed.append(root)
        for root in t.inner_roots[oid]:
            unclaimed.add(base + root)
        unions: list[int] = []  # (root kept, root joined, unclaimed before, stones moved)
        side_worth = t.side_worth
        edge_of = t.edge_of
        # Each side's step, frontier code mask and nibble, micropul bits and joins, in
        # one row (TileSet.side_rows), as Board.playout reads them.
        for step, clear, nibble, mine, joined, back in t.side_rows[oid]:
            neighbour_cell = cell + step
            neighbour = cells.get(neighbour_cell)
            if neighbour is None:
                code = frontier.get(neighbour_cell, ALL_EMPTY) & clear | nibble
                frontier[neighbour_cell] = code
                if masks[code] < 0:
                    t.mask_for(code)
                continue
            theirs = 4 * oids[neighbour] + back
            worth += side_worth[4 * theirs + mine]
            for q, their in joined[edge_of[theirs]]:
                union = _join(parent, points, stones, unclaimed, base + q,
                              4 * neighbour + their)
                if union is not None:
                    ra, rb, before, moved = union
                    opened[ra] += opened[rb]
                    unions += (ra, rb, before, moved)
        if journal:
            assert frontier_before is not None
            self._history.append((_PUT, cell, tuple(unions), tuple(closed),
                                  frontier_before))
        return worth

    def playout(self) -> Playout:
        """The table's fast path, for a random playout (Match.play_random): placements
        and stones without undo records (``undo`` cannot go back past them, so the
        records kept so far are dropped) and without the groups' open counts (made
        again from the frontier when next asked for). It also keeps, for the caller,
        every tile's number of legal placements over the frontier, packed in one int
        (TileSet.spreads).

        The placement is Board._put without the records, each side of the new tile
        read from one tuple (TileSet.side_rows) and the micropul facing a cell from one
        table filled with its masks (TileSet.facings); its steps are closures over the
        table's lists, so that a placement costs one call."""
        t = self.tiles
        self._history.clear()
        self._open = None
        cells = self.cells
        oids = self._oids
        keys = self._keys
        frontier = self.frontier
        parent = self._parent
        points = self._points
        stones_on = self._stones
        unclaimed = self.unclaimed
        stones = self.stones
        edge_of = t.edge_of
        side_rows = t.side_rows
        side_worth = t.side_worth
        own_worth = t.own_worth
        inner_first = t.inner_first
        inner_points = t.inner_points
        inner_roots = t.inner_roots
        mask_for = t.mask_for
        spreads = t.spreads
        facings = t.facings
        join = _join
        counts = 0
        for code in frontier.values():
            if spreads[code] < 0:
                mask_for(code)
            counts += spreads[code]

        def put(cell: int, oid: int, counts: int) -> tuple[int, int]:
            """Place orientation ``oid`` on the frontier cell ``cell``: (its worth as
            draws + 256 * pluses, ``counts`` updated)."""
            nonlocal parent, points
            number = len(oids)
            cells[cell] = number
            oids.append(oid)
            keys.append(cell)
            code = frontier.pop(cell)
            counts -= spreads[code]
            facing = facings[code]
            worth = 0
            for bits, value in own_worth[oid]:
                if facing & bits:
                    worth += value
            base = 4 * number
            first = inner_first[oid]
            parent += (base + first[0], base + first[1], base + first[2], base + first[3])
            points += inner_points[oid]
            for root in inner_roots[oid]:
                unclaimed.add(base + root)
            for step, clear, nibble, mine, joined, back in side_rows[oid]:
                neighbour_cell = cell + step
                neighbour = cells.get(neighbour_cell)
                if neighbour is None:
                    old = frontier.get(neighbour_cell, ALL_EMPTY)
                    code = old & clear | nibble
                    frontier[neighbour_cell] = code
                    found = spreads[code]
                    if found < 0:
                        mask_for(code)
                        found = spreads[code]
                    if old == ALL_EMPTY:  # a new frontier cell
                        counts += found
                    else:
                        counts += found - spreads[old]
                    continue
                theirs = 4 * oids[neighbour] + back
                worth += side_worth[4 * theirs + mine]
                for q, their in joined[edge_of[theirs]]:
                    join(parent, points, stones_on, unclaimed, base + q, 4 * neighbour + their)
            return worth, counts

        def claim_keys() -> list[int]:
            """The quadrant keys of the unclaimed groups' roots, sorted."""
            return sorted([keys[root >> 2] * 4 + (root & 3) for root in unclaimed])

        def claim(player: int, key: int) -> None:
            """A stone of ``player`` (from 1) on the micropul of quadrant key ``key``,
            the root of an unclaimed group."""
            root = 4 * cells[key >> 2] + (key & 3)
            stones.append((player, (key >> _X_SHIFT & _COORD) - _OFFSET,
                           (key >> 2 & _COORD) - _OFFSET, key & 3))
            stones_on.setdefault(root, []).append(player)
            unclaimed.discard(root)

        return Playout(put, claim_keys, claim, counts)

    def undo(self) -> None:
        """Take back the last placement or stone (IndexError if there is none): the table
        is as it was, the frontier's order included. Positions played on by
        Match.play_random keep no record: the game's undo refuses to go back past it."""
        record = self._history.pop()
        if len(record) == 4:  # a stone (_STONE)
            _, _, root, was_unclaimed = record
            self.stones.pop()
            players = self._stones[root]
            players.pop()
            if not players:
                del self._stones[root]
            if was_unclaimed:
                self.unclaimed.add(root)
            return
        _, cell, unions, closed, frontier = record
        parent = self._parent
        points = self._points
        opened = self._open
        assert opened is not None  # play_random, which drops it, leaves nothing to undo
        stones = self._stones
        unclaimed = self.unclaimed
        for i in range(len(unions) - 4, -1, -4):
            ra, rb, before, moved = unions[i : i + 4]
            parent[rb] = rb
            points[ra] -= points[rb]
            opened[ra] -= opened[rb]
            if moved:
                players = stones[ra]
                stones[rb] = players[-moved:]
                del players[-moved:]
                if not players:
                    del stones[ra]
            if before & 1:
                unclaimed.add(ra)
            if before & 2:
                unclaimed.add(rb)
        for root in closed:
            opened[root] += 1
        number = self.cells.pop(cell)
        oid = self._oids.pop()
        self._keys.pop()
        base = 4 * number
        del parent[base:]
        del points[base:]
        del opened[base:]
        for root in self.tiles.inner_roots[oid]:
            unclaimed.discard(base + root)
        # A copy: the kept one may be shared with copies of this board.
        self.frontier = frontier.copy()

    # -- a placement worked out without placing it (Match.scores_after) ------------------

    def placement_view(self, cell: int) -> PlacementView:
        """What a placement on the frontier cell ``cell`` would meet (see PlacementView)."""
        around = self.frontier[cell]
        cells = self.cells
        oids = self._oids
        worth_rows = []
        for side, step, back in _SIDE_STEPS:
            number = cells.get(cell + step)
            if number is not None:
                worth_rows.append((side, 4 * (4 * oids[number] + back)))
        claimed = closable = False
        stones = self._stones
        if stones:
            parent = self._parent
            pairs = _FACING.get(around)
            facing: dict[int, int] = {}  # each claimed group facing the cell -> its sides
            for step, q in _facing(around) if pairs is None else pairs:
                root = 4 * cells[cell + step] + q
                while parent[root] != root:
                    root = parent[root]
                if root in stones:
                    facing[root] = facing.get(root, 0) + 1
            if facing:
                claimed = True
                opened = self._open
                if opened is None:
                    opened = self._open_counts()
                for root, sides in facing.items():
                    if opened[root] == sides:
                        closable = True
                        break
        # tuple.__new__: without the NamedTuple's __new__, written in Python.
        return tuple.__new__(PlacementView, (cell, facing_micropul(around), tuple(worth_rows),
                                             claimed, closable))

    def groups_after(self, view: PlacementView, oid: int) -> tuple[dict[int, int], int]:
        """What putting orientation ``oid`` on the view's cell would do to the groups, as
        _put would do it: (points per player of the groups it closes with exactly one
        stone on them, the number of unclaimed groups after). Only the groups facing the
        cell change (joined, or a side closed), and they are open now (they face the
        cell), so they score nothing before it."""
        t = self.tiles
        cell = view.cell
        cells = self.cells
        parent = self._parent
        opened = self._open
        if opened is None:
            opened = self._open_counts()
        stones = self._stones
        unclaimed = self.unclaimed
        around = self.frontier[cell]
        # A union-find of a few nodes: the groups facing the cell by root, the new tile's
        # own groups as -1 - their first quadrant; (points, open pairs, stones) at roots.
        totals: dict[int, tuple[int, int, list[int]]] = {}
        after = len(unclaimed)
        pairs = _FACING.get(around)
        for step, q in _facing(around) if pairs is None else pairs:
            root = 4 * cells[cell + step] + q
            while parent[root] != root:
                root = parent[root]
            known = totals.get(root)
            if known is None:
                totals[root] = (self._points[root], opened[root] - 1,
                                list(stones.get(root, ())))
                if root in unclaimed:
                    after -= 1
            else:  # another of its micropul facing the cell
                totals[root] = (known[0], known[1] - 1, known[2])
        empties = _EMPTY_SIDES.get(around)
        if empties is None:
            empties = _empty_sides(around)
        counts = t.open_counts.get(16 * oid + empties)
        if counts is None:
            counts = t.open_counts_for(oid, empties)
        points = t.inner_points[oid]
        for q in t.inner_roots[oid]:
            totals[-1 - q] = (points[q], counts[q], [])
        link: dict[int, int] = {}
        first = t.inner_first[oid]
        at = 4 * oid
        oids = self._oids
        for side in range(4):
            number = cells.get(cell + STEP[side])
            if number is None:
                continue
            theirs = 4 * oids[number] + OPPOSITE[side]
            for q, their in t.joins[at + side][t.edge_of[theirs]]:
                a = -1 - first[q]
                while a in link:
                    a = link[a]
                b = 4 * number + their
                while parent[b] != b:
                    b = parent[b]
                while b in link:
                    b = link[b]
                if a != b:
                    link[b] = a
                    pa, oa, sa = totals[a]
                    pb, ob, sb = totals[b]
                    totals[a] = (pa + pb, oa + ob, sa + sb)
        gains: dict[int, int] = {}
        for node, (group_points, open_pairs, on) in totals.items():
            if node in link:
                continue
            if not on:
                after += 1
            elif len(on) == 1 and not open_pairs:
                gains[on[0]] = gains.get(on[0], 0) + group_points
        return gains, after

    def can_place(self, hand_mask: int) -> bool:
        """Whether an orientation of ``hand_mask`` has a legal placement now."""
        t = self.tiles
        masks = t.masks
        for code in self.frontier.values():
            mask = masks[code]
            if (t.mask_for(code) if mask < 0 else mask) & hand_mask:
                return True
        return False

    def can_place_after(self, view: PlacementView, oid: int, hand_mask: int) -> bool:
        """Whether, once orientation ``oid`` is on the view's cell, an orientation of
        ``hand_mask`` has a legal placement on the frontier."""
        t = self.tiles
        masks = t.masks
        frontier = self.frontier
        cell = view.cell
        changed = {cell}
        new_codes = []
        for side in range(4):
            neighbour_cell = cell + STEP[side]
            if neighbour_cell not in self.cells:
                changed.add(neighbour_cell)
                new_codes.append(frontier.get(neighbour_cell, ALL_EMPTY) & CLEAR[side]
                                 | t.edge_to[4 * oid + side])
        for other, code in frontier.items():
            if other not in changed:
                mask = masks[code]
                if (t.mask_for(code) if mask < 0 else mask) & hand_mask:
                    return True
        for code in new_codes:
            mask = masks[code]
            if (t.mask_for(code) if mask < 0 else mask) & hand_mask:
                return True
        return False

    # -- groups and stones -----------------------------------------------------------------

    def _find(self, qid: int) -> int:
        parent = self._parent
        while parent[qid] != qid:
            qid = parent[qid]
        return qid

    def _quadrant_id(self, x: int, y: int, quadrant: int) -> int:
        return 4 * self.cells[cell_key(x, y)] + quadrant

    def group_root(self, x: int, y: int, quadrant: int) -> int:
        """An id of the group holding a micropul (stable until the next placement)."""
        return self._find(self._quadrant_id(x, y, quadrant))

    def stones_on(self, x: int, y: int, quadrant: int) -> tuple[int, ...]:
        """Players with a stone on the group of this micropul."""
        return tuple(sorted(self._stones.get(self.group_root(x, y, quadrant), ())))

    def add_stone(self, player: int, x: int, y: int, quadrant: int) -> None:
        """Put a stone on a micropul (no check that its group is unclaimed: a position
        may show merged claims; rules.game.Match enforces the claiming rule)."""
        if not self.is_micropul(x, y, quadrant):
            raise ValueError(f"no micropul at ({x}, {y}) {QUADRANT_NAMES[quadrant]}")
        self._claim(player, self._quadrant_id(x, y, quadrant))

    def _claim(self, player: int, qid: int) -> None:
        self.stones.append((player, *cell_xy(self._keys[qid >> 2]), qid & 3))
        root = self._find(qid)
        was_unclaimed = root in self.unclaimed
        self._stones.setdefault(root, []).append(player)
        self.unclaimed.discard(root)
        if self._journal:
            self._history.append((_STONE, qid, root, int(was_unclaimed)))

    def open_roots(self, wanted: set[int] | None = None) -> set[int]:
        """Roots of the open groups: a micropul on a side of its tile faces an empty cell
        (every empty cell next to a tile is in the frontier, its code telling which
        quadrants of its neighbours face it). With ``wanted``, only those roots are
        looked for, and the walk stops once each is found open."""
        if wanted is None:
            return set(self._facing_roots())
        found = set()
        left = len(wanted)
        for root in self._facing_roots():
            if root in wanted and root not in found:
                found.add(root)
                left -= 1
                if not left:
                    break
        return found

    def _facing_roots(self) -> Iterator[int]:
        """The group root of each micropul facing an empty cell, once per such pair
        (every empty cell next to a tile is in the frontier, its code telling which
        quadrants of its neighbours face it)."""
        parent = self._parent
        cells = self.cells
        known = _FACING
        for cell, code in self.frontier.items():
            pairs = known.get(code)
            for step, q in _facing(code) if pairs is None else pairs:
                root = 4 * cells[cell + step] + q
                while parent[root] != root:
                    root = parent[root]
                yield root

    def _open_counts(self) -> list[int]:
        """The open pairs of each group (see _open), made again from the frontier."""
        opened = [0] * len(self._parent)
        for root in self._facing_roots():
            opened[root] += 1
        self._open = opened
        return opened

    def group_scores(self) -> dict[int, int]:
        """Points per player from closed groups carrying exactly one stone."""
        scores: dict[int, int] = {}
        points = self._points
        opened = self._open
        if opened is None:
            # After play_random (its final scores): a walk that stops once every claimed
            # group is found open costs less than making the counts again.
            claimed = {root: players[0] for root, players in self._stones.items()
                       if len(players) == 1}
            if claimed:
                walked = self.open_roots(set(claimed))
                for root, player in claimed.items():
                    if root not in walked:
                        scores[player] = scores.get(player, 0) + points[root]
            return scores
        for root, players in self._stones.items():
            if len(players) == 1 and not opened[root]:
                player = players[0]
                scores[player] = scores.get(player, 0) + points[root]
        return scores

    def micropul_ids(self) -> list[int]:
        """The quadrant id of every micropul on the table, in placement order."""
        colour = self.tiles.colour
        return [
            4 * number + q
            for number, oid in enumerate(self._oids)
            for q in range(4)
            if colour[oid][q]
        ]

    def groups(self) -> list[Group]:
        """Every group on the table; quadrants sorted by (x, y, tl/tr/br/bl order), groups
        sorted by their first quadrant."""
        members: dict[int, list[tuple[int, int, int]]] = {}
        keys = self._keys
        for qid in self.micropul_ids():
            members.setdefault(self._find(qid), []).append((*cell_xy(keys[qid >> 2]), qid & 3))
        opened = self.open_roots()
        result = []
        for root, quadrants in members.items():
            quadrants.sort()
            colour = self.tiles.colour[self._oids[root >> 2]][root & 3]
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


def _join(parent: list[int], points: list[int], stones: dict[int, list[int]],
          unclaimed: set[int], a: int, b: int) -> tuple[int, int, int, int] | None:
    """Join the groups of quadrants ``a`` and ``b`` (union by points; on a tie, ``a``'s
    root is kept), their stones and claim with them: (the root kept, the root joined,
    which of the two were unclaimed before, as bits 1 and 2, the stones moved), or None
    when they were one group. Board._put and the playout's put share it."""
    while parent[a] != a:
        a = parent[a]
    while parent[b] != b:
        b = parent[b]
    if a == b:
        return None
    if points[a] < points[b]:
        a, b = b, a
    before = (a in unclaimed) | (b in unclaimed) << 1
    parent[b] = a
    points[a] += points[b]
    moved = stones.pop(b, None)
    if moved is None:
        unclaimed.discard(b)
        return a, b, before, 0
    stones.setdefault(a, []).extend(moved)
    unclaimed.discard(a)
    unclaimed.discard(b)
    return a, b, before, len(moved)


def catalysts(activated: dict[int, int]) -> tuple[Catalyst, ...]:
    """Public form of Board.activations' result, sorted by cell then position."""
    return tuple(
        Catalyst(*cell_xy(key >> 3), POSITION_NAMES[key & 7], KIND_NAMES[kind])
        for key, kind in sorted(activated.items())
    )
