"""Connect Four rules: wins in every direction, gravity, draws, text I/O, errors."""

from __future__ import annotations

import random

import numpy as np
import pytest

import pyaz

# Perft of the 7x6 start (cross-checked against OpenSpiel in test_vs_openspiel.py up to depth 5;
# deeper values: John Tromp's Connect Four pages / OEIS A212693 agree).
PERFT_7X6 = [7, 49, 343, 2401, 16807, 117649, 823536, 5673234]


def test_perft_7x6() -> None:
    start = pyaz.make("connect_four")
    assert [pyaz.perft(start, d) for d in range(1, 9)] == PERFT_7X6


@pytest.mark.parametrize(
    ("moves", "winner"),
    [
        ("1 2 1 2 1 2 1", pyaz.Status.FIRST_PLAYER_WIN),  # vertical
        ("1 1 2 2 3 3 4", pyaz.Status.FIRST_PLAYER_WIN),  # horizontal
        ("1 2 2 3 3 4 3 4 4 7 4", pyaz.Status.FIRST_PLAYER_WIN),  # diagonal /
        ("7 6 6 5 5 4 5 4 4 1 4", pyaz.Status.FIRST_PLAYER_WIN),  # diagonal \
        ("7 1 2 1 2 1 2 1", pyaz.Status.SECOND_PLAYER_WIN),  # vertical for O
    ],
)
def test_four_in_a_row_wins(moves: str, winner: pyaz.Status) -> None:
    tokens = moves.split()
    state = pyaz.make("connect_four").play(tokens[:-1])
    assert state.status() == pyaz.Status.ONGOING
    state.play(tokens[-1])
    assert state.status() == winner
    assert state.legal_actions() == []


def test_three_plus_wrap_is_not_four() -> None:
    # Discs in columns 5..7 of one row and column 1 of the next row are not a line.
    state = pyaz.make("connect_four").play("5 5 6 6 7 7 1 2 3 1")
    assert state.status() == pyaz.Status.ONGOING


def test_discs_fall_to_the_bottom() -> None:
    state = pyaz.make("connect_four").play("4 4")
    board = state.board()
    assert board[5, 3] == 1 and board[4, 3] == 2
    assert board.sum() == 3


def test_full_column_is_illegal() -> None:
    state = pyaz.make("connect_four").play("1 1 1 1 1 1")
    assert 0 not in state.legal_actions()
    with pytest.raises(ValueError, match="illegal action 0"):
        state.apply(0)


def _has_four(board: np.ndarray, player: int) -> bool:
    h, w = board.shape
    for r in range(h):
        for c in range(w):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + i * dr, c + i * dc) for i in range(4)]
                if all(0 <= y < h and 0 <= x < w and board[y, x] == player for y, x in cells):
                    return True
    return False


def test_full_board_without_four_is_a_draw() -> None:
    rng = random.Random(5)
    while True:
        state = pyaz.make("connect_four")
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
        if state.status() == pyaz.Status.DRAW:
            break
    board = state.board()
    assert state.ply == 42 and (board != 0).all()
    assert not _has_four(board, 1) and not _has_four(board, 2)


def test_text_round_trip() -> None:
    state = pyaz.make("connect_four", width=6, height=7).play("1 2 3 4 4 4")
    parsed = pyaz.ConnectFour.from_text(str(state))
    np.testing.assert_array_equal(parsed.board(), state.board())
    assert parsed.to_move() == state.to_move() and parsed.board_shape == (7, 6)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("....\n.X..\n....\n....", "above an empty cell"),
        ("....\n....\n....\nXX..", "impossible"),
        ("....\n....\n....\nO...", "impossible"),
        ("....\n....\n....\nX...\nX to move", "says otherwise"),
        ("O...\nOX..\nOX..\nOXXX", "already won"),
        ("....\n....\n....\nXXOO\n", None),
    ],
)
def test_from_text_validates(text: str, message: str | None) -> None:
    if message is None:
        assert pyaz.ConnectFour.from_text(text).to_move() == 0
        return
    with pytest.raises(ValueError, match=message):
        pyaz.ConnectFour.from_text(text)


def test_parse_moves_digits_and_letters() -> None:
    state = pyaz.make("connect_four")
    assert state.str_to_action("4") == 3 == state.str_to_action("d")
    assert state.action_to_str(3) == "4"
    for bad in ["0", "8", "h", "44", ""]:
        with pytest.raises(ValueError):
            state.str_to_action(bad)


@pytest.mark.parametrize(("width", "height"), [(3, 6), (10, 4), (9, 7), (7, 10)])
def test_bad_sizes_raise(width: int, height: int) -> None:
    with pytest.raises(ValueError, match="width"):
        pyaz.make("connect_four", width=width, height=height)
