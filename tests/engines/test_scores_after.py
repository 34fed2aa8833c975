"""Match.scores_after (the bots' valuation of every move, worked out without playing
placements) against playing each move and taking it back: at every position of
thousands of seeded games, random and greedy, two players and solitaire, to their
ends, the scores and returns after each legal action must be the same.

``ENGINE_DIFF_SCALE=N`` plays N times as many games (new seeds), as in
test_differential.py.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from collections.abc import Callable

import pytest

from micropul_print.games.micropul.model import Catalogue
from micropul_print.games.micropul.rules import END_REASONS, Action, Claim, Draw, Match, Place

from .test_differential import _random_set

SCALE = int(os.environ.get("ENGINE_DIFF_SCALE", "1"))
# Games per (players, policy): about 60 positions each (a few thousand in all) and
# about 40 actions a position, each played and taken back by the slow side.
GAMES = 25 * SCALE

Result = tuple[tuple[int, ...], tuple[float, ...] | None]


def _played(game: Match, action: Action) -> tuple[Result, str | None]:
    """What the slow path sees: the action played, scores and returns read, taken back
    (and the way the game ended, if it did, for the coverage count)."""
    game.apply_action(action)
    outcome = game.outcome()
    result = (game.scores(), game.returns() if outcome is not None else None)
    game.undo()
    return result, None if outcome is None else outcome.reason


def _greedy(game: Match, actions: list[Action], rng: random.Random) -> Action:
    """The greedy bot's choice by the values under test (lab.bots' rule, two players
    or alone), so that the games go where greedy play goes."""
    p = game.current

    def value(result: Result) -> tuple[float, int]:
        scores, returns = result
        margin = scores[p] - max((s for q, s in enumerate(scores) if q != p), default=0)
        won = 0.0
        if returns is not None and len(scores) > 1:
            won = returns[p] - max(r for q, r in enumerate(returns) if q != p)
        return won, margin

    values = [value(result) for result in game.scores_after(actions)]
    best = max(values)
    choices = [a for a, v in zip(actions, values, strict=True) if v == best]
    return choices[int(rng.random() * len(choices))]


def _random(game: Match, actions: list[Action], rng: random.Random) -> Action:
    return actions[int(rng.random() * len(actions))]


POLICIES: dict[str, Callable[[Match, list[Action], random.Random], Action]] = {
    "random": _random, "greedy": _greedy,
}


def _compare(game: Match, policy: str, seed: int, kinds: Counter[str],
             ends: Counter[str]) -> int:
    """Plays ``game`` to its end by ``policy``, comparing scores_after with the slow
    path at every position: the number of positions."""
    choose = POLICIES[policy]
    rng = random.Random(seed)
    positions = 0
    while not game.is_terminal():
        actions = game.legal_actions()
        fast = game.scores_after(actions)
        before = (game.rng.getstate(), game.scores(), game.legal_actions())
        assert len(fast) == len(actions)
        for action, result in zip(actions, fast, strict=True):
            expected, end = _played(game, action)
            assert result == expected, (seed, game.turns, action)
            kinds[type(action).__name__] += 1
            if end is not None:
                ends[end] += 1
        # Nothing changed: the same draws, scores and moves to come.
        assert (game.rng.getstate(), game.scores(), game.legal_actions()) == before
        positions += 1
        game.apply_action(choose(game, actions, rng))
    return positions


@pytest.mark.parametrize("policy", sorted(POLICIES))
@pytest.mark.parametrize("players", [1, 2])
def test_scores_after_are_those_of_playing_each_action(
        catalogue: Catalogue, players: int, policy: str) -> None:
    kinds: Counter[str] = Counter()
    ends: Counter[str] = Counter()
    positions = sum(_compare(Match(catalogue, players, 1000 * players + seed), policy, seed,
                             kinds, ends) for seed in range(GAMES))
    # Every kind of action and a game's end were met (the test looks where it means to).
    assert {Place.__name__, Draw.__name__, Claim.__name__} <= set(kinds), kinds
    assert positions >= 20 * GAMES, positions
    assert ends, ends


@pytest.mark.parametrize("players", [1, 2])
def test_scores_after_in_random_sets_where_games_end_every_way(players: int) -> None:
    """Small random sets (tests/engines/test_differential.py) end games every way the
    rules have, a player without a legal action included, which the shipped set
    rarely does."""
    kinds: Counter[str] = Counter()
    ends: Counter[str] = Counter()
    for seed in range(4 * GAMES):
        tiles = (12, 16, 24, 30)[seed % 4]
        game = Match(_random_set(tiles, seed), players, seed)
        _compare(game, "greedy" if seed % 2 else "random", seed, kinds, ends)
    assert set(ends) == set(END_REASONS), ends


def test_scores_after_of_no_actions_is_empty_and_a_finished_game_has_none(
        catalogue: Catalogue) -> None:
    game = Match(catalogue, 2, 3)
    assert game.scores_after([]) == []
    game.play_random()
    assert game.scores_after([]) == []
    with pytest.raises(ValueError, match="the game is over"):
        game.scores_after([Draw()])


@pytest.mark.parametrize("players", [1, 2])
def test_is_listed_says_whether_an_action_is_in_legal_actions(
        catalogue: Catalogue, players: int) -> None:
    """Match.is_listed (the lookahead's look at a ranked move) agrees with
    legal_actions at every position, for the legal actions and for others: those of
    the positions before (other hands, cells since filled, groups since claimed), a
    claim of every micropul, draws of every kind, odd rotations and coordinates."""
    looked = 0
    for seed in range(GAMES):
        game = Match(catalogue, players, 500 + seed)
        rng = random.Random(seed)
        seen: set[Action] = set()
        while not game.is_terminal():
            legal = game.legal_actions()
            seen.update(legal)
            board = game.board
            others: set[Action] = {Claim(x, y, q) for _, x, y, _ in board.placed()
                                   for q in range(4)}
            others |= {Draw(), Draw(7)} | {Draw(t) for t in game.hands[game.current]}
            others |= {Place(a.tile, a.x, a.y, (a.rotation + 90) % 360) for a in legal
                       if type(a) is Place}
            others |= {Place(3, 9000, 0, 0), Claim(0, 0, 4), Claim(0, 0, -1)}
            listed = set(legal)
            for action in seen | others:
                assert game.is_listed(action) == (action in listed), (seed, action)
                looked += 1
            game.apply_action(_greedy(game, legal, rng) if seed % 2 else legal[
                int(rng.random() * len(legal))])
        assert not game.is_listed(Draw()) and not any(map(game.is_listed, seen))
    assert looked > 10_000 * players, looked
