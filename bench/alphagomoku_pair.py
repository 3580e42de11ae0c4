"""The cost of seed 004's double networks in self-play: evaluated leaves per second with one
network against a black/white pair (:class:`pyaz.methods.alphagomoku.PairEvaluator`, one network
call
per colour per round), the seed004 network on ONNX Runtime, interleaved rounds. Run::

    python bench/alphagomoku_pair.py --size 9 --games 32 --rounds 3

Timings depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import torch

import pyaz
from pyaz.methods.alphagomoku import NetworkPair
from pyaz.nets import PolicyValueNet, net_config_for


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--games", type=int, default=32)
    parser.add_argument("--simulations", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(0)
    start = pyaz.make("gomoku", size=args.size)
    net = PolicyValueNet(net_config_for(start, "seed004")).eval()
    single = NetworkPair.fresh(net, single=True).evaluator(threads=1)
    double = NetworkPair.fresh(net).evaluator(threads=1)
    rates: dict[str, list[float]] = {"single": [], "pair": []}
    batches: dict[str, list[float]] = {"single": [], "pair": []}
    for round_number in range(args.rounds):
        for name, evaluator in (("single", single), ("pair", double)):
            began = time.perf_counter()
            records = pyaz.SelfPlay(
                start, simulations=args.simulations, parallel_games=args.games, seed=round_number
            ).play(args.games, evaluator)
            seconds = time.perf_counter() - began
            rates[name].append(records.evaluated_leaves / seconds)
            batches[name].append(records.mean_batch_size)
    print(
        json.dumps(
            {
                name: {
                    "leaves_per_s_median": round(statistics.median(rates[name])),
                    "leaves_per_s": [round(r) for r in rates[name]],
                    "leaves_per_search_call": round(statistics.mean(batches[name]), 1),
                }
                for name in rates
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
