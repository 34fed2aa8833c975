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
from pathlib import Path

from micropul_print.base.errors import (
    Diagnostic,
    Severity,
    errors_in,
    failure_summary,
    printable,
    quoted,
)
from micropul_print.base.shown import shown_source
from micropul_print.game.api import CheckReport, seeds_of
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


# The official set: the catalogue shipped with the package.
OFFICIAL_NAME = "Cellulae"
# How many differences from the official set the report lists before "... and N more".
DIFFERENCES_SHOWN = 10


def claims_official(catalogue: CellulaeCatalogue) -> bool:
    """Whether the catalogue is named after the official set (``name: Cellulae``, in
    any case): a variant under that name is warned."""
    return catalogue.name.strip().casefold() == OFFICIAL_NAME.casefold()


def compare_with_official(
    catalogue: CellulaeCatalogue, official: CellulaeCatalogue
) -> list[tuple[str, tuple[int, int]]]:
    """How the set differs from the official one, each with where it is in the file:
    the author, the number and size of the tiles, the marks of the faces, the boards
    (a removed board: at 'boards')."""
    at = catalogue.key_at.get
    found: list[tuple[str, tuple[int, int]]] = []
    if catalogue.author != official.author:
        found.append((f"author {quoted(catalogue.author)}, official "
                      f"{quoted(official.author)}", at("author", (0, 0))))
    if catalogue.tile_total != official.tile_total:
        found.append((f"{catalogue.tile_total} tiles, official {official.tile_total}",
                      at("tile_count", (0, 0))))
    if catalogue.tile_size_mm != official.tile_size_mm:
        found.append((f"tiles of {catalogue.tile_size_mm:g} mm, official "
                      f"{official.tile_size_mm:g} mm", at("tile_size_mm", (0, 0))))
    for face in catalogue.faces:
        mark = official.face(face.colour).mark
        if face.mark != mark:
            where = (face.mark_where.line, face.mark_where.col) if face.mark_where else (0, 0)
            found.append((f"{face.colour} face marked {quoted(face.mark)}, official "
                          f"{quoted(mark)}", where))
    for board in catalogue.boards:
        if board.side not in official.sides:
            found.append((f"board {board.label} added", board.at))
    for board in official.boards:
        if board.side not in catalogue.sides:
            found.append((f"board {board.label} removed", at("boards", (0, 0))))
    return found


def official_lines(
    catalogue: CellulaeCatalogue, official: CellulaeCatalogue
) -> tuple[list[str], list[Diagnostic]]:
    """The report's lines on what the set is (the official set, or a variant and what
    differs, each at its place), and a warning if the set is named after the official
    set and differs from it."""
    differences = compare_with_official(catalogue, official)
    title = f"{official.name} by {official.author}"
    if not differences:
        return [f"official set ({title})"], []
    source = catalogue.source or "catalogue"
    count = len(differences)
    ways = "1 way" if count == 1 else f"{count} ways"
    lines = [f"variant of {title}: it differs in {ways}"]
    for text, (line, col) in differences[:DIFFERENCES_SHOWN]:
        where = f"{source}:{line}:{col}" if line else source
        lines.append(printable(f"  {where}: {text}"))
    if count > DIFFERENCES_SHOWN:
        lines.append(f"  ... and {count - DIFFERENCES_SHOWN} more")
    if not claims_official(catalogue):
        return lines, []
    line, col = catalogue.key_at.get("name", (0, 0))
    return lines, [Diagnostic(
        source, line, col,
        f"the set is named {quoted(catalogue.name)} like the official set ({title}) but "
        f"differs from it in {ways} (listed in the report): give a variant a name of its own",
        Severity.WARNING,
    )]


def set_lines(catalogue: CellulaeCatalogue) -> tuple[list[str], list[Diagnostic]]:
    """What the set is, and the problems found with it, each at its board. (The reader
    already refuses a set too small for a board; the check keeps the fact for sets made
    in code.) Cellulae has one kind of tile and each board once, so nothing can repeat."""
    source = catalogue.source or "catalogue"
    white, black = catalogue.face(WHITE), catalogue.face(BLACK)
    lines = [
        f"{catalogue.name} by {catalogue.author}: {catalogue.tile_total} tiles of "
        f"{catalogue.tile_size_mm:g} mm, white face ({white.mark}) and black face ({black.mark})",
    ]
    problems: list[Diagnostic] = []
    for board_size in catalogue.boards:
        line, col = board_size.at
        short = board_size.tiles - catalogue.tile_total
        covered = short <= 0
        enough = "the set has enough" if covered else f"the set is {short} short"
        lines.append(f"board {board_size.label}: {board_size.tiles} tiles, {enough}")
        if not covered:
            problems.append(Diagnostic(
                source, line, col,
                f"the set has too few tiles for the {board_size.label} board"))
        start = Board(board_size.side)
        for colour in COLOURS:
            if not start.replications(colour):
                problems.append(Diagnostic(
                    source, line, col,
                    f"on the {board_size.label} board {colour} cannot replicate from the start"))
    return lines, problems


def format_simulation(sim: CellulaeSimulation) -> list[str]:
    if not sim.games:
        return [f"no games simulated on {sim.side} × {sim.side}"]
    lines = [
        f"{sim.games} {'game' if sim.games == 1 else 'games'} on {sim.side} × {sim.side} "
        f"(random policy, {seeds_of(sim.seed, sim.games)}): {sim.seconds:.2f} s, "
        f"{sim.games_per_second:.0f} games/s"
    ]
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
    official: CellulaeCatalogue | None = None,
    *,
    strict: bool = False,
) -> CheckReport:
    """The report of the ``check`` command for a Cellulae set: its lines, its problems
    as diagnostics at their place in the file, and whether it passed.

    The set is compared with ``official`` (the shipped catalogue; None: not compared).
    ``games`` random games are played on each board the catalogue offers; ``progress``
    is called with the games played so far over all boards. It fails on an error, or on
    a warning too when ``strict``."""
    shown = shown_source(catalogue.source, [] if official is None else [Path(official.source)])
    lines = [f"catalogue {shown}: valid (Cellulae, {catalogue.tile_total} tiles)"]
    problems: list[Diagnostic] = []
    if official is not None:
        what, problems = official_lines(catalogue, official)
        lines += what
    facts, found = set_lines(catalogue)
    lines += facts
    problems += found
    done = 0
    for board_size in catalogue.boards:
        offset = done

        def step(played: int, offset: int = offset) -> None:
            if progress is not None:
                progress(offset + played)

        sim = simulate_cellulae(board_size.side, games, seed, step)
        done += games
        lines += format_simulation(sim)
        line, col = board_size.at
        problems += [Diagnostic(catalogue.source or "catalogue", line, col, problem)
                     for problem in sim.problems]
    failed = errors_in(problems, strict)
    ok = not failed
    lines.append("check passed" if ok else failure_summary("check", failed))
    diagnostics = tuple(sorted(problems, key=lambda d: (d.line, d.col)))
    return CheckReport(tuple(lines), diagnostics, ok=ok)


__all__ = [
    "CellulaeSimulation",
    "check_cellulae",
    "claims_official",
    "compare_with_official",
    "format_simulation",
    "most_turns",
    "official_lines",
    "set_lines",
    "simulate_cellulae",
]
