"""The settings of a run as its folder keeps them (config.json): the ones that a resumed run may
change (:data:`RESUMABLE`), and the values of the settings that a config.json written before
them lacks (:func:`upgrade_settings`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import fields
from typing import Any

from pyaz.common.shown import cut
from pyaz.games import canonical_name, is_code_reference
from pyaz.games.plugins import refuse_code_reference
from pyaz.games.profiles import profile
from pyaz.methods.alphazero.config import TrainConfig

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
(:mod:`pyaz.methods.alphazero.schedules`)."""


def upgrade_settings(saved: dict[str, Any]) -> dict[str, Any]:
    """A config.json from before a setting is a run without it (the values below): without
    threat planes before threat_planes (2026-11-26), without random opening plies, at a
    constant rate, of PUCT without the solver, with AlphaZero's z, without sparring games
    before sparring's auto (2026-12-02) unless it saved them; every run saved its epochs.
    One that saved threat_planes auto (before 2026-11-27, when runs began to save what auto
    chose) had them on Connect Four alone. Any other auto or null (written by hand: the
    loop saves what they chose) is the game's, as
    :meth:`~pyaz.methods.alphazero.config.TrainConfig.resolved` has it."""
    legacy = {
        "epochs": 2,  # the default of its day
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
    if is_code_reference(game):
        return upgraded  # resolving would import it: refuse_saved_code decides first
    if upgraded["threat_planes"] == "auto":
        upgraded["threat_planes"] = profile(game).training.threat_planes_before
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


def refuse_saved_code(
    path: str | os.PathLike[str],
    saved: Mapping[str, Any],
    given: Mapping[str, Any],
    command_line: bool = True,
) -> None:
    """A one-line ValueError naming ``path`` (the file ``saved`` was read from) when the saved
    game is a module path (:func:`~pyaz.games.is_code_reference`), which would import a module
    and run its code, unless ``given`` (what the person asked for this time: the command line,
    or ``from_folder``'s arguments when ``command_line`` is False) names the same game. A
    registered, bundled, entry point or OpenSpiel game passes. Imports nothing."""
    game = saved.get("game")
    if not is_code_reference(game) or _same_game(given.get("game"), game):
        return
    shown = cut(str(game), 200, quote=True)
    again = f"repeat --game {shown} on the command line" if command_line else f"pass game={shown}"
    refuse_code_reference(game, str(path), f"{again} to allow it")


def _same_game(given: Any, saved: Any) -> bool:
    """Whether ``given`` names the game ``saved`` (both by their registry names)."""
    try:
        return canonical_name(str(given)) == canonical_name(str(saved))
    except ValueError:
        return False
