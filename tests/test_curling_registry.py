"""Curling is one registration (issue 75): ``pyaz.make("curling")`` with the registry's option
checks, matches and tournaments through the generic arena, and no dispatch on its name in the
modules that play every game."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import pyaz
from pyaz._core import Status
from pyaz.eval.arena import play_match
from pyaz.eval.players import ShotPlayer
from pyaz.eval.tournament import Contestant, play_tournament
from pyaz.games import board_games, curling
from pyaz.games.state import SeededGameState

SRC = Path(pyaz.__file__).resolve().parent


def test_make_curling_builds_the_state_with_its_options() -> None:
    state = pyaz.make("Curling", ends=3, noise="none", seed=7)
    assert isinstance(state, curling.CurlingState) and isinstance(state, SeededGameState)
    assert (state.name, state.game.rules.num_ends, state.seed, state.ply) == ("curling", 3, 7, 0)
    assert "curling" in pyaz.GAMES and set(pyaz.GAMES) - set(board_games()) == {"curling"}


@pytest.mark.parametrize(
    ("options", "error", "text"),
    [
        ({"ends": 0}, ValueError, "ends must be in 1..100, got 0"),
        ({"ends": 2.0}, TypeError, "curling option ends must be an integer, got 2.0"),
        ({"noise": "loud"}, ValueError, "noise must be one of gat, dc3, none, got 'loud'"),
        ({"physics": 3}, TypeError, "curling option physics must be a str, got 3"),
        ({"extra_ends": -1}, ValueError, "extra_ends must be in 0..100, got -1"),
        ({"seed": -1}, ValueError, "seed must be >= 0, got -1"),
        ({"hammer": 1}, TypeError, "takes no option(s) ['hammer']"),
    ],
)
def test_make_curling_refuses_bad_options(
    options: dict[str, object], error: type[Exception], text: str
) -> None:
    with pytest.raises(error) as caught:
        pyaz.make("curling", **options)
    assert text in str(caught.value)


def test_same_position_refuses_curling_clearly() -> None:
    with pytest.raises(TypeError, match="board games' states, got curling's"):
        pyaz.games.same_position(pyaz.make("curling"), pyaz.make("curling"))  # type: ignore[arg-type]


def _fixed(x: float, y: float, name: str) -> ShotPlayer:
    target = curling.Target(x, y, 1)
    return ShotPlayer(lambda game, seed: target, name)


def test_a_match_of_registered_curling_goes_through_the_generic_arena() -> None:
    """Without noise, drawing to the button beats throwing through the house (y = 80 m), as
    first and as second; no random openings by default (its games differ by their seed)."""
    button, through = _fixed(0.0, curling.TEE_Y, "button"), _fixed(0.0, 80.0, "through")
    result = play_match(button, through, 2, pyaz.make("curling", ends=1, noise="none"))
    assert (result.a_wins, result.draws, result.b_wins) == (2, 0, 0)
    assert [g.status for g in result.games] == [Status.FIRST_PLAYER_WIN, Status.SECOND_PLAYER_WIN]
    assert all(g.length == 16 and g.opening == [] for g in result.games)


def test_a_tournament_over_curling_players() -> None:
    players = [
        Contestant("button", _fixed(0.0, curling.TEE_Y, "button")),
        Contestant("through", _fixed(0.0, 80.0, "through")),
        Contestant("blank", _fixed(0.0, 80.0, "blank")),
    ]
    start = pyaz.make("curling", ends=1, noise="none")
    matches = play_tournament(players, 2, start, progress=False)
    tallies = [(m.a_name, m.b_name, m.a_wins, m.draws, m.b_wins) for m in matches]
    assert tallies == [
        ("button", "through", 2, 0, 0),
        ("button", "blank", 2, 0, 0),
        ("through", "blank", 0, 2, 0),  # nobody in the house: blank ends, draws
    ]


CLEANED = [
    "cli/arena.py",
    "eval/arena.py",
    "eval/parallel.py",
    "eval/tournament.py",
    "eval/match_journal.py",
    "eval/tournament_journal.py",
    "cli/board/sessions.py",
]
"""The modules that play every game and no longer name curling in their code (their
docstrings and help texts may give curling as an example). Allowed elsewhere in the board:
cli/board/curling_view.py and the /api/curling routes of cli/board/app.py draw the sheet, a
view of continuous shots that a board of cells cannot show."""


@pytest.mark.parametrize("module", CLEANED)
def test_the_cleaned_modules_do_not_dispatch_on_curling(module: str) -> None:
    tree = ast.parse((SRC / module).read_text())
    names = [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    ]
    assert "curling" not in [name.strip().lower() for name in names]
    imported = [
        node.module or ""
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
        if "curling" in (node.module or "") or alias.name == "curling"
    ]
    assert imported == []
