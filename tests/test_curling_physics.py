"""Curling simulator physics: reference stops, curl, collisions, removal, conversion, noise."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from pyaz._core import curling as c

# Stopping points of the official DigitalCurling3 simulator (a copy of
# ../shared/reference/curling_dc3_single_shots.json, kept with the tests).
REFERENCE = Path(__file__).parent / "data" / "curling_dc3_single_shots.json"
R = c.STONE_RADIUS


def _reference_shots() -> list[dict]:
    data = json.loads(REFERENCE.read_text())
    return data["single"] + data["draw_fit"]


def _spin(rotation: str) -> int:
    return 1 if rotation == "ccw" else -1


def test_fcv1_stopping_points_match_digitalcurling3() -> None:
    """All 80 noise-free DC3 v3.0.0 FCV1 shots: rest point within 1 cm, same removal outcome."""
    worst = 0.0
    for shot in _reference_shots():
        inp = shot["input"]
        vx, vy = inp["velocity"]
        spin = _spin(inp["rotation"])
        x, y = c.rest_point(c.Shot(vx, vy, spin))
        rx, ry = shot["no_rules_rest_point"]
        worst = max(worst, math.hypot(x - rx, y - ry))
        state = c.GameState()
        state.apply_no_end(c.Shot(vx, vy, spin))
        assert bool(state.stones()[0, 2]) == shot["result"]["in_play"], shot["id"]
    assert worst < 0.01


def test_straight_draw_distance_and_speed_fit() -> None:
    """The DC4 draw fit v0 = sqrt(0.13968687 r + 0.41120940) stops a stone about r from the hack."""
    r = c.TEE_Y
    v0 = math.sqrt(0.13968687 * r + 0.41120940)
    x, y = c.rest_point(c.Shot(0.0, v0, 1))
    assert abs(math.hypot(x, y) - r) < 0.05
    shot = c.target_to_shot(c.Target(0.0, r, 1))
    assert abs(math.hypot(shot.vx, shot.vy) - v0) < 0.005


@pytest.mark.parametrize("model", [c.Physics.FCV1, c.Physics.GAT])
def test_curl_direction_follows_spin(model: c.Physics) -> None:
    params = c.PhysicsParams.gat() if model == c.Physics.GAT else c.PhysicsParams.fcv1()
    speed = c.target_to_shot(c.Target(0.0, c.TEE_Y, 1), model)
    v = math.hypot(speed.vx, speed.vy)
    x_ccw, _ = c.rest_point(c.Shot(0.0, v, 1), params)
    x_cw, _ = c.rest_point(c.Shot(0.0, v, -1), params)
    assert x_ccw < -0.5 and x_cw > 0.5
    assert x_ccw == pytest.approx(-x_cw, abs=1e-9)


def test_gat_straight_stopping_distance() -> None:
    """GAT law: constant deceleration 12.009216, so the path length is v^2 / (2 * 12.009216)."""
    v = 29.6
    x, y = c.rest_point(c.Shot(0.0, v, 1), c.PhysicsParams.gat())
    assert math.hypot(x, y) == pytest.approx(v * v / (2 * 12.009216), rel=0.01)


def _momentum(*bodies: list[float]) -> np.ndarray:
    return np.sum([[b[2], b[3]] for b in bodies], axis=0)


def _energy(*bodies: list[float]) -> float:
    # per unit mass: v^2 / 2 + (r^2 / 2) omega^2 / 2
    return sum(0.5 * (b[2] ** 2 + b[3] ** 2) + 0.25 * R * R * b[4] ** 2 for b in bodies)


def _angular_momentum(*bodies: list[float]) -> float:
    return sum(b[0] * b[3] - b[1] * b[2] + 0.5 * R * R * b[4] for b in bodies)


def test_head_on_collision_is_elastic() -> None:
    a = [0.0, 30.0, 0.0, 2.0, 0.0]
    b = [0.0, 30.0 + 2 * R, 0.0, 0.0, 0.0]
    hit, a2, b2 = c.collide(a, b)
    assert hit
    np.testing.assert_allclose(_momentum(a2, b2), _momentum(a, b), atol=1e-12)
    assert _energy(a2, b2) == pytest.approx(_energy(a, b), rel=1e-12)
    assert a2[3] == pytest.approx(0.0, abs=1e-12) and b2[3] == pytest.approx(2.0)


@pytest.mark.parametrize("friction", [0.0, 0.2, 12.009216])
def test_glancing_collision_conserves_momentum(friction: float) -> None:
    angle = 0.6
    a = [0.0, 30.0, 0.0, 2.0, 1.57]
    b = [2 * R * math.sin(angle), 30.0 + 2 * R * math.cos(angle), 0.0, 0.0, 0.0]
    params = c.PhysicsParams()
    params.stone_friction = friction
    hit, a2, b2 = c.collide(a, b, params)
    assert hit
    np.testing.assert_allclose(_momentum(a2, b2), _momentum(a, b), atol=1e-12)
    assert _angular_momentum(a2, b2) == pytest.approx(_angular_momentum(a, b), abs=1e-12)
    if friction == 0.0:
        assert _energy(a2, b2) == pytest.approx(_energy(a, b), rel=1e-12)
        assert b2[4] == 0.0
    else:
        assert _energy(a2, b2) <= _energy(a, b) + 1e-12
        assert b2[4] != 0.0  # friction spins the struck stone


def test_separating_stones_do_not_collide() -> None:
    hit, _, _ = c.collide([0.0, 30.0, 0.0, -1.0, 0.0], [0.0, 30.0 + 2 * R, 0.0, 0.0, 0.0])
    assert not hit


def _random_house(rng: np.random.Generator, count: int) -> c.GameState:
    state = c.GameState()
    placed: list[tuple[float, float]] = []
    while len(placed) < count:
        x, y = rng.uniform(-1.8, 1.8), rng.uniform(c.TEE_Y - 2.5, c.TEE_Y + 1.6)
        if all(math.hypot(x - px, y - py) > 2 * R + 0.01 for px, py in placed):
            placed.append((x, y))
    for i, (x, y) in enumerate(placed):
        state.set_stone(i, x, y)
    state.shot = count
    return state


def test_no_overlap_after_collisions_in_a_crowded_house() -> None:
    rng = np.random.default_rng(1)
    collisions = 0
    for trial in range(10):
        state = _random_house(rng, 15)
        targets = [
            c.target_to_shot(
                c.Target(rng.uniform(-1.5, 1.5), rng.uniform(35, 44), int(rng.choice([-1, 1])))
            )
            for _ in range(20)
        ]
        shots = np.array([[s.vx, s.vy, s.spin] for s in targets])
        positions, in_play, _ = c.simulate_batch(state, shots, seed=trial)
        for k in range(len(shots)):
            pts = positions[k][in_play[k]]
            d = np.linalg.norm(pts[:, None, :] - pts[None, :, :], axis=-1) + np.eye(len(pts)) * 10
            assert d.min() >= 2 * R - 1e-6
            moved = np.linalg.norm(positions[k, :15] - state.stones()[:15, :2], axis=1) > 1e-6
            collisions += int(moved.any())
    assert collisions > 50  # the shots really hit stones


def test_takeout_knocks_a_stone_out_and_sticks() -> None:
    """A firm straight shot at a lone stone on the button knocks it out and stays in the house."""
    state = c.GameState()
    state.set_stone(0, 0.0, c.TEE_Y)
    state.shot = 1
    v = 3.2
    angles = np.linspace(-0.06, 0.06, 241)
    shots = np.stack([v * np.sin(angles), v * np.cos(angles), np.ones_like(angles)], axis=1)
    positions, in_play, _ = c.simulate_batch(state, shots)
    hits = ~in_play[:, 0]
    sticks = hits & in_play[:, 1] & (np.linalg.norm(positions[:, 1] - [0.0, c.TEE_Y], axis=1) < 0.5)
    assert hits.sum() >= 10 and sticks.any()


def test_removal_rules() -> None:
    # short of the hog line: removed at rest
    state = c.GameState()
    state.apply_no_end(c.Shot(0.0, 2.0, 1))
    assert state.stones()[0, 2] == 0.0
    # through the house past the back line
    state = c.GameState()
    state.apply_no_end(c.Shot(0.0, 3.0, 1))
    assert state.stones()[0, 2] == 0.0
    # into the side line
    state = c.GameState()
    state.apply_no_end(c.Shot(0.2, 2.4, -1))
    assert state.stones()[0, 2] == 0.0
    # a draw stays
    state = c.GameState()
    state.apply_no_end(c.target_to_shot(c.Target(0.0, c.TEE_Y, 1)))
    assert state.stones()[0, 2] == 1.0
    out, _, _, _ = c.simulate_stones(np.array([[2.3, 30.0, 0.0, 1.0, 0.0]]))
    assert out[0, 5] == 0.0  # touching the side line while moving


@pytest.mark.parametrize("model", [c.Physics.FCV1, c.Physics.GAT])
@pytest.mark.parametrize("spin", [1, -1])
def test_target_conversion_round_trip(model: c.Physics, spin: int) -> None:
    params = c.PhysicsParams.gat() if model == c.Physics.GAT else c.PhysicsParams.fcv1()
    for tx, ty in [(0.0, c.TEE_Y), (1.0, 37.0), (-1.2, 39.5), (0.5, 34.0), (0.3, 45.0)]:
        shot = c.target_to_shot(c.Target(tx, ty, spin), model)
        x, y = c.rest_point(shot, params)
        assert math.hypot(x - tx, y - ty) < 0.01
        back = c.shot_to_target(shot, model)
        assert math.hypot(back.x - tx, back.y - ty) < 0.01 and back.spin == spin


def _draw_spread(noise: c.NoiseParams, n: int = 2000) -> np.ndarray:
    state = c.GameState()
    shot = c.target_to_shot(c.Target(0.0, c.TEE_Y, 1))
    shots = np.tile([shot.vx, shot.vy, shot.spin], (n, 1))
    positions, in_play, _ = c.simulate_batch(state, shots, noise, 7)
    assert in_play[:, 0].mean() > 0.95
    return positions[in_play[:, 0], 0, :]


def test_gat_noise_spread_at_the_tee() -> None:
    pts = _draw_spread(c.NoiseParams(c.Noise.GAT))
    assert pts[:, 0].std() == pytest.approx(0.0725, rel=0.1)
    assert pts[:, 1].std() == pytest.approx(0.29, rel=0.1)
    assert abs(pts[:, 1].mean() - c.TEE_Y) < 0.03


def test_dc3_noise_is_reproducible_and_spreads() -> None:
    noise = c.NoiseParams(c.Noise.DC3)
    a = _draw_spread(noise, 300)
    b = _draw_spread(noise, 300)
    np.testing.assert_array_equal(a, b)
    assert 0.05 < a[:, 1].std() < 0.5
    s1 = c.perturb(c.Shot(0.0, 2.4, 1), noise, c.Physics.FCV1, 3)
    s2 = c.perturb(c.Shot(0.0, 2.4, 1), noise, c.Physics.FCV1, 3)
    assert (s1.vx, s1.vy) == (s2.vx, s2.vy)
