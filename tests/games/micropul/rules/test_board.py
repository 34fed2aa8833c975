"""Board: rules #1 and #2 with reasons, catalysts, big tiles, groups, stones, scoring."""

from __future__ import annotations

import pytest

from micropul_print.games.micropul.model import Catalogue
from micropul_print.games.micropul.rules import (
    COLOUR_CLASH,
    NO_LINK,
    NOT_ADJACENT,
    OCCUPIED,
    Board,
    IllegalPlacementError,
)


def board_with(catalogue: Catalogue, *placements: tuple[int, int, int, int]) -> Board:
    board = Board(catalogue)
    for i, placement in enumerate(placements):
        board.place(*placement, check=i > 0)
    return board


def test_reasons_in_order_of_precedence(catalogue: Catalogue) -> None:
    board = board_with(catalogue, (41, 0, 0, 0))
    assert board.legality(48, 0, 0, 0) == OCCUPIED
    assert board.legality(48, 2, 0, 0) == NOT_ADJACENT
    assert board.legality(48, 0, -1, 0) == COLOUR_CLASH  # black on the white top
    assert board.legality(1, 1, 0, 90) == NO_LINK  # its white faces up, not left
    assert board.legality(1, 1, 0, 0) is None


def test_a_clash_on_one_edge_forbids_a_link_on_another(catalogue: Catalogue) -> None:
    board = board_with(catalogue, (41, 0, 0, 0), (47, 0, -1, 0), (35, 1, 0, 0))
    # Cell (1, -1) has 47's all-white east side on its left and 35's top (W B) below.
    # 43 (big white): white meets white on both edges except over 35's black.
    assert board.legality(43, 1, -1, 0) == COLOUR_CLASH
    # 27 at 90 has white at tr and bl only: bl sits on 35's white and beside 47's white,
    # its blank br sits on 35's black: legal.
    assert board.symbol_at(1, 0, 1) == "black"
    assert board.legality(27, 1, -1, 90) is None


def test_place_refuses_illegal_placements_with_the_reason(catalogue: Catalogue) -> None:
    board = board_with(catalogue, (41, 0, 0, 0))
    with pytest.raises(IllegalPlacementError, match=r"tile 48 at \(0, -1\).*colour clash") as info:
        board.place(48, 0, -1, 0)
    assert info.value.reason == COLOUR_CLASH
    assert len(board) == 1  # nothing was placed
    with pytest.raises(IllegalPlacementError):
        board.place(48, 0, 0, 0, check=False)  # occupied even without checks
    with pytest.raises(ValueError, match="rotation"):
        board.legality(48, 0, 1, 45)


def test_first_tile_needs_no_neighbour(catalogue: Catalogue) -> None:
    board = board_with(catalogue, (7, 5, -3, 90))
    assert board.tile_at(5, -3) == (7, 90)
    assert board.symbol_at(5, -3, 1) == "white"  # printed tl lies at tr after 90 degrees


def test_catalyst_activated_once_per_placement(catalogue: Catalogue) -> None:
    board = board_with(catalogue, (41, 0, 0, 0))
    placement = board.place(43, 0, -1, 0)  # two white micropul touch its centre
    assert [(c.x, c.y, c.position, c.kind) for c in placement.activated] == [
        (0, -1, "centre", "dot")
    ]
    assert placement.draws == 1


def test_big_tile_centre_activated_from_a_neighbour_placement(catalogue: Catalogue) -> None:
    board = board_with(catalogue, (41, 0, 0, 0), (44, 0, 1, 0))
    placement = board.place(48, 1, 1, 0)  # beside the big black tile, under 41's black
    assert {(c.x, c.y, c.position) for c in placement.activated} == {(0, 1, "centre")}
    assert placement.draws == 1 and placement.plus == 0


def test_catalysts_never_hold_a_tile(catalogue: Catalogue) -> None:
    board = board_with(catalogue, (41, 0, 0, 0))
    # 21 at rotation 0 shows its two-dot and a blank to the white top: no link.
    assert board.legality(21, 0, -1, 0) == NO_LINK
    assert board.preview(21, 0, -1, 270)[0].kind == "double"


def test_preview_does_not_change_the_board(catalogue: Catalogue) -> None:
    board = board_with(catalogue, (41, 0, 0, 0))
    board.preview(43, 0, -1, 0)
    assert len(board) == 1 and board.tile_at(0, -1) is None


def test_groups_merge_and_big_micropul_count_once(catalogue: Catalogue) -> None:
    board = board_with(catalogue, (41, 0, 0, 0), (43, 0, -1, 0), (37, 0, -2, 0))
    white = next(g for g in board.groups() if g.colour == "white")
    assert white.points == 4  # 41's two + two big micropul at one point each
    assert len(white.quadrants) == 10
    assert white.quadrants[0] == (0, -2, 0)  # sorted by x, then y, then tl/tr/br/bl


def test_closed_only_when_every_neighbouring_quadrant_is_occupied(catalogue: Catalogue) -> None:
    ring = [(41, 0, 0, 0), (15, 0, -1, 180), (35, 1, 0, 0), (33, 1, -1, 270), (36, -1, 0, 0)]
    board = board_with(catalogue, *ring)
    white = next(g for g in board.groups() if (0, 0, 0) in g.quadrants)
    assert not white.closed
    board.place(34, -1, -1, 0)
    white = next(g for g in board.groups() if (0, 0, 0) in g.quadrants)
    assert white.closed and white.points == 8


def test_scoring_closed_groups_with_exactly_one_stone(catalogue: Catalogue) -> None:
    ring = [(41, 0, 0, 0), (15, 0, -1, 180), (35, 1, 0, 0), (33, 1, -1, 270), (36, -1, 0, 0)]
    board = board_with(catalogue, *ring, (34, -1, -1, 0))
    board.add_stone(1, 0, 0, 0)
    board.add_stone(2, 0, 0, 3)  # the black group is open
    assert board.group_scores() == {1: 8}
    assert board.stones_on(1, -1, 3) == (1,)  # the same white group, seen elsewhere
    board.add_stone(2, 1, 0, 0)  # a second stone on the white group: nobody scores it
    assert board.group_scores() == {}


def test_stones_only_on_micropul(catalogue: Catalogue) -> None:
    board = board_with(catalogue, (7, 0, 0, 0))
    with pytest.raises(ValueError, match="no micropul"):
        board.add_stone(1, 0, 0, 2)  # 7's one-dot catalyst


def test_legal_placements_agree_with_legality(catalogue: Catalogue) -> None:
    board = board_with(catalogue, (41, 0, 0, 0), (15, 0, -1, 180), (35, 1, 0, 0), (33, 1, -1, 270))
    for tile in (1, 13, 29, 36, 37, 44, 47):
        rotations = (0,) if catalogue.tile(tile).big else (0, 90, 180, 270)
        brute = sorted(
            (x, y, r)
            for x in range(-3, 4)
            for y in range(-3, 3)
            for r in rotations
            if board.legality(tile, x, y, r) is None
        )
        assert board.legal_placements(tile) == brute, tile


def test_separately_claimed_groups_merge_with_both_stones(catalogue: Catalogue) -> None:
    board = board_with(catalogue, (41, 0, 0, 0), (28, 0, 1, 0), (14, 0, 2, 90), (30, 1, 0, 180))
    board.add_stone(1, 0, 0, 2)  # the start tile's black, grown into 28 and 30
    board.add_stone(2, 0, 1, 2)  # 28's other black micropul, joined to 14's
    assert board.stones_on(0, 0, 2) == (1,) and board.stones_on(0, 1, 2) == (2,)
    assert board.group_root(0, 0, 2) != board.group_root(0, 1, 2)
    assert not board.unclaimed & {board.group_root(0, 0, 2), board.group_root(0, 1, 2)}
    board.place(48, 1, 1, 0)  # all black: touches 30's black above and 28's on its left
    assert board.group_root(0, 0, 2) == board.group_root(0, 1, 2)
    merged = next(g for g in board.groups() if (0, 1, 2) in g.quadrants)
    assert merged.stones == (1, 2) and merged.scores_for is None
    assert board.group_root(0, 0, 2) not in board.unclaimed
