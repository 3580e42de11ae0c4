"""``pyaz-gtp``: pyaz as a GTP (Go Text Protocol 2) engine on stdin/stdout, for Go or Othello.

Plug it into a GTP controller (Sabaki, GoGui, ``gogui-twogtp``, ``pyaz.engines.gtp.GtpEngine``)
as the command ``pyaz-gtp --game go --size 9 [--model PATH]``. Logging goes to stderr only.
"""

from __future__ import annotations

import argparse
import logging
import sys

from pyaz.cli import exit_from_main, options
from pyaz.engines.gtp_server import RULES, GtpServer
from pyaz.engines.search import setup_logging
from pyaz.games import GAMES
from pyaz.games.profiles import DEFAULT_GTP_GAME

DEFAULT_SIMULATIONS = 1000


def build_parser() -> argparse.ArgumentParser:
    """The command-line options of ``pyaz-gtp``."""
    parser = argparse.ArgumentParser(
        prog="pyaz-gtp",
        description=(
            "Run pyaz as a GTP version 2 engine on stdin/stdout. Without --model it plays UCT "
            "with random rollouts; with --model, PUCT guided by the network. The search tree "
            "is kept across moves. Commands: protocol_version, name, version, known_command, "
            "list_commands, quit, boardsize, clear_board, komi, play, genmove, reg_genmove, "
            "undo, showboard, final_score, time_settings, kgs-time_settings, time_left; for Go "
            "also final_status_list, kgs-genmove_cleanup and set_free_handicap. Go is scored "
            "by Tromp-Taylor area rules, Othello by discs."
        ),
    )
    parser.add_argument(
        "--game",
        choices=sorted(RULES),
        default=DEFAULT_GTP_GAME,
        help="the game to play: go (GTP vertices such as D4, row 1 at the bottom) or othello "
        f"(vertices such as D3, row 1 at the top, as gtp-rhino) (default: {DEFAULT_GTP_GAME})",
    )
    parser.add_argument(
        "--size",
        type=int,
        help="board size at start: go 5..19 (default 9), othello 4, 6 or 8 (default 8); "
        "the controller may change it with boardsize (with --model only the network's size)",
    )
    parser.add_argument(
        "--komi",
        type=float,
        help="Go komi at start (default 7.5 from 9x9 up, 0 below); the controller's komi "
        "command overrides it; ignored for othello",
    )
    options.add_model_arguments(parser)
    parser.add_argument(
        "--simulations",
        type=int,
        default=DEFAULT_SIMULATIONS,
        help=f"new search simulations per genmove (default: {DEFAULT_SIMULATIONS}); the "
        "clock and --max-seconds can stop a search earlier",
    )
    parser.add_argument(
        "--max-seconds",
        type=float,
        help="at most this many seconds per genmove (default: no limit beyond the clock set "
        "by time_settings/time_left)",
    )
    options.add_search_arguments(parser)
    parser.add_argument(
        "--resign-threshold",
        type=float,
        default=0.0,
        help="resign when the search's value for the engine is below minus this (in (0, 1]); "
        "0 (the default) never resigns",
    )
    parser.add_argument(
        "--superko", action="store_true", help="Go: forbid positional superko (default: simple ko)"
    )
    parser.add_argument(
        "--allow-suicide",
        action="store_true",
        help="Go: allow suicide of two or more stones (default: suicide is illegal)",
    )
    parser.add_argument(
        "--name", default="pyaz", help="the engine name answered to GTP 'name' (default: pyaz)"
    )
    options.add_logging_arguments(parser)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``pyaz-gtp``; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    setup_logging("pyaz-gtp", verbose=args.verbose, quiet=args.quiet)
    if not 1 <= args.simulations <= 2**30:
        parser.error(f"--simulations must be in 1..{2**30}, got {args.simulations}")
    if args.max_seconds is not None and args.max_seconds <= 0:
        parser.error("--max-seconds must be > 0")
    if not 0.0 <= args.resign_threshold <= 1.0:
        parser.error("--resign-threshold must be in [0, 1]")
    options.check_search_arguments(parser, args)
    go_options: dict[str, object] = {
        name: True for name in ("superko", "allow_suicide") if getattr(args, name)
    }
    fixed_size: int | None = None
    try:
        model = options.load_engine_model(args.model)  # torch loads only with --model
        if model is not None and model.config is not None:
            fixed_size = model.config.height
            if args.size is not None and args.size != fixed_size:
                parser.error(f"--size {args.size} differs from the network's {fixed_size}")
        if model is not None and "history" in GAMES[args.game].options:  # Go's earlier positions
            go_options["history"] = model.go_history()
        engine = options.engine_from_arguments(args, model)  # ValueError: runtime and model
        server = GtpServer(
            engine,
            game=args.game,
            size=args.size,
            komi=args.komi,
            simulations=args.simulations,
            max_seconds=args.max_seconds,
            resign_threshold=args.resign_threshold,
            fixed_size=fixed_size,
            go_options=go_options,
            name=args.name,
        )
        if model is not None:
            model.check(server.state)
            server.allowed_sizes = (server.rules.size,)  # the network plays one size
    except ValueError as error:
        print(f"pyaz-gtp: {error}", file=sys.stderr)
        return 2
    logging.getLogger("pyaz.engines.gtp").info(
        "ready: %s %dx%d, %s, %d simulations per move",
        args.game,
        server.rules.size,
        server.rules.size,
        engine.description,
        args.simulations,
    )
    return options.serve_stdio(server)


if __name__ == "__main__":
    exit_from_main(main)
