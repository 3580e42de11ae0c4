"""The pyaz.methods.kr_dl_uct Python API: game flow, rendering, features, the target grid, the WP
table."""

from __future__ import annotations

import doctest
from pathlib import Path

import numpy as np

import pyaz.methods.kr_dl_uct as curling


def test_docstring_example() -> None:
    failures, _ = doctest.testmod(curling, verbose=False)
    assert failures == 0


def test_simulate_with_targets_and_noise_is_reproducible() -> None:
    a, b = curling.new_game(), curling.new_game()
    noise = curling.NoiseParams(curling.Noise.GAT)
    for state in (a, b):
        curling.simulate(state, curling.Target(0.2, curling.TEE_Y, -1), noise, seed=5)
    np.testing.assert_array_equal(a.stones(), b.stones())
    assert a.stones()[0, 2] == 1.0


def test_render_text_and_png(tmp_path: Path) -> None:
    state = curling.new_game()
    curling.simulate(state, curling.draw(0.0, curling.TEE_Y))
    curling.simulate(state, curling.draw(0.5, 37.5, -1))
    text = curling.render_text(state)
    assert "o" in text and "x" in text and text.startswith("end 0 shot 2")
    path = curling.render_png(state, tmp_path / "house.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_encode_planes() -> None:
    state = curling.new_game()
    curling.simulate(state, curling.draw(0.0, curling.TEE_Y))  # team 0 on the button
    planes = curling.encode(state)  # team 1 to move
    assert planes.shape == (curling.NUM_PLANES, 32, 32)
    assert planes[1].sum() == 1 and planes[0].sum() == 0 and planes[4].sum() == 1
    assert planes[6].sum() == 1 and planes[5].sum() == 0
    np.testing.assert_allclose(planes[0] + planes[1] + planes[2], 1.0)
    assert planes[11].max() == 1.0  # team 1 holds the hammer


def test_action_grid_round_trip() -> None:
    for action in (0, 1, 777, curling.NUM_ACTIONS - 1):
        assert curling.target_to_action(curling.action_to_target(action)) == action
    tee = curling.target_to_action(curling.Target(0.0, curling.TEE_Y, 1))
    target = curling.action_to_target(tee)
    assert abs(target.x) < 0.1 and abs(target.y - curling.TEE_Y) < 0.2


def test_win_probability_table() -> None:
    probs = np.zeros(17)
    probs[8 - 1], probs[8], probs[8 + 1], probs[8 - 2] = (
        0.4,
        0.15,
        0.25,
        0.2,
    )  # the hammer team is favoured
    table = curling.win_probability_table(probs, max_ends=8)
    mid = table.shape[1] // 2
    assert table[0, mid + 1] == 1.0 and table[0, mid - 1] == 0.0 and table[0, mid] == 0.26
    assert np.all(np.diff(table[1:], axis=1) >= -1e-12)  # more points never hurt
    assert table[8, mid] < 0.5  # without hammer, tied, is the weaker side
    assert table[1, mid + 3] > 0.95 and table[1, mid - 3] < 0.05


def test_rule_based_game_of_two_ends() -> None:
    player = curling.rule_based_player(samples=1)
    record = curling.play_game((player, player), num_ends=2, seed=1)
    assert len(record.end_scores) == 2 and len(record.shots) == 32
    assert all(min(s) == 0 for s in record.end_scores)
