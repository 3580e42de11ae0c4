"""How the conformance kit checks a game: :class:`Options` (the random positions, playouts and
perft counts) and :class:`Symmetries` (the transforms a game declares)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from pyaz.games.symmetry import symmetry_ids, transform_planes, transform_policy

__all__ = ["DEFAULT_MAX_PLIES", "DIHEDRAL", "Options", "Symmetries", "max_plies"]

DEFAULT_MAX_PLIES = 10_000
"""How many plies a random game may last when the game declares no ``max_game_length``."""


@dataclass(frozen=True)
class Symmetries:
    """A game's symmetries, as :mod:`pyaz.games.symmetry` gives them for pyaz's board games:
    ``ids(state)`` the transforms that keep the rules; ``planes(planes, k)`` applies transform
    ``k`` to ``encode()``'s planes; ``policy(policy, k, state)`` to a vector over the action
    space, with ``policy(p, k, state)[i] == p[j]`` when transform ``k`` takes action ``j`` to
    action ``i``."""

    ids: Callable[[Any], Sequence[int]]
    planes: Callable[[np.ndarray, int], np.ndarray]
    policy: Callable[[np.ndarray, int, Any], np.ndarray]


DIHEDRAL = Symmetries(symmetry_ids, transform_planes, transform_policy)
"""The dihedral transforms of :mod:`pyaz.games.symmetry` that the game's profile declares
(:attr:`pyaz.games.profiles.GameProfile.symmetries`): all 8 for Othello, Gomoku, Go and
tic-tac-toe, 2 for Connect Four and Racing Kings, and for a game of one's own those it is
registered with (``SQUARE_SYMMETRIES`` for a square ``board_shape`` whose actions are its cells
in row-major order, then extra actions, a pass, that stay put); the identity alone for a game
without a profile."""


@dataclass(frozen=True)
class Options:
    """What the checks look at.

    - ``seed``: every random choice comes from it, so a run repeats exactly.
    - ``games``, ``positions``: the position checks look at the start, at the end of ``games``
      random games and at ``positions`` positions drawn from those games.
    - ``playouts``: random games that must each end within ``max_plies`` plies (None: the
      state's ``max_game_length`` where it has one, else :data:`DEFAULT_MAX_PLIES`).
    - ``perft``: ``{depth: count}``, the author's counts of action sequences from the start;
      ``count_finished`` their convention (:func:`pyaz.perft`'s: False, a game that ends
      before ``depth`` adds nothing).
    - ``symmetries``: the game's (None: :data:`DIHEDRAL` where the game's profile declares
      more than the identity, none checked otherwise).
    """

    seed: int = 0
    games: int = 4
    positions: int = 32
    playouts: int = 20
    max_plies: int | None = None
    perft: Mapping[int, int] = field(default_factory=dict)
    count_finished: bool = False
    symmetries: Symmetries | None = None

    def __post_init__(self) -> None:
        counts = {"games": self.games, "positions": self.positions, "playouts": self.playouts}
        for name, value in counts.items():
            if value < 0:
                raise ValueError(f"{name} must be 0 or more, got {value}")
        if self.max_plies is not None and self.max_plies < 1:
            raise ValueError(f"max_plies must be 1 or more, got {self.max_plies}")
        if any(depth < 0 or count < 0 for depth, count in self.perft.items()):
            raise ValueError(f"perft depths and counts must be 0 or more, got {dict(self.perft)}")


def max_plies(state: Any, options: Options) -> int:
    """How many plies a random game from ``state`` may last (see :class:`Options`)."""
    if options.max_plies is not None:
        return options.max_plies
    return int(getattr(state, "max_game_length", DEFAULT_MAX_PLIES))
