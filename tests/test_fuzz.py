"""Property-based fuzzing (hypothesis) of every text parser and of the GTP and UCI servers'
command streams, with a bounded time for CI.

The properties: a parser either returns a value that survives a round trip or raises
ValueError/TypeError (never another exception, a crash or a hang); a server answers every
line within the protocol and stays usable. Each test runs ``FUZZ_EXAMPLES`` examples (a few
seconds); a longer campaign is the same tests with more, e.g.
``PYAZ_FUZZ_EXAMPLES=20000 pytest tests/test_fuzz.py`` (hypothesis keeps the failures it finds
in .hypothesis/ and replays them first). The inputs that broke pyaz before (issue 14) are kept
as ``@example``s, so they run on every CI run.
"""

from __future__ import annotations

import os
import string
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import pyaz
from pyaz.engines.gtp_server import GtpServer
from pyaz.engines.search import EngineSearch
from pyaz.engines.uci_server import UciServer
from pyaz.games import same_position
from pyaz.games.sgf import parse_sgf
from pyaz.methods.alphazero.preset_files import load_preset, train_config

FUZZ_EXAMPLES = int(os.environ.get("PYAZ_FUZZ_EXAMPLES", "150"))
FUZZ = settings(
    max_examples=FUZZ_EXAMPLES,
    deadline=None,  # a search may take a while on a slow CI machine; the test is bounded anyway
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

# Text that looks like the format often, and like anything else sometimes.
BOARD_TEXT = st.one_of(
    st.text(alphabet=".XOxo \n|123456789abcdefgh", max_size=120),
    st.lists(st.text(alphabet=".XO", min_size=1, max_size=9), min_size=1, max_size=9).map(
        "\n".join
    ),
    st.text(max_size=60),
)

# --------------------------------------------------------------------------- board text


@FUZZ
@given(text=BOARD_TEXT)
@example(text="é")  # issue 14: a UnicodeDecodeError instead of naming the character
@example(text="\n".join(["........"] * 8))  # issue 14: an empty board was a finished draw
@example(text="XO\x00\nOX")
@pytest.mark.parametrize("game", [pyaz.Othello, pyaz.ConnectFour, pyaz.Gomoku])
def test_board_text_parses_or_raises_value_error(game: type, text: str) -> None:
    try:
        state = game.from_text(text)  # type: ignore[attr-defined]
    except ValueError:
        return
    again = game.from_text(str(state))  # type: ignore[attr-defined]
    assert (again.board() == state.board()).all() and again.to_move() == state.to_move()


# --------------------------------------------------------------------------- FEN

FEN_TEXT = st.one_of(
    st.builds(
        " ".join,
        st.lists(
            st.text(alphabet="kqrbnpKQRBNP12345678/", min_size=1, max_size=40),
            min_size=1,
            max_size=1,
        ).map(lambda board: board)
        | st.just([pyaz.RacingKings.STANDARD_FEN.split()[0]]),
    ).flatmap(
        lambda board: st.tuples(
            st.just(board),
            st.sampled_from(["w", "b", "x", ""]),
            st.sampled_from(["-", "KQkq", "?"]),
            st.sampled_from(["-", "e3", "z9"]),
            st.text(alphabet="-+0123456789", max_size=12),
            st.text(alphabet="-+0123456789", max_size=12),
        ).map(" ".join)
    ),
    st.text(max_size=80),
)


@FUZZ
@given(fen=FEN_TEXT)
@example(fen="8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 99999999999 1")  # issue 14: "not a number"
@example(fen="8/8/8/8/8/8/krbnNBRK/qrbnNBRQ é - - 0 1")
def test_fen_parses_or_raises_value_error(fen: str) -> None:
    try:
        state = pyaz.RacingKings.from_fen(fen)
    except ValueError:
        return
    again = pyaz.RacingKings.from_fen(state.fen())
    assert again.fen() == state.fen() and same_position(again, state)


# --------------------------------------------------------------------------- UCI move text


@FUZZ
@given(
    moves=st.lists(
        st.one_of(
            st.text(alphabet="abcdefghij0123456789qrbnk", min_size=0, max_size=6),
            st.text(max_size=8),
        ),
        max_size=12,
    )
)
@example(moves=["h2h3", "a2a3", "h3h4"])
@example(moves=["", "0000", "a1a1", "h2h3q"])
def test_uci_move_text_is_a_legal_move_or_a_value_error(moves: list[str]) -> None:
    state = pyaz.make("racingkings")
    for move in moves:
        before = state.clone()
        try:
            action = state.push_uci(move)
        except ValueError:
            assert same_position(state, before)  # nothing changed
            continue
        assert before.is_legal(action) and before.uci(action) == move.strip().lower()


# --------------------------------------------------------------------------- SGF

POINT = st.text(alphabet="abcdefghijst", min_size=0, max_size=3)
SGF_TEXT = st.one_of(
    st.builds(
        lambda size, komi, setup, moves: (
            f"(;GM[1]SZ[{size}]KM[{komi}]{setup}" + "".join(moves) + ")"
        ),
        st.sampled_from(["5", "9", "19", "4", "x", "9:7"]),
        st.sampled_from(["6.5", "0", "nan", "inf", "-1e400", "x"]),
        st.lists(
            st.builds(lambda tag, p: f"{tag}[{p}]", st.sampled_from(["AB", "AW", "AE"]), POINT),
            max_size=6,
        ).map("".join),
        st.lists(
            st.builds(lambda colour, p: f";{colour}[{p}]", st.sampled_from(["B", "W"]), POINT),
            max_size=20,
        ),
    ),
    st.text(alphabet="();[]\\ABWKMSZGabcdefghi019", max_size=80),
    st.text(max_size=60),
)


@FUZZ
@given(text=SGF_TEXT)
@example(text="(;GM[1]SZ[9];B[aa];W[aa])")  # issue 14: a move on an occupied point
@example(text="(;GM[1]SZ[9]KM[nan])")  # issue 14: KM[nan]
@example(text="(;GM[1]SZ[9]AB[aa]AW[aa])")  # issue 14: AB/AW overlap
@example(text="(;GM[1]SZ[9]AB[aa]AW[ab][ba])")  # issue 14: no liberties
@example(text="(;GM[1]SZ[9];B[];W[];B[cc])")  # issue 14: a move after two passes
def test_sgf_parses_to_a_playable_record_or_raises_value_error(text: str) -> None:
    try:
        game = parse_sgf(text)
    except ValueError:
        return
    final = game.final()  # what parse_sgf accepts can be replayed
    assert final.ply == len(game.moves)


# --------------------------------------------------------------------------- preset TOML

SETTING = st.sampled_from(
    ["iterations", "episodes", "simulations", "c_puct", "lr", "gating", "game", "seed", "bogus"]
)
TOML_VALUE = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(
        lambda x: "nan" if x != x else ("inf" if x == float("inf") else repr(x))
    ),
    st.text(alphabet=string.ascii_letters + "-_ ", max_size=10).map(repr),
    st.sampled_from(["true", "[1, 2]", "{}", '"connect_four"', '"none"']),
)
TOML_TEXT = st.one_of(
    st.lists(st.builds(lambda k, v: f"{k} = {v}", SETTING, TOML_VALUE), max_size=6).map("\n".join),
    st.text(max_size=80),
)


@FUZZ
@given(text=TOML_TEXT)
@example(text="simulations = 99999999999999999999")
@example(text="c_puct = nan")
def test_preset_toml_loads_or_raises_value_or_type_error(tmp_path: Path, text: str) -> None:
    path = tmp_path / "preset.toml"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    try:
        config = train_config(load_preset(path))
        config.validate()
    except (ValueError, TypeError):
        return


# --------------------------------------------------------------------------- GTP

GTP_WORDS = st.sampled_from(
    [
        "protocol_version", "name", "version", "known_command", "list_commands", "boardsize",
        "clear_board", "komi", "play", "genmove", "reg_genmove", "undo", "showboard",
        "final_score", "final_status_list", "time_settings", "time_left", "kgs-time_settings",
        "set_free_handicap", "kgs-genmove_cleanup", "black", "white", "b", "w", "pass", "A1",
        "E5", "Z99", "5", "9", "-1", "nan", "1e999", "dead", "alive", "byoyomi", "#", "7",
    ]
)  # fmt: skip
GTP_LINE = st.one_of(
    st.lists(GTP_WORDS, min_size=1, max_size=5).map(" ".join),
    st.text(max_size=30),
)


@FUZZ
@given(lines=st.lists(GTP_LINE, max_size=25))
@example(lines=["boardsize 5", "play b A1", "play w A1", "undo", "undo", "final_score"])
@example(lines=["komi nan", "time_settings 1e999 -1 0", "genmove b"])
def test_gtp_server_answers_every_line(lines: list[str]) -> None:
    server = GtpServer(EngineSearch.uct(seed=1), size=5, simulations=8, max_seconds=0.5)
    for line in lines:
        answer = server.handle(line)
        if answer is None:
            continue
        assert answer[0] in "=?" and answer.endswith("\n\n"), (line, answer)
        assert "Traceback" not in answer
        if server.quit:
            break
    assert server.handle("protocol_version") == "= 2\n\n" or server.quit


# --------------------------------------------------------------------------- UCI

UCI_WORDS = st.sampled_from(
    [
        "uci", "isready", "ucinewgame", "setoption", "name", "value", "Nodes", "UCI_Variant",
        "racingkings", "position", "startpos", "fen", "moves", "go", "nodes", "movetime",
        "depth", "wtime", "btime", "winc", "binc", "movestogo", "infinite", "ponder", "stop",
        "ponderhit", "d", "debug", "on", "h2h3", "a2a3", "e2e4", "0", "1", "20", "-5", "nan",
        "99999999999999999999", "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ", "w", "-",
    ]
)  # fmt: skip
UCI_LINE = st.one_of(
    st.lists(UCI_WORDS, min_size=1, max_size=6).map(" ".join),
    st.text(max_size=30),
)


@FUZZ
@given(lines=st.lists(UCI_LINE, max_size=20))
@example(lines=["go nodes 100000", "position moves"])  # issue 14: SIGABRT
@example(lines=["go infinite", "go nodes 10", "stop"])  # issue 14: a hang
@example(lines=["go nodes 99999999999999999999"])  # issue 14: a hang
@example(lines=["go infinite", "ucinewgame"])
def test_uci_server_answers_every_line_and_keeps_reading(lines: list[str]) -> None:
    written: list[str] = []
    server = UciServer(EngineSearch.uct(seed=1), written.append, nodes=20)
    try:
        for line in lines:
            server.handle(line)
            if server.quit:
                break
        server.handle("stop")
        assert server.wait(10), "the search did not stop"
        before = len(written)
        server.handle("isready")
        assert written[before:] == ["readyok"]
    finally:
        server.stop()
    unexpected = [line for line in written if " failed: " in line]
    assert not unexpected, unexpected
    assert all("\n" not in line for line in written)  # one protocol line per write
    bestmoves = [line for line in written if line.startswith("bestmove ")]
    assert all(len(line.split()) == 2 for line in bestmoves), bestmoves
