"""DL-UCT (PUCT over the 32x32x2 grid), seed 002's baseline, with noise-free transitions."""

from __future__ import annotations

import numpy as np

from pyaz import curling
from pyaz.curling.dl_uct import DlUctParams, dl_uct_player, dl_uct_search


def _play(state: curling.GameState, target: curling.Target) -> curling.GameState:
    after = state.copy()
    after.apply_no_end(curling.target_to_shot(target))
    return after


def test_draw_into_an_empty_house_with_a_uniform_prior() -> None:
    state = curling.new_game()
    state.shot = 15
    result = dl_uct_search(state, DlUctParams(simulations=300, seed=1))
    assert list(_play(state, result.best).house_score()) == [0, 1]
    assert result.visits.sum() == 300
    assert result.values[result.action] == 1.0


def test_takeout_of_a_lone_stone_on_the_button() -> None:
    state = curling.new_game()
    state.shot = 15
    state.set_stone(14, 0.0, curling.TEE_Y)  # opponent (team 0) on the button
    result = dl_uct_search(state, DlUctParams(simulations=800, seed=2))
    after = _play(state, result.best)
    assert list(after.house_score()) == [0, 1]
    x, y, alive = after.stones()[14]
    assert not alive or np.hypot(x, y - curling.TEE_Y) > curling.STONE_RADIUS  # it was hit


def test_prior_from_the_evaluator_steers_the_search_and_is_reproducible() -> None:
    """A prior concentrated on one grid action (a guard, worth nothing) is searched first; the
    values come from the evaluator and are backed up from the mover's side."""
    target_action = curling.target_to_action(curling.Target(0.0, 37.0, 1))
    prior = np.full(curling.NUM_ACTIONS, 1e-6)
    prior[target_action] = 1.0
    calls = []

    def evaluator(state: curling.GameState) -> tuple[float, None, np.ndarray]:
        calls.append(state.shot)
        return -0.25, None, prior

    state = curling.new_game()
    state.shot = 3
    result = dl_uct_search(state, DlUctParams(simulations=20, max_depth=1), evaluator)
    assert result.action == target_action and result.visits[target_action] == 20
    assert result.values[target_action] == 0.25  # team 1 moves at shot 3
    assert calls[0] == 3 and all(shot == 4 for shot in calls[1:])
    again = dl_uct_search(state, DlUctParams(simulations=20, max_depth=1), evaluator)
    assert again.action == result.action


def test_player_plays_a_short_game() -> None:
    player = dl_uct_player(simulations=8, max_depth=1)
    record = curling.play_game((player, player), num_ends=1, seed=0)
    assert len(record.shots) == 16 and len(record.end_scores) == 1


def test_compare_script_runs() -> None:
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "bench" / "curling_compare.py"
    spec = importlib.util.spec_from_file_location("curling_compare", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    result = module.main(["--games", "2", "--simulations", "6", "--ends", "1"])
    assert result["kr_wins"] + result["draws"] + result["dl_wins"] == 2
    low, high = result["wilson_95"]
    assert 0.0 <= low <= result["kr_win_rate"] <= high <= 1.0
    table_args = ["--games", "1", "--simulations", "6", "--ends", "2", "--win-table", "seed002"]
    assert module.main(table_args)["win_table"] == "seed002"
