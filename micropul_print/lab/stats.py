"""Estimates with 95 % confidence intervals, in pure Python (no numpy needed to analyse).

- proportions (win rates, tie rates, how games end): the Wilson score interval, good
  at any count and near 0 or 1 (a tie counts as half a win where a share of points is
  meant);
- means (game length, scores, lead changes): Student's t interval;
- percentiles (the solitaire par table): a seeded percentile bootstrap;
- ratings: a Bradley-Terry fit on the Elo scale measured from a reference player (the
  anchor), its interval from the fit's curvature; the gap between two ratings from
  their covariance;
- the first player's edge without mirror pairings: a seat term fitted with the
  strengths (Bradley-Terry with an order effect), its interval from the fit's curvature;
- two catalogues played on the same seeds: the paired differences' t interval, a
  difference being significant when its interval leaves out 0.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054
BOOTSTRAP_RESAMPLES = 400
# Student's t, 97.5th percentile, for 1 to 30 degrees of freedom.
_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201,
         2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069,
         2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042)


def _round(value: float) -> float:
    """Six decimals: the JSON stays readable, and equal runs give equal bytes."""
    return round(value, 6) + 0.0  # + 0.0 turns -0.0 into 0.0


@dataclass(frozen=True)
class Interval:
    """An estimate and its 95 % confidence interval (``low`` = ``high`` = ``value`` when
    there is too little data for one), and how it was made."""

    value: float
    low: float
    high: float
    method: str  # "wilson", "t", "bootstrap", "bradley-terry", "anchor",
    # "seat-term", "paired-t", "none"

    def to_json(self) -> dict[str, float | str]:
        return {"value": _round(self.value), "low": _round(self.low),
                "high": _round(self.high), "method": self.method}

    @property
    def excludes_zero(self) -> bool:
        return self.low > 0 or self.high < 0

    def text(self, digits: int = 1, scale: float = 1.0, unit: str = "") -> str:
        """``52.3 % (49.1 to 55.4)``, or the value alone without an interval."""
        value = f"{self.value * scale:.{digits}f}{unit}"
        if self.method == "none":
            return value
        return f"{value} ({self.low * scale:.{digits}f} to {self.high * scale:.{digits}f})"


def wilson(successes: float, n: int, z: float = Z95) -> Interval:
    """The share ``successes / n`` and its Wilson score interval."""
    if n <= 0:
        return Interval(0.0, 0.0, 0.0, "none")
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return Interval(p, max(0.0, centre - half), min(1.0, centre + half), "wilson")


def t_quantile(df: int) -> float:
    """Student's t 97.5th percentile: a table to 30 degrees of freedom, then the
    Cornish-Fisher expansion (within 1e-4)."""
    if df < 1:
        raise ValueError(f"degrees of freedom must be 1 or more, not {df}")
    if df <= len(_T975):
        return _T975[df - 1]
    z = Z95
    return (z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
            + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3))


def mean(values: Sequence[float]) -> float:
    return math.fsum(values) / len(values) if values else 0.0


# What a mean can be: a count (turns, lead changes) is never negative, a share of the
# game lies between 0 and 1.
COUNT = (0.0, math.inf)
SHARE = (0.0, 1.0)


def t_interval(values: Sequence[float], method: str = "t",
               bounds: tuple[float, float] | None = None) -> Interval:
    """The mean of ``values`` and its t interval, cut to ``bounds`` (what the mean can
    be, e.g. COUNT or SHARE) when given: a few games' interval otherwise reads as a
    negative count, or a share of the game above 100 %."""
    n = len(values)
    if n == 0:
        return Interval(0.0, 0.0, 0.0, "none")
    centre = mean(values)
    if n == 1:
        return Interval(centre, centre, centre, "none")
    variance = math.fsum((v - centre) ** 2 for v in values) / (n - 1)
    half = t_quantile(n - 1) * math.sqrt(variance / n)
    low, high = centre - half, centre + half
    if bounds is not None:
        low, high = max(low, bounds[0]), min(high, bounds[1])
    return Interval(centre, low, high, method)


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0..100) by linear interpolation between order
    statistics (numpy's default)."""
    if not sorted_values:
        return 0.0
    position = (len(sorted_values) - 1) * q / 100
    low = math.floor(position)
    high = min(low + 1, len(sorted_values) - 1)
    fraction = position - low
    return sorted_values[low] + (sorted_values[high] - sorted_values[low]) * fraction


def bootstrap(values: Sequence[float], statistic: Callable[[Sequence[float]], float],
              seed: int, resamples: int = BOOTSTRAP_RESAMPLES) -> Interval:
    """``statistic`` of ``values`` and its percentile-bootstrap interval (seeded)."""
    if len(values) < 2:
        centre = statistic(values) if values else 0.0
        return Interval(centre, centre, centre, "none")
    rng = random.Random(seed)
    n = len(values)
    estimates = sorted(statistic([values[int(rng.random() * n)] for _ in range(n)])
                       for _ in range(resamples))
    return Interval(statistic(values), percentile(estimates, 2.5),
                    percentile(estimates, 97.5), "bootstrap")


def percentile_interval(values: Sequence[float], q: float, seed: int) -> Interval:
    """The ``q``-th percentile of ``values`` and its bootstrap interval."""
    def statistic(sample: Sequence[float]) -> float:
        return percentile(sorted(sample), q)

    return bootstrap(values, statistic, seed)


def percentile_intervals(values: Sequence[float], qs: Sequence[float],
                         seed: int, resamples: int = BOOTSTRAP_RESAMPLES) -> list[Interval]:
    """The ``qs``-th percentiles of ``values``, each with its bootstrap interval, all
    from the same seeded resamples: within one resample a higher percentile is never
    lower, so neither are the bounds of its interval (a par table reads down its
    column, and each percentile resampled apart gave bounds that went back and forth)."""
    ordered = sorted(values)
    if len(values) < 2:
        return [Interval(percentile(ordered, q), percentile(ordered, q),
                         percentile(ordered, q), "none") for q in qs]
    rng = random.Random(seed)
    n = len(values)
    samples = [sorted(values[int(rng.random() * n)] for _ in range(n))
               for _ in range(resamples)]
    intervals = []
    for q in qs:
        estimates = sorted(percentile(sample, q) for sample in samples)
        intervals.append(Interval(percentile(ordered, q), percentile(estimates, 2.5),
                                  percentile(estimates, 97.5), "bootstrap"))
    return intervals


def paired_difference(before: Sequence[float], after: Sequence[float]) -> Interval:
    """The mean of ``after - before`` over pairs (the same seed played on two
    catalogues) and its t interval."""
    if len(before) != len(after):
        raise ValueError("paired samples must have the same length")
    return t_interval([b - a for a, b in zip(before, after, strict=True)], "paired-t")


# -- ratings -----------------------------------------------------------------------------

# Results between two players: the points the first one took (1 a win, 0.5 a tie) in
# each game they played, keyed (first, second) with first < second.
Results = Mapping[tuple[int, int], Sequence[float]]
ELO = 400 / math.log(10)


def _fit(players: int, results: Results,
         iterations: int) -> tuple[list[float], dict[tuple[int, int], float]]:
    """Strengths (geometric mean 1) and the games of each pair, the extra tie
    included."""
    wins = [0.0] * players
    games: dict[tuple[int, int], float] = {}
    for (a, b), points in results.items():
        if a == b or not points:
            continue
        taken = math.fsum(points)
        wins[a] += taken + 0.5
        wins[b] += len(points) - taken + 0.5
        games[a, b] = games.get((a, b), 0.0) + len(points) + 1
    strength = [1.0] * players
    for _ in range(iterations):
        updated = []
        for i in range(players):
            denominator = math.fsum(n / (strength[a] + strength[b])
                                    for (a, b), n in games.items() if i in (a, b))
            updated.append(strength[i] if denominator == 0 else wins[i] / denominator)
        centre = math.exp(mean([math.log(s) for s in updated]))
        strength = [s / centre for s in updated]
    return strength, games


def bradley_terry(players: int, results: Results, iterations: int = 500) -> list[float]:
    """Ratings on the Elo scale (mean 0) that best explain ``results`` (Hunter's
    minorisation-maximisation for the Bradley-Terry model, ties as half wins). Each pair
    that met gets one extra tied game: a player who won every game then has a large
    but finite rating."""
    strength, _ = _fit(players, results, iterations)
    ratings = [ELO * math.log(s) for s in strength]
    centre = mean(ratings)
    return [r - centre for r in ratings]


@dataclass(frozen=True)
class RatingFit:
    """A Bradley-Terry fit anchored at one player: ``ratings`` on the Elo scale with the
    anchor at 0, ``covariance`` of those ratings (the anchor's row and column 0), and
    ``reached``: whether each player is linked to the anchor through games played (a
    rating, and so an interval, is only defined against the anchor)."""

    anchor: int
    ratings: tuple[float, ...]
    covariance: tuple[tuple[float, ...], ...]
    reached: tuple[bool, ...]

    def interval(self, player: int) -> Interval:
        """The player's rating against the anchor and its 95 % interval (zero-width,
        method "anchor", for the anchor itself)."""
        rating = self.ratings[player]
        if player == self.anchor:
            return Interval(rating, rating, rating, "anchor")
        if not self.reached[player]:
            return Interval(rating, rating, rating, "none")
        half = Z95 * math.sqrt(max(0.0, self.covariance[player][player]))
        return Interval(rating, rating - half, rating + half, "bradley-terry")

    def difference(self, first: int, second: int) -> Interval:
        """``rating[first] - rating[second]`` and its 95 % interval, from Var(r_i - r_j)
        = V_ii + V_jj - 2 V_ij: the same whatever the anchor (the anchor's choice moves
        both ratings alike)."""
        value = self.ratings[first] - self.ratings[second]
        if not (self.reached[first] and self.reached[second]):
            return Interval(value, value, value, "none")
        v = self.covariance
        variance = v[first][first] + v[second][second] - 2 * v[first][second]
        half = Z95 * math.sqrt(max(0.0, variance))
        return Interval(value, value - half, value + half, "bradley-terry")


def fit_ratings(players: int, results: Results, anchor: int) -> RatingFit:
    """The Bradley-Terry ratings of :func:`bradley_terry` measured from ``anchor`` (the
    reference player of Ordo, BayesElo and the rating lists: a rating only means
    something against another one), with their covariance.

    The fit's information about the log-strengths theta is a weighted graph Laplacian
    L: L_ab = -w_ab, L_aa = sum of w_ab over b, with w_ab = n_ab p_ab (1 - p_ab) for the
    n_ab games of a pair (the extra tie included) and p_ab the fitted chance that a
    beats b. L is singular (adding a constant to every theta changes nothing); fixing
    theta_anchor = 0 removes that freedom, and the inverse of L without the anchor's
    row and column is the covariance of theta_i - theta_anchor. Only the players linked
    to the anchor by games enter it; the others get no interval."""
    strength, games = _fit(players, results, 500)
    logs = [math.log(s) for s in strength]
    ratings = tuple(ELO * (theta - logs[anchor]) + 0.0 for theta in logs)
    linked: dict[int, set[int]] = {i: set() for i in range(players)}
    for a, b in games:
        linked[a].add(b)
        linked[b].add(a)
    reached = {anchor}
    frontier = [anchor]
    while frontier:
        for other in linked[frontier.pop()] - reached:
            reached.add(other)
            frontier.append(other)
    free = sorted(reached - {anchor})
    index = {player: n for n, player in enumerate(free)}
    information = [[0.0] * len(free) for _ in free]
    for (a, b), n in games.items():
        if a not in reached:
            continue
        p = strength[a] / (strength[a] + strength[b])
        weight = n * p * (1 - p)
        for i, j in ((a, b), (b, a)):
            if i in index:
                information[index[i]][index[i]] += weight
                if j in index:
                    information[index[i]][index[j]] -= weight
    inverse = _inverse(information) if free else []
    covariance = [[0.0] * players for _ in range(players)]
    for i in free:
        for j in free:
            covariance[i][j] = ELO * ELO * inverse[index[i]][index[j]]
    return RatingFit(anchor, ratings, tuple(map(tuple, covariance)),
                     tuple(i in reached for i in range(players)))


def rating_intervals(players: int, results: Results, anchor: int) -> list[Interval]:
    """Each player's Bradley-Terry rating against ``anchor`` (at exactly 0) and its 95 %
    interval (see :func:`fit_ratings`; the extra tied games keep it finite when one
    player won everything). Players not linked to the anchor by games get no
    interval."""
    fit = fit_ratings(players, results, anchor)
    return [fit.interval(i) for i in range(players)]


# Ordered results: the points seat 1 took (1 a win, 0.5 a tie) in each game, keyed
# (seat 1's player, seat 2's player); a mirror pairing is keyed (a, a).
OrderedResults = Mapping[tuple[int, int], Sequence[float]]


def seat_confounded(results: OrderedResults) -> bool:
    """Whether the games played cannot tell the seat from the players: some strengths
    theta explain every pairing's seat 1 as exactly one unit stronger (theta_first -
    theta_second = 1 for every ordered pairing played), so a seat term h and those
    strengths fit the games equally well. Never when a mirror pairing was played, or a
    pairing in both seat orders, or a cycle of pairings that does not add up."""
    played = [(a, b) for (a, b), points in results.items() if points]
    if not played:
        return True
    neighbours: dict[int, list[tuple[int, int]]] = {}
    for a, b in played:
        if a == b:
            return False
        neighbours.setdefault(a, []).append((b, -1))  # theta_b = theta_a - 1
        neighbours.setdefault(b, []).append((a, 1))
    potential: dict[int, int] = {}
    for start in neighbours:
        if start in potential:
            continue
        potential[start] = 0
        frontier = [start]
        while frontier:
            here = frontier.pop()
            for there, step in neighbours[here]:
                if there not in potential:
                    potential[there] = potential[here] + step
                    frontier.append(there)
                elif potential[there] != potential[here] + step:
                    return False
    return True


def _logistic(x: float) -> float:
    return 1 / (1 + math.exp(-x)) if x >= 0 else math.exp(x) / (1 + math.exp(x))


def seat_term(players: int, results: OrderedResults,
              iterations: int = 100) -> Interval | None:
    """The first player's edge fitted with the players' strengths: seat 1's chance of
    the points against a player of its own strength, sigma(h), with its 95 % interval
    sigma(h -+ 1.96 se(h)), in the model P(seat 1 wins) = sigma(theta_first -
    theta_second + h) (Bradley-Terry with an order effect; Agresti, Categorical Data
    Analysis, 10.6). A tie counts half a win; each ordered pairing gets one extra tied
    game, as the ladder does, so that a clean sweep has a finite fit (it pulls h a
    little towards 0). None when the games cannot tell the seat from the players
    (:func:`seat_confounded`, e.g. each pairing in one seat order only). Fitted by
    Newton's method; the interval is the fit's curvature at the maximum."""
    if seat_confounded(results):
        return None
    played = {key: (math.fsum(points) + 0.5, len(points) + 1.0)
              for key, points in results.items() if points}
    # One strength per player fixed at 0 in each group of players linked by games (only
    # differences within a group mean anything); the rest, then h, are the parameters.
    linked: dict[int, set[int]] = {}
    for a, b in played:
        linked.setdefault(a, set()).add(b)
        linked.setdefault(b, set()).add(a)
    free: list[int] = []
    seen: set[int] = set()
    for start in sorted(linked):
        if start in seen:
            continue
        group, frontier = {start}, [start]
        while frontier:
            for other in linked[frontier.pop()] - group:
                group.add(other)
                frontier.append(other)
        seen |= group
        free += sorted(group - {start})
    index = {player: n for n, player in enumerate(free)}
    size = len(free) + 1  # the strengths, then h
    theta = [0.0] * players
    h = 0.0
    information: list[list[float]] = []
    for _ in range(iterations):
        gradient = [0.0] * size
        information = [[0.0] * size for _ in range(size)]
        for (a, b), (points, games) in played.items():
            p = _logistic(theta[a] - theta[b] + h)
            residual, weight = points - games * p, games * p * (1 - p)
            x = {size - 1: 1.0}
            if a != b:
                for player, sign in ((a, 1.0), (b, -1.0)):
                    if player in index:
                        x[index[player]] = sign
            for i, xi in x.items():
                gradient[i] += residual * xi
                for j, xj in x.items():
                    information[i][j] += weight * xi * xj
        step = [sum(row[j] * gradient[j] for j in range(size))
                for row in _inverse(information)]
        for player, n in index.items():
            theta[player] += step[n]
        h += step[-1]
        if max(abs(s) for s in step) < 1e-10:
            break
    variance = _inverse(information)[-1][-1]
    half = Z95 * math.sqrt(max(0.0, variance))
    return Interval(_logistic(h), _logistic(h - half), _logistic(h + half), "seat-term")


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    """Gauss-Jordan inversion with partial pivoting (a few bots: tiny matrices)."""
    size = len(matrix)
    rows = [[*row, *(1.0 if i == j else 0.0 for j in range(size))]
            for i, row in enumerate(matrix)]
    for column in range(size):
        pivot = max(range(column, size), key=lambda r: abs(rows[r][column]))
        rows[column], rows[pivot] = rows[pivot], rows[column]
        lead = rows[column][column]
        rows[column] = [v / lead for v in rows[column]]
        for r in range(size):
            if r != column and rows[r][column] != 0.0:
                factor = rows[r][column]
                rows[r] = [v - factor * w for v, w in zip(rows[r], rows[column], strict=True)]
    return [row[size:] for row in rows]


# -- tests of differences, and their correction for many at once -----------------------------

def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the regularised incomplete beta function (modified
    Lentz, as in Numerical Recipes' betacf)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        for numerator in (m * (b - m) * x / ((a + m2 - 1) * (a + m2)),
                          -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1))):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-14:
            break
    return h


def incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _beta_fraction(a, b, x) / a
    return 1.0 - front * _beta_fraction(b, a, 1.0 - x) / b


def t_two_sided_p(t: float, df: int) -> float:
    """The two-sided p-value of Student's t statistic ``t`` with ``df`` degrees of
    freedom: P(|T| >= |t|) = I_{df/(df+t^2)}(df/2, 1/2)."""
    if df < 1:
        raise ValueError(f"degrees of freedom must be 1 or more, not {df}")
    if math.isinf(t):
        return 0.0
    return incomplete_beta(df / 2, 0.5, df / (df + t * t))


def paired_p(before: Sequence[float], after: Sequence[float]) -> float | None:
    """The two-sided p-value of the paired t test of ``after - before`` (None: fewer
    than two pairs; 1 when every difference is 0; 0 when they are all equal and not 0)."""
    differences = [b - a for a, b in zip(before, after, strict=True)]
    n = len(differences)
    if n < 2:
        return None
    centre = mean(differences)
    variance = math.fsum((d - centre) ** 2 for d in differences) / (n - 1)
    if variance == 0.0:
        return 1.0 if centre == 0.0 else 0.0
    return t_two_sided_p(centre / math.sqrt(variance / n), n - 1)


HOLM = "Holm"


def holm(p_values: Sequence[float | None], alpha: float = 0.05) -> list[float | None]:
    """Holm's step-down adjusted p-values (a family of tests: reject those at or below
    ``alpha``; the chance of any false difference stays at most ``alpha``). None (a
    test not made) stays None and does not count in the family."""
    made = sorted((p, index) for index, p in enumerate(p_values) if p is not None)
    adjusted: list[float | None] = [None] * len(p_values)
    running = 0.0
    count = len(made)
    for rank, (p, index) in enumerate(made):
        running = max(running, min(1.0, (count - rank) * p))
        adjusted[index] = running
    return adjusted
