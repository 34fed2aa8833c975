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

from micropul_print.base.errors import Diagnostic, Severity, printable, quoted
from micropul_print.game.api import seeds_of
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
from micropul_print.games.micropul.rules.game import END_REASONS, Match
from micropul_print.games.micropul.rules.tiles import (
    DX,
    DY,
    OPPOSITE,
    PAIR,
    QUADRANT_SIDES,
    ROTATIONS,
    SIDE_QUADRANTS,
    tileset,
)

# The official set: the catalogue shipped with the package, of this version of the game.
OFFICIAL_NAME = "Micropul"
OFFICIAL_VERSION = "1.2.1"
OFFICIAL = f"{OFFICIAL_NAME} {OFFICIAL_VERSION}"
# How many differences from the official set the report lists before "... and N more".
DIFFERENCES_SHOWN = 10

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


def _canonical(tile: Tile) -> tuple[object, ...]:
    """The same for two tiles exactly when one is the other turned: a big tile's
    catalyst, and the least of the face's four rotations."""
    return (tile.big.catalyst if tile.big else None, min(_rotations(tile.quadrants)))


def _tile_colour(tile: Tile) -> str:
    if tile.big is not None:
        return tile.big.colour
    counts = Counter(q for q in tile.quadrants if q in MICROPUL)
    if counts[WHITE] == counts[BLACK]:
        return "mixed"
    return WHITE if counts[WHITE] > counts[BLACK] else BLACK


def claims_official(catalogue: Catalogue) -> bool:
    """Whether the catalogue is named after the official set (``name: Micropul``, in
    any case): a variant under that name is warned, since its files and rulebooks would
    carry the official set's name."""
    return catalogue.name.strip().casefold() == OFFICIAL_NAME.casefold()


# A rotation (clockwise degrees) as the notices say it: the least angle and its way
# ("turned 270 degrees" left the way unsaid, and a tile differs each way).
_TURNS = {90: "90 degrees clockwise", 180: "180 degrees", 270: "90 degrees anticlockwise"}


def set_facts(catalogue: Catalogue) -> SetFacts:
    """Count symbols and check the set: colour swaps, tiles repeated (up to rotation),
    every tile able to attach, every catalyst able to activate. Problems are diagnostics
    at the tile they concern (file: the catalogue). The colour pairing is a fact of the
    official set, which holds it: a set that breaks it is a variant (what makes a set
    the official one is its tiles, compare_with_official), and is told so in notices."""
    source = catalogue.source or "catalogue"
    out: list[Diagnostic] = []

    def report(message: str, severity: Severity = Severity.ERROR, tile: int = 0) -> None:
        line, col = catalogue.tile_at.get(tile, (0, 0))
        out.append(Diagnostic(source, line, col, message, severity))

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
            report(f"tile {tile.id} has no colour-swapped twin in the set", Severity.NOTICE,
                   tile.id)
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
                Severity.NOTICE,
                twin.id,
            )

    # Tiles identical up to rotation: allowed (35 and 36 in the official set: one
    # physical tile, whichever way it is turned), noted at the later tile, naming the
    # first tile of its class, so that a large generated set gets one notice per
    # repeated tile, not one per pair. Found by canonical face in a dict: linear.
    same: list[tuple[int, int, int]] = []
    first_of: dict[tuple[object, ...], Tile] = {}
    for tile in catalogue.tiles:
        first = first_of.setdefault(_canonical(tile), tile)
        if first is tile:
            continue
        rotation = next(r for r in ROTATIONS if first.rotated(r) == tile.quadrants)
        same.append((first.id, tile.id, rotation))
    same.sort()
    for a, b, rotation in same:
        line = catalogue.tile_at.get(a, (0, 0))[0]
        at = f" (line {line})" if line else ""
        report(
            f"tile {b} is an exact duplicate of tile {a}{at}"
            if rotation == 0
            else f"tile {b} is the same as tile {a}{at} turned {_TURNS[rotation]}",
            Severity.NOTICE,
            b,
        )

    attachable = _attachable(catalogue)
    for tile in catalogue.tiles:
        if tile.id not in attachable:
            report(
                f"tile {tile.id} cannot be placed legally next to any other tile of the set",
                tile=tile.id,
            )

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
                    f"tile {tile.id}: the {CATALYST_NAMES[kind]} at {where} can never be activated",
                    tile=tile.id,
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


@dataclass(frozen=True)
class Difference:
    """One way a set differs from the official set, at the tile it concerns (a removed
    tile: at the catalogue's 'tiles' key)."""

    tile: int
    kind: str  # "changed", "added" or "removed"
    text: str  # the sentence the report shows
    at: tuple[int, int]


@dataclass(frozen=True)
class Comparison:
    """A set compared with the official set tile by tile (tile N with official tile N,
    either turned any way: a tile turned 90 degrees is the same physical tile)."""

    claimed: bool  # the catalogue is named after the official set (claims_official)
    differences: list[Difference]  # by tile number

    @property
    def official(self) -> bool:
        return not self.differences

    def count(self, kind: str) -> int:
        return sum(d.kind == kind for d in self.differences)


def compare_with_official(catalogue: Catalogue, official: Catalogue) -> Comparison:
    """How ``catalogue`` differs from ``official`` (the shipped catalogue): tiles
    changed (and, when a changed tile is another official tile, which), added and
    removed, by number. Linear: one dict of the official faces."""
    official_of: dict[tuple[object, ...], int] = {}
    for tile in official.tiles:
        official_of.setdefault(_canonical(tile), tile.id)
    differences: list[Difference] = []
    for tile in catalogue.tiles:
        at = catalogue.tile_at.get(tile.id, (0, 0))
        face = tile.face_text()
        if tile.id not in official:
            other = official_of.get(_canonical(tile))
            also = f" (official tile {other})" if other is not None else ""
            differences.append(Difference(tile.id, "added", f"tile {tile.id} added: {face}{also}",
                                          at))
            continue
        was = official.tile(tile.id)
        if _canonical(tile) == _canonical(was):
            if tile.start != was.start:
                now = "now the start tile" if tile.start else "no longer the start tile"
                differences.append(Difference(tile.id, "changed", f"tile {tile.id} changed: "
                                              f"{now}", at))
            continue
        other = official_of.get(_canonical(tile))
        also = f" (official tile {other})" if other is not None else ""
        differences.append(Difference(
            tile.id, "changed",
            f"tile {tile.id} changed: {face}{also}, official tile {tile.id} is "
            f"{was.face_text()}", at))
    for tile in official.tiles:
        if tile.id not in catalogue:
            differences.append(Difference(tile.id, "removed", f"tile {tile.id} removed: "
                                          f"{tile.face_text()}", catalogue.tiles_at))
    differences.sort(key=lambda d: d.tile)
    return Comparison(claims_official(catalogue), differences)


def format_comparison(catalogue: Catalogue, comparison: Comparison) -> list[str]:
    """The report's lines on what the set is: the official set, or a variant of it and
    its first differences, each at its place in the catalogue."""
    if comparison.official:
        return [f"official set ({OFFICIAL})"]
    counts = ", ".join(_tiles(comparison.count(kind)) + f" {kind}"
                       for kind in ("changed", "added", "removed"))
    lines = [f"variant of {OFFICIAL}: {counts}"]
    source = catalogue.source or "catalogue"
    for difference in comparison.differences[:DIFFERENCES_SHOWN]:
        line, col = difference.at
        where = f"{source}:{line}:{col}" if line else source
        lines.append(printable(f"  {where}: {difference.text}"))
    more = len(comparison.differences) - DIFFERENCES_SHOWN
    if more > 0:
        lines.append(f"  ... and {more} more")
    return lines


def comparison_problems(catalogue: Catalogue, comparison: Comparison) -> list[Diagnostic]:
    """A warning when the catalogue is named after the official set and is not it."""
    if not comparison.claimed or comparison.official:
        return []
    line, col = catalogue.name_at
    count = len(comparison.differences)
    return [Diagnostic(
        catalogue.source or "catalogue", line, col,
        f"the set is named {quoted(catalogue.name)} like the official set ({OFFICIAL}) "
        f"but differs from it in {_tiles(count)} (listed in the report): give a variant a "
        "name of its own",
        Severity.WARNING,
    )]


def _tiles(count: int) -> str:
    return f"{count} tile" if count == 1 else f"{count} tiles"


def _attachable(catalogue: Catalogue) -> set[int]:
    """Tiles that can be placed next to some other tile of the set (that other tile at
    rotation 0, on any side): a link and no clash over the one shared edge. Counted by
    edge code, so linear in the size of the set."""
    ts = tileset(catalogue)
    # (side, edge code) -> tiles showing that edge there at rotation 0.
    showing: dict[tuple[int, int], set[int]] = {}
    for index, tile_id in enumerate(ts.tile_ids):
        for side in range(4):
            showing.setdefault((side, ts.edge[4 * index][side]), set()).add(tile_id)
    found = set()
    for index, tile_id in enumerate(ts.tile_ids):
        mask = ts.tile_mask[index]
        oids = [oid for oid in range(4 * index, 4 * index + 4) if mask >> oid & 1]
        if any(
            len(tiles) > (tile_id in tiles)
            for side in range(4)
            for other in range(9)
            if (tiles := showing.get((side, other)))
            and any(PAIR[ts.edge[oid][OPPOSITE[side]]][other] == 1 for oid in oids)
        ):
            found.add(tile_id)
    return found


# Edge codes that link with an edge code and do not clash with it.
_LINKS = tuple(tuple(b for b in range(9) if PAIR[a][b] == 1) for a in range(9))


class _Classes:
    """Orientation ids grouped by the edge codes they show on two sides, in ascending
    order: what activation_example searches instead of every pair of orientations."""

    def __init__(self, catalogue: Catalogue) -> None:
        self.ts = tileset(catalogue)
        self._by: dict[tuple[int, int], dict[tuple[int, int], list[int]]] = {}

    def by(self, first: int, second: int) -> dict[tuple[int, int], list[int]]:
        """(edge code on side ``first``, edge code on side ``second``) -> oids."""
        found = self._by.get((first, second))
        if found is None:
            found = self._by[(first, second)] = {}
            for oid, edges in enumerate(self.ts.edge):
                found.setdefault((edges[first], edges[second]), []).append(oid)
        return found

    def first(self, oids: list[int], excluded: tuple[int, ...]) -> int | None:
        """The first of ``oids`` whose tile is not excluded."""
        tile_of = self.ts.tile_of
        for oid in oids:
            if tile_of[oid] not in excluded:
                return oid
        return None


_CLASSES: dict[int, _Classes] = {}


def _classes(catalogue: Catalogue) -> _Classes:
    found = _CLASSES.get(id(catalogue))
    if found is None or found.ts.catalogue is not catalogue:
        _CLASSES.clear()  # one catalogue at a time: set_facts asks per catalyst
        found = _CLASSES[id(catalogue)] = _Classes(catalogue)
    return found


def activation_example(
    catalogue: Catalogue, tile: Tile, quadrant: int | None
) -> list[tuple[int, int, int, int]] | None:
    """Placements (tile, x, y, rotation), in order, that end by activating the catalyst of
    ``tile`` (at (0, 0), rotation 0) at ``quadrant`` (None: a big tile's centre); None if
    no two-tile contact or square of four tiles does it.

    The first example in the order of a plain search (sides of the catalyst; then the
    other tiles by orientation id: the neighbour u, or for a square the u, w, z
    lexicographically), found through tiles grouped by edge codes: linear in the set,
    not quadratic. The tests place every example on a real board (the reference search
    in tests/engines/reference/setcheck.py does, and must find the same example)."""
    found = _classes(catalogue)
    ts = found.ts
    origin = ts.oid(tile.id, 0)
    sides = range(4) if quadrant is None else QUADRANT_SIDES[quadrant]
    tile_of, edge = ts.tile_of, ts.edge
    alone = (tile.id,)

    def facing_ok(side: int, code: int) -> bool:
        """A neighbour on ``side`` with this edge code has a micropul on the catalyst."""
        colours = (code // 3, code % 3)
        if quadrant is None:
            return any(colours)
        return colours[SIDE_QUADRANTS[side].index(quadrant)] != 0

    def spec(oid: int, x: int, y: int) -> tuple[int, int, int, int]:
        return tile_of[oid], x, y, ts.rotation_of[oid]

    start = (tile.id, 0, 0, 0)
    for side in sides:
        back = OPPOSITE[side]
        by_back = found.by(back, back)
        neighbours = [
            first
            for code in _LINKS[edge[origin][side]]
            if facing_ok(side, code)
            and (first := found.first(by_back.get((code, code), []), alone)) is not None
        ]
        if neighbours:
            return [start, spec(min(neighbours), DX[side], DY[side])]
    for side in sides:
        back = OPPOSITE[side]
        for perp in ((side + 1) % 4, (side + 3) % 4):
            square = _square(found, tile.id, origin, side, perp, facing_ok)
            if square is not None:
                u, w, z = square
                return [
                    start,
                    spec(z, DX[perp], DY[perp]),
                    spec(w, DX[perp] + DX[side], DY[perp] + DY[side]),
                    spec(u, DX[side], DY[side]),
                ]
    return None


def _square(
    found: _Classes,
    tile_id: int,
    origin: int,
    side: int,
    perp: int,
    facing_ok: Callable[[int, int], bool],
) -> tuple[int, int, int] | None:
    """The smallest (u, w, z) of a square around the catalyst's tile (at the origin): z
    beside it on ``perp``, w beside z (diagonal to the origin), u on ``side`` beside
    both, each placed legally in that order, u's micropul on the catalyst, four tiles."""
    ts = found.ts
    tile_of, edge = ts.tile_of, ts.edge
    back, across = OPPOSITE[side], OPPOSITE[perp]
    # z: links with the origin over perp; grouped by what it shows w (its side edge).
    by_z = found.by(across, side)
    z_lists: list[list[list[int]]] = [
        [
            by_z[(code, shown)]
            for shown in range(9)
            if PAIR[shown][w_back] == 1
            for code in _LINKS[edge[origin][perp]]
            if (code, shown) in by_z
        ]
        for w_back in range(9)
    ]
    by_w = found.by(across, back)
    memo: dict[tuple[int, tuple[int, ...]], tuple[int, int] | None] = {}

    def best_wz(u_perp: int, excluded: tuple[int, ...]) -> tuple[int, int] | None:
        key = (u_perp, excluded)
        if key in memo:
            return memo[key]
        best: tuple[int, int] | None = None
        for w_across in _LINKS[u_perp]:
            for w_back in range(9):
                ws = by_w.get((w_across, w_back))
                if not ws or not z_lists[w_back]:
                    continue
                for w in ws:
                    if best is not None and w > best[0]:
                        break
                    if tile_of[w] in excluded:
                        continue
                    zs = [
                        z
                        for candidates in z_lists[w_back]
                        if (z := found.first(candidates, (*excluded, tile_of[w]))) is not None
                    ]
                    if zs:
                        best = (w, min(zs))
                        break
        memo[key] = best
        return best

    result: tuple[int, int, int] | None = None
    for (u_back, u_perp), us in found.by(back, perp).items():
        if PAIR[edge[origin][side]][u_back] & 2 or not facing_ok(side, u_back):
            continue
        if result is not None and us[0] > result[0]:
            continue
        if best_wz(u_perp, (tile_id,)) is None:
            continue
        for u in us:
            if result is not None and u > result[0]:
                break
            if tile_of[u] == tile_id:
                continue
            wz = best_wz(u_perp, (tile_id, tile_of[u]))
            if wz is not None:
                result = (u, *wz)
                break
    return result


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
        outcome = Match(ts, players, seed + i).play_random()
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
    if not sim.games:
        return [f"no {mode} games simulated"]
    lines = [
        f"{sim.games} {mode} {'game' if sim.games == 1 else 'games'} (random policy, "
        f"{seeds_of(sim.seed, sim.games)}): "
        f"{sim.seconds:.2f} s, {sim.games_per_second:.0f} games/s"
    ]
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
    "OFFICIAL",
    "Comparison",
    "Difference",
    "SetFacts",
    "Simulation",
    "activation_example",
    "claims_official",
    "compare_with_official",
    "comparison_problems",
    "format_comparison",
    "format_facts",
    "format_simulation",
    "set_facts",
    "simulate",
]
