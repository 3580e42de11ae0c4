"""The Python API shared by every game: registry, errors, copies, planes and symmetries."""

from __future__ import annotations

import copy

import numpy as np
import pytest

import pyaz
from pyaz.games.symmetry import transform_board

FACTORIES = {
    "othello6": lambda: pyaz.make("othello", size=6),
    "connect_four": lambda: pyaz.make("connect_four"),
    "gomoku9": lambda: pyaz.make("gomoku", size=9),
    "go9": lambda: pyaz.make("go", size=9),
    "racingkings": lambda: pyaz.make("racingkings"),
}


def test_make_and_aliases() -> None:
    assert isinstance(pyaz.make("Reversi"), pyaz.Othello)
    assert isinstance(pyaz.make("connect4", width=6, height=7), pyaz.ConnectFour)
    assert pyaz.make("gobang", size=6, line_length=4).line_length == 4
    assert pyaz.make("gomoku").num_actions == 225


def test_make_errors_name_the_problem() -> None:
    with pytest.raises(ValueError, match="unknown game 'chess'; known games"):
        pyaz.make("chess")
    with pytest.raises(TypeError, match="takes no option"):
        pyaz.make("othello", width=8)


@pytest.mark.parametrize("name", list(FACTORIES))
def test_shapes_and_dtypes(name: str) -> None:
    state = FACTORIES[name]()
    planes = state.encode()
    assert planes.dtype == np.float32
    assert planes.shape == state.planes_shape
    assert planes.shape[1:] == state.board_shape
    mask = state.legal_mask()
    assert mask.dtype == np.bool_ and mask.shape == (state.num_actions,)
    assert np.flatnonzero(mask).tolist() == state.legal_actions()
    assert state.board().dtype == np.int8


@pytest.mark.parametrize("name", list(FACTORIES))
def test_child_and_clone_do_not_mutate(name: str) -> None:
    state = FACTORIES[name]()
    action = state.legal_actions()[0]
    before = state.board().copy()
    child = state.child(action)
    assert child.ply == 1 and state.ply == 0
    np.testing.assert_array_equal(state.board(), before)
    for duplicate in (state.clone(), copy.copy(state), copy.deepcopy(state)):
        duplicate.apply(action)
        np.testing.assert_array_equal(duplicate.board(), child.board())
    np.testing.assert_array_equal(state.board(), before)


@pytest.mark.parametrize("name", list(FACTORIES))
def test_illegal_and_malformed_actions(name: str) -> None:
    state = FACTORIES[name]()
    with pytest.raises(ValueError, match="out of range"):
        state.apply(state.num_actions)
    with pytest.raises(ValueError, match="out of range"):
        state.apply(-1)
    with pytest.raises(TypeError):
        state.apply("a1")  # apply takes ints; play() takes text
    with pytest.raises(TypeError):
        state.apply(1.5)
    with pytest.raises(ValueError):
        state.play("no-such-move")
    assert state.ply == 0


def test_numpy_integers_are_accepted() -> None:
    state = pyaz.make("connect_four")
    state.apply(np.int64(3))
    state.play(np.array([2, 4]))
    assert state.ply == 3


def test_play_is_all_or_nothing() -> None:
    state = pyaz.make("othello")
    with pytest.raises(ValueError, match=r"move 2 of the list: illegal action .* \(d3\)"):
        state.play("d3 d3")
    assert state.ply == 0
    assert state.play(["d3", 18]).ply == 2


def test_str_and_repr() -> None:
    state = pyaz.make("connect_four").play("4")
    assert "O to move" in str(state)
    assert repr(state) == "<pyaz.connect_four 6x7 ply 1, O to move>"


def _cell_after(k: int, row: int, col: int, n: int) -> tuple[int, int]:
    """Where transform k sends (row, col): mirror (k >= 4) then k % 4 turns counter-clockwise."""
    if k >= 4:
        col = n - 1 - col
    for _ in range(k % 4):
        row, col = n - 1 - col, row
    return row, col


@pytest.mark.parametrize("k", range(8))
def test_planes_transform_matches_hand_mapping(k: int) -> None:
    n = 5
    planes = np.zeros((2, n, n), dtype=np.float32)
    planes[0, 0, 1] = 1  # top row, second column
    out = pyaz.transform_planes(planes, k)
    assert out[(0, *_cell_after(k, 0, 1, n))] == 1 and out.sum() == 1
    assert transform_board(np.arange(4).reshape(2, 2), 1).tolist() == [[1, 3], [0, 2]]


@pytest.mark.parametrize("k", range(8))
def test_symmetric_positions_have_transformed_legal_masks(k: int) -> None:
    """Transforming a position's board must transform its legal actions the same way."""
    state = pyaz.make("othello", size=6).play("b3 b2 c2 b4")
    board = state.board()
    rotated = transform_board(board, k)
    text = "\n".join("".join(".XO"[v] for v in row) for row in rotated)
    text += "\nX to move" if state.to_move() == 0 else "\nO to move"
    other = pyaz.Othello.from_text(text)
    expected = pyaz.transform_policy(state.legal_mask(), k, state)
    np.testing.assert_array_equal(other.legal_mask(), expected)
    np.testing.assert_array_equal(other.encode(), pyaz.transform_planes(state.encode(), k))


@pytest.mark.parametrize("k", range(8))
def test_go_positions_have_transformed_legal_masks(k: int) -> None:
    """Go has all 8 symmetries: a transformed board has the transformed legal moves (suicide
    points included) and planes, and the pass stays last."""
    state = pyaz.make("go", size=7)
    rng = np.random.default_rng(k)
    while state.ply < 40 or state.ko_action is not None:
        legal = state.legal_actions()[:-1]
        state.apply(int(rng.choice(legal)))
    rotated = transform_board(state.board(), k)
    text = "\n".join("".join(".XO"[v] for v in row) for row in rotated)
    other = pyaz.Go.from_text(text + ("\nX to move" if state.to_move() == 0 else "\nO to move"))
    expected = pyaz.transform_policy(state.legal_mask(), k, state)
    assert pyaz.num_symmetries(state) == 8 and expected[-1]
    np.testing.assert_array_equal(other.legal_mask(), expected)
    np.testing.assert_array_equal(other.encode(), pyaz.transform_planes(state.encode(), k))
    assert other.score() == state.score()


def test_policy_transform_keeps_pass_and_checks_shapes() -> None:
    state = pyaz.make("othello", size=4)
    policy = np.arange(17, dtype=np.float32)
    out = pyaz.transform_policy(policy, 1, state)
    assert out[16] == 16 and sorted(out.tolist()) == policy.tolist()
    with pytest.raises(ValueError, match="17 actions"):
        pyaz.transform_policy(np.zeros(16), 1, state)
    with pytest.raises(ValueError, match=r"0\.\.7"):
        pyaz.transform_policy(policy, 8, state)


def test_connect_four_has_only_the_mirror() -> None:
    state = pyaz.make("connect_four")
    assert pyaz.num_symmetries(state) == 2
    np.testing.assert_array_equal(
        pyaz.transform_policy(np.arange(7), 4, state), [6, 5, 4, 3, 2, 1, 0]
    )
    with pytest.raises(ValueError, match="only symmetries 0 and 4"):
        pyaz.transform_policy(np.arange(7), 1, state)


def test_perft_and_playout_argument_errors() -> None:
    state = pyaz.make("othello")
    with pytest.raises(ValueError, match="depth"):
        pyaz.perft(state, -1)
    with pytest.raises(ValueError, match="number of games must be >= 0, got -5"):
        pyaz.random_playouts(state, -5)
    with pytest.raises(TypeError, match=r"legal actions; got 'othello' \(str\)"):
        pyaz.perft("othello", 3)
    # the same checks for pyaz's games and for games written in Python, before either runs
    for game in (state, pyaz.make("tictactoe")):
        for depth in ("2", 2.0, True):
            with pytest.raises(TypeError, match="perft depth must be an integer"):
                pyaz.perft(game, depth)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="the seed must be >= 0, got -1"):
            pyaz.random_playouts(game, 10, -1)
        with pytest.raises(ValueError, match=r"the seed must be below 2\*\*64"):
            pyaz.random_game_lengths(game, 10, 2**64)
    assert pyaz.perft(state, np.int64(2)) == 12  # a numpy integer is an integer
