"""PNG plots of a run folder's metrics (matplotlib, Agg canvas, no display needed).

:func:`make_plots` reads ``metrics.jsonl`` (see :mod:`pyaz.common.runlog`) and writes, where the
data exists:

* ``losses.png``: total / policy / value loss per iteration (records ``kind == "iteration"``,
  keys ``loss``, ``loss_policy``, ``loss_value``) and, if ``kind == "train_epoch"`` records carry
  losses, a second panel with the loss per training epoch.
* ``stage_times.png``: seconds per stage per iteration (``time_selfplay``, ``time_train``,
  ``time_arena``; the three terms of the time-cost sum of seed 001, eq. 2), stacked, and their
  cumulative totals.
* ``win_ratio.png``: win ratio against the reference opponent(s) (records ``kind == "eval"``,
  key ``win_ratio``, one line per ``opponent``) against wall time (``elapsed_s``), training steps
  (``train_steps``) and epochs (``epochs``): raw points plus a centred moving average of up to
  ``window`` points (:func:`moving_average`), as in seed 000, Fig. 4-6.
* ``perfect_play.png``: the same for the share of value-keeping moves on hard positions
  (``perfect_agreement``, ``--eval-opponent perfect`` on Connect Four).

Plots whose data is missing are skipped. Each PNG is replaced atomically, so a viewer never sees
a half-written file. From a shell: ``python -m pyaz.common.plots runs/NAME``. A running loop keeps
them current with :class:`LivePlots` (redrawn every minute or so, and after Ctrl-C).
"""

from __future__ import annotations

import io
import math
import os
import subprocess
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from pyaz.common.runlog import atomic_write_bytes, read_metrics

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = [
    "LOSS_KEYS",
    "STAGE_KEYS",
    "WIN_RATIO_AXES",
    "LivePlots",
    "make_plots",
    "moving_average",
    "trailing_mean",
]

#: Loss keys of an ``iteration`` / ``train_epoch`` record and their legend labels.
LOSS_KEYS: dict[str, str] = {
    "loss": "optimised (with L2)",
    "loss_policy": "lp (policy)",
    "loss_value": "lv (value)",
    "loss_sum": "l+ = lp + lv",
    "loss_product": "lx = lp * lv",
}
#: Stage-time keys (seconds) of an ``iteration`` record and their legend labels.
STAGE_KEYS: dict[str, str] = {
    "time_selfplay": "self-play",
    "time_train": "training",
    "time_arena": "arena",
}
#: x-axis key of each win-ratio panel, and its axis label.
WIN_RATIO_AXES: dict[str, str] = {
    "elapsed_s": "wall time (minutes)",
    "train_steps": "training steps",
    "epochs": "epochs",
}

_DEFAULT_OPPONENT = "reference"


def make_plots(run_dir: str | os.PathLike[str], *, window: int = 20, dpi: int = 120) -> list[Path]:
    """Write the run's PNG plots into ``run_dir``; return the paths written.

    ``window`` is the moving-average length (points) of the win-ratio curves (seed 000 uses
    20). A plot without data is skipped; a plot that fails for another reason is skipped with a
    warning, so calling this from a training loop never raises (except if ``run_dir`` is
    unreadable). Returns ``[]`` with a warning if matplotlib is not installed.
    """
    run_dir = Path(run_dir)
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        warnings.warn("matplotlib is not installed: no plots", RuntimeWarning, stacklevel=2)
        return []
    records = read_metrics(run_dir)
    plotters: list[tuple[str, Callable[[list[dict[str, Any]]], Figure | None]]] = [
        ("losses.png", _plot_losses),
        ("stage_times.png", _plot_stage_times),
        ("win_ratio.png", lambda recs: _plot_evaluations(recs, window, "win_ratio")),
        ("perfect_play.png", lambda recs: _plot_evaluations(recs, window, "perfect_agreement")),
    ]
    written: list[Path] = []
    for name, plot in plotters:
        path = run_dir / name
        try:
            fig = plot(records)
            if fig is None:
                continue
            save_figure(fig, path, dpi)
        except Exception as exc:  # a plot must never stop a training run
            warnings.warn(f"could not write {path}: {exc!r}", RuntimeWarning, stacklevel=2)
            continue
        written.append(path)
    return written


class LivePlots:
    """Keeps the plots of a running loop's folder current, off its hot path (issue 77).

    :meth:`after_step` (after a step's records are written) draws them (:func:`make_plots`)
    once ``every_s`` seconds have passed since this object was made or since the last drawing,
    and waits after a drawing of d seconds at least d / ``share`` seconds, so that drawing takes
    at most ``share`` of the run's time. :meth:`on_stop` (Ctrl-C) has them drawn by a process
    of its own (``python -m pyaz.common.plots``) when steps ended since the last drawing, so
    that the run exits at once and the PNGs follow within seconds."""

    def __init__(self, folder: Path, every_s: float = 60.0, share: float = 0.05) -> None:
        self.folder = folder
        self.every_s = every_s
        self.share = share
        self._due = time.monotonic() + every_s
        self._stale = False  # steps ended since the last drawing

    def after_step(self) -> bool:
        """Draws the plots if they are due (see the class docstring); whether it drew."""
        self._stale = True
        if time.monotonic() < self._due:
            return False
        began = time.monotonic()
        make_plots(self.folder)
        took = time.monotonic() - began
        self._due = began + max(self.every_s, took / self.share)
        self._stale = False
        return True

    def on_stop(self) -> subprocess.Popen[bytes] | None:
        """Starts the process that draws the plots if steps ended since the last drawing (in
        a session of its own, so that a second Ctrl-C does not stop it); returns it, or None."""
        if not self._stale:
            return None
        self._stale = False
        return subprocess.Popen(
            [sys.executable, "-m", "pyaz.common.plots", str(self.folder)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )


def trailing_mean(values: Sequence[float] | np.ndarray, window: int) -> np.ndarray:
    """Trailing mean: point ``i`` is the mean of the last ``min(window, i + 1)`` values. It uses
    no later point, so the time a smoothed curve first reaches a level is a time it was known
    then (the accelerations experiment's time to strength); plots use :func:`moving_average`.

    >>> trailing_mean([1.0, 2.0, 3.0, 4.0], 2).tolist()
    [1.0, 1.5, 2.5, 3.5]
    """
    stop = np.arange(1, len(values) + 1)
    return _means(values, np.maximum(0, stop - max(1, int(window))), stop)


def moving_average(values: Sequence[float] | np.ndarray, window: int) -> np.ndarray:
    """Centred moving average of up to ``window`` points over the points that exist: point
    ``i`` of ``n`` is the mean of points ``i - h`` to ``i + h``, where ``h = min((window - 1)
    // 2, i, n - 1 - i)``. The window shrinks symmetrically at both ends (the first and last
    points stand as they are), so the line follows a linear trend exactly everywhere; it is
    never the mean of all the points so far, which trails far behind a rising curve (issue 27).

    >>> moving_average([0.0, 0.0, 0.0, 0.0, 10.0], 5).tolist()
    [0.0, 0.0, 2.0, 3.3333333333333335, 10.0]
    """
    index = np.arange(len(values))
    h = np.minimum(np.minimum((max(1, int(window)) - 1) // 2, index), len(values) - 1 - index)
    return _means(values, index - h, index + h + 1)


def _means(values: Sequence[float] | np.ndarray, start: np.ndarray, stop: np.ndarray) -> np.ndarray:
    """The mean of ``values[start[i]:stop[i]]`` for every ``i`` (by prefix sums)."""
    csum = np.concatenate([[0.0], np.cumsum(np.asarray(values, dtype=np.float64))])
    out: np.ndarray = (csum[stop] - csum[start]) / (stop - start)
    return out


# --------------------------------------------------------------------------- the plots


def _plot_losses(records: list[dict[str, Any]]) -> Figure | None:
    iters = _by_iteration(records)
    per_iter = {k: _series(iters, "iteration", k) for k in LOSS_KEYS}
    per_iter = {k: v for k, v in per_iter.items() if v[0].size}

    epochs = [r for r in records if r.get("kind") == "train_epoch"]
    per_epoch: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    if epochs:
        use_epochs = all(_num(r.get("epochs")) is not None for r in epochs)
        x_key = "epochs" if use_epochs else None
        per_epoch = {k: _series(epochs, x_key, k) for k in LOSS_KEYS}
        per_epoch = {k: v for k, v in per_epoch.items() if v[0].size}
    if not per_iter and not per_epoch:
        return None

    panels = [p for p in (per_iter, per_epoch) if p]
    fig = figure(len(panels), width=7.0 * len(panels), height=4.5)
    axes = fig.subplots(1, len(panels), squeeze=False)[0]
    for ax, data in zip(axes, panels, strict=True):
        for key, (x, y) in data.items():
            ax.plot(x, y, marker="o" if x.size <= 50 else None, ms=3, label=LOSS_KEYS[key])
        ax.set_ylabel("loss")
        ax.grid(alpha=0.3)
        ax.legend()
        if data is per_iter:
            ax.set(title="Training loss per iteration", xlabel="iteration")
            _integer_ticks(ax)
        else:
            ax.set(title="Training loss per epoch", xlabel="epoch (cumulative)")
    return fig


def _plot_stage_times(records: list[dict[str, Any]]) -> Figure | None:
    iters = _by_iteration(records)
    rows = [r for r in iters if any(_num(r.get(k)) is not None for k in STAGE_KEYS)]
    keys = [k for k in STAGE_KEYS if any(_num(r.get(k)) is not None for r in rows)]
    if not rows or not keys:
        return None
    x = np.array([_x_of(r, "iteration", i) for i, r in enumerate(rows)], dtype=np.float64)
    secs = {k: np.array([_finite_or_zero(r.get(k)) for r in rows]) for k in keys}

    fig = figure(2, width=13.0, height=4.5)
    ax_bar, ax_cum = fig.subplots(1, 2)
    width = 0.8 * (float(np.min(np.diff(np.unique(x)))) if np.unique(x).size > 1 else 1.0)
    bottom = np.zeros_like(x)
    for key in keys:
        ax_bar.bar(x, secs[key], width, bottom=bottom, label=STAGE_KEYS[key])
        bottom = bottom + secs[key]
    ax_bar.set(title="Time per stage per iteration", xlabel="iteration", ylabel="seconds")
    ax_bar.grid(axis="y", alpha=0.3)
    ax_bar.legend()
    _integer_ticks(ax_bar)

    total = float(sum(np.sum(v) for v in secs.values()))
    scale, unit = (3600.0, "hours") if total > 2 * 3600 else (60.0, "minutes")
    cumulative = [np.cumsum(secs[k]) / scale for k in keys]
    ax_cum.stackplot(x, *cumulative, labels=[STAGE_KEYS[k] for k in keys], alpha=0.8)
    title = f"Cumulative time per stage (total {total / scale:.3g} {unit})"
    ax_cum.set(title=title, xlabel="iteration", ylabel=unit)
    ax_cum.grid(alpha=0.3)
    ax_cum.legend(loc="upper left")
    _integer_ticks(ax_cum)
    return fig


_EVAL_LABELS = {  # an evaluation metric -> (its axis label, what the figure shows)
    "win_ratio": ("win ratio", "Win ratio against the reference opponent"),
    "perfect_agreement": (
        "value-keeping moves",
        "Share of value-keeping moves on hard positions (exact play)",
    ),
}


def _plot_evaluations(records: list[dict[str, Any]], window: int, key: str) -> Figure | None:
    """The ``eval`` records' ``key`` (a key of :data:`_EVAL_LABELS`) against the three x axes."""
    evals = [r for r in records if r.get("kind") == "eval" and _finite(_num(r.get(key)))]
    if not evals:
        return None
    label, what = _EVAL_LABELS[key]
    opponents = list(dict.fromkeys(_opponent(r) for r in evals))
    in_unit_range = all(0.0 <= float(r[key]) <= 1.0 for r in evals)

    fig = figure(3, width=16.0, height=4.8)
    axes = fig.subplots(1, 3, sharey=True)
    colors = [f"C{i % 10}" for i in range(len(opponents))]
    for ax, (x_key, x_label) in zip(axes, WIN_RATIO_AXES.items(), strict=True):
        plotted = False
        for opponent, color in zip(opponents, colors, strict=True):
            pts = [
                (float(r[x_key]), float(r[key]))
                for r in evals
                if _opponent(r) == opponent and _finite(_num(r.get(x_key)))
            ]
            if not pts:
                continue
            pts.sort(key=lambda p: p[0])
            x, y = np.array(pts).T
            if x_key == "elapsed_s":
                x = x / 60.0
            ax.scatter(x, y, s=12, alpha=0.35, color=color)
            ax.plot(x, moving_average(y, window), color=color, lw=2, label=opponent)
            plotted = True
        ax.set(xlabel=x_label, title=f"{label.capitalize()} vs {x_label.split(' (')[0]}")
        ax.grid(alpha=0.3)
        if plotted:
            if key == "win_ratio":
                ax.axhline(0.5, color="grey", ls="--", lw=1)
            ax.legend(title="opponent", fontsize="small")
        else:
            ax.text(
                0.5,
                0.5,
                f"no '{x_key}' data",
                ha="center",
                va="center",
                transform=ax.transAxes,
                color="grey",
            )
        if in_unit_range:
            ax.set_ylim(-0.02, 1.02)
    axes[0].set_ylabel(label)
    fig.suptitle(
        f"{what} "
        f"(dots: evaluations; lines: centred moving average of up to "
        f"{2 * ((max(1, window) - 1) // 2) + 1} points)"
    )
    return fig


# --------------------------------------------------------------------------- helpers


def figure(panels: int, *, width: float, height: float) -> Figure:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)  # attach the Agg canvas: no pyplot, no GUI backend, no global state
    return fig


def save_figure(fig: Figure, path: Path, dpi: int) -> None:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    atomic_write_bytes(path, buf.getvalue())


def _integer_ticks(ax: Axes) -> None:
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))


def _num(value: Any) -> float | None:
    """``value`` as a float if it is a number (not a bool), else ``None``."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def _finite(value: float | None) -> bool:
    return value is not None and math.isfinite(value)


def _finite_or_zero(value: Any) -> float:
    v = _num(value)
    return v if v is not None and math.isfinite(v) else 0.0


def _opponent(record: dict[str, Any]) -> str:
    opponent = record.get("opponent")
    return _DEFAULT_OPPONENT if opponent is None or opponent == "" else str(opponent)


def _x_of(record: dict[str, Any], x_key: str | None, index: int) -> float:
    x = _num(record.get(x_key)) if x_key is not None else None
    return x if x is not None else float(index)


def _by_iteration(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``iteration`` records in order, keeping the last one for a repeated iteration number."""
    rows = [r for r in records if r.get("kind") == "iteration"]
    numbers = [(r.get("iteration"), i) for i, r in enumerate(rows)]
    latest = {it if _num(it) is not None else ("row", i): i for it, i in numbers}
    keep = sorted(latest.values())
    return sorted((rows[i] for i in keep), key=lambda r: _x_of(r, "iteration", 0))


def _series(
    rows: list[dict[str, Any]], x_key: str | None, y_key: str
) -> tuple[np.ndarray, np.ndarray]:
    """(x, y) of the rows with a numeric ``y_key``; x is ``x_key`` or the row's position + 1."""
    points = [
        (_x_of(r, x_key, i + 1), y)
        for i, r in enumerate(rows)
        if (y := _num(r.get(y_key))) is not None
    ]
    return np.array([x for x, _ in points]), np.array([y for _, y in points])


if __name__ == "__main__":  # python -m pyaz.common.plots RUN_DIR...: (re)draw runs' plots
    import sys

    for folder in sys.argv[1:] or sys.exit("usage: python -m pyaz.common.plots RUN_DIR..."):
        if not Path(folder).is_dir():
            sys.exit(f"not a run folder: {folder}")
        print("\n".join(str(path) for path in make_plots(folder)) or f"{folder}: nothing to plot")
