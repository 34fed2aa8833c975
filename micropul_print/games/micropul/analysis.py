"""Position analysis: a position file's placements and stones run through the rules
engine, as the JSON-able dict of the public contract (docs/contracts.md, "Position
analysis"). Used by the ``position`` command and by the rulebook to check its figures.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from micropul_print.base.errors import Diagnostic, UserError
from micropul_print.games.micropul.model import QUADRANT_NAMES, Catalogue
from micropul_print.games.micropul.position import PositionSpec
from micropul_print.games.micropul.rules.board import Board
from micropul_print.games.micropul.rules.tiles import COORD_LIMIT

_WHAT = {
    "dot": "a one-dot catalyst",
    "double": "a two-dot catalyst",
    "plus": "a plus catalyst",
    "empty": "a blank quadrant",
}


def analyse(position: PositionSpec, catalogue: Catalogue, legal_tile: int | None) -> dict[str, Any]:
    """Replay ``position`` on an empty table and describe it.

    The first placement is set down without a legality check; each later one is
    checked: an illegal one is reported (``legal`` false, ``reason``) and not applied.
    Stones go on after all placements. Raises UserError listing every stone that is
    not on a micropul, every placement out of range, and an unknown ``legal_tile``.
    """
    board, placements, problems = replay(position, catalogue)
    for stone in position.stones:
        where = f"({stone.x}, {stone.y}) {QUADRANT_NAMES[stone.quadrant]}"
        if not _in_range(stone.x, stone.y) or board.tile_at(stone.x, stone.y) is None:
            problems.append(
                stone.where.diagnostic(
                    f"stone of player {stone.player} on {where}, an empty cell "
                    "(a stone must sit on a micropul of a tile in play)"
                )
            )
            continue
        symbol = board.symbol_at(stone.x, stone.y, stone.quadrant)
        if not board.is_micropul(stone.x, stone.y, stone.quadrant):
            problems.append(
                stone.where.diagnostic(
                    f"stone of player {stone.player} on {where}, which holds "
                    f"{_WHAT.get(symbol or '', symbol)}, not a micropul"
                )
            )
            continue
        board.add_stone(stone.player, stone.x, stone.y, stone.quadrant)
    if legal_tile is not None and legal_tile not in catalogue:
        ids = [t.id for t in catalogue.tiles]
        problems.append(
            Diagnostic(
                catalogue.source or "catalogue",
                0,
                0,
                f"--legal {legal_tile}: no such tile (the catalogue has tiles "
                f"{min(ids)} to {max(ids)})",
            )
        )
    if problems:
        raise UserError(problems)
    result: dict[str, Any] = {
        "placements": placements,
        "groups": [
            {
                "colour": group.colour,
                "points": group.points,
                "closed": group.closed,
                "stones": list(group.stones),
                "quadrants": [[x, y, QUADRANT_NAMES[q]] for x, y, q in group.quadrants],
            }
            for group in board.groups()
        ],
    }
    if legal_tile is not None:
        result["legal"] = [
            {"x": x, "y": y, "rotation": r} for x, y, r in board.legal_placements(legal_tile)
        ]
    return result


def replay(
    position: PositionSpec, catalogue: Catalogue
) -> tuple[Board, list[dict[str, Any]], list[Diagnostic]]:
    """The board after the position's legal placements (no stones), the "placements"
    entries of the contract, and diagnostics for placements too far from the origin."""
    board = Board(catalogue)
    entries: list[dict[str, Any]] = []
    problems: list[Diagnostic] = []
    for spec in position.placements:
        entry: dict[str, Any] = {
            "tile": spec.tile,
            "x": spec.x,
            "y": spec.y,
            "rotation": spec.rotation,
            "legal": True,
            "reason": None,
            "draws": 0,
            "plus": 0,
        }
        if not _in_range(spec.x, spec.y):
            problems.append(
                spec.where.diagnostic(
                    f"cell ({spec.x}, {spec.y}) is too far from the origin "
                    f"(x and y must lie between {-COORD_LIMIT + 1} and {COORD_LIMIT - 1})"
                )
            )
            continue
        reason = board.legality(spec.tile, spec.x, spec.y, spec.rotation) if len(board) else None
        if reason is not None:
            entry["legal"] = False
            entry["reason"] = reason
        else:
            placement = board.place(spec.tile, spec.x, spec.y, spec.rotation, check=False)
            entry["draws"] = placement.draws
            entry["plus"] = placement.plus
        entries.append(entry)
    return board, entries, problems


def _in_range(x: int, y: int) -> bool:
    return -COORD_LIMIT < x < COORD_LIMIT and -COORD_LIMIT < y < COORD_LIMIT


def group_at(analysis: Mapping[str, Any], x: int, y: int,
             quadrant: str) -> Mapping[str, Any] | None:
    """The group of the analysis that holds the micropul at (x, y, quadrant), if any."""
    for group in analysis.get("groups", []):
        if [x, y, quadrant] in [list(q) for q in group.get("quadrants", [])]:
            result: Mapping[str, Any] = group
            return result
    return None


def quadrant_key(key: object) -> tuple[int, int, str]:
    """A group named by one micropul, (x, y, quadrant name), as a rulebook claim's
    subject gives it (micropul_print.games.micropul.rulebook.read_subject)."""
    assert isinstance(key, tuple) and len(key) == 3
    x, y, quadrant = key
    assert isinstance(x, int) and isinstance(y, int) and isinstance(quadrant, str)
    return x, y, quadrant
