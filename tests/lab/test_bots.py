"""The bot ladder: every bot plays legal moves in every game, the same seed gives the
same game, and each bot beats the one below it with statistical significance."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from micropul_print.catalogue.loader import load_catalogue
from micropul_print.game import registry
from micropul_print.game.api import GameState
from micropul_print.lab import record, stats
from micropul_print.lab.bots import (
    GreedyBot,
    LookaheadBot,
    RandomBot,
    bot_seed,
    make_bot,
    move_value,
    move_values,
)

from .plugin import edgematch, edgematch_catalogue


def _state(game: str, seed: int, players: int | None = None,
           variant: str | None = None) -> GameState:
    plugin = registry.get(game)
    return plugin.new_state(load_catalogue(plugin.shipped_catalogue()), players=players,
                            seed=seed, variant=variant)


def _play(state: GameState, bots: list[Any], seed: int) -> GameState:
    rngs = [random.Random(bot_seed(seed, seat)) for seat in range(state.players)]
    while not state.is_terminal():
        seat = state.current_player()
        state.apply_action(bots[seat].choose(state, rngs[seat]))  # ValueError if illegal
    return state


def _edge_state() -> GameState:
    state: GameState = edgematch().EdgeState(edgematch_catalogue())
    return state


BOTS = ["random", "greedy", "lookahead:4", "lookahead:3:d3:greedy:c1", "lookahead:5:w0"]


@pytest.mark.parametrize(("where", "spec"), [
    *[("micropul", spec) for spec in BOTS[:3]], ("micropul-solitaire", "lookahead:4:d2"),
    *[("cellulae", spec) for spec in BOTS], *[("edgematch", spec) for spec in BOTS]])
def test_every_bot_plays_a_whole_game_of_legal_moves(where: str, spec: str) -> None:
    if where == "edgematch":
        state = _edge_state()
    else:
        state = _state(where.partition("-")[0], 1, 1 if where.endswith("solitaire") else None)
    bot = make_bot(spec)
    _play(state, [bot] * state.players, 1)
    assert state.is_terminal() and state.end_reason() is not None


def test_the_same_seed_gives_the_same_game() -> None:
    def moves(seed: int) -> list[Any]:
        state = _state("micropul", 4)
        bot = make_bot("lookahead:10")
        rng = random.Random(seed)
        played = []
        # The search's seed redraws what is hidden and breaks ties between moves
        # greedy values alike.
        for _ in range(40):
            move = bot.choose(state, rng)
            played.append(move)
            state.apply_action(move)
        return played

    assert moves(1) == moves(1)
    assert moves(1) != moves(2)


def test_lookahead_games_of_a_game_without_chance_differ_from_seed_to_seed() -> None:
    """Cellulae has no chance and nothing hidden: only the lookahead's seed (ties
    between moves valued alike broken by it) tells one seed's game from another's;
    the same seed gives the same record."""
    plugin = registry.get("cellulae")
    catalogue = load_catalogue(plugin.shipped_catalogue())

    def game(seed: int) -> tuple[str, str]:
        played = record.play("cellulae", catalogue, ["lookahead", "lookahead"], seed)[0]
        return json.dumps(played.moves), played.to_json_text()

    games = [game(seed) for seed in range(8)]
    assert len({moves for moves, _record in games}) >= 6
    assert game(3) == games[3]


def test_bot_specs() -> None:
    assert make_bot("random") == RandomBot() and make_bot("greedy") == GreedyBot()
    assert make_bot("lookahead") == LookaheadBot()
    bot = make_bot("lookahead:250:d5:greedy:c1.2")
    assert bot == LookaheadBot(nodes=250, depth=5, greedy_rollouts=True, exploration=1.2)
    assert bot.name == "lookahead:250:d5:greedy:c1.2"
    assert make_bot(bot.name) == bot
    assert make_bot("lookahead:0.5s") == LookaheadBot(seconds=0.5)
    assert make_bot("lookahead:w0") == LookaheadBot(width=0.0)
    assert make_bot("lookahead:w0").name == "lookahead:w0"
    assert make_bot("lookahead").name == "lookahead"  # its defaults follow the game
    with pytest.raises(ValueError, match="unknown bot 'minimax'"):
        make_bot("minimax")
    with pytest.raises(ValueError, match="bad lookahead option 'x' in 'lookahead:x'"):
        make_bot("lookahead:x")
    with pytest.raises(ValueError, match="unknown bot 'greedy:3'"):
        make_bot("greedy:3")
    # An empty name or option is a typo, not a default bot.
    for spec in ("", "random:", "greedy:"):
        with pytest.raises(ValueError, match=rf"^unknown bot '{spec}' \(expected random, "):
            make_bot(spec)
    with pytest.raises(ValueError, match=r"^bad lookahead option '' in 'lookahead:' "):
        make_bot("lookahead:")


@pytest.mark.parametrize("spec", [
    "lookahead:0", "lookahead:1000001", "lookahead:99999999999999999999", "lookahead:²",
    "lookahead:0s", "lookahead:3601s", "lookahead:infs", "lookahead:d10001",
    "lookahead:d99999999999999999999", "lookahead:cinf", "lookahead:cnan", "lookahead:c-1",
    "lookahead:c101", "lookahead:winf", "lookahead:w1001", "lookahead:w", "lookahead:d",
    # Digits other than ASCII, separators and blanks, which float() reads.
    "lookahead:c\u0661", "lookahead:w\uff12", "lookahead:1_0s", "lookahead:c1_0",
    "lookahead:c 1", "lookahead:w2 ", "lookahead:c1.00000000000000000001",
])
def test_lookahead_options_out_of_their_bounds(spec: str) -> None:
    option = spec.split(":", 1)[1]
    with pytest.raises(ValueError, match=rf"^bad lookahead option '{option}' in '{spec}' "
                       r"\(expected a node budget N from 1 to 1,000,000, a time Ns up to "
                       r"3600 seconds"):
        make_bot(spec)


@pytest.mark.parametrize("spec", ["lookahead:30:30", "lookahead:30:0.5s", "lookahead:1s:40",
                                  "lookahead:d2:d3", "lookahead:greedy:greedy",
                                  "lookahead:c1:c1", "lookahead:w0:w1"])
def test_lookahead_options_each_once(spec: str) -> None:
    with pytest.raises(ValueError, match="says again what an earlier one said"):
        make_bot(spec)


def test_lookahead_options_at_their_bounds() -> None:
    bot = make_bot("lookahead:1000000:d10000:c100:w1000")
    assert bot == LookaheadBot(nodes=1_000_000, depth=10_000, exploration=100.0, width=1000.0)
    assert make_bot("lookahead:3600s") == LookaheadBot(seconds=3600.0)
    assert make_bot("lookahead:1:c0:w0") == LookaheadBot(nodes=1, exploration=0.0, width=0.0)


def test_greedy_values_the_outcome_then_the_margin() -> None:
    state = _edge_state()
    assert move_value(state, 0) == (0.0, 0.0)
    for move in [(1, 0, 0, 0)]:
        state.apply_action(move)
    assert move_value(state, 0) == (0.0, 1.0)  # alone: the score, no opponent


def _points(game: str, strong: str, weak: str, seeds: int,
            variant: str | None = None) -> stats.Interval:
    """The stronger bot's points over ``seeds`` deals, each played in both seat orders."""
    bots = [make_bot(strong), make_bot(weak)]
    taken = 0.0
    for seed in range(seeds):
        for order in ((0, 1), (1, 0)):
            state = _play(_state(game, seed, variant=variant), [bots[i] for i in order], seed)
            taken += state.returns()[order.index(0)]
    return stats.wilson(taken, 2 * seeds)


def test_greedy_beats_random_significantly() -> None:
    points = _points("micropul", "greedy", "random", 8)
    assert points.low > 0.5, points


@pytest.mark.parametrize(("game", "variant", "seeds"), [
    ("cellulae", "5", 10), ("cellulae", "7", 6), ("micropul", None, 12)])
def test_lookahead_beats_greedy_significantly(game: str, variant: str | None,
                                              seeds: int) -> None:
    # At its default budget; Cellulae 9 × 9 is left to the analysis (docs/analysis.md):
    # its games are the longest.
    points = _points(game, "lookahead", "greedy", seeds, variant=variant)
    assert points.low > 0.5, points


@pytest.mark.parametrize("hook", [True, False], ids=["scores_after", "undo"])
@pytest.mark.parametrize("players", [1, 2])
def test_move_values_take_each_move_back_where_the_state_can(
        players: int, hook: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Micropul's state works the values out without playing the moves
    (``scores_after``); without that hook, it takes each move back (no copy per move).
    Either way the values and the state after are what copies give, its random
    generator included: the next draws are the same."""
    state = _state("micropul", 11, players=players)
    if not hook:
        monkeypatch.delattr(type(state), "scores_after")
    rng = random.Random(5)
    for _ in range(9):  # into the game: draws and claims among the moves
        state.apply_action(rng.choice(list(state.legal_actions())))
    moves = list(state.legal_actions())
    twin = state.clone()
    expected = []
    for move in moves:
        trial = twin.clone()
        trial.apply_action(move)
        expected.append(move_value(trial, twin.current_player()))
    copies: list[int] = []
    real_copy = type(state).clone

    def counted_copy(self: Any) -> Any:
        copies.append(1)
        return real_copy(self)

    monkeypatch.setattr(type(state), "clone", counted_copy)
    assert move_values(state, moves) == expected and copies == []
    monkeypatch.setattr(type(state), "clone", real_copy)
    assert state.legal_actions() == twin.legal_actions() and state.scores() == twin.scores()
    after, twin_after = state.clone(), twin.clone()
    for _ in range(12):  # the same random draws from here on
        if after.is_terminal():
            break
        move = rng.choice(list(after.legal_actions()))
        after.apply_action(move)
        twin_after.apply_action(move)
        assert after.legal_actions() == twin_after.legal_actions()


def test_move_values_of_cellulae_are_those_of_clones() -> None:
    state = _state("cellulae", 2)
    moves = list(state.legal_actions())[:5]
    values = move_values(state, moves)
    for move, value in zip(moves, values, strict=True):
        trial = state.clone()
        trial.apply_action(move)
        assert move_value(trial, state.current_player()) == value


def test_claims_of_one_group_are_one_class_valued_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Micropul's claims on one group share a class (the rules never look at which of
    its micropul holds the stone): after any of them the scores and the moves to come
    are the same, and move_values, without the state's ``scores_after``, plays one
    move per class, with the values that playing each would give; with it, none."""
    classes_met = 0
    played: list[Any] = []
    real_play = type(_state("micropul", 0)).apply_action

    def counted_play(self: Any, move: Any) -> None:
        played.append(move)
        real_play(self, move)

    for seed in range(8):
        state = _state("micropul", seed)
        rng = random.Random(seed)
        for _ in range(14):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(list(state.legal_actions())))
        if state.is_terminal():
            continue
        moves = list(state.legal_actions())
        by_class: dict[Any, list[Any]] = {}
        for move in moves:
            kind = state.action_class(move)  # type: ignore[attr-defined]
            assert (kind is None) == (type(move).__name__ != "Claim")
            by_class.setdefault(move if kind is None else kind, []).append(move)
        for members in by_class.values():
            outcomes = set()
            for move in members:
                trial = state.clone()
                trial.apply_action(move)
                outcomes.add((trial.scores(), tuple(trial.legal_actions())))
            assert len(outcomes) == 1, members
        classes_met += sum(len(members) > 1 for members in by_class.values())
        expected = []
        for move in moves:
            trial = state.clone()
            trial.apply_action(move)
            expected.append(move_value(trial, state.current_player()))
        played.clear()
        monkeypatch.setattr(type(state), "apply_action", counted_play)
        assert move_values(state, moves) == expected
        assert played == []  # scores_after plays nothing
        monkeypatch.delattr(type(state), "scores_after")
        assert move_values(state, moves) == expected
        monkeypatch.undo()
        assert len(played) == len(by_class)
    assert classes_met >= 5


@pytest.mark.parametrize("players", [1, 2])
def test_the_state_s_shortcuts_change_no_game(players: int,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Micropul's ``scores_after`` (moves valued without playing them), ``is_legal``
    (a ranked move looked at alone) and ``scratch_determinized`` (determinisations
    without undo records) are shortcuts: without them, greedy and the guided lookahead
    play the same games, move for move. (``scratch_redrawn`` draws its
    determinisations from the search's generator instead of a seed drawn from it: other
    draws, other games; tests/engines/test_copy.py checks that it is the same
    determinisation for the same generator.)"""
    specs = ["greedy", "lookahead:12:w1"]

    def games() -> list[list[Any]]:
        played = []
        for seed in range(3):
            state = _state("micropul", seed, players=players)
            bots = [make_bot(specs[(seed + seat) % 2]) for seat in range(state.players)]
            rngs = [random.Random(bot_seed(seed, seat)) for seat in range(state.players)]
            moves = []
            while not state.is_terminal():
                seat = state.current_player()
                move = bots[seat].choose(state, rngs[seat])
                moves.append(move)
                state.apply_action(move)
            played.append(moves)
        return played

    kind = type(_state("micropul", 0))
    monkeypatch.delattr(kind, "scratch_redrawn")
    fast = games()
    monkeypatch.delattr(kind, "scratch_determinized")
    assert games() == fast
    monkeypatch.delattr(kind, "scores_after")
    monkeypatch.delattr(kind, "is_legal")
    assert games() == fast


@pytest.mark.parametrize("game", ["micropul", "cellulae"])
def test_the_search_stopped_once_its_choice_is_settled_plays_the_same_games(
        game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The lookahead stops once its most visited move leads by more visits than the
    iterations left: every iteration run, the games are the same, move for move (the
    search's generator is its own, so the iterations it spares change no later
    decision)."""
    from micropul_print.lab import bots

    def games() -> list[list[Any]]:
        played = []
        for seed in range(2):
            state = _state(game, seed)
            players = [make_bot("lookahead")] * state.players
            rngs = [random.Random(bot_seed(seed, seat)) for seat in range(state.players)]
            moves = []
            while not state.is_terminal():
                move = players[state.current_player()].choose(
                    state, rngs[state.current_player()])
                moves.append(move)
                state.apply_action(move)
            played.append(moves)
        return played

    stopped = games()
    calls = 0
    iterate = bots.LookaheadBot._iterate

    def counted(*args: Any) -> None:
        nonlocal calls
        calls += 1
        iterate(*args)

    monkeypatch.setattr(bots.LookaheadBot, "_iterate", counted)
    assert games() == stopped
    early = calls
    calls = 0
    monkeypatch.setattr(bots, "STOP_WHEN_SETTLED", False)
    assert games() == stopped
    assert calls > early  # some searches did stop early
