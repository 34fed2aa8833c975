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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from micropul_print.game import registry
from micropul_print.game.api import JSON, PieceState
from micropul_print.lab import stats
from micropul_print.lab.bots import FORFEIT, bot_seed, checked_choice, make_bot

FORMAT = "micropul-print analysis"
VERSION = 2
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


Kinds = tuple[tuple[str, int], ...]  # (kind of move, how many), kinds sorted


@dataclass(frozen=True)
class GameSummary:
    """What the analysis keeps of one game. A *player turn* is one decision of the
    player to move: one move (each game's moves and their kinds: docs/analysis.md)."""

    seed: int
    scores: tuple[float, ...]
    returns: tuple[float, ...]
    end: str
    turns: int  # player turns
    branching: tuple[int, ...]  # legal moves before each move (every kind)
    lead_changes: int
    decided: float | None  # share of the moves after which the winner led for good
    behind: float | None  # share of the moves after which the winner was not leading
    pieces: tuple[tuple[str, int, int, float], ...]  # (piece, turn, seat, mover's gain)
    moves: Kinds = ()  # moves played, by kind
    legal: tuple[Kinds, ...] = ()  # legal moves of each kind before each move
    held: tuple[str, ...] = ()  # pieces in a player's hand or supply at the end
    scoring: tuple[str, ...] = ()  # pieces part of a group that scores at the end
    # Why a bot lost the game by forfeit (lab.bots.checked_choice), or None.
    forfeit: str | None = None


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


def plan_of(game_name: str, parts: Sequence[Part], games: int, seed: int) -> Plan:
    """The plan that plays ``games`` games of each part from ``seed``, in batches of
    :func:`batch_size` (the same seeds for every part)."""
    batches = []
    for index, part in enumerate(parts):
        size = batch_size(part.bots)
        for start in range(0, games, size):
            batches.append(Batch(index, tuple(range(seed + start,
                                                    seed + min(games, start + size)))))
    return Plan(game_name, tuple(parts), games, seed, tuple(batches))


def plan(game_name: str, catalogue: Any, bots: Sequence[str], games: int, seed: int, *,
         variants: Sequence[str] | None = None,
         players: Sequence[int] | None = None, mirror: bool = True) -> Plan:
    """Every part to play and its batches (see the module's docstring), in the
    ``variants`` and with the ``players`` counts asked for (None: all the game has;
    counts other than 1 and 2 are not analysed); ``mirror`` False leaves out the
    pairings of a bot against itself (the first player's edge is then fitted). Raises
    ValueError for an unknown bot or a bot named twice."""
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
                parts += [Part(variant, (a, b)) for a in bots for b in bots
                          if mirror or a != b]
    return plan_of(game_name, parts, games, seed)


def _leader(scores: Sequence[float]) -> int | None:
    best = max(scores)
    leaders = [seat for seat, score in enumerate(scores) if score == best]
    return leaders[0] if len(leaders) == 1 else None


class _MoveKinds:
    """A move's kind: its ``kind`` when it has one, else the key of its JSON
    (``{"place": ...}``: the game record's words), found once per class of move."""

    def __init__(self, state: Any) -> None:
        self.state = state
        self.by_class: dict[type, str] = {}

    def __call__(self, move: Any) -> str:
        kind = getattr(move, "kind", None)
        if isinstance(kind, str):
            return kind
        cls = type(move)
        found = self.by_class.get(cls)
        if found is None:
            data = self.state.action_to_json(move)
            found = self.by_class[cls] = (next(iter(data)) if isinstance(data, dict) and data
                                          else cls.__name__.lower())
        return found

    def count(self, moves: Sequence[Any]) -> Kinds:
        found = Counter(self(move) for move in moves)
        return tuple(sorted(found.items()))


def piece_ends(state: Any) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(pieces held by a player at the end, pieces part of a group that scores): a
    state's optional ``piece_ends``; none when the game does not say."""
    found = getattr(state, "piece_ends", None)
    if found is None:
        return (), ()
    held, scoring = found()
    return tuple(sorted(held, key=_piece_order)), tuple(sorted(scoring, key=_piece_order))


def _piece_order(piece: str) -> tuple[int, str]:
    return (int(piece), "") if piece.isdigit() else (0, piece)


def play_game(game_name: str, catalogue: Any, part: Part, seed: int) -> GameSummary:
    """One game of ``part`` with ``seed``, every seat played by its bot."""
    game = registry.get(game_name)
    state = game.new_state(catalogue, players=part.players, seed=seed, variant=part.variant)
    bots = [make_bot(spec) for spec in part.bots]
    rngs = [random.Random(bot_seed(seed, seat)) for seat in range(part.players)]
    kinds = _MoveKinds(state)
    branching: list[int] = []
    legal: list[Kinds] = []
    played: Counter[str] = Counter()
    leaders: list[int | None] = []
    pieces: list[tuple[str, int, int, float]] = []
    end = forfeit = None
    while not state.is_terminal():
        if state.turn() >= MAX_TURNS:
            end = UNFINISHED
            break
        moves = state.legal_actions()
        branching.append(len(moves))
        legal.append(kinds.count(moves))
        seat = state.current_player()
        move, forfeit = checked_choice(bots[seat], state, rngs[seat], moves)
        if forfeit is not None:  # that seat loses; the others win
            end, forfeit = FORFEIT, f"seed {seed}, seat {seat + 1}: {forfeit}"
            break
        piece = state.piece_of(move) if isinstance(state, PieceState) else None
        before = state.scores()[seat]
        turn = state.turn()
        played[kinds(move)] += 1
        state.apply_action(move)
        scores = state.scores()
        if piece is not None:
            pieces.append((piece, turn, seat, scores[seat] - before))
        leaders.append(_leader(scores))
    returns = state.returns()
    if forfeit is not None:
        returns = tuple(0.0 if lost == seat else 1.0 for lost in range(part.players))
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
    held, scoring = piece_ends(state) if end is None else ((), ())
    return GameSummary(seed, tuple(state.scores()), tuple(returns),
                       end or state.end_reason() or UNFINISHED, len(branching),
                       tuple(branching), lead_changes, decided, behind, tuple(pieces),
                       tuple(sorted(played.items())), tuple(legal), held, scoring, forfeit)


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


def _by_turn(games: Sequence[GameSummary], kind: str) -> list[list[float]]:
    """[player turn, mean legal moves of ``kind``, games where it had some] for each
    player turn (1-based) at which some game offered that kind of move."""
    longest = max((len(g.legal) for g in games), default=0)
    rows = []
    for turn in range(longest):
        counts = [float(dict(g.legal[turn]).get(kind, 0)) for g in games
                  if len(g.legal) > turn]
        offered = [c for c in counts if c > 0]
        if offered:
            rows.append([turn + 1, round(stats.mean(offered), 6), len(offered)])
    return rows


def move_kinds(games: Sequence[GameSummary]) -> list[str]:
    """Every kind of move played or offered in ``games``, sorted."""
    return sorted({kind for g in games for kind, _ in g.moves}
                  | {kind for g in games for decision in g.legal for kind, _ in decision})


def _common(games: Sequence[GameSummary], seed: int) -> JSON:
    """The figures every section has: length in player turns, the moves of each kind,
    the legal moves of each kind per decision that offered that kind (a placement is
    counted among placements, never averaged with a draw), how games end."""
    n = len(games)
    kinds = move_kinds(games)
    legal: JSON = {}
    for kind in kinds:
        per_game = []
        decisions = 0
        for g in games:
            offered = [dict(d)[kind] for d in g.legal if dict(d).get(kind)]
            decisions += len(offered)
            if offered:
                per_game.append(stats.mean([float(c) for c in offered]))
        legal[kind] = {"mean": stats.t_interval(per_game, bounds=stats.COUNT).to_json(),
                       "decisions": decisions, "by_turn": _by_turn(games, kind)}
    return {
        "games": n,
        "length": _distribution([float(g.turns) for g in games], seed, bounds=stats.COUNT),
        "moves": {kind: stats.t_interval([float(dict(g.moves).get(kind, 0)) for g in games],
                                         bounds=stats.COUNT).to_json() for kind in kinds},
        "legal": legal,
        "ends": _shares([g.end for g in games], n),
        **_forfeits(games),
    }


FORFEITS_SHOWN = 10  # notes of forfeited games in a report, the first by part and seed


def _forfeits(games: Sequence[GameSummary]) -> JSON:
    """The notes of the games a bot lost by forfeit (none: no key, as before)."""
    notes = [g.forfeit for g in games if g.forfeit is not None]
    return {"forfeits": notes[:FORFEITS_SHOWN]} if notes else {}


def _pieces(pieces: Sequence[str], games: Sequence[GameSummary],
            scored: tuple[float, float] | None = None, players: int = 2) -> list[JSON]:
    """Per piece: how often it is played, when, what the move gained its player, how
    that player fared (two players: points, 1 a win, 0.5 a tie; and final score), and
    how often it was held to the end or part of a group that scored."""
    if not pieces:
        return []
    played: dict[str, list[tuple[int, int, float, GameSummary]]] = {p: [] for p in pieces}
    for game in games:
        for piece, turn, seat, gain in game.pieces:
            if piece in played:
                played[piece].append((turn, seat, gain, game))
    held = Counter(piece for g in games for piece in set(g.held))
    scoring = Counter(piece for g in games for piece in set(g.scoring))
    ended = sum(1 for g in games if g.end != UNFINISHED)
    rows = []
    n = len(games)
    for piece in pieces:
        moves = played[piece]
        in_games = len({id(g) for *_rest, g in moves})
        row: JSON = {
            "piece": piece,
            "played": stats.wilson(in_games, n).to_json(),
            "turn": stats.t_interval([float(t) for t, *_ in moves],
                                     bounds=stats.COUNT).to_json(),
            "gain": stats.t_interval([gain for _t, _s, gain, _g in moves]).to_json(),
        }
        if players > 1:
            row["points"] = stats.wilson(math.fsum(g.returns[s] for _t, s, _gain, g in moves),
                                         len(moves)).to_json()
        row["final_score"] = stats.t_interval([g.scores[s] for _t, s, _gain, g in moves],
                                              bounds=scored).to_json()
        row["held"] = stats.wilson(held[piece], ended).to_json()
        row["scoring"] = stats.wilson(scoring[piece], ended).to_json()
        rows.append(row)
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


def pairing_name(bots: Sequence[str]) -> str:
    return " v ".join(bots)


def fingerprint(game: GameSummary) -> tuple[Any, ...]:
    """What tells two games apart short of their moves: scores, result, end, length and
    the legal moves before each move. In a game without chance a bot that chooses alike on every
    seed plays one game again and again; those copies are one observation, not many."""
    return (game.scores, game.returns, game.end, game.turns, game.branching, game.legal)


def first_player(parts: Sequence[Part], results: Mapping[int, Sequence[GameSummary]]) -> JSON:
    """The first player's edge: seat 1's points (a tie is half) in the *mirror*
    pairings alone, a bot against itself, where only the seat differs. A lopsided
    pairing's seat 1 is a given bot, and pooled with the reverse order it gives 50 %
    by construction: it is never pooled. Without a mirror pairing, the edge is the seat
    term of a rating model fitted to every pairing in its seat order (method
    ``seat-term``: :func:`stats.seat_term`), or none when the games cannot tell the
    seat from the bots (each pairing in one seat order only). ``unbalanced``: lopsided
    pairings whose two seat orders played different numbers of games (an interrupted
    run), which tilts the pooled figures (ties, length, the ladder) towards one order."""
    mirror = [index for index in results if len(set(parts[index].bots)) == 1]
    games = [g for index in mirror for g in results[index]]
    played = {parts[index].bots: len(results[index]) for index in results}
    unbalanced = []
    for bots, count in played.items():
        reverse = played.get(bots[::-1], 0)
        if bots[0] < bots[1] and count != reverse:
            unbalanced.append({"bots": list(bots), "games": [count, reverse]})
        elif bots[0] > bots[1] and bots[::-1] not in played and count:
            unbalanced.append({"bots": list(bots[::-1]), "games": [0, count]})
    figure: JSON = {"points": None, "games": len(games), "method": None,
                    "pairings": [pairing_name(parts[index].bots) for index in mirror],
                    "unbalanced": sorted(unbalanced, key=lambda row: row["bots"]),
                    "note": None}
    if games:
        figure["points"] = stats.wilson(math.fsum(g.returns[0] for g in games),
                                        len(games)).to_json()
        figure["method"] = "mirror"
        alike = []
        for index in mirror:
            played_here = results[index]
            distinct = len({fingerprint(g) for g in played_here})
            if len(played_here) >= 4 and distinct < len(played_here) // 2:
                alike.append(f"{pairing_name(parts[index].bots)} {len(played_here)} games, "
                             f"{distinct} distinct")
        if alike:
            figure["note"] = (f"games played alike on every seed ({'; '.join(alike)}): a "
                              "bot that chooses alike in a game without chance plays one "
                              "game again and again, and the interval counts the copies "
                              "as games")
        return figure
    lopsided = [index for index in results if results[index]]
    names = sorted({bot for index in lopsided for bot in parts[index].bots})
    ordered: dict[tuple[int, int], list[float]] = {}
    for index in lopsided:
        first, second = (names.index(bot) for bot in parts[index].bots)
        ordered.setdefault((first, second), []).extend(g.returns[0] for g in results[index])
    fitted = stats.seat_term(len(names), ordered) if ordered else None
    if fitted is None:
        figure["note"] = (
            "no mirror pairing (a bot against itself) was played, and the pairings "
            "played cannot tell the seat from the bots (each in one seat order only): "
            "the first player's edge is not measured" if ordered else
            "no game was played: the first player's edge is not measured")
        return figure
    figure.update(points=fitted.to_json(), method="seat-term",
                  games=sum(len(results[index]) for index in lopsided),
                  pairings=[pairing_name(parts[index].bots) for index in lopsided],
                  note="no mirror pairing (a bot against itself) was played: the edge is "
                       "the seat term of a rating model fitted to the pairings in both "
                       "seat orders, seat 1's share of the points against a bot of its "
                       "own strength")
    return figure


def _two_player(parts: Sequence[Part], results: Mapping[int, Sequence[GameSummary]],
                bots: Sequence[str], pieces: Sequence[str], seed: int, anchor: str,
                scored: tuple[float, float] | None = None) -> JSON:
    games = [g for index in results for g in results[index]]
    n = len(games)
    section = _common(games, seed)
    ties = sum(1 for g in games if g.returns[0] == g.returns[1])
    section["first_player"] = first_player(parts, results)
    section["ties"] = stats.wilson(ties, n).to_json()
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
                         "mirror": a == b,
                         "first_player": stats.wilson(
                             math.fsum(g.returns[0] for g in part_games),
                             len(part_games)).to_json(),
                         "scores": [_distribution([g.scores[seat] for g in part_games], seed,
                                                  bounds=scored) for seat in range(2)]})
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
    section["pieces"] = _pieces(pieces, games, scored, 2)
    return section


def _solitaire(parts: Sequence[Part], results: Mapping[int, Sequence[GameSummary]],
               pieces: Sequence[str], seed: int,
               scored: tuple[float, float] | None = None) -> JSON:
    """Solitaire has no winner: each bot's score distribution and par table."""
    games = [g for index in results for g in results[index]]
    section = _common(games, seed)
    section["bots"] = []
    for index, part_games in results.items():
        scores = [g.scores[0] for g in part_games]
        section["bots"].append({
            "bot": parts[index].bots[0],
            "games": len(part_games),
            "scores": _distribution(scores, seed, bounds=scored),
            "par": [{"percentile": q, "score": interval.to_json()} for q, interval in
                    zip(PAR_PERCENTILES, stats.percentile_intervals(scores, PAR_PERCENTILES,
                                                                    seed), strict=True)],
            "length": _distribution([float(g.turns) for g in part_games], seed,
                                    bounds=stats.COUNT),
        })
    section["pieces"] = _pieces(pieces, games, scored, 1)
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


# -- catalogues compared on the same seeds ---------------------------------------------------

# A proportion is compared only with at least this many paired games, and in each set
# at least MIN_EVENTS games with the event and as many without it: fewer, and a normal
# approximation (the t interval of 0/1 differences) says nothing to trust.
MIN_PROPORTION_GAMES = 30
MIN_EVENTS = 5
ALPHA = 0.05
CORRECTION = stats.HOLM


@dataclass(frozen=True)
class Metric:
    """A figure compared game by game. ``kind``: "mean" or "proportion" (a 0/1 value
    per game, shown in percent); ``words``, a template of ``{d}`` (the difference) and
    ``{w}`` (``up`` or ``down``), words the summary ("games 1.5 player turns shorter");
    ``parts``: which parts' games it is measured on (None: all)."""

    name: str
    unit: str
    kind: str
    value: Callable[[GameSummary], float]
    words: str
    up: str
    down: str
    parts: Callable[[Part], bool] | None = None


def _moves_of(kind: str) -> Callable[[GameSummary], float]:
    return lambda g: float(dict(g.moves).get(kind, 0))


def _ends_by(end: str) -> Callable[[GameSummary], float]:
    return lambda g: float(g.end == end)


def _alone(bot: str) -> Callable[[Part], bool]:
    return lambda part: part.bots == (bot,)


def _metrics(players: int, parts: Sequence[Part], kinds: Sequence[str],
             ends: Sequence[str]) -> list[Metric]:
    """The figures compared for a section (a variant, a player count)."""
    found = [Metric("length", "player turns", "mean", lambda g: float(g.turns),
                    "games {d} player turns {w}", "longer", "shorter")]
    for kind in kinds:
        found.append(Metric(f"moves: {kind}", "moves per game", "mean",
                            _moves_of(kind),
                            f"{{d}} {{w}} {kind} moves per game", "more", "fewer"))
    if players == 2:
        found += [
            Metric("first-player edge", "% of points to seat 1 (mirror pairings)",
                   "proportion", lambda g: g.returns[0],
                   "first-player edge {d} percentage points {w}", "larger",
                   "smaller", lambda part: len(set(part.bots)) == 1),
            Metric("ties", "% of games", "proportion",
                   lambda g: float(g.returns[0] == g.returns[1]),
                   "ties {w} ({d} percentage points)", "more often", "less often"),
            Metric("lead changes", "per game", "mean", lambda g: float(g.lead_changes),
                   "{d} {w} lead changes per game", "more", "fewer"),
        ]
    else:
        for bot in dict.fromkeys(part.bots[0] for part in parts):
            found.append(Metric(f"score: {bot}", "points", "mean", lambda g: g.scores[0],
                                f"{bot}'s scores {{d}} points {{w}}", "higher", "lower",
                                _alone(bot)))
    for end in ends:
        found.append(Metric(f"ends: {end}", "% of games", "proportion",
                            _ends_by(end), f"games end by '{end}' {{w}} ({{d}} percentage "
                            "points)", "more often", "less often"))
    return found


def _sections(the_plan: Plan,
              results: Mapping[int, Sequence[GameSummary]]) -> dict[tuple[str, int], list[int]]:
    keys: dict[tuple[str, int], list[int]] = {}
    for index, part in enumerate(the_plan.parts):
        if results.get(index):
            keys.setdefault((part.variant, part.players), []).append(index)
    return keys


def _metric_row(metric: Metric, pairs: Sequence[tuple[GameSummary, GameSummary]]) -> JSON:
    before = [metric.value(a) for a, _ in pairs]
    after = [metric.value(b) for _, b in pairs]
    scale = 100.0 if metric.kind == "proportion" else 1.0
    difference = stats.paired_difference(before, after)
    row: JSON = {"metric": metric.name, "unit": metric.unit, "kind": metric.kind,
                 "games": len(pairs),
                 "this": round(stats.mean(before) * scale, 6),
                 "against": round(stats.mean(after) * scale, 6),
                 "difference": stats.Interval(difference.value * scale,
                                              difference.low * scale,
                                              difference.high * scale,
                                              difference.method).to_json(),
                 "words": [metric.words, metric.up, metric.down],
                 "p": None, "p_adjusted": None, "significant": False, "not_compared": None}
    if len(pairs) < 2:
        row["not_compared"] = "fewer than 2 games"
    elif metric.kind == "proportion" and (
            len(pairs) < MIN_PROPORTION_GAMES
            or min(sum(before), len(pairs) - sum(before), sum(after),
                   len(pairs) - sum(after)) < MIN_EVENTS):
        row["not_compared"] = (f"too few games to compare a proportion (needs "
                               f"{MIN_PROPORTION_GAMES} games and {MIN_EVENTS} with and "
                               f"without it in each set)")
    else:
        p_value = stats.paired_p(before, after)
        row["p"] = None if p_value is None else round(p_value, 6)
    return row


def compare_sections(the_plan: Plan, results: Mapping[int, Sequence[GameSummary]],
                     other_plan: Plan,
                     other: Mapping[int, Sequence[GameSummary]]) -> list[JSON]:
    """For each section (variant, player count) both sets played, each figure of
    :func:`_metrics` over the games both played (paired by part and seed): its mean in
    both, the mean paired difference (other minus this one) with its t interval, and
    its p-value; :func:`correct` decides which differences survive."""
    rows = []
    other_parts = {part: index for index, part in enumerate(other_plan.parts)}
    mine = _sections(the_plan, results)
    theirs = _sections(other_plan, other)
    for (variant, players), indices in mine.items():
        if (variant, players) not in theirs:
            continue
        paired: list[tuple[Part, GameSummary, GameSummary]] = []
        for index in indices:
            part = the_plan.parts[index]
            found = other_parts.get(part)
            if found is None or not other.get(found):
                continue
            by_seed = {g.seed: g for g in other[found]}
            paired += [(part, g, by_seed[g.seed]) for g in results[index] if g.seed in by_seed]
        if not paired:
            continue
        games = [g for _, a, b in paired for g in (a, b)]
        ends = sorted({g.end for g in games})
        figures = []
        for metric in _metrics(players, [p for p, _, _ in paired], move_kinds(games), ends):
            chosen = [(a, b) for part, a, b in paired
                      if metric.parts is None or metric.parts(part)]
            if chosen:
                figures.append(_metric_row(metric, chosen))
        rows.append({"variant": variant, "players": players, "games": len(paired),
                     "metrics": figures})
    return rows


def compare(the_plan: Plan, results: Mapping[int, Sequence[GameSummary]],
            against: Mapping[int, Sequence[GameSummary]],
            against_plan: Plan) -> list[JSON]:
    """Per part both catalogues played (a pairing or a bot alone, in a variant): each
    figure of :func:`_metrics` over the seeds both played, as :func:`compare_sections`
    does for whole sections."""
    rows = []
    other_parts = {part: index for index, part in enumerate(against_plan.parts)}
    for index, part in enumerate(the_plan.parts):
        other = other_parts.get(part)
        if other is None or not results.get(index) or not against.get(other):
            continue
        by_seed = {g.seed: g for g in against[other]}
        pairs = [(g, by_seed[g.seed]) for g in results[index] if g.seed in by_seed]
        games = [g for pair in pairs for g in pair]
        figures = [_metric_row(metric, pairs) for metric in
                   _metrics(part.players, [part], move_kinds(games),
                            sorted({g.end for g in games}))
                   if metric.parts is None or metric.parts(part)]
        rows.append({"variant": part.variant, "bots": list(part.bots), "games": len(pairs),
                     "metrics": figures})
    return rows


def correct(*families: Sequence[JSON]) -> None:
    """Holm's correction over every compared figure of ``families`` (lists of rows with
    ``metrics``), as one family: sets each figure's ``p_adjusted`` and ``significant``
    (adjusted p at most ALPHA)."""
    figures = [metric for family in families for row in family for metric in row["metrics"]]
    adjusted = stats.holm([metric["p"] for metric in figures])
    for metric, p_value in zip(figures, adjusted, strict=True):
        metric["p_adjusted"] = None if p_value is None else round(p_value, 6)
        metric["significant"] = p_value is not None and p_value <= ALPHA


def describe_difference(metric: JSON) -> str:
    """A significant difference in words: ``games 1.5 player turns shorter (0.9 to
    2.1)``; percentages of games in percentage points."""
    template, up, down = metric["words"]
    difference = metric["difference"]
    value = difference["value"]
    low, high = sorted((abs(difference["low"]), abs(difference["high"])))
    text: str = template.format(d=f"{abs(value):.1f}", w=up if value > 0 else down)
    return f"{text} ({low:.1f} to {high:.1f})"


def summary_sentences(sections: Sequence[JSON]) -> list[str]:
    """The plain-words summary of a comparison: per section, the differences that
    survive the correction, and the first-player edge said unchanged when it was
    compared and did not change."""
    lines = []
    for section in sections:
        title = f"{section['variant']}, " + ("solitaire" if section["players"] == 1
                                             else f"{section['players']} players")
        said = [describe_difference(m) for m in section["metrics"] if m["significant"]]
        edge = [m for m in section["metrics"] if m["metric"] == "first-player edge"]
        if edge and not edge[0]["significant"]:
            said.append("first-player edge unchanged" if edge[0]["p"] is not None
                        else f"first-player edge not compared ({edge[0]['not_compared']})")
        lines.append(f"{title}: " + ("; ".join(said) if said
                                     else "no difference survives the correction"))
    return lines
