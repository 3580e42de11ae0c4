"""The experiment runner: runs in their folders, finished runs marked and never run again,
several at once in worker processes, refusals and resumes."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest

from pyaz.cli import experiment as cli
from pyaz.common.run import FINISHED_FILE, PROGRESS_FILE, TrainingRun, run_finished
from pyaz.experiments import EXPERIMENTS, get_experiment
from pyaz.experiments.base import DONE_FILE, Experiment, RunSpec
from pyaz.experiments.runner import Progress, is_done, run_experiment, run_progress, run_share


def count_calls(folder: Path, value: int, fail_once: bool = False) -> None:
    """A run target: counts its calls in ``calls.txt``; can fail on its first call."""
    folder = Path(folder)
    calls = folder / "calls.txt"
    previous = int(calls.read_text()) if calls.exists() else 0
    calls.write_text(str(previous + 1))
    print(f"run with value {value}")
    if fail_once and previous == 0:
        raise KeyboardInterrupt
    (folder / "value.txt").write_text(str(value))


class Toy(Experiment):
    name = "toy"
    title = "a toy experiment"
    seed_paper = "none"

    def __init__(self, fail_once: bool = False) -> None:
        self.fail_once = fail_once

    def runs(self, scale: str, seed: int = 0) -> list[RunSpec]:
        count = 2 if scale == "short" else 4
        return [
            RunSpec(
                f"run-{k}",
                "test_experiment_runner:count_calls",
                {"value": k + seed, "fail_once": self.fail_once and k == 1},
                group=f"g{k % 2}",
            )
            for k in range(count)
        ]

    def report(self, out: Path, runs: list[RunSpec], scale: str, seed: int = 0) -> dict[str, Any]:
        values = [int((out / "runs" / r.name / "value.txt").read_text()) for r in runs]
        (out / "README.md").write_text(f"# toy\n\n{values}\n")
        return {"values": values}


@pytest.fixture(autouse=True)
def _importable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(Path(__file__).parent))


def test_runs_report_and_resume(tmp_path: Path) -> None:
    out = tmp_path / "toy"
    lines: list[str] = []
    summary = run_experiment(Toy(), out, scale="cpu", seed=10, write=lines.append)
    assert summary["values"] == [10, 11, 12, 13] and summary["runs"] == 4
    assert json.loads((out / "summary.json").read_text())["values"] == [10, 11, 12, 13]
    plan = json.loads((out / "experiment.json").read_text())
    assert plan["scale"] == "cpu" and [r["name"] for r in plan["runs"]] == [
        f"run-{k}" for k in range(4)
    ]
    assert "run with value 12" in (out / "runs" / "run-2" / "run.log").read_text()
    assert any("ETA" in line for line in lines)
    with pytest.raises(FileExistsError, match="--resume"):
        run_experiment(Toy(), out, scale="cpu", seed=10, write=lines.append)
    with pytest.raises(ValueError, match="scale"):
        run_experiment(Toy(), out, scale="short", seed=10, resume=True, write=lines.append)
    run_experiment(Toy(), out, scale="cpu", seed=10, resume=True, write=lines.append)
    for k in range(4):  # finished runs were not run again
        assert (out / "runs" / f"run-{k}" / "calls.txt").read_text() == "1"


def test_an_interrupted_experiment_resumes_only_the_unfinished_runs(tmp_path: Path) -> None:
    out = tmp_path / "toy"
    with pytest.raises(KeyboardInterrupt):
        run_experiment(Toy(fail_once=True), out, scale="short", write=lambda _: None)
    toy = Toy(fail_once=True)
    specs = toy.runs("short")
    assert is_done(out, specs[0]) and not is_done(out, specs[1])
    summary = run_experiment(toy, out, scale="short", resume=True, write=lambda _: None)
    assert summary["values"] == [0, 1]
    assert (out / "runs" / "run-0" / "calls.txt").read_text() == "1"
    assert (out / "runs" / "run-1" / "calls.txt").read_text() == "2"


def test_worker_processes_run_the_runs(tmp_path: Path) -> None:
    out = tmp_path / "toy"
    summary = run_experiment(Toy(), out, scale="cpu", workers=2, write=lambda _: None)
    assert summary["values"] == [0, 1, 2, 3]


def test_bad_input_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ValueError, match="workers"):
        run_experiment(Toy(), tmp_path / "x", workers=0)
    with pytest.raises(ValueError, match="scale"):
        run_experiment(Toy(), tmp_path / "x", scale="huge")
    with pytest.raises(ValueError, match="run name"):
        RunSpec("../escape", "m:f")
    with pytest.raises(ValueError, match="unknown experiment 'nope'"):
        get_experiment("nope")
    for args in (["nope", "--out", str(tmp_path / "y")], ["nope"]):  # the name first, then --out
        with pytest.raises(SystemExit) as exit_:
            cli.main(args)
        assert exit_.value.code == 2 and "unknown experiment 'nope'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["curriculum"])
    assert "--out is required" in capsys.readouterr().err


def test_every_registered_experiment_loads_and_plans_its_runs() -> None:
    for name in EXPERIMENTS:
        experiment = get_experiment(name)
        assert experiment.name == name and experiment.title
        for scale in ("short", "cpu", "full"):
            runs = experiment.runs(scale)
            assert runs and len({r.name for r in runs}) == len(runs)


def test_help_lists_the_experiments(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    text = capsys.readouterr().out
    for name in EXPERIMENTS:
        assert name in text


def test_repetitions_override_the_scales_and_are_part_of_the_plan(tmp_path: Path) -> None:
    curriculum = get_experiment("curriculum")
    three = len(curriculum.runs("cpu"))
    curriculum.repeat = 1
    assert curriculum.repetitions("cpu") == 1 and len(curriculum.runs("cpu")) * 3 == three
    curriculum.repeat = None
    with pytest.raises(ValueError, match="toy does not repeat its runs"):
        run_experiment(Toy(), tmp_path / "x", repetitions=2, write=lambda _: None)
    with pytest.raises(ValueError, match=r"repetitions must be in 1\.\.100, got 0"):
        run_experiment(get_experiment("losses"), tmp_path / "x", repetitions=0)
    out = tmp_path / "toy"
    run_experiment(Toy(), out, scale="short", write=lambda _: None)
    assert json.loads((out / "experiment.json").read_text())["repetitions"] == 1
    toy = Toy()
    toy.repeated = True
    with pytest.raises(ValueError, match="repetitions=1, not 2"):
        run_experiment(toy, out, scale="short", resume=True, repetitions=2, write=lambda _: None)


class _UnpicklableError(Exception):
    """An exception holding an object that cannot cross processes (as TorchScript's do)."""

    def __init__(self) -> None:
        super().__init__("compiling failed", lambda: None)


def fail_unpicklably(folder: Path) -> None:
    """A run target that fails with :class:`_UnpicklableError`."""
    raise _UnpicklableError


class Failing(Toy):
    def runs(self, scale: str, seed: int = 0) -> list[RunSpec]:
        return [RunSpec("bad", "test_experiment_runner:fail_unpicklably", {})]


def test_a_worker_error_that_cannot_be_pickled_still_names_the_run(tmp_path: Path) -> None:
    out = tmp_path / "failing"
    with pytest.raises(RuntimeError) as caught:
        run_experiment(Failing(), out, scale="short", workers=2, write=lambda line: None)
    message = str(caught.value)
    assert message.startswith("run bad failed: _UnpicklableError:")
    assert "compiling failed" in message
    assert "traceback in" in message and "pickle" not in message
    log = (out / "runs" / "bad" / "run.log").read_text()
    assert "Traceback" in log and "fail_unpicklably" in log


class Sleeper(TrainingRun):
    """A training run of ``steps`` steps of 0.15 s each, its state the step alone."""

    NAME = "sleeper"

    def __init__(self, folder: Path, steps: int) -> None:
        self.steps = steps
        super().__init__(folder, {"steps": steps}, progress=False)

    def total_steps(self) -> int:
        return self.steps

    def run_step(self, step: int) -> list[dict[str, Any]]:
        time.sleep(0.15)
        return [{"kind": "sleep"}]

    def state_bytes(self) -> bytes:
        return str(self.step).encode()

    def restore(self, path: Path) -> int:
        return int(path.read_bytes())


def sleeper(folder: Path, steps: int) -> None:
    Sleeper(Path(folder), steps).run()


class Watched(Experiment):
    name = "watched"
    title = "one run of 6 steps"
    seed_paper = "none"

    def runs(self, scale: str, seed: int = 0) -> list[RunSpec]:
        return [RunSpec("slow", "test_experiment_runner:sleeper", {"steps": 6})]

    def report(self, out: Path, runs: list[RunSpec], scale: str, seed: int = 0) -> dict[str, Any]:
        return {}


def test_each_run_shows_its_step_and_eta_while_it_plays(tmp_path: Path) -> None:
    lines: list[str] = []
    run_experiment(Watched(), tmp_path / "w", write=lines.append, watch_every=0.05)
    shown = [re.fullmatch(r"slow: step (\d)/6, ETA (\d)s", line) for line in lines]
    steps = [int(match[1]) for match in shown if match]
    assert len(steps) >= 3 and steps == sorted(set(steps)), lines  # each step once, in order
    etas = [int(match[2]) for match in shown if match]
    assert all(eta <= 2 for eta in etas)  # 0.15 s a step, at most 5 steps left
    saved = json.loads((tmp_path / "w" / "runs" / "slow" / PROGRESS_FILE).read_text())
    assert (saved["step"], saved["total"], saved["first"]) == (6, 6, 0)


def test_a_unit_is_marked_done_apart_from_the_training_run_it_holds(tmp_path: Path) -> None:
    """The runner's ``DONE`` marks a unit of the experiment (its target returned), the run's
    ``FINISHED`` a training run (its last step committed): a unit of one run gets both, and
    ``DONE`` lists ``FINISHED`` among the files its results need."""
    out = tmp_path / "w"
    run_experiment(Watched(), out, write=lambda _: None)
    folder = out / "runs" / "slow"
    assert run_finished(folder) and is_done(out, Watched().runs("full")[0])
    assert json.loads((folder / FINISHED_FILE).read_text()) == {"method": "sleeper", "step": 6}
    files = json.loads((folder / DONE_FILE).read_text())["files"]
    assert FINISHED_FILE in files and DONE_FILE not in files


def test_run_progress_sums_side_by_side_loops_and_their_shares_left(tmp_path: Path) -> None:
    """Side-by-side loops take turns in one process: a minute in, they gained half a run each
    and have 0.5 and 0.25 left, so 45 s are left (not the slower loop's pace alone)."""
    assert run_progress(tmp_path) is None
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a = {"step": 2, "total": 4, "first": 0, "seconds": 60.0}
    b = {"step": 3, "total": 4, "first": 1, "seconds": 60.0}
    (tmp_path / "a" / PROGRESS_FILE).write_text(json.dumps(a))
    (tmp_path / "b" / PROGRESS_FILE).write_text(json.dumps(b))
    assert run_progress(tmp_path) == ((5, 8), "step 5/8, ETA 45s")
    (tmp_path / "b" / PROGRESS_FILE).write_text(json.dumps({**b, "first": 3}))
    assert run_progress(tmp_path) == ((5, 8), "step 5/8, ETA 1m30s")  # b gained nothing yet
    (tmp_path / "a" / PROGRESS_FILE).write_text(json.dumps({**a, "first": 2}))
    assert run_progress(tmp_path) == ((5, 8), "step 5/8, ETA ?")  # no step played here yet
    (tmp_path / "b" / PROGRESS_FILE).write_text("{damaged")
    assert run_progress(tmp_path) == ((2, 4), "step 2/4, ETA ?")
    (tmp_path / "a" / PROGRESS_FILE).write_text(json.dumps(a))
    assert run_progress(tmp_path) == ((2, 4), "step 2/4, ETA 1m00s")


def test_the_experiment_eta_counts_only_the_share_of_each_run_left(tmp_path: Path) -> None:
    """Two runs, one resumed at nine tenths done: when it ends 60 s later, a tenth of a run
    took 60 s, so the other run, a fifth done, has 8 minutes left (not 40 s at the pace of
    a whole run in 60 s, nor a whole run's time)."""
    resumed, other = RunSpec("resumed", "m:f"), RunSpec("other", "m:f")
    for name, fraction in (("resumed", 0.9), ("other", 0.2)):
        (tmp_path / name).mkdir()
        saved = {"step": 1, "total": 10, "first": 0, "seconds": 1.0, "fraction": fraction}
        (tmp_path / name / PROGRESS_FILE).write_text(json.dumps(saved))
    assert run_share(tmp_path / "resumed") == pytest.approx(0.9)
    assert run_share(tmp_path / "nothing") == 0.0
    lines: list[str] = []
    progress = Progress(
        [resumed, other], 2, lines.append, lambda spec: run_share(tmp_path / spec.name)
    )
    progress.finished(resumed, 60.0)
    progress.report([resumed], [other], 2)
    assert lines == ["resumed: finished; runs: 1 done, 1 running, 0 left; ETA 8m"]


def test_a_run_on_a_time_budget_gets_the_eta_of_its_budget_not_of_its_steps(
    tmp_path: Path,
) -> None:
    """A 12-minute run of at most 300 iterations: 3 minutes and 3 iterations in, a quarter of
    its budget is spent, so 9 minutes are left (at the steps' pace it would be 4h57m)."""
    budgeted = {"step": 3, "total": 300, "first": 0, "seconds": 180.0}
    (tmp_path / PROGRESS_FILE).write_text(
        json.dumps({**budgeted, "fraction": 0.25, "first_fraction": 0.0})
    )
    assert run_progress(tmp_path) == ((3, 300), "step 3/300, ETA 9m00s")
    (tmp_path / PROGRESS_FILE).write_text(json.dumps(budgeted))  # an older pyaz's file
    assert run_progress(tmp_path) == ((3, 300), "step 3/300, ETA 4h57m")
