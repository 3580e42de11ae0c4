"""What the experiments' reports share: reading the runs' metrics, curves over time / steps /
epochs, moving averages, the mean and spread over repeated runs, the area under a curve, and
the README of an experiment's folder."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from pyaz.common.plots import moving_average
from pyaz.common.runlog import atomic_write_bytes, read_metrics, write_json_atomic
from pyaz.experiments.base import read_json_object

__all__ = [
    "Curve",
    "area_under",
    "cached",
    "eval_curve",
    "markdown_table",
    "mean_and_band",
    "read_run",
    "write_readme",
]


@dataclass(frozen=True)
class Curve:
    """A series ``y`` against ``x`` (both increasing in ``x``)."""

    x: np.ndarray
    y: np.ndarray

    def smoothed(self, window: int) -> Curve:
        """The trailing moving average over ``window`` points (seed 000 plots 20)."""
        return Curve(self.x, moving_average(self.y, window) if self.y.size else self.y)


def cached(path: Path, compute: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """The result kept in the JSON file ``path``, else ``compute()``, kept there (written
    atomically, so a killed report never leaves half a file). A file that is damaged or not a
    JSON object is a one-line ValueError naming it."""
    if path.exists():
        return read_json_object(path, "delete it to compute it again")
    result = dict(compute())
    write_json_atomic(path, result)
    return result


def read_run(folder: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The metrics records of a run folder (empty if it has none)."""
    return read_metrics(folder) if (Path(folder) / "metrics.jsonl").exists() else []


def eval_curve(
    records: Sequence[dict[str, Any]], x: str = "elapsed_s", y: str = "win_ratio"
) -> Curve:
    """The evaluation records' ``y`` against ``x`` (``elapsed_s``, ``train_steps``, ``epochs``
    or ``iteration``), in order."""
    rows = [r for r in records if r.get("kind") == "eval" and r.get(x) is not None]
    rows.sort(key=lambda r: float(r[x]))
    return Curve(np.array([float(r[x]) for r in rows]), np.array([float(r[y]) for r in rows]))


def mean_and_band(
    curves: Sequence[Curve], points: int = 50
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The mean of repeated runs' curves on a common grid, and its band (min, max): the grid
    spans the x range that every curve covers, and each curve is interpolated linearly."""
    usable = [c for c in curves if c.x.size >= 2]
    if not usable:
        empty = np.zeros(0)
        return empty, empty, empty, empty
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
