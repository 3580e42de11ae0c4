"""Batched policy play with no tree search (seed 003, section 3.2): many Go games in flight, each
policy network called once per step for all the games it moves in. The games run in C++
(``pyaz._core.go_policy_play``, src/cpp/search/policy_play.h); this module adapts torch networks
to it and turns its records into per-game results.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import torch

from pyaz._core import Go, Status, go_policy_play
from pyaz.methods.reinforce.net import PolicyNet, SmallPolicyNet, TransferNet, check_board_size

__all__ = ["PlayedGames", "play_games", "policy_function"]

PolicyFunction = Callable[[np.ndarray, np.ndarray], np.ndarray]


def policy_function(net: PolicyNet) -> PolicyFunction:
    """``fn(planes, legal) -> logits`` for the C++ driver: ``net`` in inference mode (float32)."""

    def logits(planes: np.ndarray, legal: np.ndarray) -> np.ndarray:
        del legal  # the driver masks the illegal actions itself
        with torch.inference_mode():
            return net(torch.from_numpy(np.array(planes, dtype=np.float32))).numpy()

    return logits


@dataclass
class PlayedGames:
    """The recorded positions of one seat (planes, legal masks, actions, the colour that moved,
    the game of each, and its result ``reward`` +1/0/-1 for that colour) and per-game results:
    ``winner`` (0 Black, 1 White, -1 draw), ``resigned`` (colour or -1), ``length`` (plies)."""

    planes: np.ndarray
    legal: np.ndarray
    action: np.ndarray
    player: np.ndarray
    game_id: np.ndarray
    reward: np.ndarray
    winner: np.ndarray
    resigned: np.ndarray
    length: np.ndarray
    policy_calls: int

    def score_for(self, colours: np.ndarray) -> np.ndarray:
        """Per game, +1/0/-1 for the side whose colour per game is ``colours``."""
        return np.where(self.winner < 0, 0.0, np.where(self.winner == colours, 1.0, -1.0))


def _winner(status: np.ndarray) -> np.ndarray:
    return np.select(
        [status == int(Status.FIRST_PLAYER_WIN), status == int(Status.SECOND_PLAYER_WIN)],
        [0, 1],
        -1,
    )


def play_games(
    policies: Sequence[PolicyNet | PolicyFunction],
    seats: Sequence[tuple[int, int]],
    size: int,
    record_seat: int = 0,
    seed: int = 0,
    allow_resign: bool = True,
    temperature: float = 1.0,
    starts: Sequence[Go] | None = None,
    komi: float | None = None,
) -> PlayedGames:
    """Plays ``len(seats)`` games of Go on a ``size`` board; ``seats[g] = (black, white)`` are the
    indices in ``policies`` of the networks (or ``fn(planes, legal) -> logits``) that play game
    g. Each step calls every policy once for all its games; moves are sampled from the softmax
    over the legal actions (``temperature`` 0: the most probable). Records the positions where
    policy ``record_seat`` moved (-1: none). ``starts`` default to the empty board with ``komi``
    (None: pyaz's default, 0 below 9x9, 7.5 from 9x9)."""
    size = check_board_size(size)
    if not seats:
        raise ValueError("play_games needs at least one game (seats is empty)")
    functions = [
        policy_function(p) if isinstance(p, SmallPolicyNet | TransferNet) else p for p in policies
    ]
    start_states = list(starts) if starts is not None else [Go(size, komi=komi)] * len(seats)
    if len(start_states) != len(seats):
        raise ValueError(f"{len(start_states)} start positions for {len(seats)} games")
    flat = [int(seat) for pair in seats for seat in pair]
    records = go_policy_play(
        start_states, functions, flat, record_seat, allow_resign, temperature, seed
    )
    winner = _winner(np.asarray(records["game_status"]))
    player = np.asarray(records["player"]).astype(np.int64)
    game_id = np.asarray(records["game_id"]).astype(np.int64)
    game_winner = winner[game_id]
    reward = np.where(game_winner < 0, 0.0, np.where(game_winner == player, 1.0, -1.0))
    return PlayedGames(
        planes=np.asarray(records["planes"]),
        legal=np.asarray(records["legal"]).astype(bool),
        action=np.asarray(records["action"]).astype(np.int64),
        player=player,
        game_id=game_id,
        reward=reward.astype(np.float32),
        winner=winner,
        resigned=np.asarray(records["resigned"]).astype(np.int64),
        length=np.asarray(records["game_length"]).astype(np.int64),
        policy_calls=int(records["policy_calls"]),
    )
