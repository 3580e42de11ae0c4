"""What an experiment is: a list of training runs (:class:`RunSpec`) and a report built from their
folders once they are all finished (:class:`Experiment`).

A run is a function ``target(folder, **kwargs)`` named as ``"module:function"`` (so that a
worker process can import it) with picklable arguments. It must be resumable: called again on a
folder that holds an unfinished run, it goes on from where that run stopped (the training loops
do, through their checkpoints). The runner (:mod:`pyaz.experiments.runner`) marks a finished
run with a ``DONE`` file (:data:`DONE_FILE`) and never runs it again.
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pyaz.common.checked_json import MAX_JSON_BYTES, read_json_file

__all__ = [
    "DONE_FILE",
    "SCALES",
    "SELFPLAY",
    "SIDE_BY_SIDE",
    "Experiment",
    "RunSpec",
    "read_json_object",
    "resolve_target",
    "run_folder",
]

SCALES = ("short", "cpu", "full")
"""How big an experiment is run: ``short`` is CI-sized (minutes on two cores, every stage),
``cpu`` what a 2-core machine can do in hours (the README's documented results), ``full`` the
paper's own settings (days to weeks, a GPU for the big networks)."""

DONE_FILE = "DONE"
"""Written atomically into a run's folder by the runner when its target returned: the unit of
the experiment is finished (``{"seconds", "files"}``: the seconds it took and the files its
results live in, which must still be there for the report).

It stays apart from the mark of a finished training run
(:data:`~pyaz.common.run.FINISHED_FILE`, :func:`~pyaz.common.run.run_finished`), which
:class:`~pyaz.common.run.TrainingRun` writes when the last step of one run is committed,
because a unit of an experiment is not one training run: a target may train several runs in
subfolders (side by side, ZetaGo's three stages), or none (an evaluation), and does more after
them (plots); only its return says that all of it is done, and the list of files is the
runner's, for its report."""

SELFPLAY = "pyaz.experiments.runs:train_selfplay"
SIDE_BY_SIDE = "pyaz.experiments.runs:train_side_by_side"
"""The targets of a ``pyaz-selfplay`` run and of runs trained side by side, in one process
(:mod:`pyaz.experiments.runs`)."""


@dataclass(frozen=True)
class RunSpec:
    """One training run of an experiment.

    ``name`` is its folder under ``DIR/runs/`` (letters, digits, ``-``, ``_``, ``.`` and ``=``);
    ``target`` is ``"module:function"``, called as ``function(folder, **kwargs)``; ``group``
    names what the report aggregates it with (e.g. "baseline", "curriculum", "ep=5");
    ``cost`` is its relative cost, for the ETA.
    """

    name: str
    target: str
    kwargs: dict[str, Any] = field(default_factory=dict)
    group: str = ""
    cost: float = 1.0

    def __post_init__(self) -> None:
        allowed = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.=")
        if not self.name or set(self.name) - allowed or self.name.startswith("."):
            raise ValueError(f"a run name must be a plain folder name, got {self.name!r}")
        if ":" not in self.target:
            raise ValueError(f"a run target is 'module:function', got {self.target!r}")


def resolve_target(target: str) -> Callable[..., Any]:
    """The function a ``"module:function"`` target names."""
    module, _, name = target.partition(":")
    function = getattr(importlib.import_module(module), name, None)
    if not callable(function):
        raise ValueError(f"run target {target!r} is not a function")
    return function


_JSON_TYPES = {list: "an array", str: "a string", int: "a number", float: "a number"}


def read_json_object(path: Path, remedy: str) -> dict[str, Any]:
    """The JSON object in the regular file ``path`` (read by
    :func:`~pyaz.common.checked_json.read_json_file`, at most
    :data:`~pyaz.common.checked_json.MAX_JSON_BYTES`). Whatever else the file holds (nothing, a
    truncated or non-UTF-8 text, an array, nesting too deep), or a file that cannot be read or
    is no regular file (a FIFO is not opened for reading), gives a one-line ValueError that
    names the file and ends with ``remedy`` (what the user can do about it)."""
    try:
        data = read_json_file(Path(path), MAX_JSON_BYTES)
    except OSError as error:  # FileNotFoundError: the others are ValueErrors naming the file
        raise ValueError(f"cannot read {path}: {error.strerror or error}; {remedy}") from None
    except ValueError as error:
        raise ValueError(f"{error}; {remedy}") from None
    if not isinstance(data, dict):
        kind = "a boolean" if isinstance(data, bool) else _JSON_TYPES.get(type(data), "null")
        raise ValueError(f"{path} holds {kind}, not the JSON object pyaz writes; {remedy}")
    return data


def run_folder(out: Path, spec: RunSpec) -> Path:
    """The folder of a run of the experiment in ``out``."""
    return Path(out) / "runs" / spec.name


class Experiment(ABC):
    """A seed's experiment: its runs at each of the :data:`SCALES` and its report.

    ``report`` is called once every run is finished, with the experiment's folder; it evaluates
    what needs evaluating (matches of distinct games), aggregates over the runs, writes the
    figures, ``summary.json`` and a ``README.md`` that reads like the paper's results section for
    what was run, and returns the summary.
    """

    name: str = ""
    title: str = ""
    seed_paper: str = ""
    costs: dict[str, str] = {}  # noqa: RUF012  # scale -> what it costs, for --help and the README
    repeated: bool = False  # whether its runs are repeated (and --repetitions applies)
    repeat: int | None = None  # --repetitions: overrides the scale's number of repetitions
    # --option KEY=VALUE: the experiment's own options (e.g. alphagomoku's ablations), each
    # KEY one of ``option_help``'s
    option_help: dict[str, str] = {}  # noqa: RUF012
    options: dict[str, str] = {}  # noqa: RUF012

    def option_names(self, key: str, known: Collection[str]) -> list[str] | None:
        """``--option KEY=A,B``'s names, each checked against ``known`` (ValueError naming an
        unknown one), repeats dropped; None when the option is not given."""
        text = self.options.get(key)
        if text is None:
            return None
        names = [n.strip() for n in text.split(",") if n.strip()]
        for name in names:
            if name not in known:
                raise ValueError(
                    f"--option {key}: unknown {name!r}; known: {', '.join(known)} (comma-separated)"
                )
        if not names:
            raise ValueError(f"--option {key}= names none; known: {', '.join(known)}")
        return list(dict.fromkeys(names))

    def repetitions(self, scale: str) -> int:
        """Runs per configuration at ``scale``: ``repeat`` when set, else the scale's own."""
        return self.repeat if self.repeat is not None else self.scale_repetitions(scale)

    def scale_repetitions(self, scale: str) -> int:
        """Runs per configuration that ``scale`` asks for."""
        return 1

    @abstractmethod
    def runs(self, scale: str, seed: int = 0) -> list[RunSpec]:
        """The training runs at ``scale`` (one of :data:`SCALES`), in the order they start."""

    @abstractmethod
    def report(self, out: Path, runs: list[RunSpec], scale: str, seed: int = 0) -> dict[str, Any]:
        """Evaluates, aggregates and writes the outputs; returns the summary."""
