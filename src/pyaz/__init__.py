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
    Go,
    Gomoku,
    Othello,
    RacingKings,
    RacingKingsTermination,
    Status,
    perft,
    random_playouts,
)
from pyaz.games import GAMES, GameState, make
from pyaz.search import Search
from pyaz.selfplay import SelfPlay, SelfPlayRecords
from pyaz.sgf import go_from_sgf, go_to_sgf
from pyaz.symmetry import num_symmetries, transform_planes, transform_policy

__all__ = [
    "GAMES",
    "ConnectFour",
    "GameState",
    "Go",
    "Gomoku",
    "Othello",
    "RacingKings",
    "RacingKingsTermination",
    "Search",
    "SelfPlay",
    "SelfPlayRecords",
    "Status",
    "TorchEvaluator",
    "make",
    "num_symmetries",
    "perft",
    "random_playouts",
    "transform_planes",
    "transform_policy",
]
__version__ = "0.1.0"

# SGF lives in Python (pyaz.sgf); these make it reachable from the Go class as well.
Go.to_sgf = go_to_sgf  # type: ignore[attr-defined]
Go.from_sgf = staticmethod(go_from_sgf)  # type: ignore[attr-defined]


def __getattr__(name: str) -> object:
    # TorchEvaluator imports torch, so it loads only when asked for.
    if name == "TorchEvaluator":
        from pyaz.evaluator import TorchEvaluator

        return TorchEvaluator
    raise AttributeError(f"module 'pyaz' has no attribute {name!r}")
