"""Board._open, the open (micropul, side) pairs each group has, kept up to date by every
placement and undo: at every position of seeded games a group is closed by its count
exactly when the walk over the frontier (open_roots) finds it closed, and after
play_random, which drops the counts (its scores walk instead), they are made again the
same."""

from __future__ import annotations

import random

import pytest

from micropul_print.games.micropul.model import Catalogue
from micropul_print.games.micropul.rules import Match


def _open_by_count(game: Match) -> set[int]:
    board = game.board
    assert board._open is not None
    roots = {board._find(qid) for qid in board.micropul_ids()}
    return {root for root in roots if board._open[root]}


@pytest.mark.parametrize("players", [1, 2])
def test_counts_agree_with_the_frontier_walk(catalogue: Catalogue, players: int) -> None:
    checked = 0
    for seed in range(30):
        game = Match(catalogue, players, seed)
        choose = random.Random(seed)
        while not game.is_terminal():
            assert _open_by_count(game) == game.board.open_roots(), seed
            game.apply_action(choose.choice(game.legal_actions()))
            if seed % 3 == 0 and not game.is_terminal() and choose.random() < 0.3:
                game.undo()
            checked += 1
        assert _open_by_count(game) == game.board.open_roots(), seed
    assert checked > 900


def test_counts_are_made_again_after_play_random(catalogue: Catalogue) -> None:
    for seed in range(20):
        game = Match(catalogue, 2 - seed % 2, seed)
        outcome = game.play_random()  # its final scores walked the frontier
        assert game.board._open is None
        assert game.board._open_counts() is game.board._open
        assert _open_by_count(game) == game.board.open_roots(), seed
        assert game.scores() == outcome.scores
