"""The game interface that matches drive (:mod:`pyaz.eval.arena`): :class:`GameState`, what
every game's state has, and the capabilities where games differ. Structural (typing.Protocol,
as OpenSpiel's ``State`` is a duck type in Python): the C++ board games
(:data:`pyaz.games.BoardState`) and :class:`pyaz.games.curling.CurlingState` satisfy
them without inheriting.

- :class:`BoardGameState`: a finite set of integer actions (``legal_actions``, ``is_legal``);
  random openings need it.
- :class:`SeededGameState`: chance (curling's execution noise) drawn from a seed the match
  sets per game (``with_seed``), so that a match's games differ and each repeats exactly.
"""

from __future__ import annotations

import random
from typing import Any, Protocol, runtime_checkable

import numpy as np

from pyaz import _core
from pyaz._core import Status

__all__ = ["BoardGameState", "GameState", "SeededGameState", "random_game_lengths", "winner"]

NATIVE_GAMES = (_core.Othello, _core.ConnectFour, _core.Gomoku, _core.Go, _core.RacingKings)
"""The classes of the games written in C++."""


def winner(status: Status) -> int | None:
    """The side (0 moves first) that won a finished game of ``status``; None for a draw.
    ValueError while the game is not over."""
    if status == Status.FIRST_PLAYER_WIN:
        return 0
    if status == Status.SECOND_PLAYER_WIN:
        return 1
    if status == Status.DRAW:
        return None
    raise ValueError(f"the game is not over: {status}")


@runtime_checkable
class GameState(Protocol):
    """A position of a two-player game: side 0 moves first; ``apply`` plays an action of the
    side to move in place (actions are ``int`` for board games, a curling ``Target``)."""

    @property
    def name(self) -> str: ...

    @property
    def ply(self) -> int: ...

    def to_move(self) -> Any: ...

    def is_terminal(self) -> bool: ...

    def status(self) -> Status: ...

    def is_legal(self, action: Any, /) -> bool: ...

    def apply(self, action: Any, /) -> Any: ...

    def clone(self) -> Any: ...


@runtime_checkable
class BoardGameState(GameState, Protocol):
    """A game with finitely many integer actions."""

    def legal_actions(self) -> list[int]: ...


@runtime_checkable
class SeededGameState(GameState, Protocol):
    """A game with chance: ``with_seed(seed)`` is a copy whose chance events come from ``seed``."""

    def with_seed(self, seed: int, /) -> Any: ...


def random_game_lengths(state: BoardGameState, games: int, seed: int = 0) -> np.ndarray:
    """The lengths in plies (int32) of ``games`` uniformly random games from ``state``: in C++
    for a native game, by the state's own methods for a game written in Python (the draws
    differ between the two). ValueError for a negative count."""
    if isinstance(state, NATIVE_GAMES):
        return np.asarray(_core.random_game_lengths(state, games, seed))
    if isinstance(games, bool) or not isinstance(games, int):
        raise TypeError(f"the number of games must be an integer, got {games!r}")
    if games < 0:
        raise ValueError(f"the number of games must be >= 0, got {games}")
    rng = random.Random(seed)
    lengths = np.zeros(games, dtype=np.int32)
    for index in range(games):
        game = state.clone()
        while not game.is_terminal():
            game.apply(rng.choice(game.legal_actions()))
        lengths[index] = game.ply - state.ply
    return lengths
