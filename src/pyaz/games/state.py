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

from typing import Any, Protocol, runtime_checkable

from pyaz._core import Status

__all__ = ["BoardGameState", "GameState", "SeededGameState", "winner"]


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
