"""``pyaz-board``'s JSON API through Flask's test client: new games, moves, the command line's
messages for bad input, the live analysis, the run browser and curling."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from pyaz.cli.board import build_parser, main
from pyaz.cli.board.app import STATIC, create_app
from pyaz.cli.board.runs import curves, networks
from pyaz.cli.board.sessions import think
from pyaz.eval import presets
from pyaz.games import GAMES, make
from pyaz.nets.shipped import SHIPPED, shipped_for


def trusted(app: Flask) -> FlaskClient:
    """A client of ``app`` as its own page sends: the launch's token and the page's Origin."""
    client = app.test_client()
    client.environ_base["HTTP_X_PYAZ_TOKEN"] = app.config["PYAZ_TOKEN"]
    client.environ_base["HTTP_ORIGIN"] = "http://localhost"
    return client


@pytest.fixture
def client() -> FlaskClient:
    return trusted(create_app())


def _new(client: FlaskClient, game: str, players: list[str], **extra: Any) -> dict[str, Any]:
    response = client.post("/api/new", json={"game": game, "players": players, **extra})
    assert response.status_code == 200, response.json
    data: dict[str, Any] = response.json  # type: ignore[assignment]
    return data


def _wait(client: FlaskClient, game_id: str, ready: Any, seconds: float = 30.0) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while True:
        data: dict[str, Any] = client.get(f"/api/game/{game_id}").json  # type: ignore[assignment]
        if ready(data):
            return data
        assert time.monotonic() < deadline, f"timed out: {data}"
        time.sleep(0.05)


@pytest.mark.parametrize(
    ("game", "options", "kind", "shape", "legal", "first_legal"),
    [
        ("othello", {"size": 6}, "stones", (6, 6), 4, "c2"),
        ("connect_four", {}, "columns", (6, 7), 7, "1"),
        ("gomoku", {"size": 9}, "stones", (9, 9), 81, "a1"),
        ("go", {"size": 5}, "stones", (5, 5), 26, "A5"),
        ("racingkings", {}, "chess", (8, 8), 21, "e1c2"),
    ],
)
def test_a_new_game_of_every_game(
    client: FlaskClient,
    game: str,
    options: dict[str, Any],
    kind: str,
    shape: tuple[int, int],
    legal: int,
    first_legal: str,
) -> None:
    data = _new(client, game, ["human", "random"], options=options)
    assert data["game"] == game and data["kind"] == kind
    assert (len(data["board"]), len(data["board"][0])) == shape
    assert len(data["legal"]) == legal and data["legal"][0]["move"] == first_legal
    assert data["to_move"] == 0 and data["history"] == [] and not data["over"]
    assert data["players"] == ["human", "random"]
    if game == "racingkings":  # white king h2, black queen a1 (row 0 is the 8th rank)
        assert data["board"][6][7] == 6 and data["board"][7][0] == -5
        assert data["legal"][0]["from"] == [7, 4] and data["legal"][0]["cell"] == [6, 2]
    if game == "go":
        assert data["legal"][-1] == {"move": "pass", "from": None, "cell": None}
        assert data["col_labels"][:3] == ["A", "B", "C"] and data["row_labels"][0] == "5"


def test_a_game_written_in_python_is_drawn_from_its_board_array(client: FlaskClient) -> None:
    data = _new(client, "tictactoe", ["human", "human"])
    assert data["kind"] == "stones" and data["board"] == [[0, 0, 0]] * 3
    assert data["col_labels"] == ["a", "b", "c"] and data["row_labels"] == ["1", "2", "3"]
    assert data["legal"][4] == {"move": "b2", "from": None, "cell": [1, 1]}
    data = client.post(f"/api/game/{data['id']}/move", json={"move": "c1"}).json
    assert data["board"][0] == [0, 0, 1] and data["last"] == [None, [0, 2]]


def test_an_openspiel_game_is_played_from_its_legal_moves_cells(client: FlaskClient) -> None:
    pytest.importorskip("pyspiel")
    game = "openspiel:breakthrough(rows=5,columns=5)"
    data = _new(client, game, ["human", "random"], seed=3)
    assert data["game"] == game and data["kind"] == "pieces" and data["pick"] == "legal"
    assert data["board"] == [[1] * 5, [0] * 5, [0] * 5, [0] * 5, [2] * 5]  # black on top
    assert data["col_labels"] == list("abcde") and data["row_labels"] == list("54321")
    assert data["sides"] == ["Black (b)", "White (w)"] and data["to_move"] == 0
    assert data["legal"][:2] == [
        {"move": "a5a4", "from": [0, 0], "cell": [1, 0]},
        {"move": "a5b4", "from": [0, 0], "cell": [1, 1]},
    ]
    assert len(data["legal"]) == 13  # a corner pawn has two moves, the others three
    # a move as the page sends it (the legal move's text), then the opponent's reply
    data = client.post(f"/api/game/{data['id']}/move", json={"move": "c5c4"}).json
    assert data["board"][0] == [1, 1, 0, 1, 1] and data["board"][1] == [0, 0, 1, 0, 0]
    assert data["history"] == ["c5c4"] and data["last"] == [[0, 2], [1, 2]]
    data = _wait(client, data["id"], lambda d: len(d["history"]) == 2)
    reply = data["history"][1]  # a white pawn on rank 1 moved up
    start, end = data["last"]
    assert reply == "abcde"[start[1]] + "1" + "abcde"[end[1]] + "2" and start[0] == 4
    assert data["board"][4][start[1]] == 0 and data["board"][3][end[1]] == 2
    response = client.post(f"/api/game/{data['id']}/move", json={"move": "a1a2"})
    assert response.status_code == 400 and "Not a move" in response.json["error"]
    # to the end: the person's first legal move each time, the random player's replies
    while not data["over"]:
        plies = len(data["history"])
        data = client.post(
            f"/api/game/{data['id']}/move", json={"move": data["legal"][0]["move"]}
        ).json
        data = _wait(client, data["id"], lambda d, n=plies: d["over"] or len(d["history"]) == n + 2)
    assert data["legal"] == [] and data["result"] in (
        "Black (b) (human) wins",
        "White (w) (random) wins",
    )


@pytest.mark.parametrize(
    ("game", "kind", "labels", "move", "cell"),
    [
        ("openspiel:tic_tac_toe", "stones", ("012", "012"), "x(1,2)", [1, 2]),
        ("openspiel:connect_four", "columns", ("0123456", ""), "x3", [5, 3]),  # the bottom row
        ("openspiel:hex(board_size=5)", "hex", ("abcde", "12345"), "c2", [1, 2]),
        ("openspiel:othello", "stones", ("abcdefgh", "12345678"), "d3", [2, 3]),
    ],
)
def test_openspiel_games_that_put_a_piece_on_a_cell(
    client: FlaskClient, game: str, kind: str, labels: tuple[str, str], move: str, cell: list[int]
) -> None:
    pytest.importorskip("pyspiel")
    data = _new(client, game, ["human", "human"])
    assert data["kind"] == kind and data["pick"] == "legal"
    shape = (len(labels[1]) or 6, len(labels[0]))
    assert (len(data["board"]), len(data["board"][0])) == shape
    assert "".join(data["col_labels"]) == labels[0] and "".join(data["row_labels"]) == labels[1]
    assert {"move": move, "from": None, "cell": cell} in data["legal"]
    data = client.post(f"/api/game/{data['id']}/move", json={"move": move}).json
    assert data["board"][cell[0]][cell[1]] == 1 and data["last"] == [None, cell]
    assert data["to_move"] == 1 and data["history"] == [move]


def test_an_openspiel_games_search_shows_its_moves_cells(client: FlaskClient) -> None:
    pytest.importorskip("pyspiel")
    data = _new(client, "openspiel:breakthrough(rows=5,columns=5)", ["human", "human"])
    response = client.post(
        f"/api/game/{data['id']}/analyse",
        json={"spec": "uct:200", "simulations": 200, "wait": True},
    )
    analysis = response.json["analysis"]
    assert analysis["done"] and analysis["new"] == 200 and len(analysis["moves"]) == 13
    assert all(len(m["from"]) == 2 and m["cell"][0] == m["from"][0] + 1 for m in analysis["moves"])
    frames = client.post(
        "/api/replay",
        json={"game": "openspiel:tic_tac_toe", "moves": ["x(0,0)", "o(1,1)", "x(0,1)"]},
    ).json["frames"]
    assert [f["board"][0] for f in frames] == [[0, 0, 0], [1, 0, 0], [1, 0, 0], [1, 1, 0]]


@pytest.mark.parametrize(
    ("game", "options", "message"),
    [
        ("subprocess:Popen", {"args": ["true"]}, "is a module path, which pyaz imports"),
        ("os:system", {}, "is a module path, which pyaz imports"),
        ("openspiel:checkers", {}, "has no board() array"),  # kings: more than a side's piece
    ],
)
def test_a_request_never_imports_a_module_and_a_game_without_cells_is_refused(
    client: FlaskClient, game: str, options: dict[str, Any], message: str
) -> None:
    if game.startswith("openspiel:"):
        pytest.importorskip("pyspiel")
    response = client.post(
        "/api/new", json={"game": game, "options": options, "players": ["human"] * 2}
    )
    assert response.status_code == 400 and message in response.json["error"]


def test_a_legal_move_is_applied(client: FlaskClient) -> None:
    game = _new(client, "connect_four", ["human", "human"])
    data = client.post(f"/api/game/{game['id']}/move", json={"move": "4"}).json
    assert data["board"][5] == [0, 0, 0, 1, 0, 0, 0]
    assert data["history"] == ["4"] and data["to_move"] == 1
    assert data["last"] == [None, [5, 3]]
    assert data["legal"][3] == {"move": "4", "from": None, "cell": [4, 3]}


def test_bad_moves_get_the_command_lines_message(client: FlaskClient) -> None:
    game = _new(client, "connect_four", ["human", "human"], moves=["1"] * 6)
    move = f"/api/game/{game['id']}/move"
    response = client.post(move, json={"move": "zz"})
    assert response.status_code == 400
    with pytest.raises(ValueError) as expected:
        make("connect_four").str_to_action("zz")
    assert response.json == {"error": f"Not a move: {expected.value}"}
    response = client.post(move, json={"move": "1"})  # the column is full
    assert response.status_code == 400 and response.json == {"error": "1 is not legal here"}
    response = client.post(
        "/api/new", json={"game": "othello", "players": ["human"] * 2, "moves": ["a1"]}
    )
    assert response.status_code == 400 and response.json == {"error": "a1 is not legal here"}


@pytest.mark.parametrize(
    ("game", "options", "spec"),
    [
        ("connect_four", {}, "uct:x"),
        ("connect_four", {}, "nonsense"),
        ("connect_four", {}, "gnugo:1"),
        ("othello", {"size": 6}, "gtp-rhino"),
        ("connect_four", {}, "model:/no/such/run"),
    ],
)
def test_bad_specs_get_the_command_lines_message(
    game: str, options: dict[str, Any], spec: str
) -> None:
    # engines allowed and networks from /no/such: the spec's own message (no engine starts:
    # these do not fit the game)
    client = trusted(create_app(allow_engines=True, models=["/no/such"]))
    with pytest.raises((ValueError, OSError)) as expected:
        presets.make_player(spec, make(game, **options))
    response = client.post(
        "/api/new", json={"game": game, "options": options, "players": ["human", spec]}
    )
    assert response.status_code == 400
    assert response.json == {"error": str(expected.value)}


def test_bad_games_and_options_get_the_command_lines_message(client: FlaskClient) -> None:
    response = client.post(
        "/api/new", json={"game": "connect_four", "options": {"size": 5}, "players": ["human"] * 2}
    )
    assert response.status_code == 400
    assert response.json == {"error": "--size does not apply to connect_four"}
    response = client.post("/api/new", json={"game": "chess", "players": ["human"] * 2})
    assert response.status_code == 400 and response.json["error"].startswith("unknown game 'chess'")
    response = client.post("/api/new", json={"game": "othello", "players": ["human"]})
    assert response.status_code == 400 and "give two players" in response.json["error"]
    assert client.get("/api/game/nope").status_code == 404
    response = client.post("/api/new", data="not json", content_type="application/json")
    assert response.status_code == 400 and "error" in response.json


def test_the_engine_replies_and_its_search_is_shown(client: FlaskClient) -> None:
    game = _new(client, "connect_four", ["human", "uct:60"])
    client.post(f"/api/game/{game['id']}/move", json={"move": "4"})
    data = _wait(client, game["id"], lambda d: len(d["history"]) == 2 and not d["thinking"])
    analysis = data["analysis"]
    assert analysis["player"] == "uct:60" and analysis["done"] and analysis["target"] == 60
    assert analysis["new"] == 60 and analysis["ply"] == 1
    assert analysis["to_move"] == 1 and len(analysis["moves"]) == 7
    visits = [move["visits"] for move in analysis["moves"]]
    assert visits == sorted(visits, reverse=True) and 55 <= sum(visits) <= 60
    assert analysis["pv"][0] == analysis["moves"][0]["move"] == data["history"][1]
    assert -1.0 <= analysis["root_value"] <= 1.0 and 1 <= len(analysis["pv"]) <= 4


def test_the_analysis_puts_the_most_visits_on_an_immediate_win(client: FlaskClient) -> None:
    # X has 1, 2, 3 on the bottom row and is to move: column 4 wins at once
    game = _new(client, "connect_four", ["human", "human"], moves=["1", "1", "2", "2", "3", "3"])
    response = client.post(
        f"/api/game/{game['id']}/analyse", json={"spec": "uct:400", "wait": True}
    )
    analysis = response.json["analysis"]
    assert analysis["done"] and analysis["new"] == 400 and analysis["ply"] == 6
    best = analysis["moves"][0]
    assert best["move"] == "4" and best["cell"] == [5, 3]
    assert best["visits"] > sum(m["visits"] for m in analysis["moves"][1:])
    assert best["q"] == pytest.approx(1.0) and analysis["root_value"] > 0.5
    assert analysis["pv"][0] == "4"
    response = client.post(f"/api/game/{game['id']}/analyse", json={"spec": "random"})
    assert response.status_code == 400
    assert response.json["error"] == (
        "'random' has no tree search to show; analyse with uct:N or model:PATH"
    )


def test_the_search_is_shown_after_every_slice() -> None:
    state = make("connect_four")
    player = presets.make_player("uct:400", state)
    player.reset(state.clone())
    views: list[dict[str, Any]] = []
    action = think(player, state, views.append)
    assert [view["new"] for view in views] == [40 * k for k in range(1, 11)]
    assert [view["done"] for view in views] == [False] * 9 + [True]
    assert [view["simulations"] for view in views] == [40 * k for k in range(1, 11)]
    assert views[-1]["moves"][0]["move"] == str(state.action_to_str(action))
    # the tree's most visited line at every slice, as deep as the tree has grown (at most 4)
    assert all(1 <= len(view["pv"]) <= 4 for view in views) and len(views[-1]["pv"]) == 4
    assert views[-1]["pv"][0] == views[-1]["moves"][0]["move"]
    assert player.simulations == 400  # restored
    views.clear()
    assert think(presets.make_player("random", state), state, views.append) in range(7)
    assert views == []  # a player without a search shows nothing


def test_two_players_play_a_game_to_its_end(client: FlaskClient) -> None:
    game = _new(client, "othello", ["random", "uct:20"], options={"size": 4})
    data = _wait(client, game["id"], lambda d: d["over"])
    final = make("othello", size=4)
    for move in data["history"]:
        final.apply(final.str_to_action(move))
    assert final.is_terminal() and data["legal"] == [] and data["error"] is None
    assert data["result"].endswith(
        f"(discs X {int((final.board() == 1).sum())} - O {int((final.board() == 2).sum())})"
    )


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny real run of pyaz-selfplay: Connect Four 5x4, two iterations with evaluation and
    Elo games (about 10 s)."""
    out = tmp_path_factory.mktemp("board") / "run"
    command = [sys.executable, "-m", "pyaz.cli.selfplay", "--game", "connect_four"]
    command += ["--width", "5", "--height", "4", "--iterations", "2", "--episodes", "4"]
    command += ["--simulations", "16", "--epochs", "1", "--arena-games", "2", "--blocks", "1"]
    command += ["--filters", "8", "--eval-every", "1", "--eval-games", "2", "--elo-games", "2"]
    command += ["--elo-every", "1", "--quiet", "--out", str(out)]
    subprocess.run(command, check=True, timeout=180, capture_output=True)
    return out


def test_the_agreement_with_exact_play_is_a_curve() -> None:
    records = [  # the eval records of --eval-opponent perfect
        {"kind": "eval", "iteration": i, "perfect_agreement": a, "opponent": "perfect"}
        for i, a in ((2, 0.83), (4, 0.9))
    ]
    assert curves(records) == {
        "value-keeping moves (exact play)": {"perfect_agreement": [[2.0, 0.83], [4.0, 0.9]]}
    }


def test_a_run_folders_curves_networks_and_games(run_dir: Path) -> None:
    client = trusted(create_app(models=[str(run_dir)]))
    data = client.get("/api/run", query_string={"dir": str(run_dir)}).json
    assert data["game"] == "connect_four" and data["game_options"] == {"width": 5, "height": 4}
    records = [json.loads(line) for line in (run_dir / "metrics.jsonl").read_text().splitlines()]
    iterations = [r for r in records if r["kind"] == "iteration"]
    losses = data["curves"]["losses"]
    assert losses["loss"] == [[r["iteration"], r["loss"]] for r in iterations]
    assert set(losses) == {"loss", "loss_policy", "loss_value"}
    times = data["curves"]["stage times (s)"]["time_selfplay"]
    assert times == [[r["iteration"], r["time_selfplay"]] for r in iterations]
    evals = [[r["iteration"], r["win_ratio"]] for r in records if r["kind"] == "eval"]
    assert data["curves"]["win ratio"]["win_ratio"] == evals and len(evals) == 2
    elo = [[r["iteration"], r["elo"]] for r in records if r["kind"] == "elo"]
    assert data["curves"]["Elo"]["elo"] == elo and len(elo) == 2
    names = [net["name"] for net in data["networks"]]
    # played from their weights: the TorchScript export is not listed
    assert names == ["nets/iter-00001.pt", "nets/iter-00002.pt", "checkpoint.pt"]
    assert networks(run_dir) == data["networks"]
    assert data["networks"][1]["spec"] == f"model:{run_dir / 'nets' / 'iter-00002.pt'}"
    _, *saved = (run_dir / "elo" / "games.jsonl").read_text().splitlines()  # a header, the games
    assert len(data["replays"]) == len(saved) and data["replays_note"] == ""
    assert data["damaged"] == []
    # a network plays as its model: spec; a saved game replays to its end
    game = _new(
        client,
        "connect_four",
        ["human", data["networks"][1]["spec"] + ":8"],
        options={"width": 5, "height": 4},
    )
    client.post(f"/api/game/{game['id']}/move", json={"move": "3"})
    assert len(_wait(client, game["id"], lambda d: len(d["history"]) == 2)["history"]) == 2
    replay = data["replays"][0]
    frames = client.post("/api/replay", json=replay).json["frames"]
    assert len(frames) == len(replay["moves"]) + 1 and frames[0]["history"] == []
    assert frames[-1]["history"] == replay["moves"] and frames[-1]["over"]
    assert frames[-1]["players"] == replay["players"]


def test_the_run_given_on_the_command_line_is_the_default(run_dir: Path) -> None:
    client = trusted(create_app(str(run_dir)))
    assert client.get("/api/info").json["run"] == str(run_dir)
    data = client.get("/api/run").json
    assert data["dir"] == str(run_dir) and len(data["networks"]) == 3
    # its networks play (the --run folder is one the page may load from)
    game = _new(
        client,
        "connect_four",
        ["human", data["networks"][2]["spec"] + ":4"],
        options={"width": 5, "height": 4},
    )
    assert game["players"][1].endswith("checkpoint.pt:4")


def test_the_info_names_the_networks_that_ship(client: FlaskClient) -> None:
    """Every shipped network, on its full board, with the preset that plays it (as pyaz-play's
    default opponent) and its figure: what the page offers as the second player."""
    shipped = client.get("/api/info").json["shipped"]
    assert sorted(net["name"] for net in shipped) == sorted(SHIPPED)
    for net in shipped:
        network = SHIPPED[net["name"]]
        assert net["game"] == network.game and net["figure"] == network.figure
        assert net["spec"] == f"model:builtin:{net['name']}:{network.simulations}"
        assert net["options"].keys() == GAMES[network.game].options.keys()
        assert net["options"] == {**net["options"], **network.game_options}
        assert shipped_for(net["game"], net["options"]) == net["name"]
        player = presets.make_player(net["spec"], make(net["game"], **net["options"]))
        assert player is not None
        # and the board lets the page play it (a person moves first: nothing searches)
        game = _new(client, net["game"], ["human", net["spec"]], options=net["options"])
        assert game["players"] == ["human", net["spec"]]
        client.post(f"/api/game/{game['id']}/close")


def test_a_folder_without_a_run_is_a_clear_error(client: FlaskClient, tmp_path: Path) -> None:
    response = client.get("/api/run", query_string={"dir": str(tmp_path / "none")})
    assert response.status_code == 400
    assert response.json == {"error": f"run folder not found: {tmp_path / 'none'}"}
    response = client.get("/api/run", query_string={"dir": str(tmp_path)})
    assert response.json == {"error": f"{tmp_path} holds no run (no config.json or metrics.jsonl)"}
    assert client.get("/api/run").status_code == 400


def test_curling_rule_against_a_person(client: FlaskClient) -> None:
    data = client.post("/api/curling/new", json={"players": ["human", "rule"], "ends": 1}).json
    assert data["human_turn"] and data["stones"] == [] and data["score"] == [0, 0]
    throw = f"/api/curling/{data['id']}/throw"
    response = client.post(throw, json={})
    assert response.status_code == 400 and "give the point" in response.json["error"]
    tee = data["sheet"]["tee"]
    for _ in range(8):
        assert client.post(throw, json={"x": 0.0, "y": tee}).json["to_move"] == 1
        data = client.post(throw, json={}).json
    assert data["over"] and data["end_scores"] == [data["score"]]
    assert sum(data["score"]) >= 1 and len(data["stones"]) >= 1
    response = client.post("/api/curling/new", json={"players": ["human", "alphazero"]})
    assert (
        response.status_code == 400
        and "curling player 'alphazero': unknown player" in response.json["error"]
    )
    response = client.post("/api/curling/new", json={"players": ["uct:100", "human"]})
    assert response.status_code == 400 and "not curling" in response.json["error"]


def test_curling_presets_play_as_in_the_arena(client: FlaskClient) -> None:
    """KR-UCT (kr:N, pyaz-arena's preset) against the rule-based player, one end to its count."""
    data = client.post("/api/curling/new", json={"players": ["kr:4", "rule"], "ends": 1}).json
    for _ in range(16):
        data = client.post(f"/api/curling/{data['id']}/throw", json={}).json
    assert data["over"] and data["end_scores"] == [data["score"]] and data["players"][0] == "kr:4"


def test_the_page_and_the_command_line(
    client: FlaskClient, capsys: pytest.CaptureFixture[str]
) -> None:
    page = client.get("/")
    assert page.status_code == 200 and b'<canvas id="board"' in page.data
    for name in ("index.html", "board.js", "board.css"):
        text = (STATIC / name).read_text(encoding="utf-8")
        assert "http://" not in text and "https://" not in text  # nothing fetched from outside
        assert client.get(f"/static/{name}").status_code == 200
    assert build_parser().parse_args([]).host == "127.0.0.1"
    with pytest.raises(SystemExit) as exited:
        main(["--help"])
    assert exited.value.code == 0
    assert "--run DIR" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exited:
        main(["--run", "/no/such/run"])
    assert exited.value.code == 2
    assert "run folder not found: /no/such/run" in capsys.readouterr().err
