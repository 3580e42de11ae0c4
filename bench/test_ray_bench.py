"""Self-play on Ray against the embedded loop (issue 18): games per second of one iteration's
self-play step for 1 and 2 Ray workers and for the embedded engine, at the same settings
(Othello 6x6, the tiny network on ONNX Runtime, 25 simulations, 32 games an iteration),
interleaved round by round in one run, so the ratios hold on a loaded machine.

It also records what the README's scaling model is built from: the seconds per game of one
worker, the learner's seconds per training step (batch 64), and the bytes through the object
store (weights out once per iteration, records back per game).
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import BenchConfig

ray = pytest.importorskip("ray")
torch = pytest.importorskip("torch")

GAMES = 32
SETTINGS: dict[str, Any] = {
    "game": "othello",
    "game_options": {"size": 6},
    "episodes": GAMES,
    "simulations": 25,
    "parallel_games": 16,
    "eval_opponent": "none",
    "length_probe_games": 10,
    "batch_size": 64,
}


@pytest.mark.benchmark(group="ray")
def test_ray_selfplay_throughput(
    benchmark: Any,
    bench_cfg: BenchConfig,
    tmp_path: Path,
    record_row: Callable[[dict[str, Any]], None],
) -> None:
    from pyaz.distributed import RaySelfPlay, RaySettings
    from pyaz.methods.alphazero.config import TrainConfig
    from pyaz.methods.alphazero.loop import TrainingLoop
    from pyaz.methods.alphazero.selfplay_engine import SelfPlayJob
    from pyaz.nets import PolicyValueNet, net_config_for
    from pyaz.nets.runtimes import make_evaluator
    from pyaz.search import SelfPlay
    from pyaz.train.trainer import Trainer

    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    # Three logical CPUs: the 1-worker and the 2-worker engines stay up side by side (they take
    # turns, never play at the same time, so the 2 cores are not oversubscribed).
    ray.init(address="local", num_cpus=3, include_dashboard=False, log_to_driver=False)
    config = TrainConfig(**SETTINGS)
    loop = TrainingLoop(config, tmp_path / "loop", progress=False)
    job = loop._self_play_job(1)
    net = loop.current
    shape = (net.config.planes, net.config.height, net.config.width)
    engines = {
        workers: RaySelfPlay(
            config, tmp_path / f"ray{workers}", RaySettings(workers=workers, timeout_s=120)
        )
        for workers in (1, 2)
    }
    rates: dict[str, list[float]] = {"embedded": [], "ray1": [], "ray2": []}
    seconds_per_game: list[float] = []
    positions: list[int] = []
    records_bytes: list[float] = []
    round_no = 0

    def embedded(seed: int) -> Any:
        evaluator = make_evaluator(net, shape, "onnxruntime", threads=1)  # as the loop does
        return SelfPlay(loop.start_state, seed=seed, **job.options).play(GAMES, evaluator)

    def timed(name: str, play: Callable[[int], Any], seed: int) -> Any:
        began = time.perf_counter()
        records = play(seed)
        rates[name].append(records.num_games / (time.perf_counter() - began))
        return records

    def one_round() -> None:
        nonlocal round_no
        seed = 1000 + round_no
        order: list[tuple[str, Callable[[int], Any]]] = [
            ("embedded", embedded),
            ("ray1", lambda s: engines[1].play(SelfPlayJob(GAMES, s, 0, job.options), net)),
            ("ray2", lambda s: engines[2].play(SelfPlayJob(GAMES, s, 0, job.options), net)),
        ]
        if round_no % 2:
            order.reverse()
        for name, play in order:
            records = timed(name, play, seed)
            if name == "ray1":
                seconds_per_game.append(1 / rates["ray1"][-1])
                positions.append(records.num_positions)
                records_bytes.append(engines[1].metrics()["records_bytes"] / records.num_games)
        round_no += 1

    try:
        one_round()  # warm-up: workers start, runtimes load
        for values in (rates, seconds_per_game, positions, records_bytes):
            values.clear() if isinstance(values, list) else [v.clear() for v in values.values()]
        benchmark.pedantic(one_round, rounds=bench_cfg.rounds, iterations=1, warmup_rounds=0)
        weights_bytes = engines[1].metrics()["weights_bytes"]
    finally:
        for engine in engines.values():
            engine.close()
        ray.shutdown()

    # The learner's cost per training step (batch 64) on one iteration's positions.
    records = embedded(1)
    trainer = Trainer(PolicyValueNet(net_config_for(loop.start_state)), loop._train_settings(),
                      loop.start_state)  # fmt: skip
    rng = np.random.default_rng(0)
    began = time.perf_counter()
    stats = trainer.train_epoch(records.planes, records.policy, records.outcome, rng)
    step_s = (time.perf_counter() - began) / max(1, stats.steps)

    median = {name: statistics.median(values) for name, values in rates.items()}
    info = {
        "game": "Othello 6x6",
        "measure": f"self-play games/s, {GAMES} games, 25 simulations, tiny net",
        "unit": "games/s",
        "engine": "ray, 2 workers",
        "value": median["ray2"],
        "peer": "embedded loop",
        "peer_value": median["embedded"],
        "ratio": median["ray2"] / median["embedded"],
        "ray1_games_per_s": median["ray1"],
        "ray1_ratio": median["ray1"] / median["embedded"],
        "round_rates": rates,
        "worker_seconds_per_game": statistics.median(seconds_per_game),
        "positions_per_game": statistics.mean(positions) / GAMES,
        "records_bytes_per_game": statistics.mean(records_bytes),
        "weights_bytes": weights_bytes,
        "train_step_s": step_s,
        "load_average_1min": os.getloadavg()[0],
    }
    benchmark.extra_info.update(info)
    record_row(info)
    print({k: v for k, v in info.items() if k != "round_rates"})
