"""``pyaz-play``: a human (stdin) against a preset or a model, bad input answered with hints."""

from __future__ import annotations

import builtins
import itertools
import re
import shutil
import subprocess
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

import pyaz
from pyaz.cli.play import build_parser, main, mark_last_move, not_a_move_hint, opponent_spec


def _feed(monkeypatch: pytest.MonkeyPatch, lines: Iterable[str]) -> list[str]:
    """Makes ``input()`` return ``lines`` one by one (EOFError after the last); returns prompts."""
    source: Iterator[str] = iter(lines)
    prompts: list[str] = []

    def fake_input(prompt: str = "") -> str:
        prompts.append(prompt)
        try:
            return next(source)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr(builtins, "input", fake_input)
    return prompts


def _columns_forever() -> Iterator[str]:
    return itertools.cycle("1234567")


def test_a_connect_four_game_with_bad_input_help_and_undo(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    script = itertools.chain(["zz", "help", "9", "", "4", "undo", "undo"], _columns_forever())
    prompts = _feed(monkeypatch, itertools.islice(script, 400))
    argv = ["--game", "connect_four", "--opponent", "random", "--seed", "1"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "Not a move: bad Connect Four move 'zz'" in out
    assert "Try one of: 1 2 3 4 5 6 7" in out
    assert "Legal moves: 1 2 3 4 5 6 7" in out
    assert "Not a move: bad Connect Four move '9'" in out
    assert "Took back your last move and the reply." in out
    assert "Nothing to undo yet." in out
    assert "random plays" in out
    assert "Game over after" in out
    assert any(verdict in out for verdict in ("You win!", "You lose.", "Draw."))
    assert prompts[0] == "X to move> "
    # Cycling through the columns eventually offers a full one, answered with a hint.
    assert "is not legal here. Legal moves:" in out or "Game over after" in out


def test_human_second_against_a_tiny_model(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    import torch

    from pyaz.nets import PolicyValueNet, net_config_for, net_state

    start = pyaz.make("connect_four", width=5, height=4)
    net = PolicyValueNet(net_config_for(start, blocks=1, filters=8))
    path = tmp_path / "net.pt"
    torch.save({"net": net_state(net), "iteration": 1}, path)
    _feed(monkeypatch, itertools.islice(_columns_forever(), 200))
    argv = ["--game", "connect4", "--width", "5", "--height", "4", "--model", str(path)]
    assert main([*argv, "--simulations", "4", "--human-second"]) == 0
    out = capsys.readouterr().out
    assert "you against model:" in out and ":4" in out
    assert "You play O and move second" in out
    assert "Game over after" in out


def test_resign_quit_and_end_of_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--game", "othello", "--size", "6", "--opponent", "uct:10"]
    _feed(monkeypatch, ["c4", "resign"])
    assert main(argv) == 0
    assert "You resigned: you lose." in capsys.readouterr().out
    _feed(monkeypatch, ["quit"])
    assert main(argv) == 0
    assert "Game abandoned." in capsys.readouterr().out
    _feed(monkeypatch, [])
    assert main(argv) == 0
    assert "Bye." in capsys.readouterr().out


def test_opponent_options() -> None:
    parse = build_parser().parse_args
    assert opponent_spec(parse(["--game", "go"])) == "uct:200"
    assert opponent_spec(parse(["--game", "go", "--simulations", "50"])) == "uct:50"
    assert opponent_spec(parse(["--game", "go", "--model", "runs/x"])) == "model:runs/x:100"
    argv = ["--game", "go", "--opponent", "model:a.pt:9", "--simulations", "3"]
    assert opponent_spec(parse(argv)) == "model:a.pt:3"
    argv = ["--game", "go", "--opponent", "model:a.pt:9:rule=gumbel", "--simulations", "3"]
    assert opponent_spec(parse(argv)) == "model:a.pt:3:rule=gumbel"  # the search options kept
    argv = ["--game", "go", "--opponent", "model:r:solver=on", "--simulations", "5"]
    assert opponent_spec(parse(argv)) == "model:r:5:solver=on"
    assert opponent_spec(parse(["--game", "go", "--opponent", "gnugo:3"])) == "gnugo:3"
    with pytest.raises(ValueError, match="does not apply"):
        opponent_spec(parse(["--game", "go", "--opponent", "gnugo:3", "--simulations", "3"]))


def test_a_bad_opponent_is_reported(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--game", "gomoku", "--size", "7", "--opponent", "gtp-rhino:1"]) == 2
    assert "plays othello, not gomoku" in capsys.readouterr().err


def test_a_game_without_move_text_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--game", "curling"])
    assert stop.value.code == 2
    assert "curling has no moves to type" in capsys.readouterr().err


def test_console_script_reads_stdin() -> None:
    script = shutil.which("pyaz-play")
    if script is None:
        pytest.fail("pyaz-play is not installed as a console script: pip install -e .")
    moves = "\n".join(["a1", "help"] + ["1", "2", "3", "4", "5", "6", "7"] * 8) + "\n"
    done = subprocess.run(
        [script, "--game", "connect_four", "--opponent", "random"],
        input=moves,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "Not a move" in done.stdout or "not legal here" in done.stdout
    assert "Legal moves:" in done.stdout
    assert "Game over after" in done.stdout


def test_both_moves_are_echoed_and_the_last_one_is_marked_on_the_board(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _feed(monkeypatch, ["4", "quit"])
    assert main(["--game", "connect_four", "--opponent", "random", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    board = "\n".join([". . . . . . ."] * 5 + [".[O]. X . . .", "1 2 3 4 5 6 7", "X to move"])
    assert f"You play 4\nrandom plays 2\n{board}\n" in out  # seed 1's random reply: column 2
    assert out.count("[") == 1 and "Game abandoned." in out


def test_mark_last_move_by_hand() -> None:
    before = "   a b c\n 1 . . .\n 2 . X O\nO to move\n"
    after = "   a b c\n 1 . O .\n 2 . O O\nX to move\n"  # O placed at b1, flipping b2
    assert mark_last_move(before, after) == "   a b c\n 1 .[O].\n 2 . O O\nX to move\n"
    left = mark_last_move(". . . .\n. . . .\nX to move", ". . . .\nO . . .\nX to move")
    assert left == " . . . .\n[O]. . .\n X to move"  # the mark opens a line: all shift right
    capture = mark_last_move("k r . .\n. . N .\n", "k N . .\n. . . .\n")  # N takes r
    assert capture == "k[N]. .\n. . . .\n"
    assert mark_last_move(". . . .\nX to move", ". . . .\nO to move") == ". . . .\nO to move"


def _example(hint: str) -> str:
    """The example move of a hint ("e.g. 'd3'" or "such as 'C3'")."""
    found = re.search(r"(?:e\.g\.|such as) '([^']*)'", hint)
    assert found, hint
    return found[1]


def test_the_hint_after_a_bad_input_suggests_a_legal_move_not_an_occupied_square(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _feed(monkeypatch, ["c4", "c", "quit"])  # "c": the parser's message says "e.g. 'c4'"
    assert main(["--game", "othello", "--opponent", "random", "--seed", "1"]) == 0
    hint = next(line for line in capsys.readouterr().out.splitlines() if "Not a move" in line)
    assert hint.startswith("Not a move: bad coordinate 'c' (expected a column letter and a row")
    example, legal = _example(hint), hint.split("Try one of: ")[1].split()
    assert example != "c4" and example in legal


@pytest.mark.parametrize(
    ("game", "played", "typed", "fixed"),
    [
        ("othello", ["c4", "c3"], "4", "c4"),
        ("go", ["D4", "E5"], "d", "D4"),  # "a vertex such as 'D4'"
        ("racingkings", [], "e", "e2e4"),  # never a Racing Kings move
    ],
)
def test_each_parser_example_becomes_a_legal_move(
    game: str, played: list[str], typed: str, fixed: str
) -> None:
    state = pyaz.make(game)
    for move in played:
        state.apply(state.str_to_action(move))
    with pytest.raises(ValueError) as error:
        state.str_to_action(typed)
    assert f"'{fixed}'" in str(error.value)
    example = _example(not_a_move_hint(state, error.value))
    assert example != fixed
    assert state.is_legal(state.str_to_action(example)) and example != "pass"
