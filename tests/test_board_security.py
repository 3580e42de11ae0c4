"""``pyaz-board`` trusts only its own page (issue 74): a foreign Host, a missing or wrong
token, a foreign Origin, an engine spec, a network outside the launch's folders, page-given
counts above the ceilings are refused before anything is built or started; a damaged run
folder (FIFOs, NaN, broken lines) is shown with its damage named; the searches are bounded and
stop when replaced or closed; and a property-based fuzz of the JSON API never gets a 500."""

from __future__ import annotations

import json
import os
import shlex
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pyaz.cli.board import app as board_app
from pyaz.cli.board import build_parser, main, page_address, sessions
from pyaz.cli.board.app import create_app
from pyaz.cli.board.trust import MAX_SIMULATIONS, SpecPolicy
from pyaz.engines.gtp import GtpError

ORIGIN = "http://localhost"  # the test client's own origin


def trusted(app: Flask) -> FlaskClient:
    """A client of ``app`` as its own page sends: the launch's token and the page's Origin."""
    client = app.test_client()
    client.environ_base["HTTP_X_PYAZ_TOKEN"] = app.config["PYAZ_TOKEN"]
    client.environ_base["HTTP_ORIGIN"] = ORIGIN
    return client


@pytest.fixture
def app() -> Flask:
    return create_app()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return trusted(app)


def _error(response: Any, status: int) -> str:
    assert response.status_code == status, response.data
    message: str = response.json["error"]
    assert "\n" not in message and "Traceback" not in message
    return message


# ------------------------------------------------------------------ Host, token, Origin


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.1.evil.example"])
def test_a_foreign_host_is_refused(client: FlaskClient, host: str) -> None:
    """DNS rebinding: the attacker's name points at 127.0.0.1; its Host header gives it away."""
    for path in ("/api/info", "/"):
        message = _error(client.get(path, headers={"Host": host}), 403)
        assert message.startswith(f"Host {host!r} is not this board's address")
    response = client.post("/api/new", json={"game": "othello"}, headers={"Host": host})
    assert response.status_code == 403


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost", "[::1]:8000", "LOCALHOST:1"])
def test_this_machines_names_are_served(client: FlaskClient, host: str) -> None:
    assert client.get("/api/info", headers={"Host": host}).status_code == 200


def test_the_host_given_at_launch_is_served() -> None:
    client = trusted(create_app(host="board.lan"))
    assert client.get("/api/info", headers={"Host": "board.lan:8000"}).status_code == 200
    assert client.get("/api/info", headers={"Host": "other.lan"}).status_code == 403
    anywhere = trusted(create_app(host="0.0.0.0"))  # an address of the machine, not a name
    assert anywhere.get("/api/info", headers={"Host": "192.168.1.5:8000"}).status_code == 200
    assert anywhere.get("/api/info", headers={"Host": "evil.example"}).status_code == 403


def test_every_api_request_needs_the_token(app: Flask) -> None:
    bare = app.test_client()
    for path in ("/api/info", "/api/run?dir=/", "/api/game/g1"):
        message = _error(bare.get(path), 403)
        assert message.startswith("no X-Pyaz-Token: open the address pyaz-board printed")
        response = bare.get(path, headers={"X-Pyaz-Token": "guess"})
        assert _error(response, 403).startswith("wrong X-Pyaz-Token")
    response = bare.post(
        "/api/new", json={"game": "othello"}, headers={"Origin": ORIGIN, "X-Pyaz-Token": ""}
    )
    assert response.status_code == 403
    assert bare.get("/").status_code == 200  # the page itself holds no secret
    assert bare.get("/static/board.js").status_code == 200


def test_a_state_changing_request_needs_the_pages_origin(app: Flask) -> None:
    client = app.test_client()
    token = {"X-Pyaz-Token": app.config["PYAZ_TOKEN"]}
    body = {"game": "othello", "players": ["human", "human"]}
    response = client.post("/api/new", json=body, headers=token)
    assert _error(response, 403) == "a request that changes the board must carry an Origin header"
    for origin in ("http://evil.example", "null", "http://localhost:9999", "https://localhost"):
        response = client.post("/api/new", json=body, headers={**token, "Origin": origin})
        assert _error(response, 403).startswith(f"Origin {origin!r} is not this board's page")
    response = client.post("/api/new", json=body, headers={**token, "Origin": ORIGIN})
    assert response.status_code == 200


def test_the_printed_address_carries_the_token(capsys: pytest.CaptureFixture[str]) -> None:
    assert page_address("127.0.0.1", 8000, "abc") == "http://127.0.0.1:8000/?token=abc"
    assert page_address("0.0.0.0", 80, "t") == "http://127.0.0.1:80/?token=t"
    assert page_address("::1", 81, "t") == "http://[::1]:81/?token=t"
    tokens = {create_app().config["PYAZ_TOKEN"] for _ in range(3)}
    assert len(tokens) == 3 and all(len(token) >= 40 for token in tokens)
    args = build_parser().parse_args(["--models", "a", "--models", "b", "--allow-engines"])
    assert args.models == ["a", "b"] and args.allow_engines
    assert not build_parser().parse_args([]).allow_engines
    with pytest.raises(SystemExit) as exited:
        main(["--models", "/no/such/folder"])
    assert exited.value.code == 2
    assert "--models /no/such/folder: not a folder" in capsys.readouterr().err


def test_answers_forbid_framing_and_referrers(client: FlaskClient) -> None:
    headers = client.get("/").headers
    assert headers["X-Frame-Options"] == "DENY" and headers["Referrer-Policy"] == "no-referrer"
    assert "default-src 'self'" in headers["Content-Security-Policy"]


# ------------------------------------------------------------------ engines


def _touch(marker: Path) -> str:
    return f"sh -c {shlex.quote(f'touch {marker}')}"


@pytest.mark.parametrize(
    ("game", "options", "spec"),
    [
        ("go", {"size": 5}, "gtp:{}"),
        ("othello", {"size": 6}, "gtp:{}"),
        ("racingkings", {}, "uci:{}"),
        ("gomoku", {"size": 9}, "guard:gtp:{}"),
        ("go", {"size": 5}, "gnugo:1"),
        ("racingkings", {}, "lichess:2"),
    ],
)
def test_an_engine_spec_is_refused_before_it_starts(
    client: FlaskClient, tmp_path: Path, game: str, options: dict[str, Any], spec: str
) -> None:
    marker = tmp_path / "started"
    spec = spec.format(_touch(marker))
    body = {"game": game, "options": options, "players": ["human", spec]}
    message = _error(client.post("/api/new", json=body), 403)
    assert message.startswith(f"{spec!r} starts an engine process")
    assert message.endswith("only when started with --allow-engines")
    time.sleep(0.2)
    assert not marker.exists()


@pytest.mark.parametrize("allow", [False, True])
def test_an_analysis_by_an_engine_starts_nothing(tmp_path: Path, allow: bool) -> None:
    client = trusted(create_app(allow_engines=allow))
    marker = tmp_path / "started"
    game = client.post(
        "/api/new", json={"game": "go", "options": {"size": 5}, "players": ["human"] * 2}
    ).json
    spec = f"gtp:{_touch(marker)}"
    response = client.post(f"/api/game/{game['id']}/analyse", json={"spec": spec})
    if allow:  # an engine has no tree search to show: refused before it starts
        assert (
            _error(response, 400)
            == f"{spec!r} has no tree search to show; analyse with uct:N or model:PATH"
        )
    else:
        assert _error(response, 403).endswith("--allow-engines")
    time.sleep(0.2)
    assert not marker.exists()


def test_a_curling_engine_is_refused(client: FlaskClient) -> None:
    response = client.post("/api/curling/new", json={"players": ["human", "gtp:sh"]})
    assert _error(response, 403).endswith("--allow-engines")


def test_engine_errors_and_deep_json_are_bad_requests(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def failing(*args: Any, **kwargs: Any) -> None:
        raise GtpError("the engine answered '? unknown command'")

    monkeypatch.setattr(board_app, "new_session", failing)
    response = client.post("/api/new", json={"game": "go"})
    assert _error(response, 400) == "the engine answered '? unknown command'"
    deep = "[" * 100_000 + "]" * 100_000
    for path in ("/api/new", "/api/replay", "/api/curling/new"):
        response = client.post(path, data=deep, content_type="application/json")
        assert _error(response, 400) == "the request body is nested too deeply"
    response = client.post("/api/new", data="{", content_type="application/json")
    assert _error(response, 400).startswith("the request body is not JSON")


# ------------------------------------------------------------------ networks from the page


def test_a_network_outside_the_launchs_folders_is_refused(tmp_path: Path) -> None:
    allowed, outside = tmp_path / "runs", tmp_path / "elsewhere"
    allowed.mkdir()
    outside.mkdir()
    (allowed / "link").symlink_to(outside)  # resolved: outside
    client = trusted(create_app(models=[str(allowed)]))
    for spec in (
        f"model:{outside}",
        f"model:{allowed / 'link'}",
        f"model:{allowed / 'link'}:+5",  # read as PATH ending in link, SIMS +5
        f"model:{allowed / 'link'}:8:rule=gumbel",
        f"model:{allowed}/../elsewhere:50",
        f"alphagomoku:{outside}/pair.pt",
        f"guard:model:{outside}",
        f"kr-dl:{outside}:8",
    ):
        game = "gomoku" if spec.startswith(("alphagomoku", "guard")) else "connect_four"
        body = {
            "game": game,
            "options": {"size": 9} if game == "gomoku" else {},
            "players": ["human", spec],
        }
        message = _error(client.post("/api/new", json=body), 403)
        assert f"is outside the folders the board loads networks from ({allowed})" in message
        assert message.endswith("give its folder at launch with --models DIR (or --run DIR)")
    # a path in the folder passes the check and gets the loader's message
    body = {"game": "connect_four", "players": ["human", f"model:{allowed}/none"]}
    message = _error(client.post("/api/new", json=body), 400)
    assert "none" in message and "loads networks from" not in message
    # without --run or --models no network plays from the page
    response = trusted(create_app()).post("/api/new", json=body)
    assert "(none given)" in _error(response, 403)


def test_a_run_folder_named_with_a_colon_passes_the_check(tmp_path: Path) -> None:
    policy = SpecPolicy.of(False, [str(tmp_path)])
    policy.check(f"model:{tmp_path}/run:c4")
    policy.check(f"model:{tmp_path}/run:c4:200:rule=gumbel")
    policy.check(f"model:{tmp_path}/run:1")
    (tmp_path / "run:300000").mkdir()  # an existing path is taken whole: no SIMS to cap
    policy.check(f"model:{tmp_path}/run:300000")
    with pytest.raises(ValueError, match="must be at most 200,000 in the board, got '300001'"):
        policy.check(f"model:{tmp_path}/run:300001")


# ------------------------------------------------------------------ ceilings


@pytest.mark.parametrize(
    ("game", "spec", "message"),
    [
        ("connect_four", "uct:200001", "the number of simulations must be at most 200,000"),
        ("connect_four", "uct999999999", "the number of simulations must be at most 200,000"),
        ("connect_four", "uct:" + "9" * 500, "the number of simulations must be at most"),
        ("connect_four", "model:{}:300000", "the number of simulations must be at most 200,000"),
        ("gomoku", "mentor:60000", "the time per move (ms) must be at most 10,000"),
        ("gomoku", "guard:60000:uct:10", "the time per move (ms) must be at most 10,000"),
        ("gomoku", "guard:100:900000:uct:10", "the node budget must be at most 200,000"),
        ("gomoku", "guard:uct:300000", "the number of simulations must be at most 200,000"),
    ],
)
def test_page_given_counts_and_times_have_a_ceiling(
    tmp_path: Path, game: str, spec: str, message: str
) -> None:
    client = trusted(create_app(models=[str(tmp_path)]))
    spec = spec.format(tmp_path)
    options = {"size": 9} if game == "gomoku" else {}
    response = client.post(
        "/api/new", json={"game": game, "options": options, "players": ["human", spec]}
    )
    assert message in _error(response, 400)


def test_request_numbers_have_a_ceiling(client: FlaskClient) -> None:
    game = client.post("/api/new", json={"game": "connect_four", "players": ["human"] * 2}).json
    response = client.post(
        f"/api/game/{game['id']}/analyse",
        json={"spec": "uct:10", "simulations": MAX_SIMULATIONS + 1},
    )
    assert _error(response, 400) == "simulations must be in 1..200,000, got 200001"
    response = client.post("/api/new", json={"game": "connect_four", "seed": 2**64})
    assert _error(response, 400).startswith("seed must be in 0..")
    response = client.post("/api/new", json={"game": "connect_four", "moves": ["1"] * 10_001})
    assert _error(response, 400) == "at most 10000 moves, got 10001"
    curling = client.post("/api/curling/new", json={"players": ["human", "rule"]}).json
    response = client.post(f"/api/curling/{curling['id']}/throw", json={"x": 10**400, "y": 0})
    assert _error(response, 400).startswith("x and y are metres on the sheet")


# ------------------------------------------------------------------ searches


def _session(app: Flask, game_id: str) -> sessions.Session:
    session: sessions.Session = app.extensions["pyaz_board"].get(game_id)
    return session


def _until(check: Any, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_a_new_analysis_stops_the_old_one(app: Flask, client: FlaskClient) -> None:
    game = client.post(
        "/api/new", json={"game": "go", "options": {"size": 9}, "players": ["human"] * 2}
    ).json
    analyse = f"/api/game/{game['id']}/analyse"
    client.post(analyse, json={"spec": "uct:200000"})
    _until(lambda: (_session(app, game["id"]).analysis or {}).get("new", 0) >= 2000)
    data = client.post(analyse, json={"spec": "uct:50", "wait": True}).json
    assert data["analysis"]["player"] == "uct:50" and data["analysis"]["done"]
    time.sleep(0.5)  # the old one, had it gone on, would have shown its next slices
    analysis = client.get(f"/api/game/{game['id']}").json["analysis"]
    assert analysis["player"] == "uct:50" and analysis["new"] == 50


def test_a_closed_or_evicted_game_stops_its_search(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    body = {"game": "go", "options": {"size": 9}, "players": ["uct:200000", "uct:200000"]}
    game = client.post("/api/new", json=body).json
    session = _session(app, game["id"])
    _until(lambda: session.analysis is not None)  # a slice is done: it searches
    began = time.monotonic()
    assert client.post(f"/api/game/{game['id']}/close").json == {"id": game["id"], "closed": True}
    assert session._thread is not None
    session._thread.join(timeout=5)
    assert not session._thread.is_alive() and time.monotonic() - began < 5
    assert client.get(f"/api/game/{game['id']}").status_code == 404
    monkeypatch.setattr(board_app, "MAX_GAMES", 1)
    first = _session(app, client.post("/api/new", json=body).json["id"])
    _until(lambda: first.analysis is not None)
    client.post("/api/new", json={"game": "othello", "players": ["human"] * 2})  # evicts it
    assert first.closed and first._thread is not None
    first._thread.join(timeout=5)
    assert not first._thread.is_alive()


def test_searches_beyond_the_limit_get_429(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sessions, "MAX_SEARCHES", 1)
    monkeypatch.setattr(sessions, "SLOT_WAIT", 0.2)
    client = trusted(create_app())
    body = {"game": "go", "options": {"size": 9}, "players": ["human"] * 2}
    first, second = (client.post("/api/new", json=body).json["id"] for _ in range(2))
    client.post(f"/api/game/{first}/analyse", json={"spec": "uct:200000"})
    response = client.post(f"/api/game/{second}/analyse", json={"spec": "uct:10"})
    assert _error(response, 429).startswith("1 searches are running (the board's limit)")
    client.post(f"/api/game/{first}/close")  # its search stops and gives back its slot
    response = client.post(f"/api/game/{second}/analyse", json={"spec": "uct:10", "wait": True})
    assert response.status_code == 200 and response.json["analysis"]["new"] == 10


# ------------------------------------------------------------------ run folders


def _run(folder: Path, metrics: str) -> Path:
    folder.mkdir()
    config = {"game": "connect_four", "game_options": {"width": 5, "height": 4}}
    (folder / "config.json").write_text(json.dumps(config))
    (folder / "metrics.jsonl").write_text(metrics)
    return folder


def _strict(data: bytes) -> Any:
    def refuse(name: str) -> None:
        raise AssertionError(f"{name} is not JSON")

    return json.loads(data, parse_constant=refuse)


def test_a_damaged_run_is_shown_with_its_damage_named(client: FlaskClient, tmp_path: Path) -> None:
    lines = [
        '{"kind": "iteration", "iteration": 1, "loss": 0.5}',
        "not json",
        '{"kind": "iteration", "iteration": 2, "loss": NaN}',
        "[1, 2]",
        '{"kind": "iteration", "iteration": 3, "loss": Infinity}',
        "[" * 5000 + "]" * 5000,
        '{"kind": "iteration", "iteration": 4, "loss": 1e400, "loss_value": ' + "9" * 30 + "}",
        '{"kind": "iteration", "iteration": "5", "loss": 0.1}',
        '{"kind": "iteration", "iteration": 1e300, "loss": 0.1}',
        '{"kind": "eval", "iteration": 6, "win_ratio": 0.75}',
        '{"kind": "iteration", "iter',  # being written: not damage
    ]
    folder = _run(tmp_path / "run", "\n".join(lines))
    (folder / "elo").mkdir()
    (folder / "elo" / "games.jsonl").write_text(
        '{"actions": [0, 1], "first": "a", "second": "b", "winner": 7}\n'
        '{"actions": "0 1"}\n'
        '{"actions": [0, 1, 0], "first": "a", "second": "b", "winner": null}\n'
    )
    response = client.get("/api/run", query_string={"dir": str(folder)})
    assert response.status_code == 200
    data = _strict(response.data)
    assert data["curves"]["losses"] == {
        "loss": [[1.0, 0.5], [2.0, None], [3.0, None], [4.0, None]],
        "loss_value": [[4.0, None]],
    }
    assert data["curves"]["win ratio"] == {"win_ratio": [[6.0, 0.75]]}
    assert data["damaged"] == [
        "metrics.jsonl line 2: not JSON (Expecting value, line 1)",
        "metrics.jsonl line 4: not a JSON object",
        "metrics.jsonl line 6: nests deeper than 32 levels",
        "elo/games.jsonl game 1: winner must be 0, 1 or null, got 7",
        "elo/games.jsonl game 2: opening and actions must be lists of actions",
    ]
    assert [replay["moves"] for replay in data["replays"]] == [["1", "2", "1"]]


def test_fifos_in_a_run_are_named_not_opened(client: FlaskClient, tmp_path: Path) -> None:
    folder = tmp_path / "run"
    folder.mkdir()
    (folder / "elo").mkdir()
    (folder / "arena").mkdir()
    for name in ("config.json", "metrics.jsonl", "elo/games.jsonl", "arena/games.txt"):
        os.mkfifo(folder / name)
    os.mkfifo(folder / "checkpoint.pt")
    answers: list[Any] = []
    thread = threading.Thread(
        target=lambda: answers.append(client.get("/api/run", query_string={"dir": str(folder)})),
        daemon=True,
    )
    thread.start()
    thread.join(timeout=10)
    assert not thread.is_alive(), "reading a FIFO hung"
    data = answers[0].json
    assert data["damaged"] == [
        "config.json: not a regular file, not read",
        "metrics.jsonl: not a regular file, not read",
    ]
    assert data["networks"] == [] and data["curves"] == {} and data["replays"] == []


def test_a_run_without_saved_games_says_how_to_get_them(
    client: FlaskClient, tmp_path: Path
) -> None:
    folder = _run(tmp_path / "run", '{"kind": "iteration", "iteration": 1, "loss": 0.5}\n')
    (folder / "best.torchscript.pt").write_bytes(b"PK")
    data = client.get("/api/run", query_string={"dir": str(folder)}).json
    assert data["replays"] == [] and "--elo-games N" in data["replays_note"]
    assert data["networks"] == []  # a TorchScript export is not played from the page


# ------------------------------------------------------------------ fuzz

SPECS = [
    "human",
    "random",
    "uct:3",
    "uct:0",
    "uct:9999999",
    "gtp:touch /tmp/x",
    "uci:x",
    "guard:gtp:x",
    "model:/etc",
    "mentor:1",
    "gnugo",
    "kr:2",
    "rule",
    "model:a:b:c=d",
]
GAMES = ["othello", "connect_four", "go", "gomoku", "racingkings", "chess", ""]
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),
    st.text(max_size=12),
    st.sampled_from(SPECS + GAMES),
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
KEYS = [
    "game",
    "options",
    "players",
    "seed",
    "delay",
    "moves",
    "move",
    "spec",
    "simulations",
    "wait",
    "x",
    "y",
    "ends",
    "dir",
]
bodies = st.one_of(
    st.fixed_dictionaries({}, optional={key: values for key in KEYS}),
    values,
    st.binary(max_size=30),
)
ROUTES = [
    ("GET", "/api/info"),
    ("POST", "/api/new"),
    ("GET", "/api/game/{}"),
    ("POST", "/api/game/{}/move"),
    ("POST", "/api/game/{}/analyse"),
    ("POST", "/api/game/{}/close"),
    ("POST", "/api/replay"),
    ("GET", "/api/run"),
    ("POST", "/api/curling/new"),
    ("GET", "/api/curling/{}"),
    ("POST", "/api/curling/{}/throw"),
    ("GET", "/"),
]


@pytest.fixture(scope="module")
def fuzzed() -> Iterator[tuple[Flask, list[str]]]:
    app = create_app()
    client = trusted(app)
    ids = [
        client.post("/api/new", json={"game": "connect_four", "players": ["human"] * 2}).json["id"]
    ]
    ids.append(client.post("/api/curling/new", json={"players": ["human", "human"]}).json["id"])
    yield app, ids
    app.extensions["pyaz_board"].close()  # the games the fuzz started stop their searches


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    route=st.sampled_from(ROUTES),
    game_id=st.one_of(st.sampled_from(["g1", "c1", "0"]), st.text(min_size=1, max_size=8)),
    body=bodies,
    query=st.dictionaries(st.sampled_from(["dir", "x"]), st.text(max_size=12), max_size=2),
    token=st.sampled_from(["own", "none", "wrong"]),
    origin=st.sampled_from([ORIGIN, None, "http://evil.example", "null"]),
    host=st.sampled_from(["localhost", "127.0.0.1:8000", "evil.example", "[::1]"]),
)
def test_fuzz_the_json_api_never_fails_inside(
    fuzzed: tuple[Flask, list[str]],
    route: tuple[str, str],
    game_id: str,
    body: Any,
    query: dict[str, str],
    token: str,
    origin: str | None,
    host: str,
) -> None:
    app, ids = fuzzed
    method, template = route
    game_id = ids[0] if game_id == "g1" else ids[1] if game_id == "c1" else game_id
    headers = {"Host": host}
    if token != "none":
        headers["X-Pyaz-Token"] = app.config["PYAZ_TOKEN"] if token == "own" else "x" + token
    if origin is not None:
        headers["Origin"] = origin
    data = body if isinstance(body, bytes) else json.dumps(body)
    path = template.format(game_id.replace("/", "_").replace("?", "_").replace("#", "_"))
    response = app.test_client().open(
        path,
        method=method,
        data=data,
        headers=headers,
        query_string=query,
        content_type="application/json",
    )
    assert response.status_code in {200, 400, 403, 404, 429}, (response.status_code, response.data)
    assert b"Traceback" not in response.data
    if path != "/":
        answer = _strict(response.data)
        assert response.status_code == 200 or set(answer) == {"error"}
