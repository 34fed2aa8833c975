"""The Cellulae set check and simulations (check_cellulae, the ``check`` command's
Cellulae report)."""

from __future__ import annotations

import re

import pytest

from micropul_print.games.cellulae.catalogue import BoardSize, CellFace, CellulaeCatalogue
from micropul_print.games.cellulae.check import check_cellulae, most_turns, simulate_cellulae
from micropul_print.games.cellulae.rules import END_REASONS, QUIET_LIMIT


def without_timing(report: str) -> str:
    return re.sub(r"[0-9.]+ s, [0-9]+ games/s", "T", report)


def test_shipped_set_passes_with_a_report_for_every_board(catalogue: CellulaeCatalogue) -> None:
    report, ok = check_cellulae(catalogue, games=20, seed=0)
    assert ok
    lines = report.splitlines()
    assert lines[0] == "catalogue " + catalogue.source + ": valid (Cellulae, 81 tiles)"
    assert lines[1] == (
        "Cellulae by Federico Latini: 81 tiles of 30 mm, white face (square-light) and "
        "black face (square-dark)"
    )
    assert lines[2:5] == [
        "board 5 x 5: 25 tiles, the set has enough",
        "board 7 x 7: 49 tiles, the set has enough",
        "board 9 x 9: 81 tiles, the set has enough",
    ]
    for side in (5, 7, 9):
        assert any(
            line.startswith(f"20 games on {side} x {side} (random policy, seeds 0..19)")
            for line in lines
        )
    assert lines[-1] == "check passed"
    assert report.endswith("\n")


def test_report_is_reproducible_by_seed(catalogue: CellulaeCatalogue) -> None:
    first = without_timing(check_cellulae(catalogue, 15, seed=4)[0])
    assert first == without_timing(check_cellulae(catalogue, 15, seed=4)[0])
    assert first != without_timing(check_cellulae(catalogue, 15, seed=5)[0])


def test_progress_counts_games_over_all_boards(catalogue: CellulaeCatalogue) -> None:
    seen: list[int] = []
    check_cellulae(catalogue, 10, progress=seen.append)
    assert seen == list(range(1, 31))


def test_a_set_too_small_for_a_board_fails() -> None:
    short = CellulaeCatalogue(
        game="cellulae",
        name="Cellulae",
        source="short.yaml",
        author="Federico Latini",
        faces=(CellFace("white", "square-light"), CellFace("black", "square-dark")),
        tile_total=25,
        boards=(BoardSize(5, 25), BoardSize(7, 49)),
    )
    report, ok = check_cellulae(short, games=2)
    assert not ok
    assert "board 7 x 7: 49 tiles, the set is 24 short" in report
    assert "problem: the set has too few tiles for the 7 x 7 board" in report
    assert report.endswith("check failed: 1 problem(s)\n")


@pytest.mark.parametrize("side", [5, 7])
def test_simulation_counts_add_up(side: int) -> None:
    sim = simulate_cellulae(side, 50, seed=1)
    assert sim.problems == []
    assert sum(sim.reasons.values()) == 50 and set(sim.reasons) == set(END_REASONS)
    assert sum(sim.winners.values()) == 50
    assert all(sum(c.values()) <= side * side for c in sim.counts)
    assert max(sim.turns) <= most_turns(side)


def test_most_turns_bound() -> None:
    assert most_turns(5) == 23 * QUIET_LIMIT + QUIET_LIMIT
    assert most_turns(3, quiet_limit=1) == 8
