"""Curling rules: free guard zone, scoring, hammer, ends."""

from __future__ import annotations

import math

import numpy as np
import pytest

from pyaz._core import curling as c

TEE = (0.0, c.TEE_Y)


def _draw(x: float, y: float, spin: int = 1) -> c.Shot:
    return c.target_to_shot(c.Target(x, y, spin))


def test_team_order_and_hammer() -> None:
    state = c.GameState()
    assert state.hammer == 1 and state.to_move == 0
    state.apply(c.Shot(0.0, 1.0, 1))
    assert state.to_move == 1 and state.team_of(0) == 0 and state.team_of(1) == 1


def test_scoring_cases() -> None:
    state = c.GameState()  # hammer 1: even stones are team 0, odd team 1
    assert list(state.house_score()) == [0, 0]
    state.set_stone(0, 0.0, c.TEE_Y)  # team 0 on the button
    state.set_stone(2, 0.5, c.TEE_Y)  # team 0
    state.set_stone(1, 0.0, c.TEE_Y + 1.0)  # team 1 at 1 m
    state.set_stone(4, 1.5, c.TEE_Y)  # team 0 outside team 1's stone
    assert list(state.house_score()) == [2, 0]
    state.set_stone(3, 0.0, c.TEE_Y - 0.3)  # team 1 second best
    assert list(state.house_score()) == [1, 0]
    state.set_stone(0, 0.0, c.TEE_Y, False)
    assert list(state.house_score()) == [0, 1]
    # a stone just outside the house counts for nothing
    lone = c.GameState()
    lone.set_stone(1, 0.0, c.TEE_Y + c.HOUSE_RADIUS + c.STONE_RADIUS + 0.01)
    assert list(lone.house_score()) == [0, 0]
    lone.set_stone(1, 0.0, c.TEE_Y + c.HOUSE_RADIUS + c.STONE_RADIUS - 0.01)
    assert list(lone.house_score()) == [0, 1]


def _play_end(state: c.GameState, shots: list[c.Shot]) -> None:
    for shot in shots:
        state.apply(shot)


def test_hammer_after_blank_and_scored_ends() -> None:
    rules = c.Rules()
    rules.num_ends = 3
    state = c.GameState(rules)
    throwaway = c.Shot(0.0, 1.0, 1)
    _play_end(state, [throwaway] * 16)  # blank end
    assert state.end == 1 and state.end_scores[0] == [0, 0] and state.hammer == 1
    # the hammer team (1) draws its last stone to the button and scores one: it loses the hammer
    _play_end(state, [throwaway] * 15 + [_draw(*TEE)])
    assert state.end_scores[1] == [0, 1] and state.hammer == 0
    # now team 1 throws first; its first stone to the button scores (a steal): hammer stays with 0
    _play_end(state, [_draw(*TEE)] + [throwaway] * 15)
    assert state.end_scores[2] == [0, 1] and state.hammer == 0
    assert state.is_game_over and list(state.total_score()) == [0, 2]


def _guard_state(rules: c.Rules) -> c.GameState:
    state = c.GameState(rules)
    state.apply(_draw(0.0, 35.0))  # team 0 centre guard, in the free guard zone
    assert c.in_free_guard_zone(*state.stones()[0, :2])
    return state


def _peel_shots() -> np.ndarray:
    v = 3.3
    angles = np.linspace(-0.05, 0.05, 201)
    return np.stack([v * np.sin(angles), v * np.cos(angles), np.ones_like(angles)], axis=1)


def test_free_guard_zone_foul_restores_the_position() -> None:
    no_fgz = c.Rules()
    no_fgz.fgz_shots = 0
    _, in_play, fouls = c.simulate_batch(_guard_state(no_fgz), _peel_shots())
    removed = np.flatnonzero(~in_play[:, 0])
    assert len(removed) > 0 and not fouls.any()
    shot = _peel_shots()[removed[0]]
    state = _guard_state(c.Rules())
    before = state.stones().copy()
    assert state.apply(c.Shot(shot[0], shot[1], int(shot[2])))  # foul
    after = state.stones()
    np.testing.assert_array_equal(after[0], before[0])
    assert after[1, 2] == 0.0 and state.shot == 2
    # after the fifth shot the guard is no longer protected
    late = _guard_state(c.Rules())
    late.shot = 5
    assert not late.apply(c.Shot(shot[0], shot[1], int(shot[2])))
    assert late.stones()[0, 2] == 0.0


def test_own_guard_is_not_protected() -> None:
    state = _guard_state(c.Rules())
    state.shot = 2  # the next stone is team 0's own
    shots = _peel_shots()
    _, in_play, fouls = c.simulate_batch(state, shots)
    assert (~in_play[:, 0]).any() and not fouls.any()


def test_gat_physics_game_plays() -> None:
    rules = c.Rules()
    rules.physics = c.PhysicsParams.gat()
    state = c.GameState(rules)
    state.apply(c.target_to_shot(c.Target(0.0, c.TEE_Y, 1), c.Physics.GAT))
    x, y, alive = state.stones()[0]
    assert alive and math.hypot(x, y - c.TEE_Y) < 0.02


def test_extra_ends_break_a_tie_and_a_blank_extra_end_continues() -> None:
    rules = c.Rules()
    rules.num_ends = 1
    rules.extra_ends = 3
    state = c.GameState(rules)
    throwaway = c.Shot(0.0, 1.0, 1)
    _play_end(state, [throwaway] * 16)  # a blank last end: 0-0, extra end follows
    assert not state.is_game_over and state.in_extra_end and state.hammer == 1
    _play_end(state, [throwaway] * 16)  # a blank extra end: still tied, play goes on
    assert not state.is_game_over and state.end == 2
    _play_end(state, [throwaway] * 15 + [_draw(*TEE)])  # the hammer team scores: game over
    assert state.is_game_over and list(state.total_score()) == [0, 1]
    assert "extra end" in str(state)


def test_extra_ends_are_capped_and_off_by_default() -> None:
    throwaway = c.Shot(0.0, 1.0, 1)
    rules = c.Rules()
    rules.num_ends = 1
    assert rules.extra_ends == 0
    tied = c.GameState(rules)
    _play_end(tied, [throwaway] * 16)
    assert tied.is_game_over  # no extra ends: the tie stands
    rules.extra_ends = 2
    capped = c.GameState(rules)
    for _ in range(3):
        assert not capped.is_game_over
        _play_end(capped, [throwaway] * 16)
    assert capped.is_game_over and len(capped.end_scores) == 3


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [("num_ends", 0, "num_ends"), ("extra_ends", -1, "extra_ends"), ("fgz_shots", 17, "fgz")],
)
def test_bad_rules_raise_value_error(field: str, value: int, message: str) -> None:
    rules = c.Rules()
    setattr(rules, field, value)
    with pytest.raises(ValueError, match=message):
        c.GameState(rules)
