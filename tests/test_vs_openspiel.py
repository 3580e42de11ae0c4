"""pyaz's rules against OpenSpiel's C++ games (an independent implementation, via pyspiel).

Lockstep random games: at every ply the legal action sets must agree, and at the end the
winner. Action numbering coincides: Othello r*8+c with 64 = pass, Connect Four columns,
Gomoku r*15+c. OpenSpiel's Gomoku counts lines of five or more (free-style).
"""

from __future__ import annotations

import random

import pyspiel
import pytest

import pyaz


def _winner_from_returns(returns: list[float]) -> pyaz.Status:
    if returns[0] > returns[1]:
        return pyaz.Status.FIRST_PLAYER_WIN
    if returns[1] > returns[0]:
        return pyaz.Status.SECOND_PLAYER_WIN
    return pyaz.Status.DRAW


def _lockstep(ours, theirs, rng: random.Random) -> pyaz.Status:
    while not theirs.is_terminal():
        assert not ours.is_terminal(), str(ours)
        assert ours.to_move() == theirs.current_player()
        legal = theirs.legal_actions()
        assert ours.legal_actions() == legal, str(ours)
        action = rng.choice(legal)
        ours.apply(action)
        theirs.apply_action(action)
    assert ours.is_terminal()
    assert ours.legal_actions() == []
    assert ours.status() == _winner_from_returns(theirs.returns()), str(ours)
    return ours.status()


CASES = [
    ("othello", {}, lambda: pyaz.make("othello", size=8), 400),
    ("connect_four", {}, lambda: pyaz.make("connect_four"), 2000),
    (
        "connect_four",
        {"columns": 6, "rows": 7},
        lambda: pyaz.make("connect_four", width=6, height=7),
        500,
    ),
    ("gomoku", {}, lambda: pyaz.make("gomoku", size=15), 200),
    ("gomoku", {"size": 9}, lambda: pyaz.make("gomoku", size=9), 400),
]


@pytest.mark.parametrize(("name", "params", "factory", "games"), CASES)
def test_random_games_agree_with_openspiel(name, params, factory, games) -> None:
    game = pyspiel.load_game(name, params)
    rng = random.Random(1234)
    outcomes = {status: 0 for status in pyaz.Status.__members__.values()}
    for _ in range(games):
        outcomes[_lockstep(factory(), game.new_initial_state(), rng)] += 1
    # Both players must have won some games, so wins of either side were checked.
    assert outcomes[pyaz.Status.FIRST_PLAYER_WIN] > 0
    assert outcomes[pyaz.Status.SECOND_PLAYER_WIN] > 0


def _spiel_perft(state, depth: int) -> int:
    if state.is_terminal():
        return 0 if depth else 1
    if depth == 0:
        return 1
    total = 0
    for action in state.legal_actions():
        total += _spiel_perft(state.child(action), depth - 1)
    return total


@pytest.mark.parametrize(
    ("name", "params", "factory", "depth"),
    [
        ("othello", {}, lambda: pyaz.make("othello"), 5),
        ("connect_four", {}, lambda: pyaz.make("connect_four"), 5),
        (
            "connect_four",
            {"columns": 5, "rows": 4},
            lambda: pyaz.make("connect4", width=5, height=4),
            6,
        ),
    ],
)
def test_perft_agrees_with_openspiel(name, params, factory, depth) -> None:
    state = pyspiel.load_game(name, params).new_initial_state()
    assert pyaz.perft(factory(), depth) == _spiel_perft(state, depth)


def test_perft_from_midgame_agrees_with_openspiel() -> None:
    rng = random.Random(7)
    for _ in range(20):
        ours = pyaz.make("connect_four")
        theirs = pyspiel.load_game("connect_four").new_initial_state()
        for _ in range(rng.randrange(8, 20)):
            if theirs.is_terminal():
                break
            action = rng.choice(theirs.legal_actions())
            ours.apply(action)
            theirs.apply_action(action)
        assert pyaz.perft(ours, 4) == _spiel_perft(theirs, 4)
