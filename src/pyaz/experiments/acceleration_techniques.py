"""The accelerations experiment's techniques, tracks and scales, as data
(:mod:`pyaz.experiments.accelerations` describes the method): each technique's settings
(:data:`TECHNIQUES`: the techniques registry's, :mod:`pyaz.train.techniques`, and the
:data:`VARIANTS` of core settings, with why each was tried), the pairs that cannot run together, the
tracks' baselines per scale (:data:`SETTINGS`), the schedules' horizons and the Othello track's
final matches; :func:`combine` makes ``all``. The tracks (their games, boards, metrics and
horizons) are read from the data file ``acceleration_tracks.toml`` beside this module.
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from importlib import resources
from typing import Any

from pyaz.train.techniques import TECHNIQUES as REGISTRY

__all__ = [
    "ALL",
    "BASELINE",
    "FINAL_GAMES",
    "FINAL_MATCHES",
    "FINAL_MATCH_TRACKS",
    "FINAL_SIMULATIONS",
    "HORIZON",
    "HORIZONS",
    "INCOMPATIBLE",
    "METRICS",
    "ORDER",
    "REGISTERED",
    "SETTINGS",
    "SHORT_TECHNIQUES",
    "TECHNIQUES",
    "TITLES",
    "TRACKS",
    "TRACKS_OF",
    "VARIANTS",
    "combine",
    "track_techniques",
]

HORIZON = "horizon"
"""A technique's value that stands for the track's :data:`HORIZONS` entry at the scale run."""

REGISTERED = (
    "gumbel", "solver", "playout-cap", "forced-playouts", "zq-average", "dedupe", "lr-cosine",
    "window-growth", "progressive-sims", "curriculum", "score-head", "opening-spread",
    "rollout-mix", "threat-planes", "value-planes",
)  # fmt: skip
"""The techniques run under their name in the techniques registry
(:data:`pyaz.train.techniques.TECHNIQUES`): each runs with the values ``--technique NAME``
gives (its ``switches_on``), and the registry holds what it is and what it measured."""

VARIANTS: dict[str, dict[str, Any]] = {
    # Gumbel with 16 self-play simulations a move, the paper's point (it learns with few
    # simulations); the evaluations keep the run's `simulations` (100), as model:RUN:100 plays
    "gumbel-16": {"search_rule": "gumbel", "gumbel_actions": 16, "simulations_schedule": [16]},
    # the one-cycle learning rate over the run (Smith 2018; Oracle, part 6)
    "lr-onecycle": {"lr_schedule": "onecycle"},
    # the value head's share of the loss tripled: 0.25 lp + 0.75 lv (the registry's
    # loss-variants), for a value head that learns too little (the Connect Four probe of
    # 2026-11-26)
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
    # the threat planes and two more: the cells where a stone makes a new threat (a line of
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
}
"""The treatments that are no technique of the registry: other values of a core setting (the
network, the epochs, the sampled plies, the root noise) or of a technique's setting, each with
why it was tried."""

ON_HORIZON = ("lr-onecycle", "lr-cosine", "progressive-sims")
"""The treatments whose schedule spans the run: their ``iterations`` is :data:`HORIZON`."""

ORDER = (
    "gumbel", "gumbel-16", "solver", "playout-cap", "forced-playouts", "zq-average", "dedupe",
    "lr-onecycle", "lr-cosine", "window-growth", "progressive-sims", "curriculum", "score-head",
    "opening-spread", "rollout-mix", "value-weight", "no-dropout", "small-net", "one-epoch",
    "sampling-6", "noise-1", "threat-planes", "threat-deep", "threat-parity", "othello-mobility",
    "value-planes",
)  # fmt: skip
"""The treatments in the order they run (``all`` combines them in this order; the labels name
the runs' folders)."""


def _settings(label: str) -> dict[str, Any]:
    """The TrainConfig settings treatment ``label`` changes from the baseline."""
    registered = label in REGISTERED
    settings = dict(REGISTRY[label].switches_on if registered else VARIANTS[label])
    if label in ON_HORIZON:
        settings["iterations"] = HORIZON
    return settings


TECHNIQUES: dict[str, dict[str, Any]] = {label: _settings(label) for label in ORDER}
"""Technique label -> the TrainConfig settings it changes from the baseline (:data:`HORIZON`:
the track's horizon): the registry's techniques (:data:`REGISTERED`) and the
:data:`VARIANTS`."""

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

_DATA: dict[str, Any] = tomllib.loads(
    resources.files("pyaz.experiments").joinpath("acceleration_tracks.toml").read_text()
)
_TRACKS: dict[str, dict[str, Any]] = _DATA["tracks"]

TRACKS_OF: dict[str, tuple[str, ...]] = {
    label: tuple(tracks) for label, tracks in _DATA["only_on"].items()
}
"""Techniques that only some tracks' games have (Connect Four has no score): the others run on
every track."""

BASELINE = "baseline"
ALL = "all"
SHORT_TECHNIQUES = ("gumbel", "zq-average")
TRACKS = tuple(_TRACKS)
"""The tracks' labels (their runs' folders: ``LABEL-runN``), in the order they run."""
METRICS = {track: (data["metric"][0], data["metric"][1]) for track, data in _TRACKS.items()}
"""Track -> the metric its curves follow and what it means."""
TITLES = {track: str(data["title"]) for track, data in _TRACKS.items()}
"""Track -> its game as the report names it."""

_COMMON = {"threads": 1, "torch_threads": 1, "epochs": 2}
_SHORT = {
    **_COMMON, "iterations": 3, "episodes": 4, "simulations": 8, "epochs": 1, "batch_size": 32,
    "net": "tiny", "filters": 8, "blocks": 1, "eval_every": 1, "parallel_games": 4,
    "length_probe_games": 20, "max_minutes": 2.0,
}  # fmt: skip
_SCALE_COMMON: dict[str, dict[str, Any]] = {"short": _SHORT, "cpu": _COMMON, "full": _COMMON}
SETTINGS: dict[str, dict[str, dict[str, Any]]] = {
    scale: {
        track: {**common, **data["baseline"], **data["scales"][scale]}
        for track, data in _TRACKS.items()
    }
    for scale, common in _SCALE_COMMON.items()
}
"""Scale -> track -> the baseline's settings (the README's commands with the board flags)."""

HORIZONS = {
    scale: {track: int(data["horizons"][scale]) for track, data in _TRACKS.items()}
    for scale in _SCALE_COMMON
}
"""Scale -> track -> the iterations a schedule spans: about what the baseline plays in its
budget (Connect Four 6x6: 76 iterations in 12 minutes, README; Othello 8x8: 70 in 30 minutes
with two threads, so about 25 in 15 with one)."""

FINAL_MATCH_TRACKS = tuple(track for track, data in _TRACKS.items() if data["final_matches"])
"""The tracks whose final networks play the :data:`FINAL_MATCHES` (the Othello track's)."""

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


def track_techniques(track: str, names: Sequence[str]) -> list[str]:
    """The techniques of ``names`` that ``track``'s game has (:data:`TRACKS_OF`)."""
    return [name for name in names if track in TRACKS_OF.get(name, (track,))]
