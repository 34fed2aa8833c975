"""`analyse --skill-trace [BOT]`: strategic depth, as Ludii's skill trace measures it.

A bot with a search budget (the lookahead: its node budget) plays at 1, 2, 4, 8 and 16
times its budget, each budget against the one below it, both seat orders, on the same
seeds; each step's figure is the stronger bot's share of the points (a win 1, a tie
1/2) with its 95 % Wilson interval. A game where more thinking soon stops paying off
(the share falls to 50 %) is shallow; one where every doubling still wins is deep.
Two-player games only: a game without a two-player mode is a usage error, as is a bot
without a budget to scale (or with a time budget: its games would not be reproducible).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any

from micropul_print.game import registry
from micropul_print.game.plugin import players_in_words
from micropul_print.game.state import JSON
from micropul_print.lab import stats
from micropul_print.lab.analyse import GameSummary, Part, Plan, fingerprint, plan_of
from micropul_print.lab.bots import MAX_NODES, make_bot

FACTORS = (1, 2, 4, 8, 16)  # the budgets, as multiples of the bot's own
FORMAT = "micropul-print skill trace"


def budget_specs(spec: str) -> list[str]:
    """The specs of the bot ``spec`` at each of :data:`FACTORS` times its budget;
    ValueError naming what is supported if it has none to scale, or saying the largest
    budget it may have if 16 times its own passes the bound of every node budget."""
    bot = make_bot(spec)
    scaled = getattr(bot, "scaled", None)
    bots = None if scaled is None else [scaled(factor) for factor in FACTORS]
    if bots is None or any(b is None for b in bots):
        raise ValueError(f"--skill-trace needs a bot with a node budget to scale: "
                         f"lookahead[:NODES][:dDEPTH][:greedy][:cC][:wW] (not a time "
                         f"budget Ns); {spec!r} has none")
    largest: int = bots[-1].nodes
    if largest > MAX_NODES:
        own = largest // FACTORS[-1]
        raise ValueError(f"--skill-trace plays {spec!r} at up to {FACTORS[-1]} times its "
                         f"node budget, {own:,}: {largest:,} nodes, past the largest budget, "
                         f"{MAX_NODES:,}; give it at most {MAX_NODES // FACTORS[-1]:,} nodes")
    return [b.name for b in bots]


def plan(game_name: str, catalogue: Any, spec: str, games: int, seed: int, *,
         variants: Sequence[str] | None = None) -> Plan:
    """Each step (a budget against the one below it) in both seat orders, in each
    variant asked for (None: every variant), ``games`` games each from ``seed``;
    ValueError for a game without two players or a bot without a budget."""
    game = registry.get(game_name)
    if 2 not in game.info.player_counts:
        raise ValueError(f"--skill-trace plays two-player games; {game.info.title} is played "
                         f"by {players_in_words(game.info.player_counts)} (skill traces are "
                         "supported for games with a two-player mode)")
    specs = budget_specs(spec)
    parts = []
    for variant in game.variants(catalogue):
        if variants is not None and variant not in variants:
            continue
        for weaker, stronger in pairwise(specs):
            parts += [Part(variant, (stronger, weaker)), Part(variant, (weaker, stronger))]
    return plan_of(game_name, parts, games, seed)


def summarise(the_plan: Plan, results: Mapping[int, Sequence[GameSummary]]) -> list[JSON]:
    """One row per step and variant: the stronger bot's share of the points over both
    seat orders (games played so far), with its Wilson interval."""
    steps: dict[tuple[str, str, str], list[float]] = {}
    alike: dict[tuple[str, str, str], set[tuple[Any, ...]]] = {}
    for index, part in enumerate(the_plan.parts):
        stronger, weaker = max(part.bots, key=_nodes), min(part.bots, key=_nodes)
        seat = part.bots.index(stronger)
        key = (part.variant, stronger, weaker)
        points = steps.setdefault(key, [])
        points += [game.returns[seat] for game in results.get(index, ())]
        alike.setdefault(key, set()).update((seat, *fingerprint(game))
                                            for game in results.get(index, ()))
    rows = []
    for key, points in steps.items():
        variant, stronger, weaker = key
        n = len(points)
        rows.append({"variant": variant, "stronger": stronger, "weaker": weaker,
                     "factor": _nodes(stronger) // max(1, _nodes(weaker)), "games": n,
                     "distinct": len(alike[key]),
                     "wins": sum(p == 1.0 for p in points),
                     "ties": sum(p == 0.5 for p in points),
                     "share": stats.wilson(sum(points), n).to_json()})
    return rows




def _nodes(spec: str) -> int:
    bot = make_bot(spec)
    return int(getattr(bot, "nodes", 0) or 0)


def document(the_plan: Plan, catalogue: Any, spec: str,
             results: Mapping[int, Sequence[GameSummary]], complete: bool) -> JSON:
    """The skill trace's report (JSON): what was played and each step's figure. The
    catalogue is named as every report names it (``shipped:`` and its file name, or relative
    to the working folder): no folder of the machine it was made on."""
    from micropul_print.base.shown import shown_source

    return {"format": FORMAT, "game": the_plan.game,
            "catalogue": {"name": catalogue.name,
                          "source": shown_source(str(catalogue.source),
                                                registry.shipped_catalogues(),
                                                within=Path.cwd())},
            "bot": spec, "budgets": budget_specs(spec), "games": the_plan.games,
            "seed": the_plan.seed, "complete": complete,
            "steps": summarise(the_plan, results)}


def _pct(interval: JSON) -> str:
    return (f"{100 * interval['value']:.1f} % ({100 * interval['low']:.1f} to "
            f"{100 * interval['high']:.1f})")


def format_text(report: JSON) -> str:
    """The skill trace as text: one line per step."""
    from micropul_print.lab.report import games_count  # the report imports this module

    lines = [f"{report['game']} catalogue {report['catalogue']['name']!r} "
             f"({report['catalogue']['source']}): skill trace of {report['bot']}, "
             f"{games_count(report['games'])} per seat order per step from seed "
             f"{report['seed']}",
             "each budget against the one below it: the stronger bot's share of the "
             "points (a tie 1/2), 95 % Wilson interval"]
    for step in report["steps"]:
        line = (f"  {step['variant']}: {step['stronger']} v {step['weaker']}: "
                f"{_pct(step['share'])} of {step['games']} games "
                f"({step['wins']} won, {step['ties']} tied)")
        if step["distinct"] < step["games"] // 2:
            line += (f"; only {step['distinct']} distinct games: the bots play alike on "
                     f"every seed, and the interval counts the copies as games")
        lines.append(line)
    if not report["complete"]:
        lines.append("  (interrupted: the figures cover the games played so far)")
    return "\n".join(lines) + "\n"
