"""The conformance kit's entry point: :func:`check_game` runs every check on a game."""

from __future__ import annotations

from collections.abc import Mapping

from pyaz.testing.checks import CHECKS
from pyaz.testing.options import Options, Symmetries
from pyaz.testing.positions import MakeState
from pyaz.testing.results import Report

__all__ = ["check_game"]


def check_game(
    make_state: MakeState,
    *,
    perft: Mapping[int, int] | None = None,
    playouts: int = 20,
    seed: int = 0,
    games: int = 4,
    positions: int = 32,
    max_plies: int | None = None,
    count_finished: bool = False,
    symmetries: Symmetries | None = None,
) -> Report:
    """Runs every check of :data:`~pyaz.testing.CHECKS` on the game whose start state
    ``make_state()`` builds (a new one each call), in order; the options are
    :class:`~pyaz.testing.Options`'. Returns the :class:`~pyaz.testing.Report`; raises
    :class:`~pyaz.testing.ConformanceError` at the first check the game breaks."""
    options = Options(
        seed=seed,
        games=games,
        positions=positions,
        playouts=playouts,
        max_plies=max_plies,
        perft=dict(perft or {}),
        count_finished=count_finished,
        symmetries=symmetries,
    )
    results = tuple(check(make_state, options) for check in CHECKS.values())
    return Report(make_state().name, results)
