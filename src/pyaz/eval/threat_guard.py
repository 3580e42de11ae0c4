"""A Gomoku player behind seed 004's mentor's threat analysis (``guard[:MS[:NODES]]:SPEC``).

Not in the paper: a hybrid, the way strong Gomoku engines pair a network with a threat-space
search. :meth:`pyaz._core.GomokuMentor.forced_moves` says, for a position, whether a five or
a forced win (VCF, VCT) dictates the move, or which moves stop the opponent's forced win. The
:class:`ThreatGuardPlayer` asks it at the root of each move and, through a
:class:`ThreatAwareEvaluator` around a network's evaluator, at every leaf of the inner search.
Measured in docs/results/accelerations-cpu.md.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pyaz._core import Gomoku, GomokuMentor
from pyaz.eval.players import Player, SearchPlayer, check_mentor_game, close_player
from pyaz.games import GameState
from pyaz.nets.threat_search import (
    FORCING_REASONS,
    WINNING_REASONS,
    node_budget,
    position_from_planes,
    read_threats,
)

__all__ = [
    "DEFAULT_GUARD_MS",
    "DEFAULT_TREE_NODES",
    "ThreatAwareEvaluator",
    "ThreatGuardPlayer",
]

DEFAULT_GUARD_MS = 100
"""The root analysis's time per move (ms)."""

DEFAULT_TREE_NODES = 3000
"""The node budget of each leaf's analysis (deterministic: a node budget, not a time)."""

_LEAF_BUDGET = "the leaf analysis's node budget"
_MASK_GAP = 100.0  # logits this far below the kept ones: a prior of e^-100 beside them


class ThreatAwareEvaluator:
    """Wraps a Gomoku network evaluator ``fn(planes) -> (logits, values)`` (see
    :mod:`pyaz.search`) with the mentor's threat analysis at every leaf, ``max_nodes`` nodes
    each: a leaf whose side to move completes a five or wins by VCF/VCT gets the value 1 and its
    prior on that move; one that must block a five, or answer the opponent's VCF/VCT, gets its
    prior on the moves that do; one where no move the mentor tries answers it (its strongest
    24-40 candidates, the threat's cells, its own fours), or where the opponent has two fives
    to complete, gets the value -1. A "defend" whose budget ran out before every answer was
    tried proves nothing and changes nothing (counted as ``"unproven"``). The leaf's position
    is read from its first two planes (the side to move's stones, the opponent's: every Gomoku
    encoding starts so); ``overline_wins`` is the game's rule. ``changed`` counts the leaves
    by what the analysis found: ``"none"``, ``"unproven"``, ``"lost"`` and the mentor's reasons
    (``"win"``, ``"block"``, ``"vcf"``, ``"vct"``, ``"defend"``)."""

    def __init__(
        self, evaluator: Any, max_nodes: int = DEFAULT_TREE_NODES, overline_wins: bool = True
    ) -> None:
        if not callable(evaluator):
            raise TypeError(f"the threat analysis wraps a network evaluator, got {evaluator!r}")
        self.evaluator = evaluator
        self.max_nodes = node_budget(max_nodes, 1, _LEAF_BUDGET)
        self.overline_wins = bool(overline_wins)
        self.mentor = GomokuMentor(time_ms=0.0, max_nodes=self.max_nodes)
        self.changed: dict[str, int] = {}

    def __call__(self, planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        logits, values = self.evaluator(planes)
        logits = np.array(logits, dtype=np.float64)  # copies: the network's arrays stay
        values = np.array(values, dtype=np.float64).reshape(len(planes))
        for row in range(planes.shape[0]):
            state = position_from_planes(planes[row], self.overline_wins)
            self._analyse(state, logits[row], values, row)
        return logits, values

    def _analyse(self, state: Gomoku, logits: np.ndarray, values: np.ndarray, row: int) -> None:
        if state.is_terminal():
            return
        reason, moves = read_threats(self.mentor, state)
        if reason == "lost":
            values[row] = -1.0
        elif reason in FORCING_REASONS or reason == "defend":
            if reason in WINNING_REASONS:
                values[row] = 1.0
            keep = logits[moves] - logits[moves].max()  # the same priors, within float range
            logits[:] = keep.min() - _MASK_GAP
            logits[moves] = keep
        self.changed[reason] = self.changed.get(reason, 0) + 1


class ThreatGuardPlayer:
    """A Gomoku player with the mentor's threat analysis in front of it. Each move, within
    ``time_ms``, :meth:`pyaz._core.GomokuMentor.forced_moves`:

    - a five to complete or to block, or a forced win of its own (VCF, then VCT): that move;
    - else, if the opponent would win by VCF/VCT were it to move: ``inner``'s move if it is
      among the moves that stop it (or, when the budget ran out before every answer was tried,
      if the opponent has no forced win after it), else the one of those that ``inner``'s
      search visited most (the mentor's order breaks ties); if none was found, ``inner``'s move;
    - else ``inner``'s move.

    ``inner`` is any Gomoku player (``model:PATH:SIMS``, ``alphagomoku:PATH``, ``uct:N``) and
    is told of every move. When it is a network's search, its evaluator is also wrapped in a
    :class:`ThreatAwareEvaluator` with ``tree_nodes`` nodes a leaf (0: the root alone).
    ``decisions`` counts the moves by what decided them: ``"win"``, ``"block"``, ``"vcf"``,
    ``"vct"``, ``"defend"`` (an override of ``inner``), ``"inner"``."""

    def __init__(
        self,
        inner: Player,
        time_ms: float = DEFAULT_GUARD_MS,
        tree_nodes: int = DEFAULT_TREE_NODES,
        name: str | None = None,
    ) -> None:
        if not time_ms > 0:
            raise ValueError(f"the threat guard's time per move must be > 0 ms, got {time_ms}")
        tree_nodes = node_budget(tree_nodes, 0, _LEAF_BUDGET)
        self.inner = inner
        self.name = name if name is not None else f"guard:{inner.name}"
        self.mentor = GomokuMentor(time_ms=float(time_ms))
        self.tree: ThreatAwareEvaluator | None = None
        if tree_nodes > 0 and isinstance(inner, SearchPlayer) and callable(inner.evaluator):
            self.tree = ThreatAwareEvaluator(inner.evaluator, tree_nodes)
            inner.evaluator = self.tree
        self.decisions: dict[str, int] = {}

    def reset(self, state: GameState) -> None:
        """Checks that the mentor plays ``state``'s game (ValueError if not); resets ``inner``."""
        check_mentor_game(state, self.name)
        if self.tree is not None:
            self.tree.overline_wins = bool(state.overline_wins)  # type: ignore[attr-defined]
        self.inner.reset(state)

    def choose(self, state: Gomoku) -> int:
        """The forced move, else ``inner``'s move kept or replaced by a defence."""
        forced = [int(a) for a in self.mentor.forced_moves(state)]
        info = self.mentor.last_info
        reason = str(info["reason"])
        if reason in FORCING_REASONS:
            return self._decided(reason, forced[0])
        action = int(self.inner.choose(state))
        if not forced or action in forced:
            return self._decided("inner", action)
        if not info["answers_complete"] and self._stops_the_threat(state, action):
            return self._decided("inner", action)  # an answer the budget did not reach
        return self._decided("defend", self._best_answer(forced))

    def _stops_the_threat(self, state: Gomoku, action: int) -> bool:
        """Whether the opponent has no five and no VCF/VCT after ``action``."""
        child = state.child(action)
        if child.is_terminal():  # the board is full: a draw stops every threat
            return True
        self.mentor.forced_moves(child)
        return str(self.mentor.last_info["reason"]) not in WINNING_REASONS

    def observe(self, action: int) -> None:
        """Tells ``inner``."""
        self.inner.observe(action)

    def close(self) -> None:
        """Closes ``inner`` (an engine)."""
        close_player(self.inner)

    def _best_answer(self, answers: list[int]) -> int:
        search = getattr(self.inner, "search", None)
        if search is None:
            return answers[0]
        visits = search.visit_counts()
        return max(answers, key=lambda a: (int(visits[a]), -answers.index(a)))

    def _decided(self, reason: str, action: int) -> int:
        self.decisions[reason] = self.decisions.get(reason, 0) + 1
        return action

    def __repr__(self) -> str:
        return f"ThreatGuardPlayer(inner={self.inner!r}, tree={self.tree is not None})"
