"""Time to strength, as KataGo's Table 2 measures it (Wu 2019): a run's curve of strength
against its training minutes (:func:`training_curve`), the mean of several runs' curves
(:func:`mean_curve`), when a curve first reaches a level (:func:`time_to_reach`), and the factor
of a technique's runs against the baseline's (:func:`speedup`: the time the baseline needs to
reach its final strength over the time the technique needs, with a bootstrap interval over the
runs; the method: :mod:`pyaz.experiments.accelerations`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from pyaz.eval.stats import RESAMPLES
from pyaz.experiments.report import Curve

__all__ = ["SMOOTHING", "SpeedUp", "mean_curve", "speedup", "time_to_reach", "training_curve"]

SMOOTHING = 3  # evaluations in the trailing mean of a curve


def training_curve(records: Sequence[dict[str, Any]], metric: str) -> tuple[Curve, int, float]:
    """A run's evaluations of ``metric`` against its training minutes (self-play, training and
    gating time up to the evaluated iteration, its evaluations' time left out), the iterations
    it played and its training minutes in all."""
    seconds: dict[int, float] = {}
    for record in records:
        if record.get("kind") == "iteration":
            stages = ("time_selfplay", "time_train", "time_arena")
            seconds[int(record["iteration"])] = sum(float(record.get(k, 0.0)) for k in stages)
    minutes, total = {}, 0.0
    for iteration in sorted(seconds):
        total += seconds[iteration]
        minutes[iteration] = total / 60.0
    rows = [
        r
        for r in records
        if r.get("kind") == "eval" and metric in r and int(r["iteration"]) in minutes
    ]
    rows.sort(key=lambda r: int(r["iteration"]))
    x = np.array([minutes[int(r["iteration"])] for r in rows])
    y = np.array([float(r[metric]) for r in rows])
    return Curve(x, y), max(minutes, default=0), total / 60.0


def mean_curve(curves: Sequence[Curve]) -> Curve:
    """The mean of ``curves`` (each piecewise linear between its points) at every point of any
    of them within the span they all cover; a single curve is itself. When the spans do not
    overlap, at every point of any, each curve flat beyond its ends. Empty curves are ignored."""
    usable = [c for c in curves if c.x.size]
    if not usable:
        return Curve(np.zeros(0), np.zeros(0))
    start = max(float(c.x[0]) for c in usable)
    stop = min(float(c.x[-1]) for c in usable)
    grid = np.unique(np.concatenate([c.x for c in usable]))
    if stop >= start:
        grid = grid[(grid >= start) & (grid <= stop)]
    values = np.stack([np.interp(grid, c.x, c.y) for c in usable])
    return Curve(grid, values.mean(axis=0))


def time_to_reach(curve: Curve, level: float) -> float | None:
    """The first x where ``curve`` (piecewise linear between its points) reaches ``level``:
    its first x when it starts there, None when it never does."""
    y = curve.y
    hits = np.flatnonzero(y >= level - 1e-12)
    if hits.size == 0 or not np.isfinite(level):
        return None
    i = int(hits[0])
    if i == 0:
        return float(curve.x[0])
    x0, x1, y0, y1 = curve.x[i - 1], curve.x[i], y[i - 1], y[i]
    return float(x0 + (x1 - x0) * (level - y0) / (y1 - y0))


@dataclass(frozen=True)
class SpeedUp:
    """KataGo's Table 2 factor of a technique against the baseline (see :func:`speedup`):
    ``target`` the baseline's final smoothed strength, reached after ``baseline_minutes`` by the
    baseline and ``minutes`` by the technique (None: not reached); ``factor`` their ratio (None:
    not reached), ``low``/``high`` its 95% bootstrap interval (0: not reached in that share of
    the resamples), ``reached`` the share of resamples in which the technique reached the
    target; ``runs`` the technique's runs."""

    target: float
    baseline_minutes: float | None
    minutes: float | None
    factor: float | None
    low: float
    high: float
    reached: float
    runs: int


def _factor(baseline: Sequence[Curve], technique: Sequence[Curve]) -> tuple[float, ...] | None:
    """(target, baseline time, technique time) of smoothed curves; None: not reached."""
    mean = mean_curve(baseline)
    if not mean.y.size:
        return None
    target = float(mean.y[-1])
    base_time = time_to_reach(mean, target)
    time = time_to_reach(mean_curve(technique), target)
    if base_time is None or time is None or time <= 0:
        return None
    return target, base_time, time


def speedup(
    baseline: Sequence[Curve], technique: Sequence[Curve], resamples: int = RESAMPLES, seed: int = 0
) -> SpeedUp:
    """The factor of ``technique``'s runs against ``baseline``'s (raw curves of strength
    against minutes, one per run; each smoothed by the trailing mean of :data:`SMOOTHING`
    evaluations), with its bootstrap interval over the runs (``resamples``, seeded)."""
    smooth_b = [c.trailing(SMOOTHING) for c in baseline if c.x.size]
    smooth_t = [c.trailing(SMOOTHING) for c in technique if c.x.size]
    mean = mean_curve(smooth_b)
    target = float(mean.y[-1]) if mean.y.size else float("nan")
    base_time = time_to_reach(mean, target) if mean.y.size else None
    point = _factor(smooth_b, smooth_t) if smooth_t else None
    samples = np.zeros(max(1, resamples))
    if smooth_b and smooth_t:
        rng = np.random.default_rng(seed)
        for k in range(samples.size):
            b = [smooth_b[i] for i in rng.integers(len(smooth_b), size=len(smooth_b))]
            t = [smooth_t[i] for i in rng.integers(len(smooth_t), size=len(smooth_t))]
            found = _factor(b, t)
            samples[k] = found[1] / found[2] if found else 0.0
    low, high = (float(v) for v in np.percentile(samples, [2.5, 97.5]))
    minutes, factor = (point[2], point[1] / point[2]) if point else (None, None)
    reached = float(np.mean(samples > 0))
    return SpeedUp(target, base_time, minutes, factor, low, high, reached, len(smooth_t))
