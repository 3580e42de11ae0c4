"""Othello rules: published perft counts, passes, game end, odd sizes, text I/O."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

import pyaz

# ../shared/reference/perft.md: (A) finished games contribute 0 deeper (Edax), (B) count 1.
PERFT_8X8 = [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288]


def test_perft_start_depths_1_to_9_both_conventions() -> None:
    start = pyaz.make("othello")
    assert [pyaz.perft(start, d) for d in range(1, 10)] == PERFT_8X8
    assert [pyaz.perft(start, d, count_finished=True) for d in range(1, 10)] == PERFT_8X8


def test_perft_depth_10_conventions_differ_as_published() -> None:
    start = pyaz.make("othello")
    assert pyaz.perft(start, 10) == 24_571_056
    assert pyaz.perft(start, 10, count_finished=True) == 24_571_284


def test_perft_depth_11() -> None:
    assert pyaz.perft(pyaz.make("othello"), 11) == 212_258_216


def test_start_moves_are_the_standard_four() -> None:
    start = pyaz.make("othello")
    assert [start.action_to_str(a) for a in start.legal_actions()] == ["d3", "c4", "f5", "e6"]
    assert start.to_move() == 0
    assert start.num_actions == 65
    assert start.pass_action == 64


@pytest.mark.parametrize("size", [4, 5, 6, 7, 8])
def test_start_block_on_rows_and_columns_n_half(size: int) -> None:
    board = pyaz.make("othello", size=size).board()
    lo, hi = size // 2 - 1, size // 2
    expected = np.zeros((size, size), dtype=np.int8)
    expected[lo, hi] = expected[hi, lo] = 1  # Black
    expected[lo, lo] = expected[hi, hi] = 2  # White
    np.testing.assert_array_equal(board, expected)


# X to move has no placement; O has d3 and d4: X must pass.
PASS_POSITION = """
O O O O
O O O O
O O X .
O O O .
X to move
"""


def test_pass_is_the_only_action_when_stuck() -> None:
    state = pyaz.Othello.from_text(PASS_POSITION)
    assert state.legal_actions() == [16]
    assert state.action_to_str(16) == "pass"
    mask = state.legal_mask()
    assert mask.dtype == np.bool_ and mask.sum() == 1 and mask[16]
    state.apply(state.str_to_action("pass"))
    assert state.to_move() == 1
    assert [state.action_to_str(a) for a in state.legal_actions()] == ["d3", "d4"]
    with pytest.raises(ValueError, match="illegal action 16"):
        state.clone().apply(16)  # no pass while a placement exists


def test_game_ends_when_neither_side_can_move() -> None:
    state = pyaz.Othello.from_text(PASS_POSITION).play("pass d3")
    # d3 flipped X's last disc; d4 is empty but nobody can play there.
    assert state.board()[3, 3] == 0
    assert state.is_terminal()
    assert state.status() == pyaz.Status.SECOND_PLAYER_WIN
    assert (state.disc_count(0), state.disc_count(1)) == (0, 15)
    assert state.legal_actions() == []
    with pytest.raises(ValueError, match="game is over"):
        state.apply(16)


def test_full_board_draw() -> None:
    text = "\n".join(["XXXX", "XXXX", "OOOO", "OOOO"])
    state = pyaz.Othello.from_text(text)
    assert state.status() == pyaz.Status.DRAW


def test_flips_in_all_directions() -> None:
    # X plays c3 (centre of a 5x5) and flips a line of O in each of the 8 directions.
    text = """
    X . X . X
    . O O O .
    X O . O X
    . O O O .
    X . X . X
    """
    state = pyaz.Othello.from_text(text)
    state.apply(state.str_to_action("c3"))
    board = state.board()
    assert (board == 2).sum() == 0
    assert (board == 1).sum() == 17


def test_flips_stop_at_the_edge_of_smaller_boards() -> None:
    # On 6x6, O on e1..f1 with no X beyond the edge: X at d1 must not flip them.
    text = """
    . . . . O O
    . . . X . .
    . . . . . .
    . . . . . .
    . . . . . .
    . . . . . .
    """
    state = pyaz.Othello.from_text(text)
    assert state.str_to_action("d1") not in state.legal_actions()


def test_text_round_trip_and_side_to_move() -> None:
    state = pyaz.make("othello", size=6).play("b3 b2 c2")
    parsed = pyaz.Othello.from_text(str(state))
    np.testing.assert_array_equal(parsed.board(), state.board())
    assert parsed.to_move() == state.to_move() == 1
    assert parsed.legal_actions() == state.legal_actions()


def test_encode_is_from_the_side_to_move() -> None:
    state = pyaz.make("othello")
    planes = state.encode()
    assert planes.dtype == np.float32 and planes.shape == (2, 8, 8)
    np.testing.assert_array_equal(planes[0], state.board() == 1)
    state.apply(state.legal_actions()[0])
    planes = state.encode()
    np.testing.assert_array_equal(planes[0], state.board() == 2)
    np.testing.assert_array_equal(planes[1], state.board() == 1)


@pytest.mark.parametrize("size", [3, 9, 0, -1])
def test_bad_sizes_raise(size: int) -> None:
    with pytest.raises(ValueError, match="between 4 and 8"):
        pyaz.make("othello", size=size)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("XO\nOX", "between 4 and 8"),
        ("XXXX\nXXXX\nXXXX", "square"),
        ("XXXX\nXX\nXXXX\nXXXX", "different lengths"),
        ("....\n.XQ.\n.OX.\n....", "unexpected character 'Q'"),
        ("....\n.XO.\n.OX.\n....\nZ to move", "side to move"),
        ("", "no board rows"),
    ],
)
def test_malformed_text_raises(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        pyaz.Othello.from_text(text)


def test_bad_coordinates_raise() -> None:
    state = pyaz.make("othello", size=6)
    for text in ["z1", "a7", "a0", "", "11", "c3x"]:
        with pytest.raises(ValueError):
            state.str_to_action(text)
    with pytest.raises(ValueError, match="not a board square"):
        state.action_to_coord(36)
    assert state.action_to_coord(7) == (1, 1)
    assert state.coord_to_action(1, 1) == 7


def test_random_playouts_count_every_game() -> None:
    wins, draws, losses = pyaz.random_playouts(pyaz.make("othello", size=6), 2000, seed=3)
    assert wins + draws + losses == 2000
    assert wins > 0 and losses > 0 and draws > 0
    assert pyaz.random_playouts(pyaz.make("othello", size=6), 2000, seed=3) == (wins, draws, losses)


def test_portable_code_path_gives_the_same_counts() -> None:
    """The AVX2 move generator is chosen at load time; the portable one must agree."""
    script = (
        "import pyaz; s = pyaz.make('othello'); "
        "print(pyaz.perft(s, 9), pyaz.random_playouts(s, 3000, 11), "
        "pyaz.perft(pyaz.make('othello', size=5), 8))"
    )
    outputs = []
    for env_extra in ({}, {"PYAZ_DISABLE_AVX2": "1"}):
        env = {**os.environ, **env_extra}
        result = subprocess.run(
            [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
        )
        outputs.append(result.stdout)
    assert outputs[0] == outputs[1]
    assert outputs[0].startswith("3005288 ")
