"""Self-play throughput against the batch the network sees (issue 19): games in flight
(``parallel_games``) and leaves per game per round (``leaves_per_game``), on the default runtime
(ONNX Runtime) with the main command's network (tiny, Othello 6x6, 100 simulations).

Each row compares one setting with the default (32 games in flight, one leaf each) in the same
run, interleaved; it records the batch reached (evaluated leaves / network calls). Where the
throughput flattens is where the default should sit; the strength cost of more leaves per game
(virtual loss dilutes the tree) is measured separately (README, "Batch sizes").
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest
from conftest import BenchConfig
from test_search_bench import Contender, paired_info, run_paired

torch = pytest.importorskip("torch")
pytest.importorskip("onnxruntime")

SETTINGS = [(8, 1), (16, 1), (64, 1), (128, 1), (32, 2), (32, 4), (64, 2)]
GAMES = 64


def tiny_othello_network(pyaz: ModuleType, threads: int) -> Any:
    """The main command's network (tiny, Othello 6x6, seed 0) on ONNX Runtime with ``threads``."""
    from pyaz.nets import PolicyValueNet, make_evaluator, net_config_for

    torch.manual_seed(0)
    start = pyaz.make("othello", size=6)
    net = PolicyValueNet(net_config_for(start))
    net.eval()
    return make_evaluator(net, tuple(start.planes_shape), "onnxruntime", threads=threads)


@pytest.fixture(scope="module")
def evaluator(pyaz: ModuleType) -> Any:
    return tiny_othello_network(pyaz, threads=1)


@pytest.mark.benchmark(group="selfplay-batch")
@pytest.mark.parametrize(("parallel", "leaves"), SETTINGS, ids=[f"p{p}-l{n}" for p, n in SETTINGS])
def test_selfplay_batch(
    benchmark: Any,
    parallel: int,
    leaves: int,
    evaluator: Any,
    pyaz: ModuleType,
    bench_cfg: BenchConfig,
    record_row: Callable[[dict[str, Any]], None],
) -> None:
    """Evaluated leaves per second with ``parallel`` games in flight and ``leaves`` leaves each,
    against 32 games with one leaf each."""
    start = pyaz.make("othello", size=6)
    reached: dict[tuple[int, int], list[float]] = {(parallel, leaves): [], (32, 1): []}

    def play(p: int, n: int) -> Callable[[], int]:
        def once() -> int:
            records = pyaz.SelfPlay(
                start, simulations=100, parallel_games=p, leaves_per_game=n, seed=1
            ).play(GAMES, evaluator)
            reached[(p, n)].append(records.mean_batch_size)
            return int(records.evaluated_leaves)

        return once

    mine = Contender(f"{parallel} games x {leaves} leaves", play(parallel, leaves))
    default = Contender("32 games x 1 leaf", play(32, 1))
    run_paired(benchmark, mine, default, bench_cfg)
    info = paired_info(mine, default)
    batch = sum(reached[(parallel, leaves)]) / len(reached[(parallel, leaves)])
    base = sum(reached[(32, 1)]) / len(reached[(32, 1)])
    info.update(
        game="Othello 6x6",
        measure=(
            f"self-play leaves/s, {parallel} games x {leaves} leaves (batch {batch:.0f}) vs "
            f"32 x 1 (batch {base:.0f}), onnxruntime"
        ),
        unit="leaves/s",
    )
    benchmark.extra_info.update(info)
    record_row(info)


@pytest.mark.benchmark(group="selfplay-threads")
def test_tree_threads_beside_network_threads(
    benchmark: Any,
    pyaz: ModuleType,
    bench_cfg: BenchConfig,
    record_row: Callable[[dict[str, Any]], None],
) -> None:
    """Self-play leaves/s with two tree threads against one, the network on two ONNX Runtime
    threads (what ``pyaz-selfplay --threads 2`` runs). The tree work is a few percent of a round,
    so near 1.0 is right; the tree workers once spun while the network evaluated and took its
    cores (0.3-0.4 on the 2-core machine, 2026-11-27)."""
    start = pyaz.make("othello", size=6)
    network = tiny_othello_network(pyaz, threads=2)

    def play(threads: int) -> Callable[[], int]:
        def once() -> int:
            records = pyaz.SelfPlay(start, simulations=100, threads=threads, seed=1).play(
                GAMES, network
            )
            return int(records.evaluated_leaves)

        return once

    two = Contender("2 tree threads", play(2))
    one = Contender("1 tree thread", play(1))
    run_paired(benchmark, two, one, bench_cfg)
    info = paired_info(two, one)
    info.update(
        game="Othello 6x6",
        measure="self-play leaves/s, 2 tree threads vs 1, the network on 2 onnxruntime threads",
        unit="leaves/s",
    )
    benchmark.extra_info.update(info)
    record_row(info)
