"""Deliberately simple pure-Python reference implementations of the pyaz games.

Written from the rules in ``docs/api-games.md`` only (not from the C++ code), so
that the tests can cross-check pyaz against an independent implementation.
Clarity beats speed: boards are lists of lists and lines are found by walking
direction vectors.

Conventions shared by all three games (same as pyaz):

* ``board()`` is a list of rows, row 0 at the top; cells hold 0 (empty),
  1 (first player) or 2 (second player).
* ``to_move()`` is 0 for the first player and 1 for the second.
* ``status()`` is one of ``"ongoing"``, ``"draw"``, ``"first"``, ``"second"``.
* ``legal_actions()`` is an ascending list, empty once the game is over.
* ``apply(a)`` raises ``ValueError`` on an illegal action.
"""

from __future__ import annotations

import copy
from typing import Protocol

ONGOING = "ongoing"
DRAW = "draw"
FIRST = "first"
SECOND = "second"

Board = list[list[int]]

# All eight compass directions (Othello flips) as (d_row, d_col).
EIGHT_DIRECTIONS: tuple[tuple[int, int], ...] = (
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
)

# One direction per line orientation: horizontal, vertical, two diagonals.
LINE_DIRECTIONS: tuple[tuple[int, int], ...] = ((0, 1), (1, 0), (1, 1), (1, -1))


class RefGame(Protocol):
    """The interface shared by the three reference games."""

    num_actions: int

    def legal_actions(self) -> list[int]:
        """Legal actions, ascending."""
        ...

    def apply(self, action: int) -> None:
        """Play ``action`` (ValueError if illegal)."""
        ...

    def to_move(self) -> int:
        """0 for the first player, 1 for the second."""
        ...

    def status(self) -> str:
        """``"ongoing"``, ``"draw"``, ``"first"`` or ``"second"``."""
        ...

    def board(self) -> Board:
        """A copy of the board, row 0 at the top."""
        ...

    def clone(self) -> RefGame:
        """An independent copy."""
        ...


def empty_board(height: int, width: int) -> Board:
    """A ``height`` x ``width`` board of zeros."""
    return [[0 for _ in range(width)] for _ in range(height)]


def colour_of(player: int) -> int:
    """Board colour (1 or 2) of player index (0 or 1)."""
    return player + 1


def winner_status(colour: int) -> str:
    """Status string for a win by the player owning ``colour``."""
    return FIRST if colour == 1 else SECOND


def on_board(height: int, width: int, row: int, col: int) -> bool:
    """Whether (row, col) lies on a ``height`` x ``width`` board."""
    return 0 <= row < height and 0 <= col < width


def run_length(board: Board, row: int, col: int, d_row: int, d_col: int) -> int:
    """Length of the run of the colour at (row, col) through it along ±(d_row, d_col)."""
    height, width = len(board), len(board[0])
    colour = board[row][col]
    length = 1
    for sign in (1, -1):
        r, c = row + sign * d_row, col + sign * d_col
        while on_board(height, width, r, c) and board[r][c] == colour:
            length += 1
            r, c = r + sign * d_row, c + sign * d_col
    return length


def copy_board(board: Board) -> Board:
    """A row-by-row copy of ``board``."""
    return [row[:] for row in board]


def is_full(board: Board) -> bool:
    """Whether no cell is empty."""
    return all(cell != 0 for row in board for cell in row)


# --------------------------------------------------------------------------
# Othello
# --------------------------------------------------------------------------


class RefOthello:
    """Othello / Reversi on an n x n board (n may be odd); action n*n is a pass."""

    def __init__(self, size: int = 8) -> None:
        if size < 4:
            raise ValueError("Othello size must be at least 4")
        self.size = size
        self.num_actions = size * size + 1
        self.pass_action = size * size
        self.grid = empty_board(size, size)
        low, high = size // 2 - 1, size // 2
        self.grid[low][high] = 1
        self.grid[high][low] = 1
        self.grid[low][low] = 2
        self.grid[high][high] = 2
        self.player = 0
        self.passes_played = 0
        self.moves = self.compute_legal_actions()

    # -- rules ---------------------------------------------------------------

    def flips(self, colour: int, row: int, col: int) -> list[tuple[int, int]]:
        """Opponent discs that ``colour`` would flip by playing on (row, col)."""
        if self.grid[row][col] != 0:
            return []
        opponent = 3 - colour
        flipped: list[tuple[int, int]] = []
        for d_row, d_col in EIGHT_DIRECTIONS:
            line: list[tuple[int, int]] = []
            r, c = row + d_row, col + d_col
            while on_board(self.size, self.size, r, c) and self.grid[r][c] == opponent:
                line.append((r, c))
                r, c = r + d_row, c + d_col
            if line and on_board(self.size, self.size, r, c) and self.grid[r][c] == colour:
                flipped.extend(line)
        return flipped

    def placements(self, colour: int) -> list[int]:
        """Cells (as actions) where ``colour`` may place a disc, ascending."""
        moves = []
        for row in range(self.size):
            for col in range(self.size):
                if self.flips(colour, row, col):
                    moves.append(row * self.size + col)
        return moves

    def compute_legal_actions(self) -> list[int]:
        """Placements of the side to move; else [pass] if the opponent can move; else []."""
        mine = self.placements(colour_of(self.player))
        if mine:
            return mine
        if self.placements(colour_of(1 - self.player)):
            return [self.pass_action]
        return []

    def legal_actions(self) -> list[int]:
        """Legal actions (computed once per position by :meth:`compute_legal_actions`)."""
        return list(self.moves)

    def apply(self, action: int) -> None:
        """Play a placement or a pass; ValueError if it is not legal."""
        if action not in self.moves:
            raise ValueError(f"illegal Othello action {action}")
        if action == self.pass_action:
            self.passes_played += 1
        else:
            colour = colour_of(self.player)
            row, col = divmod(action, self.size)
            for r, c in self.flips(colour, row, col):
                self.grid[r][c] = colour
            self.grid[row][col] = colour
        self.player = 1 - self.player
        self.moves = self.compute_legal_actions()

    def disc_counts(self) -> tuple[int, int]:
        """(first player's discs, second player's discs)."""
        cells = [cell for row in self.grid for cell in row]
        return cells.count(1), cells.count(2)

    def status(self) -> str:
        """Ongoing while anyone can move; then more discs wins, equal draws."""
        if self.moves:
            return ONGOING
        first, second = self.disc_counts()
        if first > second:
            return FIRST
        if second > first:
            return SECOND
        return DRAW

    # -- plumbing ------------------------------------------------------------

    def to_move(self) -> int:
        """0 = Black (first), 1 = White."""
        return self.player

    def board(self) -> Board:
        """Copy of the grid (0 empty, 1 Black, 2 White)."""
        return copy_board(self.grid)

    def clone(self) -> RefOthello:
        """Independent copy."""
        twin = copy.copy(self)
        twin.grid = copy_board(self.grid)
        return twin


# --------------------------------------------------------------------------
# Connect Four
# --------------------------------------------------------------------------


class RefConnectFour:
    """Connect Four on a width x height board; action = column; four in a row wins."""

    connect = 4

    def __init__(self, width: int = 7, height: int = 6) -> None:
        self.width = width
        self.height = height
        self.num_actions = width
        self.grid = empty_board(height, width)
        self.player = 0
        self.result = ONGOING

    def legal_actions(self) -> list[int]:
        """Columns whose top cell is empty, or [] once the game is over."""
        if self.result != ONGOING:
            return []
        return [col for col in range(self.width) if self.grid[0][col] == 0]

    def landing_row(self, col: int) -> int:
        """Lowest empty row of ``col`` (largest row index); the column must not be full."""
        row = self.height - 1
        while self.grid[row][col] != 0:
            row -= 1
        return row

    def apply(self, action: int) -> None:
        """Drop a disc in column ``action``; ValueError if it is not legal."""
        if action not in self.legal_actions():
            raise ValueError(f"illegal Connect Four action {action}")
        colour = colour_of(self.player)
        row = self.landing_row(action)
        self.grid[row][action] = colour
        lengths = [run_length(self.grid, row, action, dr, dc) for dr, dc in LINE_DIRECTIONS]
        if max(lengths) >= self.connect:
            self.result = winner_status(colour)
        elif is_full(self.grid):
            self.result = DRAW
        self.player = 1 - self.player

    def status(self) -> str:
        """Result so far."""
        return self.result

    def to_move(self) -> int:
        """0 = first player, 1 = second."""
        return self.player

    def board(self) -> Board:
        """Copy of the grid, row 0 at the top (discs settle in the last row first)."""
        return copy_board(self.grid)

    def clone(self) -> RefConnectFour:
        """Independent copy."""
        twin = copy.copy(self)
        twin.grid = copy_board(self.grid)
        return twin


# --------------------------------------------------------------------------
# Gomoku
# --------------------------------------------------------------------------


class RefGomoku:
    """Gomoku (free-style or exact-length) on an n x n board; action = row*n+col."""

    def __init__(self, size: int = 15, line_length: int = 5, overline_wins: bool = True) -> None:
        self.size = size
        self.line_length = line_length
        self.overline_wins = overline_wins
        self.num_actions = size * size
        self.grid = empty_board(size, size)
        self.player = 0
        self.result = ONGOING
        # Longest line through the last stone, and whether that move made a line
        # longer than line_length without winning (both for test statistics).
        self.last_move_longest_run = 0
        self.last_move_overline_only = False

    def legal_actions(self) -> list[int]:
        """Empty cells, or [] once the game is over."""
        if self.result != ONGOING:
            return []
        return [
            row * self.size + col
            for row in range(self.size)
            for col in range(self.size)
            if self.grid[row][col] == 0
        ]

    def line_wins(self, length: int) -> bool:
        """Whether a line of ``length`` stones wins under this variant."""
        if self.overline_wins:
            return length >= self.line_length
        return length == self.line_length

    def apply(self, action: int) -> None:
        """Place a stone; ValueError if it is not legal."""
        if action not in self.legal_actions():
            raise ValueError(f"illegal Gomoku action {action}")
        colour = colour_of(self.player)
        row, col = divmod(action, self.size)
        self.grid[row][col] = colour
        lengths = [run_length(self.grid, row, col, dr, dc) for dr, dc in LINE_DIRECTIONS]
        won = any(self.line_wins(length) for length in lengths)
        self.last_move_longest_run = max(lengths)
        self.last_move_overline_only = not won and max(lengths) > self.line_length
        if won:
            self.result = winner_status(colour)
        elif is_full(self.grid):
            self.result = DRAW
        self.player = 1 - self.player

    def status(self) -> str:
        """Result so far."""
        return self.result

    def to_move(self) -> int:
        """0 = Black (first), 1 = White."""
        return self.player

    def board(self) -> Board:
        """Copy of the grid."""
        return copy_board(self.grid)

    def clone(self) -> RefGomoku:
        """Independent copy."""
        twin = copy.copy(self)
        twin.grid = copy_board(self.grid)
        return twin


def gomoku_scan_status(board: Board, line_length: int, overline_wins: bool) -> str:
    """Status of a Gomoku board found by scanning every maximal run (no move history).

    Used to check the incremental status of :class:`RefGomoku` in self-tests.
    Assumes at most one player has a winning line.
    """
    size = len(board)
    for row in range(size):
        for col in range(size):
            colour = board[row][col]
            if colour == 0:
                continue
            for d_row, d_col in LINE_DIRECTIONS:
                prev_r, prev_c = row - d_row, col - d_col
                if on_board(size, size, prev_r, prev_c) and board[prev_r][prev_c] == colour:
                    continue  # not the start of a maximal run
                length = run_length(board, row, col, d_row, d_col)
                if length == line_length or (overline_wins and length > line_length):
                    return winner_status(colour)
    return DRAW if is_full(board) else ONGOING


# --------------------------------------------------------------------------
# perft
# --------------------------------------------------------------------------


def ref_perft(state: RefGame, depth: int, count_finished: bool = False) -> int:
    """Number of move sequences of length ``depth`` (passes count as moves).

    With ``count_finished=False`` (convention A) a game that ends before ``depth``
    contributes 0; with ``True`` (convention B) it counts as one leaf.
    """
    if depth == 0:
        return 1
    actions = state.legal_actions()
    if not actions:
        return 1 if count_finished else 0
    total = 0
    for action in actions:
        child = state.clone()
        child.apply(action)
        total += ref_perft(child, depth - 1, count_finished)
    return total


def play_moves(state: RefGame, moves: list[int]) -> RefGame:
    """Apply ``moves`` in order to ``state`` (mutating it) and return it."""
    for move in moves:
        state.apply(move)
    return state


def ref_perft_profile(state: RefGame, max_depth: int) -> tuple[list[int], list[int]]:
    """``ref_perft`` for every depth 0..max_depth, both conventions, in one walk.

    Returns ``(a, b)`` with ``a[d] == ref_perft(state, d)`` and
    ``b[d] == ref_perft(state, d, count_finished=True)``.
    """
    reached = [0] * (max_depth + 1)  # positions reached after exactly d moves
    finished = [0] * (max_depth + 1)  # ... of which the game is over

    def walk(node: RefGame, depth: int) -> None:
        reached[depth] += 1
        actions = node.legal_actions()
        if not actions:
            finished[depth] += 1
            return
        if depth == max_depth:
            return
        for action in actions:
            child = node.clone()
            child.apply(action)
            walk(child, depth + 1)

    walk(state, 0)
    convention_a = list(reached)
    convention_b = [reached[d] + sum(finished[:d]) for d in range(max_depth + 1)]
    return convention_a, convention_b
