"""The values a game's rules and the core exchange: the :class:`Catalogue` the core
reads of any game's validated catalogue, the engine shape every rules engine offers
(:class:`GameState`), and the check's report. The game plugin protocol itself (rules
and printing data, GameInfo) is in micropul_print.plugin; the kit's options and jobs
in micropul_print.kitplan.

Nothing here imports a drawing library, a rules engine or YAML.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, Self, runtime_checkable

from micropul_print.errors import Diagnostic

JSON = dict[str, Any]


@runtime_checkable
class Catalogue(Protocol):
    """What the core reads of any game's validated catalogue."""

    @property
    def game(self) -> str:
        """The game key written in the file (``game:``), a registered game's name."""
        ...

    @property
    def name(self) -> str:
        """The set's display name."""
        ...

    @property
    def source(self) -> str:
        """The file it was read from, for messages."""
        ...

    @property
    def game_at(self) -> tuple[int, int]:
        """(line, column) of the file's ``game`` key; (0, 0) when unknown."""
        ...

    def to_json(self) -> JSON:
        """The catalogue JSON printed by ``catalogue --json``."""
        ...


@runtime_checkable
class GameState(Protocol):
    """One engine shape for every game (after OpenSpiel's ``State``): the bots, the
    analysis and the replays are written once against it.

    Players are numbered from 0 in seat order. Moves are hashable values (tuples,
    frozen dataclasses) that compare equal when they are the same move: searches keep
    them as dictionary keys. Randomness (shuffles, draws from a
    face-down pile) comes from the state's own seeded generator, so the same seed and
    the same moves give the same game; :meth:`copy` keeps that generator, and
    :meth:`determinized` gives a state that keeps what the player to move can see and
    resamples what nobody can (for searches that must not peek at hidden tiles).

    A state may also have ``undo() -> None``, taking back the last move played (its
    generator included): the bots then try moves in place instead of on copies
    (:func:`micropul_print.lab.bots.move_values`). And ``move_class(move) -> Hashable
    | None``: moves of the player to move with the same class lead to positions that
    differ only where no rule looks (a marker put on one square or another of a region
    that the rules only ever see whole), so the bots value one move per class; None: a
    move of its own. And ``score_range``, a pair (lowest, highest; ``inf`` for no
    ceiling): what :meth:`scores` can be, which the analysis cuts the intervals of mean
    scores to.
    """

    @property
    def players(self) -> int: ...

    def current_player(self) -> int:
        """The seat to move (0-based); meaningless once :meth:`is_over`."""
        ...

    def legal_moves(self) -> Sequence[Any]:
        """Every legal move of the player to move, in a fixed order; empty when over."""
        ...

    def play(self, move: Any) -> None:
        """Play a legal move for the player to move; ValueError if it is not legal."""
        ...

    def copy(self) -> Self:
        """An independent copy (same position, same random generator state)."""
        ...

    def determinized(self, seed: int) -> Self:
        """A copy in which everything hidden from the player to move (face-down tiles,
        the order of a pile) is redrawn at random with ``seed``, consistently with
        everything that player can see."""
        ...

    def is_over(self) -> bool: ...

    def scores(self) -> tuple[float, ...]:
        """Each seat's score if the game ended now (the final scores once over)."""
        ...

    def returns(self) -> tuple[float, ...]:
        """Once over: 1 for each winner, 0 for each loser, 0.5 for each seat in a tie
        or a draw; before the end, all 0."""
        ...

    def end_reason(self) -> str | None:
        """Why the game ended (one of the game's documented reasons), or None."""
        ...

    def turn(self) -> int:
        """Moves played since the set-up."""
        ...

    def move_to_json(self, move: Any) -> JSON:
        """A move as the JSON of the game's position files (docs/contracts.md)."""
        ...

    def move_from_json(self, data: JSON) -> Any:
        """The move a JSON object describes; ValueError if it describes none."""
        ...


@runtime_checkable
class PieceState(Protocol):
    """Optional members of a :class:`GameState` whose moves put distinct pieces in play
    (numbered tiles, cards): with them, ``analyse`` reports how often each piece is
    played, when, and how its player fares. A game of identical pieces leaves them
    out."""

    def pieces(self) -> tuple[str, ...]:
        """Every piece a move can put in play in this game, in the set's order."""
        ...

    def piece_of(self, move: Any) -> str | None:
        """The piece ``move`` puts in play (one of :meth:`pieces`), or None."""
        ...


@dataclass(frozen=True)
class CheckReport:
    """What ``check`` found: the lines of its report (stdout), problems of the set as
    located diagnostics (stderr), and whether it passed."""

    lines: tuple[str, ...]
    diagnostics: tuple[Diagnostic, ...] = ()
    ok: bool = True


def seeds_of(first: int, games: int) -> str:
    """The seeds of ``games`` games from ``first``, for a report ("seed 7", "seeds
    0..199"); ``games`` is at least 1."""
    return f"seed {first}" if games == 1 else f"seeds {first}..{first + games - 1}"
