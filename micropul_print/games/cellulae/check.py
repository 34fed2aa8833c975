"""Facts about a Cellulae set, checked with the rules engine, and simulated random games
on every board the catalogue offers (the Cellulae side of the ``check`` command).

Pure apart from the clock (games per second) and an optional progress callback.
"""

from __future__ import annotations

import random
import statistics
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from micropul_print.games.cellulae.catalogue import CellulaeCatalogue
from micropul_print.games.cellulae.rules import (
    BLACK,
    COLOURS,
    END_REASONS,
    QUIET_LIMIT,
    WHITE,
    Board,
)


@dataclass(frozen=True)
class CellulaeSimulation:
    side: int
    games: int
    seed: int
    seconds: float
    turns: list[int]
    counts: list[dict[str, int]]  # tiles of each colour at the end of each game
    winners: Counter[str | None]  # BLACK, WHITE or None (draw) -> games
    reasons: dict[str, int]  # END_REASONS -> games
    problems: list[str]  # broken invariants (none expected)

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")


def most_turns(side: int, quiet_limit: int = QUIET_LIMIT) -> int:
    """No game can last longer: tiles are never removed, so there are at most
    ``side * side - 2`` replications, with fewer than ``quiet_limit`` turns before each
    and after the last."""
    return (side * side - 2) * quiet_limit + quiet_limit


def simulate_cellulae(
    side: int,
    games: int,
    seed: int = 0,
    progress: Callable[[int], None] | None = None,
) -> CellulaeSimulation:
    """``games`` uniformly random games on a ``side`` board (seeds seed, seed + 1, ...),
    each checked for the invariants: it ends within :func:`most_turns`, the tiles on
    the board never exceed its squares, and a full board has a winner.
    ``progress`` is called with the games played so far, every 1% or so."""
    turns: list[int] = []
    counts: list[dict[str, int]] = []
    winners: Counter[str | None] = Counter()
    reasons: Counter[str] = Counter()
    problems: list[str] = []
    limit = most_turns(side)
    every = max(1, games // 100)
    began = time.perf_counter()
    for i in range(games):
        board = Board(side)
        outcome = board.play_random(random.Random(seed + i))
        turns.append(outcome.turns)
        counts.append(outcome.counts)
        winners[outcome.winner] += 1
        reasons[outcome.reason] += 1
        total = sum(outcome.counts.values())
        if outcome.turns > limit:
            problems.append(f"game {seed + i} lasted {outcome.turns} turns (at most {limit})")
        if total > side * side or total < 1:
            problems.append(f"game {seed + i} ended with {total} tiles on {side * side} squares")
        if total == side * side and outcome.winner is None:
            problems.append(f"game {seed + i} filled the board and ended in a tie")
        if progress is not None and (i + 1) % every == 0:
            progress(i + 1)
    return CellulaeSimulation(
        side=side,
        games=games,
        seed=seed,
        seconds=time.perf_counter() - began,
        turns=turns,
        counts=counts,
        winners=winners,
        reasons={reason: reasons[reason] for reason in END_REASONS},
        problems=problems,
    )


def set_lines(catalogue: CellulaeCatalogue) -> tuple[list[str], list[str]]:
    """What the set is, and the problems found with it (each a sentence)."""
    white, black = catalogue.face(WHITE), catalogue.face(BLACK)
    lines = [
        f"{catalogue.name} by {catalogue.author}: {catalogue.tile_total} tiles of "
        f"{catalogue.tile_size_mm:g} mm, white face ({white.mark}) and black face ({black.mark})",
    ]
    problems: list[str] = []
    for board_size in catalogue.boards:
        short = board_size.tiles - catalogue.tile_total
        covered = short <= 0
        enough = "the set has enough" if covered else f"the set is {short} short"
        lines.append(f"board {board_size.label}: {board_size.tiles} tiles, {enough}")
        if not covered:
            problems.append(f"the set has too few tiles for the {board_size.label} board")
        start = Board(board_size.side)
        for colour in COLOURS:
            if not start.replications(colour):
                problems.append(
                    f"on the {board_size.label} board {colour} cannot replicate from the start"
                )
    return lines, problems


def format_simulation(sim: CellulaeSimulation) -> list[str]:
    lines = [
        f"{sim.games} games on {sim.side} x {sim.side} (random policy, seeds "
        f"{sim.seed}..{sim.seed + sim.games - 1}): {sim.seconds:.2f} s, "
        f"{sim.games_per_second:.0f} games/s"
    ]
    if not sim.games:
        return lines
    lines.append(
        f"  turns: mean {statistics.fmean(sim.turns):.1f}, "
        f"min {min(sim.turns)}, max {max(sim.turns)}"
    )
    for colour in COLOURS:
        column = [c[colour] for c in sim.counts]
        lines.append(
            f"  {colour} tiles at the end: mean {statistics.fmean(column):.1f}, "
            f"min {min(column)}, max {max(column)}"
        )
    lines.append(
        f"  wins: black {sim.winners[BLACK]}, white {sim.winners[WHITE]}, "
        f"draws {sim.winners[None]}"
    )
    lines.append(
        "  ended by: " + ", ".join(f"{reason} {count}" for reason, count in sim.reasons.items())
    )
    return lines


def check_cellulae(
    catalogue: CellulaeCatalogue,
    games: int,
    seed: int = 0,
    progress: Callable[[int], None] | None = None,
) -> tuple[str, bool]:
    """The report of the ``check`` command for a Cellulae set, and whether it passed.

    ``games`` random games are played on each board the catalogue offers; ``progress``
    is called with the games played so far over all boards."""
    lines = [f"catalogue {catalogue.source}: valid (Cellulae, {catalogue.tile_total} tiles)"]
    facts, problems = set_lines(catalogue)
    lines += facts
    done = 0
    for board_size in catalogue.boards:
        offset = done

        def step(played: int, offset: int = offset) -> None:
            if progress is not None:
                progress(offset + played)

        sim = simulate_cellulae(board_size.side, games, seed, step)
        done += games
        lines += format_simulation(sim)
        problems += sim.problems
    lines += [f"problem: {problem}" for problem in problems]
    ok = not problems
    lines.append("check passed" if ok else f"check failed: {len(problems)} problem(s)")
    return "\n".join(lines) + "\n", ok


__all__ = [
    "CellulaeSimulation",
    "check_cellulae",
    "format_simulation",
    "most_turns",
    "set_lines",
    "simulate_cellulae",
]
