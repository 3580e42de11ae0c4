"""Self-play in C++ with many games in flight and one batched evaluator call per round.

>>> import pyaz
>>> records = pyaz.SelfPlay(pyaz.make("connect_four"), simulations=50).play(4, "rollout")
>>> records.planes.shape[1:], records.num_games
((2, 6, 7), 4)
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import Any

import numpy as np
from tqdm import tqdm

from pyaz import _core
from pyaz.common.faults import fault_point
from pyaz.games import NetworkGameState
from pyaz.search.search import Evaluator, search_class_for


@dataclass(frozen=True)
class SelfPlayRecords:
    """One row per position searched in full, plus per-game arrays indexed by game id.

    ``planes`` [N, C, H, W] float32 (the network input, side to move's view); ``policy`` [N, A]
    (the policy target, :meth:`pyaz.Search.policy_target`: the visit counts normalised, i.e.
    the search's pi at temperature 1, or under ``rule="gumbel"`` the improved policy);
    ``outcome`` [N] (z for the position's player: +1 win, -1 loss, draw_value for a draw);
    ``root_value`` [N] float32 (q: the search's mean root value for the position's player when
    its move was chosen, i.e. :attr:`pyaz.Search.root_value`, tree reuse included); ``score``
    [N] float32 (the game's final score margin for the position's player, normalised to
    [-1, 1] by the board's area: Othello (own - opponent discs) / n^2, Go the Tromp-Taylor
    area margin with komi (``score()``) / n^2, clipped; 0 in games without a score, whose
    state's ``has_score`` is False); ``player`` [N]; ``ply`` [N] (from the start, random
    opening included); ``plies_to_end`` [N];
    ``game_id`` [N]; ``game_status`` [G] (pyaz.Status values), ``game_length`` [G],
    ``game_opening`` [G] (random plies played first, not recorded); ``full_searches`` (moves
    searched in full: one row each) and ``cheap_searches`` (moves searched cheaply under
    playout cap randomisation, not recorded).
    """

    planes: np.ndarray
    policy: np.ndarray
    outcome: np.ndarray
    root_value: np.ndarray
    score: np.ndarray
    player: np.ndarray
    ply: np.ndarray
    plies_to_end: np.ndarray
    game_id: np.ndarray
    game_status: np.ndarray
    game_length: np.ndarray
    game_opening: np.ndarray
    evaluator_calls: int
    evaluated_leaves: int
    full_searches: int
    cheap_searches: int

    @property
    def num_positions(self) -> int:
        return int(self.player.shape[0])

    @property
    def num_games(self) -> int:
        return int(self.game_status.shape[0])

    @property
    def mean_batch_size(self) -> float:
        """Leaves per evaluator call: how well the games in flight fill a batch."""
        return self.evaluated_leaves / max(1, self.evaluator_calls)


DEFAULTS: dict[str, Any] = dict(_core.self_play_defaults())
"""The default of every :class:`SelfPlay` option besides the :class:`~pyaz.search.Search` ones."""


class SelfPlay:
    """Plays games from ``start`` against itself with the tree search.

    Options (defaults from the C++ core's ``SelfPlayConfig``, in brackets): ``simulations`` per
    move [{simulations}]; ``parallel_games`` in flight [{parallel_games}]; ``leaves_per_game``
    per round, under virtual loss [{leaves_per_game}]; ``sampling_plies`` (seed 001's T', seed
    000's "probabilistic turns": moves drawn from pi^(1/temperature) before this ply, greedy
    after) [{sampling_plies}]; ``temperature`` [{temperature}]; ``random_opening_plies``
    (played uniformly at random, not searched, not recorded) [{random_opening_plies}];
    ``random_opening_spread`` (each game's random plies drawn uniformly in
    0..random_opening_plies instead) [{random_opening_spread}];
    ``opening_rollback_plies`` (taken back when random play ends the game; -1 for half of the
    opening) [{opening_rollback_plies}]; ``threads`` (workers for selection and backup across
    games) [{threads}]; ``seed`` [{seed}]; ``full_search_prob`` and ``cheap_simulations``
    (playout cap randomisation, below) [{full_search_prob}, {cheap_simulations}]; and every
    :class:`pyaz.Search` option (c_puct,
    dirichlet_alpha, dirichlet_epsilon, draw_value, ...). The per-game tree holds ``max_nodes``
    nodes [2 * (simulations + 1) * num_actions]. Resignation is not implemented: every game is
    played to its end. Every option is checked here, before any game (ValueError or TypeError
    naming it). One simulation per move is enough: it expands the root, and the move and the
    recorded policy then follow the priors (see :meth:`pyaz.Search.policy`).

    Under ``rule="gumbel"`` (Gumbel AlphaZero, see :class:`pyaz.Search`) each move's
    ``simulations`` are one sequential halving, the move played is the action it leaves (the
    Gumbel noise is the sampling: ``sampling_plies`` and ``temperature`` are not used), the
    recorded policy is the improved policy, and ``gumbel_noise`` defaults to
    {gumbel_noise} here (a :class:`pyaz.Search`'s defaults to False).

    Playout cap randomisation (KataGo: Wu 2019, "Accelerating Self-Play Learning in Go",
    section 3.1, with p = 0.25 and 600 against 100 visits there): each move is searched in full
    (``simulations``, root noise as configured) with probability ``full_search_prob`` in (0, 1],
    else cheaply (``cheap_simulations`` in [0, simulations], 0 meaning simulations // 6 and at
    least 1, without Dirichlet noise; Gumbel noise stays: it samples the move). Only the moves
    searched in full are recorded, as KataGo records only those; 1 (the default) is off.
    """

    def __init__(self, start: NetworkGameState, **options: Any) -> None:
        search_class_for(start, "self-play")  # TypeError for what is no game
        if start.is_terminal():
            raise ValueError("the start position is already over")
        if "games" in options:
            raise TypeError("games is an argument of play(), not an option of SelfPlay")
        _core.check_self_play(start, **options)
        self.start: NetworkGameState = start.clone()
        self.options = options

    def play(
        self, games: int, evaluator: Evaluator = "uniform", progress: bool = False
    ) -> SelfPlayRecords:
        """Plays ``games`` games; ``evaluator`` as for ``pyaz.Search``; ``progress`` shows a bar."""
        if isinstance(games, bool) or not isinstance(games, numbers.Integral):
            raise TypeError(f"games must be an integer, got {games!r}")
        if games < 1:
            raise ValueError(f"games must be >= 1, got {games}")
        # leave None: kept only when it is the only bar, cleared below a training run's line
        bar = tqdm(total=games, desc="self-play", unit="game", leave=None, disable=not progress)

        def on_game_end(done: int) -> None:
            bar.update(done - bar.n)
            fault_point("self-play-game")

        try:
            raw = _core.self_play(self.start, evaluator, on_game_end, games=games, **self.options)
        finally:
            bar.close()
        return SelfPlayRecords(**raw)


if SelfPlay.__doc__ is not None:
    SelfPlay.__doc__ = SelfPlay.__doc__.format(**DEFAULTS)
