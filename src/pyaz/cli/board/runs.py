"""The run browser of ``pyaz-board``: what a run folder written by ``pyaz-selfplay`` holds.

Curves come from ``metrics.jsonl`` (:func:`pyaz.common.runlog.read_metrics`): the losses and
stage times of the ``iteration`` records, the win ratio (or, with ``--eval-opponent perfect``,
the share of value-keeping moves) of the ``eval`` records, the Elo (with its interval) of the
``elo`` records. Networks are ``nets/iter-*.pt``, ``checkpoint.pt`` and
``best.torchscript.pt``, each playable as ``model:PATH``. Replays are the evaluation games the
run keeps: ``elo/games.jsonl`` (the Elo matches, actions as integers) and the ``games.txt`` of
``pyaz-arena --out`` folders inside the run (moves in the game's notation).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from pyaz.cli.board.sessions import move_texts
from pyaz.common.runlog import read_metrics
from pyaz.games import canonical_name, make

CURVES: dict[str, tuple[str, tuple[str, ...]]] = {
    "losses": ("iteration", ("loss", "loss_policy", "loss_value")),
    "win ratio": ("eval", ("win_ratio",)),
    "value-keeping moves (exact play)": ("eval", ("perfect_agreement",)),
    "Elo": ("elo", ("elo", "elo_lower", "elo_upper")),
    "stage times (s)": ("iteration", ("time_selfplay", "time_train", "time_arena")),
}
"""Each chart: (the records' kind, the keys drawn against the iteration)."""


def run_folder(path: str) -> Path:
    """The run folder ``path``: ValueError naming it when it is not a folder or holds no run
    (no config.json or metrics.jsonl)."""
    folder = Path(str(path)).expanduser()
    if not folder.is_dir():
        raise ValueError(f"run folder not found: {path}")
    if not (folder / "config.json").is_file() and not (folder / "metrics.jsonl").is_file():
        raise ValueError(f"{path} holds no run (no config.json or metrics.jsonl)")
    return folder


def curves(records: list[dict[str, Any]]) -> dict[str, dict[str, list[list[float]]]]:
    """chart -> key -> [[iteration, value], ...] for the charts of :data:`CURVES` that have
    points (the last record of an iteration wins)."""
    charts: dict[str, dict[str, list[list[float]]]] = {}
    for chart, (kind, keys) in CURVES.items():
        series: dict[str, dict[float, float]] = {}
        for record in records:
            step = record.get("iteration", record.get("step"))
            if record.get("kind") != kind or not isinstance(step, int | float):
                continue
            for key in keys:
                value = record.get(key)
                if isinstance(value, int | float) and not isinstance(value, bool):
                    series.setdefault(key, {})[float(step)] = float(value)
        if series:
            charts[chart] = {
                key: [[x, y] for x, y in sorted(points.items())] for key, points in series.items()
            }
    return charts


def networks(folder: Path, config: dict[str, Any]) -> list[dict[str, str]]:
    """The run's networks, newest iteration last, each with its ``model:`` spec (no
    TorchScript export of a threat-search run: it cannot play, see pyaz.nets.loading)."""
    found = sorted((folder / "nets").glob("iter-*.pt"))
    found.append(folder / "checkpoint.pt")
    if not config.get("threat_search"):
        found.append(folder / "best.torchscript.pt")
    return [
        {"name": path.relative_to(folder).as_posix(), "spec": f"model:{path}"}
        for path in found
        if path.is_file()
    ]


def replays(folder: Path, config: dict[str, Any]) -> list[dict[str, Any]]:
    """The run's saved games: ``{"players", "source", "index", "title", "game", "options",
    "moves"}`` with the moves in the game's notation (the players of a ``games.txt`` are its
    A and B, in the order of each game's line)."""
    games: list[dict[str, Any]] = []
    try:
        game = canonical_name(str(config.get("game", "")))
        options = dict(config.get("game_options") or {})
        start = make(game, **options)
    except (ValueError, TypeError):
        return games

    def add(source: str, title: str, moves: list[str], players: list[str]) -> None:
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

    elo = folder / "elo" / "games.jsonl"
    if elo.is_file():
        for line in elo.read_text(encoding="utf-8").splitlines():
            try:
                record = json.loads(line)
                moves = move_texts(start, [*record.get("opening", []), *record["actions"]])
            except (ValueError, KeyError, TypeError):
                continue
            players = [str(record.get("first")), str(record.get("second"))]
            winner = record.get("winner")
            result = "draw" if winner is None else f"{players[winner]} won"
            add("elo/games.jsonl", f"{players[0]} vs {players[1]}: {result}", moves, players)
    for path in sorted(folder.rglob("games.txt")):
        source = path.relative_to(folder).as_posix()
        names = ["A", "B"]
        number = 0
        for line in path.read_text(encoding="utf-8").splitlines():
            header = re.match(r"# A = (.*), B = (.*): A moves first", line)
            if header:
                names = list(header.groups())
            if not line.strip() or line.startswith("#"):
                continue
            tokens = line.split()
            moves = [t for t in tokens if t not in ("1-0", "0-1", "1/2-1/2", "resign")]
            players = names[::-1] if number % 2 else names[:]
            number += 1
            title = f"{source}, game {number}: {players[0]} - {players[1]} {tokens[-1]}"
            add(source, title, moves, players)
    return games


def describe(path: str) -> dict[str, Any]:
    """Everything the run browser shows of the run folder ``path`` (ValueError naming it when
    it holds no run)."""
    folder = run_folder(path)
    config: dict[str, Any] = {}
    config_path = folder / "config.json"
    if config_path.is_file():
        try:
            loaded = json.loads(config_path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise ValueError(f"{config_path}: cannot read the run's settings ({error})") from None
        config = loaded if isinstance(loaded, dict) else {}
    return {
        "dir": str(folder),
        "game": config.get("game"),
        "game_options": config.get("game_options") or {},
        "method": config.get("method"),
        "curves": curves(read_metrics(folder)),
        "networks": networks(folder, config),
        "replays": replays(folder, config),
    }
