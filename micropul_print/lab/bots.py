"""The bot ladder, generic over the common engine shape (gameapi.GameState).

Every bot is deterministic for a seed: all its choices come from the
``random.Random`` it is given (the lookahead's determinisations included), so the
same seed and the same game give the same moves. From weakest to strongest:

- ``random``: a legal move, uniformly;
- ``greedy``: the move with the best immediate outcome, tried and taken back (see
  :func:`move_value`); ties broken at random;
- ``lookahead``: information-set Monte Carlo tree search (single-observer ISMCTS,
  Cowling, Powley and Whitehouse 2012). Each iteration searches a *determinisation* of
  the position (``state.determinized(seed)``: what the player to move cannot see,
  redrawn), descends the one shared tree by UCT, counting a move's *availability*
  rather than its parent's visits, adds one node, then plays an optional rollout
  (random or greedy moves) and evaluates where it stands (:func:`evaluate`: the
  result, or the lead on the search's own scale). Greedy guides it: the first time
  the search goes on from a node, it ranks the node's moves as greedy would, and a
  node visited n times chooses only among its best ``width * sqrt(n + 1)``
  (progressive widening), trying them best first. With 20 to 90 legal moves a turn,
  an unguided search of 100 nodes visits most moves once and sees no further than
  greedy; the guided one spends its nodes on the few moves worth reading and on the
  other player's best replies to them. Alone (a solitaire game), with no replies to
  model, the guidance cost points: there the default is the unguided search, with
  more nodes (:data:`ALONE`). Its budget is a number of iterations (nodes added), so
  its games are reproducible; a time budget is offered too. By default there is no
  rollout: in the shipped games a random rollout's noise drowns the lead it ends on
  (docs/analysis.md).

Bots are plugins (:class:`Bot`): each registered under the entry-point group
``micropul_print.bots`` by a factory, these three too (pyproject.toml); a run checks
every move (:func:`checked_choice`): a bot that raises, returns an illegal action or
overruns its time budget loses that game by forfeit.

A bot is named on the command line by a spec: ``random``, ``greedy``,
``lookahead`` or ``lookahead:OPTION:OPTION...`` with options ``N`` (node budget,
default 30 against other players, 100 alone), ``Ns`` (a time budget in seconds
instead, e.g. ``0.5s``: not reproducible), ``dD`` (rollouts of D moves, default 0:
none), ``greedy`` (greedy rollout moves), ``cC`` (the exploration constant, default
0.7) and ``wW`` (the widening factor, default 1 against other players; ``w0``, the
default alone: no widening, every move tried in random order, the unguided search).
Each option at most once, within its bounds (MAX_NODES and the others; docs/limits.md).
"""

from __future__ import annotations

import contextlib
import functools
import math
import random
import re
import signal
import sys
import threading
import time
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass, replace
from importlib.metadata import entry_points
from typing import Any, Protocol

from micropul_print.base.errors import Diagnostic, Severity, let_through, printable
from micropul_print.game.state import GameState


class Bot(Protocol):
    """A player: picks a legal action of the player to move (docs/analysis.md, "Your
    own bots").

    A bot is registered under the entry-point group ``micropul_print.bots`` by a
    *factory*: a callable taking the options of its spec (what follows ``name:``, None
    without a colon) and returning the bot, or raising ValueError saying what is wrong
    with them. The shipped bots register the same way (pyproject.toml).

    A bot may also have ``move_seconds``: its time budget per decision, in seconds
    (None: no time limit). A plugin bot without one gets
    :data:`DEFAULT_MOVE_SECONDS`; the shipped bots have none, their budget being
    counted in search nodes, so that their games are reproducible."""

    @property
    def name(self) -> str:
        """The spec that makes this bot again (e.g. ``lookahead:200``)."""
        ...

    def choose(self, state: GameState, rng: random.Random) -> Any:
        """A legal action of ``state`` (not over); all randomness from ``rng``. A plugin
        bot is given ``state.determinized(...)``: a clone in which whatever its player
        cannot see is redrawn, which it may change at will."""
        ...


def move_value(state: GameState, player: int) -> tuple[float, float]:
    """How good ``state`` is for ``player``, as the greedy bot ranks it: first the
    outcome if the game is over (1 won, -1 lost, 0 a draw or not over), then the
    player's score minus the best other score (the score alone in solitaire). A draw
    is thus judged through the scores. Alone, only a lost game (a puzzle stuck) counts
    as an outcome: ending a solitaire game is no better than playing on."""
    return outcome_value(state.scores(),
                         state.returns() if state.is_terminal() else None, player)


def outcome_value(scores: Sequence[float], returns: Sequence[float] | None,
                  player: int) -> tuple[float, float]:
    """:func:`move_value` of a position with these ``scores`` and, if it is over, these
    ``returns`` (None: not over)."""
    if len(scores) == 2:  # the common case, without building the list of the others
        margin = scores[player] - scores[1 - player]
    else:
        others = [s for seat, s in enumerate(scores) if seat != player]
        margin = scores[player] - (max(others) if others else 0.0)
    outcome = 0.0
    if returns is not None:
        mine = returns[player]
        if len(scores) > 1:
            rest = max(r for seat, r in enumerate(returns) if seat != player)
            outcome = 1.0 if mine > rest else -1.0 if mine < rest else 0.0
        elif mine == 0.0:
            outcome = -1.0
    return outcome, margin


def move_values(state: GameState, moves: Sequence[Any]) -> list[tuple[float, float]]:
    """:func:`move_value` of each of ``moves`` for the player to move. From the state's
    ``scores_after(moves)`` if it has one (GameState: the scores and returns after
    each move, worked out without playing it); otherwise each move is applied and taken
    back (``undo()``), without cloning the whole game (its board, hands and random
    generator) for every move, and moves of one class (the state's ``action_class``,
    if it has one) are valued once: they have the same value."""
    player = state.current_player()
    scores_after: Callable[[Sequence[Any]], Sequence[tuple[Sequence[float],
                                                           Sequence[float] | None]]] | None
    scores_after = getattr(state, "scores_after", None)
    if scores_after is not None:
        if state.players == 2:  # outcome_value of two seats, inline: one call a move
            other = 1 - player
            return [(0.0 if returns is None
                     else 1.0 if returns[player] > returns[other]
                     else -1.0 if returns[player] < returns[other] else 0.0,
                     scores[player] - scores[other])
                    for scores, returns in scores_after(moves)]
        return [outcome_value(scores, returns, player)
                for scores, returns in scores_after(moves)]
    undo = state.undo
    apply_action = state.apply_action
    action_class: Callable[[Any], Hashable | None] | None = getattr(state, "action_class",
                                                                     None)
    values = []
    known: dict[Hashable, tuple[float, float]] = {}  # the value of each class met
    for move in moves:
        kind = None if action_class is None else action_class(move)
        if kind is not None and kind in known:
            values.append(known[kind])
            continue
        apply_action(move)
        value = move_value(state, player)
        undo()
        values.append(value)
        if kind is not None:
            known[kind] = value
    return values


def greedy_ranking(state: GameState, moves: Sequence[Any],
                   rng: random.Random | None = None, top: int | None = None) -> list[Any]:
    """``moves`` from the best to the worst by greedy's :func:`move_value`; equals in
    an order drawn from ``rng`` (without one, in their given order). The lookahead
    gives its own: with equals in legal order, a game without chance or hidden tiles
    would be the same game whatever the seed. With ``top``, only the first
    ``top`` places are drawn so (the search never looks further); equals after them
    stay in their given order."""
    values = move_values(state, moves)
    order = sorted(range(len(moves)), key=values.__getitem__, reverse=True)
    if rng is not None:
        _shuffle_equals(order, values, rng, len(order) if top is None else top)
    return [moves[i] for i in order]


def _shuffle_equals(order: list[int], values: Sequence[tuple[float, float]],
                    rng: random.Random, top: int) -> None:
    """Draw, in place, the order of each run of ``order`` whose ``values`` are equal,
    as far as the first ``top`` places (a Fisher-Yates shuffle on ``rng.random()``,
    stopped there: draws only for the ties among the first ``top``)."""
    count = len(order)
    start = 0
    while start < count and start < top:
        value = values[order[start]]
        end = start + 1
        while end < count and values[order[end]] == value:
            end += 1
        for i in range(start, min(end - 1, top)):
            j = i + int(rng.random() * (end - i))
            order[i], order[j] = order[j], order[i]
        start = end


def _greedy_pick(state: GameState, moves: Sequence[Any], rng: random.Random) -> Any:
    best: list[Any] = []
    best_value: tuple[float, float] | None = None
    for move, value in zip(moves, move_values(state, moves), strict=True):
        if best_value is None or value > best_value:
            best, best_value = [move], value
        elif value == best_value:
            best.append(move)
    return best[int(rng.random() * len(best))]


@dataclass(frozen=True)
class RandomBot:
    name: str = "random"

    def choose(self, state: GameState, rng: random.Random) -> Any:
        moves = state.legal_actions()
        return moves[int(rng.random() * len(moves))]


@dataclass(frozen=True)
class GreedyBot:
    name: str = "greedy"

    def choose(self, state: GameState, rng: random.Random) -> Any:
        return _greedy_pick(state, state.legal_actions(), rng)


# The lookahead's default (node budget, widening factor) against other players: a
# search guided by greedy's ranking of each node's moves, which models their best
# replies; and alone, where an unguided search of more nodes, trying every move, scored
# higher (docs/analysis.md).
GUIDED = (30, 1.0)
ALONE = (100, 0.0)
# The node budget's search ends early once its choice is settled (LookaheadBot.choose);
# False: every iteration is run (the tests compare the two).
STOP_WHEN_SETTLED = True
GREEDY_ROLLOUT_SAMPLE = 4  # a greedy rollout move is the best of this many random ones


class _Node:
    __slots__ = ("avail", "children", "mover", "order", "ranking", "reward", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover  # the seat whose move led here
        self.children: dict[Any, _Node] = {}
        self.visits = 0
        self.reward = 0.0  # summed over visits, from ``mover``'s point of view
        self.avail = 0  # iterations in which the move leading here was legal
        # The moves from here, best first by greedy's judgement, ranked when the search
        # first goes on from here (a move legal only in a later determinisation comes
        # after them, in legal order).
        self.ranking: dict[Any, int] | None = None
        self.order: list[Any] = []  # the ranked moves, best first


class _Bounds:
    """The scale of one search's evaluations: the largest lead (or, alone, the lowest
    and highest score) seen so far, so that a position is judged on the game's own
    scale, whatever its scores count."""

    def __init__(self) -> None:
        self.low = math.inf
        self.high = -math.inf
        self.lead = 0.0

    def score(self, score: float) -> float:
        """A solitaire score in [0, 1] among those seen."""
        self.low, self.high = min(self.low, score), max(self.high, score)
        spread = self.high - self.low
        return 0.5 if spread == 0 else (score - self.low) / spread

    def margin(self, margin: float) -> float:
        """A lead over the best other seat in [0.1, 0.9], 0.5 for level scores: clear
        of a won (1) or lost (0) game."""
        self.lead = max(self.lead, abs(margin))
        return 0.5 if self.lead == 0 else 0.5 + 0.4 * margin / self.lead


def evaluate(state: GameState, bounds: _Bounds) -> tuple[float, ...]:
    """Each seat's reward in [0, 1] at the end of a rollout. Two or more players: the
    returns once over; before the end, the seat's lead over the best other seat,
    scaled by ``bounds``. Alone: the score, scaled by ``bounds`` (0 for a lost game)."""
    scores = state.scores()
    if len(scores) == 1:
        lost = state.is_terminal() and state.returns()[0] == 0.0
        return (0.0 if lost else bounds.score(scores[0]),)
    if state.is_terminal():
        return state.returns()
    if len(scores) == 2:  # the margins below, without the lists
        lead = scores[0] - scores[1]
        return bounds.margin(lead), bounds.margin(-lead)
    margins = [score - max(s for other, s in enumerate(scores) if other != seat)
               for seat, score in enumerate(scores)]
    return tuple(bounds.margin(margin) for margin in margins)


@dataclass(frozen=True)
class LookaheadBot:
    """Single-observer information-set MCTS with UCT (see the module's docstring)."""

    # None: the defaults for the game being played (:data:`GUIDED`, :data:`ALONE`).
    nodes: int | None = None
    seconds: float | None = None  # a time budget instead of ``nodes`` (not reproducible)
    depth: int = 0  # rollout moves before the evaluation (0: evaluate the new node)
    greedy_rollouts: bool = False
    exploration: float = 0.7
    # Progressive widening: a node visited n times chooses among its best
    # ``width * sqrt(n + 1)`` moves by greedy's ranking (0: among all, untried ones
    # first, at random).
    width: float | None = None

    @property
    def name(self) -> str:
        parts = ["lookahead"]
        if self.seconds is not None:
            parts.append(f"{self.seconds:g}s")
        elif self.nodes is not None:
            parts.append(str(self.nodes))
        if self.depth != 0:
            parts.append(f"d{self.depth}")
        if self.greedy_rollouts:
            parts.append("greedy")
        if self.exploration != 0.7:
            parts.append(f"c{self.exploration:g}")
        if self.width is not None:
            parts.append(f"w{self.width:g}")
        return ":".join(parts)

    def scaled(self, factor: int) -> LookaheadBot | None:
        """This bot with ``factor`` times its node budget (the two-player default when
        it names none), for ``analyse --skill-trace``; None with a time budget."""
        if self.seconds is not None:
            return None
        return replace(self, nodes=factor * (self.nodes or GUIDED[0]))

    def choose(self, state: GameState, rng: random.Random) -> Any:
        moves = state.legal_actions()
        if len(moves) == 1:
            return moves[0]
        default_nodes, default_width = GUIDED if state.players > 1 else ALONE
        nodes = default_nodes if self.nodes is None else self.nodes
        width = default_width if self.width is None else self.width
        root = _Node(-1)
        bounds = _Bounds()
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        redraw = _search_copies(state)
        # The search draws from a generator of its own, seeded from ``rng`` (one draw a
        # decision): how many iterations it runs changes none of the later decisions.
        rng = random.Random(rng.getrandbits(64))
        children = root.children
        # No node is visited more than ``nodes`` times, so none chooses among more than
        # its first ``top`` ranked moves (_widened): ties after them need no drawing.
        top = None if deadline is not None else int(width * math.sqrt(nodes + 1)) + 1
        while (done < nodes if deadline is None
               else done == 0 or time.perf_counter() < deadline):
            self._iterate(root, redraw(rng), rng, bounds, width, moves, top)
            root.visits += 1
            done += 1
            if deadline is None and STOP_WHEN_SETTLED:
                # The choice is settled once the most visited move leads every other
                # by more visits than the iterations left: the rest of the search
                # could not change it.
                first = second = 0
                for child in children.values():
                    visits = child.visits
                    if visits > first:
                        first, second = visits, first
                    elif visits > second:
                        second = visits
                if first - second > nodes - done:
                    break
        # The most visited move; among equals (with more moves than nodes, most were
        # visited once), the best mean reward, then greedy's ranking (its equals in an
        # order drawn from rng); unranked (w0), one of the equals drawn from rng.
        ranking = root.ranking

        def rank(move: Any) -> tuple[int, float]:
            child = root.children.get(move)
            if child is None:
                return -1, 0.0
            return child.visits, child.reward / child.visits

        keys = [rank(move) for move in moves]
        best = max(keys)
        tied = [move for move, key in zip(moves, keys, strict=True) if key == best]
        if len(tied) == 1:
            return tied[0]
        if ranking is not None:
            return min(tied, key=lambda move: ranking.get(move, len(ranking)))
        return tied[int(rng.random() * len(tied))]

    def _iterate(self, root: _Node, state: GameState, rng: random.Random,
                 bounds: _Bounds, width: float, root_legal: Sequence[Any],
                 top: int | None) -> None:
        node, path = root, []
        # At the root, the real position's legal actions: what the player to move may
        # do is in sight, so every determinisation has the same (GameState.determinized).
        legal = root_legal
        is_legal: Callable[[Any], bool] | None = getattr(state, "is_legal", None)
        while not state.is_terminal():
            if node is root:
                if width > 0:
                    legal = _widened(node, state, legal, width, rng, top, root_legal)
            elif width > 0 and node.ranking is not None and is_legal is not None:
                # A ranked node needs only its best moves that are legal here: each
                # looked at alone, not the whole list (the same moves either way).
                legal = _widened_by_look(node, state, width, is_legal)
            else:
                legal = state.legal_actions()
                if width > 0:
                    legal = _widened(node, state, legal, width, rng, top)
            children = node.children
            for move in legal:
                child = children.get(move)
                if child is not None:
                    child.avail += 1
            untried = [move for move in legal if move not in children]
            mover = state.current_player()
            if untried:
                move = (untried[0] if width > 0
                        else untried[int(rng.random() * len(untried))])
                child = children[move] = _Node(mover)
                child.avail = 1
                state.apply_action(move)
                path.append(child)
                break
            c = self.exploration
            move = max(legal, key=lambda m: _ucb(children[m], c))
            state.apply_action(move)
            node = children[move]
            path.append(node)
        for _ in range(self.depth):
            if state.is_terminal():
                break
            moves = state.legal_actions()
            if self.greedy_rollouts:
                sample = [moves[int(rng.random() * len(moves))]
                          for _ in range(min(GREEDY_ROLLOUT_SAMPLE, len(moves)))]
                state.apply_action(_greedy_pick(state, sample, rng))
            else:
                state.apply_action(moves[int(rng.random() * len(moves))])
        values = evaluate(state, bounds)
        for visited in path:
            visited.visits += 1
            visited.reward += values[visited.mover]



def _search_copies(state: GameState) -> Callable[[random.Random], GameState]:
    """What makes the search's determinisations of ``state`` from its generator: the
    state's ``scratch_redrawn`` (GameState: a copy without undo records, drawing from
    that generator itself), else its ``scratch_determinized`` (the same copy, from a
    seed drawn from the generator), when it also has ``scores_after`` (so that nothing
    in the search takes a move back); else its ``determinized``."""
    if getattr(state, "scores_after", None) is not None:
        redrawn: Callable[[random.Random], GameState] | None = getattr(
            state, "scratch_redrawn", None)
        if redrawn is not None:
            return redrawn
        scratch: Callable[[int], GameState] | None = getattr(state, "scratch_determinized",
                                                             None)
        if scratch is not None:
            return lambda rng: scratch(rng.getrandbits(64))
    determinized = state.determinized
    return lambda rng: determinized(rng.getrandbits(64))


def _widened(node: _Node, state: GameState, legal: Sequence[Any], width: float,
             rng: random.Random, top: int | None,
             root_legal: Sequence[Any] | None = None) -> list[Any]:
    """The moves of ``legal`` that ``node`` may choose among now: its best by greedy's
    ranking (equals in an order drawn from ``rng``), more as it is visited more."""
    fresh = node.ranking is None
    if fresh:
        node.order = greedy_ranking(state, legal, rng, top)
        node.ranking = {move: i for i, move in enumerate(node.order)}
    allowed = max(1, int(width * math.sqrt(node.visits + 1)))
    if fresh or legal is root_legal:
        # Ranked from these very moves (or the root's, the same at every visit): the
        # first ``allowed`` are all legal here.
        return node.order[:allowed]
    return _first_allowed(node, allowed, set(legal).__contains__, lambda: legal)


def _widened_by_look(node: _Node, state: GameState, width: float,
                     is_legal: Callable[[Any], bool]) -> list[Any]:
    """:func:`_widened` of the ranked ``node`` with the state's legal actions, from
    the state's ``is_legal`` (GameState): the ranked moves looked at one by one, the
    whole list made only if too few of them are legal here."""
    allowed = max(1, int(width * math.sqrt(node.visits + 1)))
    return _first_allowed(node, allowed, is_legal, state.legal_actions)


def _first_allowed(node: _Node, allowed: int, is_legal: Callable[[Any], bool],
                   all_legal: Callable[[], Sequence[Any]]) -> list[Any]:
    """The first ``allowed`` legal moves by the ranked ``node``'s rank, the unranked
    after them in legal order; without a sort: the ranked moves in order while they
    are legal here, and ``all_legal()`` asked for only if too few of them are."""
    chosen = []
    for move in node.order:
        if is_legal(move):
            chosen.append(move)
            if len(chosen) == allowed:
                return chosen
    ranking = node.ranking
    assert ranking is not None
    for move in all_legal():
        if move not in ranking:
            chosen.append(move)
            if len(chosen) == allowed:
                break
    return chosen


def _ucb(node: _Node, c: float) -> float:
    return node.reward / node.visits + c * math.sqrt(math.log(node.avail) / node.visits)


BOT_NAMES = ("random", "greedy", "lookahead")  # the shipped bots, weakest first
BOT_GROUP = "micropul_print.bots"
# A plugin bot's time budget per decision unless it states its own (move_seconds).
DEFAULT_MOVE_SECONDS = 10.0
FORFEIT = "forfeit"  # the end reason of a game a bot lost by breaking the rules above


# Bounds of the lookahead's options: each a value someone may mean. Beyond them a
# decision never ends in practice (a million nodes take minutes a move), or the search
# is meaningless (an infinite exploration constant).
MAX_NODES = 1_000_000
MAX_SECONDS = 3600.0
MAX_DEPTH = 10_000  # as many moves as the longest game analyse plays
MAX_EXPLORATION = 100.0
MAX_WIDTH = 1000.0
_LOOKAHEAD_OPTIONS = (f"a node budget N from 1 to {MAX_NODES:,}, a time Ns up to "
                      f"{MAX_SECONDS:g} seconds, a rollout depth dD up to {MAX_DEPTH:,}, "
                      f"greedy, an exploration constant cC from 0 to {MAX_EXPLORATION:g} "
                      f"or a widening factor wW from 0 to {MAX_WIDTH:g}, each once")


# A plain decimal number, as the command line's other options take them: float() also
# reads '٢', '1_0', ' 5', 'inf' and 'nan' (refused here or by the range).
_PLAIN_DECIMAL = re.compile(r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_MAX_DIGITS = 19


def _bounded(text: str, high: float, *, positive: bool = False) -> float:
    """A number within [0, high] (above 0 with ``positive``), in plain ASCII digits (at
    most 19); ValueError otherwise (an infinity or NaN too)."""
    if not _PLAIN_DECIMAL.fullmatch(text) or sum(c.isdigit() for c in text) > _MAX_DIGITS:
        raise ValueError(text)
    value = float(text)
    if not (0 < value <= high if positive else 0 <= value <= high):
        raise ValueError(text)
    return value


def random_bot(options: str | None) -> Bot:
    """The factory of ``random`` (entry point): no options."""
    if options is not None:
        raise ValueError("random takes no options")
    return RandomBot()


def greedy_bot(options: str | None) -> Bot:
    """The factory of ``greedy`` (entry point): no options."""
    if options is not None:
        raise ValueError("greedy takes no options")
    return GreedyBot()


def lookahead_bot(options: str | None) -> Bot:
    """The factory of ``lookahead`` (entry point): the options of the module's
    docstring, colon-separated."""
    return _lookahead("lookahead" if options is None else f"lookahead:{options}",
                      options)


BotFactory = Callable[[str | None], Bot]
_USAGE = {"lookahead": "lookahead[:NODES][:Ns][:dDEPTH][:greedy][:cC][:wW]"}


# A bot's name as --bots gives it: ':' starts its options, ',' the next bot.
_USABLE_NAME = re.compile(r"[^\s:,]+")


@functools.cache
def bot_factories() -> dict[str, BotFactory]:
    """Every registered bot's factory by name (the group :data:`BOT_GROUP`, read
    once), the shipped bots first (weakest first), then the plugins' by name. A plugin
    that fails to load is left out with a one-line warning (errors.take_warnings); so
    is a plugin named like a shipped bot, which would stand in for it unnoticed."""
    ours = __name__.partition(".")[0]
    problems = []
    found: dict[str, BotFactory] = {}
    for entry in sorted(entry_points(group=BOT_GROUP), key=lambda e: e.name):
        if entry.name in found:
            continue
        if not _USABLE_NAME.fullmatch(entry.name):  # --bots could never name it
            problems.append(f"the bot plugin {printable(entry.name)!r} ({entry.value}) has a "
                            "name --bots cannot give (no ':', ',' or spaces) (left out)")
            continue
        if entry.name in BOT_NAMES and entry.module.partition(".")[0] != ours:
            problems.append(f"the bot plugin {entry.name!r} ({entry.value}) is named "
                            "like a shipped bot (left out)")
            continue
        try:
            factory = entry.load()
        except (Exception, SystemExit) as exc:  # a broken plugin: its problem, said plainly
            problems.append(f"the bot plugin {entry.name!r} ({entry.value}) failed to "
                            f"load: {type(exc).__name__}: {exc} (left out)")
            continue
        if not callable(factory):
            problems.append(f"the bot plugin {entry.name!r} ({entry.value}) is not a "
                            "factory of bots (left out)")
            continue
        found[entry.name] = factory
    let_through(Diagnostic("micropul-print", 0, 0, problem, Severity.WARNING)
                for problem in problems)
    order = [name for name in BOT_NAMES if name in found]
    return {name: found[name] for name in order + sorted(set(found) - set(order))}


def bot_names() -> list[str]:
    """The registered bots' names (see :func:`bot_factories`)."""
    return list(bot_factories())


def make_bot(spec: str) -> Bot:
    """The bot a spec names (``name`` or ``name:options``; see the module's docstring
    for the shipped bots'), from the registered factories; ValueError saying what is
    wrong otherwise."""
    # The colon, not what follows it: 'random:' or 'lookahead:' is a typo, not a default.
    name, colon, rest = spec.partition(":")
    factories = bot_factories()
    factory = factories.get(name)
    if factory is None or (name in ("random", "greedy") and colon):
        known = [_USAGE.get(known, known) for known in factories] or ["none registered"]
        expected = (known[0] if len(known) == 1
                    else f"{', '.join(known[:-1])} or {known[-1]}")
        raise ValueError(f"unknown bot {spec!r} (expected {expected})")
    if name in BOT_NAMES:
        return factory(rest if colon else None)
    try:
        bot = factory(rest if colon else None)
    except ValueError as exc:
        raise ValueError(f"bad bot {spec!r}: {exc}") from None
    except Exception as exc:  # a plugin's bug: said plainly, as a bad spec
        raise ValueError(f"the bot plugin {name!r} failed to make {spec!r}: "
                         f"{type(exc).__name__}: {exc}") from None
    found: dict[str, Any] = {}
    for attribute, default in (("name", None), ("choose", None),
                               ("move_seconds", DEFAULT_MOVE_SECONDS)):
        try:
            found[attribute] = getattr(bot, attribute, default)
        except Exception as exc:  # a property of the plugin's: it was an internal error
            raise ValueError(f"the bot plugin {name!r} made {type(bot).__name__}, whose "
                             f"{attribute} raised {type(exc).__name__}: {exc}, for "
                             f"{spec!r} (a bot has a name and a choose(state, rng): see "
                             "docs/analysis.md)") from None
    named, chooses, budget = found["name"], found["choose"], found["move_seconds"]
    if not (isinstance(named, str) and callable(chooses)):  # None, a string...: its bug
        raise ValueError(f"the bot plugin {name!r} made {type(bot).__name__}, not a bot, "
                         f"for {spec!r} (a bot has a name and a choose(state, rng): see "
                         "docs/analysis.md)")
    if (isinstance(budget, bool) or not isinstance(budget, (int, float))
            or not 0 < budget <= MAX_SECONDS):  # -1, NaN or "fast" became 10 s, unsaid
        raise ValueError(f"the bot plugin {name!r} made {spec!r} with move_seconds "
                         f"{budget!r}: a time budget is a number of seconds above 0, at "
                         f"most {MAX_SECONDS:g}")
    return bot


def _lookahead(spec: str, options_text: str | None) -> Bot:
    colon = options_text is not None
    rest = options_text or ""
    options: dict[str, Any] = {}
    for option in rest.split(":") if colon else []:
        value: float | bool
        try:
            if option.isascii() and option.isdigit():
                key, value = "nodes", int(_bounded(option, MAX_NODES, positive=True))
            elif option.endswith("s"):
                key, value = "seconds", _bounded(option[:-1], MAX_SECONDS, positive=True)
            elif option.startswith("d") and option[1:].isascii() and option[1:].isdigit():
                key, value = "depth", int(_bounded(option[1:], MAX_DEPTH))
            elif option == "greedy":
                key, value = "greedy_rollouts", True
            elif option.startswith("c"):
                key, value = "exploration", _bounded(option[1:], MAX_EXPLORATION)
            elif option.startswith("w"):
                key, value = "width", _bounded(option[1:], MAX_WIDTH)
            else:
                raise ValueError(option)
        except ValueError:
            raise ValueError(f"bad lookahead option {option!r} in {spec!r} (expected "
                             f"{_LOOKAHEAD_OPTIONS})") from None
        budget = {"nodes", "seconds"}
        if key in options or (key in budget and budget & options.keys()):
            raise ValueError(f"lookahead option {option!r} in {spec!r} says again what an "
                             "earlier one said (a budget is nodes or seconds, once; every "
                             "other option once)")
        options[key] = value
    return LookaheadBot(**options)


def is_shipped(bot: Bot) -> bool:
    """Whether ``bot`` is one of this tool's (trusted with the state itself)."""
    return type(bot).__module__ == __name__


def move_seconds(bot: Bot) -> float | None:
    """The time budget of one decision of ``bot`` (see :class:`Bot`)."""
    if is_shipped(bot):
        return None
    budget = getattr(bot, "move_seconds", DEFAULT_MOVE_SECONDS)
    return budget if isinstance(budget, (int, float)) and budget > 0 else DEFAULT_MOVE_SECONDS


class _Overran(BaseException):
    """Raised into a plugin bot that overran its budget: a BaseException, so that the
    bot's own ``except Exception`` does not swallow it."""


@contextlib.contextmanager
def _stopped_after(seconds: float) -> Iterator[None]:
    """Interrupt the block (with :class:`_Overran`) once ``seconds`` have passed: a bot
    that never answered (a loop, a sleep) hung the whole run, its overrun measured only
    once it returned. SIGALRM reaches the main thread alone (that of a local worker
    process, or of --jobs 1); elsewhere, and without setitimer, the overrun is only
    measured."""
    if (threading.current_thread() is not threading.main_thread()
            or not hasattr(signal, "setitimer")):
        yield
        return

    def overran(_signum: int, _frame: object) -> None:
        raise _Overran

    previous = signal.signal(signal.SIGALRM, overran)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, signal.SIG_DFL if previous is None else previous)


_NO_ACTION = object()  # what a plugin bot returned matches no legal action


def checked_choice(bot: Bot, state: GameState, rng: random.Random,
                   legal: Sequence[Any]) -> tuple[Any, str | None]:
    """``bot``'s action in ``state`` (whose legal actions are ``legal``) and None; or,
    if the bot raised, returned an action not in ``legal`` or took longer than its
    budget (:func:`move_seconds`), None and why: the bot then loses the game
    (:data:`FORFEIT`), and the run goes on. A plugin bot is shown a determinisation
    of the state (see :class:`Bot`); a shipped bot, the state itself."""
    budget = move_seconds(bot)
    started = time.perf_counter()
    try:
        view = state if budget is None else state.determinized(rng.getrandbits(64))
        started = time.perf_counter()
        shown = None
        if budget is None:
            action = bot.choose(view, rng)
            if action not in legal:
                shown = repr(action)
        else:  # a plugin's print() would land in analyse --json -'s JSON: stderr it is
            try:
                with contextlib.redirect_stdout(sys.stderr), _stopped_after(budget):
                    returned = bot.choose(view, rng)
                    # The game's own action it equals, of the very same type: an object
                    # of the bot's that says it equals anything passed for a legal one
                    # and broke the engine (an internal error). Its repr is the bot's
                    # code too, which may never return: judged within the budget.
                    action = next((move for move in legal if type(move) is type(returned)
                                   and move == returned), _NO_ACTION)
                    if action is _NO_ACTION:
                        shown = repr(returned)
            except _Overran:
                return None, (f"{bot.name} did not answer within its budget of {budget:g} s "
                              "(stopped)")
        took = time.perf_counter() - started
        if budget is not None and took > budget:
            return None, f"{bot.name} took {took:.3g} s, over its budget of {budget:g} s"
        if shown is not None:
            shown = shown if len(shown) <= 60 else shown[:57] + "..."
            return None, f"{bot.name} returned an illegal action: {shown}"
    # The bot's bug: it loses the game, the run goes on; sys.exit() in a bot too (it
    # ended the whole run, silently, with the bot's exit status), and GeneratorExit or
    # a KeyboardInterrupt no Ctrl-C sent (a traceback, or a worker killed and the pool
    # waiting for its batch for ever).
    except (Exception, SystemExit, GeneratorExit) as exc:
        return None, f"{bot.name} raised {type(exc).__name__}: {exc}"
    except KeyboardInterrupt as exc:
        if _a_ctrl_c_came():
            raise
        return None, f"{bot.name} raised {type(exc).__name__}: {exc}"
    return action, None


def _a_ctrl_c_came() -> bool:
    """Whether a KeyboardInterrupt raised now may be Ctrl-C's (interrupts.ctrl_c_possible)."""
    from micropul_print.base import interrupts

    return interrupts.ctrl_c_possible()


def bot_seed(seed: int, seat: int) -> int:
    """The seed of the bot in ``seat`` for the game of seed ``seed``: distinct from the
    game's and from the other seat's."""
    return (seed * 1_000_003 + seat * 7919 + 17) & 0xFFFFFFFFFFFF
