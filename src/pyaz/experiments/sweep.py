"""``pyaz-experiment sweep``: seed 001's one-at-a-time sweep of its 12 hyper-parameters (Section
5.1, Fig. 3, Tables 3-4) on Othello 6x6.

One run with Table 1's defaults, and for each hyper-parameter one run at its minimum and one at
its maximum with the others at their defaults (25 runs). The report overlays each parameter's
training-loss curves (l+ per iteration, Fig. 3), gives the time of each run split into the
three stages of eq. 2 (self-play, training, arena) as Table 3, and computes Table 4's summary
from the runs: the value that gave the lowest final loss and the one that gave the shortest
run. The paper ran each setting once on a GPU (2 to 3 days a run); the ``cpu`` scale divides
I, E, m, rs and n as :mod:`pyaz.experiments.seed001` says and uses 64 channels.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from pyaz.common.plots import figure, save_figure
from pyaz.experiments.base import SELFPLAY, Experiment, RunSpec, run_folder
from pyaz.experiments.report import markdown_table, read_run, write_readme
from pyaz.experiments.seed001 import SYMBOLS, TABLE1, base_settings, scaled

__all__ = ["PAPER_TABLE4", "SweepExperiment"]

# Seed 001's Table 4: parameter -> (best for the loss, best for the time cost), as positions in
# Table 1 (the paper's values: I 100 / 50, E 10 / 10, T' 10 / similar, m 200 / 25, c 0.5 /
# similar, rs 1 / 1, ep 15 / 5, bs 96 / 96, lr 0.001 / similar, d 0.3 / similar, n
# insignificant / 20, u insignificant / similar), so that scaled runs compare.
PAPER_TABLE4: dict[str, tuple[str, str]] = {
    "iterations": ("default", "min"),
    "episodes": ("min", "min"),
    "sampling_plies": ("min", "similar"),
    "simulations": ("max", "min"),
    "c_puct": ("min", "similar"),
    "retrain_iterations": ("min", "min"),
    "epochs": ("max", "min"),
    "batch_size": ("max", "max"),
    "lr": ("min", "similar"),
    "dropout": ("default", "similar"),
    "arena_games": ("insignificant", "min"),
    "update_threshold": ("insignificant", "similar"),
}
POSITIONS = ("min", "default", "max")

SHORT_PARAMETERS = ("c_puct", "update_threshold")
STAGES = (("time_selfplay", "self-play"), ("time_train", "training"), ("time_arena", "arena"))
INSIGNIFICANT = 0.05  # loss differences below 5% of the default's count as insignificant
SIMILAR = 0.10  # time differences below 10% of the default's count as similar


class SweepExperiment(Experiment):
    """Seed 001's Fig. 3 and Tables 3-4 (see the module docstring)."""

    name = "sweep"
    title = "one-at-a-time sweep of the 12 hyper-parameters (loss, time per stage, importance)"
    seed_paper = "seed 001, Section 5.1, Fig. 3, Tables 3-4"
    costs = {  # noqa: RUF012
        "short": "2 parameters x 2 values + the default, about 1 minute (CI)",
        "cpu": "25 runs with I, E, m, rs, n divided (64 channels): 48 minutes with --workers 2 "
        "on 2 loaded cores (measured)",
        "full": "25 runs of Table 1 with the 512-channel network (the paper: 2-3 GPU days each)",
    }

    def parameters(self, scale: str) -> list[str]:
        return list(SHORT_PARAMETERS) if scale == "short" else list(TABLE1)

    def runs(self, scale: str, seed: int = 0) -> list[RunSpec]:
        specs = [RunSpec("default", SELFPLAY, {"config": base_settings(scale, seed)}, "default")]
        for name in self.parameters(scale):
            low, _, high = TABLE1[name]
            for value in (low, high):
                config = base_settings(scale, seed, **{name: value})
                label = f"{name}={scaled(name, value, scale)}"
                specs.append(RunSpec(label, SELFPLAY, {"config": config}, group=name))
        return specs

    def report(self, out: Path, runs: list[RunSpec], scale: str, seed: int = 0) -> dict[str, Any]:
        results = {spec.name: _run_result(out, spec) for spec in runs}
        default = results["default"]
        rows3, rows4, table4 = [], [], {}
        names = self.parameters(scale)
        fig = figure(4, width=18.0, height=4.0 * ((len(names) + 3) // 4))
        axes = fig.subplots((len(names) + 3) // 4, 4, squeeze=False).ravel()
        for ax, name in zip(axes, names, strict=False):
            trio = _trio(runs, results, name)
            for label, result in trio:
                ax.plot(result["iterations"], result["loss"], label=label)
            ax.set_title(f"l+ vs {SYMBOLS[name]} ({name})")
            ax.set_xlabel("iteration")
            ax.grid(alpha=0.3)
            ax.legend(fontsize=8)
            rows3.append(_table3_row(name, trio, default))
            loss_best, time_best = _importance(trio, default)
            table4[name] = {"loss": loss_best, "time": time_best, "paper": PAPER_TABLE4[name]}
            values = " / ".join(label.split("=")[-1] for label, _ in trio)
            rows4.append([SYMBOLS[name], values, loss_best, time_best, *PAPER_TABLE4[name]])
        for ax in axes[len(names) :]:
            ax.set_visible(False)
        save_figure(fig, out / "sweep-losses.png", 110)
        agree_loss = sum(t["loss"] == t["paper"][0] for t in table4.values())
        agree_time = sum(t["time"] == t["paper"][1] for t in table4.values())
        sections = [
            _introduction(scale),
            "## Training loss per parameter (Fig. 3)\n\n![losses](sweep-losses.png)",
            "## Time cost per stage (Table 3, eq. 2), minutes\n\n"
            + markdown_table(
                ["parameter", "value", "self-play", "training", "arena", "total", "type"], rows3
            ),
            "## Importance (Table 4), computed from these runs\n\n"
            + markdown_table(
                [
                    "parameter",
                    "min / default / max",
                    "best for loss",
                    "best for time",
                    "paper: loss",
                    "paper: time",
                ],
                rows4,
            )
            + "\n\nThe best value for the loss agrees with the paper's Table 4 for "
            f"{agree_loss} of {len(table4)} parameters, the best value for the time for "
            f"{agree_time}. Loss "
            f"differences under {INSIGNIFICANT:.0%} of the default run's final loss count as "
            f"'insignificant' and time differences under {SIMILAR:.0%} as 'similar'. Each "
            "setting is one run, as in the paper: one run gives no interval, so none of these "
            "entries is decided; single-run noise is in these numbers.",
        ]
        write_readme(out, "Seed 001: the hyper-parameter sweep", sections)
        return {
            "runs_detail": results,
            "table4": table4,
            "agreement_with_paper": {"loss": agree_loss, "time": agree_time, "of": len(table4)},
        }


def _run_result(out: Path, spec: RunSpec) -> dict[str, Any]:
    records = [r for r in read_run(run_folder(out, spec)) if r.get("kind") == "iteration"]
    losses = [r for r in records if "loss" in r]
    loss = [float(r.get("loss_sum", r["loss"])) for r in losses]
    tail = loss[-max(1, len(loss) // 10) :] if loss else [float("nan")]
    minutes = {key: sum(float(r.get(key, 0.0)) for r in records) / 60 for key, _ in STAGES}
    return {
        "iterations": [int(r["iteration"]) for r in losses],
        "loss": loss,
        "final_loss": float(np.mean(tail)),
        "minutes": minutes,
        "total_minutes": sum(minutes.values()),
    }


def _trio(runs: list[RunSpec], results: dict[str, Any], name: str) -> list[tuple[str, Any]]:
    """(label, result) at the minimum, default and maximum of parameter ``name``."""
    low, high = [spec for spec in runs if spec.group == name]
    default_value = runs[0].kwargs["config"][name]
    return [
        (low.name, results[low.name]),
        (f"{name}={default_value}", results["default"]),
        (high.name, results[high.name]),
    ]


def _table3_row(name: str, trio: list[tuple[str, Any]], default: dict[str, Any]) -> list[Any]:
    totals = [result["total_minutes"] for _, result in trio]
    spread = (max(totals) - min(totals)) / max(default["total_minutes"], 1e-9)
    kind = "time-sensitive" if spread > 0.25 else "time-friendly"
    values = " / ".join(label.split("=")[-1] for label, _ in trio)
    stages = [" / ".join(f"{r['minutes'][key]:.1f}" for _, r in trio) for key, _ in STAGES]
    return [SYMBOLS[name], values, *stages, " / ".join(f"{t:.1f}" for t in totals), kind]


def _importance(trio: list[tuple[str, Any]], default: dict[str, Any]) -> tuple[str, str]:
    """Table 4's entries as positions in Table 1 ("min", "default", "max"): the value with the
    lowest final loss and the one with the least time ("insignificant" / "similar" when the
    differences are small)."""

    def best(key: str, share: float, small: str) -> str:
        values = [result[key] for _, result in trio]
        if max(values) - min(values) < share * abs(default[key]):
            return small
        return POSITIONS[int(np.argmin(values))]

    return (
        best("final_loss", INSIGNIFICANT, "insignificant"),
        best("total_minutes", SIMILAR, "similar"),
    )


def _introduction(scale: str) -> str:
    what = {
        "short": "the CI-sized version (two parameters, tiny runs): every stage, numbers "
        "without meaning",
        "cpu": "Othello 6x6 on a 2-core CPU: alpha-zero-general's network with 64 channels (the "
        "paper: 512), I, E, m, rs and n divided by 5, 5, 4, 5 and 5 (so Table 1's defaults become "
        "I 20, E 10, m 25, rs 4, n 8); T', c, ep, bs, lr, d and u at the paper's values",
        "full": "Table 1 exactly, alpha-zero-general's 512-channel network",
    }[scale]
    return (
        f"Scale: **{scale}**, {what}. Every run is the AlphaGo Zero loop with alpha-zero-general's "
        "arena gate (wins / (wins + losses) >= u over n distinct games), no root noise, the loss "
        "l+. Values in the tables are the scaled ones actually run."
    )
