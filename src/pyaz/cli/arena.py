"""``pyaz-arena``: a match between two players, with the result and the games written out.

Players are the presets of :mod:`pyaz.eval.presets` (``random``, ``uct:N``,
``model:PATH[:SIMS][:OPTIONS]``, ``gnugo:LEVEL``, ``gtp-rhino:LEVEL``, ``fairy-stockfish:SKILL``,
``gtp:...``, ``uci:...``, ...).
The games are played by :mod:`pyaz.eval.parallel` (in ``--parallel`` worker processes) and
written by :mod:`pyaz.eval.match_files`.

``--paired-with DIR`` (repeatable) compares A with the A of matches saved before from the same
openings (:mod:`pyaz.eval.paired`), and ``pyaz-arena paired DIR... --against DIR...`` compares
saved matches without playing.

``--out`` is checked before the first game (a folder that cannot be made or written in: a
one-line error, exit 2). The result is printed before the files are written; a write that
fails then (a full disk, a folder made read-only meanwhile) is one line on stderr naming the
file and the reason, and the exit status is 1 (the match was played; its files are not whole).
Each game is kept in ``--out``'s ``match.jsonl`` as it ends (:mod:`pyaz.eval.match_journal`):
the same command after a stop resumes the match.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from pyaz.cli import cannot_write, exit_from_main
from pyaz.cli.options import (
    add_game_arguments,
    add_runtime_argument,
    check_game_options,
    describe_game,
    given_game_options,
)
from pyaz.eval import presets
from pyaz.eval.match_files import check_writable, summary_of, write_games, write_summary
from pyaz.eval.match_journal import MatchJournal
from pyaz.eval.paired import load_summary, paired_difference
from pyaz.eval.parallel import MatchPlan, MatchWorker, play_games, start_state, tally
from pyaz.games import GameState, canonical_name


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
and summary.json (the players, the game, the tally, the interval, every game's result and
opening). --out is checked before the match (exit 2); the result is printed before the files
are written, and a write that fails then is a one-line error (exit 1).

paired comparison: --paired-with DIR compares A with the A of a match saved before in DIR
against the same B from the same openings (the same --seed, --openings and game), opening by
opening: A's score minus theirs, with a 95% bootstrap interval over the shared openings;
  pyaz-arena paired DIR [DIR ...] --against DIR [DIR ...]
does it for matches saved before, without playing (several folders a side are pooled:
runs of the same seed, or matches of other seeds; openings only one side played are left out).

examples:
  pyaz-arena random uct:200 --game othello --size 6 --games 40 --parallel 2
  pyaz-arena model:runs/o8 uct200 --game othello --games 100 --openings 4 --out arena/o8
  pyaz-arena model:runs/o8b uct200 --game othello --games 100 --openings 4 --paired-with arena/o8
  pyaz-arena paired arena/o8b --against arena/o8
  pyaz-arena model:runs/go5/nets/iter-00050.pt:200 gnugo:1 --game go --size 5 --games 20
  pyaz-arena model:runs/rk lichess:2 --game racingkings-mod --games 50 --out arena/rk
  pyaz-arena kr:64 rule --game curling --ends 2 --games 20
  pyaz-arena model:runs/curling/checkpoint.pt:64 kr:64 --game curling --games 20""",
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
    match.add_argument(
        "--ends", type=int, help="a game of ends (curling): ends a game (default the game's, 2)"
    )
    match.add_argument("--seed", type=int, default=0, help="seed of the openings and players")
    add_runtime_argument(match)
    match.add_argument(
        "--out",
        type=Path,
        help="folder for the games and summary.json; each game is kept in its match.jsonl as it "
        "ends, so the same command after a stop (Ctrl-C, a kill) plays only the games left, "
        "and a larger --games extends the match",
    )
    match.add_argument(
        "--paired-with",
        type=Path,
        action="append",
        default=[],
        metavar="DIR",
        help="a match saved before (its --out folder) with the same B, game, --seed and "
        "--openings: also print A's paired score difference against its A over the shared "
        "openings (repeatable: several are pooled)",
    )
    match.add_argument("--quiet", action="store_true", help="no progress bar")
    return parser


def _game(args: argparse.Namespace) -> tuple[str, dict[str, Any], GameState]:
    """(canonical game name, its options, the start state) of ``--game``, its options and
    ``--ends``; ValueError/TypeError for an option the game does not take or a bad value. The
    state is any registered game's."""
    name = canonical_name(args.game)
    options = given_game_options(args)
    if args.ends is not None:
        options["ends"] = args.ends
    check_game_options(name, options)
    return name, options, start_state(name, options)


def _check_players(plan: MatchPlan) -> tuple[str, str]:
    """Builds both players once, so that a bad spec, a missing engine or a player that does not
    play the game (``uct:N`` in curling) fails before the match; the names A and B go by."""
    worker = MatchWorker(plan)
    names = []
    try:
        for side, spec in enumerate((plan.a, plan.b)):
            player = worker.player(side, 0)
            if not presets.is_external(spec):  # an engine is told of the game when it plays
                player.reset(worker.start.clone())
            names.append(str(player.name))
    finally:
        worker.close()
    return names[0], names[1]


def _write_out(
    out: Path,
    plan: MatchPlan,
    start: GameState,
    games: list[dict[str, Any]],
    event: str,
    summary: dict[str, Any],
) -> bool:
    """Writes the games and summary.json into ``out`` and says so; False (after one line on
    stderr naming the file and the reason) if a write failed."""
    try:
        files = write_games(out, plan, start, games, event) if games else []
        summary["files"] = [str(path) for path in files]
        files.append(write_summary(out, summary))
    except OSError as error:
        print(f"pyaz-arena: {cannot_write(error, out)}; the result is above", file=sys.stderr)
        return False
    shown = [str(path) for path in files]
    if len(shown) > 3:
        shown = [*shown[:2], "...", shown[-1]]
    print("wrote " + ", ".join(shown))
    return True


def build_paired_parser() -> argparse.ArgumentParser:
    """The parser of ``pyaz-arena paired``."""
    parser = argparse.ArgumentParser(
        prog="pyaz-arena paired",
        description=(
            "Compare the A of matches saved by pyaz-arena --out, played against the same B\n"
            "from the same openings (the same --seed, --openings and game): A's score in the\n"
            "first folders minus A's score in the --against folders, opening by opening, with\n"
            "a 95% percentile bootstrap interval over the shared openings. The bootstrap holds\n"
            "the players fixed; pool several runs a side for the spread between runs."
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="example:\n  pyaz-arena paired arena/new-seed1 arena/new-seed2 "
        "--against arena/old-seed1 arena/old-seed2",
    )
    parser.add_argument("x", nargs="+", type=Path, metavar="DIR", help="the matches compared")
    parser.add_argument(
        "--against", nargs="+", type=Path, required=True, metavar="DIR", help="the baseline"
    )
    parser.add_argument(
        "--seed", type=int, default=0, help="seed of the bootstrap resamples (default 0)"
    )
    return parser


def _paired_main(argv: list[str]) -> int:
    args = build_paired_parser().parse_args(argv)
    try:
        x = [load_summary(folder) for folder in args.x]
        y = [load_summary(folder) for folder in args.against]
        paired = paired_difference(x, y, seed=args.seed)
    except ValueError as problem:
        print(f"pyaz-arena paired: {problem}", file=sys.stderr)
        return 2
    print(f"A: {', '.join(s['a'] for s in x)}; against: {', '.join(s['a'] for s in y)}")
    print(f"B: {x[0]['b']}, {describe_game(x[0]['game'], x[0].get('game_options') or {})}")
    print(f"A's score {paired}")
    return 0


SUBCOMMANDS = {"paired": build_paired_parser}
"""The words that, first on the command line, start another mode of ``pyaz-arena``, and
their parsers."""


def _load_paired(folders: list[Path], plan: MatchPlan, start: GameState) -> list[dict[str, Any]]:
    """The summaries of ``--paired-with``, checked against this match before it is played:
    the same game, board, B, seed and opening plies (else no opening would be shared)."""
    summaries = [load_summary(folder) for folder in folders]
    expected = {
        "game": plan.game,
        "game_options": plan.options,
        "b": plan.b,
        "seed": plan.seed,
        "opening_plies": plan.opening_plies(start),
    }
    expected = json.loads(json.dumps(expected))  # as a summary.json holds them
    for summary in summaries:
        for key, value in expected.items():
            if summary.get(key) != value:
                raise ValueError(
                    f"--paired-with {summary['path']}: its {key} is {summary.get(key)!r}, "
                    f"this match's {value!r} (a paired match needs the same)"
                )
    return summaries


def _print_paired(summary: dict[str, Any], baselines: list[dict[str, Any]]) -> None:
    """Prints A's paired difference against ``baselines`` and adds it to ``summary``."""
    try:
        paired = paired_difference([dict(summary, path="this match")], baselines)
    except ValueError as problem:
        print(f"pyaz-arena: no paired difference: {problem}", file=sys.stderr)
        return
    where = ", ".join(baseline["path"] for baseline in baselines)
    print(f"paired with {where}: A's score {paired}")
    summary["paired_with"] = {"folders": [b["path"] for b in baselines], **vars(paired)}


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``pyaz-arena``; returns the exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["paired"]:
        return _paired_main(argv[1:])
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.openings is not None and args.openings < 0:
        parser.error("--openings must be >= 0")
    if args.parallel < 1:
        parser.error("--parallel must be at least 1")
    try:
        name, options, start = _game(args)
    except (ValueError, TypeError) as problem:
        parser.error(str(problem))
    plan = MatchPlan(
        args.a,
        args.b,
        name,
        options,
        args.openings,
        args.seed,
        games=args.games,
        runtime=args.runtime,
    )
    journal: MatchJournal | None = None
    try:
        plan.openings_for(start)
        baselines = _load_paired(args.paired_with, plan, start)
        names = _check_players(plan)
        if args.out is not None:
            check_writable(args.out)
            journal = MatchJournal.open(args.out, plan, start, names)
    except (ValueError, TypeError, OSError, RuntimeError) as problem:
        print(f"pyaz-arena: {problem}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted before the first game", file=sys.stderr)
        return 130
    try:
        return _play(args, plan, name, options, start, baselines, journal)
    finally:
        if journal is not None:
            journal.close()


def _play(
    args: argparse.Namespace,
    plan: MatchPlan,
    name: str,
    options: dict[str, Any],
    start: GameState,
    baselines: list[dict[str, Any]],
    journal: MatchJournal | None,
) -> int:
    """Plays the match (the games not in ``journal``), prints and writes its result."""
    played = {} if journal is None else journal.played
    parallel = max(1, min(args.parallel, args.games - len(played)))  # workers for the games left
    plan = replace(plan, torch_threads=1 if parallel > 1 else 0)  # one thread a worker, or torch's
    event = f"{plan.a} vs {plan.b}, {describe_game(name, options)}"
    colour_note = "colours alternating"
    plies = plan.opening_plies(start)
    if plies:
        colour_note += f", pairs of games from shared {plies}-ply random openings"
    print(f"{event}: {args.games} games, {colour_note}, {parallel} worker(s)", flush=True)
    if journal is not None and (played or journal.beyond):
        beyond = journal.beyond
        more = f" ({beyond} more beyond --games {args.games} left out)" if beyond else ""
        print(
            f"resuming: {len(played)} of the {args.games} games played before, "
            f"read from {journal.path}{more}",
            flush=True,
        )
    began = time.perf_counter()
    games, error = play_games(
        plan,
        args.games,
        parallel,
        progress=not args.quiet,
        played=played,
        on_game=None if journal is None else journal.append,
    )
    seconds = time.perf_counter() - began
    result = tally(plan, games)
    summary = summary_of(plan, result, games, args.games, parallel, seconds, [])
    summary["games_resumed"] = len(played)
    summary["game_seconds"] = round(sum(game["seconds"] for game in games), 3)  # every session's
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
    if baselines and games:
        _print_paired(summary, baselines)
    written = args.out is None or _write_out(args.out, plan, start, games, event, summary)
    resume = "" if journal is None else f"; the same command resumes it ({journal.path})"
    if isinstance(error, KeyboardInterrupt):
        print(f"interrupted after {result.n} of {args.games} games{resume}", file=sys.stderr)
        return 130
    if error is not None:
        print(
            f"pyaz-arena: the match stopped after {result.n} games: {error}{resume}",
            file=sys.stderr,
        )
        return 1
    return 0 if written else 1


if __name__ == "__main__":
    exit_from_main(main)
