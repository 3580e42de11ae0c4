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


CURLING_SELFPLAY_GAMES = 8  # games per timed unit (one end each)
CURLING_SELFPLAY_SIMULATIONS = 16  # KR-DL-UCT simulations per shot
CURLING_BATCH_SETTINGS = [(8, 1), (8, 4)]  # (games in flight, leaves per search and round)


@pytest.mark.benchmark(group="curling")
@pytest.mark.parametrize(
    ("games", "leaves"),
    CURLING_BATCH_SETTINGS,
    ids=[f"g{g}-l{n}" for g, n in CURLING_BATCH_SETTINGS],
)
def test_curling_selfplay_batched_leaves(
    benchmark: Any,
    pyaz: Any,
    bench_cfg: BenchConfig,
    record_row: Callable[[dict[str, Any]], None],
    games: int,
    leaves: int,
) -> None:
    """KR-DL-UCT self-play shots/s with ``games`` games in flight and ``leaves`` leaves per search
    and round (one network call per round) against one game at a time and one network call per
    leaf (issue 19's before), the same CPU-sized network (16 filters, 2 blocks), one thread."""
    import torch
    from test_search_bench import Contender, paired_info, run_paired

    from pyaz.methods import kr_dl_uct as curling
    from pyaz.methods.kr_dl_uct.net import CurlingNet, kr_dl_batch_evaluator, kr_dl_evaluator
    from pyaz.methods.kr_dl_uct.selfplay import (
        BatchCounters,
        play_self_play_game,
        play_self_play_games,
    )

    torch.set_num_threads(1)
    torch.manual_seed(bench_cfg.seed)
    net = CurlingNet(16, 2)
    noise = curling.NoiseParams(curling.Noise.GAT)
    seeds = list(range(CURLING_SELFPLAY_GAMES))
    calls = {"batched": BatchCounters(), "single": BatchCounters()}
    shots = {"batched": 0, "single": 0}

    def params(leaves_per_round: int) -> Any:
        p = curling.KrUctParams()
        p.simulations = CURLING_SELFPLAY_SIMULATIONS
        p.leaves_per_round = leaves_per_round
        return p

    def batched() -> int:
        played = play_self_play_games(
            kr_dl_batch_evaluator(net),
            params(leaves),
            1,
            noise,
            seeds,
            games_in_flight=games,
            counters=calls["batched"],
        )
        shots["batched"] += sum(len(g.shots) for g in played)
        return sum(len(g.shots) for g in played)

    single_eval = kr_dl_evaluator(net)

    def counted(state: Any) -> Any:
        calls["single"].calls += 1
        calls["single"].leaves += 1
        return single_eval(state)

    def single() -> int:
        done = sum(len(play_self_play_game(counted, params(1), 1, noise, s).shots) for s in seeds)
        shots["single"] += done
        return done

    mine = Contender(f"{games} games x {leaves} leaves", batched)
    peer = Contender("1 game x 1 leaf (per-leaf network call)", single)
    start = time.perf_counter()
    run_paired(benchmark, mine, peer, bench_cfg)
    total_wall_s = time.perf_counter() - start
    info = paired_info(mine, peer)
    b, s = calls["batched"], calls["single"]
    info.update(
        game="Curling (FCV1)",
        measure=(
            f"KR-DL-UCT self-play shots/s ({CURLING_SELFPLAY_SIMULATIONS} sims/shot), "
            f"{games} games x {leaves} leaves (mean batch {b.leaves / b.calls:.1f}) "
            "vs 1 x 1, torch 1 thread"
        ),
        unit="shots/s",
        mean_batch=b.leaves / b.calls,
        network_calls_per_shot_batched=b.calls / shots["batched"],
        network_calls_per_shot_single=s.calls / shots["single"],
        network_calls_per_s_batched=info["value"] * b.calls / shots["batched"],
        network_calls_per_s_single=info["peer_value"] * s.calls / shots["single"],
        total_wall_s=total_wall_s,
    )
    _record(benchmark, record_row, info)
