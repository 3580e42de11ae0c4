"""The game interface: :class:`GameState`, what every game's state has, and the capabilities
where games differ. Structural (typing.Protocol, as OpenSpiel's ``State`` is a duck type in
Python): the C++ board games (:data:`pyaz.games.NativeGame`), the games written in Python and
:class:`pyaz.games.curling.CurlingState` satisfy them without inheriting. Each protocol adds to
the one before it, and a function takes the least one it needs:

- :class:`GameState`: a position of a two-player game; matches (:mod:`pyaz.eval.arena`) drive it.
- :class:`BoardGameState`: a finite set of integer actions (``legal_actions``, ``is_legal``);
  random openings, exhaustive minimax and the conformance kit (:mod:`pyaz.testing`) need it.
- :class:`NetworkGameState`: the action space and the network's input planes (``num_actions``,
  ``planes_shape``, ``encode()``); :class:`pyaz.Search`, :class:`pyaz.SelfPlay`, the search
  players and the networks need it (the C++ search of a game written in Python reads exactly
  these members).
- :class:`PlayableGameState`: the board's shape and the moves as text (``board_shape``,
  ``action_to_str``, ``str_to_action``); ``pyaz-play``, match records and the policies'
  symmetries need it.
- :class:`DrawableGameState`: the cells as an array (``board()``); the board page
  (``pyaz-board``) draws a game from it.
- :class:`SeededGameState`: chance (curling's execution noise) drawn from a seed the match
  sets per game (``with_seed``), so that a match's games differ and each repeats exactly.

:class:`ActionRecord` says how a record (a match's journal) keeps a game's actions as JSON and
reads them back: integers (:data:`INTEGER_ACTIONS`) unless the game's registration names its own.

:func:`protocol_members` lists a protocol's members; docs/adding-a-game.md and the conformance
kit name the same ones.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, Self, TypeVar, runtime_checkable

import numpy as np

from pyaz._core import Status

__all__ = [
    "INTEGER_ACTIONS",
    "ActionRecord",
    "BoardGameState",
    "DrawableGameState",
    "GameState",
    "NetworkGameState",
    "PlayableGameState",
    "SeededGameState",
    "played",
    "protocol_members",
    "winner",
]


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

    def clone(self) -> Self: ...


@runtime_checkable
class BoardGameState(GameState, Protocol):
    """A game with finitely many integer actions."""

    def legal_actions(self) -> list[int]: ...


@runtime_checkable
class NetworkGameState(BoardGameState, Protocol):
    """A board game that pyaz searches and trains: actions are ``0 .. num_actions - 1``, and
    ``encode()`` is the position as the network's input, a float32 array of ``planes_shape``
    (C, H, W) from the side to move's view."""

    @property
    def num_actions(self) -> int: ...

    @property
    def planes_shape(self) -> tuple[int, int, int]: ...

    def encode(self) -> np.ndarray: ...


@runtime_checkable
class PlayableGameState(NetworkGameState, Protocol):
    """A game shown to people and engines: its board's (rows, columns), and each action as text
    (``str_to_action`` reads what ``action_to_str`` writes; ValueError for other text)."""

    @property
    def board_shape(self) -> tuple[int, int]: ...

    def action_to_str(self, action: int, /) -> str: ...

    def str_to_action(self, text: str, /) -> int: ...


@runtime_checkable
class DrawableGameState(PlayableGameState, Protocol):
    """A game drawn on a board of cells: ``board()`` is an integer array of ``board_shape``
    (0 empty, 1 and 2 the sides' pieces)."""

    def board(self) -> np.ndarray: ...


@runtime_checkable
class SeededGameState(GameState, Protocol):
    """A game with chance: ``with_seed(seed)`` is a copy whose chance events come from ``seed``."""

    def with_seed(self, seed: int, /) -> Any: ...


@dataclass(frozen=True)
class ActionRecord:
    """How a record keeps a game's actions: ``write(action)`` is what JSON holds of one, and
    ``read(value)`` the action back from what a file holds, or None when the value is not one
    (the file may come from anyone: ``read`` checks, never trusts); ``expected`` names an
    action for a message ("an integer action"). A game's registration names its own
    (:class:`pyaz.games.registry.GameSpec`); actions are integers unless it does."""

    expected: str
    write: Callable[[Any], Any]
    read: Callable[[Any], Any | None]


def _read_integer(value: Any) -> int | None:
    """An integer action from JSON (booleans are not), within 64 bits."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**63:
        return value
    return None


INTEGER_ACTIONS = ActionRecord("an integer action from 0", int, _read_integer)
"""The board games' actions: non-negative integers."""


def protocol_members(protocol: type) -> tuple[str, ...]:
    """The members a game protocol of this module asks for, its bases' first, in the order
    they are declared (``protocol_members(BoardGameState)`` ends with ``"legal_actions"``)."""
    members: list[str] = []
    for cls in reversed(protocol.__mro__):
        if cls is Protocol or not getattr(cls, "_is_protocol", False):
            continue
        members += [name for name in vars(cls) if not name.startswith("_")]
    return tuple(dict.fromkeys(members))


Board = TypeVar("Board", bound=BoardGameState)


def played(state: Board, action: int) -> Board:
    """The position after ``action`` in ``state``: a clone with the action applied (``state`` is
    left as it is; an illegal action raises as the game's ``apply`` does)."""
    child = state.clone()
    child.apply(action)
    return child
