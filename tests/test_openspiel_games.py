"""OpenSpiel's games as pyaz games (issue 76): the conformance kit passes on them, and games
pyaz cannot play are refused saying why."""

from __future__ import annotations

import sys
from functools import partial

import pytest

import pyaz
from pyaz._core import Status
from pyaz.games.minimax import solve_all
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
