"""Cellulae in the engine shape every game offers (micropul_print.game.state.GameState):
the rules engine's Board (micropul_print.games.cellulae.rules), in the same vocabulary,
plus the scores and the actions' JSON. Seat 0 is black, who moves first.

Actions are the engine's :class:`~micropul_print.games.cellulae.rules.Move`. As JSON (the
turn format of Cellulae's position files, docs/cellulae.md)::

    {"replicate": {"x": 1, "y": 0}}
    {"move": {"from": [4, 4], "to": [1, 1]}}
    {"skip": true}

Cellulae has no hidden information and no chance: ``determinized`` is a copy.
"""

from __future__ import annotations

from typing import Any

from micropul_print.game.state import JSON
from micropul_print.games.cellulae.catalogue import CellulaeCatalogue
from micropul_print.games.cellulae.rules import COLOURS, SKIP, Board, Move

SEATS = COLOURS  # black, then white


class CellulaeState:
    """A game of Cellulae on one board."""

    players = 2

    def __init__(self, board: Board) -> None:
        self.board = board

    @property
    def score_range(self) -> tuple[float, float]:
        """A colour's tiles on the board (the lab's intervals): derived, not kept, so
        that the bots' many copies pay nothing for it."""
        return 0.0, float(self.board.side * self.board.side)

    @classmethod
    def new(cls, catalogue: CellulaeCatalogue, *, side: int | None = None,
            seed: int | None = None) -> CellulaeState:
        """The set-up on the board of ``side`` squares (default: the smallest the
        catalogue offers). ``seed`` is accepted for the common shape: nothing is random."""
        chosen = side if side is not None else catalogue.sides[0]
        if chosen not in catalogue.sides:
            raise ValueError(f"board {chosen} is not offered (boards: "
                             f"{', '.join(str(s) for s in catalogue.sides)})")
        return cls(Board(chosen))

    def current_player(self) -> int:
        return self.board.current_player()

    def legal_actions(self) -> list[Move]:
        return self.board.legal_actions()

    def apply_action(self, action: Move) -> None:
        self.board.apply_action(action)  # IllegalMoveError (a ValueError) when not legal

    def undo(self) -> None:
        self.board.undo()

    def clone(self) -> CellulaeState:
        return CellulaeState(self.board.clone())

    def determinized(self, seed: int) -> CellulaeState:
        return self.clone()

    def is_terminal(self) -> bool:
        return self.board.is_terminal()

    def scores(self) -> tuple[float, ...]:
        counts = self.board.counts()
        return tuple(float(counts[colour]) for colour in SEATS)

    def returns(self) -> tuple[float, ...]:
        return self.board.returns()

    def end_reason(self) -> str | None:
        return self.board.end_reason()

    def turn(self) -> int:
        return self.board.turns

    def action_to_json(self, action: Move) -> JSON:
        if action.to is None:
            return {"skip": True}
        if action.frm is None:
            return {"replicate": {"x": action.to[0], "y": action.to[1]}}
        return {"move": {"from": list(action.frm), "to": list(action.to)}}

    def action_from_json(self, data: JSON) -> Move:
        return action_from_json(data)

    def move_notation(self, data: JSON) -> str:
        """A move's record JSON as a player reads it (the lab's replays):
        ``replicates @ (1,0)``, ``moves (4,4) -> (1,1)``, ``skips``."""
        (kind, body), = data.items()
        if kind == "replicate":
            return f"replicates @ ({body['x']},{body['y']})"
        if kind == "move":
            (fx, fy), (tx, ty) = body["from"], body["to"]
            return f"moves ({fx},{fy}) -> ({tx},{ty})"
        if kind == "skip":
            return "skips"
        raise ValueError(f"not a Cellulae move: {data!r}")


def _square(value: Any) -> tuple[int, int] | None:
    if (isinstance(value, list) and len(value) == 2
            and all(type(v) is int for v in value)):
        return value[0], value[1]
    return None


def action_from_json(data: Any) -> Move:
    """The action (a Move) a turn's JSON object describes; ValueError if none."""
    if isinstance(data, dict) and len(data) == 1:
        (kind, body), = data.items()
        if kind == "skip" and body is True:
            return SKIP
        if (kind == "replicate" and isinstance(body, dict) and set(body) == {"x", "y"}
                and type(body["x"]) is int and type(body["y"]) is int):
            return Move((body["x"], body["y"]))
        if kind == "move" and isinstance(body, dict) and set(body) == {"from", "to"}:
            start, end = _square(body["from"]), _square(body["to"])
            if start is not None and end is not None:
                return Move(end, start)
    raise ValueError(f"not a Cellulae move: {data!r} (expected replicate, move or skip)")
