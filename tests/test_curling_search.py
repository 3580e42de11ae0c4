"""KR-UCT for curling (noise-free transitions): draws, take-outs, the rule-based player."""

from __future__ import annotations

import math

import numpy as np

from pyaz._core import curling as c


def _params(simulations: int, **kwargs: float) -> c.KrUctParams:
    params = c.KrUctParams()
    params.simulations = simulations
    params.seed = 3
    for key, value in kwargs.items():
        setattr(params, key, value)
    return params


def _play(state: c.GameState, target: c.Target) -> c.GameState:
    after = state.copy()
    after.apply_no_end(c.target_to_shot(target))
    return after


def _tee_distance(state: c.GameState, index: int) -> float:
    x, y, _ = state.stones()[index]
    return math.hypot(x, y - c.TEE_Y)


def test_last_stone_into_an_empty_house_scores() -> None:
    state = c.GameState()
    state.shot = 15
    result = c.kr_uct_search(state, _params(400))
    after = _play(state, result.best)
    assert list(after.house_score()) == [0, 1]
    assert len(result.children) >= 20


def test_kernel_regression_finds_the_button_from_off_centre_candidates() -> None:
    """Leaf value = minus the drawn stone's distance to the tee; no candidate is near the button,
    so only widening around the kernel-regression winner can find it."""
    candidates = np.array(
        [[0.5, c.TEE_Y + 0.6, 1], [-0.6, c.TEE_Y - 0.5, -1], [1.0, c.TEE_Y, 1], [0.0, 35.0, 1]]
    )

    def closeness(state: c.GameState) -> tuple[float, np.ndarray | None, None]:
        stones = state.stones()
        if state.shot != 15:
            return 0.0, candidates, None
        if not stones[14, 2]:
            return -3.0, None, None
        return -math.hypot(stones[14, 0], stones[14, 1] - c.TEE_Y), None, None

    state = c.GameState()
    state.shot = 14
    result = c.kr_uct_search(state, _params(800, widening=0.1, max_depth=1), closeness)
    assert _tee_distance(_play(state, result.best), 14) < 0.25
    assert len(result.children) > len(candidates)  # widened


def test_takeout_of_a_lone_stone_on_the_button() -> None:
    state = c.GameState()
    state.shot = 15
    state.set_stone(14, 0.0, c.TEE_Y)  # opponent (team 0) on the button
    result = c.kr_uct_search(state, _params(400))
    after = _play(state, result.best)
    assert not c.in_house(*after.stones()[14, :2]) or not after.stones()[14, 2]
    assert list(after.house_score()) == [0, 1]


def test_draw_into_a_ring_of_opponent_stones_scores() -> None:
    state = c.GameState()
    state.shot = 15
    ring = ((0.55, c.TEE_Y), (-0.55, c.TEE_Y), (0.0, c.TEE_Y + 0.55))
    for index, (x, y) in zip((8, 10, 12), ring, strict=True):
        state.set_stone(index, x, y)
    assert list(state.house_score()) == [3, 0]
    result = c.kr_uct_search(state, _params(400))
    assert list(_play(state, result.best).house_score()) == [0, 1]


def test_search_is_reproducible_and_reports_root_children() -> None:
    state = c.GameState()
    state.shot = 13
    state.set_stone(12, 0.3, c.TEE_Y + 0.2)
    a = c.kr_uct_search(state, _params(300))
    b = c.kr_uct_search(state, _params(300))
    assert (a.best.x, a.best.y, a.best.spin) == (b.best.x, b.best.y, b.best.spin)
    total = sum(child.visits for child in a.children)
    assert total == 300
    best = max(a.children, key=lambda child: child.kernel_visits)
    assert (best.action.x, best.action.y) == (a.best.x, a.best.y)


def test_rule_based_player_takes_out_a_stone_on_the_button() -> None:
    state = c.GameState()
    state.shot = 15
    state.set_stone(14, 0.0, c.TEE_Y)
    target = c.rule_based_shot(state, c.NoiseParams(), 1, 0)
    assert list(_play(state, target).house_score()) == [0, 1]
    shots = c.generate_shots(state)
    assert len(shots) == 40 + 4  # draws and guards, and 2 weights x 2 spins at the stone


def test_rollouts_value_leaves_after_random_shots() -> None:
    """Yee et al.'s rollouts: with rollout_shots = 0 a leaf is its house score; with rollouts the
    leaves see random generated shots thrown after them (different values), the search stays
    reproducible and still draws into an empty house."""
    state = c.GameState()
    state.shot = 12
    plain = c.kr_uct_search(state, _params(300))
    rolled = c.kr_uct_search(state, _params(300, rollout_shots=5))
    again = c.kr_uct_search(state, _params(300, rollout_shots=5))
    assert [ch.kernel_value for ch in rolled.children] == [ch.kernel_value for ch in again.children]
    assert [ch.kernel_value for ch in rolled.children] != [ch.kernel_value for ch in plain.children]
    assert sum(ch.visits for ch in rolled.children) == 300
    assert _tee_distance(_play(state, rolled.best), 12) < c.HOUSE_RADIUS
