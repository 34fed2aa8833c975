"""The Cellulae set check and simulations (check_cellulae, the ``check`` command's
Cellulae report)."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from micropul_print.cli import main
from micropul_print.games.cellulae.catalogue import BoardSize, CellFace, CellulaeCatalogue
from micropul_print.games.cellulae.check import check_cellulae, most_turns, simulate_cellulae
from micropul_print.games.cellulae.rules import END_REASONS, QUIET_LIMIT


def without_timing(report: str) -> str:
    return re.sub(r"[0-9.]+ s, [0-9]+ games/s", "T", report)


def report_of(catalogue: CellulaeCatalogue, games: int, seed: int = 0) -> str:
    return "\n".join(check_cellulae(catalogue, games, seed).lines) + "\n"


def test_shipped_set_passes_with_a_report_for_every_board(catalogue: CellulaeCatalogue) -> None:
    report = check_cellulae(catalogue, games=20, seed=0, official=catalogue)
    assert report.ok and report.diagnostics == ()
    lines = list(report.lines)
    assert lines[0] == "catalogue shipped:cellulae.yaml: valid (Cellulae, 81 tiles)"
    assert lines.pop(1) == "official set (Cellulae by Federico Latini)"
    assert lines[1] == (
        "Cellulae by Federico Latini: 81 tiles of 30 mm, white face (square-light) and "
        "black face (square-dark)"
    )
    assert lines[2:5] == [
        "board 5 × 5: 25 tiles, the set has enough",
        "board 7 × 7: 49 tiles, the set has enough",
        "board 9 × 9: 81 tiles, the set has enough",
    ]
    for side in (5, 7, 9):
        assert any(
            line.startswith(f"20 games on {side} × {side} (random policy, seeds 0..19)")
            for line in lines
        )
    assert lines[-1] == "check passed"


def test_report_is_reproducible_by_seed(catalogue: CellulaeCatalogue) -> None:
    first = without_timing(report_of(catalogue, 15, seed=4))
    assert first == without_timing(report_of(catalogue, 15, seed=4))
    assert first != without_timing(report_of(catalogue, 15, seed=5))


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
    report = check_cellulae(short, games=2)
    assert not report.ok
    assert "board 7 × 7: 49 tiles, the set is 24 short" in report.lines
    assert [str(d) for d in report.diagnostics] == [
        "short.yaml: error: the set has too few tiles for the 7 × 7 board"]
    assert report.lines[-1] == "check failed: 1 problem(s)"


def test_a_variant_is_listed_by_what_differs(catalogue: CellulaeCatalogue) -> None:
    variant = replace(
        catalogue, name="Big cells", source="big.yaml", tile_total=121, tile_size_mm=25,
        boards=(BoardSize(5, 25), BoardSize(7, 49), BoardSize(11, 121, (19, 5))),
        key_at={"tile_count": (20, 13), "boards": (17, 3)})
    report = check_cellulae(variant, 1, official=catalogue)
    assert report.ok and report.diagnostics == ()
    assert report.lines[1:6] == (
        "variant of Cellulae by Federico Latini: it differs in 4 ways",
        "  big.yaml:20:13: 121 tiles, official 81",
        "  big.yaml: tiles of 25 mm, official 30 mm",
        "  big.yaml:19:5: board 11 × 11 added",
        "  big.yaml:17:3: board 9 × 9 removed",
    )
    claimed = replace(variant, name="cellulae", key_at={"name": (2, 7)})
    report = check_cellulae(claimed, 1, official=catalogue)
    assert report.ok  # a warning: the name, not the set, is at fault
    assert report.lines[1] == (
        "variant of Cellulae by Federico Latini: it differs "
        "in 4 ways")
    assert [str(d) for d in report.diagnostics] == [
        "big.yaml:2:7: warning: the set is named 'cellulae' like the official set (Cellulae by "
        "Federico Latini) but differs from it in 4 ways (listed in the report): give a "
        "variant a name of its own"]


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


SETCHECK = Path(__file__).resolve().parents[2] / "data" / "setcheck" / "cellulae"


def test_a_variant_named_cellulae_is_warned(capsys: pytest.CaptureFixture[str]) -> None:
    path = SETCHECK / "warnings" / "official_name_but_other_boards.yaml"
    assert main(["check", str(path), "--games", "1", "--strict"]) == 1
    assert capsys.readouterr().out.endswith(
        "check failed: 1 warning(s) treated as errors (--strict)\n")
    assert main(["check", str(path), "--games", "1"]) == 0
    out, err = capsys.readouterr()
    assert err.splitlines() == [
        f"{path}:3:7: warning: the set is named 'Cellulae' like the official set (Cellulae by "
        "Federico Latini) but differs from it in 3 ways (listed in the report): give a "
        "variant a name of its own",
    ]
    assert out.splitlines()[1:5] == [
        "variant of Cellulae by Federico Latini: it differs "
        "in 3 ways",
        f"  {path}:10:13: 121 tiles, official 81",
        f"  {path}:9:5: board 11 × 11 added",
        f"  {path}:6:1: board 9 × 9 removed",
    ]
    assert out.endswith("check passed\n")
