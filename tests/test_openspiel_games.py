"""OpenSpiel's games as pyaz games (issue 76): the conformance kit passes on them, games pyaz
cannot play are refused saying why, and the board() of those the board page draws is
OpenSpiel's own drawing."""

from __future__ import annotations

import random
import re
import sys
from functools import partial

import numpy as np
import pytest

import pyaz
from pyaz._core import Status
from pyaz.games import DrawableGameState
from pyaz.games.minimax import solve_all
from pyaz.games.openspiel import OpenSpielBoardState, OpenSpielState
from pyaz.testing import check_game

pytest.importorskip("pyspiel")


@pytest.mark.parametrize(
    ("name", "perft"),
    [
        ("openspiel:tic_tac_toe", {1: 9, 2: 72, 3: 504, 4: 3024, 5: 15120}),
        ("openspiel:breakthrough(rows=5,columns=5)", {}),
        ("openspiel:hex(board_size=5)", {1: 25, 2: 600}),
    ],
)
def test_the_kit_passes_on_openspiel_games(name: str, perft: dict[int, int]) -> None:
    report = check_game(partial(pyaz.make, name), perft=perft)
    assert report.skipped == (["symmetries"] if perft else ["symmetries", "perft"])


def test_options_as_text_or_keywords_make_the_same_game() -> None:
    by_text = pyaz.make("openspiel:breakthrough(rows=6,columns=6)")
    by_keywords = pyaz.make("openspiel:breakthrough", rows=6, columns=6)
    assert by_text.name == by_keywords.name == "openspiel:breakthrough(columns=6,rows=6)"
    assert by_text.planes_shape == (4, 6, 6) and by_text.num_actions == 6 * 6 * 6 * 2


def test_a_won_game_and_the_side_to_move_plane() -> None:
    state = pyaz.make("openspiel:tic_tac_toe")
    assert state.encode()[-1].max() == 0.0
    for action in (0, 3, 1, 4, 2):
        state.apply(action)
        assert state.encode()[-1].min() == float(state.to_move())
    assert state.status() == Status.FIRST_PLAYER_WIN and state.returns() == [1.0, -1.0]
    assert state.legal_actions() == [] and state.to_move() == 1
    with pytest.raises(ValueError, match="action 5 is not legal here"):
        state.apply(5)


def test_openspiel_tic_tac_toe_is_a_draw_over_5478_positions() -> None:
    table = solve_all(pyaz.make("openspiel:tic_tac_toe"))
    assert (table.positions, table.value(pyaz.make("openspiel:tic_tac_toe"))) == (5478, 0)


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("openspiel:kuhn_poker", "it is not perfect information; .*it has chance"),
        ("openspiel:matrix_rps", "its moves are not sequential"),
        ("openspiel:nosuch", "unknown OpenSpiel game 'nosuch'"),
        ("openspiel:breakthrough(rowz=5)", "Unknown parameter 'rowz'"),
    ],
)
def test_games_pyaz_cannot_play_are_refused(name: str, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        pyaz.make(name)


def test_an_option_given_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="option rows is given twice: 5, 6"):
        pyaz.make("openspiel:breakthrough(rows=5)", rows=6)


def test_without_pyspiel_the_error_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    with pytest.raises(ValueError, match=r'pip install "pyaz\[openspiel\]"'):
        pyaz.make("openspiel:tic_tac_toe")


def _drawn(name: str, text: str, rows: int, cols: int) -> list[list[int]]:
    """The cells of OpenSpiel's drawing ``text`` of the game ``name``: 0 empty, 1 the first
    player's piece, 2 the second's."""
    lines = text.split("\n")
    if "breakthrough" in name or "lines_of_action" in name:  # "5b..bb": the rank, the row
        grid = [line[len(str(rows - r)) :][:cols] for r, line in enumerate(lines[:rows])]
    elif "othello" in name:  # "4 - - - o x - - - 4" below a side-to-move line and the files
        grid = ["".join(line.split()[1 : 1 + cols]) for line in lines[2 : 2 + rows]]
    else:  # tic-tac-toe, connect four, hex (rows shifted by spaces)
        grid = ["".join(line.split()) for line in lines[:rows]]
    first, second = ("b", "w") if "breakthrough" in name else ("x", "o")
    return [[1 if ch == first else 2 if ch == second else 0 for ch in row] for row in grid]


@pytest.mark.parametrize(
    "name",
    [
        "openspiel:breakthrough(rows=5,columns=5)",
        "openspiel:breakthrough(rows=6,columns=4)",
        "openspiel:tic_tac_toe",
        "openspiel:connect_four",
        "openspiel:hex(board_size=5)",
        "openspiel:hex(board_size=4,plain_obs_tensor=True)",
        "openspiel:hex(num_rows=3,num_cols=5)",
        "openspiel:hex(num_rows=4,num_cols=2)",
        "openspiel:othello",
        "openspiel:lines_of_action",
        "openspiel:mnk(m=4,n=3,k=3)",
    ],
)
def test_the_board_is_openspiels_drawing_and_each_move_has_its_own_cells(name: str) -> None:
    rng = random.Random(1)
    for _ in range(3):
        state = pyaz.make(name)
        assert isinstance(state, OpenSpielBoardState) and isinstance(state, DrawableGameState)
        cols, rows = state.board_labels()
        while True:
            board = state.board()
            assert board.shape == state.board_shape and board.dtype == np.int8
            assert board.tolist() == _drawn(name, str(state), *state.board_shape), str(state)
            if state.is_terminal() or state.ply > 60:
                break
            legal = state.legal_actions()
            cells = [state.action_cells(action) for action in legal]
            clicks = {str(cell) for cell in cells}
            assert len(clicks) == len(legal)  # a click (or two) tells every move apart
            for action, (start, to) in zip(legal, cells, strict=True):
                text = state.action_to_str(action)
                if to is None:  # a pass takes no cell
                    assert text == "pass" and start is None
                    continue
                named = [cols[to[1]] + rows[to[0]]]
                if start is not None:
                    named.insert(0, cols[start[1]] + rows[start[0]])
                if state.board_view == "stones" and "othello" not in name:
                    assert text == "xo"[state.to_move()] + f"({to[0]},{to[1]})"
                elif state.board_view == "columns":
                    assert text == "xo"[state.to_move()] + cols[to[1]]
                else:  # the cells as the move names them: d2c3, a2-c2, a3xc1, c2
                    assert re.sub("[-x*]", "", text) == "".join(named), (text, named)
            state.apply(rng.choice(legal))


@pytest.mark.parametrize("size", ["num_rows=3,num_cols=2", "num_rows=4,num_cols=2"])
def test_hex_refuses_the_plain_tensor_off_the_square(size: str) -> None:
    """OpenSpiel's hex writes its plain tensor past its end on a board that is not square (the
    heap is corrupted: "double free or corruption" on 3x2); pyaz refuses the game, naming why."""
    with pytest.raises(
        ValueError, match=r"plain observation tensor past its end.*without plain_obs_tensor it does"
    ):
        pyaz.make(f"openspiel:hex({size},plain_obs_tensor=True)")
    assert pyaz.make("openspiel:hex(board_size=3,plain_obs_tensor=True)").board_shape == (3, 3)


def test_a_rectangular_hex_is_read_row_by_row_by_the_board_and_the_planes() -> None:
    """OpenSpiel's hex declares its tensor as (C, columns, rows) and writes it row by row: on a
    rectangle both the board and the network's planes put each stone on its own cell."""
    state = pyaz.make("openspiel:hex(num_rows=3,num_cols=5)")
    assert state.board_shape == (3, 5) and state.planes_shape == (10, 3, 5)
    state.apply(state.str_to_action("c2"))  # row 2 (index 1), column c (index 2)
    assert np.argwhere(state.board() == 1).tolist() == [[1, 2]]
    planes = state.encode()  # white to move; player 1's view: x's stones in planes 5-8
    assert np.argwhere(planes[5:9].sum(axis=0) > 0).tolist() == [[1, 2]]
    assert planes[-1].min() == 1.0


@pytest.mark.parametrize("name", ["openspiel:checkers", "openspiel:amazons"])
def test_games_whose_observation_is_no_plane_per_sides_pieces_have_no_board(name: str) -> None:
    state = pyaz.make(name)
    assert type(state) is OpenSpielState and not hasattr(state, "board")
    assert not isinstance(state, DrawableGameState) and isinstance(state.clone(), OpenSpielState)


@pytest.mark.parametrize(
    "name", ["openspiel:connect_four", "openspiel:breakthrough(rows=5,columns=5)"]
)
def test_training_leaves_the_examples_of_a_game_without_declared_symmetries_alone(
    name: str,
) -> None:
    """An OpenSpiel game has the neutral profile: the identity alone, so augmentation keeps its
    examples as they are (rotating Connect Four's 6x7 planes failed, and turning breakthrough's
    moves as if they were cells taught the network wrong policies)."""
    from pyaz.games.symmetry import symmetry_ids
    from pyaz.train.trainer import augment_batch

    state = pyaz.make(name)
    assert symmetry_ids(state) == [0]
    rng = np.random.default_rng(0)
    planes = rng.random((16, *state.planes_shape)).astype(np.float32)
    policy = rng.dirichlet(np.ones(state.num_actions), size=16).astype(np.float32)
    augmented, targets = augment_batch(planes, policy, state, rng)
    assert np.array_equal(augmented, planes) and np.array_equal(targets, policy)
