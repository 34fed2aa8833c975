"""The design lab's cost: what ``analyse`` of 10,000 games with the lookahead bot takes.

    python -m bench lab [--games=N] [--seed=S]
    (make bench / python3 tasks.py bench runs every benchmark)

Plays Micropul's two-player games as ``micropul-print analyse --game micropul --players 2
--bots greedy,lookahead`` does (the same plan, bots and forked workers), N games (default
25) in each pairing: greedy against greedy, each order of greedy against the lookahead,
and the lookahead against itself. The bench pins itself to two CPUs, as ``taskset -c
0,1`` does (the goal is set for a two-core machine), and runs the workers on both.

Measured per pairing: wall time, and CPU time of this process and its workers (the
machine being shared, CPU time is the steadier figure). From the CPU time, the time 10,000
games take on two cores, for the mix of the four pairings (``analyse --games 2500 --bots
greedy,lookahead``) and for the lookahead against greedy alone. Goal (issue 14): 10,000
games with the lookahead "in minutes", taken as at most 10 minutes for the mix; exit
status 1 if missed.
"""

from __future__ import annotations

import argparse
import resource
import time

from bench.kit import pin_to_two_cpus
from micropul_print import registry
from micropul_print.catalogue.loader import load_catalogue
from micropul_print.lab.analyse import Batch, Plan, plan
from micropul_print.lab.runner import run_plan

GOAL_MINUTES = 10.0
PROJECTED_GAMES = 10_000
CORES = 2


def _cpu_seconds() -> float:
    """CPU time of this process and of its reaped children (the workers) so far."""
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        usage = resource.getrusage(who)
        total += usage.ru_utime + usage.ru_stime
    return total


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench lab")
    parser.add_argument("--games", type=int, default=25, help="games per pairing (default: 25)")
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed")
    args, _others = parser.parse_known_args(argv)  # the other benchmarks' options
    cpus = pin_to_two_cpus()
    game = registry.get("micropul")
    catalogue = load_catalogue(game.shipped_catalogue())
    whole = plan("micropul", catalogue, ["greedy", "lookahead"], args.games, args.seed,
                 players=[2])
    print(f"Micropul, two players, {args.games} games per pairing, on CPUs {cpus}; "
          "CPU time includes the workers'", flush=True)
    per_game: dict[str, float] = {}
    for index, part in enumerate(whole.parts):
        one = Plan(whole.game, (part,), whole.games, whole.seed,
                   tuple(Batch(0, b.seeds) for b in whole.batches if b.part == index))
        cpu, wall = _cpu_seconds(), time.perf_counter()
        results, complete = run_plan(one, catalogue, jobs=CORES)
        wall, cpu = time.perf_counter() - wall, _cpu_seconds() - cpu
        played = sum(len(games) for games in results.values())
        if not complete or played != args.games:
            print(f"bench lab: {part.label()}: {played} of {args.games} games played")
            return 1
        per_game[" v ".join(part.bots)] = cpu / played
        print(f"  {part.label():32} {wall:6.1f} s wall  {cpu:6.1f} s CPU  "
              f"{cpu / played:6.3f} s CPU a game", flush=True)
    mix = sum(per_game.values()) / len(per_game) * PROJECTED_GAMES / CORES / 60
    against = ((per_game["greedy v lookahead"] + per_game["lookahead v greedy"]) / 2
               * PROJECTED_GAMES / CORES / 60)
    print(f"10,000 games on {CORES} cores (CPU time shared evenly): the four pairings "
          f"{mix:.1f} min, the lookahead against greedy {against:.1f} min "
          f"(goal: {GOAL_MINUTES:g} min for the pairings)")
    met = mix <= GOAL_MINUTES
    print("goal met" if met else "goal NOT met")
    return 0 if met else 1
