"""Position files: tiles set down on the table, and stones on them (the public format
is in docs/contracts.md, "Position file").

```yaml
placements:                 # in order; the first tile is set down without a legality check
  - {tile: 41, x: 0, y: 0, rotation: 0}
  - {tile: 7, x: 1, y: 0, rotation: 90}
stones:                     # optional
  - {player: 1, x: 0, y: 0, quadrant: tl}
```

This module checks structure only (keys, types, known tile ids, each tile once, valid
rotations, quadrants and players). Whether a placement is legal or a stone sits on a
micropul is the rules engine's business; every spec carries its :class:`Where` so those
problems are reported at the right line too.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from micropul_print.base.errors import Diagnostic, errors_in, quoted, usable
from micropul_print.base.yamlsource import (
    Where,
    YamlMapping,
    YamlNode,
    YamlScalar,
    check_keys,
    describe,
    expect_int,
    expect_mapping,
    expect_sequence,
    join_choices,
    read_document,
)
from micropul_print.games.micropul.model import QUADRANT_NAMES, Catalogue

__all__ = [
    "PlacementSpec",
    "PositionSpec",
    "StoneSpec",
    "Where",
    "load_position",
    "read_position",
]

ROTATIONS = (0, 90, 180, 270)
_PLACEMENT_KEYS = ("tile", "x", "y", "rotation")
_STONE_KEYS = ("player", "x", "y", "quadrant")


@dataclass(frozen=True)
class PlacementSpec:
    tile: int
    x: int  # whole tiles, growing to the right
    y: int  # whole tiles, growing downward
    rotation: int  # clockwise degrees: 0, 90, 180 or 270
    where: Where


@dataclass(frozen=True)
class StoneSpec:
    player: int  # 1, 2, ...
    x: int
    y: int
    quadrant: int  # 0..3 = tl, tr, br, bl as the tile lies on the table (model.TL..BL)
    where: Where


@dataclass(frozen=True)
class PositionSpec:
    placements: tuple[PlacementSpec, ...]
    stones: tuple[StoneSpec, ...]
    source: str  # the file, as given, for messages


def load_position(path: str | Path, catalogue: Catalogue, strict: bool = False) -> PositionSpec:
    """Read a position file; raise UserError with every problem (warnings too if strict)."""
    return usable(*read_position(path, catalogue), strict)


def read_position(
    path: str | Path, catalogue: Catalogue
) -> tuple[PositionSpec | None, list[Diagnostic]]:
    """The position (None if there is any error) and every diagnostic, in file order."""
    return read_document(path, lambda root, out: _position(root, catalogue, str(path), out))


def _position(
    root: YamlNode, catalogue: Catalogue, source: str, out: list[Diagnostic]
) -> PositionSpec | None:
    if not isinstance(root, YamlMapping):
        out.append(
            root.diagnostic(
                "a position file must be a mapping with the keys 'placements' and "
                f"optionally 'stones', got {describe(root)}"
            )
        )
        return None
    out.extend(check_keys(root, "the position", ["placements"], ["stones"]))
    placements: list[PlacementSpec] = []
    stones: list[StoneSpec] = []
    placements_node = root.get("placements")
    if placements_node is not None:
        items = _items(placements_node, "'placements'", out)
        if items is not None and not items:
            out.append(
                placements_node.diagnostic("'placements' is empty (expected at least one tile)")
            )
        first_at: dict[int, Where] = {}
        for item in items or ():
            placement = _placement(item, catalogue, first_at, out)
            if placement is not None:
                placements.append(placement)
    stones_node = root.get("stones")
    if stones_node is not None and not _is_null(stones_node):
        for item in _items(stones_node, "'stones'", out) or ():
            stone = _stone(item, out)
            if stone is not None:
                stones.append(stone)
    return PositionSpec(tuple(placements), tuple(stones), source)


def _is_null(node: YamlNode) -> bool:
    return isinstance(node, YamlScalar) and node.tag == "null"


def _items(node: YamlNode, what: str, out: list[Diagnostic]) -> tuple[YamlNode, ...] | None:
    if _is_null(node):
        return ()
    sequence = expect_sequence(node, what, out)
    return None if sequence is None else sequence.items


def _placement(
    node: YamlNode, catalogue: Catalogue, first_at: dict[int, Where], out: list[Diagnostic]
) -> PlacementSpec | None:
    mapping = expect_mapping(node, "a placement", out)
    if mapping is None:
        return None
    before = len(out)
    out.extend(check_keys(mapping, "placement", _PLACEMENT_KEYS))
    values = _whole_numbers(mapping, _PLACEMENT_KEYS, out)
    tile, rotation = values.get("tile"), values.get("rotation")
    tile_node, rotation_node = mapping.get("tile"), mapping.get("rotation")
    if tile is not None and tile_node is not None and tile not in catalogue:
        ids = sorted(t.id for t in catalogue.tiles)
        known = f"{ids[0]} to {ids[-1]}" if ids else "none"
        out.append(tile_node.diagnostic(f"unknown tile {tile} (the catalogue has tiles {known})"))
    elif tile is not None and tile_node is not None:
        earlier = first_at.setdefault(tile, tile_node.where)
        if earlier is not tile_node.where:
            out.append(
                tile_node.diagnostic(
                    f"tile {tile} is placed twice (first at line {earlier.line}; "
                    "each tile may be placed once)"
                )
            )
    if rotation is not None and rotation_node is not None and rotation not in ROTATIONS:
        out.append(
            rotation_node.diagnostic(
                f"rotation {rotation} is not allowed (expected "
                f"{join_choices([str(r) for r in ROTATIONS])} degrees clockwise)"
            )
        )
    if _has_error(out, before) or len(values) < len(_PLACEMENT_KEYS):
        return None
    return PlacementSpec(
        values["tile"], values["x"], values["y"], values["rotation"], mapping.where
    )


def _stone(node: YamlNode, out: list[Diagnostic]) -> StoneSpec | None:
    mapping = expect_mapping(node, "a stone", out)
    if mapping is None:
        return None
    before = len(out)
    out.extend(check_keys(mapping, "stone", _STONE_KEYS))
    values = _whole_numbers(mapping, ("player", "x", "y"), out)
    player_node = mapping.get("player")
    player = values.get("player")
    if player is not None and player_node is not None and player < 1:
        out.append(player_node.diagnostic(f"player {player} is not allowed (expected 1 or more)"))
    quadrant: int | None = None
    quadrant_node = mapping.get("quadrant")
    if quadrant_node is not None:
        name = quadrant_node.raw if isinstance(quadrant_node, YamlScalar) else None
        if name in QUADRANT_NAMES:
            quadrant = QUADRANT_NAMES.index(name)
        else:
            shown = quoted(name) if name is not None else describe(quadrant_node)
            out.append(
                quadrant_node.diagnostic(
                    f"unknown quadrant {shown} (expected {join_choices(QUADRANT_NAMES)})"
                )
            )
    if _has_error(out, before) or len(values) < 3 or quadrant is None:
        return None
    return StoneSpec(values["player"], values["x"], values["y"], quadrant, mapping.where)


def _has_error(out: list[Diagnostic], since: int) -> bool:
    return bool(errors_in(out[since:]))


def _whole_numbers(
    mapping: YamlMapping, keys: tuple[str, ...], out: list[Diagnostic]
) -> dict[str, int]:
    """The keys present with a whole number; the others are reported (or missing)."""
    values: dict[str, int] = {}
    for key in keys:
        node = mapping.get(key)
        value = None if node is None else expect_int(node, repr(key), out)
        if value is not None:
            values[key] = value
    return values
