"""Running an experiment: every run in its own folder (``DIR/runs/NAME``), several at once in
worker processes, skipping the finished ones on ``--resume``, then the report.

The experiment's folder holds ``experiment.json`` (what was asked for: name, scale, seed, the
planned runs), ``runs/`` (one ordinary run folder per run, each with a ``run.log``
of what the run printed and a ``DONE`` file once it finished), and what the report writes
(``summary.json``, ``README.md``, figures). An interrupted experiment (Ctrl-C, a kill) resumes
with ``resume=True``: finished runs are not run again, unfinished ones continue from their own
checkpoints, and nothing is counted twice.
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import asdict
from pathlib import Path
from typing import Any, TextIO

from pyaz.common.faults import fault_point
from pyaz.common.runlog import atomic_write_bytes, write_json_atomic
from pyaz.experiments.base import (
    DONE_FILE,
    SCALES,
    Experiment,
    RunSpec,
    resolve_target,
    run_folder,
)

__all__ = ["EXPERIMENT_FILE", "Progress", "execute_run", "is_done", "run_experiment"]

EXPERIMENT_FILE = "experiment.json"


def is_done(out: Path, spec: RunSpec) -> bool:
    """Whether the run has finished (its ``DONE`` file exists)."""
    return (run_folder(out, spec) / DONE_FILE).exists()


@contextlib.contextmanager
def _output_to(path: Path) -> Iterator[None]:
    """Sends this process's stdout and stderr to ``path`` (appended) for the block."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8", buffering=1) as log:
        saved: tuple[TextIO, TextIO] = (sys.stdout, sys.stderr)
        sys.stdout = sys.stderr = log
        try:
            yield
        finally:
            sys.stdout, sys.stderr = saved


def execute_run(out: str, spec: RunSpec) -> float:
    """Runs one run in its folder (its output into ``run.log``) and marks it finished; the
    seconds it took. Called in a worker process or in the main one."""
    folder = run_folder(Path(out), spec)
    folder.mkdir(parents=True, exist_ok=True)
    target = resolve_target(spec.target)
    began = time.perf_counter()
    with _output_to(folder / "run.log"):
        target(folder, **spec.kwargs)
    seconds = time.perf_counter() - began
    fault_point("experiment-run")
    atomic_write_bytes(folder / DONE_FILE, f"{seconds:.1f}\n".encode())
    return seconds


class Progress:
    """One line per change: runs done / running / left and the estimated time to go."""

    def __init__(self, total_cost: float, workers: int, write: Callable[[str], object]) -> None:
        self.total_cost = total_cost
        self.workers = workers
        self.write = write
        self.done_cost = 0.0
        self.seconds = 0.0
        self.done = 0

    def finished(self, spec: RunSpec, seconds: float) -> None:
        self.done += 1
        self.done_cost += spec.cost
        self.seconds += seconds

    def report(self, finished: list[RunSpec], remaining: list[RunSpec], slots: int) -> None:
        """The line after ``finished`` ended, ``remaining`` still to finish on ``slots``."""
        running = min(slots, len(remaining))
        left_cost = sum(spec.cost for spec in remaining)
        self.write(
            f"{', '.join(spec.name for spec in finished)}: finished; "
            + self.line(self.done, running, len(remaining) - running, left_cost)
        )

    def line(self, done: int, running: int, left: int, remaining_cost: float) -> str:
        eta = "?"
        if self.done_cost > 0:
            per_cost = self.seconds / self.done_cost
            eta = _duration(per_cost * remaining_cost / max(1, min(self.workers, running + left)))
        return f"runs: {done} done, {running} running, {left} left; ETA {eta}"


def _duration(seconds: float) -> str:
    minutes = round(seconds / 60)
    return f"{minutes // 60}h{minutes % 60:02d}m" if minutes >= 60 else f"{minutes}m"


def _check_plan(
    out: Path,
    experiment: Experiment,
    scale: str,
    seed: int,
    resume: bool,
    repetitions: int,
    options: dict[str, str],
) -> None:
    """Refuses a folder that holds another experiment, or this one without ``resume``."""
    saved_path = out / EXPERIMENT_FILE
    if not saved_path.exists():
        return
    if not resume:
        raise FileExistsError(
            f"{out} holds an experiment already: resume it (--resume) or pick another folder"
        )
    saved = json.loads(saved_path.read_text())
    asked = {
        "experiment": experiment.name,
        "scale": scale,
        "seed": seed,
        "repetitions": repetitions,
        "options": options,
    }
    defaults: dict[str, Any] = {"repetitions": 1, "options": {}}
    for key, value in asked.items():
        if saved.get(key, defaults.get(key)) != value:
            raise ValueError(
                f"{out} holds {key}={saved.get(key)!r}, not {value!r}: resume it with the same "
                "settings or pick another folder"
            )


def run_experiment(
    experiment: Experiment,
    out: str | Path,
    *,
    scale: str = "short",
    workers: int = 1,
    resume: bool = False,
    seed: int = 0,
    repetitions: int | None = None,
    options: dict[str, str] | None = None,
    write: Callable[[str], object] = print,
    executor: Callable[[list[RunSpec], Path, int, Progress], None] | None = None,
) -> dict[str, Any]:
    """Runs ``experiment`` into ``out`` and returns its summary (also in ``summary.json``).

    ``scale`` is one of :data:`~pyaz.experiments.base.SCALES`. ``workers`` runs play at once,
    each in its own process (1: in this process). With
    ``resume``, the finished runs of an earlier, interrupted call are skipped. ``repetitions``
    overrides the scale's number of runs per configuration (experiments that repeat runs only).
    ``options`` are the experiment's own (``--option KEY=VALUE``; see its ``option_help``).
    ``executor``
    replaces the local process pool (the Ray engine plugs in here).
    """
    if workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    if scale not in SCALES:
        raise ValueError(f"scale must be one of {', '.join(SCALES)}, got {scale!r}")
    if repetitions is not None:
        if not experiment.repeated:
            raise ValueError(f"{experiment.name} does not repeat its runs: drop --repetitions")
        if not 1 <= repetitions <= 100:
            raise ValueError(f"repetitions must be in 1..100, got {repetitions}")
    experiment.repeat = repetitions
    options = dict(options or {})
    unknown = sorted(set(options) - set(experiment.option_help))
    if unknown:
        known = ", ".join(sorted(experiment.option_help)) or "none"
        raise ValueError(f"{experiment.name} has no option {unknown[0]!r} (its options: {known})")
    experiment.options = options
    out = Path(out)
    _check_plan(out, experiment, scale, seed, resume, experiment.repetitions(scale), options)
    specs = experiment.runs(scale, seed)
    names = [spec.name for spec in specs]
    if len(set(names)) != len(names):
        raise ValueError(f"{experiment.name}: run names repeat: {names}")
    out.mkdir(parents=True, exist_ok=True)
    plan = {
        "experiment": experiment.name,
        "scale": scale,
        "seed": seed,
        "repetitions": experiment.repetitions(scale),
        "options": options,
        "runs": [asdict(spec) for spec in specs],
    }
    write_json_atomic(out / EXPERIMENT_FILE, plan)
    pending = [spec for spec in specs if not is_done(out, spec)]
    skipped = len(specs) - len(pending)
    write(
        f"{experiment.name}: {len(specs)} runs ({skipped} finished before), "
        f"{min(workers, max(1, len(pending)))} at a time, into {out}"
    )
    began = time.perf_counter()
    progress = Progress(sum(s.cost for s in pending), workers, write)
    if pending:
        (executor or _run_pending)(pending, out, workers, progress)
    write(f"{experiment.name}: every run finished; evaluating and writing the report")
    summary = experiment.report(out, specs, scale, seed)
    fault_point("experiment-report")
    summary = {
        **summary,
        "experiment": experiment.name,
        "scale": scale,
        "seed": seed,
        "runs": len(specs),
        "seconds_this_call": round(time.perf_counter() - began, 1),
    }
    write_json_atomic(out / "summary.json", summary)
    write(f"{experiment.name}: wrote {out / 'summary.json'} and {out / 'README.md'}")
    return summary


def _run_pending(pending: list[RunSpec], out: Path, workers: int, progress: Progress) -> None:
    if workers == 1:
        for index, spec in enumerate(pending):
            left = pending[index + 1 :]
            progress.write(
                f"{spec.name}: started; "
                + progress.line(progress.done, 1, len(left), sum(s.cost for s in [spec, *left]))
            )
            seconds = execute_run(str(out), spec)
            progress.finished(spec, seconds)
            progress.write(
                f"{spec.name}: finished in {_duration(seconds)}; "
                + progress.line(progress.done, 0, len(left), sum(s.cost for s in left))
            )
        return
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        futures: dict[Future[float], RunSpec] = {
            pool.submit(execute_run, str(out), spec): spec for spec in pending
        }
        try:
            remaining = set(futures)
            while remaining:
                finished, remaining = wait(remaining, return_when=FIRST_COMPLETED)
                for future in finished:
                    progress.finished(futures[future], future.result())
                progress.report(
                    [futures[f] for f in finished], [futures[f] for f in remaining], workers
                )
        except BaseException:
            for future in futures:
                future.cancel()
            raise
