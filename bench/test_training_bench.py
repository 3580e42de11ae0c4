"""Training with subnormal weights (2026-11-27): a forward and backward pass of the main
command's network (Othello 6x6, tiny, batch 64, one thread) whose weights are 7% subnormal, as
a seed 000 curriculum run's were after 20 iterations of weight decay, with pyaz's
:func:`~pyaz.nets.evaluator.denormals_flushed` against the CPU's default handling. The ratio is
the flushed positions per second over the default's, interleaved within one run (see
``test_search_bench``)."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from conftest import BenchConfig
from test_search_bench import Contender, paired_info, run_paired

torch = pytest.importorskip("torch")

SUBNORMAL_SHARE = 0.07  # of the weights: the curriculum run's share at iteration 26
BATCH = 64


@pytest.mark.benchmark(group="training")
def test_flushed_subnormals_against_the_default(
    benchmark: Any,
    pyaz: ModuleType,
    bench_cfg: BenchConfig,
    record_row: Callable[[dict[str, Any]], None],
) -> None:
    """Training positions per second, flushed vs the CPU's default, on subnormal weights."""
    from pyaz.nets import PolicyValueNet, net_config_for

    before = torch.get_num_threads()
    torch.set_num_threads(1)
    torch.manual_seed(bench_cfg.seed)
    start = pyaz.make("othello", size=6)
    net = PolicyValueNet(net_config_for(start, "tiny"))
    with torch.no_grad():
        for weight in net.parameters():
            dead = torch.rand_like(weight) < SUBNORMAL_SHARE
            weight[dead] = 1e-39 * torch.sign(torch.randn_like(weight[dead]))
    rng = np.random.default_rng(bench_cfg.seed)
    planes = torch.from_numpy(
        rng.integers(0, 2, size=(BATCH, *start.planes_shape)).astype(np.float32)
    )

    def passes(flush: bool) -> Callable[[], int]:
        def once() -> int:  # no optimiser step: both sides keep the same weights
            torch.set_flush_denormal(flush)
            logits, value = net(planes)[:2]
            (logits.logsumexp(-1).mean() + (value**2).mean()).backward()
            net.zero_grad(set_to_none=True)
            return BATCH

        return once

    flushed, default = Contender("flushed", passes(True)), Contender("default", passes(False))
    try:
        run_paired(benchmark, flushed, default, bench_cfg)
    finally:
        torch.set_flush_denormal(False)
        torch.set_num_threads(before)
    info = paired_info(flushed, default, engine="denormals_flushed", peer_name="the CPU's default")
    info.update(
        game="Othello 6x6, tiny net, 7% subnormal weights",
        measure="training positions/s (forward + backward, batch 64)",
        unit="positions/s",
    )
    benchmark.extra_info.update(info)
    record_row(info)
