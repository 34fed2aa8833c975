"""Edgematch, a nine-tile edge-matching puzzle: the third game, a test-only plugin.

It exists to prove that a game is a plugin: it lives outside the package, registers
under the ``micropul_print.games`` entry-point group exactly as a separate pip package
would (tests/plugins/edgematch/edgematch-0.1.dist-info/entry_points.txt), and every
command (catalogue, check, position, build, rulebook) works on it with no change to
the core. Rules: nine square tiles, each edge one of four colours; the first tile goes
anywhere on a 3 x 3 grid, each later one on an empty cell beside a placed tile, turned
to any quarter, with every edge it shares matching the neighbour's colour. The puzzle is
solved when the grid is full; it is lost when no tile fits.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from micropul_print.base.errors import Diagnostic, UsageError, UserError, errors_in
from micropul_print.base.yamlsource import (
    check_keys,
    expect_int,
    expect_mapping,
    expect_sequence,
    expect_text,
    read_document,
)
from micropul_print.catalogue.header import CatalogueHeader
from micropul_print.draw.theme import Theme
from micropul_print.game.api import JSON, CheckReport
from micropul_print.game.plugin import GameInfo
from micropul_print.rulebook.games import GameRulebook

HERE = Path(__file__).parent
COLOURS = {"R": "#d62728", "G": "#2ca02c", "B": "#1f77b4", "Y": "#f2c500"}
SIDE = 3
TILE_MM = 30.0


@dataclass(frozen=True)
class EdgeTile:
    id: int
    edges: str  # top, right, bottom, left, each a letter of COLOURS

    def turned(self, rotation: int) -> str:
        """Edges after a clockwise quarter turn ``rotation`` times."""
        steps = rotation % 4
        return self.edges[-steps:] + self.edges[:-steps] if steps else self.edges


@dataclass(frozen=True)
class EdgeCatalogue:
    game: str
    name: str
    tiles: tuple[EdgeTile, ...]
    source: str = ""
    game_at: tuple[int, int] = field(default=(0, 0), compare=False)

    def to_json(self) -> JSON:
        return {"game": self.game, "name": self.name,
                "tiles": [{"id": t.id, "edges": t.edges} for t in self.tiles]}


def read_edgematch(header: CatalogueHeader, out: list[Diagnostic]) -> EdgeCatalogue | None:
    tiles: list[EdgeTile] = []
    for node in header.tiles:
        entry = expect_mapping(node, "a tile", out)
        if entry is None:
            continue
        out.extend(check_keys(entry, "tile", ["id", "edges"]))
        id_node, edges_node = entry.get("id"), entry.get("edges")
        tile_id = None if id_node is None else expect_int(id_node, "'id'", out)
        edges = None if edges_node is None else expect_text(edges_node, "'edges'", out)
        if edges is not None and edges_node is not None and (
                len(edges) != 4 or any(c not in COLOURS for c in edges)):
            out.append(edges_node.diagnostic(f"'edges' must be four of {''.join(COLOURS)} "
                                             f"(top, right, bottom, left), got {edges!r}"))
            edges = None
        if tile_id is not None and edges is not None:
            tiles.append(EdgeTile(tile_id, edges))
    if len(header.tiles) != SIDE * SIDE:
        out.append(header.tiles_node.diagnostic(
            f"Edgematch has {SIDE * SIDE} tiles, got {len(header.tiles)}"))
    if errors_in(out) or header.name is None:
        return None
    return EdgeCatalogue(header.game, header.name, tuple(tiles), header.source,
                         header.game_at)


Move = tuple[int, int, int, int]  # tile, x, y, rotation


class EdgeState:
    """The puzzle for one player, in the common engine shape."""

    players = 1

    def __init__(self, catalogue: EdgeCatalogue) -> None:
        self.tiles = {tile.id: tile for tile in catalogue.tiles}
        self.grid: dict[tuple[int, int], str] = {}  # cell -> edges as placed
        self.hand = sorted(self.tiles)
        self.moves: list[Move] = []

    def current_player(self) -> int:
        return 0

    def fits(self, edges: str, x: int, y: int) -> bool:
        if (x, y) in self.grid or not (0 <= x < SIDE and 0 <= y < SIDE):
            return False
        beside = False
        for side, (dx, dy) in enumerate(((0, -1), (1, 0), (0, 1), (-1, 0))):
            other = self.grid.get((x + dx, y + dy))
            if other is not None:
                beside = True
                if other[(side + 2) % 4] != edges[side]:
                    return False
        return beside or not self.grid

    def legal_actions(self) -> list[Move]:
        return [(tid, x, y, r) for tid in self.hand for y in range(SIDE) for x in range(SIDE)
                for r in range(4) if self.fits(self.tiles[tid].turned(r), x, y)]

    def why_illegal(self, move: Move) -> str | None:
        tid, x, y, r = move
        if tid not in self.hand:
            return f"tile {tid} is not in hand"
        if not self.fits(self.tiles[tid].turned(r), x, y):
            return "the edges do not match"
        return None

    def apply_action(self, move: Move) -> None:
        reason = self.why_illegal(move)
        if reason is not None:
            raise ValueError(f"illegal move {move}: {reason}")
        tid, x, y, r = move
        self.grid[(x, y)] = self.tiles[tid].turned(r)
        self.hand.remove(tid)
        self.moves.append(move)

    def undo(self) -> None:
        tid, x, y, _r = self.moves.pop()
        del self.grid[(x, y)]
        self.hand.append(tid)
        self.hand.sort()

    def clone(self) -> EdgeState:
        twin = EdgeState.__new__(EdgeState)
        twin.tiles, twin.grid, twin.hand = self.tiles, dict(self.grid), list(self.hand)
        twin.moves = list(self.moves)
        return twin

    def determinized(self, seed: int) -> EdgeState:
        return self.clone()

    def is_terminal(self) -> bool:
        return not self.legal_actions()

    def scores(self) -> tuple[float, ...]:
        return (float(len(self.grid)),)

    def returns(self) -> tuple[float, ...]:
        return (1.0 if len(self.grid) == SIDE * SIDE else 0.0,) if self.is_terminal() else (0.0,)

    def end_reason(self) -> str | None:
        if not self.is_terminal():
            return None
        return "solved" if len(self.grid) == SIDE * SIDE else "stuck"

    def turn(self) -> int:
        return len(self.moves)

    def action_to_json(self, move: Move) -> JSON:
        tid, x, y, r = move
        return {"tile": tid, "x": x, "y": y, "rotation": 90 * r}

    def action_from_json(self, data: JSON) -> Move:
        if not isinstance(data, dict) or set(data) != {"tile", "x", "y", "rotation"}:
            raise ValueError(f"not an Edgematch move: {data!r}")
        return int(data["tile"]), int(data["x"]), int(data["y"]), int(data["rotation"]) // 90

    def pieces(self) -> tuple[str, ...]:
        return tuple(str(tid) for tid in sorted(self.tiles))

    def piece_of(self, move: Move) -> str | None:
        return str(move[0])


def read_position(path: str | Path, catalogue: EdgeCatalogue) -> tuple[EdgeState, JSON]:
    """A position file (``placements: [{tile, x, y, rotation}]``) replayed, and its
    analysis: each placement's legality, the legal moves left, whether it is over."""
    def read(root: Any, out: list[Diagnostic]) -> list[tuple[Move, Any]] | None:
        mapping = expect_mapping(root, "a position", out)
        if mapping is None:
            return None
        out.extend(check_keys(mapping, "the position", ["placements"]))
        node = mapping.get("placements")
        items = None if node is None else expect_sequence(node, "'placements'", out)
        moves = []
        for item in items.items if items is not None else ():
            entry = expect_mapping(item, "a placement", out)
            if entry is None:
                continue
            out.extend(check_keys(entry, "placement", ["tile", "x", "y", "rotation"]))
            nodes = [entry.get(k) for k in ("tile", "x", "y", "rotation")]
            values = [None if node is None else expect_int(node, "a placement value", out)
                      for node in nodes]
            if all(v is not None for v in values):
                tid, x, y, rotation = (int(v) for v in values if v is not None)
                moves.append(((tid, x, y, rotation // 90), entry))
        return None if errors_in(out) else moves

    moves, diagnostics = read_document(path, read)
    if moves is None:
        raise UserError(diagnostics)
    state = EdgeState(catalogue)
    placements = []
    for move, _node in moves:
        reason = state.why_illegal(move)
        if reason is None:
            state.apply_action(move)
        placements.append({**state.action_to_json(move), "legal": reason is None,
                           "reason": reason})
    return state, {"placements": placements, "legal_moves": len(state.legal_actions()),
                   "over": state.is_terminal(), "end": state.end_reason()}


def face_drawing(tile: EdgeTile, bleed: float = 0.0) -> Any:
    """Four triangles meeting at the centre, one per edge, and the tile's number."""
    from micropul_print.draw.primitives import Drawing, Polygon, Rect, Text

    full, c = TILE_MM + 2 * bleed, bleed + TILE_MM / 2
    corners = [(0.0, 0.0), (full, 0.0), (full, full), (0.0, full)]
    items: list[Any] = [Rect(0.0, 0.0, full, full, fill="#ffffff")]
    for side, letter in enumerate(tile.edges):
        a, b = corners[side], corners[(side + 1) % 4]
        items.append(Polygon((a, b, (c, c)), fill=COLOURS[letter], stroke="#000000",
                             stroke_width=0.2))
    items.append(Text(c, c + 1.5, str(tile.id), 4.0, "#000000"))
    return Drawing(full, full, tuple(items))


def state_drawing(state: EdgeState) -> Any:
    """The grid with the tiles placed, turned as they lie, and the hand below it."""
    from micropul_print.draw.primitives import Drawing, Group, Rect

    gap = 2.0
    items: list[Any] = [Rect(x * TILE_MM, y * TILE_MM, TILE_MM, TILE_MM, stroke="#888888",
                             stroke_width=0.3) for y in range(SIDE) for x in range(SIDE)]
    for tid, x, y, rotation in state.moves:
        art = face_drawing(state.tiles[tid])
        items.append(Group(art.items, dx=x * TILE_MM, dy=y * TILE_MM, rotate=90 * rotation,
                           rotate_cx=TILE_MM / 2, rotate_cy=TILE_MM / 2))
    top = SIDE * TILE_MM + 3 * gap
    for number, tid in enumerate(state.hand):
        art = face_drawing(state.tiles[tid])
        items.append(Group(art.items, dx=number * (TILE_MM + gap), dy=top))
    width = max(SIDE * TILE_MM, len(state.hand) * (TILE_MM + gap))
    return Drawing(width, top + TILE_MM, tuple(items))


def pieces(catalogue: EdgeCatalogue) -> Any:
    """Nine tiles with a blank back, numbered 1 to 9 (data only: the core makes the kit)."""
    from micropul_print.game.pieces import KitPieces, Numbered, TileImages
    from micropul_print.sheets.pages import Card

    return KitPieces(
        name=catalogue.name, author="tests", card_size=(TILE_MM, TILE_MM),
        cards=lambda bleed: [Card(face_drawing(t, bleed)) for t in catalogue.tiles],
        images=TileImages(lambda bleed: [(f"tile-{t.id}", face_drawing(t, bleed))
                                         for t in catalogue.tiles],
                          lambda: state_drawing(EdgeState(catalogue))),
        numbered=Numbered([t.id for t in catalogue.tiles], catalogue.source))


class EdgeGame:
    info = GameInfo(name="edgematch", title="Edgematch",
                    summary="Edgematch: a nine-tile edge-matching puzzle (test plugin)",
                    player_counts=(1,), order=50, output_dir="edgematch",
                    numbered_pieces=True)

    def shipped_catalogue(self) -> Path:
        return HERE / "edgematch.yaml"

    def read_catalogue(self, header: CatalogueHeader,
                       out: list[Diagnostic]) -> EdgeCatalogue | None:
        return read_edgematch(header, out)

    def describe(self, catalogue: EdgeCatalogue) -> str:
        return "".join(f"{t.id}: {t.edges}\n" for t in catalogue.tiles)

    def simulated_games(self, catalogue: EdgeCatalogue, games: int) -> int:
        return games

    def check(self, catalogue: EdgeCatalogue, *, games: int, seed: int, strict: bool,
              progress: Callable[[int, int], None] | None) -> CheckReport:
        solved = 0
        for number in range(games):
            rng, state = random.Random(seed + number), EdgeState(catalogue)
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
            solved += state.end_reason() == "solved"
            if progress is not None:
                progress(number + 1, games)
        return CheckReport((f"{games} random games: {solved} solved",), ok=True)

    def analyse_position(self, path: str, catalogue: EdgeCatalogue, legal: str | None, *,
                         strict: bool) -> tuple[JSON, list[Diagnostic]]:
        if legal is not None:
            raise UsageError("Edgematch takes no --legal")
        return read_position(path, catalogue)[1], []

    def theme_problems(self, catalogue: EdgeCatalogue, theme: Theme) -> list[Diagnostic]:
        return []  # the faces use their own colours, not the theme's marks

    def pieces(self, catalogue: EdgeCatalogue, theme: Theme, *, numbers: bool) -> Any:
        return pieces(catalogue)

    @property
    def rulebook(self) -> GameRulebook:
        from edgematch.book_rules import EDGEMATCH

        return EDGEMATCH

    def variants(self, catalogue: EdgeCatalogue) -> tuple[str, ...]:
        return ("3x3",)

    def new_state(self, catalogue: EdgeCatalogue, *, players: int | None = None,
                  seed: int | None = None, variant: str | None = None) -> EdgeState:
        if players not in (None, 1):
            raise ValueError(f"Edgematch is a puzzle for 1 player, not {players}")
        return EdgeState(catalogue)

    def state_drawing(self, catalogue: EdgeCatalogue, theme: Theme, state: EdgeState) -> Any:
        return state_drawing(state)


GAME = EdgeGame()
