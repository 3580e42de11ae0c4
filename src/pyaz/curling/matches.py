"""Playing curling games for training and evaluation: KR-DL-UCT with a network, the reference
opponents, matches scored with a Wilson interval, and the tasks that worker processes run
(self-play and evaluation games, from a snapshot of the network)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch
from tqdm import tqdm

from pyaz import curling
from pyaz.curling.config import NOISES, CurlingConfig
from pyaz.curling.net import CurlingNet, kr_dl_batch_evaluator, kr_dl_evaluator
from pyaz.curling.selfplay import PlayedGame, play_self_play_game, play_self_play_games
from pyaz.eval.stats import wilson_interval


@dataclass(frozen=True)
class MatchSettings:
    """How the games of a match are played."""

    ends: int = 2
    noise: str = "gat"
    physics: str = "fcv1"
    extra_ends: int = 0


@dataclass(frozen=True)
class Outcome:
    """One match game from the player's side ("win", "draw" or "loss") and a fingerprint of its
    executed shots, so that a match can say how many distinct games it held."""

    result: str
    fingerprint: str


def game_outcome(
    player: curling.Player,
    opponent: curling.Player,
    game: int,
    settings: MatchSettings,
    seed: int,
) -> Outcome:
    """Game ``game`` of a match: ``player`` throws first in the first end of even games (team 1
    holds the first hammer), so the hammer alternates; the seed is ``seed + game``."""
    mine = game % 2
    players = (player, opponent) if mine == 0 else (opponent, player)
    record = curling.play_game(
        players,
        settings.ends,
        curling.NoiseParams(NOISES[settings.noise]),
        seed=seed + game,
        physics=settings.physics,
        extra_ends=settings.extra_ends,
    )
    total = record.total
    won, tied = total[mine] > total[1 - mine], total[0] == total[1]
    return Outcome("win" if won else "draw" if tied else "loss", _fingerprint(record))


def _fingerprint(record: curling.GameRecord) -> str:
    shots = [(s[2], round(s[4].vx, 6), round(s[4].vy, 6), s[4].spin) for s in record.shots]
    return hashlib.sha1(repr(shots).encode()).hexdigest()


def summarise(outcomes: list[Outcome]) -> dict[str, Any]:
    """Score (a tie counts half), the continuity-corrected Wilson 95% interval, and how many
    distinct games the match held."""
    games = len(outcomes)
    results = [o.result for o in outcomes]
    wins, draws = results.count("win"), results.count("draw")
    score = wins + 0.5 * draws
    low, high = wilson_interval(score, games)
    return {
        "win_ratio": score / games if games else 0.0,
        "wins": wins,
        "draws": draws,
        "losses": games - wins - draws,
        "wilson_low": low,
        "wilson_high": high,
        "eval_games": games,
        "eval_distinct_games": len({o.fingerprint for o in outcomes}),
    }


def play_match(
    player: curling.Player,
    opponent: curling.Player,
    games: int,
    settings: MatchSettings,
    seed: int = 0,
    progress: bool = False,
) -> dict[str, Any]:
    """``player`` against ``opponent`` for ``games`` games (see :func:`game_outcome`)."""
    bar = tqdm(range(games), desc="evaluation", unit="game", disable=not progress)
    return summarise([game_outcome(player, opponent, g, settings, seed) for g in bar])


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
) -> curling.Player:
    """KR-DL-UCT with ``net`` (and, when given, the multi-end ``table`` at the leaves)."""
    evaluator = kr_dl_evaluator(net, tau_fgz=config.tau_opening, tau=config.tau, win_table=table)
    params = search_params(config, simulations)

    def play(state: curling.GameState, seed: int) -> curling.Target:
        params.seed = seed
        return curling.kr_uct_search(state, params, evaluator).best

    return play


def reference_player(
    name: str, simulations: int, noise: curling.NoiseParams | None = None
) -> curling.Player:
    """The evaluation opponents: the rule-based player (sampling its shots under ``noise``, GAT
    by default) or KR-UCT with house-score leaves."""
    if name == "rule-based":
        return curling.rule_based_player(noise or curling.NoiseParams(curling.Noise.GAT))
    if name == "kr-uct":
        return curling.kr_uct_player(simulations)
    raise ValueError(f"unknown opponent {name!r}: rule-based or kr-uct")


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


def self_play_games(
    config: CurlingConfig, snapshot: NetSnapshot, table: np.ndarray | None, seeds: list[int]
) -> list[PlayedGame]:
    """Self-play games with the given seeds (a worker's share of an iteration): with
    ``config.games_in_flight`` != 1, many games at a time with their leaves batched into one
    network call per round; with 1, one game at a time and one network call per leaf."""
    torch.set_num_threads(max(1, config.torch_threads))
    net = snapshot.build()
    params = search_params(config, config.simulations)
    noise = curling.NoiseParams(NOISES[config.noise])
    tau_fgz, tau = config.tau_opening, config.tau
    if config.games_in_flight == 1 and config.leaves_per_round == 1:
        evaluator = kr_dl_evaluator(net, tau_fgz=tau_fgz, tau=tau, win_table=table)
        return [
            play_self_play_game(
                evaluator, params, config.ends, noise, seed, config.physics, config.extra_ends
            )
            for seed in seeds
        ]
    return play_self_play_games(
        kr_dl_batch_evaluator(net, tau_fgz=tau_fgz, tau=tau, win_table=table),
        params,
        config.ends,
        noise,
        seeds,
        config.physics,
        config.extra_ends,
        config.games_in_flight,
    )


def evaluation_games(
    config: CurlingConfig,
    snapshot: NetSnapshot,
    table: np.ndarray | None,
    opponent: str,
    simulations: int,
    seed: int,
    games: list[int],
) -> list[Outcome]:
    """The outcomes of the given games of an evaluation match."""
    torch.set_num_threads(max(1, config.torch_threads))
    player = network_player(snapshot.build(), config, table, simulations)
    noise = curling.NoiseParams(NOISES[config.noise])
    reference = reference_player(opponent, simulations, noise)
    settings = MatchSettings(config.ends, config.noise, config.physics, config.extra_ends)
    return [game_outcome(player, reference, g, settings, seed) for g in games]
