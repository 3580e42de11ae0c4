"""The curling network, the KR-DL-UCT evaluator and supervised data from rule-based games."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import pyaz.methods.kr_dl_uct as curling  # noqa: E402
from pyaz.methods.kr_dl_uct.net import (  # noqa: E402
    CurlingNet,
    kr_dl_evaluator,
    records_to_examples,
)


def test_network_shapes() -> None:
    net = CurlingNet(channels=8, blocks=1)
    planes = torch.from_numpy(np.stack([curling.encode(curling.new_game())] * 3))
    policy, value = net(planes)
    assert policy.shape == (3, curling.NUM_ACTIONS) and value.shape == (3, curling.SCORE_BINS)


def test_kr_dl_uct_runs_with_an_untrained_network() -> None:
    torch.manual_seed(0)
    evaluator = kr_dl_evaluator(CurlingNet(channels=8, blocks=1))
    state = curling.new_game()
    params = curling.KrUctParams()
    params.simulations = 60
    result = curling.kr_uct_search(state, params, evaluator)
    assert len(result.children) >= 20  # k = 20 initial actions from the policy
    assert sum(child.visits for child in result.children) == 60
    assert curling.target_to_action(result.best) in range(curling.NUM_ACTIONS)


def test_supervised_steps_on_rule_based_games_reduce_the_loss() -> None:
    torch.manual_seed(0)
    player = curling.rule_based_player(samples=1)
    records = [curling.play_game((player, player), num_ends=1, seed=s) for s in range(2)]
    planes, actions, bins = records_to_examples(records, num_ends=1)
    assert planes.shape == (32, curling.NUM_PLANES, 32, 32)
    for record in records:  # replaying the executed shots reproduces the game
        state = curling.new_game(num_ends=1)
        for shot in record.shots:
            state.apply(shot[4])
        assert [tuple(s) for s in state.end_scores] == record.end_scores
    net = CurlingNet(channels=8, blocks=1)
    optimiser = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9, weight_decay=1e-4)
    losses = []
    for _ in range(60):  # eq. 13 with one-hot targets: cross-entropy on the policy and value
        logits, value_logits = net(torch.from_numpy(planes))
        loss = torch.nn.functional.cross_entropy(
            logits, torch.from_numpy(actions)
        ) + torch.nn.functional.cross_entropy(value_logits, torch.from_numpy(bins))
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        losses.append(loss.item())
    assert losses[-1] < 0.7 * losses[0]


def test_mirrored_grid_actions_mirror_the_target() -> None:
    """The mirror of a grid action is the same row, the mirrored column and the other spin (the
    loop trains on mirrored examples; its supervised start is tested in test_curling_selfplay)."""
    for action in (0, 5, 777, 2047):
        a = curling.action_to_target(action)
        b = curling.action_to_target(int(curling.mirror_actions(np.array([action]))[0]))
        assert a.x == pytest.approx(-b.x) and a.y == b.y and a.spin == -b.spin


def test_records_replay_into_the_positions_the_players_saw_under_gat_physics() -> None:
    """The examples' planes are those of the positions each player was asked to move in (captured
    while the game was played), for the GAT simulator too."""
    seen: list[np.ndarray] = []
    rule_based = curling.rule_based_player(samples=1)

    def watching(state: curling.Game, seed: int) -> curling.Target:
        seen.append(curling.encode(state))
        return rule_based(state, seed)

    record = curling.play_game((watching, watching), num_ends=1, seed=4, physics="gat")
    planes, _, _ = records_to_examples([record], num_ends=1, physics="gat")
    np.testing.assert_array_equal(planes, np.stack(seen))
    fcv1_planes, _, _ = records_to_examples([record], num_ends=1)
    assert not np.array_equal(fcv1_planes, planes)  # the wrong simulator replays another game
