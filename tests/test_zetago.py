"""Seed 003 (ZetaGo): the networks, batched policy play, the symmetric replay buffer, REINFORCE,
the transfer network's windows, the paper's MCTS, the presets and bad input.

The checks lean on things nobody here wrote: the Go rules (proven against GNU Go) decide every
reward, replayed game and symmetric position; the transfer test uses a window whose only empty
point the masked softmax must give probability 1.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

from pyaz import make
from pyaz._core import Go, Status
from pyaz.eval.presets import make_player
from pyaz.games.symmetry import transform_planes
from pyaz.methods.reinforce import (
    OpponentPool,
    PolicyMcts,
    ReplayBuffer,
    SmallConfig,
    SmallPolicyNet,
    TransferConfig,
    TransferNet,
    encode_planes,
    legal_policy_mask,
    load_transfer_source,
    play_games,
    save_network,
)
from pyaz.methods.reinforce.loop import action_permutation, reinforce_loss
from pyaz.methods.reinforce.net import masked_logits

torch.set_num_threads(1)


def _small(seed: int = 0, **options: object) -> SmallPolicyNet:
    torch.manual_seed(seed)
    return SmallPolicyNet(SmallConfig(**{"filters": 8, "layers": 3, **options}))  # type: ignore[arg-type]


def test_small_network_shape() -> None:
    net = SmallPolicyNet(SmallConfig())  # Table 1: C_S = 5 layers of k_S = 32 filters
    convs = [m for m in net.trunk if isinstance(m, torch.nn.Conv2d)]
    assert [c.kernel_size for c in convs] == [(5, 5)] + [(3, 3)] * 4
    assert all(c.out_channels == 32 for c in convs) and convs[0].in_channels == 3
    assert net.heads.points.kernel_size == (1, 1) and net.heads.points.out_channels == 1
    assert net(torch.zeros(4, 3, 5, 5)).shape == (4, 27)  # 25 points, pass, resign


def test_planes_and_masks_follow_the_rules() -> None:
    state = Go(5)
    state.play("c3 b3 c4")
    planes = encode_planes(state)
    board = state.board()
    assert planes.shape == (3, 5, 5)
    assert (planes[0] == (board == 1)).all() and (planes[1] == (board == 2)).all()
    assert (planes.sum(axis=0) == 1).all()
    mask = legal_policy_mask(state)
    assert mask[:26].tolist() == state.legal_mask().tolist() and mask[26]
    logits = masked_logits(torch.zeros(1, 27), torch.from_numpy(mask).unsqueeze(0))
    p = torch.softmax(logits, dim=1)[0]
    assert float(p[~torch.from_numpy(mask)].sum()) == 0.0
    assert float(p[state.coord_to_action(2, 2)]) == 0.0  # c3 is occupied


def test_batched_play_replays_under_the_rules() -> None:
    net_a, net_b = _small(1), _small(2)
    seats = [(0, 1), (1, 0), (0, 0), (1, 1)] * 3
    games = play_games([net_a, net_b], seats, 5, record_seat=0, seed=3)
    for g, (black, white) in enumerate(seats):
        rows = np.flatnonzero(games.game_id == g)
        if not rows.size:
            continue
        assert black == 0 or white == 0
        # Replay each recorded move from the position it was recorded in (only seat 0's moves
        # are recorded, so check each position and its mask and the move's legality).
        for row in rows:
            colour = int(games.player[row])
            assert (black, white)[colour] == 0
            assert games.legal[row, games.action[row]]
            assert games.planes[row].sum(axis=0).min() == 1
        assert games.reward[rows].tolist() == [
            0.0 if games.winner[g] < 0 else 1.0 if games.winner[g] == games.player[r] else -1.0
            for r in rows
        ]
    # A single policy in both seats: every move is recorded, and replaying the game with the
    # pyaz rules gives the same positions, masks and result.
    games = play_games([net_a], [(0, 0)] * 6, 5, record_seat=0, seed=5)
    for g in range(6):
        rows = np.flatnonzero(games.game_id == g)
        state = Go(5)
        for row in rows:
            assert (games.planes[row] == encode_planes(state)).all()
            assert (games.legal[row] == legal_policy_mask(state)).all()
            if games.action[row] == 26:
                assert games.resigned[g] == state.to_move() and row == rows[-1]
                break
            state.apply(int(games.action[row]))
        if games.resigned[g] < 0:
            assert state.is_terminal()
            status = state.status()
            expected = (
                -1 if status == Status.DRAW else 0 if status == Status.FIRST_PLAYER_WIN else 1
            )
            assert games.winner[g] == expected
        assert games.length[g] == len(rows)


def _position(size: int, actions: list[int]) -> Go:
    state = Go(size)
    for action in actions:
        state.apply(action)
    return state


def test_symmetric_copies_are_go_symmetries() -> None:
    rng = np.random.default_rng(0)
    size = 5
    for _ in range(6):
        # A random game with captures; each replayed with every move transformed.
        actions: list[int] = []
        state = Go(size)
        while not state.is_terminal() and len(actions) < 40:
            legal = [a for a in state.legal_actions() if a != state.pass_action] or [
                state.pass_action
            ]
            actions.append(int(rng.choice(legal)))
            state.apply(actions[-1])
        for k in range(8):
            moved = action_permutation(size, k)
            for t in range(len(actions)):
                before = _position(size, actions[:t])
                after = _position(size, actions[: t + 1])
                before_k = _position(size, [int(moved[a]) for a in actions[:t]])
                after_k = before_k.child(int(moved[actions[t]]))
                assert (transform_planes(encode_planes(before), k) == encode_planes(before_k)).all()
                assert (transform_planes(encode_planes(after), k) == encode_planes(after_k)).all()
                legal_k = np.zeros(size * size + 2, dtype=bool)
                legal_k[moved] = legal_policy_mask(before)
                assert (legal_k == legal_policy_mask(before_k)).all()
    # The buffer stores exactly these copies.
    state = _position(size, [12, 6, 7])
    buffer = ReplayBuffer(size, 64)
    planes = encode_planes(state)[None]
    buffer.add(planes, legal_policy_mask(state)[None], np.array([8]), np.array([1.0], np.float32))
    assert len(buffer) == 8
    for k in range(8):
        moved = action_permutation(size, k)
        assert (buffer.planes[k] == transform_planes(planes[0], k)).all()
        expected = encode_planes(state.child(8))
        assert (
            transform_planes(expected, k)
            == encode_planes(_position(size, [int(moved[a]) for a in (12, 6, 7, 8)]))
        ).all()
        assert buffer.action[k] == moved[8] and buffer.value[k] == 1.0


# White's eight stones (two top rows, four columns) have one liberty, point (2, 0): Black's
# capture there wins the game by area (7 to 1, the rest neutral); any other move, then two
# passes, leaves White ahead 9 to 7 (komi 0).
CAPTURE_POSITION = """
OOOOX
OOOOX
.XXXX
.....
....O
"""


def _capture_state() -> Go:
    return Go.from_text(CAPTURE_POSITION)


def _result_after(state: Go, action: int) -> float:
    """Black's result (+1/-1/0) if Black plays ``action`` and both sides then pass (resign: -1)."""
    if action == state.size * state.size + 1:
        return -1.0
    after = state.child(action)
    while not after.is_terminal():
        after.apply(after.pass_action)
    status = after.status()
    return 0.0 if status == Status.DRAW else 1.0 if status == Status.FIRST_PLAYER_WIN else -1.0


def test_the_capture_position_is_what_it_says() -> None:
    state = _capture_state()
    capture = state.coord_to_action(2, 0)
    results = {
        int(a): _result_after(state, int(a)) for a in np.flatnonzero(legal_policy_mask(state))
    }
    assert results[capture] == 1.0
    assert all(r == -1.0 for a, r in results.items() if a != capture)


@pytest.mark.parametrize("baseline", [False, True])
def test_reinforce_learns_the_winning_capture(baseline: bool) -> None:
    state = _capture_state()
    capture = state.coord_to_action(2, 0)
    net = _small(4, value_head=baseline)
    planes = torch.from_numpy(encode_planes(state)).unsqueeze(0)
    legal = torch.from_numpy(legal_policy_mask(state)).unsqueeze(0)

    def p_capture() -> float:
        with torch.inference_mode():
            return float(torch.softmax(masked_logits(net(planes), legal), dim=1)[0, capture])

    start = p_capture()
    optimizer = torch.optim.Adam(net.parameters(), lr=3e-3)
    generator = torch.Generator().manual_seed(0)
    for _ in range(60):
        with torch.no_grad():
            p = torch.softmax(masked_logits(net(planes), legal), dim=1)[0]
        actions = torch.multinomial(p, 32, replacement=True, generator=generator)
        rewards = torch.tensor([_result_after(state, int(a)) for a in actions], dtype=torch.float32)
        batch = {
            "planes": planes.expand(32, -1, -1, -1),
            "legal": legal.expand(32, -1),
            "action": actions,
            "value": rewards,
        }
        loss, _ = reinforce_loss(net, batch, baseline)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    assert start < 0.1
    assert p_capture() > 0.8


def test_transfer_windows_line_up_with_the_board() -> None:
    small = _small(5)
    net = TransferNet(
        small,
        TransferConfig(
            reductions=2, large_layers=1, large_filters=4, final_layers=1, final_filters=4
        ),
    )
    assert net.windows == 25
    # Fill the 5x5 window whose top-left corner is (2, 3) with stones except (4, 5): inside
    # that window the masked 2-D softmax has one empty point, so window (2, 3) of R1 holds a
    # single 1 at board point (4, 5) and zeros everywhere else.
    board = np.zeros((9, 9), dtype=np.int8)
    board[2:7, 3:8] = 1 + (np.add.outer(np.arange(5), np.arange(5)) % 2)
    board[4, 5] = 0
    planes = np.stack([board == 1, board == 2, board == 0]).astype(np.float32)
    with torch.inference_mode():
        r1 = net.local_features(torch.from_numpy(planes).unsqueeze(0))[0].numpy()
    assert r1.shape == (25, 9, 9)
    window = 2 * 5 + 3
    expected = np.zeros((9, 9))
    expected[4, 5] = 1.0
    np.testing.assert_allclose(r1[window], expected, atol=1e-6)
    # Every window: the small network's own policy on the crop, placed back where it lies.
    with torch.inference_mode():
        for top in range(5):
            for left in range(5):
                crop = torch.from_numpy(planes[:, top : top + 5, left : left + 5]).unsqueeze(0)
                own = small.point_probabilities(crop)[0].reshape(5, 5).numpy()
                placed = np.zeros((9, 9))
                placed[top : top + 5, left : left + 5] = own
                np.testing.assert_allclose(r1[top * 5 + left], placed, atol=1e-6)
    # The small network stays frozen under training.
    assert not any(p.requires_grad for p in net.small.parameters())  # type: ignore[union-attr]
    assert net(torch.from_numpy(planes).unsqueeze(0)).shape == (1, 83)


def test_transfer_is_generic_in_the_sizes() -> None:
    for w1, w2 in ((5, 9), (5, 7), (6, 9), (9, 13)):
        small = _small(6, size=w1)
        net = TransferNet(
            small,
            TransferConfig(
                size=w2,
                reductions=2,
                large_layers=1,
                large_filters=4,
                final_layers=1,
                final_filters=4,
            ),
        )
        assert net(torch.zeros(2, 3, w2, w2)).shape == (2, w2 * w2 + 2)
        assert net.global_features(torch.zeros(1, 3, w2, w2)).shape == (1, 2 * 8, w2, w2)


def test_pool_and_buffer() -> None:
    pool = OpponentPool()
    net = _small(7)
    pool.add(net)
    with torch.no_grad():
        for p in net.parameters():
            p.add_(1.0)
    pool.add(net)
    rng = np.random.default_rng(0)
    drawn = {pool.sample(rng)[0] for _ in range(50)}
    assert drawn == {0, 1}  # uniform over both snapshots
    first = pool.snapshots[0]
    assert not torch.equal(next(first.parameters()), next(net.parameters()))  # a frozen copy


def test_mcts_finds_the_winning_capture() -> None:
    # The capture position with a 2-ply game (Black, then White, then the area count): the
    # capture wins whatever White replies (7 to at most 2), every other move loses (at most 7
    # to at least 9), so the search (tree, one-ply policy rollouts, best average value) must
    # find the capture and value it exactly.
    state = Go.from_text(CAPTURE_POSITION, max_game_length=2)
    capture = state.coord_to_action(2, 0)
    search = PolicyMcts(_small(8), simulations=200, batch=32, seed=1)
    action, stats = search.search(state)
    assert action == capture and stats[capture][1] == 1.0
    assert all(value == -1.0 for a, (_, value) in stats.items() if a != capture)
    assert sum(visits for visits, _ in stats.values()) == 200


def test_presets_play(tmp_path: object) -> None:
    from pathlib import Path

    import pyaz.methods.reinforce  # noqa: F401  (registers the presets)

    path = Path(str(tmp_path)) / "net.pt"
    save_network(_small(9), path)
    state = make("go", size=5)
    for spec in (f"zetago:{path}", f"zetago-mcts:{path}:8"):
        player = make_player(spec, state)
        player.reset(state)
        try:
            action = player.choose(state)
        except Exception as error:  # the raw policy may resign
            assert type(error).__name__ == "Resignation"
        else:
            assert state.is_legal(action)
    with pytest.raises(ValueError, match="plays 5x5, not 9x9"):
        make_player(f"zetago:{path}", make("go", size=9))


def test_bad_input(tmp_path: object) -> None:
    from pathlib import Path

    with pytest.raises(ValueError, match="empty"):
        OpponentPool().sample(np.random.default_rng(0))
    with pytest.raises(ValueError, match="got 4"):
        SmallConfig(size=4)
    with pytest.raises(ValueError, match="got 21"):
        TransferConfig(size=21)
    with pytest.raises(ValueError, match="got 3"):
        play_games([_small()], [(0, 0)], 3)
    with pytest.raises(ValueError, match="7x7"):
        TransferNet(_small(size=9), TransferConfig(size=7))
    path = Path(str(tmp_path)) / "seven.pt"
    save_network(_small(size=7), path)
    with pytest.raises(ValueError, match="plays 7x7, the transfer expects 5x5"):
        load_transfer_source(path, 5)
    with pytest.raises(ValueError, match="value head"):
        from pyaz.methods.reinforce import ReinforceConfig, ReinforceTrainer

        ReinforceTrainer(_small(), ReinforceConfig(baseline=True), Path(str(tmp_path)) / "run")


def test_a_finished_stage_is_marked_by_its_run_and_not_trained_again(tmp_path: object) -> None:
    """A stage's folder gets the mark of a finished run (:func:`pyaz.common.run.run_finished`,
    written atomically by the trainer), and a second call trains nothing. A folder of an older
    pyaz, with the empty ``FINISHED`` that these runs wrote, is skipped alike; one whose run
    finished but was killed before its mark plays no iteration again and gets it."""
    import json
    from pathlib import Path

    from pyaz.common.run import FINISHED_FILE, run_finished
    from pyaz.common.runlog import read_metrics
    from pyaz.methods.reinforce.runs import train_small

    reinforce = {"iterations": 1, "games": 2, "minibatch": 8, "checkpoint_every": 1}
    config = {"small": {"filters": 4, "layers": 2}, "reinforce": reinforce}
    folder = Path(str(tmp_path)) / "5x5"
    train_small(folder, config)
    assert json.loads((folder / FINISHED_FILE).read_text()) == {"method": "zetago", "step": 1}
    stamp = (folder / "checkpoint.pt").stat().st_mtime_ns
    train_small(folder, config)
    assert (folder / "checkpoint.pt").stat().st_mtime_ns == stamp
    (folder / FINISHED_FILE).unlink()  # killed after the last commit, before the mark
    train_small(folder, config)
    assert run_finished(folder) and (folder / "checkpoint.pt").stat().st_mtime_ns == stamp
    assert [r["iteration"] for r in read_metrics(folder)] == [1]
    old = Path(str(tmp_path)) / "old"
    old.mkdir()
    (old / FINISHED_FILE).write_text("")  # as these runs wrote it before
    train_small(old, config)
    assert [p.name for p in old.iterdir()] == [FINISHED_FILE]
