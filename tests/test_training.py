"""The training loop's parts (losses, buffer, curriculum) and the pyaz-selfplay command."""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import torch

import pyaz
from pyaz.cli import selfplay as cli
from pyaz.common.runlog import read_metrics
from pyaz.methods.alphazero.config import TrainConfig
from pyaz.methods.alphazero.loop import TrainingLoop
from pyaz.methods.alphazero.preset_files import load_preset, preset_names
from pyaz.nets import load_model
from pyaz.train.curriculum import Curriculum
from pyaz.train.replay import ReplayBuffer
from pyaz.train.trainer import combine, loss_terms

# -- losses ---------------------------------------------------------------------------------


def test_loss_variants_on_a_worked_example() -> None:
    logits = torch.tensor([[0.0, math.log(3.0)]])  # p = (0.25, 0.75)
    pi = torch.tensor([[0.5, 0.5]])
    value, z = torch.tensor([[0.5]]), torch.tensor([-1.0])
    lp, lv = loss_terms(logits, value, pi, z)
    expected_lp = -(0.5 * math.log(0.25) + 0.5 * math.log(0.75))
    assert lp.item() == pytest.approx(expected_lp)
    assert lv.item() == pytest.approx(2.25)
    assert combine(lp, lv, "plus", 0).item() == pytest.approx(expected_lp + 2.25)
    assert combine(lp, lv, "policy", 0).item() == pytest.approx(expected_lp)
    assert combine(lp, lv, "value", 0).item() == pytest.approx(2.25)
    assert combine(lp, lv, "product", 0).item() == pytest.approx(expected_lp * 2.25)
    assert combine(lp, lv, "lambda", 0.25).item() == pytest.approx(0.25 * expected_lp + 0.75 * 2.25)
    with pytest.raises(ValueError, match="unknown loss"):
        combine(lp, lv, "sum", 0)


# -- curriculum -----------------------------------------------------------------------------


def test_curriculum_presets_follow_seed_000() -> None:
    reversi = Curriculum.named("reversi")  # seed 000 eq. 6
    assert [reversi.zeta(t) for t in (0, 1, 99, 100, 499, 500, 10_000)] == [
        0.25,
        0.5,
        0.5,
        0.75,
        0.75,
        1.0,
        1.0,
    ]
    racing = Curriculum.named("racingkings")  # seed 000 eq. 5
    assert [racing.zeta(t) for t in (0, 50, 100, 500, 800, 1000)] == [
        0.1,
        0.33,
        0.5,
        0.66,
        0.8,
        1.0,
    ]
    assert reversi.random_plies(0, 60) == 45 and reversi.rollback_plies(0, 60) == 15
    assert Curriculum.named("none").random_plies(0, 60) == 0


def test_curriculum_from_toml(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text("steps = [[0, 0.2], [10, 0.6], [20, 1.0]]\n")
    assert Curriculum.named(str(path)).zeta(15) == 0.6
    path.write_text("steps = [[5, 0.2]]\n")
    with pytest.raises(ValueError, match="epoch 0"):
        Curriculum.named(str(path))
    with pytest.raises(ValueError, match="neither a preset"):
        Curriculum.named("no-such-curriculum")


# -- replay buffer --------------------------------------------------------------------------


def _records(games: int, seed: int) -> pyaz.SelfPlayRecords:
    return pyaz.SelfPlay(
        pyaz.make("connect_four", width=4, height=4), simulations=4, seed=seed
    ).play(games, "uniform")


def test_buffer_replacement_policies_and_round_trip() -> None:
    buffer = ReplayBuffer()
    rng = np.random.default_rng(0)
    for iteration in (1, 2, 3):
        assert buffer.add(_records(10, iteration), iteration, 10 * (iteration - 1), 0.0, rng) == 10
    assert buffer.num_games == 30
    restored = ReplayBuffer.from_bytes(buffer.to_bytes())
    for a, b in zip(restored.arrays(), buffer.arrays(), strict=True):
        np.testing.assert_array_equal(a, b)
    assert [g.game_number for g in restored.games] == list(range(30))
    assert buffer.keep_last_iterations(2, 3) == 10
    assert {g.iteration for g in buffer.games} == {2, 3}
    assert buffer.drop_oldest(0.1) == 2 and buffer.games[0].game_number == 12


def test_buffer_drops_draws_with_the_given_chance() -> None:
    records = pyaz.SelfPlay(pyaz.make("connect_four", width=4, height=4), simulations=2).play(
        200, "uniform"
    )
    draws = int((records.game_status == int(pyaz.Status.DRAW)).sum())
    assert draws > 10
    buffer = ReplayBuffer()
    kept = buffer.add(records, 1, 0, 1.0, np.random.default_rng(0))
    assert kept == 200 - draws


# -- the command ----------------------------------------------------------------------------

SMALL = [
    "--game",
    "connect_four",
    "--width",
    "4",
    "--height",
    "4",
    "--episodes",
    "8",
    "--simulations",
    "8",
    "--epochs",
    "1",
    "--eval-games",
    "2",
    "--eval-opponent",
    "random",
    "--parallel-games",
    "8",
    "--quiet",
]


def test_help_names_every_table_1_parameter(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    text = capsys.readouterr().out
    for symbol in ("I:", "E:", "T':", "m:", "c:", "rs:", "ep:", "bs:", "lr:", "d:"):
        assert symbol in text
    with pytest.raises(SystemExit):  # the gate's arena games and threshold
        cli.main(["--help-technique", "gating"])
    text = capsys.readouterr().out
    assert "--arena-games: n:" in text and "--update-threshold: u:" in text


def test_preset_and_command_line_precedence(tmp_path: Path) -> None:
    preset = tmp_path / "p.toml"
    preset.write_text('game = "gomoku"\nsize = 7\nline_length = 4\nsimulations = 30\nlr = 0.01\n')
    args = cli.build_parser().parse_args(["--out", "x", "--preset", str(preset), "--lr", "0.002"])
    config = cli.settings_from(args)
    assert config.game == "gomoku" and config.game_options == {"size": 7, "line_length": 4}
    assert config.simulations == 30 and config.lr == 0.002
    preset.write_text("simulatons = 3\n")
    with pytest.raises(ValueError, match="unknown settings"):
        cli.settings_from(cli.build_parser().parse_args(["--out", "x", "--preset", str(preset)]))


def test_runs_and_refuses_to_overwrite(tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert cli.main([*SMALL, "--iterations", "2", "--out", str(out)]) == 0
    kinds = [r["kind"] for r in read_metrics(out)]
    assert kinds.count("iteration") == 2 and kinds.count("eval") == 2
    for name in ("config.json", "metrics.csv", "checkpoint.pt", "best.torchscript.pt"):
        assert (out / name).exists(), name
    assert (out / "losses.png").exists() and (out / "win_ratio.png").exists()
    assert sorted(p.name for p in (out / "nets").iterdir()) == ["iter-00001.pt", "iter-00002.pt"]
    assert load_model(str(out / "checkpoint.pt"), "az").net.config.actions == 4
    assert load_model(str(out / "nets" / "iter-00002.pt"), "az").net.config.actions == 4
    scripted = torch.jit.load(str(out / "best.torchscript.pt"))
    logits, value = scripted(torch.zeros(1, 2, 4, 4))
    assert logits.shape == (1, 4) and value.shape == (1, 1)
    assert cli.main([*SMALL, "--iterations", "2", "--out", str(out)]) == 2


def _iterations(run: Path) -> list[dict]:
    return [r for r in read_metrics(run) if r["kind"] == "iteration"]


def test_one_thread_runs_are_deterministic(tmp_path: Path) -> None:
    for name in ("a", "b"):
        assert cli.main([*SMALL, "--iterations", "2", "--out", str(tmp_path / name)]) == 0
    a, b = _iterations(tmp_path / "a"), _iterations(tmp_path / "b")
    assert [r["loss"] for r in a] == [r["loss"] for r in b]
    assert [r["positions"] for r in a] == [r["positions"] for r in b]


@pytest.mark.parametrize("gating", ["threshold", "wilson"])
def test_alphago_zero_loop_gates(tmp_path: Path, gating: str) -> None:
    out = tmp_path / gating
    args = [
        *SMALL,
        "--iterations",
        "2",
        "--gating",
        gating,
        "--arena-games",
        "4",
        "--out",
        str(out),
    ]
    assert cli.main(args) == 0
    for record in _iterations(out):
        assert record["accepted"] in (0, 1) and 0.0 <= record["arena_score"] <= 1.0


def test_killed_run_resumes_without_lost_or_duplicated_games(tmp_path: Path) -> None:
    out = tmp_path / "run"
    command = [
        sys.executable,
        "-m",
        "pyaz.cli.selfplay",
        *SMALL,
        "--iterations",
        "5",
        "--out",
        str(out),
    ]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 120
    while time.time() < deadline:
        done = [r for r in read_metrics(out)] if (out / "metrics.jsonl").exists() else []
        if sum(r["kind"] == "iteration" for r in done) >= 2:
            break
        time.sleep(0.05)
    process.send_signal(signal.SIGKILL)
    process.wait()
    finished_before = len(_iterations(out))
    assert 2 <= finished_before < 5, "the kill should land in the middle of the run"
    assert cli.main([*SMALL, "--iterations", "5", "--out", str(out), "--resume"]) == 0
    iterations = _iterations(out)
    assert [r["iteration"] for r in iterations] == [1, 2, 3, 4, 5]
    assert sum(r["games"] for r in iterations) == 5 * 8
    data = torch.load(out / "checkpoint.pt", weights_only=False)
    assert data["counters"]["games"] == 40 and data["counters"]["iteration"] == 5
    numbers = [
        g.game_number for g in ReplayBuffer.from_bytes((out / data["buffer"]).read_bytes()).games
    ]
    assert len(numbers) == len(set(numbers))
    assert json.loads((out / "config.json").read_text())["iterations"] == 5
    assert os.listdir(out).count(data["buffer"]) == 1 and len(list(out.glob("buffer-*.npz"))) == 1


@pytest.mark.parametrize("preset", preset_names())
def test_every_preset_loads(preset: str) -> None:
    args = cli.build_parser().parse_args(["--out", "x", "--preset", preset])
    config = cli.settings_from(args)
    config.validate()
    state = pyaz.make(config.game, **config.game_options)
    assert not state.is_terminal()
    Curriculum.named(config.curriculum)


def test_elo_of_each_iteration(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = [*SMALL, "--iterations", "2", "--eval-opponent", "none", "--elo-games", "2"]
    assert cli.main([*args, "--out", str(out)]) == 0
    elo = [r for r in read_metrics(out) if r["kind"] == "elo"]
    assert [r["iteration"] for r in elo] == [1, 2]
    assert all(r["elo_lower"] <= r["elo"] <= r["elo_upper"] for r in elo)
    assert (out / "elo" / "ratings.png").exists()


def test_presets_by_name_or_path_and_bad_ones(tmp_path: Path) -> None:
    assert len(preset_names()) >= 9
    by_name = load_preset("othello6-seed001")
    file = tmp_path / "mine.toml"
    file.write_text('game = "othello"\nsize = 6\niterations = 3\n')
    assert load_preset(file)["iterations"] == 3 and by_name["size"] == 6
    with pytest.raises(ValueError, match="shipped: "):
        load_preset("no-such-preset")
    file.write_text("iterations = = 3\n")
    with pytest.raises(ValueError, match="not valid TOML"):
        load_preset(file)


def test_a_time_budget_stops_after_the_iteration_that_passes_it(tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert (
        cli.main([*SMALL, "--iterations", "50", "--max-minutes", "0.0001", "--out", str(out)]) == 0
    )
    assert [r["iteration"] for r in _iterations(out)] == [1]
    with pytest.raises(ValueError, match="max_minutes must be in"):
        TrainConfig(max_minutes=-1.0).validate()


def test_the_run_time_counts_the_checkpoints(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What max_minutes counts includes writing each iteration's checkpoint: with a save that
    takes 0.4 s, the second iteration's elapsed_s holds the first one's save."""
    save = TrainingLoop.save_checkpoint

    def slow_save(self: TrainingLoop) -> None:
        time.sleep(0.4)
        save(self)

    monkeypatch.setattr(TrainingLoop, "save_checkpoint", slow_save)
    out = tmp_path / "run"
    assert cli.main([*SMALL, "--iterations", "2", "--out", str(out)]) == 0
    first, second = _iterations(out)
    steps = sum(
        r[k] for r in (first, second) for k in ("time_selfplay", "time_train", "time_arena")
    )
    assert second["elapsed_s"] >= steps + 0.4
