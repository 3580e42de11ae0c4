"""Confidence intervals for match scores: binomial (Wilson) and the percentile bootstrap."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

__all__ = ["RESAMPLES", "Z_95", "bootstrap_mean", "wilson_interval"]

RESAMPLES = 2000
"""Bootstrap resamples of :func:`bootstrap_mean` by default."""

Z_95 = 1.959963984540054
"""The two-sided 95% normal quantile, Phi^-1(0.975)."""


def wilson_interval(
    successes: float, n: int, z: float = Z_95, continuity: bool = True
) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion ``successes / n``, clipped to [0, 1].

    With ``continuity`` (the default; seed 000's rule) this is Newcombe's (1998) method 4, the
    score interval with continuity correction (also Reed 2007), with p = successes/n, q = 1-p::

        L = (2np + z^2 - 1 - z sqrt(z^2 - 2 - 1/n + 4p(nq + 1))) / (2(n + z^2)),  L = 0 if p = 0
        U = (2np + z^2 + 1 + z sqrt(z^2 + 2 - 1/n + 4p(nq - 1))) / (2(n + z^2)),  U = 1 if p = 1

    Without it, the plain Wilson (1927) interval (Newcombe's method 3)::

        (2np + z^2 -/+ z sqrt(z^2 + 4npq)) / (2(n + z^2))

    ``successes`` may be fractional (draws counted as half a win). ``n = 0`` gives (0, 1).
    """
    if n < 0:
        raise ValueError(f"n must be >= 0, got {n}")
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be in [0, n] = [0, {n}], got {successes}")
    if z <= 0:
        raise ValueError(f"z must be > 0, got {z}")
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    q = 1.0 - p
    z2 = z * z
    denom = 2.0 * (n + z2)
    if not continuity:
        half = z * math.sqrt(z2 + 4.0 * n * p * q)
        centre = 2.0 * n * p + z2
        return max(0.0, (centre - half) / denom), min(1.0, (centre + half) / denom)
    if p <= 0.0:
        lower = 0.0
    else:
        root = math.sqrt(max(0.0, z2 - 2.0 - 1.0 / n + 4.0 * p * (n * q + 1.0)))
        lower = max(0.0, (2.0 * n * p + z2 - 1.0 - z * root) / denom)
    if p >= 1.0:
        upper = 1.0
    else:
        root = math.sqrt(max(0.0, z2 + 2.0 - 1.0 / n + 4.0 * p * (n * q - 1.0)))
        upper = min(1.0, (2.0 * n * p + z2 + 1.0 + z * root) / denom)
    return lower, upper


def bootstrap_mean(
    values: Sequence[float], resamples: int = RESAMPLES, seed: int = 0
) -> tuple[float, float, float]:
    """The mean of ``values`` and its 95% percentile-bootstrap interval (Efron 1979): the 2.5th
    and 97.5th percentiles of the means of ``resamples`` resamples drawn with replacement
    (seeded, so the interval is reproducible). Non-finite values are left out; NaN for all
    three when none is left."""
    data = np.array([v for v in values if np.isfinite(v)], dtype=np.float64)
    if not data.size:
        return float("nan"), float("nan"), float("nan")
    rng = np.random.default_rng(seed)
    means = data[rng.integers(data.size, size=(max(1, resamples), data.size))].mean(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    return float(data.mean()), float(low), float(high)
