"""Fault injection: a training run or an experiment killed (SIGKILL) at every stage of an
iteration and around every file write resumes to exactly the run that was never killed.

The kill points are ``pyaz.common.faults.fault_point`` calls, armed with ``PYAZ_FAULT=NAME:N``
(the N-th time NAME is reached). Each killed run is compared with one uninterrupted run of the
same seed (``--threads 1`` makes runs deterministic): the same records in metrics.jsonl (no
duplicates, equal losses, positions and results; only timings differ), the same network
tensors in every nets/iter-N.pt and in the checkpoint, the same replay buffer, no temporary
file left. Also: a full disk or a read-only run folder is a one-line error that says what to do.
"""

from __future__ import annotations

import errno
import io
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch

from pyaz.cli import selfplay
from pyaz.common.faults import FAULT_ENV, fault_point
from pyaz.common.run import run_finished
from pyaz.common.runlog import read_metrics
from pyaz.experiments.base import Experiment, RunSpec
from pyaz.experiments.runner import run_experiment
from pyaz.experiments.runs import train_selfplay
from pyaz.methods.alphazero.loop import TrainingLoop

TESTS = Path(__file__).parent

# Connect Four 4x4, a tiny network, 8 simulations, 3 iterations of 4 games, 2 epochs each; a
# gate (2 games, score rule, u = 0: some challengers pass, some not) and an evaluation (2 games).
RUN = [
    *["--game", "connect_four", "--width", "4", "--height", "4", "--net", "tiny"],
    *["--episodes", "4", "--simulations", "8", "--epochs", "2", "--parallel-games", "4"],
    *["--gating", "score", "--arena-games", "2", "--update-threshold", "0.0"],
    *["--eval-games", "2", "--eval-opponent", "random", "--threads", "1", "--seed", "3"],
    *["--iterations", "3", "--quiet"],
]

# Per iteration: 4 self-play games; 2 train_epoch records, 1 iteration record, 1 eval record in
# metrics.jsonl; 2 gate games then 2 evaluation games; one write of the buffer, nets/iter-N.pt,
# best.torchscript.pt and checkpoint.pt, in that order. Iteration 2 is the one killed mostly.
# fault -> the last committed iteration when it strikes (0: no checkpoint yet)
TRAINING_FAULTS = {
    "self-play-game:6": 1,  # iteration 2, in the middle of its self-play
    "train-epoch:3": 1,  # between iteration 2's two epochs
    "match-game:5": 1,  # iteration 2's gate, after its first game
    "gate:2": 1,  # iteration 2's gate decided (best network replaced or not)
    "match-game:8": 1,  # iteration 2's evaluation, after its last game (as at "evaluate:2")
    "before-append/metrics.jsonl:7": 1,  # iteration 2's iteration record
    "after-append/metrics.jsonl:8": 1,  # iteration 2's eval record written
    "before-replace/buffer-00002.npz": 1,
    "after-replace/buffer-00002.npz": 1,
    "before-replace/iter-00002.pt": 1,
    "after-replace/iter-00002.pt": 1,  # as before-replace/best.torchscript.pt:2
    "before-replace/checkpoint.pt:1": 0,  # iteration 1: no checkpoint at all yet
    "before-replace/checkpoint.pt:2": 1,  # as after-replace/best.torchscript.pt:2
    "after-replace/checkpoint.pt:2": 2,  # committed; the old buffer not yet removed
    "after-replace/checkpoint.pt:3": 3,  # the last iteration committed; no plots, no FINISHED
}

TIMINGS = {
    *("wall_time", "elapsed_s", "games_per_s", "time_selfplay", "time_train", "time_arena"),
    "time_sparring",
}


def killed(command: list[str], fault: str, timeout: float = 120) -> None:
    """Runs ``command`` with the fault armed; asserts that it died by SIGKILL."""
    env = {**os.environ, FAULT_ENV: fault}
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == -signal.SIGKILL, (fault, done.returncode, done.stderr[-2000:])


def selfplay_command(out: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "pyaz.cli.selfplay", *RUN, "--out", str(out), *extra]


def resume(out: Path) -> None:
    """``pyaz-selfplay --resume`` in this process (the loop itself: no plots, no import time)."""
    args = selfplay.build_parser().parse_args([*RUN, "--out", str(out), "--resume"])
    TrainingLoop(selfplay.settings_from(args), out, resume=True, progress=False).run()


def records(run: Path) -> list[dict[str, Any]]:
    """metrics.jsonl without the timings."""
    return [{k: v for k, v in r.items() if k not in TIMINGS} for r in read_metrics(run)]


def tensors_equal(a: Any, b: Any) -> bool:
    """Nested dicts/lists of tensors and plain values, equal exactly."""
    if isinstance(a, torch.Tensor):
        return isinstance(b, torch.Tensor) and a.dtype == b.dtype and torch.equal(a, b)
    if isinstance(a, dict):
        return (
            isinstance(b, dict)
            and a.keys() == b.keys()
            and all(tensors_equal(a[k], b[k]) for k in a)
        )
    if isinstance(a, list | tuple):
        return len(a) == len(b) and all(tensors_equal(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def load(path: Path) -> Any:
    return torch.load(path, map_location="cpu", weights_only=False)


def buffer_arrays(run: Path) -> dict[str, np.ndarray]:
    name = load(run / "checkpoint.pt")["buffer"]
    archive = np.load(io.BytesIO((run / name).read_bytes()))
    return {key: archive[key] for key in archive.files}


def assert_same_run(run: Path, reference: Path) -> None:
    """``run`` (killed, then resumed) holds what the uninterrupted ``reference`` holds."""
    got, want = records(run), records(reference)
    iterations = [r["iteration"] for r in got if r["kind"] == "iteration"]
    assert iterations == [1, 2, 3]  # none lost, none twice
    assert got == want  # losses, positions, gate and evaluation results, in order
    nets = sorted(p.name for p in (run / "nets").iterdir())
    assert nets == sorted(p.name for p in (reference / "nets").iterdir())
    for name in nets:
        assert tensors_equal(load(run / "nets" / name), load(reference / "nets" / name)), name
    mine, theirs = load(run / "checkpoint.pt"), load(reference / "checkpoint.pt")
    for key in ("best", "current", "optimizer", "rng", "torch_rng", "buffer"):
        assert tensors_equal(mine[key], theirs[key]), key
    mine["counters"].pop("elapsed_s")
    theirs["counters"].pop("elapsed_s")
    assert mine["counters"] == theirs["counters"]
    arrays, expected = buffer_arrays(run), buffer_arrays(reference)
    assert arrays.keys() == expected.keys()
    for key in arrays:
        np.testing.assert_array_equal(arrays[key], expected[key], err_msg=key)
    assert [p.name for p in run.glob("buffer-*.npz")] == [mine["buffer"]]
    assert run_finished(run) and run_finished(reference)
    assert not list(run.rglob("*.tmp"))
    scripted = torch.jit.load(str(run / "best.torchscript.pt"))
    assert tensors_equal(dict(scripted.state_dict()), mine["best"]["state_dict"])


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The uninterrupted run (a process of its own, as the killed ones)."""
    out = tmp_path_factory.mktemp("reference") / "run"
    subprocess.run(selfplay_command(out), check=True, capture_output=True, timeout=300)
    return out


@pytest.mark.parametrize("fault", list(TRAINING_FAULTS))
def test_a_run_killed_anywhere_resumes_to_the_uninterrupted_run(
    tmp_path: Path, reference: Path, fault: str
) -> None:
    out = tmp_path / "run"
    killed(selfplay_command(out), fault)
    checkpoint = out / "checkpoint.pt"
    committed = load(checkpoint)["counters"]["iteration"] if checkpoint.exists() else 0
    assert committed == TRAINING_FAULTS[fault]  # the kill struck where it was meant to
    resume(out)
    assert_same_run(out, reference)


def test_fault_points_cost_nothing_unarmed_and_refuse_bad_counts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(FAULT_ENV, raising=False)
    fault_point("gate")  # returns
    monkeypatch.setenv(FAULT_ENV, "gate:2")
    fault_point("evaluate")  # another point: returns
    monkeypatch.setenv(FAULT_ENV, "gate:0")
    with pytest.raises(ValueError, match="PYAZ_FAULT must be NAME or NAME:N with N >= 1"):
        fault_point("gate")


# --------------------------------------------------------------------------- experiments

TINY_TRAINING = {
    "game": "connect_four",
    "width": 4,
    "height": 4,
    "net": "tiny",
    "episodes": 4,
    "simulations": 8,
    "epochs": 1,
    "parallel_games": 4,
    "eval_opponent": "none",
    "threads": 1,
    "iterations": 2,
}


def counted_training(folder: Path, config: dict[str, Any]) -> None:
    """A run target: counts its calls in ``calls.txt``, then trains (resuming if it can)."""
    calls = Path(folder) / "calls.txt"
    calls.write_text(str(int(calls.read_text()) + 1 if calls.exists() else 1))
    train_selfplay(folder, config)


class TinyTraining(Experiment):
    """Two tiny training runs; the report gathers their last losses and positions."""

    name = "tiny-training"
    title = "two tiny training runs"
    seed_paper = "none"

    def runs(self, scale: str, seed: int = 0) -> list[RunSpec]:
        return [
            RunSpec(
                f"run-{k}",
                "test_faults:counted_training",
                {"config": {**TINY_TRAINING, "seed": seed + k}},
            )
            for k in range(2)
        ]

    def report(self, out: Path, runs: list[RunSpec], scale: str, seed: int = 0) -> dict[str, Any]:
        last = {}
        for spec in runs:
            iterations = [
                r for r in read_metrics(out / "runs" / spec.name) if r["kind"] == "iteration"
            ]
            last[spec.name] = {
                "iterations": [r["iteration"] for r in iterations],
                "positions": [r["positions"] for r in iterations],
                "loss": iterations[-1]["loss"],
            }
        (out / "README.md").write_text(f"# tiny\n\n{json.dumps(last)}\n")
        return {"runs_seen": last}


def experiment_main(out: str, resume: bool) -> None:
    """What a ``pyaz-experiment`` process does, for :class:`TinyTraining`."""
    run_experiment(TinyTraining(), out, scale="short", resume=resume, write=lambda _: None)


def summary(out: Path) -> dict[str, Any]:
    data = json.loads((out / "summary.json").read_text())
    data.pop("seconds_this_call")
    return data


@pytest.fixture(scope="module")
def experiment_reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("experiment") / "tiny"
    subprocess.run(experiment_command(out), check=True, capture_output=True, timeout=300)
    return out


def experiment_command(out: Path, resume: bool = False) -> list[str]:
    code = (
        f"import sys; sys.path.insert(0, {str(TESTS)!r}); import test_faults; "
        f"test_faults.experiment_main({str(out)!r}, {resume})"
    )
    return [sys.executable, "-c", code]


# Run 0 plays 2 iterations of 4 games and writes 2 checkpoints; then run 1 does.
EXPERIMENT_FAULTS = {
    "self-play-game:10": [1, 2],  # in run 1's first self-play: run 0 finished, kept
    "after-replace/checkpoint.pt:3": [1, 2],  # run 1 killed with 1 iteration committed
    "experiment-run:1": [2, 1],  # run 0 trained, not marked DONE: called again (no games)
    "experiment-report": [1, 1],  # both done, the report written, summary.json not yet
}


@pytest.mark.parametrize("fault", list(EXPERIMENT_FAULTS))
def test_a_killed_experiment_resumes_without_redoing_finished_runs(
    tmp_path: Path, experiment_reference: Path, fault: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(TESTS))
    out = tmp_path / "tiny"
    killed(experiment_command(out), fault)
    assert not (out / "summary.json").exists()
    experiment_main(str(out), resume=True)
    calls = [int((out / "runs" / f"run-{k}" / "calls.txt").read_text()) for k in range(2)]
    assert calls == EXPERIMENT_FAULTS[fault]
    assert summary(out) == summary(experiment_reference)
    for k in range(2):
        run, expected = out / "runs" / f"run-{k}", experiment_reference / "runs" / f"run-{k}"
        assert (run / "DONE").exists() and run_finished(run)  # the unit, and its training run
        assert records(run) == records(expected)
        assert tensors_equal(
            load(run / "checkpoint.pt")["best"], load(expected / "checkpoint.pt")["best"]
        )
    assert not list(out.rglob("*.tmp"))


# --------------------------------------------------------------------------- disk errors


def one_line_error(capsys: pytest.CaptureFixture[str], out: Path) -> str:
    assert selfplay.main([*RUN, "--iterations", "1", "--out", str(out)]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


@pytest.mark.parametrize(
    ("code", "advice"),
    [
        (errno.ENOSPC, "free space on its disk"),
        (errno.EROFS, "make the run folder writable"),
        (errno.EACCES, "make the run folder writable"),
    ],
)
@pytest.mark.parametrize("failing", ["buffer-00001.npz", "metrics.jsonl"])
def test_a_write_failing_during_the_run_is_one_line_saying_what_to_do(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    code: int,
    advice: str,
    failing: str,
) -> None:
    """A disk that fills up, or a folder made read-only, in the middle of the run."""
    from pyaz.common import runlog

    replace, fsync = os.replace, os.fsync

    def refuse_replace(source: Any, target: Any) -> None:
        if Path(target).name == failing:
            raise OSError(code, os.strerror(code))
        replace(source, target)

    def refuse_append(fd: int) -> None:
        if Path(os.readlink(f"/proc/self/fd/{fd}")).name == failing:
            raise OSError(code, os.strerror(code))
        fsync(fd)

    if failing == "metrics.jsonl":
        if not Path("/proc/self/fd").is_dir():
            pytest.skip("no /proc to tell the files apart")
        monkeypatch.setattr(runlog.os, "fsync", refuse_append)
    monkeypatch.setattr(runlog.os, "replace", refuse_replace)
    out = tmp_path / "run"
    line = one_line_error(capsys, out)
    assert line.startswith(f"pyaz-selfplay: cannot write {out / failing} ({os.strerror(code)})")
    assert advice in line and line.endswith(f"continue with: pyaz-selfplay --out {out} --resume")
    assert not list(out.rglob("*.tmp")) and not (out / "checkpoint.pt").exists()


def test_a_full_disk_at_the_start_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import tempfile

    def full(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(tempfile, "TemporaryFile", full)
    line = one_line_error(capsys, tmp_path / "run")
    assert "cannot write in the run folder" in line and "No space left on device" in line
    assert "free space" in line


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_run_folder_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    out.mkdir()
    out.chmod(0o555)
    try:
        line = one_line_error(capsys, out)
    finally:
        out.chmod(0o755)
    assert "cannot write in the run folder" in line and "make it writable" in line
