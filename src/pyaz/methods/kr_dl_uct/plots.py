"""Curling's own plot: the multi-end win-probability table of a run beside seed 002's Table 1."""

from __future__ import annotations

import os
import warnings
from pathlib import Path

import numpy as np

from pyaz.common.plots import figure, save_figure
from pyaz.games.curling import SEED002_TABLE1

__all__ = ["plot_win_table"]


def plot_win_table(run_dir: str | os.PathLike[str], *, dpi: int = 120) -> Path | None:
    """``win_table.png`` from a curling run's ``win_table.npy`` (P_win[n, d] of the first
    thrower, built from the run's ends), beside seed 002's Table 1: one curve per number of
    ends to play, over the score difference -4..+4. Returns None when there is no table."""
    run_dir = Path(run_dir)
    source = run_dir / "win_table.npy"
    if not source.exists():
        return None
    try:
        table = np.load(source)
        middle = table.shape[1] // 2
        diffs = np.arange(-4, 5)
        fig = figure(2, width=12.0, height=4.5)
        own_ax, seed_ax = fig.subplots(1, 2)
        for n in (1, 2, 4, 8):
            if n < table.shape[0]:
                own_ax.plot(diffs, table[n, middle + diffs], marker="o", ms=3, label=f"n = {n}")
            seed_ax.plot(diffs, SEED002_TABLE1[n], marker="o", ms=3, label=f"n = {n}")
        own_ax.set_title("P_win of the first thrower, from this run's ends")
        seed_ax.set_title("Seed 002, Table 1")
        for ax in (own_ax, seed_ax):
            ax.set_xlabel("score difference d (first thrower minus hammer team)")
            ax.set_ylabel("P_win(n ends to play, d)")
            ax.set_ylim(0, 1)
            ax.grid(alpha=0.3)
            ax.legend()
        path = run_dir / "win_table.png"
        save_figure(fig, path, dpi)
    except Exception as exc:  # a plot must never stop a training run
        warnings.warn(f"could not write the win table plot: {exc!r}", RuntimeWarning, stacklevel=2)
        return None
    return path
