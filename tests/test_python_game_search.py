"""The C++ search over a game written in Python (``_core.PythonGameSearch``, chosen by
``pyaz.Search`` and ``pyaz.SelfPlay`` for any state that is no native game's).

The reference no one here wrote is the native search itself: a Python object that only
delegates to a native Connect Four state must get exactly the visits that the native search
gets on the same positions, for each search rule. Tic-tac-toe (pyaz's bundled Python game)
checks what a game of its own brings: the solver on a won position, self-play through a
network callback, and errors raised by the game's own methods during a run; and it searches
as its C++ port (``tictactoe_cpp``, the tutorial's second half) does, visit for visit.
"""

from __future__ import annotations

import numpy as np
import pytest

import pyaz
from pyaz import _core
from pyaz.games.examples.tictactoe import TicTacToe


class Delegate:
    """A Python game that only forwards to a native Connect Four state."""

    name = "delegated connect four"

    def __init__(self, inner: pyaz.NativeGame) -> None:
        self.inner = inner
        self.num_actions = inner.num_actions
        self.planes_shape = tuple(inner.planes_shape)

    @property
    def ply(self) -> int:
        return int(self.inner.ply)

    def to_move(self) -> int:
        return int(self.inner.to_move())

    def status(self) -> _core.Status:
        return self.inner.status()

    def is_terminal(self) -> bool:
        return bool(self.inner.is_terminal())

    def is_legal(self, action: int) -> bool:
        return bool(self.inner.is_legal(action))

    def legal_actions(self) -> list[int]:
        return list(self.inner.legal_actions())

    def apply(self, action: int) -> None:
        self.inner.apply(action)

    def clone(self) -> Delegate:
        return Delegate(self.inner.clone())

    def encode(self) -> np.ndarray:
        return np.asarray(self.inner.encode())


def _position(moves: tuple[int, ...]) -> pyaz.NativeGame:
    state = pyaz.make("connect_four", width=5, height=4)
    for move in moves:
        state.apply(move)
    return state


def _net(planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A fixed function of the planes, so that both searches see the same evaluations."""
    flat = planes.reshape(planes.shape[0], -1)
    logits = np.stack([flat[:, i::5].sum(axis=1) * (i + 1) * 0.3 for i in range(5)], axis=1)
    values = np.tanh(flat.sum(axis=1) * 0.05 - 0.2)
    return logits.astype(np.float32), values.astype(np.float32)


@pytest.mark.parametrize(
    ("options", "evaluator"),
    [
        ({}, "uniform"),
        ({}, _net),
        ({"rule": "gumbel", "gumbel_actions": 4}, _net),
        ({"rule": "uct"}, "rollout"),
    ],
    ids=["puct-uniform", "puct-net", "gumbel-net", "uct-rollout"],
)
@pytest.mark.parametrize("moves", [(), (2, 2, 1), (0, 1, 2, 3, 4, 0)])
def test_a_delegating_python_game_searches_as_the_native_game(
    options: dict, evaluator: object, moves: tuple[int, ...]
) -> None:
    native = pyaz.Search(_position(moves), seed=7, **options)
    python = pyaz.Search(Delegate(_position(moves)), seed=7, **options)
    assert type(python._impl).__name__ == "PythonGameSearch"
    native.run(300, evaluator)  # type: ignore[arg-type]
    python.run(300, evaluator)  # type: ignore[arg-type]
    assert python.visit_counts().tolist() == native.visit_counts().tolist()
    assert python.root_value == pytest.approx(native.root_value)
    assert python.principal_variation() == native.principal_variation()


def test_self_play_over_a_python_game_records_what_the_native_one_does() -> None:
    options = {"simulations": 40, "seed": 3, "threads": 1, "parallel_games": 2}
    native = pyaz.SelfPlay(_position(()), **options).play(4, _net)
    python = pyaz.SelfPlay(Delegate(_position(())), **options).play(4, _net)
    assert python.num_games == native.num_games == 4
    np.testing.assert_array_equal(python.planes, native.planes)
    np.testing.assert_array_equal(python.policy, native.policy)
    np.testing.assert_array_equal(python.outcome, native.outcome)


def test_the_solver_proves_a_won_tictactoe_position() -> None:
    state = pyaz.make("tictactoe")
    for move in (0, 3, 1, 4):  # X on a1 b1, O on a2 b2: X wins at c1
        state.apply(move)
    search = pyaz.Search(state, solver=True)
    search.run(500, "rollout")
    assert search.proven_value() == 1
    assert search.principal_variation()[:1] == [2]
    assert search.choose_action() == 2


def _played(name: str, moves: tuple[int, ...]) -> pyaz.NativeGame:
    state = pyaz.make(name)
    for move in moves:
        state.apply(move)
    return state


def _cells_net(planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A fixed function of tic-tac-toe's planes (logits by cell, a value by the marks)."""
    flat = planes.reshape(planes.shape[0], -1)
    logits = flat[:, :9] * 0.7 - flat[:, 9:] * 0.4 + np.arange(9) * 0.1
    values = np.tanh(flat[:, :9].sum(axis=1) * 0.2 - flat[:, 9:].sum(axis=1) * 0.15)
    return logits.astype(np.float32), values.astype(np.float32)


@pytest.mark.parametrize(
    ("options", "evaluator"),
    [
        ({}, "uniform"),
        ({}, _cells_net),
        ({"rule": "gumbel", "gumbel_actions": 4}, _cells_net),
        ({"rule": "uct"}, "rollout"),
        ({"solver": True}, "rollout"),
    ],
    ids=["puct-uniform", "puct-net", "gumbel-net", "uct-rollout", "solver-rollout"],
)
@pytest.mark.parametrize("moves", [(), (4,), (0, 3, 1, 4), (0, 4, 8, 2)])
def test_the_python_tictactoe_searches_as_its_cpp_port(
    options: dict, evaluator: object, moves: tuple[int, ...]
) -> None:
    python = pyaz.Search(_played("tictactoe", moves), seed=7, **options)
    port = pyaz.Search(_played("tictactoe_cpp", moves), seed=7, **options)
    assert (type(python._impl).__name__, type(port._impl).__name__) == (
        "PythonGameSearch",
        "TicTacToeSearch",
    )
    python.run(400, evaluator)  # type: ignore[arg-type]
    port.run(400, evaluator)  # type: ignore[arg-type]
    assert python.visit_counts().tolist() == port.visit_counts().tolist()
    assert python.root_value == pytest.approx(port.root_value)
    assert python.principal_variation() == port.principal_variation()


def test_self_play_over_the_python_tictactoe_records_what_its_cpp_port_does() -> None:
    options = {"simulations": 30, "seed": 3, "threads": 1, "parallel_games": 2}
    python = pyaz.SelfPlay(pyaz.make("tictactoe"), **options).play(4, _cells_net)
    port = pyaz.SelfPlay(pyaz.make("tictactoe_cpp"), **options).play(4, _cells_net)
    assert python.num_games == port.num_games == 4
    np.testing.assert_array_equal(python.planes, port.planes)
    np.testing.assert_array_equal(python.policy, port.policy)
    np.testing.assert_array_equal(python.outcome, port.outcome)


def test_many_threads_search_a_python_game() -> None:
    search = pyaz.Search(pyaz.make("tictactoe"), threads=4, batch_size=4, seed=1)
    search.run(3000, _tictactoe_net)
    assert search.root_visits >= 3000
    assert search.visit_counts()[4] == max(search.visit_counts())  # the centre, as the net says


def _tictactoe_net(planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    logits = np.zeros((planes.shape[0], 9), dtype=np.float32)
    logits[:, 4] = 3.0
    return logits, np.zeros(planes.shape[0], dtype=np.float32)


def test_self_play_over_tictactoe_gives_training_records() -> None:
    records = pyaz.SelfPlay(pyaz.make("tictactoe"), simulations=30, seed=2).play(6, _tictactoe_net)
    assert records.num_games == 6
    assert records.planes.shape[1:] == (2, 3, 3)
    assert records.policy.shape[1] == 9
    assert 5 * 6 <= records.num_positions <= 9 * 6
    np.testing.assert_allclose(records.policy.sum(axis=1), 1.0, rtol=1e-5)
    assert set(np.unique(records.outcome).tolist()) <= {-1.0, 0.0, 1.0}


class Faulty(TicTacToe):
    """Tic-tac-toe whose apply() raises once the board holds ``after`` marks."""

    after = 3

    def apply(self, action: int) -> None:
        if self.ply >= self.after:
            raise RuntimeError("the game's own bug")
        super().apply(action)


def test_an_error_of_the_game_reaches_the_caller_as_raised_and_the_search_goes_on() -> None:
    search = pyaz.Search(Faulty(), threads=2, seed=1)
    with pytest.raises(RuntimeError, match="the game's own bug"):
        search.run(400, "rollout")
    assert search.root_state.ply == 0  # the root kept
    fine = pyaz.Search(Faulty())
    fine.run(3, "uniform")  # three plies deep at most: no error
    assert fine.root_visits >= 3


def test_an_error_of_the_game_stops_self_play() -> None:
    with pytest.raises(RuntimeError, match="the game's own bug"):
        pyaz.SelfPlay(Faulty(), simulations=8).play(2, "uniform")


class Bad(TicTacToe):
    """Tic-tac-toe that lists an action out of its range."""

    def legal_actions(self) -> list[int]:
        return [*super().legal_actions(), 9]


@pytest.mark.parametrize(
    ("change", "error", "words"),
    [
        ({"num_actions": "nine"}, TypeError, "num_actions"),
        ({"num_actions": 0}, ValueError, "num_actions"),
        ({"planes_shape": (2, 3)}, ValueError, "planes_shape"),
        ({"planes_shape": (2, 3, 0)}, ValueError, "planes_shape"),
    ],
)
def test_a_game_that_declares_bad_values_is_refused_naming_them(
    change: dict, error: type[Exception], words: str
) -> None:
    state = TicTacToe()
    for key, value in change.items():
        setattr(state, key, value)
    with pytest.raises(error, match=words):
        pyaz.Search(state)


def test_an_action_out_of_range_is_refused_naming_it() -> None:
    with pytest.raises(ValueError, match="legal_actions"):
        pyaz.Search(Bad()).run(5, "uniform")


@pytest.mark.parametrize("thing", [object(), 3, "tictactoe", None])
def test_what_is_no_game_gets_a_type_error(thing: object) -> None:
    with pytest.raises(TypeError, match="no search for"):
        pyaz.Search(thing)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="no self-play for"):
        pyaz.SelfPlay(thing)  # type: ignore[arg-type]


def test_random_game_lengths_of_a_python_game() -> None:
    lengths = pyaz.random_game_lengths(pyaz.make("tictactoe"), 200, seed=1)
    assert lengths.dtype == np.int32 and len(lengths) == 200
    assert lengths.min() >= 5 and lengths.max() <= 9  # no win before ply 5, a full board at 9
    assert len(set(lengths.tolist())) >= 3
    with pytest.raises(ValueError, match="must be >= 0, got -1"):
        pyaz.random_game_lengths(pyaz.make("tictactoe"), -1)
    with pytest.raises(TypeError, match="must be an integer, got '3'"):
        pyaz.random_game_lengths(pyaz.make("tictactoe"), "3")  # type: ignore[arg-type]


def test_random_playouts_of_a_python_game_match_tic_tac_toes_exact_rates() -> None:
    """Uniformly random tic-tac-toe: the first player wins 737/1260 of games, 160/1260 are
    drawn (the games weighted by their chance); the plug-in written in Python and
    its C++ port agree with them, each counted for the side to move."""
    games = 20_000
    for name in ("tictactoe", "tictactoe_cpp"):
        wins, draws, losses = pyaz.random_playouts(pyaz.make(name), games, seed=2)
        assert wins + draws + losses == games
        assert abs(wins / games - 737 / 1260) < 0.015, name
        assert abs(draws / games - 160 / 1260) < 0.012, name
    # after the centre, O is to move: its wins are X's losses, alike in both
    rates = []
    for name in ("tictactoe", "tictactoe_cpp"):
        state = pyaz.make(name)
        state.apply(state.str_to_action("b2"))
        wins, draws, losses = pyaz.random_playouts(state, games, seed=3)
        assert losses > 2 * wins  # the centre is X's best start
        rates.append((wins / games, draws / games))
    assert abs(rates[0][0] - rates[1][0]) < 0.02 and abs(rates[0][1] - rates[1][1]) < 0.02
    with pytest.raises(ValueError, match="must be >= 0, got -1"):
        pyaz.random_playouts(pyaz.make("tictactoe"), -1)
    with pytest.raises(TypeError, match="got a curling state"):
        pyaz.random_playouts(pyaz.make("curling"), 10)  # type: ignore[arg-type]
