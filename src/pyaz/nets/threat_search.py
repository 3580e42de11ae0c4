"""Gomoku's threat-search planes: the result of a bounded threat-space search as network input.

KataGo gives its network the result of a ladder search as input planes (Wu 2019, appendix A):
a ladder is a forcing sequence that a small network cannot read from the stones. Gomoku's forcing
sequences are the VCF and VCT (victory by continuous fours / threes), and seed 004's mentor
searches them (:meth:`pyaz._core.GomokuMentor.forced_moves`). A network with
``NetConfig.threat_search`` = N reads :data:`THREAT_SEARCH_PLANES` more planes after the game's
own, from that analysis with a budget of N nodes a position (deterministic):

0. the cell that a five to complete, a five to block, or a forced win (VCF, VCT) dictates;
1. the cells that stop the opponent's forced win (when the opponent would have one were it to
   move, and some move the analysis tries stops it);
2. all ones when the side to move has a forced win (a five, a VCF or a VCT);
3. all ones when the side to move is lost by force (no move the analysis tries stops the
   opponent's forced win, or the opponent has two fives to complete).

A verdict whose budget ran out before every answer was tried proves nothing and leaves the
planes at zero. The planes are computed outside the network (the search's evaluator appends
them, :class:`ThreatSearchEvaluator`; the training loop appends them to each self-play position
once), so the network files and the ONNX export take the game's planes plus these four. Not in
the papers: a hybrid input, as KataGo's ladder planes are. The analysis is for free-style Gomoku
(five in a row, overlines win: seed 004's rules). Measured in docs/results/accelerations-cpu.md.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from pyaz._core import Gomoku, GomokuMentor

__all__ = [
    "FORCING_REASONS",
    "THREAT_SEARCH_PLANES",
    "WINNING_REASONS",
    "ThreatSearchEvaluator",
    "append_threat_search",
    "node_budget",
    "position_from_planes",
    "read_threats",
]

THREAT_SEARCH_PLANES: int = GomokuMentor.THREAT_SEARCH_PLANES
"""The planes a threat-search network reads after the game's own (the C++ analysis's count)."""

FORCING_REASONS = ("win", "block", "vcf", "vct")
"""The threat analysis's reasons that dictate one move."""

WINNING_REASONS = ("win", "vcf", "vct")
"""The reasons that prove a win for the side to move."""


def position_from_planes(planes: np.ndarray, overline_wins: bool = True) -> Gomoku:
    """The Gomoku position of a network input: its first two planes are the side to move's
    stones and the opponent's (every Gomoku encoding starts so); black has as many stones as
    white, or one more (:meth:`Gomoku.from_planes`)."""
    return Gomoku.from_planes(planes, 5, bool(overline_wins))


def read_threats(mentor: GomokuMentor, state: Gomoku) -> tuple[str, list[int]]:
    """The threat analysis of a position that is not over (:meth:`GomokuMentor.forced_moves`
    within ``mentor``'s limits), read as a verdict and its moves: a forcing reason (``"win"``,
    ``"block"``, ``"vcf"``, ``"vct"``) and the one move; ``"defend"`` and every move that stops
    the opponent's forced win; ``"lost"`` (no move the mentor tries stops it, or the opponent
    has two fives to complete) and []; ``"unproven"`` (the budget ran out before every answer
    was tried: proves nothing) and []; ``"none"`` and [] (:meth:`GomokuMentor.read_threats`)."""
    reason, moves = mentor.read_threats(state)
    return str(reason), [int(a) for a in moves]


def node_budget(value: object, least: int, what: str = "the analysis's node budget") -> int:
    """``value`` as a node budget of the threat analysis: TypeError for a non-integer,
    ValueError below ``least``; ``what`` names it in the message."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise TypeError(f"{what} must be an integer, got {value!r}")
    if value < least:
        raise ValueError(f"{what} must be >= {least}, got {value}")
    return int(value)


def append_threat_search(
    planes: np.ndarray, mentor: GomokuMentor, counts: dict[str, int] | None = None
) -> np.ndarray:
    """``planes [B, C, H, W]`` (Gomoku inputs) with the :data:`THREAT_SEARCH_PLANES` planes of
    ``mentor``'s analysis after them (float32; :meth:`GomokuMentor.threat_search_planes`, in
    C++ without the GIL); ``counts`` (when given) tallies the verdicts."""
    planes = np.asarray(planes, dtype=np.float32)
    extra, tally = mentor.threat_search_planes(planes)
    if counts is not None:
        for reason, count in tally.items():
            counts[reason] = counts.get(reason, 0) + int(count)
    return np.concatenate([planes, extra], 1)


class ThreatSearchEvaluator:
    """Wraps the evaluator of a threat-search network (``fn(planes) -> (logits, values)``, see
    :mod:`pyaz.search`): the search's inputs, the game's ``planes`` planes, get the analysis's
    planes (``nodes`` nodes a position) before the network runs; inputs that already have them
    pass as they are. ``counts`` tallies the verdicts and ``seconds`` the analysis's time
    (summed over the threads that call it)."""

    def __init__(self, evaluator: Callable[[np.ndarray], Any], nodes: int, planes: int) -> None:
        if not callable(evaluator):
            raise TypeError(f"the threat search wraps a network evaluator, got {evaluator!r}")
        nodes = node_budget(nodes, 1, "a threat-search evaluator's node budget")
        self.evaluator = evaluator
        self.planes = int(planes)
        self.mentor = GomokuMentor(time_ms=0.0, max_nodes=nodes)
        self.counts: dict[str, int] = {}
        self.seconds = 0.0
        self._lock = threading.Lock()  # the search's threads may call it at once

    def __call__(self, planes: np.ndarray) -> Any:
        planes = np.asarray(planes)
        if planes.ndim == 4 and planes.shape[1] == self.planes:
            began = time.perf_counter()
            counts: dict[str, int] = {}
            planes = append_threat_search(planes, self.mentor, counts)
            with self._lock:
                self.seconds += time.perf_counter() - began
                for reason, count in counts.items():
                    self.counts[reason] = self.counts.get(reason, 0) + count
        return self.evaluator(planes)
