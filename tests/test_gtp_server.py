"""``pyaz-gtp``: the GTP server driven in-process (every command and error case), the command
line (``--help``, ``--model``), and real games against GNU Go through pyaz's GTP client.

The games against GNU Go start ``pyaz-gtp`` as a subprocess and alternate genmove/play between
the two engines on 5x5 (and once on 9x9, with a ply cap); a pyaz referee checks every move and
both engines' ``final_score``. CI installs GNU Go; without it these tests fail, never skip.
"""

from __future__ import annotations

import io
import random
import re
import shutil
import sys
import time
from pathlib import Path

import pytest

import pyaz
from pyaz.cli import gtp as gtp_cli
from pyaz.engines.gtp import GtpEngine, GtpEngineNotFoundError, find_gnugo, gnugo
from pyaz.engines.gtp_server import GtpServer
from pyaz.engines.search import EngineSearch

SCORE = re.compile(r"0|[BW]\+[0-9]+(\.[0-9]+)?")
COLOURS = ("black", "white")


def make_server(size: int = 5, komi: float | None = 0.5, **options: object) -> GtpServer:
    options.setdefault("simulations", 64)
    return GtpServer(EngineSearch.uct(seed=1), size=size, komi=komi, **options)  # type: ignore[arg-type]


def ask(server: GtpServer, line: str) -> tuple[bool, str]:
    """(success, text) of the answer to ``line``, checking the answer's framing."""
    answer = server.handle(line)
    assert answer is not None, f"no answer to {line!r}"
    assert answer.endswith("\n\n") and not answer[:-2].endswith("\n"), repr(answer)
    assert answer[0] in "=?", repr(answer)
    body = answer[1:-2]
    ident = body[: len(body) - len(body.lstrip("0123456789"))]
    return answer[0] == "=", body[len(ident) :].strip()


def ok(server: GtpServer, line: str) -> str:
    success, text = ask(server, line)
    assert success, f"{line!r} failed: {text}"
    return text


def fails(server: GtpServer, line: str, message: str) -> None:
    success, text = ask(server, line)
    assert not success, f"{line!r} succeeded: {text}"
    assert message in text, f"{line!r}: {text!r} lacks {message!r}"


# --------------------------------------------------------------------------- protocol


def test_framing_ids_comments_case_and_blank_lines() -> None:
    server = make_server()
    assert server.handle("1 protocol_version") == "=1 2\n\n"
    assert server.handle("protocol_version") == "= 2\n\n"
    assert server.handle("") is None
    assert server.handle("   \t  \n") is None
    assert server.handle("# a comment") is None
    assert server.handle("7 name # trailing comment") == "=7 pyaz\n\n"
    assert server.handle("PROTOCOL_VERSION\r\n") == "= 2\n\n"
    assert server.handle("\tname\x01\n") == "= pyaz\n\n"
    assert server.handle("12 nonsense") == "?12 unknown command\n\n"
    assert server.handle("nonsense arg") == "? unknown command\n\n"
    assert server.handle("5") == "?5 missing command\n\n"
    assert ok(server, "version").startswith(pyaz.__version__)


def test_known_and_listed_commands() -> None:
    server = make_server()
    listed = ok(server, "list_commands").split("\n")
    required = [
        *("protocol_version", "name", "version", "known_command", "list_commands", "quit"),
        *("boardsize", "clear_board", "komi", "play", "genmove", "undo", "showboard"),
        *("final_score", "time_settings", "time_left"),
    ]
    assert set(required) <= set(listed)
    assert len(listed) == len(set(listed))
    for command in listed:
        assert ok(server, f"known_command {command}") == "true"
    assert ok(server, "known_command frobnicate") == "false"
    fails(server, "known_command", "syntax error")


def test_boardsize_and_clear_board() -> None:
    server = make_server()
    ok(server, "play b C3")
    ok(server, "boardsize 9")
    assert server.state.size == 9 and server.state.ply == 0
    assert server.state.komi == 0.5  # komi is kept across boardsize
    fails(server, "boardsize 4", "unacceptable size")
    fails(server, "boardsize 25", "unacceptable size")
    fails(server, "boardsize nine", "syntax error")
    fails(server, "boardsize", "syntax error")
    assert server.state.size == 9
    ok(server, "play b E5")
    ok(server, "clear_board")
    assert server.state.ply == 0 and not server.moves
    fixed = make_server(fixed_size=5)
    fails(fixed, "boardsize 9", "unacceptable size")
    ok(fixed, "boardsize 5")
    with pytest.raises(ValueError, match="board size"):
        make_server(size=4)


def test_komi() -> None:
    server = make_server(komi=0.0)
    assert ok(server, "final_score") == "0"
    ok(server, "komi 6.5")
    assert server.state.komi == 6.5
    assert ok(server, "final_score") == "W+6.5"
    ok(server, "play b C3")
    ok(server, "komi -2")  # a new komi keeps the moves
    assert server.state.ply == 1 and ok(server, "final_score") == "B+27"
    fails(server, "komi lots", "syntax error")
    fails(server, "komi inf", "syntax error")
    fails(server, "komi", "syntax error")


def test_play_and_its_errors() -> None:
    server = make_server()
    ok(server, "play b C3")
    ok(server, "play WHITE d3")
    assert server.state.ply == 2
    fails(server, "play b C3", "illegal move")  # occupied
    fails(server, "play b Z9", "invalid coordinate")
    fails(server, "play b F3", "invalid coordinate")  # off the 5x5 board
    fails(server, "play b I3", "invalid coordinate")  # GTP has no column I
    fails(server, "play x C2", "invalid color")
    fails(server, "play b", "syntax error")
    fails(server, "play", "syntax error")
    assert server.state.ply == 2  # nothing changed
    ok(server, "play b pass")
    assert server.state.passes == 1


def test_suicide_and_ko_are_illegal() -> None:
    corner = make_server()
    ok(corner, "play b A2")
    ok(corner, "play b B1")
    fails(corner, "play w A1", "illegal move")  # suicide
    ko = make_server()
    for move in ("b B3", "w C3", "b A2", "w B2", "b B1", "w C1", "b E5", "w D2", "b C2"):
        ok(ko, f"play {move}")  # Black C2 takes White B2: a ko
    fails(ko, "play w B2", "illegal move")
    ok(ko, "play w E1")
    ok(ko, "play b E2")
    ok(ko, "play w B2")  # after a move elsewhere White may take back
    fails(ko, "play b pass pass", "syntax error")


def test_genmove_plays_legal_moves_until_both_pass() -> None:
    server = make_server(simulations=48)
    referee = pyaz.Go(5, komi=0.5, max_game_length=10**6)
    for ply in range(120):
        colour = COLOURS[referee.to_move()]
        vertex = ok(server, f"{ply} genmove {colour}")
        assert vertex != "resign"
        assert vertex == vertex.upper() or vertex == "pass", vertex
        action = referee.vertex_to_action(vertex)
        assert referee.is_legal(action), f"{vertex} is illegal\n{referee}"
        referee.apply(action)
        assert str(server.state) == str(referee)
        if referee.is_terminal():
            break
    assert ok(server, "final_score") == score_text(referee.score())


def test_reg_genmove_does_not_play() -> None:
    server = make_server()
    vertex = ok(server, "reg_genmove b")
    assert server.state.ply == 0 and server.state.is_legal(server.state.vertex_to_action(vertex))
    fails(server, "reg_genmove", "syntax error")
    fails(server, "genmove purple", "invalid color")


def test_undo_replays_the_history() -> None:
    server = make_server()
    fails(server, "undo", "cannot undo")
    ok(server, "play b C3")
    before = str(server.state)
    ok(server, "genmove w")
    ok(server, "play b B2")
    ok(server, "undo")
    ok(server, "undo")
    assert str(server.state) == before and len(server.moves) == 1
    ok(server, "play b D4")  # out of turn: Black again
    ok(server, "play b D2")
    ok(server, "undo")
    assert server.state.to_move() == 1 and len(server.moves) == 2
    assert ok(server, "final_score") == "B+24.5"  # C3 and D4 are Black's
    ok(server, "undo")
    ok(server, "undo")
    fails(server, "undo", "cannot undo")
    assert server.state.ply == 0


def test_showboard() -> None:
    server = make_server()
    ok(server, "play b C3")
    board = ok(server, "showboard")
    lines = board.split("\n")
    assert any(line.split()[:1] == ["3"] and "X" in line for line in lines), board
    assert "A B C D E" in board and "O to move" in board
    answer = server.handle("showboard")
    assert answer is not None and answer.startswith("= \n")  # the board begins on its own line
    assert "\n\n" not in answer[:-2]


def score_text(score: float) -> str:
    return "0" if score == 0 else f"{'B' if score > 0 else 'W'}+{abs(score):g}"


def test_final_score_is_tromp_taylor() -> None:
    server = make_server(komi=0.5)
    assert ok(server, "final_score") == "W+0.5"
    ok(server, "play b C3")
    assert ok(server, "final_score") == "B+24.5"
    ok(server, "play w B3")
    assert ok(server, "final_score") == "W+0.5"  # every empty point touches both colours
    server = make_server(komi=7.5, size=9)
    for vertex in ("A1", "B1", "C1"):
        ok(server, f"play w {vertex}")
    assert ok(server, "final_score") == "W+88.5"
    assert ok(server, "final_status_list dead") == ""
    assert ok(server, "final_status_list seki") == ""
    assert sorted(ok(server, "final_status_list alive").split()) == ["A1", "B1", "C1"]
    fails(server, "final_status_list", "syntax error")


def test_out_of_turn_moves_and_moves_after_two_passes() -> None:
    server = make_server()
    ok(server, "play b C3")
    ok(server, "play b D3")  # White passed silently (or handicap stones)
    assert server.state.to_move() == 1
    ok(server, "play w pass")
    ok(server, "play b pass")
    assert server.state.is_terminal()
    ok(server, "play w B2")  # the controller goes on after both passed
    vertex = ok(server, "genmove w")  # out of turn again
    assert vertex != "resign"
    ok(server, "play b pass")
    ok(server, "play w pass")
    assert ok(server, "genmove b") != "resign"


def test_set_free_handicap_and_cleanup() -> None:
    server = make_server(size=9, komi=0.5)
    ok(server, "set_free_handicap C3 G7")
    assert server.state.to_move() == 1 and ok(server, "final_score") == "B+80.5"
    fails(server, "set_free_handicap D4", "board not empty")
    fresh = make_server(size=9)
    fails(fresh, "set_free_handicap C3 C3", "bad vertex list")
    fails(fresh, "set_free_handicap", "syntax error")
    fails(fresh, "set_free_handicap Z1", "invalid coordinate")
    assert not fresh.moves
    vertex = ok(server, "kgs-genmove_cleanup w")
    assert server.state.to_move() == 0 and vertex != "resign"


def test_time_controls_cap_the_search() -> None:
    server = make_server(size=9, komi=7.5, simulations=10**8)
    ok(server, "time_settings 0 1 0")  # byo-yomi time without stones: no limit
    assert server._move_seconds(0, server.state) is None
    ok(server, "time_settings 5 0 0")  # 5 s absolute
    ok(server, "time_left b 0.3 0")
    began = time.perf_counter()
    ok(server, "genmove b")
    assert time.perf_counter() - began < 1.0
    ok(server, "time_settings 0 2 5")  # 5 moves in 2 s
    ok(server, "time_left w 0.5 5")
    assert server._move_seconds(1, server.state) == pytest.approx(0.8 * 0.5 / 5 - 0.05)
    ok(server, "genmove w")
    ok(server, "kgs-time_settings byoyomi 0 1 3")
    ok(server, "kgs-time_settings canadian 60 10 5")
    ok(server, "kgs-time_settings absolute 60")
    ok(server, "kgs-time_settings none")
    assert server.time_control is None
    fails(server, "kgs-time_settings fischer 10", "unknown time system")
    fails(server, "kgs-time_settings", "syntax error")
    fails(server, "time_settings 1 2", "syntax error")
    fails(server, "time_settings a b c", "syntax error")
    fails(server, "time_settings -1 0 0", "syntax error")
    fails(server, "time_left b 10", "syntax error")
    fails(server, "time_left r 10 0", "invalid color")
    capped = make_server(size=9, simulations=10**8, max_seconds=0.2)
    began = time.perf_counter()
    ok(capped, "genmove b")
    assert time.perf_counter() - began < 1.0


def test_tree_is_kept_across_moves() -> None:
    server = make_server(simulations=200)
    ok(server, "genmove b")
    assert server.last_result is not None and not server.last_result.reused
    reply = ok(server, "reg_genmove w")  # searches on under Black's move, plays nothing
    ok(server, f"play w {reply}")
    ok(server, "genmove b")
    result = server.last_result
    assert result.reused and result.visits > result.simulations == 200
    ok(server, "undo")  # the same position again: the tree under it is reused
    ok(server, "genmove b")
    assert server.last_result.reused
    ok(server, "clear_board")
    ok(server, "genmove b")
    assert not server.last_result.reused


def test_resigns_only_when_asked() -> None:
    moves = [f"play w {v}" for v in ("A2", "B2", "C2", "D2", "E2", "A4", "B4", "C4", "D4", "E4")]
    for threshold, expected in ((0.0, False), (0.5, True)):
        server = make_server(simulations=200, resign_threshold=threshold)
        for move in moves:
            ok(server, move)
        assert (ok(server, "genmove b") == "resign") is expected


def test_quit_and_serve() -> None:
    server = make_server()
    stdin = io.StringIO("1 name\n\n# comment\nboardsize 99\n2 quit\nname\n")
    stdout = io.StringIO()
    assert server.serve(stdin, stdout) == 0
    assert stdout.getvalue() == "=1 pyaz\n\n? unacceptable size\n\n=2 \n\n"
    assert server.quit


# --------------------------------------------------------------------------- Othello


def othello_pass_line(size: int = 6) -> list[str]:
    """A random game's moves up to a position where the side to move must pass."""
    for seed in range(1000):
        rng = random.Random(seed)
        state = pyaz.Othello(size)
        moves: list[str] = []
        while not state.is_terminal():
            legal = state.legal_actions()
            if legal == [state.num_actions - 1]:
                return moves
            action = rng.choice(legal)
            moves.append(state.action_to_str(action))
            state.apply(action)
    raise AssertionError("no pass found")


def test_othello_over_gtp() -> None:
    server = GtpServer(EngineSearch.uct(seed=2), game="othello", simulations=64)
    assert server.state.size == 8
    assert ok(server, "genmove b") in ("D3", "C4", "F5", "E6")
    fails(server, "play w A1", "illegal move")
    fails(server, "play w J1", "invalid coordinate")
    fails(server, "boardsize 9", "unacceptable size")
    ok(server, "komi 0")  # accepted, meaningless in Othello
    assert ok(server, "known_command final_status_list") == "false"
    ok(server, "boardsize 6")
    moves = othello_pass_line(6)
    for number, move in enumerate(moves):
        ok(server, f"play {COLOURS[number % 2]} {move}")
    mover = len(moves) % 2  # this side has no move
    other = COLOURS[1 - mover]
    vertex = ok(server, f"genmove {other}")  # the mover passed silently (gtp-rhino's way)
    state = pyaz.Othello(6)
    state.play(moves)
    state.apply(state.num_actions - 1)
    assert state.is_legal(state.str_to_action(vertex))
    ok(server, "undo")
    ok(server, f"play {COLOURS[mover]} pass")  # an explicit pass is accepted too
    ok(server, f"play {other} {vertex}")
    while not server.state.is_terminal():
        ok(server, f"genmove {COLOURS[server.state.to_move()]}")
    assert ok(server, "genmove b") == "pass"
    assert ok(server, "final_score") == score_text(othello_score(server.state))


def othello_score(state: pyaz.Othello) -> int:
    """Black's discs minus White's; at the end the empty squares go to the winner."""
    board = state.board()
    difference = int((board == 1).sum() - (board == 2).sum())
    if state.is_terminal() and difference:
        difference += int((board == 0).sum()) * (1 if difference > 0 else -1)
    return difference


def test_othello_games_against_gtp_rhino() -> None:
    """Optional: gtp-rhino (Debian package grhino) is not a CI requirement, so this skips."""
    rhino = shutil.which("gtp-rhino") or "/usr/games/gtp-rhino"
    if not Path(rhino).is_file():
        pytest.skip("gtp-rhino is not installed (apt-get install grhino)")
    command = [sys.executable, "-m", "pyaz.cli.gtp", "--game", "othello", "--quiet"]
    with (
        GtpEngine([*command, "--simulations", "200"]) as ours,
        GtpEngine([rhino, "--level", "1"]) as theirs,
    ):
        for pyaz_colour in (0, 1):
            engines = (ours, theirs) if pyaz_colour == 0 else (theirs, ours)
            for engine in engines:
                engine.boardsize(8)
                engine.clear_board()
            referee = pyaz.Othello(8)
            while not referee.is_terminal():
                colour = referee.to_move()
                vertex = engines[colour].genmove(COLOURS[colour])
                action = referee.str_to_action(vertex)
                assert referee.is_legal(action), f"{vertex} is illegal\n{referee}"
                referee.apply(action)
                if vertex != "pass":  # gtp-rhino rejects 'play b pass'; a pass goes unsaid
                    engines[1 - colour].play(COLOURS[colour], vertex)
            expected = score_text(othello_score(referee))
            assert ours.final_score() == theirs.final_score().upper() == expected


# --------------------------------------------------------------------------- command line


def test_help_explains_every_option(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        gtp_cli.main(["--help"])
    assert exit_info.value.code == 0
    text = capsys.readouterr().out
    for action in gtp_cli.build_parser()._actions:
        for flag in action.option_strings:
            assert flag in text
        assert action.help, f"{action.option_strings} has no help"
    for command in ("genmove", "undo", "final_score", "time_left", "othello", "Tromp-Taylor"):
        assert command in text


def run_cli(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: list[str], lines: str
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(lines))
    status = gtp_cli.main(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_cli_plays_without_a_model(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_cli(
        monkeypatch, capsys, ["--size", "5", "--simulations", "32"], "genmove b\nquit\n"
    )
    assert status == 0 and out.startswith("= ") and out.endswith("= \n\n")
    assert "UCT" in err  # logging goes to stderr
    status, out, err = run_cli(monkeypatch, capsys, ["--size", "4"], "quit\n")
    assert status == 2 and "board size 4" in err


def test_cli_with_a_model(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    torch = pytest.importorskip("torch")
    from pyaz.nets import PolicyValueNet, net_config_for, net_state, to_torchscript

    state = pyaz.Go(5, komi=0.5)
    net = PolicyValueNet(net_config_for(state, blocks=1, filters=8, value_hidden=8))
    path = tmp_path / "iter-00001.pt"
    torch.save({"net": net_state(net), "iteration": 1}, path)
    argv = ["--size", "5", "--komi", "0.5", "--simulations", "16", "--model", str(path)]
    status, out, err = run_cli(monkeypatch, capsys, argv, "genmove b\nboardsize 9\nquit\n")
    assert status == 0, err
    answers = out.split("\n\n")
    assert re.fullmatch(r"= ([A-E][1-5]|pass)", answers[0]), out
    assert answers[1] == "? unacceptable size" and "PUCT" in err
    status, out, err = run_cli(monkeypatch, capsys, [*argv[:4], "--model", str(path)], "")
    assert status == 0  # --size defaults to the network's
    scripted = tmp_path / "best.torchscript.pt"
    torch.jit.save(to_torchscript(net), scripted)
    checkpoint = tmp_path / "checkpoint.pt"
    torch.save({"best": net_state(net), "current": net_state(net)}, checkpoint)
    status, out, err = run_cli(
        monkeypatch, capsys, [*argv[:6], "--model", str(checkpoint)], "genmove w\n"
    )
    assert status == 0 and re.fullmatch(r"= ([A-E][1-5]|pass)\n\n", out), (out, err)
    status, _, err = run_cli(monkeypatch, capsys, [*argv[:6], "--model", str(scripted)], "")
    assert status == 2 and "pyaz does not execute TorchScript files" in err  # issue 74
    othello = tmp_path / "othello.pt"
    onet = PolicyValueNet(net_config_for(pyaz.Othello(6), blocks=1, filters=8, value_hidden=8))
    torch.save({"net": net_state(onet)}, othello)
    status, _, err = run_cli(monkeypatch, capsys, ["--model", str(othello)], "")
    assert status == 2 and "does not" in err
    status, _, err = run_cli(monkeypatch, capsys, ["--model", str(tmp_path / "none.pt")], "")
    assert status == 2 and "cannot load" in err
    (tmp_path / "junk.pt").write_bytes(b"not a network")
    status, _, err = run_cli(monkeypatch, capsys, ["--model", str(tmp_path / "junk.pt")], "")
    assert status == 2 and "is not a pyaz network file" in err


# --------------------------------------------------------------------------- against GNU Go


@pytest.fixture(scope="module")
def gnugo_path() -> str:
    try:
        return find_gnugo()
    except GtpEngineNotFoundError as error:
        pytest.fail(f"{error} (CI installs it; these tests fail rather than skip without it)")


def pyaz_gtp(size: int, komi: float, simulations: int, seed: int) -> GtpEngine:
    command = [sys.executable, "-m", "pyaz.cli.gtp", "--game", "go", "--size", str(size)]
    command += ["--komi", str(komi), "--simulations", str(simulations), "--seed", str(seed)]
    return GtpEngine([*command, "--quiet"], timeout=60)


def play_against_gnugo(size: int, komi: float, pyaz_colour: int, max_plies: int) -> dict:
    """One game between pyaz-gtp and GNU Go, refereed by a pyaz state; returns its summary."""
    seed = 10 * size + pyaz_colour
    with (
        pyaz_gtp(size, komi, simulations=150, seed=seed) as ours,
        gnugo(level=1, boardsize=size, komi=komi, capture_all_dead=True, seed=seed) as theirs,
    ):
        assert ours.name() == "pyaz" and ours.send("protocol_version") == "2"
        ours.boardsize(size)
        ours.clear_board()
        ours.komi(komi)
        engines = (ours, theirs) if pyaz_colour == 0 else (theirs, ours)
        referee = pyaz.Go(size, komi=komi, max_game_length=10**6)
        while not referee.is_terminal() and referee.ply < max_plies:
            colour = referee.to_move()
            mover, other = engines[colour], engines[1 - colour]
            vertex = mover.genmove(COLOURS[colour])
            assert vertex != "resign", f"resigned at ply {referee.ply}"
            action = referee.vertex_to_action(vertex)
            assert referee.is_legal(action), f"{vertex} is illegal at ply {referee.ply}\n{referee}"
            referee.apply(action)
            other.play(COLOURS[colour], vertex)
        ours_score, theirs_score = ours.final_score(), theirs.final_score()
        assert SCORE.fullmatch(ours_score) and SCORE.fullmatch(theirs_score)
        # pyaz-gtp's board follows the game exactly: its Tromp-Taylor score is the referee's.
        assert ours_score == score_text(referee.score())
        ended = referee.is_terminal()
        no_dead = ended and theirs.send("final_status_list dead") == ""
        if no_dead:
            assert ours_score == theirs_score, f"{ours_score} vs GNU Go {theirs_score}\n{referee}"
        return {"plies": referee.ply, "ended": ended, "compared": no_dead, "score": ours_score}


def test_real_games_against_gnugo_on_5x5(gnugo_path: str) -> None:
    results = [play_against_gnugo(5, 0.5, colour, max_plies=150) for colour in (0, 1)]
    assert all(result["plies"] > 4 for result in results), results
    assert any(result["compared"] for result in results), results


def test_real_game_against_gnugo_on_9x9(gnugo_path: str) -> None:
    result = play_against_gnugo(9, 7.5, 0, max_plies=250)
    assert result["plies"] > 10, result
