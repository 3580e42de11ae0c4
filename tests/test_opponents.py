"""Named opponents (pyaz.eval.players): presets build, play legal moves, and drive real engines.

GNU Go, Fairy-Stockfish and GRhino (gtp-rhino) are required: a missing one fails its tests
(CI installs them). Pachi is optional (it is not packaged); its game test skips without it.
"""

from __future__ import annotations

import os
import random
import shutil
import stat
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import pyaz
from pyaz.engines import process
from pyaz.engines.gtp import GtpEngine
from pyaz.eval.arena import play_game
from pyaz.eval.external import GtpPlayer, UciPlayer
from pyaz.eval.players import RandomPlayer, SearchPlayer, close_player
from pyaz.eval.presets import make_player, with_simulations
from pyaz.nets import load_model

GAME_DIRS = ("/usr/games", "/usr/local/games")


def _engine(name: str, install: str) -> str:
    for candidate in (shutil.which(name), *(os.path.join(d, name) for d in GAME_DIRS)):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    pytest.fail(f"{name} is not installed (CI installs it): apt-get install {install}")


@pytest.fixture(scope="module")
def go5() -> pyaz.Go:
    return pyaz.make("go", size=5)


def _replay(start: pyaz.BoardGameState, actions: list[int]) -> pyaz.BoardGameState:
    state = start.clone()
    for action in actions:
        assert state.is_legal(action)
        state.apply(action)
    return state


# --------------------------------------------------------------------------- in-process presets


def test_random_and_uct_presets_play_legal_games() -> None:
    start = pyaz.make("connect_four")
    uct = make_player("uct:50", start, seed=1)
    assert isinstance(uct, SearchPlayer)
    assert (uct.name, uct.simulations, uct.search_options["rule"]) == ("uct:50", 50, "uct")
    reference = make_player("uct200", start)
    assert isinstance(reference, SearchPlayer) and reference.simulations == 200
    assert make_player("UCT30", start).simulations == 30  # type: ignore[attr-defined]
    rand = make_player("random", start, seed=3)
    assert isinstance(rand, RandomPlayer) and rand.name == "random"
    for first, second in ((uct, rand), (rand, uct)):
        record = play_game(first, second, start)
        final = _replay(start, record.actions)
        assert final.is_terminal() and record.resigned is None
        assert final.status() == record.status
    assert play_game(uct, rand, start).winner == 0  # UCT beats random


def test_play_game_replays_the_opening_to_both_players() -> None:
    start = pyaz.make("othello", size=6)
    first_move = start.legal_actions()[0]
    opening = [first_move, start.child(first_move).legal_actions()[-1]]
    record = play_game(make_player("uct:20", start), RandomPlayer(seed=2), start, opening)
    assert record.opening == opening
    assert record.all_actions[:2] == opening
    assert _replay(start, record.all_actions).is_terminal()
    with pytest.raises(ValueError, match="illegal"):
        play_game(RandomPlayer(), RandomPlayer(), start, [0])  # a corner: never legal first


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A tiny untrained Connect Four network saved as a checkpoint, a run folder and TorchScript."""
    import torch

    from pyaz.nets import PolicyValueNet, net_config_for, net_state, to_torchscript

    folder = tmp_path_factory.mktemp("model")
    net = PolicyValueNet(net_config_for(pyaz.make("connect_four"), blocks=1, filters=8))
    checkpoint = folder / "iter-00001.pt"
    torch.save({"net": net_state(net), "iteration": 1}, checkpoint)
    run = folder / "run"
    run.mkdir()
    torch.save(
        {"best": net_state(net), "config": {"c_puct": 2.5, "draw_value": -0.5}},
        run / "checkpoint.pt",
    )
    scripted = folder / "best.torchscript.pt"
    torch.jit.save(to_torchscript(net), str(scripted))
    return {"checkpoint": checkpoint, "run": run, "torchscript": scripted}


def test_model_presets_load_checkpoints_run_folders_and_torchscript(
    tiny_model: dict[str, Path],
) -> None:
    start = pyaz.make("connect_four")
    default = make_player(f"model:{tiny_model['checkpoint']}", start)
    assert isinstance(default, SearchPlayer) and default.simulations == 100
    run = make_player(f"model:{tiny_model['run']}:6", start)
    assert isinstance(run, SearchPlayer) and run.simulations == 6
    assert run.search_options["c_puct"] == 2.5 and run.search_options["draw_value"] == -0.5
    player = make_player(f"model:{tiny_model['checkpoint']}:6", start)
    record = play_game(player, RandomPlayer(seed=1), start)
    assert _replay(start, record.actions).is_terminal()
    with pytest.raises(ValueError, match="pyaz does not execute TorchScript files"):
        make_player(f"model:{tiny_model['torchscript']}:6", start)  # issue 74


def test_model_presets_choose_the_search_rule_and_the_solver(
    tiny_model: dict[str, Path],
) -> None:
    # X holds three of the bottom row (columns d, e, f), open at both ends, and O is to move:
    # every reply of O loses, which the proving search proves (two plies)
    start = pyaz.make("connect_four")
    for action in (3, 3, 4, 4, 5):
        start.apply(action)
    run = tiny_model["run"]
    plain = make_player(f"model:{run}:400", start)
    assert isinstance(plain, SearchPlayer)
    assert "rule" not in plain.search_options and "solver" not in plain.search_options
    spec = f"model:{run}:400:rule=gumbel, Solver=ON"
    player = make_player(spec, start)
    assert isinstance(player, SearchPlayer) and player.simulations == 400
    assert (player.search_options["rule"], player.search_options["solver"]) == ("gumbel", True)
    assert player.search_options["c_puct"] == 2.5  # the run's settings stay
    player.reset(start)
    player.choose(start)
    assert player.search.proven_value() == -1  # the solver ran: every O reply loses
    assert make_player(f"model:{run}:solver=off", start).search_options["solver"] is False
    record = play_game(make_player(spec, start), RandomPlayer(seed=2), pyaz.make("connect_four"))
    assert _replay(pyaz.make("connect_four"), record.actions).is_terminal()
    for bad, message in (
        (f"model:{run}:400:rule=uct", r"rule must be puct or gumbel, got 'uct'"),
        (f"model:{run}:c_puct=2", r"unknown search option 'c_puct' \(known: rule, solver\)"),
        (f"model:{run}:9:solver=yes", r"solver must be on or off, got 'yes'"),
    ):
        with pytest.raises(ValueError, match=message):
            make_player(bad, start)
    assert with_simulations(f"model:{run}:9:solver=on", 30) == f"model:{run}:30:solver=on"
    assert with_simulations(f"model:{run}", 30) == f"model:{run}:30"


def test_load_model_is_cached_by_path_and_modification_time(
    tiny_model: dict[str, Path], tmp_path: Path
) -> None:
    run = tiny_model["run"]
    model = load_model(run, cached=True)
    assert load_model(run / "checkpoint.pt", cached=True) is model  # one file, one module
    assert model.path == (run / "checkpoint.pt").resolve()
    assert model.settings == {"c_puct": 2.5, "draw_value": -0.5}
    copy = tmp_path / "iter-00001.pt"
    shutil.copyfile(tiny_model["checkpoint"], copy)
    first = load_model(copy, cached=True)
    assert load_model(str(copy), cached=True) is first
    os.utime(copy, ns=(0, copy.stat().st_mtime_ns + 10**9))  # the file changed: load again
    again = load_model(copy, cached=True)
    assert again is not first and again.iteration == 1


def test_model_presets_reject_other_games_and_missing_files(
    tiny_model: dict[str, Path], tmp_path: Path
) -> None:
    othello = pyaz.make("othello", size=6)
    with pytest.raises(ValueError, match="another game or board size"):
        make_player(f"model:{tiny_model['checkpoint']}", othello)
    with pytest.raises(ValueError, match="pyaz does not execute TorchScript files"):
        make_player(f"model:{tiny_model['torchscript']}", othello)
    with pytest.raises(FileNotFoundError, match="not found"):
        make_player(f"model:{tmp_path / 'nothing.pt'}", othello)
    with pytest.raises(FileNotFoundError, match="not a run folder"):
        make_player(f"model:{tmp_path}", othello)


# --------------------------------------------------------------------------- spec checking


@pytest.mark.parametrize(
    ("spec", "game", "message"),
    [
        ("gnugo:1", "connect_four", "plays go, not connect_four"),
        ("pachi:500", "othello", "plays go"),
        ("gtp-rhino:1", "go", "plays othello"),
        ("fairy-stockfish:2", "othello", "plays racingkings"),
        ("lichess:2", "go", "plays racingkings"),
        ("gtp:gnugo --mode gtp", "gomoku", "plays go or othello"),
        ("uci:fairy-stockfish", "go", "plays racingkings"),
        ("chess-master", "go", "unknown player"),
        ("uct:many", "go", "must be an integer"),
        ("uct:0", "go", r"must be in 1\.\."),
        ("gnugo:11", "go", r"level must be in 0\.\.10"),
        ("gtp-rhino:6", "othello", r"level must be in 1\.\.5"),
        ("fairy-stockfish:21", "racingkings", r"Skill Level must be in -20\.\.20"),
        ("lichess:9", "racingkings", r"lichess level must be in 1\.\.8"),
        ("random:3", "go", "takes no argument"),
        ("model:", "go", "say which network"),
        ("gtp:", "go", "give the engine's command line"),
    ],
)
def test_presets_are_checked_against_the_game(spec: str, game: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_player(spec, pyaz.make(game))


def test_gtp_rhino_needs_8x8() -> None:
    with pytest.raises(ValueError, match="8x8 only"):
        make_player("gtp-rhino:1", pyaz.make("othello", size=6))


def test_missing_engines_say_how_to_install(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(process, "GAME_DIRS", ())
    with pytest.raises(FileNotFoundError, match="gtp-rhino not found: apt-get install grhino"):
        make_player("gtp-rhino:1", pyaz.make("othello"))
    with pytest.raises(
        FileNotFoundError, match="fairy-stockfish not found: apt-get install fairy-stockfish"
    ):
        make_player("fairy-stockfish:-5", pyaz.make("racingkings-mod"))
    with pytest.raises(FileNotFoundError, match="pachi not found on PATH: build the Pachi"):
        make_player("pachi:500", pyaz.make("go", size=9))
    with pytest.raises(FileNotFoundError, match="no-such-engine not found"):
        make_player("gtp:no-such-engine --gtp", pyaz.make("go", size=9))
    with pytest.raises(FileNotFoundError, match="no-such-engine not found"):
        make_player("uci:no-such-engine", pyaz.make("racingkings"))


def _script(folder: Path, name: str, body: str) -> Path:
    path = folder / name
    path.write_text(f"#!{sys.executable}\n{body}")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


FAKE_GTP = """
import sys
reply = {reply!r}
for line in sys.stdin:
    command = line.split()
    if not command:
        continue
    if command[0] == "quit":
        print("=\\n", flush=True)
        break
    answer = reply if command[0] == "genmove" else ({name!r} if command[0] == "name" else "")
    print(f"= {{answer}}\\n", flush=True)
"""


def test_a_pachi_that_is_not_the_go_engine_is_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    _script(tmp_path, "pachi", "import sys\nprint('Pachi el marciano: no display')\nsys.exit(1)\n")
    with pytest.raises(FileNotFoundError, match=r"not the Pachi Go engine.*unrelated game"):
        make_player("pachi:500", pyaz.make("go", size=9))
    _script(tmp_path, "pachi", FAKE_GTP.format(reply="pass", name="SomethingElse"))
    with pytest.raises(FileNotFoundError, match="'SomethingElse', not Pachi"):
        make_player("pachi:500", pyaz.make("go", size=9))


def test_pachi_plays_go_when_installed(go5: pyaz.Go) -> None:
    path = shutil.which("pachi")
    if path is None:
        pytest.skip("no Pachi Go engine on PATH (optional: github.com/pasky/pachi, not packaged)")
    try:
        player = make_player("pachi:500", go5)
    except FileNotFoundError as error:
        pytest.skip(f"the 'pachi' on PATH is not the Pachi Go engine: {error}")
    with player:  # type: ignore[attr-defined]
        record = play_game(player, RandomPlayer(seed=1), go5)
    assert _replay(go5, record.actions).is_terminal()


def test_an_engine_that_resigns_loses(tmp_path: Path, go5: pyaz.Go) -> None:
    script = _script(tmp_path, "resigner", FAKE_GTP.format(reply="resign", name="Resigner"))
    player = make_player(f"gtp:{script}", go5)
    try:
        assert isinstance(player, GtpPlayer)
        record = play_game(RandomPlayer(seed=1), player, go5)
        assert record.resigned == 1 and record.winner == 0
        assert record.status == pyaz.Status.FIRST_PLAYER_WIN
        assert len(record.actions) == 1
    finally:
        close_player(player)
    assert not player.engine.alive


# --------------------------------------------------------------------------- GNU Go


def test_gnugo_plays_5x5_against_random(go5: pyaz.Go) -> None:
    _engine("gnugo", "gnugo")
    with make_player("gnugo:1", go5, seed=3) as gnugo:  # type: ignore[attr-defined]
        assert isinstance(gnugo, GtpPlayer)
        for game in range(2):
            random_player = RandomPlayer(seed=game)
            first, second = (gnugo, random_player) if game == 0 else (random_player, gnugo)
            record = play_game(first, second, go5)
            final = _replay(go5, record.actions)
            assert final.is_terminal()
            assert record.winner == game  # GNU Go wins with either colour
            # --capture-all-dead: pyaz's Tromp-Taylor count is GNU Go's own score.
            score = gnugo.engine.final_score()
            assert score == f"{'B' if final.score() > 0 else 'W'}+{abs(final.score()):.1f}"
    assert not gnugo.engine.alive


def test_gnugo_follows_a_game_started_elsewhere(go5: pyaz.Go) -> None:
    _engine("gnugo", "gnugo")
    state = go5.clone()
    state.play("C3 B2 pass")
    with make_player("gnugo:1", go5) as gnugo:  # type: ignore[attr-defined]
        gnugo.reset(state)  # setup stones are sent as moves
        stones = {v: c for c in ("black", "white") for v in gnugo.engine.list_stones(c)}
        assert stones == {"C3": "black", "B2": "white"}
        action = gnugo.choose(state)
        assert state.is_legal(action)


def test_generic_gtp_spec_runs_any_engine(go5: pyaz.Go) -> None:
    path = _engine("gnugo", "gnugo")
    player = make_player(f"gtp:{path} --mode gtp --level 0", go5)
    try:
        record = play_game(RandomPlayer(seed=5), player, go5)
        assert _replay(go5, record.actions).is_terminal()
    finally:
        close_player(player)


# --------------------------------------------------------------------------- Fairy-Stockfish


def test_fairy_stockfish_plays_the_modified_start_against_random() -> None:
    _engine("fairy-stockfish", "fairy-stockfish")
    start = pyaz.make("racingkings-mod")
    assert start.fen() == pyaz.RacingKings.MOD_FEN
    with make_player("fairy-stockfish:-5", start) as engine:  # type: ignore[attr-defined]
        assert isinstance(engine, UciPlayer)
        assert "Fairy-Stockfish" in engine.engine.id["name"]
        assert engine.limits == "depth 5 movetime 100"
        for game in range(2):
            random_player = RandomPlayer(seed=game)
            first, second = (engine, random_player) if game == 0 else (random_player, engine)
            record = play_game(first, second, start)
            # Every engine move was checked legal by play_game; skill -5 plays random blunders
            # (time-seeded), so it usually wins or stalemates but may lose: no result asserted.
            assert _replay(start, record.actions).is_terminal()
    with make_player("fairy-stockfish:20:3", start) as strong:  # type: ignore[attr-defined]
        assert strong.limits == "depth 3 movetime 100"
        record = play_game(RandomPlayer(seed=9), strong, start)
        assert record.winner == 1  # full strength at depth 3 beats random


def test_lichess_levels_and_the_generic_uci_spec() -> None:
    path = _engine("fairy-stockfish", "fairy-stockfish")
    start = pyaz.make("racingkings")
    with make_player("lichess:2", start) as level2:  # type: ignore[attr-defined]
        assert level2.limits == "depth 5 movetime 100"  # Skill Level -5, as lichess's level 2
        level2.reset(start)
        assert start.is_legal(level2.choose(start))
    player = make_player(f"uci:{path}", start)
    try:
        player.reset(start)
        action = player.choose(start)
        assert start.is_legal(action)
        player.observe(action)
        reply = start.child(action)
        assert reply.is_legal(player.choose(reply))
    finally:
        close_player(player)


# --------------------------------------------------------------------------- GRhino


@pytest.fixture(scope="module")
def rhino() -> Iterator[GtpPlayer]:
    """Level 3, as level 1 is not sure to beat the random player: GRhino's opening book varies
    its moves from run to run, and CI once saw level 1 lose a game to random."""
    _engine("gtp-rhino", "grhino")
    player = make_player("gtp-rhino:3", pyaz.make("othello"))
    assert isinstance(player, GtpPlayer)
    yield player
    player.close()


def test_gtp_rhino_uses_pyaz_othello_coordinates(rhino: GtpPlayer) -> None:
    start = pyaz.make("othello")
    board = rhino.engine.send("showboard")
    # Row 1 at the top, d4 White and e4 Black: pyaz's own picture of the start.
    assert "4 . . . O X . . ." in board and "5 . . . X O . . ." in board
    rhino.reset(start)
    action = rhino.choose(start)
    assert start.action_to_str(action) in ("d3", "c4", "f5", "e6")


def test_gtp_rhino_beats_random_and_agrees_on_the_score(rhino: GtpPlayer) -> None:
    start = pyaz.make("othello")
    for game in range(2):
        random_player = RandomPlayer(seed=game)
        first, second = (rhino, random_player) if game == 0 else (random_player, rhino)
        record = play_game(first, second, start)
        final = _replay(start, record.actions)
        assert final.is_terminal() and record.winner == game
        board = final.board()
        black, white = int((board == 1).sum()), int((board == 2).sum())
        empty = 64 - black - white  # GRhino gives the empty squares to the winner
        expected = f"B+{black - white + empty}" if black > white else f"W+{white - black + empty}"
        assert rhino.engine.final_score().upper() == expected


def test_gtp_rhino_follows_passes(rhino: GtpPlayer) -> None:
    """Random games with passes are replayed to the engine, which then moves legally."""
    start = pyaz.make("othello")
    pass_action = start.num_actions - 1
    checked = 0
    rng = random.Random(7)
    while checked < 3:
        state, moves = start.clone(), []
        while not state.is_terminal() and pass_action not in moves[-2:-1]:
            action = rng.choice(state.legal_actions())
            state.apply(action)
            moves.append(action)
        if pass_action not in moves or state.is_terminal():
            continue
        rhino.reset(start)
        for action in moves:
            rhino.observe(action)
        action = rhino.choose(state)
        assert state.is_legal(action)
        checked += 1


def test_gtp_rhino_refuses_other_start_positions(rhino: GtpPlayer) -> None:
    state = pyaz.make("othello")
    state.play("d3")
    with pytest.raises(ValueError, match="standard position"):
        rhino.reset(state)


def test_gtp_engine_closes_on_leaving_the_block(go5: pyaz.Go) -> None:
    _engine("gnugo", "gnugo")
    with make_player("gnugo:0", go5) as player:  # type: ignore[attr-defined]
        engine: GtpEngine = player.engine
        assert engine.alive
    assert not engine.alive
