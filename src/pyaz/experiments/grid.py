"""``pyaz-experiment grid``: seed 001's grid over the four time-related hyper-parameters (Section
5.2, Table 2, Figs. 4-6).

Every combination of I (iterations), E (episodes), m (simulations) and ep (epochs) at Table 2's
three values — 81 runs of the AlphaZero loop (stage 3, the arena, is off, as the paper says),
the other hyper-parameters at Table 1's defaults — then a round robin of the 81 final players
plus the random player, rated with Bayesian Elo (Fig. 4), Elo against the self-play, training
and total time of each run (Figs. 5-6), and the Pareto front of Elo against time. The paper's
main result this checks: more outer iterations (I) improve playing strength more than more
inner work (m, ep); within a budget, maximise I and keep m and ep low.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import numpy as np

from pyaz.common.plots import figure, save_figure
from pyaz.experiments.base import SELFPLAY, Experiment, RunSpec, run_folder
from pyaz.experiments.evaluate import round_robin
from pyaz.experiments.report import (
    comparison,
    elo_estimate,
    leader,
    markdown_table,
    read_run,
    write_readme,
)
from pyaz.experiments.seed001 import TABLE2, base_settings
from pyaz.games import make

__all__ = ["GridExperiment", "pareto_front"]

GRIDS: dict[str, dict[str, tuple[int, ...]]] = {
    "full": dict(TABLE2),
    # the cpu scale divides I and E by 5 and m by 3 (ep as in the paper)
    "cpu": {
        "iterations": (5, 10, 15),
        "episodes": (2, 4, 6),
        "simulations": (8, 17, 25),
        "epochs": (5, 10, 15),
    },
    "short": {"iterations": (1, 2), "episodes": (2,), "simulations": (6,), "epochs": (1, 2)},
}
SHORT_NAMES = {"iterations": "I", "episodes": "E", "simulations": "m", "epochs": "ep"}
TIMES = (("selfplay_min", "self-play"), ("train_min", "training"), ("total_min", "total"))


def pareto_front(points: list[tuple[float, float]]) -> list[int]:
    """Indices of the points (time, Elo) that no other point beats on both (less or equal time
    and higher Elo), sorted by time."""
    order = sorted(range(len(points)), key=lambda i: (points[i][0], -points[i][1]))
    front, best = [], -np.inf
    for i in order:
        if points[i][1] > best:
            front.append(i)
            best = points[i][1]
    return front


class GridExperiment(Experiment):
    """Seed 001's Figs. 4-6 (see the module docstring)."""

    name = "grid"
    title = "the 3^4 grid of I, E, m, ep: final round robin Elo against time, Pareto front"
    seed_paper = "seed 001, Section 5.2, Table 2, Figs. 4-6"
    costs = {  # noqa: RUF012
        "short": "4 tiny runs and a 5-player round robin, about 1 minute (CI)",
        "cpu": "81 runs with I and E divided by 5, m by 3 (64 channels), and a 3,321-pair round "
        "robin of 2 games: about 3 hours with --workers 2",
        "full": "81 runs of Table 2 with the 512-channel network and 10 games a pair (33,210 "
        "games): months of CPU",
    }

    def runs(self, scale: str, seed: int = 0) -> list[RunSpec]:
        grid = GRIDS[scale]
        specs = []
        for values in itertools.product(*grid.values()):
            changes = dict(zip(grid, values, strict=True))
            config = base_settings(scale, seed, gating="none", **changes)
            config.update(changes)  # the grid's values as given (already scaled)
            name = "-".join(f"{SHORT_NAMES[k]}{v}" for k, v in changes.items())
            specs.append(RunSpec(name, SELFPLAY, {"config": config}, cost=_cost(changes)))
        return specs

    def report(self, out: Path, runs: list[RunSpec], scale: str, seed: int = 0) -> dict[str, Any]:
        config = runs[0].kwargs["config"]
        state = make(config["game"], size=config["size"])
        games_per_pair = {"full": 10, "cpu": 2, "short": 2}[scale]
        simulations = max(spec.kwargs["config"]["simulations"] for spec in runs)
        tournament = round_robin(
            out / "tournament",
            {spec.name: run_folder(out, spec) for spec in runs},
            state,
            games_per_pair,
            simulations,
            seed=seed,
            title="final players of the grid",
        )
        points: list[dict[str, Any]] = []
        for spec in runs:
            times = _times(read_run(run_folder(out, spec)))
            elo = tournament["ratings"][spec.name]["elo"]
            changes = {k: spec.kwargs["config"][k] for k in GRIDS[scale]}
            points.append({"run": spec.name, **changes, "elo": elo, **times})
        rows = []
        for key, label in TIMES:
            front = pareto_front([(p[key], p["elo"]) for p in points])
            rows.append([label, ", ".join(points[i]["run"] for i in front)])
        _plot_heatmaps(out / "grid-elo.png", points, GRIDS[scale])
        _plot_time(out / "grid-time.png", points)
        effects = _effects(points, GRIDS[scale])
        best = max(points, key=lambda p: p["elo"])
        ratings = tournament["ratings"]
        estimates = [elo_estimate(spec.name, [ratings[spec.name]]) for spec in runs]
        ahead = leader(estimates)
        verdict = comparison(estimates, "Final Elo of the grid's players (one run each)")
        sections = [
            _introduction(scale),
            f"Final round robin: {len(runs)} players and the random player, {games_per_pair} games "
            f"a pair ({tournament['distinct_games']} distinct of {tournament['games']}), "
            f"{simulations} simulations a move, Bayesian Elo relative to random.",
            "## Elo of the final players (Fig. 4)\n\n![grid Elo](grid-elo.png)",
            "## Elo against time (Figs. 5-6)\n\n![grid time](grid-time.png)\n\n"
            + markdown_table(["time axis", "Pareto front (fastest first)"], rows),
            "## Effect of each hyper-parameter\n\n"
            + markdown_table(
                ["parameter", *[f"value {k + 1}" for k in range(3)], "Elo gain min->max"],
                [
                    [k, *v["mean_elo"], *[""] * (3 - len(v["mean_elo"])), v["gain"]]
                    for k, v in effects.items()
                ],
            )
            + f"\n\n{verdict}\n\nSeed 001's main result is "
            "that I matters more than m and ep; here the Elo gain from the lowest to the highest "
            f"value is {effects['iterations']['gain']:.0f} for I, "
            f"{effects['simulations']['gain']:.0f} for m and "
            f"{effects['epochs']['gain']:.0f} for ep (differences of one run each, "
            f"{games_per_pair} games a pair: compare them with the intervals above).",
        ]
        write_readme(out, "Seed 001: the grid of I, E, m and ep", sections)
        return {
            "points": points,
            "effects": effects,
            "tournament": tournament,
            "best": best["run"] if ahead is not None else "undecided",
            "highest_elo": best["run"],
            "verdict": verdict,
        }


def _cost(changes: dict[str, int]) -> float:
    return float(
        changes["iterations"] * changes["episodes"] * (changes["simulations"] + changes["epochs"])
    )


def _times(records: list[dict[str, Any]]) -> dict[str, float]:
    iterations = [r for r in records if r.get("kind") == "iteration"]
    selfplay = sum(float(r.get("time_selfplay", 0.0)) for r in iterations) / 60
    train = sum(float(r.get("time_train", 0.0)) for r in iterations) / 60
    return {"selfplay_min": selfplay, "train_min": train, "total_min": selfplay + train}


def _effects(points: list[dict[str, Any]], grid: dict[str, tuple[int, ...]]) -> dict[str, Any]:
    """For each parameter, the mean Elo over the runs at each of its values."""
    effects = {}
    for key, values in grid.items():
        means = [float(np.mean([p["elo"] for p in points if p[key] == v])) for v in values]
        effects[key] = {"values": list(values), "mean_elo": means, "gain": means[-1] - means[0]}
    return effects


def _plot_heatmaps(
    path: Path, points: list[dict[str, Any]], grid: dict[str, tuple[int, ...]]
) -> None:
    rows, cols = len(grid["iterations"]), len(grid["episodes"])
    fig = figure(cols, width=4.5 * cols, height=4.0 * rows)
    axes = fig.subplots(rows, cols, squeeze=False)
    low, high = min(p["elo"] for p in points), max(p["elo"] for p in points)
    elo = {tuple(p[key] for key in SHORT_NAMES): p["elo"] for p in points}
    for r, i in enumerate(grid["iterations"]):
        for c, e in enumerate(grid["episodes"]):
            ax = axes[r][c]
            cells = np.array(
                [[elo[i, e, m, ep] for ep in grid["epochs"]] for m in grid["simulations"]]
            )
            image = ax.imshow(cells, vmin=low, vmax=high, cmap="viridis", origin="lower")
            ax.set_xticks(range(len(grid["epochs"])), [str(v) for v in grid["epochs"]])
            ax.set_yticks(range(len(grid["simulations"])), [str(v) for v in grid["simulations"]])
            ax.set_xlabel("ep")
            ax.set_ylabel("m")
            ax.set_title(f"I = {i}, E = {e}")
            for (y, x), value in np.ndenumerate(cells):
                ax.text(x, y, f"{value:.0f}", ha="center", va="center", color="white", fontsize=8)
    fig.colorbar(image, ax=axes, label="Bayesian Elo (random = 0)")
    save_figure(fig, path, 110)


def _plot_time(path: Path, points: list[dict[str, Any]]) -> None:
    fig = figure(3, width=18.0, height=4.5)
    axes = fig.subplots(1, 3)
    for ax, (key, label) in zip(axes, TIMES, strict=True):
        xs = [p[key] for p in points]
        ys = [p["elo"] for p in points]
        ax.scatter(xs, ys, c=[p["iterations"] for p in points], cmap="viridis")
        front = pareto_front(list(zip(xs, ys, strict=True)))
        ax.plot(
            [xs[i] for i in front], [ys[i] for i in front], color="tab:blue", label="Pareto front"
        )
        ax.set_xlabel(f"{label} time (minutes)")
        ax.set_ylabel("Bayesian Elo")
        ax.grid(alpha=0.3)
        ax.legend()
    save_figure(fig, path, 110)


def _introduction(scale: str) -> str:
    what = {
        "short": "the CI-sized version (a 2x1x1x2 grid of tiny runs): every stage, numbers "
        "without meaning",
        "cpu": "Othello 6x6 on a 2-core CPU: I 5/10/15, E 2/4/6, m 8/17/25 (Table 2's values "
        "divided by 5, 5 and 3), ep 5/10/15, alpha-zero-general's network with 64 channels",
        "full": "Table 2 exactly, alpha-zero-general's 512-channel network",
    }[scale]
    return (
        f"Scale: **{scale}**, {what}. Every run is the AlphaZero loop (the arena stage is off, as "
        "in the paper's Section 5.2), with Table 1's other defaults and no root noise."
    )
