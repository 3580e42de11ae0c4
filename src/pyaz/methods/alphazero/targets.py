"""The training targets of the buffer's positions: value targets blended with the search's root
value, and duplicate positions merged into one example.

- :func:`value_targets`: target = (1 - w) * z + w * q, z the game's outcome and q the root value
  of the search at the position, both for the player to move there (the "z/q average" of the
  Oracle Connect Four series: Prasad et al. 2019, "Lessons from AlphaZero for Optimal,
  Quasi-optimal, and Mixed Value Targets", parts 3 and 4). w = 0 is AlphaZero's z.
- :func:`merge_duplicates`: positions with identical planes (after the game's canonical form
  under the given symmetries) become one example with the mean policy and the mean value target
  (the Oracle series' position averaging; 30-40% of Connect Four's training positions repeat),
  and the mean score target when there is one (a final score is the same under every symmetry).
- :func:`threat_targets` (Gomoku): each position's targets corrected by seed 004's mentor's
  threat analysis: the move a five, a block or a forced win dictates; the moves that stop the
  opponent's forced win; +1 where it finds a forced win, -1 where no defence it tries holds;
  :func:`records_with_threat_targets` applies it to self-play records.

>>> import numpy as np
>>> value_targets(np.array([1.0, -1.0]), np.array([0.2, -0.4]), 0.5)
array([ 0.6, -0.7], dtype=float32)
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

import numpy as np

from pyaz._core import GomokuMentor
from pyaz.games import PlayableGameState
from pyaz.games.symmetry import transform_planes, transform_policy
from pyaz.nets.threat_search import (
    FORCING_REASONS,
    WINNING_REASONS,
    position_from_planes,
    read_threats,
)
from pyaz.search import SelfPlayRecords

__all__ = [
    "Merged",
    "merge_duplicates",
    "records_with_threat_targets",
    "threat_targets",
    "value_targets",
]


def value_targets(outcome: np.ndarray, root_value: np.ndarray, weight: float) -> np.ndarray:
    """(1 - ``weight``) * ``outcome`` + ``weight`` * ``root_value``, as float32 (``outcome``
    itself, unchanged, when ``weight`` is 0). ValueError for a weight outside [0, 1] or arrays
    of different shapes."""
    if not 0.0 <= weight <= 1.0:  # NaN fails too
        raise ValueError(f"value_target_q must be in [0, 1], got {weight}")
    if outcome.shape != root_value.shape:
        raise ValueError(
            f"outcome and root_value must have the same shape, got {outcome.shape} and "
            f"{root_value.shape}"
        )
    if weight == 0.0:
        return outcome
    blended = (1.0 - weight) * outcome.astype(np.float64) + weight * root_value
    return blended.astype(np.float32)


@dataclass(frozen=True)
class Merged:
    """The examples after merging: one per distinct position, in the order of first occurrence
    (planes and policy in the canonical orientation), and how many positions went in."""

    planes: np.ndarray
    policy: np.ndarray
    value: np.ndarray
    positions: int
    score: np.ndarray | None = None  # the mean score targets (None when none were given)

    @property
    def merged(self) -> int:
        """Positions folded into another one's example (positions - examples)."""
        return self.positions - len(self.value)

    @property
    def share(self) -> float:
        """The share of positions folded into another's example (0 when none)."""
        return self.merged / self.positions if self.positions else 0.0


def merge_duplicates(
    planes: np.ndarray,
    policy: np.ndarray,
    value: np.ndarray,
    state: PlayableGameState,
    symmetries: list[int] | None = None,
    score: np.ndarray | None = None,
) -> Merged:
    """One example per distinct position, with the mean policy and the mean value target of its
    copies (and the mean ``score`` target when given, one per position: a final score is the
    same under every symmetry). Two positions are the same when their planes are equal byte for
    byte after the canonical form: of the planes under each transform id of ``symmetries`` (the
    dihedral ids of :mod:`pyaz.games.symmetry` that the game has, e.g. [0, 4] for Connect Four;
    None or [0]: the planes as they are), the one with the smallest bytes; each copy's policy is
    turned the same way before the mean. ``state`` is the game (for the policy's transform)."""
    count = len(value)
    if not len(planes) == len(policy) == count or (score is not None and len(score) != count):
        scores = "" if score is None else f" (score {len(score)})"
        raise ValueError(
            f"planes, policy and value must have one row per position, got {len(planes)}, "
            f"{len(policy)} and {count}{scores}"
        )
    ids = [0] if not symmetries else list(symmetries)
    variants = [planes if k == 0 else transform_planes(planes, k) for k in ids]
    rows = [np.ascontiguousarray(v).reshape(count, -1) for v in variants]
    chosen = np.zeros(count, dtype=np.int64)
    groups = np.empty(count, dtype=np.int64)
    seen: dict[bytes, int] = {}
    for i in range(count):
        keys = [r[i].tobytes() for r in rows]
        best = min(range(len(ids)), key=keys.__getitem__)
        chosen[i] = best
        groups[i] = seen.setdefault(keys[best], len(seen))
    canonical_planes, canonical_policy = planes.copy(), policy.astype(np.float64)
    for index, k in enumerate(ids):
        rows_k = np.flatnonzero(chosen == index)
        if k == 0 or rows_k.size == 0:
            continue
        canonical_planes[rows_k] = variants[index][rows_k]
        canonical_policy[rows_k] = transform_policy(policy[rows_k], int(k), state)
    distinct = len(seen)
    _, first, copies = np.unique(groups, return_index=True, return_counts=True)  # groups 0, 1, ...
    copies = copies.astype(np.float64)
    mean_policy = np.zeros((distinct, policy.shape[1]), dtype=np.float64)
    np.add.at(mean_policy, groups, canonical_policy)
    mean_value = np.bincount(groups, weights=value.astype(np.float64), minlength=distinct)
    mean_score = None
    if score is not None:
        total = np.bincount(groups, weights=score.astype(np.float64), minlength=distinct)
        mean_score = (total / copies).astype(score.dtype)
    return Merged(
        canonical_planes[first],
        (mean_policy / copies[:, None]).astype(policy.dtype),
        (mean_value / copies).astype(value.dtype),
        count,
        mean_score,
    )


def threat_targets(
    planes: np.ndarray,
    policy: np.ndarray,
    outcome: np.ndarray,
    max_nodes: int,
    overline_wins: bool = True,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict[str, int]]:
    """Gomoku self-play targets corrected by the mentor's threat analysis
    (:func:`pyaz.nets.threat_search.read_threats`, ``max_nodes`` nodes a position, deterministic).
    Not in seed 004: a hybrid, in the spirit of its mentor's supervision. Per position:

    - a five to complete or block, or a forced win the analysis finds (VCF, VCT): the policy
      target is that move, and for a win the value target +1;
    - the opponent threatens a forced win: the target keeps the search's share on the moves that
      stop it, renormalised (uniform over them if the search gave them nothing);
    - ``"lost"``: the opponent has two fives to complete, or none of the defences the mentor
      tries (its strongest candidates, the threat's cells, its own fours: not every move, so
      not an exhaustive proof) stops its forced win: value target -1, the policy target kept;
    - nothing forced, or a defence the budget did not finish: unchanged.

    Returns new policy and outcome arrays (the inputs stay), which rows got a value from the
    analysis (bool), and the count of positions per verdict, ``"policy_changed"`` (the target
    moved more than 1e-6 of its mass) and ``"value_changed"``.
    """
    new_policy = np.array(policy, dtype=np.float32)
    new_outcome = np.array(outcome, dtype=np.float32)
    decided = np.zeros(len(new_outcome), dtype=bool)
    mentor = GomokuMentor(time_ms=0.0, max_nodes=int(max_nodes))
    counts: dict[str, int] = {"policy_changed": 0, "value_changed": 0}
    for row in range(planes.shape[0]):
        state = position_from_planes(planes[row], overline_wins)
        if state.is_terminal():
            continue
        reason, moves = read_threats(mentor, state)
        counts[reason] = counts.get(reason, 0) + 1
        target = _forced_target(new_policy[row], reason, moves)
        if target is not None:
            if float(np.abs(target - new_policy[row]).sum()) > 1e-6:
                counts["policy_changed"] += 1
            new_policy[row] = target
        value = 1.0 if reason in WINNING_REASONS else -1.0 if reason == "lost" else None
        if value is not None:
            decided[row] = True
            if new_outcome[row] != value:
                counts["value_changed"] += 1
                new_outcome[row] = value
    return new_policy, new_outcome, decided, counts


def records_with_threat_targets(
    records: SelfPlayRecords, max_nodes: int, overline_wins: bool = True
) -> tuple[SelfPlayRecords, dict[str, float]]:
    """``records`` with their targets corrected by :func:`threat_targets` (a value the analysis
    gives replaces the root value q too, so that a z/q blend keeps it) and what it measured: the
    share of positions whose policy (``threat_policy_changed``) and value
    (``threat_value_changed``) target changed, and its seconds (``time_threats``)."""
    began = time.perf_counter()
    policy, outcome, decided, counts = threat_targets(
        records.planes, records.policy, records.outcome, max_nodes, overline_wins
    )
    root_value = np.where(decided, outcome, records.root_value).astype(np.float32)
    positions = max(1, records.num_positions)
    measured = {
        "threat_policy_changed": counts["policy_changed"] / positions,
        "threat_value_changed": counts["value_changed"] / positions,
        "time_threats": time.perf_counter() - began,
    }
    return replace(records, policy=policy, outcome=outcome, root_value=root_value), measured


def _forced_target(pi: np.ndarray, reason: str, moves: list[int]) -> np.ndarray | None:
    """The corrected policy target of :func:`threat_targets`, None where it stays."""
    if reason in FORCING_REASONS:
        target = np.zeros_like(pi)
        target[moves[0]] = 1.0
        return target
    if reason != "defend":
        return None
    target = np.zeros_like(pi)
    target[moves] = pi[moves]
    mass = float(target.sum())
    if mass > 0:
        return target / mass
    target[moves] = 1.0 / len(moves)
    return target
