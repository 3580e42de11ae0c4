"""One base for the training loops: the run folder, its settings, resume, checkpoints, metrics,
fault points and progress, so that a loop keeps only its method (in the spirit of
stable-baselines3's ``BaseAlgorithm``, which owns the logger, saving and the learning loop for
every algorithm).

A subclass builds its state (networks, optimisers, buffers, random generators), then calls
``TrainingRun.__init__`` last, which

1. takes the folder's lock (:class:`~pyaz.common.folder_lock.FolderInUseError` when another
   process, or another run in this one, holds it);
2. refuses to replace another run: a folder that holds a checkpoint is only resumed
   (FileExistsError otherwise), and resuming, or starting again in a folder whose run
   committed nothing, checks every setting but those in :attr:`TrainingRun.RESUMABLE` against
   the folder's config.json (a ValueError naming each that differs), so config.json is never
   overwritten by a different run;
3. on resume restores the last checkpoint (:meth:`TrainingRun.restore`), drops the metrics
   records of later steps (damaged lines said on stderr), and rewrites the latest files
   (:meth:`TrainingRun.write_latest`), which a kill may have left one step ahead;
4. writes config.json and, for a new run, commits step 0 (the initial state, unless
   :attr:`TrainingRun.INITIAL_CHECKPOINT` is False), so that a run killed before its first step
   resumes from its folder alone (:meth:`TrainingRun.from_folder`). A loop whose step 0 is work
   of its own (a supervised start) does it in :meth:`TrainingRun.start` instead, before its
   first step: logged with step 0, then committed.

:meth:`TrainingRun.run` then plays the steps (:meth:`TrainingRun.advance`) until
:meth:`TrainingRun.finished`, then :meth:`TrainingRun.finish`. A step is the method's work
(:meth:`TrainingRun.run_step`), the fault point ``step``, its records appended to
metrics.jsonl (and CSV and TensorBoard, :class:`~pyaz.common.runlog.RunLog`) each with the step
under :attr:`TrainingRun.STEP_KEY`, then a checkpoint when :meth:`TrainingRun.should_checkpoint`
says so and after the last step.

A checkpoint has one layout for every loop, and :meth:`TrainingRun.save_checkpoint` alone
writes it, each file atomically (temporary file, fsync, rename): first the step's side files
(:meth:`TrainingRun.checkpoint_files`: a replay buffer too large to pickle with the state, the
step's network under ``nets/``), then the latest files (:meth:`TrainingRun.write_latest`), then
``checkpoint.pt`` (:data:`CHECKPOINT_FILE`, the bytes of :meth:`TrainingRun.state_bytes`),
which names the side files it needs (those matching :attr:`TrainingRun.NAMED_FILES`). Writing
``checkpoint.pt`` is the commit point; after it the side files that it does not name are
removed, and so they are when a run opens (:meth:`TrainingRun.restore` reads the named ones with
:meth:`TrainingRun.read_named_file`): a kill before the commit or before that removal leaves
nothing behind. A run killed anywhere resumes from its last commit and repeats what came after,
logging nothing twice.

A run whose last step is committed is marked finished: :data:`FINISHED_FILE` (``{"method",
"step"}``, written atomically), which :func:`run_finished` asks of a folder without opening its
run. A run that is opened again with steps left (more ``iterations``) loses the mark until it
ends; a finished run killed before its mark was written gets it when it is opened and run
again, with no step played. An empty ``FINISHED``, as ZetaGo's runs wrote it before, counts
alike. (An experiment's ``DONE`` marks a unit of the experiment, which may hold several runs:
see :data:`pyaz.experiments.base.DONE_FILE`.)

One line that stays (tqdm; off with ``progress=False``) says the time, the steps done, the
budget that ends the run and an ETA (:func:`~pyaz.common.progress_line.progress_line`); the
stage bars of a step go below it. One summary line per step goes above it; a resumed run says
where it resumes and what it keeps of the step in progress (:meth:`TrainingRun.resumed_work`);
a run with :attr:`TrainingRun.LIVE_PLOTS` redraws its plots while it runs and after Ctrl-C
(:class:`~pyaz.common.plots.LivePlots`); and :data:`PROGRESS_FILE` says where the run is to
another process (an experiment's runner).

common/ stays free of torch: the subclass turns its state into bytes and back.
"""

from __future__ import annotations

import contextlib
import dataclasses
import fnmatch
import os
import sys
import tempfile
import time
import warnings
from collections.abc import Callable, Mapping
from pathlib import Path, PurePosixPath
from typing import Any, ClassVar, Self, TypeVar

from tqdm import tqdm

from pyaz.common.faults import fault_point
from pyaz.common.folder_lock import FolderLock
from pyaz.common.plots import LivePlots
from pyaz.common.progress_line import RunClock, progress_line
from pyaz.common.runlog import (
    CONFIG_NAME,
    RunLog,
    atomic_write_bytes,
    check_resume_settings,
    check_writable,
    damaged_lines,
    lock_run_folder,
    read_plain_file,
    read_run_config,
    remove_networks_after,
    remove_temporaries,
    truncate_after,
    write_json_atomic,
)
from pyaz.common.settings import refuse_saved_engines

__all__ = [
    "CHECKPOINT_FILE",
    "FINISHED_FILE",
    "PROGRESS_FILE",
    "TrainingRun",
    "atomic_write_with",
    "config_from",
    "run_finished",
]

CHECKPOINT_FILE = "checkpoint.pt"
"""The commit point of every run: the state of its last committed step (see the module
docstring)."""
FINISHED_FILE = "FINISHED"
"""Written atomically when a run's last step is committed: ``{"method": ..., "step": ...}``
(see :func:`run_finished`)."""

PROGRESS_FILE = ".progress.json"
"""Rewritten after every step: ``step``, ``total`` (0: not known), ``first`` (the step this
process opened the run at), ``seconds`` (since then), ``fraction`` and ``first_fraction`` (the
share of the run done, now and at the opening; null: not known); hidden, as nothing resumes
from it."""

Config = TypeVar("Config")


def run_finished(folder: str | os.PathLike[str]) -> bool:
    """Whether the training run in ``folder`` finished: its :data:`FINISHED_FILE` is there (the
    empty one that ZetaGo's runs wrote before :class:`TrainingRun` kept the mark counts too).
    A run that finished before the mark existed has none: opening it again
    (:meth:`TrainingRun.run`) plays no step and writes it."""
    return (Path(folder) / FINISHED_FILE).is_file()


def config_from(config_class: type[Config], settings: Mapping[str, Any]) -> Config:
    """``config_class`` (a dataclass) built from the entries of ``settings`` that are its fields
    (config.json also holds ``method`` and settings of other pyaz versions)."""
    names = {item.name for item in dataclasses.fields(config_class)}  # type: ignore[arg-type]
    return config_class(**{k: v for k, v in settings.items() if k in names})


def atomic_write_with(path: str | os.PathLike[str], write: Callable[[Path], object]) -> Path:
    """Writes ``path`` atomically (see :func:`~pyaz.common.runlog.atomic_write_bytes`) with
    ``write(temporary)``, a function that writes a file at the path it is given (such as
    ``torch.save`` or a model's save function). Returns ``path``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    temporary = Path(name)
    try:
        write(temporary)
        atomic_write_bytes(path, temporary.read_bytes())
    finally:
        with contextlib.suppress(OSError):
            temporary.unlink()
    return path


class TrainingRun:
    """A training run in a folder (see the module docstring). Subclasses set the class
    attributes and implement :meth:`run_step`, :meth:`total_steps`, :meth:`state_bytes`,
    :meth:`restore` and :meth:`from_settings`; the other hooks have defaults."""

    RESUMABLE: ClassVar[tuple[str, ...]] = ("iterations",)
    """The settings a resumed run may change; every other one stays as config.json has it."""
    STEP_KEY: ClassVar[str] = "iteration"
    """The key of every metrics record that holds its step (records of later steps than the
    checkpoint's are dropped on resume)."""
    CHECKPOINT: ClassVar[str] = CHECKPOINT_FILE
    NAMED_FILES: ClassVar[tuple[str, ...]] = ()
    """Glob patterns (relative to the folder) of the side files that a checkpoint names (a
    replay buffer file per step, say ``buffer-*.npz``): a file matching one that the last
    committed checkpoint does not name is removed after each commit and when the run opens.
    The other :meth:`checkpoint_files` (the step's network) stay."""
    INITIAL_CHECKPOINT: ClassVar[bool] = True
    """Whether a new run commits step 0 (its initial state) when it opens; a loop whose initial
    state follows from its settings alone may do without."""
    CONFIG: ClassVar[Any] = None
    """The run's settings dataclass: the default :meth:`from_settings` builds it from the saved
    settings and calls ``cls(config, folder, resume=True, progress=..., lock=...)``."""
    NAME: ClassVar[str] = "training"
    """The method: config.json's ``method`` (a folder of one method is not resumed by another)
    and the progress line's label."""
    LIVE_PLOTS: ClassVar[bool] = False
    """Whether the run's PNG plots (:mod:`pyaz.common.plots`) are redrawn while it runs, every
    :attr:`PLOT_EVERY_S` seconds or so, and after Ctrl-C."""
    PLOT_EVERY_S: ClassVar[float] = 60.0
    """The seconds between two drawings of :attr:`LIVE_PLOTS` (the first: that long after the
    first step began)."""

    def __init__(
        self,
        folder: str | os.PathLike[str],
        settings: Mapping[str, Any],
        resume: bool | None = None,
        progress: bool = True,
        lock: FolderLock | None = None,
    ) -> None:
        """Opens the run in ``folder`` with ``settings`` (JSON values: what config.json keeps,
        with ``method``, the class's :attr:`NAME`).
        ``resume``: continue the run the folder holds (None: when it holds a checkpoint).
        ``lock``: a lock on ``folder`` that the caller holds and releases; without it the run
        holds its own until :meth:`close` (or the end of :meth:`run`)."""
        self.folder = Path(folder)
        self.settings = {"method": self.NAME, **settings}
        self.progress = progress
        self.step = 0
        self.interrupted = False  # Ctrl-C ended run()
        self._bar: Any = None  # the progress line, from the first step on
        self._plots: LivePlots | None = None  # with LIVE_PLOTS, from the first step on
        self._own_lock = lock is None
        self._named: set[str] = set()  # the side files the last checkpoint names
        self._marked = False  # FINISHED_FILE written by this process
        if lock is not None:
            check_writable(self.folder)
        self._lock = lock_run_folder(self.folder) if lock is None else lock.acquire()
        try:
            checkpoint = self.folder / self.CHECKPOINT
            restored = checkpoint.exists() and resume is not False
            if checkpoint.exists() and not restored:
                raise FileExistsError(
                    f"{self.folder} holds a run already: resume it (--resume) or pick another "
                    "folder"
                )
            if restored and not checkpoint.is_file():  # a FIFO would block the read for ever
                raise ValueError(f"{checkpoint} is not a regular file, so no checkpoint pyaz wrote")
            if (self.folder / CONFIG_NAME).exists():
                saved = self.upgrade_settings(read_run_config(self.folder))
                check_resume_settings(self.folder, saved, self.settings, self.RESUMABLE)
            remove_temporaries(self.folder)
            if restored:
                self.step = self.restore(checkpoint)
                self.write_latest()  # a kill may have left them one step ahead
            self._remove_unnamed()  # a kill may have left the next step's, or the last one's
            if not self.finished():  # steps left (a longer run): not finished until they are
                (self.folder / FINISHED_FILE).unlink(missing_ok=True)
            for note in damaged_lines(self.folder):
                print(f"note: {note}", file=sys.stderr)
            last = self.step if restored else -1  # without a checkpoint no step was committed
            with warnings.catch_warnings():  # damaged_lines said it
                warnings.simplefilter("ignore")
                truncate_after(self.folder, last, self.STEP_KEY)
            remove_networks_after(self.folder, last)
            write_json_atomic(self.folder / CONFIG_NAME, self.settings)
            self.log = RunLog(self.folder)
            if not restored and self.INITIAL_CHECKPOINT:
                self.save_checkpoint()  # step 0: the run resumes from here on
            self._started = restored or self.INITIAL_CHECKPOINT  # step 0 is behind
            self._first_step, self._opened = self.step, time.monotonic()
            self._say_resume(restored)
            self._first_fraction = self.fraction_done()
        except BaseException:
            self._release()
            raise

    # -- what a subclass implements ------------------------------------------------------------

    @classmethod
    def from_settings(
        cls, folder: Path, settings: dict[str, Any], progress: bool, lock: FolderLock | None
    ) -> Self:
        """The run in ``folder`` resumed with ``settings`` (config.json's, some changed)."""
        if cls.CONFIG is None:
            raise NotImplementedError
        maker: Any = cls  # each subclass's constructor takes its own config first
        config = config_from(cls.CONFIG, settings)
        return maker(config, folder, resume=True, progress=progress, lock=lock)

    def total_steps(self) -> int | None:
        """The steps of the whole run, for the progress bar and the default :meth:`finished`
        (None: not known in advance)."""
        raise NotImplementedError

    def fraction_done(self) -> float | None:
        """How much of the whole run is done, 0 to 1 (None: not known); the steps done by
        default. A run that also ends on a time budget says the larger of the two."""
        total = self.total_steps()
        return min(1.0, self.step / total) if total else None

    def run_step(self, step: int) -> list[dict[str, Any]]:
        """Does step ``step`` (the method); returns its metrics records (each with a ``kind``).
        Calls :func:`~pyaz.common.faults.fault_point` at its stages."""
        raise NotImplementedError

    def state_bytes(self) -> bytes:
        """Everything a resumed run needs, as the checkpoint's bytes (the step included), with
        the names of its side files (:attr:`NAMED_FILES`) that :meth:`checkpoint_files` gives."""
        raise NotImplementedError

    def checkpoint_files(self) -> dict[str, bytes]:
        """The files committed with the step beside the checkpoint: {path relative to the
        folder: bytes}, each written atomically before it (default: none). Those that match
        :attr:`NAMED_FILES` are the checkpoint's side files, which it names; the others (the
        step's network, ``nets/iter-NNNNN.pt``) are the run's history (those of steps after the
        checkpoint are removed when the run opens)."""
        return {}

    def restore(self, path: Path) -> int:
        """Restores the state from the checkpoint at ``path``, with the side files it names
        read by :meth:`read_named_file`; returns its step. A damaged or foreign checkpoint is a
        one-line ValueError naming ``path``."""
        raise NotImplementedError

    def start(self) -> list[dict[str, Any]] | None:
        """Step 0's work (default: none), done by the first :meth:`advance` of a run that has
        committed nothing (with :attr:`INITIAL_CHECKPOINT` False): its records are logged with
        step 0, then step 0 is committed. None: there is none (nothing is committed)."""
        return None

    def finished(self) -> bool:
        """Whether no step is left (default: :meth:`total_steps` are done)."""
        total = self.total_steps()
        return total is not None and self.step >= total

    def should_checkpoint(self) -> bool:
        """Whether to commit after this step (default: after every step; always after the last
        one)."""
        return True

    def write_latest(self) -> None:
        """Writes the files derived from the current state (the latest network, ...), each
        atomically; called before every checkpoint and on resume."""

    @classmethod
    def upgrade_settings(cls, saved: dict[str, Any]) -> dict[str, Any]:
        """The settings of a config.json that an older pyaz wrote, as this one writes them."""
        return saved

    @classmethod
    def starts_process(cls, value: str) -> bool:
        """Whether a setting's ``value`` would start a process when the run uses it (an
        external engine's player spec); default: no setting does."""
        return False

    def run_seconds(self) -> float | None:
        """The run's time so far, across resumes, for the progress line (None by default: not
        kept; the line then shows this process's)."""
        return None

    def time_budget_s(self) -> float | None:
        """The time (seconds of :meth:`run_seconds`) that ends the run once spent, for the
        progress line (None by default: none)."""
        return None

    def count_seconds(self, seconds: float) -> None:
        """Adds ``seconds`` of the run's own work between its steps (committing one: its log,
        checkpoint and plots) to :meth:`run_seconds`, which keeps it from the next checkpoint
        on; by default nothing (a loop that keeps no run time)."""

    def resumed_work(self) -> str:
        """What a resumed run keeps of the step in progress, said on its resume line ("" by
        default: nothing)."""
        return ""

    def summary(self, records: list[dict[str, Any]]) -> str:
        """The summary line of a step."""
        return " | ".join(
            f"{key} {value:.3g}" if isinstance(value, float) else f"{key} {value}"
            for record in records
            for key, value in record.items()
            if key != "wall_time"
        )

    # -- the run -------------------------------------------------------------------------------

    @classmethod
    def from_folder(
        cls,
        folder: str | os.PathLike[str],
        progress: bool = False,
        lock: FolderLock | None = None,
        **changes: Any,
    ) -> Self:
        """The run in ``folder`` resumed with exactly its saved settings (config.json), but
        ``changes``: a change to a setting outside :attr:`RESUMABLE` is a ValueError naming it,
        and so is a setting the run does not have, and a saved one that would start a process
        (:meth:`starts_process`) unless ``changes`` gives it again, the same. A folder without
        a run, or with a run of another method, is a ValueError that says so."""
        folder = Path(folder)
        saved = cls.upgrade_settings(read_run_config(folder))
        method = saved.get("method", cls.NAME)
        if method != cls.NAME:
            raise ValueError(f"{folder} holds a {method} run, not a {cls.NAME} one")
        unknown = sorted(changes.keys() - saved.keys())
        if unknown:
            raise ValueError(f"{folder}: the run has no setting {', '.join(unknown)}")
        path = folder / CONFIG_NAME
        refuse_saved_engines(path, saved, changes, cls.starts_process, command_line=False)
        return cls.from_settings(folder, {**saved, **changes}, progress, lock)

    def save_checkpoint(self) -> None:
        """Commits the current state (see the module docstring): the step's files
        (:meth:`checkpoint_files`), the latest files, then the checkpoint, which names its side
        files; then the side files it does not name are removed."""
        files = self.checkpoint_files()
        for relative, data in files.items():
            atomic_write_bytes(self.folder / relative, data)
        self.write_latest()
        atomic_write_bytes(self.folder / self.CHECKPOINT, self.state_bytes())
        self._named = {relative for relative in files if self._is_named(relative)}
        self._remove_unnamed()

    def read_named_file(self, name: str, what: str = "file") -> bytes:
        """For :meth:`restore`: the bytes of the side file ``name`` (relative to the folder)
        that the checkpoint being restored names; it stays, and the side files that restore
        does not read are removed. A name that matches none of :attr:`NAMED_FILES` (or leaves
        the folder) is a ValueError naming the checkpoint; a path that is no regular file
        (``what``: what pyaz wrote there, for the message) a ValueError naming it, refused
        before it is read; OSError when it cannot be read."""
        if not self._is_named(name):
            raise ValueError(
                f"{self.folder / self.CHECKPOINT} names {name!r}, no file that a {self.NAME} "
                "run writes"
            )
        self._named.add(name)
        return read_plain_file(self.folder / name, what)

    def _is_named(self, name: object) -> bool:
        """Whether ``name`` is a path in the folder that matches one of :attr:`NAMED_FILES`."""
        if not isinstance(name, str) or not name or "\\" in name:
            return False
        path = PurePosixPath(name)
        if path.is_absolute() or ".." in path.parts:
            return False
        return any(fnmatch.fnmatchcase(name, pattern) for pattern in self.NAMED_FILES)

    def _remove_unnamed(self) -> None:
        """Removes the side files (:attr:`NAMED_FILES`) that the last checkpoint does not
        name."""
        for pattern in self.NAMED_FILES:
            for path in self.folder.glob(pattern):
                named = path.relative_to(self.folder).as_posix() in self._named
                if not named and not path.is_dir():
                    path.unlink()

    def _mark_finished(self) -> None:
        """Writes :data:`FINISHED_FILE` (once a process): the last step is committed."""
        if not self._marked:
            marker = {"method": self.NAME, "step": self.step}
            write_json_atomic(self.folder / FINISHED_FILE, marker)
            self._marked = True

    def advance(self) -> list[dict[str, Any]] | None:
        """Plays the next step, logs its records and commits it when due; returns the records
        logged, or None when no step was left. Loops that share a machine can alternate
        steps."""
        if self.finished():
            self._mark_finished()  # a finished run killed before its mark, too
            return None
        if self._bar is None:  # the stage bars of a step go below it (position 0 is taken)
            self._bar = tqdm(bar_format="{desc}", position=0, disable=not self.progress)
            self._bar.set_description_str(self._progress_line())
            self._plots = LivePlots(self.folder, self.PLOT_EVERY_S) if self.LIVE_PLOTS else None
        logged = []
        if not self._started:
            self._started = True
            if (first := self.start()) is not None:
                logged += self._commit(first, checkpoint=True)
        records = self.run_step(self.step + 1)
        self.step += 1
        committing = time.perf_counter()
        logged += self._commit(records, self.should_checkpoint() or self.finished())
        if self.finished():
            self._mark_finished()
        self._bar.set_description_str(self._progress_line())
        self._write_progress()
        if self._plots is not None:
            self._plots.after_step()
        self.count_seconds(time.perf_counter() - committing)
        return logged

    def _progress_line(self) -> str:
        """The line that stays (see the module docstring)."""
        clock = RunClock(
            self.NAME,
            self.STEP_KEY,
            self.step,
            self._first_step,
            time.monotonic() - self._opened,
            self.total_steps(),
            self.run_seconds(),
            self.time_budget_s(),
        )
        return progress_line(clock)

    def _say_resume(self, restored: bool) -> None:
        """The line of a resumed run (one that restored a checkpoint or keeps work of the step
        in progress): the step it goes on with, the steps done and the work kept."""
        work = self.resumed_work()
        if restored or work:
            kept = f"{self.step} done" + (f"; {work}" if work else "")
            print(f"resuming {self.folder} at {self.STEP_KEY} {self.step + 1} ({kept})")

    def _write_progress(self) -> None:
        """:data:`PROGRESS_FILE`: the step, the steps in all, the step this process started
        from, the seconds since, and the share of the run done now and then (what an
        experiment's runner shows, with an ETA)."""
        progress = {
            "step": self.step,
            "total": self.total_steps() or 0,
            "first": self._first_step,
            "seconds": time.monotonic() - self._opened,
            "fraction": self.fraction_done(),
            "first_fraction": self._first_fraction,
        }
        write_json_atomic(self.folder / PROGRESS_FILE, progress)

    def _commit(self, records: list[dict[str, Any]], checkpoint: bool) -> list[dict[str, Any]]:
        """The fault point ``step``, the step's records logged, then its checkpoint if due."""
        fault_point("step")
        logged = [self._log(record) for record in records]
        if checkpoint:
            self.save_checkpoint()
        if line := self.summary(records):  # with progress off too: run.log keeps one a step
            tqdm.write(line)
        return logged

    def finish(self) -> None:
        """After the last step (default: nothing), before the log closes."""

    def run(self) -> list[dict[str, Any]]:
        """Plays the steps left (:meth:`advance`), then :meth:`finish`; returns the records
        logged. The log is closed (and the run's own lock released) however it ends; after
        Ctrl-C (the KeyboardInterrupt goes on) :attr:`interrupted` is True."""
        logged: list[dict[str, Any]] = []
        try:
            while (records := self.advance()) is not None:
                logged += records
            self.finish()
        except KeyboardInterrupt:
            self.interrupted = True
            if self._plots is not None:
                self._plots.on_stop()
            raise
        finally:
            self.close()
        return logged

    def _log(self, record: Mapping[str, Any]) -> dict[str, Any]:
        if record.get(self.STEP_KEY, self.step) != self.step:
            raise RuntimeError(
                f"a record of step {self.step} says {self.STEP_KEY} {record[self.STEP_KEY]!r}"
            )
        tagged = {"kind": record.get("kind"), self.STEP_KEY: self.step, **record}
        self.log.log(tagged)
        return tagged

    def close(self) -> None:
        """Closes the progress bar and the metrics log and releases the run's own lock.
        Idempotent."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None
        with contextlib.suppress(AttributeError):  # opening failed before the log existed
            self.log.close()
        self._release()

    def _release(self) -> None:
        if self._own_lock:
            self._lock.release()
