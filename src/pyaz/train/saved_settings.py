"""The settings of a run as its folder keeps them (config.json): the ones that a resumed run may
change (:data:`RESUMABLE`), and the values of the settings that a config.json written before
them lacks (:func:`upgrade_settings`).
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from pyaz.games import canonical_name
from pyaz.train.config import TrainConfig
from pyaz.train.game_defaults import EPOCHS_DEFAULT, THREAT_AUTO_BEFORE

RESUMABLE = (
    "iterations", "max_minutes", "threads", "torch_threads", "parallel_games", "runtime",
    "eval_every", "elo_games", "elo_every",
)  # fmt: skip
"""The settings that a resumed run may change (the rest stay as the run's config.json has them):
its length, how this machine runs it (threads, games in flight, network runtime), how often the
same evaluation is played, and the Elo rating done once at the end (not score_weight, which
decides whether the network has a score head). The games may differ
from an uninterrupted run's (as with threads > 1), not what the run learns from or is measured
against: the value targets (value_target_q, dedupe) and the schedules (lr_schedule,
window_growth, simulations_schedule) stay, and so does the schedules' horizon, the iterations
the run was started with (kept in the checkpoint): a resume with more iterations holds their
last values after it. A resume with another max_minutes moves the schedules' time share
(:mod:`pyaz.train.schedules`)."""


def upgrade_settings(saved: dict[str, Any]) -> dict[str, Any]:
    """A config.json from before a setting is a run without it (the values below): without
    threat planes before threat_planes (2026-11-26), without random opening plies, at a
    constant rate, of PUCT without the solver, with AlphaZero's z, without sparring games
    before sparring's auto (2026-12-02) unless it saved them; every run saved its epochs.
    One that saved threat_planes auto (before 2026-11-27, when runs began to save what auto
    chose) had them on Connect Four alone. Any other auto or null (written by hand: the
    loop saves what they chose) is the game's, as
    :meth:`~pyaz.train.config.TrainConfig.resolved` has it."""
    legacy = {
        "epochs": EPOCHS_DEFAULT,
        "threat_planes": "off",
        "opening_spread": 0,
        "lr_schedule": "constant",
        "search_rule": "puct",
        "solver": False,
        "value_target_q": 0.0,
        "sparring": "none",
        "sparring_games": 0,
        "sparring_imitation": False,
    }
    upgraded = {**legacy, **saved}
    try:
        game = canonical_name(str(upgraded.get("game")))
    except ValueError:
        return upgraded  # not a game: validate() names it
    if upgraded["threat_planes"] == "auto":
        upgraded["threat_planes"] = THREAT_AUTO_BEFORE.get(game, "off")
    # an auto or a null written by hand: the game's, as a run resolves it
    values = {f.name: upgraded[f.name] for f in fields(TrainConfig) if f.name in upgraded}
    try:
        values["game_options"] = dict(upgraded.get("game_options") or {})
        resolved = TrainConfig(**values).resolved()
    except (ValueError, TypeError):
        return upgraded  # a value of the wrong kind: validate() names it
    for name in legacy.keys() - {"threat_planes"}:
        upgraded[name] = getattr(resolved, name)
    return upgraded
