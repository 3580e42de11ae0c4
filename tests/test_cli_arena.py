"""``pyaz-arena``: matches end to end, the tally and the written games (text, SGF, PGN)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

import pyaz
from pyaz.cli.arena import main
from pyaz.games.sgf import parse_sgf

FIRST_WINS = {"1-0": pyaz.Status.FIRST_PLAYER_WIN, "0-1": pyaz.Status.SECOND_PLAYER_WIN}


def _games_txt(path: Path) -> list[list[str]]:
    return [line.split() for line in path.read_text().splitlines() if not line.startswith("#")]


def test_connect_four_match_in_parallel_writes_games_and_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "match"
    argv = ["random", "uct:50", "--game", "connect_four", "--games", "4", "--quiet"]
    assert main([*argv, "--parallel", "2", "--openings", "2", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "random: " in printed and "against uct:50 in 4 games" in printed
    assert "95% Wilson interval with continuity correction" in printed
    summary = json.loads((out / "summary.json").read_text())
    assert summary["a_wins"] + summary["draws"] + summary["b_wins"] == summary["games"] == 4
    assert summary["b_wins"] >= 3  # UCT with 50 rollouts beats random
    lower, upper = summary["wilson_95_cc"]
    assert 0.0 <= lower <= summary["a_score"] <= upper <= 1.0
    assert [g["first"] for g in summary["results"]] == ["random", "uct:50"] * 2
    lines = _games_txt(out / "games.txt")
    assert len(lines) == 4
    start = pyaz.make("connect_four")
    for tokens, result in zip(lines, summary["results"], strict=True):
        state = start.clone()
        for token in tokens[:-1]:
            state.apply(state.str_to_action(token))
        assert state.is_terminal()
        assert tokens[-1] == result["result"]
        assert FIRST_WINS.get(tokens[-1], pyaz.Status.DRAW) == state.status()
        assert result["opening_plies"] == 2
    # Games 2k and 2k+1 share their random opening, played with both colour orders.
    assert lines[0][:2] == lines[1][:2] and lines[2][:2] == lines[3][:2]

    # Players in Python are seeded per game: one worker plays the same games as two.
    serial = tmp_path / "serial"
    assert main([*argv, "--parallel", "1", "--openings", "2", "--out", str(serial)]) == 0
    assert _games_txt(serial / "games.txt") == lines


def test_go_games_are_written_as_sgf(tmp_path: Path) -> None:
    if not (shutil.which("gnugo") or Path("/usr/games/gnugo").exists()):
        pytest.fail("gnugo is not installed (CI installs it): apt-get install gnugo")
    out = tmp_path / "go"
    argv = ["gnugo:1", "random", "--game", "go", "--size", "5", "--games", "2", "--openings", "0"]
    assert main([*argv, "--out", str(out), "--quiet"]) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["a_wins"] == 2
    for number, colour in ((1, "B"), (2, "W")):
        text = (out / f"game-{number:04d}.sgf").read_text()
        game = parse_sgf(text)
        assert game.properties["PB"] == (["gnugo:1"] if colour == "B" else ["random"])
        final = game.final()
        assert final.is_terminal()
        assert game.properties["RE"][0].startswith(f"{colour}+")


def test_a_go_match_rerun_with_fewer_games_keeps_only_their_sgf_files(tmp_path: Path) -> None:
    out = tmp_path / "go"
    argv = ["random", "random", "--game", "go", "--size", "5", "--openings", "0", "--quiet"]
    assert main([*argv, "--games", "4", "--out", str(out)]) == 0
    names = ["game-0001.sgf", "game-0002.sgf", "game-0003.sgf", "game-0004.sgf"]
    assert sorted(path.name for path in out.glob("*.sgf")) == names
    (out / "notes.sgf").write_text("(;GM[1])")  # not a game file of pyaz's: left alone
    assert main([*argv, "--games", "2", "--out", str(out)]) == 0
    assert json.loads((out / "summary.json").read_text())["games"] == 2
    assert sorted(path.name for path in out.glob("*.sgf")) == [*names[:2], "notes.sgf"]


def test_racing_kings_games_are_written_as_pgn(tmp_path: Path) -> None:
    import chess.pgn

    out = tmp_path / "rk"
    argv = ["random", "random", "--game", "racingkings-mod", "--games", "2", "--seed", "3"]
    assert main([*argv, "--out", str(out), "--quiet"]) == 0
    summary = json.loads((out / "summary.json").read_text())
    with open(out / "games.pgn") as handle:
        for result in summary["results"]:
            game = chess.pgn.read_game(handle)
            assert game is not None and not game.errors
            assert game.headers["Variant"] == "Racing Kings"
            assert game.headers["FEN"] == pyaz.RacingKings.MOD_FEN
            assert game.headers["Result"] == result["result"]
            board = game.end().board()
            assert len(board.move_stack) == result["plies"]
            state = pyaz.make("racingkings-mod")
            for move in board.move_stack:
                state.push_uci(move.uci())
            assert state.is_terminal()
        assert chess.pgn.read_game(handle) is None


def test_help_explains_presets_and_options(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--help"])
    assert stop.value.code == 0
    text = capsys.readouterr().out
    for word in ("--openings", "--parallel", "--out", "gtp-rhino", "fairy-stockfish", "uct200"):
        assert word in text


def test_bad_players_and_options_are_reported(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["gnugo:1", "random", "--game", "othello", "--games", "2"]) == 2
    assert "plays go, not othello" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        main(["random", "random", "--game", "go", "--width", "5"])
    assert stop.value.code == 2
    assert "--width does not apply to go" in capsys.readouterr().err


def test_console_script() -> None:
    script = shutil.which("pyaz-arena")
    if script is None:
        pytest.fail("pyaz-arena is not installed as a console script: pip install -e .")
    done = subprocess.run(
        [script, "random", "random", "--game", "othello", "--size", "4", "--games", "2"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "random: " in done.stdout and "in 2 games" in done.stdout
