"""Gomoku rules: lines in every direction, no wrap-around, overlines, draws, last-move plane."""

from __future__ import annotations

import numpy as np
import pytest

import pyaz


def _play_cells(state, black: list[str], white: list[str]):
    """Alternates Black's and White's moves (Black has one more or the same number)."""
    moves = []
    for i, b in enumerate(black):
        moves.append(b)
        if i < len(white):
            moves.append(white[i])
    return state.play(moves)


FAR_WHITE = ["a15", "c15", "e15", "g15", "i15", "k15", "m15"]


@pytest.mark.parametrize(
    "line",
    [
        ["d4", "e4", "f4", "g4", "h4"],  # row
        ["d4", "d5", "d6", "d7", "d8"],  # column
        ["d4", "e5", "f6", "g7", "h8"],  # diagonal
        ["h4", "g5", "f6", "e7", "d8"],  # anti-diagonal
        ["k1", "l1", "m1", "n1", "o1"],  # touching the right edge
        ["a11", "b12", "c13", "d14", "e15"][::-1],  # bottom-left corner
    ],
)
def test_five_in_every_direction(line: list[str]) -> None:
    # Black fills the line with its middle stone last.
    order = [line[0], line[1], line[3], line[4], line[2]]
    white = [w for w in FAR_WHITE if w not in line][:4]
    state = _play_cells(pyaz.make("gomoku"), order[:4], white)
    assert state.status() == pyaz.Status.ONGOING
    state.play(order[4])
    assert state.status() == pyaz.Status.FIRST_PLAYER_WIN


def test_no_wrap_around_rows() -> None:
    # On 9x9, actions 6..10 are g1 h1 i1 a2 b2: consecutive numbers, not a line.
    state = pyaz.make("gomoku", size=9)
    black = [state.action_to_str(a) for a in (6, 7, 8, 9, 10)]
    state = _play_cells(state, black, ["e5", "e6", "e7", "e8"])
    assert black == ["g1", "h1", "i1", "a2", "b2"]
    assert state.status() == pyaz.Status.ONGOING


def test_no_wrap_around_diagonals() -> None:
    state = pyaz.make("gomoku", size=9)
    # g1 h2 i3 then a5 b6 would continue the diagonal only on a cylinder.
    state = _play_cells(state, ["g1", "h2", "i3", "a4", "b5"], ["e5", "e6", "e7", "e8"])
    assert state.status() == pyaz.Status.ONGOING


def test_overline_option() -> None:
    black = ["a1", "b1", "c1", "e1", "f1", "d1"]  # d1 makes six in a row
    white = ["a5", "c5", "e5", "g5", "i5"]
    free = _play_cells(pyaz.make("gomoku", size=9), black, white)
    assert free.status() == pyaz.Status.FIRST_PLAYER_WIN
    exact = _play_cells(pyaz.make("gomoku", size=9, overline_wins=False), black, white)
    assert exact.status() == pyaz.Status.ONGOING


def test_exact_five_wins_even_with_an_overline_elsewhere() -> None:
    # e5 completes six on row 5 and exactly five on column e.
    black = ["a5", "b5", "c5", "d5", "f5", "e1", "e2", "e3", "e4", "e5"]
    white = ["a9", "c9", "g9", "i9", "a7", "c7", "g7", "i7", "h8"]
    state = _play_cells(pyaz.make("gomoku", size=9, overline_wins=False), black, white)
    assert state.status() == pyaz.Status.FIRST_PLAYER_WIN


def test_gobang_four_in_a_row() -> None:
    state = pyaz.make("gobang", size=6, line_length=4)
    state = _play_cells(state, ["a1", "b2", "c3", "d4"], ["f1", "f2", "f3"])
    assert state.status() == pyaz.Status.FIRST_PLAYER_WIN


DRAWN_5X5 = """
X X O O X
O O X X O
X X O O X
O O X X O
X O X O X
"""


def test_full_board_draw() -> None:
    assert pyaz.Gomoku.from_text(DRAWN_5X5).status() == pyaz.Status.DRAW
    board = pyaz.Gomoku.from_text(DRAWN_5X5).board()
    black = [f"{'abcde'[c]}{r + 1}" for r in range(5) for c in range(5) if board[r, c] == 1]
    white = [f"{'abcde'[c]}{r + 1}" for r in range(5) for c in range(5) if board[r, c] == 2]
    state = _play_cells(pyaz.make("gomoku", size=5), black[:-1], white)
    assert state.status() == pyaz.Status.ONGOING
    state.play(black[-1])
    assert state.status() == pyaz.Status.DRAW
    assert state.legal_actions() == []


def test_last_move_plane() -> None:
    state = pyaz.make("gomoku", size=7)
    assert state.encode()[2].sum() == 0 and state.last_action is None
    state.play("d4 e5")
    planes = state.encode()
    assert planes.shape == (3, 7, 7)
    assert planes[2, 4, 4] == 1 and planes[2].sum() == 1
    assert state.last_action == state.str_to_action("e5")
    assert planes[0, 3, 3] == 1  # Black (to move) owns d4
    assert planes[1, 4, 4] == 1


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("XX...\n.....\n.....\n.....\n.....", "impossible"),
        ("X....\n.....\n.....\n.....\n.....\nX to move", "says otherwise"),
    ],
)
def test_from_text_validates(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        pyaz.Gomoku.from_text(text)


def test_from_text_detects_a_finished_game() -> None:
    state = pyaz.Gomoku.from_text("XXXXX\n.....\n.....\nOOOO.\n.....\n")
    assert state.status() == pyaz.Status.FIRST_PLAYER_WIN


def test_from_planes_reads_back_every_position_of_random_games() -> None:
    rng = np.random.default_rng(3)
    for size, line, overline in ((9, 5, True), (7, 4, False), (15, 5, True)):
        state = pyaz.Gomoku(size, line, overline)
        while True:
            back = pyaz.Gomoku.from_planes(state.encode(), line, overline)
            assert np.array_equal(back.board(), state.board())
            assert back.to_move() == state.to_move() and back.ply == state.ply
            assert (back.line_length, back.overline_wins) == (line, overline)
            assert back.status() == state.status() and back.last_action is None
            if state.is_terminal():
                break
            state.apply(int(rng.choice(state.legal_actions())))


def test_from_planes_validates() -> None:
    planes = pyaz.Gomoku(9).play("e5 e6 d4").encode()
    with pytest.raises(ValueError, match=r"shape \(planes >= 2, n, n\), got shape \(1, 3, 9, 9\)"):
        pyaz.Gomoku.from_planes(planes[None])
    with pytest.raises(ValueError, match=r"got shape \(3, 9, 8\)"):
        pyaz.Gomoku.from_planes(planes[:, :, :8])
    planes[0, 0, :5] = 1.0  # five more stones for the side to move
    with pytest.raises(ValueError, match="impossible Gomoku position"):
        pyaz.Gomoku.from_planes(planes)


@pytest.mark.parametrize(("size", "line"), [(4, 4), (16, 5), (9, 2), (6, 7)])
def test_bad_options_raise(size: int, line: int) -> None:
    with pytest.raises(ValueError):
        pyaz.make("gomoku", size=size, line_length=line)


def test_random_games_on_small_boards_draw_sometimes() -> None:
    wins, draws, losses = pyaz.random_playouts(pyaz.make("gomoku", size=5), 5000, seed=1)
    assert draws > 0 and wins > 0 and losses > 0
    np.testing.assert_equal(wins + draws + losses, 5000)
