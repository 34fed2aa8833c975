"""Confidence intervals, ratings and paired differences against values worked out by
hand or published (Wilson 1927; Student's t tables)."""

from __future__ import annotations

import math

import pytest

from micropul_print.lab import stats


def test_wilson_interval_matches_the_published_formula() -> None:
    interval = stats.wilson(8, 10)
    assert interval.value == 0.8 and interval.method == "wilson"
    assert interval.low == pytest.approx(0.4902, abs=1e-4)
    assert interval.high == pytest.approx(0.9433, abs=1e-4)
    none = stats.wilson(0, 10)
    assert none.low == 0.0 and none.high == pytest.approx(0.2775, abs=1e-4)
    assert stats.wilson(0, 0).method == "none"


def test_t_quantiles_follow_the_table_and_tend_to_the_normal() -> None:
    assert stats.t_quantile(1) == 12.706
    assert stats.t_quantile(30) == 2.042
    assert stats.t_quantile(40) == pytest.approx(2.0211, abs=1e-4)
    assert stats.t_quantile(120) == pytest.approx(1.9799, abs=1e-4)
    with pytest.raises(ValueError):
        stats.t_quantile(0)


def test_t_interval_of_a_small_sample() -> None:
    interval = stats.t_interval([1.0, 2.0, 3.0, 4.0, 5.0])
    assert interval.value == 3.0
    half = 2.776 * math.sqrt(2.5 / 5)
    assert (interval.low, interval.high) == pytest.approx((3 - half, 3 + half))
    assert stats.t_interval([7.0]).method == "none"


def test_percentiles_interpolate_like_numpy() -> None:
    values = [1.0, 2.0, 3.0, 4.0]
    assert stats.percentile(values, 50) == 2.5
    assert stats.percentile(values, 25) == 1.75
    assert stats.percentile(values, 100) == 4.0


def test_bootstrap_is_seeded_and_covers_the_estimate() -> None:
    values = [float(v % 7) for v in range(50)]
    first = stats.percentile_interval(values, 50, seed=3)
    assert first == stats.percentile_interval(values, 50, seed=3)
    assert first.low <= first.value <= first.high and first.method == "bootstrap"


def test_bradley_terry_recovers_the_elo_difference_of_a_win_rate() -> None:
    # 60 wins in 100 (plus the extra tie: 60.5 in 101): 400 log10(60.5 / 40.5) apart.
    ratings = stats.bradley_terry(2, {(0, 1): [1.0] * 60 + [0.0] * 40})
    assert ratings[0] - ratings[1] == pytest.approx(400 * math.log10(60.5 / 40.5), abs=0.01)
    assert sum(ratings) == pytest.approx(0.0)


def test_rating_intervals_stay_finite_when_one_bot_wins_everything() -> None:
    intervals = stats.rating_intervals(2, {(0, 1): [1.0] * 16})
    assert intervals[0].low > 0 > intervals[1].high
    assert all(math.isfinite(i.low) and math.isfinite(i.high) for i in intervals)
    # A rating difference's interval is about twice each rating's: 1.96 / sqrt(n p q).
    even = stats.rating_intervals(2, {(0, 1): [1.0] * 50 + [0.0] * 50})
    half = (even[0].high - even[0].low) / 2
    assert 2 * half == pytest.approx(1.96 * stats.ELO / math.sqrt(101 * 0.25), rel=1e-3)


def test_paired_difference() -> None:
    difference = stats.paired_difference([1.0, 2.0, 3.0, 4.0], [2.0, 3.0, 5.0, 5.0])
    assert difference.value == pytest.approx(1.25) and difference.method == "paired-t"
    half = 3.182 * math.sqrt(0.25 / 4)  # the differences 1, 1, 2, 1: variance 0.25
    assert (difference.low, difference.high) == pytest.approx((1.25 - half, 1.25 + half))
    assert difference.excludes_zero
    assert not stats.paired_difference([1.0, 2.0], [2.0, 1.0]).excludes_zero
    with pytest.raises(ValueError):
        stats.paired_difference([1.0], [1.0, 2.0])
