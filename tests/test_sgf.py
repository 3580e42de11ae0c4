"""SGF records of Go games: writing, reading the main line back, and errors on bad input."""

from __future__ import annotations

import random

import numpy as np
import pytest

import pyaz
from pyaz.games.sgf import action_to_sgf_point, parse_sgf, sgf_point_to_action, write_sgf


def random_game(size: int, seed: int, plies: int) -> list[int]:
    rng = random.Random(seed)
    state = pyaz.Go(size)
    moves = []
    while len(moves) < plies and not state.is_terminal():
        action = rng.choice(state.legal_actions())
        moves.append(action)
        state.apply(action)
    return moves


def test_points() -> None:
    assert action_to_sgf_point(0, 9) == "aa"
    assert action_to_sgf_point(1 * 9 + 2, 9) == "cb"
    assert action_to_sgf_point(81, 9) == ""
    assert sgf_point_to_action("cb", 9) == 11
    assert sgf_point_to_action("", 9) == sgf_point_to_action("tt", 9) == 81
    assert sgf_point_to_action("ss", 19) == 360


@pytest.mark.parametrize(("size", "seed"), [(5, 1), (9, 2), (13, 3), (19, 4)])
def test_round_trip_of_random_games(size: int, seed: int) -> None:
    moves = random_game(size, seed, plies=3 * size * size)
    start = pyaz.Go(size)
    text = start.to_sgf(moves)
    final = start.clone().play(moves)
    record = parse_sgf(text)
    assert (record.size, record.komi, record.moves, record.to_move) == (
        size,
        start.komi,
        moves,
        0,
    )
    again = pyaz.Go.from_sgf(text)
    np.testing.assert_array_equal(again.board(), final.board())
    assert again.captures == final.captures and again.ply == final.ply
    if final.is_terminal():
        assert record.result is not None and again.status() == final.status()


def test_header_and_result() -> None:
    text = pyaz.Go(9).to_sgf(["E5", "C3", "pass", "pass"])
    assert text.startswith("(;FF[4]GM[1]CA[UTF-8]AP[pyaz]SZ[9]KM[7.5]RE[W+7.5]")
    assert ";B[ee];W[cg];B[];W[])" in text
    assert parse_sgf(text).result == "W+7.5"


def test_setup_stones_and_side_to_move() -> None:
    start = pyaz.Go(9, komi=0.5).with_stones(["C3", "G7"], ["E5"], to_move=1)
    text = start.to_sgf(["D4"])
    assert "AB[gc][cg]AW[ee]PL[W]" in text and ";W[df]" in text  # D4: column d, row f
    record = parse_sgf(text)
    assert record.to_move == 1 and record.komi == 0.5
    np.testing.assert_array_equal(record.start().board(), start.board())
    final = record.final()
    assert final.board()[5, 3] == 2 and final.to_move() == 0


def test_reads_foreign_records() -> None:
    text = """(;FF[3]GM[1]SZ[9]KoMi[6.5]CoPyright[x]PB[Black \\] name]C[a comment\\
continued]AB[aa:bb][ii]
  ;W[ee]
  (;B[tt];W[dd])
  (;B[cc]))
  (;GM[1]SZ[5])"""
    record = parse_sgf(text)
    assert record.size == 9 and record.komi == 6.5
    assert sorted(record.black_stones) == [0, 1, 9, 10, 80]
    assert record.to_move == 1  # no PL: the first move's colour
    assert record.moves == [40, 81, 30]  # the main line: first variation
    assert record.properties["PB"] == ["Black ] name"]
    assert record.properties["C"] == ["a commentcontinued"]
    assert record.final().ply == 3


def test_default_size_and_komi() -> None:
    assert parse_sgf("(;GM[1])").size == 19
    assert parse_sgf("(;SZ[9])").komi == 7.5
    assert parse_sgf("(;SZ[5])").komi == 0.0


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "expected '\\(', found the end of the text"),
        ("(;SZ[9]", "expected '\\)'"),
        ("(;SZ[9)", "never closed"),
        ("(;SZ[9]B)", "B has no value"),
        ("()", "must start with a node"),
        ("(;SZ[9]) x", "unexpected 'x'"),
        ("(;GM[2])", "not Go"),
        ("(;SZ[25])", "5x5 to 19x19"),
        ("(;SZ[19:17])", "square"),
        ("(;KM[lots])", "not a number"),
        ("(;SZ[9];B[zz])", "off the 9x9 board"),
        ("(;SZ[9];B[e])", "bad SGF point"),
        ("(;SZ[9];B[ee];B[dd])", "move 2 is by B, but W is to move"),
        ("(;SZ[9];B[ee];AB[dd])", "setup stones after the root"),
        ("(;SZ[9];B[ee]W[dd])", "both a B and a W move"),
        ("(;SZ[9]SZ[9])", "appears twice"),
        ("(;SZ[9]PL[X])", "must be B or W"),
        ("(;SZ[5]AB[aa]AW[ab][ba])", "no liberties"),
    ],
)
def test_bad_sgf_raises(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_sgf(text).final()


def test_illegal_moves_are_named() -> None:
    with pytest.raises(ValueError, match=r"SGF move 2 W\[ee\] \(E5\): illegal"):
        pyaz.Go.from_sgf("(;SZ[9];B[ee];W[ee])")
    ko = "(;SZ[5]AB[ba][ab][bc]AW[ca][bb][db][cc];B[cb];W[bb])"
    with pytest.raises(ValueError, match="SGF move 2"):
        pyaz.Go.from_sgf(ko)
    with pytest.raises(ValueError, match="game is over"):
        pyaz.Go.from_sgf("(;SZ[5];B[];W[];B[aa])")


def test_write_sgf_directly() -> None:
    text = write_sgf(5, [12, 25], komi=0.5, result="B+R", extra={"PB": "me"})
    assert text == "(;FF[4]GM[1]CA[UTF-8]AP[pyaz]SZ[5]KM[0.5]RE[B+R]PB[me]\n;B[cc];W[])\n"
    with pytest.raises(ValueError, match="move 1"):
        pyaz.Go(5).to_sgf(["I5"])
