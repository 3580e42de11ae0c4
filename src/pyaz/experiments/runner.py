"""Running an experiment: every run in its own folder (``DIR/runs/NAME``), several at once in
worker processes, skipping the finished ones on ``--resume``, then the report.

The experiment's folder holds ``experiment.json`` (what was asked for: name, scale, seed, the
planned runs), ``runs/`` (one ordinary run folder per run, each with a ``run.log``
of what the run printed and a ``DONE`` file once it finished), and what the report writes
(``summary.json``, ``README.md``, figures). An interrupted experiment (Ctrl-C, a kill) resumes
with ``resume=True``: finished runs are not run again, unfinished ones continue from their own
checkpoints, and nothing is counted twice; the settings are the saved ones (a setting given
again that differs is an error naming it), and the runs they plan must be the saved runs.

The folder is locked (:class:`~pyaz.common.folder_lock.FolderLock`) while an experiment uses it:
a second one gets :class:`~pyaz.common.folder_lock.FolderInUseError` at once, and a killed one
releases it. Worker processes die with the process that started them (Linux), so a killed
experiment leaves no runs behind that still write into its folder.
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import asdict
from functools import partial
from pathlib import Path
from typing import Any, NamedTuple

from pyaz.common.checked_json import MAX_JSON_BYTES, parse_json, read_json_file, read_regular_file
from pyaz.common.faults import fault_point
from pyaz.common.folder_lock import FolderLock
from pyaz.common.run import PROGRESS_FILE
from pyaz.common.runlog import write_json_atomic
from pyaz.common.workers import die_with_parent
from pyaz.experiments.base import (
    DONE_FILE,
    SCALES,
    Experiment,
    RunSpec,
    read_json_object,
    resolve_target,
    run_folder,
)

__all__ = [
    "EXPERIMENT_FILE",
    "Progress",
    "RunWatch",
    "execute_run",
    "is_done",
    "read_plan",
    "run_experiment",
    "run_progress",
]

EXPERIMENT_FILE = "experiment.json"
RUN_LOG = "run.log"


def _run_files(folder: Path) -> list[str]:
    """The files of a run folder that its results live in, relative, sorted: not the runner's
    own (``DONE``, ``run.log``), hidden ones (locks, temporaries), figures or TensorBoard logs,
    which nothing reads back."""
    return sorted(
        relative.as_posix()
        for relative in (path.relative_to(folder) for path in folder.rglob("*"))
        if relative.parts[0] not in (DONE_FILE, RUN_LOG, "tensorboard")
        and not any(part.startswith(".") for part in relative.parts)
        and relative.suffix != ".png"
        and (folder / relative).is_file()
    )


def is_done(out: Path, spec: RunSpec) -> bool:
    """Whether the run has finished: its ``DONE`` file exists (a unit of the experiment, not
    the mark of one training run: see :data:`~pyaz.experiments.base.DONE_FILE`; a ``DONE`` of
    an older pyaz, the seconds alone, counts too). A finished run whose files are
    gone since (its ``DONE`` lists them) is a ValueError naming the run folder and the first
    missing file: its results cannot be reported, and running it again in place would resume
    from what is left; deleting the folder runs it again."""
    folder = run_folder(out, spec)
    done = folder / DONE_FILE
    try:
        marker = parse_json(read_regular_file(done, MAX_JSON_BYTES), str(done))
    except FileNotFoundError:
        return False
    except ValueError:  # an older DONE (the seconds only), or not one to read: nothing to check
        return True
    files = marker.get("files") if isinstance(marker, dict) else None
    missing = [f for f in files if not (folder / f).is_file()] if isinstance(files, list) else []
    if missing:
        more = f" and {len(missing) - 1} more of its files" if len(missing) > 1 else ""
        raise ValueError(
            f"{folder} is marked finished but {missing[0]}{more} is gone, so its results "
            f"cannot be reported: restore it, or delete {folder} to run it again"
        )
    return True


def execute_run(out: str, spec: RunSpec) -> float:
    """Runs one run in its folder (its output into ``run.log``) and marks it finished; the
    seconds it took. Called in a worker process or in the main one."""
    folder = run_folder(Path(out), spec)
    folder.mkdir(parents=True, exist_ok=True)
    target = resolve_target(spec.target)
    began = time.perf_counter()
    with (
        (folder / RUN_LOG).open("a", encoding="utf-8", buffering=1) as log,
        contextlib.redirect_stdout(log),
        contextlib.redirect_stderr(log),
    ):
        target(folder, **spec.kwargs)
    seconds = time.perf_counter() - began
    fault_point("experiment-run")
    done = {"seconds": round(seconds, 1), "files": _run_files(folder)}
    write_json_atomic(folder / DONE_FILE, done)
    return seconds


class RunFailedError(RuntimeError):
    """A run that failed in a worker process: one line naming the run, the error and where its
    traceback is. Built from strings only, so that it always crosses back to the parent (an
    exception holding an unpicklable object, e.g. TorchScript's, would otherwise arrive as a
    pickling error that hides the real one)."""


def execute_run_in_worker(out: str, spec: RunSpec) -> float:
    """:func:`execute_run` in a pool worker: an Exception becomes :class:`RunFailedError`, its
    traceback written to the run's ``run.log`` first. Ctrl-C (SIGINT) stops the run, as in the
    main process; the worker ignores it between runs (:func:`_start_worker`). A run that
    comes after the experiment's Ctrl-C (queued in the pool) does not start."""
    if _STOP is not None and _STOP.is_set():
        raise KeyboardInterrupt
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        return execute_run(out, spec)
    except Exception as error:
        log = run_folder(Path(out), spec) / RUN_LOG
        with contextlib.suppress(OSError), log.open("a", encoding="utf-8") as file:
            traceback.print_exc(file=file)
        raise RunFailedError(
            f"run {spec.name} failed: {type(error).__name__}: {error} (traceback in {log})"
        ) from None
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)


INTERRUPT_GRACE_S = 2.0
"""After a Ctrl-C of the experiment, how long its pool's runs have to stop on their own (a
terminal's Ctrl-C reaches them too) before each worker is sent a SIGINT of its own."""


_STOP: Any = None
"""In a pool worker: the experiment's stop event (set after its Ctrl-C)."""


def worker_threads(workers: int, cores: int | None = None) -> int:
    """PyTorch's threads in each of ``workers`` processes side by side: their share of the
    machine's ``cores``, at least one. A run that sets its own (most runs set one) keeps it."""
    return max(1, (cores if cores is not None else os.cpu_count() or 1) // max(1, workers))


def _start_worker(parent: int, stop: Any, threads: int) -> None:
    """A pool worker's initializer: it dies with ``parent``
    (:func:`~pyaz.common.workers.die_with_parent`), keeps the experiment's ``stop`` event,
    gives PyTorch ``threads`` (:func:`worker_threads`), and ignores SIGINT except while it plays
    a run (:func:`execute_run_in_worker`), so that a Ctrl-C stops runs, not idle workers."""
    import torch

    global _STOP
    _STOP = stop
    torch.set_num_threads(threads)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent(parent)


def _interrupt_workers(running: list[Future[float]]) -> None:
    """After a Ctrl-C of this process: the runs still going after :data:`INTERRUPT_GRACE_S`
    get a SIGINT in their workers (a ``kill -INT`` of this process alone reaches no worker),
    and stop as at Ctrl-C, to resume later."""
    if not wait(running, timeout=INTERRUPT_GRACE_S).not_done:
        return
    for worker in multiprocessing.active_children():  # the pool's workers are our children
        if worker.pid is not None:
            with contextlib.suppress(OSError):
                os.kill(worker.pid, signal.SIGINT)


class Progress:
    """One line per change: runs done / running / left and the estimated time to go. A run's
    cost counts the share of it still to play (``share``, from its progress files: a resumed
    run that was nine tenths done costs a tenth), both in the time a cost took and in the
    cost left."""

    def __init__(
        self,
        pending: list[RunSpec],
        workers: int,
        write: Callable[[str], object],
        share: Callable[[RunSpec], float] = lambda spec: 0.0,
    ) -> None:
        self.workers = workers
        self.write = write
        self.share = share
        self.started = {spec.name: share(spec) for spec in pending}
        self.done_cost = 0.0
        self.seconds = 0.0
        self.done = 0

    def finished(self, spec: RunSpec, seconds: float) -> None:
        self.done += 1
        self.done_cost += spec.cost * (1.0 - self.started.get(spec.name, 0.0))
        self.seconds += seconds

    def cost_left(self, specs: list[RunSpec]) -> float:
        """The cost of ``specs`` still to play."""
        return sum(spec.cost * (1.0 - self.share(spec)) for spec in specs)

    def report(self, finished: list[RunSpec], remaining: list[RunSpec], slots: int) -> None:
        """The line after ``finished`` ended, ``remaining`` still to finish on ``slots``."""
        running = min(slots, len(remaining))
        self.write(
            f"{', '.join(spec.name for spec in finished)}: finished; "
            + self.line(self.done, running, len(remaining) - running, self.cost_left(remaining))
        )

    def line(self, done: int, running: int, left: int, remaining_cost: float) -> str:
        eta = "?"
        if self.done_cost > 0:
            per_cost = self.seconds / self.done_cost
            eta = _duration(per_cost * remaining_cost / max(1, min(self.workers, running + left)))
        return f"runs: {done} done, {running} running, {left} left; ETA {eta}"


class RunWatch:
    """Says, every ``every`` seconds, how far each unfinished run of ``specs`` has come and its
    ETA (from the :data:`~pyaz.common.run.PROGRESS_FILE` files its training runs rewrite after
    every step: the share left at the pace of this process's share so far; see
    :func:`run_progress`), one line a run whose step changed, from a thread of its own
    while the runs play. A run without such a file (not a training run) is not shown."""

    def __init__(
        self, out: Path, specs: list[RunSpec], write: Callable[[str], object], every: float
    ) -> None:
        self.out, self.specs, self.write, self.every = out, specs, write, every
        self.shown: dict[str, tuple[int, int]] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="run-watch", daemon=True)

    def __enter__(self) -> RunWatch:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _loop(self) -> None:
        while not self._stop.wait(self.every):
            self.check()

    def check(self) -> None:
        """Writes the line of every unfinished run whose step changed since the last one."""
        for spec in self.specs:
            folder = run_folder(self.out, spec)
            if (folder / DONE_FILE).exists():
                continue
            line = run_progress(folder)
            if line is not None and line[0] != self.shown.get(spec.name):
                self.shown[spec.name] = line[0]
                self.write(f"{spec.name}: {line[1]}")


def run_progress(folder: Path) -> tuple[tuple[int, int], str] | None:
    """((steps done, steps in all), "step 3/20, ETA 2m10s") of the training runs in
    ``folder`` (its :data:`~pyaz.common.run.PROGRESS_FILE` files, side-by-side loops summed),
    or None when it has none (yet). The ETA is the share of a run left at the pace of this
    process's share so far (a run on a time budget ends when it is spent, whatever its steps);
    side-by-side loops take turns in one process, so their shares left add up, at the pace of
    their shares done together."""
    loops = _loop_progress(folder)
    if not loops:
        return None
    done, total = sum(loop.step for loop in loops), sum(loop.steps for loop in loops)
    seconds = max(loop.seconds for loop in loops)
    eta = "?"
    if all(loop.now is not None and loop.then is not None for loop in loops):
        gained = sum(max(0.0, (loop.now or 0.0) - (loop.then or 0.0)) for loop in loops)
        left = sum(max(0.0, 1.0 - (loop.now or 0.0)) for loop in loops)
        if gained > 0:
            eta = _short_duration(seconds / gained * left)
    return (done, total), f"step {done}/{total}, ETA {eta}"


def run_share(folder: Path) -> float:
    """The share done of the training runs in ``folder`` (the mean over side-by-side loops;
    0 without progress files). A finished run is 1."""
    if (folder / DONE_FILE).exists():
        return 1.0
    shares = [min(1.0, max(0.0, loop.now or 0.0)) for loop in _loop_progress(folder)]
    return sum(shares) / len(shares) if shares else 0.0


class _LoopProgress(NamedTuple):
    """One training loop's progress file: its steps, the seconds of this process, and its share
    done now and at this process's first step (None: not known)."""

    step: int
    steps: int
    seconds: float
    now: float | None
    then: float | None


def _loop_progress(folder: Path) -> list[_LoopProgress]:
    """The readable :data:`~pyaz.common.run.PROGRESS_FILE` files under ``folder``; one being
    replaced, or damaged, is left out (the next look will do)."""
    loops = []
    for path in sorted(folder.rglob(PROGRESS_FILE)):
        try:
            saved = read_json_file(path, MAX_JSON_BYTES)
            step, steps, seconds = int(saved["step"]), int(saved["total"]), float(saved["seconds"])
            now = _share(saved, "fraction", step, steps)
            then = _share(saved, "first_fraction", int(saved["first"]), steps)
            loops.append(_LoopProgress(step, steps, seconds, now, then))
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return loops


def _share(saved: dict[str, Any], key: str, step: int, steps: int) -> float | None:
    """A progress file's share ``key`` (files of older pyaz: the steps' share)."""
    if key in saved:
        return None if saved[key] is None else float(saved[key])
    return step / steps if steps > 0 else None


def _short_duration(seconds: float) -> str:
    """``45s``, ``2m10s``, ``1h05m``."""
    whole = round(seconds)
    if whole < 60:
        return f"{whole}s"
    if whole < 3600:
        return f"{whole // 60}m{whole % 60:02d}s"
    return f"{whole // 3600}h{whole // 60 % 60:02d}m"


def _duration(seconds: float) -> str:
    minutes = round(seconds / 60)
    return f"{minutes // 60}h{minutes % 60:02d}m" if minutes >= 60 else f"{minutes}m"


_PLAN_REMEDY = (
    "restore it, or delete it and resume with the settings the experiment was started with"
)


def read_plan(out: str | os.PathLike[str]) -> dict[str, Any] | None:
    """The saved plan of the experiment in ``out`` (its ``experiment.json``: name, scale, seed,
    repetitions, options, runs), or None when it has none. A plan that is damaged, truncated or
    not one that pyaz writes is a one-line ValueError naming the file."""
    path = Path(out) / EXPERIMENT_FILE
    if not path.exists():
        return None
    plan = read_json_object(path, _PLAN_REMEDY)
    plan.setdefault("options", {})
    checks = {
        "experiment": isinstance(plan.get("experiment"), str),
        "scale": plan.get("scale") in SCALES,
        "seed": type(plan.get("seed")) is int,
        "repetitions": type(plan.get("repetitions", 1)) is int,
        "options": isinstance(plan["options"], dict)
        and all(isinstance(v, str) for v in plan["options"].values()),
        "runs": isinstance(plan.get("runs"), list),
    }
    for key, good in checks.items():
        if not good:
            raise ValueError(
                f"{path} is not an experiment plan pyaz writes ({key} is "
                f"{plan.get(key)!r}); {_PLAN_REMEDY}"
            )
    return plan


def _settings(
    out: Path, experiment: Experiment, saved: dict[str, Any] | None, given: dict[str, Any]
) -> dict[str, Any]:
    """The settings to run with: the saved ones when resuming (a given setting that differs is
    an error naming it), else the given ones with the defaults."""
    if saved is None:
        defaults = {"scale": "short", "seed": 0, "repetitions": None, "options": {}}
        return {key: defaults[key] if value is None else value for key, value in given.items()}
    if saved["experiment"] != experiment.name:
        raise ValueError(
            f"{out} holds the experiment {saved['experiment']!r}, not {experiment.name!r}: "
            "resume it under its own name or pick another folder"
        )
    scale = saved["scale"]
    recorded = {
        "scale": scale,
        "seed": saved["seed"],
        "repetitions": saved.get("repetitions", experiment.scale_repetitions(scale)),
        "options": saved["options"],
    }
    for key, value in given.items():
        if value is not None and value != recorded[key]:
            raise ValueError(
                f"{out} holds {key}={recorded[key]!r}, not {value!r}: resume it without "
                f"{key} (its saved settings are used) or pick another folder"
            )
    return recorded


def _first_difference(saved: list[Any], planned: list[Any]) -> str:
    for old, new in zip(saved, planned, strict=False):
        if old != new:
            return f"run {new['name']}"
    return f"{len(saved)} runs, not {len(planned)}"


def _check_options(experiment: Experiment, options: dict[str, str]) -> None:
    unknown = sorted(set(options) - set(experiment.option_help))
    if unknown:
        known = ", ".join(sorted(experiment.option_help)) or "none"
        raise ValueError(f"{experiment.name} has no option {unknown[0]!r} (its options: {known})")


Executor = Callable[[list[RunSpec], Path, int, Progress], None]
"""Runs the pending runs (``pending, out, workers, progress``) in place of the process pool."""


def run_experiment(
    experiment: Experiment,
    out: str | Path,
    *,
    scale: str | None = None,
    workers: int = 1,
    resume: bool = False,
    seed: int | None = None,
    repetitions: int | None = None,
    options: dict[str, str] | None = None,
    write: Callable[[str], object] = print,
    executor: Executor | None = None,
    watch_every: float = 10.0,
) -> dict[str, Any]:
    """Runs ``experiment`` into ``out`` and returns its summary (also in ``summary.json``).

    ``scale`` is one of :data:`~pyaz.experiments.base.SCALES` (default ``short``). ``workers``
    runs play at once, each in its own process (1: in this process). ``repetitions`` overrides
    the scale's number of runs per configuration (experiments that repeat runs only).
    ``options`` are the experiment's own (``--option KEY=VALUE``; see its ``option_help``).
    With ``resume``, an earlier, interrupted call goes on: its finished runs are skipped and
    its saved scale, seed, repetitions and options are used (None: the saved one; a value that
    differs is a ValueError naming it); a finished run whose files are gone is a ValueError
    naming its folder. ``out`` is locked for the whole call
    (:class:`~pyaz.common.folder_lock.FolderInUseError` when another process uses it).
    ``executor`` replaces the local process pool (the Ray engine plugs in here). While runs
    play, every ``watch_every`` seconds a line says each run's step and ETA (:class:`RunWatch`).
    """
    if write is print:  # this stdout, also while a run in this process sends its own elsewhere
        write = partial(print, file=sys.stdout, flush=True)
    if workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    if scale is not None and scale not in SCALES:
        raise ValueError(f"scale must be one of {', '.join(SCALES)}, got {scale!r}")
    if repetitions is not None:
        if not experiment.repeated:
            raise ValueError(f"{experiment.name} does not repeat its runs: drop --repetitions")
        if not 1 <= repetitions <= 100:
            raise ValueError(f"repetitions must be in 1..100, got {repetitions}")
    _check_options(experiment, options or {})
    out = Path(out)
    with FolderLock(out, "pyaz-experiment"):
        saved = read_plan(out)
        if saved is not None and not resume:
            raise FileExistsError(
                f"{out} holds an experiment already: resume it (--resume) or pick another folder"
            )
        given = {"scale": scale, "seed": seed, "repetitions": repetitions, "options": options}
        settings = _settings(out, experiment, saved, given)
        scale, seed = settings["scale"], settings["seed"]
        repeat = settings["repetitions"]
        experiment.repeat = None if repeat == experiment.scale_repetitions(scale) else repeat
        experiment.options = dict(settings["options"])
        _check_options(experiment, experiment.options)
        specs = experiment.runs(scale, seed)
        names = [spec.name for spec in specs]
        if len(set(names)) != len(names):
            raise ValueError(f"{experiment.name}: run names repeat: {names}")
        plan = {
            "experiment": experiment.name,
            "scale": scale,
            "seed": seed,
            "repetitions": experiment.repetitions(scale),
            "options": experiment.options,
            "runs": json.loads(json.dumps([asdict(spec) for spec in specs])),  # tuples as lists
        }
        if saved is not None and saved["runs"] != plan["runs"]:
            raise ValueError(
                f"{out / EXPERIMENT_FILE} plans other runs than this pyaz's {experiment.name} at "
                f"its settings ({_first_difference(saved['runs'], plan['runs'])}): it comes from "
                "another version of pyaz or was edited; resume it with that version or pick "
                "another folder"
            )
        write_json_atomic(out / EXPERIMENT_FILE, plan)
        pending = [spec for spec in specs if not is_done(out, spec)]
        skipped = len(specs) - len(pending)
        write(
            f"{experiment.name}: {len(specs)} runs ({skipped} finished before), "
            f"{min(workers, max(1, len(pending)))} at a time, into {out}"
        )
        began = time.perf_counter()
        progress = Progress(pending, workers, write, lambda spec: run_share(run_folder(out, spec)))
        if pending:
            with RunWatch(out, pending, write, watch_every):
                (executor or _run_pending)(pending, out, workers, progress)
        unfinished = [spec.name for spec in specs if not is_done(out, spec)]
        if unfinished:
            raise RuntimeError(f"{experiment.name}: runs {', '.join(unfinished)} did not finish")
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
                + progress.line(progress.done, 1, len(left), progress.cost_left([spec, *left]))
            )
            seconds = execute_run(str(out), spec)
            progress.finished(spec, seconds)
            progress.write(
                f"{spec.name}: finished in {_duration(seconds)}; "
                + progress.line(progress.done, 0, len(left), progress.cost_left(left))
            )
        return
    context = multiprocessing.get_context("spawn")
    stop = context.Event()
    with ProcessPoolExecutor(
        max_workers=workers,
        mp_context=context,
        initializer=_start_worker,
        initargs=(os.getpid(), stop, worker_threads(workers)),
    ) as pool:
        futures: dict[Future[float], RunSpec] = {
            pool.submit(execute_run_in_worker, str(out), spec): spec for spec in pending
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
        except BaseException as error:
            for future in futures:
                future.cancel()
            if isinstance(error, KeyboardInterrupt):
                stop.set()  # the runs queued in the pool, which cancel() cannot take back
                _interrupt_workers([f for f in futures if not f.cancelled()])
            raise
