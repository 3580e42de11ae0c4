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
from pyaz.games import GAMES, BoardGameState, NetworkGameState

__all__ = ["DEFAULTS", "Evaluator", "Search", "search_class_for"]

Evaluator: TypeAlias = str | Callable[[np.ndarray], tuple[Any, Any]]

DEFAULTS: dict[str, Any] = dict(_core.search_defaults())
"""The default of every :class:`Search` option, as the C++ core sets them (search/params.h)."""

_SEARCH_CLASSES: dict[type, type] = {
    spec.cls: spec.search
    for spec in GAMES.values()
    if isinstance(spec.cls, type) and spec.search is not None
}
"""The C++ search class of each C++ game class (its registration's ``search``)."""


def search_class_for(state: Any, what: str = "search") -> type:
    """The C++ search class for ``state``: its game's native one, else ``PythonGameSearch``
    for a game written in Python (a :class:`~pyaz.games.state.BoardGameState` with
    ``num_actions``, ``planes_shape`` and ``encode()``, whose methods the search calls under
    the GIL). TypeError naming the object for anything else; ``what`` names the job."""
    native = _SEARCH_CLASSES.get(type(state))
    if native is not None:
        return native
    if isinstance(state, BoardGameState):
        return _core.PythonGameSearch
    known = ", ".join(cls.__name__ for cls in _SEARCH_CLASSES)
    raise TypeError(
        f"no {what} for {type(state).__name__}: a state of one of {known}, or of a game "
        "written in Python (pyaz.games.state.BoardGameState with num_actions, planes_shape "
        "and encode(); see docs/tutorial-python-game.md)"
    )


class Search:
    """A tree search rooted at ``state``; see the module docstring for evaluators.

    Options (defaults from the C++ core's ``SearchParams``, in brackets): ``rule`` ("puct" |
    "uct" | "gumbel", below) [{rule}]; ``c_puct`` [{c_puct}]; ``c_uct`` [{c_uct:.6g}];
    ``dirichlet_alpha`` [{dirichlet_alpha}]; ``dirichlet_epsilon`` (0 disables root noise)
    [{dirichlet_epsilon}]; ``fpu_value`` (Q of unvisited children) [{fpu_value}];
    ``fpu_relative`` (use the parent's Q minus fpu_value instead) [{fpu_relative}];
    ``draw_value`` (value of a draw for both players; seed 000 uses -0.5) [{draw_value}];
    ``virtual_loss`` [{virtual_loss}]; ``value_decay`` (seed 004's winning value decay, in
    (0, 1]: a value backed up k steps above its leaf counts value_decay^k; 1 is off)
    [{value_decay}]; ``threads`` [{threads}]; ``batch_size`` (leaves per evaluator call)
    [{batch_size}]; ``max_nodes`` (arena size; the tree stops growing when full; at least
    1 + num_actions, so that the root can always be expanded) [{max_nodes:,}]; ``seed``
    [{seed}]; ``solver`` (the proving search, below) [{solver}]; for ``rule="gumbel"``:
    ``gumbel_actions`` (m, the root actions considered) [{gumbel_actions}], ``gumbel_c_visit``
    [{gumbel_c_visit}], ``gumbel_c_scale`` [{gumbel_c_scale}], ``gumbel_noise`` (draw the
    root's Gumbel noise; off, the choice is deterministic, for matches; :class:`pyaz.SelfPlay`
    turns it on) [{gumbel_noise}]; ``forced_playouts`` (rule "puct" only, below)
    [{forced_playouts}] and its k, ``forced_playouts_k`` [{forced_playouts_k}];
    ``rollout_mix`` (AlphaGo's lambda, Silver et al. 2016: a leaf's value is (1 - lambda) times
    the evaluator's plus lambda times the result of one uniformly random playout from it, played
    in C++; 0 is the evaluator alone) [{rollout_mix}].

    PUCT selects argmax Q + c_puct * P * sqrt(max(1, sum_b N(s,b))) / (1 + N(s,a)); pending
    visits count as ``virtual_loss`` lost visits each.

    ``solver=True`` is MCTS-solver (Winands, Bjornsson & Saito 2008, "Monte-Carlo Tree Search
    Solver"), with every rule: a finished game is a proven result; a node with a child that is a
    proven win for the player to move there is a proven win; a node whose children are all
    proven takes the best of them (a proven loss when all are losses, a proven draw when the best
    is a draw). Selection never descends below a proven node (a simulation that reaches one backs
    up its exact value: +1, -1 or draw_value), prefers a proven win and takes a proven loss only
    when every move is one. The move played follows: :meth:`policy` (so :meth:`choose_action`)
    gives mass only to the proven wins when there are any, and none to proven losses unless
    every move is one. :meth:`proven_value` reads the root's result. Under ``rule="gumbel"``
    the solver adds a visit floor below the root: an unproven child whose floor
    P(a) * sqrt(sum_b N(b)) is at least one visit above its count is selected first (at most
    sqrt(sum N) of a node's visits). Gumbel's deterministic selection alone can leave a move
    unvisited for good once a sibling's Q is higher, and a loss or a draw is proven only when
    every move is: without the floor a lost Connect Four position stayed unproven after
    60,000 simulations in 14 of 1,000 searches with two threads; with it every one of 60,000
    such searches proved it (median 1,000 simulations, the slowest 81,000: the floor's
    sqrt(N) pace, where the other thread's pending visits led into a slow win). A floor
    of KataGo's forced-playout form, sqrt(2 P(a) sum N), which also sends the first visit to
    every child, cost a Gomoku network's Gumbel search most of its strength (0.05 against
    0.265 without a floor, 0.28 with this one). Without the solver the selection is the paper's.

    ``rule="gumbel"`` is Gumbel AlphaZero (Danihelka, Guez, Schrittwieser & Silver, ICLR 2022,
    "Policy improvement by planning with Gumbel"; as google-deepmind/mctx implements it). The
    simulations of each :meth:`run` are one sequential halving at the root (the first
    simulation at a fresh root only expands it): m = min(gumbel_actions, legal actions) actions
    are considered, the k-th simulation goes to the best-scoring action among those with the
    visit count of mctx's schedule (phases of max(1, floor(n / (ceil(log2 m) * considered)))
    visits each, the considered actions halving, never below 2), so the first m simulations
    visit the Gumbel-top-m actions. The score is g(a) + logits(a) + sigma(q(a)) with
    sigma(q) = (gumbel_c_visit + max_b N(b)) * gumbel_c_scale * q, where q is the completed Q
    mapped from the known value range [-1, 1] to [0, 1] by (q + 1) / 2 (not min-max over the
    tree), completed Q being Q(a) for visited actions and the paper's mixed value v_mix
    (Appendix D) for the others, and logits = log priors. Below the root the selection is the
    paper's deterministic argmax_a pi'(a) - N(a) / (1 + sum_b N(b)) with the improved policy
    pi' = softmax(logits + sigma(completed Q)) (pending visits count as virtual losses there).
    The move (:meth:`choose_action` at temperature 0) is the action sequential halving leaves:
    the best-scoring of the most simulated ones; :meth:`improved_policy` is pi' at the root,
    the policy target of Gumbel self-play. Dirichlet noise (``dirichlet_epsilon``) is not used
    under this rule. Batches, threads and the solver work with it (a proven win is played).

    ``forced_playouts=True`` is KataGo's forced playouts and policy target pruning (Wu 2019,
    "Accelerating Self-Play Learning in Go", section 3.2), meant for self-play: at the root, a
    child with at least one visit but fewer than n_forced(c) = sqrt(k * P(c) * sum_b N(b))
    (k = ``forced_playouts_k``, 2 in the paper; P with the root noise; pending visits count) is
    selected before the others. The policy target (:meth:`policy_target`) then comes from
    :meth:`pruned_visit_counts`: with c* the most visited child, T = sum_b N(b) and
    PUCT(c, n) = Q(c) + c_puct * P(c) * sqrt(T) / (1 + n), each other visited child keeps
    ceil(max(N(c) - n_forced(c), n_eq)) of its visits, n_eq solving PUCT(c, n_eq) =
    PUCT(c*, N(c*)) (it keeps all of them if PUCT(c, N(c)) is already above PUCT(c*)), and a
    child left with one visit or none is pruned to 0. The move played still follows the visits
    (:meth:`policy`), whose most visited action the pruning never changes.
    """

    def __init__(self, state: NetworkGameState, **options: Any) -> None:
        self._impl = search_class_for(state)(state, **options)

    def run(self, simulations: int, evaluator: Evaluator = "uniform") -> None:
        """Runs ``simulations`` more simulations with ``evaluator``."""
        self._impl.run(simulations, evaluator)

    def advance(self, action: int) -> None:
        """Tree reuse: the subtree under ``action`` becomes the root (ValueError if illegal)."""
        self._impl.advance(action)

    def set_root(self, state: NetworkGameState) -> None:
        """Starts afresh at ``state`` (the tree is dropped)."""
        self._impl.set_root(state)

    def visit_counts(self) -> np.ndarray:
        """N(root, a) for every action (int32 [A])."""
        return np.asarray(self._impl.visit_counts())

    def principal_variation(self, max_depth: int = 8) -> list[int]:
        """The most visited line from the root: at each expanded node its most visited child
        (ties: the first), while one has visits, at most ``max_depth`` actions."""
        if isinstance(max_depth, bool) or not isinstance(max_depth, int):
            raise TypeError(f"max_depth must be an integer, got {max_depth!r}")
        return list(self._impl.principal_variation(max_depth))

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
        single simulation, the one with the highest prior; under ``rule="gumbel"`` at temperature
        0, the action sequential halving leaves)."""
        return int(self._impl.choose_action(temperature, seed))

    def improved_policy(self) -> np.ndarray:
        """Gumbel's improved policy softmax(logits + sigma(completed Q)) at the root (float32
        [A], 0 for illegal actions; see the class docstring; any rule). ValueError before any
        simulation."""
        return np.asarray(self._impl.improved_policy())

    def policy_target(self) -> np.ndarray:
        """The policy target :class:`pyaz.SelfPlay` records for this root (float32 [A]):
        :meth:`improved_policy` under ``rule="gumbel"``; else :meth:`policy` at temperature 1,
        from :meth:`pruned_visit_counts` with ``forced_playouts=True``."""
        return np.asarray(self._impl.policy_target())

    def pruned_visit_counts(self) -> np.ndarray:
        """The root's visit counts after KataGo's policy target pruning (int32 [A]; see the
        class docstring), whatever the options. ValueError before any simulation."""
        return np.asarray(self._impl.pruned_visit_counts())

    @property
    def root_state(self) -> NetworkGameState:
        """A copy of the root position."""
        return self._impl.root_state

    @property
    def root_value(self) -> float:
        """The root's mean value for the side to move."""
        return float(self._impl.root_value)

    def proven_value(self) -> int | None:
        """The solver's proven result of the root for the side to move (1 win, 0 draw, -1 loss),
        or None while it is not proven (always None without ``solver=True``)."""
        value = self._impl.proven_value()
        return None if value is None else int(value)

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
