"""Self-play driver: record consistency, determinism, openings, errors, memory."""

from __future__ import annotations

import numpy as np
import pytest

import pyaz


def _zero_net(num_actions: int):
    def fn(planes: np.ndarray):
        b = len(planes)
        return np.zeros((b, num_actions), np.float32), np.zeros(b, np.float32)

    return fn


def test_records_are_consistent() -> None:
    records = pyaz.SelfPlay(
        pyaz.make("connect_four"), simulations=30, parallel_games=8, dirichlet_epsilon=0.25
    ).play(24, "rollout")
    assert records.num_games == 24
    n = records.num_positions
    assert records.planes.shape == (n, 2, 6, 7) and records.planes.dtype == np.float32
    assert records.policy.shape == (n, 7)
    np.testing.assert_allclose(records.policy.sum(axis=1), 1.0, rtol=1e-5)
    # A full column (its top cell occupied) gets no probability.
    top_taken = records.planes[:, :, 0, :].sum(axis=1) > 0
    assert (records.policy[top_taken] == 0).all()
    for game in range(24):
        rows = records.game_id == game
        length = records.game_length[game]
        status = pyaz.Status(int(records.game_status[game]))
        assert rows.sum() == length  # no random opening: every ply is recorded
        np.testing.assert_array_equal(records.ply[rows], np.arange(length))
        np.testing.assert_array_equal(records.plies_to_end[rows], length - records.ply[rows])
        np.testing.assert_array_equal(records.player[rows], np.arange(length) % 2)
        for player, z in zip(records.player[rows], records.outcome[rows], strict=True):
            if status == pyaz.Status.DRAW:
                assert z == 0.0
            else:
                winner = 0 if status == pyaz.Status.FIRST_PLAYER_WIN else 1
                assert z == (1.0 if player == winner else -1.0)
        # The plane counts grow by one disc per ply.
        discs = records.planes[rows].sum(axis=(1, 2, 3))
        np.testing.assert_array_equal(discs, np.arange(length))


def test_batches_gather_leaves_from_many_games() -> None:
    records = pyaz.SelfPlay(pyaz.make("othello", size=6), simulations=16, parallel_games=32).play(
        32, _zero_net(37)
    )
    assert records.mean_batch_size > 16


def test_deterministic_with_one_thread_and_a_seed() -> None:
    def play() -> pyaz.SelfPlayRecords:
        return pyaz.SelfPlay(
            pyaz.make("othello", size=6), simulations=20, seed=5, dirichlet_epsilon=0.25
        ).play(6, "rollout")

    a, b = play(), play()
    np.testing.assert_array_equal(a.policy, b.policy)
    np.testing.assert_array_equal(a.game_length, b.game_length)


def test_greedy_play_without_noise_repeats_the_same_game() -> None:
    records = pyaz.SelfPlay(pyaz.make("connect_four"), simulations=20, sampling_plies=0).play(
        5, "uniform"
    )
    assert len(set(records.game_length.tolist())) == 1


def test_random_opening_is_played_but_not_recorded() -> None:
    records = pyaz.SelfPlay(
        pyaz.make("othello", size=6), simulations=8, random_opening_plies=10
    ).play(10, "uniform")
    for game in range(10):
        rows = records.game_id == game
        assert records.game_opening[game] == 10
        assert records.ply[rows].min() == 10
        assert rows.sum() == records.game_length[game] - 10


def test_random_opening_that_ends_the_game_is_rolled_back() -> None:
    # Connect Four games rarely last 42 random plies: the opening is cut back.
    records = pyaz.SelfPlay(pyaz.make("connect_four"), simulations=4, random_opening_plies=42).play(
        10, "uniform"
    )
    assert (records.game_opening < 42).all()
    assert (records.game_length > records.game_opening).all()


def test_a_spread_opening_draws_each_games_random_plies_in_zero_to_n() -> None:
    # Othello 6x6 never ends within 8 random plies, so no opening is cut back.
    def openings(seed: int) -> list[int]:
        play = pyaz.SelfPlay(
            pyaz.make("othello", size=6),
            simulations=2,
            random_opening_plies=8,
            random_opening_spread=True,
            seed=seed,
        )
        records = play.play(60, "uniform")
        for game in range(60):  # the recorded plies start after the game's own opening
            rows = records.game_id == game
            assert records.ply[rows].min() == records.game_opening[game]
        return records.game_opening.tolist()

    drawn = openings(seed=5)
    assert set(drawn) == set(range(9))  # every count 0..8 occurs in 60 draws
    assert drawn == openings(seed=5) and drawn != openings(seed=6)
    assert 3.0 < sum(drawn) / len(drawn) < 5.0  # the uniform mean is 4


@pytest.mark.parametrize("threads", [1, 2])
def test_evaluator_exception_propagates(threads: int) -> None:
    calls = {"n": 0}

    def broken(planes: np.ndarray):
        calls["n"] += 1
        if calls["n"] > 5:
            raise KeyError("lost weights")
        return _zero_net(7)(planes)

    with pytest.raises(KeyError, match="lost weights"):
        pyaz.SelfPlay(pyaz.make("connect_four"), simulations=10, threads=threads).play(4, broken)


def test_bad_options() -> None:
    start = pyaz.make("connect_four")
    with pytest.raises(ValueError, match="simulations"):
        pyaz.SelfPlay(start, simulations=0).play(1)
    with pytest.raises(TypeError, match="unknown search option"):
        pyaz.SelfPlay(start, simulatoins=3).play(1)
    with pytest.raises(ValueError, match="games"):
        pyaz.SelfPlay(start).play(0)


def _rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096 / 2**20


def test_thousand_games_do_not_leak() -> None:
    start = pyaz.make("connect_four")
    player = pyaz.SelfPlay(start, simulations=8, parallel_games=16)
    player.play(200, "uniform")
    before = _rss_mb()
    for _ in range(5):
        player.play(200, "uniform")
    assert _rss_mb() - before < 20
