"""Match.undo (Micropul): after any legal action and its undo, the game is the copy made
before the action, down to the random generator, the frontier's order and the
union-find; undoing several actions in a row walks back the same way."""

from __future__ import annotations

import random

import pytest

from micropul_print.games.micropul.model import Catalogue
from micropul_print.games.micropul.rules import Draw, IllegalActionError, Match, Place


def _state(game: Match, rng: bool = True) -> tuple[object, ...]:
    board = game.board
    return (
        game.current, game.turns, game.hands, game.hand_masks, game.face_down,
        game.revealed, game.core, game.stones_left, game.outcome(), game._kinds_now(),
        game.rng.getstate() if rng else None, board.placed(), board.stones,
        list(board.frontier.items()),
        board.cells, board._parent, board._points, board._open, board._stones, board.unclaimed,
        [(g.colour, g.points, g.closed, g.stones, g.quadrants) for g in board.groups()],
        game.legal_actions(), game.scores(),
    )


@pytest.mark.parametrize("players", [1, 2])
def test_each_action_undone_is_the_copy_before_it(catalogue: Catalogue, players: int) -> None:
    for seed in range(25):
        game = Match(catalogue, players, seed)
        choose = random.Random(seed)
        while not game.is_terminal():
            before = game.clone()
            action = choose.choice(game.legal_actions())
            game.apply_action(action)
            assert game.undo() == action
            assert _state(game) == _state(before), (seed, action)
            game.apply_action(action)


@pytest.mark.parametrize("players", [1, 2])
def test_undoing_a_whole_game_walks_back_to_the_set_up(
    catalogue: Catalogue, players: int
) -> None:
    for seed in range(25):
        game = Match(catalogue, players, seed)
        choose = random.Random(seed)
        copies = [game.clone()]
        played = []
        while not game.is_terminal():
            # The random policy too; its own draws of the generator are not the
            # action's, so undo leaves them drawn (the states compare without it).
            action = game.random_action() if seed % 2 else choose.choice(game.legal_actions())
            copies.append(game.clone())
            game.apply_action(action)
            played.append(action)
        copies.append(game.clone())
        for action, before in zip(reversed(played), reversed(copies[1:-1]), strict=True):
            assert game.undo() == action
            assert _state(game, seed % 2 == 0) == _state(before, seed % 2 == 0), (seed, action)
        with pytest.raises(IndexError):
            game.undo()


def test_a_game_played_on_after_undo_is_the_game_of_a_copy(catalogue: Catalogue) -> None:
    for seed in range(20):
        game = Match(catalogue, 2, seed)
        choose = random.Random(seed)
        for _ in range(seed % 15):
            if game.is_terminal():
                break
            game.apply_action(choose.choice(game.legal_actions()))
        copy = game.clone()
        pushed = 0
        while pushed < 3 and not game.is_terminal():
            game.apply_action(choose.choice(game.legal_actions()))
            pushed += 1
        for _ in range(pushed):
            game.undo()
        assert game.play_random() == copy.play_random()
        assert _state(game) == _state(copy)


def test_undo_restores_random_draws_and_revealed_tiles(catalogue: Catalogue) -> None:
    """Solitaire pluses reveal supply tiles at random, and Draw() takes a random face-down
    tile: undo puts the tiles and the random generator back."""
    checked = {"draw": 0, "reveal": 0}
    for seed in range(60):
        game = Match(catalogue, 1, seed)
        while not game.is_terminal():
            action = game.random_action()
            before = game.clone()
            done = game.preview(action) if isinstance(action, Place) else None
            game.apply_action(action)
            if action == Draw():
                checked["draw"] += 1
            if isinstance(action, Place) and done is not None and done.plus:
                checked["reveal"] += 1
            game.undo()
            assert _state(game) == _state(before), (seed, action)
            game.apply_action(action)
    assert checked["draw"] and checked["reveal"]


def test_play_random_keeps_no_undo_record(catalogue: Catalogue) -> None:
    game = Match(catalogue, 2, 5)
    game.apply_action(game.random_action())
    game.play_random()
    with pytest.raises(IndexError):
        game.undo()
    with pytest.raises(IndexError):
        Match(catalogue, 2, 5).undo()


def test_a_board_undoes_placements_and_stones(catalogue: Catalogue) -> None:
    game = Match(catalogue, 2, 8)
    while len(game.board) < 10:
        game.apply_action(game.random_action())
    board = game.board
    copy = board.clone()
    frontier = list(board.frontier.items())
    tile = game.hands[game.current][0]
    placements = board.legal_placements(tile)
    if placements:
        x, y, r = placements[len(placements) // 2]
        board.place(tile, x, y, r)
        board.add_stone(1, x, y, next(q for q in range(4) if board.is_micropul(x, y, q)))
        board.undo()
        board.undo()
    assert list(board.frontier.items()) == frontier
    assert board.groups() == copy.groups() and board.placed() == copy.placed()
    assert board._parent == copy._parent and board.unclaimed == copy.unclaimed


@pytest.mark.parametrize("players", [1, 2])
def test_preview_changes_nothing(catalogue: Catalogue, players: int) -> None:
    for seed in range(15):
        previewed = Match(catalogue, players, seed)
        applied = Match(catalogue, players, seed)
        choose = random.Random(seed)
        while not previewed.is_terminal():
            action = choose.choice(previewed.legal_actions())
            if isinstance(action, Place):
                previewed.preview(action)
                assert _state(previewed) == _state(applied), (seed, action)
            previewed.apply_action(action)
            applied.apply_action(action)
            assert _state(applied) == _state(previewed), (seed, action)
        with pytest.raises(IllegalActionError, match="the game is over"):
            applied.apply_action(action)


def test_apply_action_refuses_what_preview_refuses(catalogue: Catalogue) -> None:
    game = Match(catalogue, 2, 3)
    hand = game.hands[0]
    far, turned, elsewhere = Place(hand[0], 5, 5, 0), Place(hand[0], 1, 0, 45), Place(-1, 1, 0, 0)
    for action in (far, turned, elsewhere, Place(hand[0], True, 0, 0)):
        with pytest.raises(IllegalActionError) as previewed:
            game.preview(action)
        with pytest.raises(IllegalActionError) as applied:
            game.apply_action(action)
        assert str(applied.value) == str(previewed.value)
    with pytest.raises(IllegalActionError, match="the hand already holds 6 tiles"):
        game.apply_action(Draw(99))
