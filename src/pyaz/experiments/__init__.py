"""The seeds' experiments, one command away: ``pyaz-experiment NAME --out DIR [--short]``.

Each experiment (:class:`~pyaz.experiments.base.Experiment`) is a list of training runs and a
report; :func:`~pyaz.experiments.runner.run_experiment` runs them (several at once, resumable)
and writes the figures, ``summary.json`` and a ``README.md`` of the results. The registry maps
each name to the class that defines it, imported only when asked for.
"""

from __future__ import annotations

import importlib

from pyaz.experiments.base import Experiment, RunSpec

__all__ = ["EXPERIMENTS", "Experiment", "RunSpec", "get_experiment"]

EXPERIMENTS: dict[str, str] = {
    "curriculum": "pyaz.experiments.curriculum:CurriculumExperiment",
    "sweep": "pyaz.experiments.sweep:SweepExperiment",
    "losses": "pyaz.experiments.losses:LossesExperiment",
    "grid": "pyaz.experiments.grid:GridExperiment",
    "curling": "pyaz.experiments.curling:CurlingExperiment",
    "zetago": "pyaz.experiments.zetago:ZetaGoExperiment",
    "alphagomoku": "pyaz.experiments.alphagomoku:AlphaGomokuExperiment",
    "accelerations": "pyaz.experiments.accelerations:AccelerationsExperiment",
}
"""Experiment name -> ``"module:Class"``."""


def get_experiment(name: str) -> Experiment:
    """The experiment called ``name`` (ValueError naming the known ones otherwise)."""
    if name not in EXPERIMENTS:
        known = ", ".join(sorted(EXPERIMENTS))
        raise ValueError(f"unknown experiment {name!r}; known: {known}")
    module, _, cls = EXPERIMENTS[name].partition(":")
    experiment = getattr(importlib.import_module(module), cls)()
    if not isinstance(experiment, Experiment):
        raise TypeError(f"{EXPERIMENTS[name]} is not an Experiment")
    return experiment
