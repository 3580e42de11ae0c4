"""The multi-end win-probability table at the leaves: hand-checkable conversions of end-score
distributions into game win rates, and the KR-DL-UCT evaluator's win-rate option."""

from __future__ import annotations

import numpy as np
import pytest

from pyaz.games import curling


def _one_hot(score: int) -> np.ndarray:
    probs = np.zeros(curling.SCORE_BINS)
    probs[score + 8] = 1.0
    return probs


def test_seed_002_worked_example() -> None:
    """Seed 002 section 6.2: tied, the first thrower expects one point with one end left after
    this one -> P_win(1, +1) = 35.5% (it throws first, without the hammer, in the last end)."""
    table = curling.seed002_table()
    # team 0 throws first (team 1 has the hammer)
    assert curling.win_rate_after_end(_one_hot(1), 0, 1, 1, table) == pytest.approx(0.355)
    # the same from team 1's side: team 1 throws first and scores one
    assert curling.win_rate_after_end(_one_hot(-1), 0, 0, 1, table) == pytest.approx(1 - 0.355)


def test_hammer_transitions() -> None:
    table = curling.seed002_table()
    # a blank keeps the hammer: team 0 still throws first, tied, one end left
    assert curling.win_rate_after_end(_one_hot(0), 0, 1, 1, table) == pytest.approx(0.127)
    # the hammer team (1) scores two: team 1 throws first next, team 0 leads by 1 -> 1 - P(1, -1)
    assert curling.win_rate_after_end(_one_hot(-2), 3, 1, 1, table) == pytest.approx(1 - 0.075)
    # after the last end: ahead wins, behind loses, a tie is half in the seed's table
    mix = 0.5 * _one_hot(2) + 0.5 * _one_hot(-1)
    assert curling.win_rate_after_end(mix, -1, 1, 0, table) == pytest.approx(0.5)
    assert curling.win_rate_after_end(_one_hot(1), -1, 1, 0, table) == pytest.approx(0.5)
    # differences beyond +-4 use the saturated columns
    assert curling.win_rate_after_end(_one_hot(0), 7, 0, 2, table) == pytest.approx(1 - 0.017)
    # a score difference given as a float (e.g. a numpy one) counts as the integer it holds
    assert curling.win_rate_after_end(_one_hot(-2), 3.0, 1, 1, table) == pytest.approx(1 - 0.075)
    with pytest.raises(ValueError):
        curling.win_rate_after_end(_one_hot(0), 0, 1, 9, table)


def test_state_win_rate_matches_the_table_recursion() -> None:
    """At the start of an 8-end game the first thrower's leaf value with the one-end distribution
    p is exactly the table's entry P_win[8, 0] built from that same p."""
    p = np.array([0, 0, 0, 0, 0, 0.01, 0.04, 0.25, 0.3, 0.2, 0.12, 0.05, 0.03, 0, 0, 0, 0])
    table = curling.win_probability_table(p, max_ends=8)
    state = curling.new_game(num_ends=8)
    assert state.to_move == 0
    assert curling.state_win_rate(state, p, table) == pytest.approx(table[8, 24])
    # the team to move is team 1 at the second shot: its bins are flipped to team 0's view
    state.shot = 1
    flipped = curling.state_win_rate(state, p[::-1], table)
    assert flipped == pytest.approx(table[8, 24])


def test_score_to_distribution_and_end_score_distribution() -> None:
    probs = curling.score_to_distribution(1.3)
    assert probs[9] == pytest.approx(0.7) and probs[10] == pytest.approx(0.3)
    assert probs @ np.arange(-8, 9) == pytest.approx(1.3)
    assert curling.score_to_distribution(-2.0)[6] == 1.0
    # three ends: team 0 (first) steals 1 -> +1; team 0 keeps throwing first, team 1 scores 2
    # -> -2; team 1 now throws first and blanks -> 0
    record = curling.GameRecord([(1, 0), (0, 2), (0, 0)], [])
    dist = curling.end_score_distribution([record])
    assert dist[9] == pytest.approx(1 / 3) and dist[6] == pytest.approx(1 / 3)
    assert dist[8] == pytest.approx(1 / 3)


def test_evaluator_values_finished_ends_as_win_rates() -> None:
    torch = pytest.importorskip("torch")
    from pyaz.methods.kr_dl_uct.net import CurlingNet, kr_dl_evaluator

    torch.manual_seed(0)
    net = CurlingNet(channels=8, blocks=1)
    evaluator = kr_dl_evaluator(net, win_table=curling.seed002_table())
    state = curling.new_game(num_ends=1)
    state.shot = 16
    state.set_stone(15, 0.0, curling.TEE_Y)  # the hammer team (1) scores one in the last end
    assert evaluator(state)[0] == pytest.approx(-0.5)
    state.set_stone(15, 0.0, 0.0, False)  # a blank in a tied last end: half a win
    assert evaluator(state)[0] == pytest.approx(0.0)
    value, candidates, weights = evaluator(curling.new_game(num_ends=8))
    assert -0.5 <= value <= 0.5 and candidates is not None and weights is not None

    calls = {"finished": 0}

    def counting(state: curling.Game) -> tuple[float, np.ndarray | None, np.ndarray | None]:
        if state.shot >= 16:
            calls["finished"] += 1
        return evaluator(state)

    root = curling.new_game(num_ends=2)
    root.shot = 15
    params = curling.KrUctParams()
    params.simulations = 40
    params.evaluate_finished_ends = True
    result = curling.kr_uct_search(root, params, counting)
    assert calls["finished"] > 0
    assert all(-0.5 <= child.mean <= 0.5 for child in result.children)


def test_win_rate_inside_an_extra_end_uses_the_last_row() -> None:
    """In an extra end (tied game) scoring wins outright; a blank is worth the table's tie value."""
    state = curling.new_game(num_ends=1, extra_ends=1)
    for _ in range(16):
        state.apply(curling.Shot(0.0, 1.0, 1))  # a blank last end
    assert state.in_extra_end and not state.is_game_over
    table = curling.win_probability_table(np.full(17, 1 / 17))
    probs = np.zeros(17)
    probs[8 + 1] = 0.5  # the team to move (team 0, no hammer) scores one: it wins
    probs[8] = 0.5  # blank: tied after the extra end
    expected = 0.5 * 1.0 + 0.5 * table[0, table.shape[1] // 2]
    assert curling.state_win_rate(state, probs, table) == pytest.approx(expected)
