"""Cellulae position files and their analysis (format and JSON: docs/cellulae.md).

```yaml
board: 5                      # side of the square board
to_move: black                # optional; black if left out
tiles:                        # tiles on the board before the turns below
  - {x: 0, y: 0, colour: white}
turns:                        # optional, in order
  - {player: black, replicate: {x: 4, y: 3}}
  - {player: white, move: {from: [0, 0], to: [2, 2]}}
  - {player: black, skip: true}
```

:func:`load_cellulae_position` checks structure only (keys, types, squares on the board,
each square once, a board size the catalogue offers); whether a turn is legal is the
rules engine's business, reported by :func:`analyse_cellulae` in the JSON and not applied.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from micropul_print.base.errors import Diagnostic, UserError, errors_in, quoted, usable
from micropul_print.base.yamlsource import (
    Where,
    YamlMapping,
    YamlNode,
    YamlScalar,
    YamlSequence,
    check_keys,
    describe,
    expect_bool,
    expect_int,
    expect_mapping,
    expect_sequence,
    join_choices,
    read_document,
)
from micropul_print.games.cellulae.catalogue import CellulaeCatalogue
from micropul_print.games.cellulae.rules import BLACK, COLOURS, SKIP, Board, Move, Square

_ACTIONS = ("replicate", "move", "skip")


@dataclass(frozen=True)
class CellTileSpec:
    x: int
    y: int
    colour: str
    where: Where


@dataclass(frozen=True)
class TurnSpec:
    player: str
    move: Move  # a replication, a movement or SKIP
    where: Where


@dataclass(frozen=True)
class CellulaePositionSpec:
    side: int
    to_move: str
    tiles: tuple[CellTileSpec, ...]
    turns: tuple[TurnSpec, ...]
    source: str  # the file, as given, for messages
    board_at: Where  # the board key's value: a catalogue that lacks the board is told there


def load_cellulae_position(
    path: str | Path, catalogue: CellulaeCatalogue, strict: bool = False
) -> CellulaePositionSpec:
    """Read a Cellulae position file; raise UserError with every problem (and warning,
    if strict)."""
    return usable(*read_cellulae_position(path, catalogue), strict)


def read_cellulae_position(
    path: str | Path, catalogue: CellulaeCatalogue
) -> tuple[CellulaePositionSpec | None, list[Diagnostic]]:
    """The position (None if there is any error) and every diagnostic, in file order."""
    return read_document(path, lambda root, out: _position(root, catalogue, str(path), out))


def _position(
    root: YamlNode, catalogue: CellulaeCatalogue, source: str, out: list[Diagnostic]
) -> CellulaePositionSpec | None:
    if not isinstance(root, YamlMapping):
        out.append(
            root.diagnostic(
                "a Cellulae position must be a mapping with the keys 'board' and 'tiles', "
                f"and optionally 'to_move' and 'turns', got {describe(root)}"
            )
        )
        return None
    out.extend(check_keys(root, "the position", ["board", "tiles"], ["to_move", "turns"]))
    side = _side(root.get("board"), catalogue, out)
    to_move_node = root.get("to_move")
    to_move = BLACK if to_move_node is None else _colour(to_move_node, "'to_move'", out)
    tiles: list[CellTileSpec] = []
    first_at: dict[Square, Where] = {}
    for item in _items(root.get("tiles"), "'tiles'", out):
        tile = _tile(item, side, first_at, out)
        if tile is not None:
            tiles.append(tile)
    turns: list[TurnSpec] = []
    for item in _items(root.get("turns"), "'turns'", out):
        turn = _turn(item, side, out)
        if turn is not None:
            turns.append(turn)
    board_node = root.get("board")
    if board_node is None or side is None or to_move is None:
        return None
    return CellulaePositionSpec(side, to_move, tuple(tiles), tuple(turns), source,
                                board_node.where)


def _side(node: YamlNode | None, catalogue: CellulaeCatalogue, out: list[Diagnostic]) -> int | None:
    if node is None:
        return None
    side = expect_int(node, "'board'", out)
    if side is not None and side not in catalogue.sides:
        out.append(node.diagnostic(_not_offered(side, catalogue)))
        return None
    return side


def _not_offered(side: int, catalogue: CellulaeCatalogue) -> str:
    offered = join_choices([str(s) for s in catalogue.sides])
    return f"board {side} is not offered (expected a side of {offered})"


def _items(node: YamlNode | None, what: str, out: list[Diagnostic]) -> tuple[YamlNode, ...]:
    if node is None or (isinstance(node, YamlScalar) and node.tag == "null"):
        return ()
    sequence = expect_sequence(node, what, out)
    return () if sequence is None else sequence.items


def _colour(node: YamlNode, what: str, out: list[Diagnostic]) -> str | None:
    text = node.raw if isinstance(node, YamlScalar) else None
    if text in COLOURS:
        return text
    shown = quoted(text) if text is not None else describe(node)
    out.append(node.diagnostic(f"{what} is {shown} (expected {join_choices(COLOURS)})"))
    return None


def _coordinate(node: YamlNode, what: str, side: int | None, out: list[Diagnostic]) -> int | None:
    value = expect_int(node, what, out)
    if value is not None and side is not None and not 0 <= value < side:
        out.append(
            node.diagnostic(
                f"{what} is {value}, off the {side} × {side} board (expected 0 to {side - 1})"
            )
        )
        return None
    return value


def _square_of_mapping(
    mapping: YamlMapping, side: int | None, out: list[Diagnostic]
) -> Square | None:
    x_node, y_node = mapping.get("x"), mapping.get("y")
    x = None if x_node is None else _coordinate(x_node, "'x'", side, out)
    y = None if y_node is None else _coordinate(y_node, "'y'", side, out)
    return None if x is None or y is None else (x, y)


def _tile(
    node: YamlNode, side: int | None, first_at: dict[Square, Where], out: list[Diagnostic]
) -> CellTileSpec | None:
    mapping = expect_mapping(node, "a tile", out)
    if mapping is None:
        return None
    before = len(out)
    out.extend(check_keys(mapping, "tile", ["x", "y", "colour"]))
    square = _square_of_mapping(mapping, side, out)
    colour_node = mapping.get("colour")
    colour = None if colour_node is None else _colour(colour_node, "'colour'", out)
    if square is not None:
        first = first_at.setdefault(square, mapping.where)
        if first is not mapping.where:
            out.append(
                mapping.diagnostic(
                    f"square ({square[0]}, {square[1]}) has a tile already (at line "
                    f"{first.line}; expected one tile per square)"
                )
            )
    if errors_in(out[before:]) or square is None or colour is None:
        return None
    return CellTileSpec(square[0], square[1], colour, mapping.where)


def _turn(node: YamlNode, side: int | None, out: list[Diagnostic]) -> TurnSpec | None:
    mapping = expect_mapping(node, "a turn", out)
    if mapping is None:
        return None
    before = len(out)
    out.extend(check_keys(mapping, "turn", ["player"], _ACTIONS))
    player_node = mapping.get("player")
    player = None if player_node is None else _colour(player_node, "'player'", out)
    actions = [key for key in _ACTIONS if key in mapping]
    action = mapping.get(actions[0]) if len(actions) == 1 else None
    move: Move | None = None
    if action is None:
        out.append(
            mapping.diagnostic(
                f"a turn needs exactly one of {join_choices(_ACTIONS)}, "
                f"got {len(actions) if actions else 'none'}"
            )
        )
    elif actions == ["replicate"]:
        target = expect_mapping(action, "'replicate'", out)
        if target is not None:
            out.extend(check_keys(target, "'replicate'", ["x", "y"]))
            square = _square_of_mapping(target, side, out)
            move = None if square is None else Move(square)
    elif actions == ["move"]:
        move = _movement(action, side, out)
    elif expect_bool(action, "'skip'", out) is False:
        out.append(action.diagnostic("'skip' can only be true (leave the key out otherwise)"))
    else:
        move = SKIP
    if errors_in(out[before:]) or player is None or move is None:
        return None
    return TurnSpec(player, move, mapping.where)


def _movement(node: YamlNode, side: int | None, out: list[Diagnostic]) -> Move | None:
    mapping = expect_mapping(node, "'move'", out)
    if mapping is None:
        return None
    out.extend(check_keys(mapping, "'move'", ["from", "to"]))
    ends: list[Square | None] = []
    for key in ("from", "to"):
        value = mapping.get(key)
        ends.append(None if value is None else _pair(value, f"'{key}'", side, out))
    start, end = ends
    if start is None or end is None:
        return None
    return Move(end, start)


def _pair(node: YamlNode, what: str, side: int | None, out: list[Diagnostic]) -> Square | None:
    if not isinstance(node, YamlSequence) or len(node.items) != 2:
        out.append(node.diagnostic(f"{what} must be a square [x, y], got {describe(node)}"))
        return None
    x = _coordinate(node.items[0], f"x of {what}", side, out)
    y = _coordinate(node.items[1], f"y of {what}", side, out)
    return None if x is None or y is None else (x, y)


# ---------------------------------------------------------------------------
# Analysis


def position_board(position: CellulaePositionSpec) -> Board:
    """The board the position sets up, before its turns."""
    tiles = {(tile.x, tile.y): tile.colour for tile in position.tiles}
    return Board.from_tiles(position.side, tiles, position.to_move)


def analyse_cellulae(
    position: CellulaePositionSpec,
    catalogue: CellulaeCatalogue,
    legal_for: str | None = None,
) -> dict[str, Any]:
    """Replay the position's turns and describe the result, as the JSON-able dict of
    docs/cellulae.md ("Position analysis"). Each turn is checked: an illegal one is
    reported (``legal`` false, ``reason``) and not applied. ``legal_for`` (black or
    white) adds every legal action of that player in the final position."""
    if position.side not in catalogue.sides:
        raise UserError([position.board_at.diagnostic(_not_offered(position.side, catalogue))])
    if legal_for is not None and legal_for not in COLOURS:
        raise UserError(
            [
                Diagnostic(
                    position.source,
                    0,
                    0,
                    f"--legal {legal_for}: no such player (expected {join_choices(COLOURS)})",
                )
            ]
        )
    board = position_board(position)
    turns: list[dict[str, Any]] = []
    for turn in position.turns:
        entry: dict[str, Any] = {"player": turn.player, **_move_json(turn.move)}
        reason = board.illegal_reason(turn.move, turn.player)
        if reason is None:
            flipped = board.flipped_by(turn.move)
            board.apply_action(turn.move)
            entry.update(legal=True, reason=None, flipped=[[x, y] for x, y in flipped])
        else:
            entry.update(legal=False, reason=reason, flipped=[])
        turns.append(entry)
    outcome = board.outcome()
    result: dict[str, Any] = {
        "side": position.side,
        "turns": turns,
        "board": board.rows(),
        "counts": board.counts(),
        "to_move": None if outcome is not None else board.turn,
        "over": outcome is not None,
        "end": None if outcome is None else outcome.reason,
        "winner": None if outcome is None else outcome.winner,
    }
    if legal_for is not None:
        result["legal"] = [_move_json(move) for move in board.legal_actions(legal_for)]
    return result


def _move_json(move: Move) -> dict[str, Any]:
    if move.to is None:
        return {"action": "skip"}
    if move.frm is None:
        return {"action": "replicate", "to": list(move.to)}
    return {"action": "move", "from": list(move.frm), "to": list(move.to)}


__all__ = [
    "CellTileSpec",
    "CellulaePositionSpec",
    "TurnSpec",
    "analyse_cellulae",
    "load_cellulae_position",
    "position_board",
    "read_cellulae_position",
]
