"""The statistics a tournament reports: Wilson intervals, Elo from a score rate, percentiles,
and the mean of paired (duplicate-deal) differences with its interval.

>>> lo, hi = wilson(95, 100)
>>> round(lo, 3), round(hi, 3)
(0.888, 0.978)
>>> round(elo_of(0.75), 1)
190.8
>>> percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95)
10
"""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["Z95", "elo_of", "mean_interval", "percentile", "wilson"]

#: the two-sided 95% normal quantile
Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (draws may count as half successes)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def elo_of(p: float, n: int | None = None) -> float:
    """The Elo difference that makes ``p`` the expected score: 400 log10(p / (1 - p)).

    A rate of 0 or 1 has no finite Elo; it is clipped to half a game from the edge of ``n``
    games (or to 0.0001 without ``n``).
    """
    eps = 0.5 / n if n else 1e-4
    p = min(max(p, eps), 1 - eps)
    return 400.0 * math.log10(p / (1 - p))


def percentile(values: Sequence[float], q: float) -> float | None:
    """The nearest-rank ``q``-th percentile (None for no values)."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float | None, float | None]:
    """The mean and the half-width of its normal 95% interval (None where undefined)."""
    n = len(values)
    if n == 0:
        return (None, None)
    mean = sum(values) / n
    if n < 2:
        return (mean, None)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return (mean, z * math.sqrt(var / n))
