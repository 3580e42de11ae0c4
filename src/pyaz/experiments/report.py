"""What the experiments' reports share: reading the runs' metrics, curves over time / steps /
epochs, moving averages, the mean and spread over repeated runs, the area under a curve, the
README of an experiment's folder, and the comparisons of contestants with their 95% intervals
(Elo, or a score with its Wilson interval), runs and games, which call a result "undecided"
where the intervals overlap (:func:`comparison`)."""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from pyaz.common.plots import moving_average, trailing_mean
from pyaz.common.runlog import atomic_write_bytes, read_metrics, write_json_atomic
from pyaz.eval.stats import Z_95, wilson_interval
from pyaz.experiments.base import read_json_object

__all__ = [
    "Curve",
    "Estimate",
    "against_even",
    "area_under",
    "cached",
    "comparison",
    "elo_estimate",
    "eval_curve",
    "leader",
    "markdown_table",
    "mean_and_band",
    "read_run",
    "score_estimate",
    "write_readme",
]


@dataclass(frozen=True)
class Curve:
    """A series ``y`` against ``x`` (both increasing in ``x``)."""

    x: np.ndarray
    y: np.ndarray

    def smoothed(self, window: int) -> Curve:
        """The centred moving average of up to ``window`` points (seed 000 plots 20; see
        :func:`~pyaz.common.plots.moving_average`)."""
        return Curve(self.x, moving_average(self.y, window) if self.y.size else self.y)

    def trailing(self, window: int) -> Curve:
        """The trailing mean of up to ``window`` points (no later point used:
        :func:`~pyaz.common.plots.trailing_mean`)."""
        return Curve(self.x, trailing_mean(self.y, window) if self.y.size else self.y)


def cached(path: Path, compute: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """The result kept in the JSON file ``path``, else ``compute()``, kept there (written
    atomically, so a killed report never leaves half a file). A file that is damaged or not a
    JSON object is a one-line ValueError naming it."""
    if path.exists():
        return read_json_object(path, "delete it to compute it again")
    result = dict(compute())
    write_json_atomic(path, result)
    return result


#: The metrics records of a run folder (empty if it has none).
read_run = read_metrics


def eval_curve(
    records: Sequence[dict[str, Any]], x: str = "elapsed_s", y: str = "win_ratio"
) -> Curve:
    """The evaluation records' ``y`` against ``x`` (``elapsed_s``, ``train_steps``, ``epochs``
    or ``iteration``), in order; records without both (absent or null) are left out.
    :func:`read_run` has checked that these fields hold numbers where present."""
    rows = [r for r in records if r.get("kind") == "eval" and None not in (r.get(x), r.get(y))]
    rows.sort(key=lambda r: float(r[x]))
    return Curve(np.array([float(r[x]) for r in rows]), np.array([float(r[y]) for r in rows]))


def mean_and_band(
    curves: Sequence[Curve], points: int = 50
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The mean of repeated runs' curves on a common grid, and its band (min, max): the grid
    spans the x range that every curve covers, and each curve is interpolated linearly."""
    usable = [c for c in curves if c.x.size >= 2]
    if not usable:
        return (np.zeros(0),) * 4
    start = max(float(c.x[0]) for c in usable)
    stop = min(float(c.x[-1]) for c in usable)
    if stop <= start:
        stop = max(float(c.x[-1]) for c in usable)
    grid = np.linspace(start, stop, points)
    values = np.stack([np.interp(grid, c.x, c.y) for c in usable])
    return grid, values.mean(axis=0), values.min(axis=0), values.max(axis=0)


def area_under(curve: Curve, start: float | None = None, until: float | None = None) -> float:
    """The mean height of the curve over ``[start, until]`` (default: its own x range), taken
    as piecewise linear between its points and flat beyond its ends: the area under a
    win-ratio curve divided by the span, so 1 is winning all along. NaN for an empty curve."""
    x, y = curve.x, curve.y
    if x.size == 0:
        return float("nan")
    low = float(x[0]) if start is None else start
    high = float(x[-1]) if until is None else until
    if high <= low:
        return float(np.interp(low, x, y))
    grid = np.linspace(low, high, 1001)
    return float(np.interp(grid, x, y).mean())


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A Markdown table (floats with 3 significant digits)."""

    def cell(value: Any) -> str:
        if isinstance(value, float):
            return "nan" if np.isnan(value) else "0" if abs(value) < 1e-9 else f"{value:.3g}"
        return str(value)

    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)


def write_readme(out: str | os.PathLike[str], title: str, sections: Sequence[str]) -> Path:
    """``README.md`` of an experiment's folder: a title and Markdown sections."""
    path = Path(out) / "README.md"
    text = f"# {title}\n\n" + "\n\n".join(s.strip() for s in sections) + "\n"
    atomic_write_bytes(path, text.encode("utf-8"))
    return path


@dataclass(frozen=True)
class Estimate:
    """A measured quantity of one contestant with its 95% interval: an Elo (``unit`` "Elo") or
    a score in [0, 1] (``unit`` "score"), from ``runs`` runs and ``games`` games."""

    name: str
    value: float
    lower: float
    upper: float
    unit: str
    runs: int
    games: int

    def text(self) -> str:
        """``"lp: 120 Elo (95% interval 60 to 180; 2 runs, 40 games)"``."""
        if self.games == 0:
            return f"{self.name}: no games"
        if self.unit == "Elo":
            value, lower, upper = (round(x) for x in (self.value, self.lower, self.upper))
            measured = f"{value} Elo (95% interval {lower} to {upper}"
        else:
            measured = f"{self.value:.2f} (95% Wilson interval {self.lower:.2f} to {self.upper:.2f}"
        runs = f"{self.runs} run{'s' * (self.runs != 1)}"
        return f"{self.name}: {measured}; {runs}, {self.games} games)"


def score_estimate(name: str, points: float, games: int, runs: int = 1) -> Estimate:
    """A score (wins plus half the draws, out of ``games``) with its 95% Wilson interval
    (:func:`~pyaz.eval.stats.wilson_interval`, with continuity correction); ``games`` 0 gives
    the whole of [0, 1]."""
    lower, upper = wilson_interval(points, games)
    value = points / games if games else float("nan")
    return Estimate(name, value, lower, upper, "score", runs, games)


def elo_estimate(name: str, ratings: Sequence[Mapping[str, Any]]) -> Estimate:
    """The mean Elo of one contestant's runs (``ratings``: each run's ``elo``, ``lower``,
    ``upper`` and ``games``, as :func:`~pyaz.experiments.evaluate.round_robin` gives them) and
    its 95% interval: the half-widths of the runs' intervals combined as independent errors of
    a mean (root of the sum of squares over the number of runs), and with two runs or more, in
    quadrature with the spread between the runs (1.96 standard errors of their mean)."""
    if not ratings:
        raise ValueError(f"no ratings for {name!r}")
    elos = np.array([float(r["elo"]) for r in ratings])
    halves = np.array([(float(r["upper"]) - float(r["lower"])) / 2 for r in ratings])
    half = float(np.sqrt(np.sum(halves**2)) / len(ratings))
    if len(ratings) > 1:
        spread = Z_95 * float(np.std(elos, ddof=1)) / np.sqrt(len(ratings))
        half = float(np.hypot(half, spread))
    mean = float(elos.mean())
    games = sum(int(r.get("games", 0)) for r in ratings)
    return Estimate(name, mean, mean - half, mean + half, "Elo", len(ratings), games)


def _rank(estimate: Estimate) -> float:
    """The sort key: the value, an estimate without games last."""
    return estimate.value if estimate.games > 0 else -math.inf


def leader(estimates: Sequence[Estimate]) -> Estimate | None:
    """The estimate (higher is better) whose 95% interval lies above every other's; None when
    the leader's interval overlaps another's (undecided) or there is nothing to compare."""
    ranked = sorted(estimates, key=_rank, reverse=True)
    if len(ranked) < 2 or any(e.upper >= ranked[0].lower for e in ranked[1:]):
        return None
    return ranked[0]


def comparison(estimates: Sequence[Estimate], what: str, shown: int = 6) -> str:
    """A plain-sentence verdict on ``estimates`` (higher is better) about ``what``: the leader
    is named only when its 95% interval lies above every other's (:func:`leader`); otherwise
    it says "undecided" and which intervals overlap. The ``shown`` highest estimates are given
    with their intervals, runs and games."""
    if not estimates:
        return f"No results for {what}: undecided."
    ranked = sorted(estimates, key=_rank, reverse=True)
    listed = "; ".join(e.text() for e in ranked[:shown])
    if len(ranked) > shown:
        listed += f"; and {len(ranked) - shown} more below"
    if len(ranked) == 1:
        return f"{what}: {listed}. Nothing to compare it with: undecided."
    if (ahead := leader(ranked)) is not None:
        return (
            f"{what}: {listed}. {ahead.name} is ahead: its 95% interval lies above every other's."
        )
    top = ranked[0]
    names = ", ".join(e.name for e in ranked[1:] if e.upper >= top.lower)
    return (
        f"{what}: {listed}. Undecided: the 95% interval of {top.name} overlaps that of "
        f"{names}, so these results do not tell them apart; more runs or games would."
    )


def against_even(estimate: Estimate, opponent: str) -> str:
    """A plain sentence on a score against ``opponent``: ahead when its 95% Wilson interval
    lies above 0.5, behind when below, else undecided."""
    if estimate.lower > 0.5:
        news = f"{estimate.name} is ahead of {opponent} (the interval lies above 0.5)"
    elif estimate.upper < 0.5:
        news = f"{estimate.name} is behind {opponent} (the interval lies below 0.5)"
    else:
        news = f"undecided against {opponent}: the interval holds 0.5, an even score"
    return f"Score against {opponent}: {estimate.text()}: {news}."
