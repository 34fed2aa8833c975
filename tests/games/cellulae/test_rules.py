"""The Cellulae engine, one rule at a time (rulings: docs/cellulae.md)."""

from __future__ import annotations

import random

import pytest

from micropul_print.games.cellulae.rules import (
    BLACK,
    BOARD_FULL,
    EXTINCTION,
    GAME_OVER,
    MUST_ACT,
    NOT_BESIDE_OWN,
    NOT_DIAGONAL,
    NOT_THEIR_TURN,
    OCCUPIED,
    QUIET,
    QUIET_LIMIT,
    SKIP,
    WHITE,
    Board,
    IllegalMoveError,
    Move,
    play_random_game,
)


def board_of(*rows: str, turn: str = BLACK) -> Board:
    tiles = {
        (x, y): BLACK if char == "B" else WHITE
        for y, row in enumerate(rows)
        for x, char in enumerate(row)
        if char != "."
    }
    return Board.from_tiles(len(rows), tiles, turn)


@pytest.mark.parametrize("side", [3, 5, 7, 9])
def test_set_up_white_top_left_black_opposite_black_first(side: int) -> None:
    board = Board(side)
    assert board.tiles() == {(0, 0): WHITE, (side - 1, side - 1): BLACK}
    assert board.turn == BLACK
    assert board.supply() == side * side - 2
    assert board.outcome() is None


@pytest.mark.parametrize("side", [1, 2, 4, 6])
def test_board_side_is_odd_and_three_or_more(side: int) -> None:
    with pytest.raises(ValueError, match="odd side"):
        Board(side)


def test_replication_only_beside_an_own_tile_never_diagonally() -> None:
    board = board_of("W....", ".....", "..B..", ".....", ".....")
    targets = {move.to for move in board.replications()}
    assert targets == {(2, 1), (1, 2), (3, 2), (2, 3)}
    assert board.illegal_reason(Move((3, 3))) == NOT_BESIDE_OWN
    assert board.illegal_reason(Move((2, 2))) == OCCUPIED


def test_diagonal_move_any_distance_over_occupied_squares() -> None:
    board = board_of("....W", "...B.", "..W..", ".W...", "B....")
    assert board.is_legal(Move((3, 1), (0, 4))) is False  # own tile there
    board = board_of("....W", "...W.", "..W..", ".W...", "B....")
    assert {m.to for m in board.movements()} == set()  # the whole diagonal is full
    board = board_of(".....", "...W.", "..W..", ".W...", "B....")
    assert [m.to for m in board.movements()] == [(4, 0)]
    assert board.illegal_reason(Move((0, 2), (0, 4))) == NOT_DIAGONAL
    assert board.illegal_reason(Move((1, 4), (0, 4))) == NOT_DIAGONAL


def test_contamination_flips_side_neighbours_of_the_moved_tile_only() -> None:
    board = board_of(".W.W.", "W....", ".W...", ".....", "....B")
    flipped = board.flipped_by(Move((0, 0), (4, 4)))
    board.apply_action(Move((0, 0), (4, 4)))
    # (1,0) and (0,1) share a side with (0,0); (1,1) is empty; (3,0), (1,2) are further.
    assert flipped == [(1, 0), (0, 1)]
    assert board.colour_at((3, 0)) == WHITE and board.colour_at((1, 2)) == WHITE
    assert board.colour_at((4, 4)) is None


def test_contamination_has_no_chain_reaction() -> None:
    board = board_of("..B", "WW.", "...")
    assert board.flipped_by(Move((2, 1))) == [(1, 1)]
    board.apply_action(Move((2, 1)))
    assert board.colour_at((0, 1)) == WHITE  # beside the turned tile, not the placed one


def test_forced_movement_when_no_replication() -> None:
    board = board_of("BW.", "W..", "...")
    assert board.replications() == []
    assert board.legal_actions() == board.movements() != []
    assert board.illegal_reason(SKIP) == MUST_ACT


def test_forced_replication_when_no_movement() -> None:
    board = board_of("WBW", "W.W", "...")
    assert board.movements() == []
    assert board.legal_actions() == [Move((1, 1))]


def test_skip_only_when_nothing_else_is_possible() -> None:
    board = board_of("WBW", "WWW", "...")
    assert board.legal_actions() == [SKIP]
    assert board.flipped_by(SKIP) == []
    board.apply_action(SKIP)
    assert board.turn == WHITE and board.quiet == 1
    assert SKIP not in board.legal_actions()  # the other player always can act


def test_illegal_move_raises_with_its_reason_and_changes_nothing() -> None:
    board = Board(5)
    before = (board.tiles(), board.turn, board.quiet, board.turns)
    with pytest.raises(IllegalMoveError) as raised:
        board.apply_action(Move((0, 1)))
    assert raised.value.reason == NOT_BESIDE_OWN
    assert "illegal move r 0,1" in str(raised.value)
    assert (board.tiles(), board.turn, board.quiet, board.turns) == before


def test_only_the_side_to_move_plays() -> None:
    board = Board(5)
    assert board.illegal_reason(Move((1, 0)), WHITE) == NOT_THEIR_TURN
    assert board.illegal_reason(Move((4, 3)), BLACK) is None


def test_board_full_ends_and_more_tiles_wins() -> None:
    board = board_of("WBW", "BWB", "WB.")
    board.apply_action(Move((2, 2)))
    outcome = board.outcome()
    assert outcome is not None
    assert (outcome.reason, outcome.winner, outcome.counts) == (
        BOARD_FULL,
        BLACK,
        {BLACK: 5, WHITE: 4},
    )
    assert board.legal_actions() == []
    assert board.illegal_reason(Move((0, 0))) == GAME_OVER
    assert board.supply() == 0


def test_a_player_without_tiles_has_lost() -> None:
    board = board_of("BW.", "W..", "...")
    board.apply_action(Move((1, 1), (0, 0)))
    outcome = board.outcome()
    assert outcome is not None and (outcome.reason, outcome.winner) == (EXTINCTION, BLACK)


def test_quiet_limit_ends_the_game_scored_as_it_stands() -> None:
    board = Board(5)
    moves = [Move((3, 3), (4, 4)), Move((1, 1), (0, 0)), Move((4, 4), (3, 3)),
             Move((0, 0), (1, 1))]
    for turn in range(QUIET_LIMIT):
        assert board.outcome() is None
        board.apply_action(moves[turn % 4])
    outcome = board.outcome()
    assert outcome is not None
    assert (outcome.reason, outcome.winner, outcome.turns) == (QUIET, None, QUIET_LIMIT)


def test_replication_resets_the_quiet_count() -> None:
    board = Board(5, quiet_limit=3)
    board.apply_action(Move((3, 3), (4, 4)))
    board.apply_action(Move((1, 1), (0, 0)))
    assert board.quiet == 2
    board.apply_action(Move((3, 2)))
    assert board.quiet == 0 and board.outcome() is None


def test_pop_takes_back_exactly_one_turn() -> None:
    board = Board(5)
    board.apply_action(Move((4, 3)))
    snapshot = (board.tiles(), board.turn, board.quiet, board.turns)
    board.apply_action(Move((3, 3), (0, 0)))  # flips (4,3) and, beside (3,3), nothing else
    assert board.colour_at((4, 3)) == WHITE
    assert board.undo() == Move((3, 3), (0, 0))
    assert (board.tiles(), board.turn, board.quiet, board.turns) == snapshot
    assert board.move_stack == [Move((4, 3))]


def test_copy_is_independent() -> None:
    board = Board(5)
    twin = board.clone()
    twin.apply_action(Move((4, 3)))
    assert board.tiles() != twin.tiles() and board.turn == BLACK


@pytest.mark.parametrize("text", ["r 2,3", "m 0,0-2,2", "skip"])
def test_move_text_round_trips(text: str) -> None:
    assert str(Move.parse(text)) == text


@pytest.mark.parametrize("text", ["", "r", "x 1,2", "m 0,0", "r 1"])
def test_move_parse_refuses_other_text(text: str) -> None:
    with pytest.raises(ValueError):
        Move.parse(text)


def test_random_games_are_reproducible_by_seed() -> None:
    assert play_random_game(5, 7) == play_random_game(5, 7)
    outcomes = {play_random_game(5, seed).turns for seed in range(20)}
    assert len(outcomes) > 1  # different seeds, different games


def test_random_playout_leaves_a_finished_board_with_its_history() -> None:
    board = Board(5)
    outcome = board.play_random(random.Random(3))
    assert board.outcome() == outcome
    assert len(board.move_stack) == outcome.turns
    replay = Board(5)
    for move in board.move_stack:
        replay.apply_action(move)  # every move of the playout was legal
    assert replay.tiles() == board.tiles()


def test_from_tiles_refuses_squares_off_the_board_and_unknown_colours() -> None:
    with pytest.raises(ValueError, match="off the 3 × 3 board"):
        Board.from_tiles(3, {(3, 0): BLACK})
    with pytest.raises(ValueError, match="unknown colour"):
        Board.from_tiles(3, {(0, 0): "red"})
