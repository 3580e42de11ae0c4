"""Exhaustive minimax: the exact value of every position reachable from a start, for games
small enough to list them all (tic-tac-toe's 5478); the yardstick of perfect play.

>>> import pyaz
>>> table = solve_all(pyaz.make("tictactoe"))
>>> table.positions, table.value(pyaz.make("tictactoe"))
(5478, 0)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

from pyaz.games.state import BoardGameState, GameState, played, winner

__all__ = ["Minimax", "position_key", "solve_all"]


def position_key(state: GameState) -> Hashable:
    """A position's identity for :func:`solve_all` by default: the side to move and the text of
    the state (its ``str``, which must show the whole position)."""
    return (state.to_move(), str(state))


@dataclass(frozen=True)
class Minimax:
    """The exact values of the positions reachable from a start: ``values[key(state)]`` is 1
    when the side to move wins with perfect play by both, 0 for a draw, -1 when it loses."""

    values: dict[Hashable, int]
    key: Callable[[Any], Hashable]

    @property
    def positions(self) -> int:
        """How many distinct positions are reachable (the start and the finished ones too)."""
        return len(self.values)

    def value(self, state: GameState) -> int:
        """The value of ``state`` for its side to move; KeyError if it is not reachable."""
        return self.values[self.key(state)]

    def best_actions(self, state: BoardGameState) -> list[int]:
        """The legal actions of ``state`` that keep its value: the moves of perfect play."""
        return [a for a in state.legal_actions() if self._after(state, a) == self.value(state)]

    def _after(self, state: BoardGameState, action: int) -> int:
        """The value for ``state``'s side to move of the position after ``action``."""
        child = played(state, action)
        value = self.value(child)
        return value if child.to_move() == state.to_move() else -value


def solve_all(
    start: BoardGameState,
    key: Callable[[Any], Hashable] = position_key,
    limit: int | None = None,
) -> Minimax:
    """Minimax over every position reachable from ``start`` (a
    :class:`~pyaz.games.state.BoardGameState`), each position once (by ``key``). ValueError
    as soon as more than ``limit`` positions (None: no limit) are found: a game too large to
    list."""
    values: dict[Hashable, int] = {}
    _solve(start, key, values, limit)
    return Minimax(values, key)


def _solve(
    state: BoardGameState,
    key: Callable[[Any], Hashable],
    values: dict[Hashable, int],
    limit: int | None,
) -> int:
    """The value of ``state`` for its side to move, stored in ``values`` with its
    descendants'."""
    found = values.get(key(state))
    if found is not None:
        return found
    if limit is not None and len(values) >= limit:
        raise ValueError(
            f"{state.name} has more than {limit} positions reachable from its start: too many "
            "for exhaustive minimax"
        )
    mover = state.to_move()
    if state.is_terminal():
        side = winner(state.status())
        best = 0 if side is None else (1 if side == mover else -1)
    else:
        best = -1
        for action in state.legal_actions():
            child = played(state, action)
            value = _solve(child, key, values, limit)
            best = max(best, value if child.to_move() == mover else -value)
    values[key(state)] = best
    return best
