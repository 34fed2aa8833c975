"""Match.clone and Board.clone (Micropul), Board.clone (Cellulae): a clone is independent of
its original, and both play on identically."""

from __future__ import annotations

import random

import pytest

from micropul_print.games.cellulae import rules as cellulae
from micropul_print.games.micropul.model import Catalogue
from micropul_print.games.micropul.rules import Match


def _state(game: Match) -> tuple[object, ...]:
    board = game.board
    return (
        game.current, game.turns, game.hands, game.hand_masks, game.face_down, game.revealed,
        game.core, game.stones_left, game.outcome(), board.placed(), board.stones,
        [(g.colour, g.points, g.closed, g.stones, g.quadrants) for g in board.groups()],
        dict(board.frontier), game.legal_actions(),
    )


def test_a_game_copy_plays_on_like_its_original(catalogue: Catalogue) -> None:
    for players in (1, 2):
        for seed in range(40):
            game = Match(catalogue, players, seed)
            for _ in range(seed % 25):
                if game.is_terminal():
                    break
                game.apply_action(game.random_action())
            before = _state(game)
            copy = game.clone()
            assert _state(copy) == before
            # Playing the copy to the end leaves the original as it was...
            copy_outcome = copy.play_random()
            assert _state(game) == before
            # ...and the original then plays the same game.
            assert game.play_random() == copy_outcome
            assert _state(game) == _state(copy)


def test_a_scratch_copy_plays_on_like_a_copy_without_undo(catalogue: Catalogue) -> None:
    """Match.scratch_copy (a search's throwaway copy): the same game as clone(rng), every
    action's scores_after included, with no undo records kept; undo refuses plainly."""
    for players in (1, 2):
        for seed in range(30):
            game = Match(catalogue, players, seed)
            for _ in range(seed % 20):
                if game.is_terminal():
                    break
                game.apply_action(game.random_action())
            copy = game.clone(random.Random(seed))
            scratch = game.scratch_copy(random.Random(seed))
            assert _state(scratch) == _state(copy)
            choices = random.Random(seed)
            while not copy.is_terminal():
                legal = copy.legal_actions()
                assert scratch.scores_after(legal) == copy.scores_after(legal)
                move = legal[int(choices.random() * len(legal))]
                copy.apply_action(move)
                scratch.apply_action(move)
                assert _state(scratch) == _state(copy)
                assert scratch.rng.getstate() == copy.rng.getstate()
            assert scratch._history == [] and scratch.board._history == []
            again = scratch.clone()  # a copy of a scratch copy keeps no records either
            with pytest.raises(IndexError, match="scratch copy"):
                scratch.undo()
            with pytest.raises(IndexError, match="scratch copy"):
                again.undo()
    assert game.undo() is not None  # the original keeps its records


def test_a_game_copy_shares_only_the_tile_tables(catalogue: Catalogue) -> None:
    game = Match(catalogue, 2, 3)
    copy = game.clone()
    assert copy.tiles is game.tiles
    for name in ("hands", "face_down", "revealed", "core", "stones_left", "hand_masks"):
        assert getattr(copy, name) is not getattr(game, name)
    assert copy.board is not game.board and copy.rng is not game.rng
    copy.hands[0].append(99)
    assert 99 not in game.hands[0]


def test_a_board_copy_is_independent(catalogue: Catalogue) -> None:
    game = Match(catalogue, 2, 11)
    while len(game.board) < 8:
        game.apply_action(game.random_action())
    board = game.board
    copy = board.clone()
    groups = board.groups()
    assert copy.groups() == groups and copy.placed() == board.placed()
    placement = next(
        (tile, x, y, r) for tile in game.hands[game.current]
        for x, y, r in board.legal_placements(tile)
    )
    copy.place(*placement)
    copy.add_stone(1, placement[1], placement[2], next(
        q for q in range(4) if copy.is_micropul(placement[1], placement[2], q)))
    assert board.groups() == groups and len(board) == 8 and board.stones == game.board.stones
    assert board.tile_at(placement[1], placement[2]) is None


def test_a_cellulae_copy_plays_on_like_its_original() -> None:
    for side in (5, 7):
        for seed in range(20):
            board = cellulae.Board(side)
            rng = random.Random(seed)
            for _ in range(seed):
                if board.is_terminal():
                    break
                board.apply_action(rng.choice(board.legal_actions()))
            copy = board.clone()
            rows, stack = board.rows(), board.move_stack
            outcome = copy.play_random(random.Random(seed))
            assert board.rows() == rows and board.move_stack == stack
            assert board.play_random(random.Random(seed)) == outcome
            assert board.move_stack == copy.move_stack


def test_a_redrawn_copy_from_a_generator_is_the_seeded_determinisation(
        catalogue: Catalogue) -> None:
    """MicropulState.scratch_redrawn(rng) (the lookahead's determinisations, drawing
    from the search's generator): from ``random.Random(seed)``, the very game
    ``scratch_determinized(seed)`` and ``determinized(seed)`` give, draws included."""
    from micropul_print.games.micropul.engine import MicropulState

    for players in (1, 2):
        for seed in range(30):
            state = MicropulState(Match(catalogue, players, seed), 0)
            for _ in range(seed % 20):
                if state.is_terminal():
                    break
                state.apply_action(state.match.random_action())
            copies = [state.scratch_redrawn(random.Random(seed)),
                      state.scratch_determinized(seed), state.determinized(seed)]
            assert len({repr(_state(copy.match)) for copy in copies}) == 1
            choices = random.Random(seed)
            while not copies[0].is_terminal():
                legal = copies[0].legal_actions()
                move = legal[int(choices.random() * len(legal))]
                for copy in copies:
                    copy.apply_action(move)
                assert len({repr(_state(copy.match)) for copy in copies}) == 1
                assert len({repr(copy.match.rng.getstate()) for copy in copies}) == 1
