"""Digital curling: shot simulations per second and KR-UCT simulations per second, one thread.

The peer figures are the issue's anchor for the official DigitalCurling3 v3.0.0 simulator (Box2D,
1 ms frames) on this machine kind: about 48 draws/s on an empty sheet and 38/s into a 15-stone
house. They are constants, not measured in this run (DigitalCurling3 is not installed here), so
read the ratios as approximate. The target is at least 100x, with the same stopping points
(tests/test_curling_physics.py checks 80 reference shots to within 1 cm).
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest

if TYPE_CHECKING:
    from conftest import BenchConfig

DC3_PEER = "DigitalCurling3 v3.0.0 FCV1 (Box2D, 1 ms), anchor figure"
DC3_EMPTY_DRAWS_PER_S = 48.0
DC3_HOUSE_DRAWS_PER_S = 38.0


def _house_state(c: Any, rng: np.random.Generator) -> Any:
    state = c.GameState()
    placed: list[tuple[float, float]] = []
    while len(placed) < 15:
        x, y = rng.uniform(-1.7, 1.7), rng.uniform(c.TEE_Y - 2.2, c.TEE_Y + 1.5)
        if all(math.hypot(x - px, y - py) > 2 * c.STONE_RADIUS + 0.02 for px, py in placed):
            placed.append((x, y))
    for i, (x, y) in enumerate(placed):
        state.set_stone(i, x, y)
    state.shot = 15
    return state


def _draw_shots(c: Any, n: int, rng: np.random.Generator) -> np.ndarray:
    rows = []
    for _ in range(n):
        shot = c.target_to_shot(
            c.Target(rng.uniform(-1.0, 1.0), rng.uniform(37.0, 39.5), int(rng.choice([-1, 1])))
        )
        rows.append([shot.vx, shot.vy, shot.spin])
    return np.array(rows)


def _rates(run: Callable[[], int], rounds: int) -> list[float]:
    rates = []
    for _ in range(rounds):
        start = time.perf_counter()
        count = run()
        rates.append(count / (time.perf_counter() - start))
    return rates


def _record(
    benchmark: Any, record_row: Callable[[dict[str, Any]], None], info: dict[str, Any]
) -> None:
    benchmark.extra_info.update(info)
    record_row(info)


@pytest.mark.benchmark(group="curling")
@pytest.mark.parametrize("house", [False, True], ids=["empty-sheet", "15-stone-house"])
def test_curling_draws_per_second(
    benchmark: Any,
    pyaz: Any,
    bench_cfg: BenchConfig,
    record_row: Callable[[dict[str, Any]], None],
    house: bool,
) -> None:
    c = pyaz._core.curling
    rng = np.random.default_rng(bench_cfg.seed)
    state = _house_state(c, rng) if house else c.GameState()
    shots = _draw_shots(c, max(50, int(2000 * bench_cfg.scale)), rng)
    c.simulate_batch(state, shots[:5])  # build the conversion tables outside the timing

    def run() -> int:
        c.simulate_batch(state, shots)
        return len(shots)

    rates = _rates(run, bench_cfg.rounds)
    benchmark.pedantic(run, rounds=1, iterations=1)
    peer_value = DC3_HOUSE_DRAWS_PER_S if house else DC3_EMPTY_DRAWS_PER_S
    value = statistics.median(rates)
    _record(
        benchmark,
        record_row,
        {
            "game": "Curling (FCV1)",
            "measure": "draws/s into a 15-stone house" if house else "draws/s, empty sheet",
            "unit": "shots/s",
            "value": value,
            "peer": DC3_PEER,
            "peer_value": peer_value,
            "ratio": value / peer_value,
            "round_ratios": [r / peer_value for r in rates],
            "target_ratio": 100.0,
        },
    )


@pytest.mark.benchmark(group="curling")
def test_kr_uct_simulations_per_second(
    benchmark: Any, pyaz: Any, bench_cfg: BenchConfig, record_row: Callable[[dict[str, Any]], None]
) -> None:
    c = pyaz._core.curling
    rng = np.random.default_rng(bench_cfg.seed)
    state = c.GameState()
    for _ in range(8):  # a mid-end position from the rule-based player
        target = c.rule_based_shot(state, c.NoiseParams(), 1, int(rng.integers(1 << 30)))
        state.apply(c.target_to_shot(target))
    params = c.KrUctParams()
    params.simulations = max(50, int(1600 * bench_cfg.scale))

    def run() -> int:
        c.kr_uct_search(state, params)
        return params.simulations

    rates = _rates(run, bench_cfg.rounds)
    benchmark.pedantic(run, rounds=1, iterations=1)
    _record(
        benchmark,
        record_row,
        {
            "game": "Curling (FCV1)",
            "measure": "KR-UCT simulations/s (shot 8, house-score leaves)",
            "unit": "simulations/s",
            "value": statistics.median(rates),
        },
    )
