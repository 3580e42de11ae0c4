"""pyaz: C++-accelerated Monte Carlo tree search for AlphaZero-style learning.

Games live in C++ (bitboards) and are driven from Python::

    >>> import pyaz
    >>> g = pyaz.make("othello", size=8)
    >>> g.legal_actions()
    [19, 26, 37, 44]
    >>> pyaz.perft(g, 4)
    244

The package is layered, each folder importing only the ones before it: ``games`` (registry,
profiles, the game interface, symmetries, SGF), ``search`` (tree search, self-play), ``nets``
(networks, the model loader, evaluators), ``engines`` (external engines, GTP/UCI/Gomocup
servers), ``eval`` (players, matches, gates, Elo, tournaments), ``train`` (what the methods
share: trainer, replay buffer, checkpoints, techniques), ``methods`` (one folder per training
method: ``alphazero``, ``alphagomoku``, ``reinforce``, ``kr_dl_uct``), and ``cli`` (the commands).
The names below are the public entry points.
"""

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pyaz._core import (
    ConnectFour,
    ConnectFourSolver,
    Go,
    Gomoku,
    Othello,
    RacingKings,
    RacingKingsTermination,
    Status,
)
from pyaz._version import __version__
from pyaz.games import (
    GAMES,
    BoardGameState,
    DrawableGameState,
    GameState,
    NativeGame,
    NetworkGameState,
    PlayableGameState,
    make,
    perft,
    random_game_lengths,
    random_playouts,
    register_game,
)
from pyaz.games.sgf import go_from_sgf, go_to_sgf
from pyaz.games.symmetry import num_symmetries, transform_planes, transform_policy
from pyaz.search import Search, SelfPlay, SelfPlayRecords, Solution, solve, solve_value

if TYPE_CHECKING:  # what the lazy names below are, for type checkers
    from pyaz.eval.presets import make_player
    from pyaz.nets.evaluator import TorchEvaluator
    from pyaz.nets.loading import load_model

__all__ = [
    "GAMES",
    "BoardGameState",
    "ConnectFour",
    "ConnectFourSolver",
    "DrawableGameState",
    "GameState",
    "Go",
    "Gomoku",
    "NativeGame",
    "NetworkGameState",
    "Othello",
    "PlayableGameState",
    "RacingKings",
    "RacingKingsTermination",
    "Search",
    "SelfPlay",
    "SelfPlayRecords",
    "Solution",
    "Status",
    "TorchEvaluator",
    "__version__",
    "load_model",
    "make",
    "make_player",
    "num_symmetries",
    "perft",
    "random_game_lengths",
    "random_playouts",
    "register_game",
    "solve",
    "solve_value",
    "transform_planes",
    "transform_policy",
]


def _to_sgf(self: Go, moves: Sequence[int | str] = (), result: str | None = None) -> str:
    return go_to_sgf(self, moves, result)


# SGF lives in Python (pyaz.games.sgf); these make it reachable from the Go class as well.
_to_sgf.__doc__ = go_to_sgf.__doc__
Go.to_sgf = _to_sgf  # type: ignore[method-assign]
Go.from_sgf = staticmethod(go_from_sgf)  # type: ignore[method-assign]

# These load torch (or the engine clients) only when asked for.
_LAZY = {
    "TorchEvaluator": ("pyaz.nets.evaluator", "TorchEvaluator"),
    "load_model": ("pyaz.nets.loading", "load_model"),  # any kind of model file
    "make_player": ("pyaz.eval.presets", "make_player"),
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        module, attribute = _LAZY[name]
        return getattr(importlib.import_module(module), attribute)
    raise AttributeError(f"module 'pyaz' has no attribute {name!r}")
