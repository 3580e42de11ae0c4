"""Match records written out in the format of the game's profile
(:attr:`~pyaz.games.profiles.GameProfile.record`): one SGF file per game (Go), ``games.pgn``
(Racing Kings), ``games.txt`` (one game per line) for the other games; and the JSON summary of a
match.

Files are UTF-8 whatever the locale; a write that fails raises ``OSError`` whose ``filename``
is the file being written (a full disk included, which Python reports without a name)."""

from __future__ import annotations

import datetime
import json
import re
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pyaz._core import Go, RacingKings
from pyaz.eval.arena import MatchResult
from pyaz.eval.parallel import MatchPlan, start_state
from pyaz.games import GameState
from pyaz.games.profiles import profile

__all__ = [
    "check_writable",
    "pgn_game",
    "result_token",
    "summary_of",
    "write_games",
    "write_summary",
    "write_text",
]


def check_writable(out: Path, option: str = "--out") -> None:
    """Makes the folder ``out`` and writes a byte in it, so that a folder that cannot be
    written fails before the work: OSError "cannot write in OPTION OUT (reason)" otherwise."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=out) as probe:
            probe.write(b"\n")
            probe.flush()
    except OSError as error:
        raise OSError(f"cannot write in {option} {out} ({error.strerror or error})") from None


def write_text(path: Path, text: str) -> None:
    """Writes ``text`` to ``path`` in UTF-8; an OSError always names ``path``."""
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        if error.filename is not None:
            raise
        raise OSError(error.errno, error.strerror or str(error), str(path)) from error


def result_token(game: dict[str, Any]) -> str:
    """PGN-style result from the first player's side: 1-0, 0-1 or 1/2-1/2."""
    winner = game["winner"]
    return "1/2-1/2" if winner is None else ("1-0" if winner == 0 else "0-1")


SGF_NAME = re.compile(r"game-\d{4,}\.sgf")
"""The name of a game's SGF file in a match folder."""


def _sgf_text(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")


def write_sgf_games(out: Path, start: Go, games: list[dict[str, Any]], event: str) -> list[Path]:
    """One SGF file per game (``game-0001.sgf``, ...), with the players and the result. The
    game files of an earlier, longer match in ``out`` (a match resumed with a smaller
    ``--games``) are removed: the folder holds the games its summary counts."""
    paths = []
    for game in games:
        moves = [*game["opening"], *game["actions"]]
        result = None
        if game["resigned"] is not None:
            result = f"{'BW'[1 - game['resigned']]}+R"
        text = start.to_sgf(moves, result=result)
        extra = (
            f"PB[{_sgf_text(game['first'])}]PW[{_sgf_text(game['second'])}]"
            f"GN[{_sgf_text(event)}, game {game['index'] + 1}]"
        )
        if game["opening"]:
            extra += f"GC[{len(game['opening'])} random opening moves]"
        assert text.startswith("(;")
        path = out / f"game-{game['index'] + 1:04d}.sgf"
        write_text(path, text[:2] + extra + text[2:])
        paths.append(path)
    for stale in set(out.glob("game-*.sgf")) - set(paths):
        if SGF_NAME.fullmatch(stale.name):
            stale.unlink()
    return paths


def pgn_game(start_fen: str, moves: Sequence[str], headers: dict[str, str], end: str) -> str:
    """A Racing Kings game as PGN, the moves in SAN (python-chess).

    ``headers`` are the Seven Tag Roster values (Event, White, Black, Result, ...); ``end``
    becomes a comment after the last move (how the game ended).
    """
    import chess.pgn
    import chess.variant

    game = chess.pgn.Game.from_board(chess.variant.RacingKingsBoard(start_fen))
    game.headers.update(headers)
    node: chess.pgn.GameNode = game
    for move in moves:
        node = node.add_variation(chess.Move.from_uci(move))
    node.comment = end
    exporter = chess.pgn.StringExporter(headers=True, variations=False, comments=True)
    return str(game.accept(exporter)) + "\n"


def write_pgn_games(
    out: Path, start: RacingKings, games: list[dict[str, Any]], event: str
) -> list[Path]:
    """All games in ``games.pgn`` (Variant "Racing Kings", FEN for other starts)."""
    fen = str(start.fen())
    date = datetime.date.today().strftime("%Y.%m.%d")
    parts = []
    for game in games:
        state = start.clone()
        moves = []
        for action in [*game["opening"], *game["actions"]]:
            moves.append(str(state.uci(action)))
            state.apply(action)
        if game["resigned"] is not None:
            end = f"{('White', 'Black')[game['resigned']]} resigns"
        else:
            end = str(state.termination().name)
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
    write_text(path, "\n".join(parts))
    return [path]


def write_move_lists(
    out: Path,
    start: GameState,
    games: list[dict[str, Any]],
    event: str,
    a: str = "A",
    b: str = "B",
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
            if not isinstance(action, int):  # a curling target: x,y,spin
                tokens.append(
                    ",".join(f"{v:.3f}" if isinstance(v, float) else str(v) for v in action)
                )
                continue
            tokens.append(str(state.action_to_str(action)))  # type: ignore[attr-defined]
            state.apply(action)
        if game["resigned"] is not None:
            tokens.append("resign")
        tokens.append(result_token(game))
        lines.append(" ".join(tokens))
    path = out / "games.txt"
    write_text(path, "\n".join(lines) + "\n")
    return [path]


def write_games(
    out: Path, plan: MatchPlan, start: GameState, games: list[dict[str, Any]], event: str
) -> list[Path]:
    """Writes the games in the game's format (its profile's record); the files written."""
    out.mkdir(parents=True, exist_ok=True)
    record = profile(plan.game).record  # SGF: Go's records, PGN: Racing Kings'
    if record == "sgf":
        return write_sgf_games(out, start, games, event)  # type: ignore[arg-type]
    if record == "pgn":
        return write_pgn_games(out, start, games, event)  # type: ignore[arg-type]
    return write_move_lists(out, start, games, event, plan.a, plan.b)


def write_summary(out: Path, summary: dict[str, Any]) -> Path:
    """``summary.json`` in ``out`` (made if missing); its path."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / "summary.json"
    write_text(path, json.dumps(summary, indent=2) + "\n")
    return path


def summary_of(
    plan: MatchPlan,
    result: MatchResult,
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
        "distinct_games": result.distinct_games,
        "a_wins": result.a_wins,
        "draws": result.draws,
        "b_wins": result.b_wins,
        "a_score": result.score,
        "wilson_95_cc": [lower, upper],
        "a_as_first": dict(zip(("wins", "draws", "losses"), by_colour["first"], strict=True)),
        "a_as_second": dict(zip(("wins", "draws", "losses"), by_colour["second"], strict=True)),
        "opening_plies": plan.opening_plies(start_state(plan.game, plan.options)),
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
                "a_first": game["a_first"],
                "plies": len(game["opening"]) + len(game["actions"]),
                "opening_plies": len(game["opening"]),
                "opening": [int(action) for action in game["opening"]],
                "seconds": game["seconds"],
            }
            for game in games
        ],
    }
