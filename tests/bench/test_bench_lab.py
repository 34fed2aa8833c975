"""bench/lab.py's verdict on ``--base``: the CPU-time ratio and issue 25's "same
strength", decided from figures given here (no game is played, nothing is timed)."""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import pytest

from bench import lab
from bench.lab import Interval, interval, verdict


def gap(value: float, low: float, high: float) -> Interval:
    return {"value": value, "low": low, "high": high}


SAME = {"this": gap(160, 100, 220), "base": gap(150, 90, 210)}


def test_met_when_three_times_faster_at_the_same_strength() -> None:
    found = verdict({"base": 90.0, "this": 30.0}, SAME)
    assert (found.ratio, found.same, found.met) == (3.0, True, True)


def test_not_met_below_the_ratio_whatever_the_strength() -> None:
    found = verdict({"base": 89.0, "this": 30.0}, SAME)
    assert found.same is True
    assert found.ratio == pytest.approx(2.9667, abs=1e-4)
    assert not found.met


def test_the_goal_can_be_another_ratio() -> None:
    assert verdict({"base": 89.0, "this": 30.0}, SAME, goal=2.5).met
    assert not verdict({"base": 89.0, "this": 30.0}, SAME, goal=3.5).met


def test_a_base_stronger_than_this_is_not_the_same_strength_even_if_they_overlap() -> None:
    # The intervals overlap (a draw of the dice), but this side's gap is the smaller one.
    found = verdict({"base": 300.0, "this": 30.0},
                    {"this": gap(140, 58, 222), "base": gap(188, 101, 275)})
    assert found.same is False
    assert found.ratio == 10.0
    assert not found.met


def test_intervals_that_do_not_overlap_are_not_the_same_strength() -> None:
    # Stronger, but too far above the base: the games are no longer alike.
    found = verdict({"base": 90.0, "this": 30.0},
                    {"this": gap(400, 350, 450), "base": gap(150, 90, 210)})
    assert (found.same, found.met) == (False, False)


@pytest.mark.parametrize("this, base", [
    (gap(150, 90, 210), gap(150, 90, 210)),  # the same games: the same ladder
    (gap(160, 100, 220), gap(150, 10, 100)),  # touching at one end counts as overlapping
    (gap(160, 220, 300), gap(150, 90, 220)),
])
def test_equal_or_just_touching_is_the_same_strength(this: Interval, base: Interval) -> None:
    assert verdict({"base": 90.0, "this": 30.0}, {"this": this, "base": base}).met


@pytest.mark.parametrize("cpu", [
    {"base": 90.0},  # this side never measured
    {"this": 30.0},
    {"base": 90.0, "this": 0.0},  # no CPU time measured: no ratio, not an infinite one
    {"base": 0.0, "this": 30.0},
    {"base": math.inf, "this": 30.0},  # no run (the best of none)
    {"base": 90.0, "this": math.nan},
])
def test_no_ratio_without_both_cpu_times(cpu: dict[str, float]) -> None:
    found = verdict(cpu, SAME)
    assert found.ratio is None
    assert not found.met


@pytest.mark.parametrize("gaps", [
    {"this": gap(160, 100, 220), "base": None},  # the base's report had no lookahead rung
    {"this": None, "base": gap(150, 90, 210)},
    {"this": gap(160, 100, 220)},
    {},
])
def test_no_strength_verdict_without_both_gaps(gaps: dict[str, Interval | None]) -> None:
    found = verdict({"base": 90.0, "this": 30.0}, gaps)
    assert found.ratio == 3.0
    assert found.same is None
    assert not found.met


def test_a_rating_of_the_report_read_as_an_interval() -> None:
    rating = {"value": 165, "low": 127.5, "high": 203, "method": "bradley-terry"}
    assert interval(rating) == {"value": 165.0, "low": 127.5, "high": 203.0}


@pytest.mark.parametrize("rating", [
    None,
    [],
    {"value": 165, "low": 127},  # no high
    {"value": 165, "low": None, "high": 203},
    {"value": "165", "low": 127, "high": 203},
    {"value": True, "low": 127, "high": 203},
    {"value": 165, "low": -math.inf, "high": 203},
    {"value": math.nan, "low": 127, "high": 203},
])
def test_a_rating_that_is_not_a_finite_interval_is_missing(rating: object) -> None:
    assert interval(rating) is None


def test_compare_keeps_each_side_s_best_run_and_says_the_verdict(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # analyse's runs stood in for: base, this, base, this (each side's best: 90 and 30).
    runs = iter([(95.0, gap(150, 90, 210)), (31.0, gap(160, 100, 220)),
                 (90.0, gap(150, 90, 210)), (30.0, gap(160, 100, 220))])
    monkeypatch.setattr(lab, "_analyse", lambda checkout, games, seed: next(runs))
    assert lab.compare(Path("base"), 40, 0, [0, 1], runs=2)
    out = capsys.readouterr().out
    assert "same strength (gap no smaller, intervals overlapping): yes" in out
    assert "ratio at 40 games (base CPU / this CPU, best of 2 each): 3.00x (goal: 3x)" in out


def test_compare_without_a_rating_says_so_and_is_not_met(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    runs = iter([(90.0, None), (30.0, gap(160, 100, 220))])
    monkeypatch.setattr(lab, "_analyse", lambda checkout, games, seed: next(runs))
    assert not lab.compare(Path("base"), 40, 0, [0, 1], runs=1)
    out = capsys.readouterr().out
    assert "base: lookahead over greedy (no rating in the report)" in out
    assert "same strength (gap no smaller, intervals overlapping): NO (a gap is missing)" in out


@pytest.mark.parametrize("runs", ["0", "-1", "two"])
def test_compare_runs_must_be_at_least_one(runs: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="at least 1"):
        lab._runs(runs)
