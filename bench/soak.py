"""Soak benchmark (issue 14): many self-play games with a network, the process's memory
(resident set size) sampled as they go, to catch a leak that a short test would not see. A
documented benchmark, not a CI test.

    python bench/soak.py                        # 10,000 games of Othello 6x6, 25 simulations
    python bench/soak.py --games 1000 --every 100 --simulations 50

The games are played as the training loop plays them: in chunks of ``--every`` games, each
chunk a fresh ``pyaz.SelfPlay`` with its own seed and (unless ``--reuse-evaluator``) a fresh
ONNX Runtime session of the network, as each iteration of a run exports its network again.
After each chunk the RSS is sampled (psutil when installed, else ``VmRSS`` of
/proc/self/status). The growth is measured from the end of the warm-up (``--warmup``, a share
of the games: allocators, caches and ONNX Runtime's arenas settle there) to the end, and given
per 1,000 games. The network keeps its random initial weights: what it plays does not matter
here, only that every evaluation goes through it.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import torch

import pyaz
from pyaz.nets import PolicyValueNet, net_config_for
from pyaz.nets.runtimes import make_evaluator


def rss_mib() -> float:
    """This process's resident set size in MiB."""
    try:
        import psutil  # type: ignore[import-untyped, unused-ignore]
    except ImportError:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0  # kB
        raise RuntimeError("no psutil and no VmRSS in /proc/self/status: install psutil") from None
    return float(psutil.Process().memory_info().rss) / 2**20


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000, help="self-play games in all")
    parser.add_argument("--every", type=int, default=250, help="games per chunk (RSS sample)")
    parser.add_argument("--simulations", type=int, default=25, help="MCTS simulations a move")
    parser.add_argument("--size", type=int, default=6, help="Othello board size")
    parser.add_argument("--net", default="tiny", help="network preset")
    parser.add_argument("--parallel-games", type=int, default=32)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--warmup", type=float, default=0.1, help="share of games before the base")
    parser.add_argument("--reuse-evaluator", action="store_true", help="one ONNX session only")
    parser.add_argument("--seed", type=int, default=0)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.games < 1 or args.every < 1 or not 0.0 <= args.warmup < 1.0:
        print("soak: --games and --every must be >= 1, --warmup in [0, 1)", file=sys.stderr)
        return 2
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    start = pyaz.make("othello", size=args.size)
    net = PolicyValueNet(net_config_for(start, args.net)).eval()
    shape = (net.config.planes, net.config.height, net.config.width)
    evaluator = make_evaluator(net, shape, "onnxruntime", threads=1)
    options = {
        "simulations": args.simulations,
        "parallel_games": args.parallel_games,
        "threads": args.threads,
    }
    warmup_games = int(args.games * args.warmup)
    print(f"soak: {args.games} games of Othello {args.size}x{args.size}, {args.simulations} sims")
    print(f"{'games':>8} {'positions':>10} {'RSS MiB':>9} {'games/s':>8}")
    began = time.perf_counter()
    played = positions = 0
    base: tuple[int, float] | None = (0, rss_mib()) if warmup_games == 0 else None
    samples: list[tuple[int, float]] = []
    while played < args.games:
        games = min(args.every, args.games - played)
        if not args.reuse_evaluator:
            evaluator = make_evaluator(net, shape, "onnxruntime", threads=1)
        player = pyaz.SelfPlay(start, seed=args.seed * 1_000_003 + played, **options)
        records = player.play(games, evaluator)
        played += games
        positions += records.num_positions
        del records, player
        rss = rss_mib()
        samples.append((played, rss))
        rate = played / (time.perf_counter() - began)
        print(f"{played:>8} {positions:>10} {rss:>9.1f} {rate:>8.1f}", flush=True)
        if base is None and played >= warmup_games:
            base = (played, rss)
    assert base is not None
    end_games, end_rss = samples[-1]
    growth = end_rss - base[1]
    span = end_games - base[0]
    per_thousand = growth / span * 1000 if span else 0.0
    peak = max(rss for _, rss in samples)
    print(
        f"soak: RSS {base[1]:.1f} MiB after the warm-up ({base[0]} games) -> {end_rss:.1f} MiB "
        f"after {end_games} games (peak {peak:.1f}): growth {growth:+.1f} MiB, "
        f"{per_thousand:+.2f} MiB per 1,000 games; {time.perf_counter() - began:.0f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
