"""The exact Connect Four solver: positions solved per second, and nodes per second.

Positions are reached by seeded random play, 8 to 12 plies in (on 6x6 and 7x6), and each is
solved cold: the solver's table is cleared before every position, so rounds compare like with
like. No peer is measured (Pascal Pons' solver, whose method this follows, is not installed).
Before timing, one position per board is checked for consistency: its score equals the best
of its moves' scores (two different searches).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from conftest import BenchConfig


def _positions(pyaz: Any, width: int, height: int, count: int, seed: int) -> list[Any]:
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        state = pyaz.make("connect_four", width=width, height=height)
        plies = rng.randint(8, 12)
        while state.ply < plies and not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            positions.append(state)
    return positions


@pytest.mark.benchmark(group="connect-four-solver")
@pytest.mark.parametrize(("width", "height"), [(6, 6), (7, 6)], ids=["6x6", "7x6"])
def test_positions_solved_per_second(
    benchmark: Any,
    pyaz: Any,
    bench_cfg: BenchConfig,
    record_row: Callable[[dict[str, Any]], None],
    width: int,
    height: int,
) -> None:
    solver = pyaz.ConnectFourSolver()
    count = max(2, int(6 * bench_cfg.scale))
    positions = _positions(pyaz, width, height, count, bench_cfg.seed)
    first = positions[0]
    assert solver.solve(first) == max(s for s in solver.move_scores(first) if s is not None)

    def run() -> tuple[int, int]:
        nodes = 0
        for state in positions:
            solver.clear()
            solver.solve(state)
            nodes += solver.nodes
        return len(positions), nodes

    rates, node_rates = [], []
    for _ in range(min(3, bench_cfg.rounds)):
        start = time.perf_counter()
        solved, nodes = run()
        elapsed = time.perf_counter() - start
        rates.append(solved / elapsed)
        node_rates.append(nodes / elapsed)
    benchmark.pedantic(run, rounds=1, iterations=1)
    info = {
        "game": f"Connect Four {width}x{height}",
        "measure": "positions solved/s, 8-12 plies in, cold table",
        "unit": "positions/s",
        "value": statistics.median(rates),
        "nodes_per_s": statistics.median(node_rates),
        "positions": len(positions),
    }
    benchmark.extra_info.update(info)
    record_row(info)
