"""DL-UCT, seed 002's baseline: PUCT over the discretised 32x32x2 target grid.

Each node holds the 2048 grid actions of :func:`pyaz.methods.kr_dl_uct.action_to_target` with a
prior (the network's policy, or uniform), visit counts and value sums. Transitions use the simulator
without noise, like KR-UCT's tree; the search stays inside the current end, and leaves are valued by
the same evaluators as :func:`pyaz.methods.kr_dl_uct.kr_uct_search` (``evaluator(state) -> (value
for team 0, candidates, weights)``; the weights are taken as the prior when they cover the 2048 grid
actions) or, without one, by the house score as if the end finished now. Selection maximises Q +
c_puct * P * sqrt(N) / (1 + n) with Q = 0 for unvisited actions and ties broken at random; the final
move is the most visited action. Seed 002 compares KR-DL-UCT with this (C = 1.0).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cache

import numpy as np

from pyaz.games import curling

_STONES_PER_END = 16


@dataclass
class DlUctParams:
    """Search options: simulations, the PUCT constant (seed 002: 1.0), the depth limit in plies
    below the root, whether finished ends go to the evaluator (for win-rate leaves) and the seed
    of the tie-breaking."""

    simulations: int = 400
    c_puct: float = 1.0
    max_depth: int = 16
    evaluate_finished_ends: bool = False
    seed: int = 0


@dataclass
class DlUctResult:
    """The chosen target and action, and the root's visit counts and mean values (for the mover)."""

    best: curling.Target
    action: int
    visits: np.ndarray
    values: np.ndarray


@dataclass
class _Node:
    state: curling.Game
    value_team0: float
    terminal: bool
    prior: np.ndarray | None = None
    visits: np.ndarray | None = None
    value_sum: np.ndarray | None = None
    children: dict[int, _Node] = field(default_factory=dict)


@cache
def _grid_shots(model: curling.Physics) -> list[curling.Shot]:
    """The shot of every grid action under ``model``."""
    return [
        curling.target_to_shot(curling.action_to_target(a), model)
        for a in range(curling.NUM_ACTIONS)
    ]


class _Search:
    def __init__(self, params: DlUctParams, evaluator: curling.LeafEvaluatorFn | None) -> None:
        self.params = params
        self.evaluator = evaluator
        self.rng = np.random.default_rng(params.seed)

    def make_node(self, state: curling.Game, depth: int) -> _Node:
        finished = state.shot >= _STONES_PER_END
        if finished or depth >= self.params.max_depth:
            if self.evaluator is not None and (not finished or self.params.evaluate_finished_ends):
                return _Node(state, float(self.evaluator(state)[0]), True)
            return _Node(state, float(curling.house_value_team0(state)), True)
        prior = np.full(curling.NUM_ACTIONS, 1.0 / curling.NUM_ACTIONS)
        if self.evaluator is not None:
            value, _, weights = self.evaluator(state)
            if weights is not None and len(weights) == curling.NUM_ACTIONS:
                w = np.asarray(weights, dtype=np.float64)
                if w.sum() > 0:
                    prior = w / w.sum()
        else:
            value = curling.house_value_team0(state)
        zeros = np.zeros(curling.NUM_ACTIONS)
        return _Node(state, float(value), False, prior, zeros.copy(), zeros.copy())

    def select(self, node: _Node) -> int:
        assert node.prior is not None and node.visits is not None and node.value_sum is not None
        explore = self.params.c_puct * node.prior * math.sqrt(max(node.visits.sum(), 1.0))
        score = _mean_values(node) + explore / (1.0 + node.visits)
        best = np.flatnonzero(score >= score.max() - 1e-12)
        return int(best[0] if len(best) == 1 else self.rng.choice(best))

    def visit(self, node: _Node, depth: int) -> float:
        if node.terminal:
            return node.value_team0
        assert node.visits is not None and node.value_sum is not None
        action = self.select(node)
        child = node.children.get(action)
        if child is None:
            after = node.state.copy()
            after.apply_no_end(_grid_shots(node.state.rules.physics.model)[action])
            child = self.make_node(after, depth + 1)
            node.children[action] = child
            value = child.value_team0
        else:
            value = self.visit(child, depth + 1)
        node.visits[action] += 1.0
        node.value_sum[action] += value if node.state.to_move == 0 else -value
        return value


def dl_uct_search(
    state: curling.Game,
    params: DlUctParams | None = None,
    evaluator: curling.LeafEvaluatorFn | None = None,
) -> DlUctResult:
    """PUCT over the 2048 grid actions from ``state`` (inside an end); see the module docstring."""
    params = params or DlUctParams()
    if state.shot >= _STONES_PER_END or state.is_game_over:
        raise ValueError("the search needs a position inside an end")
    search = _Search(params, evaluator)
    root = search.make_node(state.copy(), 0)
    for _ in range(params.simulations):
        search.visit(root, 0)
    assert root.visits is not None
    action = int(np.argmax(root.visits))
    return DlUctResult(curling.action_to_target(action), action, root.visits, _mean_values(root))


def _mean_values(node: _Node) -> np.ndarray:
    """Q of every action of an expanded node (0 for the unvisited)."""
    assert node.visits is not None and node.value_sum is not None
    return np.divide(
        node.value_sum, node.visits, out=np.zeros_like(node.value_sum), where=node.visits > 0
    )


def dl_uct_player(
    simulations: int = 400,
    evaluator: curling.LeafEvaluatorFn | None = None,
    **options: float,
) -> curling.ShotChooser:
    """A :data:`pyaz.games.curling.ShotChooser` running DL-UCT (options: DlUctParams fields)."""

    def play(state: curling.Game, seed: int) -> curling.Target:
        params = DlUctParams(simulations=simulations, seed=seed)
        for key, value in options.items():
            setattr(params, key, value)
        return dl_uct_search(state, params, evaluator).best

    return play
