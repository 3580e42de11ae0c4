"""KR-DL-UCT against DL-UCT with equal simulations per shot: seed 002's comparison (Figure 3).

Both searches get the same leaf evaluator, so the difference is the search: KR-DL-UCT (kernel
regression over continuous targets, k initial actions from the prior, progressive widening) and
DL-UCT (PUCT over the 2048 grid actions, C = 1). The games have GAT execution noise; the two
programs alternate the first-end hammer, and a tied game counts as half a win. Evaluators:

- ``uniform``: a uniform prior over the grid and the house score as if the end finished now;
- ``net``: the curling network (``--channels``/``--blocks``), optionally trained first on
  ``--train-games`` games of the rule-based player (``pyaz.curling.net.supervised_start``);
  KR-DL-UCT samples its k actions from p^(1/tau) with the seed's tau, DL-UCT uses p as its prior.

``--win-table seed002`` values every leaf (finished ends included) by the game win rate through
seed 002's Table 1 instead of the end score.

Run (small; it prints one line per game and the win rate with a Wilson 95% interval)::

    python bench/curling_compare.py --games 20 --simulations 100 --ends 2 --evaluator uniform
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from pyaz import curling
from pyaz.curling.dl_uct import dl_uct_player
from pyaz.curling.matches import MatchSettings, Outcome, game_outcome, summarise

_GRID = np.array(
    [[t.x, t.y, t.spin] for t in map(curling.action_to_target, range(curling.NUM_ACTIONS))]
)
_UNIFORM = np.full(curling.NUM_ACTIONS, 1.0 / curling.NUM_ACTIONS)


def uniform_evaluator(state: curling.GameState) -> tuple[float, np.ndarray, np.ndarray]:
    """House-score leaves and a uniform prior over the grid targets."""
    return float(curling.house_value_team0(state)), _GRID, _UNIFORM


def uniform_win_rate_evaluator(
    table: np.ndarray,
) -> curling.LeafEvaluatorFn:
    """A uniform prior, and leaves valued by team 0's win rate (minus 0.5) through the multi-end
    table, from the house score as if the end finished now."""

    def evaluate(state: curling.GameState) -> tuple[float, np.ndarray, np.ndarray]:
        bins = curling.house_score_distribution(state)
        return curling.state_win_rate(state, bins, table) - 0.5, _GRID, _UNIFORM

    return evaluate


def _players(
    args: argparse.Namespace,
) -> tuple[curling.Player, curling.Player, dict[str, object]]:
    info: dict[str, object] = {}
    table = curling.seed002_table() if args.win_table == "seed002" else None
    if args.evaluator == "uniform":
        kr_eval: curling.LeafEvaluatorFn = uniform_evaluator
        if table is not None:
            kr_eval = uniform_win_rate_evaluator(table)
        dl_eval: curling.LeafEvaluatorFn = kr_eval
    else:
        import torch

        from pyaz.curling.net import CurlingNet, kr_dl_evaluator, supervised_start

        torch.set_num_threads(args.threads)
        torch.manual_seed(args.seed)
        if args.net is not None:  # a network a training run saved
            from pyaz.curling.loop import load_curling_net

            net = load_curling_net(args.net)
            info["net"] = str(args.net)
        else:
            net = CurlingNet(channels=args.channels, blocks=args.blocks)
        if args.net is None and args.train_games > 0:
            losses = supervised_start(
                net, games=args.train_games, steps=args.train_steps, num_ends=1, seed=args.seed
            )
            info["train_loss_first_last"] = [losses[0], losses[-1]]
        kr_eval = kr_dl_evaluator(net, win_table=table)
        dl_eval = kr_dl_evaluator(net, tau_fgz=1.0, tau=1.0, win_table=table)
    finished = table is not None  # win-rate leaves: finished ends go through the table too
    kr = curling.kr_uct_player(args.simulations, kr_eval, evaluate_finished_ends=finished)
    dl = dl_uct_player(args.simulations, dl_eval, evaluate_finished_ends=finished)
    return kr, dl, info


def main(argv: list[str] | None = None) -> dict[str, object]:
    """Plays the match and prints (and optionally writes as JSON) the result."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--simulations", type=int, default=100)
    parser.add_argument("--ends", type=int, default=2)
    parser.add_argument("--evaluator", choices=["uniform", "net"], default="uniform")
    parser.add_argument("--channels", type=int, default=32)
    parser.add_argument("--blocks", type=int, default=9)
    parser.add_argument(
        "--net",
        type=Path,
        default=None,
        help="with --evaluator net: a network saved by pyaz-selfplay --game curling "
        "(RUN/nets/iter-NNNNN.pt) instead of a fresh one",
    )
    parser.add_argument("--train-games", type=int, default=0)
    parser.add_argument("--train-steps", type=int, default=200)
    parser.add_argument("--win-table", choices=["none", "seed002"], default="none")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)

    kr, dl, info = _players(args)
    settings = MatchSettings(ends=args.ends)  # GAT noise, FCV1 physics, no extra ends
    outcomes: list[Outcome] = []
    start = time.perf_counter()
    for game in range(args.games):
        # KR-DL-UCT throws first in the first end of even games (team 1 has the hammer)
        outcomes.append(game_outcome(kr, dl, game, settings, seed=args.seed * 1000))
        print(
            f"game {game + 1}: KR-DL-UCT {'first' if game % 2 == 0 else 'hammer'} "
            f"{outcomes[-1].result}  running {summarise(outcomes)['win_ratio'] * (game + 1):.1f}"
            f"/{game + 1}",
            flush=True,
        )
    summary = summarise(outcomes)
    wins, draws, losses = summary["wins"], summary["draws"], summary["losses"]
    score = wins + 0.5 * draws
    low, high = summary["wilson_low"], summary["wilson_high"]
    result: dict[str, object] = {
        "games": args.games,
        "distinct_games": summary["eval_distinct_games"],
        "simulations": args.simulations,
        "ends": args.ends,
        "evaluator": args.evaluator,
        "win_table": args.win_table,
        "kr_wins": wins,
        "draws": draws,
        "dl_wins": losses,
        "kr_win_rate": score / max(args.games, 1),
        "wilson_95": [low, high],
        "seconds": time.perf_counter() - start,
        **info,
    }
    print(
        f"KR-DL-UCT vs DL-UCT, {args.simulations} simulations, {args.ends}-end games: "
        f"{wins}W {draws}D {losses}L = {100 * score / max(args.games, 1):.1f}% "
        f"(95% Wilson {100 * low:.1f}-{100 * high:.1f}%)"
    )
    if args.json is not None:
        args.json.write_text(json.dumps(result, indent=2))
    return result


if __name__ == "__main__":
    main()
