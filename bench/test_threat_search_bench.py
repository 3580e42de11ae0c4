"""The cost of Gomoku's threat-search planes (``--threat-search N``) against the network alone.

A network with threat-search planes pays, at every evaluation, for the mentor's threat analysis
(``GomokuMentor.threat_search_planes``, N nodes a position, in C++ without the GIL) on top of the
forward pass. Each row times the wrapped evaluator (analysis + network) against the same network
alone on the same batch of positions, interleaved within one run: the ratio is the wrapped
evaluator's positions per second over the network's (1.0: free; 0.5: the analysis costs as much
as the network). The positions are those of random 9x9 games after 6-30 plies, where threats
arise as they do in self-play's early games.
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

NODES = (200, 1000)
BATCH = 32


pytestmark = pytest.mark.usefixtures("one_torch_thread")  # bench/conftest.py


def _positions(pyaz: ModuleType, count: int, seed: int) -> np.ndarray:
    """The encoded positions of ``count`` random 9x9 games, each after 6-30 random plies (games
    that end sooner are replayed)."""
    rng = np.random.default_rng(seed)
    planes = []
    while len(planes) < count:
        state = pyaz.make("gomoku", size=9)
        for _ in range(int(rng.integers(6, 31))):
            if state.is_terminal():
                break
            state.apply(int(rng.choice(state.legal_actions())))
        if not state.is_terminal():
            planes.append(np.asarray(state.encode()))
    return np.stack(planes).astype(np.float32)


def _forward(evaluator: Callable[[np.ndarray], Any], planes: np.ndarray) -> Callable[[], int]:
    def once() -> int:
        evaluator(planes)
        return len(planes)

    return once


@pytest.mark.benchmark(group="threat-search")
@pytest.mark.parametrize("nodes", NODES, ids=[f"{n}nodes" for n in NODES])
def test_threat_search_planes_against_the_network_alone(
    benchmark: Any,
    nodes: int,
    pyaz: ModuleType,
    bench_cfg: BenchConfig,
    record_row: Callable[[dict[str, Any]], None],
) -> None:
    """Gomoku 9x9, tiny network, TorchScript, one thread, batch 32: positions per second of the
    threat-search network's evaluator (analysis + network) vs the plain network's."""
    from pyaz.nets import PolicyValueNet, make_evaluator, net_config_for
    from pyaz.nets.threat_search import ThreatSearchEvaluator

    start = pyaz.make("gomoku", size=9)
    torch.manual_seed(bench_cfg.seed)
    wrapped_net = PolicyValueNet(net_config_for(start, "tiny", threat_search=nodes)).eval()
    plain_net = PolicyValueNet(net_config_for(start, "tiny")).eval()
    shape = tuple(start.planes_shape)
    wrapped = make_evaluator(wrapped_net, shape, "torchscript")
    plain = make_evaluator(plain_net, shape, "torchscript")
    assert isinstance(wrapped, ThreatSearchEvaluator)
    planes = _positions(pyaz, BATCH, bench_cfg.seed)

    ours = Contender(f"threat search {nodes}", _forward(wrapped, planes))
    peer = Contender("network alone", _forward(plain, planes))
    run_paired(benchmark, ours, peer, bench_cfg)
    info = paired_info(ours, peer, peer_name="the network alone (TorchScript, tiny)")
    info.update(
        game="Gomoku 9x9",
        measure=f"threat-search planes ({nodes} nodes) + network vs network, positions/s, "
        f"batch {BATCH}",
        unit="positions/s",
    )
    benchmark.extra_info.update(info)
    record_row(info)
