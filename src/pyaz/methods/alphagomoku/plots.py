"""Figures of an AlphaGomoku run: finished games drawn as numbered boards (seed 004's Figs. 5
and 6) and the run's curves (losses, the gate, the score against the mentor)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pyaz.common.plots import figure, save_figure

__all__ = ["plot_board", "plot_run"]


def plot_board(
    actions: list[int], size: int, path: Path, title: str = "", opening: int = 0
) -> Path:
    """The game ``actions`` (Black first) on a ``size`` x ``size`` board, each stone numbered by
    its move; the first ``opening`` moves (the match's random opening) are drawn with a red
    number. Written as a PNG to ``path``."""
    fig = figure(1, width=6.0, height=6.3)
    ax = fig.subplots()
    ax.set_facecolor("#dcb35c")
    for k in range(size):
        ax.plot([0, size - 1], [k, k], color="black", linewidth=0.6, zorder=1)
        ax.plot([k, k], [0, size - 1], color="black", linewidth=0.6, zorder=1)
    for index, action in enumerate(actions):
        row, col = divmod(int(action), size)
        black = index % 2 == 0
        ax.scatter(
            [col], [row], s=3600 / size, c="black" if black else "white",
            edgecolors="black", linewidths=0.8, zorder=2,
        )  # fmt: skip
        colour = "red" if index < opening else ("white" if black else "black")
        ax.text(col, row, str(index + 1), ha="center", va="center", fontsize=110 / size,
                color=colour, zorder=3)  # fmt: skip
    letters = "abcdefghijklmnopqrstuvwxyz"[:size]
    ax.set_xticks(range(size), list(letters))
    ax.set_yticks(range(size), [str(k + 1) for k in range(size)])
    ax.set_xlim(-0.7, size - 0.3)
    ax.set_ylim(size - 0.3, -0.7)
    ax.set_aspect("equal")
    ax.set_title(title, fontsize=10)
    save_figure(fig, path, 110)
    return path


def plot_run(records: list[dict[str, Any]], path: Path) -> Path | None:
    """The run's curves from its ``metrics.jsonl`` records: the policy and value losses of each
    network per round and iteration, and the gate's and the mentor matches' scores."""
    steps = [r for r in records if r.get("kind") in ("basic", "imitation", "iteration")]
    if not steps:
        return None
    fig = figure(2, width=12.0, height=4.2)
    left, right = fig.subplots(1, 2)
    for key in sorted({k for r in steps for k in r if k.endswith(("_loss_policy", "_loss_value"))}):
        points = [(x, r[key]) for x, r in enumerate(steps, 1) if key in r]
        left.plot([p[0] for p in points], [p[1] for p in points], marker="o", label=key)
    left.set_xlabel("step (phase 1, imitation rounds, self-play iterations)")
    left.set_ylabel("loss (last epoch)")
    left.grid(alpha=0.3)
    left.legend(fontsize=7)
    for key, label in (("vs_mentor_score", "against the mentor"), ("gate_score", "gate")):
        points = [(x, r[key]) for x, r in enumerate(steps, 1) if key in r]
        if points:
            right.plot([p[0] for p in points], [p[1] for p in points], marker="o", label=label)
    right.set_ylim(-0.02, 1.02)
    right.set_xlabel("step")
    right.set_ylabel("score (wins + draws / 2)")
    right.grid(alpha=0.3)
    right.legend(fontsize=8)
    save_figure(fig, path, 110)
    return path
