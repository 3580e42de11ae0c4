"""``pyaz-experiment accelerations``: what each learning acceleration saves in wall-clock time
(issue 25), measured as KataGo's Table 2 does (Wu 2019, "Accelerating Self-Play Learning in
Go": the time the baseline needs to reach its final strength, over the time the technique
needs to reach the same strength).

**What is compared.** The baseline is pyaz-selfplay's current defaults with the track's board
and evaluation flags, but without the threat planes (as in every measurement before they became
Connect Four's default, 2026-11-26; the technique ``threat-planes`` turns them on). Each
technique of :data:`TECHNIQUES` (label -> the ``TrainConfig`` settings it changes: the values
``--technique NAME`` gives, read from the techniques registry :mod:`pyaz.train.techniques`, and
variants of core settings) is added to the baseline one at a time, and ``all`` adds them
together, each with the value it uses alone (:func:`combine`; a technique that cannot join
the ones before it, by :data:`INCOMPATIBLE` or by giving a setting another value, is left out
of ``all`` and the report says so). ``--option techniques=a,b`` runs a subset (``all`` is
then their combination), ``--option tracks=connect4`` one track. A technique that a track's game
does not have (the score head on Connect Four, :data:`TRACKS_OF`) is left out of that track.

**Two tracks.** (a) Connect Four 6x6, scored by agreement with exact play
(``eval_opponent="perfect"``: the network's search player's share of value-keeping moves on a
seeded set of hard positions, :mod:`pyaz.eval.oracle`; the metric ``perfect_agreement``);
(b) Othello 8x8, scored against UCT-200 at every evaluation (``win_ratio``, distinct games
from shared random openings with both colours), and at the ``cpu`` and ``full`` scales the
final network of every run (``model:RUN:100``, PUCT with 100 simulations) then plays
gtp-rhino levels 1 and 3 in the report stage (:data:`FINAL_GAMES` games each, from half as
many distinct random openings, each played with both colours; a training run evaluates
against one opponent only).

The search techniques change self-play only: every evaluation plays the run's network with
PUCT and the run's ``simulations`` (the training loop's evaluation player), so that the curves
measure what the network learned, as ``model:RUN:100`` plays it.

**Time.** Every run has a wall-clock budget (``max_minutes``, counting its evaluations) and is
evaluated every ``eval_every`` iterations. Curves are drawn against *training minutes*: the
run's self-play and training time up to the evaluated iteration (the sum of its iteration
records' stage times), the evaluations' own time left out, since it is measurement, not
learning. ``iterations`` is a cap far above what the budget allows, so that the clock ends
every run, except for the techniques whose schedule has a horizon (the learning-rate and
simulation schedules, and ``all``): they set ``iterations`` to :data:`HORIZONS` (about what the
baseline plays in the budget on a 2-core machine), so that their schedule runs its course;
such a run may end before its budget (the report gives every technique's iterations and
minutes).

**Sharing the machine.** The runs of one track and repetition train side by side in one
process (:func:`~pyaz.experiments.runs.train_side_by_side`, as ``curriculum`` does): one
iteration of each technique in turn, each counting its own time, all from the same seed (the
same initial network, evaluation positions and openings), so that a change in the machine's
load falls on every technique alike. The two tracks are separate runs: ``--workers 2`` trains
them at once, one core each (every run sets ``threads`` and ``torch_threads`` to 1). The
first configuration of a run (the baseline) also pays the process's start-up costs in its first
iteration: a fraction of a second, which dominates the ``short`` scale's times and is lost in
the ``cpu`` scale's minutes.

**The factor** (:func:`speedup`). Each run's curve is smoothed by a trailing mean of up to 3
evaluations; the repetitions' smoothed curves are averaged on their common time span
(:func:`mean_curve`). The target is the baseline's mean curve at its end; the time to reach it
is where a mean curve first reaches it (linear between evaluations, :func:`time_to_reach`);
the factor is the baseline's time over the technique's (> 1: faster), "not reached" when the
technique's curve never gets there. Its 95% interval is a percentile bootstrap over the
repetitions (baseline and technique runs resampled independently, the target recomputed each
time; a resample that does not reach counts as factor 0). The final strength (the smoothed
curve's last value) is given per technique as the mean over its runs with the same bootstrap
interval; with 2 runs that interval is the range of the two.

**Scales.** ``short``: CI (Connect Four 5x4, Othello 6x6, two techniques and ``all``, one
repetition, tiny networks, 3 iterations). ``cpu``: the issue's boards, every technique, 2
repetitions, 12 minutes a Connect Four run and 15 an Othello one. ``full``: 30 and 60
minutes a run, 3 repetitions.

**Where it is.** This module holds the experiment (its runs and its report's outline); the
techniques, tracks and scales are data in :mod:`~pyaz.experiments.acceleration_techniques`
(:data:`TECHNIQUES`, :func:`combine`, :data:`INCOMPATIBLE`, :data:`TRACKS_OF`, :data:`HORIZONS`,
:data:`FINAL_GAMES`), the curves and the factor in :mod:`~pyaz.experiments.time_to_strength`
(:func:`speedup`, :func:`mean_curve`, :func:`time_to_reach`), the report's sections and figures
in :mod:`~pyaz.experiments.acceleration_report`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pyaz.experiments.acceleration_report import board_of, introduction, report_track, verdict
from pyaz.experiments.acceleration_techniques import (
    ALL,
    BASELINE,
    HORIZON,
    HORIZONS,
    SETTINGS,
    SHORT_TECHNIQUES,
    TECHNIQUES,
    TITLES,
    TRACKS,
    combine,
    track_techniques,
)
from pyaz.experiments.base import SIDE_BY_SIDE, Experiment, RunSpec
from pyaz.experiments.report import write_readme
from pyaz.methods.alphazero.preset_files import train_config

__all__ = ["AccelerationsExperiment"]


def _cost(scale: str, repetitions: int) -> str:
    """The run time of ``scale`` when it runs every technique of every track (each run the
    track's ``max_minutes``)."""
    minutes = {t: float(SETTINGS[scale][t]["max_minutes"]) for t in TRACKS}
    counts = {t: len(track_techniques(t, list(TECHNIQUES))) for t in TRACKS}
    # a run a technique, the baseline and all
    hours = {t: (counts[t] + 2) * minutes[t] / 60 for t in TRACKS}
    total = repetitions * sum(hours.values())
    each = ", ".join(f"{counts[t]} on {TITLES[t]}" for t in TRACKS)
    runs = " and ".join(
        f"{TITLES[t]} {board_of(SETTINGS[scale][t])} at {minutes[t]:g}"
        + (" minutes a run" if i == 0 else "")
        + f" ({hours[t]:.1f} hours{' a repetition' if i == 0 else ''})"
        for i, t in enumerate(TRACKS)
    )
    return (
        f"the baseline, every technique its game has ({each}) and all, x {repetitions} "
        f"repetitions: {runs}, so about {total:.0f} hours of run time, {total / 2:.0f} with "
        "--workers 2 (two runs at once, one core each)"
    )


class AccelerationsExperiment(Experiment):
    """Issue 25's measurement of the learning accelerations (see the module docstring)."""

    name = "accelerations"
    title = "time saved per technique to reach the baseline's strength (KataGo's Table 2)"
    seed_paper = "issue 25; KataGo (Wu 2019) Table 2"
    costs = {  # noqa: RUF012
        "short": "Connect Four 5x4 and Othello 6x6, the baseline, 2 techniques and all, 3 "
        "iterations each: about 15 seconds on 2 cores (CI)",
        "cpu": _cost("cpu", 2) + "; then every final Othello network plays gtp-rhino (3 "
        "matches of 40 games, at 0.2-1 s a game)",
        "full": _cost("full", 3),
    }
    option_help = {  # noqa: RUF012
        "techniques": f"comma-separated, among {', '.join(TECHNIQUES)}: run only these (and "
        "all, their combination, when two or more)",
        "tracks": f"comma-separated, among {', '.join(TRACKS)}: run only these tracks",
    }
    repeated = True

    def scale_repetitions(self, scale: str) -> int:
        return {"short": 1, "cpu": 2, "full": 3}[scale]

    def techniques(self, scale: str, track: str | None = None) -> list[str]:
        """The techniques run at ``scale`` (``--option techniques``, else the scale's own); with
        ``track``, those its game has (:data:`TRACKS_OF`)."""
        names = self.option_names("techniques", TECHNIQUES)
        if not names:
            names = list(SHORT_TECHNIQUES) if scale == "short" else list(TECHNIQUES)
        return names if track is None else track_techniques(track, names)

    def tracks(self) -> list[str]:
        """The tracks run (``--option tracks``, else both)."""
        return self.option_names("tracks", TRACKS) or list(TRACKS)

    def labels(self, scale: str, track: str | None = None) -> list[str]:
        """The configurations of ``track`` (None: of any track): the baseline, the techniques,
        and ``all``."""
        techniques = self.techniques(scale, track)
        return [BASELINE, *techniques, *([ALL] if len(techniques) > 1 else [])]

    def overrides(self, label: str, scale: str, track: str | None = None) -> dict[str, Any]:
        """What configuration ``label`` changes from the baseline (``all``: :func:`combine` of
        ``track``'s techniques)."""
        if label == BASELINE:
            return {}
        if label == ALL:
            return combine(self.techniques(scale, track))[0]
        return dict(TECHNIQUES[label])

    def config(self, track: str, label: str, scale: str, seed: int) -> dict[str, Any]:
        """The settings of one run: the track's baseline with ``label``'s changes."""
        values = {**SETTINGS[scale][track], "seed": seed}
        for key, value in self.overrides(label, scale, track).items():
            values[key] = HORIZONS[scale][track] if value == HORIZON else value
        return values

    def runs(self, scale: str, seed: int = 0) -> list[RunSpec]:
        specs = []
        for rep in range(self.repetitions(scale)):
            rep_seed = seed * 100 + rep
            for track in self.tracks():
                labels = self.labels(scale, track)
                configs = {label: self.config(track, label, scale, rep_seed) for label in labels}
                for label, config in configs.items():
                    try:
                        train_config(config).validate()
                    except (ValueError, TypeError) as error:
                        raise ValueError(f"accelerations, {track} {label}: {error}") from None
                cost = float(SETTINGS[scale][track]["max_minutes"]) * len(configs)
                name = f"{track}-run{rep + 1}"
                specs.append(RunSpec(name, SIDE_BY_SIDE, {"configs": configs}, track, cost))
        return specs

    def report(self, out: Path, runs: list[RunSpec], scale: str, seed: int = 0) -> dict[str, Any]:
        techniques = self.techniques(scale)
        labels = self.labels(scale)
        _, left_out = combine(techniques)
        summary: dict[str, Any] = {
            "techniques": {label: self.overrides(label, scale) for label in labels},
            "left_out_of_all": left_out if ALL in labels else {},
            "time_axis": "training minutes (self-play + training, evaluations left out)",
            "tracks": {},
        }
        tracks = self.tracks()
        sections = [
            introduction(scale, self.repetitions(scale), summary["techniques"], left_out, tracks)
        ]
        for track in tracks:
            specs = [spec for spec in runs if spec.group == track]
            track_labels = self.labels(scale, track)
            result, section = report_track(out, track, specs, track_labels, scale, seed)
            if ALL in track_labels:
                result["all"] = self.overrides(ALL, scale, track)
            summary["tracks"][track] = result
            sections.append(section)
        summary["verdict"] = verdict(summary)
        sections.append(summary["verdict"])
        write_readme(out, "Issue 25: the learning accelerations, time to strength", sections)
        return summary
