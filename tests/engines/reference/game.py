"""A whole game of Micropul for one (solitaire) or two players. Pure: no I/O.

State: the board, the core (face-down pile), each player's hand (face up), supply (face
down; in solitaire some supply tiles may be revealed for good), stones left and whose
turn it is. ``legal_actions()`` lists every action, ``push(action)`` plays one (raising
IllegalActionError with the reason when it is not allowed), ``outcome()`` says how the
game ended and the scores. Randomness (shuffling, random supply tiles, the random
policy) comes from one ``random.Random(seed)``: the same seed gives the same game.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from dataclasses import dataclass
from itertools import accumulate
from typing import NamedTuple

from micropul_print.games.micropul.model import Catalogue

from .board import Board, Placement, catalysts
from .tiles import (
    KIND_DRAWS,
    KIND_PLUS,
    TileSet,
    cell_key,
    cell_xy,
    tileset,
)

HAND_LIMIT = 6
STONES = 3
START_HAND = 6

# How a game ended.
CORE_EXHAUSTED = "core exhausted"  # the last tile was taken from the core
OUT_OF_TILES = "out of tiles"  # a player has no tile in hand or supply
NO_LEGAL_ACTION = "no legal action"  # the project's ruling: the game ends, scored normally
END_REASONS = (CORE_EXHAUSTED, OUT_OF_TILES, NO_LEGAL_ACTION)


class Place(NamedTuple):
    """Play a tile from hand."""

    tile: int
    x: int
    y: int
    rotation: int


class Draw(NamedTuple):
    """Move a tile from supply to hand: a random face-down one, or (solitaire) the
    revealed tile ``tile``."""

    tile: int | None = None


class Claim(NamedTuple):
    """Put a stone on the micropul at quadrant 0..3 (tl, tr, br, bl) of cell (x, y)."""

    x: int
    y: int
    quadrant: int


Action = Place | Draw | Claim


class IllegalActionError(ValueError):
    """An action the rules do not allow now; the message names the action and why."""

    def __init__(self, action: Action, reason: str) -> None:
        super().__init__(f"illegal action {action!r}: {reason}")
        self.action = action
        self.reason = reason


@dataclass(frozen=True)
class Outcome:
    reason: str  # one of END_REASONS
    scores: tuple[int, ...]  # final score of player 1, 2, ...
    winners: tuple[int, ...]  # player numbers; several on a tie (no tie-break)
    loser: int | None  # two players: the player who ran out of tiles
    turns: int  # actions played


# Kinds of action for the random policy.
_PLACE, _DRAW, _CLAIM = 0, 1, 2


class Game:
    """Set-up: the start tile at (0, 0) rotation 0, the other tiles shuffled into the
    core, 6 to each hand (player 1 first), 3 stones each. Players are numbered from 1."""

    def __init__(
        self, catalogue: Catalogue | TileSet, players: int = 2, seed: int | None = None
    ) -> None:
        if players not in (1, 2):
            raise ValueError(f"players must be 1 or 2, not {players!r}")
        self.tiles = catalogue if isinstance(catalogue, TileSet) else tileset(catalogue)
        self.players = players
        self.rng = random.Random(seed)
        self.board = Board(self.tiles)
        start = self.tiles.catalogue.start_tile
        self.board.place(start.id, 0, 0, 0, check=False)
        self.core = [tid for tid in self.tiles.tile_ids if tid != start.id]
        self.rng.shuffle(self.core)
        self.hands: list[list[int]] = []
        self.hand_masks: list[int] = []
        for _ in range(players):
            hand = [self.core.pop() for _ in range(min(START_HAND, len(self.core)))]
            self.hands.append(hand)
            self.hand_masks.append(self._mask_of(hand))
        self.face_down: list[list[int]] = [[] for _ in range(players)]
        self.revealed: list[list[int]] = [[] for _ in range(players)]  # solitaire only
        self.stones_left = [STONES] * players
        self.current = 0  # index of the player to move (player number - 1)
        self.turns = 0
        self._outcome: Outcome | None = None
        self._turn_kinds: list[int] = []
        self._start_turn()

    # -- reading the state -----------------------------------------------------------

    @property
    def player(self) -> int:
        """Number (1-based) of the player to move."""
        return self.current + 1

    def supply_size(self, player: int) -> int:
        return len(self.face_down[player - 1]) + len(self.revealed[player - 1])

    def outcome(self) -> Outcome | None:
        return self._outcome

    def is_over(self) -> bool:
        return self._outcome is not None

    def all_tiles(self) -> list[int]:
        """Every tile id wherever it is (table, core, hands, supplies): for invariants."""
        found = [t for t, *_ in self.board.placed()] + list(self.core)
        for p in range(self.players):
            found += self.hands[p] + self.face_down[p] + self.revealed[p]
        return found

    def _mask_of(self, hand: list[int]) -> int:
        mask = 0
        for tid in hand:
            mask |= self.tiles.tile_mask[self.tiles.index[tid]]
        return mask

    # -- legal actions ---------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Every legal action of the player to move: placements (sorted by tile, x, y,
        rotation; big tiles at rotation 0 only), draws, claims (one per micropul of an
        unclaimed group). Empty when the game is over."""
        if self._outcome is not None:
            return []
        p = self.current
        actions: list[Action] = []
        for tid in sorted(self.hands[p]):
            actions += [Place(tid, x, y, r) for x, y, r in self.board.legal_placements(tid)]
        if len(self.hands[p]) < HAND_LIMIT:
            if self.face_down[p]:
                actions.append(Draw())
            actions += [Draw(tid) for tid in sorted(self.revealed[p])]
        if self.stones_left[p]:
            board = self.board
            unclaimed = board.unclaimed
            keys = sorted(k for k in board._parent if board._find(k) in unclaimed)
            actions += [Claim(*cell_xy(k >> 2), k & 3) for k in keys]
        return actions

    def why_illegal(self, action: Action) -> str | None:
        """None when ``action`` is legal now, else the reason."""
        if self._outcome is not None:
            return "the game is over"
        p = self.current
        if isinstance(action, Place):
            if action.tile not in self.hands[p]:
                return f"tile {action.tile} is not in player {p + 1}'s hand"
            try:
                return self.board.legality(*action)
            except ValueError as exc:
                return str(exc)
        if isinstance(action, Draw):
            if len(self.hands[p]) >= HAND_LIMIT:
                return f"the hand already holds {HAND_LIMIT} tiles"
            if action.tile is None:
                return None if self.face_down[p] else "no face-down tile in the supply"
            if action.tile not in self.revealed[p]:
                return f"tile {action.tile} is not a revealed tile of the supply"
            return None
        if isinstance(action, Claim):
            if not self.stones_left[p]:
                return "no stone left"
            if not 0 <= action.quadrant < 4:
                return f"quadrant must be 0..3, not {action.quadrant!r}"
            try:
                if not self.board.is_micropul(action.x, action.y, action.quadrant):
                    return "no micropul there"
            except ValueError as exc:
                return str(exc)
            if self.board.stones_on(action.x, action.y, action.quadrant):
                return "the group already carries a stone"
            return None
        return f"not an action: {action!r}"

    def push(self, action: Action) -> Placement | None:
        """Play ``action`` for the player to move; a placement returns what it did."""
        reason = self.why_illegal(action)
        if reason is not None:
            raise IllegalActionError(action, reason)
        if isinstance(action, Place):
            activated = self._place(
                cell_key(action.x, action.y), self.tiles.oid(action.tile, action.rotation)
            )
            return Placement(
                tile=action.tile,
                x=action.x,
                y=action.y,
                rotation=action.rotation,
                activated=catalysts(activated),
                draws=sum(KIND_DRAWS[k] for k in activated.values()),
                plus=sum(KIND_PLUS[k] for k in activated.values()),
            )
        if isinstance(action, Draw):
            self._draw(action.tile)
        else:
            self._claim(cell_key(action.x, action.y) * 4 + action.quadrant)
        return None

    # -- applying (no checks: callers made sure the action is legal) -----------------

    def _place(self, cell: int, oid: int) -> dict[int, int]:
        p = self.current
        board = self.board
        activated = board.activations(cell, oid)
        board._put(cell, oid)
        tid = self.tiles.tile_of[oid]
        self.hands[p].remove(tid)
        self.hand_masks[p] &= ~self.tiles.tile_mask[self.tiles.index[tid]]
        draws = plus = 0
        for kind in activated.values():
            draws += KIND_DRAWS[kind]
            plus += KIND_PLUS[kind]
        core = self.core
        if draws and core:
            supply = self.face_down[p]
            for _ in range(min(draws, len(core))):
                supply.append(core.pop())
            if not core:
                self._finish(CORE_EXHAUSTED)
                return activated
        extra = False
        if plus:
            if self.players == 1:
                self._reveal(plus)
            else:
                extra = True
        self._end_turn(extra)
        return activated

    def _reveal(self, count: int) -> None:
        hidden = self.face_down[0]
        for _ in range(min(count, len(hidden))):
            i = int(self.rng.random() * len(hidden))
            hidden[i], hidden[-1] = hidden[-1], hidden[i]
            self.revealed[0].append(hidden.pop())

    def _draw(self, tile: int | None) -> None:
        p = self.current
        if tile is None:
            hidden = self.face_down[p]
            i = int(self.rng.random() * len(hidden))
            hidden[i], hidden[-1] = hidden[-1], hidden[i]
            tile = hidden.pop()
        else:
            self.revealed[p].remove(tile)
        self.hands[p].append(tile)
        self.hand_masks[p] |= self.tiles.tile_mask[self.tiles.index[tile]]
        self._end_turn(False)

    def _claim(self, key: int) -> None:
        p = self.current
        self.board._claim_key(p + 1, key)
        self.stones_left[p] -= 1
        self._end_turn(False)

    def _end_turn(self, extra: bool) -> None:
        self.turns += 1
        p = self.current
        if not self.hands[p] and not self.face_down[p] and not self.revealed[p]:
            self._finish(OUT_OF_TILES, loser=p + 1 if self.players == 2 else None)
            return
        if not extra:
            self.current = (p + 1) % self.players
        self._start_turn()

    def _start_turn(self) -> None:
        p = self.current
        if not self.hands[p] and not self.face_down[p] and not self.revealed[p]:
            self._finish(OUT_OF_TILES, loser=p + 1 if self.players == 2 else None)
            return
        self._turn_kinds = self._kinds()  # kept for the random policy of this turn
        if not self._turn_kinds:
            self._finish(NO_LEGAL_ACTION)

    def _kinds(self) -> list[int]:
        """The kinds of action the player to move has (place, draw, claim)."""
        p = self.current
        kinds = []
        hand_mask = self.hand_masks[p]
        if hand_mask:
            for legal in self.board.frontier.values():
                if legal & hand_mask:
                    kinds.append(_PLACE)
                    break
        if len(self.hands[p]) < HAND_LIMIT and (self.face_down[p] or self.revealed[p]):
            kinds.append(_DRAW)
        if self.stones_left[p] and self.board.unclaimed:
            kinds.append(_CLAIM)
        return kinds

    def scores(self) -> tuple[int, ...]:
        """Scores if the game ended now: closed groups with exactly one stone of the
        player, +2 per supply tile, +1 per hand tile."""
        from_groups = self.board.group_scores()
        return tuple(
            from_groups.get(p + 1, 0)
            + 2 * (len(self.face_down[p]) + len(self.revealed[p]))
            + len(self.hands[p])
            for p in range(self.players)
        )

    def _finish(self, reason: str, loser: int | None = None) -> None:
        scores = self.scores()
        if loser is not None:
            winners = tuple(p for p in range(1, self.players + 1) if p != loser)
        else:
            best = max(scores)
            winners = tuple(p + 1 for p, s in enumerate(scores) if s == best)
        self._outcome = Outcome(reason, scores, winners, loser, self.turns)

    # -- the random policy -------------------------------------------------------------

    def _choose(self) -> tuple[int, int, int]:
        """The random policy: a kind of action uniformly among those available (place,
        draw, claim), then uniformly within it: a placement among all legal (tile,
        cell, rotation) of the hand; a draw among "a random face-down tile" and each
        revealed tile; a claim among the unclaimed groups (at their representative
        micropul). Returns (kind, a, b): place (cell, oid), draw (tile or -1), claim (key)."""
        rng = self.rng.random
        kinds = self._turn_kinds
        kind = kinds[int(rng() * len(kinds))]
        p = self.current
        if kind == _PLACE:
            hand_mask = self.hand_masks[p]
            frontier = self.board.frontier
            # Running totals of legal placements per frontier cell, then a bisection.
            running = list(
                accumulate([(legal & hand_mask).bit_count() for legal in frontier.values()])
            )
            pick = int(rng() * running[-1])
            index = bisect_right(running, pick)
            cell = list(frontier)[index]
            bits = frontier[cell] & hand_mask
            for _ in range(pick - (running[index - 1] if index else 0)):
                bits &= bits - 1
            return _PLACE, cell, (bits & -bits).bit_length() - 1
        if kind == _DRAW:
            options = len(self.revealed[p]) + (1 if self.face_down[p] else 0)
            pick = int(rng() * options)
            if pick < len(self.revealed[p]):
                return _DRAW, sorted(self.revealed[p])[pick], 0
            return _DRAW, -1, 0
        roots = sorted(self.board.unclaimed)
        return _CLAIM, roots[int(rng() * len(roots))], 0

    def random_action(self) -> Action:
        """The action the random policy picks now (uses and advances the game's rng)."""
        if self._outcome is not None:
            raise IllegalActionError(Draw(), "the game is over")
        kind, a, b = self._choose()
        if kind == _PLACE:
            t = self.tiles
            return Place(t.tile_of[b], *cell_xy(a), t.rotation_of[b])
        if kind == _DRAW:
            return Draw(None if a < 0 else a)
        return Claim(*cell_xy(a >> 2), a & 3)

    def play_random(self) -> Outcome:
        """Play the random policy to the end (fast path: no validation needed)."""
        while self._outcome is None:
            kind, a, b = self._choose()
            if kind == _PLACE:
                self._place(a, b)
            elif kind == _DRAW:
                self._draw(None if a < 0 else a)
            else:
                self._claim(a)
        return self._outcome


def play_random_game(catalogue: Catalogue | TileSet, players: int = 2, seed: int = 0) -> Outcome:
    """One game of the random policy from a fresh set-up."""
    return Game(catalogue, players, seed).play_random()
