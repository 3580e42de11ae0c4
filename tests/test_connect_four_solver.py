"""The exact Connect Four solver (``pyaz.solve``) and the perfect-play agreement built on it.

Values are checked against things written elsewhere: the published results for board sizes
(John Tromp's, http://tromp.github.io/c4/c4.html, "results for other board sizes", all boards
with width + height <= 15; restated, with the ply on which perfect play ends, in the table of
https://github.com/ChristopheSteininger/c4 README, "Outcome" and "Last Move", width x height),
Pascal Pons' scored positions (http://blog.gamesolver.org/solving-connect-four/02-test-protocol/
and the first line of his Test_L3_R1 set), and a plain minimax written here in Python.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

import pyaz
from pyaz.cli import selfplay as selfplay_cli
from pyaz.common.runlog import read_metrics
from pyaz.eval.oracle import (
    PerfectPlayer,
    hard_positions,
    perfect_play_agreement,
)
from pyaz.eval.players import RandomPlayer
from pyaz.eval.presets import make_player
from pyaz.methods.alphazero.config import TrainConfig

# -- published values -----------------------------------------------------------------------

# (width, height, outcome for the first player, ply on which perfect play ends).
PUBLISHED = [
    (4, 4, "draw", 16),
    (5, 4, "draw", 20),
    (6, 4, "2nd", 24),
    (7, 4, "draw", 28),
    (4, 5, "draw", 20),
    (5, 5, "draw", 25),
    (6, 5, "draw", 30),
    (4, 6, "draw", 24),
    (5, 6, "draw", 30),
]
PUBLISHED_LARGER = [(7, 5, "draw", 35), (6, 6, "2nd", 36)]
PUBLISHED_7X6 = [(7, 6, "1st", 41)]


def _published_score(width: int, height: int, outcome: str, last_ply: int) -> int:
    """Pons' score of the empty board for the first player: a win with the winner's k-th disc
    scores cells // 2 + 1 - k."""
    if outcome == "draw":
        return 0
    winner_disc = (last_ply + 1) // 2
    score = width * height // 2 + 1 - winner_disc
    return score if outcome == "1st" else -score


def _check_published(width: int, height: int, outcome: str, last_ply: int) -> None:
    solution = pyaz.solve(pyaz.make("connect_four", width=width, height=height))
    assert solution.value == {"draw": 0, "1st": 1, "2nd": -1}[outcome]
    assert solution.score == _published_score(width, height, outcome, last_ply)


@pytest.mark.parametrize(("width", "height", "outcome", "last_ply"), PUBLISHED)
def test_empty_boards_match_the_published_results(
    width: int, height: int, outcome: str, last_ply: int
) -> None:
    _check_published(width, height, outcome, last_ply)


@pytest.mark.parametrize(("width", "height", "outcome", "last_ply"), PUBLISHED_LARGER)
def test_larger_empty_boards_match_the_published_results(
    width: int, height: int, outcome: str, last_ply: int
) -> None:
    """Up to 20 s each on the 2-core development machine."""
    _check_published(width, height, outcome, last_ply)


@pytest.mark.slow
@pytest.mark.parametrize(("width", "height", "outcome", "last_ply"), PUBLISHED_7X6)
def test_the_7x6_empty_board_matches_the_published_result(
    width: int, height: int, outcome: str, last_ply: int
) -> None:
    """The value (a first-player win) and the exact score (the win comes on ply 41) on a 1 GiB
    table: 2.5 to 3.5 minutes on the 2-core machine (564 M + 299 M nodes; with the default
    64 MiB table the value alone takes 1.08 G nodes). In the slow tier (``-m slow``) since
    2026-11-28, the longest test of the default run: the default run proves the same search on
    the 6x6 and 7x5 empty boards and on Pons' scored 7x6 positions."""
    state = pyaz.make("connect_four", width=width, height=height)
    solver = pyaz.ConnectFourSolver(table_entries=134217689)  # a prime below 2**27
    assert solver.value(state) == {"draw": 0, "1st": 1, "2nd": -1}[outcome]
    assert solver.solve(state) == _published_score(width, height, outcome, last_ply)


def _from_moves(moves: str, width: int = 7, height: int = 6) -> pyaz.ConnectFour:
    """A position from Pons' notation: the columns played, 1 = leftmost."""
    state = pyaz.make("connect_four", width=width, height=height)
    for column in moves:
        state.apply(int(column) - 1)
    return state  # type: ignore[return-value]


@pytest.mark.parametrize(
    ("moves", "score"),
    [
        ("4455", 18),  # Pons, part 2: the mover wins with its 4th disc
        ("44455554221", -15),  # Pons, part 2: the opponent wins with its 7th disc
        ("2252576253462244111563365343671351441", -1),  # Pons' Test_L3_R1, line 1
    ],
)
def test_pons_scored_positions(moves: str, score: int) -> None:
    solution = pyaz.solve(_from_moves(moves))
    assert solution.score == score
    assert solution.value == (score > 0) - (score < 0)


# -- against a plain minimax ----------------------------------------------------------------


_MEMO: dict[tuple[int, int, bytes, int], int] = {}


def _minimax(state: pyaz.ConnectFour) -> int:
    """Pons' score by exhaustive negamax over every legal move (memoised on the board)."""
    height, width = state.board_shape
    key = (width, height, state.board().tobytes(), int(state.to_move()))
    if key in _MEMO:
        return _MEMO[key]
    cells, ply = width * height, state.ply
    best = -cells
    for action in state.legal_actions():
        child = state.child(action)
        if child.status() == pyaz.Status.DRAW:
            score = 0
        elif child.is_terminal():
            score = (cells + 1 - ply) // 2  # the mover just won
        else:
            score = -_minimax(child)
        best = max(best, score)
    _MEMO[key] = best
    return best


def _random_positions(width: int, height: int, count: int, low: int, seed: int) -> list:
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        state = pyaz.make("connect_four", width=width, height=height)
        plies = rng.randint(low, width * height - 2)
        while state.ply < plies and not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            positions.append(state)
    return positions


@pytest.mark.parametrize(("width", "height", "low"), [(4, 4, 0), (5, 4, 4), (4, 5, 4), (7, 6, 28)])
def test_every_move_matches_brute_force(width: int, height: int, low: int) -> None:
    for state in _random_positions(width, height, 40, low, seed=width * 10 + height):
        solution = pyaz.solve(state)
        assert sorted(solution.move_values) == state.legal_actions()
        for action, move in solution.move_values.items():
            child = state.child(action)
            if child.is_terminal():
                expected = 0 if child.status() == pyaz.Status.DRAW else None
            else:
                expected = -_minimax(child)
            if expected is not None:
                assert move.score == expected, (str(state), action)
        assert solution.score == _minimax(state), str(state)


@pytest.mark.parametrize(("width", "height", "outcome", "last_ply"), PUBLISHED + PUBLISHED_LARGER)
def test_the_value_alone_matches_the_published_results(
    width: int, height: int, outcome: str, last_ply: int
) -> None:
    value = pyaz.solve_value(pyaz.make("connect_four", width=width, height=height))
    assert value == {"draw": 0, "1st": 1, "2nd": -1}[outcome]


@pytest.mark.parametrize(("width", "height", "low"), [(4, 4, 0), (5, 4, 4), (7, 6, 28)])
def test_the_value_alone_matches_brute_force(width: int, height: int, low: int) -> None:
    for state in _random_positions(width, height, 40, low, seed=width * 100 + height):
        score = _minimax(state)
        assert pyaz.solve_value(state) == (score > 0) - (score < 0), str(state)


def _mirror_pair(rng: random.Random, plies: int) -> tuple[pyaz.ConnectFour, pyaz.ConnectFour]:
    """A random 7x6 position and its mirror image (the columns played, reversed)."""
    while True:
        state = pyaz.make("connect_four", width=7, height=6)
        mirror = pyaz.make("connect_four", width=7, height=6)
        while state.ply < plies and not state.is_terminal():
            column = rng.choice(state.legal_actions())
            state.apply(column)
            mirror.apply(6 - column)
        if not state.is_terminal():
            return state, mirror  # type: ignore[return-value]


def test_mirror_images_get_mirrored_scores() -> None:
    """The table holds one entry for a position and its mirror image: a wrong key would give
    the two different scores. A fresh solver for each image, then one solver for both."""
    rng = random.Random(5)
    shared = pyaz.ConnectFourSolver()
    for plies in (14, 16, 18, 20, 22, 24):
        state, mirror = _mirror_pair(rng, plies)
        assert (mirror.board() == state.board()[:, ::-1]).all()
        scores = pyaz.ConnectFourSolver().move_scores(state)
        assert pyaz.ConnectFourSolver().move_scores(mirror) == scores[::-1]
        assert shared.move_scores(state) == scores
        assert shared.move_scores(mirror) == scores[::-1]


def _symmetric_position(rng: random.Random, plies: int) -> pyaz.ConnectFour:
    """A random 7x6 position equal to its mirror image: blocks of four moves c, d, 6-c, 6-d."""
    while True:
        state = pyaz.make("connect_four", width=7, height=6)
        while state.ply < plies and not state.is_terminal():
            c, d = rng.choice([0, 1, 2, 4, 5, 6]), rng.choice([0, 1, 2, 4, 5, 6])
            block = [c, d, 6 - c, 6 - d]
            trial = state.clone()
            for column in block:
                if trial.is_terminal() or column not in trial.legal_actions():
                    break
                trial.apply(column)
            else:
                state = trial
                continue
            break
        if state.ply == plies and not state.is_terminal():
            return state  # type: ignore[return-value]


def test_a_symmetric_position_scores_mirror_moves_alike() -> None:
    """move_scores takes a symmetric position's mirror moves from their images: each must equal
    the score of its own child, solved apart."""
    rng = random.Random(7)
    for plies in (16, 20, 24):
        state = _symmetric_position(rng, plies)
        assert (state.board() == state.board()[:, ::-1]).all()
        scores = pyaz.ConnectFourSolver().move_scores(state)
        assert scores == scores[::-1]
        for column in state.legal_actions():
            child = state.child(column)
            if not child.is_terminal():
                assert scores[column] == -pyaz.ConnectFourSolver().solve(child), (plies, column)


def test_solution_fields_agree() -> None:
    solution = pyaz.solve(_from_moves("44455554221"))
    assert solution.move_values[3].score == -15 and solution.move_values[5].score == -15
    assert solution.best_moves == [
        c for c, m in solution.move_values.items() if m.score == solution.score
    ]
    assert all(solution.move_values[c].value == solution.value for c in solution.best_moves)


# -- errors ---------------------------------------------------------------------------------


def test_errors_name_the_bad_value() -> None:
    with pytest.raises(ValueError, match="othello"):
        pyaz.solve(pyaz.make("othello", size=6))
    with pytest.raises(ValueError, match="8x6"):
        pyaz.solve(pyaz.make("connect_four", width=8, height=6))
    with pytest.raises(ValueError, match="6x7"):
        pyaz.solve(pyaz.make("connect_four", width=6, height=7))
    finished = _from_moves("1212121")
    assert finished.is_terminal()
    with pytest.raises(ValueError, match="FIRST_PLAYER_WIN"):
        pyaz.solve(finished)
    with pytest.raises(ValueError, match="over"):
        pyaz.ConnectFourSolver().solve(finished)
    with pytest.raises(ValueError, match="over"):
        pyaz.solve_value(finished)
    with pytest.raises(ValueError, match="othello"):
        pyaz.solve_value(pyaz.make("othello", size=6))


# -- perfect-play agreement -----------------------------------------------------------------


@pytest.fixture(scope="module")
def positions_7x6() -> list:
    return hard_positions(7, 6, count=60, seed=3)


def test_hard_positions_are_distinct_hard_and_reproducible(positions_7x6: list) -> None:
    assert len({p.key for p in positions_7x6}) == len(positions_7x6) == 60
    for position in positions_7x6:
        state = position.state
        solution = pyaz.solve(state)
        values = {m.value for m in solution.move_values.values()}
        assert len(values) > 1
        won = (pyaz.Status.FIRST_PLAYER_WIN, pyaz.Status.SECOND_PLAYER_WIN)[state.to_move()]
        assert all(state.child(a).status() != won for a in state.legal_actions())
        assert position.value == solution.value
        assert position.good_moves == frozenset(solution.value_preserving_moves)
    again = hard_positions(7, 6, count=10, seed=3)
    assert [p.key for p in again] == [p.key for p in positions_7x6[:10]]


def test_perfect_player_agrees_and_random_does_not(positions_7x6: list) -> None:
    perfect = perfect_play_agreement(PerfectPlayer(seed=1), positions_7x6)
    assert perfect.agreement == 1.0 and perfect.kept == perfect.positions == 60
    assert perfect.lower < 1.0 == perfect.upper
    rand = perfect_play_agreement(RandomPlayer(seed=1), positions_7x6)
    assert rand.agreement < 0.9
    assert rand.lower <= rand.agreement <= rand.upper
    with pytest.raises(ValueError, match="distinct"):
        perfect_play_agreement(PerfectPlayer(), positions_7x6[:2] * 2)


def test_perfect_preset() -> None:
    start = pyaz.make("connect_four", width=5, height=4)
    player = make_player("perfect", start, seed=0)
    assert player.choose(start) in (1, 2, 3)
    with pytest.raises(ValueError, match="connect_four"):
        make_player("perfect", pyaz.make("othello", size=6))
    with pytest.raises(ValueError, match="8x7"):
        make_player("perfect", pyaz.make("connect_four", width=8, height=7))


def test_eval_opponent_perfect_needs_connect_four() -> None:
    with pytest.raises(ValueError, match="othello"):
        TrainConfig(game="othello", eval_opponent="perfect").validate()
    with pytest.raises(ValueError, match="8x6"):
        TrainConfig(
            game="connect_four", game_options={"width": 8, "height": 6}, eval_opponent="perfect"
        ).validate()


def test_selfplay_records_perfect_agreement(tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "run"
    args = [
        "--game", "connect_four", "--width", "5", "--height", "4", "--episodes", "4",
        "--simulations", "4", "--epochs", "1", "--eval-games", "6", "--eval-opponent",
        "perfect", "--parallel-games", "4", "--iterations", "1", "--quiet", "--out", str(out),
    ]  # fmt: skip
    assert selfplay_cli.main(args) == 0
    evals = [r for r in read_metrics(out) if r["kind"] == "eval"]
    assert len(evals) == 1
    record = evals[0]
    assert record["opponent"] == "perfect" and record["eval_positions"] == 6
    assert 0.0 <= record["perfect_agreement"] <= 1.0
    assert record["perfect_agreement"] == record["eval_kept"] / 6
    _check_probe(out, tmp_path / "probe")


def _check_probe(run, out) -> None:  # type: ignore[no-untyped-def]
    """bench/connect_four_probe.py (a documented script) on a one-iteration run: every row,
    every phase, shares in [0, 1], and the UCT references beside the network's rows."""
    script = Path(__file__).resolve().parents[1] / "bench" / "connect_four_probe.py"
    done = subprocess.run(
        [sys.executable, str(script), "--run", str(run), "--out", str(out), "--positions", "5",
         "--simulations", "4"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    summary = json.loads((out / "probe.json").read_text())
    assert summary["positions"] == {
        "early": {"count": 5, "plies": [3, 6]},
        "middle": {"count": 5, "plies": [7, 11]},
        "late": {"count": 5, "plies": [12, 14]},
    }
    players = [(row["network"], row["player"]) for row in summary["rows"]]
    assert players == [
        ("-", "uct-4"),
        ("iter 1", "policy"),
        ("iter 1", "value"),
        ("iter 1", "value-rank"),
        ("iter 1", "puct-4"),
    ]
    for row in summary["rows"]:  # a ranking is NaN when a phase holds no draw
        shares = [row[phase] for phase in ("early", "middle", "late")]
        assert all(0.0 <= x <= 1.0 or (row["player"] == "value-rank" and x != x) for x in shares)
