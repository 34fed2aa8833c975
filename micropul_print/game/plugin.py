"""What a game plugin hands the core: a declared :class:`GameInfo`, its rules
(:class:`GameRules`: catalogue reader, engine factory, check, position) and its printing
data (:class:`GamePrinting`: its pieces as drawings, its rulebook, what its pieces need
of a theme). It plans no job: the core owns the kit (micropul_print.kit.plan).

A game is a package that registers one object implementing :class:`Game` under the
entry-point group ``micropul_print.games`` (micropul_print.game.registry,
docs/adding-a-game.md); the shipped games register the same way. The engine shape
(GameState) and the values the rules exchange are in micropul_print.game.api.

Methods import their heavy modules when called: ``check``, ``analyse_position`` and
``read_catalogue`` must never load a drawing library.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from micropul_print.base.errors import Diagnostic
from micropul_print.base.record import record
from micropul_print.game.api import JSON, Catalogue, CheckReport, GameState

if TYPE_CHECKING:
    from micropul_print.catalogue.header import CatalogueHeader
    from micropul_print.draw.primitives import Drawing
    from micropul_print.draw.theme import Theme
    from micropul_print.game.pieces import KitPieces
    from micropul_print.rulebook.games import GameRulebook


@record
class GameInfo:
    """What a game is, declared as data (after OpenSpiel's GameType/GameInfo): read
    by the help, the listings, the build's folders and the lab without running any of
    the game's code."""

    name: str  # the key catalogues write as ``game:`` and ``--game`` takes
    title: str  # the display name
    summary: str  # one line for the command line's help
    # The numbers of players new_state takes, the usual one first ((2, 1): two
    # players, or solitaire).
    player_counts: tuple[int, ...]
    # Where the game comes in listings and in ``--game all`` (lower first); the first
    # game is the default of commands given neither a catalogue nor --game.
    order: int = 100
    output_dir: str = ""  # where its kit goes inside the output directory ("": the root)
    # Top-level catalogue keys the game adds to game, name, tile_count and tiles.
    catalogue_keys: tuple[str, ...] = ()
    # Its pieces carry numbers a player can ask to reprint (build --tiles).
    numbered_pieces: bool = False
    # Its tiles have a face of their own on each side (no common back).
    two_sided_tiles: bool = False

    @property
    def has_solitaire(self) -> bool:
        return 1 in self.player_counts



def players_in_words(player_counts: tuple[int, ...]) -> str:
    """A game's player counts as a sentence says them, smallest first: "2 players",
    "1 or 2 players", "2, 3 or 4 players" (player_counts puts the usual one first,
    which words must not echo: "2 or 1 players")."""
    counts = [str(count) for count in sorted(set(player_counts))]
    words = counts[0] if len(counts) == 1 else f"{', '.join(counts[:-1])} or {counts[-1]}"
    return f"{words} player{'' if counts == ['1'] else 's'}"

@runtime_checkable
class GameRules(Protocol):
    """The rules: the catalogue, the engine, the check of a set, positions."""

    def shipped_catalogue(self) -> Path:
        """The catalogue shipped with the game (a file of the installed package)."""
        ...

    def read_catalogue(self, header: CatalogueHeader,
                       out: list[Diagnostic]) -> Catalogue | None:
        """The validated catalogue from the file's header and tile entries, or None
        if it has an error; every problem appended to ``out`` at its line."""
        ...

    def describe(self, catalogue: Any) -> str:
        """The human-readable listing ``catalogue`` prints."""
        ...

    def check(self, catalogue: Any, *, games: int, seed: int, strict: bool,
              progress: Callable[[int, int], None] | None) -> CheckReport:
        """Facts of the set and ``games`` simulated games per mode; ``progress`` is
        told (games played, games in all)."""
        ...

    def simulated_games(self, catalogue: Any, games: int) -> int:
        """How many games ``check`` plays for ``games`` per mode."""
        ...

    def analyse_position(self, path: str, catalogue: Any, legal: str | None, *,
                         strict: bool) -> tuple[JSON, list[Diagnostic]]:
        """The position analysis JSON of a position file (and its warnings); raises
        UserError for problems of the file and UsageError for a ``legal`` value the
        game cannot take."""
        ...

    def variants(self, catalogue: Any) -> tuple[str, ...]:
        """The set-ups the catalogue offers (e.g. its board sizes), the usual one
        first; a game with one set-up names it."""
        ...

    def new_state(self, catalogue: Any, *, players: int | None = None,
                  seed: int | None = None, variant: str | None = None) -> GameState:
        """A game set up from the catalogue, ready for its first move (``players``:
        None for the game's usual count; ``variant``: one of :meth:`variants`, None for
        the first)."""
        ...


@runtime_checkable
class GamePrinting(Protocol):
    """The printing data: pieces as drawings with their sizes, the rulebook."""

    def theme_problems(self, catalogue: Any, theme: Theme) -> list[Diagnostic]:
        """Each mark the catalogue's pieces need and the theme lacks, located."""
        ...

    def pieces(self, catalogue: Any, theme: Theme, *, numbers: bool) -> KitPieces:
        """The catalogue's pieces in ``theme`` (``numbers``: the pieces' numbers shown
        on their faces): tiles, tokens, boards, as drawings in mm with their sizes,
        and the words of the kit's files (micropul_print.game.pieces)."""
        ...

    @property
    def rulebook(self) -> GameRulebook | None:
        """The game's rulebook (texts, figures as positions), or None if it has none."""
        ...


@runtime_checkable
class Game(GameRules, GamePrinting, Protocol):
    """A game plugin: its declared :class:`GameInfo`, its rules and its printing data.
    Registered under the ``micropul_print.games`` entry-point group (the entry point's
    name is ``info.name``)."""

    @property
    def info(self) -> GameInfo:
        ...


@runtime_checkable
class DrawsStates(Protocol):
    """An optional member of a :class:`Game`: a picture of any state of its engine, for
    ``replay``. A game without it can be played and analysed, not replayed."""

    def state_drawing(self, catalogue: Any, theme: Theme, state: Any) -> Drawing:
        """The state as one Drawing (primitives in mm): the pieces in play as the
        players see them, whatever each player holds, and anything that decides the
        score. No title nor scores line: ``replay`` adds those."""
        ...


def members(protocol: type) -> tuple[str, ...]:
    """The public members a protocol asks for, its bases' included."""
    names: dict[str, None] = {}
    for klass in protocol.__mro__:  # the protocol's own first, then its bases'
        if klass is object or klass is Protocol or not getattr(klass, "_is_protocol", False):
            continue
        names |= dict.fromkeys(name for name in vars(klass) if not name.startswith("_"))
    return tuple(names)
