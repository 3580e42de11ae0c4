"""A game written in Python under pyaz's C++ search: what the Python calls cost.

PUCT with a uniform evaluator (P uniform, v = 0), one thread, 800 simulations per move search
from the start of Connect Four 7x6, three ways:

- the native C++ game (``pyaz.make("connect_four")``): the bare cost of the search;
- a Python object that only forwards each call to a native state (``Delegate``): the cost of
  the adapter itself (``_core.PythonGameSearch``: one Python call per apply, legal_actions,
  status and to_move, under the GIL), with the rules as fast as they can be;
- OpenSpiel's ``connect_four`` through ``pyaz.make("openspiel:connect_four")``, where the
  rules are OpenSpiel's (C++ behind pybind11) and the state is pyaz's Python adapter.

The ratios (native over each) are measured in the same run, the sides interleaved round by
round; the row's value is the Python game's simulations per second.

The tutorial's two tic-tac-toes (docs/tutorial-python-game.md) the same way, 800 simulations a
move search from the empty board: the game written in Python (``pyaz.make("tictactoe")``,
through the adapter) against its C++ port (``pyaz.make("tictactoe_cpp")``), which search the
same tree (the same visits for the same seed: tests/test_python_game_search.py); the ratio is
the C++ port's speed over the Python game's.

Beside them, the peer the issue names: UCT with one random rollout a leaf (c = 2), 800
simulations a move from the start of OpenSpiel's ``connect_four``, pyaz's search over the
pyspiel game (through the Python adapter) against OpenSpiel's own C++ ``MCTSBot`` on the same
game (ratio: pyaz over OpenSpiel; below 1 where the Python calls cost more than OpenSpiel's
C++ search).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest

if TYPE_CHECKING:
    from conftest import BenchConfig

SIMULATIONS = 800


class Delegate:
    """A Python game that only forwards to a native state."""

    name = "delegated connect four"

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.num_actions = inner.num_actions
        self.planes_shape = tuple(inner.planes_shape)

    @property
    def ply(self) -> int:
        return int(self.inner.ply)

    def to_move(self) -> int:
        return int(self.inner.to_move())

    def status(self) -> Any:
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


def _move_search(pyaz: Any, start: Callable[[], Any]) -> Callable[[], int]:
    def run() -> int:
        search = pyaz.Search(start())
        search.run(SIMULATIONS, "uniform")
        assert int(search.visit_counts().sum()) >= SIMULATIONS - 1
        return SIMULATIONS

    return run


def _paired_rates(
    native: Callable[[], int], python: Callable[[], int], rounds: int, target_s: float
) -> tuple[list[float], list[float]]:
    """Simulations per second of each side, round by round, the order alternating."""
    native_rates: list[float] = []
    python_rates: list[float] = []
    for index in range(rounds):
        pair = [(native, native_rates), (python, python_rates)]
        for run, rates in pair if index % 2 == 0 else pair[::-1]:
            done, start = 0, time.perf_counter()
            while time.perf_counter() - start < target_s:
                done += run()
            rates.append(done / (time.perf_counter() - start))
    return native_rates, python_rates


@pytest.mark.benchmark(group="python-game")
@pytest.mark.parametrize("kind", ["delegate", "openspiel"])
def test_python_game_search_against_the_native_game(
    benchmark: Any,
    pyaz: Any,
    bench_cfg: BenchConfig,
    record_row: Callable[[dict[str, Any]], None],
    kind: str,
) -> None:
    if kind == "openspiel":
        pytest.importorskip("pyspiel", reason="open-spiel is not installed")

        def python_start() -> Any:
            return pyaz.make("openspiel:connect_four")
    else:

        def python_start() -> Any:
            return Delegate(pyaz.make("connect_four"))

    row = {"game": "Connect Four 7x6", "measure": f"PUCT sims/s, {kind} Python game"}
    peer = "the native C++ game (slower by the ratio)"
    native_start = lambda: pyaz.make("connect_four")  # noqa: E731
    _python_against_native(benchmark, pyaz, bench_cfg, native_start, python_start, row, peer)
    record_row(row)


def _python_against_native(
    benchmark: Any,
    pyaz: Any,
    bench_cfg: BenchConfig,
    native_start: Callable[[], Any],
    python_start: Callable[[], Any],
    row: dict[str, Any],
    peer: str,
) -> None:
    """The same search's rates over a game written in Python and over a C++ one, in alternating
    rounds, added to ``row`` (the Python game's rate, the C++ one's, their ratio) and to the
    benchmark's extra info."""
    native = _move_search(pyaz, native_start)
    python = _move_search(pyaz, python_start)
    native_rates, python_rates = _paired_rates(
        native, python, bench_cfg.rounds, 0.5 * bench_cfg.scale
    )
    benchmark.pedantic(python, rounds=1, iterations=1)
    ratios = [n / p for n, p in zip(native_rates, python_rates, strict=True)]
    row.update(
        unit="sims/s",
        value=statistics.median(python_rates),
        peer=peer,
        peer_value=statistics.median(native_rates),
        ratio=statistics.median(ratios),
        round_ratios=ratios,
    )
    benchmark.extra_info.update(row)


@pytest.mark.benchmark(group="python-game")
def test_python_tictactoe_against_its_cpp_port(
    benchmark: Any,
    pyaz: Any,
    bench_cfg: BenchConfig,
    record_row: Callable[[dict[str, Any]], None],
) -> None:
    row = {"game": "tic-tac-toe", "measure": "PUCT sims/s, the tutorial's Python game"}
    peer = "its C++ port, tictactoe_cpp (slower by the ratio)"
    native_start = lambda: pyaz.make("tictactoe_cpp")  # noqa: E731
    python_start = lambda: pyaz.make("tictactoe")  # noqa: E731
    _python_against_native(benchmark, pyaz, bench_cfg, native_start, python_start, row, peer)
    record_row(row)


@pytest.mark.benchmark(group="python-game")
def test_pyspiel_game_search_against_openspiels_mcts(
    benchmark: Any,
    pyaz: Any,
    bench_cfg: BenchConfig,
    record_row: Callable[[dict[str, Any]], None],
) -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="open-spiel is not installed")
    game = pyspiel.load_game("connect_four")
    seeds = iter(range(bench_cfg.seed, bench_cfg.seed + 10**6))

    def ours() -> int:
        search = pyaz.Search(pyaz.make("openspiel:connect_four"), rule="uct", c_uct=2.0)
        search.run(SIMULATIONS, "rollout")
        assert int(search.visit_counts().sum()) >= SIMULATIONS - 1
        return SIMULATIONS

    def theirs() -> int:
        seed = next(seeds)
        evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
        bot = pyspiel.MCTSBot(game, evaluator, 2.0, SIMULATIONS, 1000, False, seed, False)
        bot.step(game.new_initial_state())
        return SIMULATIONS

    their_rates, our_rates = _paired_rates(theirs, ours, bench_cfg.rounds, 0.5 * bench_cfg.scale)
    benchmark.pedantic(ours, rounds=1, iterations=1)
    ratios = [o / t for o, t in zip(our_rates, their_rates, strict=True)]
    info = {
        "game": "Connect Four 7x6",
        "measure": "UCT+rollout sims/s, pyspiel game",
        "unit": "sims/s",
        "value": statistics.median(our_rates),
        "peer": "OpenSpiel MCTSBot (C++) on the same game",
        "peer_value": statistics.median(their_rates),
        "ratio": statistics.median(ratios),
        "round_ratios": ratios,
    }
    benchmark.extra_info.update(info)
    record_row(info)
