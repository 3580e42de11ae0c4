"""The run framework (pyaz.common.run.TrainingRun) under the ZetaGo, AlphaGomoku, AlphaZero
(methods/alphazero/loop.py) and curling loops.

A run killed (SIGKILL, ``PYAZ_FAULT``) at a stage or around a file write, then resumed from its
folder alone (``from_folder``), ends as the uninterrupted run of the same seed: the same metrics
records (timings aside), the same checkpoint (networks, optimisers, pool, buffer, random
states). AlphaGomoku's phase 2 depends on the mentor's time limit, so with it the test checks
the steps instead: each once, none lost. Also: a differing setting is a ValueError naming it,
a second process is refused, config.json is never overwritten by another run, a damaged last
metrics line goes with a note, old folders resume or say what to do. Every loop commits the one
checkpoint layout (side files, then ``checkpoint.pt`` naming them, the others removed) and marks
a finished run (``FINISHED``); a folder written before (no mark, a stale buffer, the empty
``FINISHED`` of ZetaGo's runs) resumes and counts as finished as it did.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest
import torch

from pyaz.common.faults import FAULT_ENV
from pyaz.common.folder_lock import FolderInUseError
from pyaz.common.run import FINISHED_FILE, TrainingRun, run_finished
from pyaz.common.runlog import read_metrics
from pyaz.methods.alphagomoku.pipeline import AlphaGomokuConfig, AlphaGomokuRun
from pyaz.methods.alphazero.config import TrainConfig
from pyaz.methods.alphazero.loop import TrainingLoop
from pyaz.methods.kr_dl_uct.config import CurlingConfig
from pyaz.methods.kr_dl_uct.loop import CurlingTrainingLoop
from pyaz.methods.reinforce.loop import ReinforceConfig, ReinforceTrainer
from pyaz.methods.reinforce.net import SmallConfig, SmallPolicyNet

# 4 iterations of 2 games on 5x5, a snapshot every 2 games, a checkpoint every 2 iterations.
ZETAGO = {"iterations": 4, "games": 2, "minibatch": 8, "checkpoint_every": 2, "snapshot_every": 2}
# 9x9, 200 basic positions, 2 imitation rounds of 2 mentor games (no match: both rounds run),
# self-play iterations of 4 games of 8 simulations, a 2-game gate.
ALPHAGOMOKU: dict[str, Any] = {
    "size": 9, "basic_positions": 200, "basic_epochs": 1, "mentor_ms": 5.0,
    "imitation_games": 2, "imitation_rounds": 2, "imitation_epochs": 1,
    "imitation_eval_games": 0, "iterations": 2, "episodes": 4, "simulations": 8,
    "parallel_games": 4, "epochs": 1, "buffer_iterations": 2, "gate_games": 2,
    "eval_mentor_ms": 5.0, "eval_simulations": 8, "batch_size": 32,
}  # fmt: skip
SELFPLAY_ONLY = {**ALPHAGOMOKU, "curriculum": False, "iterations": 3}
# Connect Four 4x4, 2 iterations of 4 games, a 2-game gate (u = 0) and a 2-game evaluation.
ALPHAZERO: dict[str, Any] = {
    "game": "connect_four", "game_options": {"width": 4, "height": 4}, "net": "tiny",
    "episodes": 4, "simulations": 8, "epochs": 1, "parallel_games": 4, "gating": "score",
    "arena_games": 2, "update_threshold": 0.0, "eval_games": 2, "eval_opponent": "random",
    "threads": 1, "seed": 3, "iterations": 2, "length_probe_games": 20,
}  # fmt: skip
# One-end games: a supervised start (step 0) of 2 games, then 2 iterations of 2 games.
CURLING: dict[str, Any] = {
    "ends": 1, "games": 2, "simulations": 6, "channels": 4, "blocks": 1,
    "supervised_games": 2, "supervised_steps": 4, "steps": 4, "batch_size": 16,
    "eval_games": 2, "workers": 1, "iterations": 2,
}  # fmt: skip
RUNS: dict[str, tuple[type[TrainingRun], dict[str, Any]]] = {
    "zetago": (ReinforceTrainer, ZETAGO),
    "alphagomoku": (AlphaGomokuRun, SELFPLAY_ONLY),
    "curriculum": (AlphaGomokuRun, ALPHAGOMOKU),
    "alphazero": (TrainingLoop, ALPHAZERO),
    "curling": (CurlingTrainingLoop, CURLING),
}
TIMINGS = {"wall_time", "elapsed_s", "time_selfplay", "time_train", "time_arena"}
TIMINGS |= {"games_per_s", "shots_per_s"}


def start(kind: str, folder: Path, **changes: Any) -> Any:
    """The run ``kind`` (a key of RUNS) in ``folder``, as a caller that knows its settings
    starts it (resuming what the folder holds)."""
    torch.set_num_threads(1)
    resume = (folder / "checkpoint.pt").exists()
    if kind == "alphazero":
        return TrainingLoop(TrainConfig(**{**ALPHAZERO, **changes}), folder, resume, False)
    if kind == "curling":
        config = CurlingConfig(**{**CURLING, **changes})
        return CurlingTrainingLoop(config, folder, resume, progress=False)
    if kind == "zetago":
        torch.manual_seed(0)
        net = SmallPolicyNet(SmallConfig(filters=4, layers=2))
        return ReinforceTrainer(net, ReinforceConfig(**{**ZETAGO, **changes}), folder)
    return AlphaGomokuRun(AlphaGomokuConfig(**{**RUNS[kind][1], **changes}), folder)


def process(kind: str, folder: Path, fault: str | None = None) -> subprocess.CompletedProcess[str]:
    """The run in a process of its own (this file as a script), ``fault`` armed."""
    env = {k: v for k, v in os.environ.items() if k != FAULT_ENV}
    if fault is not None:
        env[FAULT_ENV] = fault
    command = [sys.executable, __file__, kind, str(folder)]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)


def records(folder: Path) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k not in TIMINGS} for r in read_metrics(folder)]


def checkpoint(folder: Path) -> dict[str, Any]:
    saved = torch.load(folder / "checkpoint.pt", weights_only=True)
    saved.pop("elapsed", None)
    saved.get("counters", {}).pop("elapsed_s", None)
    if "done" in saved:
        saved["done"].pop("times")
    return saved


def same(a: Any, b: Any) -> bool:
    """Nested dicts/lists of tensors and plain values, equal exactly."""
    if isinstance(a, torch.Tensor):
        return isinstance(b, torch.Tensor) and a.dtype == b.dtype and torch.equal(a, b)
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The uninterrupted runs, each in a process of its own."""
    folders = {}
    for kind in ("zetago", "alphagomoku", "alphazero", "curling"):
        folders[kind] = tmp_path_factory.mktemp(kind) / "run"
        done = process(kind, folders[kind])
        assert done.returncode == 0, done.stderr[-2000:]
    return folders


# (the run, the fault, the step committed when it strikes: None for no checkpoint yet)
FAULTS = [
    ("zetago", "train-epoch:1", 0),  # iteration 1's gradient steps done
    ("zetago", "step:2", 0),  # iteration 2 done, its record not logged
    ("zetago", "self-play:3", 2),
    ("zetago", "after-append/metrics.jsonl:3", 2),  # iteration 3's record logged
    ("zetago", "before-replace/checkpoint.pt:1", None),  # before the commit of step 0
    ("zetago", "before-replace/checkpoint.pt:2", 0),  # net.pt is iteration 2's already
    ("zetago", "after-replace/checkpoint.pt:2", 2),
    ("zetago", "before-replace/net.pt:3", 2),
    ("alphagomoku", "train-epoch:1", 0),
    ("alphagomoku", "self-play:2", 1),
    ("alphagomoku", "gate:3", 2),
    ("alphagomoku", "after-append/metrics.jsonl:2", 1),
    ("alphagomoku", "before-replace/checkpoint.pt:3", 1),  # pair.pt is step 2's already
    ("alphagomoku", "before-replace/checkpoint.pt:1", None),
    ("alphazero", "step:1", None),  # iteration 1 done, nothing committed (no step 0)
    ("alphazero", "gate:2", 1),
    ("alphazero", "before-replace/checkpoint.pt:2", 1),  # best.torchscript.pt is iteration 2's
    ("curling", "step:1", None),  # the supervised start done, its records not logged
    ("curling", "after-append/metrics.jsonl:2", None),  # step 0's records logged, not committed
    ("curling", "before-replace/checkpoint.pt:1", None),  # nets/iter-00000.pt written already
    ("curling", "self-play:1", 0),
    ("curling", "train-epoch:2", 1),
    ("curling", "after-replace/checkpoint.pt:2", 1),  # iteration 1 committed
    ("zetago", "before-replace/FINISHED", 4),  # the last step committed, not marked finished
    ("alphazero", "after-replace/checkpoint.pt:2", 2),  # the last; buffer-00001.npz not removed
    ("curling", "before-replace/FINISHED", 2),
]


def committed_step(kind: str, saved: dict[str, Any]) -> int:
    """The step of a checkpoint of the run ``kind``."""
    if kind in ("alphazero", "curling"):
        return int(saved["counters"]["iteration"])
    return int(saved["iteration" if kind == "zetago" else "step"])


@pytest.mark.parametrize(
    ("kind", "fault", "committed"), FAULTS, ids=[f"{k}-{f}" for k, f, _ in FAULTS]
)
def test_a_run_killed_anywhere_resumes_from_its_folder_to_the_uninterrupted_run(
    tmp_path: Path, reference: dict[str, Path], kind: str, fault: str, committed: int | None
) -> None:
    folder = tmp_path / "run"
    done = process(kind, folder, fault)
    assert done.returncode == -signal.SIGKILL, done.stderr[-2000:]
    if committed is None:
        assert not (folder / "checkpoint.pt").exists()
    else:
        assert committed_step(kind, checkpoint(folder)) == committed  # struck where meant to
    torch.set_num_threads(1)  # as the processes: sums in one order
    RUNS[kind][0].from_folder(folder).run()  # only the folder: its saved settings
    expected = reference[kind]
    assert records(folder) == records(expected)  # each step once, same losses and games
    assert same(checkpoint(folder), checkpoint(expected))
    assert not list(folder.rglob("*.tmp"))
    assert json.loads((folder / "config.json").read_text()) == json.loads(
        (expected / "config.json").read_text()
    )
    assert run_finished(folder) and run_finished(expected)
    if kind in ("alphazero", "curling"):  # the one buffer, the one that the checkpoint names
        assert [p.name for p in folder.glob("buffer-*.npz")] == [checkpoint(folder)["buffer"]]


MORE = {"zetago": 5, "alphazero": 3}
"""The iterations that the old-folder test resumes a finished run to (the others: none)."""


@pytest.mark.parametrize("kind", ["zetago", "alphagomoku", "alphazero", "curling"])
def test_a_finished_folder_of_an_older_pyaz_counts_as_finished_and_resumes(
    tmp_path: Path, reference: dict[str, Path], kind: str
) -> None:
    """A finished run folder as pyaz wrote it before the mark: the same files (checkpoint.pt
    and the buffer-NNNNN.npz it names have not changed) but no FINISHED, and the buffer that a
    kill between a commit and the removal of the one before left. Opened again it plays
    nothing, keeps the buffer that its checkpoint names and gets its mark; given more
    iterations it loses the mark, resumes from its checkpoint and gets it back."""
    folder = tmp_path / "run"
    shutil.copytree(reference[kind], folder)
    (folder / FINISHED_FILE).unlink()
    saved, before = checkpoint(folder), records(folder)
    if "buffer" in saved and isinstance(saved["buffer"], str):
        shutil.copy(folder / saved["buffer"], folder / "buffer-00001.npz")
    assert not run_finished(folder)
    torch.set_num_threads(1)
    assert RUNS[kind][0].from_folder(folder).run() == []  # nothing played again
    assert run_finished(folder) and records(folder) == before
    assert same(checkpoint(folder), saved)
    assert sorted(p.name for p in folder.glob("buffer-*.npz")) == (
        [saved["buffer"]] if kind in ("alphazero", "curling") else []
    )
    if kind not in MORE:
        return
    longer = RUNS[kind][0].from_folder(folder, iterations=MORE[kind])
    assert not run_finished(folder)  # steps left: not finished until they are played
    longer.run()
    played = [r["iteration"] for r in read_metrics(folder) if r["kind"] == "iteration"]
    assert played == list(range(1, MORE[kind] + 1))
    marker = json.loads((folder / FINISHED_FILE).read_text())
    assert marker == {"method": RUNS[kind][0].NAME, "step": MORE[kind]}


@pytest.mark.parametrize("fault", ["train-epoch:5", "after-append/metrics.jsonl:3"])
def test_a_curriculum_run_killed_in_imitation_counts_each_step_once(
    tmp_path: Path, fault: str
) -> None:
    """Phase 2 is not deterministic (the mentor's time limit): the killed round is played again,
    the steps are those of an uninterrupted run, each logged once."""
    folder = tmp_path / "run"
    assert process("curriculum", folder, fault).returncode == -signal.SIGKILL
    assert checkpoint(folder)["step"] == 2  # phase 1 and round 1 committed
    AlphaGomokuRun.from_folder(folder).run()
    got = read_metrics(folder)
    assert [r["kind"] for r in got] == ["basic", "imitation", "imitation", "iteration", "iteration"]
    assert [r["step"] for r in got] == [1, 2, 3, 4, 5]
    assert [r.get("round") for r in got[1:3]] == [1, 2]
    assert [r.get("iteration") for r in got[3:]] == [1, 2]
    saved = checkpoint(folder)
    assert saved["step"] == 5 and saved["done"]["phase"] == 3
    rounds = saved["mentor"]["number"].unique().tolist()
    assert rounds == [1, 2]  # both rounds' mentor games kept for training, once each
    progress = json.loads((folder / "progress.json").read_text())
    assert progress["round"] == 2 and progress["iteration"] == 2 and progress["step"] == 5


def test_resume_from_the_folder_keeps_the_settings_and_names_a_changed_one(
    tmp_path: Path,
) -> None:
    zetago, gomoku = tmp_path / "zetago", tmp_path / "gomoku"
    start("zetago", zetago, iterations=2).run()
    start("alphagomoku", gomoku, iterations=1).run()
    with pytest.raises(ValueError, match=r"minibatch 8 -> 16 \(only iterations, checkpoint_every"):
        ReinforceTrainer.from_folder(zetago, minibatch=16)
    with pytest.raises(ValueError, match="the run has no setting bogus"):
        ReinforceTrainer.from_folder(zetago, bogus=1)
    with pytest.raises(ValueError, match="episodes 4 -> 8"):
        AlphaGomokuRun.from_folder(gomoku, episodes=8)
    with pytest.raises(ValueError, match="games 2 -> 4"):
        start("zetago", zetago, iterations=3, games=4)  # a caller with other settings
    resumed = ReinforceTrainer.from_folder(zetago, iterations=3)  # a longer run
    assert resumed.iteration == 2 and resumed.config.minibatch == 8
    assert [r["iteration"] for r in resumed.run()] == [3]
    saved = json.loads((zetago / "config.json").read_text())
    assert saved["iterations"] == 3 and saved["minibatch"] == 8
    assert saved["network"] == {"kind": "small", "config": asdict(SmallConfig(filters=4, layers=2))}
    assert saved["method"] == "zetago"
    run = AlphaGomokuRun.from_folder(gomoku, iterations=2)
    assert run.config.episodes == 4 and run.done["iteration"] == 1
    run.run()
    assert [r["iteration"] for r in read_metrics(gomoku)] == [1, 2]
    with pytest.raises(ValueError, match="holds no run to resume"):
        ReinforceTrainer.from_folder(tmp_path / "empty")


def test_a_second_process_on_the_folder_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    held = start("zetago", folder, iterations=1)
    done = process("zetago", folder)
    assert done.returncode == 1 and "FolderInUseError" in done.stderr
    assert f"{folder} is in use by another training run (process {os.getpid()})" in done.stderr
    with pytest.raises(FolderInUseError):
        ReinforceTrainer.from_folder(folder)  # in this process too
    held.run()  # releases the folder
    start("zetago", folder, iterations=2).run()
    assert [r["iteration"] for r in read_metrics(folder)] == [1, 2]


def test_config_json_is_never_overwritten_by_another_run(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    start("zetago", folder, iterations=1).run()
    saved = (folder / "config.json").read_bytes()
    with pytest.raises(FileExistsError, match="holds a run already"):
        ReinforceTrainer(SmallPolicyNet(), ReinforceConfig(iterations=1), folder, resume=False)
    with pytest.raises(ValueError, match="minibatch 8 -> 256"):
        ReinforceTrainer(
            SmallPolicyNet(SmallConfig(filters=4, layers=2)), ReinforceConfig(), folder
        )
    (folder / "checkpoint.pt").unlink()  # a run killed before it committed anything
    with pytest.raises(ValueError, match="games 2 -> 32"):
        ReinforceTrainer(SmallPolicyNet(), ReinforceConfig(iterations=1), folder, resume=False)
    with pytest.raises(ValueError, match="method 'zetago' -> 'alphagomoku'"):  # another loop
        start("alphagomoku", folder)
    assert (folder / "config.json").read_bytes() == saved
    start("zetago", folder, iterations=1).run()  # the same run starts again


def test_a_damaged_last_metrics_line_is_dropped_with_a_note(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "run"
    start("zetago", folder, iterations=2, checkpoint_every=1).run()
    with (folder / "metrics.jsonl").open("ab") as metrics:
        metrics.write(b'{"kind": "iteration", "iteration": 3, "loss": 0.2')  # killed mid-write
    capsys.readouterr()
    ReinforceTrainer.from_folder(folder, iterations=3).run()
    note = capsys.readouterr().err
    assert "dropped line 3, a 'iteration' record of iteration 3 cut short" in note
    assert [r["iteration"] for r in read_metrics(folder)] == [1, 2, 3]


def test_old_folders_resume_or_say_what_to_do(tmp_path: Path) -> None:
    folder = tmp_path / "zetago"
    start("zetago", folder, iterations=1).run()
    config = json.loads((folder / "config.json").read_text())
    network = config.pop("network")
    old = {"reinforce": config, "network": network}  # as pyaz wrote it before the framework
    (folder / "config.json").write_text(json.dumps(old))
    with pytest.raises(ValueError, match="minibatch 8 -> 16"):
        ReinforceTrainer.from_folder(folder, minibatch=16)
    ReinforceTrainer.from_folder(folder, iterations=2).run()
    assert [r["iteration"] for r in read_metrics(folder)] == [1, 2]
    assert json.loads((folder / "config.json").read_text())["minibatch"] == 8
    gomoku = tmp_path / "gomoku"
    gomoku.mkdir()
    (gomoku / "progress.json").write_text('{"phase": 3, "round": 1, "iteration": 1}')
    with pytest.raises(ValueError, match=r"an older pyaz .* start the run again in another folder"):
        start("alphagomoku", gomoku)
    damaged = tmp_path / "damaged"
    damaged.mkdir()
    (damaged / "checkpoint.pt").write_bytes(b"not a checkpoint")
    message = f"{damaged / 'checkpoint.pt'} is not a ZetaGo training checkpoint"
    with pytest.raises(ValueError, match=re.escape(message)):
        start("zetago", damaged)
    assert sorted(p.name for p in damaged.iterdir()) == [".lock", "checkpoint.pt"]


class Counter(TrainingRun):
    """The base alone, without torch: step k adds k to a total; the state is JSON."""

    RESUMABLE = ("steps",)
    NAME = "counter"

    def __init__(self, folder: Path, steps: int = 4, every: int = 1, resume: bool | None = None):
        self.steps, self.every, self.total = steps, every, 0
        super().__init__(folder, {"steps": steps, "every": every}, resume, progress=False)

    @classmethod
    def from_settings(
        cls, folder: Path, settings: dict[str, Any], progress: bool, lock: Any
    ) -> Counter:
        return cls(folder, settings["steps"], settings["every"], resume=True)

    def total_steps(self) -> int:
        return self.steps

    def should_checkpoint(self) -> bool:
        return self.step % self.every == 0

    def run_step(self, step: int) -> list[dict[str, Any]]:
        self.total += step
        return [{"kind": "count", "total": self.total}]

    def state_bytes(self) -> bytes:
        return json.dumps({"step": self.step, "total": self.total}).encode()

    def restore(self, path: Path) -> int:
        saved = json.loads(path.read_bytes())
        self.total = saved["total"]
        return int(saved["step"])


class LateCounter(Counter):
    INITIAL_CHECKPOINT = False


def test_the_base_tags_records_commits_and_resumes_without_torch(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    run = Counter(folder, steps=4, every=2)
    assert json.loads((folder / "checkpoint.pt").read_bytes()) == {"step": 0, "total": 0}
    assert run.advance() == [{"kind": "count", "iteration": 1, "total": 1}]
    run.advance()
    run.advance()  # step 3 logged, not committed (every 2)
    run.close()  # as if killed here
    assert [r["iteration"] for r in read_metrics(folder)] == [1, 2, 3]
    resumed = Counter.from_folder(folder, steps=5)
    assert (resumed.step, resumed.total) == (2, 3)  # step 3's record dropped
    assert [r["total"] for r in resumed.run()] == [6, 10, 15]  # 5 is the last: committed
    assert [r["total"] for r in read_metrics(folder)] == [1, 3, 6, 10, 15]
    assert json.loads((folder / "checkpoint.pt").read_bytes()) == {"step": 5, "total": 15}
    with pytest.raises(ValueError, match="every 2 -> 3"):
        Counter.from_folder(folder, every=3)
    with pytest.raises(ValueError, match="holds a counter run, not a zetago one"):
        ReinforceTrainer.from_folder(folder)
    LateCounter(tmp_path / "late").close()
    assert not (tmp_path / "late" / "checkpoint.pt").exists()


def test_a_run_is_marked_finished_when_its_last_step_is_committed(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    run = Counter(folder, steps=2)
    run.advance()
    assert not run_finished(folder)
    run.advance()  # the last step: committed, then marked
    assert json.loads((folder / FINISHED_FILE).read_text()) == {"method": "counter", "step": 2}
    assert run_finished(folder) and run.advance() is None
    run.close()
    longer = Counter.from_folder(folder, steps=3)  # a longer run: not finished when it opens
    assert not run_finished(folder)
    longer.close()  # as if killed: the folder still says so
    assert not run_finished(folder)
    assert [r["total"] for r in Counter.from_folder(folder).run()] == [6]
    assert json.loads((folder / FINISHED_FILE).read_text()) == {"method": "counter", "step": 3}
    (folder / FINISHED_FILE).unlink()  # finished before the mark existed, or killed before it
    assert Counter.from_folder(folder).run() == [] and run_finished(folder)
    (folder / FINISHED_FILE).write_text("")  # the empty mark of ZetaGo's runs before
    assert run_finished(folder) and not run_finished(tmp_path / "elsewhere")


class Parts(Counter):
    """A counter that commits its total as a side file, ``part-NNNNN.json``, which the
    checkpoint names, and the step's record as ``history/step-NNNNN.json``, which stays."""

    NAMED_FILES = ("part-*.json",)

    def checkpoint_files(self) -> dict[str, bytes]:
        part = json.dumps({"total": self.total}).encode()
        return {f"part-{self.step:05d}.json": part, f"history/step-{self.step:05d}.json": part}

    def state_bytes(self) -> bytes:
        return json.dumps({"step": self.step, "part": f"part-{self.step:05d}.json"}).encode()

    def restore(self, path: Path) -> int:
        saved = json.loads(path.read_bytes())
        self.total = json.loads(self.read_named_file(saved["part"], "part"))["total"]
        return int(saved["step"])


def test_side_files_are_committed_before_the_checkpoint_that_names_them(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    Parts(folder, steps=3).run()
    assert sorted(p.name for p in folder.glob("part-*.json")) == ["part-00003.json"]
    assert len(list((folder / "history").iterdir())) == 4  # steps 0 to 3: the run's history
    (folder / "part-00004.json").write_text('{"total": 99}')  # a kill before the commit
    (folder / "part-00002.json").write_text('{"total": 3}')  # a kill before the removal
    resumed = Parts.from_folder(folder, steps=4)
    assert resumed.total == 6
    assert sorted(p.name for p in folder.glob("part-*.json")) == ["part-00003.json"]
    assert [r["total"] for r in resumed.run()] == [10]
    assert sorted(p.name for p in folder.glob("part-*.json")) == ["part-00004.json"]
    for name, error in [
        ("../part-00004.json", "names '../part-00004.json', no file that a counter run writes"),
        ("history/step-00004.json", "names 'history/step-00004.json', no file"),
        ("part-00005.json", "No such file or directory"),
    ]:
        (folder / "checkpoint.pt").write_text(json.dumps({"step": 4, "part": name}))
        with pytest.raises((ValueError, OSError), match=re.escape(error)):
            Parts.from_folder(folder)
        assert (folder / "part-00004.json").exists()  # nothing removed by a failed resume
    os.mkfifo(folder / "part-00005.json")
    with pytest.raises(ValueError, match="is not a regular file, so no part pyaz wrote"):
        Parts.from_folder(folder)  # refused, not opened: nothing hangs


class Prelude(Counter):
    """A counter whose step 0 is work of its own: it starts the total at 100."""

    INITIAL_CHECKPOINT = False

    def start(self) -> list[dict[str, Any]]:
        self.total = 100
        return [{"kind": "start", "total": self.total}]


def test_step_zero_work_is_logged_at_step_0_committed_and_not_redone(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    run = Prelude(folder, steps=3)
    assert not (folder / "checkpoint.pt").exists()  # nothing until the first advance
    assert run.advance() == [
        {"kind": "start", "iteration": 0, "total": 100},
        {"kind": "count", "iteration": 1, "total": 101},
    ]
    run.close()
    resumed = Prelude.from_folder(folder)
    assert (resumed.step, resumed.total) == (1, 101)
    assert [r["total"] for r in resumed.run()] == [103, 106]  # no second start
    assert [(r["kind"], r["iteration"]) for r in read_metrics(folder)] == [
        ("start", 0), ("count", 1), ("count", 2), ("count", 3),
    ]  # fmt: skip


def main() -> None:
    """``python test_run_framework.py KIND FOLDER``: the run KIND in FOLDER (resuming)."""
    start(sys.argv[1], Path(sys.argv[2])).run()


if __name__ == "__main__":
    main()
