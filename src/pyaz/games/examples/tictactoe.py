"""Tic-tac-toe in Python: the tutorial's game (docs/tutorial-python-game.md), a complete game
that follows pyaz's game protocol and passes :func:`pyaz.testing.check_game`. pyaz ships it as
the game ``tictactoe``; copy this file to start a game of your own.

>>> import pyaz
>>> state = pyaz.make("tictactoe")
>>> state.apply(state.str_to_action("b2"))
>>> state.legal_actions()
[0, 1, 2, 3, 5, 6, 7, 8]
"""

from __future__ import annotations

import copy

import numpy as np

from pyaz._core import Status

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


class TicTacToe:
    """A position: actions are the cells 0..8, row by row from the top left, written 'a1' (top
    left) to 'c3'; side 0 plays first."""

    name = "tictactoe"
    num_actions = 9
    board_shape = (3, 3)
    planes_shape = (2, 3, 3)  # the side to move's marks, the other side's
    max_game_length = 9

    def __init__(self) -> None:
        self.cells = [0] * 9  # 0 empty, 1 the first player's mark, 2 the second's
        self.ply = 0

    def to_move(self) -> int:
        return self.ply % 2

    def status(self) -> Status:
        for a, b, c in LINES:
            if self.cells[a] and self.cells[a] == self.cells[b] == self.cells[c]:
                return Status.FIRST_PLAYER_WIN if self.cells[a] == 1 else Status.SECOND_PLAYER_WIN
        return Status.DRAW if all(self.cells) else Status.ONGOING

    def is_terminal(self) -> bool:
        return self.status() != Status.ONGOING

    def legal_actions(self) -> list[int]:
        return [] if self.is_terminal() else [i for i, cell in enumerate(self.cells) if not cell]

    def is_legal(self, action: int) -> bool:
        return action in self.legal_actions()

    def apply(self, action: int) -> None:
        if not self.is_legal(action):
            raise ValueError(f"illegal action {action!r}")
        self.cells[action] = 1 + self.to_move()
        self.ply += 1

    def clone(self) -> TicTacToe:
        other = copy.copy(self)  # of the same class, a subclass too
        other.cells = list(self.cells)  # the board not shared
        return other

    def board(self) -> np.ndarray:
        return np.array(self.cells, dtype=np.int8).reshape(3, 3)

    def encode(self) -> np.ndarray:
        board, me = self.board(), 1 + self.to_move()
        return np.stack([board == me, board == 3 - me]).astype(np.float32)

    def action_to_str(self, action: int) -> str:
        return "abc"[action % 3] + str(action // 3 + 1)

    def str_to_action(self, text: str) -> int:
        if len(text) != 2 or text[0] not in "abc" or text[1] not in "123":
            raise ValueError(f"not a cell: {text!r}")
        return "abc".index(text[0]) + 3 * (int(text[1]) - 1)

    def __str__(self) -> str:
        rows = ("".join(".XO"[c] for c in self.cells[r : r + 3]) for r in (0, 3, 6))
        return "\n".join(rows)
