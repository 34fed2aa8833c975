"""Rules engine speed: legal-placement generation and whole random games, one process.

    .venv/bin/python -m bench engine [--games=N] [--repeat=R]

Goal: at least 1,000 random two-player Micropul games per second on one core (pure
Python). Cellulae's random games on each board are measured for information. Each
figure is the median of R repetitions. Exit status 1 when the goal is missed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from micropul_print.catalogue.loader import load_catalogue
from micropul_print.games.cellulae import rules as cellulae
from micropul_print.games.micropul.rules.game import Game
from micropul_print.games.micropul.rules.tiles import TileSet, tileset

GOAL_GAMES_PER_SECOND = 1000.0


def _positions(ts: TileSet, count: int) -> list[Game]:
    """Games stopped part-way (at a random turn), as positions to list placements in."""
    rng = random.Random(12345)
    positions: list[Game] = []
    seed = 0
    while len(positions) < count:
        game = Game(ts, 2, seed)
        seed += 1
        stop = rng.randrange(1, 40)
        while not game.is_over() and game.turns < stop:
            game.push(game.random_action())
        if not game.is_over() and game.hands[game.current]:
            positions.append(game)
    return positions


def _listing_rate(positions: list[Game]) -> tuple[float, float, int]:
    """(hands listed per second, placements listed per second, placements in total)."""
    began = time.perf_counter()
    listed = 0
    for game in positions:
        board = game.board
        for tile in game.hands[game.current]:
            listed += len(board.legal_placements(tile))
    seconds = time.perf_counter() - began
    return len(positions) / seconds, listed / seconds, listed


def _counting_rate(positions: list[Game]) -> float:
    """Hands whose legal placements are counted per second (the simulation's fast path)."""
    began = time.perf_counter()
    for game in positions:
        game.board.count_legal(game.hand_masks[game.current])
    return len(positions) / (time.perf_counter() - began)


def _games_rate(ts: TileSet, players: int, games: int, first_seed: int) -> tuple[float, float]:
    """(games per second, mean turns) over ``games`` fresh random-policy games."""
    turns = 0
    began = time.perf_counter()
    for seed in range(first_seed, first_seed + games):
        turns += Game(ts, players, seed).play_random().turns
    return games / (time.perf_counter() - began), turns / games


def _cellulae_rate(side: int, games: int, first_seed: int) -> tuple[float, float]:
    """(games per second, mean turns) of random Cellulae games on a ``side`` board."""
    turns = 0
    began = time.perf_counter()
    for seed in range(first_seed, first_seed + games):
        turns += cellulae.play_random_game(side, seed).turns
    return games / (time.perf_counter() - began), turns / games


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench engine", description=__doc__)
    parser.add_argument("--games", type=int, default=500, help="games per repetition")
    parser.add_argument("--repeat", type=int, default=5, help="repetitions (median reported)")
    args = parser.parse_args(argv)
    ts = tileset(load_catalogue())

    positions = _positions(ts, 300)
    listing = [_listing_rate(positions) for _ in range(args.repeat)]
    hands = statistics.median(r[0] for r in listing)
    placements = statistics.median(r[1] for r in listing)
    counting = statistics.median(_counting_rate(positions) for _ in range(args.repeat))
    print(
        f"legal placements: {hands:,.0f} hands listed/s ({placements:,.0f} placements/s, "
        f"{listing[0][2] / len(positions):.1f} per hand); {counting:,.0f} hands counted/s "
        f"(mid-game positions: {len(positions)})"
    )

    results = {}
    for players, name in ((2, "two-player"), (1, "solitaire")):
        runs = [_games_rate(ts, players, args.games, r * args.games) for r in range(args.repeat)]
        rate = statistics.median(r[0] for r in runs)
        turns = statistics.fmean(r[1] for r in runs)
        results[players] = rate
        print(
            f"{name} random games: {rate:,.0f} games/s (median of {args.repeat} x "
            f"{args.games} games, {turns:.1f} turns per game)"
        )
    for side in (5, 7, 9):
        runs = [_cellulae_rate(side, args.games, r * args.games) for r in range(args.repeat)]
        print(
            f"Cellulae {side} x {side} random games: "
            f"{statistics.median(r[0] for r in runs):,.0f} games/s (median of {args.repeat} "
            f"x {args.games} games, {statistics.fmean(r[1] for r in runs):.1f} turns per game)"
        )
    met = results[2] >= GOAL_GAMES_PER_SECOND
    print(
        f"goal: >= {GOAL_GAMES_PER_SECOND:,.0f} two-player games/s on one core: "
        f"{'met' if met else 'NOT met'} ({results[2]:,.0f})"
    )
    return 0 if met else 1
