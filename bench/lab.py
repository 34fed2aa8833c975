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

    python -m bench lab --bot-cost=N

With ``--bot-cost``, instead: the CPU time of the lookahead's own moves (``time.process_time``
around each ``choose``) in games against greedy, seeds S to S + N - 1 each in both seat
orders, on Micropul and on each Cellulae board, guided (the default, 30 nodes) and
unguided (``lookahead:100:w0``): the mean a game with its 95 % t-interval, played in
this process, one game at a time.

    python -m bench lab --base=DIR [--compare-games=N[,N...]] [--compare-runs=R]

With ``--base``, instead: ``analyse --players 2 --bots greedy,lookahead --games N``
(default 100; several counts, e.g. ``100,500``, each in turn) run as a command on this
checkout and on the checkout DIR (e.g. a ``git worktree`` of the commit to compare
with), alternately, R times each (default 2), in this run, pinned to two CPUs with two
workers: the CPU time of each (its best), their ratio (goal of issue 25: at least 3x),
and each side's ladder gap lookahead-over-greedy with its interval, on the same seeds,
and whether the strength is the same as the goal means it: this checkout's gap no
smaller than the base's, their intervals overlapping. Exit status 1 unless every count
meets both (the verdict, :func:`verdict`, a pure function tested in tests/bench); a
side without a CPU time or whose report has no lookahead rating meets neither.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from bench.kit import pin_to_two_cpus
from micropul_print.catalogue.loader import load_catalogue
from micropul_print.game import registry
from micropul_print.lab import stats
from micropul_print.lab.analyse import MAX_TURNS, Batch, Plan, plan
from micropul_print.lab.bots import bot_seed, make_bot
from micropul_print.lab.runner import run_plan

GOAL_MINUTES = 10.0
GOAL_RATIO = 3.0  # issue 25: analyse at least 3x faster than the base, at the same strength
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
    parser.add_argument("--compare-runs", type=_runs, default=2,
                        help="runs of each side per count with --base, the best kept "
                             "(default: 2)")
    parser.add_argument("--bot-cost", type=_runs, metavar="N",
                        help="the lookahead's CPU time a game against greedy, N deals "
                             "in each seat order, per game and board")
    args, _others = parser.parse_known_args(argv)  # the other benchmarks' options
    cpus = pin_to_two_cpus()
    if args.bot_cost is not None:
        bot_cost(args.bot_cost, args.seed)
        return 0
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


BOT_COST = (("micropul", None), ("cellulae", "5"), ("cellulae", "7"), ("cellulae", "9"))
LOOKAHEADS = ("lookahead", "lookahead:100:w0")  # guided (the default), unguided


def _lookahead_seconds(game_name: str, catalogue: object, variant: str | None, spec: str,
                       seed: int, seat: int) -> float:
    """CPU seconds of the ``spec`` bot's own choices in one two-player game against
    greedy, the bot in ``seat``; each bot seeded as analyse seeds it."""
    state = registry.get(game_name).new_state(catalogue, players=2, seed=seed,
                                              variant=variant)
    bots = [make_bot(spec if s == seat else "greedy") for s in range(2)]
    rngs = [random.Random(bot_seed(seed, s)) for s in range(2)]
    spent = 0.0
    while not state.is_terminal() and state.turn() < MAX_TURNS:
        player = state.current_player()
        started = time.process_time()
        move = bots[player].choose(state, rngs[player])
        if player == seat:
            spent += time.process_time() - started
        state.apply_action(move)
    return spent


def bot_cost(deals: int, seed: int) -> None:
    """The table of ``--bot-cost`` (see the docstring), printed row by row."""
    print(f"the lookahead's own CPU time a game against greedy, seeds {seed} to "
          f"{seed + deals - 1} in both seat orders ({2 * deals} games), mean (95 % t)",
          flush=True)
    for game_name, variant in BOT_COST:
        game = registry.get(game_name)
        catalogue = load_catalogue(game.shipped_catalogue())
        cells = []
        for spec in LOOKAHEADS:
            seconds = [_lookahead_seconds(game_name, catalogue, variant, spec, one, seat)
                       for one in range(seed, seed + deals) for seat in (0, 1)]
            found = stats.t_interval(seconds)
            cells.append(f"{spec} {found.value:.3f} s ({found.low:.3f} to {found.high:.3f})")
        print(f"  {game_name} {variant or ''}".ljust(14) + "  ".join(cells), flush=True)


ROOT = Path(__file__).resolve().parents[1]


def _analyse(checkout: Path, games: int, seed: int) -> tuple[float, Interval | None]:
    """``analyse --players 2 --bots greedy,lookahead`` run from ``checkout``'s sources:
    (CPU seconds of it and its workers, the lookahead's rating over greedy, None if the
    report has none)."""
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
    row = next((row for row in section["ladder"] or () if row["bot"] == "lookahead"), None)
    return cpu, None if row is None else interval(row["rating"])


def _counts(text: str) -> list[int]:
    """``--compare-games``: one count of games or several, comma-separated."""
    counts = [int(part) for part in text.split(",")]
    if not counts or min(counts) < 1:
        raise argparse.ArgumentTypeError(f"expected counts of games: {text!r}")
    return counts


def _runs(text: str) -> int:
    """``--compare-runs``: at least one run of each side."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a count of runs, at least 1: {text!r}")
    return int(text)


Interval = Mapping[str, float]  # a figure with its interval: value, low, high


def interval(found: object) -> Interval | None:
    """``found`` (a report's rating) as an interval, or None unless it has a finite
    ``value``, ``low`` and ``high``."""
    if not isinstance(found, Mapping):
        return None
    numbers = {key: found.get(key) for key in ("value", "low", "high")}
    if not all(isinstance(n, int | float) and not isinstance(n, bool) and math.isfinite(n)
               for n in numbers.values()):
        return None
    return {key: float(n) for key, n in numbers.items() if n is not None}


def same_strength(this: Interval, base: Interval) -> bool:
    """Issue 25's "same strength": this checkout's gap lookahead-over-greedy (a rating
    with its interval, ``value``, ``low``, ``high``) no smaller than the base's, and
    the two intervals overlapping."""
    return this["value"] >= base["value"] and this["low"] <= base["high"] \
        and base["low"] <= this["high"]


@dataclass(frozen=True)
class Verdict:
    """Issue 25's goal at one count of games, from the best CPU time of each side and
    each side's gap lookahead-over-greedy. ``ratio`` is None without a positive,
    finite CPU time on both sides; ``same`` None without both gaps: the goal is then
    not met (nothing shows it was)."""

    ratio: float | None  # base CPU / this CPU
    same: bool | None  # same_strength(this, base)
    goal: float = GOAL_RATIO

    @property
    def met(self) -> bool:
        return self.ratio is not None and self.ratio >= self.goal and self.same is True


def verdict(cpu: Mapping[str, float], gaps: Mapping[str, Interval | None],
            goal: float = GOAL_RATIO) -> Verdict:
    """The verdict on ``cpu`` and ``gaps``, each keyed ``"this"`` and ``"base"`` (a key
    may be missing: a side not measured). A pure function: no game is played."""
    base, this = cpu.get("base"), cpu.get("this")
    ratio = (base / this if base is not None and this is not None
             and 0 < base < math.inf and 0 < this < math.inf else None)
    mine, theirs = gaps.get("this"), gaps.get("base")
    same = None if mine is None or theirs is None else same_strength(mine, theirs)
    return Verdict(ratio, same, goal)


def compare(base: Path, games: int, seed: int, cpus: list[int], runs: int = 2) -> bool:
    """This checkout's analyse against ``base``'s, alternately (see the docstring):
    whether the goal is met (the ratio and the same strength)."""
    print(f"analyse --players 2 --bots greedy,lookahead --games {games}, on CPUs {cpus}: "
          f"this checkout ({ROOT}) against {base}", flush=True)
    best = {"this": math.inf, "base": math.inf}
    gaps: dict[str, Interval | None] = {}
    for _ in range(runs):
        for name, checkout in (("base", base), ("this", ROOT)):
            cpu, gaps[name] = _analyse(checkout, games, seed)
            best[name] = min(best[name], cpu)
            print(f"  {name}: {cpu:7.1f} s CPU, lookahead over greedy "
                  f"{_elo(gaps[name], ranged=False)}", flush=True)
    for name in ("base", "this"):
        print(f"  {name}: lookahead over greedy {_elo(gaps.get(name))}")
    found = verdict(best, gaps)
    same = {True: "yes", False: "NO", None: "NO (a gap is missing)"}[found.same]
    print(f"  same strength (gap no smaller, intervals overlapping): {same}")
    ratio = "no ratio" if found.ratio is None else f"{found.ratio:.2f}x"
    print(f"ratio at {games} games (base CPU / this CPU, best of {runs} each): "
          f"{ratio} (goal: {found.goal:g}x)", flush=True)
    return found.met


def _elo(gap: Interval | None, ranged: bool = True) -> str:
    if gap is None:
        return "(no rating in the report)"
    if not ranged:
        return f"{gap['value']:+.0f} Elo"
    return f"{gap['value']:+.0f} Elo ({gap['low']:+.0f} to {gap['high']:+.0f})"
