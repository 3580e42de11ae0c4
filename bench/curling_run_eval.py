"""Evaluate the networks of a ``pyaz-selfplay --game curling`` run after the fact.

Plays KR-DL-UCT with the network of one iteration against the rule-based player, KR-UCT with
house-score leaves, or the network of another iteration, with the run's own settings (ends,
noise, physics, win table as of the end of the run), and prints the result as JSON::

    python bench/curling_run_eval.py runs/curling --iteration 14 --opponent rule-based --games 40
    python bench/curling_run_eval.py runs/curling --iteration 14 --opponent iter:0 --games 40
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
import torch

from pyaz import curling
from pyaz.curling import Player
from pyaz.curling.config import CurlingConfig
from pyaz.curling.loop import load_curling_net, read_config
from pyaz.curling.matches import MatchSettings, network_player, play_match, reference_player


def run_player(run: Path, iteration: int, config: CurlingConfig, simulations: int) -> Player:
    """KR-DL-UCT with the network of ``iteration`` and the run's win table (as of its end)."""
    table = None
    if config.win_table == "own":
        table = np.load(run / "win_table.npy")
    elif config.win_table == "seed002":
        table = curling.seed002_table()
    net = load_curling_net(run / "nets" / f"iter-{iteration:05d}.pt")
    return network_player(net, config, table, simulations)


def main(argv: list[str] | None = None) -> dict[str, object]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run", type=Path, help="the run folder")
    parser.add_argument("--iteration", type=int, required=True, help="network to evaluate")
    parser.add_argument(
        "--opponent",
        default="rule-based",
        help="rule-based, kr-uct (house-score leaves) or iter:N (the network of iteration N)",
    )
    parser.add_argument("--games", type=int, default=40, help="games (the hammer alternates)")
    parser.add_argument("--simulations", type=int, default=0, help="0: the run's --simulations")
    parser.add_argument("--seed", type=int, default=12345, help="first game's seed")
    parser.add_argument("--threads", type=int, default=1, help="PyTorch intra-op threads")
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    config = CurlingConfig(**read_config(args.run))
    simulations = args.simulations or config.simulations
    player = run_player(args.run, args.iteration, config, simulations)
    if args.opponent.startswith("iter:"):
        opponent = run_player(args.run, int(args.opponent[5:]), config, simulations)
    elif args.opponent in ("rule-based", "kr-uct"):
        opponent = reference_player(args.opponent, simulations)
    else:
        parser.error(f"unknown opponent {args.opponent!r}")
    began = time.perf_counter()
    settings = MatchSettings(config.ends, config.noise, config.physics, config.extra_ends)
    result = play_match(player, opponent, args.games, settings, seed=args.seed)
    out: dict[str, object] = {
        "run": str(args.run),
        "iteration": args.iteration,
        "opponent": args.opponent,
        "simulations": simulations,
        **result,
        "seconds": round(time.perf_counter() - began, 1),
    }
    print(json.dumps(out))
    return out


if __name__ == "__main__":
    main()
