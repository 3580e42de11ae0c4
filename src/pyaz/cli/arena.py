"""``pyaz-arena``: a match between two players, with the result and the games written out.

Players are the presets of :mod:`pyaz.opponents` (``random``, ``uct:N``, ``model:PATH[:SIMS]``,
``gnugo:LEVEL``, ``gtp-rhino:LEVEL``, ``fairy-stockfish:SKILL``, ``gtp:...``, ``uci:...``, ...).
Game ``i`` (from 0) has A moving first when ``i`` is even; with ``--openings K`` games ``2k`` and
``2k + 1`` both start after the same ``K`` uniformly random plies (as
:func:`pyaz.arena.play_match` draws them), once with each colour order. With ``--parallel P`` the
games are shared among P worker processes, each building its own players from the specs (so
every worker runs its own engine subprocesses).

Players that live in Python (random, UCT, models) are built afresh for every game with a seed
derived from ``--seed``, the game's number and the side, so their games do not depend on
``--parallel``; external engines are started once per worker and keep their own randomness.

The games go to ``--out``: one SGF file per game for Go, ``games.pgn`` for Racing Kings,
``games.txt`` (one game per line) for the other games, and ``summary.json`` with the tally,
the win ratio, its Wilson interval and every game's result.
"""

from __future__ import annotations

import argparse
import datetime
import json
import multiprocessing
import multiprocessing.util
import random
import sys
import time
from collections.abc import Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pyaz import arena, opponents
from pyaz._core import Status
from pyaz.games import GAMES, GameState, canonical_name, make

# (flag, option name in pyaz.GAMES, type, help); a flag only applies to games with that option.
GAME_FLAGS: list[tuple[str, str, Any, str]] = [
    ("--size", "size", int, "board size: othello 4..8, gomoku 5..15, go 5..19"),
    ("--width", "width", int, "connect_four width (default 7)"),
    ("--height", "height", int, "connect_four height (default 6)"),
    ("--line-length", "line_length", int, "gomoku: stones in a row that win (default 5)"),
    ("--komi", "komi", float, "go: komi (default 7.5 from 9x9 up, 0 below)"),
    ("--max-game-length", "max_game_length", int, "go: length cap in moves (default 3*size^2)"),
    ("--start", "start", str, "racingkings: 'standard', 'racingkings-mod' or a FEN"),
]
# (flag, option name, its value when the flag is given, help)
GAME_SWITCHES: list[tuple[str, str, bool, str]] = [
    ("--superko", "superko", True, "go: positional superko"),
    ("--allow-suicide", "allow_suicide", True, "go: suicide of 2+ stones is legal"),
    ("--exact-length", "overline_wins", False, "gomoku: only exactly line-length in a row wins"),
]


def add_game_arguments(parser: argparse.ArgumentParser) -> None:
    """``--game`` and the game options (shared with ``pyaz-play``)."""
    names = ", ".join(sorted(GAMES))
    group = parser.add_argument_group("game")
    group.add_argument("--game", required=True, help=f"the game: {names} (or an alias)")
    for flag, _, kind, text in GAME_FLAGS:
        group.add_argument(flag, type=kind, help=text)
    for flag, _, _, text in GAME_SWITCHES:
        group.add_argument(flag, action="store_true", help=text)


def game_from_args(args: argparse.Namespace) -> tuple[str, dict[str, Any], GameState]:
    """(canonical game name, its options, the start state); ValueError for unfit options."""
    name = canonical_name(args.game)
    allowed = GAMES[name].options
    options: dict[str, Any] = {}
    for flag, key, _, _ in GAME_FLAGS:
        given = getattr(args, key)
        if given is not None:
            if key not in allowed:
                raise ValueError(f"{flag} does not apply to {name}")
            options[key] = given
    for flag, key, value, _ in GAME_SWITCHES:
        if getattr(args, flag[2:].replace("-", "_")):
            if key not in allowed:
                raise ValueError(f"{flag} does not apply to {name}")
            options[key] = value
    return name, options, make(name, **options)


def describe_game(name: str, options: dict[str, Any]) -> str:
    """``"go (size=9, komi=7.5)"``."""
    if not options:
        return name
    return f"{name} ({', '.join(f'{k}={v}' for k, v in options.items())})"


# --------------------------------------------------------------------------- playing


@dataclass(frozen=True)
class MatchPlan:
    """Everything a worker needs to play any game of the match."""

    a: str
    b: str
    game: str
    options: dict[str, Any] = field(default_factory=dict)
    openings: int = 0
    seed: int = 0
    torch_threads: int = 0

    def a_first(self, index: int) -> bool:
        """A moves first in the even-numbered games."""
        return index % 2 == 0

    def opening(self, index: int, start: GameState) -> list[int]:
        """The random opening of game ``index``, shared by the pair (2k, 2k + 1)."""
        if not self.openings:
            return []
        rng = random.Random(self.seed * 1_000_003 + index // 2)
        return arena.random_opening(start, self.openings, rng)

    def player_seed(self, index: int, side: int) -> int:
        """The seed of player A (side 0) or B (side 1) in game ``index``."""
        return (self.seed * 1_000_003 + index) * 2 + side


class MatchWorker:
    """Plays games of a :class:`MatchPlan` in this process (one per worker process)."""

    def __init__(self, plan: MatchPlan) -> None:
        self.plan = plan
        self.start = make(plan.game, **plan.options)
        self._engines: dict[int, arena.Player] = {}
        if plan.torch_threads > 0 and any(
            opponents.spec_kind(spec) == "model" for spec in (plan.a, plan.b)
        ):
            import torch

            torch.set_num_threads(plan.torch_threads)

    def player(self, side: int, index: int) -> arena.Player:
        """Player A (side 0) or B (side 1) for game ``index``."""
        spec = (self.plan.a, self.plan.b)[side]
        if opponents.is_external(spec):
            if side not in self._engines:
                self._engines[side] = opponents.make_player(
                    spec, self.start, seed=self.plan.player_seed(0, side)
                )
            return self._engines[side]
        return opponents.make_player(spec, self.start, seed=self.plan.player_seed(index, side))

    def play(self, index: int) -> dict[str, Any]:
        """Plays game ``index``; its record as plain data (picklable)."""
        began = time.perf_counter()
        a_first = self.plan.a_first(index)
        opening = self.plan.opening(index, self.start)
        a, b = self.player(0, index), self.player(1, index)
        first, second = (a, b) if a_first else (b, a)
        outcome = opponents.play_game(first, second, self.start, opening)
        record = outcome.record
        return {
            "index": index,
            "a_first": a_first,
            "first": record.first,
            "second": record.second,
            "opening": record.opening,
            "actions": record.actions,
            "status": record.status.name,
            "winner": record.winner,
            "resigned": outcome.resigned,
            "seconds": round(time.perf_counter() - began, 3),
        }

    def close(self) -> None:
        """Shuts down the engines this worker started."""
        for player in self._engines.values():
            opponents.close_player(player)
        self._engines.clear()


_WORKER: MatchWorker | None = None


def _init_worker(plan: MatchPlan) -> None:
    global _WORKER
    _WORKER = MatchWorker(plan)
    multiprocessing.util.Finalize(_WORKER, _WORKER.close, exitpriority=10)


def _play_in_worker(index: int) -> dict[str, Any]:
    assert _WORKER is not None, "worker not initialised"
    return _WORKER.play(index)


def play_games(
    plan: MatchPlan, games: int, parallel: int = 1, progress: bool = True
) -> tuple[list[dict[str, Any]], BaseException | None]:
    """Plays games 0..games-1 of ``plan``; (the finished games by index, the error if any).

    An error in one game (or Ctrl-C) stops the match; the games finished so far come back.
    """
    from tqdm import tqdm

    done: dict[int, dict[str, Any]] = {}
    bar = tqdm(total=games, desc=f"{plan.a} vs {plan.b}", unit="game", disable=not progress)
    tally = [0, 0, 0]

    def count(game: dict[str, Any]) -> None:
        done[game["index"]] = game
        winner = game["winner"]
        tally[1 if winner is None else (0 if (winner == 0) == game["a_first"] else 2)] += 1
        bar.update(1)
        bar.set_postfix_str(f"A +{tally[0]} ={tally[1]} -{tally[2]}")

    error: BaseException | None = None
    try:
        if parallel <= 1:
            worker = MatchWorker(plan)
            try:
                for index in range(games):
                    count(worker.play(index))
            finally:
                worker.close()
        else:
            context = multiprocessing.get_context("spawn")
            with ProcessPoolExecutor(
                max_workers=parallel,
                mp_context=context,
                initializer=_init_worker,
                initargs=(plan,),
            ) as pool:
                futures: list[Future[dict[str, Any]]] = [
                    pool.submit(_play_in_worker, index) for index in range(games)
                ]
                try:
                    for future in as_completed(futures):
                        count(future.result())
                except BaseException:
                    for future in futures:
                        future.cancel()
                    raise
    except (Exception, KeyboardInterrupt) as caught:
        error = caught
    finally:
        bar.close()
    return [done[i] for i in sorted(done)], error


def tally(plan: MatchPlan, games: list[dict[str, Any]]) -> arena.MatchResult:
    """The games as a :class:`pyaz.arena.MatchResult` from A's side."""
    result = arena.MatchResult(a_name=plan.a, b_name=plan.b)
    for game in games:
        record = arena.GameRecord(
            list(game["actions"]),
            getattr(Status, game["status"]),
            game["winner"],
            game["first"],
            game["second"],
            list(game["opening"]),
        )
        result.add(record, game["a_first"])
    return result


# --------------------------------------------------------------------------- writing games


def result_token(game: dict[str, Any]) -> str:
    """PGN-style result from the first player's side: 1-0, 0-1 or 1/2-1/2."""
    winner = game["winner"]
    return "1/2-1/2" if winner is None else ("1-0" if winner == 0 else "0-1")


def _sgf_text(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")


def write_sgf_games(
    out: Path, start: GameState, games: list[dict[str, Any]], event: str
) -> list[Path]:
    """One SGF file per game (``game-0001.sgf``, ...), with the players and the result."""
    paths = []
    for game in games:
        moves = [*game["opening"], *game["actions"]]
        result = None
        if game["resigned"] is not None:
            result = f"{'BW'[1 - game['resigned']]}+R"
        text = start.to_sgf(moves, result=result)  # type: ignore[union-attr]
        extra = (
            f"PB[{_sgf_text(game['first'])}]PW[{_sgf_text(game['second'])}]"
            f"GN[{_sgf_text(event)}, game {game['index'] + 1}]"
        )
        if game["opening"]:
            extra += f"GC[{len(game['opening'])} random opening moves]"
        assert text.startswith("(;")
        path = out / f"game-{game['index'] + 1:04d}.sgf"
        path.write_text(text[:2] + extra + text[2:])
        paths.append(path)
    return paths


def pgn_game(start_fen: str, moves: Sequence[str], headers: dict[str, str], end: str) -> str:
    """A Racing Kings game as PGN: SAN moves via python-chess, or UCI moves without it.

    ``headers`` are the Seven Tag Roster values (Event, White, Black, Result, ...); ``end``
    becomes a comment after the last move (how the game ended).
    """
    standard = "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1"
    try:
        import chess.pgn
        import chess.variant
    except ImportError:
        lines = [f'[{key} "{value}"]' for key, value in headers.items()]
        lines.append('[Variant "Racing Kings"]')
        if start_fen != standard:
            lines += ['[SetUp "1"]', f'[FEN "{start_fen}"]']
        body = " ".join(moves) + f" {{{end}}} {headers['Result']}"
        return "\n".join(lines) + "\n\n" + body + "\n"
    board = chess.variant.RacingKingsBoard(start_fen)
    game = chess.pgn.Game.from_board(board)
    for key, value in headers.items():
        game.headers[key] = value
    node: chess.pgn.GameNode = game
    for move in moves:
        node = node.add_variation(chess.Move.from_uci(move))
    node.comment = end
    exporter = chess.pgn.StringExporter(headers=True, variations=False, comments=True)
    return str(game.accept(exporter)) + "\n"


def write_pgn_games(
    out: Path, start: GameState, games: list[dict[str, Any]], event: str
) -> list[Path]:
    """All games in ``games.pgn`` (Variant "Racing Kings", FEN for other starts)."""
    fen = str(start.fen())  # type: ignore[union-attr]
    date = datetime.date.today().strftime("%Y.%m.%d")
    parts = []
    for game in games:
        state = start.clone()
        moves = []
        for action in [*game["opening"], *game["actions"]]:
            moves.append(str(state.uci(action)))  # type: ignore[union-attr]
            state.apply(action)
        if game["resigned"] is not None:
            end = f"{('White', 'Black')[game['resigned']]} resigns"
        else:
            end = str(state.termination().name)  # type: ignore[union-attr]
        if game["opening"]:
            end += f"; the first {len(game['opening'])} plies were a random opening"
        headers = {
            "Event": event,
            "Site": "pyaz-arena",
            "Date": date,
            "Round": str(game["index"] + 1),
            "White": game["first"],
            "Black": game["second"],
            "Result": result_token(game),
        }
        parts.append(pgn_game(fen, moves, headers, end))
    path = out / "games.pgn"
    path.write_text("\n".join(parts))
    return [path]


def write_move_lists(
    out: Path, start: GameState, games: list[dict[str, Any]], event: str, a: str = "A", b: str = "B"
) -> list[Path]:
    """``games.txt``: one game per line, the moves as ``action_to_str`` text, then the result."""
    lines = [
        f"# {event}",
        "# one game per line, in game order: the moves from the start position (the random "
        "opening included), then the result from the first player's side (1-0, 0-1, 1/2-1/2;"
        " 'resign' before it when a side resigned)",
        f"# A = {a}, B = {b}: A moves first in games 1, 3, 5, ... (game lines 1, 3, 5, ...)",
    ]
    for game in games:
        state = start.clone()
        tokens = []
        for action in [*game["opening"], *game["actions"]]:
            tokens.append(str(state.action_to_str(action)))
            state.apply(action)
        if game["resigned"] is not None:
            tokens.append("resign")
        tokens.append(result_token(game))
        lines.append(" ".join(tokens))
    path = out / "games.txt"
    path.write_text("\n".join(lines) + "\n")
    return [path]


def write_games(
    out: Path, plan: MatchPlan, start: GameState, games: list[dict[str, Any]], event: str
) -> list[Path]:
    """Writes the games in the game's format; the files written."""
    out.mkdir(parents=True, exist_ok=True)
    if plan.game == "go":
        return write_sgf_games(out, start, games, event)
    if plan.game in ("racingkings", "racingkings-mod"):
        return write_pgn_games(out, start, games, event)
    return write_move_lists(out, start, games, event, plan.a, plan.b)


# --------------------------------------------------------------------------- command line


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
        epilog=opponents.PRESETS_HELP
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
        default=0,
        metavar="K",
        help="start every pair of games from the same K uniformly random plies, played once "
        "with each colour order (default 0: every game from the start position)",
    )
    match.add_argument(
        "--parallel",
        type=int,
        default=1,
        metavar="P",
        help="worker processes, each with its own players and engines (default 1)",
    )
    match.add_argument("--seed", type=int, default=0, help="seed of the openings and players")
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


def summary_of(
    plan: MatchPlan,
    result: arena.MatchResult,
    games: list[dict[str, Any]],
    requested: int,
    parallel: int,
    seconds: float,
    files: list[Path],
) -> dict[str, Any]:
    """The JSON summary of a match."""
    lower, upper = result.wilson_interval()
    by_colour = {"first": [0, 0, 0], "second": [0, 0, 0]}
    for game in games:
        key = "first" if game["a_first"] else "second"
        winner = game["winner"]
        by_colour[key][1 if winner is None else (0 if (winner == 0) == game["a_first"] else 2)] += 1
    return {
        "a": plan.a,
        "b": plan.b,
        "game": plan.game,
        "game_options": plan.options,
        "games_requested": requested,
        "games": result.n,
        "a_wins": result.a_wins,
        "draws": result.draws,
        "b_wins": result.b_wins,
        "a_score": result.score,
        "wilson_95_cc": [lower, upper],
        "a_as_first": dict(zip(("wins", "draws", "losses"), by_colour["first"], strict=True)),
        "a_as_second": dict(zip(("wins", "draws", "losses"), by_colour["second"], strict=True)),
        "openings": plan.openings,
        "seed": plan.seed,
        "parallel": parallel,
        "seconds": round(seconds, 3),
        "files": [str(path) for path in files],
        "results": [
            {
                "game": game["index"] + 1,
                "first": game["first"],
                "second": game["second"],
                "result": result_token(game),
                "winner": None
                if game["winner"] is None
                else (game["first"], game["second"])[game["winner"]],
                "status": game["status"],
                "resigned": game["resigned"],
                "plies": len(game["opening"]) + len(game["actions"]),
                "opening_plies": len(game["opening"]),
                "seconds": game["seconds"],
            }
            for game in games
        ],
    }


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``pyaz-arena``; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.openings < 0:
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
    )
    try:
        if args.openings:
            plan.opening(0, start)
        _check_players(plan)
    except (ValueError, TypeError, OSError, RuntimeError) as problem:
        print(f"pyaz-arena: {problem}", file=sys.stderr)
        return 2
    event = f"{plan.a} vs {plan.b}, {describe_game(name, options)}"
    colour_note = "colours alternating"
    if args.openings:
        colour_note += f", pairs of games from shared {args.openings}-ply random openings"
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
