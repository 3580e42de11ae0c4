"""Thread scaling and GPU self-play on a machine larger than the 2-core VM the rest of bench/
runs on. Run by hand (it is not a pytest module: its sizes are for 16 cores and a GPU)::

    python bench/device_scaling.py --out scaling.json [--quick]

It measures, each figure the median of ``--repeats`` timed runs after a warm-up:

1. **Search threads on one tree** (Othello 8x8, from the start position): UCT+rollout and
   PUCT+uniform simulations per second with 1, 2, 4, ... threads on one ``pyaz.Search``, next to
   the same number of independent one-thread searches at once (nothing shared: the machine's own
   ceiling for that many threads). The ratio to one thread is the speed-up.
2. **The network alone**: positions per second of the ``small`` Othello 8x8 network (4 blocks x
   64 filters) at batch 1 to 1024, on the CPU (ONNX Runtime, all cores) and, where torch sees a
   GPU, on CUDA (TorchScript, float32 and float16).
3. **Self-play**: ``pyaz.SelfPlay`` on Othello 8x8 with 100 simulations a move and the same
   network, evaluated leaves per second and games per second with 32 to 1024 games in flight
   (32 and 128 on the CPU), CPU against CUDA; ``threads`` as many as the cores.

The figures go to ``--out`` (JSON) and a Markdown table on stdout.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import threading
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import pyaz


def timed(work: Callable[[], int], repeats: int) -> float:
    """Median units per second of ``work`` (which returns its unit count), after one warm-up."""
    work()
    rates = []
    for _ in range(repeats):
        began = time.perf_counter()
        units = work()
        rates.append(units / (time.perf_counter() - began))
    return statistics.median(rates)


def thread_scaling(counts: list[int], repeats: int) -> list[dict[str, Any]]:
    start = pyaz.make("othello", size=8)
    rows = []
    for rule, evaluator, sims in (("uct", "rollout", 40_000), ("puct", "uniform", 200_000)):
        one_rate = 0.0
        for n in counts:
            shared = pyaz.Search(start, rule=rule, threads=n, seed=1)

            def run_shared(
                search: Any = shared, sims: int = sims, evaluator: str = evaluator
            ) -> int:
                search.set_root(start)
                search.run(sims, evaluator)
                return sims

            separate = [pyaz.Search(start, rule=rule, threads=1, seed=1 + i) for i in range(n)]

            def run_separate(
                searches: list[Any] = separate, sims: int = sims, evaluator: str = evaluator
            ) -> int:
                share = sims // len(searches)

                def one(search: Any) -> None:
                    search.set_root(start)
                    search.run(share, evaluator)

                helpers = [threading.Thread(target=one, args=(s,)) for s in searches[1:]]
                for helper in helpers:
                    helper.start()  # pyaz releases the GIL while it searches
                one(searches[0])
                for helper in helpers:
                    helper.join()
                return share * len(searches)

            rate = timed(run_shared, repeats)
            ceiling = timed(run_separate, repeats)
            one_rate = one_rate or rate
            rows.append(
                {
                    "search": f"{rule.upper()}+{evaluator}",
                    "threads": n,
                    "sims_per_s": rate,
                    "speedup": rate / one_rate,
                    "independent_sims_per_s": ceiling,
                    "independent_speedup": ceiling / one_rate,
                }
            )
            print(json.dumps(rows[-1]), flush=True)
    return rows


def make_net(start: Any) -> Any:
    import torch

    from pyaz.nets import PolicyValueNet, net_config_for

    torch.manual_seed(0)
    net = PolicyValueNet(net_config_for(start, preset="small"))
    return net.eval()


def evaluators(start: Any, net: Any) -> dict[str, Any]:
    import torch

    from pyaz.nets import make_evaluator

    found = {
        "cpu-onnxruntime": make_evaluator(
            net, tuple(start.planes_shape), "onnxruntime", threads=os.cpu_count()
        )
    }
    if torch.cuda.is_available():
        from pyaz.nets.evaluator import TorchEvaluator
        from pyaz.nets.model import to_torchscript

        found["cuda-fp32"] = TorchEvaluator(to_torchscript(net), device="cuda")
        half = make_net(start)
        found["cuda-fp16"] = TorchEvaluator(
            to_torchscript(half), device="cuda", dtype=torch.float16
        )
    return found


def network_alone(start: Any, found: dict[str, Any], repeats: int) -> list[dict[str, Any]]:
    rows = []
    rng = np.random.default_rng(0)
    for batch in (1, 8, 32, 128, 512, 1024):
        planes = rng.random((batch, *start.planes_shape), dtype=np.float32)
        calls = max(4, 4096 // batch)
        for name, evaluator in found.items():

            def run(
                evaluator: Any = evaluator, planes: np.ndarray = planes, calls: int = calls
            ) -> int:
                for _ in range(calls):
                    evaluator(planes)
                return calls * len(planes)

            rows.append({"evaluator": name, "batch": batch, "positions_per_s": timed(run, repeats)})
            print(json.dumps(rows[-1]), flush=True)
    return rows


def self_play(
    start: Any, found: dict[str, Any], in_flight: list[int], threads: int
) -> list[dict[str, Any]]:
    rows = []
    for parallel in in_flight:
        for name, evaluator in found.items():
            if name.startswith("cpu") and parallel > 128:
                continue  # minutes a run on the CPU, and its batch stopped gaining by 128
            games = parallel
            began = time.perf_counter()
            records = pyaz.SelfPlay(
                start, simulations=100, parallel_games=parallel, threads=threads, seed=1
            ).play(games, evaluator)
            seconds = time.perf_counter() - began
            leaves = records.evaluated_leaves
            rows.append(
                {
                    "evaluator": name,
                    "games_in_flight": parallel,
                    "games": games,
                    "games_per_s": games / seconds,
                    "leaves_per_s": leaves / seconds,
                    "mean_batch": records.mean_batch_size,
                    "seconds": seconds,
                }
            )
            print(json.dumps(rows[-1]), flush=True)
    return rows


def markdown(result: dict[str, Any]) -> str:
    lines = [
        f"machine: {result['machine']}",
        "",
        "| search | threads | sims/s | speed-up | independent searches' speed-up |",
        "|---|---|---|---|---|",
    ]
    for r in result["threads"]:
        lines.append(
            f"| {r['search']} | {r['threads']} | {r['sims_per_s']:,.0f} | {r['speedup']:.2f}x | "
            f"{r['independent_speedup']:.2f}x |"
        )
    lines += ["", "| evaluator | batch | positions/s |", "|---|---|---|"]
    for r in result["network"]:
        lines.append(f"| {r['evaluator']} | {r['batch']} | {r['positions_per_s']:,.0f} |")
    lines += [
        "",
        "| evaluator | games in flight | games/s | leaves/s | mean batch |",
        "|---|---|---|---|---|",
    ]
    for r in result["self_play"]:
        lines.append(
            f"| {r['evaluator']} | {r['games_in_flight']} | {r['games_per_s']:.2f} | "
            f"{r['leaves_per_s']:,.0f} | {r['mean_batch']:.0f} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, help="JSON file for the figures")
    parser.add_argument("--quick", action="store_true", help="small sizes (a check of the script)")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs a figure (default 3)")
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    counts = [n for n in (1, 2, 4, 8, 16, 32) if n <= cores]
    import torch

    gpu = torch.cuda.get_device_name(0) if torch.cuda.is_available() else "no GPU"
    result: dict[str, Any] = {"machine": f"{cores} cores, {gpu}, torch {torch.__version__}"}
    result["threads"] = thread_scaling(counts[:2] if args.quick else counts, args.repeats)
    start = pyaz.make("othello", size=8)
    found = evaluators(start, make_net(start))
    result["network"] = network_alone(start, found, args.repeats)
    in_flight = [32] if args.quick else [32, 128, 512, 1024]
    result["self_play"] = self_play(start, found, in_flight, threads=cores)
    with open(args.out, "w") as out:
        json.dump(result, out, indent=1)
    print(markdown(result))


if __name__ == "__main__":
    main()
