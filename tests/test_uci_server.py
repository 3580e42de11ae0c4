"""``pyaz-uci``: the UCI server driven in-process (every command and error case), the command
line (``--help``, ``--model``), and real Racing Kings games against Fairy-Stockfish.

In the games a pyaz referee holds the position, asks each engine (``pyaz-uci`` started as a
subprocess, and Fairy-Stockfish with ``UCI_Variant racingkings``) for ``bestmove`` after
``position fen START moves ...`` and checks that every move is legal. CI installs
Fairy-Stockfish; without it these tests fail, never skip.
"""

from __future__ import annotations

import io
import queue
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from racing_kings_reference import MISSING_FAIRY_STOCKFISH, find_fairy_stockfish

import pyaz
from pyaz.cli import uci as uci_cli
from pyaz.engines.search import EngineSearch, value_to_centipawns
from pyaz.engines.uci_server import GoLimits, UciServer, parse_go

STANDARD_FEN = pyaz.RacingKings.STANDARD_FEN
MOD_FEN = pyaz.RacingKings.MOD_FEN
INFO = re.compile(r"info nodes (\d+) nps (\d+) time (\d+) score cp (-?\d+) pv ([a-h][1-8]){2}")
STALEMATE_FEN = "8/8/8/8/8/8/2Q5/k3K3 b - - 0 1"


class Session:
    """An in-process server and the lines it wrote."""

    def __init__(self, nodes: int = 100, **options: object) -> None:
        self.lines: list[str] = []
        engine = EngineSearch.uct(seed=3)
        self.server = UciServer(engine, self.lines.append, nodes=nodes, **options)  # type: ignore[arg-type]

    def __call__(self, *commands: str, wait: bool = True) -> list[str]:
        """Sends ``commands``; returns the lines written meanwhile (after the searches end)."""
        start = len(self.lines)
        for command in commands:
            self.server.handle(command)
        if wait:
            assert self.server.wait(30), "the search did not end"
        return self.lines[start:]

    def bestmove(self, *commands: str) -> tuple[str, list[str]]:
        lines = self(*commands)
        assert lines and lines[-1].startswith("bestmove "), lines
        return lines[-1].split()[1], lines


def info_nodes(line: str) -> int:
    """The node count of an ``info`` line (which must be well formed)."""
    match = INFO.fullmatch(line)
    assert match is not None, line
    return int(match.group(1))


def errors(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("info string error:")]


# --------------------------------------------------------------------------- protocol


def test_uci_handshake_and_isready() -> None:
    session = Session()
    lines = session("uci")
    assert lines[0].startswith("id name pyaz ") and lines[1].startswith("id author ")
    assert "option name UCI_Variant type combo default racingkings var racingkings" in lines
    assert lines[-1] == "uciok"
    assert session("isready") == ["readyok"]
    assert session("debug on", "register later", "isready") == ["readyok"]
    assert errors(session("xyzzy")) == ["info string error: unknown command 'xyzzy'"]
    assert session("", "   ") == []


def test_setoption() -> None:
    session = Session()
    assert session("setoption name UCI_Variant value racingkings") == []
    assert session("setoption name uci_variant value RacingKings") == []
    assert errors(session("setoption name UCI_Variant value chess"))
    assert session("setoption name Nodes value 42") == [] and session.server.nodes == 42
    assert errors(session("setoption name Nodes value lots"))
    assert errors(session("setoption name Nodes value 0"))
    assert session("setoption name Move Overhead value 5") == []
    assert session.server.move_overhead_ms == 5
    assert errors(session("setoption name Move Overhead value -1"))
    assert errors(session("setoption name Hash value 16"))
    assert errors(session("setoption UCI_Variant racingkings"))
    _, lines = session.bestmove("go")
    assert info_nodes(lines[0]) == 42


def test_position_startpos_fen_and_moves() -> None:
    session = Session()
    session("position startpos moves h2h3 a2a3")
    state = pyaz.make("racingkings")
    state.play(["h2h3", "a2a3"])
    assert session.server.state.fen() == state.fen()
    session(f"position fen {MOD_FEN}")
    assert session.server.state.fen() == MOD_FEN
    session(f"position fen {MOD_FEN} moves f4g5")
    assert session.server.state.ply == 1
    session("position fen 8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w")  # fields may be left out
    assert session.server.state.fen() == STANDARD_FEN
    lines = session("d")
    assert f"FEN: {STANDARD_FEN}" in lines


def test_bad_positions_keep_the_previous_one() -> None:
    session = Session()
    session("position startpos moves h2h3")
    before = session.server.state.fen()
    for bad in (
        "position startpos moves h3h4 a1a1",  # the second move is illegal
        "position startpos moves e1e9",  # not a square
        "position fen 8/8/8/8/8/8/k5RK/8 w - - 0 1",  # a king in check
        "position fen nonsense",
        "position fen",
        "position",
        "position middlegame",
        "position startpos extra",
    ):
        lines = session(bad)
        assert len(errors(lines)) == 1, (bad, lines)
        assert session.server.state.fen() == before, bad
    assert "unchanged" in errors(session("position startpos moves h2h3 h3h3"))[0]


def test_go_nodes_reports_info_and_a_legal_bestmove() -> None:
    session = Session()
    session("position startpos moves h2h3")
    move, lines = session.bestmove("go nodes 150")
    info = INFO.fullmatch(lines[0])
    assert info is not None, lines
    assert int(info.group(1)) == 150 and info.group(0).endswith(f"pv {move}")
    assert move in session.server.state.legal_uci()
    result = session.server.last_result
    assert result is not None and int(info.group(4)) == value_to_centipawns(result.value)
    _, lines = session.bestmove("go depth 2")
    assert info_nodes(lines[0]) == 200
    _, lines = session.bestmove("go depth 3 nodes 120")  # the tighter limit wins
    assert info_nodes(lines[0]) == 120
    assert session.server.state.ply == 1  # go does not play the move


def test_go_movetime_and_clock() -> None:
    session = Session(move_overhead_ms=0)
    began = time.perf_counter()
    _, lines = session.bestmove("go movetime 150")
    elapsed = time.perf_counter() - began
    assert 0.1 <= elapsed < 1.5 and info_nodes(lines[-2]) > 0
    server = session.server
    assert server._budget(GoLimits(wtime=3000, btime=60000), white=True) == (None, 0.1)
    assert server._budget(GoLimits(wtime=3000, btime=60000, movestogo=3), white=False) == (
        None,
        pytest.approx(20.0),
    )
    assert server._budget(GoLimits(wtime=100, btime=100, winc=1000), white=True) == (
        None,
        pytest.approx(0.05),  # never more than half of what is left
    )
    assert server._budget(GoLimits(nodes=10, movetime=500), white=True) == (10, 0.5)
    assert server._budget(GoLimits(), white=True) == (100, None)
    assert server._budget(GoLimits(infinite=True, nodes=5), white=True) == (None, None)
    session("position startpos moves h2h3")  # Black to move: btime counts
    began = time.perf_counter()
    session.bestmove("go wtime 100000 btime 1500 winc 0 binc 0")
    assert time.perf_counter() - began < 1.0


def test_go_infinite_stop_and_isready_while_searching() -> None:
    session = Session()
    lines = session("go infinite", wait=False)
    time.sleep(0.2)
    assert session.server.searching
    assert session("isready", wait=False)[-1] == "readyok"  # answered during the search
    assert not any(line.startswith("bestmove") for line in session.lines)
    lines = session("stop")
    assert lines[-1].startswith("bestmove ") and not session.server.searching
    assert session("stop") == []  # nothing to stop
    session("go infinite", wait=False)
    session("ponderhit")
    assert session.lines[-1].startswith("bestmove ")


def test_bad_go_parameters() -> None:
    session = Session()
    for bad in ("go nodes", "go nodes many", "go sideways", "go searchmoves h2h3"):
        lines = session(bad)
        assert len(errors(lines)) == 1 and not any(line.startswith("bestmove") for line in lines)
    assert parse_go(["wtime", "1000", "btime", "2000", "winc", "10", "movestogo", "5"]) == GoLimits(
        wtime=1000, btime=2000, winc=10, movestogo=5
    )
    assert parse_go(["infinite"]).infinite and parse_go(["ponder"]).ponder


def test_terminal_position_answers_bestmove_none() -> None:
    session = Session()
    session(f"position fen {STALEMATE_FEN}")
    assert session.bestmove("go nodes 50")[0] == "(none)"
    session("position fen 6K1/8/1k6/8/8/8/8/8 b - - 0 1")  # White arrived; Black cannot
    assert session.server.state.is_terminal()
    assert session.bestmove("go movetime 10")[0] == "(none)"
    written = len(session.lines)
    session("go infinite", wait=False)
    time.sleep(0.05)
    assert not any(line.startswith("bestmove") for line in session.lines[written:])
    assert session("stop")[-1] == "bestmove (none)"  # infinite waits for stop even then


def reused(session: Session) -> bool:
    result = session.server.last_result
    assert result is not None
    return result.reused


def test_ucinewgame_and_tree_reuse() -> None:
    session = Session()
    first, _ = session.bestmove("position startpos", "go nodes 300")
    assert not reused(session)
    reply, _ = session.bestmove(f"position startpos moves {first}", "go nodes 300")
    assert reused(session)
    session.bestmove(f"position startpos moves {first} {reply}", "go nodes 300")
    result = session.server.last_result
    assert result is not None and result.reused and result.visits > 300
    session("ucinewgame")
    assert session.server.state.fen() == STANDARD_FEN
    session.bestmove("go nodes 50")
    assert not reused(session)


def test_quit_and_serve() -> None:
    lines: list[str] = []
    server = UciServer(EngineSearch.uct(), lines.append, nodes=50)
    stdin = io.StringIO("uci\nisready\nposition startpos\ngo nodes 50\nisready\nquit\nisready\n")
    assert server.serve(stdin, io.StringIO()) == 0
    assert server.quit  # the isready after quit is not read
    assert sum(line == "readyok" for line in lines) == 2
    assert any(line.startswith("bestmove ") for line in lines)
    assert lines.count("uciok") == 1


# --------------------------------------------------------------------------- command line


def test_help_explains_every_option(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        uci_cli.main(["--help"])
    assert exit_info.value.code == 0
    text = capsys.readouterr().out
    for action in uci_cli.build_parser()._actions:
        for flag in action.option_strings:
            assert flag in text
        assert action.help, f"{action.option_strings} has no help"
    for word in ("UCI_Variant", "movetime", "depth", "bestmove (none)", "racingkings"):
        assert word in text


def run_cli(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: list[str], lines: str
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(lines))
    status = uci_cli.main(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_cli_without_and_with_a_model(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, out, err = run_cli(monkeypatch, capsys, ["--nodes", "40"], "uci\ngo\nisready\n")
    assert status == 0 and "uciok" in out and "UCT" in err
    assert re.search(r"^bestmove [a-h][1-8][a-h][1-8]$", out, re.MULTILINE), out
    torch = pytest.importorskip("torch")
    from pyaz.nets import PolicyValueNet, net_config_for, net_state

    net = PolicyValueNet(net_config_for(pyaz.make("racingkings"), blocks=1, filters=8))
    path = tmp_path / "iter-00002.pt"
    torch.save({"net": net_state(net)}, path)
    status, out, err = run_cli(
        monkeypatch, capsys, ["--model", str(path), "--nodes", "16"], "go\nisready\n"
    )
    assert status == 0 and "PUCT" in err
    assert re.search(r"^bestmove [a-h][1-8][a-h][1-8]$", out, re.MULTILINE), out
    go_net = PolicyValueNet(net_config_for(pyaz.Go(5), blocks=1, filters=8))
    torch.save({"net": net_state(go_net)}, tmp_path / "go.pt")
    status, _, err = run_cli(monkeypatch, capsys, ["--model", str(tmp_path / "go.pt")], "")
    assert status == 2 and "does not" in err
    with pytest.raises(SystemExit) as exit_info:
        uci_cli.main(["--nodes", "0"])
    assert exit_info.value.code == 2 and "--nodes must be >= 1" in capsys.readouterr().err


# --------------------------------------------------------------------------- Fairy-Stockfish


class UciProcess:
    """A UCI engine in a subprocess, read with timeouts."""

    def __init__(self, command: list[str]) -> None:
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.strip())
        self.lines.put(None)

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def read_until(self, prefix: str, timeout: float = 30.0) -> list[str]:
        lines: list[str] = []
        deadline = time.monotonic() + timeout
        while True:
            line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            assert line is not None, f"the engine exited; it wrote {lines}"
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def bestmove(self, position: str, go: str) -> str:
        self.send(position)
        self.send(go)
        return self.read_until("bestmove")[-1].split()[1]

    def close(self) -> None:
        if self.process.poll() is None:
            self.send("quit")
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@pytest.fixture
def engines() -> Iterator[tuple[UciProcess, UciProcess]]:
    path = find_fairy_stockfish()
    if path is None:
        pytest.fail(MISSING_FAIRY_STOCKFISH)
    ours = UciProcess([sys.executable, "-m", "pyaz.cli.uci", "--nodes", "200", "--quiet"])
    theirs = UciProcess([path])
    try:
        for engine in (ours, theirs):
            engine.send("uci")
            assert any("UCI_Variant" in line for line in engine.read_until("uciok"))
            engine.send("setoption name UCI_Variant value racingkings")
            engine.send("ucinewgame")
            engine.send("isready")
            engine.read_until("readyok")
        theirs.send("setoption name Skill Level value -5")
        yield ours, theirs
    finally:
        ours.close()
        theirs.close()


def play_game(
    ours: UciProcess, theirs: UciProcess, start: str, pyaz_colour: int, max_plies: int
) -> pyaz.RacingKings:
    """One refereed game; returns the final (or capped) position."""
    referee = pyaz.RacingKings(start)
    moves: list[str] = []
    for engine in (ours, theirs):
        engine.send("ucinewgame")
    while not referee.is_terminal() and referee.ply < max_plies:
        mine = referee.to_move() == pyaz_colour
        engine, go = (ours, "go nodes 200") if mine else (theirs, "go depth 1")
        position = f"position fen {start}" + (f" moves {' '.join(moves)}" if moves else "")
        move = engine.bestmove(position, go)
        who = "pyaz" if mine else "Fairy-Stockfish"
        assert move in referee.legal_uci(), f"{who}'s {move} is illegal in {referee.fen()}"
        referee.push_uci(move)
        moves.append(move)
    if referee.is_terminal():
        position = f"position fen {start} moves {' '.join(moves)}"
        assert ours.bestmove(position, "go nodes 10") == "(none)"
    return referee


def test_real_games_against_fairy_stockfish(engines: tuple[UciProcess, UciProcess]) -> None:
    ours, theirs = engines
    finished = 0
    for start, colour in ((STANDARD_FEN, 0), (STANDARD_FEN, 1), (MOD_FEN, 0), (MOD_FEN, 1)):
        final = play_game(ours, theirs, start, colour, max_plies=160)
        assert final.ply > 4
        finished += final.is_terminal()
    assert finished >= 1
