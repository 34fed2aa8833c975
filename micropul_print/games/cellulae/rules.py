"""The Cellulae rules engine: pure Python, no I/O, no YAML, no rendering.

Cellulae (Federico Latini) is played on a square board of odd side with two-sided
tiles, white on one face and black on the other. The rulings this engine follows are
stated in docs/cellulae.md; in short:

- set-up: a white tile on the top-left corner (0, 0), a black tile on the opposite
  corner; black moves first;
- a turn is a *replication* (a new tile, your colour up, on an empty square sharing a
  side with one of your tiles) or a *movement* (one of your tiles slides any distance
  along one of its diagonals to an empty square, over occupied squares if need be);
- contamination: every opponent tile sharing a side with the tile just placed or
  moved is turned over (no chain reaction);
- a player with no replication and no movement skips the turn (a :data:`SKIP` move);
  two skips in a row cannot happen (docs/cellulae.md says why);
- the game ends when the board is full, when a player has no tile left, or after
  :data:`QUIET_LIMIT` turns in a row without a replication. More tiles wins; equal
  counts are a draw.

The board is kept as two bitboards (bit ``y * side + x``), so a random game on the
5 × 5 board takes well under a millisecond. :class:`Board` is the game's state and
speaks the vocabulary of every rules engine here (``legal_actions``, ``apply_action``,
``undo``, ``clone``, ``current_player``, ``is_terminal``, ``returns``; see
docs/rules-engine.md). Cellulae has no chance: only the random policy draws, from the
generator given to :meth:`Board.play_random`.

Coordinates: ``x`` grows to the right, ``y`` grows downward, both from 0.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import cache


class Colour(StrEnum):
    """The face a tile shows, and the player it belongs to."""

    BLACK = "black"
    WHITE = "white"


class MoveKind(StrEnum):
    REPLICATE = "replicate"
    MOVE = "move"
    SKIP = "skip"


class IllegalReason(StrEnum):
    """Why an action is illegal (Board.illegal_reason); each says what is wrong."""

    GAME_OVER = "the game is over"
    OFF_BOARD = "off the board"
    OCCUPIED = "the square is occupied"
    NOT_BESIDE_OWN = "no tile of the player's colour shares a side with the square"
    NOT_OWN_TILE = "the square moved from holds no tile of the player's colour"
    NOT_DIAGONAL = "a tile moves along a diagonal only"
    MUST_ACT = "a player may skip only when no replication or movement is possible"
    NOT_THEIR_TURN = "it is the other player's turn"


class EndReason(StrEnum):
    """Why a game ended (Outcome.reason)."""

    BOARD_FULL = "board full"
    EXTINCTION = "a player has no tile left"
    QUIET = "no replication for too long"


# The members under their own names, as the rest of the project reads them.
BLACK = Colour.BLACK
WHITE = Colour.WHITE
COLOURS = (BLACK, WHITE)  # black moves first

REPLICATE = MoveKind.REPLICATE
MOVE = MoveKind.MOVE
SKIP_KIND = MoveKind.SKIP

GAME_OVER = IllegalReason.GAME_OVER
OFF_BOARD = IllegalReason.OFF_BOARD
OCCUPIED = IllegalReason.OCCUPIED
NOT_BESIDE_OWN = IllegalReason.NOT_BESIDE_OWN
NOT_OWN_TILE = IllegalReason.NOT_OWN_TILE
NOT_DIAGONAL = IllegalReason.NOT_DIAGONAL
MUST_ACT = IllegalReason.MUST_ACT
NOT_THEIR_TURN = IllegalReason.NOT_THEIR_TURN

BOARD_FULL = EndReason.BOARD_FULL
EXTINCTION = EndReason.EXTINCTION
QUIET = EndReason.QUIET
END_REASONS = tuple(EndReason)

# The game ends after this many turns in a row (skips included) with no replication:
# movements alone cannot decide a game for ever. 20 turns is ten for each player.
QUIET_LIMIT = 20

Square = tuple[int, int]


def other(colour: str) -> str:
    return WHITE if colour == BLACK else BLACK


@dataclass(frozen=True)
class Move:
    """One turn's action: a replication onto ``to``, a movement ``frm`` -> ``to``, or
    a skip (both None). Written ``r x,y``, ``m x,y-x,y`` or ``skip`` (see :meth:`parse`)."""

    to: Square | None
    frm: Square | None = None

    @property
    def kind(self) -> str:
        if self.to is None:
            return SKIP_KIND
        return REPLICATE if self.frm is None else MOVE

    def __str__(self) -> str:
        if self.to is None:
            return "skip"
        if self.frm is None:
            return f"r {self.to[0]},{self.to[1]}"
        return f"m {self.frm[0]},{self.frm[1]}-{self.to[0]},{self.to[1]}"

    @classmethod
    def parse(cls, text: str) -> Move:
        """``r 2,3`` (replicate), ``m 0,0-2,2`` (move) or ``skip``; ValueError otherwise."""
        words = text.split()
        if words == ["skip"]:
            return SKIP
        if len(words) == 2 and words[0] == "r":
            return cls(_square(words[1]))
        if len(words) == 2 and words[0] == "m" and "-" in words[1]:
            start, _, end = words[1].partition("-")
            return cls(_square(end), _square(start))
        raise ValueError(f"not a Cellulae move: {text!r} (expected 'r X,Y', 'm X,Y-X,Y' or 'skip')")


def _square(text: str) -> Square:
    x, _, y = text.partition(",")
    return int(x), int(y)


SKIP = Move(None)


class IllegalMoveError(ValueError):
    """A move that the rules do not allow; ``reason`` is one of the reasons above."""

    def __init__(self, move: Move, reason: str) -> None:
        self.move = move
        self.reason = reason
        super().__init__(f"illegal move {move}: {reason}")


@dataclass(frozen=True)
class Outcome:
    winner: str | None  # BLACK, WHITE, or None for a draw
    counts: dict[str, int]  # colour -> tiles showing it
    reason: str  # one of END_REASONS
    turns: int  # turns played since the board was set up (skips included)


@dataclass(frozen=True)
class _Geometry:
    """Masks for one board side, computed once.

    Movement counts: a tile moves to any empty square of its two diagonals, so a
    player's movements number the sum over diagonal lines of (own tiles on the line) x
    (empty squares on it). Per-line counts are kept packed in one int, a field of
    ``width`` bits per line ('/' lines x + y, then the other diagonals, x - y + side -
    1), and the empty squares' counts with the fields in reverse order: that sum of
    products is then the middle field of one product (``dot_shift``, ``field_mask``)."""

    side: int
    full: int
    beside: tuple[int, ...]  # square -> squares sharing a side with it
    diagonal: tuple[int, ...]  # square -> every square on its two diagonals
    not_left: int  # every square but the left column
    not_right: int  # every square but the right column
    # The same as beside and diagonal, keyed by the square's bit (1 << index).
    beside_bit: dict[int, int]
    diagonal_bit: dict[int, int]
    # Square bit -> its two lines' fields (lines), the same reversed (lines_reversed);
    # a set of squares sharing a side with one square -> the sum of their lines' fields
    # (the tiles a move turns over).
    lines: dict[int, int]
    lines_reversed: dict[int, int]
    lines_of_set: dict[int, int]
    empty_reversed: int  # the reversed line counts of an empty board
    dot_shift: int
    field_mask: int


@cache
def _geometry(side: int) -> _Geometry:
    squares = side * side
    beside: list[int] = []
    diagonal: list[int] = []
    for index in range(squares):
        x, y = index % side, index // side
        mask = 0
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            if 0 <= x + dx < side and 0 <= y + dy < side:
                mask |= 1 << ((y + dy) * side + x + dx)
        beside.append(mask)
        mask = 0
        for dx, dy in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
            step = 1
            while 0 <= x + step * dx < side and 0 <= y + step * dy < side:
                mask |= 1 << ((y + step * dy) * side + x + step * dx)
                step += 1
        diagonal.append(mask)
    left = sum(1 << (y * side) for y in range(side))
    full = (1 << squares) - 1
    fields = 2 * (2 * side - 1)
    # A field of the product holds at most (2 lines x own tiles) x side.
    width = (2 * squares * side).bit_length() + 1
    lines: dict[int, int] = {}
    lines_reversed: dict[int, int] = {}
    for index in range(squares):
        x, y = index % side, index // side
        ids = (x + y, 2 * side - 1 + x - y + side - 1)
        lines[1 << index] = sum(1 << width * i for i in ids)
        lines_reversed[1 << index] = sum(1 << width * (fields - 1 - i) for i in ids)
    lines_of_set: dict[int, int] = {}
    for index in range(squares):
        near = _bits(beside[index])
        for chosen in range(1, 1 << len(near)):
            members = [1 << near[i] for i in range(len(near)) if chosen >> i & 1]
            lines_of_set[sum(members)] = sum(lines[bit] for bit in members)
    return _Geometry(
        side,
        full,
        tuple(beside),
        tuple(diagonal),
        full & ~left,
        full & ~(left << (side - 1)),
        {1 << i: mask for i, mask in enumerate(beside)},
        {1 << i: mask for i, mask in enumerate(diagonal)},
        lines,
        lines_reversed,
        lines_of_set,
        sum(lines_reversed.values()),
        width * (fields - 1),
        (1 << width) - 1,
    )


def _bits(mask: int) -> list[int]:
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


class Board:
    """A Cellulae position and its history, in the manner of python-chess's Board.

    ``Board(5)`` is the starting position; :meth:`from_tiles` sets up any other.
    :meth:`legal_actions`, :meth:`apply_action` (validates; raises
    :class:`IllegalMoveError`), :meth:`undo`, :meth:`clone`, :meth:`outcome`,
    :meth:`play_random`.
    """

    def __init__(self, side: int = 5, quiet_limit: int = QUIET_LIMIT) -> None:
        if side < 3 or side % 2 == 0:
            raise ValueError(f"a Cellulae board has an odd side of 3 or more, not {side}")
        if quiet_limit < 1:
            raise ValueError(f"quiet_limit must be 1 or more, not {quiet_limit}")
        self.side = side
        self.quiet_limit = quiet_limit
        self._geo = _geometry(side)
        last = side * side - 1
        self._tiles: dict[str, int] = {WHITE: 1, BLACK: 1 << last}
        self.turn: str = BLACK
        self.quiet = 0  # turns in a row without a replication
        self.turns = 0
        # Per move played: (mover's tiles, opponent's tiles, quiet) before it, and the
        # bits of its start and end squares (0: none), for undo and move_stack. The mover
        # and the turn count follow: every move passes the turn and counts one.
        self._stack: list[tuple[int, int, int, int, int]] = []

    @classmethod
    def from_tiles(
        cls,
        side: int,
        tiles: Mapping[Square, str],
        turn: str = BLACK,
        quiet_limit: int = QUIET_LIMIT,
    ) -> Board:
        """A board with exactly ``tiles`` (square -> colour showing) and ``turn`` to move."""
        board = cls(side, quiet_limit)
        board._tiles = {WHITE: 0, BLACK: 0}
        for (x, y), colour in tiles.items():
            board._check_square((x, y))
            if colour not in COLOURS:
                raise ValueError(f"unknown colour {colour!r} (expected black or white)")
            board._tiles[colour] |= 1 << board._index((x, y))
        if turn not in COLOURS:
            raise ValueError(f"unknown colour {turn!r} (expected black or white)")
        board.turn = turn
        return board

    # -- reading the position ------------------------------------------------

    def _index(self, square: Square) -> int:
        return square[1] * self.side + square[0]

    def _square_of(self, index: int) -> Square:
        return index % self.side, index // self.side

    def on_board(self, square: Square) -> bool:
        return 0 <= square[0] < self.side and 0 <= square[1] < self.side

    def _check_square(self, square: Square) -> None:
        if not self.on_board(square):
            raise ValueError(f"square {square} is off the {self.side} × {self.side} board")

    def colour_at(self, square: Square) -> str | None:
        """The colour showing on the tile at ``square``, or None if it is empty."""
        self._check_square(square)
        bit = 1 << self._index(square)
        if self._tiles[BLACK] & bit:
            return BLACK
        if self._tiles[WHITE] & bit:
            return WHITE
        return None

    def tiles(self) -> dict[Square, str]:
        """Every tile on the board: square -> colour showing."""
        return {
            self._square_of(i): colour for colour in COLOURS for i in _bits(self._tiles[colour])
        }

    def counts(self) -> dict[str, int]:
        return {colour: self._tiles[colour].bit_count() for colour in COLOURS}

    @property
    def empty_squares(self) -> int:
        return self.side * self.side - sum(self.counts().values())

    def supply(self) -> int:
        """Tiles left to replicate with: the set has one tile per square of the board,
        so the supply runs out exactly when the board is full."""
        return self.empty_squares

    def rows(self) -> list[str]:
        """The board as text, top row first: ``B`` black, ``W`` white, ``.`` empty."""
        grid = [["."] * self.side for _ in range(self.side)]
        for (x, y), colour in self.tiles().items():
            grid[y][x] = "B" if colour == BLACK else "W"
        return ["".join(row) for row in grid]

    def __str__(self) -> str:
        return "\n".join(self.rows())

    def clone(self) -> Board:
        board = Board.from_tiles(self.side, {}, self.turn, self.quiet_limit)
        board._tiles = dict(self._tiles)
        board.quiet, board.turns = self.quiet, self.turns
        board._stack = list(self._stack)
        return board

    # -- legal moves ---------------------------------------------------------

    def _replication_targets(self, colour: str) -> int:
        geo = self._geo
        own = self._tiles[colour]
        empty = geo.full & ~(self._tiles[BLACK] | self._tiles[WHITE])
        reach = (
            ((own << 1) & geo.not_left)
            | ((own >> 1) & geo.not_right)
            | (own << self.side)
            | (own >> self.side)
        )
        return reach & empty

    def replications(self, colour: str | None = None) -> list[Move]:
        """Every replication open to ``colour`` (default: the side to move)."""
        colour = colour or self.turn
        targets = self._replication_targets(colour)
        return [Move(self._square_of(i)) for i in _bits(targets)]

    def movements(self, colour: str | None = None) -> list[Move]:
        """Every diagonal movement open to ``colour`` (default: the side to move)."""
        colour = colour or self.turn
        geo = self._geo
        empty = geo.full & ~(self._tiles[BLACK] | self._tiles[WHITE])
        moves = []
        for start in _bits(self._tiles[colour]):
            for end in _bits(geo.diagonal[start] & empty):
                moves.append(Move(self._square_of(end), self._square_of(start)))
        return moves

    def current_player(self) -> int:
        """The seat to move: 0 black (who moves first), 1 white."""
        return 0 if self.turn == BLACK else 1

    def legal_actions(self, colour: str | None = None) -> list[Move]:
        """Replications then movements for ``colour`` (default: the side to move); just
        ``[SKIP]`` when there are none; empty once the game is over."""
        if self.is_terminal():
            return []
        moves = self.replications(colour) + self.movements(colour)
        return moves or [SKIP]

    def illegal_reason(self, move: Move, colour: str | None = None) -> str | None:
        """Why ``move`` is illegal for ``colour`` (default: the side to move), or None."""
        colour = colour or self.turn
        if self.is_terminal():
            return GAME_OVER
        if colour != self.turn:
            return NOT_THEIR_TURN
        if move.to is None:
            if self._replication_targets(colour) or self.movements(colour):
                return MUST_ACT
            return None
        if not self.on_board(move.to) or (move.frm is not None and not self.on_board(move.frm)):
            return OFF_BOARD
        if move.frm is not None and self.colour_at(move.frm) != colour:
            return NOT_OWN_TILE
        if self.colour_at(move.to) is not None:
            return OCCUPIED
        target = 1 << self._index(move.to)
        if move.frm is None:
            return None if self._replication_targets(colour) & target else NOT_BESIDE_OWN
        if not self._geo.diagonal[self._index(move.frm)] & target:
            return NOT_DIAGONAL
        return None

    def is_legal(self, move: Move) -> bool:
        return self.illegal_reason(move) is None

    # -- playing -------------------------------------------------------------

    def flipped_by(self, move: Move) -> list[Square]:
        """The squares the legal ``move`` would turn over (contamination), in reading
        order, without playing it. Raises IllegalMoveError if it is illegal."""
        reason = self.illegal_reason(move)
        if reason is not None:
            raise IllegalMoveError(move, reason)
        if move.to is None:
            return []
        end = self._index(move.to)
        flipped = self._geo.beside[end] & self._tiles[other(self.turn)]
        return [self._square_of(i) for i in _bits(flipped)]

    def apply_action(self, move: Move) -> None:
        """Play ``move`` for the side to move. Raises IllegalMoveError (nothing changes)
        if it is illegal; :meth:`flipped_by` tells what it turns over."""
        reason = self.illegal_reason(move)
        if reason is not None:
            raise IllegalMoveError(move, reason)
        start = -1 if move.frm is None else self._index(move.frm)
        end = -1 if move.to is None else self._index(move.to)
        self._apply(start, end)

    def _apply(self, start: int, end: int) -> int:
        """Play an action already known to be legal (squares as indexes, -1 for none);
        the mask of the tiles turned over."""
        mover, opponent = self.turn, other(self.turn)
        own, theirs = self._tiles[mover], self._tiles[opponent]
        start_bit = 0 if start < 0 else 1 << start
        end_bit = 0 if end < 0 else 1 << end
        self._stack.append((own, theirs, self.quiet, start_bit, end_bit))
        flipped = 0
        if end < 0:
            self.quiet += 1
        else:
            if start < 0:
                self.quiet = 0
            else:
                own &= ~start_bit
                self.quiet += 1
            own |= end_bit
            flipped = self._geo.beside[end] & theirs
            own |= flipped
            theirs &= ~flipped
        self._tiles[mover], self._tiles[opponent] = own, theirs
        self.turn = opponent
        self.turns += 1
        return flipped

    def _move(self, start: int, end: int) -> Move:
        """The Move of a stack entry's start and end bits."""
        if not end:
            return SKIP
        to = self._square_of(end.bit_length() - 1)
        return Move(to, self._square_of(start.bit_length() - 1) if start else None)

    def undo(self) -> Move:
        """Take back the last move; return it (IndexError if none)."""
        own, theirs, quiet, start, end = self._stack.pop()
        mover = other(self.turn)
        self._tiles[mover], self._tiles[self.turn] = own, theirs
        self.turn, self.quiet, self.turns = mover, quiet, self.turns - 1
        return self._move(start, end)

    @property
    def move_stack(self) -> list[Move]:
        return [self._move(entry[3], entry[4]) for entry in self._stack]

    # -- the end -------------------------------------------------------------

    def end_reason(self) -> str | None:
        """Why the game is over (one of END_REASONS, first that applies), or None."""
        black, white = self._tiles[BLACK], self._tiles[WHITE]
        if black | white == self._geo.full:
            return BOARD_FULL
        if not black or not white:
            return EXTINCTION
        if self.quiet >= self.quiet_limit:
            return QUIET
        return None

    def is_terminal(self) -> bool:
        return self.end_reason() is not None

    def returns(self) -> tuple[float, float]:
        """Black's and white's: 1 the winner, 0 the loser, 0.5 each for a draw; (0, 0)
        before the end."""
        outcome = self.outcome()
        if outcome is None:
            return (0.0, 0.0)
        if outcome.winner is None:
            return (0.5, 0.5)
        return (1.0, 0.0) if outcome.winner == BLACK else (0.0, 1.0)

    def outcome(self) -> Outcome | None:
        """The result once the game is over, else None. More tiles wins; equal is a draw."""
        reason = self.end_reason()
        if reason is None:
            return None
        counts = self.counts()
        winner = None
        if counts[BLACK] != counts[WHITE]:
            winner = BLACK if counts[BLACK] > counts[WHITE] else WHITE
        return Outcome(winner, counts, reason, self.turns)

    def play_random(self, rng: random.Random) -> Outcome:
        """Play uniformly random legal moves until the game ends; the outcome.

        Each turn every legal action (replication or movement) is equally likely: the
        pick-th of the replications (in square order) then the movements (by start,
        then end square), ``pick = rng.randrange(total)``. Always ends: tiles are never
        removed, so at most ``side * side - 2`` replications can happen, and at most
        ``quiet_limit`` turns pass between two of them.

        One loop over local variables: bitboards, squares as bits, no Move objects
        (move_stack makes them on demand). The number of movements comes from per-line
        counts kept up to date move by move (see _Geometry); a chosen movement is found
        by walking the mover's tiles from whichever end of the board is nearer."""
        geo = self._geo
        side = self.side
        full, not_left, not_right = geo.full, geo.not_left, geo.not_right
        beside, diagonal = geo.beside_bit, geo.diagonal_bit
        lines, lines_reversed, lines_of_set = geo.lines, geo.lines_reversed, geo.lines_of_set
        dot_shift, field_mask = geo.dot_shift, geo.field_mask
        getrandbits = rng.getrandbits
        randbelow = None if _FAST_RANDBELOW else rng.randrange
        stack = self._stack
        append = stack.append
        limit = self.quiet_limit
        quiet = self.quiet
        first_mover = self.turn
        own, theirs = self._tiles[first_mover], self._tiles[other(first_mover)]
        if own | theirs == full or not own or not theirs:
            return self._over()
        played_before = len(stack)
        # Per-line counts of the mover's tiles, the opponent's, and (reversed) the empty
        # squares'.
        mine = yours = 0
        empty_reversed = geo.empty_reversed
        rest = own
        while rest:
            low = rest & -rest
            mine += lines[low]
            empty_reversed -= lines_reversed[low]
            rest ^= low
        rest = theirs
        while rest:
            low = rest & -rest
            yours += lines[low]
            empty_reversed -= lines_reversed[low]
            rest ^= low
        while quiet < limit:
            empty = full ^ (own | theirs)
            replications = (
                ((own << 1) & not_left) | ((own >> 1) & not_right) | (own << side) | (own >> side)
            ) & empty
            count = replications.bit_count()
            total = count + (mine * empty_reversed >> dot_shift & field_mask)
            if total == 0:  # no replication, no movement: the turn is skipped
                append((own, theirs, quiet, 0, 0))
                quiet += 1
                own, theirs = theirs, own
                mine, yours = yours, mine
                continue
            if randbelow is None:  # rng.randrange(total), spelled out
                bits = total.bit_length()
                pick = getrandbits(bits)
                while pick >= total:
                    pick = getrandbits(bits)
            else:
                pick = randbelow(total)
            if pick < count:
                start = 0
                targets = replications
                for _ in range(pick):
                    targets &= targets - 1
                end = targets & -targets
                append((own, theirs, quiet, 0, end))
                quiet = 0
                mine += lines[end]
                empty_reversed -= lines_reversed[end]
            else:
                pick -= count
                moves = total - count
                rest = own
                if pick + pick < moves:  # from the first square
                    while True:
                        start = rest & -rest
                        targets = diagonal[start] & empty
                        count = targets.bit_count()
                        if pick < count:
                            break
                        pick -= count
                        rest ^= start
                else:  # from the last square, counting back
                    pick = moves - 1 - pick
                    while True:
                        start = 1 << (rest.bit_length() - 1)
                        targets = diagonal[start] & empty
                        count = targets.bit_count()
                        if pick < count:
                            break
                        pick -= count
                        rest ^= start
                    pick = count - 1 - pick
                for _ in range(pick):
                    targets &= targets - 1
                end = targets & -targets
                append((own, theirs, quiet, start, end))
                quiet += 1
                own ^= start
                mine += lines[end] - lines[start]
                empty_reversed += lines_reversed[start] - lines_reversed[end]
            flipped = beside[end] & theirs
            own |= end | flipped
            if flipped:
                theirs ^= flipped
                turned = lines_of_set[flipped]
                mine += turned
                yours -= turned
                if not theirs:  # extinction
                    own, theirs = theirs, own
                    break
            if not start and own | theirs == full:  # the board is full
                own, theirs = theirs, own
                break
            own, theirs = theirs, own
            mine, yours = yours, mine
        played = len(stack) - played_before
        mover = first_mover if played % 2 == 0 else other(first_mover)
        self._tiles[mover], self._tiles[other(mover)] = own, theirs
        self.turn, self.quiet, self.turns = mover, quiet, self.turns + played
        return self._over()

    def _over(self) -> Outcome:
        outcome = self.outcome()
        assert outcome is not None
        return outcome


def _randbelow_agrees() -> bool:
    """Whether ``randrange(n)`` of this Python draws ``getrandbits(n.bit_length())``
    until below n, as play_random spells it out."""
    for seed, n in ((0, 5), (1, 37), (2, 300), (3, 1)):
        mine, theirs = random.Random(seed), random.Random(seed)
        bits = n.bit_length()
        pick = mine.getrandbits(bits)
        while pick >= n:
            pick = mine.getrandbits(bits)
        if pick != theirs.randrange(n) or mine.random() != theirs.random():
            return False
    return True


_FAST_RANDBELOW = _randbelow_agrees()


def play_random_game(side: int = 5, seed: int = 0, quiet_limit: int = QUIET_LIMIT) -> Outcome:
    """One uniformly random game from the starting position (deterministic per seed)."""
    return Board(side, quiet_limit).play_random(random.Random(seed))


__all__ = [
    "BLACK",
    "BOARD_FULL",
    "COLOURS",
    "END_REASONS",
    "EXTINCTION",
    "GAME_OVER",
    "MOVE",
    "MUST_ACT",
    "NOT_BESIDE_OWN",
    "NOT_DIAGONAL",
    "NOT_OWN_TILE",
    "NOT_THEIR_TURN",
    "OCCUPIED",
    "OFF_BOARD",
    "QUIET",
    "QUIET_LIMIT",
    "REPLICATE",
    "SKIP",
    "SKIP_KIND",
    "WHITE",
    "Board",
    "Colour",
    "EndReason",
    "IllegalMoveError",
    "IllegalReason",
    "Move",
    "MoveKind",
    "Outcome",
    "other",
    "play_random_game",
]
