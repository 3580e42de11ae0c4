"""Issue 24 (items 5, 7, 8, 12): the limits of the protocols and files that pyaz reads and
writes, each through the real interface (the engine subprocess or its server loop, the CLI).

- ``pyaz-arena`` / ``pyaz-tournament --out``: a folder that cannot be written fails before the
  first game; a write that fails after the games (a full disk: a file linked to /dev/full) is
  one line naming the file, after the result is printed;
- ``pyaz-gomocup``: bytes that are not UTF-8 under every locale setting, BOARD blocks taken
  whole or not at all, ``who`` other than 1, 2, 3 refused, ``INFO`` numbers clamped (never an
  instant move) or refused (negative, ``_``, other scripts' digits);
- GTP: ``boardsize`` with thousands of digits, numbers with ``_``, answers on an ASCII stdout;
- SGF: variations nested far deeper than Python's recursion limit, numbers in SGF's own syntax.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import pyaz
from pyaz.cli import arena, tournament
from pyaz.engines.gomocup_server import (
    DEFAULT_TIMEOUT_TURN_MS,
    MAX_INFO_VALUE,
    MAX_MOVE_MS,
    GomocupBrain,
    serve,
)
from pyaz.engines.gtp import GtpEngine
from pyaz.engines.gtp_server import GtpServer
from pyaz.engines.search import EngineSearch
from pyaz.eval.tournament_journal import TournamentJournal
from pyaz.games import BoardGameState, NativeGame
from pyaz.games.sgf import parse_sgf

DEV_FULL = Path("/dev/full")
needs_dev_full = pytest.mark.skipif(not DEV_FULL.exists(), reason="no /dev/full")


def clean_env(**changes: str) -> dict[str, str]:
    """This environment without the locale and I/O encoding settings, plus ``changes``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "PYTHONIO", "LANG"))}
    env.pop("PYTHONUTF8", None)
    return {**env, **changes}


# --------------------------------------------------------------------------- arena (item 5)

ARENA = ["random", "random", "--game", "connect_four", "--games", "2", "--quiet"]


@needs_dev_full
@pytest.mark.parametrize("failing", ["games.txt", "summary.json"])
def test_arena_prints_the_result_then_names_the_file_it_cannot_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], failing: str
) -> None:
    out = tmp_path / "match"
    out.mkdir()
    (out / failing).symlink_to(DEV_FULL)  # every write to it: ENOSPC, as on a full disk
    assert arena.main([*ARENA, "--out", str(out)]) == 1
    captured = capsys.readouterr()
    assert "win ratio of random" in captured.out and "wrote" not in captured.out
    assert captured.err.splitlines() == [
        f"pyaz-arena: cannot write {out / failing} (No space left on device); the result is above"
    ]


def test_arena_refuses_an_out_folder_it_cannot_make_before_the_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "file").write_text("a file, not a folder")
    out = tmp_path / "file" / "match"  # root too cannot make a folder inside a file
    assert arena.main([*ARENA, "--out", str(out)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # no game was played
    assert captured.err.splitlines() == [
        f"pyaz-arena: cannot write in --out {out} (Not a directory)"
    ]


# --------------------------------------------------------------------------- tournament (item 5)


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny Connect Four 4x4 network in a run folder (its config.json names the game)."""
    import torch

    from pyaz import nets

    run = tmp_path_factory.mktemp("run")
    game = {"game": "connect_four", "game_options": {"width": 4, "height": 4}}
    (run / "config.json").write_text(json.dumps(game))
    (run / "nets").mkdir()
    torch.manual_seed(0)
    state = pyaz.make("connect_four", width=4, height=4)
    net = nets.PolicyValueNet(nets.net_config_for(state, blocks=1, filters=8, value_hidden=16))
    path = run / "nets" / "iter-00001.pt"
    torch.save({"net": nets.net_state(net), "iteration": 1}, path)
    return path


TOURNAMENT = ["--random", "--games", "2", "--simulations", "4", "--quiet"]


def test_tournament_rates_every_game_when_games_jsonl_cannot_be_written(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    checkpoint: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    out = tmp_path / "elo"

    def full(self: TournamentJournal, *game: object) -> None:  # the header written, then full
        raise OSError(28, "No space left on device", str(self.path))

    monkeypatch.setattr(TournamentJournal, "append", full)
    assert tournament.main([str(checkpoint), *TOURNAMENT, "--out", str(out)]) == 1
    captured = capsys.readouterr()
    assert "anchor random = 0" in captured.out  # the ratings table, printed
    assert "games of 2 (1 matches)" in captured.out
    assert captured.err.splitlines() == [
        f"pyaz-tournament: cannot write {out / 'games.jsonl'} (No space left on device)"
    ]
    assert (out / "ratings.csv").exists() and (out / "fit.json").exists()


def test_tournament_refuses_an_out_folder_it_cannot_make_before_the_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], checkpoint: Path
) -> None:
    (tmp_path / "file").write_text("a file")
    out = tmp_path / "file" / "elo"
    assert tournament.main([str(checkpoint), *TOURNAMENT, "--out", str(out)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines() == [
        f"pyaz-tournament: cannot write in --out {out} (Not a directory)"
    ]


# --------------------------------------------------------------------------- Gomocup (items 7, 12)


class FirstLegal:
    """A quick, deterministic player: the first legal cell."""

    name = "first"

    def reset(self, state: BoardGameState) -> None:
        pass

    def choose(self, state: BoardGameState) -> int:
        return int(state.legal_actions()[0])

    def observe(self, action: int) -> None:
        pass


def first_legal_brain(times: list[float] | None = None) -> GomocupBrain:
    def make(start: NativeGame, time_ms: float) -> FirstLegal:
        if times is not None:
            times.append(time_ms)
        return FirstLegal()

    return GomocupBrain(make)  # type: ignore[arg-type]


def session(brain: GomocupBrain, *lines: str) -> list[str]:
    """The brain's answers to ``lines``, through its server loop."""
    stdout = io.StringIO()
    serve(brain, io.StringIO("".join(line + "\n" for line in lines)), stdout)
    return stdout.getvalue().splitlines()


@pytest.mark.parametrize(
    "env",
    [
        {"PYTHONIOENCODING": "utf-8"},  # strict UTF-8: UnicodeDecodeError before
        {"PYTHONIOENCODING": "ascii"},
        {"PYTHONUTF8": "1"},
        {"LC_ALL": "C.UTF-8"},
        {"LC_ALL": "C", "PYTHONUTF8": "0"},
    ],
)
def test_gomocup_answers_bytes_that_are_not_utf8_under_every_locale(env: dict[str, str]) -> None:
    commands = b"START 15\nTURN \xff\xfe,1\nINFO folder /tmp/\xe9t\xe9\nTURN 7,7\nABOUT\nEND\n"
    done = subprocess.run(
        [sys.executable, "-m", "pyaz.cli.gomocup", "--player", "mentor:20"],
        input=commands,
        capture_output=True,
        timeout=60,
        env=clean_env(**env),
    )
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-2000:]
    assert b"Traceback" not in done.stderr
    answers = done.stdout.decode("utf-8").splitlines()
    assert answers[0] == "OK"
    assert answers[1].startswith("ERROR a cell's x and y must be a whole number >= 0, got '")
    assert answers[2].count(",") == 1  # the brain's move to TURN 7,7
    assert answers[3].startswith('name="pyaz"') and len(answers) == 4


def test_a_rejected_board_keeps_the_game_before_it() -> None:
    brain = first_legal_brain()
    answers = session(
        brain,
        "START 9",
        "TURN 4,4",  # the opponent, then the brain (0,0)
        "BOARD",
        "4,4,2",
        "0,0,1",
        "4,5,2",
        "4,5,1",  # an occupied cell in the middle of the block
        "DONE",
        "BOARD",
        "4,4,2",
        "3,3,9",  # who = 9: neither side
        "DONE",
        "TAKEBACK 0,0",  # the brain's move before the blocks is still the last stone
    )
    assert answers[:2] == ["OK", "0,0"]
    assert answers[2] == "ERROR BOARD: 4,5 is not a legal move there"
    assert answers[3] == "ERROR a BOARD line's who is 1, 2 or 3, got '3,3,9'"
    assert answers[4] == "OK"
    assert brain.moves == [4 * 9 + 4]


def test_board_who_3_is_the_opponents_continuous_game_stone() -> None:
    brain = first_legal_brain()
    assert session(brain, "START 9", "BOARD", "4,4,3", "DONE") == ["OK", "0,0"]
    assert brain.moves == [4 * 9 + 4, 0]


@pytest.mark.parametrize("key", ["timeout_turn", "timeout_match", "time_left", "max_memory"])
@pytest.mark.parametrize("value", ["-5", "1_000", "\u0661\u0660", "+5", "5.5", ""])
def test_gomocup_info_refuses_what_is_not_a_whole_number(key: str, value: str) -> None:
    brain = first_legal_brain()
    before = dict(brain.info)
    answers = session(brain, f"INFO {key} {value}")
    assert answers == [f"ERROR INFO {key} must be a whole number >= 0, got {value!r}"]
    assert brain.info == before


@pytest.mark.parametrize("key", ["timeout_turn", "timeout_match", "time_left", "max_memory"])
def test_gomocup_info_clamps_huge_numbers(key: str) -> None:
    brain = first_legal_brain()
    assert session(brain, f"INFO {key} 20000000000000", f"INFO {key} {'9' * 5000}") == []
    assert brain.info[key] == MAX_INFO_VALUE


def test_a_huge_turn_time_is_the_longest_move_not_an_instant_one() -> None:
    times: list[float] = []
    brain = first_legal_brain(times)
    session(brain, "INFO timeout_turn 20000000000000", "START 9", "BEGIN")
    assert times == [MAX_MOVE_MS]
    assert brain.move_time_ms() == MAX_MOVE_MS
    session(brain, "INFO time_left 30000")  # the match clock still limits the move
    assert brain.move_time_ms() == 2000.0
    assert first_legal_brain().move_time_ms() == 0.7 * DEFAULT_TIMEOUT_TURN_MS


def test_the_mentor_thinks_when_the_manager_allows_a_huge_turn_time() -> None:
    """The real mentor: a turn time of 2e13 ms moved at once before (an overflow)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "pyaz.cli.gomocup"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write("INFO timeout_turn 20000000000000\nSTART 15\n")
        process.stdin.flush()
        assert process.stdout.readline().strip() == "OK"
        process.stdin.write("TURN 7,7\n")
        process.stdin.flush()
        began = time.monotonic()
        ready, _, _ = select.select([process.stdout], [], [], 3.0)
        assert not ready, (
            f"answered in {time.monotonic() - began:.3f} s: {process.stdout.readline()}"
        )
    finally:
        process.kill()
        process.wait(timeout=30)


# --------------------------------------------------------------------------- GTP (item 8)


def gtp() -> GtpServer:
    return GtpServer(EngineSearch.uct(seed=1), size=5, simulations=8)


def test_gtp_boardsize_with_thousands_of_digits_is_an_unacceptable_size(
    caplog: pytest.LogCaptureFixture,
) -> None:
    server = gtp()
    with caplog.at_level(logging.ERROR, logger="pyaz.engines.gtp"):
        assert server.handle("boardsize " + "1" + "0" * 5000) == "? unacceptable size\n\n"
        assert server.handle("boardsize " + "0" * 5000 + "9") == "= \n\n"
    assert not caplog.records  # no traceback logged
    assert server.rules.size == 9


@pytest.mark.parametrize(
    ("line", "answer"),
    [
        ("komi 6_5", "? syntax error: komi '6_5' is not a number\n\n"),
        ("komi \uff16", "? syntax error: komi '\uff16' is not a number\n\n"),
        ("komi " + "9" * 5000, "? syntax error: komi '" + "9" * 40 + "...' is not finite\n\n"),
        ("time_settings 1_0 0 0", "? syntax error: time_settings takes 3 numbers\n\n"),
        ("time_left b 1 \u0661", "? syntax error: time_left takes 2 numbers\n\n"),
        (
            "kgs-time_settings absolute 3_0",
            "? syntax error: kgs-time_settings absolute takes 1 numbers\n\n",
        ),
        ("\u0661 name", "? unknown command\n\n"),  # an id is ASCII digits
        ("komi -7.5", "= \n\n"),
        ("komi 6.", "= \n\n"),
        ("time_settings 1e3 30 5", "= \n\n"),
    ],
    ids=lambda value: value[:32],
)
def test_gtp_numbers_are_ascii_decimals(line: str, answer: str) -> None:
    server = gtp()
    assert server.handle(line) == answer
    if line.startswith("komi") and answer == "= \n\n":
        assert server.rules.komi == float(line.split()[1])


def test_gtp_answers_on_an_ascii_stdout() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pyaz.cli.gtp", "--game", "go", "--size", "5", "--simulations", "8"],
        input=b"play b \xff\xfe\nkomi \xc3\xa9\nname\nquit\n",
        capture_output=True,
        timeout=60,
        env=clean_env(PYTHONIOENCODING="ascii"),
    )
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-2000:]
    answers = done.stdout.decode("ascii").split("\n\n")
    assert answers[0].startswith("? invalid coordinate '\\ufffd\\ufffd'")
    assert answers[1] == "? syntax error: komi '\\ufffd\\ufffd' is not a number"
    assert answers[2:4] == ["= pyaz", "= "]


FAKE_GTP_ENGINE = """
import sys
for line in sys.stdin.buffer:
    command = line.split()[0]
    answer = b"na\\xefve engine" if command == b"name" else b""
    sys.stdout.buffer.write(b"= " + answer + b"\\n\\n")
    sys.stdout.buffer.flush()
    if command == b"quit":
        break
"""


def test_gtp_client_reads_an_engine_answer_that_is_not_utf8() -> None:
    """pyaz's client of external engines (gnugo, gtp:...): a strict decoder stopped reading at
    the byte and reported that the engine had exited."""
    with GtpEngine([sys.executable, "-c", FAKE_GTP_ENGINE], timeout=30) as engine:
        assert engine.send("name") == "na\ufffdve engine"
        assert engine.send("protocol_version") == ""
        assert engine.alive


# --------------------------------------------------------------------------- SGF (items 8, 12)


@pytest.mark.parametrize("depth", [1_000, 5_000, 200_000])
def test_sgf_variations_nest_deeper_than_the_recursion_limit(depth: int) -> None:
    text = "(;GM[1]SZ[9]" + "(;" * depth + ")" * (depth + 1)
    began = time.monotonic()
    game = parse_sgf(text)
    assert game.size == 9 and game.moves == []
    assert time.monotonic() - began < 30
    moves = "".join(
        f"(;{'BW'[i % 2]}[{'abcdefghi'[i % 9]}{'abcdefghi'[i // 9]}]" for i in range(60)
    )
    game = parse_sgf("(;GM[1]SZ[9]" + moves + ")" * 61)  # the main line runs down the nesting
    assert len(game.moves) == 60


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    depth=st.integers(min_value=900, max_value=20_000),
    inner=st.text(alphabet="();[]BWaceKM9", max_size=20),
    closed=st.booleans(),
)
@example(depth=1_500, inner="", closed=False)  # issue 24: RecursionError
def test_deep_sgf_parses_or_raises_value_error(depth: int, inner: str, closed: bool) -> None:
    text = "(;GM[1]SZ[9]" + "(;" * depth + inner + ")" * (depth + 1 if closed else depth // 2)
    with contextlib.suppress(ValueError):  # anything else (RecursionError) fails the test
        parse_sgf(text)


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ("(;GM[1]SZ[9]KM[6_5])", r"SGF KM\[6_5\] is not an SGF real number"),
        ("(;GM[1]SZ[9]KM[\uff16.5])", r"SGF KM\[\uff16.5\] is not an SGF real number"),
        ("(;GM[1]SZ[9]KM[1e3])", r"SGF KM\[1e3\] is not an SGF real number"),
        ("(;GM[1]SZ[9]KM[" + "9" * 5000 + "])", r"SGF KM\[9{40}\.\.\.\] is not a finite number"),
        ("(;GM[1]SZ[1_9])", r"SGF SZ\[1_9\] is not a number"),
        ("(;GM[1]SZ[\u0661\u0669])", r"SGF SZ\[\u0661\u0669\] is not a number"),
        ("(;GM[1]SZ[" + "9" * 5000 + "])", r"SGF SZ\[9{40}\.\.\.\]: pyaz Go boards are 5x5"),
        ("(;GM[1_0]SZ[9])", r"SGF GM\[1_0\] is not a number"),
        ("(;GM[2]SZ[9])", r"SGF GM\[2\] is not Go"),
    ],
    ids=lambda value: value[:32],
)
def test_sgf_numbers_follow_the_sgf_syntax(record: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_sgf(record)


def test_sgf_numbers_that_are_sgf_numbers() -> None:
    game = parse_sgf("(;GM[01]SZ[+9]KM[-6.50])")
    assert (game.size, game.komi) == (9, -6.5)
    assert parse_sgf("(;SZ[ 13 ]KM[0])").komi == 0.0
