"""What game/plugin.py says of a game in words."""

from __future__ import annotations

import pytest

from micropul_print.game.plugin import players_in_words


@pytest.mark.parametrize(("counts", "words"), [
    ((2,), "2 players"),
    ((1,), "1 player"),
    ((2, 1), "1 or 2 players"),  # Micropul's: the usual count first, said smallest first
    ((4, 2, 3), "2, 3 or 4 players"),
])
def test_player_counts_are_said_smallest_first(counts: tuple[int, ...], words: str) -> None:
    assert players_in_words(counts) == words
