"""Self-play analysis of a catalogue, written once against the common engine shape.

What is played (:func:`plan`): for each variant of the game (its board sizes...) and
each player count it takes (``Game.player_counts``), a *section*: with two players,
every ordered pairing of the bots (both seat orders, and each bot against itself);
alone (a solitaire mode), each bot; each *part* (a variant, and a bot in each seat)
plays game k with seed ``seed + k``, so that both seat orders of a pairing, every
pairing and a second catalogue (``--against``) see the same deals.

Games are cut into :class:`Batch` es, each a pure function of its inputs
(:func:`run_batch`): the results, kept in part and seed order, are the same whichever
process or machine plays them. :func:`summarise` turns them into the report's
sections (the JSON of docs/contracts.md, "Analysis report"), :func:`compare` compares
two catalogues game by game.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from micropul_print import registry
from micropul_print.gameapi import JSON, PieceState
from micropul_print.lab import stats
from micropul_print.lab.bots import bot_seed, make_bot

FORMAT = "micropul-print analysis"
VERSION = 1
MAX_TURNS = 10_000  # a game still going then is cut short: an engine that never ends
UNFINISHED = "unfinished (turn limit)"
PAR_PERCENTILES = (10, 25, 50, 75, 90)
SCORE_PERCENTILES = (5, 25, 50, 75, 95)


@dataclass(frozen=True)
class Part:
    """One kind of game: a variant, and the bot of each seat (their number is the
    number of players)."""

    variant: str
    bots: tuple[str, ...]

    @property
    def players(self) -> int:
        return len(self.bots)

    def label(self) -> str:
        who = " v ".join(self.bots) if self.players > 1 else f"{self.bots[0]} alone"
        return f"{self.variant}, {who}"


@dataclass(frozen=True)
class Batch:
    """Games of one part, by seed: the unit of work sent to a worker."""

    part: int  # index in the plan
    seeds: tuple[int, ...]


@dataclass(frozen=True)
class GameSummary:
    """What the analysis keeps of one game."""

    seed: int
    scores: tuple[float, ...]
    returns: tuple[float, ...]
    end: str
    turns: int
    branching: tuple[int, ...]  # legal moves before each move
    lead_changes: int
    decided: float | None  # share of the moves after which the winner led for good
    behind: float | None  # share of the moves after which the winner was not leading
    pieces: tuple[tuple[str, int, int, float], ...]  # (piece, turn, seat, mover's gain)


@dataclass(frozen=True)
class Plan:
    game: str
    parts: tuple[Part, ...]
    games: int
    seed: int
    batches: tuple[Batch, ...] = field(default=())


def batch_size(bots: Sequence[str]) -> int:
    """Games per batch: small for the lookahead, whose games take seconds, so that
    progress shows and work spreads over workers. Results never depend on it."""
    return 2 if any(bot.startswith("lookahead") for bot in bots) else 20


def plan(game_name: str, catalogue: Any, bots: Sequence[str], games: int, seed: int, *,
         variants: Sequence[str] | None = None,
         players: Sequence[int] | None = None) -> Plan:
    """Every part to play and its batches (see the module's docstring), in the
    ``variants`` and with the ``players`` counts asked for (None: all the game has;
    counts other than 1 and 2 are not analysed). Raises ValueError for an unknown bot
    or a bot named twice."""
    for spec in bots:
        make_bot(spec)
    if len(set(bots)) != len(bots):
        raise ValueError(f"a bot is named twice in {','.join(bots)}")
    game = registry.get(game_name)
    parts: list[Part] = []
    for variant in game.variants(catalogue):
        if variants is not None and variant not in variants:
            continue
        for count in game.info.player_counts:
            if players is not None and count not in players:
                continue
            if count == 1:
                parts += [Part(variant, (bot,)) for bot in bots]
            elif count == 2:
                parts += [Part(variant, (a, b)) for a in bots for b in bots]
    batches = []
    for index, part in enumerate(parts):
        size = batch_size(part.bots)
        for start in range(0, games, size):
            batches.append(Batch(index, tuple(range(seed + start,
                                                    seed + min(games, start + size)))))
    return Plan(game_name, tuple(parts), games, seed, tuple(batches))


def _leader(scores: Sequence[float]) -> int | None:
    best = max(scores)
    leaders = [seat for seat, score in enumerate(scores) if score == best]
    return leaders[0] if len(leaders) == 1 else None


def play_game(game_name: str, catalogue: Any, part: Part, seed: int) -> GameSummary:
    """One game of ``part`` with ``seed``, every seat played by its bot."""
    game = registry.get(game_name)
    state = game.new_state(catalogue, players=part.players, seed=seed, variant=part.variant)
    bots = [make_bot(spec) for spec in part.bots]
    rngs = [random.Random(bot_seed(seed, seat)) for seat in range(part.players)]
    branching: list[int] = []
    leaders: list[int | None] = []
    pieces: list[tuple[str, int, int, float]] = []
    end = None
    while not state.is_over():
        if state.turn() >= MAX_TURNS:
            end = UNFINISHED
            break
        branching.append(len(state.legal_moves()))
        seat = state.current_player()
        move = bots[seat].choose(state, rngs[seat])
        piece = state.piece_of(move) if isinstance(state, PieceState) else None
        before = state.scores()[seat]
        turn = state.turn()
        state.play(move)
        scores = state.scores()
        if piece is not None:
            pieces.append((piece, turn, seat, scores[seat] - before))
        leaders.append(_leader(scores))
    returns = state.returns()
    lead_changes = 0
    last = None
    for leader in leaders:
        if leader is not None:
            lead_changes += last is not None and leader != last
            last = leader
    decided = behind = None
    winners = [seat for seat, r in enumerate(returns) if r == max(returns)]
    if part.players > 1 and len(winners) == 1 and leaders and end is None:
        winner = winners[0]
        late = [index for index, leader in enumerate(leaders) if leader != winner]
        decided = (late[-1] + 1) / len(leaders) if late else 0.0
        behind = len(late) / len(leaders)
    return GameSummary(seed, tuple(state.scores()), tuple(returns),
                       end or state.end_reason() or UNFINISHED, state.turn(),
                       tuple(branching), lead_changes, decided, behind, tuple(pieces))


def run_batch(game_name: str, catalogue: Any, part: Part,
              batch: Batch) -> list[GameSummary]:
    """Every game of a batch, in seed order: a pure function of its arguments."""
    return [play_game(game_name, catalogue, part, seed) for seed in batch.seeds]


# -- from games to figures -----------------------------------------------------------------

def _distribution(values: Sequence[float], seed: int,
                  percentiles: Sequence[int] = SCORE_PERCENTILES,
                  bounds: tuple[float, float] | None = None) -> JSON:
    ordered = sorted(values)
    n = len(values)
    sd = (math.sqrt(math.fsum((v - stats.mean(values)) ** 2 for v in values) / (n - 1))
          if n > 1 else 0.0)
    return {
        "games": n,
        "mean": stats.t_interval(values, bounds=bounds).to_json(),
        "sd": round(sd, 6),
        "min": ordered[0] if ordered else None,
        "max": ordered[-1] if ordered else None,
        "percentiles": {str(q): round(stats.percentile(ordered, q), 6) for q in percentiles},
        "histogram": [[value, count] for value, count in sorted(Counter(values).items())],
    }


def _shares(items: Sequence[str], n: int) -> JSON:
    return {key: stats.wilson(count, n).to_json()
            for key, count in sorted(Counter(items).items())}


def _by_turn(games: Sequence[GameSummary]) -> list[list[float]]:
    """[turn, mean legal moves, games still going] for each turn (1-based)."""
    longest = max((len(g.branching) for g in games), default=0)
    rows = []
    for turn in range(longest):
        counts = [g.branching[turn] for g in games if len(g.branching) > turn]
        rows.append([turn + 1, round(stats.mean(counts), 6), len(counts)])
    return rows


def _common(games: Sequence[GameSummary], seed: int) -> JSON:
    """The figures every section has."""
    n = len(games)
    per_game_branching = [stats.mean(g.branching) for g in games if g.branching]
    return {
        "games": n,
        "length": _distribution([float(g.turns) for g in games], seed, bounds=stats.COUNT),
        "branching": {"mean": stats.t_interval(per_game_branching,
                                               bounds=stats.COUNT).to_json(),
                      "by_turn": _by_turn(games)},
        "ends": _shares([g.end for g in games], n),
    }


def _pieces(pieces: Sequence[str], games: Sequence[GameSummary],
            scored: tuple[float, float] | None = None) -> list[JSON]:
    """Per piece: how often it is played, when, what the move gained its player, and how
    that player fared (points: 1 a win, 0.5 a tie; and final score)."""
    if not pieces:
        return []
    played: dict[str, list[tuple[int, int, float, GameSummary]]] = {p: [] for p in pieces}
    for game in games:
        for piece, turn, seat, gain in game.pieces:
            if piece in played:
                played[piece].append((turn, seat, gain, game))
    rows = []
    n = len(games)
    for piece in pieces:
        moves = played[piece]
        in_games = len({id(g) for *_rest, g in moves})
        rows.append({
            "piece": piece,
            "played": stats.wilson(in_games, n).to_json(),
            "turn": stats.t_interval([float(t) for t, *_ in moves],
                                     bounds=stats.COUNT).to_json(),
            "gain": stats.t_interval([gain for _t, _s, gain, _g in moves]).to_json(),
            "points": stats.wilson(math.fsum(g.returns[s] for _t, s, _gain, g in moves),
                                   len(moves)).to_json(),
            "final_score": stats.t_interval([g.scores[s] for _t, s, _gain, g in moves],
                                            bounds=scored).to_json(),
        })
    return rows


def _ladder(bots: Sequence[str], between: stats.Results, anchor: str) -> list[JSON]:
    """The bots best first, each with its points against the others, its rating against
    ``anchor`` and ``gap_below``: its rating minus the next one's, with the interval of
    that difference (null on the last rung)."""
    fit = stats.fit_ratings(len(bots), between, bots.index(anchor))
    order = sorted(range(len(bots)), key=lambda i: -fit.ratings[i])
    ladder = []
    for rung, i in enumerate(order):
        mine = [p if i == low else 1 - p for (low, high), ps in between.items()
                if i in (low, high) for p in ps]
        below = order[rung + 1] if rung + 1 < len(order) else None
        ladder.append({"bot": bots[i], "games": len(mine),
                       "points": stats.wilson(math.fsum(mine), len(mine)).to_json(),
                       "rating": fit.interval(i).to_json(),
                       "gap_below": None if below is None
                       else fit.difference(i, below).to_json()})
    return ladder


def strictly_ordered(ladder: Sequence[JSON]) -> bool:
    """Whether every gap between neighbouring rungs has its interval above 0."""
    gaps = [row["gap_below"] for row in ladder if row["gap_below"] is not None]
    return all(gap["method"] != "none" and gap["low"] > 0 for gap in gaps)


def choose_anchor(bots: Sequence[str], anchor: str | None) -> str:
    """The ladder's reference bot: ``anchor`` if given, else ``greedy`` when it plays
    (the one-move baseline a designer knows from the digital versions of these games),
    else the first bot. Raises ValueError for a bot not among ``bots``."""
    if anchor is None:
        return "greedy" if "greedy" in bots else bots[0]
    if anchor not in bots:
        raise ValueError(f"--anchor {anchor!r} is not one of the bots "
                         f"(they are: {', '.join(bots)})")
    return anchor


def score_range(state: Any) -> tuple[float, float] | None:
    """What a score can be (a state's optional ``score_range``; a score made of points
    or pieces is never negative), to cut the intervals of mean scores to: a few games'
    interval otherwise reads as a negative score. None: the game does not say."""
    found = getattr(state, "score_range", None)
    if found is None:
        return None
    low, high = found
    return float(low), float(high)


def _two_player(parts: Sequence[Part], results: Mapping[int, Sequence[GameSummary]],
                bots: Sequence[str], pieces: Sequence[str], seed: int, anchor: str,
                scored: tuple[float, float] | None = None) -> JSON:
    games = [g for index in results for g in results[index]]
    n = len(games)
    section = _common(games, seed)
    seat_points = [math.fsum(g.returns[seat] for g in games) for seat in range(2)]
    wins = [sum(1 for g in games if g.returns[seat] == 1.0) for seat in range(2)]
    ties = sum(1 for g in games if g.returns[0] == g.returns[1])
    section["first_player"] = stats.wilson(seat_points[0], n).to_json()
    section["ties"] = stats.wilson(ties, n).to_json()
    section["seats"] = [{"seat": seat + 1, "wins": stats.wilson(wins[seat], n).to_json(),
                         "points": stats.wilson(seat_points[seat], n).to_json(),
                         "scores": _distribution([g.scores[seat] for g in games], seed,
                                                 bounds=scored)}
                        for seat in range(2)]
    section["lead_changes"] = stats.t_interval([float(g.lead_changes) for g in games],
                                               bounds=stats.COUNT).to_json()
    section["decided"] = stats.t_interval([g.decided for g in games
                                           if g.decided is not None],
                                          bounds=stats.SHARE).to_json()
    section["drama"] = stats.t_interval([g.behind for g in games if g.behind is not None],
                                        bounds=stats.SHARE).to_json()
    # Points of bot i against bot j, over both seat orders.
    between: dict[tuple[int, int], list[float]] = {}
    pairings = []
    for index, part_games in results.items():
        a, b = (bots.index(name) for name in parts[index].bots)
        pairings.append({"bots": list(parts[index].bots), "games": len(part_games),
                         "first_player": stats.wilson(
                             math.fsum(g.returns[0] for g in part_games),
                             len(part_games)).to_json()})
        if a == b:
            continue
        for g in part_games:
            low, high, taken = (a, b, g.returns[0]) if a < b else (b, a, g.returns[1])
            between.setdefault((low, high), []).append(taken)
    section["pairings"] = pairings
    matrix: list[list[JSON | None]] = []
    for i in range(len(bots)):
        row: list[JSON | None] = []
        for j in range(len(bots)):
            met = between.get((min(i, j), max(i, j)))
            if i == j or not met:
                row.append(None)
                continue
            share = math.fsum(met) if i < j else len(met) - math.fsum(met)
            row.append(stats.wilson(share, len(met)).to_json())
        matrix.append(row)
    section["matrix"] = {"bots": list(bots), "points": matrix}
    section["anchor"] = anchor
    section["ladder"] = _ladder(bots, between, anchor)
    section["pieces"] = _pieces(pieces, games, scored)
    return section


def _solitaire(parts: Sequence[Part], results: Mapping[int, Sequence[GameSummary]],
               pieces: Sequence[str], seed: int,
               scored: tuple[float, float] | None = None) -> JSON:
    games = [g for index in results for g in results[index]]
    section = _common(games, seed)
    section["bots"] = []
    for index, part_games in results.items():
        scores = [g.scores[0] for g in part_games]
        section["bots"].append({
            "bot": parts[index].bots[0],
            "games": len(part_games),
            "won": stats.wilson(math.fsum(g.returns[0] for g in part_games),
                                len(part_games)).to_json(),
            "scores": _distribution(scores, seed, bounds=scored),
            "par": [{"percentile": q, "score": interval.to_json()} for q, interval in
                    zip(PAR_PERCENTILES, stats.percentile_intervals(scores, PAR_PERCENTILES,
                                                                    seed), strict=True)],
            "length": _distribution([float(g.turns) for g in part_games], seed,
                                    bounds=stats.COUNT),
        })
    section["pieces"] = _pieces(pieces, games, scored)
    return section


def summarise(the_plan: Plan, catalogue: Any, bots: Sequence[str],
              results: Mapping[int, Sequence[GameSummary]],
              anchor: str | None = None) -> list[JSON]:
    """The report's sections, one per variant and player count, from the games played
    (``results``: part index -> its games in seed order; parts left out or cut short by
    an interruption count as far as they went); the two-player ladders are measured
    from ``anchor`` (see :func:`choose_anchor`)."""
    reference = choose_anchor(bots, anchor)
    game = registry.get(the_plan.game)
    sections = []
    keys = list(dict.fromkeys((p.variant, p.players) for p in the_plan.parts))
    for variant, players in keys:
        indices = [i for i, p in enumerate(the_plan.parts)
                   if (p.variant, p.players) == (variant, players) and results.get(i)]
        if not indices:
            continue
        chosen = {i: results[i] for i in indices}
        state = game.new_state(catalogue, players=players, seed=the_plan.seed,
                               variant=variant)
        pieces = state.pieces() if isinstance(state, PieceState) else ()
        scored = score_range(state)
        body = (_two_player(the_plan.parts, chosen, bots, pieces, the_plan.seed, reference,
                            scored)
                if players == 2 else _solitaire(the_plan.parts, chosen, pieces, the_plan.seed,
                                                scored))
        sections.append({"variant": variant, "players": players, **body})
    return sections


# -- two catalogues on the same seeds -----------------------------------------------------

def _paired_metrics(part: Part) -> list[tuple[str, Any]]:
    """(name, value of one game) of each figure compared game by game."""
    metrics: list[tuple[str, Any]] = [
        ("length (turns)", lambda g: float(g.turns)),
        ("mean legal moves per turn", lambda g: stats.mean(g.branching)),
    ]
    if part.players == 1:
        metrics += [("score", lambda g: g.scores[0]), ("won", lambda g: g.returns[0])]
    else:
        metrics += [
            ("first player's points", lambda g: g.returns[0]),
            ("tie", lambda g: float(g.returns[0] == g.returns[1])),
            ("score of seat 1", lambda g: g.scores[0]),
            ("score of seat 2", lambda g: g.scores[1]),
            ("lead changes", lambda g: float(g.lead_changes)),
        ]
    return metrics


def compare(the_plan: Plan, results: Mapping[int, Sequence[GameSummary]],
            against: Mapping[int, Sequence[GameSummary]],
            against_plan: Plan) -> list[JSON]:
    """For each part both catalogues played, each figure's mean in both and the paired
    difference (against minus this one) over the seeds both played, with its t interval;
    significant when the interval leaves out 0."""
    rows = []
    other_parts = {part: index for index, part in enumerate(against_plan.parts)}
    for index, part in enumerate(the_plan.parts):
        other = other_parts.get(part)
        if other is None or not results.get(index) or not against.get(other):
            continue
        by_seed = {g.seed: g for g in against[other]}
        pairs = [(g, by_seed[g.seed]) for g in results[index] if g.seed in by_seed]
        ends = sorted({g.end for pair in pairs for g in pair})
        metrics = _paired_metrics(part) + [
            (f"ends: {end}", lambda g, end=end: float(g.end == end)) for end in ends]
        figures = []
        for name, value in metrics:
            before = [value(a) for a, _ in pairs]
            after = [value(b) for _, b in pairs]
            difference = stats.paired_difference(before, after)
            figures.append({"metric": name, "this": round(stats.mean(before), 6),
                            "against": round(stats.mean(after), 6),
                            "difference": difference.to_json(),
                            "significant": difference.method != "none"
                            and difference.excludes_zero})
        rows.append({"variant": part.variant, "bots": list(part.bots), "games": len(pairs),
                     "metrics": figures})
    return rows
