"""``pyaz-uci``: pyaz as a UCI engine for Racing Kings on stdin/stdout.

Plug it into a UCI GUI or match runner (cutechess-cli, python-chess's ``chess.engine``) as the
command ``pyaz-uci --game racingkings [--model PATH]``; the GUI selects the variant with
``setoption name UCI_Variant value racingkings``. Logging goes to stderr only.
"""

from __future__ import annotations

import argparse
import logging
import sys

from pyaz.cli import exit_from_main, options
from pyaz.engines.search import setup_logging
from pyaz.engines.uci_server import DEPTH_SIMULATIONS, MAX_MOVE_OVERHEAD, MAX_NODES, UciServer
from pyaz.games.profiles import DEFAULT_UCI_GAME, games_where

DEFAULT_NODES = 1000


def build_parser() -> argparse.ArgumentParser:
    """The command-line options of ``pyaz-uci``."""
    games = games_where(lambda game: bool(game.uci_variant))  # the games UCI engines play
    parser = argparse.ArgumentParser(
        prog="pyaz-uci",
        description=(
            "Run pyaz as a UCI engine for Racing Kings on stdin/stdout. Without --model it plays "
            "UCT with random rollouts; with --model, PUCT guided by the network. The search "
            "tree is kept across moves. Commands: uci (option UCI_Variant = racingkings, Nodes, "
            "Move Overhead), isready, ucinewgame, setoption, position startpos|fen FEN "
            "[moves ...], go [nodes N] [movetime MS] [depth D] [wtime/btime/winc/binc/movestogo] "
            f"[infinite], stop, d, quit. 'go depth D' runs D*{DEPTH_SIMULATIONS} simulations; "
            "'go' alone runs --nodes. Each search reports 'info nodes ... score cp ... pv' and "
            "'bestmove', or 'bestmove (none)' when the game is over."
        ),
    )
    parser.add_argument(
        "--game",
        choices=games,
        default=DEFAULT_UCI_GAME,
        help=f"the game (UCI variant) to play: {', '.join(games)} (default: {DEFAULT_UCI_GAME})",
    )
    options.add_model_arguments(parser)
    parser.add_argument(
        "--nodes",
        type=int,
        default=DEFAULT_NODES,
        help=f"simulations of a 'go' without limits (default: {DEFAULT_NODES}); the GUI can "
        "change it with the Nodes option",
    )
    parser.add_argument(
        "--move-overhead",
        type=int,
        default=30,
        metavar="MS",
        help="milliseconds kept back from every clock budget for the I/O (default: 30)",
    )
    options.add_search_arguments(parser)
    parser.add_argument(
        "--name", default="pyaz", help="the engine name sent in 'id name' (default: pyaz)"
    )
    options.add_logging_arguments(parser)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``pyaz-uci``; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    setup_logging("pyaz-uci", verbose=args.verbose, quiet=args.quiet)
    if args.nodes < 1:
        parser.error(f"--nodes must be >= 1, got {args.nodes}")
    if args.nodes > MAX_NODES:
        parser.error(f"--nodes must be <= {MAX_NODES}, got {args.nodes}")
    if not 0 <= args.move_overhead <= MAX_MOVE_OVERHEAD:
        parser.error(f"--move-overhead must be in 0..{MAX_MOVE_OVERHEAD}, got {args.move_overhead}")
    options.check_search_arguments(parser, args)
    try:
        model = options.load_engine_model(args.model, args.game)  # torch loads only with --model
        engine = options.engine_from_arguments(args, model)  # ValueError: runtime and model
    except ValueError as error:
        print(f"pyaz-uci: {error}", file=sys.stderr)
        return 2

    def write(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    server = UciServer(
        engine, write, nodes=args.nodes, move_overhead_ms=args.move_overhead, name=args.name
    )
    logging.getLogger("pyaz.engines.uci").info(
        "ready: %s, %s, %d simulations per plain go", args.game, engine.description, args.nodes
    )
    return options.serve_stdio(server, server.stop)


if __name__ == "__main__":
    exit_from_main(main)
