"""DL-UCT (PUCT over the 32x32x2 grid), seed 002's baseline, with noise-free transitions."""

from __future__ import annotations

import numpy as np

import pyaz.methods.kr_dl_uct as curling
from pyaz.methods.kr_dl_uct.dl_uct import DlUctParams, dl_uct_player, dl_uct_search


def _play(state: curling.Game, target: curling.Target) -> curling.Game:
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

    def evaluator(state: curling.Game) -> tuple[float, None, np.ndarray]:
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


def test_kr_dl_uct_against_dl_uct_matches_are_scored() -> None:
    from pyaz.eval.arena import play_match
    from pyaz.eval.players import ShotPlayer
    from pyaz.methods.kr_dl_uct.players import dl_player, kr_player, match_summary

    def match(
        kr: curling.ShotChooser, dl: curling.ShotChooser, games: int, ends: int, seed: int = 0
    ):
        a, b = ShotPlayer(kr, "kr"), ShotPlayer(dl, "dl")
        return match_summary(play_match(a, b, games, curling.make_state(ends), seed=seed))

    result = match(kr_player(6), dl_player(6), 2, 1, seed=3)
    assert result["wins"] + result["draws"] + result["losses"] == result["eval_games"] == 2
    assert result["eval_distinct_games"] == 2  # execution noise: every game differs
    low, high = result["wilson_low"], result["wilson_high"]
    assert 0.0 <= low <= result["win_ratio"] <= high <= 1.0
    table = curling.seed002_table()
    with_table = match(kr_player(6, table=table), dl_player(6, table=table), 1, 2)
    assert with_table["eval_games"] == 1
