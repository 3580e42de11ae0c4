"""The games layer: the registry (``make``), symmetries (:mod:`pyaz.games.symmetry`) and text
formats (:mod:`pyaz.games.sgf`) over the C++ game classes of ``pyaz._core`` and curling's
state (:mod:`pyaz.games.curling`, registered as ``"curling"``); and the one game interface
(:mod:`pyaz.games.state`): :class:`GameState`, which every game's state satisfies, and the
protocols that add to it what a game needs for more (:class:`BoardGameState`: finitely many
integer actions, :func:`board_games`; :class:`NetworkGameState`: searched and trained;
:class:`PlayableGameState`: moves as text; :class:`DrawableGameState`: a board of cells);
:data:`NativeGame` is the C++ board games.

>>> from pyaz.games import make
>>> make("connect_four").num_actions
7
"""

from pyaz.games.plugins import allow_code_reference, is_code_reference, register_game
from pyaz.games.registry import (
    DEFAULT_GAME,
    GAMES,
    GameSpec,
    NativeGame,
    board_games,
    canonical_name,
    is_native,
    make,
    perft,
    random_game_lengths,
    random_playouts,
    same_position,
)
from pyaz.games.state import (
    BoardGameState,
    DrawableGameState,
    GameState,
    NetworkGameState,
    PlayableGameState,
    SeededGameState,
    protocol_members,
    winner,
)

__all__ = [
    "DEFAULT_GAME",
    "GAMES",
    "BoardGameState",
    "DrawableGameState",
    "GameSpec",
    "GameState",
    "NativeGame",
    "NetworkGameState",
    "PlayableGameState",
    "SeededGameState",
    "allow_code_reference",
    "board_games",
    "canonical_name",
    "is_code_reference",
    "is_native",
    "make",
    "perft",
    "protocol_members",
    "random_game_lengths",
    "random_playouts",
    "register_game",
    "same_position",
    "winner",
]
