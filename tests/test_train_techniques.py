"""Issue 25's training techniques, each against a hand-worked case: the value target blended
with the search's root value (value_target_q), duplicate positions merged (dedupe), the
learning-rate schedules, the growing window and progressive simulations; their bad values are
errors naming the option, and a run using them resumes after a kill to exactly the run that was
never killed."""

from __future__ import annotations

import io
import json
import math
import os
import signal
import subprocess
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch

import pyaz
from pyaz.cli import selfplay as cli
from pyaz.common.faults import FAULT_ENV
from pyaz.common.runlog import read_metrics
from pyaz.games import profiles
from pyaz.games.profiles import Tuned
from pyaz.methods.alphazero.config import TrainConfig
from pyaz.methods.alphazero.loop import TrainingLoop
from pyaz.methods.alphazero.schedules import lr_factor, scheduled_simulations, window_size
from pyaz.methods.alphazero.targets import merge_duplicates, value_targets
from pyaz.train.replay import ReplayBuffer


@dataclass
class HandRecords:
    """What ReplayBuffer.add reads of pyaz.SelfPlayRecords, written by hand."""

    planes: np.ndarray
    policy: np.ndarray
    outcome: np.ndarray
    game_id: np.ndarray
    game_status: np.ndarray
    root_value: np.ndarray | None = None

    @property
    def num_games(self) -> int:
        return len(self.game_status)


def hand_records(root_value: bool = True) -> HandRecords:
    """Two games on a 4x4 board: 3 positions (a first-player win), then 2 (a draw)."""
    planes = np.arange(5 * 2 * 4 * 4, dtype=np.float32).reshape(5, 2, 4, 4)
    policy = np.full((5, 4), 0.25, dtype=np.float32)
    outcome = np.array([1, -1, 1, 0, 0], dtype=np.float32)
    q = np.array([0.5, -0.25, 0.75, 0.125, -0.125], dtype=np.float32) if root_value else None
    game_id = np.array([0, 0, 0, 1, 1], dtype=np.int32)
    status = np.array([int(pyaz.Status.FIRST_PLAYER_WIN), int(pyaz.Status.DRAW)], dtype=np.int8)
    return HandRecords(planes, policy, outcome, game_id, status, q)


# -- 1: the value target ----------------------------------------------------------------------


def test_value_targets_blend_z_and_q_as_worked_by_hand() -> None:
    z = np.array([1.0, -1.0, 0.0], dtype=np.float32)
    q = np.array([0.2, -0.6, 0.4], dtype=np.float32)
    assert value_targets(z, q, 0.0) is z  # the default: AlphaZero's z, untouched
    np.testing.assert_allclose(value_targets(z, q, 1.0), q)
    # w = 0.25: 0.75 * 1 + 0.25 * 0.2 = 0.8; 0.75 * -1 + 0.25 * -0.6 = -0.9; 0.25 * 0.4 = 0.1
    np.testing.assert_allclose(value_targets(z, q, 0.25), [0.8, -0.9, 0.1], rtol=1e-6)
    assert value_targets(z, q, 0.25).dtype == np.float32
    for bad in (-0.1, 1.5, math.nan):
        with pytest.raises(ValueError, match="value_target_q must be in"):
            value_targets(z, q, bad)
    with pytest.raises(ValueError, match="same shape"):
        value_targets(z, q[:2], 0.5)


def test_the_buffer_keeps_root_values_and_reads_buffers_without_them() -> None:
    buffer = ReplayBuffer()
    assert buffer.add(hand_records(), 1, 0, 0.0, np.random.default_rng(0)) == 2  # type: ignore[arg-type]
    np.testing.assert_array_equal(buffer.root_values(), [0.5, -0.25, 0.75, 0.125, -0.125])
    data = buffer.to_bytes()
    archive = np.load(io.BytesIO(data))  # no pickle: plain arrays only
    assert "root_value" in archive.files and all(archive[k].dtype != object for k in archive.files)
    restored = ReplayBuffer.from_bytes(data)
    np.testing.assert_array_equal(restored.root_values(), buffer.root_values())
    assert [len(g.root_value) for g in restored.games] == [3, 2]
    # A buffer written before root values existed (no root_value member): q = z.
    old = {key: archive[key] for key in archive.files if key != "root_value"}
    blob = io.BytesIO()
    np.savez(blob, **old)
    np.testing.assert_array_equal(
        ReplayBuffer.from_bytes(blob.getvalue()).root_values(), [1, -1, 1, 0, 0]
    )
    # Records without root values (an older build): q = z as well.
    older = ReplayBuffer()
    older.add(hand_records(root_value=False), 1, 0, 0.0, np.random.default_rng(0))  # type: ignore[arg-type]
    np.testing.assert_array_equal(older.root_values(), [1, -1, 1, 0, 0])


def test_value_targets_are_for_the_player_to_move() -> None:
    """The perspective of z, checked on a hand-made game and on self-play records: the planes
    are the mover's view (its discs first), the mover of a game's last move gets z = +1, the
    one before -1, a draw draw_value."""
    state = pyaz.make("connect_four", width=6, height=6)
    for column in (0, 1, 0, 1, 0, 1):
        state.apply(column)
    planes = state.encode()
    assert state.to_move() == 0 and planes[0, 3:, 0].tolist() == [1, 1, 1]  # its own column
    assert planes[1, 3:, 1].tolist() == [1, 1, 1]  # the opponent's
    assert state.child(0).status() == pyaz.Status.FIRST_PLAYER_WIN
    start = pyaz.make("connect_four", width=5, height=4)
    records = pyaz.SelfPlay(start, simulations=2, seed=1, draw_value=-0.5).play(60, "uniform")
    status = records.game_status[records.game_id]
    won = status != int(pyaz.Status.DRAW)
    assert set(records.outcome[won & (records.plies_to_end == 1)].tolist()) == {1.0}
    assert set(records.outcome[won & (records.plies_to_end == 2)].tolist()) == {-1.0}
    assert set(records.outcome[~won].tolist()) == {-0.5}
    own, theirs = records.planes[:, 0].sum(axis=(1, 2)), records.planes[:, 1].sum(axis=(1, 2))
    assert np.array_equal(own - theirs, np.where(records.player == 0, 0, -1))


# -- 2: duplicates ----------------------------------------------------------------------------


def test_duplicates_merge_into_one_example_with_the_mean_targets() -> None:
    state = pyaz.make("connect_four", width=4, height=4)
    a = state.child(0).child(1)  # discs in columns 0 and 1
    mirrored = state.child(3).child(2)  # its mirror image: columns 3 and 2
    other = state.child(1).child(1)
    planes = np.stack([s.encode() for s in (a, mirrored, a, other)]).astype(np.float32)
    policy = np.array(
        [[1, 0, 0, 0], [0, 0, 0, 1], [0, 1, 0, 0], [0.25, 0.25, 0.25, 0.25]], dtype=np.float32
    )
    value = np.array([1.0, 0.0, -0.4, 0.5], dtype=np.float32)
    # Identical planes only: rows 0 and 2 are one position.
    merged = merge_duplicates(planes, policy, value, state)
    assert (merged.positions, merged.merged, len(merged.value)) == (4, 1, 3)
    assert merged.share == pytest.approx(0.25)
    np.testing.assert_array_equal(merged.planes, planes[[0, 1, 3]])
    np.testing.assert_allclose(merged.policy[0], [0.5, 0.5, 0, 0])
    np.testing.assert_allclose(merged.value, [0.3, 0.0, 0.5], rtol=1e-6)
    # Under the mirror too: the mirror image joins them, its policy mirrored (3 -> 0).
    merged = merge_duplicates(planes, policy, value, state, [0, 4])
    assert (merged.merged, len(merged.value)) == (2, 2)
    canonical = min(planes[0].tobytes(), planes[1].tobytes())
    assert merged.planes[0].tobytes() == canonical
    mean = np.array([2 / 3, 1 / 3, 0, 0]) if canonical == planes[0].tobytes() else None
    if mean is None:  # the canonical one is the mirror image: the mean in its orientation
        mean = np.array([0, 0, 1 / 3, 2 / 3])
    np.testing.assert_allclose(merged.policy[0], mean, rtol=1e-6)
    np.testing.assert_allclose(merged.value, [0.2, 0.5], rtol=1e-6)
    assert merged.policy.dtype == np.float32 and merged.value.dtype == np.float32
    with pytest.raises(ValueError, match="one row per position"):
        merge_duplicates(planes, policy[:3], value, state)


def test_the_loop_trains_on_blended_merged_targets(tmp_path: Path) -> None:
    config = tiny_config(value_target_q=0.5, dedupe=True, augment=False)
    training = TrainingLoop(config, tmp_path / "run", progress=False)
    try:
        records = hand_records()
        records.planes[3] = records.planes[0]  # the draw's first position repeats the win's
        training.buffer.add(records, 1, 0, 0.0, np.random.default_rng(0))  # type: ignore[arg-type]
        planes, _, value, measured = training._examples()
    finally:
        training.finish()
    # targets 0.5 * z + 0.5 * q: 0.75, -0.625, 0.875, 0.0625, -0.0625; rows 0 and 3 merged
    np.testing.assert_array_equal(value, [0.40625, -0.625, 0.875, -0.0625])
    assert len(planes) == 4 and measured == {"dedupe_share": 0.2, "dedupe_merged": 1}


def test_the_loop_trains_on_the_games_value_target(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # value_target_q none is the game's weight, read when the targets are made: Connect Four's
    # is z alone; were it 0.5, the blend of the test above (without the merge)
    for weight, expected in ((None, [1.0, -1.0, 1.0, 0.0, 0.0]),
                             (0.5, [0.75, -0.625, 0.875, 0.0625, -0.0625])):  # fmt: skip
        connect_four = profiles.PROFILES["connect_four"]
        tuned = replace(connect_four.training, value_target_q=Tuned(weight or 0.0))
        monkeypatch.setitem(
            profiles.PROFILES, "connect_four", replace(connect_four, training=tuned)
        )
        config = tiny_config(value_target_q=None, augment=False)
        training = TrainingLoop(config, tmp_path / f"run-{weight}", progress=False)
        try:
            training.buffer.add(hand_records(), 1, 0, 0.0, np.random.default_rng(0))  # type: ignore[arg-type]
            _, _, value, _ = training._examples()
        finally:
            training.finish()
        np.testing.assert_allclose(value, expected, rtol=1e-6)


# -- 3: schedules -----------------------------------------------------------------------------


def test_learning_rate_schedules_as_worked_by_hand() -> None:
    assert [lr_factor("constant", t, 10) for t in (1, 10, 50)] == [1.0, 1.0, 1.0]
    # cosine over 11 iterations: 1 at the first, (1 + 0.01) / 2 halfway, 0.01 at the last
    cosine = [lr_factor("cosine", t, 11) for t in (1, 6, 11, 30)]
    assert cosine == pytest.approx([1.0, 0.505, 0.01, 0.01])
    # onecycle over 11: 0.1 -> 1 by 30% (iteration 4), then half a cosine to 0.01
    onecycle = [lr_factor("onecycle", t, 11) for t in (1, 2, 4, 11, 12)]
    assert onecycle == pytest.approx([0.1, 0.4, 1.0, 0.01, 0.01])
    assert lr_factor("onecycle", 1, 1) == pytest.approx(0.1)
    with pytest.raises(ValueError, match="lr_schedule must be one of constant, cosine"):
        lr_factor("linear", 1, 10)


def test_window_growth_and_progressive_simulations_as_worked_by_hand() -> None:
    # Oracle's slow window: 4, +1 every 2 iterations, at most 20
    sizes = [window_size([4, 2], t, 20) for t in range(1, 40)]
    assert sizes[:6] == [4, 4, 5, 5, 6, 6] and sizes[-1] == 20 and sizes.index(20) == 32
    assert window_size([], 7, 20) == 20
    # 25, 50, 100 over 10 iterations: 1-4, 5-7, 8-10 (stage = (t - 1) * 3 // 10), held after
    sims = [scheduled_simulations([25, 50, 100], t, 10) for t in range(1, 13)]
    assert sims == [25, 25, 25, 25, 50, 50, 50, 100, 100, 100, 100, 100]


def test_schedules_follow_the_share_of_the_minutes_when_it_is_further_on() -> None:
    # a run of --iterations 1000 stopped by --max-minutes: iteration 2 with half the time spent
    assert lr_factor("cosine", 2, 1000, time_share=0.5) == pytest.approx(0.505)
    assert lr_factor("cosine", 2, 1000, time_share=1.7) == pytest.approx(0.01)  # held past it
    assert lr_factor("cosine", 6, 11, time_share=0.1) == pytest.approx(0.505)  # iterations ahead
    assert scheduled_simulations([25, 50, 100], 2, 1000, time_share=0.34) == 50
    assert scheduled_simulations([25, 50, 100], 2, 1000, time_share=0.9) == 100
    with pytest.raises(ValueError, match=r"time_share must be >= 0, got -0\.1"):
        lr_factor("cosine", 1, 10, time_share=-0.1)


def test_the_gumbel_warmup_searches_with_gumbel_over_its_share_of_the_run(tmp_path: Path) -> None:
    out = tmp_path / "run"
    warmup = ["--gumbel-warmup", "0.5", "--gumbel-warmup-simulations", "4", "--iterations", "4"]
    assert cli.main([*TINY, *warmup, "--out", str(out)]) == 0
    rows = [r for r in read_metrics(out) if r["kind"] == "iteration"]
    # progress (t - 1) / 3 over 4 iterations: 0 and 1/3 below 0.5, then 2/3 and 1
    assert [r["gumbel_warmup"] for r in rows] == [1, 1, 0, 0]
    assert [r["simulations"] for r in rows] == [4, 4, 8, 8]
    saved = json.loads((out / "config.json").read_text())
    assert (saved["gumbel_warmup"], saved["search_rule"]) == (0.5, "puct")


def test_the_gumbel_warmup_ends_also_when_self_play_stays_gumbel(tmp_path: Path) -> None:
    out = tmp_path / "run"
    warmup = ["--gumbel-warmup", "0.5", "--gumbel-warmup-simulations", "4", "--iterations", "4"]
    assert cli.main([*TINY, *warmup, "--search-rule", "gumbel", "--out", str(out)]) == 0
    rows = [r for r in read_metrics(out) if r["kind"] == "iteration"]
    assert [r["gumbel_warmup"] for r in rows] == [1, 1, 0, 0]
    assert [r["simulations"] for r in rows] == [4, 4, 8, 8]


# -- the options ------------------------------------------------------------------------------

TINY = [
    *["--game", "connect_four", "--width", "4", "--height", "4", "--net", "tiny"],
    *["--episodes", "4", "--simulations", "8", "--epochs", "2", "--parallel-games", "4"],
    *["--eval-games", "2", "--eval-opponent", "random", "--threads", "1", "--seed", "3"],
    "--quiet",
]


def tiny_config(**changes: Any) -> TrainConfig:
    config = cli.settings_from(cli.build_parser().parse_args([*TINY, "--out", "unused"]))
    for name, value in changes.items():
        setattr(config, name, value)
    return config


@pytest.mark.parametrize(
    ("changes", "error", "message"),
    [
        ({"value_target_q": 1.5}, ValueError, r"value_target_q must be in \[0, 1\], got 1.5"),
        ({"value_target_q": -0.5}, ValueError, "value_target_q must be in"),
        ({"dedupe": "yes"}, TypeError, "dedupe must be bool"),
        (
            {"lr_schedule": "linear"},
            ValueError,
            "lr_schedule must be one of auto, constant, cosine",
        ),
        ({"window_growth": [4]}, ValueError, "window_growth must be two integers START,EVERY"),
        ({"window_growth": [4, 0]}, ValueError, "window_growth START,EVERY must both be >= 1"),
        (
            {"window_growth": [4, 2], "retrain_iterations": 0},
            ValueError,
            "window_growth grows the window of retrain_iterations, which is 0",
        ),
        (
            {"opening_spread": 10, "curriculum": "reversi"},
            ValueError,
            r"opening_spread \(10\) and curriculum \('reversi'\) both choose",
        ),
        ({"opening_spread": -1}, ValueError, "opening_spread"),
        ({"simulations_schedule": [25, 0]}, ValueError, r"simulations_schedule must hold .*1\.\."),
        ({"simulations_schedule": [10**7]}, ValueError, "simulations_schedule must hold"),
        ({"simulations_schedule": "25,50"}, TypeError, "simulations_schedule must be list"),
        ({"gumbel_warmup": 1.5}, ValueError, r"gumbel_warmup must be in \[0, 1\], got 1.5"),
        (
            {"gumbel_warmup_simulations": 0},
            ValueError,
            "gumbel_warmup_simulations must be >= 1, got 0",
        ),
        (
            {"gumbel_warmup": 0.3, "forced_playouts": True},
            ValueError,
            "forced_playouts needs search_rule 'puct' and no gumbel_warmup",
        ),
        ({"threat_targets": -1}, ValueError, "threat_targets must be >= 0, got -1"),
        ({"value_planes": 0}, ValueError, "value_planes must be >= 1, got 0"),
        ({"value_planes": 257}, ValueError, "value_planes must be in 1..256, got 257"),
        (
            {"value_planes": 4, "net": "azg"},
            ValueError,
            r"value_planes \(4\) is a setting of the resnet network, not of azg",
        ),
        (
            {"threat_targets": 300},
            ValueError,
            r"threat_targets \(300\): the threat analysis plays Gomoku only, not connect_four",
        ),
        ({"threat_search": -1}, ValueError, "threat_search must be >= 0, got -1"),
        (
            {"threat_search": 300},
            ValueError,
            r"threat_search \(300\) reads Gomoku's threats, not connect_four's",
        ),
    ],
)
def test_bad_values_are_errors_naming_the_option(
    changes: dict[str, Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        tiny_config(**changes).validate()


@pytest.mark.parametrize(
    ("words", "named"),
    [
        (["--dedupe", "maybe"], "argument --dedupe: expected on or off, got 'maybe'"),
        (["--window-growth", "4,x"], "argument --window-growth: expected integers"),
        (["--lr-schedule", "step"], "lr_schedule must be one of auto, constant, cosine, onecycle"),
        (["--value-target-q", "2"], "value_target_q must be in [0, 1], got 2.0"),
    ],
)
def test_bad_options_are_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], words: list[str], named: str
) -> None:
    out = tmp_path / "run"
    try:
        status = cli.main([*TINY, "--iterations", "1", "--out", str(out), *words])
    except SystemExit as stop:  # argparse
        status = int(stop.code or 0)
    err = capsys.readouterr().err
    assert status == 2 and named in err, err
    assert not (out / "checkpoint.pt").exists()


def test_the_defaults_are_todays_behaviour() -> None:
    config = TrainConfig()  # Othello: auto is a constant rate (Connect Four's is cosine)
    assert (config.value_target_q, config.dedupe, config.lr_schedule) == (None, False, "auto")
    assert config.value_target_q_used == 0.0  # Othello: z (Gomoku's is 0.5)
    assert config.lr_schedule_used == "constant"
    assert config.window_growth == [] and config.simulations_schedule == []


# -- a run with every technique, killed and resumed ---------------------------------------------

TECHNIQUES = [
    *["--dedupe", "on", "--lr-schedule", "onecycle", "--retrain-iterations", "2"],
    *["--window-growth", "1,2", "--simulations-schedule", "4,8", "--iterations", "3"],
    "--value-target-q",
    "0.5",
]
TIMINGS = {"wall_time", "elapsed_s", "games_per_s", "time_selfplay", "time_train", "time_arena"}


def run_command(out: Path, *extra: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "pyaz.cli.selfplay",
        *TINY,
        *TECHNIQUES,
        "--out",
        str(out),
        *extra,
    ]


def untimed(run: Path) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k not in TIMINGS} for r in read_metrics(run)]


def test_a_run_with_every_technique_resumes_to_the_uninterrupted_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    reference, out = tmp_path / "reference", tmp_path / "run"
    assert cli.main([*TINY, *TECHNIQUES, "--out", str(reference)]) == 0
    env = {**os.environ, FAULT_ENV: "train-epoch:5"}  # iteration 3, between its epochs
    done = subprocess.run(run_command(out), env=env, capture_output=True, timeout=180)
    assert done.returncode == -signal.SIGKILL, done.stderr[-2000:]
    # The schedules and targets are not resumable settings.
    assert cli.main(["--out", str(out), "--resume", "--lr-schedule", "cosine", "--quiet"]) == 2
    assert "lr_schedule 'onecycle' -> 'cosine'" in capsys.readouterr().err
    assert cli.main(["--out", str(out), "--resume", "--quiet"]) == 0
    assert untimed(out) == untimed(reference)
    rows = [r for r in untimed(out) if r["kind"] == "iteration"]
    assert [r["simulations"] for r in rows] == [4, 4, 8]  # 4,8 over 3 iterations: 1-2, 3
    assert [r["window"] for r in rows] == [1, 1, 2]
    # onecycle over 3: lr / 10, then at progress 1/2 half a cosine at (0.5 - 0.3) / 0.7 = 2/7
    middle = 0.005 * (0.01 + 0.99 * (1 + math.cos(math.pi * 2 / 7)) / 2)
    assert [r["lr"] for r in rows] == pytest.approx([0.0005, middle, 5e-5])
    assert all(0.0 <= r["dedupe_share"] < 1.0 for r in rows)
    mine = torch.load(out / "checkpoint.pt", weights_only=False)
    theirs = torch.load(reference / "checkpoint.pt", weights_only=False)
    for net in ("best", "current"):
        for key, tensor in theirs[net]["state_dict"].items():
            assert torch.equal(mine[net]["state_dict"][key], tensor), (net, key)
    assert mine["counters"]["schedule_horizon"] == 3
    # More iterations on resume: the horizon stays, the schedules hold their last values.
    assert cli.main(["--out", str(out), "--resume", "--iterations", "4", "--quiet"]) == 0
    last = [r for r in read_metrics(out) if r["kind"] == "iteration"][-1]
    assert (last["iteration"], last["simulations"], last["window"]) == (4, 8, 2)
    assert last["lr"] == pytest.approx(5e-5)


def test_an_opening_spread_reaches_self_play_as_a_spread_random_opening(tmp_path: Path) -> None:
    config = tiny_config(opening_spread=6)
    config.validate()
    job = TrainingLoop(config, tmp_path / "run", progress=False)._self_play_job(1)
    assert job.options["random_opening_plies"] == 6
    assert job.options["random_opening_spread"] is True
    assert job.options["opening_rollback_plies"] == -1
    plain = TrainingLoop(tiny_config(opening_spread=0), tmp_path / "plain", progress=False)
    assert plain._self_play_job(1).options["random_opening_plies"] == 0
    assert plain._self_play_job(1).options["random_opening_spread"] is False


def test_connect_four_opens_its_self_play_games_with_a_spread_by_default(tmp_path: Path) -> None:
    # none resolves to the game's spread (Connect Four 24, measured best on 6x6), 0 elsewhere
    # and beside a curriculum; the run saves the number, so a resume plays the same games
    assert tiny_config().opening_spread is None
    assert tiny_config().opening_spread_plies == 24
    assert TrainConfig(game="othello", game_options={"size": 6}).opening_spread_plies == 0
    assert tiny_config(curriculum="reversi").opening_spread_plies == 0
    assert tiny_config(opening_spread=5).opening_spread_plies == 5
    loop = TrainingLoop(tiny_config(), tmp_path / "run", progress=False)
    assert loop.config.opening_spread == 24
    saved = json.loads((tmp_path / "run" / "config.json").read_text())
    assert saved["opening_spread"] == 24
    job = loop._self_play_job(1).options
    assert (job["random_opening_plies"], job["random_opening_spread"]) == (24, True)
    # a config.json from before the setting is a run without random opening plies
    assert TrainingLoop.upgrade_settings({"game": "connect_four"})["opening_spread"] == 0
    assert TrainingLoop.upgrade_settings({"opening_spread": 24})["opening_spread"] == 24
    # a none written by hand (the loop saves the number) is the game's
    saved = {"game": "connect_four", "opening_spread": None}
    assert TrainingLoop.upgrade_settings(saved)["opening_spread"] == 24
    saved["curriculum"] = "reversi"
    assert TrainingLoop.upgrade_settings(saved)["opening_spread"] == 0


def test_connect_four_trains_along_a_cosine_schedule_by_default(tmp_path: Path) -> None:
    # auto resolves to the game's schedule (Connect Four cosine, measured best on 6x6 in 30
    # minutes), constant elsewhere; the run saves the schedule, so a resume keeps it
    assert tiny_config().lr_schedule == "auto"
    assert tiny_config().lr_schedule_used == "cosine"
    assert TrainConfig(game="othello", game_options={"size": 6}).lr_schedule_used == "constant"
    assert tiny_config(lr_schedule="onecycle").lr_schedule_used == "onecycle"
    loop = TrainingLoop(tiny_config(), tmp_path / "run", progress=False)
    assert loop.config.lr_schedule == "cosine"
    assert json.loads((tmp_path / "run" / "config.json").read_text())["lr_schedule"] == "cosine"
    # a config.json from before the setting trained at a constant rate; a hand-written auto
    # is the game's
    assert TrainingLoop.upgrade_settings({"game": "connect_four"})["lr_schedule"] == "constant"
    saved = {"game": "connect_four", "lr_schedule": "auto"}
    assert TrainingLoop.upgrade_settings(saved)["lr_schedule"] == "cosine"


def test_training_counts_subnormal_floats_as_zero(tmp_path: Path) -> None:
    # Weight decay drives dead units' weights into the subnormal range, where the CPU is 10-100
    # times slower (bench/test_training_bench.py); training steps flush them to zero, and the
    # caller's floating-point mode is left as it was (Hypothesis, for one, checks it).
    from pyaz.nets.evaluator import _flushing, denormals_flushed

    if not torch.set_flush_denormal(False):
        pytest.skip("this CPU has no flush-to-zero mode")
    assert not _flushing() and (torch.tensor([1e-39]) * 1.0).item() != 0.0
    with denormals_flushed():
        assert _flushing() and (torch.tensor([1e-39]) * 1.0).item() == 0.0
        with denormals_flushed():
            assert _flushing()
        assert _flushing()  # an inner block keeps the outer one's mode
    assert not _flushing()
    training = TrainingLoop(tiny_config(), tmp_path / "run", progress=False)
    seen: list[bool] = []
    forward = training.trainer.net.forward

    def recording(*args: Any, **kwargs: Any) -> Any:
        seen.append(_flushing())
        return forward(*args, **kwargs)

    training.trainer.net.forward = recording  # type: ignore[method-assign]
    try:
        records = hand_records()
        planes = np.zeros((5, *training.start_state.planes_shape), dtype=np.float32)
        policy = np.full((5, training.start_state.num_actions), 0.25, dtype=np.float32)
        training.trainer.train_epoch(planes, policy, records.outcome, np.random.default_rng(0))
    finally:
        training.finish()
    assert seen and all(seen)  # every training step flushed
    assert not _flushing()  # and the mode is back


def test_value_planes_widen_the_value_heads_convolution(tmp_path: Path) -> None:
    """``--value-planes K``: the value head's 1x1 convolution gives K planes (AlphaZero's 1 by
    default, the same parameters as before the option), its hidden layer reads K * area inputs,
    and a run's saved network keeps K and plays."""
    from pyaz.eval.presets import make_player
    from pyaz.nets import PolicyValueNet, load_model, net_config_for

    state = pyaz.make("connect_four", width=6, height=6)
    default = PolicyValueNet(net_config_for(state))
    assert default.value_head[0].weight.shape == (1, 32, 1, 1)
    assert default.value_head[5].in_features == 36
    wide = PolicyValueNet(net_config_for(state, value_planes=4))
    assert wide.value_head[0].weight.shape == (4, 32, 1, 1)
    assert wide.value_head[1].num_features == 4
    assert wide.value_head[5].in_features == 4 * 36
    assert default.state_dict().keys() == wide.state_dict().keys()
    logits, value = wide.eval()(torch.from_numpy(state.encode()[None].astype(np.float32)))
    assert logits.shape == (1, 6) and value.shape == (1, 1)
    with pytest.raises(ValueError, match=r"value_planes \(2\) is a setting of the resnet network"):
        net_config_for(state, "azg", value_planes=2)

    out = tmp_path / "run"
    assert cli.main([*TINY, "--iterations", "1", "--value-planes", "3", "--out", str(out)]) == 0
    loaded = load_model(out / "checkpoint.pt")
    assert loaded.config is not None and loaded.config.value_planes == 3
    board = pyaz.make("connect_four", width=4, height=4)
    player = make_player(f"model:{out}:8", board)
    player.reset(board)
    assert player.choose(board) in board.legal_actions()


def test_threads_give_the_network_its_threads_unless_torch_threads_says() -> None:
    """``--threads N`` gives the network N threads too, capped at the cores (one stays one, so
    ``--threads 1`` runs stay deterministic); ``--torch-threads`` sets them apart."""
    cores = os.cpu_count() or 1
    assert tiny_config(threads=1).network_threads == 1
    assert tiny_config(threads=32).network_threads == min(32, cores)
    assert tiny_config(threads=32, torch_threads=3).network_threads == 3
    assert tiny_config(threads=1, torch_threads=2).network_threads == 2
    assert TrainConfig().torch_threads is None
