# ruff: noqa: N802, N803, N806, SIM401
# (alpha-zero-general's camelCase names are kept on purpose, so the code reads like the original.)
"""A pure-Python PUCT search of the kind alpha-zero-general (AZG) uses, as the peer for pyaz.

This is AZG's ``MCTS.py`` (github.com/suragnair/alpha-zero-general) transcribed faithfully:
dictionaries keyed by a string representation of the canonical board (``Qsa``, ``Nsa``,
``Ns``, ``Ps``, plus the ``Es`` game-ended and ``Vs`` valid-moves caches), one recursive
``search()`` per simulation, the same PUCT rule with ``cpuct`` (``EPS`` for unvisited
edges), the network policy masked by the valid moves and renormalised, values negated on the
way back up, and ``getActionProb()`` turning the root's visit counts into a policy.  Nothing
was simplified away or slowed down: it is the code an AZG user runs.

What differs from a stock AZG set-up, so that only the *search* is pure Python:

- The game is driven through **pyaz's own Othello state** (C++), wrapped in the AZG ``Game``
  interface by :class:`PyazOthelloGame`.  Move generation, applying moves and the end-of-game
  test therefore run at pyaz speed, not at the speed of AZG's numpy ``OthelloLogic``.  The
  canonical board's string representation is ``state.encode().tobytes()``: the (2, H, W)
  planes from the side to move's point of view, the analogue of AZG's
  ``(board * player).tostring()``.
- The network is a stub, :class:`UniformNet`, whose ``predict(board)`` returns a uniform
  policy and a value of 0: the same leaf evaluation as pyaz's ``"uniform"`` evaluator.
- A draw scores ``1e-4`` (AZG's convention in its other games: non-zero, so that ``Es``
  can tell "ended in a draw" from "not ended").

Both choices favour the Python side (pyaz's game is far faster than AZG's), so the
pyaz/AZG ratio measured with :class:`PyazOthelloGame` understates the gap to a stock AZG
install.  For that stock figure, :class:`AzgOthelloGame` and :class:`AzgOthelloBoard` are
AZG's own ``othello/OthelloGame.py`` and ``othello/OthelloLogic.py`` (numpy board, +1 / -1
pieces, action ``n * row + col``, pass ``n * n``, a draw counts as a loss), transcribed as they
are; the same :class:`MCTS` runs on either game.
"""

from __future__ import annotations

import math
from types import SimpleNamespace
from typing import Any, ClassVar

import numpy as np

EPS = 1e-8
DRAW_RESULT = 1e-4


class PyazOthelloGame:
    """AZG's ``Game`` interface on top of a pyaz game state (``pyaz.make("othello", size=n)``).

    A "board" here is a pyaz state.  pyaz states know who is to move and encode themselves
    from that side's point of view, so the canonical form is the state itself and ``player``
    is +1 for the side to move, as in AZG.
    """

    def __init__(self, start_state: Any) -> None:
        self.start_state = start_state
        self.n_actions = int(start_state.num_actions)

    def getInitBoard(self) -> Any:
        return self.start_state.clone()

    def getActionSize(self) -> int:
        return self.n_actions

    def getNextState(self, board: Any, player: int, action: int) -> tuple[Any, int]:
        return board.child(int(action)), -player

    def getValidMoves(self, board: Any, player: int) -> np.ndarray:
        return board.legal_mask().astype(np.int8)

    def getGameEnded(self, board: Any, player: int) -> float:
        """0 while the game goes on, else the result for ``player`` (1 = the side to move)."""
        if not board.is_terminal():
            return 0
        status = str(board.status())
        if status.endswith("DRAW"):
            return DRAW_RESULT
        winner = 0 if status.endswith("FIRST_PLAYER_WIN") else 1
        mover_won = winner == board.to_move()
        return (1 if mover_won else -1) * player

    def getCanonicalForm(self, board: Any, player: int) -> Any:
        return board  # already from the side to move's point of view

    def stringRepresentation(self, board: Any) -> bytes:
        return board.encode().tobytes()


class UniformNet:
    """Stub for AZG's ``NeuralNet``: uniform policy over all actions, value 0."""

    def __init__(self, action_size: int) -> None:
        self.action_size = action_size

    def predict(self, board: Any) -> tuple[np.ndarray, float]:
        return np.ones(self.action_size) / self.action_size, 0.0


class MCTS:
    """alpha-zero-general's MCTS class (``MCTS.py``), unchanged apart from the logging."""

    def __init__(self, game: Any, nnet: Any, args: Any) -> None:
        self.game = game
        self.nnet = nnet
        self.args = args
        self.Qsa: dict[tuple[bytes, int], float] = {}  # Q values for s,a
        self.Nsa: dict[tuple[bytes, int], int] = {}  # times edge s,a was visited
        self.Ns: dict[bytes, int] = {}  # times board s was visited
        self.Ps: dict[bytes, np.ndarray] = {}  # initial policy (returned by neural net)
        self.Es: dict[bytes, float] = {}  # game.getGameEnded for board s
        self.Vs: dict[bytes, np.ndarray] = {}  # game.getValidMoves for board s

    def getActionProb(self, canonicalBoard: Any, temp: float = 1) -> list[float]:
        """Performs numMCTSSims simulations from canonicalBoard; returns the visit policy."""
        for _ in range(self.args.numMCTSSims):
            self.search(canonicalBoard)

        s = self.game.stringRepresentation(canonicalBoard)
        counts = [
            self.Nsa[(s, a)] if (s, a) in self.Nsa else 0 for a in range(self.game.getActionSize())
        ]

        if temp == 0:
            bestAs = np.array(np.argwhere(counts == np.max(counts))).flatten()
            bestA = np.random.choice(bestAs)
            probs = [0.0] * len(counts)
            probs[bestA] = 1.0
            return probs

        counts = [x ** (1.0 / temp) for x in counts]
        counts_sum = float(sum(counts))
        return [x / counts_sum for x in counts]

    def search(self, canonicalBoard: Any) -> float:
        """One simulation; returns the negative of the value of the current canonicalBoard."""
        s = self.game.stringRepresentation(canonicalBoard)

        if s not in self.Es:
            self.Es[s] = self.game.getGameEnded(canonicalBoard, 1)
        if self.Es[s] != 0:
            # terminal node
            return -self.Es[s]

        if s not in self.Ps:
            # leaf node
            self.Ps[s], v = self.nnet.predict(canonicalBoard)
            valids = self.game.getValidMoves(canonicalBoard, 1)
            self.Ps[s] = self.Ps[s] * valids  # masking invalid moves
            sum_Ps_s = np.sum(self.Ps[s])
            if sum_Ps_s > 0:
                self.Ps[s] /= sum_Ps_s  # renormalize
            else:
                # all valid moves were masked: make all valid moves equally probable
                self.Ps[s] = self.Ps[s] + valids
                self.Ps[s] /= np.sum(self.Ps[s])

            self.Vs[s] = valids
            self.Ns[s] = 0
            return -v

        valids = self.Vs[s]
        cur_best = -float("inf")
        best_act = -1

        # pick the action with the highest upper confidence bound
        for a in range(self.game.getActionSize()):
            if valids[a]:
                if (s, a) in self.Qsa:
                    u = self.Qsa[(s, a)] + self.args.cpuct * self.Ps[s][a] * math.sqrt(
                        self.Ns[s]
                    ) / (1 + self.Nsa[(s, a)])
                else:
                    u = self.args.cpuct * self.Ps[s][a] * math.sqrt(self.Ns[s] + EPS)  # Q = 0 ?

                if u > cur_best:
                    cur_best = u
                    best_act = a

        a = best_act
        next_s, next_player = self.game.getNextState(canonicalBoard, 1, a)
        next_s = self.game.getCanonicalForm(next_s, next_player)

        v = self.search(next_s)

        if (s, a) in self.Qsa:
            self.Qsa[(s, a)] = (self.Nsa[(s, a)] * self.Qsa[(s, a)] + v) / (self.Nsa[(s, a)] + 1)
            self.Nsa[(s, a)] += 1
        else:
            self.Qsa[(s, a)] = v
            self.Nsa[(s, a)] = 1

        self.Ns[s] += 1
        return -v


class AzgOthelloBoard:
    """AZG's ``othello/OthelloLogic.py`` Board; pieces[x][y] is 1 (first player), -1 or 0."""

    __directions: ClassVar[list[tuple[int, int]]] = [
        (1, 1),
        (1, 0),
        (1, -1),
        (0, -1),
        (-1, -1),
        (-1, 0),
        (-1, 1),
        (0, 1),
    ]

    def __init__(self, n: int) -> None:
        self.n = n
        self.pieces: Any = [None] * self.n
        for i in range(self.n):
            self.pieces[i] = [0] * self.n
        self.pieces[int(self.n / 2) - 1][int(self.n / 2)] = 1
        self.pieces[int(self.n / 2)][int(self.n / 2) - 1] = 1
        self.pieces[int(self.n / 2) - 1][int(self.n / 2) - 1] = -1
        self.pieces[int(self.n / 2)][int(self.n / 2)] = -1

    def __getitem__(self, index: int) -> Any:
        return self.pieces[index]

    def countDiff(self, color: int) -> int:
        count = 0
        for y in range(self.n):
            for x in range(self.n):
                if self[x][y] == color:
                    count += 1
                if self[x][y] == -color:
                    count -= 1
        return count

    def get_legal_moves(self, color: int) -> list[tuple[int, int]]:
        moves = set()
        for y in range(self.n):
            for x in range(self.n):
                if self[x][y] == color:
                    newmoves = self.get_moves_for_square((x, y))
                    moves.update(newmoves)
        return list(moves)

    def has_legal_moves(self, color: int) -> bool:
        for y in range(self.n):
            for x in range(self.n):
                if self[x][y] == color:
                    newmoves = self.get_moves_for_square((x, y))
                    if len(newmoves) > 0:
                        return True
        return False

    def get_moves_for_square(self, square: tuple[int, int]) -> Any:
        (x, y) = square
        color = self[x][y]
        if color == 0:
            return None
        moves = []
        for direction in self.__directions:
            move = self._discover_move(square, direction)
            if move:
                moves.append(move)
        return moves

    def execute_move(self, move: tuple[int, int], color: int) -> None:
        flips = [
            flip
            for direction in self.__directions
            for flip in self._get_flips(move, direction, color)
        ]
        assert len(list(flips)) > 0
        for x, y in flips:
            self[x][y] = color

    def _discover_move(self, origin: tuple[int, int], direction: tuple[int, int]) -> Any:
        x, y = origin
        color = self[x][y]
        flips = []
        for x, y in AzgOthelloBoard._increment_move(origin, direction, self.n):
            if self[x][y] == 0:
                if flips:
                    return (x, y)
                else:
                    return None
            elif self[x][y] == color:
                return None
            elif self[x][y] == -color:
                flips.append((x, y))
        return None

    def _get_flips(self, origin: Any, direction: tuple[int, int], color: int) -> list[Any]:
        flips = [origin]
        for x, y in AzgOthelloBoard._increment_move(origin, direction, self.n):
            if self[x][y] == 0:
                return []
            if self[x][y] == -color:
                flips.append((x, y))
            elif self[x][y] == color and len(flips) > 0:
                return flips
        return []

    @staticmethod
    def _increment_move(move: Any, direction: tuple[int, int], n: int) -> Any:
        move = list(map(sum, zip(move, direction, strict=False)))
        while all(map(lambda x: 0 <= x < n, move)):
            yield move
            move = list(map(sum, zip(move, direction, strict=False)))


class AzgOthelloGame:
    """AZG's ``othello/OthelloGame.py``: boards are numpy arrays, players +1 and -1."""

    def __init__(self, n: int) -> None:
        self.n = n

    def getInitBoard(self) -> np.ndarray:
        b = AzgOthelloBoard(self.n)
        return np.array(b.pieces)

    def getBoardSize(self) -> tuple[int, int]:
        return (self.n, self.n)

    def getActionSize(self) -> int:
        return self.n * self.n + 1

    def getNextState(self, board: np.ndarray, player: int, action: int) -> tuple[Any, int]:
        if action == self.n * self.n:
            return (board, -player)
        b = AzgOthelloBoard(self.n)
        b.pieces = np.copy(board)
        move = (int(action / self.n), action % self.n)
        b.execute_move(move, player)
        return (b.pieces, -player)

    def getValidMoves(self, board: np.ndarray, player: int) -> np.ndarray:
        valids = [0] * self.getActionSize()
        b = AzgOthelloBoard(self.n)
        b.pieces = np.copy(board)
        legalMoves = b.get_legal_moves(player)
        if len(legalMoves) == 0:
            valids[-1] = 1
            return np.array(valids)
        for x, y in legalMoves:
            valids[self.n * x + y] = 1
        return np.array(valids)

    def getGameEnded(self, board: np.ndarray, player: int) -> float:
        b = AzgOthelloBoard(self.n)
        b.pieces = np.copy(board)
        if b.has_legal_moves(player):
            return 0
        if b.has_legal_moves(-player):
            return 0
        if b.countDiff(player) > 0:
            return 1
        return -1

    def getCanonicalForm(self, board: np.ndarray, player: int) -> np.ndarray:
        return player * board

    def stringRepresentation(self, board: np.ndarray) -> bytes:
        return board.tobytes()  # AZG: board.tostring(), removed from numpy 2


def make_args(num_sims: int, cpuct: float = 1.0) -> SimpleNamespace:
    """AZG's ``dotdict`` of arguments, reduced to what MCTS reads."""
    return SimpleNamespace(numMCTSSims=num_sims, cpuct=cpuct)


def azg_search(start_state: Any, num_sims: int, cpuct: float = 1.0) -> MCTS:
    """One AZG move search: a fresh MCTS from ``start_state`` with ``num_sims`` simulations.

    ``start_state`` is a pyaz state (run on :class:`PyazOthelloGame`) or an ``int`` board size
    (AZG's own :class:`AzgOthelloGame` from its start position).
    """
    game: Any = (
        AzgOthelloGame(start_state)
        if isinstance(start_state, int)
        else PyazOthelloGame(start_state)
    )
    mcts = MCTS(game, UniformNet(game.getActionSize()), make_args(num_sims, cpuct))
    mcts.getActionProb(game.getCanonicalForm(game.getInitBoard(), 1), temp=1)
    return mcts


def root_visit_counts(mcts: MCTS, board: Any) -> list[int]:
    """N(s, a) at ``board`` (the canonical root) for every action (0 where unvisited)."""
    s = mcts.game.stringRepresentation(board)
    return [mcts.Nsa.get((s, a), 0) for a in range(mcts.game.getActionSize())]
