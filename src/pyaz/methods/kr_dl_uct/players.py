"""Seed 002's players and the worker tasks of its loop: KR-DL-UCT with a network (Algorithm 1),
DL-UCT over the grid (Figure 3's rival), the reference opponents, the ``rule``, ``kr:N`` and
``kr-dl:PATH[:SIMS]`` presets (``model:PATH`` of a curling network plays ``kr-dl``), and the
self-play and evaluation games that worker processes run from a snapshot of the network.

Matches go through :mod:`pyaz.eval.arena` with a :class:`~pyaz.games.curling.CurlingState`:
the first-end hammer alternates, game i has the seed ``seed + i``, a tie counts half.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch

from pyaz.eval.arena import MatchResult, play_game
from pyaz.eval.players import ShotPlayer
from pyaz.eval.presets import PresetSpec
from pyaz.games import curling
from pyaz.methods.kr_dl_uct.config import NOISES, CurlingConfig
from pyaz.methods.kr_dl_uct.dl_uct import dl_uct_player
from pyaz.methods.kr_dl_uct.net import (
    _GRID_TARGETS,
    CurlingNet,
    kr_dl_batch_evaluator,
    kr_dl_evaluator,
)
from pyaz.methods.kr_dl_uct.selfplay import PlayedGame, play_self_play_game, play_self_play_games

DEFAULT_SIMULATIONS = 64

_UNIFORM = np.full(curling.NUM_ACTIONS, 1.0 / curling.NUM_ACTIONS)


def search_params(config: CurlingConfig, simulations: int) -> curling.KrUctParams:
    """Algorithm 1's settings for a run (finished ends go to the evaluator with a win table)."""
    params = curling.KrUctParams()
    params.simulations = simulations
    params.c_ucb = config.c_ucb
    params.initial_actions = config.initial_actions
    params.evaluate_finished_ends = config.win_table != "none"
    params.leaves_per_round = config.leaves_per_round
    return params


def network_player(
    net: CurlingNet, config: CurlingConfig, table: np.ndarray | None, simulations: int
) -> curling.ShotChooser:
    """KR-DL-UCT with ``net`` (and, when given, the multi-end ``table`` at the leaves)."""
    evaluator = kr_dl_evaluator(net, tau_fgz=config.tau_opening, tau=config.tau, win_table=table)
    params = search_params(config, simulations)

    def play(state: curling.Game, seed: int) -> curling.Target:
        params.seed = seed
        return curling.kr_uct_search(state, params, evaluator).best

    return play


def reference_player(
    name: str, simulations: int, noise: curling.NoiseParams | None = None
) -> curling.ShotChooser:
    """The evaluation opponents: the rule-based player (sampling its shots under ``noise``, GAT
    by default) or KR-UCT with house-score leaves."""
    if name == "rule-based":
        return curling.rule_based_player(noise or curling.NoiseParams(curling.Noise.GAT))
    if name == "kr-uct":
        return curling.kr_uct_player(simulations)
    raise ValueError(f"unknown opponent {name!r}: rule-based or kr-uct")


def uniform_evaluator(table: np.ndarray | None = None) -> curling.LeafEvaluatorFn:
    """A uniform prior over the grid targets; leaves valued by the house score as if the end
    finished now, or (with ``table``) by team 0's win rate through the multi-end table."""

    def evaluate(state: curling.Game) -> tuple[float, np.ndarray, np.ndarray]:
        if table is None:
            return float(curling.house_value_team0(state)), _GRID_TARGETS, _UNIFORM
        bins = curling.house_score_distribution(state)
        return curling.state_win_rate(state, bins, table) - 0.5, _GRID_TARGETS, _UNIFORM

    return evaluate


def kr_player(
    simulations: int,
    net: CurlingNet | None = None,
    table: np.ndarray | None = None,
    config: CurlingConfig | None = None,
) -> curling.ShotChooser:
    """KR-DL-UCT (KR-UCT with a uniform prior when ``net`` is None)."""
    if net is not None and config is not None:
        return network_player(net, config, table, simulations)
    evaluator = uniform_evaluator(table) if net is None else kr_dl_evaluator(net, win_table=table)
    return curling.kr_uct_player(simulations, evaluator, evaluate_finished_ends=table is not None)


def dl_player(
    simulations: int, net: CurlingNet | None = None, table: np.ndarray | None = None
) -> curling.ShotChooser:
    """DL-UCT over the grid, with the network's policy as its prior (uniform without one)."""
    if net is None:
        evaluator = uniform_evaluator(table)
    else:
        evaluator = kr_dl_evaluator(net, tau_fgz=1.0, tau=1.0, win_table=table)
    return dl_uct_player(simulations, evaluator, evaluate_finished_ends=table is not None)


def match_summary(result: MatchResult) -> dict[str, Any]:
    """A match's record as the curling loop and experiment keep it: ``win_ratio`` (a tie
    counts half), wins, draws, losses, the continuity-corrected Wilson 95% interval, games and
    distinct games."""
    low, high = result.wilson_interval()
    return {
        "win_ratio": result.score if result.n else 0.0,
        "wins": result.a_wins,
        "draws": result.draws,
        "losses": result.b_wins,
        "wilson_low": low,
        "wilson_high": high,
        "eval_games": result.n,
        "eval_distinct_games": result.distinct_games,
    }


# ---- presets: rule, kr:N, kr-dl:PATH[:SIMS] ----------------------------------------------------


def build_rule_player(spec: PresetSpec) -> ShotPlayer:
    """``rule``: the rule-based player, sampling its shots under GAT noise."""
    spec.need("curling")
    if spec.rest:
        raise ValueError(f"{spec.text!r}: 'rule' takes no argument")
    return ShotPlayer(reference_player("rule-based", 1), spec.text)


def build_kr_player(spec: PresetSpec) -> ShotPlayer:
    """``kr[:SIMS]``: KR-UCT with house-score leaves (SIMS simulations a shot, default 64)."""
    spec.need("curling")
    (simulations,) = spec.ints([DEFAULT_SIMULATIONS], ["SIMULATIONS"])
    spec.check_range("the number of simulations", simulations, 1, 10**7)
    return ShotPlayer(curling.kr_uct_player(simulations), spec.text)


def build_network_player(spec: PresetSpec) -> ShotPlayer:
    """``kr-dl:PATH[:SIMS]``: KR-DL-UCT with a curling network (a file or a run folder's
    ``checkpoint.pt``) and its run's settings (config.json beside it, else the defaults) and
    win table."""
    from pyaz.methods.kr_dl_uct.loop import curling_network, read_config
    from pyaz.nets.loading import load_model, model_path

    spec.need("curling")
    path, simulations = spec.path_and_simulations(DEFAULT_SIMULATIONS)
    file = model_path(path)
    net = curling_network(load_model(file, "curling"))
    run = file.parent.parent if file.parent.name == "nets" else file.parent
    config = read_config(run) if (run / "config.json").is_file() else CurlingConfig()
    return ShotPlayer(kr_player(simulations, net, run_table(run, config), config), spec.text)


def run_table(run: Path, config: CurlingConfig) -> np.ndarray | None:
    """The win table a run's players use at the leaves (its own, as of its end, or seed 002's)."""
    if config.win_table == "own":
        own = run / "win_table.npy"
        return np.asarray(np.load(own)) if own.exists() else None
    return curling.seed002_table() if config.win_table == "seed002" else None


def run_network(run: Path, iteration: int) -> tuple[CurlingNet, CurlingConfig]:
    """The network a curling training run saved at ``iteration`` (0: after its supervised
    start), and the run's settings."""
    from pyaz.methods.kr_dl_uct.loop import curling_network, read_config
    from pyaz.nets.loading import load_model

    config = read_config(run)
    loaded = load_model(run / "nets" / f"iter-{iteration:05d}.pt", "curling")
    return curling_network(loaded), config


# ---- worker tasks ------------------------------------------------------------------------------


@dataclass
class NetSnapshot:
    """What a worker process needs to rebuild the network: its shape and weights."""

    channels: int
    blocks: int
    state: dict[str, torch.Tensor]

    @staticmethod
    def of(net: CurlingNet, config: CurlingConfig) -> NetSnapshot:
        return NetSnapshot(config.channels, config.blocks, net.state_dict())

    def build(self) -> CurlingNet:
        net = CurlingNet(self.channels, self.blocks)
        net.load_state_dict(self.state)
        net.eval()
        return net


Progress = Callable[[int], object] | None
"""Told of the shots thrown (``progress(n)``): a progress bar's update, or a queue's put."""


def self_play_games(
    config: CurlingConfig,
    snapshot: NetSnapshot,
    table: np.ndarray | None,
    seeds: list[int],
    progress: Progress = None,
) -> list[PlayedGame]:
    """Self-play games with the given seeds (a worker's share of an iteration): with
    ``config.games_in_flight`` != 1, many games at a time with their leaves batched into one
    network call per round; with 1, one game at a time and one network call per leaf."""
    c = config
    torch.set_num_threads(max(1, c.torch_threads))
    net = snapshot.build()
    params = search_params(c, c.simulations)
    noise = curling.NoiseParams(NOISES[c.noise])
    if c.games_in_flight == 1 and c.leaves_per_round == 1:
        leaf = kr_dl_evaluator(net, tau_fgz=c.tau_opening, tau=c.tau, win_table=table)
        return [
            play_self_play_game(
                leaf, params, c.ends, noise, seed, c.physics, c.extra_ends, progress
            )
            for seed in seeds
        ]
    batch = kr_dl_batch_evaluator(net, tau_fgz=c.tau_opening, tau=c.tau, win_table=table)
    rules = (c.physics, c.extra_ends, c.games_in_flight)
    return play_self_play_games(batch, params, c.ends, noise, seeds, *rules, progress=progress)


def evaluation_games(
    config: CurlingConfig,
    snapshot: NetSnapshot,
    table: np.ndarray | None,
    opponent: str,
    simulations: int,
    seed: int,
    games: list[int],
    progress: Progress = None,
) -> list[tuple[int, Any]]:
    """The given games of an evaluation match (game i: the network's side throws first in the
    first end of even games, noise seed ``seed + i``), as (game, arena record) pairs."""
    torch.set_num_threads(max(1, config.torch_threads))
    mine = network_player(snapshot.build(), config, table, simulations)
    noise = curling.NoiseParams(NOISES[config.noise])
    theirs = reference_player(opponent, simulations, noise)

    def told(chooser: curling.ShotChooser) -> curling.ShotChooser:
        def choose(state: curling.Game, seed: int) -> curling.Target:
            target = chooser(state, seed)
            if progress is not None:
                progress(1)
            return target

        return choose

    me, rival = ShotPlayer(told(mine), "kr-dl"), ShotPlayer(told(theirs), opponent)
    start = curling.make_state(config.ends, config.noise, config.physics, config.extra_ends)
    pairs = ((me, rival), (rival, me))
    return [(g, play_game(*pairs[g % 2], start.with_seed(seed + g))) for g in games]
