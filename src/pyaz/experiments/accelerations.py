"""``pyaz-experiment accelerations``: what each learning acceleration saves in wall-clock time
(issue 25), measured as KataGo's Table 2 does (Wu 2019, "Accelerating Self-Play Learning in
Go": the time the baseline needs to reach its final strength, over the time the technique
needs to reach the same strength).

**What is compared.** The baseline is pyaz-selfplay's current defaults with the track's board
and evaluation flags, but without the threat planes (as in every measurement before they became
Connect Four's default, 2026-11-26; the technique ``threat-planes`` turns them on). Each
technique of :data:`TECHNIQUES` (label -> the ``TrainConfig`` settings it changes, as data) is
added to the baseline one at a time, and ``all`` adds them
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
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from pyaz.common.plots import figure, save_figure
from pyaz.eval.arena import play_match
from pyaz.eval.players import close_player
from pyaz.eval.presets import make_player
from pyaz.eval.stats import RESAMPLES, bootstrap_mean
from pyaz.experiments.base import SIDE_BY_SIDE, Experiment, RunSpec, run_folder
from pyaz.experiments.report import Curve, cached, markdown_table, read_run, write_readme
from pyaz.games import make
from pyaz.train.preset_files import train_config

__all__ = [
    "ALL",
    "BASELINE",
    "HORIZON",
    "HORIZONS",
    "TECHNIQUES",
    "AccelerationsExperiment",
    "SpeedUp",
    "combine",
    "mean_curve",
    "speedup",
    "time_to_reach",
    "training_curve",
]

HORIZON = "horizon"
"""A technique's value that stands for the track's :data:`HORIZONS` entry at the scale run."""

TECHNIQUES: dict[str, dict[str, Any]] = {
    # Gumbel AlphaZero's root search (Danihelka et al. 2022), m = 16 root actions
    "gumbel": {"search_rule": "gumbel", "gumbel_actions": 16},
    # the same with 16 self-play simulations a move, the paper's point (it learns with few
    # simulations); the evaluations keep the run's `simulations` (100), as model:RUN:100 plays
    "gumbel-16": {"search_rule": "gumbel", "gumbel_actions": 16, "simulations_schedule": [16]},
    # MCTS-solver (Winands et al. 2008): proven wins and losses in the tree
    "solver": {"solver": True},
    # KataGo's playout cap randomisation: a full search on 25% of moves, simulations // 6 else
    "playout-cap": {"full_search_prob": 0.25, "cheap_simulations": 0},
    # KataGo's forced playouts and policy target pruning
    "forced-playouts": {"forced_playouts": True},
    # the value target (z + q) / 2 (Oracle's "Lessons from AlphaZero", part 4)
    "zq-average": {"value_target_q": 0.5},
    # one example per distinct position, its targets averaged (Oracle, part 6)
    "dedupe": {"dedupe": True},
    # the one-cycle learning rate over the run (Smith 2018; Oracle, part 6)
    "lr-onecycle": {"lr_schedule": "onecycle", "iterations": HORIZON},
    # the learning rate down to lr/100 along half a cosine over the run (Loshchilov & Hutter
    # 2017); over the time budget of the 6x6 main command, 0.948 and 0.938 against 0.926, 0.908
    "lr-cosine": {"lr_schedule": "cosine", "iterations": HORIZON},
    # the retained window growing from 4 iterations, one more every 2 (Oracle, part 6)
    "window-growth": {"window_growth": [4, 2]},
    # MiniZero's progressive simulation: 25, 50, then 100 simulations in self-play
    "progressive-sims": {"simulations_schedule": [25, 50, 100], "iterations": HORIZON},
    # seed 000's end-game-first curriculum (its Reversi schedule, eq. 6): the first part of each
    # self-play game played at random and not recorded, a share shrinking with training epochs
    "curriculum": {"curriculum": "reversi"},
    # KataGo's auxiliary score target (Wu 2019, 4.1): the final disc difference, weight 0.5
    "score-head": {"score_weight": 0.5},
    # self-play games opening with 0..24 uniformly random plies (unrecorded): training sees the
    # kind of positions random play reaches, which the Connect Four hard positions are
    "opening-spread": {"opening_spread": 24},
    # AlphaGo's mixed leaf value (Silver et al. 2016): half network value, half random playout
    "rollout-mix": {"rollout_mix": 0.5},
    # the value head's share of the loss tripled: 0.25 lp + 0.75 lv (the "lambda" loss), for a
    # value head that learns too little (the Connect Four probe of 2026-11-26)
    "value-weight": {"loss": "lambda", "loss_lambda": 0.25},
    # no dropout before the heads' linear layers (the baseline's 0.3 is seed 001's d)
    "no-dropout": {"dropout": 0.0},
    # the "small" network (4 residual blocks of 64 filters, 128 value units) in the same time
    "small-net": {"net": "small"},
    # one training epoch an iteration instead of two: half the training a position, so more
    # self-play games a minute (training takes 70-80% of a Connect Four iteration's time)
    "one-epoch": {"epochs": 1},
    # 6 plies drawn from the visit counts, then greedy (seed 004's semi-stochastic plies), not
    # 15: Connect Four 6x6 self-play games last about 33 plies, so 15 draws half of each game
    "sampling-6": {"sampling_plies": 6},
    # root noise Dir(1.0), not Dir(0.3): AlphaZero scales alpha inversely to the typical
    # number of legal moves (0.3 for chess's ~35); Connect Four and Othello 8x8 have 6-10
    "noise-1": {"dirichlet_alpha": 1.0},
    # two fixed input planes of the cells that complete a line of four for either player
    # (KataGo's hand-made input features); in the supervised probe of 2026-11-26 they cut the
    # held-out value error on random-play positions from 0.43 to 0.30-0.32
    "threat-planes": {"threat_planes": "on"},
    # the same two planes and two more: the cells where a stone makes a new threat (a line of
    # four with three of the player's stones and the fourth cell empty); Gomoku's default
    "threat-deep": {"threat_planes": "deep"},
    # the two threat planes and the rows where a threat of the player to move has the parity
    # that wins zugzwang endings (Allis 1988: odd rows for the first player, even for the
    # second), the errors Connect Four 6x6 networks shared early in the game (2026-11-28)
    "threat-parity": {"threat_planes": "parity"},
    # Othello's four planes of each player's legal moves and frontier (IAGO's current and
    # potential mobility, Rosenbloom 1982): the 8x8 networks of 2026-11-26/28 were 0.31-0.43
    # against gtp-rhino level 3 at 100 simulations a move, 0.70-0.89 at 800
    "othello-mobility": {"threat_planes": "mobility"},
    # eight planes in the value head's 1x1 convolution, not AlphaZero's one: on 6x6 the one
    # plane after its ReLU was positive in 16-23% of the cells, and a third of the hidden units
    # never fired, in the Connect Four runs of 2026-11-26/27 (Leela Chess Zero's value head has
    # 32 such planes)
    "value-planes": {"value_planes": 8},
}
"""Technique label -> the TrainConfig settings it changes from the baseline (:data:`HORIZON`:
the track's horizon)."""

_GUMBEL_FORCED = (
    "forced playouts act on PUCT's root and visit counts, which Gumbel's sequential halving "
    "and improved-policy target replace"
)
INCOMPATIBLE: dict[tuple[str, str], str] = {
    ("gumbel", "forced-playouts"): _GUMBEL_FORCED,
    ("gumbel-16", "forced-playouts"): _GUMBEL_FORCED,
    ("curriculum", "opening-spread"): "both choose the random plies opening a self-play game",
}
"""Pairs of techniques that cannot run together, and why: ``all`` keeps the first of each."""

TRACKS_OF: dict[str, tuple[str, ...]] = {
    "score-head": ("othello",),
    "opening-spread": ("connect4",),
    "threat-planes": ("connect4",),
    "threat-deep": ("connect4",),
    "threat-parity": ("connect4",),
    "othello-mobility": ("othello",),
}
"""Techniques that only some tracks' games have (Connect Four has no score): the others run on
every track."""

BASELINE = "baseline"
ALL = "all"
SHORT_TECHNIQUES = ("gumbel", "zq-average")
TRACKS = ("connect4", "othello")
METRICS = {
    "connect4": ("perfect_agreement", "share of value-keeping moves on hard positions"),
    "othello": ("win_ratio", "score against UCT-200"),
}
SMOOTHING = 3  # evaluations in the trailing mean of a curve

_COMMON = {"threads": 1, "torch_threads": 1, "epochs": 2}
_SHORT = {
    **_COMMON, "iterations": 3, "episodes": 4, "simulations": 8, "epochs": 1, "batch_size": 32,
    "net": "tiny", "filters": 8, "blocks": 1, "eval_every": 1, "parallel_games": 4,
    "length_probe_games": 20, "max_minutes": 2.0,
}  # fmt: skip
_CONNECT4 = {
    "game": "connect_four", "width": 6, "height": 6, "eval_opponent": "perfect",
    "threat_planes": "off",  # the baseline of every measurement before they were the default
    "opening_spread": 0,  # the same: before 2026-11-27 self-play games opened without it
    "lr_schedule": "constant",  # and before 2026-11-28 trained at a constant rate
}  # fmt: skip
_OTHELLO = {"game": "othello", "size": 8, "eval_opponent": "uct200"}
SETTINGS: dict[str, dict[str, dict[str, Any]]] = {
    "short": {
        "connect4": {**_SHORT, **_CONNECT4, "width": 5, "height": 4, "eval_games": 10},
        "othello": {**_SHORT, **_OTHELLO, "size": 6, "eval_games": 4},
    },
    "cpu": {
        "connect4": {**_COMMON, **_CONNECT4, "max_minutes": 12.0, "iterations": 300,
                     "eval_every": 2, "eval_games": 100},
        "othello": {**_COMMON, **_OTHELLO, "max_minutes": 15.0, "iterations": 100,
                    "eval_every": 2, "eval_games": 40},
    },
    "full": {
        "connect4": {**_COMMON, **_CONNECT4, "max_minutes": 30.0, "iterations": 800,
                     "eval_every": 2, "eval_games": 100},
        "othello": {**_COMMON, **_OTHELLO, "max_minutes": 60.0, "iterations": 400,
                    "eval_every": 2, "eval_games": 40},
    },
}  # fmt: skip
"""Scale -> track -> the baseline's settings (the README's commands with the board flags)."""

HORIZONS = {
    "short": {"connect4": 3, "othello": 3},
    "cpu": {"connect4": 70, "othello": 25},
    "full": {"connect4": 170, "othello": 100},
}
"""Scale -> track -> the iterations a schedule spans: about what the baseline plays in its
budget (Connect Four 6x6: 76 iterations in 12 minutes, README; Othello 8x8: 70 in 30 minutes
with two threads, so about 25 in 15 with one)."""

FINAL_SIMULATIONS = 100
FINAL_MATCHES: dict[str, tuple[tuple[str, int], ...]] = {
    "short": (("random", FINAL_SIMULATIONS),),
    "cpu": (
        ("gtp-rhino:1", FINAL_SIMULATIONS),
        ("gtp-rhino:3", FINAL_SIMULATIONS),
        ("gtp-rhino:3", 800),
    ),
}
FINAL_MATCHES["full"] = FINAL_MATCHES["cpu"]
"""Scale -> the Othello track's final matches: (opponent, the simulations a move of the run's
network, ``model:RUN:SIMS``). 800 is AlphaZero's budget a move; on the 2-core machine it takes
about 30 ms a move with the tiny network (2026-11-26)."""
FINAL_GAMES = {"short": 2, "cpu": 40, "full": 40}


def combine(labels: Sequence[str]) -> tuple[dict[str, Any], dict[str, str]]:
    """``all``: the settings of the techniques ``labels`` together, in order, each with the
    value it uses alone; and the techniques left out (label -> why): one :data:`INCOMPATIBLE`
    with a technique already in, or one that gives a setting of those another value."""
    merged: dict[str, Any] = {}
    taken: list[str] = []
    left_out: dict[str, str] = {}
    for label in labels:
        clash = next((t for t in taken if (t, label) in INCOMPATIBLE), None)
        if clash is not None:
            left_out[label] = f"cannot run with {clash}: {INCOMPATIBLE[clash, label]}"
            continue
        settings = TECHNIQUES[label]
        differ = [k for k, v in settings.items() if k in merged and merged[k] != v]
        if differ:
            left_out[label] = f"sets {differ[0]} otherwise than the techniques before it"
            continue
        merged.update(settings)
        taken.append(label)
    return merged, left_out


# -- time to strength -----------------------------------------------------------------------


def training_curve(records: Sequence[dict[str, Any]], metric: str) -> tuple[Curve, int, float]:
    """A run's evaluations of ``metric`` against its training minutes (self-play, training and
    gating time up to the evaluated iteration, its evaluations' time left out), the iterations
    it played and its training minutes in all."""
    seconds: dict[int, float] = {}
    for record in records:
        if record.get("kind") == "iteration":
            stages = ("time_selfplay", "time_train", "time_arena")
            seconds[int(record["iteration"])] = sum(float(record.get(k, 0.0)) for k in stages)
    minutes, total = {}, 0.0
    for iteration in sorted(seconds):
        total += seconds[iteration]
        minutes[iteration] = total / 60.0
    rows = [
        r
        for r in records
        if r.get("kind") == "eval" and metric in r and int(r["iteration"]) in minutes
    ]
    rows.sort(key=lambda r: int(r["iteration"]))
    x = np.array([minutes[int(r["iteration"])] for r in rows])
    y = np.array([float(r[metric]) for r in rows])
    return Curve(x, y), max(minutes, default=0), total / 60.0


def mean_curve(curves: Sequence[Curve]) -> Curve:
    """The mean of ``curves`` (each piecewise linear between its points) at every point of any
    of them within the span they all cover; a single curve is itself. When the spans do not
    overlap, at every point of any, each curve flat beyond its ends. Empty curves are ignored."""
    usable = [c for c in curves if c.x.size]
    if not usable:
        return Curve(np.zeros(0), np.zeros(0))
    start = max(float(c.x[0]) for c in usable)
    stop = min(float(c.x[-1]) for c in usable)
    grid = np.unique(np.concatenate([c.x for c in usable]))
    if stop >= start:
        grid = grid[(grid >= start) & (grid <= stop)]
    values = np.stack([np.interp(grid, c.x, c.y) for c in usable])
    return Curve(grid, values.mean(axis=0))


def time_to_reach(curve: Curve, level: float) -> float | None:
    """The first x where ``curve`` (piecewise linear between its points) reaches ``level``:
    its first x when it starts there, None when it never does."""
    y = curve.y
    hits = np.flatnonzero(y >= level - 1e-12)
    if hits.size == 0 or not np.isfinite(level):
        return None
    i = int(hits[0])
    if i == 0:
        return float(curve.x[0])
    x0, x1, y0, y1 = curve.x[i - 1], curve.x[i], y[i - 1], y[i]
    return float(x0 + (x1 - x0) * (level - y0) / (y1 - y0))


@dataclass(frozen=True)
class SpeedUp:
    """KataGo's Table 2 factor of a technique against the baseline (see the module docstring):
    ``target`` the baseline's final smoothed strength, reached after ``baseline_minutes`` by the
    baseline and ``minutes`` by the technique (None: not reached); ``factor`` their ratio (None:
    not reached), ``low``/``high`` its 95% bootstrap interval (0: not reached in that share of
    the resamples), ``reached`` the share of resamples in which the technique reached the
    target; ``runs`` the technique's runs."""

    target: float
    baseline_minutes: float | None
    minutes: float | None
    factor: float | None
    low: float
    high: float
    reached: float
    runs: int


def _factor(baseline: Sequence[Curve], technique: Sequence[Curve]) -> tuple[float, ...] | None:
    """(target, baseline time, technique time) of smoothed curves; None: not reached."""
    mean = mean_curve(baseline)
    if not mean.y.size:
        return None
    target = float(mean.y[-1])
    base_time = time_to_reach(mean, target)
    time = time_to_reach(mean_curve(technique), target)
    if base_time is None or time is None or time <= 0:
        return None
    return target, base_time, time


def speedup(
    baseline: Sequence[Curve], technique: Sequence[Curve], resamples: int = RESAMPLES, seed: int = 0
) -> SpeedUp:
    """The factor of ``technique``'s runs against ``baseline``'s (raw curves of strength
    against minutes, one per run; each smoothed by the trailing mean of :data:`SMOOTHING`
    evaluations), with its bootstrap interval over the runs (``resamples``, seeded)."""
    smooth_b = [c.trailing(SMOOTHING) for c in baseline if c.x.size]
    smooth_t = [c.trailing(SMOOTHING) for c in technique if c.x.size]
    mean = mean_curve(smooth_b)
    target = float(mean.y[-1]) if mean.y.size else float("nan")
    base_time = time_to_reach(mean, target) if mean.y.size else None
    point = _factor(smooth_b, smooth_t) if smooth_t else None
    samples = np.zeros(max(1, resamples))
    if smooth_b and smooth_t:
        rng = np.random.default_rng(seed)
        for k in range(samples.size):
            b = [smooth_b[i] for i in rng.integers(len(smooth_b), size=len(smooth_b))]
            t = [smooth_t[i] for i in rng.integers(len(smooth_t), size=len(smooth_t))]
            found = _factor(b, t)
            samples[k] = found[1] / found[2] if found else 0.0
    low, high = (float(v) for v in np.percentile(samples, [2.5, 97.5]))
    minutes, factor = (point[2], point[1] / point[2]) if point else (None, None)
    reached = float(np.mean(samples > 0))
    return SpeedUp(target, base_time, minutes, factor, low, high, reached, len(smooth_t))


# -- the experiment ---------------------------------------------------------------------------


def _track_techniques(track: str, names: Sequence[str]) -> list[str]:
    """The techniques of ``names`` that ``track``'s game has (:data:`TRACKS_OF`)."""
    return [name for name in names if track in TRACKS_OF.get(name, (track,))]


def _cost(connect4_minutes: int, othello_minutes: int, repetitions: int) -> str:
    """The run time of a scale that runs every technique of both tracks."""
    minutes = {"connect4": connect4_minutes, "othello": othello_minutes}
    counts = {t: len(_track_techniques(t, list(TECHNIQUES))) for t in TRACKS}
    # a run a technique, the baseline and all
    hours = {t: (counts[t] + 2) * minutes[t] / 60 for t in TRACKS}
    total = repetitions * sum(hours.values())
    return (
        f"the baseline, every technique its game has ({counts['connect4']} on Connect Four, "
        f"{counts['othello']} on Othello) and all, x {repetitions} repetitions: Connect Four 6x6 "
        f"at {connect4_minutes} minutes a run ({hours['connect4']:.1f} hours a repetition) and "
        f"Othello 8x8 at {othello_minutes} ({hours['othello']:.1f} hours), so about "
        f"{total:.0f} hours of run time, {total / 2:.0f} with --workers 2 (two runs at once, "
        "one core each)"
    )


class AccelerationsExperiment(Experiment):
    """Issue 25's measurement of the learning accelerations (see the module docstring)."""

    name = "accelerations"
    title = "time saved per technique to reach the baseline's strength (KataGo's Table 2)"
    seed_paper = "issue 25; KataGo (Wu 2019) Table 2"
    costs = {  # noqa: RUF012
        "short": "Connect Four 5x4 and Othello 6x6, the baseline, 2 techniques and all, 3 "
        "iterations each: about 15 seconds on 2 cores (CI)",
        "cpu": _cost(12, 15, 2) + "; then every final Othello network plays gtp-rhino (3 "
        "matches of 40 games, at 0.2-1 s a game)",
        "full": _cost(30, 60, 3),
    }
    option_help = {  # noqa: RUF012
        "techniques": f"comma-separated, among {', '.join(TECHNIQUES)}: run only these (and "
        "all, their combination, when two or more)",
        "tracks": "comma-separated, among connect4, othello: run only these tracks",
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
        return names if track is None else _track_techniques(track, names)

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
            _introduction(scale, self.repetitions(scale), summary["techniques"], left_out, tracks)
        ]
        for track in tracks:
            specs = [spec for spec in runs if spec.group == track]
            track_labels = self.labels(scale, track)
            result, section = _report_track(out, track, specs, track_labels, scale, seed)
            if ALL in track_labels:
                result["all"] = self.overrides(ALL, scale, track)
            summary["tracks"][track] = result
            sections.append(section)
        summary["verdict"] = _verdict(summary)
        sections.append(summary["verdict"])
        write_readme(out, "Issue 25: the learning accelerations, time to strength", sections)
        return summary


def _report_track(
    out: Path, track: str, specs: list[RunSpec], labels: list[str], scale: str, seed: int
) -> tuple[dict[str, Any], str]:
    metric, meaning = METRICS[track]
    played = {
        label: [training_curve(read_run(run_folder(out, spec) / label), metric) for spec in specs]
        for label in labels
    }
    curves = {label: [curve for curve, _, _ in runs] for label, runs in played.items()}
    result: dict[str, Any] = {"metric": metric, "figure": f"{track}.png", "techniques": {}}
    rows = []
    factors = {}
    for index, label in enumerate(labels):
        factor = factors[label] = speedup(curves[BASELINE], curves[label], seed=seed + index)
        finals = [float(c.trailing(SMOOTHING).y[-1]) for c in curves[label] if c.y.size]
        mean, low, high = bootstrap_mean(finals, seed=seed + index)
        iterations, minutes = [p[1] for p in played[label]], [p[2] for p in played[label]]
        result["techniques"][label] = {
            "runs": factor.runs,
            "iterations": iterations,
            "training_minutes": minutes,
            "final": finals,
            "final_mean": mean,
            "final_interval": [low, high],
            "minutes_to_baseline_final": factor.minutes,
            "factor": factor.factor,
            "factor_interval": [factor.low, factor.high],
            "reached_share": factor.reached,
        }
        rows.append(
            [
                label,
                factor.runs,
                f"{np.mean(iterations):.0f}",
                f"{np.mean(minutes):.3g}",
                _interval(mean, low, high),
                "not reached" if factor.minutes is None else f"{factor.minutes:.3g}",
                _factor_text(factor),
            ]
        )
    baseline = factors[BASELINE]
    result["baseline_final"] = baseline.target
    result["baseline_minutes"] = baseline.baseline_minutes
    _plot(out / f"{track}.png", track, curves, specs)
    game = train_config(specs[0].kwargs["configs"][BASELINE]) if specs else None
    board = _board(game.game_options) if game else ""
    target = "nan" if not np.isfinite(baseline.target) else f"{baseline.target:.3f}"
    section = (
        f"## {_TITLES[track]} {board}: {meaning}\n\n![{track}]({track}.png)\n\n"
        + markdown_table(
            [
                "technique",
                "runs",
                "iterations",
                "training minutes",
                f"final {metric} [95% interval]",
                "minutes to the baseline's final",
                "time factor [95% interval]",
            ],
            rows,
        )
        + f"\n\nThe baseline's final strength (mean of its runs' smoothed curves at their common "
        f"end) is {target}, reached after {_minutes(baseline.baseline_minutes)}. The factor is "
        "the baseline's time to it over the technique's (> 1: faster); the baseline's own row "
        "is 1 by definition, and its interval (runs against resampled runs of itself) shows how "
        "noisy the measure is."
    )
    final_matches = FINAL_MATCHES[scale] if track == "othello" else ()
    if final_matches and specs:
        matches, text = _final_matches(out, specs, labels, final_matches, scale, seed)
        result["final_matches"] = matches
        section += "\n\n" + text
    return result, section


_TITLES = {"connect4": "Connect Four", "othello": "Othello"}


def _board(options: dict[str, Any]) -> str:
    if "size" in options:
        return f"{options['size']}x{options['size']}"
    return f"{options.get('width', 7)}x{options.get('height', 6)}"


def _minutes(value: float | None) -> str:
    return "never" if value is None else f"{value:.3g} training minutes"


def _interval(mean: float, low: float, high: float) -> str:
    return "nan" if not np.isfinite(mean) else f"{mean:.3f} [{low:.3f}, {high:.3f}]"


def _factor_text(factor: SpeedUp) -> str:
    point = "not reached" if factor.factor is None else f"{factor.factor:.2f}"
    return f"{point} [{factor.low:.2f}, {factor.high:.2f}]"


def _plot(path: Path, track: str, curves: dict[str, list[Curve]], specs: list[RunSpec]) -> None:
    """Strength against training minutes, one line per technique: the mean of its runs'
    smoothed curves, with the band between the lowest and highest."""
    from matplotlib import colormaps

    fig = figure(1, width=10.0, height=6.0)
    ax = fig.subplots()
    colours = colormaps["tab20"]
    for index, (label, runs) in enumerate(curves.items()):
        smoothed = [c.trailing(SMOOTHING) for c in runs if c.x.size]
        mean = mean_curve(smoothed)
        if not mean.x.size:
            continue
        low = np.min([np.interp(mean.x, c.x, c.y) for c in smoothed], axis=0)
        high = np.max([np.interp(mean.x, c.x, c.y) for c in smoothed], axis=0)
        colour = "black" if label == BASELINE else colours((2 * index) % 20 + index // 10 % 2)
        width = 2.5 if label in (BASELINE, ALL) else 1.2
        ax.plot(mean.x, mean.y, color=colour, linewidth=width, label=label)
        ax.fill_between(mean.x, low, high, color=colour, alpha=0.12)
    metric, meaning = METRICS[track]
    ax.set_xlabel("training minutes (self-play + training, evaluations left out)")
    ax.set_ylabel(f"{metric}: {meaning}")
    ax.set_ylim(-0.02, 1.02)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, ncol=2)
    ax.set_title(
        f"{_TITLES[track]}: mean of {len(specs)} run(s) per technique, trailing mean of "
        f"{SMOOTHING} evaluations, band = lowest to highest run"
    )
    save_figure(fig, path, 110)


def _final_matches(
    out: Path,
    specs: list[RunSpec],
    labels: list[str],
    finals: Sequence[tuple[str, int]],
    scale: str,
    seed: int,
) -> tuple[dict[str, Any], str]:
    """Every run's final network against each opponent of ``finals`` at its simulations a move
    (played once, then read back)."""
    games = FINAL_GAMES[scale]
    matches: dict[str, Any] = {}
    rows = []
    distinct = games
    for label in labels:
        row: list[Any] = [label, len(specs)]
        for opponent, simulations in finals:
            name = _final_name(opponent, simulations)
            suffix = "" if simulations == FINAL_SIMULATIONS else f"-{simulations}"
            stem = f"{label}-{opponent.replace(':', '-')}{suffix}"
            results = [
                cached(
                    out / "final-matches" / f"{spec.name}-{stem}.json",
                    partial(_final_match, out, spec, label, opponent, simulations, games, seed),
                )
                for spec in specs
            ]
            scores = [float(r["score"]) for r in results]
            mean, low, high = bootstrap_mean(scores, seed=seed)
            distinct = min([distinct, *(int(r["distinct_games"]) for r in results)])
            matches.setdefault(name, {})[label] = {
                "scores": scores,
                "mean": mean,
                "interval": [low, high],
                "results": results,
                "simulations": simulations,
            }
            row.append(_interval(mean, low, high))
        rows.append(row)
    budgets = sorted({simulations for _, simulations in finals})
    text = (
        f"Final networks (`model:RUN:SIMS`, PUCT, greedy; SIMS = "
        f"{' or '.join(map(str, budgets))} simulations a move) against "
        f"{', '.join(sorted({o for o, _ in finals}))}: {games} games a run from {games // 2} "
        f"random openings, each with both colours (at least {distinct} distinct games in every "
        "match); the score counts draws half, the interval is the bootstrap over the runs.\n\n"
        + markdown_table(
            ["technique", "runs", *[f"vs {_final_name(o, n)}" for o, n in finals]], rows
        )
    )
    return matches, text


def _final_name(opponent: str, simulations: int) -> str:
    """A final match's name: the opponent, and the simulations when not the usual 100."""
    return opponent if simulations == FINAL_SIMULATIONS else f"{opponent} ({simulations} sims)"


def _final_match(
    out: Path, spec: RunSpec, label: str, opponent: str, simulations: int, games: int, seed: int
) -> dict[str, Any]:
    """The final network of ``label`` in run ``spec``, with ``simulations`` a move, against
    ``opponent``."""
    folder = run_folder(out, spec) / label
    settings = train_config(spec.kwargs["configs"][label])
    state = make(settings.game, **settings.game_options)
    player = make_player(f"model:{folder}:{simulations}", state, seed=seed)
    rival = make_player(opponent, state, seed=seed + 1)
    try:
        result = play_match(player, rival, games, state, seed=seed)
    finally:
        close_player(rival)
        close_player(player)
    return result.as_record()


def _introduction(
    scale: str,
    repetitions: int,
    overrides: dict[str, dict[str, Any]],
    left_out: dict[str, str],
    tracks: Sequence[str] = TRACKS,
) -> str:
    boards = []
    for track in tracks:
        settings = SETTINGS[scale][track]
        minutes = f"{float(settings['max_minutes']):g}"
        boards.append(f"{_TITLES[track]} {_board(settings)} ({minutes} minutes a run)")
    what = (
        " and ".join(boards)
        + {
            "short": ", tiny networks, 3 iterations: every stage, numbers without meaning",
            "cpu": " on a 2-core CPU, one core a track",
            "full": "",
        }[scale]
    )
    rows = [[label, _describe(settings)] for label, settings in overrides.items()]
    horizons = ", ".join(f"{_TITLES[t]} {HORIZONS[scale][t]}" for t in tracks)
    text = (
        f"Scale: **{scale}**, {what}; {repetitions} run(s) per technique. Each technique is "
        "added to the baseline (pyaz-selfplay's defaults with the track's flags) alone, and "
        "`all` adds them together. The runs of one track and repetition train side by side in "
        "one process, one iteration of each in turn, from the same seed; every curve is "
        "against training minutes (self-play and training, the evaluations' own time left "
        "out). See the docstring of `pyaz.experiments.accelerations` for the method.\n\n"
        + markdown_table(["technique", "settings changed"], rows)
        + f"\n\n`{HORIZON}` is the iterations a schedule spans at this scale: {horizons}."
    )
    if left_out and ALL in overrides:
        text += "\n\nLeft out of `all`: " + "; ".join(f"{k} ({v})" for k, v in left_out.items())
    return text


def _describe(settings: dict[str, Any]) -> str:
    if not settings:
        return "none (the reference)"
    return ", ".join(f"`{k}={v}`" for k, v in settings.items())


def _verdict(summary: dict[str, Any]) -> str:
    lines = ["## Verdict\n"]
    for track, result in summary["tracks"].items():
        lines.append(_time_verdict(track, result))
        lines.append(_final_verdict(track, result))
    return "\n".join(lines)


def _final_verdict(track: str, result: dict[str, Any]) -> str:
    """Final strength against the baseline's: apart when the intervals do not overlap (on flat
    curves the time factor says little: a curve that touches the baseline's end early gets any
    factor)."""
    baseline = result["techniques"][BASELINE]
    base_low, base_high = baseline["final_interval"]
    above, below = [], []
    for label, data in result["techniques"].items():
        low, high = data["final_interval"]
        if label == BASELINE or data["runs"] < 2 or baseline["runs"] < 2:
            continue
        text = f"{label} ({data['final_mean']:.3f})"
        if low > base_high:
            above.append(text)
        elif high < base_low:
            below.append(text)
    return (
        f"- {_TITLES[track]}, final strength (baseline {baseline['final_mean']:.3f}): above the "
        f"baseline's interval: {', '.join(above) or 'none'}; below it: "
        f"{', '.join(below) or 'none'}; the others' intervals overlap it (or one run: no "
        "interval)."
    )


def _time_verdict(track: str, result: dict[str, Any]) -> str:
    """KataGo's time factor against the baseline: decided when its interval excludes 1."""
    faster, slower, undecided = [], [], []
    repeated = result["techniques"][BASELINE]["runs"] > 1
    for label, data in result["techniques"].items():
        if label == BASELINE:
            continue
        low, high = data["factor_interval"]
        factor = data["factor"]
        text = f"{label} ({'not reached' if factor is None else f'{factor:.2f}'})"
        if not repeated or data["runs"] < 2:
            undecided.append(text)
        elif low > 1:
            faster.append(text)
        elif high < 1:
            slower.append(text)
        else:
            undecided.append(text)
    return (
        f"- {_TITLES[track]}, time to the baseline's final strength: faster than the baseline "
        f"(interval above 1): {', '.join(faster) or 'none'}; slower (interval below 1): "
        f"{', '.join(slower) or 'none'}; not decided by these runs: "
        f"{', '.join(undecided) or 'none'}"
        + ("." if repeated else " (one run each: no interval, nothing decided).")
    )
