"""The Flask app of ``pyaz-board``: the page (static/) and its JSON API.

=====================================  ======================================================
``GET  /api/info``                     the games with their options, the run folder given
                                       with ``--run``, the player presets' help, the networks
                                       that ship with pyaz (:func:`shipped_networks`)
``POST /api/new``                      a new game: ``{"game", "options", "players": [first,
                                       second], "seed", "delay", "moves"}`` (a player is a
                                       preset such as ``uct:400`` or ``human``)
``GET  /api/game/ID``                  the game: board, legal moves, history, result, analysis
``POST /api/game/ID/move``             a person's move ``{"move": "d3"}``
``POST /api/game/ID/analyse``          a search of the position ``{"spec", "simulations",
                                       "wait"}`` shown live in the game's ``analysis``
``POST /api/game/ID/close``            the game ends; its searches stop
``POST /api/replay``                   the positions of ``{"game", "options", "moves",
                                       "players"}`` (the players' names)
``GET  /api/run?dir=PATH``             a run folder's curves, networks and saved games
``POST /api/curling/new``              a curling game ``{"players", "ends"}``
``GET  /api/curling/ID``, ``POST /api/curling/ID/throw``   the sheet; the next stone
                                       (``{"x", "y"}`` for a person's draw)
=====================================  ======================================================

Who may ask (:mod:`pyaz.cli.board.trust`): every request must name this machine in its Host
header (127.0.0.1, localhost, [::1] or the ``--host`` address), which defeats DNS rebinding.
Every ``/api/`` request, GET as well as POST, must carry the launch's secret in the
``X-Pyaz-Token`` header: the GETs read game state and, with ``/api/run``, any folder the
server can read, so none is left open. Every POST must also carry an Origin header equal to
the server's own origin. The page and its static files need neither (they hold nothing
secret); the page takes the token from the ``?token=`` of the address the command printed.

What a request may ask for: no engine that starts a process unless the board was started with
``--allow-engines``; networks from the ``--run`` folder and the ``--models`` folders only;
at most :data:`~pyaz.cli.board.trust.MAX_SIMULATIONS` simulations and
:data:`~pyaz.cli.board.trust.MAX_MOVE_MS` ms a move; at most :data:`MAX_GAMES` games of each
kind (the oldest is closed beyond), :data:`~pyaz.cli.board.sessions.MAX_SEARCHES` searches at
once (429 when none frees up within a moment) and one analysis per game.

Bad input (an unknown game or option, a bad player spec, an illegal move, a folder without a
run, a body that is not JSON or is nested too deeply, an engine's protocol error) is answered
with status 400 and ``{"error": message}``, the message the command line prints; a refused
request with 403, an unknown game id with 404, a full board with 429. No answer carries a
traceback, and numbers that are not finite go out as null.
"""

from __future__ import annotations

import json
import math
import secrets
import threading
from collections import OrderedDict
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Generic, TypeVar

from flask import Flask, Response, jsonify, request, send_from_directory
from flask.json.provider import DefaultJSONProvider
from werkzeug.exceptions import HTTPException

from pyaz.cli.board import runs
from pyaz.cli.board.curling_view import PLAYERS_HELP, CurlingGame
from pyaz.cli.board.sessions import (
    BusyError,
    SearchSlots,
    Session,
    new_session,
    no_tree_search,
    shown,
)
from pyaz.cli.board.trust import (
    MAX_SIMULATIONS,
    TOKEN_HEADER,
    ForbiddenError,
    SpecPolicy,
    check_host,
    check_origin,
    check_token,
)
from pyaz.engines.gtp import GtpError
from pyaz.engines.uci import UciError
from pyaz.eval.external import EngineError
from pyaz.eval.presets import PRESETS_HELP
from pyaz.games import GAMES
from pyaz.nets.shipped import SHIPPED, builtin_spec

STATIC = Path(__file__).parent / "static"
MAX_GAMES = 32  # games kept; the oldest is closed beyond this
MAX_BODY = 1 << 20  # bytes of a request body
MAX_MOVES = 10_000  # moves of a game given in a request
MAX_SEED = 2**32 - 1
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": "default-src 'self'; frame-ancestors 'none'",
}
"""Sent with every answer: no framing, no referrer (the page's address holds the token), and
nothing loaded from anywhere but the board."""


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

    def remove(self, game_id: str) -> Game:
        """Closes the game ``game_id`` and forgets it (LookupError when there is none)."""
        with self.lock:
            if game_id not in self.games:
                raise LookupError(self.missing.format(game_id))
            game = self.games.pop(game_id)
        game.close()
        return game

    def close(self) -> None:
        with self.lock:
            for game in self.games.values():
                game.close()
            self.games.clear()


def finite(value: Any) -> Any:
    """``value`` with every float that is not finite replaced by None (JSON has no NaN)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {key: finite(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [finite(item) for item in value]
    return value


class _FiniteJSON(DefaultJSONProvider):
    """Flask's JSON with NaN and infinities sent as null, keys in the order given (the charts
    keep CURVES' order)."""

    sort_keys = False

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        return super().dumps(finite(obj), **kwargs)


def _body() -> dict[str, Any]:
    """The request's JSON object (``{}`` for an empty body); ValueError for anything else."""
    raw = request.get_data(cache=True)
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw)
    except RecursionError:
        raise ValueError("the request body is nested too deeply") from None
    except ValueError as error:
        raise ValueError(f"the request body is not JSON ({error})") from None
    if not isinstance(data, dict):
        raise ValueError(f"the request body must be a JSON object, got {type(data).__name__}")
    return data


def _int(data: dict[str, Any], key: str, default: int | None, low: int, high: int) -> int | None:
    """``data[key]`` (``default`` when absent): ValueError unless an integer in low..high."""
    value = data.get(key, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{key} must be an integer, got {shown(value)}")
    if not low <= value <= high:
        raise ValueError(f"{key} must be in {low}..{high:,}, got {shown(value)}")
    return value


def _moves(data: dict[str, Any]) -> list[str]:
    """The ``moves`` of a request, as text: ValueError unless a list of at most
    :data:`MAX_MOVES`."""
    moves = data.get("moves") or []
    if not isinstance(moves, list):
        raise ValueError(f"moves must be a list of moves, got {type(moves).__name__}")
    if len(moves) > MAX_MOVES:
        raise ValueError(f"at most {MAX_MOVES} moves, got {len(moves)}")
    return [str(move) for move in moves]


def _specs(data: dict[str, Any], default: list[str], policy: SpecPolicy) -> Any:
    """The ``players`` of a request, each checked by ``policy`` before anything is built."""
    specs = data.get("players", default)
    if isinstance(specs, list):
        for spec in specs:
            policy.check(str(spec).strip())
    return specs


def shipped_networks() -> list[dict[str, Any]]:
    """The networks that ship with pyaz (:data:`~pyaz.nets.shipped.SHIPPED`), as the page offers
    them: each one's ``name``, ``game``, full board ``options`` (the game's defaults overlaid
    with the network's), the preset ``spec`` that plays it (at its own simulations a move, as
    ``pyaz-play`` does: :func:`~pyaz.nets.shipped.builtin_spec`) and the ``figure`` it
    reached."""
    return [
        {
            "name": name,
            "game": network.game,
            "options": network.board(),
            "spec": builtin_spec(name),
            "figure": network.figure,
        }
        for name, network in SHIPPED.items()
    ]


def _origin() -> str:
    return f"{request.scheme}://{request.host}"


def create_app(
    run_dir: str | None = None,
    *,
    allow_engines: bool = False,
    models: Iterable[str] = (),
    host: str | None = None,
    token: str | None = None,
) -> Flask:
    """The ``pyaz-board`` app; ``run_dir`` is the run folder the run browser opens first.

    ``allow_engines``: the page may start engine processes (``--allow-engines``); ``models``:
    the folders besides ``run_dir`` the page may load networks from (``--models``); ``host``:
    the address it listens on (``--host``, allowed as a Host header); ``token``: the secret
    every API request carries (default: a new one, in ``app.config["PYAZ_TOKEN"]``).
    """
    app = Flask(__name__, static_folder=None)
    app.json = _FiniteJSON(app)
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY
    secret = token or secrets.token_urlsafe(32)
    app.config["PYAZ_TOKEN"] = secret
    policy = SpecPolicy.of(allow_engines, [run_dir, *models])
    slots = SearchSlots()
    games = _Games[Session]("no game {!r} (it ended or the server restarted)")
    curling_games = _Games[CurlingGame]("no curling game {!r}")
    app.extensions["pyaz_board"] = games

    @app.before_request
    def trusted_only() -> None:
        check_host(request.host, host)
        if request.path.startswith("/api/"):
            check_token(request.headers.get(TOKEN_HEADER), secret)
        if request.method not in SAFE_METHODS:
            check_origin(request.headers.get("Origin"), _origin())

    @app.after_request
    def hardened(response: Response) -> Response:
        response.headers.update(HEADERS)
        return response

    @app.errorhandler(ForbiddenError)
    def forbidden(error: ForbiddenError) -> Any:
        return jsonify(error=str(error)), 403

    @app.errorhandler(BusyError)
    def busy(error: BusyError) -> Any:
        return jsonify(error=str(error)), 429

    @app.errorhandler(ValueError)
    @app.errorhandler(TypeError)
    @app.errorhandler(OSError)
    @app.errorhandler(GtpError)
    @app.errorhandler(UciError)
    @app.errorhandler(EngineError)
    @app.errorhandler(OverflowError)
    def bad_input(error: Exception) -> Any:
        return jsonify(error=str(error)), 400

    @app.errorhandler(RecursionError)
    def too_deep(error: RecursionError) -> Any:
        return jsonify(error="the request is nested too deeply"), 400

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
            shipped=shipped_networks(),
        )

    @app.post("/api/new")
    def new() -> Any:
        data = _body()
        moves = _moves(data)
        delay = data.get("delay", 0.0)
        if isinstance(delay, bool) or not isinstance(delay, int | float) or not 0 <= delay <= 10:
            raise ValueError(f"delay must be a number of seconds in 0..10, got {shown(delay)}")
        session = new_session(
            str(data.get("game", "")),
            data.get("options") or {},
            _specs(data, ["human", "uct:200"], policy),
            seed=_int(data, "seed", 0, 0, MAX_SEED) or 0,
            delay=float(delay),
            moves=moves,
            slots=slots,
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
        simulations = _int(data, "simulations", None, 1, MAX_SIMULATIONS)
        spec = str(data.get("spec", "uct:2000"))
        policy.check(spec)
        if policy.is_engine(spec):  # with --allow-engines: refused before it starts
            raise ValueError(no_tree_search(spec))
        session.analyse(spec, simulations, bool(data.get("wait")))
        return jsonify(session.to_json())

    @app.post("/api/game/<game_id>/close")
    def close(game_id: str) -> Any:
        return jsonify(id=games.remove(game_id).id, closed=True)

    @app.post("/api/replay")
    def replay() -> Any:
        data = _body()
        moves = _moves(data)
        session = new_session(str(data.get("game", "")), data.get("options") or {}, ["human"] * 2)
        names = data.get("players")
        if isinstance(names, list) and len(names) == 2:
            session.specs = [str(name) for name in names]
        frames = [{**session.to_json(), "legal": []}]
        for text in moves:
            session.play(text)
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
            _specs(data, ["human", "rule"], policy),
            ends=_int(data, "ends", 2, 1, 10) or 2,
            seed=_int(data, "seed", 0, 0, MAX_SEED) or 0,
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
                raise ValueError(f"x and y are metres, got {shown(value)}")
            if value is not None and not -100 <= value <= 100:  # NaN too
                raise ValueError(f"x and y are metres on the sheet, got {shown(value)}")
        slots.take()
        try:
            curling_game.throw(point[0], point[1])
        finally:
            slots.release()
        return jsonify(curling_game.to_json())

    return app
