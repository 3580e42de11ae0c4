"""Tree search from Python: :class:`Search` roots the C++ search of the state's game at a state.

The evaluator is ``"uniform"`` (P uniform, v = 0), ``"rollout"`` (v from one random playout),
or a callable ``fn(planes) -> (policy_logits, values)`` taking a read-only float32 array
``[B, C, H, W]`` (which owns its memory: the callable may keep it, also after the search is
gone) and returning arrays ``[B, A]`` and ``[B]``. Priors are the softmax of the logits over the
legal actions (any finite logits, float64 ones beyond float32's range included); values are
for the side to move and must be finite and within [-1, 1]. An exception raised by the callable
stops the search, leaves the tree consistent, and propagates to the caller.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeAlias

import numpy as np

from pyaz import _core
from pyaz.games import GameState

__all__ = ["DEFAULTS", "Evaluator", "Search", "register_search_class"]

Evaluator: TypeAlias = str | Callable[[np.ndarray], tuple[Any, Any]]

DEFAULTS: dict[str, Any] = dict(_core.search_defaults())
"""The default of every :class:`Search` option, as the C++ core sets them (search/params.h)."""

_SEARCH_CLASSES: dict[type, type] = {
    _core.Othello: _core.OthelloSearch,
    _core.ConnectFour: _core.ConnectFourSearch,
    _core.Gomoku: _core.GomokuSearch,
    _core.Go: _core.GoSearch,
    _core.RacingKings: _core.RacingKingsSearch,
}


def register_search_class(state_class: type, search_class: type) -> None:
    """Registers the C++ search class for a game class (used by games added later)."""
    _SEARCH_CLASSES[state_class] = search_class


class Search:
    """A tree search rooted at ``state``; see the module docstring for evaluators.

    Options (defaults from the C++ core's ``SearchParams``, in brackets): ``rule`` ("puct" |
    "uct") [{rule}]; ``c_puct`` [{c_puct}]; ``c_uct`` [{c_uct:.6g}]; ``dirichlet_alpha``
    [{dirichlet_alpha}]; ``dirichlet_epsilon`` (0 disables root noise) [{dirichlet_epsilon}];
    ``fpu_value`` (Q of unvisited children) [{fpu_value}]; ``fpu_relative`` (use the parent's Q
    minus fpu_value instead) [{fpu_relative}]; ``draw_value`` (value of a draw for both players;
    seed 000 uses -0.5) [{draw_value}]; ``virtual_loss`` [{virtual_loss}]; ``value_decay``
    (seed 004's winning value decay, in (0, 1]: a value backed up k steps above its leaf counts
    value_decay^k; 1 is off) [{value_decay}]; ``threads``
    [{threads}]; ``batch_size`` (leaves per evaluator call) [{batch_size}]; ``max_nodes`` (arena
    size; the tree stops growing when full; at least 1 + num_actions, so that the root can
    always be expanded) [{max_nodes:,}]; ``seed`` [{seed}].

    PUCT selects argmax Q + c_puct * P * sqrt(max(1, sum_b N(s,b))) / (1 + N(s,a)); pending
    visits count as ``virtual_loss`` lost visits each.
    """

    def __init__(self, state: GameState, **options: Any) -> None:
        search_class = _SEARCH_CLASSES.get(type(state))
        if search_class is None:
            known = ", ".join(cls.__name__ for cls in _SEARCH_CLASSES)
            raise TypeError(f"no search for {type(state).__name__}; games with a search: {known}")
        self._impl = search_class(state, **options)

    def run(self, simulations: int, evaluator: Evaluator = "uniform") -> None:
        """Runs ``simulations`` more simulations with ``evaluator``."""
        self._impl.run(simulations, evaluator)

    def advance(self, action: int) -> None:
        """Tree reuse: the subtree under ``action`` becomes the root (ValueError if illegal)."""
        self._impl.advance(action)

    def set_root(self, state: GameState) -> None:
        """Starts afresh at ``state`` (the tree is dropped)."""
        self._impl.set_root(state)

    def visit_counts(self) -> np.ndarray:
        """N(root, a) for every action (int32 [A])."""
        return np.asarray(self._impl.visit_counts())

    def q_values(self) -> np.ndarray:
        """Q(root, a) for every action, from the side to move's view (float32 [A])."""
        return np.asarray(self._impl.q_values())

    def priors(self) -> np.ndarray:
        """P(root, a), with the root noise when there is any (float32 [A])."""
        return np.asarray(self._impl.priors())

    def policy(self, temperature: float = 1.0) -> np.ndarray:
        """pi ~ N^(1/temperature) over the actions (temperature 0: greedy, one-hot).

        When the root is expanded but no move has a visit yet (a single simulation, which only
        expands the root), the priors stand in for N, so that one simulation gives a move.
        ValueError before any simulation.
        """
        return np.asarray(self._impl.policy(temperature))

    def choose_action(self, temperature: float = 0.0, seed: int = 0) -> int:
        """An action drawn from :meth:`policy` (the most visited one at temperature 0; after a
        single simulation, the one with the highest prior)."""
        return int(self._impl.choose_action(temperature, seed))

    @property
    def root_state(self) -> GameState:
        """A copy of the root position."""
        return self._impl.root_state

    @property
    def root_value(self) -> float:
        """The root's mean value for the side to move."""
        return float(self._impl.root_value)

    @property
    def root_visits(self) -> int:
        """Simulations through the root so far (those kept by tree reuse included)."""
        return int(self._impl.root_visits)

    @property
    def tree_size(self) -> int:
        """Nodes in the tree."""
        return int(self._impl.tree_size)

    @property
    def tree_full(self) -> bool:
        """Whether the node arena (``max_nodes``) is full, so the tree no longer grows."""
        return bool(self._impl.tree_full)

    @property
    def pending_visits(self) -> int:
        """Visits under virtual loss not yet backed up (0 between runs)."""
        return int(self._impl.pending_visits)

    @property
    def collisions(self) -> int:
        """Leaves given back because they were already pending in a batch round."""
        return int(self._impl.collisions)

    def __repr__(self) -> str:
        return f"Search({type(self.root_state).__name__}, visits={self.root_visits})"


if Search.__doc__ is not None:
    Search.__doc__ = Search.__doc__.format(**DEFAULTS)
