"""The settings of a curling training run (``pyaz-selfplay --game curling``), declared once
(:func:`~pyaz.common.settings.setting`), with seed 002's values where they differ from the
CPU-sized defaults."""

from __future__ import annotations

from dataclasses import dataclass

from pyaz.common.settings import check_settings, setting
from pyaz.games import curling

WIN_TABLES = ("none", "seed002", "own")
EVAL_OPPONENTS = ("rule-based", "kr-uct", "none")
NOISES = curling.NOISES

RESUMABLE = ("iterations", "workers", "games_in_flight", "torch_threads", "eval_every")
"""The settings that a resumed run may change (the rest stay as the run's config.json has them):
its length, how this machine plays it (the results do not depend on the workers or the games in
flight), and how often the same evaluation is played."""


@dataclass
class CurlingConfig:
    """Every setting of a curling run; the seed's values are given where they differ."""

    game: str = setting("curling", choices=("curling",), option="--game", help="this mode's game")
    iterations: int = setting(20, low=1, help="self-play iterations")
    games: int = setting(8, low=1, help="self-play games per iteration")
    ends: int = setting(2, low=1, high=10, help="ends per game (seed: 8; its comparisons use 2)")
    extra_ends: int = setting(0, low=0, help="extra ends to break a tie (0: a tie stands)")
    simulations: int = setting(64, low=1, help="KR-DL-UCT simulations per shot (seed: 400)")
    c_ucb: float = setting(0.1, symbol="C", low=0.0, high=1e6, help="Algorithm 1's exploration")
    initial_actions: int = setting(20, symbol="k", low=1, help="actions drawn at a new node")
    tau: float = setting(
        0.33, low=1e-9, high=1e6, help="policy temperature after an end's first 3 shots"
    )
    tau_opening: float = setting(
        1.0, low=1e-9, high=1e6, help="policy temperature of an end's first 3 shots"
    )
    win_table: str = setting(
        "own",
        choices=WIN_TABLES,
        help="leaf values: none = expected end score (KR-DRL); seed002 = win rate through seed "
        "002's Table 1; own = win rate through the table built from this run's ends (KR-DRL-MES)",
    )
    window: int = setting(20_000, low=1, help="newest self-play shots trained on (seed: 1,000,000)")
    steps: int = setting(0, low=0, help="SGD minibatches per iteration (0: from --sample-reuse)")
    sample_reuse: float = setting(4.0, low=1e-9, high=1e6, help="samples per new shot (steps 0)")
    batch_size: int = setting(64, low=1, help="minibatch size")
    lr: float = setting(0.01, low=1e-12, high=10.0, help="SGD learning rate (seed: 0.01)")
    momentum: float = setting(0.9, low=0.0, high=1.0, help="SGD momentum")
    l2: float = setting(1e-4, symbol="c", low=0.0, high=1.0, help="c*||theta||^2 of eq. 13 (seed)")
    channels: int = setting(16, low=1, high=1024, help="network filters (seed: 32)")
    blocks: int = setting(2, low=0, high=64, help="residual blocks (seed: 9)")
    supervised_games: int = setting(32, low=0, help="rule-based games of the supervised start")
    supervised_steps: int = setting(500, low=0, help="SGD minibatches of the supervised start")
    noise: str = setting("gat", choices=tuple(NOISES), help="execution noise (seed: gat)")
    physics: str = setting("fcv1", choices=("fcv1", "gat"), help="DigitalCurling3's or the seed's")
    eval_every: int = setting(1, low=1, help="evaluate every this many iterations")
    eval_games: int = setting(8, low=0, help="evaluation games (colours and hammer alternate)")
    eval_opponent: str = setting(
        "rule-based", choices=EVAL_OPPONENTS, help="reference (kr-uct: house-score leaves)"
    )
    eval_simulations: int = setting(
        0, low=0, help="simulations a shot in evaluations (0: --simulations)"
    )
    workers: int = setting(
        0, low=0, high=1024, help="processes playing the games (0: one per core; same results)"
    )
    games_in_flight: int = setting(
        0,
        low=0,
        help="self-play games a worker plays at once, their search leaves sent to the network in "
        "one batch per round (0: all of its share; 1: one game at a time, one call per leaf)",
    )
    leaves_per_round: int = setting(
        1, low=1, help="leaves a search gathers per round (1: Algorithm 1; more: virtual visits)"
    )
    torch_threads: int = setting(1, low=1, high=256, help="the network's threads (each worker)")
    seed: int = setting(0, low=0, help="seed for everything (a run is reproducible)")

    def check(self) -> None:
        """TypeError/ValueError naming the setting when a value has the wrong type or is out of
        its declared range or choices (:func:`~pyaz.common.settings.check_settings`)."""
        check_settings(self)
