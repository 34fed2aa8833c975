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

    python -m bench lab --base=DIR [--compare-games=N[,N...]] [--compare-runs=R]

With ``--base``, instead: ``analyse --players 2 --bots greedy,lookahead --games N``
(default 100; several counts, e.g. ``100,500``, each in turn) run as a command on this
checkout and on the checkout DIR (e.g. a ``git worktree`` of the commit to compare
with), alternately, R times each (default 2), in this run, pinned to two CPUs with two
workers: the CPU time of each (its best), their ratio (goal of issue 25: at least 3x),
and each side's ladder gap lookahead-over-greedy with its interval, on the same seeds,
and whether the strength is the same as the goal means it: this checkout's gap no
smaller than the base's, their intervals overlapping. Exit status 1 unless every count
meets both.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.kit import pin_to_two_cpus
from micropul_print.catalogue.loader import load_catalogue
from micropul_print.game import registry
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
    parser.add_argument("--base", type=Path,
                        help="compare analyse's time with the checkout in this folder")
    parser.add_argument("--compare-games", type=_counts, default=[100],
                        help="analyse --games with --base, one count or several "
                             "comma-separated (default: 100)")
    parser.add_argument("--compare-runs", type=int, default=2,
                        help="runs of each side per count with --base, the best kept "
                             "(default: 2)")
    args, _others = parser.parse_known_args(argv)  # the other benchmarks' options
    cpus = pin_to_two_cpus()
    if args.base is not None:
        each_met = [compare(args.base, games, args.seed, cpus, args.compare_runs)
               for games in args.compare_games]
        return 0 if all(each_met) else 1
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


ROOT = Path(__file__).resolve().parents[1]


def _analyse(checkout: Path, games: int, seed: int) -> tuple[float, dict[str, object]]:
    """``analyse --players 2 --bots greedy,lookahead`` run from ``checkout``'s sources:
    (CPU seconds of it and its workers, the lookahead's ladder row)."""
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "report.json"
        env = {**os.environ, "PYTHONPATH": str(checkout)}
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([sys.executable, "-m", "micropul_print", "analyse", "--players", "2",
                        "--bots", "greedy,lookahead", "--games", str(games), "--seed",
                        str(seed), "--jobs", str(CORES), "--json", str(out)],
                       env=env, cwd=scratch, check=True, capture_output=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        report = json.loads(out.read_text("utf-8"))
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    (section,) = report["sections"]
    row = next(row for row in section["ladder"] if row["bot"] == "lookahead")
    return cpu, row


def _counts(text: str) -> list[int]:
    """``--compare-games``: one count of games or several, comma-separated."""
    counts = [int(part) for part in text.split(",")]
    if not counts or min(counts) < 1:
        raise argparse.ArgumentTypeError(f"expected counts of games: {text!r}")
    return counts


def same_strength(this: dict[str, float], base: dict[str, float]) -> bool:
    """Issue 25's "same strength": this checkout's gap lookahead-over-greedy (a rating
    with its interval, ``value``, ``low``, ``high``) no smaller than the base's, and
    the two intervals overlapping."""
    return this["value"] >= base["value"] and this["low"] <= base["high"] \
        and base["low"] <= this["high"]


def compare(base: Path, games: int, seed: int, cpus: list[int], runs: int = 2) -> bool:
    """This checkout's analyse against ``base``'s, alternately (see the docstring):
    whether the goal is met (the ratio and the same strength)."""
    print(f"analyse --players 2 --bots greedy,lookahead --games {games}, on CPUs {cpus}: "
          f"this checkout ({ROOT}) against {base}", flush=True)
    best = {"this": float("inf"), "base": float("inf")}
    rows: dict[str, dict[str, object]] = {}
    for _ in range(runs):
        for name, checkout in (("base", base), ("this", ROOT)):
            cpu, rows[name] = _analyse(checkout, games, seed)
            best[name] = min(best[name], cpu)
            rating = rows[name]["rating"]
            assert isinstance(rating, dict)
            print(f"  {name}: {cpu:7.1f} s CPU, lookahead over greedy "
                  f"{rating['value']:+.0f} Elo", flush=True)
    ratio = best["base"] / best["this"]
    gaps: dict[str, dict[str, float]] = {}
    for name in ("base", "this"):
        rating = rows[name]["rating"]
        assert isinstance(rating, dict)
        gaps[name] = rating
        print(f"  {name}: lookahead over greedy {rating['value']:+.0f} Elo "
              f"({rating['low']:+.0f} to {rating['high']:+.0f})")
    same = same_strength(gaps["this"], gaps["base"])
    print(f"  same strength (gap no smaller, intervals overlapping): "
          f"{'yes' if same else 'NO'}")
    print(f"ratio at {games} games (base CPU / this CPU, best of {runs} each): "
          f"{ratio:.2f}x (goal: 3x)", flush=True)
    return ratio >= 3 and same
