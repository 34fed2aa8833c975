"""Rules engine speed, against the frozen reference engine in the same run.

    .venv/bin/python -m bench engine [--games=N] [--repeat=R] [--big=TILES]
    taskset -c 0 .venv/bin/python -m bench engine     # pinned: steadier on a shared machine

Random playouts per second on one core for Micropul (two-player, solitaire) and Cellulae
(5 x 5, 7 x 7, 9 x 9), the engine's and the reference's (tests/engines/reference: the
engine before the speed-up), and their ratio: ratios measured in one run are the figures
to quote, the machine being shared and noisy. Also the time per turn, the set-up of a
game, legal-action listings, ``check``'s fixed cost (the set facts of the official set),
and ``micropul-print check`` on a generated catalogue of TILES tiles in a subprocess
(time and peak memory). Each rate is the best of R repetitions (the least disturbed).
Goal: every game's playouts at least 5 times the reference's; exit status 1 if missed.
"""

from __future__ import annotations

import argparse
import importlib
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.generated import write_generated
from micropul_print.catalogue.loader import load_catalogue
from micropul_print.games.cellulae import rules as cellulae
from micropul_print.games.micropul.model import Catalogue
from micropul_print.games.micropul.rules.game import Game
from micropul_print.games.micropul.rules.tiles import tileset
from micropul_print.games.micropul.setcheck import set_facts

GOAL_RATIO = 5.0
# The reference is test code (imported by name: it is not part of the package).
_REFERENCE = "tests.engines.reference"


def _reference(module: str) -> Any:
    return importlib.import_module(f"{_REFERENCE}.{module}")


def _best_rate(run: Callable[[], int], repeat: int) -> float:
    """Items per second of ``run`` (which returns how many it did), best of ``repeat``."""
    best = 0.0
    for _ in range(repeat):
        began = time.perf_counter()
        done = run()
        best = max(best, done / (time.perf_counter() - began))
    return best


def _line(what: str, new: float, ref: float, unit: str) -> float:
    ratio = new / ref
    print(f"{what}: {new:,.0f} {unit} (reference {ref:,.0f}): {ratio:.2f}x")
    return ratio


def _micropul(catalogue: Catalogue, games: int, repeat: int) -> dict[str, float]:
    ts = tileset(catalogue)
    ref_game = _reference("game").Game
    ref_ts = _reference("tiles").tileset(catalogue)
    ratios = {}
    for players, name in ((2, "two-player"), (1, "solitaire")):
        turns = sum(Game(ts, players, seed).play_random().turns for seed in range(games))

        def new(players: int = players) -> int:
            for seed in range(games):
                Game(ts, players, seed).play_random()
            return games

        def ref(players: int = players) -> int:
            for seed in range(games):
                ref_game(ref_ts, players, seed).play_random()
            return games

        new_rate, ref_rate = _best_rate(new, repeat), _best_rate(ref, repeat)
        ratios[f"Micropul {name}"] = _line(
            f"Micropul {name} random games ({turns / games:.1f} turns)", new_rate, ref_rate,
            "games/s"
        )
        print(
            f"  per game {1e6 / new_rate:.0f} us (reference {1e6 / ref_rate:.0f}); per turn "
            f"{1e6 * games / new_rate / turns:.1f} us (reference "
            f"{1e6 * games / ref_rate / turns:.1f}), set-up included"
        )
    _line(
        "Micropul set-up (fresh two-player games)",
        _best_rate(lambda: len([Game(ts, 2, seed) for seed in range(games)]), repeat),
        _best_rate(lambda: len([ref_game(ref_ts, 2, seed) for seed in range(games)]), repeat),
        "games/s",
    )
    positions = _positions(lambda seed: Game(ts, 2, seed), 300)
    ref_positions = _positions(lambda seed: ref_game(ref_ts, 2, seed), 300)
    _line(
        "Micropul legal_actions() of mid-game positions",
        _best_rate(lambda: sum(1 for game in positions if game.legal_actions()), repeat),
        _best_rate(lambda: sum(1 for game in ref_positions if game.legal_actions()), repeat),
        "calls/s",
    )
    return ratios


def _positions(make: Callable[[int], Any], count: int) -> list[Any]:
    """Games stopped part-way (at a random turn), as positions to list actions in."""
    rng = random.Random(12345)
    found: list[Any] = []
    seed = 0
    while len(found) < count:
        game = make(seed)
        seed += 1
        stop = rng.randrange(1, 40)
        while not game.is_over() and game.turns < stop:
            game.push(game.random_action())
        if not game.is_over():
            found.append(game)
    return found


def _cellulae(games: int, repeat: int) -> dict[str, float]:
    ref_cellulae = _reference("cellulae")
    ratios = {}
    for side in (5, 7, 9):
        count = max(1, games * 25 // (side * side))  # about the same time per board
        turns = sum(cellulae.play_random_game(side, seed).turns for seed in range(count))

        def new(side: int = side, count: int = count) -> int:
            for seed in range(count):
                cellulae.play_random_game(side, seed)
            return count

        def ref(side: int = side, count: int = count) -> int:
            for seed in range(count):
                ref_cellulae.play_random_game(side, seed)
            return count

        new_rate, ref_rate = _best_rate(new, repeat), _best_rate(ref, repeat)
        ratios[f"Cellulae {side} x {side}"] = _line(
            f"Cellulae {side} x {side} random games ({turns / count:.1f} turns)",
            new_rate, ref_rate, "games/s",
        )
    return ratios


def _check_cost(catalogue: Catalogue, repeat: int) -> None:
    ref_facts = _reference("setcheck").set_facts
    _line(
        "check's fixed cost (set facts of the official set)",
        _best_rate(lambda: len([set_facts(catalogue)]), repeat),
        _best_rate(lambda: len([ref_facts(catalogue)]), repeat),
        "sets/s",
    )


def _check_generated(tiles: int) -> None:
    """``micropul-print check`` (200 games of each mode) on a generated catalogue."""
    with tempfile.TemporaryDirectory() as folder:
        path = write_generated(Path(folder) / f"generated-{tiles}.yaml", tiles)
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        began = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "micropul_print", "check", str(path)],
            capture_output=True, text=True, check=False,
        )
        seconds = time.perf_counter() - began
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    last = done.stdout.strip().splitlines()[-1:] or done.stderr.strip().splitlines()[-1:]
    memory = f"{peak / 1024:.0f} MB" if peak > before else "(not measured)"
    print(
        f"check on a generated {tiles:,}-tile catalogue: {seconds:.1f} s, peak memory "
        f"{memory}, exit {done.returncode} ({last[0] if last else 'no output'})"
    )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench engine", description=__doc__)
    parser.add_argument("--games", type=int, default=300, help="games per repetition")
    parser.add_argument("--repeat", type=int, default=3, help="repetitions (best reported)")
    parser.add_argument(
        "--big", type=int, default=10_000, help="tiles of the generated catalogue (0: skip)"
    )
    args = parser.parse_args(argv)
    catalogue = load_catalogue()
    ratios = _micropul(catalogue, args.games, args.repeat)
    ratios |= _cellulae(args.games, args.repeat)
    _check_cost(catalogue, args.repeat)
    if args.big:
        _check_generated(args.big)
    missed = [name for name, ratio in ratios.items() if ratio < GOAL_RATIO]
    print(
        f"goal: random playouts >= {GOAL_RATIO:g}x the reference for every game: "
        + ("met" if not missed else "NOT met (" + ", ".join(missed) + ")")
    )
    return 1 if missed else 0
