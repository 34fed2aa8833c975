"""Micropul in the engine shape every game offers (micropul_print.game.state.GameState):
the rules engine's Match (micropul_print.games.micropul.rules.game), in the same
vocabulary, plus ``determinized``, the scores and the actions' JSON.

Actions are the engine's: ``Place(tile, x, y, rotation)``, ``Draw(tile)`` (None:
a random face-down supply tile) and ``Claim(x, y, quadrant)``. As JSON (the game
record format of docs/contracts.md)::

    {"place": {"tile": 7, "x": 1, "y": 0, "rotation": 90}}
    {"draw": null}            {"draw": 12}       (a revealed supply tile, solitaire)
    {"claim": {"x": 0, "y": 0, "quadrant": "tl"}}

Hidden from every player: the order of the core and which tiles lie face down in each
supply (face-down tiles are unknown to their owner too); hands are face up.

Pieces (for ``analyse``'s per-piece statistics) are the tiles, by number: every tile but
the start tile, which the set-up puts on the table.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from micropul_print.game.state import JSON
from micropul_print.games.micropul.model import QUADRANT_NAMES, Catalogue
from micropul_print.games.micropul.rules.game import Action, Claim, Draw, Match, Place, shuffle
from micropul_print.games.micropul.rules.tiles import TileSet

Move = Action


class MicropulState:
    """A game of Micropul for 1 (solitaire) or 2 players; seats are 0-based."""

    def __init__(self, match: Match, played: int = 0) -> None:
        self.match = match
        # Actions applied through this state: the engine's own count leaves out the
        # action that ends a game by emptying the core.
        self.played = played

    @classmethod
    def new(cls, catalogue: Catalogue | TileSet, *, players: int = 2,
            seed: int | None = None) -> MicropulState:
        return cls(Match(catalogue, players, seed))

    # Points of closed groups and tiles held: never negative (the lab's intervals).
    score_range = (0.0, float("inf"))

    @property
    def players(self) -> int:
        return self.match.players

    def current_player(self) -> int:
        return self.match.current

    def legal_actions(self) -> list[Move]:
        return self.match.legal_actions()

    def is_legal(self, action: Move) -> bool:
        """Whether ``action`` is one of :meth:`legal_actions` (GameState's optional
        ``is_legal``): one look instead of the whole list (Match.is_listed)."""
        return self.match.is_listed(action)

    def apply_action(self, action: Move) -> None:
        self.match.apply_action(action)  # IllegalActionError (a ValueError) when not legal
        self.played += 1

    def undo(self) -> None:
        """Take back the last action applied: the state is as it was, its random
        generator included (the bots' look at each action's outcome, without a clone
        each)."""
        self.match.undo()
        self.played -= 1

    def action_class(self, action: Move) -> int | None:
        """Claims of one group are one class (its root): the stone's micropul within the
        group changes nothing that the rules look at, now or later. Other actions are
        each their own."""
        if type(action) is Claim:
            return self.match.board.group_root(action.x, action.y, action.quadrant)
        return None

    def scores_after(
        self, actions: Sequence[Move]
    ) -> Sequence[tuple[tuple[float, ...], tuple[float, ...] | None]]:
        """The scores after each of ``actions`` and, where it ends the game, the
        returns: placements worked out without playing them (Match.scores_after), the
        values the bots rank moves by (GameState's optional ``scores_after``)."""
        return self.match.scores_after(actions)

    def clone(self) -> MicropulState:
        return MicropulState(self.match.clone(), self.played)  # the tile tables are shared

    def determinized(self, seed: int) -> MicropulState:
        return self._redrawn(random.Random(seed), scratch=False)

    def scratch_determinized(self, seed: int) -> MicropulState:
        """:meth:`determinized` for a search that only plays forward from it and throws
        it away (GameState's optional ``scratch_determinized``): the same game, without
        undo records (``undo()`` raises IndexError; Match.scratch_copy), cheaper to play
        on."""
        return self._redrawn(random.Random(seed), scratch=True)

    def scratch_redrawn(self, rng: random.Random) -> MicropulState:
        """:meth:`scratch_determinized` drawing from ``rng`` itself, shared, neither
        seeded nor copied (GameState's optional ``scratch_redrawn``): a search's
        determinisation, whose shuffle and later draws go on with the search's own
        generator; seeding a generator for each costs a quarter of a determinisation.
        ``scratch_redrawn(random.Random(seed))`` is ``scratch_determinized(seed)``."""
        return self._redrawn(rng, scratch=True)

    def _redrawn(self, rng: random.Random, *, scratch: bool) -> MicropulState:
        # rng: the draws to come are unknown too
        match = self.match
        state = MicropulState(match.scratch_copy(rng) if scratch else match.clone(rng),
                              self.played)
        game = state.match
        hidden = list(game.core)
        for pile in game.face_down:
            hidden += pile
        shuffle(hidden, rng)  # rng.shuffle's order, faster
        taken = len(game.core)
        game.core = hidden[:taken]
        for pile in game.face_down:
            size = len(pile)
            pile[:] = hidden[taken:taken + size]
            taken += size
        return state

    def is_terminal(self) -> bool:
        return self.match.is_terminal()

    def scores(self) -> tuple[float, ...]:
        outcome = self.match.outcome()
        return tuple(map(float, outcome.scores if outcome else self.match.scores()))

    def returns(self) -> tuple[float, ...]:
        return self.match.returns()

    def end_reason(self) -> str | None:
        outcome = self.match.outcome()
        return None if outcome is None else outcome.reason

    def turn(self) -> int:
        return self.played

    def action_to_json(self, action: Move) -> JSON:
        if isinstance(action, Place):
            return {"place": {"tile": action.tile, "x": action.x, "y": action.y,
                              "rotation": action.rotation}}
        if isinstance(action, Draw):
            return {"draw": action.tile}
        return {"claim": {"x": action.x, "y": action.y,
                          "quadrant": QUADRANT_NAMES[action.quadrant]}}

    def action_from_json(self, data: JSON) -> Move:
        return action_from_json(data)

    def pieces(self) -> tuple[str, ...]:
        start = self.match.tiles.catalogue.start_tile.id
        return tuple(str(tid) for tid in self.match.tiles.tile_ids if tid != start)

    def piece_of(self, action: Move) -> str | None:
        return str(action.tile) if isinstance(action, Place) else None

    def move_notation(self, data: JSON) -> str:
        """A move's record JSON as a player reads it (the lab's replays):
        ``26 @ (-1,2) r270`` (tile, cell, rotation), ``draws``, ``draws 12``, ``stone
        @ (0,0) tl``."""
        (kind, body), = data.items()
        if kind == "place":
            return f"{body['tile']} @ ({body['x']},{body['y']}) r{body['rotation']}"
        if kind == "draw":
            return "draws" if body is None else f"draws {body}"
        if kind == "claim":
            return f"stone @ ({body['x']},{body['y']}) {body['quadrant']}"
        raise ValueError(f"not a Micropul move: {data!r}")

    def piece_ends(self) -> tuple[set[str], set[str]]:
        """(tiles a player holds at the end, in hand or supply; tiles with a micropul
        in a closed group that scores): the lab's per-tile table."""
        game = self.match
        held = {str(tid) for p in range(game.players)
                for tid in (*game.hands[p], *game.face_down[p], *game.revealed[p])}
        board = game.board
        scoring = set()
        for group in board.groups():
            if group.scores_for is not None:
                for x, y, _quadrant in group.quadrants:
                    found = board.tile_at(x, y)
                    if found is not None:
                        scoring.add(str(found[0]))
        return held, scoring


def action_from_json(data: Any) -> Move:
    """The action a game record's JSON object describes; ValueError if none."""
    if isinstance(data, dict) and len(data) == 1:
        (kind, body), = data.items()
        if kind == "place" and isinstance(body, dict) and set(body) == {"tile", "x", "y",
                                                                         "rotation"}:
            values = [body[k] for k in ("tile", "x", "y", "rotation")]
            if all(type(v) is int for v in values):
                return Place(*values)
        if kind == "draw" and (body is None or type(body) is int):
            return Draw(body)
        if (kind == "claim" and isinstance(body, dict) and set(body) == {"x", "y", "quadrant"}
                and type(body["x"]) is int and type(body["y"]) is int
                and body["quadrant"] in QUADRANT_NAMES):
            return Claim(body["x"], body["y"], QUADRANT_NAMES.index(body["quadrant"]))
    raise ValueError(f"not a Micropul move: {data!r} ({_move_problem(data)})")


_MOVE_KEYS = {"place": ("tile", "x", "y", "rotation"), "claim": ("x", "y", "quadrant")}


def _move_problem(data: Any) -> str:
    """What is wrong with a move's JSON that action_from_json refused: a place whose x
    was too long a number (read as text) was 'expected one of place, draw, claim'."""
    kind = next(iter(data)) if isinstance(data, dict) and len(data) == 1 else None
    if kind == "draw":
        return "a draw is null or a tile's number"
    if kind not in _MOVE_KEYS:
        return "expected one of place, draw, claim"
    keys = _MOVE_KEYS[kind]
    body = data[kind]
    if not isinstance(body, dict) or set(body) != set(keys):
        return f"a {kind} has the keys {', '.join(keys)}, each once"
    for key in keys:
        if key == "quadrant":
            if body[key] not in QUADRANT_NAMES:
                return f"quadrant must be one of {', '.join(QUADRANT_NAMES)}"
        elif type(body[key]) is not int:
            return (f"{kind}'s {key} must be a whole number, at most 2^53 - 1 either side "
                    "of 0 (what every JSON reader keeps exact)")
    return "expected one of place, draw, claim"  # not reached: the move was read
