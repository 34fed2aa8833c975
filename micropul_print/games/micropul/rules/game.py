"""A whole game of Micropul for one (solitaire) or two players. Pure: no I/O.

State: the board, the core (face-down pile), each player's hand (face up), supply (face
down; in solitaire some supply tiles may be revealed for good), stones left and whose
turn it is. :class:`Match` speaks the vocabulary of every rules engine here (after
OpenSpiel's ``State``; docs/rules-engine.md): ``legal_actions()`` lists every action,
``apply_action(action)`` plays one (raising IllegalActionError with the reason when it
is not allowed), ``undo()`` takes it back, ``clone()`` copies, ``current_player()``,
``is_terminal()`` and ``returns()`` read the state, ``outcome()`` says how the game
ended and the scores. Chance is the state's own: shuffling, random supply tiles and the
random policy draw from one ``random.Random(seed)`` that ``clone()`` carries and
``undo()`` restores, so the same seed and the same actions give the same game.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final, NamedTuple, cast

from micropul_print.games.micropul.model import Catalogue
from micropul_print.games.micropul.rules.board import Board, Placement, catalysts
from micropul_print.games.micropul.rules.tiles import (
    _OFFSET,
    COORD_LIMIT,
    KIND_DRAWS,
    KIND_PLUS,
    PLACE_RANK_SHIFT,
    ROTATIONS,
    STRIDE,
    TileSet,
    cell_key,
    cell_xy,
    tileset,
)

HAND_LIMIT: Final = 6
STONES: Final = 3
START_HAND: Final = 6



class EndReason(StrEnum):
    """How a game ended (Outcome.reason)."""

    CORE_EXHAUSTED = "core exhausted"  # the last tile was taken from the core
    OUT_OF_TILES = "out of tiles"  # a player has no tile in hand or supply
    NO_LEGAL_ACTION = "no legal action"  # the project's ruling: the game ends, scored normally


CORE_EXHAUSTED: Final = EndReason.CORE_EXHAUSTED
OUT_OF_TILES: Final = EndReason.OUT_OF_TILES
NO_LEGAL_ACTION: Final = EndReason.NO_LEGAL_ACTION
END_REASONS: Final = tuple(EndReason)


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
_PLACE: Final = 0
_DRAW: Final = 1
_CLAIM: Final = 2
# Kinds available, by bits: 1 a placement, 2 a draw, 4 a claim.
_KIND_SETS: Final = tuple(
    tuple(kind for bit, kind in ((1, _PLACE), (2, _DRAW), (4, _CLAIM)) if bits & bit)
    for bits in range(8)
)
# Reading x and y back from a quadrant key (cell key << 2 | quadrant) or the low part of
# a placement's sort key (TileSet.place_order): y in bits 2.., x above it.
_COORD: Final = STRIDE - 1
_X_SHIFT: Final = STRIDE.bit_length() + 1


class _Record(NamedTuple):
    """What Match.undo needs to take back one action (besides the board's own record)."""

    action: Action
    current: int
    turns: int
    outcome: Outcome | None
    kinds: list[int] | None
    hand_mask: int
    position: int  # where the tile left the hand, or (draw) the revealed tiles / the pile
    moved: int  # tiles a placement moved from the core to the supply
    rng_state: tuple[Any, ...] | None  # before the generator drew, if it did
    face_down: list[int] | None  # solitaire: the supply before pluses revealed tiles
    revealed: list[int] | None


class Match:
    """One game of Micropul: the rules engine's state (``Match``, not ``Game``: that
    is the plugin protocol of micropul_print.game.api). Set-up: the start tile at (0, 0)
    rotation 0, the other tiles shuffled into the core, 6 to each hand (player 1
    first), 3 stones each. Seats are 0-based in ``current_player()`` and ``returns()``;
    the rules' players, as ``player``, ``Outcome`` and the stones name them, from 1."""

    def __init__(
        self,
        catalogue: Catalogue | TileSet,
        players: int = 2,
        seed: int | None = None,
        *,
        _original: Match | None = None,
        _rng: random.Random | None = None,
        _scratch: bool = False,
    ) -> None:
        if players not in (1, 2):
            raise ValueError(f"players must be 1 or 2, not {players!r}")
        self.tiles = catalogue if isinstance(catalogue, TileSet) else tileset(catalogue)
        self.players = players
        self._history: list[_Record] = []
        # True on a search's scratch copy (scratch_copy): no undo records.
        self._scratch = False
        if _original is not None:  # clone(): every other attribute comes from the original
            self._copy_from(_original, _rng, _scratch or _original._scratch)
            return
        self.rng = random.Random(seed)
        start, core = _start(self.tiles)
        self.board = start.clone()
        self.core = list(core)
        shuffle(self.core, self.rng)
        self.hands: list[list[int]] = []
        self.hand_masks: list[int] = []
        mask_of_tile = self.tiles.mask_of_tile
        for _ in range(players):
            hand = self.core[: -min(START_HAND, len(self.core)) - 1 : -1]
            del self.core[len(self.core) - len(hand) :]
            self.hands.append(hand)
            mask = 0
            for tid in hand:
                mask |= mask_of_tile[tid]
            self.hand_masks.append(mask)
        self.face_down: list[list[int]] = [[] for _ in range(players)]
        self.revealed: list[list[int]] = [[] for _ in range(players)]  # solitaire only
        self.stones_left = [STONES] * players
        self.current = 0  # index of the player to move (player number - 1)
        self.turns = 0
        self._outcome: Outcome | None = None
        # The kinds of action of the player to move (the random policy's first choice),
        # or None until asked for (_kinds_now): a search's moves never need them.
        self._turn_kinds: list[int] | None = []
        self._start_turn()

    # -- reading the state -----------------------------------------------------------

    @property
    def player(self) -> int:
        """Number (1-based) of the player to move."""
        return self.current + 1

    def outcome(self) -> Outcome | None:
        return self._outcome

    def current_player(self) -> int:
        """Index (0-based) of the player to move; meaningless once terminal."""
        return self.current

    def is_terminal(self) -> bool:
        return self._outcome is not None

    def returns(self) -> tuple[float, ...]:
        """Once over: 1 for each winner, 0.5 for each of several winners (a tie), 0 for
        the others; all 0 before the end."""
        outcome = self._outcome
        if outcome is None:
            return (0.0,) * self.players
        winners = outcome.winners
        share = 1.0 if len(winners) == 1 else 0.5
        return tuple(share if p + 1 in winners else 0.0 for p in range(self.players))

    def all_tiles(self) -> list[int]:
        """Every tile id wherever it is (table, core, hands, supplies): for invariants."""
        found = [t for t, *_ in self.board.placed()] + list(self.core)
        for p in range(self.players):
            found += self.hands[p] + self.face_down[p] + self.revealed[p]
        return found

    def _mask_of(self, hand: list[int]) -> int:
        mask = 0
        for tid in hand:
            mask |= self.tiles.mask_of_tile[tid]
        return mask

    # -- legal actions ---------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Every legal action of the player to move: placements (sorted by tile, x, y,
        rotation; big tiles at rotation 0 only), draws, claims (one per micropul of an
        unclaimed group). Empty when the game is over."""
        if self._outcome is not None:
            return []
        p = self.current
        # One pass over the frontier for the whole hand, each placement as one int that
        # sorts by (tile, x, y, rotation): place_order(orientation) | cell key << 2. The
        # place orders of a cell's legal orientations and the Place of each int are made
        # once per tile set (_Listing): making them was most of the time.
        listing = _listing(self.tiles)
        masks = self.tiles.masks
        orders_of = listing.orders.get
        new_orders = listing.new_orders
        hand_mask = self.hand_masks[p]
        found: list[int] = []
        for cell, code in self.board.frontier.items():
            bits = masks[code] & hand_mask
            if bits:
                found += map((cell << 2).__or__, orders_of(bits) or new_orders(bits))
        found.sort()
        place_of = listing.places.get
        new_place = listing.new_place
        actions: list[Action] = [place_of(k) or new_place(k) for k in found]
        if len(self.hands[p]) < HAND_LIMIT:
            if self.face_down[p]:
                actions.append(Draw())
            actions += [Draw(tid) for tid in sorted(self.revealed[p])]
        board = self.board
        unclaimed = board.unclaimed
        if self.stones_left[p] and unclaimed:
            # Every micropul of an unclaimed group, by quadrant key (cell key * 4 + q).
            parent = board._parent
            cell_keys = board._keys
            micropul_of = self.tiles.micropul_quadrants
            keys = []
            for number, oid in enumerate(board._oids):
                for q in micropul_of[oid]:
                    root = 4 * number + q
                    while parent[root] != root:
                        root = parent[root]
                    if root in unclaimed:
                        keys.append(4 * cell_keys[number] + q)
            keys.sort()
            claim_of = _CLAIMS.get
            actions += [claim_of(k) or _new_claim(k) for k in keys]
        return actions

    def is_listed(self, action: Action) -> bool:
        """Whether ``action`` is one of ``legal_actions()`` now (an action made as that
        list makes them: Place, Draw and Claim of ints), without listing them all."""
        if self._outcome is not None:
            return False
        p = self.current
        kind = type(action)
        if kind is Place:
            place = cast(Place, action)
            return place.tile in self.hands[p] and self._listed_placement(place) is not None
        if kind is Draw:
            tile = cast(Draw, action).tile
            if len(self.hands[p]) >= HAND_LIMIT:
                return False
            return bool(self.face_down[p]) if tile is None else tile in self.revealed[p]
        if kind is Claim and self.stones_left[p]:
            x, y, quadrant = cast(Claim, action)
            if not (type(x) is int and type(y) is int and -COORD_LIMIT < x < COORD_LIMIT
                    and -COORD_LIMIT < y < COORD_LIMIT and type(quadrant) is int
                    and 0 <= quadrant < 4):
                return False
            board = self.board
            number = board.cells.get((x + _OFFSET) * STRIDE + (y + _OFFSET))
            if number is None or not self.tiles.colour[board._oids[number]][quadrant]:
                return False
            return board._find(4 * number + quadrant) in board.unclaimed
        return False

    def why_illegal(self, action: Action) -> str | None:
        """None when ``action`` is legal now, else the reason."""
        if self._outcome is not None:
            return "the game is over"
        p = self.current
        if isinstance(action, Place):
            if action.tile not in self.hands[p]:
                return f"tile {action.tile} is not in player {p + 1}'s hand"
            if self._listed_placement(action) is not None:
                return None
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

    def _listed_placement(self, action: Place) -> tuple[int, int] | None:
        """(cell key, orientation id) when ``action`` (a tile of the hand) is one of the
        placements that legal_actions lists: one look at the cell's legal orientations.
        None says nothing: Board.legality has the last word."""
        x, y, rotation = action.x, action.y, action.rotation
        if (rotation not in ROTATIONS or type(x) is not int or type(y) is not int
                or not -COORD_LIMIT < x < COORD_LIMIT or not -COORD_LIMIT < y < COORD_LIMIT):
            return None
        cell = (x + _OFFSET) * STRIDE + (y + _OFFSET)
        code = self.board.frontier.get(cell)
        if code is None:
            return None
        tiles = self.tiles
        oid = 4 * tiles.index[action.tile] + rotation // 90
        return (cell, oid) if tiles.masks[code] >> oid & 1 else None

    def preview(self, action: Place) -> Placement:
        """What the legal placement ``action`` would do (catalysts activated, tiles
        owed, pluses), without playing it: the report ``apply_action`` does not make,
        being the searches' fast path. IllegalActionError if it is not legal now."""
        reason = self.why_illegal(action)
        if reason is not None:
            raise IllegalActionError(action, reason)
        activated = self.board.activations(cell_key(action.x, action.y),
                                           self.tiles.oid(action.tile, action.rotation))
        return Placement(
            tile=action.tile,
            x=action.x,
            y=action.y,
            rotation=action.rotation,
            activated=catalysts(activated),
            draws=sum(KIND_DRAWS[k] for k in activated.values()),
            plus=sum(KIND_PLUS[k] for k in activated.values()),
        )

    def scores_after(
        self, actions: Sequence[Action]
    ) -> list[tuple[tuple[int, ...], tuple[float, ...] | None]]:
        """For each of ``actions`` (legal now), what playing it would lead to: the scores
        then, and the returns if the game would then be over (else None), exactly as
        ``apply_action``, ``scores()``, ``returns()`` and ``undo()`` would tell, for
        every player. A placement is worked out without being played: the catalysts it
        activates and the tiles they owe, the groups it closes or joins (only those
        facing its cell change, Board.groups_after) and whether the game ends there
        (the core emptied, a player out of tiles, the next player without a legal
        action). Draws and claims, a few a turn, are played and taken back, claims once
        per group (the stone's micropul within it changes nothing). What the bots rank
        moves by (lab.bots.move_values): an order of magnitude cheaper than playing
        each placement and taking it back."""
        if self._outcome is not None:
            if actions:
                raise IllegalActionError(actions[0], "the game is over")
            return []
        p = self.current
        players = self.players
        two = players == 2
        o = 1 - p if two else p
        board = self.board
        tiles = self.tiles
        now = self.scores()
        mine = now[p] - 1  # the tile leaves the hand
        theirs = now[o]
        core_left = len(self.core)
        hand = self.hands[p]
        supply = len(self.face_down[p]) + len(self.revealed[p])
        last_tile = len(hand) == 1 and not supply
        unclaimed_now = len(board.unclaimed)
        hand_mask = self.hand_masks[p]
        # The other player, who moves next unless a plus gives an extra turn: whether
        # they are out of tiles, or have a draw, whatever is placed.
        their_hand = len(self.hands[o])
        their_supply = len(self.face_down[o]) + len(self.revealed[o])
        their_stones = self.stones_left[o]
        my_stones = self.stones_left[p]
        index = tiles.index
        own_worth = tiles.own_worth
        side_worth = tiles.side_worth
        micropul_on = tiles.micropul_on
        inner_roots = tiles.inner_roots
        mask_of_tile = tiles.mask_of_tile
        views: dict[int, Any] = {}
        parent = board._parent
        claims: dict[int, tuple[tuple[int, ...], tuple[float, ...] | None]] = {}
        found: list[tuple[tuple[int, ...], tuple[float, ...] | None]] = []
        can_place: dict[int, bool] = {}  # hand mask -> a placement on the table as it is

        def goes_on(hand: int, supply: int, stones: int, unclaimed: int, mask: int) -> bool:
            """Whether a player with this many tiles in hand and supply, stones and
            unclaimed groups, and these orientations in hand, has an action on the
            table as it is (_start_turn)."""
            if (hand < HAND_LIMIT and supply) or (stones and unclaimed):
                return True
            known = can_place.get(mask)
            if known is None:
                known = can_place[mask] = board.can_place(mask)
            return known

        for action in actions:
            if type(action) is not Place:
                if type(action) is Claim:
                    # A stone on an unclaimed group: its points if it is closed; the table
                    # is otherwise as it was, one unclaimed group fewer.
                    x, y, quadrant = action  # a legal claim: a micropul on the table
                    root = 4 * board.cells[(x + _OFFSET) * STRIDE + (y + _OFFSET)] + quadrant
                    while parent[root] != root:
                        root = parent[root]
                    known = claims.get(root)
                    if known is None:
                        opened = board._open
                        if opened is None:
                            opened = board._open_counts()
                        score = now[p] + (0 if opened[root] else board._points[root])
                        scores: tuple[int, ...] = (
                            ((score, theirs) if p == 0 else (theirs, score)) if two else (score,))
                        if not hand and not supply:
                            known = (scores, _returns(scores, p + 1 if two else None))
                        elif two and not their_hand and not their_supply:
                            known = (scores, _returns(scores, o + 1))
                        elif (goes_on(their_hand, their_supply, their_stones, unclaimed_now - 1,
                                      self.hand_masks[o]) if two
                              else goes_on(len(hand), supply, my_stones - 1, unclaimed_now - 1,
                                           hand_mask)):
                            known = (scores, None)
                        else:
                            known = (scores, _returns(scores, None))
                        claims[root] = known
                    found.append(known)
                    continue
                else:  # a draw
                    # A tile from the supply to the hand: one point less (2 a supply tile,
                    # 1 a hand tile); the table as it was.
                    score = now[p] - 1
                    scores = ((score, theirs) if p == 0 else (theirs, score)) if two else (score,)
                    if two:
                        if not their_hand and not their_supply:
                            found.append((scores, _returns(scores, o + 1)))
                        elif goes_on(their_hand, their_supply, their_stones, unclaimed_now,
                                     self.hand_masks[o]):
                            found.append((scores, None))
                        else:
                            found.append((scores, _returns(scores, None)))
                    elif goes_on(len(hand) + 1, supply - 1, my_stones, unclaimed_now, hand_mask):
                        found.append((scores, None))
                    elif (drawn := cast(Draw, action).tile) is not None:
                        found.append((scores, None if goes_on(
                            HAND_LIMIT, 0, 0, 0, hand_mask | mask_of_tile[drawn])
                            else _returns(scores, None)))
                    else:  # solitaire: whether the face-down tile drawn can be placed
                        found.append(self._tried(action))
                    continue
            tile, x, y, rotation = action
            cell = (x + _OFFSET) * STRIDE + (y + _OFFSET)
            oid = 4 * index[tile] + rotation // 90
            view = views.get(cell)
            if view is None:
                view = views[cell] = board.placement_view(cell)
            _, facing, worth_rows, claimed, closable = view
            # The activated catalysts' worth, as Board._put counts it.
            worth = 0
            for bits, value in own_worth[oid]:
                if facing & bits:
                    worth += value
            at = 4 * oid
            for side, row in worth_rows:
                worth += side_worth[row + micropul_on[at + side]]
            draws = worth & 255
            moved = draws if draws < core_left else core_left
            score = mine + 2 * moved
            other = theirs
            if closable:
                gains, unclaimed = board.groups_after(view, oid)
                score += gains.get(p + 1, 0)
                if two:
                    other += gains.get(o + 1, 0)
            elif claimed:  # no score changes; the unclaimed groups when needed
                unclaimed = -1
            else:  # the groups it meets stay unclaimed; its own are new unclaimed ones
                unclaimed = unclaimed_now or len(inner_roots[oid])
            scores = ((score, other) if p == 0 else (other, score)) if two else (score,)
            # Whether the game ends, as _place, _end_turn and _start_turn tell it.
            if moved and moved == core_left:
                found.append((scores, _returns(scores, None)))
                continue
            if last_tile and not moved:
                found.append((scores, _returns(scores, p + 1 if two else None)))
                continue
            if two and not worth >> 8:  # the other player moves next
                if not their_hand and not their_supply:
                    found.append((scores, _returns(scores, o + 1)))
                    continue
                if ((their_hand < HAND_LIMIT and their_supply)
                        or (their_stones and (board.groups_after(view, oid)[1]
                                              if unclaimed < 0 else unclaimed))
                        or board.can_place_after(view, oid, self.hand_masks[o])):
                    found.append((scores, None))
                else:
                    found.append((scores, _returns(scores, None)))
                continue
            # The same player moves again (a plus in a two-player game, or solitaire).
            if ((supply or moved)
                    or (my_stones and (board.groups_after(view, oid)[1] if unclaimed < 0
                                       else unclaimed))
                    or board.can_place_after(view, oid, hand_mask & ~mask_of_tile[tile])):
                found.append((scores, None))
            else:
                found.append((scores, _returns(scores, None)))
        return found

    def _tried(self, action: Action) -> tuple[tuple[int, ...], tuple[float, ...] | None]:
        """The scores after ``action`` and its returns if the game is then over: the
        action played and taken back (records kept for it on a scratch copy too)."""
        scratch = self._scratch
        self._scratch = False
        self.board._journal = True
        try:
            self.apply_action(action)
            outcome = self._outcome
            result = ((outcome.scores, self.returns()) if outcome is not None
                      else (self.scores(), None))
            self.undo()
        finally:
            self._scratch = scratch
            self.board._journal = not scratch
        return result

    def apply_action(self, action: Action) -> None:
        """Play ``action`` for the player to move (IllegalActionError, a ValueError,
        naming the reason when it is not legal; nothing changes then). ``undo()`` takes
        it back; ``preview()`` tells what a placement does."""
        if (type(action) is Place and self._outcome is None
                and action.tile in self.hands[self.current]):
            listed = self._listed_placement(action)
            if listed is not None:  # legal: why_illegal would say so first
                self._place(listed[0], listed[1], action)
                return
        reason = self.why_illegal(action)
        if reason is not None:
            raise IllegalActionError(action, reason)
        self._apply_unchecked(action)

    def _apply_unchecked(self, action: Action) -> None:
        if isinstance(action, Place):
            self._place(cell_key(action.x, action.y),
                        self.tiles.oid(action.tile, action.rotation), action)
        elif isinstance(action, Draw):
            self._draw(action.tile, action)
        else:
            board = self.board
            self._claim(board._quadrant_id(action.x, action.y, action.quadrant), action)

    # -- applying (no checks: callers made sure the action is legal) -----------------

    def _record(
        self,
        action: Action,
        *,
        position: int = -1,
        moved: int = 0,
        rng_state: tuple[Any, ...] | None = None,
        face_down: list[int] | None = None,
        revealed: list[int] | None = None,
    ) -> None:
        """Keep what undo needs, before the action changes the hand mask and the turn."""
        p = self.current
        self._history.append(_Record(
            action, p, self.turns, self._outcome, self._turn_kinds, self.hand_masks[p],
            position, moved, rng_state, face_down, revealed,
        ))

    def _place(self, cell: int, oid: int, action: Action) -> None:
        p = self.current
        board = self.board
        worth = board._put(cell, oid)  # the activated catalysts' draws + 256 * pluses
        draws = worth & 255
        plus = worth >> 8
        core = self.core
        moved = min(draws, len(core))
        ends = moved > 0 and moved == len(core)
        tid = self.tiles.tile_of[oid]
        hand = self.hands[p]
        position = hand.index(tid)
        if self._scratch:  # no undo records (scratch_copy)
            pass
        elif plus and self.players == 1 and not ends and (self.face_down[0] or moved):
            # Pluses will reveal supply tiles at random: undo restores all that.
            self._record(action, position=position, moved=moved,
                         rng_state=self.rng.getstate(),
                         face_down=self.face_down[0] + core[len(core) - moved :][::-1],
                         revealed=list(self.revealed[0]))
        else:
            self._record(action, position=position, moved=moved)
        del hand[position]
        self.hand_masks[p] &= ~self.tiles.mask_of_tile[tid]
        supply = self.face_down[p]
        for _ in range(moved):
            supply.append(core.pop())
        if ends:
            self._finish(CORE_EXHAUSTED)
            return
        extra = False
        if plus:
            if self.players == 1:
                self._reveal(plus)
            else:
                extra = True
        self._end_turn(extra)

    def _reveal(self, count: int) -> None:
        hidden = self.face_down[0]
        for _ in range(min(count, len(hidden))):
            i = int(self.rng.random() * len(hidden))
            hidden[i], hidden[-1] = hidden[-1], hidden[i]
            self.revealed[0].append(hidden.pop())

    def _draw(self, tile: int | None, action: Action) -> None:
        p = self.current
        if tile is None:
            hidden = self.face_down[p]
            if self._scratch:
                i = int(self.rng.random() * len(hidden))
            else:
                rng_state = self.rng.getstate()
                i = int(self.rng.random() * len(hidden))
                self._record(action, position=i, rng_state=rng_state)
            hidden[i], hidden[-1] = hidden[-1], hidden[i]
            tile = hidden.pop()
        else:
            position = self.revealed[p].index(tile)
            if not self._scratch:
                self._record(action, position=position)
            del self.revealed[p][position]
        self.hands[p].append(tile)
        self.hand_masks[p] |= self.tiles.mask_of_tile[tile]
        self._end_turn(False)

    def _claim(self, qid: int, action: Action) -> None:
        p = self.current
        if not self._scratch:
            self._record(action)
        self.board._claim(p + 1, qid)
        self.stones_left[p] -= 1
        self._end_turn(False)

    def undo(self) -> Action:
        """Take back the last action applied, whoever played it, and return it:
        the game is as it was before, its random generator included (as a copy made
        then would be). IndexError when there is none: after set-up, or since
        play_random(), which keeps no record."""
        if not self._history:
            if self._scratch:
                raise IndexError("no action to take back: a scratch copy (scratch_copy) "
                                 "keeps no undo records")
            raise IndexError("no action to take back")
        record = self._history.pop()
        action = record.action
        p = record.current
        self.current = p
        self.turns = record.turns
        self._outcome = record.outcome
        self._turn_kinds = record.kinds
        self.hand_masks[p] = record.hand_mask
        if isinstance(action, Place):
            self.board.undo()
            if record.face_down is not None and record.revealed is not None:
                # Solitaire pluses revealed tiles: the supply as it was after the draws.
                self.face_down[0][:] = record.face_down
                self.revealed[0][:] = record.revealed
            if record.rng_state is not None:
                self.rng.setstate(record.rng_state)
            supply = self.face_down[p]
            for _ in range(record.moved):
                self.core.append(supply.pop())
            self.hands[p].insert(record.position, action.tile)
        elif isinstance(action, Draw):
            tile = self.hands[p].pop()
            if action.tile is None:
                hidden = self.face_down[p]
                hidden.append(tile)
                i = record.position
                hidden[i], hidden[-1] = hidden[-1], hidden[i]
                assert record.rng_state is not None
                self.rng.setstate(record.rng_state)
            else:
                self.revealed[p].insert(record.position, tile)
        else:
            self.board.undo()
            self.stones_left[p] += 1
        return action

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
        if ((len(self.hands[p]) < HAND_LIMIT and (self.face_down[p] or self.revealed[p]))
                or (self.stones_left[p] and self.board.unclaimed)):
            # A draw or a claim is there: the game goes on, and the kinds (a scan of the
            # frontier for a placement) wait until the random policy asks for them.
            self._turn_kinds = None
            return
        self._turn_kinds = self._kinds()  # kept for the random policy of this turn
        if not self._turn_kinds:
            self._finish(NO_LEGAL_ACTION)

    def _kinds_now(self) -> list[int]:
        """The kinds of action of the player to move (see _turn_kinds)."""
        kinds = self._turn_kinds
        if kinds is None:
            kinds = self._turn_kinds = self._kinds()
        return kinds

    def _kinds(self) -> list[int]:
        """The kinds of action the player to move has (place, draw, claim)."""
        p = self.current
        kinds = []
        hand_mask = self.hand_masks[p]
        if hand_mask:
            masks = self.tiles.masks
            for code in self.board.frontier.values():
                if masks[code] & hand_mask:
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
        face_down, revealed, hands = self.face_down, self.revealed, self.hands
        first = (from_groups.get(1, 0) + 2 * (len(face_down[0]) + len(revealed[0]))
                 + len(hands[0]))
        if self.players == 1:
            return (first,)
        return first, (from_groups.get(2, 0) + 2 * (len(face_down[1]) + len(revealed[1]))
                       + len(hands[1]))

    def _finish(self, reason: str, loser: int | None = None) -> Outcome:
        scores = self.scores()
        if loser is not None:
            winners = tuple(p for p in range(1, self.players + 1) if p != loser)
        else:
            best = max(scores)
            winners = tuple(p + 1 for p, s in enumerate(scores) if s == best)
        outcome = self._outcome = Outcome(reason, scores, winners, loser, self.turns)
        return outcome

    # -- the random policy -------------------------------------------------------------

    def _choose(self) -> tuple[int, int, int]:
        """The random policy: a kind of action uniformly among those available (place,
        draw, claim), then uniformly within it: a placement among all legal (tile,
        cell, rotation) of the hand; a draw among "a random face-down tile" and each
        revealed tile; a claim among the unclaimed groups (at their representative
        micropul, in the order of their quadrant keys). Returns (kind, a, b): place
        (cell, oid), draw (tile or -1), claim (quadrant id).

        play_random makes the same choices with the same draws of the rng, inline."""
        rng = self.rng.random
        kinds = self._kinds_now()
        kind = kinds[int(rng() * len(kinds))]
        p = self.current
        board = self.board
        if kind == _PLACE:
            hand_mask = self.hand_masks[p]
            masks = self.tiles.masks
            frontier = board.frontier
            counts = [(masks[code] & hand_mask).bit_count() for code in frontier.values()]
            # The pick-th placement, counting cell by cell in frontier order, then by
            # orientation id within the cell.
            pick = int(rng() * sum(counts))
            for cell, count in zip(frontier, counts, strict=True):  # noqa: B007 (cell: the one it breaks at)
                if pick < count:
                    break
                pick -= count
            bits = masks[frontier[cell]] & hand_mask
            for _ in range(pick):
                bits &= bits - 1
            return _PLACE, cell, (bits & -bits).bit_length() - 1
        if kind == _DRAW:
            options = len(self.revealed[p]) + (1 if self.face_down[p] else 0)
            pick = int(rng() * options)
            if pick < len(self.revealed[p]):
                return _DRAW, sorted(self.revealed[p])[pick], 0
            return _DRAW, -1, 0
        keys = sorted(board.quadrant_key(root) for root in board.unclaimed)
        key = keys[int(rng() * len(keys))]
        return _CLAIM, 4 * board.cells[key >> 2] + (key & 3), 0

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
        board = self.board
        return Claim(*cell_xy(board._keys[a >> 2]), a & 3)

    def play_random(self) -> Outcome:
        """Play the random policy to the end: the game that random_action() and
        apply_action() would play, with the same draws of the rng, in one loop (no
        Action objects, no checks), the table changed through its fast path
        (Board.playout: no undo records, so undo() cannot go back past this).

        The playout keeps every tile's number of legal placements in one packed int
        (TileSet.spreads): a hand's total is then the sum of its tiles' fields, one AND
        and one modulo (see TileSet.count_bits), not a scan of the frontier, and the
        frontier is scanned only to find the chosen placement's cell (from whichever
        end is nearer)."""
        if self._outcome is not None:
            return self._outcome
        t = self.tiles
        self._history.clear()
        # The table's fast path: placements and stones without undo records, and the
        # packed counts of every tile's legal placements over the frontier.
        put, claim_keys, claim, counts = self.board.playout()
        frontier = self.board.frontier
        unclaimed = self.board.unclaimed
        hands = self.hands
        hand_masks = self.hand_masks
        face_down = self.face_down
        revealed = self.revealed
        stones_left = self.stones_left
        core = self.core
        two = self.players == 2
        rng = self.rng.random
        tile_of = t.tile_of
        tile_mask = t.oid_tile_mask
        mask_of_tile = t.mask_of_tile
        masks = t.masks
        count_mask = t.count_mask
        kind_sets = _KIND_SETS
        # Per player the fields of the tiles in hand (see TileSet.spreads): a hand can
        # place iff counts & its fields.
        count_shift = t.count_shift  # a tile's field: count_mask << count_shift[tile]
        hand_fields = [0] * self.players
        for player, in_hand in enumerate(hands):
            for tid in in_hand:
                hand_fields[player] |= count_mask << count_shift[tid]
        p = self.current
        kinds = tuple(self._kinds_now())
        turns = self.turns
        reason = ""
        while True:
            hand = hands[p]
            kind = kinds[int(rng() * len(kinds))]
            extra = False
            if kind == _PLACE:
                hand_mask = hand_masks[p]
                total = (counts & hand_fields[p]) % count_mask  # its fields' sum
                pick = int(rng() * total)
                # The pick-th placement, counting cell by cell in frontier order, then by
                # orientation id within the cell; counted from the end when nearer.
                if pick + pick < total:
                    for cell, code in frontier.items():  # noqa: B007 (the cell it breaks at)
                        bits = masks[code] & hand_mask
                        count = bits.bit_count()
                        if pick < count:
                            break
                        pick -= count
                else:
                    pick = total - 1 - pick
                    for cell, code in reversed(frontier.items()):  # noqa: B007
                        bits = masks[code] & hand_mask
                        count = bits.bit_count()
                        if pick < count:
                            break
                        pick -= count
                    pick = count - 1 - pick
                for _ in range(pick):
                    bits &= bits - 1
                oid = (bits & -bits).bit_length() - 1
                worth, counts = put(cell, oid, counts)
                # -- the rest of Match._place -----------------------------------------
                tid = tile_of[oid]
                hand.remove(tid)
                hand_masks[p] = hand_mask & ~tile_mask[oid]
                hand_fields[p] ^= count_mask << count_shift[tid]
                draws = worth & 255
                if draws and core:
                    supply = face_down[p]
                    supply.append(core.pop())
                    while draws > 1 and core:
                        draws -= 1
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
                hand.append(tid)
                hand_masks[p] |= mask_of_tile[tid]
                hand_fields[p] |= count_mask << count_shift[tid]
            else:
                ordered = claim_keys()
                claim(p + 1, ordered[int(rng() * len(ordered))])
                stones_left[p] -= 1
            # -- Match._end_turn and _start_turn, inline --------------------------------
            turns += 1
            if not hand and not face_down[p] and not revealed[p]:
                reason = OUT_OF_TILES
                break
            if not extra and two:
                p = 1 - p
                hand = hands[p]
                if not hand and not face_down[p] and not revealed[p]:
                    reason = OUT_OF_TILES
                    break
            found = 1 if counts & hand_fields[p] else 0
            if len(hand) < HAND_LIMIT and (face_down[p] or revealed[p]):
                found |= 2
            if stones_left[p] and unclaimed:
                found |= 4
            kinds = kind_sets[found]
            if not kinds:
                reason = NO_LEGAL_ACTION
                break
        self.current = p
        self.turns = turns
        self._turn_kinds = list(kinds)
        return self._finish(reason, loser=p + 1 if two and reason == OUT_OF_TILES else None)

    def clone(self, rng: random.Random | None = None) -> Match:
        """An independent game in the same state, random generator included (both play
        on identically), undo records included; the tile tables are shared, being
        read-only. With ``rng``, the clone draws from it instead (a search's redrawn
        game: copying the generator's state costs more than the rest of a clone)."""
        return Match(self.tiles, self.players, _original=self, _rng=rng)

    def scratch_copy(self, rng: random.Random) -> Match:
        """``clone(rng)`` for a search that only plays forward from it and throws it
        away: it keeps no undo records (``undo()`` raises IndexError), which spares each
        action its record, a placement its copy of the frontier and a face-down draw
        its copy of the generator's state. The game played is the same."""
        return Match(self.tiles, self.players, _original=self, _rng=rng, _scratch=True)

    def _copy_from(self, original: Match, rng: random.Random | None, scratch: bool) -> None:
        if rng is None:
            # Random.__new__, not Random(): that would seed itself from os.urandom, at
            # once overwritten (the generator's state is all setstate needs).
            rng = random.Random.__new__(random.Random)
            rng.setstate(original.rng.getstate())
        self.rng = rng
        # A copy of a scratch copy is one too.
        self.board = original.board.clone(journal=not scratch)
        self._scratch = scratch
        self.core = original.core.copy()
        self.hands = [hand.copy() for hand in original.hands]
        self.hand_masks = original.hand_masks.copy()
        self.face_down = [tiles.copy() for tiles in original.face_down]
        self.revealed = [tiles.copy() for tiles in original.revealed]
        self.stones_left = original.stones_left.copy()
        self.current = original.current
        self.turns = original.turns
        self._outcome = original._outcome
        kinds = original._turn_kinds
        self._turn_kinds = None if kinds is None else kinds.copy()
        if not scratch:
            self._history = original._history.copy()


def _returns(scores: tuple[int, ...], loser: int | None) -> tuple[float, ...]:
    """Match.returns() of a game ended with ``scores`` (and ``loser``), as _finish
    and returns() would make them."""
    players = len(scores)
    if loser is not None:
        winners = [q for q in range(1, players + 1) if q != loser]
    else:
        best = max(scores)
        winners = [q + 1 for q, s in enumerate(scores) if s == best]
    share = 1.0 if len(winners) == 1 else 0.5
    return tuple(share if q + 1 in winners else 0.0 for q in range(players))


_STARTS: dict[int, tuple[TileSet, Board, tuple[int, ...]]] = {}


def _start(tiles: TileSet) -> tuple[Board, tuple[int, ...]]:
    """The table with the start tile and the other tiles in catalogue order, made once
    per tile set (every game copies them)."""
    found = _STARTS.get(id(tiles))
    if found is None or found[0] is not tiles:
        start = tiles.catalogue.start_tile
        board = Board(tiles)
        board.place(start.id, 0, 0, 0, check=False)
        board._history.clear()  # a game cannot take back its set-up
        found = _STARTS[id(tiles)] = (
            tiles, board, tuple(tid for tid in tiles.tile_ids if tid != start.id)
        )
    return found[1], found[2]


class _Listing:
    """What legal_actions keeps per tile set, up to _LISTING_KEPT items of each kind:
    the Place of each placement's sort key, and the sort keys' orientation parts
    (TileSet.place_order) of the orientations in a mask."""

    def __init__(self, tiles: TileSet) -> None:
        self.tiles = tiles
        self.places: dict[int, Place] = {}
        self.orders: dict[int, tuple[int, ...]] = {}

    def new_place(self, key: int) -> Place:
        place = Place(
            self.tiles.sorted_ids[key >> PLACE_RANK_SHIFT],
            (key >> _X_SHIFT & _COORD) - _OFFSET,
            (key >> 2 & _COORD) - _OFFSET,
            (key & 3) * 90,
        )
        if len(self.places) < _LISTING_KEPT:
            self.places[key] = place
        return place

    def new_orders(self, mask: int) -> tuple[int, ...]:
        place_order = self.tiles.place_order
        found = []
        rest = mask
        while rest:
            low = rest & -rest
            rest ^= low
            found.append(place_order[low.bit_length() - 1])
        orders = tuple(found)
        if len(self.orders) < _LISTING_KEPT:
            self.orders[mask] = orders
        return orders


# Quadrant key -> its Claim, made once (up to _LISTING_KEPT of them).
_CLAIMS: dict[int, Claim] = {}


def _new_claim(key: int) -> Claim:
    claim = tuple.__new__(  # skips the NamedTuple's __new__, written in Python
        Claim, ((key >> _X_SHIFT & _COORD) - _OFFSET, (key >> 2 & _COORD) - _OFFSET, key & 3))
    if len(_CLAIMS) < _LISTING_KEPT:
        _CLAIMS[key] = claim
    return claim


_LISTINGS: dict[int, _Listing] = {}
_LISTING_KEPT: Final = 1 << 16


def _listing(tiles: TileSet) -> _Listing:
    found = _LISTINGS.get(id(tiles))
    if found is None or found.tiles is not tiles:
        found = _LISTINGS[id(tiles)] = _Listing(tiles)
    return found


# Per length of the list shuffled: (i, bits drawn for it) of _fast_shuffle's steps.
_SHUFFLE_STEPS: dict[int, tuple[tuple[int, int], ...]] = {}


def _fast_shuffle(items: list[int], rng: random.Random) -> None:
    """``rng.shuffle(items)`` spelled out: CPython's shuffle swaps item i with item
    ``_randbelow(i + 1)`` for i from the last down to 1, and _randbelow(n) draws
    ``getrandbits(n.bit_length())`` until below n. Three times faster."""
    steps = _SHUFFLE_STEPS.get(len(items))
    if steps is None:
        steps = _SHUFFLE_STEPS[len(items)] = tuple(
            (i, (i + 1).bit_length()) for i in range(len(items) - 1, 0, -1)
        )
    getrandbits = rng.getrandbits
    for i, k in steps:
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


def shuffle(items: list[int], rng: random.Random) -> None:
    """``rng.shuffle(items)``: the same order from the same draws, three times faster
    (the set-up's shuffle, and a search's redrawing of hidden tiles)."""
    if _FAST_SHUFFLE:
        _fast_shuffle(items, rng)
    else:  # a Python whose shuffle draws differently: the games follow its shuffle
        rng.shuffle(items)


_FAST_SHUFFLE = _fast_shuffle_agrees()


def play_random_game(catalogue: Catalogue | TileSet, players: int = 2, seed: int = 0) -> Outcome:
    """One game of the random policy from a fresh set-up."""
    return Match(catalogue, players, seed).play_random()
