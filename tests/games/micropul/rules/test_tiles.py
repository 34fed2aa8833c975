"""Orientation tables: rotations, edges, and the cached legal-orientation masks."""

from __future__ import annotations

import pytest

from micropul_print.games.micropul.model import Catalogue
from micropul_print.games.micropul.rules.tiles import (
    COORD_LIMIT,
    NO_TILE,
    PAIR,
    cell_key,
    cell_xy,
    tileset,
)


def test_rotation_is_clockwise(catalogue: Catalogue) -> None:
    tile = catalogue.tile(19)  # white, dot / plus, blank
    assert tile.quadrants == ("white", "dot", "empty", "plus")
    assert tile.rotated(90) == ("plus", "white", "dot", "empty")  # printed tl now at tr
    assert tile.rotated(180) == ("empty", "plus", "white", "dot")
    assert tile.rotated(270) == ("dot", "empty", "plus", "white")


def test_edges_read_facing_quadrants_in_the_same_order(catalogue: Catalogue) -> None:
    ts = tileset(catalogue)
    start = ts.oid(41, 0)  # W W / B B
    white, black = 1, 2
    assert ts.edge[start] == (
        3 * white + white,
        3 * white + black,
        3 * black + black,
        3 * white + black,
    )


def test_pair_table() -> None:
    white_white, white_none, black_black, white_black = 4, 3, 8, 5
    assert PAIR[white_white][white_white] == 1  # two links
    assert PAIR[white_none][white_black] == 1  # one link, blank touches black
    assert PAIR[white_white][black_black] == 2  # clash
    assert PAIR[white_black][white_white] == 3  # a link and a clash
    assert PAIR[0][white_white] == 0


def test_big_tiles_are_listed_at_rotation_0_only(catalogue: Catalogue) -> None:
    ts = tileset(catalogue)
    big = ts.index[43]
    assert ts.tile_mask[big] == 1 << (4 * big)
    small = ts.index[47]
    assert ts.tile_mask[small] == 0b1111 << (4 * small)


def test_mask_for_matches_a_direct_check(catalogue: Catalogue) -> None:
    ts = tileset(catalogue)
    start = ts.oid(41, 0)
    # An empty cell with the start tile below it: facing edge = the start tile's top.
    code = sum(NO_TILE << (4 * side) for side in (0, 1, 3)) | ts.edge[start][0] << 8
    mask = ts.mask_for(code)
    for oid in range(ts.size):
        legal = PAIR[ts.edge[oid][2]][ts.edge[start][0]] == 1
        listed = bool(ts.listed_mask >> oid & 1)
        assert bool(mask >> oid & 1) == (legal and listed), (ts.tile_of[oid], ts.rotation_of[oid])


def test_cell_keys_round_trip_and_refuse_far_cells() -> None:
    for x, y in ((0, 0), (-5, 7), (COORD_LIMIT - 1, -COORD_LIMIT + 1)):
        assert cell_xy(cell_key(x, y)) == (x, y)
    with pytest.raises(ValueError, match="too far"):
        cell_key(COORD_LIMIT, 0)


def test_tileset_is_cached_per_catalogue(catalogue: Catalogue) -> None:
    assert tileset(catalogue) is tileset(catalogue)
