"""Tile orientations as small integers, and the tables the board reads them through.

Every (tile, rotation) pair gets an orientation id ``oid = 4 * index + rotation // 90``
(``index`` = the tile's position in the catalogue). For each orientation and each side
the table keeps an *edge code*: the colour of the two quadrants on that side (0 none,
1 white, 2 black) as ``3 * first + second``, the two read so that facing quadrants of
neighbouring tiles share a position (left to right on top/bottom, top to bottom on the
left/right sides). An empty cell next to tiles is summarised by a *neighbourhood code*
(the facing edge codes of its four neighbours, 4 bits each, 15 = no tile), and the set
of orientations legal in that neighbourhood is cached per code as a bitmask (an int):
legal placements of a hand are then ``(mask & hand_mask).bit_count()`` per empty cell.
"""

from __future__ import annotations

from collections.abc import Iterable

from micropul_print.games.micropul.model import (
    BLACK,
    DOT,
    DOUBLE,
    PLUS,
    WHITE,
    Catalogue,
)

# Sides of a cell, and the quadrants (tl=0, tr=1, br=2, bl=3) along each, in the
# order that makes facing quadrants of two neighbours line up position by position.
N, E, S, W = 0, 1, 2, 3
SIDE_QUADRANTS = ((0, 1), (1, 2), (3, 2), (0, 3))
OPPOSITE = (S, W, N, E)
# The two sides of the tile each quadrant touches.
QUADRANT_SIDES = ((N, W), (N, E), (E, S), (S, W))
DX = (0, 1, 0, -1)
DY = (-1, 0, 1, 0)

ROTATIONS = (0, 90, 180, 270)
CENTRE = 4  # position id of a big tile's central catalyst
POSITION_NAMES = ("tl", "tr", "br", "bl", "centre")

# Catalyst kinds as small ints; 0 = no catalyst.
KIND_CODES = {DOT: 1, DOUBLE: 2, PLUS: 3}
KIND_NAMES = ("", DOT, DOUBLE, PLUS)
KIND_DRAWS = (0, 1, 2, 0)
KIND_PLUS = (0, 0, 0, 1)
COLOUR_CODES = {WHITE: 1, BLACK: 2}
COLOUR_NAMES = ("", WHITE, BLACK)

NO_TILE = 15  # neighbourhood code nibble for "no tile on this side"
ALL_EMPTY = 0xFFFF  # neighbourhood code of a cell with no tile around it

# Cells are packed into one int: small enough for CPython's fast single-digit ints.
COORD_LIMIT = 8000  # |x|, |y| must stay below this
_OFFSET = 8192
STRIDE = 16384
STEP = (-1, STRIDE, 1, -STRIDE)  # cell key delta towards N, E, S, W


# A placement's sort key: tile rank << PLACE_RANK_SHIFT | cell key << 2 | rotation step
# (cell keys are below STRIDE ** 2 = 2 ** 28).
PLACE_RANK_SHIFT = 30


def cell_key(x: int, y: int) -> int:
    if not (-COORD_LIMIT < x < COORD_LIMIT and -COORD_LIMIT < y < COORD_LIMIT):
        raise ValueError(f"cell ({x}, {y}) is too far from the origin (limit {COORD_LIMIT})")
    return (x + _OFFSET) * STRIDE + (y + _OFFSET)


def cell_xy(key: int) -> tuple[int, int]:
    return key // STRIDE - _OFFSET, key % STRIDE - _OFFSET


def _pair_result(a: int, b: int) -> int:
    """Bit 1: a micropul link across the edge; bit 2: a colour clash."""
    result = 0
    for ca, cb in ((a // 3, b // 3), (a % 3, b % 3)):
        if ca and cb:
            result |= 1 if ca == cb else 2
    return result


PAIR = tuple(tuple(_pair_result(a, b) for b in range(9)) for a in range(9))


def _micropul_bits(edge: int) -> int:
    """Bit i: the quadrant at position i of an edge code is a micropul."""
    return 0 if edge == NO_TILE else (edge // 3 != 0) | (edge % 3 != 0) << 1


# Neighbourhood code byte (two sides) -> the micropul facing each position of those two
# sides (2 bits per side): bit 2 * side + i of FACING_MICROPUL(code) says the quadrant
# facing position i of that side is a micropul (what activates a catalyst there).
_FACING_BYTE = tuple(_micropul_bits(b & 15) | _micropul_bits(b >> 4) << 2 for b in range(256))


def facing_micropul(code: int) -> int:
    return _FACING_BYTE[code & 255] | _FACING_BYTE[code >> 8] << 4


# Byte of a legal-orientation mask (two tiles, four rotations each) -> legal rotations of
# its first tile (low nibble) / of its second (high nibble). See TileSet.spread.
_LOW_COUNT = bytes((b & 15).bit_count() for b in range(256))
_HIGH_COUNT = bytes((b >> 4).bit_count() for b in range(256))


# (side, my edge code * 9 + facing edge code) -> (my quadrant, facing quadrant) pairs of
# the same colour across that side: the micropul a placement joins into one group.
JOINS = tuple(
    tuple(
        tuple(
            (SIDE_QUADRANTS[side][i], SIDE_QUADRANTS[OPPOSITE[side]][i])
            for i, (ca, cb) in enumerate(((a // 3, b // 3), (a % 3, b % 3)))
            if ca and ca == cb
        )
        for a in range(9)
        for b in range(9)
    )
    for side in range(4)
)


# Most fields of TileSet.spreads summed at once (a hand holds at most 6 tiles).
HAND_FIELDS = 8

# See TileSet.side_rows.
SideRow = tuple[int, int, int, int, tuple[tuple[tuple[int, int], ...], ...], int]


class TileSet:
    """Precomputed orientation tables for one catalogue (see the module docstring)."""

    def __init__(self, catalogue: Catalogue) -> None:
        self.catalogue = catalogue
        self.tile_ids = tuple(t.id for t in catalogue.tiles)
        self.index = {tid: i for i, tid in enumerate(self.tile_ids)}
        count = 4 * len(self.tile_ids)
        self.size = count
        self.tile_of: list[int] = []
        self.rotation_of: list[int] = []
        self.symbols: list[tuple[str, str, str, str]] = []
        self.colour: list[tuple[int, int, int, int]] = []
        self.edge: list[tuple[int, int, int, int]] = []
        self.big: list[bool] = []
        # Per side: (position on the side, catalyst kind, position id) of each catalyst.
        self.side_catalysts: list[tuple[tuple[tuple[int, int, int], ...], ...]] = []
        # The tile's own groups: (first quadrant, its quadrants, points); a big micropul
        # is one group of four quadrants worth 1.
        self.inner_groups: list[tuple[tuple[int, tuple[int, ...], int], ...]] = []
        self.tile_mask: list[int] = []  # per tile index: its listed orientations
        listed = 0
        for index, tile in enumerate(catalogue.tiles):
            mask = 0
            for step, rotation in enumerate(ROTATIONS):
                oid = 4 * index + step
                quads = tile.rotated(rotation)
                big = tile.big is not None
                colours = tuple(COLOUR_CODES.get(q, 0) for q in quads)
                kinds = (
                    (KIND_CODES[tile.big.catalyst],) * 4
                    if tile.big is not None
                    else tuple(KIND_CODES.get(q, 0) for q in quads)
                )
                self.tile_of.append(tile.id)
                self.rotation_of.append(rotation)
                self.symbols.append(quads)
                self.colour.append(colours)  # type: ignore[arg-type]
                self.big.append(big)
                self.edge.append(
                    tuple(3 * colours[a] + colours[b] for a, b in SIDE_QUADRANTS)  # type: ignore[arg-type]
                )
                self.side_catalysts.append(
                    tuple(
                        tuple(
                            (i, kinds[q], CENTRE if big else q)
                            for i, q in enumerate(SIDE_QUADRANTS[side])
                            if kinds[q]
                        )
                        for side in range(4)
                    )
                )
                self.inner_groups.append(_inner_groups(colours, big))  # type: ignore[arg-type]
                if step == 0 or not big:  # a big tile looks the same in every rotation
                    mask |= 1 << oid
            self.tile_mask.append(mask)
            listed |= mask
        self.listed_mask = listed
        # Per side and facing edge code: orientations with a link / a clash on that side.
        # Orientations by the edge code they show on each side, as masks built from bytes
        # (OR-ing one bit at a time into a mask of every orientation is quadratic).
        showing = [[bytearray(count // 8 + 1) for _ in range(9)] for _ in range(4)]
        for oid, edges in enumerate(self.edge):
            byte, bit = oid >> 3, 1 << (oid & 7)
            for side in range(4):
                showing[side][edges[side]][byte] |= bit
        shown = [[int.from_bytes(b, "little") for b in side] for side in showing]
        self._links = [
            [_union(shown[side][e] for e in range(9) if PAIR[e][facing] & 1) for facing in range(9)]
            for side in range(4)
        ]
        self._clashes = [
            [_union(shown[side][e] for e in range(9) if PAIR[e][facing] & 2) for facing in range(9)]
            for side in range(4)
        ]
        # Per neighbourhood code (16 bits), filled on demand by mask_for (-1: not yet):
        # the legal orientations (a mask of orientation ids), and every tile's number of
        # legal rotations in that cell, packed in one int with a field of count_bits
        # bits per tile index (tile id t at shift count_shift[t]). Summed over the
        # frontier, the packed counts give each tile's number of legal placements, and a
        # hand's total is the sum of a few fields. A field holds at most 4 rotations x 4
        # frontier cells per tile on the table; no tile around counts nothing. Fields are
        # wide enough for the sum of HAND_FIELDS of them, less than count_mask: the sum of
        # the fields of an int made of them is then the int % count_mask (as a number's
        # digits sum to it modulo the base - 1).
        self.masks = [-1] * 0x10000
        self.spreads = [-1] * 0x10000
        self.masks[ALL_EMPTY] = self.spreads[ALL_EMPTY] = 0
        # facing_micropul(code), filled with masks (every code in a frontier has it).
        self.facings = [0] * 0x10000
        most = HAND_FIELDS * (16 * len(self.tile_ids) + 16)
        self.count_bits = 8 * -(-(most + 1).bit_length() // 8)
        self.count_mask = (1 << self.count_bits) - 1
        self.count_shift = {tid: self.count_bits * i for i, tid in enumerate(self.tile_ids)}
        self._mask_bytes = (count + 7) // 8
        # Flat per-(orientation, side) tables for the placement loop (index 4 * oid + side).
        # A catalyst's worth is packed as draws + 256 * pluses, so sums stay one int.
        self.edge_to: list[int] = []  # edge code, shifted to its nibble in the facing code
        self.micropul_on: list[int] = []  # bit i: a micropul at position i of the side
        # Per (orientation, side) and the micropul bits facing that side (2 bits, index
        # 4 * (4 * oid + side) + bits): the worth of the side's catalysts they activate
        # (touching one of its positions; a big tile's centre: either position).
        self.side_worth: list[int] = []
        # Per (orientation, side): facing edge code -> the quadrant pairs joined (JOINS).
        self.joins: list[tuple[tuple[tuple[int, int], ...], ...]] = []
        self.edge_of: list[int] = []  # per (orientation, side): its edge code
        # Per orientation: its catalysts as (facing_micropul bits that activate it, worth).
        self.own_worth: list[tuple[tuple[int, int], ...]] = []
        # Per orientation, the tile's own groups: per quadrant the first quadrant of its
        # group (itself if not a micropul), per quadrant the points of the group it is
        # the first of (else 0), and the first quadrants.
        self.inner_first: list[tuple[int, int, int, int]] = []
        self.inner_points: list[tuple[int, int, int, int]] = []
        self.inner_roots: list[tuple[int, ...]] = []
        # Per (orientation, side): the quadrants showing a micropul on that side.
        self.side_micropul: list[tuple[int, ...]] = []
        # Per orientation: its quadrants showing a micropul.
        self.micropul_quadrants = [tuple(q for q in range(4) if colours[q])
                                   for colours in self.colour]
        # 16 * orientation + the sides with no tile (a bit each) -> per quadrant first of
        # its group, the group's micropul facing those sides (Board._open); on demand.
        self.open_counts: dict[int, tuple[int, int, int, int]] = {}
        # The mask of a tile's listed orientations (Match's hand masks), per orientation
        # and per tile id.
        self.oid_tile_mask = [self.tile_mask[oid >> 2] for oid in range(count)]
        self.mask_of_tile = dict(zip(self.tile_ids, self.tile_mask, strict=True))
        # Per orientation, for Match.play_random: per side, (cell key step towards it, the
        # mask keeping the other sides of the neighbourhood code of the cell there, this
        # side's edge code in its nibble of that code, the micropul bits on this side, the
        # pairs it joins by facing edge code (JOINS), the opposite side). They depend only
        # on the edge codes: orientations showing the same edges share one tuple.
        rows = [
            [
                (
                    STEP[side], ALL_EMPTY & ~(15 << 4 * OPPOSITE[side]),
                    edge << 4 * OPPOSITE[side], _micropul_bits(edge),
                    JOINS[side][9 * edge : 9 * edge + 9], OPPOSITE[side],
                )
                for edge in range(9)
            ]
            for side in range(4)
        ]
        shared: dict[tuple[int, ...], tuple[SideRow, ...]] = {}
        self.side_rows: list[tuple[SideRow, ...]] = []
        for edges in self.edge:
            four = shared.get(edges)
            if four is None:
                four = shared[edges] = tuple(rows[side][edges[side]] for side in range(4))
            self.side_rows.append(four)
        # Match.legal_actions sorts placements by (tile id, x, y, rotation) as one int,
        # PLACE_ORDER(oid) | cell key << 2 (see place_order), whose top part is the
        # tile's rank in sorted_ids.
        self.sorted_ids = sorted(self.tile_ids)
        rank = {tid: i for i, tid in enumerate(self.sorted_ids)}
        self.place_order = [
            rank[self.tile_of[oid]] << PLACE_RANK_SHIFT | (oid & 3) for oid in range(count)
        ]
        for oid in range(count):
            found: dict[int, tuple[int, int]] = {}  # position -> (facing bits, worth)
            for side in range(4):
                mine = self.edge[oid][side]
                self.edge_to.append(mine << 4 * OPPOSITE[side])
                self.micropul_on.append(_micropul_bits(mine))
                self.edge_of.append(mine)
                self.joins.append(JOINS[side][9 * mine : 9 * mine + 9])
                self.side_micropul.append(
                    tuple(q for q in SIDE_QUADRANTS[side] if self.colour[oid][q])
                )
                on_side: dict[int, tuple[int, int]] = {}
                for i, kind, position in self.side_catalysts[oid][side]:
                    worth = KIND_DRAWS[kind] + 256 * KIND_PLUS[kind]
                    bits, _ = on_side.get(position, (0, worth))
                    on_side[position] = (bits | 1 << i, worth)
                    bits, _ = found.get(position, (0, worth))
                    found[position] = (bits | 1 << (2 * side + i), worth)
                for facing in range(4):
                    self.side_worth.append(
                        sum(value for bits, value in on_side.values() if bits & facing)
                    )
            self.own_worth.append(tuple(found[p] for p in sorted(found)))
            first = [0, 1, 2, 3]
            points = [0, 0, 0, 0]
            for group_first, quadrants, group_points in self.inner_groups[oid]:
                for q in quadrants:
                    first[q] = group_first
                points[group_first] = group_points
            self.inner_first.append((first[0], first[1], first[2], first[3]))
            self.inner_points.append((points[0], points[1], points[2], points[3]))
            self.inner_roots.append(tuple(g[0] for g in self.inner_groups[oid]))

    def oid(self, tile_id: int, rotation: int) -> int:
        return 4 * self.index[tile_id] + (rotation // 90) % 4

    def open_counts_for(self, oid: int, empties: int) -> tuple[int, int, int, int]:
        """open_counts[16 * oid + empties], made and kept."""
        first = self.inner_first[oid]
        counts = [0, 0, 0, 0]
        for side in range(4):
            if empties >> side & 1:
                for q in self.side_micropul[4 * oid + side]:
                    counts[first[q]] += 1
        found = self.open_counts[16 * oid + empties] = (counts[0], counts[1], counts[2],
                                                        counts[3])
        return found

    def mask_for(self, code: int) -> int:
        """Bitmask of the listed orientations legal in an empty cell of this neighbourhood:
        a link on some side and a clash on none (also fills spreads[code] and facings[code])."""
        mask = self.masks[code]
        if mask < 0:
            linked = clashing = 0
            for side in range(4):
                facing = (code >> (4 * side)) & 15
                if facing != NO_TILE:
                    linked |= self._links[side][facing]
                    clashing |= self._clashes[side][facing]
            mask = self.masks[code] = linked & ~clashing & self.listed_mask
            self.spreads[code] = self.spread(mask)
            self.facings[code] = facing_micropul(code)
        return mask

    def spread(self, mask: int) -> int:
        """The legal rotations of each tile in an orientation mask, as one int with a
        field of count_bits bits per tile index (see spreads). Made with bytes, not a
        loop over tiles: a byte of the mask holds two tiles' rotations."""
        raw = mask.to_bytes(self._mask_bytes, "little")
        width = self.count_bits // 8
        packed = bytearray(len(raw) * 2 * width)
        packed[0 :: 2 * width] = raw.translate(_LOW_COUNT)
        packed[width :: 2 * width] = raw.translate(_HIGH_COUNT)
        return int.from_bytes(packed, "little")


def _union(masks: Iterable[int]) -> int:
    found = 0
    for mask in masks:
        found |= mask
    return found


def _inner_groups(
    colours: tuple[int, int, int, int], big: bool
) -> tuple[tuple[int, tuple[int, ...], int], ...]:
    """Micropul of one tile joined along the tile's inner edges (tl-tr-br-bl-tl)."""
    groups = []
    seen: set[int] = set()
    for q in range(4):
        if not colours[q] or q in seen:
            continue
        members = [q]
        for step in (1, 3):  # walk clockwise, then anticlockwise, while the colour holds
            other = (q + step) % 4
            while colours[other] == colours[q] and other not in members:
                members.append(other)
                other = (other + step) % 4
        seen.update(members)
        groups.append((q, tuple(sorted(members)), 1 if big else len(members)))
    return tuple(groups)


_TILESETS: dict[int, TileSet] = {}


def tileset(catalogue: Catalogue) -> TileSet:
    """The cached tables of a catalogue (the cache keeps it alive, so its id stays valid)."""
    found = _TILESETS.get(id(catalogue))
    if found is None or found.catalogue is not catalogue:
        found = _TILESETS[id(catalogue)] = TileSet(catalogue)
    return found
