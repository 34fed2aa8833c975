"""The values a game's rules and the core exchange: the :class:`Catalogue` the core
reads of any game's validated catalogue, the engine shape every rules engine offers
(:class:`GameState`, defined in :mod:`micropul_print.game.state` and re-exported here),
and the check's report. The game plugin protocol itself (rules and printing data,
GameInfo) is in micropul_print.game.plugin; the kit's options and jobs in
micropul_print.kit.plan.

Nothing here imports a drawing library, a rules engine or YAML.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from micropul_print.base.errors import Diagnostic
from micropul_print.base.record import record
from micropul_print.game.state import GameState as GameState
from micropul_print.game.state import PieceState as PieceState

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


@record
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
