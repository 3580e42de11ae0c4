"""Exhaustive minimax: the exact value of every position reachable from a start, for games
small enough to list them all (tic-tac-toe's 5478); the yardstick of perfect play.

>>> import pyaz
>>> table = solve_all(pyaz.make("tictactoe"))
>>> table.positions, table.value(pyaz.make("tictactoe"))
(5478, 0)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
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
    naming the game as soon as more than ``limit`` positions (None: no limit) are found, a game
    too large to list, however long its lines (the walk keeps its own stack, not Python's), and
    when a line of play comes back to a position on it (a cycle: no minimax value).

    >>> import pyaz
    >>> solve_all(pyaz.make("go", size=19), limit=1000)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: go has more positions than exhaustive minimax can list (more than 1,000 ...
    """
    values: dict[Hashable, int] = {}
    line = [_Node(start, key(start))]
    on_line = {line[0].key}
    cycle = False
    while line:
        node = line[-1]
        child = next(node.children, None)
        if child is None:  # every child solved: so is the node
            values[node.key] = node.best
            on_line.discard(node.key)
            line.pop()
            if line:
                line[-1].take(node.best, node.mover)
            continue
        child_key = key(child)
        if child_key in values:
            node.take(values[child_key], child.to_move())
            continue
        if child_key in on_line:  # refused once the walk is over (unless it is too large)
            cycle = True
            continue
        if limit is not None and len(values) + len(on_line) >= limit:
            raise ValueError(
                f"{start.name} has more positions than exhaustive minimax can list (more than "
                f"{limit:,} reachable from its start)"
            )
        line.append(_Node(child, child_key))
        on_line.add(child_key)
    if cycle:
        raise ValueError(f"{start.name} comes back to a position along a line of play: a cycle")
    return Minimax(values, key)


class _Node:
    """A position on the line of play of :func:`solve_all`: its children still to solve and the
    best value for its side to move so far (its final value once they are all solved)."""

    def __init__(self, state: BoardGameState, key: Hashable) -> None:
        self.key = key
        self.mover = state.to_move()
        if state.is_terminal():
            side = winner(state.status())
            self.best = 0 if side is None else (1 if side == self.mover else -1)
            self.children: Iterator[BoardGameState] = iter(())
        else:
            self.best = -1
            self.children = (played(state, action) for action in state.legal_actions())

    def take(self, value: int, child_mover: int) -> None:
        """Folds in a solved child's value (for its side to move, ``child_mover``)."""
        self.best = max(self.best, value if child_mover == self.mover else -value)
