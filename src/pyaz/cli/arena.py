"""``pyaz-arena``: a match between two players, with the result and the games written out.

Players are the presets of :mod:`pyaz.eval.presets` (``random``, ``uct:N``, ``model:PATH[:SIMS]``,
``gnugo:LEVEL``, ``gtp-rhino:LEVEL``, ``fairy-stockfish:SKILL``, ``gtp:...``, ``uci:...``, ...).
The games are played by :mod:`pyaz.eval.parallel` (in ``--parallel`` worker processes) and
written by :mod:`pyaz.eval.match_files`.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from pyaz.cli.options import (
    add_game_arguments,
    add_runtime_argument,
    describe_game,
    game_from_args,
)
from pyaz.eval import presets
from pyaz.eval.match_files import summary_of, write_games
from pyaz.eval.parallel import MatchPlan, MatchWorker, play_games, tally


def build_parser() -> argparse.ArgumentParser:
    """The ``pyaz-arena`` argument parser."""
    parser = argparse.ArgumentParser(
        prog="pyaz-arena",
        description=(
            "Play a match between two players A and B and report A's wins/draws/losses, its\n"
            "win ratio (draws count half) and the 95% Wilson score interval with continuity\n"
            "correction. Colours alternate: A moves first in games 1, 3, 5, ..."
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=presets.PRESETS_HELP
        + """

output (--out DIR): game-0001.sgf ... for go, games.pgn for racingkings, games.txt (one game
per line: moves, then 1-0 / 0-1 / 1/2-1/2 from the first player's side) for the other games,
and summary.json (the players, the game, the tally, the interval, every game's result).

examples:
  pyaz-arena random uct:200 --game othello --size 6 --games 40 --parallel 2
  pyaz-arena model:runs/o8 uct200 --game othello --games 100 --openings 4 --out arena/o8
  pyaz-arena model:runs/go5/nets/iter-00050.pt:200 gnugo:1 --game go --size 5 --games 20
  pyaz-arena model:runs/rk lichess:2 --game racingkings-mod --games 50 --out arena/rk""",
    )
    parser.add_argument("a", metavar="A", help="player A (a preset, see below)")
    parser.add_argument("b", metavar="B", help="player B")
    add_game_arguments(parser)
    match = parser.add_argument_group("match")
    match.add_argument("--games", type=int, default=10, help="number of games (default 10)")
    match.add_argument(
        "--openings",
        type=int,
        default=None,
        metavar="K",
        help="start every pair of games from the same K uniformly random plies, played once "
        "with each colour order; the openings of a match differ (default: the game's, "
        "othello 4, the others 2; 0: every game from the start position, so that two "
        "deterministic players repeat one game per colour order)",
    )
    match.add_argument(
        "--parallel",
        type=int,
        default=1,
        metavar="P",
        help="worker processes, each with its own players and engines (default 1)",
    )
    match.add_argument("--seed", type=int, default=0, help="seed of the openings and players")
    add_runtime_argument(match)
    match.add_argument("--out", type=Path, help="folder for the games and summary.json")
    match.add_argument("--quiet", action="store_true", help="no progress bar")
    return parser


def _check_players(plan: MatchPlan) -> None:
    """Builds both players once, so that a bad spec or a missing engine fails before the match."""
    worker = MatchWorker(plan)
    try:
        worker.player(0, 0)
        worker.player(1, 0)
    finally:
        worker.close()


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``pyaz-arena``; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.openings is not None and args.openings < 0:
        parser.error("--openings must be >= 0")
    if args.parallel < 1:
        parser.error("--parallel must be at least 1")
    try:
        name, options, start = game_from_args(args)
    except (ValueError, TypeError) as problem:
        parser.error(str(problem))
    parallel = min(args.parallel, args.games)
    plan = MatchPlan(
        args.a,
        args.b,
        name,
        options,
        args.openings,
        args.seed,
        torch_threads=1 if parallel > 1 else 0,
        games=args.games,
        runtime=args.runtime,
    )
    try:
        plan.openings_for(start)
        _check_players(plan)
    except (ValueError, TypeError, OSError, RuntimeError) as problem:
        print(f"pyaz-arena: {problem}", file=sys.stderr)
        return 2
    event = f"{plan.a} vs {plan.b}, {describe_game(name, options)}"
    colour_note = "colours alternating"
    plies = plan.opening_plies(start)
    if plies:
        colour_note += f", pairs of games from shared {plies}-ply random openings"
    print(f"{event}: {args.games} games, {colour_note}, {parallel} worker(s)", flush=True)
    began = time.perf_counter()
    games, error = play_games(plan, args.games, parallel, progress=not args.quiet)
    seconds = time.perf_counter() - began
    result = tally(plan, games)
    files: list[Path] = []
    if args.out is not None and games:
        files = write_games(args.out, plan, start, games, event)
    summary = summary_of(plan, result, games, args.games, parallel, seconds, files)
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        summary_path = args.out / "summary.json"
        summary_path.write_text(json.dumps(summary, indent=2) + "\n")
        files.append(summary_path)
    first, second = summary["a_as_first"], summary["a_as_second"]
    lower, upper = summary["wilson_95_cc"]
    print(
        f"{plan.a}: {result.a_wins} wins, {result.draws} draws, {result.b_wins} losses "
        f"against {plan.b} in {result.n} games (as first: +{first['wins']} ={first['draws']} "
        f"-{first['losses']}; as second: +{second['wins']} ={second['draws']} "
        f"-{second['losses']})"
    )
    print(f"{result.distinct_games} distinct games of {result.n}")
    print(
        f"win ratio of {plan.a}: {result.score:.3f} (draws count half), 95% Wilson interval "
        f"with continuity correction [{lower:.3f}, {upper:.3f}]; {seconds:.1f} s"
    )
    if files:
        shown = files if len(files) <= 3 else [*files[:2], "...", files[-1]]
        print("wrote " + ", ".join(str(path) for path in shown))
    if isinstance(error, KeyboardInterrupt):
        print(f"interrupted after {result.n} of {args.games} games", file=sys.stderr)
        return 130
    if error is not None:
        print(f"pyaz-arena: the match stopped after {result.n} games: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
