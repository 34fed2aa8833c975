"""Sheets of paper each game's kit takes: Letter never needs more than A4."""

from __future__ import annotations

import pytest

from micropul_print.sheets.layout import load_layout
from micropul_print.sheets.pages import SheetOptions, plan_sheets

from .games import GameSet, cellulae_set, micropul_set


def sheets_of_paper(game: GameSet, paper: str, options: SheetOptions) -> int:
    plan = plan_sheets(load_layout(paper), game.cards, game.size, game.size, game.name,
                       tokens=game.tokens, options=options)
    return sum(1 for page in plan.pages if page.side == "front")


@pytest.mark.parametrize("make", [micropul_set, cellulae_set], ids=["micropul", "cellulae"])
@pytest.mark.parametrize("bleed", [0.0, 3.0])
def test_letter_takes_no_more_sheets_than_a4(make: object, bleed: float) -> None:
    assert callable(make)
    game: GameSet = make(bleed)
    options = SheetOptions(bleed=bleed)
    assert sheets_of_paper(game, "letter", options) <= sheets_of_paper(game, "a4", options)


@pytest.mark.parametrize(("make", "a4", "letter"), [
    (micropul_set, 2, 2),  # calibration sheet + one sheet of tiles (Letter: stones on the first)
    (cellulae_set, 3, 3),  # calibration sheet + two sheets for 81 tiles
], ids=["micropul", "cellulae"])
def test_sheet_counts_as_documented(make: object, a4: int, letter: int) -> None:
    assert callable(make)
    game: GameSet = make(0.0)
    assert sheets_of_paper(game, "a4", SheetOptions()) == a4
    assert sheets_of_paper(game, "letter", SheetOptions()) == letter
