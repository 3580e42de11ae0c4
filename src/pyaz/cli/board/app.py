"""The Flask app of ``pyaz-board``: the page (static/) and its JSON API.

=====================================  ======================================================
``GET  /api/info``                     the games with their options, the run folder given
                                       with ``--run``, the player presets' help
``POST /api/new``                      a new game: ``{"game", "options", "players": [first,
                                       second], "seed", "delay", "moves"}`` (a player is a
                                       preset such as ``uct:400`` or ``human``)
``GET  /api/game/ID``                  the game: board, legal moves, history, result, analysis
``POST /api/game/ID/move``             a person's move ``{"move": "d3"}``
``POST /api/game/ID/analyse``          a search of the position ``{"spec", "simulations",
                                       "wait"}`` shown live in the game's ``analysis``
``POST /api/replay``                   the positions of ``{"game", "options", "moves",
                                       "players"}`` (the players' names)
``GET  /api/run?dir=PATH``             a run folder's curves, networks and saved games
``POST /api/curling/new``              a curling game ``{"players", "ends"}``
``GET  /api/curling/ID``, ``POST /api/curling/ID/throw``   the sheet; the next stone
                                       (``{"x", "y"}`` for a person's draw)
=====================================  ======================================================

Bad input (an unknown game or option, a bad player spec, an illegal move, a folder without a
run) is answered with status 400 and ``{"error": message}``, the message the command line
prints; an unknown game id with 404. No answer carries a traceback.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any, Generic, TypeVar

from flask import Flask, jsonify, request, send_from_directory
from werkzeug.exceptions import HTTPException

from pyaz.cli.board import runs
from pyaz.cli.board.curling_view import PLAYERS_HELP, CurlingGame
from pyaz.cli.board.sessions import Session, new_session
from pyaz.eval.presets import PRESETS_HELP
from pyaz.games import GAMES

STATIC = Path(__file__).parent / "static"
MAX_GAMES = 32  # games kept; the oldest is closed beyond this


Game = TypeVar("Game", Session, CurlingGame)


class _Games(Generic[Game]):
    """The games in progress of one kind, oldest first; ``missing`` is the message for an
    unknown id (``{!r}``: the id)."""

    def __init__(self, missing: str) -> None:
        self.games: OrderedDict[str, Game] = OrderedDict()
        self.missing = missing
        self.lock = threading.Lock()

    def add(self, game: Game) -> None:
        with self.lock:
            self.games[game.id] = game
            while len(self.games) > MAX_GAMES:
                self.games.popitem(last=False)[1].close()

    def get(self, game_id: str) -> Game:
        with self.lock:
            if game_id not in self.games:
                raise LookupError(self.missing.format(game_id))
            return self.games[game_id]

    def close(self) -> None:
        with self.lock:
            for game in self.games.values():
                game.close()
            self.games.clear()


def _body() -> dict[str, Any]:
    data = request.get_json(silent=True)
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ValueError(f"the request body must be a JSON object, got {data!r}")
    return data


def _int(data: dict[str, Any], key: str, default: int | None) -> int | None:
    value = data.get(key, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{key} must be an integer, got {value!r}")
    return value


def create_app(run_dir: str | None = None) -> Flask:
    """The ``pyaz-board`` app; ``run_dir`` is the run folder the run browser opens first."""
    app = Flask(__name__, static_folder=None)
    app.json.sort_keys = False  # type: ignore[attr-defined]  # the charts keep CURVES' order
    games = _Games[Session]("no game {!r} (it ended or the server restarted)")
    curling_games = _Games[CurlingGame]("no curling game {!r}")
    app.extensions["pyaz_board"] = games

    @app.errorhandler(ValueError)
    @app.errorhandler(TypeError)
    @app.errorhandler(OSError)
    def bad_input(error: Exception) -> Any:
        return jsonify(error=str(error)), 400

    @app.errorhandler(LookupError)
    def not_found(error: LookupError) -> Any:
        return jsonify(error=str(error.args[0] if error.args else error)), 404

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Any:
        return jsonify(error=f"{error.code} {error.name}"), error.code or 500

    @app.errorhandler(Exception)
    def failure(error: Exception) -> Any:
        return jsonify(error=f"{type(error).__name__}: {error}"), 500

    @app.get("/")
    def index() -> Any:
        return send_from_directory(STATIC, "index.html")

    @app.get("/static/<path:name>")
    def static_file(name: str) -> Any:
        return send_from_directory(STATIC, name)

    @app.get("/api/info")
    def info() -> Any:
        return jsonify(
            games={name: spec.options for name, spec in GAMES.items()},
            run=run_dir,
            presets=PRESETS_HELP,
            curling_players=PLAYERS_HELP,
        )

    @app.post("/api/new")
    def new() -> Any:
        data = _body()
        moves = data.get("moves") or []
        if not isinstance(moves, list):
            raise ValueError(f"moves must be a list of moves, got {moves!r}")
        delay = data.get("delay", 0.0)
        if isinstance(delay, bool) or not isinstance(delay, int | float) or not 0 <= delay <= 10:
            raise ValueError(f"delay must be a number of seconds in 0..10, got {delay!r}")
        session = new_session(
            str(data.get("game", "")),
            data.get("options") or {},
            data.get("players", ["human", "uct:200"]),
            seed=_int(data, "seed", 0) or 0,
            delay=float(delay),
            moves=[str(move) for move in moves],
        )
        games.add(session)
        session.kick()
        return jsonify(session.to_json())

    @app.get("/api/game/<game_id>")
    def game(game_id: str) -> Any:
        return jsonify(games.get(game_id).to_json())

    @app.post("/api/game/<game_id>/move")
    def move(game_id: str) -> Any:
        session = games.get(game_id)
        session.play(str(_body().get("move", "")))
        return jsonify(session.to_json())

    @app.post("/api/game/<game_id>/analyse")
    def analyse(game_id: str) -> Any:
        session = games.get(game_id)
        data = _body()
        simulations = _int(data, "simulations", None)
        if simulations is not None and not 1 <= simulations <= 10**7:
            raise ValueError(f"simulations must be in 1..10000000, got {simulations}")
        session.analyse(str(data.get("spec", "uct:2000")), simulations, bool(data.get("wait")))
        return jsonify(session.to_json())

    @app.post("/api/replay")
    def replay() -> Any:
        data = _body()
        moves = data.get("moves") or []
        if not isinstance(moves, list):
            raise ValueError(f"moves must be a list of moves, got {moves!r}")
        session = new_session(str(data.get("game", "")), data.get("options") or {}, ["human"] * 2)
        names = data.get("players")
        if isinstance(names, list) and len(names) == 2:
            session.specs = [str(name) for name in names]
        frames = [{**session.to_json(), "legal": []}]
        for text in moves:
            session.play(str(text))
            frames.append({**session.to_json(), "legal": []})
        return jsonify(frames=frames)

    @app.get("/api/run")
    def run() -> Any:
        folder = request.args.get("dir") or run_dir
        if not folder:
            raise ValueError("give a run folder (pyaz-board --run DIR, or the field in the page)")
        return jsonify(runs.describe(folder))

    @app.post("/api/curling/new")
    def curling_new() -> Any:
        data = _body()
        curling_game = CurlingGame(
            data.get("players", ["human", "rule"]),
            ends=_int(data, "ends", 2) or 2,
            seed=_int(data, "seed", 0) or 0,
        )
        curling_games.add(curling_game)
        return jsonify(curling_game.to_json())

    @app.get("/api/curling/<game_id>")
    def curling_get(game_id: str) -> Any:
        return jsonify(curling_games.get(game_id).to_json())

    @app.post("/api/curling/<game_id>/throw")
    def curling_throw(game_id: str) -> Any:
        curling_game = curling_games.get(game_id)
        data = _body()
        point = [data.get(key) for key in ("x", "y")]
        for value in point:
            if isinstance(value, bool) or not isinstance(value, int | float | None):
                raise ValueError(f"x and y are metres, got {value!r}")
        curling_game.throw(point[0], point[1])
        return jsonify(curling_game.to_json())

    return app
