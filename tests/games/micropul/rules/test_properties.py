"""Property tests: legal play never breaks an invariant, checked against a slow reference
written independently of the engine (quadrant-grid search, no tables, no union-find)."""

from __future__ import annotations

from collections import deque

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from micropul_print.games.micropul.model import MICROPUL, Catalogue
from micropul_print.games.micropul.rules import Claim, Match, Place

QuadrantMap = dict[tuple[int, int], tuple[str, tuple[int, int], bool]]
# global quadrant (qx, qy) -> (symbol, cell, on a big tile)
OFFSETS = ((0, 0), (1, 0), (1, 1), (0, 1))  # tl, tr, br, bl inside a cell


def quadrant_map(catalogue: Catalogue, placed: list[tuple[int, int, int, int]]) -> QuadrantMap:
    grid: QuadrantMap = {}
    for tile_id, x, y, rotation in placed:
        tile = catalogue.tile(tile_id)
        for (dx, dy), symbol in zip(OFFSETS, tile.rotated(rotation), strict=True):
            grid[(2 * x + dx, 2 * y + dy)] = (symbol, (x, y), tile.big is not None)
    return grid


def neighbours(q: tuple[int, int]) -> list[tuple[int, int]]:
    x, y = q
    return [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]


def reference_legality(
    catalogue: Catalogue, grid: QuadrantMap, tile_id: int, x: int, y: int, rotation: int
) -> str | None:
    cells = {cell for _, cell, _ in grid.values()}
    if (x, y) in cells:
        return "occupied"
    if not {(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)} & cells:
        return "not adjacent"
    link = clash = False
    for (dx, dy), symbol in zip(OFFSETS, catalogue.tile(tile_id).rotated(rotation), strict=True):
        for other in neighbours((2 * x + dx, 2 * y + dy)):
            if other in grid and symbol in MICROPUL and grid[other][0] in MICROPUL:
                link |= grid[other][0] == symbol
                clash |= grid[other][0] != symbol
    if clash:
        return "colour clash"
    return None if link else "no micropul link"


def reference_groups(grid: QuadrantMap) -> list[tuple[set[tuple[int, int]], int, bool]]:
    """(quadrants, points, closed) of every group."""
    seen: set[tuple[int, int]] = set()
    groups = []
    for start, (symbol, _, _) in grid.items():
        if symbol not in MICROPUL or start in seen:
            continue
        members = {start}
        queue = deque([start])
        while queue:
            for other in neighbours(queue.popleft()):
                if other not in members and other in grid and grid[other][0] == symbol:
                    members.add(other)
                    queue.append(other)
        seen |= members
        small = sum(1 for q in members if not grid[q][2])
        bigs = len({grid[q][1] for q in members if grid[q][2]})
        closed = all(other in grid for q in members for other in neighbours(q))
        groups.append((members, small + bigs, closed))
    return groups


def reference_scores(catalogue: Catalogue, game: Match) -> tuple[int, ...]:
    grid = quadrant_map(catalogue, game.board.placed())
    scores = [
        len(game.hands[p]) + 2 * (len(game.face_down[p]) + len(game.revealed[p]))
        for p in range(game.players)
    ]
    for members, points, closed in reference_groups(grid):
        owners = [
            player
            for player, x, y, q in game.board.stones
            if (2 * x + OFFSETS[q][0], 2 * y + OFFSETS[q][1]) in members
        ]
        if closed and len(owners) == 1:
            scores[owners[0] - 1] += points
    return tuple(scores)


def check_action(catalogue: Catalogue, game: Match, action: object) -> None:
    """The action is legal by the reference's reading of the rules, before it is played."""
    grid = quadrant_map(catalogue, game.board.placed())
    if isinstance(action, Place):
        assert action.tile in game.hands[game.current]
        assert reference_legality(catalogue, grid, *action) is None, action
    elif isinstance(action, Claim):
        assert game.stones_left[game.current] > 0
        spot = (
            2 * action.x + OFFSETS[action.quadrant][0],
            2 * action.y + OFFSETS[action.quadrant][1],
        )
        group = next(m for m, _, _ in reference_groups(grid) if spot in m)
        stones = {
            (2 * x + OFFSETS[q][0], 2 * y + OFFSETS[q][1]) for _, x, y, q in game.board.stones
        }
        assert not group & stones, action


def check_state(catalogue: Catalogue, game: Match) -> None:
    assert sorted(game.all_tiles()) == sorted(t.id for t in catalogue.tiles)
    assert all(len(h) <= 6 for h in game.hands)
    assert all(0 <= s <= 3 for s in game.stones_left)
    grid = quadrant_map(catalogue, game.board.placed())
    engine = sorted((g.points, g.closed, len(g.quadrants)) for g in game.board.groups())
    reference = sorted((points, closed, len(m)) for m, points, closed in reference_groups(grid))
    assert engine == reference


SETTINGS = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([1, 2]), data=st.data())
def test_any_legal_play_keeps_the_invariants(
    catalogue: Catalogue, seed: int, players: int, data: st.DataObject
) -> None:
    """Actions chosen by hypothesis among all legal actions (not only the policy's)."""
    game = Match(catalogue, players, seed)
    while not game.is_terminal():
        actions = game.legal_actions()
        assert actions, "a game that is not over always has an action"
        action = data.draw(st.sampled_from(actions))
        check_action(catalogue, game, action)
        game.apply_action(action)
        check_state(catalogue, game)
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.scores == reference_scores(catalogue, game)


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([1, 2]))
def test_random_policy_games_keep_the_invariants(
    catalogue: Catalogue, seed: int, players: int
) -> None:
    game = Match(catalogue, players, seed)
    while not game.is_terminal():
        action = game.random_action()
        check_action(catalogue, game, action)
        game.apply_action(action)
    check_state(catalogue, game)
    outcome = game.outcome()
    assert outcome is not None and outcome.scores == reference_scores(catalogue, game)


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_fast_play_scores_match_the_reference(catalogue: Catalogue, seed: int) -> None:
    for players in (1, 2):
        game = Match(catalogue, players, seed)
        outcome = game.play_random()
        check_state(catalogue, game)
        assert outcome.scores == reference_scores(catalogue, game)
