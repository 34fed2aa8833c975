"""What the core asks of a game: the :class:`Game` protocol every game plugin
implements, the engine shape every rules engine offers (:class:`GameState`), and the
values the two exchange (catalogues, kit jobs, check reports).

The core (commands, build orchestration, rulebook layout, sheets, backends) is written
against these types only and never names a game. A game is a package that registers
one object implementing :class:`Game` under the entry-point group
``micropul_print.games`` (see :mod:`micropul_print.registry` and
docs/adding-a-game.md); the games shipped with the tool register the same way.

Nothing here imports a drawing library, a rules engine or YAML.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, Self, runtime_checkable

from micropul_print.errors import Diagnostic
from micropul_print.paper import PAPER_NAMES
from micropul_print.sheets.duplex import Flip as Flip  # the one definition: sheets own duplex

if TYPE_CHECKING:
    from micropul_print.catalogue.loader import CatalogueHeader
    from micropul_print.draw.primitives import Drawing
    from micropul_print.draw.theme import Theme
    from micropul_print.outputs import OutputDir
    from micropul_print.rulebook.games import GameRulebook
    from micropul_print.sheets.layout import SheetLayout

# A job tells how it goes by messages; one ending in "N/M" (``tile 7/48``) counts its
# steps, which the build's progress line shows.
Progress = Callable[[str], None]
JSON = dict[str, Any]

# The parts of a kit a build can ask for; every game makes the ones it has.
KIT_PARTS = frozenset({"svg", "png", "sheets", "rulebooks"})
# The ways the sheets part can lay out the tiles (KitOptions.sheet_layouts).
SHEET_LAYOUTS = ("duplex", "gutter-fold")


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


class KitOptions(NamedTuple):
    """What the user asked of a build, whatever the game."""

    catalogue: Path | None = None  # None: the shipped catalogues
    theme: str = "classic"
    papers: Sequence[str] = PAPER_NAMES
    bleed: float | None = None  # None: 0 on sheets, the tile images' own default on PNGs
    dpi: int = 300
    numbers: bool = True
    flip: Flip = "long"
    back_offset: tuple[float, float] = (0.0, 0.0)
    calibration: bool = True
    # The printer's scale in per cent (across, down): PDF sheets and boards are enlarged
    # to make up for it (sheets.pdf.scale_page); image files are not.
    scale: tuple[float, float] = (100.0, 100.0)
    langs: Sequence[str] | None = None  # None: every language each game's book has
    # The rulebooks part also writes each language's booklet (two pages up, to fold), on
    # each paper, as the books are.
    booklets: bool = True
    # Games whose kits are built, from their shipped catalogues except the game of
    # ``catalogue``, which stands in for its own; None: the game of ``catalogue``, or
    # the first registered game without one. A ``catalogue`` of a game left out is an
    # error.
    games: Sequence[str] | None = None
    parts: frozenset[str] = KIT_PARTS
    # How the sheets part prints the tiles, one file per paper each: "duplex" (double-
    # sided sheets), "gutter-fold" (fronts and backs side by side, folded and glued).
    sheet_layouts: Sequence[str] = ("duplex",)
    # Print and cut: the duplex tile sheets carry registration marks, and a cut file
    # (SVG) is written for each of their front pages holding pieces.
    cut_files: bool = False
    # Reprint: the sheets part also writes sheets of these card numbers only, in each of
    # ``sheet_layouts`` (a game whose cards have no numbers raises UsageError when it is
    # the only game built, and reprints nothing beside other games); None: no reprint.
    tiles: tuple[int, ...] | None = None
    # The sheets part also writes a file for a print shop: each different piece alone on
    # a page with 3 mm bleed, front then back, TrimBox and BleedBox set.
    print_shop: bool = False
    strict: bool = False
    jobs: int | None = None  # worker processes; None: one per CPU; 1: all in this process


@dataclass(frozen=True)
class KitJob:
    """One independent part of a build: writes its files, returns their paths."""

    part: str  # as counted in the summary: one of KIT_PARTS' names or the game's own
    run: Callable[[Progress], list[Path]]
    cost: int  # rough relative time, to start the longest jobs first
    # Modules the job will import: loaded before forking, so workers share them.
    imports: tuple[str, ...] = ()
    # The same work as smaller jobs (one per language...), to use in parallel.
    pieces: Sequence[Callable[[Progress], list[Path]]] = field(default=())
    # What the build's progress line calls the job ("sheets a4"; default: its part),
    # and each of its pieces ("rulebook en").
    label: str = ""
    piece_labels: Sequence[str] = ()

    def split(self) -> list[KitJob]:
        if not self.pieces:
            return [self]
        share = max(1, self.cost // len(self.pieces))
        labels = list(self.piece_labels) or [self.label] * len(self.pieces)
        return [KitJob(self.part, run, share, self.imports, label=label)
                for run, label in zip(self.pieces, labels, strict=True)]


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


@runtime_checkable
class Game(Protocol):
    """A game plugin: everything the core needs to read, check, analyse, print and
    describe one game. Registered under the ``micropul_print.games`` entry-point group
    (the entry point's name is the game's :attr:`name`).

    Methods import their heavy modules when called: ``check``, ``position`` and
    ``catalogue`` must never load a drawing library."""

    @property
    def name(self) -> str:
        """The key catalogues write as ``game:`` and ``--game`` takes."""
        ...

    @property
    def title(self) -> str:
        """The game's display name."""
        ...

    @property
    def summary(self) -> str:
        """One line for the command line's help."""
        ...

    @property
    def order(self) -> int:
        """Where the game comes in listings and in ``--game all`` (lower first); the
        first game is the default of commands given neither a catalogue nor --game."""
        ...

    @property
    def output_dir(self) -> str:
        """Where the game's kit goes inside the output directory ("" for its root)."""
        ...

    @property
    def catalogue_keys(self) -> tuple[str, ...]:
        """Top-level catalogue keys the game adds to ``game``, ``name``,
        ``tile_count`` and ``tiles`` (all required)."""
        ...

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

    def theme_problems(self, catalogue: Any, theme: Theme) -> list[Diagnostic]:
        """Each mark the catalogue's pieces need and the theme lacks, located."""
        ...

    def kit_jobs(self, catalogue: Any, theme: Theme, output: OutputDir,
                 layouts: Sequence[SheetLayout], options: KitOptions,
                 langs: Sequence[str]) -> list[KitJob]:
        """The jobs that write the game's kit parts named in ``options.parts``, its
        rulebooks in ``langs`` (checked to be languages of its book)."""
        ...

    @property
    def rulebook(self) -> GameRulebook | None:
        """The game's rulebook, or None if it has none."""
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

    @property
    def player_counts(self) -> tuple[int, ...]:
        """The numbers of players :meth:`new_state` takes, the usual one first (e.g.
        ``(2, 1)``: two players, or solitaire)."""
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

