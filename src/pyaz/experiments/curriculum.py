"""``pyaz-experiment curriculum``: seed 000's end-game-first curriculum against its baseline.

Seed 000 (West et al., "Improved Reinforcement Learning with Curriculum") trains two players
side by side on one machine: the baseline AlphaZero player and the same player with the
end-game-first curriculum zeta(t) (eq. 5 for Racing Kings, eq. 6 for Reversi), and plots each
one's win ratio against a fixed reference opponent (UCT with 200 simulations for Reversi,
"Stockfish level 2" for its modified Racing Kings) against wall time, training steps and
epochs, as the 20-point moving average of 3 runs (Figs. 4-6). Fig. 6 repeats Fig. 4 with the
AlphaGo Zero loop and its Wilson gate.

Here each repetition is one side-by-side run (:func:`~pyaz.experiments.runs.train_side_by_side`:
one iteration of each player in turn, each counting its own time), both players starting from
the same initial network and evaluated against the same distinct openings. The report gives,
per setting and player, the mean curve over the repetitions with its min-max band, the win
ratio at each evaluation, and the area under the win-ratio-against-time curve (over the whole
common time span and over its first half, the "early stages" the paper's claim is about), with
the verdict per repetition.

Scales: ``full`` is the paper's settings (the shipped presets reversi8-* and
racingkings-mod-*: 10x512 networks, 200 simulations; a GPU and weeks); ``cpu`` is Reversi 6x6
with the tiny network on this 2-core machine (hours), the paper's curriculum and loop otherwise,
scaled where noted; ``short`` runs every stage (both games, both loops) in CI-sized minutes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from pyaz.common.plots import figure, save_figure
from pyaz.experiments.base import SIDE_BY_SIDE, Experiment, RunSpec, run_folder
from pyaz.experiments.report import (
    Curve,
    Estimate,
    area_under,
    comparison,
    eval_curve,
    leader,
    markdown_table,
    mean_and_band,
    read_run,
    score_estimate,
    write_readme,
)
from pyaz.methods.alphazero.preset_files import load_preset

__all__ = ["CurriculumExperiment"]

PLAYERS = ("baseline", "curriculum")
AXES = (
    ("elapsed_s", "wall time (minutes)", 60.0),
    ("train_steps", "training steps", 1.0),
    ("epochs", "epochs", 1.0),
)

# The shipped presets of each game's players (player -> preset name), and what the short scale
# changes in them: a smaller Reversi board; an opponent for Racing Kings that needs no Stockfish.
REVERSI_PRESETS = {"baseline": "reversi8-baseline", "curriculum": "reversi8-curriculum"}
RACING_KINGS_PRESETS = {
    "baseline": "racingkings-mod-baseline",
    "curriculum": "racingkings-mod-curriculum",
}
_REVERSI_SHORT: dict[str, Any] = {"size": 4}
_RACING_KINGS_SHORT: dict[str, Any] = {"eval_opponent": "lichess:1"}

# setting name -> (figure of seed 000, game label, its players' presets, loop, short changes)
SETTINGS: dict[str, tuple[str, str, dict[str, str], str, dict[str, Any]]] = {
    "reversi-az": ("Fig. 5", "Reversi", REVERSI_PRESETS, "none", _REVERSI_SHORT),
    "racingkings-az": (
        "Fig. 4", "modified Racing Kings", RACING_KINGS_PRESETS, "none", _RACING_KINGS_SHORT
    ),
    "racingkings-agz": (
        "Fig. 6", "modified Racing Kings", RACING_KINGS_PRESETS, "wilson", _RACING_KINGS_SHORT
    ),
}  # fmt: skip


# What the cpu scale changes from the paper's Reversi preset, and why: a 2-core machine.
CPU_REVERSI: dict[str, Any] = {
    "size": 6,  # the paper plays 8x8
    "net": "tiny",  # 2 blocks of 32 filters; the paper's 10 x 512 needs a GPU
    "simulations": 100,  # the paper: 200
    "batch_size": 64,  # the paper: 350
    "min_buffer_games": 200,  # the paper: 2000 (scaled with the iteration size)
    "episodes": 20,  # 10% of the minimum buffer, as the paper's 200 of 2000
    "sampling_plies": 8,  # the paper's 16 of a 60-ply 8x8 game, scaled to 6x6's 32 plies
    "iterations": 40,
    "eval_every": 2,
    "eval_games": 30,  # "a minimum of 30 games" per win-ratio measurement
    "threads": 1,
    "torch_threads": 1,
}

SHORT: dict[str, Any] = {
    "iterations": 2,
    "episodes": 4,
    "min_buffer_games": 4,
    "min_buffer_schedule": [],
    "simulations": 8,
    "epochs": 2,
    "batch_size": 32,
    "net": "tiny",
    "filters": 8,
    "blocks": 1,
    "eval_every": 1,
    "eval_games": 4,
    "parallel_games": 4,
    "wilson_max_games": 10,
    "length_probe_games": 20,
}


class CurriculumExperiment(Experiment):
    """Seed 000's Figs. 4-6 (see the module docstring)."""

    name = "curriculum"
    title = "end-game-first curriculum vs baseline (win ratio against time, steps, epochs)"
    seed_paper = "seed 000, Figs. 4-6"
    costs = {  # noqa: RUF012
        "short": "about 3 minutes on 2 cores (CI)",
        "cpu": "Reversi 6x6, 3 runs of both players (40 iterations each): 44 minutes with "
        "--workers 2 on the idle 2-core machine (measured 2026-11-27; the third run, alone, 21)",
        "full": "the paper's 10x512 networks, 3 settings x 3 runs of both players: weeks "
        "without a GPU (the paper trained each for about 100 hours on GPUs)",
    }

    def settings(self, scale: str) -> list[str]:
        """The settings (games and loops) run at ``scale``."""
        return ["reversi-az"] if scale == "cpu" else list(SETTINGS)

    repeated = True

    def scale_repetitions(self, scale: str) -> int:
        return 1 if scale == "short" else 3

    def config(self, setting: str, player: str, scale: str, seed: int) -> dict[str, Any]:
        """The training settings of one player of one setting."""
        _, _, presets, gating, short = SETTINGS[setting]
        values = dict(load_preset(presets["curriculum" if player == "curriculum" else "baseline"]))
        values["gating"] = gating
        if scale == "cpu":
            values.update(CPU_REVERSI)
        elif scale == "short":
            values.update(SHORT)
            values.update(short)
        values["seed"] = seed
        return values

    def runs(self, scale: str, seed: int = 0) -> list[RunSpec]:
        specs = []
        for setting in self.settings(scale):
            for rep in range(self.repetitions(scale)):
                rep_seed = seed * 100 + rep
                configs = {p: self.config(setting, p, scale, rep_seed) for p in PLAYERS}
                name = f"{setting}-run{rep + 1}"
                specs.append(RunSpec(name, SIDE_BY_SIDE, {"configs": configs}, group=setting))
        return specs

    def report(self, out: Path, runs: list[RunSpec], scale: str, seed: int = 0) -> dict[str, Any]:
        summary: dict[str, Any] = {"settings": {}}
        sections = [_introduction(scale)]
        for setting in self.settings(scale):
            specs = [r for r in runs if r.group == setting]
            result, section = _report_setting(out, setting, specs)
            summary["settings"][setting] = result
            sections.append(section)
        sections.append(_verdict(summary))
        summary["verdict"] = sections[-1]
        write_readme(out, "Seed 000: end-game-first curriculum against the baseline", sections)
        return summary


def _curves(out: Path, spec: RunSpec, player: str) -> dict[str, Curve]:
    records = read_run(run_folder(out, spec) / player)
    return {axis: eval_curve(records, x=axis) for axis, _, _ in AXES}


def _report_setting(out: Path, setting: str, specs: list[RunSpec]) -> tuple[dict[str, Any], str]:
    figure_name, game, _, gating, _ = SETTINGS[setting]
    curves = {p: [_curves(out, spec, p) for spec in specs] for p in PLAYERS}
    points = min((len(c["elapsed_s"].x) for p in PLAYERS for c in curves[p]), default=0)
    # seed 000's 20-point moving average when a run has the points for it, else a fifth
    window = 20 if points >= 60 else max(1, points // 5)
    fig = figure(3, width=18.0, height=4.5)
    axes = fig.subplots(1, 3)
    result: dict[str, Any] = {"figure": f"{setting}.png", "moving_average": window, "players": {}}
    common_end = min(
        (float(c["elapsed_s"].x[-1]) for p in PLAYERS for c in curves[p] if c["elapsed_s"].x.size),
        default=0.0,
    )
    for player, colour in zip(PLAYERS, ("tab:blue", "tab:red"), strict=True):
        for ax, (axis, _, scale) in zip(axes, AXES, strict=True):
            smoothed = [
                Curve(c[axis].x / scale, c[axis].smoothed(window).y) for c in curves[player]
            ]
            grid, mean, low, high = mean_and_band(smoothed)
            if grid.size:
                ax.plot(grid, mean, color=colour, label=player)
                ax.fill_between(grid, low, high, color=colour, alpha=0.2)
        time_curves = [c["elapsed_s"] for c in curves[player]]
        # Mean win ratio from time 0 to the end of the shorter run (before its first evaluation a
        # curve is taken to stand at its first value: both players start from one network).
        areas = [area_under(c, start=0.0, until=common_end) for c in time_curves]
        early = [area_under(c, start=0.0, until=common_end / 2) for c in time_curves]
        grid, mean, _, _ = mean_and_band(time_curves, points=max(2, points))
        result["players"][player] = {
            "win_ratio_at": [
                [round(float(t), 1), round(float(w), 4)] for t, w in zip(grid, mean, strict=True)
            ],
            "auc_time": areas,
            "auc_time_mean": float(np.nanmean(areas)) if areas else float("nan"),
            "auc_early": early,
            "auc_early_mean": float(np.nanmean(early)) if early else float("nan"),
            "final_win_ratio": [float(c.y[-1]) if c.y.size else float("nan") for c in time_curves],
        }
    for ax, (_, label, _) in zip(axes, AXES, strict=True):
        ax.set_xlabel(label)
        ax.set_ylabel("win ratio against the reference")
        ax.set_ylim(-0.02, 1.02)
        ax.grid(alpha=0.3)
        ax.legend()
    loop = "AlphaGo Zero loop, Wilson gate" if gating == "wilson" else "AlphaZero loop"
    fig.suptitle(
        f"{game}, {loop}: {len(specs)} runs, {window}-point moving average (seed 000 {figure_name})"
    )
    save_figure(fig, out / f"{setting}.png", 120)
    players = result["players"]
    pairs = zip(players["curriculum"]["auc_early"], players["baseline"]["auc_early"], strict=True)
    wins = sum(c > b for c, b in pairs)
    result["curriculum_ahead_early"] = f"{wins} of {len(specs)}"
    for player in PLAYERS:
        early_score = _early_score(out, specs, player, common_end / 2)
        players[player]["early_score"] = [early_score.value, early_score.lower, early_score.upper]
        players[player]["early_games"] = early_score.games
        result.setdefault("early", []).append(early_score)
    rows = [
        [player, p["auc_early_mean"], p["auc_time_mean"], float(np.nanmean(p["final_win_ratio"]))]
        for player, p in players.items()
    ]
    section = (
        f"## {game}, {loop} ({figure_name})\n\n![{setting}]({setting}.png)\n\n"
        + markdown_table(
            [
                "player",
                "mean win ratio, first half of the time",
                "mean win ratio, whole time",
                "final win ratio",
            ],
            rows,
        )
        + f"\n\nThe curriculum player's early mean win ratio is above the baseline's in "
        f"{result['curriculum_ahead_early']} runs (common time span {common_end / 60:.0f} minutes)."
    )
    return result, section


def _introduction(scale: str) -> str:
    what = {
        "short": "the CI-sized version: every stage, numbers without meaning",
        "cpu": "Reversi 6x6 with the tiny network on a 2-core CPU (the paper plays 8x8 with 10 "
        "residual blocks of 512 filters on GPUs); the curriculum (eq. 6), the AlphaZero loop, "
        "c = 3, draws -0.5, drop-draw 0.1, experience replacement 0.1 and 20 epochs per iteration "
        "as the paper; 100 simulations (paper 200), a 200-game minimum buffer (2,000) and 20 games "
        "per iteration (200)",
        "full": "the paper's settings (the shipped presets)",
    }[scale]
    return (
        f"Scale: **{scale}**, {what}. Both players of a run train side by side, one iteration "
        "each in turn, from the same initial network; each counts its own time. Win ratios are "
        "measured against the reference opponent from distinct random openings, each played "
        "with both colours, the same openings at every evaluation (draws count half)."
    )


def _early_score(out: Path, specs: list[RunSpec], player: str, until: float) -> Estimate:
    """``player``'s score in the evaluation games of the first half of the time (``elapsed_s``
    up to ``until``) over every run, with its Wilson interval."""
    points, games = 0.0, 0
    for spec in specs:
        for record in read_run(run_folder(out, spec) / player):
            if record.get("kind") == "eval" and float(record.get("elapsed_s", 0.0)) <= until:
                points += record.get("eval_wins", 0) + record.get("eval_draws", 0) / 2
                games += int(record.get("eval_games", 0))
    return score_estimate(player, points, games, runs=len(specs))


def _verdict(summary: dict[str, Any]) -> str:
    lines = ["## Verdict\n"]
    for setting, result in summary["settings"].items():
        early: list[Estimate] = result.pop("early")
        ahead = leader(early)
        held = "undecided" if ahead is None else "held" if ahead.name == "curriculum" else "failed"
        result["claim"] = held
        said = {
            "held": "held here",
            "failed": "did not hold here (the baseline is ahead)",
            "undecided": "is undecided here",
        }[held]
        lines.append(
            f"- {setting}: "
            + comparison(early, "score in the evaluation games of the first half of the time")
            + f" Seed 000's claim that the curriculum player learns faster early {said}."
        )
    return "\n".join(lines)
