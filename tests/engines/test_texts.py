"""The engines' closed sets of strings are StrEnums now: each member reads, formats,
compares and serialises as the plain string the reference engine used, so no output
text or JSON changes."""

from __future__ import annotations

import json

import pytest

from micropul_print.games.cellulae import rules as cellulae
from micropul_print.games.micropul.model import Catalogue
from micropul_print.games.micropul.rules import board, game

from .reference import board as ref_board
from .reference import cellulae as ref_cellulae
from .reference import game as ref_game

_NAMES = [
    (board, ref_board, ("OCCUPIED", "NOT_ADJACENT", "COLOUR_CLASH", "NO_LINK", "REASONS")),
    (game, ref_game, ("CORE_EXHAUSTED", "OUT_OF_TILES", "NO_LEGAL_ACTION", "END_REASONS")),
    (cellulae, ref_cellulae, (
        "BLACK", "WHITE", "COLOURS", "REPLICATE", "MOVE", "SKIP_KIND", "GAME_OVER",
        "OFF_BOARD", "OCCUPIED", "NOT_BESIDE_OWN", "NOT_OWN_TILE", "NOT_DIAGONAL",
        "MUST_ACT", "NOT_THEIR_TURN", "BOARD_FULL", "EXTINCTION", "QUIET", "END_REASONS",
    )),
]


@pytest.mark.parametrize(("module", "reference", "names"), _NAMES,
                         ids=lambda m: getattr(m, "__name__", ""))
def test_each_text_is_the_references(module: object, reference: object,
                                     names: tuple[str, ...]) -> None:
    for name in names:
        value, old = getattr(module, name), getattr(reference, name)
        values, olds = (value, old) if isinstance(old, tuple) else ((value,), (old,))
        for new_text, old_text in zip(values, olds, strict=True):
            assert new_text == old_text and hash(new_text) == hash(old_text), name
            assert f"{new_text}" == str(new_text) == old_text, name
            assert json.dumps(new_text) == json.dumps(old_text), name


def test_outcomes_carry_the_enums(catalogue: Catalogue) -> None:
    assert isinstance(cellulae.play_random_game(5, 1).reason, cellulae.EndReason)
    assert isinstance(game.play_random_game(catalogue, 2, 1).reason, game.EndReason)
