"""Cellulae (by Federico Latini) as a game plugin: everything that knows Cellulae lives
in this package (catalogue model and reader, rules engine, position analysis, set check,
tile faces and boards, kit parts, rulebook), and :data:`GAME` is what the core sees of
it, registered under the ``micropul_print.games`` entry point.

Importing this module is cheap: each method imports the modules it needs.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from micropul_print.base.errors import Diagnostic, UsageError, printable
from micropul_print.base.resources import package_file
from micropul_print.game.api import JSON, CheckReport
from micropul_print.game.plugin import GameInfo

if TYPE_CHECKING:
    from micropul_print.catalogue.header import CatalogueHeader
    from micropul_print.draw.primitives import Drawing
    from micropul_print.draw.theme import Theme
    from micropul_print.game.pieces import KitPieces
    from micropul_print.games.cellulae.catalogue import CellulaeCatalogue
    from micropul_print.games.cellulae.engine import CellulaeState
    from micropul_print.rulebook.games import GameRulebook

# Cellulae's own top-level catalogue keys (the reader's, listed here so that naming
# them imports nothing).
CATALOGUE_KEYS = ("author", "tile_size_mm", "boards")
COLOURS = ("white", "black")


class CellulaeGame:
    """The Cellulae plugin (see micropul_print.game.plugin.Game)."""

    info = GameInfo(name="cellulae", title="Cellulae",
                    summary="Cellulae: two-sided tiles on a square board, two players",
                    player_counts=(2,), order=10, output_dir="cellulae",
                    catalogue_keys=CATALOGUE_KEYS, two_sided_tiles=True)

    def shipped_catalogue(self) -> Path:
        return package_file(__name__, "cellulae.yaml")

    def read_catalogue(self, header: CatalogueHeader,
                       out: list[Diagnostic]) -> CellulaeCatalogue | None:
        from micropul_print.games.cellulae.catalogue import read_cellulae

        return read_cellulae(header, out)

    def describe(self, catalogue: CellulaeCatalogue) -> str:
        """The set of a board game: its tiles' two faces and the boards it offers."""
        faces = " / ".join(f"{face.colour} ({face.mark})" for face in catalogue.faces)
        lines = [
            f"{printable(catalogue.name)} by {printable(catalogue.author)}: "
            f"{catalogue.tile_total} two-sided tiles "
            f"of {catalogue.tile_size_mm:g} mm, faces {faces}",
            "  board  tiles",
        ]
        lines += [f"  {b.side} × {b.side}  {b.tiles}" for b in catalogue.boards]
        return "\n".join(lines) + "\n"

    def simulated_games(self, catalogue: CellulaeCatalogue, games: int) -> int:
        return games * len(catalogue.boards)

    def check(self, catalogue: CellulaeCatalogue, *, games: int, seed: int, strict: bool,
              progress: Callable[[int, int], None] | None) -> CheckReport:
        from micropul_print.catalogue.loader import read_catalogue
        from micropul_print.games.cellulae.check import check_cellulae

        total = self.simulated_games(catalogue, games)

        def step(done: int) -> None:
            if progress is not None:
                progress(done, total)

        official, _ = read_catalogue(self.shipped_catalogue())
        return check_cellulae(catalogue, games, seed, step, official, strict=strict)

    def analyse_position(self, path: str, catalogue: CellulaeCatalogue, legal: str | None, *,
                         strict: bool) -> tuple[JSON, list[Diagnostic]]:
        from micropul_print.games.cellulae.analysis import (
            analyse_cellulae,
            load_cellulae_position,
        )

        if legal is not None and legal not in COLOURS:
            raise UsageError(f"--legal takes white or black for Cellulae, got {legal!r}")
        position = load_cellulae_position(path, catalogue, strict=strict)
        return analyse_cellulae(position, catalogue, legal), []

    def theme_problems(self, catalogue: CellulaeCatalogue, theme: Theme) -> list[Diagnostic]:
        from micropul_print.games.cellulae.faces import theme_problems

        return theme_problems(catalogue, theme)

    def pieces(self, catalogue: CellulaeCatalogue, theme: Theme, *,
               numbers: bool) -> KitPieces:
        from micropul_print.games.cellulae.pieces import cellulae_pieces

        return cellulae_pieces(catalogue, theme)  # its tiles carry no numbers

    @property
    def rulebook(self) -> GameRulebook:
        from micropul_print.games.cellulae.rulebook import CELLULAE

        return CELLULAE

    def variants(self, catalogue: CellulaeCatalogue) -> tuple[str, ...]:
        """The boards, by side ("5", "7", "9"), the smallest first."""
        return tuple(str(side) for side in catalogue.sides)

    def new_state(self, catalogue: CellulaeCatalogue, *, players: int | None = None,
                  seed: int | None = None, variant: str | None = None) -> CellulaeState:
        from micropul_print.games.cellulae.engine import CellulaeState

        if players not in (None, 2):
            raise ValueError(f"Cellulae is played by 2 players, not {players}")
        if variant is not None and variant not in self.variants(catalogue):
            raise ValueError(f"Cellulae has no board {variant!r} here (boards: "
                             f"{', '.join(self.variants(catalogue))})")
        return CellulaeState.new(catalogue, side=None if variant is None else int(variant),
                                 seed=seed)

    def state_drawing(self, catalogue: CellulaeCatalogue, theme: Theme,
                      state: CellulaeState) -> Drawing:
        """The board with its tiles, as the rulebook's figures draw it."""
        from micropul_print.games.cellulae.faces import board_drawing
        from micropul_print.games.cellulae.figures import SQUARES_FILL

        return board_drawing(catalogue, state.board.side, theme, tiles=state.board.tiles(),
                             squares_fill=SQUARES_FILL)


GAME = CellulaeGame()

__all__ = ["GAME", "CellulaeGame"]
