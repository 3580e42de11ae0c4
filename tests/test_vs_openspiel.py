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


# --------------------------------------------------------------------------- Go
# OpenSpiel numbers Go rows from the bottom (action 0 is a1), pyaz from the top; the pass is
# n*n in both. OpenSpiel ends a game as a draw when a stone move repeats an earlier board (it
# has no superko rule in its legal moves); pyaz with default rules plays on, so such games
# are compared only up to that point. Both cap a game at max_game_length actions (OpenSpiel's
# default is 2*n*n) and score it by Tromp-Taylor area.


def _go_action(size: int, spiel_action: int) -> int:
    if spiel_action == size * size:
        return spiel_action
    row, col = divmod(spiel_action, size)
    return (size - 1 - row) * size + col


@pytest.mark.parametrize(("size", "games"), [(5, 300), (9, 200), (13, 40), (19, 20)])
def test_go_random_games_agree_with_openspiel(size: int, games: int) -> None:
    game = pyspiel.load_game("go", {"board_size": size, "komi": 7.5})
    rng = random.Random(size)
    finished = 0
    for _ in range(games):
        ours = pyaz.Go(size, komi=7.5, max_game_length=game.max_game_length())
        theirs = game.new_initial_state()
        while not theirs.is_terminal():
            legal = theirs.legal_actions()
            assert ours.legal_actions() == sorted(_go_action(size, a) for a in legal), str(ours)
            action = rng.choice(legal)
            ours.apply(_go_action(size, action))
            theirs.apply_action(action)
        if not ours.is_terminal():  # OpenSpiel's repetition draw
            continue
        assert ours.status() == _winner_from_returns(theirs.returns()), str(ours)
        finished += 1
    assert finished >= games * 0.95


def test_go_perft_agrees_with_openspiel() -> None:
    state = pyspiel.load_game("go", {"board_size": 5}).new_initial_state()
    assert pyaz.perft(pyaz.Go(5), 4) == _spiel_perft(state, 4) == 361_041


def test_go_random_playouts_agree_with_openspiel() -> None:
    """pyaz.random_playouts (C++ draws) and OpenSpiel's Python-driven random games: the first
    player's win rate must agree within sampling noise, so pyaz's draws are uniform too."""
    game = pyspiel.load_game("go", {"board_size": 5, "komi": 0.5, "max_game_length": 50})
    rng = random.Random(5)
    n_spiel = 3000
    spiel_wins = 0
    for _ in range(n_spiel):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        spiel_wins += state.returns()[0] > 0
    n_ours = 100_000
    wins, _, _ = pyaz.random_playouts(pyaz.Go(5, komi=0.5, max_game_length=50), n_ours, seed=5)
    p_spiel, p_ours = spiel_wins / n_spiel, wins / n_ours
    sigma = (p_ours * (1 - p_ours) * (1 / n_spiel + 1 / n_ours)) ** 0.5
    assert abs(p_ours - p_spiel) < 5 * sigma, (p_ours, p_spiel, sigma)
