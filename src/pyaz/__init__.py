"""pyaz: C++-accelerated Monte Carlo tree search for AlphaZero-style learning.

Games live in C++ (bitboards) and are driven from Python::

    >>> import pyaz
    >>> g = pyaz.make("othello", size=8)
    >>> g.legal_actions()
    [19, 26, 37, 44]
    >>> pyaz.perft(g, 4)
    244
"""

from pyaz._core import (
    ConnectFour,
    Gomoku,
    Othello,
    RacingKings,
    RacingKingsTermination,
    Status,
    perft,
    random_playouts,
)
from pyaz.games import GAMES, GameState, make
from pyaz.symmetry import num_symmetries, transform_planes, transform_policy

__all__ = [
    "GAMES",
    "ConnectFour",
    "GameState",
    "Gomoku",
    "Othello",
    "RacingKings",
    "RacingKingsTermination",
    "Status",
    "make",
    "num_symmetries",
    "perft",
    "random_playouts",
    "transform_planes",
    "transform_policy",
]
__version__ = "0.1.0"
