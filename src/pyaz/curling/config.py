"""The settings of a curling training run (``pyaz-selfplay --game curling``), with seed 002's
values where they differ from the CPU-sized defaults."""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

from pyaz import curling

WIN_TABLES = ("none", "seed002", "own")
EVAL_OPPONENTS = ("rule-based", "kr-uct", "none")
NOISES = {"gat": curling.Noise.GAT, "dc3": curling.Noise.DC3, "none": curling.Noise.NONE}

UPPER_BOUNDS = {"channels": 1024, "blocks": 64, "torch_threads": 256, "workers": 1024}
"""The largest value of the settings with a bound below 2**31 - 1 (a network larger than the
seed's, more threads or processes than any machine runs usefully)."""

RESUMABLE = ("iterations", "workers", "games_in_flight", "torch_threads", "eval_every")
"""The settings that a resumed run may change (the rest stay as the run's config.json has them):
its length, how this machine plays it (the results do not depend on the workers or the games in
flight), and how often the same evaluation is played."""


@dataclass
class CurlingConfig:
    """Every setting of a curling run; the seed's values are given where they differ."""

    game: str = "curling"
    iterations: int = 20
    games: int = 8  # self-play games per iteration
    ends: int = 2  # ends per game (seed: 8-end games; its comparisons use 2-end games)
    extra_ends: int = 0  # extra ends to break a tie (0: a tie stands, as in seed 002's table)
    simulations: int = 64  # KR-DL-UCT simulations per shot (seed: 400)
    c_ucb: float = 0.1  # C of Algorithm 1 (seed)
    initial_actions: int = 20  # k actions drawn from the policy at a new node (seed)
    tau: float = 0.33  # policy temperature after the first 3 shots (seed)
    tau_opening: float = 1.0  # policy temperature for the first 3 shots of an end (seed)
    win_table: str = "own"  # leaves: none (KR-DRL, expected score), seed002, own (KR-DRL-MES)
    window: int = 20_000  # newest shots trained on (seed: 1,000,000)
    steps: int = 0  # SGD minibatches per iteration; 0: sample_reuse * new shots / batch_size
    sample_reuse: float = 4.0  # training samples drawn per new self-play shot (with steps = 0)
    batch_size: int = 64
    lr: float = 0.01  # seed: 0.01, "gradually reduced"
    momentum: float = 0.9
    l2: float = 1e-4  # c in eq. 13 (seed: 0.0001)
    channels: int = 16  # seed: 32
    blocks: int = 2  # seed: 9
    supervised_games: int = 32  # rule-based games for the supervised start (seed: 4 M shots)
    supervised_steps: int = 500
    noise: str = "gat"  # execution noise: gat (seed), dc3, none
    physics: str = "fcv1"  # fcv1 (DigitalCurling3) or gat (the seed's simulator)
    eval_every: int = 1
    eval_games: int = 8
    eval_opponent: str = "rule-based"  # rule-based, kr-uct (house-score leaves), none
    eval_simulations: int = 0  # 0: the same as --simulations
    workers: int = 0  # processes playing the games of an iteration (0: one per core)
    # self-play games a worker plays at once, their leaves batched into one network call per
    # round (0: all of its share; 1: one game at a time, one network call per leaf)
    games_in_flight: int = 0
    leaves_per_round: int = 1  # leaves per search per round (>1: virtual visits, see KrUctParams)
    torch_threads: int = 1
    seed: int = 0

    def check(self) -> None:
        """TypeError/ValueError naming the setting when a value has the wrong type or range."""
        types: dict[str, type | tuple[type, ...]] = {"int": int, "float": (int, float), "str": str}
        for item in fields(self):
            value, most = getattr(self, item.name), UPPER_BOUNDS.get(item.name, 2**31 - 1)
            if isinstance(value, bool) or not isinstance(value, types[str(item.type)]):
                raise TypeError(f"{item.name} must be {item.type}, got {value!r}")
            if isinstance(value, float) and not math.isfinite(value):
                raise ValueError(f"{item.name} must be a finite number, got {value}")
            if isinstance(value, int) and value > most:
                raise ValueError(f"{item.name} must be <= {most}, got {value}")
        positive = ("iterations", "games", "ends", "simulations", "window", "batch_size")
        for name in positive:
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be >= 1, got {getattr(self, name)}")
        non_negative = ("extra_ends", "steps", "supervised_games", "supervised_steps")
        for name in (*non_negative, "eval_games", "blocks"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be >= 0, got {getattr(self, name)}")
        if self.games_in_flight < 0:
            raise ValueError(f"games_in_flight must be >= 0, got {self.games_in_flight}")
        if self.leaves_per_round < 1:
            raise ValueError(f"leaves_per_round must be >= 1, got {self.leaves_per_round}")
        if self.workers < 0:
            raise ValueError(f"workers must be >= 0, got {self.workers}")
        if self.sample_reuse <= 0:
            raise ValueError(f"sample_reuse must be > 0, got {self.sample_reuse}")
        if self.channels < 1:
            raise ValueError(f"channels must be >= 1, got {self.channels}")
        if self.torch_threads < 1:
            raise ValueError(f"torch_threads must be >= 1, got {self.torch_threads}")
        if self.win_table not in WIN_TABLES:
            raise ValueError(f"win_table must be one of {WIN_TABLES}, got {self.win_table!r}")
        if self.eval_opponent not in EVAL_OPPONENTS:
            raise ValueError(
                f"eval_opponent must be one of {EVAL_OPPONENTS}, got {self.eval_opponent!r}"
            )
        if self.noise not in NOISES:
            raise ValueError(f"noise must be one of {tuple(NOISES)}, got {self.noise!r}")
        if self.physics not in ("fcv1", "gat"):
            raise ValueError(f"physics must be fcv1 or gat, got {self.physics!r}")
        if self.tau <= 0 or self.tau_opening <= 0:
            raise ValueError("tau and tau_opening must be > 0")
        if self.ends > 10:
            raise ValueError("ends must be <= 10 (the win table's range)")
