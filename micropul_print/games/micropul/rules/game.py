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
from dataclasses import dataclass
from typing import NamedTuple

from micropul_print.games.micropul.model import Catalogue
from micropul_print.games.micropul.rules.board import ALL_EMPTY, CLEAR, Board, Placement, catalysts
from micropul_print.games.micropul.rules.tiles import (
    JOINS,
    KIND_DRAWS,
    KIND_PLUS,
    OPPOSITE,
    STEP,
    TileSet,
    cell_key,
    cell_xy,
    facing_micropul,
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
        start, core = _start(self.tiles)
        self.board = start.copy()
        self.core = list(core)
        _shuffle(self.core, self.rng)
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
        micropul). Returns (kind, a, b): place (cell, oid), draw (tile or -1), claim (key).

        play_random makes the same choices with the same draws of the rng, inline."""
        rng = self.rng.random
        kinds = self._turn_kinds
        kind = kinds[int(rng() * len(kinds))]
        p = self.current
        if kind == _PLACE:
            hand_mask = self.hand_masks[p]
            frontier = self.board.frontier
            counts = [(legal & hand_mask).bit_count() for legal in frontier.values()]
            # The pick-th placement, counting cell by cell in frontier order, then by
            # orientation id within the cell.
            pick = int(rng() * sum(counts))
            for cell, count in zip(frontier, counts, strict=True):  # noqa: B007 (cell: the one it breaks at)
                if pick < count:
                    break
                pick -= count
            bits = frontier[cell] & hand_mask
            for _ in range(pick):
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
        """Play the random policy to the end: the game that random_action() and push()
        would play, with the same draws of the rng, in one loop over local variables
        (no Action objects, no checks, placements applied inline as Board._put does)."""
        if self._outcome is not None:
            return self._outcome
        t = self.tiles
        board = self.board
        cells = board.cells
        frontier = board.frontier
        codes = board._codes
        parent = board._parent
        points = board._points
        stones_on = board._stones
        unclaimed = board.unclaimed
        hands = self.hands
        hand_masks = self.hand_masks
        face_down = self.face_down
        revealed = self.revealed
        stones_left = self.stones_left
        core = self.core
        two = self.players == 2
        rng = self.rng.random
        tile_of = t.tile_of
        tile_mask = t.tile_mask
        index = t.index
        edge = t.edge
        edge_to = t.edge_to
        micropul_on = t.micropul_on
        side_worth = t.side_worth
        own_worth = t.own_worth
        inner_parent = t.inner_parent
        inner_points = t.inner_points
        masks = t.masks
        mask_for = t.mask_for
        p = self.current
        kinds = self._turn_kinds
        turns = self.turns
        reason = ""
        while True:
            kind = kinds[int(rng() * len(kinds))]
            extra = False
            if kind == _PLACE:
                hand_mask = hand_masks[p]
                counts = [(legal & hand_mask).bit_count() for legal in frontier.values()]
                pick = int(rng() * sum(counts))
                for cell, count in zip(frontier, counts, strict=True):  # noqa: B007 (cell: the one it breaks at)
                    if pick < count:
                        break
                    pick -= count
                bits = frontier[cell] & hand_mask
                for _ in range(pick):
                    bits &= bits - 1
                oid = (bits & -bits).bit_length() - 1
                # -- Board._put, inline ------------------------------------------------
                cells[cell] = oid
                del frontier[cell]
                facing = facing_micropul(codes.pop(cell))
                worth = 0
                for bits, value in own_worth[oid]:
                    if facing & bits:
                        worth += value
                base = cell * 4
                for q, first in inner_parent[oid]:
                    parent[base + q] = base + first
                for first, value in inner_points[oid]:
                    points[base + first] = value
                    unclaimed.add(base + first)
                at = 4 * oid
                mine = edge[oid]
                for side in (0, 1, 2, 3):
                    neighbour_cell = cell + STEP[side]
                    neighbour = cells.get(neighbour_cell)
                    if neighbour is None:
                        code = (
                            codes.get(neighbour_cell, ALL_EMPTY) & CLEAR[side]
                            | edge_to[at + side]
                        )
                        codes[neighbour_cell] = code
                        mask = masks.get(code)
                        frontier[neighbour_cell] = mask_for(code) if mask is None else mask
                        continue
                    back = OPPOSITE[side]
                    for bits, value in side_worth[4 * neighbour + back]:
                        if micropul_on[at + side] & bits:
                            worth += value
                    for q, their in JOINS[side][9 * mine[side] + edge[neighbour][back]]:
                        ra = base + q
                        while parent[ra] != ra:
                            ra = parent[ra]
                        rb = neighbour_cell * 4 + their
                        while parent[rb] != rb:
                            parent[rb] = parent[parent[rb]]
                            rb = parent[rb]
                        if ra == rb:
                            continue
                        if points[ra] < points[rb]:
                            ra, rb = rb, ra
                        parent[rb] = ra
                        points[ra] += points.pop(rb)
                        moved = stones_on.pop(rb, None)
                        if moved is not None:
                            stones_on.setdefault(ra, []).extend(moved)
                            unclaimed.discard(ra)
                        unclaimed.discard(rb)
                # -- the rest of Game._place ------------------------------------------
                tid = tile_of[oid]
                hands[p].remove(tid)
                hand_masks[p] = hand_mask & ~tile_mask[index[tid]]
                draws = worth & 255
                if draws and core:
                    supply = face_down[p]
                    for _ in range(min(draws, len(core))):
                        supply.append(core.pop())
                    if not core:
                        reason = CORE_EXHAUSTED
                        break
                if worth >> 8:
                    if two:
                        extra = True
                    else:
                        hidden = face_down[0]
                        for _ in range(min(worth >> 8, len(hidden))):
                            i = int(rng() * len(hidden))
                            hidden[i], hidden[-1] = hidden[-1], hidden[i]
                            revealed[0].append(hidden.pop())
            elif kind == _DRAW:
                shown = revealed[p]
                hidden = face_down[p]
                pick = int(rng() * (len(shown) + (1 if hidden else 0)))
                if pick < len(shown):
                    tid = sorted(shown)[pick]
                    shown.remove(tid)
                else:
                    i = int(rng() * len(hidden))
                    hidden[i], hidden[-1] = hidden[-1], hidden[i]
                    tid = hidden.pop()
                hands[p].append(tid)
                hand_masks[p] |= tile_mask[index[tid]]
            else:
                roots = sorted(unclaimed)
                root = roots[int(rng() * len(roots))]
                board.stones.append((p + 1, *cell_xy(root >> 2), root & 3))
                stones_on.setdefault(root, []).append(p + 1)
                unclaimed.discard(root)
                stones_left[p] -= 1
            # -- Game._end_turn and _start_turn, inline ----------------------------------
            turns += 1
            if not hands[p] and not face_down[p] and not revealed[p]:
                reason = OUT_OF_TILES
                break
            if not extra and two:
                p = 1 - p
                if not hands[p] and not face_down[p] and not revealed[p]:
                    reason = OUT_OF_TILES
                    break
            kinds = []
            hand_mask = hand_masks[p]
            if hand_mask:
                for legal in frontier.values():
                    if legal & hand_mask:
                        kinds.append(_PLACE)
                        break
            if len(hands[p]) < HAND_LIMIT and (face_down[p] or revealed[p]):
                kinds.append(_DRAW)
            if stones_left[p] and unclaimed:
                kinds.append(_CLAIM)
            if not kinds:
                reason = NO_LEGAL_ACTION
                break
        self.current = p
        self.turns = turns
        self._turn_kinds = kinds
        self._finish(reason, loser=p + 1 if two and reason == OUT_OF_TILES else None)
        assert self._outcome is not None
        return self._outcome

    def copy(self) -> Game:
        """An independent game in the same state, random generator included (both play
        on identically); the tile tables are shared, being read-only."""
        game = Game.__new__(Game)
        game.tiles = self.tiles
        game.players = self.players
        game.rng = random.Random.__new__(random.Random)
        game.rng.setstate(self.rng.getstate())
        game.board = self.board.copy()
        game.core = list(self.core)
        game.hands = [list(hand) for hand in self.hands]
        game.hand_masks = list(self.hand_masks)
        game.face_down = [list(tiles) for tiles in self.face_down]
        game.revealed = [list(tiles) for tiles in self.revealed]
        game.stones_left = list(self.stones_left)
        game.current = self.current
        game.turns = self.turns
        game._outcome = self._outcome
        game._turn_kinds = list(self._turn_kinds)
        return game


_STARTS: dict[int, tuple[TileSet, Board, tuple[int, ...]]] = {}


def _start(tiles: TileSet) -> tuple[Board, tuple[int, ...]]:
    """The table with the start tile and the other tiles in catalogue order, made once
    per tile set (every game copies them)."""
    found = _STARTS.get(id(tiles))
    if found is None or found[0] is not tiles:
        start = tiles.catalogue.start_tile
        board = Board(tiles)
        board.place(start.id, 0, 0, 0, check=False)
        found = _STARTS[id(tiles)] = (
            tiles, board, tuple(tid for tid in tiles.tile_ids if tid != start.id)
        )
    return found[1], found[2]


def _fast_shuffle(items: list[int], rng: random.Random) -> None:
    """``rng.shuffle(items)`` spelled out: CPython's shuffle swaps item i with item
    ``_randbelow(i + 1)`` for i from the last down to 1, and _randbelow(n) draws
    ``getrandbits(n.bit_length())`` until below n. Three times faster."""
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        k = (i + 1).bit_length()
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


def _fast_shuffle_agrees() -> bool:
    """Whether _fast_shuffle draws what this Python's random.shuffle draws."""
    for seed in range(4):
        mine, theirs = list(range(50)), list(range(50))
        ours_rng, their_rng = random.Random(seed), random.Random(seed)
        _fast_shuffle(mine, ours_rng)
        their_rng.shuffle(theirs)
        if mine != theirs or ours_rng.random() != their_rng.random():
            return False
    return True


def _shuffle(items: list[int], rng: random.Random) -> None:
    if _FAST_SHUFFLE:
        _fast_shuffle(items, rng)
    else:  # a Python whose shuffle draws differently: the games follow its shuffle
        rng.shuffle(items)


_FAST_SHUFFLE = _fast_shuffle_agrees()


def play_random_game(catalogue: Catalogue | TileSet, players: int = 2, seed: int = 0) -> Outcome:
    """One game of the random policy from a fresh set-up."""
    return Game(catalogue, players, seed).play_random()
