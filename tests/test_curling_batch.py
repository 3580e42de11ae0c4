"""KR-UCT with leaves in batches (issue 19): many searches in flight sharing one evaluator call
per round (kr_uct_search_many) and several leaves per search and round (virtual visits)."""

from __future__ import annotations

import math
from collections.abc import Iterator

import numpy as np
import pytest
import torch

from pyaz.games import curling
from pyaz.methods.kr_dl_uct.config import CurlingConfig
from pyaz.methods.kr_dl_uct.net import CurlingNet, kr_dl_batch_evaluator, kr_dl_evaluator
from pyaz.methods.kr_dl_uct.selfplay import (
    BatchCounters,
    play_self_play_game,
    play_self_play_games,
)

# A fixed set of candidate targets (draws around the house, both spins), shared by every leaf.
_CANDIDATES = np.array(
    [
        [x, y, spin]
        for x in (-1.2, -0.6, 0.0, 0.6, 1.2)
        for y in (36.0, 38.4, 39.6)
        for spin in (1, -1)
    ],
    dtype=np.float64,
)


def _toy_values(states: list[curling.Game]) -> np.ndarray:
    """A deterministic value per state (row by row, so it does not depend on the batch)."""
    out = []
    for state in states:
        stones = state.stones()
        out.append(
            math.tanh(0.3 * stones[:, 0].sum() + 0.01 * stones[:, 1].sum() - 0.1 * state.shot)
        )
    return np.array(out)


def _toy_weights(states: list[curling.Game]) -> np.ndarray:
    shift = np.array([0.1 * (s.shot % 5) for s in states])
    return np.exp(
        -((_CANDIDATES[None, :, 0] - shift[:, None]) ** 2)
        - 0.2 * (_CANDIDATES[None, :, 1] - 38.4) ** 2
    )


@pytest.fixture
def one_torch_thread() -> Iterator[None]:
    """The small networks here run fastest on one thread (spinning threads crawl when the
    machine's cores are busy)."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


class CountingEvaluator:
    """The toy batch evaluator, recording every call's states."""

    def __init__(self) -> None:
        self.batches: list[list[curling.Game]] = []

    def __call__(self, states: list[curling.Game]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        self.batches.append(list(states))
        return _toy_values(states), _CANDIDATES, _toy_weights(states)

    def one(self, state: curling.Game) -> tuple[float, np.ndarray, np.ndarray]:
        """The same evaluator, one leaf per call (for kr_uct_search)."""
        values, candidates, weights = self([state])
        return float(values[0]), candidates, weights[0]


def _position(seed: int, shots: int) -> curling.Game:
    state = curling.Game()
    rng = np.random.default_rng(seed)
    for _ in range(shots):
        target = curling.rule_based_shot(
            state, curling.NoiseParams(), 1, int(rng.integers(1 << 30))
        )
        state.apply(curling.target_to_shot(target))
    return state


def _params(simulations: int, seed: int, leaves: int = 1, **options: float) -> curling.KrUctParams:
    params = curling.KrUctParams()
    params.simulations = simulations
    params.seed = seed
    params.leaves_per_round = leaves
    params.initial_actions = 6
    for key, value in options.items():
        setattr(params, key, value)
    return params


def _key(state: curling.Game) -> bytes:
    return state.stones().tobytes() + bytes([state.shot])


def _summary(result: curling.KrUctResult) -> list[tuple[float, float, int, float, float]]:
    return [
        (c.action.x, c.action.y, c.action.spin, c.visits, c.kernel_value) for c in result.children
    ]


def _generated_shot_evaluator(state: curling.Game) -> tuple[float, np.ndarray, np.ndarray]:
    """The evaluator the values below were recorded with (before issue 19, one leaf per call)."""
    stones = state.stones()
    value = float(np.tanh(stones[:, 0].sum() * 0.3 + stones[:, 1].sum() * 0.01 - state.shot * 0.1))
    cand = np.array([[t.x, t.y, t.spin] for t in curling.generate_shots(state)])
    weights = np.exp(-((cand[:, 0] - 0.2) ** 2) - 0.1 * (cand[:, 1] - 38.4) ** 2)
    return value, cand, weights


@pytest.mark.parametrize(
    ("seed", "shots", "best", "visits"),
    [
        (1, 0, (0.6, 38.404998779, -1), [1, 1, 1, 1, 1, 108]),
        (2, 5, (-1.350711588, 38.715133813, -1), [10, 10, 10, 16, 12, 8]),
    ],
)
def test_one_leaf_per_round_repeats_the_search_of_before(
    seed: int, shots: int, best: tuple[float, float, int], visits: list[int]
) -> None:
    """Values recorded from the search as it was before the batching (same seeds)."""
    state = _position(seed, shots)
    params = _params(120, seed, max_depth=3)
    result = curling.kr_uct_search(state, params, _generated_shot_evaluator)
    assert (round(result.best.x, 9), round(result.best.y, 9), result.best.spin) == best
    assert [c.visits for c in result.children[:6]] == visits


def test_searches_in_flight_give_each_search_its_batch_1_result() -> None:
    states = [_position(s, shots) for s, shots in ((0, 0), (1, 3), (2, 7), (3, 12))]
    params = [_params(40, 10 + i) for i in range(len(states))]
    alone = [
        _summary(curling.kr_uct_search(s, p, CountingEvaluator().one))
        for s, p in zip(states, params, strict=True)
    ]
    evaluator = CountingEvaluator()
    results, counts = curling.kr_uct_search_many(states, params, evaluator)
    assert [_summary(r) for r in results] == alone
    # every round, one leaf of each of the 4 searches: the root's prior, then one per simulation
    assert counts == {"calls": 41, "leaves": 4 * 41, "max_batch": 4}
    assert [len(b) for b in evaluator.batches] == [4] * 41
    for batch in evaluator.batches:
        assert len({_key(s) for s in batch}) == len(batch)


def test_several_leaves_per_round_are_distinct_and_counted() -> None:
    state = _position(4, 2)
    evaluator = CountingEvaluator()
    results, counts = curling.kr_uct_search_many([state], [_params(64, 3, leaves=8)], evaluator)
    sizes = [len(b) for b in evaluator.batches]
    assert counts["calls"] == len(sizes) and counts["leaves"] == sum(sizes) == 65
    assert sizes[0] == 1 and max(sizes) == counts["max_batch"] <= 8
    assert sum(sizes) / len(sizes) > 3  # the rounds really gather several leaves
    for batch in evaluator.batches:
        assert len({_key(s) for s in batch}) == len(batch)
    assert results[0].children


@pytest.mark.parametrize("leaves", [1, 4, 16])
def test_virtual_visits_leave_a_consistent_tree(leaves: int) -> None:
    params = _params(96, 5, leaves=leaves)
    result = curling.kr_uct_search(_position(5, 6), params, CountingEvaluator().one)
    visits = [c.visits for c in result.children]
    assert all(v == int(v) and v >= 0 for v in visits)  # no virtual visit left behind
    assert sum(visits) == params.simulations
    for a in result.children:  # W(a) = sum_b K(a, b) n_b over the root's children
        expected = sum(
            b.visits
            * math.exp(
                -0.5
                * (
                    ((a.action.x - b.action.x) / params.sigma_x) ** 2
                    + ((a.action.y - b.action.y) / params.sigma_y) ** 2
                )
            )
            for b in result.children
            if b.action.spin == a.action.spin
        )
        assert a.kernel_visits == pytest.approx(expected, rel=1e-9, abs=1e-9)


def test_evaluator_errors_propagate() -> None:
    def broken(states: list[curling.Game]) -> tuple[np.ndarray, None, None]:
        if len(states) > 1:
            raise RuntimeError("network failed on a batch")
        return np.zeros(len(states)), None, None

    state = _position(6, 1)
    with pytest.raises(RuntimeError, match="network failed"):
        curling.kr_uct_search_many([state, state], [_params(8, 0), _params(8, 1)], broken)

    def wrong_length(states: list[curling.Game]) -> tuple[np.ndarray, None, None]:
        return np.zeros(len(states) + 1), None, None

    with pytest.raises(ValueError, match="values must have shape"):
        curling.kr_uct_search_many([state], [_params(8, 0)], wrong_length)

    def raising_leaf(_state: curling.Game) -> tuple[float, None, None]:
        raise KeyError("leaf")

    with pytest.raises(KeyError):
        curling.kr_uct_search(state, _params(8, 0, leaves=4), raising_leaf)


def test_bad_options_are_refused_by_name() -> None:
    state = curling.Game()
    with pytest.raises(ValueError, match="leaves_per_round"):
        curling.kr_uct_search(state, _params(8, 0, leaves=0))
    with pytest.raises(ValueError, match="virtual_loss"):
        curling.kr_uct_search(state, _params(8, 0, virtual_loss=float("nan")))
    with pytest.raises(ValueError, match="same length"):
        curling.kr_uct_search_many([state], [], None)
    with pytest.raises(ValueError, match="games_in_flight"):
        play_self_play_games(
            CountingEvaluator(), _params(4, 0), 1, curling.NoiseParams(), [0], games_in_flight=-1
        )
    with pytest.raises(ValueError, match="leaves_per_round"):
        CurlingConfig(leaves_per_round=0).check()
    with pytest.raises(ValueError, match="games_in_flight"):
        CurlingConfig(games_in_flight=-2).check()


def _hit_position() -> curling.Game:
    """Last stone of an end, team 1 to throw: team 0 has a stone on the button, team 1 one at
    the back of the house. A draw scores nothing better than -1; removing the button stone
    (a hit) is the only way to score."""
    state = curling.Game()
    state.set_stone(0, 0.0, curling.TEE_Y)  # team 0 (throws first)
    state.set_stone(1, 0.3, curling.TEE_Y + 1.2)  # team 1
    state.shot = 15
    return state


def _house_leaves(states: list[curling.Game]) -> tuple[np.ndarray, None, None]:
    return np.array([curling.house_value_team0(s) for s in states], dtype=np.float64), None, None


def test_batched_search_finds_the_clearly_best_shot_as_often() -> None:
    """Leaves valued by the house score (the evaluator values the finished end): the fraction
    of seeds whose chosen shot scores for team 1 (noise-free) is no lower with 8 leaves per
    round than with 1."""
    state = _hit_position()

    def scores(leaves: int) -> int:
        roots = [state] * 12
        params = [_params(120, s, leaves=leaves, evaluate_finished_ends=True) for s in range(12)]
        results, _ = curling.kr_uct_search_many(roots, params, _house_leaves)
        good = 0
        for result in results:
            after = state.copy()
            after.apply_no_end(curling.target_to_shot(result.best))
            good += curling.house_value_team0(after) < 0
        return good

    sequential, batched = scores(1), scores(8)
    assert sequential >= 9  # the search does find the hit
    assert batched >= sequential - 1


def test_batched_self_play_plays_the_same_games() -> None:
    params = _params(6, 0)
    noise = curling.NoiseParams(curling.Noise.GAT)
    counters = BatchCounters()
    batched = play_self_play_games(
        CountingEvaluator(), params, 1, noise, [3, 4, 5], games_in_flight=2, counters=counters
    )
    for seed, game in zip([3, 4, 5], batched, strict=True):
        alone = play_self_play_game(CountingEvaluator().one, params, 1, noise, seed)
        assert game.end_scores == alone.end_scores
        for name, array in game.shots.arrays().items():
            np.testing.assert_array_equal(array, getattr(alone.shots, name), err_msg=name)
    # games 3 and 4 together (two leaves per call), then game 5 alone
    assert counters.max_batch == 2 and counters.calls < counters.leaves < 2 * counters.calls


@pytest.mark.usefixtures("one_torch_thread")
def test_network_batch_evaluator_agrees_with_the_per_leaf_one() -> None:
    net = CurlingNet(channels=4, blocks=1)
    table = curling.seed002_table()
    single = kr_dl_evaluator(net, win_table=table)
    batch = kr_dl_batch_evaluator(net, win_table=table)
    states = [_position(7, n) for n in (0, 2, 4, 9)]
    finished = _position(8, 15)
    finished.apply_no_end(curling.target_to_shot(curling.Target(0.0, curling.TEE_Y, 1)))
    values, candidates, weights = batch([*states, finished])
    assert candidates is not None and weights is not None
    for i, state in enumerate(states):
        value, cand, w = single(state)
        assert values[i] == pytest.approx(value, abs=1e-6)
        np.testing.assert_allclose(weights[i], w, atol=1e-9)
        assert cand is candidates
    assert values[-1] == pytest.approx(single(finished)[0])
    one_pass, _, one_pass_weights = kr_dl_batch_evaluator(net, win_table=table, chunk=0)(states)
    np.testing.assert_allclose(one_pass, values[:-1], atol=1e-6)
    assert one_pass_weights is not None
    np.testing.assert_allclose(one_pass_weights, weights[:-1], atol=1e-9)


@pytest.mark.usefixtures("one_torch_thread")
def test_network_self_play_does_not_depend_on_the_games_in_flight() -> None:
    """Forward passes of a fixed number of rows: the same games whatever shares the batches."""
    net = CurlingNet(channels=4, blocks=1)
    evaluator = kr_dl_batch_evaluator(net, win_table=curling.seed002_table(), chunk=2)
    params = _params(3, 0, evaluate_finished_ends=True)
    noise = curling.NoiseParams(curling.Noise.GAT)
    together = play_self_play_games(evaluator, params, 1, noise, [0, 1, 2])
    one_by_one = play_self_play_games(evaluator, params, 1, noise, [2, 0, 1], games_in_flight=1)
    for game, other in zip(together, [one_by_one[1], one_by_one[2], one_by_one[0]], strict=True):
        assert game.end_scores == other.end_scores
        for name, array in game.shots.arrays().items():
            np.testing.assert_array_equal(array, getattr(other.shots, name), err_msg=name)
    with pytest.raises(ValueError, match="chunk"):
        kr_dl_batch_evaluator(net, chunk=-1)
