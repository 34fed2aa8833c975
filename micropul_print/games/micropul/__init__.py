"""Micropul (version 1.2.1, by Jean-François Lassonde) as a game plugin: everything
that knows Micropul lives in this package (catalogue model and reader, rules engine,
position analysis, set check, tile faces, kit parts, rulebook), and :data:`GAME` is
what the core sees of it, registered under the ``micropul_print.games`` entry point.

Importing this module is cheap: each method imports the modules it needs, so that
``check`` or ``position`` never load a drawing library.
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
    from micropul_print.games.micropul.engine import MicropulState
    from micropul_print.games.micropul.model import Catalogue
    from micropul_print.rulebook.games import GameRulebook

# The catalogue's own symbols, to show faces as they are written in the file.
_SYMBOLS = {"white": "W", "black": "B", "dot": "1", "double": "2", "plus": "P", "empty": "."}


class MicropulGame:
    """The Micropul plugin (see micropul_print.game.plugin.Game)."""

    info = GameInfo(name="micropul", title="Micropul",
                    summary="Micropul: 48 square tiles, solitaire or two players",
                    player_counts=(2, 1),  # two players, or solitaire
                    order=0, output_dir="", numbered_pieces=True)

    def shipped_catalogue(self) -> Path:
        return package_file(__name__, "micropul.yaml")

    def read_catalogue(self, header: CatalogueHeader,
                       out: list[Diagnostic]) -> Catalogue | None:
        from micropul_print.games.micropul.reader import read_micropul

        return read_micropul(header, out)

    def describe(self, catalogue: Catalogue) -> str:
        """One line per tile: id, top row, bottom row (catalogue symbols), notes."""
        lines = [f"{printable(catalogue.name)}: {len(catalogue.tiles)} tiles",
                 "  id  top  bottom  notes"]
        for tile in catalogue.tiles:
            tl, tr, br, bl = (_SYMBOLS[q] for q in tile.quadrants)
            notes = []
            if tile.start:
                notes.append("start tile")
            if tile.big is not None:
                notes.append(f"big {tile.big.colour} micropul, {tile.big.catalyst} catalyst")
            top, bottom = f"{tl} {tr}", f"{bl} {br}"
            lines.append(f"{tile.id:4}  {top:<3}  {bottom:<6}  {'; '.join(notes)}".rstrip())
        return "\n".join(lines) + "\n"

    def simulated_games(self, catalogue: Catalogue, games: int) -> int:
        return 2 * games  # two-player, then solitaire

    def check(self, catalogue: Catalogue, *, games: int, seed: int, strict: bool,
              progress: Callable[[int, int], None] | None) -> CheckReport:
        from micropul_print.base.errors import errors_in, failure_summary
        from micropul_print.base.shown import shown_source
        from micropul_print.catalogue.loader import read_catalogue
        from micropul_print.games.micropul.setcheck import (
            compare_with_official,
            comparison_problems,
            format_comparison,
            format_facts,
            format_simulation,
            set_facts,
            simulate,
        )

        official, _ = read_catalogue(self.shipped_catalogue())
        comparison = compare_with_official(catalogue, official)
        shown = shown_source(catalogue.source, [self.shipped_catalogue()])
        lines = [f"catalogue {shown}: valid ({len(catalogue.tiles)} tiles)"]
        lines += format_comparison(catalogue, comparison)
        facts = set_facts(catalogue)
        lines += format_facts(facts)
        # Problems go to stderr at their place in the file, in file order.
        found = comparison_problems(catalogue, comparison) + facts.diagnostics
        diagnostics = tuple(sorted(found, key=lambda d: (d.line, d.col)))
        failed = errors_in(diagnostics, strict)
        if failed:
            lines.append(failure_summary("check", failed, " with the set"))
            return CheckReport(tuple(lines), diagnostics, ok=False)
        total = self.simulated_games(catalogue, games)
        for done_before, players in ((0, 2), (games, 1)):
            def step(done: int, before: int = done_before) -> None:
                if progress is not None:
                    progress(before + done, total)

            lines += format_simulation(simulate(catalogue, games, seed, players, step))
        lines.append("check passed")
        return CheckReport(tuple(lines), diagnostics)

    def analyse_position(self, path: str, catalogue: Catalogue, legal: str | None, *,
                         strict: bool) -> tuple[JSON, list[Diagnostic]]:
        from micropul_print.base.errors import without_errors
        from micropul_print.games.micropul.analysis import analyse
        from micropul_print.games.micropul.position import read_position

        legal_tile = None
        if legal is not None:
            ids = [tile.id for tile in catalogue.tiles]
            if not (legal.isascii() and legal.isdigit() and len(legal) < 10
                    and int(legal) in catalogue):
                raise UsageError(f"--legal takes a tile number of {catalogue.name} "
                                 f"({min(ids)} to {max(ids)}), got {legal!r}")
            legal_tile = int(legal)
        found, diagnostics = read_position(path, catalogue)
        position = without_errors(found, diagnostics, strict)
        return analyse(position, catalogue, legal_tile), diagnostics

    def theme_problems(self, catalogue: Catalogue, theme: Theme) -> list[Diagnostic]:
        from micropul_print.games.micropul.faces import theme_problems

        return theme_problems(theme)

    def pieces(self, catalogue: Catalogue, theme: Theme, *, numbers: bool) -> KitPieces:
        from micropul_print.games.micropul.pieces import micropul_pieces

        return micropul_pieces(catalogue, theme, numbers=numbers)

    @property
    def rulebook(self) -> GameRulebook:
        from micropul_print.games.micropul.rulebook import MICROPUL

        return MICROPUL

    def variants(self, catalogue: Catalogue) -> tuple[str, ...]:
        return ("standard",)

    def new_state(self, catalogue: Catalogue, *, players: int | None = None,
                  seed: int | None = None, variant: str | None = None) -> MicropulState:
        from micropul_print.games.micropul.engine import MicropulState

        if variant not in (None, "standard"):
            raise ValueError(f"Micropul has no variant {variant!r} (it has: standard)")
        return MicropulState.new(catalogue, players=2 if players is None else players,
                                 seed=seed)

    def state_drawing(self, catalogue: Catalogue, theme: Theme,
                      state: MicropulState) -> Drawing:
        from micropul_print.games.micropul.statedrawing import state_drawing

        return state_drawing(catalogue, theme, state)


GAME = MicropulGame()

__all__ = ["GAME", "MicropulGame"]
