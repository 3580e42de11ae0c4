"""``pyaz-demo``: two uniformly random players play a game, then many more are tallied (in C++
for pyaz's own games, by the game's own methods for one written in Python)."""

from __future__ import annotations

import argparse
import random
import sys
import time

import pyaz
from pyaz.cli import exit_from_main
from pyaz.cli.options import add_game_arguments, given_game_options
from pyaz.games import DEFAULT_GAME, BoardGameState, board_games, is_native


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pyaz-demo",
        description=(
            "Play one game between two uniformly random players and print it move by move, "
            "then play --games more random games (in C++ for pyaz's own games, by the game's "
            "own methods for one written in Python) and report the results and speed."
        ),
    )
    add_game_arguments(
        parser,
        required=False,
        game_help=f"a board game: {', '.join(board_games())}, a game written in Python (a "
        f"plug-in) or openspiel:NAME (default: {DEFAULT_GAME})",
    )
    parser.add_argument(
        "--games",
        type=int,
        default=10000,
        help="random games to tally after the shown one (default 10000)",
    )
    parser.add_argument("--seed", type=int, default=0, help="random seed, >= 0 (default 0)")
    parser.add_argument("--quiet", action="store_true", help="do not print the shown game's boards")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.games < 0:
        parser.error(f"--games must be >= 0, got {args.games}")
    if not 0 <= args.seed < 2**64:
        parser.error(f"--seed must be in 0..2**64-1, got {args.seed}")
    try:
        state = pyaz.make(args.game or DEFAULT_GAME, **given_game_options(args))
    except (ValueError, TypeError) as error:
        print(f"pyaz-demo: {error}", file=sys.stderr)
        return 2
    if not isinstance(state, BoardGameState):
        print(
            f"pyaz-demo: plays random board games; {state.name} has no list of legal actions to "
            "draw from",
            file=sys.stderr,
        )
        return 2
    rng = random.Random(args.seed)
    start = state.clone()
    written = getattr(state, "action_to_str", str)  # a game written in Python may not name moves
    moves = []
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        moves.append(str(written(action)))
        state.apply(action)
        if not args.quiet:
            print(f"{len(moves)}. {'XO'[1 - state.to_move()]} plays {moves[-1]}\n{state}")
    print(f"moves: {' '.join(moves)}")
    print(f"result: {state.status().name}")
    began = time.perf_counter()
    wins, draws, losses = pyaz.random_playouts(start, args.games, args.seed)
    seconds = time.perf_counter() - began
    where = "C++" if is_native(start) else "Python"
    print(
        f"{args.games} random games: first player {wins} wins, {draws} draws, {losses} losses "
        f"({args.games / max(seconds, 1e-9):,.0f} games/s in {where})"
    )
    return 0


if __name__ == "__main__":
    exit_from_main(main)
