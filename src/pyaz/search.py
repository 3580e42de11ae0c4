"""Tree search from Python: ``pyaz.Search(state, ...)`` picks the C++ search for the game.

The evaluator is ``"uniform"`` (P uniform, v = 0), ``"rollout"`` (v from one random playout),
or a callable ``fn(planes) -> (policy_logits, values)`` taking a read-only float32 array
``[B, C, H, W]`` (valid only during the call; copy it to keep it) and returning arrays
``[B, A]`` and ``[B]``. Priors are the softmax of the logits over the legal actions; values are
for the side to move and must be finite and within [-1, 1]. An exception raised by the callable
stops the search, leaves the tree consistent, and propagates to the caller.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeAlias

import numpy as np

from pyaz import _core
from pyaz.games import GameState

Evaluator: TypeAlias = str | Callable[[np.ndarray], tuple[Any, Any]]

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


def Search(state: GameState, **options: Any) -> Any:  # noqa: N802 - a factory named like a class
    """A tree search rooted at ``state``.

    Options (defaults in brackets): ``rule`` ("puct" | "uct") ["puct"]; ``c_puct`` [1.0];
    ``c_uct`` [sqrt(2)]; ``dirichlet_alpha`` [0.3]; ``dirichlet_epsilon`` (0 disables root
    noise) [0.0]; ``fpu_value`` (Q of unvisited children) [0.0]; ``fpu_relative`` (use the
    parent's Q minus fpu_value instead) [False]; ``draw_value`` (value of a draw for both
    players; seed 000 uses -0.5) [0.0]; ``virtual_loss`` [1.0]; ``threads`` [1]; ``batch_size``
    (leaves per evaluator call) [8]; ``max_nodes`` (arena size; the tree stops growing when
    full) [2,000,000]; ``seed`` [0].

    PUCT selects argmax Q + c_puct * P * sqrt(max(1, sum_b N(s,b))) / (1 + N(s,a)); pending
    visits count as ``virtual_loss`` lost visits each. Methods: ``run(simulations, evaluator)``,
    ``visit_counts()``, ``q_values()``, ``priors()``, ``policy(temperature)``,
    ``choose_action(temperature, seed)``, ``advance(action)`` (tree reuse), ``set_root(state)``;
    properties ``root_state``, ``root_value``, ``root_visits``, ``tree_size``, ``tree_full``,
    ``pending_visits``, ``collisions``.
    """
    search_class = _SEARCH_CLASSES.get(type(state))
    if search_class is None:
        raise TypeError(f"no search for {type(state).__name__}; known: {list(_SEARCH_CLASSES)}")
    return search_class(state, **options)
