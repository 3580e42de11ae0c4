"""``pyaz-experiment losses``: seed 001's four training targets (Section 6, Figs. 7-11).

For each game (Othello, Connect Four and Gobang, at 5x5 and 6x6) and each target — lp (policy
cross-entropy), lv (value squared error), l+ = lp + lv, lx = lp x lv — several runs (8 in the
paper) of the AlphaGo Zero loop with Table 1's defaults (200 iterations on the 5x5 boards). Every
loss term is logged whatever the target (Figs. 7-9), every run rates its iterations with Bayesian
Elo against the random player (Fig. 10), and the final networks of all runs of a game plus the
random player meet in a round robin rated with Bayesian Elo (Fig. 11).

The paper's findings this checks: when only one target is minimised the others lag, l+ and lx
bring both lp and lv down (Figs. 7-9); in the final round robin lv's players rate highest on 6x6
Othello and on both Connect Fours, the targets differ little on 5x5 Othello, and lp is best on
6x6 Gobang (Fig. 11).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from pyaz._core import ConnectFour, Gomoku, Othello
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
from pyaz.experiments.seed001 import base_settings
from pyaz.games import make

__all__ = ["LossesExperiment"]

TARGETS = {"policy": "lp", "value": "lv", "plus": "l+", "product": "lx"}
TERMS = {"loss_policy": "lp", "loss_value": "lv", "loss_sum": "l+", "loss_product": "lx"}
HEADER = ["target", "Elo mean", "95% interval", "runs", *(f"final {t}" for t in TERMS.values())]

_OTHELLO, _CONNECT_FOUR, _GOMOKU = (str(game().name) for game in (Othello, ConnectFour, Gomoku))

# game label -> (make() name, options)
GAMES: dict[str, tuple[str, dict[str, Any]]] = {
    "othello5": (_OTHELLO, {"size": 5}),
    "othello6": (_OTHELLO, {"size": 6}),
    "connect4-5x5": (_CONNECT_FOUR, {"width": 5, "height": 5}),
    "connect4-6x6": (_CONNECT_FOUR, {"width": 6, "height": 6}),
    "gobang5": (_GOMOKU, {"size": 5, "line_length": 4}),
    "gobang6": (_GOMOKU, {"size": 6, "line_length": 4}),
}

# The paper's Fig. 11 statements: game -> the target whose players rate highest (or "similar").
PAPER_FIG11 = {
    "othello5": "similar",
    "othello6": "value",
    "connect4-5x5": "value",
    "connect4-6x6": "value",
    "gobang6": "policy",
}


class LossesExperiment(Experiment):
    """Seed 001's Figs. 7-11 (see the module docstring)."""

    name = "losses"
    title = "the four training targets lp, lv, l+, lx: losses, training Elo, final round robin"
    seed_paper = "seed 001, Section 6, Figs. 7-11"
    costs = {  # noqa: RUF012
        "short": "one 5x5 game, one run per target, about 2 minutes (CI)",
        "cpu": "the three 5x5 games x 4 targets x 3 runs, I 40, E 10, m 25, 64 channels: "
        "29 minutes with --workers 2 on the idle 2-core machine (measured)",
        "full": "6 games x 4 targets x 8 runs of Table 1 (I 200 on 5x5): months of CPU",
    }

    def games(self, scale: str) -> list[str]:
        return {"short": ["othello5"], "cpu": ["othello5", "connect4-5x5", "gobang5"]}.get(
            scale, list(GAMES)
        )

    repeated = True

    def scale_repetitions(self, scale: str) -> int:
        return {"short": 1, "cpu": 3, "full": 8}[scale]

    def config(self, game: str, target: str, scale: str, seed: int) -> dict[str, Any]:
        name, options = GAMES[game]
        small = game.endswith("5") or game.endswith("5x5")
        # the paper's I (200 on 5x5 boards, Table 1's 100 else), which base_settings scales like
        # every Table 1 value (cpu: I / 5, so 40 and 20; short: SHORT's)
        iterations = 200 if small else 100
        settings = base_settings(scale, seed, iterations=iterations, loss=target)
        settings.pop("size", None)
        settings.update(game=name, **options)
        settings["elo_games"] = {"full": 10, "cpu": 4, "short": 2}[scale]
        settings["elo_every"] = {"full": 10, "cpu": 4, "short": 1}[scale]
        return settings

    def runs(self, scale: str, seed: int = 0) -> list[RunSpec]:
        specs = []
        for game in self.games(scale):
            for target in TARGETS:
                for rep in range(self.repetitions(scale)):
                    config = self.config(game, target, scale, seed * 100 + rep)
                    name = f"{game}-{target}-run{rep + 1}"
                    specs.append(RunSpec(name, SELFPLAY, {"config": config}, f"{game}:{target}"))
        return specs

    def report(self, out: Path, runs: list[RunSpec], scale: str, seed: int = 0) -> dict[str, Any]:
        summary: dict[str, Any] = {"games": {}}
        sections = [_introduction(scale, self.repetitions(scale))]
        for game in self.games(scale):
            game_runs = [spec for spec in runs if spec.group.startswith(f"{game}:")]
            result, section = self._report_game(out, game, game_runs, scale, seed)
            summary["games"][game] = result
            sections.append(section)
        write_readme(out, "Seed 001: alternative loss functions", sections)
        return summary

    def _report_game(
        self, out: Path, game: str, runs: list[RunSpec], scale: str, seed: int
    ) -> tuple[dict[str, Any], str]:
        records = {spec.name: read_run(run_folder(out, spec)) for spec in runs}
        _plot_losses(out / f"{game}-losses.png", game, runs, records)
        _plot_training_elo(out / f"{game}-training-elo.png", game, runs, records)
        name, options = GAMES[game]
        games_per_pair = {"full": 20, "cpu": 4, "short": 2}[scale]
        simulations = runs[0].kwargs["config"]["simulations"]
        tournament = round_robin(
            out / f"{game}-tournament",
            {spec.name: run_folder(out, spec) for spec in runs},
            make(name, **options),
            games_per_pair,
            simulations,
            seed=seed,
            title=f"{game}: final players of every target",
        )
        rows = []
        finals: dict[str, Any] = {}
        estimates = []
        for target in TARGETS:
            names = _names(runs, target)
            rated = [tournament["ratings"][name] for name in names]
            final = {t: float(np.mean([_last(records[n], t) for n in names])) for t in TERMS}
            estimate = elo_estimate(TARGETS[target], rated)
            estimates.append(estimate)
            finals[target] = {
                "tournament_elo": [float(r["elo"]) for r in rated],
                "elo_interval": [estimate.lower, estimate.upper],
                "final_losses": final,
            }
            rows.append(
                [TARGETS[target], estimate.value, f"{estimate.lower:.0f} to {estimate.upper:.0f}",
                 len(rated), *final.values()]
            )  # fmt: skip
        verdict = comparison(estimates, "Final Elo by target")
        ahead = leader(estimates)
        best = next((t for t in TARGETS if ahead and TARGETS[t] == ahead.name), "undecided")
        paper = PAPER_FIG11.get(game)
        finding = paper if paper == "similar" else f"{TARGETS.get(paper or '', '')} best"
        claim = (
            f"The paper's Fig. 11 finds {finding} here."
            if paper
            else "The paper states no finding for this board in the text."
        )
        section = (
            f"## {game}\n\n![losses]({game}-losses.png)\n\n![training Elo]({game}-training-elo.png)"
            f"\n\nFinal round robin (Fig. 11): {len(runs)} final players and the random player, "
            f"{games_per_pair} games a pair ({tournament['distinct_games']} distinct of "
            f"{tournament['games']}), {simulations} simulations a move; Elo relative to random, "
            "each target's mean over its runs with a 95% interval.\n\n"
            + markdown_table(HEADER, rows)
            + f"\n\nVerdict: {verdict} {claim}"
        )
        result = {
            "targets": finals,
            "best_target": best,
            "verdict": verdict,
            "paper": paper,
            "tournament": tournament,
        }
        return result, section


def _names(runs: list[RunSpec], target: str) -> list[str]:
    """The names of the runs that minimise ``target``."""
    return [spec.name for spec in runs if spec.group.endswith(f":{target}")]


def _last(records: list[dict[str, Any]], key: str) -> float:
    values = [float(r[key]) for r in records if r.get("kind") == "iteration" and key in r]
    return values[-1] if values else float("nan")


def _plot_losses(
    path: Path, game: str, runs: list[RunSpec], records: dict[str, list[dict[str, Any]]]
) -> None:
    """Figs. 7-9: one panel per target, every measured loss averaged over the runs."""
    fig = figure(4, width=20.0, height=4.5)
    axes = fig.subplots(1, 4)
    for ax, (target, symbol) in zip(axes, TARGETS.items(), strict=True):
        names = _names(runs, target)
        for term, label in TERMS.items():
            series = [
                [float(r[term]) for r in records[n] if r.get("kind") == "iteration" and term in r]
                for n in names
            ]
            length = min((len(s) for s in series), default=0)
            if length:
                mean = np.mean([s[:length] for s in series], axis=0)
                ax.plot(np.arange(1, length + 1), mean, label=label)
        ax.set_title(f"{game}: minimise {symbol}")
        ax.set_xlabel("training iteration")
        ax.grid(alpha=0.3)
        ax.legend()
    save_figure(fig, path, 110)


def _plot_training_elo(
    path: Path, game: str, runs: list[RunSpec], records: dict[str, list[dict[str, Any]]]
) -> None:
    """Fig. 10: each target's training Elo per iteration, mean and standard deviation."""
    fig = figure(1, width=8.0, height=4.5)
    ax = fig.subplots()
    for target, symbol in TARGETS.items():
        names = _names(runs, target)
        curves = [
            {int(r["iteration"]): float(r["elo"]) for r in records[n] if r.get("kind") == "elo"}
            for n in names
        ]
        iterations = sorted(set.intersection(*(set(c) for c in curves))) if curves else []
        if not iterations:
            continue
        values = np.array([[c[i] for i in iterations] for c in curves])
        ax.errorbar(
            iterations, values.mean(axis=0), yerr=values.std(axis=0), label=symbol, capsize=2
        )
    ax.set_title(f"{game}: Elo of each iteration against random (training Elo)")
    ax.set_xlabel("iteration")
    ax.set_ylabel("Bayesian Elo")
    ax.grid(alpha=0.3)
    ax.legend()
    save_figure(fig, path, 110)


def _introduction(scale: str, repetitions: int) -> str:
    what = {
        "short": "the CI-sized version (one 5x5 game, tiny runs): every stage, numbers without "
        "meaning",
        "cpu": "the three 5x5 games on a 2-core CPU, I 40 (the paper: 200), E 10, m 25, rs 4, "
        "n 8, alpha-zero-general's network with 64 channels",
        "full": "the paper's six boards",
    }[scale]
    return (
        f"Scale: **{scale}**, {what}; {repetitions} run(s) per target (the paper: 8). "
        "Each run is the AlphaGo Zero loop with alpha-zero-general's gate; every loss term is "
        "logged whatever the target; each run rates its iterations by Bayesian Elo against the "
        "random player (a chain of games between neighbouring iterations), and the final "
        "players meet in a round robin."
    )
