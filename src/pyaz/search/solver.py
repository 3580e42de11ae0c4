"""The Connect Four oracle: :func:`solve` gives the exact game-theoretic value of a position and
of each legal move, from the C++ solver (``pyaz._core.ConnectFourSolver``, Pascal Pons' method:
bitboards, alpha-beta over non-losing moves, a transposition table of bounds shared by mirror
images, threat ordering and null-window search). :func:`solve_value` gives the value alone,
without solving every move (the empty 7x6 board: see the README).

Scores are Pons': for the side to move, 0 is a draw; a win with the mover's k-th disc of the
game scores ``width*height//2 + 1 - k`` (sooner wins score more), a loss is minus the opponent's
win score. Values are their signs: +1 win, 0 draw, -1 loss.

>>> import pyaz
>>> state = pyaz.make("connect_four", width=5, height=4)
>>> solution = pyaz.solve(state)
>>> solution.value, solution.best_moves
(0, [1, 2, 3])
>>> solution.move_values[0]
MoveValue(value=-1, score=-1)
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from pyaz._core import ConnectFour, ConnectFourSolver

__all__ = [
    "MAX_HEIGHT",
    "MAX_WIDTH",
    "MoveValue",
    "Solution",
    "check_solvable",
    "solve",
    "solve_value",
]

MAX_WIDTH = 7
"""The widest board the solver takes (columns)."""
MAX_HEIGHT = 6
"""The tallest board the solver takes (rows)."""


@dataclass(frozen=True)
class MoveValue:
    """The exact outcome of one move, for the player who plays it."""

    value: int  # +1 win, 0 draw, -1 loss
    score: int  # Pons' score (see the module docstring)


@dataclass(frozen=True)
class Solution:
    """The exact outcome of a position for the side to move, and of each of its legal moves."""

    value: int  # +1 win, 0 draw, -1 loss
    score: int  # Pons' score: the best of the move scores
    move_values: dict[int, MoveValue]  # legal column -> its outcome for the mover
    best_moves: list[int]  # the columns with the best score, ascending

    @property
    def value_preserving_moves(self) -> list[int]:
        """The columns that keep the position's value (win, draw or loss), ascending."""
        return [column for column, move in self.move_values.items() if move.value == self.value]


_solver: ConnectFourSolver | None = None
_lock = threading.Lock()


def _shared_solver() -> ConnectFourSolver:
    """One solver for the process (its 64 MiB table is kept between calls)."""
    global _solver
    with _lock:
        if _solver is None:
            _solver = ConnectFourSolver()
        return _solver


def check_solvable(state: object) -> ConnectFour:
    """``state`` as a Connect Four state the solver takes; ValueError otherwise (another game,
    a board above 7 columns x 6 rows, a finished game)."""
    if not isinstance(state, ConnectFour):
        name = getattr(state, "name", type(state).__name__)
        raise ValueError(f"the solver plays Connect Four only, got a {name} state")
    width, height = state.num_actions, state.board_shape[0]
    if width > MAX_WIDTH or height > MAX_HEIGHT:
        raise ValueError(
            f"the Connect Four solver takes boards up to {MAX_WIDTH} columns x {MAX_HEIGHT} rows "
            f"(width x height), got {width}x{height}"
        )
    if state.is_terminal():
        raise ValueError(f"the Connect Four game is over ({state.status().name}): nothing to solve")
    return state


def _sign(score: int) -> int:
    return (score > 0) - (score < 0)


def solve(state: object) -> Solution:
    """The exact value of a Connect Four position (up to 7 columns x 6 rows) for the side to
    move, with each legal move's value and score. ValueError for another game, a larger board
    or a finished game. The first call allocates the solver's 64 MiB table; a 7x6 position
    some 10 plies in takes about a second, the empty 7x6 board minutes (see README)."""
    checked = check_solvable(state)
    scores = _shared_solver().move_scores(checked)
    move_values = {
        column: MoveValue(_sign(score), score)
        for column, score in enumerate(scores)
        if score is not None
    }
    best = max(move.score for move in move_values.values())
    best_moves = [column for column, move in move_values.items() if move.score == best]
    return Solution(_sign(best), best, move_values, best_moves)


def solve_value(state: object) -> int:
    """The game-theoretic value of a Connect Four position for the side to move (+1 win, 0
    draw, -1 loss), without the exact score or the moves' values: two null-window searches at
    the root, where :func:`solve` solves every move exactly (the empty 6x6 board: 15 s against
    20 s here). Errors as :func:`solve`.

    >>> import pyaz
    >>> solve_value(pyaz.make("connect_four", width=6, height=4))   # a second-player win
    -1
    """
    return int(_shared_solver().value(check_solvable(state)))
