"""Confidence intervals, ratings and paired differences against values worked out by
hand or published (Wilson 1927; Student's t tables)."""

from __future__ import annotations

import itertools
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


def test_a_mean_interval_stays_within_what_the_mean_can_be() -> None:
    """Two games in which the winner took the lead for good after 85 % and 99 % of the
    game: their t interval reaches 1.81, a share above 100 %; two games of 0 and 3 lead
    changes reach -17.6 changes."""
    shares = [0.85, 0.99]
    assert stats.t_interval(shares).high > 1
    share = stats.t_interval(shares, bounds=stats.SHARE)
    assert share.value == pytest.approx(0.92) and (share.high, share.method) == (1.0, "t")
    assert share.low == stats.t_interval(shares).low
    changes = stats.t_interval([0.0, 3.0], bounds=stats.COUNT)
    assert (changes.low, changes.value) == (0.0, 1.5)
    assert changes.high == stats.t_interval([0.0, 3.0]).high


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


def test_a_par_tables_intervals_rise_with_the_percentile() -> None:
    """Six solitaire games of random (a report's par table): resampled apart with seeds
    seed + q, the 10th percentile's interval reached 3.5 and the 25th's only 1.77."""
    scores = [0.0, 0.0, 7.0, 0.0, 10.0, 0.0]
    qs = (10, 25, 50, 75, 90)
    intervals = stats.percentile_intervals(scores, qs, seed=0)
    assert intervals == stats.percentile_intervals(scores, qs, seed=0)
    assert [i.value for i in intervals] == [stats.percentile(sorted(scores), q) for q in qs]
    for low, high in itertools.pairwise(intervals):
        assert low.low <= high.low and low.high <= high.high
    assert all(i.low <= i.value <= i.high and i.method == "bootstrap" for i in intervals)
    for seed in range(20):  # and so on any sample and seed
        sample = [float((seed * 7 + k * k) % 11) for k in range(5 + seed)]
        bounds = [(i.low, i.high) for i in stats.percentile_intervals(sample, qs, seed)]
        assert [b[0] for b in bounds] == sorted(b[0] for b in bounds)
        assert [b[1] for b in bounds] == sorted(b[1] for b in bounds)
    assert stats.percentile_intervals([4.0], qs, seed=0)[0].method == "none"


def test_bradley_terry_recovers_the_elo_difference_of_a_win_rate() -> None:
    # 60 wins in 100 (plus the extra tie: 60.5 in 101): 400 log10(60.5 / 40.5) apart.
    ratings = stats.bradley_terry(2, {(0, 1): [1.0] * 60 + [0.0] * 40})
    assert ratings[0] - ratings[1] == pytest.approx(400 * math.log10(60.5 / 40.5), abs=0.01)
    assert sum(ratings) == pytest.approx(0.0)


def test_rating_intervals_stay_finite_when_one_bot_wins_everything() -> None:
    intervals = stats.rating_intervals(2, {(0, 1): [1.0] * 16}, anchor=1)
    assert intervals[0].low > 0 and intervals[0].method == "bradley-terry"
    assert intervals[1] == stats.Interval(0.0, 0.0, 0.0, "anchor")
    assert all(math.isfinite(i.low) and math.isfinite(i.high) for i in intervals)


def test_an_anchored_interval_is_the_inverse_information_of_the_pair() -> None:
    # 60 wins in 100, plus the extra tie: the fitted chance is p = 60.5 / 101 and the
    # pair's information w = 101 p (1 - p); the rating against the anchor is
    # ELO log(p / (1 - p)), give or take Z95 ELO / sqrt(w).
    p = 60.5 / 101
    weight = 101 * p * (1 - p)
    intervals = stats.rating_intervals(2, {(0, 1): [1.0] * 60 + [0.0] * 40}, anchor=1)
    assert intervals[0].value == pytest.approx(stats.ELO * math.log(p / (1 - p)))
    half = (intervals[0].high - intervals[0].low) / 2
    assert half == pytest.approx(stats.Z95 * stats.ELO / math.sqrt(weight), rel=1e-9)
    # From the other end, the same interval turned round.
    turned = stats.rating_intervals(2, {(0, 1): [1.0] * 60 + [0.0] * 40}, anchor=0)
    assert (turned[1].low, turned[1].high) == pytest.approx(
        (-intervals[0].high, -intervals[0].low))


# Shaped like Micropul's two-player figures: 0 random, 1 greedy, 2 lookahead; random
# loses all its 200 games against each, lookahead takes 69 % of the 200 against greedy.
SWEPT = {(0, 1): [0.0] * 200, (0, 2): [0.0] * 200, (1, 2): [1.0] * 62 + [0.0] * 138}


def _mean_zero(fit: stats.RatingFit, player: int) -> stats.Interval:
    """The interval of the rating minus the mean rating (the former method): Var(r_i -
    mean) from the anchored covariance."""
    v = fit.covariance
    k = len(v)
    variance = (v[player][player] - 2 / k * math.fsum(v[player])
                + math.fsum(map(math.fsum, v)) / k**2)
    centre = fit.ratings[player] - stats.mean(fit.ratings)
    half = stats.Z95 * math.sqrt(variance)
    return stats.Interval(centre, centre - half, centre + half, "bradley-terry")


def test_anchored_ratings_part_where_mean_zero_ones_overlap() -> None:
    fit = stats.fit_ratings(3, SWEPT, anchor=1)
    centred = [_mean_zero(fit, i) for i in range(3)]
    assert [round(c.value) for c in centred] == [-703, 283, 420]
    assert centred[2].low < centred[1].high  # lookahead and greedy overlap
    random, greedy, lookahead = (fit.interval(i) for i in range(3))
    assert greedy == stats.Interval(0.0, 0.0, 0.0, "anchor")
    assert lookahead.low > 0 > random.high
    assert lookahead.value == pytest.approx(centred[2].value - centred[1].value)
    for upper, lower in ((2, 1), (1, 0)):
        gap = fit.difference(upper, lower)
        assert gap.low > 0 and gap.method == "bradley-terry"
    # The gap next to the anchor is the anchored rating itself.
    assert fit.difference(2, 1) == lookahead


def test_a_gap_is_the_same_whatever_the_anchor() -> None:
    fits = [stats.fit_ratings(3, SWEPT, anchor=a) for a in range(3)]
    for upper, lower in ((2, 1), (1, 0), (2, 0)):
        gaps = [fit.difference(upper, lower) for fit in fits]
        for gap in gaps[1:]:
            assert (gap.value, gap.low, gap.high) == pytest.approx(
                (gaps[0].value, gaps[0].low, gaps[0].high), rel=1e-9)


def test_players_not_linked_to_the_anchor_get_no_interval() -> None:
    fit = stats.fit_ratings(4, {(0, 1): [1.0, 0.0], (2, 3): [1.0]}, anchor=0)
    assert [fit.interval(i).method for i in range(4)] == [
        "anchor", "bradley-terry", "none", "none"]
    assert fit.difference(2, 3).method == "none"


def test_paired_difference() -> None:
    difference = stats.paired_difference([1.0, 2.0, 3.0, 4.0], [2.0, 3.0, 5.0, 5.0])
    assert difference.value == pytest.approx(1.25) and difference.method == "paired-t"
    half = 3.182 * math.sqrt(0.25 / 4)  # the differences 1, 1, 2, 1: variance 0.25
    assert (difference.low, difference.high) == pytest.approx((1.25 - half, 1.25 + half))
    assert difference.excludes_zero
    assert not stats.paired_difference([1.0, 2.0], [2.0, 1.0]).excludes_zero
    with pytest.raises(ValueError):
        stats.paired_difference([1.0], [1.0, 2.0])


def test_holm_adjusts_step_down_and_keeps_the_order() -> None:
    adjusted = stats.holm([0.01, 0.04, None, 0.03, 0.5])
    # Four tests: 0.01 * 4, then max(0.04, 0.03 * 3), then max(0.09, 0.04 * 2), 0.5.
    assert adjusted[2] is None
    assert adjusted[0] == pytest.approx(0.04)
    assert adjusted[3] == pytest.approx(0.09) and adjusted[1] == pytest.approx(0.09)
    assert adjusted[4] == pytest.approx(0.5)


@pytest.mark.parametrize(("t", "df", "p"), [(2.228, 10, 0.05), (12.706, 1, 0.05),
                                            (1.96, 10_000, 0.05), (0.0, 5, 1.0),
                                            (3.169, 10, 0.01)])
def test_t_p_values_match_the_tables(t: float, df: int, p: float) -> None:
    assert stats.t_two_sided_p(t, df) == pytest.approx(p, abs=5e-4)


def test_paired_p_of_no_difference_and_of_a_constant_one() -> None:
    assert stats.paired_p([1.0, 2.0, 3.0], [1.0, 2.0, 3.0]) == 1.0
    assert stats.paired_p([1.0, 2.0, 3.0], [2.0, 3.0, 4.0]) == 0.0
    assert stats.paired_p([1.0], [2.0]) is None


def test_the_seat_is_confounded_with_the_bots_unless_the_pairings_tell_them_apart() -> None:
    assert stats.seat_confounded({(0, 1): [1.0]})  # one order: a's strength or seat 1
    assert stats.seat_confounded({(0, 1): [1.0], (1, 2): [0.0], (3, 2): [1.0]})
    assert not stats.seat_confounded({(0, 1): [1.0], (1, 0): [1.0]})  # both orders
    assert not stats.seat_confounded({(0, 0): [0.5]})  # a mirror pairing
    # a first against b and c, b first against c: no strengths make every seat 1 one
    # unit stronger (a - c would be 1 and 2).
    assert not stats.seat_confounded({(0, 1): [1.0], (1, 2): [1.0], (0, 2): [1.0]})
    assert stats.seat_term(2, {(0, 1): [1.0, 0.0, 1.0]}) is None


def test_the_seat_term_of_one_pairing_in_both_orders_has_a_closed_form() -> None:
    # a first: 7 points of 10, b first: 4 of 10; with the extra tie of each order the
    # model is saturated: h is the mean of the two logits, Var(h) = (1/w1 + 1/w2) / 4.
    results = {(0, 1): [1.0] * 7 + [0.0] * 3, (1, 0): [1.0] * 3 + [0.5] * 2 + [0.0] * 5}
    first, second = 7.5 / 11, 4.5 / 11
    h = (math.log(first / (1 - first)) + math.log(second / (1 - second))) / 2
    se = math.sqrt((1 / (11 * first * (1 - first)) + 1 / (11 * second * (1 - second))) / 4)
    edge = stats.seat_term(2, results)
    assert edge is not None and edge.method == "seat-term"

    def sigma(x: float) -> float:
        return 1 / (1 + math.exp(-x))

    assert edge.value == pytest.approx(sigma(h), abs=1e-9)
    assert edge.low == pytest.approx(sigma(h - stats.Z95 * se), abs=1e-9)
    assert edge.high == pytest.approx(sigma(h + stats.Z95 * se), abs=1e-9)


def test_the_seat_term_recovers_a_first_player_edge_from_lopsided_pairings_alone() -> None:
    # Three bots 0, 200 and 400 Elo apart, seat 1 worth a 60 % share between equals;
    # every lopsided pairing in both orders, 400 games each, no mirror pairing.
    import random

    rng = random.Random(7)
    strength = [0.0, 200 / stats.ELO, 400 / stats.ELO]
    h = math.log(0.6 / 0.4)
    results: dict[tuple[int, int], list[float]] = {}
    for a, b in itertools.permutations(range(3), 2):
        p = 1 / (1 + math.exp(-(strength[a] - strength[b] + h)))
        results[a, b] = [1.0 if rng.random() < p else 0.0 for _ in range(400)]
    edge = stats.seat_term(3, results)
    assert edge is not None
    assert edge.low < 0.6 < edge.high and edge.low > 0.5  # the edge, and significant
    assert edge.high - edge.low < 0.08

