"""``pyaz-experiment curling``: seed 002's KR-DL-UCT pipeline and its comparison with DL-UCT.

One training run of seed 002's pipeline (``pyaz-selfplay --game curling``: a supervised start
from the rule-based player's games, then KR-DL-UCT self-play with the multi-end win table built
from the run's own ends, KR-DRL-MES), then the report:

- the learning curve: the run's win ratio against the rule-based player per iteration;
- seed 002's Figure 3: KR-DL-UCT and DL-UCT, each with the network of a later iteration,
  against DL-UCT with the supervised network only, against the number of self-play shots (the
  paper: KR-DL-UCT ahead from the start, the gap growing to 16.05 points by 5,000,000 shots);
- the searches alone: KR-UCT against DL-UCT with a uniform prior and house-score leaves.

Every match alternates the first-end hammer with GAT execution noise; a tied game counts half;
each match says how many distinct games it held (execution noise makes every game differ).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pyaz.common.plots import figure, save_figure
from pyaz.eval.arena import play_match
from pyaz.eval.players import ShotPlayer
from pyaz.experiments.base import Experiment, RunSpec, run_folder
from pyaz.experiments.report import cached, markdown_table, read_run, write_readme
from pyaz.games import curling
from pyaz.methods.kr_dl_uct.config import CurlingConfig
from pyaz.methods.kr_dl_uct.players import (
    dl_player,
    kr_player,
    match_summary,
    run_network,
    run_table,
)

__all__ = ["CurlingExperiment"]

CONFIGS: dict[str, dict[str, Any]] = {
    "short": {
        "iterations": 1,
        "games": 2,
        "ends": 1,
        "simulations": 8,
        "channels": 4,
        "blocks": 1,
        "supervised_games": 2,
        "supervised_steps": 10,
        "eval_games": 2,
        "window": 2000,
        "workers": 1,
    },
    "cpu": {"iterations": 20, "supervised_games": 64, "workers": 2, "eval_games": 16},
    "full": {
        "iterations": 1000,
        "games": 100,
        "ends": 8,
        "simulations": 400,
        "channels": 32,
        "blocks": 9,
        "window": 1_000_000,
        "supervised_games": 20_000,
        "supervised_steps": 200_000,
        "eval_games": 200,
    },
}
# games per match, and how many checkpoints the Figure 3 curve has, at each scale
MATCH_GAMES = {"short": 2, "cpu": 40, "full": 2000}
CHECKPOINTS = {"short": 2, "cpu": 3, "full": 10}


class CurlingExperiment(Experiment):
    """Seed 002's Figure 3 and learning curve (see the module docstring)."""

    name = "curling"
    title = "KR-DL-UCT self-play training; KR-DL-UCT vs DL-UCT (Figure 3); KR-UCT vs DL-UCT"
    seed_paper = "seed 002, Section 7, Figure 3"
    costs = {  # noqa: RUF012
        "short": "a 1-iteration run and 2-game matches, about 2 minutes (CI)",
        "cpu": "a 20-iteration run (64 simulations, a 2x16 network, 2-end games) and 6 matches "
        "of 40 games: about 1.5 hours on 2 cores",
        "full": "the seed's 400 simulations, 9x32 network, 8-end games, 5 million shots and "
        "2,000-game matches: the paper used 5 GPUs for a week",
    }

    def runs(self, scale: str, seed: int = 0) -> list[RunSpec]:
        config = {**CONFIGS[scale], "seed": seed}
        return [RunSpec("kr-drl-mes", "pyaz.experiments.runs:train_curling", {"config": config})]

    def report(self, out: Path, runs: list[RunSpec], scale: str, seed: int = 0) -> dict[str, Any]:
        run = run_folder(out, runs[0])
        records = read_run(run)
        curve = _learning_curve(records)
        games = MATCH_GAMES[scale]
        figure3 = _figure3(out, run, scale, games, seed)
        uniform = cached(out / "uniform-search.json", lambda: _uniform_match(run, games, seed))
        _plot(out / "curling.png", curve, figure3)
        rows, gap = [], []
        for p in figure3:
            kr, dl = p["kr_vs_dl0"], p["dl_vs_dl0"]
            rows.append([p["shots"], kr["win_ratio"], dl["win_ratio"], kr["eval_distinct_games"]])
            gap.append(kr["win_ratio"] - dl["win_ratio"])
        sections = [
            f"Scale: **{scale}**. One training run of seed 002's pipeline (KR-DRL-MES: the "
            "run's own win table at the leaves), settings in `runs/kr-drl-mes/config.json`. "
            f"Matches of {games} games, the first-end hammer alternating, GAT execution noise, "
            "ties half.",
            "## Learning curve and Figure 3\n\n![curling](curling.png)",
            "## Figure 3: against DL-UCT with the supervised network\n\n"
            + markdown_table(
                ["self-play shots", "KR-DL-UCT win %", "DL-UCT win %", "distinct games"], rows
            )
            + f"\n\nKR-DL-UCT minus DL-UCT: {', '.join(f'{100 * g:+.1f}' for g in gap)} points "
            "(seed 002: positive from the start, +16.05 at 5,000,000 shots).",
            "## The searches alone\n\nKR-UCT against DL-UCT, both with a uniform prior and "
            f"house-score leaves: KR-UCT scores {uniform['win_ratio']:.3f} (95% Wilson "
            f"[{uniform['wilson_low']:.3f}, {uniform['wilson_high']:.3f}], "
            f"{uniform['eval_distinct_games']} distinct of {uniform['eval_games']} games).",
        ]
        write_readme(out, "Seed 002: KR-DL-UCT for digital curling", sections)
        return {
            "learning_curve": curve,
            "figure3": figure3,
            "kr_minus_dl": gap,
            "uniform_search": uniform,
        }


def _learning_curve(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    shots = {0: 0}
    total = 0
    for r in records:
        if r.get("kind") == "iteration":
            total += int(r.get("shots", 0))
            shots[int(r["iteration"])] = total
    return [
        {
            "iteration": int(r["iteration"]),
            "shots": shots.get(int(r["iteration"]), 0),
            "win_ratio": float(r["win_ratio"]),
        }
        for r in records
        if r.get("kind") == "eval" and "win_ratio" in r
    ]


def _figure3(out: Path, run: Path, scale: str, games: int, seed: int) -> list[dict[str, Any]]:
    """KR-DL-UCT and DL-UCT with the network of iteration K against DL-UCT with iteration 0's."""
    last = max(int(p.stem.split("-")[1]) for p in (run / "nets").glob("iter-*.pt"))
    count = CHECKPOINTS[scale]
    iterations = sorted({round(k * last / max(1, count - 1)) for k in range(count)})
    base_net, config = run_network(run, 0)
    table = run_table(run, config)
    simulations = config.simulations
    shots = {c["iteration"]: c["shots"] for c in _learning_curve(read_run(run))}
    reference = ShotPlayer(dl_player(simulations, base_net, table), "dl-uct0")
    points = []
    for k in iterations:

        def play(k: int = k) -> dict[str, Any]:
            net, _ = run_network(run, k)
            kr = ShotPlayer(kr_player(simulations, net, table, config), "kr-dl-uct")
            dl = ShotPlayer(dl_player(simulations, net, table), "dl-uct")
            return {
                "iteration": k,
                "kr_vs_dl0": _match(kr, reference, games, config, seed * 1000 + 1),
                "dl_vs_dl0": _match(dl, reference, games, config, seed * 1000 + 1),
            }

        point = cached(out / f"figure3-iter{k:05d}.json", play)
        point["shots"] = shots.get(k, 0)
        points.append(point)
    return points


def _uniform_match(run: Path, games: int, seed: int) -> dict[str, Any]:
    _, config = run_network(run, 0)
    kr = ShotPlayer(kr_player(config.simulations), "kr-uct")
    dl = ShotPlayer(dl_player(config.simulations), "dl-uct")
    return _match(kr, dl, games, config, seed * 1000 + 2)


def _match(
    a: ShotPlayer, b: ShotPlayer, games: int, config: CurlingConfig, seed: int
) -> dict[str, Any]:
    """``a`` against ``b`` through :func:`pyaz.eval.arena.play_match` (the first-end hammer
    alternating, game i with the noise seed ``seed + i``), in the run's game settings."""
    start = curling.make_state(config.ends, config.noise, config.physics, config.extra_ends)
    return match_summary(play_match(a, b, games, start, seed=seed))


def _plot(path: Path, curve: list[dict[str, Any]], figure3: list[dict[str, Any]]) -> None:
    fig = figure(2, width=14.0, height=4.5)
    left, right = fig.subplots(1, 2)
    left.plot([c["iteration"] for c in curve], [c["win_ratio"] for c in curve], marker="o")
    left.set_xlabel("iteration (0: after the supervised start)")
    left.set_ylabel("win ratio against the rule-based player")
    left.set_ylim(-0.02, 1.02)
    left.grid(alpha=0.3)
    xs = [p["shots"] for p in figure3]
    for key, label in (("kr_vs_dl0", "KR-DL-UCT"), ("dl_vs_dl0", "DL-UCT")):
        right.plot(xs, [100 * p[key]["win_ratio"] for p in figure3], marker="o", label=label)
    right.set_xlabel("self-play shots trained on")
    right.set_ylabel("win % against DL-UCT (supervised network)")
    right.grid(alpha=0.3)
    right.legend()
    right.set_title("seed 002 Figure 3")
    save_figure(fig, path, 110)
