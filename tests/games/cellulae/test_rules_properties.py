"""Property tests for the Cellulae engine: random play always ends, tiles are conserved,
counts add up, and the legal actions match a slow reference written from the rules
(square by square, no bitboards)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from micropul_print.games.cellulae.rules import (
    BLACK,
    COLOURS,
    QUIET_LIMIT,
    SKIP,
    WHITE,
    Board,
    Move,
    Square,
    other,
)

SIDES = st.sampled_from([3, 5, 7])
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def reference_moves(tiles: dict[Square, str], side: int, colour: str) -> set[Move]:
    def free(x: int, y: int) -> bool:
        return 0 <= x < side and 0 <= y < side and (x, y) not in tiles

    moves: set[Move] = set()
    for (x, y), owner in tiles.items():
        if owner != colour:
            continue
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            if free(x + dx, y + dy):
                moves.add(Move((x + dx, y + dy)))
        for dx, dy in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
            for step in range(1, side):
                tx, ty = x + step * dx, y + step * dy
                if free(tx, ty):
                    moves.add(Move((tx, ty), (x, y)))
    return moves or {SKIP}


def reference_flips(tiles: dict[Square, str], square: Square, colour: str) -> list[Square]:
    x, y = square
    beside = [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]
    return sorted((s for s in beside if tiles.get(s) == other(colour)), key=lambda s: (s[1], s[0]))


@settings(max_examples=60, deadline=None)
@given(side=SIDES, seed=SEEDS)
def test_random_play_matches_the_reference_and_keeps_every_invariant(side: int, seed: int) -> None:
    rng = random.Random(seed)
    board = Board(side)
    previous_skip = False
    replications = 0
    while board.outcome() is None:
        tiles = board.tiles()
        colour = board.turn
        legal = board.legal_actions()
        assert set(legal) == reference_moves(tiles, side, colour)
        assert len(set(legal)) == len(legal)
        move = rng.choice(legal)
        flipped = board.flipped_by(move)
        board.apply_action(move)
        after = board.tiles()
        counts = board.counts()
        # Counts add up, and tiles are conserved: only a replication adds one.
        assert counts[BLACK] + counts[WHITE] == len(after) <= side * side
        assert len(after) == len(tiles) + (move.kind == "replicate")
        assert board.supply() == side * side - len(after)
        if move.to is None:
            assert previous_skip is False, "two skips in a row"
            assert after == tiles and flipped == []
        else:
            assert flipped == reference_flips(tiles, move.to, colour)
            assert after[move.to] == colour
            changed = {s for s in after if tiles.get(s) != after[s]} - {move.to}
            assert changed == set(flipped)
        replications += move.kind == "replicate"
        previous_skip = move.to is None
        assert board.turns <= (replications + 1) * QUIET_LIMIT
    outcome = board.outcome()
    assert outcome is not None
    assert outcome.counts == board.counts()
    if outcome.winner is None:
        assert outcome.counts[BLACK] == outcome.counts[WHITE]
    else:
        assert outcome.counts[outcome.winner] > outcome.counts[other(outcome.winner)]


@settings(max_examples=200, deadline=None)
@given(side=SIDES, seed=SEEDS)
def test_fast_random_playouts_always_end_within_the_bound(side: int, seed: int) -> None:
    board = Board(side)
    outcome = board.play_random(random.Random(seed))
    assert outcome.turns <= (side * side - 2 + 1) * QUIET_LIMIT
    assert sum(outcome.counts.values()) >= 2


@settings(max_examples=100, deadline=None)
@given(
    side=SIDES,
    cells=st.lists(st.sampled_from([None, BLACK, WHITE]), min_size=49, max_size=49),
    turn=st.sampled_from(COLOURS),
    seed=SEEDS,
)
def test_push_then_pop_restores_any_position(
    side: int, cells: list[str | None], turn: str, seed: int
) -> None:
    tiles = {
        (i % side, i // side): colour
        for i, colour in enumerate(cells[: side * side])
        if colour is not None
    }
    board = Board.from_tiles(side, tiles, turn)
    if board.outcome() is not None:
        assert board.legal_actions() == []
        return
    assert set(board.legal_actions()) == reference_moves(tiles, side, turn)
    move = random.Random(seed).choice(board.legal_actions())
    board.apply_action(move)
    assert board.undo() == move
    assert (board.tiles(), board.turn, board.quiet, board.turns) == (tiles, turn, 0, 0)
