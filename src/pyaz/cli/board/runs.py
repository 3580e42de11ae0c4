"""The run browser of ``pyaz-board``: what a run folder written by ``pyaz-selfplay`` holds.

Curves come from ``metrics.jsonl``: the losses and stage times of the ``iteration`` records,
the win ratio (or, with ``--eval-opponent perfect``, the share of value-keeping moves) of the
``eval`` records, the Elo (with its interval) of the ``elo`` records. Networks are
``nets/iter-*.pt`` and ``checkpoint.pt``, each playable as ``model:PATH`` (the TorchScript
export is not listed: a run is played from its weights). Replays are the evaluation games the
run keeps: ``elo/games.jsonl`` (the Elo matches, actions as integers) and the ``games.txt`` of
``pyaz-arena --out`` folders inside the run (moves in the game's notation).

A run folder is data from anywhere: only regular files are opened (a FIFO or a device is
named and skipped, never opened for reading), each at most :data:`MAX_FILE_BYTES`; a damaged
record (not JSON, not an object, nested too deeply, fields of the wrong type) is skipped and
named in the answer's ``damaged`` list; a number that is not finite, or beyond
:data:`MAX_NUMBER`, is drawn as a gap (null).
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

from pyaz.cli.board.sessions import move_texts, shown
from pyaz.common.checked_json import (
    NotJSONError,
    NotRegularFileError,
    parse_json,
    read_regular_start,
)
from pyaz.common.shown import cut
from pyaz.games import canonical_name, make

CURVES: dict[str, tuple[str, tuple[str, ...]]] = {
    "losses": ("iteration", ("loss", "loss_policy", "loss_value")),
    "win ratio": ("eval", ("win_ratio",)),
    "value-keeping moves (exact play)": ("eval", ("perfect_agreement",)),
    "Elo": ("elo", ("elo", "elo_lower", "elo_upper")),
    "stage times (s)": ("iteration", ("time_selfplay", "time_train", "time_arena")),
}
"""Each chart: (the records' kind, the keys drawn against the iteration)."""

MAX_FILE_BYTES = 32 << 20  # bytes read of one file of a run
MAX_RECORDS = 100_000  # records read of one file
MAX_REPLAYS = 1_000  # saved games listed
MAX_DAMAGED = 20  # damaged records named (then how many more)
GAMES_DEPTH = 3  # folders below the run searched for games.txt
MAX_NUMBER = 1e15  # a larger value (or iteration) in a record is no figure
NO_REPLAYS = (
    "no saved games: pyaz-selfplay keeps the games of its Elo matches (elo/games.jsonl) only "
    "with --elo-games N (0 by default), and pyaz-arena --out DIR writes games.txt (give a DIR "
    "inside the run folder)"
)


class Damage:
    """The damaged records of a run, as ``"FILE line N: what"`` (at most :data:`MAX_DAMAGED`
    named, then a count of the others)."""

    def __init__(self) -> None:
        self.named: list[str] = []
        self.more = 0

    def add(self, message: str) -> None:
        if len(self.named) < MAX_DAMAGED:
            self.named.append(cut(message, 297) if len(message) > 300 else message)
        else:
            self.more += 1

    def report(self) -> list[str]:
        """The messages, with ``"... and N more"`` when some were not named."""
        return self.named + ([f"... and {self.more} more"] if self.more else [])


def read_regular(path: Path, name: str, damage: Damage) -> str | None:
    """The text of the regular file ``path`` (at most :data:`MAX_FILE_BYTES`, cut at a line);
    None when it is missing. Anything else (a FIFO, a device, a folder, an unreadable file) is
    named in ``damage`` and not read (:func:`~pyaz.common.checked_json.read_regular_start`:
    the file is opened without blocking and checked before any read)."""
    try:
        data, whole = read_regular_start(path, MAX_FILE_BYTES)
    except FileNotFoundError:
        return None
    except OSError as error:
        damage.add(f"{name}: cannot be read ({error.strerror})")
        return None
    except NotRegularFileError:
        damage.add(f"{name}: not a regular file, not read")
        return None
    if not whole:
        damage.add(f"{name}: larger than {MAX_FILE_BYTES >> 20} MiB, only its start read")
        data = data[: data.rfind(b"\n") + 1]
    return data.decode("utf-8", errors="replace")


def read_records(path: Path, name: str, damage: Damage) -> list[dict[str, Any]]:
    """The JSON objects of the JSON-lines file ``path``, one a line (at most
    :data:`MAX_RECORDS`, parsed by :func:`~pyaz.common.checked_json.parse_json`); a damaged
    line is named in ``damage`` and skipped, except an unfinished last line (a run writing it,
    or killed while it did). The records' fields are not checked here: each curve takes the
    figures it finds (:func:`curves`)."""
    text = read_regular(path, name, damage)
    if text is None:
        return []
    records: list[dict[str, Any]] = []
    lines = text.split("\n")
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        if len(records) == MAX_RECORDS:
            damage.add(f"{name}: more than {MAX_RECORDS} records, only the first read")
            break
        try:
            record = parse_json(line, f"{name} line {number}")
        except NotJSONError as error:
            if number < len(lines):  # a last line without its newline is being written
                damage.add(str(error))
            continue
        except ValueError as error:  # JSON, but not as pyaz writes it
            damage.add(str(error))
            continue
        if not isinstance(record, dict):
            damage.add(f"{name} line {number}: not a JSON object")
            continue
        records.append(record)
    return records


def run_folder(path: str) -> Path:
    """The run folder ``path``: ValueError naming it when it is not a folder or holds no run
    (no config.json or metrics.jsonl)."""
    folder = Path(str(path)).expanduser()
    if not folder.is_dir():
        raise ValueError(f"run folder not found: {path}")
    if not (folder / "config.json").exists() and not (folder / "metrics.jsonl").exists():
        raise ValueError(f"{path} holds no run (no config.json or metrics.jsonl)")
    return folder


def number(value: Any) -> float | None:
    """``value`` as a figure: a finite number of at most :data:`MAX_NUMBER` in size, else
    None (a bool, an int too large for a float, NaN, an infinity)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if isinstance(value, int) and abs(value) > MAX_NUMBER:
        return None
    value = float(value)
    return value if math.isfinite(value) and abs(value) <= MAX_NUMBER else None


def curves(records: list[dict[str, Any]]) -> dict[str, dict[str, list[list[float | None]]]]:
    """chart -> key -> [[iteration, value], ...] for the charts of :data:`CURVES` that have
    points (the last record of an iteration wins; a value that is no figure, such as NaN,
    is None: a gap in the curve)."""
    charts: dict[str, dict[str, list[list[float | None]]]] = {}
    for chart, (kind, keys) in CURVES.items():
        series: dict[str, dict[float, float | None]] = {}
        for record in records:
            step = number(record.get("iteration", record.get("step")))
            if record.get("kind") != kind or step is None:
                continue
            for key in keys:
                value = record.get(key)
                if isinstance(value, int | float) and not isinstance(value, bool):
                    series.setdefault(key, {})[step] = number(value)
        if series:
            charts[chart] = {
                key: [[x, y] for x, y in sorted(points.items())] for key, points in series.items()
            }
    return charts


def networks(folder: Path) -> list[dict[str, str]]:
    """The run's networks, newest iteration last, then its best (``checkpoint.pt``), each
    with its ``model:`` spec (regular files only; no TorchScript export: a run is played from
    its weights)."""
    found = sorted((folder / "nets").glob("iter-*.pt"))
    found.append(folder / "checkpoint.pt")
    return [
        {"name": path.relative_to(folder).as_posix(), "spec": f"model:{path}"}
        for path in found
        if path.is_file()
    ]


def _start(config: dict[str, Any], damage: Damage) -> tuple[str, dict[str, Any], Any] | None:
    """The run's game, its options and its start position (None, named in ``damage``, when
    config.json names none that pyaz plays)."""
    options = config.get("game_options") or {}
    try:
        if not isinstance(options, dict):
            raise TypeError(f"game_options must be an object, got {type(options).__name__}")
        game = canonical_name(str(config.get("game", "")))
        return game, options, make(game, **options)
    except (ValueError, TypeError, OverflowError) as error:
        if config:
            damage.add(f"config.json: no replays ({error})")
        return None


def _elo_game(record: dict[str, Any], start: Any) -> tuple[str, list[str], list[str]]:
    """(title, moves, players) of an ``elo/games.jsonl`` record; ValueError/TypeError when it
    is damaged."""
    opening, actions = record.get("opening", []), record.get("actions")
    if not isinstance(opening, list) or not isinstance(actions, list):
        raise TypeError("opening and actions must be lists of actions")
    if not all(isinstance(a, int) and not isinstance(a, bool) for a in opening + actions):
        raise TypeError("an action is not an integer")
    moves = move_texts(start, [*opening, *actions])
    players = [str(record.get("first"))[:100], str(record.get("second"))[:100]]
    winner = record.get("winner")
    if winner not in (None, 0, 1) or isinstance(winner, bool):
        raise ValueError(f"winner must be 0, 1 or null, got {shown(winner)}")
    result = "draw" if winner is None else f"{players[winner]} won"
    return f"{players[0]} vs {players[1]}: {result}", moves, players


def _text_games(text: str) -> list[tuple[list[str], list[str], str]]:
    """(moves, players, result) of each game of a ``games.txt`` (the players are its A and B,
    in the order of each game's line)."""
    names = ["A", "B"]
    games: list[tuple[list[str], list[str], str]] = []
    for line in text.splitlines():
        header = re.match(r"# A = (.*), B = (.*): A moves first", line)
        if header:
            names = list(header.groups())
        if not line.strip() or line.startswith("#"):
            continue
        tokens = line.split()
        moves = [t for t in tokens if t not in ("1-0", "0-1", "1/2-1/2", "resign")]
        players = names[::-1] if len(games) % 2 else names[:]
        games.append((moves, players, tokens[-1]))
    return games


def _text_game_files(folder: Path) -> list[Path]:
    """The ``games.txt`` of ``folder`` and of its folders up to :data:`GAMES_DEPTH` levels
    down (a bounded walk: a run folder may sit among many files), at most 100."""
    found: list[Path] = []
    for depth in range(GAMES_DEPTH + 1):
        found += sorted(folder.glob("/".join(["*"] * depth + ["games.txt"])))
    return found[:100]


def replays(folder: Path, config: dict[str, Any], damage: Damage) -> list[dict[str, Any]]:
    """The run's saved games (at most :data:`MAX_REPLAYS`): ``{"players", "source", "index",
    "title", "game", "options", "moves"}`` with the moves in the game's notation; damaged
    records are named in ``damage``."""
    games: list[dict[str, Any]] = []
    start = _start(config, damage)
    if start is None:
        return games
    game, options, state = start

    def add(source: str, title: str, moves: list[str], players: list[str]) -> None:
        if len(games) < MAX_REPLAYS:
            games.append(
                {
                    "players": players,
                    "source": source,
                    "index": len(games),
                    "title": title,
                    "game": game,
                    "options": options,
                    "moves": moves,
                }
            )

    name = "elo/games.jsonl"
    records = read_records(folder / name, name, damage)
    if records and isinstance(records[0], dict) and "journal" in records[0]:
        records = records[1:]  # the journal's first line names the tournament: no game
    for number_, record in enumerate(records, 1):
        try:
            title, moves, players = _elo_game(record, state)
        except (ValueError, TypeError, OverflowError) as error:
            damage.add(f"{name} game {number_}: {error}")
            continue
        add(name, title, moves, players)
    for path in _text_game_files(folder):
        source = path.relative_to(folder).as_posix()
        text = read_regular(path, source, damage)
        for index, (moves, players, result) in enumerate(_text_games(text or ""), 1):
            add(
                source,
                f"{source}, game {index}: {players[0]} - {players[1]} {result}",
                moves,
                players,
            )
    return games


def _settings(folder: Path, damage: Damage) -> dict[str, Any]:
    """The run's config.json (``{}`` when missing or damaged, then named in ``damage``)."""
    text = read_regular(folder / "config.json", "config.json", damage)
    if text is None:
        return {}
    try:
        loaded = parse_json(text, "config.json")
    except ValueError as error:
        damage.add(str(error))
        return {}
    if not isinstance(loaded, dict):
        damage.add("config.json: not a JSON object")
        return {}
    return loaded


def _text_field(config: dict[str, Any], key: str) -> str | None:
    value = config.get(key)
    return value[:200] if isinstance(value, str) else None


def describe(path: str) -> dict[str, Any]:
    """Everything the run browser shows of the run folder ``path`` (ValueError naming it when
    it holds no run): its game, method, curves, networks, replays (with a note saying how to
    get some when there are none) and the damaged records skipped."""
    folder = run_folder(path)
    damage = Damage()
    config = _settings(folder, damage)
    options = config.get("game_options")
    charts = curves(read_records(folder / "metrics.jsonl", "metrics.jsonl", damage))
    games = replays(folder, config, damage)
    return {
        "dir": str(folder),
        "game": _text_field(config, "game"),
        "game_options": options if isinstance(options, dict) else {},
        "method": _text_field(config, "method"),
        "curves": charts,
        "networks": networks(folder),
        "replays": games,
        "replays_note": "" if games else NO_REPLAYS,
        "damaged": damage.report(),
    }
