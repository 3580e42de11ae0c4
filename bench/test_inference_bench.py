"""The inference runtimes side by side (issue 19): ONNX Runtime and OpenVINO against TorchScript on
the same networks and inputs, one thread each, at the batch sizes self-play reaches; then
self-play itself with ONNX Runtime against TorchScript.

Every row is a paired, interleaved comparison within one run (see ``test_search_bench``); the
ratio is the runtime's throughput over TorchScript's. Outputs agree to 1e-4 (checked here and in
``tests/test_runtimes.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from conftest import BenchConfig
from test_search_bench import Contender, paired_info, run_paired

torch = pytest.importorskip("torch")
pytest.importorskip("onnxruntime")

BATCHES = (1, 8, 24, 64)
NETWORKS = {  # label -> (game, size, net preset)
    "tiny net, Othello 6x6": ("othello", 6, "tiny"),
    "small net, Othello 8x8": ("othello", 8, "small"),
}
RUNTIMES = ("onnxruntime", "openvino")


pytestmark = pytest.mark.usefixtures("one_torch_thread")  # bench/conftest.py


def _network(pyaz: ModuleType, game: str, size: int, preset: str, seed: int) -> tuple[Any, Any]:
    from pyaz.nets import PolicyValueNet, net_config_for

    torch.manual_seed(seed)
    start = pyaz.make(game, size=size)
    net = PolicyValueNet(net_config_for(start, preset))
    net.eval()
    return net, start


def _forward(evaluator: Any, planes: np.ndarray) -> Callable[[], int]:
    """One timed forward pass of ``planes``; returns the positions it evaluated."""

    def once() -> int:
        evaluator(planes)
        return len(planes)

    return once


def _compare(
    benchmark: Any,
    bench_cfg: BenchConfig,
    record_row: Callable[[dict[str, Any]], None],
    ours: Contender,
    peer: Contender,
    peer_name: str,
    **fields: str,
) -> None:
    """Times ``ours`` against ``peer`` interleaved and records the row (``fields``: game,
    measure, unit)."""
    run_paired(benchmark, ours, peer, bench_cfg)
    info = paired_info(ours, peer, engine=ours.label, peer_name=peer_name)
    info.update(fields)
    benchmark.extra_info.update(info)
    record_row(info)


@pytest.mark.benchmark(group="inference")
@pytest.mark.parametrize("runtime", RUNTIMES)
@pytest.mark.parametrize("network", list(NETWORKS))
@pytest.mark.parametrize("batch", BATCHES, ids=[f"batch{b}" for b in BATCHES])
def test_runtime_against_torchscript(
    benchmark: Any,
    batch: int,
    network: str,
    runtime: str,
    pyaz: ModuleType,
    bench_cfg: BenchConfig,
    record_row: Callable[[dict[str, Any]], None],
) -> None:
    """Forward passes of one batch: positions per second on ``runtime`` vs TorchScript."""
    if runtime == "openvino":
        pytest.importorskip("openvino")
    from pyaz.nets import make_evaluator

    game, size, preset = NETWORKS[network]
    net, start = _network(pyaz, game, size, preset, bench_cfg.seed)
    shape = tuple(start.planes_shape)
    mine = make_evaluator(net, shape, runtime, threads=1)
    peer = make_evaluator(net, shape, "torchscript")
    rng = np.random.default_rng(bench_cfg.seed)
    planes = rng.integers(0, 2, size=(batch, *shape)).astype(np.float32)
    ours, theirs = mine(planes), peer(planes)
    assert np.allclose(ours[0], theirs[0], atol=1e-4) and np.allclose(ours[1], theirs[1], atol=1e-4)

    _compare(
        benchmark, bench_cfg, record_row,
        Contender(runtime, _forward(mine, planes)),
        Contender("TorchScript", _forward(peer, planes)),
        f"TorchScript (torch {torch.__version__})",
        game=network,
        measure=f"{runtime} vs TorchScript, forward positions/s, batch {batch}",
        unit="positions/s",
    )  # fmt: skip


@pytest.mark.benchmark(group="inference-selfplay")
def test_selfplay_onnxruntime_against_torchscript(
    benchmark: Any,
    pyaz: ModuleType,
    bench_cfg: BenchConfig,
    record_row: Callable[[dict[str, Any]], None],
) -> None:
    """The main command's self-play (Othello 6x6, tiny network, 100 simulations, 32 games in
    flight) on ONNX Runtime vs TorchScript: simulations per second."""
    from pyaz.nets import make_evaluator

    net, start = _network(pyaz, "othello", 6, "tiny", bench_cfg.seed)
    shape = tuple(start.planes_shape)
    evaluators = {
        r: make_evaluator(net, shape, r, threads=1) for r in ("onnxruntime", "torchscript")
    }

    def play(runtime: str) -> Callable[[], int]:
        def once() -> int:
            records = pyaz.SelfPlay(start, simulations=100, parallel_games=32, seed=1).play(
                32, evaluators[runtime]
            )
            return int(records.evaluated_leaves)

        return once

    _compare(
        benchmark, bench_cfg, record_row,
        Contender("onnxruntime", play("onnxruntime")),
        Contender("torchscript", play("torchscript")),
        "TorchScript",
        game="Othello 6x6",
        measure="self-play evaluated leaves/s (tiny net, 100 sims, 32 games)",
        unit="leaves/s",
    )  # fmt: skip


COMPUTED_PLANES = {
    "connect4-on": ("connect_four", {"width": 6, "height": 6}, "on"),
    "connect4-parity": ("connect_four", {"width": 6, "height": 6}, "parity"),
    "othello-mobility": ("othello", {"size": 8}, "mobility"),
}
"""The planes a network computes itself (``--threat-planes``): label -> game, options, mode."""


@pytest.mark.benchmark(group="inference-threat-planes")
@pytest.mark.parametrize("planes", list(COMPUTED_PLANES))
def test_threat_planes_against_the_board_alone(
    benchmark: Any,
    planes: str,
    pyaz: ModuleType,
    bench_cfg: BenchConfig,
    record_row: Callable[[dict[str, Any]], None],
) -> None:
    """The cost of the planes a network computes itself (``--threat-planes``: Connect Four's
    threat planes and its default parity plane, Othello's mobility planes): the tiny network,
    ONNX Runtime, batch 32, with the planes against the same network reading the board alone;
    the ratio is positions/s with over without (below 1: their cost)."""
    from pyaz.nets import PolicyValueNet, make_evaluator, net_config_for

    game, options, mode = COMPUTED_PLANES[planes]
    start = pyaz.make(game, **options)
    shape = tuple(start.planes_shape)
    evaluators = {}
    for threats in (mode, "off"):
        torch.manual_seed(bench_cfg.seed)
        net = PolicyValueNet(net_config_for(start, "tiny", threats=threats)).eval()
        evaluators[threats] = make_evaluator(net, shape, "onnxruntime", threads=1)
    rng = np.random.default_rng(bench_cfg.seed)
    boards = rng.integers(0, 2, size=(32, *shape)).astype(np.float32)
    boards[:, 1] *= 1 - boards[:, 0]  # one disc a cell at most

    _compare(
        benchmark, bench_cfg, record_row,
        Contender(f"{mode} planes", _forward(evaluators[mode], boards)),
        Contender("board alone", _forward(evaluators["off"], boards)),
        "board alone",
        game=f"{game} {start.planes_shape[2]}x{start.planes_shape[1]}",
        measure=f"tiny net forward positions/s, onnxruntime, batch 32, {mode} planes vs none",
        unit="positions/s",
    )  # fmt: skip
