"""Facts about a tile set, checked with the rules engine, and simulated random games.

Pure apart from the clock (games per second) and an optional progress callback: the
``check`` command prints what these functions return.
"""

from __future__ import annotations

import statistics
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from micropul_print.base.errors import Diagnostic, Severity
from micropul_print.games.micropul.model import (
    BLACK,
    CATALYSTS,
    DOT,
    DOUBLE,
    EMPTY,
    MICROPUL,
    PLUS,
    QUADRANT_NAMES,
    WHITE,
    Catalogue,
    Tile,
)

from .board import Board
from .game import END_REASONS, Game
from .tiles import (
    DX,
    DY,
    OPPOSITE,
    PAIR,
    QUADRANT_SIDES,
    ROTATIONS,
    SIDE_QUADRANTS,
    tileset,
)

CATALYST_NAMES = {DOT: "one-dot catalyst", DOUBLE: "two-dot catalyst", PLUS: "plus catalyst"}


@dataclass(frozen=True)
class SetFacts:
    tiles: int
    symbols: dict[str, int]  # quadrant value -> count over all faces (a big tile: 1 micropul)
    big: dict[str, int]  # colour -> big micropul tiles
    catalysts_by_colour: dict[str, dict[str, int]]  # tile colour -> catalyst kind -> count
    swap_pairs: int  # tiles 2k-1 / 2k that are colour swaps of each other
    same_up_to_rotation: list[tuple[int, int, int]]  # (a, b, rotation of a that gives b)
    catalysts: int  # catalysts on the set (a big tile's centre counts 1)
    catalysts_needing_third_tile: list[str]  # activated only with help of a third tile
    diagnostics: list[Diagnostic] = field(default_factory=list)


def _rotations(quadrants: tuple[str, ...]) -> list[tuple[str, ...]]:
    return [tuple(quadrants[(i - step) % 4] for i in range(4)) for step in range(4)]


def _key(tile: Tile) -> tuple[object, ...]:
    """What makes two faces the same picture (a big tile's catalyst included)."""
    return (tile.big.catalyst if tile.big else None, tile.quadrants)


def _tile_colour(tile: Tile) -> str:
    if tile.big is not None:
        return tile.big.colour
    counts = Counter(q for q in tile.quadrants if q in MICROPUL)
    if counts[WHITE] == counts[BLACK]:
        return "mixed"
    return WHITE if counts[WHITE] > counts[BLACK] else BLACK


def set_facts(catalogue: Catalogue) -> SetFacts:
    """Count symbols and check the set: colour swaps, identical tiles, every tile able to
    attach, every catalyst able to activate. Problems are diagnostics (file: the
    catalogue; no line: they concern the set as a whole)."""
    source = catalogue.source or "catalogue"
    out: list[Diagnostic] = []

    def report(message: str, severity: Severity = Severity.ERROR) -> None:
        out.append(Diagnostic(source, 0, 0, message, severity))

    symbols: Counter[str] = Counter()
    big: Counter[str] = Counter()
    by_colour: dict[str, Counter[str]] = {}
    catalyst_count = 0
    for tile in catalogue.tiles:
        colour = _tile_colour(tile)
        kinds = by_colour.setdefault(colour, Counter())
        if tile.big is not None:
            symbols[tile.big.colour] += 1
            symbols[tile.big.catalyst] += 1
            big[tile.big.colour] += 1
            kinds[tile.big.catalyst] += 1
            catalyst_count += 1
        else:
            symbols.update(tile.quadrants)
            for q in tile.quadrants:
                if q in CATALYSTS:
                    kinds[q] += 1
                    catalyst_count += 1

    # Colour swaps: every tile's swap is in the set; the official set pairs 2k-1 / 2k.
    faces: dict[tuple[object, ...], list[int]] = {}
    for tile in catalogue.tiles:
        for quads in _rotations(tile.quadrants):
            faces.setdefault((tile.big.catalyst if tile.big else None, quads), []).append(tile.id)
    for tile in catalogue.tiles:
        swap = (tile.big.catalyst if tile.big else None, tile.colour_swapped())
        if not faces.get(swap):
            report(f"tile {tile.id} has no colour-swapped twin in the set")
    swap_pairs = 0
    for tile in catalogue.tiles:
        if tile.id % 2 == 0 or tile.id + 1 not in catalogue:
            continue
        twin = catalogue.tile(tile.id + 1)
        swap = (tile.big.catalyst if tile.big else None, tile.colour_swapped())
        if twin.id in faces.get(swap, []):
            swap_pairs += 1
        else:
            report(
                f"tiles {tile.id} and {twin.id} are not colour swaps of each other "
                "(the official numbering pairs tiles 2k-1 and 2k)",
                Severity.WARNING,
            )

    # Tiles identical up to rotation: allowed (35 and 36 in the official set), noted.
    same: list[tuple[int, int, int]] = []
    tiles = catalogue.tiles
    for i, a in enumerate(tiles):
        for b in tiles[i + 1 :]:
            if _key(a)[0] != _key(b)[0] or (a.big is None) != (b.big is None):
                continue
            for rotation in ROTATIONS:
                if a.rotated(rotation) == b.quadrants:
                    same.append((a.id, b.id, rotation))
                    report(
                        f"tiles {a.id} and {b.id} are identical up to rotation "
                        f"(tile {a.id} turned {rotation} degrees is tile {b.id})",
                        Severity.NOTICE,
                    )
                    break

    for tile in catalogue.tiles:
        if not _can_attach(catalogue, tile):
            report(f"tile {tile.id} cannot be placed legally next to any other tile of the set")

    helped: list[str] = []
    for tile in catalogue.tiles:
        positions: list[tuple[int | None, str]] = (
            [(None, tile.big.catalyst)]
            if tile.big is not None
            else [(q, v) for q, v in enumerate(tile.quadrants) if v in CATALYSTS]
        )
        for position, kind in positions:
            where = "centre" if position is None else QUADRANT_NAMES[position]
            example = activation_example(catalogue, tile, position)
            if example is None:
                report(
                    f"tile {tile.id}: the {CATALYST_NAMES[kind]} at {where} can never be activated"
                )
            elif len(example) > 2:
                helped.append(f"{tile.id} {where}")

    return SetFacts(
        tiles=len(catalogue.tiles),
        symbols={v: symbols[v] for v in (WHITE, BLACK, DOT, DOUBLE, PLUS, EMPTY)},
        big={c: big[c] for c in (WHITE, BLACK)},
        catalysts_by_colour={c: dict(k) for c, k in sorted(by_colour.items())},
        swap_pairs=swap_pairs,
        same_up_to_rotation=same,
        catalysts=catalyst_count,
        catalysts_needing_third_tile=helped,
        diagnostics=out,
    )


def _can_attach(catalogue: Catalogue, tile: Tile) -> bool:
    """Whether ``tile`` can be placed next to some other tile of the set."""
    for other in catalogue.tiles:
        if other.id == tile.id:
            continue
        board = Board(catalogue)
        board.place(other.id, 0, 0, 0, check=False)
        if board.legal_placements(tile.id):
            return True
    return False


def activation_example(
    catalogue: Catalogue, tile: Tile, quadrant: int | None
) -> list[tuple[int, int, int, int]] | None:
    """Placements (tile, x, y, rotation), in order, that end by activating the catalyst of
    ``tile`` (at (0, 0), rotation 0) at ``quadrant`` (None: a big tile's centre), checked
    on a real board; None if no two-tile contact or square of four tiles does it."""
    ts = tileset(catalogue)
    origin = ts.oid(tile.id, 0)
    target = ("centre" if quadrant is None else QUADRANT_NAMES[quadrant], 0, 0)
    sides = range(4) if quadrant is None else QUADRANT_SIDES[quadrant]
    others = [ts.oid(t.id, r) for t in catalogue.tiles if t.id != tile.id for r in ROTATIONS]

    def activates(placements: list[tuple[int, int, int, int]]) -> bool:
        board = Board(ts)
        board.place(*placements[0], check=False)
        for placement in placements[1:-1]:
            if board.legality(*placement) is not None:
                return False
            board.place(*placement)
        if board.legality(*placements[-1]) is not None:
            return False
        done = board.place(*placements[-1])
        return any((c.position, c.x, c.y) == target for c in done.activated)

    def spec(oid: int, x: int, y: int) -> tuple[int, int, int, int]:
        return ts.tile_of[oid], x, y, ts.rotation_of[oid]

    start = (tile.id, 0, 0, 0)
    edge, colour = ts.edge, ts.colour
    for side in sides:
        back = OPPOSITE[side]
        for u in others:
            if PAIR[edge[origin][side]][edge[u][back]] != 1:
                continue  # a lone neighbour needs a link and no clash on this edge
            example = [start, spec(u, DX[side], DY[side])]
            if activates(example):
                return example
    for side in sides:
        back = OPPOSITE[side]
        # Quadrants of the neighbour that face the catalyst (any one of them for a big tile).
        facing = (
            [SIDE_QUADRANTS[back][0], SIDE_QUADRANTS[back][1]]
            if quadrant is None
            else [SIDE_QUADRANTS[back][SIDE_QUADRANTS[side].index(quadrant)]]
        )
        for perp in ((side + 1) % 4, (side + 3) % 4):
            # z beside the catalyst's tile, w beside z and u: find the (w, z) pairs first.
            helpers: dict[int, list[int]] = {}
            for w in others:
                for z in others:
                    if (
                        ts.tile_of[z] != ts.tile_of[w]
                        and PAIR[edge[origin][perp]][edge[z][OPPOSITE[perp]]] == 1
                        and PAIR[edge[z][side]][edge[w][back]] == 1
                    ):
                        helpers.setdefault(w, []).append(z)
            for u in others:
                if not any(colour[u][q] for q in facing):
                    continue
                if PAIR[edge[origin][side]][edge[u][back]] & 2:
                    continue
                for w, zs in helpers.items():
                    if ts.tile_of[w] == ts.tile_of[u]:
                        continue
                    if PAIR[edge[u][perp]][edge[w][OPPOSITE[perp]]] != 1:
                        continue
                    for z in zs:
                        if ts.tile_of[z] == ts.tile_of[u]:
                            continue
                        example = [
                            start,
                            spec(z, DX[perp], DY[perp]),
                            spec(w, DX[perp] + DX[side], DY[perp] + DY[side]),
                            spec(u, DX[side], DY[side]),
                        ]
                        if activates(example):
                            return example
    return None


@dataclass(frozen=True)
class Simulation:
    players: int
    games: int
    seed: int
    seconds: float
    turns: list[int]
    scores: list[tuple[int, ...]]
    winners: list[tuple[int, ...]]
    reasons: dict[str, int]

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")


def simulate(
    catalogue: Catalogue,
    games: int,
    seed: int = 0,
    players: int = 2,
    progress: Callable[[int], None] | None = None,
) -> Simulation:
    """``games`` random-policy games (seeds seed, seed + 1, ...); ``progress`` is called
    with the number of games played so far, every 1% or so."""
    ts = tileset(catalogue)
    turns: list[int] = []
    scores: list[tuple[int, ...]] = []
    winners: list[tuple[int, ...]] = []
    reasons: Counter[str] = Counter()
    every = max(1, games // 100)
    began = time.perf_counter()
    for i in range(games):
        outcome = Game(ts, players, seed + i).play_random()
        turns.append(outcome.turns)
        scores.append(outcome.scores)
        winners.append(outcome.winners)
        reasons[outcome.reason] += 1
        if progress is not None and (i + 1) % every == 0:
            progress(i + 1)
    seconds = time.perf_counter() - began
    return Simulation(
        players=players,
        games=games,
        seed=seed,
        seconds=seconds,
        turns=turns,
        scores=scores,
        winners=winners,
        reasons={r: reasons[r] for r in END_REASONS},
    )


def format_facts(facts: SetFacts) -> list[str]:
    s = facts.symbols
    lines = [
        f"tiles: {facts.tiles}",
        f"micropul: {s[WHITE]} white, {s[BLACK]} black "
        f"(big micropul, counted once each: {facts.big[WHITE]} white, {facts.big[BLACK]} black)",
        f"catalysts: {s[DOT]} one-dot, {s[DOUBLE]} two-dot, {s[PLUS]} plus; "
        f"blank quadrants: {s[EMPTY]}",
    ]
    for colour, kinds in facts.catalysts_by_colour.items():
        text = ", ".join(f"{kinds.get(k, 0)} {k}" for k in CATALYSTS)
        lines.append(f"catalysts on {colour} tiles: {text}")
    lines.append(f"colour-swap pairs (tiles 2k-1, 2k): {facts.swap_pairs}")
    if facts.same_up_to_rotation:
        pairs = ", ".join(f"{a} and {b}" for a, b, _ in facts.same_up_to_rotation)
        lines.append(f"identical up to rotation: {pairs}")
    lines.append(
        f"catalysts that can be activated: {facts.catalysts - _failed(facts)} of {facts.catalysts}"
    )
    if facts.catalysts_needing_third_tile:
        lines.append(
            "  only with the help of more tiles (nothing on the catalyst's side can hold a "
            "tile): " + ", ".join(facts.catalysts_needing_third_tile)
        )
    return lines


def _failed(facts: SetFacts) -> int:
    return sum("can never be activated" in d.message for d in facts.diagnostics)


def format_simulation(sim: Simulation) -> list[str]:
    mode = "two-player" if sim.players == 2 else "solitaire"
    lines = [
        f"{sim.games} {mode} games (random policy, seeds {sim.seed}..{sim.seed + sim.games - 1}): "
        f"{sim.seconds:.2f} s, {sim.games_per_second:.0f} games/s"
    ]
    if not sim.games:
        return lines
    lines.append(
        f"  turns: mean {statistics.fmean(sim.turns):.1f}, "
        f"min {min(sim.turns)}, max {max(sim.turns)}"
    )
    for p in range(sim.players):
        column = [s[p] for s in sim.scores]
        lines.append(
            f"  score of player {p + 1}: mean {statistics.fmean(column):.1f}, "
            f"min {min(column)}, max {max(column)}"
        )
    if sim.players == 2:
        wins = Counter(w[0] if len(w) == 1 else 0 for w in sim.winners)
        lines.append(f"  wins: player 1 {wins[1]}, player 2 {wins[2]}, ties {wins[0]}")
    lines.append(
        "  ended by: " + ", ".join(f"{reason} {count}" for reason, count in sim.reasons.items())
    )
    return lines


__all__ = [
    "SetFacts",
    "Simulation",
    "activation_example",
    "format_facts",
    "format_simulation",
    "set_facts",
    "simulate",
]
