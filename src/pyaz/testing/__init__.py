"""The conformance kit: checks that a game follows pyaz's game protocol
(:class:`pyaz.games.state.BoardGameState`, and the members of the richer protocols
:class:`~pyaz.games.state.NetworkGameState` and :class:`~pyaz.games.state.PlayableGameState`
where the game has them) before pyaz searches, trains or plays it.

Run :func:`check_game` first on a new game; it runs every check of :data:`CHECKS` (each also a
function ``check(make_state, options)`` for a pytest suite to parametrize) and raises
:class:`ConformanceError` naming the check, the position (the actions from the start) and
what differed:

- ``protocol``: the start state has the protocol's members, ply 0, side 0 to move;
- ``clone``: a clone and its original do not share anything that play changes;
- ``legal_actions``: ``legal_actions()``, ``is_legal``, ``legal_mask()`` and ``apply`` agree;
- ``terminal``: status, terminal and returns are consistent; no legal actions iff terminal;
- ``planes``: ``encode()`` has ``planes_shape`` and finite values (a ``NetworkGameState``);
- ``symmetries``: each declared transform commutes with play, for planes and policies;
- ``action_text``: ``str_to_action(action_to_str(a)) == a`` for legal actions (a
  ``PlayableGameState``);
- ``playouts``: random games end within the game's bound;
- ``perft``: counts of action sequences equal the author's.

>>> import pyaz
>>> from pyaz.testing import check_game
>>> check_game(lambda: pyaz.make("connect_four"), perft={1: 7, 2: 49}).skipped
[]
"""

from pyaz.testing.checks import (
    CHECKS,
    Check,
    check_action_text,
    check_clone,
    check_legal_actions,
    check_perft,
    check_planes,
    check_playouts,
    check_protocol,
    check_symmetries,
    check_terminal,
)
from pyaz.testing.kit import check_game
from pyaz.testing.options import DEFAULT_MAX_PLIES, DIHEDRAL, Options, Symmetries
from pyaz.testing.results import CheckResult, ConformanceError, Report

__all__ = [
    "CHECKS",
    "DEFAULT_MAX_PLIES",
    "DIHEDRAL",
    "Check",
    "CheckResult",
    "ConformanceError",
    "Options",
    "Report",
    "Symmetries",
    "check_action_text",
    "check_clone",
    "check_game",
    "check_legal_actions",
    "check_perft",
    "check_planes",
    "check_playouts",
    "check_protocol",
    "check_symmetries",
    "check_terminal",
]
