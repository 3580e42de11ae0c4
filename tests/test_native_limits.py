"""Regression tests of issue 24's native-core items; each test failed before its fix.

(6) arrays that C++ hands to Python callables own their memory: kept after the search, they
still read right (a subprocess, so that a segfault fails the test); (9) Ctrl-C stops every long
C++ call that runs without the GIL; (10) UCI option and ``go nodes`` limits are kept; (11) one
simulation is enough everywhere and the smallest accepted ``max_nodes`` works; (12) silent
accepts (mentor time, self-play options at construction, 2-D planes) are refused; (14) finite
logits beyond float32 are not called infinite, and a too-large ``simulations`` is named.
"""

from __future__ import annotations

import logging
import signal
import subprocess
import sys
import time
from collections.abc import Callable

import numpy as np
import pytest

import pyaz
from pyaz._core import GomokuMentor, go_policy_play
from pyaz.engines.search import EngineSearch
from pyaz.engines.uci_server import MAX_MOVE_OVERHEAD, MAX_NODES, UciServer
from pyaz.eval.players import uct_player
from pyaz.games.symmetry import transform_board

GAMES = ["othello", "connect_four", "gomoku", "go", "racingkings"]


def logits_evaluator(row: list[float]) -> Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """An evaluator giving every position the policy logits ``row`` and the value 0."""

    def evaluate(planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return np.tile(np.asarray(row, dtype=np.float64), (len(planes), 1)), np.zeros(len(planes))

    return evaluate


def softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max())
    return e / e.sum()


# --------------------------------------------------------------------------- 6: kept arrays

KEEP_ARRAYS = r"""
import gc
import numpy as np
import pyaz
from pyaz._core import Go, go_policy_play

kept = []

def evaluator(planes):
    if len(kept) < 60:
        kept.append((planes, planes.copy()))
    n = len(planes)
    return np.zeros((n, planes.shape[-1] ** 2 + 1), np.float32), np.zeros(n, np.float32)

def policy(planes, legal):
    kept.append((planes, planes.copy()))
    kept.append((legal, legal.copy()))
    return np.zeros(legal.shape, np.float32)

search = pyaz.Search(pyaz.make("go", size=19, history=7), batch_size=16)
search.run(200, evaluator)
del search
pyaz.SelfPlay(pyaz.make("go", size=9, history=7), simulations=8, parallel_games=4).play(
    1, evaluator
)
go_policy_play([Go(9, max_game_length=20)] * 2, [policy], [0, 0, 0, 0], temperature=1.0)
gc.collect()
junk = [np.full(10**6, 7.0) for _ in range(40)]  # reuses whatever was freed
assert len(kept) > 60
assert all(not array.flags.writeable for array, _ in kept)
assert all(np.array_equal(array, copy) for array, copy in kept)
print("ok")
"""


def test_arrays_given_to_python_callables_stay_valid_after_the_search() -> None:
    """Planes (and legal masks) kept by an evaluator or a policy own their buffers: after the
    search and the self-play are gone they still hold what they held during the call (before:
    freed memory, SIGSEGV on Go 19x19 with history; and a buffer reused while still held)."""
    result = subprocess.run(
        [sys.executable, "-c", KEEP_ARRAYS], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, (result.returncode, result.stderr[-2000:])
    assert result.stdout.strip() == "ok"


# --------------------------------------------------------------------------- 9: Ctrl-C

CURLING_SETUP = (
    "from pyaz._core import curling as c\n"
    "import numpy as np\n"
    "state = c.GameState()\n"
    "params = c.KrUctParams()\n"
    "params.simulations = 10**6\n"
)

LONG_CALLS = {
    "perft": "pyaz.perft(pyaz.make('othello'), 20)",
    "random_playouts": "pyaz.random_playouts(pyaz.make('go', size=19), 10**9)",
    "random_game_lengths": "pyaz.random_game_lengths(pyaz.make('go', size=19), 10**7)",
    "kr_uct_search": CURLING_SETUP + "c.kr_uct_search(state, params)",
    "kr_uct_search_many": CURLING_SETUP + "c.kr_uct_search_many([state], [params])",
    "rule_based_shot": CURLING_SETUP + "c.rule_based_shot(state, c.NoiseParams(), 10**6)",
    # about 70 us a shot with 15 stones in play: 200,000 shots take over 10 s
    "simulate_batch": CURLING_SETUP + "state.shot = 15\n"
    "for i in range(15):\n    state.set_stone(i, -1.5 + 0.2 * i, c.TEE_Y - 1 + 0.15 * (i % 5))\n"
    "c.simulate_batch(state, np.tile([[0.05, 2.35, 1.0]], (200000, 1)), c.NoiseParams(), 0)",
}


@pytest.mark.parametrize("call", sorted(LONG_CALLS))
def test_ctrl_c_stops_every_long_native_call(call: str) -> None:
    """SIGINT one second into the call ends it with KeyboardInterrupt within a few seconds
    (before: each ran to its end, minutes, and only then saw the signal)."""
    setup, _, last = LONG_CALLS[call].rpartition("\n")
    code = f"import pyaz\n{setup}\nprint(1, flush=True)\n{last}\n"
    process = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert process.stdout is not None and process.stdout.readline().strip() == "1"
        time.sleep(1.0)  # inside the C++ loop by now
        process.send_signal(signal.SIGINT)
        began = time.perf_counter()
        process.wait(timeout=5)
        assert time.perf_counter() - began < 5
    finally:
        process.kill()
        process.wait()
    assert process.stderr is not None and "KeyboardInterrupt" in process.stderr.read()


# --------------------------------------------------------------------------- 10: UCI limits


class Session:
    """An in-process UCI server and the lines it wrote."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.server = UciServer(EngineSearch.uct(seed=1), self.lines.append, nodes=50)

    def __call__(self, command: str) -> list[str]:
        start = len(self.lines)
        self.server.handle(command)
        assert self.server.wait(30), "the search did not end"
        return self.lines[start:]


def test_uci_options_beyond_the_advertised_range_are_refused() -> None:
    session = Session()
    lines = session("uci")
    assert f"option name Nodes type spin default 50 min 1 max {MAX_NODES}" in lines
    assert any(f"min 0 max {MAX_MOVE_OVERHEAD}" in line for line in lines)
    for value in ("99999999999999999999", str(MAX_NODES + 1), "0", "-5", "lots"):
        lines = session(f"setoption name Nodes value {value}")
        assert lines == [
            f"info string error: Nodes must be an integer in 1..{MAX_NODES}, got {value!r}"
        ]
        assert session.server.nodes == 50  # the old value is kept
    assert session(f"setoption name Nodes value {MAX_NODES}") == []
    assert session.server.nodes == MAX_NODES
    lines = session("setoption name Move Overhead value 99999")
    assert lines == [
        f"info string error: Move Overhead must be an integer in 0..{MAX_MOVE_OVERHEAD}, "
        "got '99999'"
    ]
    assert session.server.move_overhead_ms == 30
    with pytest.raises(ValueError, match=f"nodes must be in 1..{MAX_NODES}, got 1000000000"):
        UciServer(EngineSearch.uct(), print, nodes=10**9)


@pytest.mark.parametrize("nodes", [-5, 0, 1])
def test_uci_go_nodes_below_one_searches_one_node(
    nodes: int, caplog: pytest.LogCaptureFixture
) -> None:
    """``go nodes -5`` logged a traceback and ``go nodes 0`` played an unsearched move; ``go
    nodes 1`` failed ("no simulations have been run"). Each now answers a searched bestmove."""
    session = Session()
    with caplog.at_level(logging.WARNING, logger="pyaz.engines"):
        lines = session(f"go nodes {nodes}")
    assert not caplog.records
    below = [f"info string go nodes {nodes} is below 1; searching 1 node"] if nodes < 1 else []
    assert lines[: len(below)] == below
    assert lines[len(below)].startswith("info nodes 1 ")
    assert lines[-1].split()[0] == "bestmove"
    assert lines[-1].split()[1] in session.server.state.legal_uci()
    result = session.server.last_result
    assert result is not None and result.visits == 1


# --------------------------------------------------------------------------- 11: one simulation


def test_one_simulation_expands_the_root_and_moves_by_the_prior() -> None:
    logits = [0.0, 1.0, 2.0, 3.0, 2.0, 1.0, 0.5]
    search = pyaz.Search(pyaz.make("connect_four"))
    with pytest.raises(ValueError, match="no simulations have been run at the root yet"):
        search.choose_action()
    search.run(1, logits_evaluator(logits))
    assert search.root_visits == 1 and not search.visit_counts().any()
    np.testing.assert_allclose(search.policy(1.0), softmax(np.array(logits)), rtol=1e-5)
    np.testing.assert_allclose(search.policy(0.5), softmax(2 * np.array(logits)), rtol=1e-5)
    assert search.policy(0.0).tolist() == [0, 0, 0, 1, 0, 0, 0]
    assert search.choose_action() == 3
    assert search.choose_action(1.0, seed=5) in range(7)
    search.run(1, logits_evaluator(logits))  # a second simulation visits the best child
    assert search.visit_counts().tolist() == [0, 0, 0, 1, 0, 0, 0]
    assert search.policy(1.0).tolist() == [0, 0, 0, 1, 0, 0, 0]


def test_one_simulation_works_for_self_play_and_the_engines() -> None:
    game = pyaz.make("connect_four", width=5, height=4)
    records = pyaz.SelfPlay(game, simulations=1, parallel_games=2).play(3)
    assert records.num_games == 3 and records.num_positions > 0
    np.testing.assert_allclose(records.policy.sum(axis=1), 1.0, rtol=1e-5)
    result = EngineSearch.uct(seed=2).think(game, "start", (), simulations=1)  # pyaz-gtp
    assert result.action is not None and game.is_legal(result.action)
    player = uct_player(simulations=1)  # as alphagomoku:PATH:1 and the other search players
    player.reset(game)
    assert game.is_legal(player.choose(game))


@pytest.mark.parametrize("name", GAMES)
def test_the_smallest_accepted_max_nodes_is_usable(name: str) -> None:
    """Search(max_nodes=2 or 3) was accepted, then could never visit a move."""
    state = pyaz.make(name)
    least = state.num_actions + 1
    for too_few in (2, 3, least - 1):
        with pytest.raises(
            ValueError, match=f"max_nodes must be >= {least} for a {name} search .*got {too_few}"
        ):
            pyaz.Search(state, max_nodes=too_few)
        with pytest.raises(ValueError, match=f"max_nodes must be >= {least}"):
            pyaz.SelfPlay(state, max_nodes=too_few)
    search = pyaz.Search(state, max_nodes=least)
    search.run(30)
    assert search.tree_size <= least and state.is_legal(search.choose_action())
    assert search.visit_counts().sum() == 29  # the first simulation expanded the root


def test_set_root_refuses_a_state_the_tree_cannot_hold() -> None:
    small = pyaz.make("go", size=5)
    search = pyaz.Search(small, max_nodes=small.num_actions + 1)
    with pytest.raises(ValueError, match="max_nodes must be >= 83 for a go search"):
        search.set_root(pyaz.make("go", size=9))
    assert search.root_state.board_shape == (5, 5)
    search.run(5)


# --------------------------------------------------------------------------- 12: silent accepts


def test_mentor_times_beyond_a_day_are_refused() -> None:
    """time_ms=1e13 overflowed the deadline into an instant move."""
    for time_ms in (1e13, GomokuMentor.MAX_TIME_MS * 2):
        with pytest.raises(ValueError, match=r"time_ms must be at most 86400000 \(a day\)"):
            GomokuMentor(time_ms=time_ms)
        with pytest.raises(ValueError, match=r"time_ms must be at most 86400000 \(a day\)"):
            GomokuMentor(max_nodes=10).find_vct(pyaz.Gomoku(), time_ms=time_ms)
    GomokuMentor(time_ms=GomokuMentor.MAX_TIME_MS)  # the largest is taken


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"simulations": 0}, r"simulations must be in \[1, "),
        ({"temperature": -1.0}, "temperature must be a finite number >= 0"),
        ({"parallel_games": 0}, "parallel_games must be in"),
        ({"c_puct": float("nan")}, "c_puct must be"),
        ({"nonsense": 1}, "unknown search option 'nonsense'"),
    ],
)
def test_self_play_options_are_checked_at_construction(
    options: dict[str, object], message: str
) -> None:
    """SelfPlay(simulations=0) was accepted until play()."""
    error = TypeError if "nonsense" in options else ValueError
    with pytest.raises(error, match=message):
        pyaz.SelfPlay(pyaz.make("connect_four"), **options)


def test_transform_planes_needs_planes_and_transform_board_a_board() -> None:
    board = np.arange(6).reshape(2, 3)
    with pytest.raises(ValueError, match=r"planes must have shape \[C, H, W\].*got shape \(2, 3\)"):
        pyaz.transform_planes(board, 1)
    assert transform_board(board, 1).tolist() == [[2, 5], [1, 4], [0, 3]]
    assert pyaz.transform_planes(board[None], 1).tolist() == [[[2, 5], [1, 4], [0, 3]]]
    with pytest.raises(ValueError, match=r"board must have shape \[H, W\], got shape \(1, 2, 3\)"):
        transform_board(board[None], 1)


# --------------------------------------------------------------------------- 14: smaller


def test_finite_logits_beyond_float32_are_accepted() -> None:
    """Logits of 1e308 were called "NaN or infinity"; the softmax (max first) handles them."""
    search = pyaz.Search(pyaz.make("connect_four"))
    search.run(10, logits_evaluator([1e308] * 7))
    np.testing.assert_allclose(search.priors(), np.full(7, 1 / 7), rtol=1e-6)
    search = pyaz.Search(pyaz.make("connect_four"))
    search.run(10, logits_evaluator([1e308, -1e308, 1e308, 0, 0, 0, -1e308]))
    np.testing.assert_allclose(search.priors(), [0.5, 0, 0.5, 0, 0, 0, 0], atol=1e-7)

    def huge_value(planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return np.zeros((len(planes), 7)), np.full(len(planes), 1e308)

    with pytest.raises(ValueError, match=r"values must lie in \[-1, 1\], got 1e\+308 in row 0"):
        search.run(10, huge_value)


def test_policy_play_softmax_keeps_finite_logits_beyond_float32() -> None:
    """Equal logits of 1e308 are a uniform policy (before: infinities, NaN weights, and every
    game played the first legal move)."""

    def policy(planes: np.ndarray, legal: np.ndarray) -> np.ndarray:
        return np.full(legal.shape, 1e308)

    records = go_policy_play(
        [pyaz.Go(9, max_game_length=1)] * 16, [policy], [0] * 32, temperature=1.0, seed=3
    )
    first_moves = records["action"][records["ply"] == 0]
    assert len(first_moves) == 16 and len(set(first_moves.tolist())) > 4


def test_too_many_simulations_for_the_default_tree_names_simulations() -> None:
    game = pyaz.make("connect_four")
    with pytest.raises(
        ValueError, match=r"simulations must be at most \d+ for connect_four self-play .*got 10+$"
    ):
        pyaz.SelfPlay(game, simulations=10**9)
    pyaz.SelfPlay(game, simulations=10**9, max_nodes=10**6)  # a tree size of one's own is fine
