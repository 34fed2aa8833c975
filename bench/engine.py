"""Rules engine speed, against the frozen reference engine in the same run.

    .venv/bin/python -m bench engine [--games=N] [--repeat=R] [--big=TILES]
    taskset -c 0,1 .venv/bin/python -m bench engine   # pinned: steadier on a shared machine
    .venv/bin/python -m bench engine --compiled       # the engine compiled with mypyc
    .venv/bin/python -m bench engine --compiled-test  # the differential test, compiled

Random playouts per second on one core for Micropul (two-player, solitaire) and Cellulae
(5 × 5, 7 × 7, 9 × 9), the engine's and the reference's (tests/engines/reference: the
engine before the speed-up), and their ratio: ratios measured in one run are the figures
to quote, the machine being shared and noisy. Also the time per turn, the set-up of a
game, legal-action listings, ``check``'s fixed cost (the set facts of the official set),
and ``micropul-print check`` on a generated catalogue of TILES tiles in a subprocess
(time and peak memory). Rates are in CPU time of this process (time the machine gives to
others does not count), engine and reference runs alternate, and each rate is the best
of R repetitions (the least disturbed). Goal: every game's playouts at least 5 times
the reference's; exit status 1 if missed.

``--compiled`` builds (once per change of the sources) a copy of the project in
build/compiled/ whose engine modules (ENGINE_MODULES) are compiled with mypyc, an
optional speed-up: the pure-Python engine stays the default and is what the test suite
runs. The benchmark then runs in that copy, the reference staying pure Python;
``--compiled-test`` runs the engines' tests there (tests/engines: the differential test
with ENGINE_COMPILED=1, which makes it check that the engine it imports is compiled).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import os
import random
import resource
import shutil
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
from micropul_print.games.micropul.rules.game import Match
from micropul_print.games.micropul.rules.tiles import tileset
from micropul_print.games.micropul.setcheck import set_facts

GOAL_RATIO = 5.0
# The reference is test code (imported by name: it is not part of the package).
_REFERENCE = "tests.engines.reference"
ROOT = Path(__file__).resolve().parent.parent
COMPILED = ROOT / "build" / "compiled"
# What --compiled compiles with mypyc (paths relative to the project).
ENGINE_MODULES = (
    "micropul_print/games/micropul/rules/tiles.py",
    "micropul_print/games/micropul/rules/board.py",
    "micropul_print/games/micropul/rules/game.py",
    "micropul_print/games/cellulae/rules.py",
)
# What the compiled copy holds: the package, the tests (the reference, the differential
# test), the benchmarks, and pyproject.toml (pytest's and mypy's settings).
_COPIED = ("micropul_print", "tests", "bench", "pyproject.toml")


def _reference(module: str) -> Any:
    return importlib.import_module(f"{_REFERENCE}.{module}")


def _best_rate(run: Callable[[], int], repeat: int) -> float:
    """Items per CPU second of ``run`` (which returns how many it did), best of ``repeat``."""
    best = 0.0
    for _ in range(repeat):
        began = time.process_time()
        done = run()
        best = max(best, done / max(time.process_time() - began, 1e-9))
    return best


def _best_rates(
    new: Callable[[], int], ref: Callable[[], int], repeat: int
) -> tuple[float, float]:
    """_best_rate of the engine and of the reference, their runs alternating (a change of
    the machine's load then touches both)."""
    best_new = best_ref = 0.0
    for _ in range(repeat):
        best_new = max(best_new, _best_rate(new, 1))
        best_ref = max(best_ref, _best_rate(ref, 1))
    return best_new, best_ref


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
        turns = sum(Match(ts, players, seed).play_random().turns for seed in range(games))

        def new(players: int = players) -> int:
            for seed in range(games):
                Match(ts, players, seed).play_random()
            return games

        def ref(players: int = players) -> int:
            for seed in range(games):
                ref_game(ref_ts, players, seed).play_random()
            return games

        new_rate, ref_rate = _best_rates(new, ref, repeat)
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
        *_best_rates(
            lambda: len([Match(ts, 2, seed) for seed in range(games)]),
            lambda: len([ref_game(ref_ts, 2, seed) for seed in range(games)]),
            repeat,
        ),
        "games/s",
    )
    positions = _positions(lambda seed: Match(ts, 2, seed), 300)
    ref_positions = _positions(lambda seed: ref_game(ref_ts, 2, seed), 300)
    _line(
        "Micropul legal_actions() of mid-game positions",
        *_best_rates(
            lambda: sum(1 for game in positions if game.legal_actions()),
            lambda: sum(1 for game in ref_positions if game.legal_actions()),
            repeat,
        ),
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
        # The engine's vocabulary, or the frozen reference's (is_over, push).
        over = getattr(game, "is_terminal", None) or game.is_over
        apply_action = getattr(game, "apply_action", None) or game.push
        while not over() and game.turns < stop:
            apply_action(game.random_action())
        if not over():
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

        new_rate, ref_rate = _best_rates(new, ref, repeat)
        ratios[f"Cellulae {side} × {side}"] = _line(
            f"Cellulae {side} × {side} random games ({turns / count:.1f} turns)",
            new_rate, ref_rate, "games/s",
        )
    return ratios


def _check_cost(catalogue: Catalogue, repeat: int) -> None:
    ref_facts = _reference("setcheck").set_facts
    _line(
        "check's fixed cost (set facts of the official set)",
        *_best_rates(
            lambda: len([set_facts(catalogue)]), lambda: len([ref_facts(catalogue)]), repeat
        ),
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


def _sources_digest() -> str:
    """A digest of everything the compiled copy is made of, and of mypyc's version."""
    import mypy.version  # the dev tools are there: only --compiled needs them

    digest = hashlib.sha256(mypy.version.__version__.encode())
    for name in _COPIED:
        path = ROOT / name
        files = [path] if path.is_file() else sorted(path.rglob("*"))
        for file in files:
            if file.is_file() and "__pycache__" not in file.parts:
                digest.update(str(file.relative_to(ROOT)).encode() + b"\0")
                digest.update(file.read_bytes())
    return digest.hexdigest()


def build_compiled() -> Path:
    """build/compiled/: a copy of the project with ENGINE_MODULES compiled by mypyc (made
    again only when a source changed; a build takes a minute or two)."""
    stamp = COMPILED / ".sources"
    wanted = _sources_digest()
    if stamp.exists() and stamp.read_text() == wanted:
        return COMPILED
    print(f"bench: compiling the engine with mypyc into {COMPILED}", file=sys.stderr, flush=True)
    shutil.rmtree(COMPILED, ignore_errors=True)
    COMPILED.mkdir(parents=True)
    for name in _COPIED:
        path = ROOT / name
        if path.is_file():
            shutil.copy2(path, COMPILED / name)
        else:
            shutil.copytree(path, COMPILED / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    done = subprocess.run(
        [sys.executable, "-m", "mypyc", *ENGINE_MODULES],
        cwd=COMPILED, capture_output=True, text=True, check=False,
    )
    if done.returncode != 0:
        sys.exit(f"bench: mypyc failed:\n{done.stdout[-4000:]}{done.stderr[-4000:]}")
    stamp.write_text(wanted)
    return COMPILED


def _in_compiled(args: list[str]) -> int:
    """Run ``python ARGS`` in the compiled copy (which it imports the project from)."""
    where = build_compiled()
    env = dict(os.environ, ENGINE_COMPILED="1")
    return subprocess.call([sys.executable, *args], cwd=where, env=env)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench engine", description=__doc__)
    parser.add_argument("--games", type=int, default=300, help="games per repetition")
    parser.add_argument("--repeat", type=int, default=3, help="repetitions (best reported)")
    parser.add_argument(
        "--big", type=int, default=10_000, help="tiles of the generated catalogue (0: skip)"
    )
    parser.add_argument("--compiled", action="store_true",
                        help="benchmark the engine compiled with mypyc (build/compiled/)")
    parser.add_argument("--compiled-test", action="store_true",
                        help="run tests/engines on the engine compiled with mypyc")
    args = parser.parse_args(argv)
    if args.compiled_test:
        return _in_compiled(["-m", "pytest", "tests/engines", "-q", "-p", "no:cacheprovider"])
    if args.compiled:
        rest = [a for a in argv if a != "--compiled"]
        return _in_compiled(["-m", "bench", "engine", *rest])
    if os.environ.get("ENGINE_COMPILED"):
        from micropul_print.games.micropul.rules import game

        print(f"(engine compiled with mypyc: {Path(game.__file__).name})", flush=True)
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
