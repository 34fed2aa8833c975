"""The engines against their frozen reference (tests/engines/reference): thousands of seeded
random games must be the same game, turn by turn.

Micropul: at every turn the legal actions, the groups (colour, points, closed, stones,
quadrants), the scores, the whole state (hands, supplies in order, core in order,
stones, table), the random policy's action, and after each placement its activated
catalysts, draws and pluses; then the outcome, and the fast path (``play_random``) must
end in the same outcome and position. Cellulae: the same random games (move by move),
the legal moves before each move, the tiles each move turns over, the outcome.

The default run keeps to a few seconds; ``ENGINE_DIFF_SCALE=N`` plays N times as many
games (new seeds), e.g. ``ENGINE_DIFF_SCALE=50 .venv/bin/python -m pytest
tests/engines/test_differential.py``. ``python -m bench engine --compiled-test`` runs these
tests on the engine compiled with mypyc (ENGINE_COMPILED=1).
"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

from micropul_print.base.errors import Severity
from micropul_print.games.cellulae import rules as cellulae
from micropul_print.games.micropul import setcheck
from micropul_print.games.micropul.model import (
    BLACK,
    DOT,
    DOUBLE,
    EMPTY,
    PLUS,
    WHITE,
    BigMicropul,
    Catalogue,
    Tile,
)
from micropul_print.games.micropul.rules import board as micropul_board
from micropul_print.games.micropul.rules import game as micropul_game
from micropul_print.games.micropul.rules import tiles as micropul_tiles
from micropul_print.games.micropul.rules.game import Match, Place
from micropul_print.games.micropul.rules.tiles import TileSet, tileset

from .reference import cellulae as ref_cellulae
from .reference import setcheck as ref_setcheck
from .reference.game import Game as RefGame
from .reference.tiles import TileSet as RefTileSet
from .reference.tiles import tileset as ref_tileset

SCALE = int(os.environ.get("ENGINE_DIFF_SCALE", "1"))
# Games per test: each block of seeds is one test, so a failure names its seeds. The
# reference is slow (listing every action and group of every turn costs it ~10 ms a
# game), so the default run compares every turn of a tenth of the games and the whole
# game (outcome, final position) of all of them.
BLOCK = 500
TWO_PLAYER_GAMES = 2000 * SCALE
SOLITAIRE_GAMES = 1000 * SCALE
TURN_BY_TURN = 10  # one game in this many is compared at every turn
CELLULAE_GAMES = {5: 1000 * SCALE, 7: 400 * SCALE, 9: 200 * SCALE}


COMPILED = bool(os.environ.get("ENGINE_COMPILED"))


@pytest.mark.parametrize(
    "module", [micropul_tiles, micropul_board, micropul_game, cellulae], ids=lambda m: m.__name__
)
def test_the_engine_under_test_is_pure_python_unless_compiled_is_asked(module: Any) -> None:
    """The default run tests the pure-Python engine; with ENGINE_COMPILED=1 (bench engine
    --compiled-test) the mypyc-compiled one, and not the pure one by mistake."""
    assert str(module.__file__).endswith(".py") != COMPILED, module.__file__


def _actions(actions: list[Any]) -> list[tuple[object, ...]]:
    return [(type(a).__name__, *a) for a in actions]


def _groups(board: Any) -> list[tuple[object, ...]]:
    return [(g.colour, g.points, g.closed, g.stones, g.quadrants) for g in board.groups()]


def _state(game: Any) -> tuple[object, ...]:
    return (
        game.current,
        game.turns,
        game.hands,
        game.face_down,
        game.revealed,
        game.core,
        game.stones_left,
        game.board.placed(),
        game.board.stones,
    )


def _placement(done: Any) -> tuple[object, ...] | None:
    if done is None:
        return None
    catalysts = tuple((c.x, c.y, c.position, c.kind) for c in done.activated)
    return (done.tile, done.x, done.y, done.rotation, catalysts, done.draws, done.plus)


def _outcome(outcome: Any) -> tuple[object, ...]:
    assert outcome is not None
    return (outcome.reason, outcome.scores, outcome.winners, outcome.loser, outcome.turns)


def _turn_by_turn(ts: TileSet, ref_ts: RefTileSet, players: int, seed: int) -> None:
    """Both engines through the public path: legal_actions, random_action, preview and
    apply_action (the reference's push)."""
    game, ref = Match(ts, players, seed), RefGame(ref_ts, players, seed)
    while True:
        where = f"seed {seed}, {players} player(s), turn {ref.turns}"
        assert _state(game) == _state(ref), where
        assert _actions(game.legal_actions()) == _actions(ref.legal_actions()), where
        assert _groups(game.board) == _groups(ref.board), where
        assert game.scores() == ref.scores(), where
        assert game.is_terminal() == ref.is_over(), where
        if ref.is_over():
            break
        assert game.current_player() == ref.current, where
        action, ref_action = game.random_action(), ref.random_action()
        assert _actions([action]) == _actions([ref_action]), where
        done = game.preview(action) if isinstance(action, Place) else None
        game.apply_action(action)
        assert _placement(done) == _placement(ref.push(ref_action)), where
    assert _outcome(game.outcome()) == _outcome(ref.outcome()), seed


def _micropul_block(catalogue: Catalogue, players: int, seeds: range) -> None:
    ts, ref_ts = tileset(catalogue), ref_tileset(catalogue)
    for seed in seeds:
        if seed % TURN_BY_TURN == 0:
            _turn_by_turn(ts, ref_ts, players, seed)
        # The fast path (no Action objects, no validation) plays the same whole game.
        game, ref = Match(ts, players, seed), RefGame(ref_ts, players, seed)
        assert _outcome(game.play_random()) == _outcome(ref.play_random()), seed
        assert _state(game) == _state(ref), seed
        assert _groups(game.board) == _groups(ref.board), seed


def _blocks(games: int) -> list[range]:
    return [range(start, min(start + BLOCK, games)) for start in range(0, games, BLOCK)]


@pytest.mark.parametrize("seeds", _blocks(TWO_PLAYER_GAMES), ids=str)
def test_two_player_games_are_the_reference_games(catalogue: Catalogue, seeds: range) -> None:
    _micropul_block(catalogue, 2, seeds)


@pytest.mark.parametrize("seeds", _blocks(SOLITAIRE_GAMES), ids=str)
def test_solitaire_games_are_the_reference_games(catalogue: Catalogue, seeds: range) -> None:
    _micropul_block(catalogue, 1, seeds)


def _moves(moves: list[Any]) -> list[str]:
    return [str(m) for m in moves]


@pytest.mark.parametrize(
    "side, seeds", [(side, seeds) for side, games in CELLULAE_GAMES.items()
                    for seeds in _blocks(games)], ids=str)
def test_cellulae_games_are_the_reference_games(side: int, seeds: range) -> None:
    for seed in seeds:
        board, ref = cellulae.Board(side), ref_cellulae.Board(side)
        outcome = board.play_random(random.Random(seed))
        ref_outcome = ref.play_random(random.Random(seed))
        assert outcome == cellulae.Outcome(**vars(ref_outcome)), seed
        played = _moves(ref.move_stack)
        assert _moves(board.move_stack) == played, seed
        assert board.rows() == ref.rows() and board.quiet == ref.quiet, seed
        if seed % TURN_BY_TURN:
            continue
        # The same game again move by move through the validating path.
        board, ref = cellulae.Board(side), ref_cellulae.Board(side)
        for text in played:
            assert _moves(board.legal_actions()) == _moves(ref.legal_moves()), (seed, text)
            move = cellulae.Move.parse(text)
            flipped = board.flipped_by(move)
            board.apply_action(move)
            assert flipped == ref.push(ref_cellulae.Move.parse(text)), (seed, text)
            assert board.rows() == ref.rows() and board.turn == ref.turn, (seed, text)
            assert board.is_terminal() == ref.is_over(), (seed, text)
        assert board.legal_actions() == [] and ref.legal_moves() == []
        assert board.outcome() == outcome, seed


def _random_set(tiles: int, seed: int) -> Catalogue:
    """A random set in colour-swapped pairs (some big tiles, one start tile): its
    catalysts need a neighbour, a square of helpers, or cannot be activated at all."""
    rng = random.Random(seed)
    swap = {WHITE: BLACK, BLACK: WHITE}
    symbols = (WHITE, BLACK, DOT, DOUBLE, PLUS, EMPTY, EMPTY)
    made: list[Tile] = [
        Tile(1, (WHITE, WHITE, BLACK, BLACK), start=True),
        Tile(2, (BLACK, BLACK, WHITE, WHITE)),
    ]
    while len(made) < tiles:
        first = len(made) + 1
        if rng.random() < 0.1:
            colour, catalyst = rng.choice((WHITE, BLACK)), rng.choice((DOT, DOUBLE, PLUS))
            made += [
                Tile(first, (colour,) * 4, big=BigMicropul(colour, catalyst)),
                Tile(first + 1, (swap[colour],) * 4, big=BigMicropul(swap[colour], catalyst)),
            ]
            continue
        face = tuple(rng.choice(symbols) for _ in range(4))
        made += [
            Tile(first, face),  # type: ignore[arg-type]
            Tile(first + 1, tuple(swap.get(q, q) for q in face)),  # type: ignore[arg-type]
        ]
    return Catalogue(game="micropul", name="random", tiles=tuple(made), source="random.yaml")


@pytest.mark.parametrize("tiles, seed", [(0, 0), (12, 1), (20, 2), (24, 3), (30, 4)])
def test_set_facts_are_the_reference_facts(catalogue: Catalogue, tiles: int, seed: int) -> None:
    """Set facts (identical tiles, tiles that cannot attach, catalysts and the example
    that activates each) found by edge classes equal the reference's plain search."""
    tried = catalogue if tiles == 0 else _random_set(tiles, seed)
    facts, ref_facts = vars(setcheck.set_facts(tried)), vars(ref_setcheck.set_facts(tried))
    # One change on purpose: a tile identical to several earlier ones is noted with the
    # first of them only (the reference noted every pair: quadratic in a large set).
    # Those notes are worded anew (tests/games/micropul/test_setcheck.py checks them):
    # the pairs are compared here, the other diagnostics word for word.
    repeated = {b for _, b, _ in ref_facts["same_up_to_rotation"]}
    ref_facts["same_up_to_rotation"] = [
        pair for pair in ref_facts["same_up_to_rotation"] if pair[0] not in repeated
    ]
    ref_facts["diagnostics"] = [
        d for d in ref_facts["diagnostics"] if "identical up to rotation" not in d.message
    ]
    facts["diagnostics"] = [d for d in facts["diagnostics"] if d.severity != Severity.NOTICE]
    assert facts == ref_facts
    for tile in tried.tiles:
        positions = [None] if tile.big else [q for q, v in enumerate(tile.quadrants)
                                              if v in (DOT, DOUBLE, PLUS)]
        for position in positions:
            assert setcheck.activation_example(tried, tile, position) == (
                ref_setcheck.activation_example(tried, tile, position)
            ), (tile.id, position)
