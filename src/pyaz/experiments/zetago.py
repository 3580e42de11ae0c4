"""``pyaz-experiment zetago``: seed 003 (ZetaGo, Painter & Johnston, "Mastering the game of Go
from scratch").

Runs (:mod:`pyaz.methods.reinforce.runs`): the 5x5 policy network trained by REINFORCE self-play
against its opponent pool (the paper's update, r_i), the same with the value baseline (r_i - v(s),
the fix the paper names), and the 9x9 networks with transfer from the 5x5 one (as many iterations as
it) and without (twice as many). Report: each agent against GNU Go level 1 (``gnugo:1``), the raw
policy (greedy) with each colour, from distinct random openings, its win ratio and average game
length (section 4); the paper's MCTS player with the 5x5 network too; the paper's training curves
against episodes (Fig. 3 max probability at the empty board, Fig. 4 loss, Fig. 5 gradient norm, Fig.
6 game length).
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from pyaz.common.plots import figure, moving_average, save_figure
from pyaz.eval.arena import MatchResult, play_match
from pyaz.eval.players import Player, close_player
from pyaz.eval.presets import make_player
from pyaz.experiments.base import Experiment, RunSpec, run_folder
from pyaz.experiments.report import (
    Estimate,
    cached,
    comparison,
    markdown_table,
    read_run,
    score_estimate,
    write_readme,
)
from pyaz.games import make
from pyaz.methods.reinforce.net import GAME, policy_network
from pyaz.methods.reinforce.players import PolicyMctsPlayer, PolicyNetPlayer
from pyaz.nets.loading import load_model

__all__ = ["ZetaGoExperiment"]

_SMALL_FULL = {"size": 5, "layers": 5, "filters": 32}
_LARGE_FULL = {
    "size": 9,
    "reductions": 32,
    "large_layers": 5,
    "large_filters": 32,
    "final_layers": 3,
    "final_filters": 32,
}
CONFIGS: dict[str, dict[str, Any]] = {
    "short": {
        "small": {"size": 5, "layers": 3, "filters": 8},
        "large": {
            "size": 9,
            "reductions": 2,
            "large_layers": 2,
            "large_filters": 8,
            "final_layers": 2,
            "final_filters": 8,
        },
        "reinforce": {"iterations": 4, "games": 8, "minibatch": 64, "snapshot_every": 16},
        "reinforce_large": {"games": 4, "minibatch": 32, "snapshot_every": 8},
        "threads": 1,
    },
    "cpu": {
        "small": _SMALL_FULL,
        "large": {**_LARGE_FULL, "reductions": 8},
        "reinforce": {"iterations": 600, "games": 32, "minibatch": 256, "updates": 2},
        "reinforce_large": {"games": 16, "minibatch": 128},
        "threads": 1,
    },
    "full": {
        "small": _SMALL_FULL,
        "large": _LARGE_FULL,
        "reinforce": {"iterations": 20_000, "games": 32, "minibatch": 256, "updates": 4},
        "reinforce_large": {"games": 32, "minibatch": 256},
        "threads": 2,
    },
}
EVAL_GAMES = {"short": 2, "cpu": 40, "full": 200}  # per agent against GNU Go, colours alternating
MCTS_SIMULATIONS = {"short": 8, "cpu": 100, "full": 400}
MCTS_GAMES = {"short": 2, "cpu": 20, "full": 100}
OPPONENT = "gnugo:1"


class ZetaGoExperiment(Experiment):
    """Seed 003's 5x5 training, 9x9 transfer against scratch, and GNU Go evaluation."""

    name = "zetago"
    title = "ZetaGo: REINFORCE self-play on 5x5 Go and the 5x5 -> 9x9 transfer, vs GNU Go"
    seed_paper = "seed 003, sections 3-4, Figures 3-6"
    costs = {  # noqa: RUF012
        "short": "tiny networks, 4 iterations of 8 games, 2-game matches: about 1-2 minutes",
        "cpu": "Table 1's networks (N = 8 reductions), 600 iterations of 32 games on 5x5, "
        "600/1200 iterations of 16 games on 9x9 (transfer/scratch), 40-game matches: 44 "
        "minutes on 2 cores shared with another job (--workers 2; measured 2026-11-25)",
        "full": "Table 1's networks, 20,000 iterations: days on 2 cores",
    }

    def runs(self, scale: str, seed: int = 0) -> list[RunSpec]:
        config = CONFIGS[scale]
        # No resign action in training: with it, the measured 5x5 run (Adam, 32 games an
        # iteration) collapsed by iteration 600 into resigning every game (README).
        reinforce = {**config["reinforce"], "seed": seed, "allow_resign": False}
        pipeline = {
            **config,
            "reinforce": reinforce,
            "reinforce_large": {**config["reinforce_large"], "seed": seed, "allow_resign": False},
        }
        baseline = {
            "small": {**config["small"], "value_head": True},
            "reinforce": {**reinforce, "baseline": True},
            "threads": config["threads"],
        }
        return [
            RunSpec(
                "pipeline",
                "pyaz.methods.reinforce.runs:train_pipeline",
                {"config": pipeline},
                cost=3.0,
            ),
            RunSpec(
                "5x5-baseline", "pyaz.methods.reinforce.runs:train_small", {"config": baseline}
            ),
        ]

    def report(self, out: Path, runs: list[RunSpec], scale: str, seed: int = 0) -> dict[str, Any]:
        pipeline = run_folder(out, runs[0])
        folders = {
            "5x5": pipeline / "5x5",
            "5x5-baseline": run_folder(out, runs[1]),
            "9x9-transfer": pipeline / "9x9-transfer",
            "9x9-scratch": pipeline / "9x9-scratch",
        }
        agents = {
            label: cached(
                out / f"eval-{label}.json",
                partial(_versus_gnugo, folder / "net.pt", EVAL_GAMES[scale], seed * 100 + index),
            )
            for index, (label, folder) in enumerate(folders.items())
        }
        net, games = folders["5x5"] / "net.pt", MCTS_GAMES[scale]
        mcts = cached(
            out / "eval-5x5-mcts.json",
            partial(_versus_gnugo, net, games, seed * 100 + 50, MCTS_SIMULATIONS[scale]),
        )
        curves = {label: _curves(read_run(folder)) for label, folder in folders.items()}
        _plot(out / "zetago-curves.png", curves)
        keys = ("win_ratio", "game_length", "as_black", "as_white")
        summary = {
            "5x5_vs_gnugo": {k: agents["5x5"][k] for k in (*keys[2:], *keys[:2])},
            "5x5_baseline_vs_gnugo": agents["5x5-baseline"],
            "5x5_mcts_vs_gnugo": mcts,
            "9x9_transfer": {k: agents["9x9-transfer"][k] for k in keys},
            "9x9_scratch": {k: agents["9x9-scratch"][k] for k in keys},
            "agents": agents,
            "training": {label: _final(curve) for label, curve in curves.items()},
        }
        _write_readme(out, scale, summary, folders)
        return summary


def _versus_gnugo(path: Path, games: int, seed: int, simulations: int = 0) -> dict[str, Any]:
    """The greedy policy (or the MCTS player with ``simulations``) against GNU Go level 1: a
    match of ``games`` games, colours alternating, each pair from its own random opening."""
    net = policy_network(load_model(path, "zetago-policy"))
    start = make(GAME, size=net.size)
    agent: Player = (
        PolicyMctsPlayer(net, simulations, name=f"zetago-mcts:{path.parent.name}", seed=seed)
        if simulations
        else PolicyNetPlayer(net, name=f"zetago:{path.parent.name}", allow_resign=False)
    )
    opponent = make_player(OPPONENT, start, seed=seed)
    try:
        result = play_match(agent, opponent, games, start, seed=seed)
    finally:
        close_player(opponent)
    return _tally(result)


def _tally(result: MatchResult) -> dict[str, Any]:
    # the agent plays Black in the even games, White in the odd ones
    scores = [
        0.5 if r.winner is None else float(r.winner == i % 2) for i, r in enumerate(result.games)
    ]
    colours = {"as_black": scores[0::2], "as_white": scores[1::2]}
    lengths = [len(record.all_actions) for record in result.games]
    low, high = result.wilson_interval()
    return {
        "opponent": OPPONENT,
        "games": result.n,
        "distinct_games": result.distinct_games,
        "win_ratio": result.score,
        "wilson_95": [low, high],
        "game_length": float(np.mean(lengths)) if lengths else 0.0,
        "resignations": sum(1 for r in result.games if r.resigned is not None),
        **{
            key: {"games": len(v), "win_ratio": float(np.mean(v)) if v else 0.0}
            for key, v in colours.items()
        },
    }


_CURVES = ("max_probability", "loss", "grad_norm", "game_length")


def _curves(records: list[dict[str, Any]]) -> dict[str, list[float]]:
    rows = [r for r in records if r.get("kind") == "iteration"]
    return {key: [float(r[key]) for r in rows] for key in ("episodes", *_CURVES, "elapsed_s")}


def _final(curve: dict[str, list[float]]) -> dict[str, float]:
    return {key: values[-1] for key, values in curve.items() if values}


def _plot(path: Path, curves: dict[str, dict[str, list[float]]]) -> None:
    fig = figure(4, width=14.0, height=9.0)
    axes = fig.subplots(2, 2).ravel()
    titles = {
        "max_probability": "Fig. 3: max probability at the empty board",
        "loss": "Fig. 4: REINFORCE loss",
        "grad_norm": "Fig. 5: gradient norm",
        "game_length": "Fig. 6: self-play game length (plies)",
    }
    for ax, key in zip(axes, _CURVES, strict=True):
        for label, curve in curves.items():
            if curve["episodes"]:
                window = max(1, len(curve[key]) // 50)
                ax.plot(curve["episodes"], moving_average(curve[key], window), label=label)
        ax.set_title(titles[key])
        ax.set_xlabel("episodes (games played by the learner)")
        ax.grid(alpha=0.3)
        ax.legend()
    save_figure(fig, path, 100)


def _estimate(label: str, agent: dict[str, Any]) -> Estimate:
    """An agent's score with its 95% Wilson interval."""
    return score_estimate(label, agent["win_ratio"] * agent["games"], agent["games"])


def _row(label: str, agent: dict[str, Any]) -> list[Any]:
    """An agent's row of the table against GNU Go."""
    estimate = _estimate("", agent)
    wilson = f"{estimate.lower:.2f} to {estimate.upper:.2f}"
    colours = [agent[key]["win_ratio"] for key in ("as_black", "as_white")]
    games = f"{agent['distinct_games']}/{agent['games']}"
    return [label, agent["win_ratio"], wilson, *colours, agent["game_length"], games]


def _write_readme(out: Path, scale: str, summary: dict[str, Any], folders: dict[str, Path]) -> None:
    mcts = ("5x5 MCTS", summary["5x5_mcts_vs_gnugo"])
    rows = [_row(label, agent) for label, agent in [*summary["agents"].items(), mcts]]
    agents = summary["agents"]
    estimates = [
        _estimate("transfer", agents["9x9-transfer"]),
        _estimate("scratch", agents["9x9-scratch"]),
    ]
    verdict = comparison(estimates, f"9x9 score against {OPPONENT}, transfer vs scratch")
    train_rows = [
        [
            label,
            t.get("episodes", 0),
            *(t.get(key, 0.0) for key in _CURVES),
            t.get("elapsed_s", 0.0),
        ]
        for label, t in summary["training"].items()
    ]
    sections = [
        f"Scale: **{scale}**. Settings in `runs/pipeline/config.json` and each run's "
        "`config.json`. The agents are the raw policies (most probable legal move, resign "
        f"excluded, as in training) against {OPPONENT}; each pair of games starts from its "
        "own random 2-ply opening, played once with each colour.",
        "## Against GNU Go\n\n"
        + markdown_table(
            [
                "agent",
                "win ratio",
                "95% Wilson",
                "as Black",
                "as White",
                "avg game length",
                "distinct/all games",
            ],
            rows,
        )
        + f"\n\n{verdict} The paper: neither faster convergence nor better play with transfer, "
        "and no 9x9 agent ever beat Pachi.",
        "## Training (last iteration)\n\n"
        + markdown_table(
            [
                "run",
                "episodes",
                "max p (empty board)",
                "loss",
                "grad norm",
                "game length",
                "seconds",
            ],
            train_rows,
        )
        + "\n\n![curves](zetago-curves.png)",
    ]
    write_readme(out, "Seed 003: ZetaGo", sections)
