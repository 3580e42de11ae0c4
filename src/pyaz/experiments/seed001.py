"""Seed 001 (Wang et al., "Analysis of Hyper-Parameters for Small Games: Iterations or Epochs in
Self-Play?") in one place: its Table 1 (the 12 hyper-parameters at their minimum, default and
maximum), Table 2 (the grid), and the scaled-down versions this machine can run, shared by the
``sweep``, ``grid`` and ``losses`` experiments.

The paper ran alpha-zero-general (its network: ``net = "azg"``, 512 channels; its arena gate:
``gating = "threshold"``, wins / (wins + losses) >= u; no root noise) with the loss l+ unless
said otherwise. At the ``cpu`` scale the network keeps alpha-zero-general's shape with 64
channels, and the hyper-parameters that set the amount of work (I, E, m, rs, n) are divided as
:data:`CPU_DIVISORS` says; the others keep the paper's values.
"""

from __future__ import annotations

from typing import Any

from pyaz.common.settings import declarations
from pyaz.methods.alphazero.config import TrainConfig
from pyaz.methods.alphazero.preset_files import load_preset

__all__ = [
    "BASE",
    "CPU_DIVISORS",
    "SHORT",
    "TABLE1",
    "TABLE1_PRESET",
    "TABLE2",
    "base_settings",
    "scaled",
]

# Table 1 in TrainConfig's names: parameter -> (minimum, default, maximum).
TABLE1: dict[str, tuple[Any, Any, Any]] = {
    "iterations": (50, 100, 150),  # I
    "episodes": (10, 50, 100),  # E
    "sampling_plies": (10, 15, 20),  # T'
    "simulations": (25, 100, 200),  # m
    "c_puct": (0.5, 1.0, 2.0),  # c
    "retrain_iterations": (1, 20, 40),  # rs
    "epochs": (5, 10, 15),  # ep
    "batch_size": (32, 64, 96),  # bs
    "lr": (0.001, 0.005, 0.01),  # lr
    "dropout": (0.2, 0.3, 0.4),  # d
    "arena_games": (20, 40, 100),  # n
    "update_threshold": (0.5, 0.6, 0.7),  # u
}

SYMBOLS = {name: declarations(TrainConfig)[name][1].symbol for name in TABLE1}
"""Table 1's symbol of each of its settings, as TrainConfig declares it."""

# Table 2 (the correlation grid; stage 3 off): parameter -> (minimum, middle, maximum).
TABLE2: dict[str, tuple[int, int, int]] = {
    "iterations": (25, 50, 75),
    "episodes": (10, 20, 30),
    "simulations": (25, 50, 75),
    "epochs": (5, 10, 15),
}

TABLE1_PRESET = "othello6-seed001"
"""The shipped preset of Table 1's defaults on the paper's game and board (6x6 Othello), whose
game and board :data:`BASE` plays."""
_GAME = {key: load_preset(TABLE1_PRESET)[key] for key in ("game", "size")}

BASE: dict[str, Any] = {
    **_GAME,
    "net": "azg",
    "threat_planes": "off",  # alpha-zero-general's network reads the board alone
    "opening_spread": 0,  # and its self-play games open from the start
    "lr_schedule": "constant",  # at a constant rate
    "search_rule": "puct",  # with PUCT (its gobang boards: not Gomoku's auto Gumbel)
    "solver": False,
    "value_target_q": 0.0,  # and its value targets are the game results (z)
    "sparring": "none",  # of its self-play games alone
    "gating": "threshold",
    "dirichlet_epsilon": 0.0,  # alpha-zero-general adds no root noise
    "eval_opponent": "none",
    "threads": 1,
    "torch_threads": 1,
}

# The cpu scale divides the parameters that set the amount of work (and the network's width).
CPU_DIVISORS: dict[str, int] = {
    "iterations": 5,
    "episodes": 5,
    "simulations": 4,
    "retrain_iterations": 5,
    "arena_games": 5,
}
CPU_FILTERS = 64

SHORT: dict[str, Any] = {
    "iterations": 2,
    "episodes": 2,
    "simulations": 6,
    "epochs": 1,
    "arena_games": 4,
    "filters": 8,
    "parallel_games": 2,
    "length_probe_games": 10,
}


def scaled(name: str, value: Any, scale: str) -> Any:
    """A hyper-parameter's value at ``scale``: the paper's (full and short; the short scale then
    shrinks the amount of work in :func:`base_settings`), or divided for cpu (at least 1)."""
    if scale == "cpu" and name in CPU_DIVISORS:
        return max(1, round(value / CPU_DIVISORS[name]))
    return value


def base_settings(scale: str, seed: int, **changes: Any) -> dict[str, Any]:
    """Table 1's defaults and the paper's setup at ``scale``, with ``changes`` (Table 1 names,
    scaled like the defaults)."""
    settings = dict(BASE)
    for name, (_, default, _) in TABLE1.items():
        settings[name] = scaled(name, changes.get(name, default), scale)
    if scale == "cpu":
        settings["filters"] = CPU_FILTERS
    if scale == "short":
        settings.update(SHORT)
    settings.update({k: v for k, v in changes.items() if k not in TABLE1})
    settings["seed"] = seed
    return settings
