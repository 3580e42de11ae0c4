"""Results that can be trusted: matches of distinct games, a curriculum that starts from the
measured game length, the seeds' own gates and presets, every loss target logged."""

from __future__ import annotations

import copy
from pathlib import Path

import numpy as np
import pytest

import pyaz
from pyaz.common.runlog import read_metrics
from pyaz.eval.arena import play_match
from pyaz.eval.players import RandomPlayer, SearchPlayer
from pyaz.methods.alphazero.config import TrainConfig
from pyaz.methods.alphazero.loop import TrainingLoop
from pyaz.train.curriculum import Curriculum


def _loop(tmp_path: Path, **settings: object) -> TrainingLoop:
    base: dict[str, object] = {
        "game": "othello",
        "game_options": {"size": 6},
        "iterations": 1,
        "episodes": 4,
        "simulations": 16,
        "epochs": 1,
        "parallel_games": 4,
        "eval_opponent": "none",
        "dirichlet_epsilon": 0.0,
    }
    base.update(settings)
    return TrainingLoop(TrainConfig(**base), tmp_path / "run", progress=False)  # type: ignore[arg-type]


def test_a_gate_between_identical_untrained_networks_is_forty_distinct_even_games(
    tmp_path: Path,
) -> None:
    loop = _loop(tmp_path, gating="threshold", arena_games=40)
    loop.current.load_state_dict(loop.best.state_dict())  # the challenger is the best network
    record = loop._gate(iteration=1)
    assert record["arena_games"] == 40
    assert record["arena_distinct_games"] >= 36, record
    assert 0.35 <= record["arena_score"] <= 0.65, record


def test_evaluation_matches_play_distinct_games(tmp_path: Path) -> None:
    loop = _loop(tmp_path, eval_opponent="uct:20", eval_games=20)
    evaluation = loop._evaluate()
    assert evaluation is not None
    assert evaluation["eval_games"] == 20
    assert evaluation["eval_distinct_games"] >= 18, evaluation
    # Two identical greedy search players (here with the uniform evaluator) without openings
    # repeat one game however long the match; the default openings make one game per opening
    # (both colour orders play it alike), and semi-stochastic players make every game differ.
    start = pyaz.make("othello", size=6)
    a, b = SearchPlayer("uniform", 16, name="a"), SearchPlayer("uniform", 16, name="b")
    assert play_match(a, b, 10, start, opening_plies=0).distinct_games == 1
    assert play_match(a, b, 10, start).distinct_games == 5
    a = SearchPlayer("uniform", 16, name="a", sampling_plies=6, seed=1)
    b = SearchPlayer("uniform", 16, name="b", sampling_plies=6, seed=2)
    assert play_match(a, b, 10, start).distinct_games >= 9


def test_the_curriculum_average_length_starts_from_measured_play(tmp_path: Path) -> None:
    loop = _loop(tmp_path / "rk", game="racingkings", game_options={}, curriculum="racingkings")
    start = pyaz.make("racingkings")
    measured = float(np.mean(pyaz.random_game_lengths(start, 200, seed=0)))
    assert loop.counters["mean_game_length"] == pytest.approx(measured)
    assert 150 < measured < 400  # random Racing Kings games, not num_actions / 2 = 2,092
    assert start.num_actions / 2 > 2000


@pytest.mark.parametrize("game", ["racingkings", "racingkings-mod"])
def test_at_zeta_one_tenth_the_recorded_part_starts_at_nine_tenths(game: str) -> None:
    start = pyaz.make(game)
    curriculum = Curriculum.named("racingkings")
    average = float(np.mean(pyaz.random_game_lengths(start, 200, seed=0)))
    for epoch, zeta in ((0, 0.1), (1000, 1.0)):
        assert curriculum.zeta(epoch) == zeta
        records = pyaz.SelfPlay(
            start,
            simulations=8,
            parallel_games=32,
            random_opening_plies=curriculum.random_plies(epoch, average),
            opening_rollback_plies=curriculum.rollback_plies(epoch, average),
            seed=3,
        ).play(64, "uniform")
        if zeta == 1.0:
            assert records.game_opening.max() == 0  # nothing random
            continue
        # The recorded part starts where the random opening stopped (or, when random play ended
        # the game, zeta x the average length before its end). The games' measured average
        # length includes that opening.
        recorded_start = float(records.game_opening.mean())
        measured = float(records.game_length.mean())
        assert recorded_start == pytest.approx(0.9 * measured, rel=0.15)
        assert (records.ply.min(), records.game_opening.min()) >= (1, 1)


def test_the_wilson_gate_stops_on_width_in_a_long_even_match() -> None:
    # Two random players: about even; the gate can only stop on the width rule (or the cap).
    from pyaz.eval.gates import WilsonGate

    gate = WilsonGate(max_games=600)
    start = pyaz.make("connect_four", width=4, height=4)
    decision, result = gate.run(RandomPlayer(seed=1), RandomPlayer(seed=2), start, seed=5)
    assert decision == "keep"
    lower, upper = result.wilson_interval()
    if gate.reason(result) == "width":
        assert upper - lower < 0.1 and result.n >= 380
    else:  # the interval left 0.5 first (a 5% chance for equal players): a decision, not a cap
        assert gate.reason(result) in ("above", "below")
    assert result.distinct_games >= result.n * 0.9


def test_every_loss_target_and_each_epoch_are_logged(tmp_path: Path) -> None:
    loop = _loop(tmp_path, epochs=3, loss="value")
    loop.run()
    records = read_metrics(tmp_path / "run")
    epochs = [r for r in records if r["kind"] == "train_epoch"]
    assert [r["epochs"] for r in epochs] == [1, 2, 3]
    for r in epochs:
        assert r["loss_sum"] == pytest.approx(r["loss_policy"] + r["loss_value"], rel=1e-5)
        assert r["loss"] == pytest.approx(r["loss_value"], rel=1e-5)  # lv is the one optimised
        assert r["loss_product"] > 0
    iteration = next(r for r in records if r["kind"] == "iteration")
    assert {"loss_policy", "loss_value", "loss_sum", "loss_product", "av_length"} <= set(iteration)


def test_seed_000_presets_follow_the_paper() -> None:
    from pyaz.methods.alphazero.preset_files import load_preset

    for name in ("reversi8-curriculum", "reversi8-baseline", "racingkings-mod-curriculum"):
        preset = load_preset(name)
        assert preset["c_puct"] == 3.0 and preset["l2"] > 0  # eq. 2's 3 and eq. 1's L2 term
    racing = load_preset("racingkings-mod-baseline")
    assert racing["min_buffer_schedule"] == [350, 500, 750, 1000, 1500, 2000]
    assert racing["curriculum"] == "none"


def test_the_minimum_buffer_rises_with_the_schedule(tmp_path: Path) -> None:
    loop = _loop(tmp_path, min_buffer_schedule=[5, 9])
    assert loop._min_buffer_games() == 5
    loop.counters["trainings"] = 1
    assert loop._min_buffer_games() == 9
    loop.counters["trainings"] = 7
    assert loop._min_buffer_games() == 9


def test_the_azg_network_is_alpha_zero_generals(tmp_path: Path) -> None:
    import torch

    from pyaz.nets import AzgNet, PolicyValueNet, net_config_for

    net = PolicyValueNet(net_config_for(pyaz.make("othello", size=6), "azg", filters=64))
    assert isinstance(net, AzgNet)
    convs = [m for m in net.modules() if isinstance(m, torch.nn.Conv2d)]
    linears = [m for m in net.modules() if isinstance(m, torch.nn.Linear)]
    assert len(convs) == 4 and [c.padding for c in convs] == [(1, 1), (1, 1), (0, 0), (0, 0)]
    assert [(m.in_features, m.out_features) for m in linears] == [
        (64 * 2 * 2, 1024),
        (1024, 512),
        (512, 37),
        (512, 1),
    ]
    assert sum(isinstance(m, torch.nn.Dropout) for m in net.modules()) == 2
    net.eval()
    logits, value = net(torch.zeros(3, 2, 6, 6))
    assert logits.shape == (3, 37) and value.shape == (3, 1)
    twin = copy.deepcopy(net)
    assert isinstance(twin, AzgNet)
    loop = _loop(tmp_path, net="azg", filters=16, epochs=1)
    assert isinstance(loop.current, AzgNet)
    loop.run()
