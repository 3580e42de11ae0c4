"""The games layer: the registry (``make``), symmetries (:mod:`pyaz.games.symmetry`) and text
formats (:mod:`pyaz.games.sgf`) over the C++ game classes of ``pyaz._core``.

>>> from pyaz.games import make
>>> make("connect_four").num_actions
7
"""

from pyaz.games.registry import GAMES, GameSpec, GameState, canonical_name, make, same_position

__all__ = ["GAMES", "GameSpec", "GameState", "canonical_name", "make", "same_position"]
