"""Match: set-up, turns, draws, claims, catalysts' effects, every end condition."""

from __future__ import annotations

import pytest

from micropul_print.games.micropul.model import Catalogue
from micropul_print.games.micropul.rules import (
    CORE_EXHAUSTED,
    NO_LEGAL_ACTION,
    OUT_OF_TILES,
    Claim,
    Draw,
    IllegalActionError,
    Match,
    Place,
)


def give(game: Match, player: int, hand: list[int], supply: list[int] | None = None) -> None:
    """Rig a player's hand (and supply), taking the tiles out of wherever they are."""
    wanted = set(hand) | set(supply or [])
    game.core = [t for t in game.core if t not in wanted]
    for p in range(game.players):
        game.hands[p] = [t for t in game.hands[p] if t not in wanted]
        game.face_down[p] = [t for t in game.face_down[p] if t not in wanted]
    game.hands[player - 1] = list(hand)
    game.face_down[player - 1] = list(supply or [])
    for p in range(game.players):
        game.hand_masks[p] = game._mask_of(game.hands[p])


def test_set_up(catalogue: Catalogue) -> None:
    game = Match(catalogue, 2, seed=1)
    assert game.board.placed() == [(41, 0, 0, 0)]
    assert [len(h) for h in game.hands] == [6, 6]
    assert len(game.core) == 35
    assert sorted(game.all_tiles()) == list(range(1, 49))
    assert game.stones_left == [3, 3]
    assert game.player == 1 and not game.is_terminal()
    solo = Match(catalogue, 1, seed=1)
    assert len(solo.core) == 41 and len(solo.hands) == 1


def test_players_must_be_one_or_two(catalogue: Catalogue) -> None:
    with pytest.raises(ValueError, match="players"):
        Match(catalogue, 3)


def test_same_seed_same_game(catalogue: Catalogue) -> None:
    first, second = Match(catalogue, 2, seed=7), Match(catalogue, 2, seed=7)
    assert first.play_random() == second.play_random()
    assert first.board.placed() == second.board.placed()
    assert Match(catalogue, 2, seed=8).core != Match(catalogue, 2, seed=7).core


def test_public_push_path_plays_the_same_game_as_the_fast_path(catalogue: Catalogue) -> None:
    for players in (1, 2):
        for seed in range(15):
            fast = Match(catalogue, players, seed).play_random()
            game = Match(catalogue, players, seed)
            while not game.is_terminal():
                game.apply_action(game.random_action())
            assert game.outcome() == fast


def test_draw_rules(catalogue: Catalogue) -> None:
    game = Match(catalogue, 2, seed=3)
    assert game.why_illegal(Draw()) == "the hand already holds 6 tiles"
    give(game, 1, [1, 2, 3, 4, 5], [])
    assert game.why_illegal(Draw()) == "no face-down tile in the supply"
    give(game, 1, [1, 2, 3, 4, 5], [6])
    game.apply_action(Draw())
    assert sorted(game.hands[0]) == [1, 2, 3, 4, 5, 6] and game.face_down[0] == []
    assert game.player == 2


def test_illegal_actions_raise_naming_the_action_and_the_reason(catalogue: Catalogue) -> None:
    game = Match(catalogue, 2, seed=3)
    give(game, 1, [48, 1, 2, 3, 4, 5])
    with pytest.raises(IllegalActionError, match=r"Place\(tile=48, x=0, y=-1.*colour clash"):
        game.apply_action(Place(48, 0, -1, 0))
    with pytest.raises(IllegalActionError, match="not in player 1's hand"):
        game.apply_action(Place(47, 0, -1, 0))
    with pytest.raises(IllegalActionError, match="no micropul there"):
        game.apply_action(Claim(5, 5, 0))
    assert game.turns == 0 and game.player == 1


def test_claims(catalogue: Catalogue) -> None:
    game = Match(catalogue, 2, seed=3)
    claims = [a for a in game.legal_actions() if isinstance(a, Claim)]
    assert claims == [Claim(0, 0, 0), Claim(0, 0, 1), Claim(0, 0, 2), Claim(0, 0, 3)]
    game.apply_action(Claim(0, 0, 1))
    assert game.stones_left == [2, 3]
    assert game.why_illegal(Claim(0, 0, 0)) == "the group already carries a stone"
    assert [a for a in game.legal_actions() if isinstance(a, Claim)] == [
        Claim(0, 0, 2),
        Claim(0, 0, 3),
    ]
    game.stones_left[1] = 0
    assert game.why_illegal(Claim(0, 0, 2)) == "no stone left"


def test_claiming_a_closed_group_is_allowed(catalogue: Catalogue) -> None:
    game = Match(catalogue, 2, seed=3)
    for placement in ((15, 0, -1, 180), (35, 1, 0, 0), (33, 1, -1, 270), (36, -1, 0, 0)):
        game.board.place(*placement)
    game.board.place(34, -1, -1, 0)
    assert [g.closed for g in game.board.groups() if (0, 0, 0) in g.quadrants] == [True]
    assert game.why_illegal(Claim(0, 0, 0)) is None


def test_plus_gives_one_extra_turn_in_the_two_player_game(catalogue: Catalogue) -> None:
    game = Match(catalogue, 2, seed=3)
    give(game, 1, [19, 1, 2, 3, 4, 5])
    placement = game.preview(Place(19, 0, -1, 270))
    game.apply_action(Place(19, 0, -1, 270))
    assert placement.plus == 1 and placement.draws == 0
    assert game.player == 1 and game.turns == 1
    other = Match(catalogue, 2, seed=3)
    give(other, 1, [19, 1, 2, 3, 4, 5])
    core = len(other.core)
    other.apply_action(Place(19, 0, -1, 180))  # the one-dot instead: draw 1, no extra turn
    assert other.player == 2 and len(other.face_down[0]) == 1 and len(other.core) == core - 1


def test_solitaire_plus_reveals_a_supply_tile_for_good(catalogue: Catalogue) -> None:
    game = Match(catalogue, 1, seed=3)
    give(game, 1, [19, 1, 2, 3, 4, 5], [6, 8])
    game.apply_action(Place(19, 0, -1, 270))
    assert len(game.revealed[0]) == 1 and len(game.face_down[0]) == 1
    shown = game.revealed[0][0]
    hidden = game.face_down[0][0]
    assert game.why_illegal(Draw(hidden)) == f"tile {hidden} is not a revealed tile of the supply"
    assert Draw(shown) in game.legal_actions() and Draw() in game.legal_actions()
    game.apply_action(Draw(shown))
    assert shown in game.hands[0] and game.revealed[0] == []


def test_draws_are_limited_by_the_core_and_the_last_core_tile_ends_the_game(
    catalogue: Catalogue,
) -> None:
    game = Match(catalogue, 2, seed=3)
    give(game, 1, [21, 1, 2, 3, 4, 5])
    game.core = game.core[:1]
    game.apply_action(Place(21, 0, -1, 270))  # a two-dot: owes 2, the core holds 1
    assert len(game.face_down[0]) == 1 and game.core == []
    outcome = game.outcome()
    assert outcome is not None and outcome.reason == CORE_EXHAUSTED
    assert outcome.scores == (5 + 2, len(game.hands[1]))  # hand tiles 1 point, supply 2
    assert outcome.winners == (1,) and outcome.loser is None
    assert game.legal_actions() == []


def test_two_player_out_of_tiles_loses_at_once(catalogue: Catalogue) -> None:
    game = Match(catalogue, 2, seed=3)
    give(game, 1, [47])
    game.apply_action(Place(47, 0, -1, 0))
    outcome = game.outcome()
    assert outcome is not None and outcome.reason == OUT_OF_TILES
    assert outcome.loser == 1 and outcome.winners == (2,)


def test_solitaire_ends_with_no_tile_in_hand_or_supply(catalogue: Catalogue) -> None:
    game = Match(catalogue, 1, seed=3)
    give(game, 1, [47])
    game.apply_action(Place(47, 0, -1, 0))
    outcome = game.outcome()
    assert outcome is not None and outcome.reason == OUT_OF_TILES and outcome.loser is None


def _finished(catalogue: Catalogue, players: int, reason: str) -> list[Match]:
    games = []
    for seed in range(400):
        game = Match(catalogue, players, seed)
        outcome = game.play_random()
        if outcome.reason == reason:
            games.append(game)
    return games


def test_no_legal_action_ends_the_game_scored_normally(catalogue: Catalogue) -> None:
    for players in (1, 2):
        stuck = _finished(catalogue, players, NO_LEGAL_ACTION)
        assert stuck, "the random games hit this ruling (seeds 0..399)"
        for game in stuck:
            p = game.current
            assert game.hands[p] or game.face_down[p] or game.revealed[p]
            assert game.legal_actions() == []
            game._outcome = None  # look at the position as the player to move sees it
            assert game.legal_actions() == []
            game._finish(NO_LEGAL_ACTION)
            outcome = game.outcome()
            assert outcome is not None and outcome.scores == game.scores()
            assert outcome.loser is None
            assert set(outcome.winners) == {
                i + 1 for i, s in enumerate(outcome.scores) if s == max(outcome.scores)
            }


def test_every_end_reason_happens_in_random_two_player_games(catalogue: Catalogue) -> None:
    for reason in (CORE_EXHAUSTED, OUT_OF_TILES):
        games = _finished(catalogue, 2, reason)
        assert games
        for game in games:
            outcome = game.outcome()
            assert outcome is not None
            if reason == CORE_EXHAUSTED:
                assert game.core == []
            else:
                loser = outcome.loser
                assert loser is not None
                assert not game.hands[loser - 1] and not game.face_down[loser - 1]
                assert outcome.winners == (3 - loser,)
