"""KR-DL-UCT against DL-UCT with equal simulations per shot: seed 002's comparison (Figure 3).

Both searches get the same leaf evaluator, so the difference is the search: KR-DL-UCT (kernel
regression over continuous targets, k initial actions from the prior, progressive widening) and
DL-UCT (PUCT over the 2048 grid actions). The evaluator is either

- uniform: a uniform prior over the grid and the house score as if the end finished now (or,
  with a win table, the game win rate through it), or
- a network (:class:`~pyaz.curling.net.CurlingNet`): KR-DL-UCT samples its k actions from
  p^(1/tau) with the seed's tau, DL-UCT uses p as its prior; leaves are the expected end score,
  or the game win rate through a multi-end table.

:func:`match` plays them with GAT execution noise, the first-end hammer alternating and a tied
game counting half, and scores it with the Wilson interval (:mod:`pyaz.curling.matches`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from pyaz import curling
from pyaz.curling.config import CurlingConfig
from pyaz.curling.dl_uct import dl_uct_player
from pyaz.curling.loop import load_curling_net, read_config
from pyaz.curling.matches import MatchSettings, Outcome, game_outcome, network_player, summarise
from pyaz.curling.net import CurlingNet, kr_dl_evaluator

__all__ = [
    "dl_player",
    "kr_player",
    "match",
    "run_network",
    "run_table",
    "uniform_evaluator",
]

_GRID = np.array(
    [[t.x, t.y, t.spin] for t in map(curling.action_to_target, range(curling.NUM_ACTIONS))]
)
_UNIFORM = np.full(curling.NUM_ACTIONS, 1.0 / curling.NUM_ACTIONS)


def uniform_evaluator(table: np.ndarray | None = None) -> curling.LeafEvaluatorFn:
    """A uniform prior over the grid targets; leaves valued by the house score as if the end
    finished now, or (with ``table``) by team 0's win rate through the multi-end table."""

    def evaluate(state: curling.GameState) -> tuple[float, np.ndarray, np.ndarray]:
        if table is None:
            return float(curling.house_value_team0(state)), _GRID, _UNIFORM
        bins = curling.house_score_distribution(state)
        return curling.state_win_rate(state, bins, table) - 0.5, _GRID, _UNIFORM

    return evaluate


def kr_player(
    simulations: int,
    net: CurlingNet | None = None,
    table: np.ndarray | None = None,
    config: CurlingConfig | None = None,
) -> curling.Player:
    """KR-DL-UCT (KR-UCT with a uniform prior when ``net`` is None)."""
    if net is not None and config is not None:
        return network_player(net, config, table, simulations)
    evaluator = uniform_evaluator(table) if net is None else kr_dl_evaluator(net, win_table=table)
    return curling.kr_uct_player(simulations, evaluator, evaluate_finished_ends=table is not None)


def dl_player(
    simulations: int, net: CurlingNet | None = None, table: np.ndarray | None = None
) -> curling.Player:
    """DL-UCT over the grid, with the network's policy as its prior (uniform without one)."""
    if net is None:
        evaluator = uniform_evaluator(table)
    else:
        evaluator = kr_dl_evaluator(net, tau_fgz=1.0, tau=1.0, win_table=table)
    return dl_uct_player(simulations, evaluator, evaluate_finished_ends=table is not None)


def match(
    player: curling.Player,
    opponent: curling.Player,
    games: int,
    settings: MatchSettings,
    seed: int = 0,
) -> dict[str, Any]:
    """``player`` against ``opponent``: ``games`` games, the first-end hammer alternating (see
    :func:`pyaz.curling.matches.game_outcome`); the summary with the Wilson interval."""
    outcomes: list[Outcome] = [
        game_outcome(player, opponent, game, settings, seed=seed) for game in range(games)
    ]
    return summarise(outcomes)


def run_table(run: Path, config: CurlingConfig) -> np.ndarray | None:
    """The win table a run's players use at the leaves (its own, as of its end, or seed 002's)."""
    if config.win_table == "own":
        return (
            np.asarray(np.load(run / "win_table.npy")) if (run / "win_table.npy").exists() else None
        )
    return curling.seed002_table() if config.win_table == "seed002" else None


def run_network(run: Path, iteration: int) -> tuple[CurlingNet, CurlingConfig]:
    """The network a curling training run saved at ``iteration`` (0: after its supervised
    start), and the run's settings."""
    config = CurlingConfig(**read_config(run))
    return load_curling_net(run / "nets" / f"iter-{iteration:05d}.pt"), config
