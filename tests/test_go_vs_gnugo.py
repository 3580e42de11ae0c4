"""pyaz's Go against GNU Go 3.8 as the referee, over GTP (pyaz.engines.gtp).

- Rules: random games in lockstep; at every ply pyaz's legal points equal GNU Go's
  ``all_legal``, and after every move the stones (``list_stones``) and capture counts
  (``captures``) agree: default rules, ``allow_suicide`` (GNU Go ``--allow-suicide``) and
  positional superko (``--positional-superko``).
- Play: GNU Go plays itself (after a short random opening) and plays a random mover on 5x5,
  9x9 and 13x13; pyaz replays every move, which must be legal, and the boards must agree
  after each one.
- Score: the games run until both sides pass, with ``--capture-all-dead`` so that GNU Go
  removes dead stones before it passes. GNU Go's ``final_score`` still applies its own
  dead-stone judgement, so only games where ``final_status_list dead`` is empty (the dead
  stones were captured in play) are compared with pyaz's Tromp-Taylor score; every
  parameter set must produce at least one such game.

CI installs GNU Go (``apt-get install gnugo``); without it these tests fail, they never skip.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np
import pytest
from test_go import SUPERKO_MOVES

import pyaz
from pyaz.engines.gtp import GtpEngine, GtpEngineNotFoundError, find_gnugo, gnugo

COLOURS = ("black", "white")


@pytest.fixture(scope="module", autouse=True)
def require_gnugo() -> None:
    try:
        find_gnugo()
    except GtpEngineNotFoundError as error:
        pytest.fail(f"{error} (CI installs it; these tests fail rather than skip without it)")


def stones(state: pyaz.Go, colour: int) -> list[str]:
    flat = state.board().ravel()
    return sorted(state.action_to_vertex(int(a)) for a in np.flatnonzero(flat == colour + 1))


def assert_same_position(state: pyaz.Go, engine: GtpEngine, where: str) -> None:
    for colour, name in enumerate(COLOURS):
        assert sorted(engine.list_stones(name)) == stones(state, colour), (
            f"{name} stones differ {where}\n{state}"
        )
    theirs = tuple(int(engine.send(f"captures {name}")) for name in COLOURS)
    assert theirs == state.captures, f"captures differ {where}"


def assert_same_legal_points(state: pyaz.Go, engine: GtpEngine, where: str) -> None:
    ours = sorted(state.action_to_vertex(a) for a in state.legal_actions()[:-1])
    theirs = sorted(engine.send(f"all_legal {COLOURS[state.to_move()]}").upper().split())
    assert ours == theirs, f"legal points differ {where}: {sorted(set(ours) ^ set(theirs))}"


def gnugo_score(text: str) -> float:
    """GNU Go's final_score ('B+3.5', 'W+0.5', '0') as Black minus White."""
    if text == "0":
        return 0.0
    sign = 1.0 if text[0].upper() == "B" else -1.0
    return sign * float(text[2:])


def own_eye(state: pyaz.Go, action: int) -> bool:
    """Whether the point's neighbours are all stones of the side to move."""
    n = state.size
    row, col = divmod(action, n)
    board = state.board()
    mine = state.to_move() + 1
    neighbours = [(row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)]
    return all(board[r, c] == mine for r, c in neighbours if 0 <= r < n and 0 <= c < n)


# --------------------------------------------------------------------------- rules


def random_lockstep(size: int, options: dict[str, bool], flags: list[str], seed: int) -> int:
    """Random games on both boards; returns the number of plies checked."""
    rng = random.Random(seed)
    plies = 0
    with gnugo(boardsize=size, komi=0.5, extra_args=flags) as engine:
        for game in range(4):
            engine.clear_board()
            state = pyaz.Go(size, komi=0.5, max_game_length=10**6, **options)
            for ply in range(300):
                where = f"(game {game}, ply {ply})"
                assert_same_legal_points(state, engine, where)
                points = state.legal_actions()[:-1]
                action = rng.choice(points) if points and rng.random() < 0.99 else state.pass_action
                engine.play(COLOURS[state.to_move()], state.action_to_vertex(action))
                state.apply(action)
                plies += 1
                if state.is_terminal():
                    break
                assert_same_position(state, engine, where)
    return plies


@pytest.mark.parametrize(
    ("size", "options", "flags"),
    [
        (5, {}, []),
        (7, {}, []),
        (9, {}, []),
        (5, {"allow_suicide": True}, ["--allow-suicide"]),
        (7, {"allow_suicide": True}, ["--allow-suicide"]),
        (5, {"superko": True}, ["--positional-superko"]),
        (7, {"superko": True}, ["--positional-superko"]),
    ],
    ids=["5", "7", "9", "5-suicide", "7-suicide", "5-superko", "7-superko"],
)
def test_random_games_match_gnugo_rules(size: int, options: dict[str, bool], flags: list[str]):
    assert random_lockstep(size, options, flags, seed=size) > 300


def test_superko_position_matches_gnugo() -> None:
    # The position of test_go.py's superko test: White's A3 would recreate an earlier board.
    moves = SUPERKO_MOVES.split()
    for superko, flags in ((False, []), (True, ["--positional-superko"])):
        state = pyaz.Go(5, komi=0.5, superko=superko).play(moves)
        with gnugo(boardsize=5, komi=0.5, extra_args=flags) as engine:
            for number, move in enumerate(moves):
                engine.play(COLOURS[number % 2], move)
            assert_same_legal_points(state, engine, f"(superko={superko})")
            assert ("A3" in engine.send("all_legal white").upper().split()) is not superko


# --------------------------------------------------------------------------- whole games


def gnugo_move(state: pyaz.Go, engine: GtpEngine, where: str) -> int:
    vertex = engine.genmove(COLOURS[state.to_move()])
    assert vertex != "resign", f"GNU Go resigned {where} despite --never-resign"
    action = state.vertex_to_action(vertex)
    assert state.is_legal(action), f"GNU Go's {vertex} is illegal in pyaz {where}\n{state}"
    return action


def random_move(state: pyaz.Go, rng: random.Random) -> int:
    """A random legal point that does not fill an own eye; pass once the opponent passed."""
    points = [a for a in state.legal_actions()[:-1] if not own_eye(state, a)]
    return rng.choice(points) if points and state.passes == 0 else state.pass_action


@dataclass(frozen=True)
class Match:
    size: int
    seed: int
    opening: int = 0  # random moves before GNU Go plays both sides
    random_colour: int | None = None  # the random mover's colour (0 Black, 1 White), if any


@contextmanager
def played(match: Match) -> Iterator[tuple[pyaz.Go, GtpEngine]]:
    """Plays one game to two passes, checking every move; yields the end and the engine."""
    size = match.size
    komi = 0.5 if size < 9 else 7.5
    rng = random.Random(match.seed)
    with gnugo(boardsize=size, komi=komi, capture_all_dead=True, seed=match.seed) as engine:
        state = pyaz.Go(size, komi=komi, max_game_length=10**6)
        while not state.is_terminal():
            where = f"({match}, ply {state.ply})"
            assert state.ply < 4 * size * size, f"the game is not ending {where}"
            if state.ply < match.opening or state.to_move() == match.random_colour:
                assert_same_legal_points(state, engine, where)
                action = random_move(state, rng)
                engine.play(COLOURS[state.to_move()], state.action_to_vertex(action))
            else:
                action = gnugo_move(state, engine, where)
            state.apply(action)
            assert_same_position(state, engine, where)
        assert state.passes == 2
        yield state, engine


def check_final_scores(matches: list[Match]) -> None:
    compared = 0
    for match in matches:
        with played(match) as (state, engine):
            if engine.send("final_status_list dead"):
                continue  # GNU Go would remove stones that are still on the board
            assert state.score() == gnugo_score(engine.final_score()), f"{match}\n{state}"
            black_won = state.score() > 0
            assert state.status() == (
                pyaz.Status.FIRST_PLAYER_WIN if black_won else pyaz.Status.SECOND_PLAYER_WIN
            )
            compared += 1
    assert compared > 0, "no game ended with its dead stones captured; nothing was compared"


@pytest.mark.parametrize(
    ("size", "seeds", "opening"),
    [(5, [1, 2, 3], 2), (9, [1, 2], 4), (13, [1], 6)],
    ids=["5x5", "9x9", "13x13"],
)
def test_gnugo_self_play_replays_in_pyaz(size: int, seeds: list[int], opening: int) -> None:
    check_final_scores([Match(size, seed, opening=opening) for seed in seeds])


@pytest.mark.parametrize(("size", "seeds"), [(5, [1, 2]), (9, [3, 4])], ids=["5x5", "9x9"])
def test_gnugo_against_a_random_mover(size: int, seeds: list[int]) -> None:
    # The random mover takes each colour once; GNU Go captures its dead stones before passing.
    check_final_scores([Match(size, seed, random_colour=seed % 2) for seed in seeds])
