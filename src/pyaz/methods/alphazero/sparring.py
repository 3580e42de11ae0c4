"""Sparring games: the training network's search against a fixed opponent, recorded as training
examples beside the self-play games (``--sparring SPEC --sparring-games N``).

Self-play only shows the network the positions its own play leads to. A fixed opponent with
another style (Gomoku's rule-based mentor attacks by threat sequences, VCF and VCT, that
self-play rarely builds) reaches positions self-play never visits, and a network that never saw
them defends them badly. A share of each iteration's games is therefore played against such an
opponent, as the league of AlphaStar (Vinyals et al., Nature 2019) mixes fixed opponents into
self-play, and as seed 004 (AlphaGomoku) learns from its mentor. The network's moves are
recorded with the same targets as a self-play move: the search's policy target and the game's
result for the player to move. With ``imitate`` (``--sparring-imitation``) the opponent's moves
after the opening are recorded too, as its demonstrations: the policy target all on the move it
played, the value target its result (z, and z again in the root-value column, so that a z/q
blend keeps z there), as seed 004's imitation rounds and AlphaGo's supervised stage learn from
a stronger player's moves. Not in the AlphaZero loop of seed 000 or 001: an option, off by
default.

Each pair of games opens with a random opening of the match's length, played once with each
colour order (:func:`pyaz.eval.arena.play_match`: the network is the first player in even
games), and the network draws its moves from the visit counts while the game is within
``sampling_plies`` plies of the opening's end (greedy after), with the self-play root noise.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from pyaz.eval.arena import MatchResult, default_opening_plies, play_match
from pyaz.eval.players import Player, SearchPlayer
from pyaz.games import NetworkGameState
from pyaz.search import SelfPlayRecords

__all__ = ["SparringResult", "play_sparring"]


@dataclass(frozen=True)
class SparringResult:
    """The network's positions of the sparring games (a :class:`SelfPlayRecords`) and the
    match they came from, from the network's side (``a``)."""

    records: SelfPlayRecords
    match: MatchResult

    @property
    def score(self) -> float:
        """The network's score: (wins + draws / 2) / games."""
        return self.match.score


class _Move(NamedTuple):
    """What self-play records at one of the network's moves."""

    planes: np.ndarray  # the position's encoding
    policy: np.ndarray  # the search's policy target
    root_value: float
    ply: int


class _RecordingPlayer(SearchPlayer):
    """The network's side: a :class:`SearchPlayer` that keeps a :class:`_Move` at each of its
    moves, one list per game (a game starts at ``reset``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.games: list[list[_Move]] = []

    def reset(self, state: NetworkGameState) -> None:
        super().reset(state)
        self.games.append([])

    def choose(self, state: NetworkGameState) -> int:
        action = super().choose(state)  # the search is still rooted at ``state``
        policy = np.asarray(self.search.policy_target(), dtype=np.float32)
        self.games[-1].append(
            _Move(state.encode(), policy, float(self.search.root_value), int(state.ply))
        )
        return action


def play_sparring(
    start: NetworkGameState,
    opponent: Player,
    evaluator: Any,
    games: int,
    simulations: int,
    seed: int,
    sampling_plies: int = 0,
    draw_value: float = 0.0,
    imitate: bool = False,
    **search_options: Any,
) -> SparringResult:
    """Plays a match of ``games`` games of ``evaluator``'s search (``simulations`` a move,
    drawn from the visit counts for ``sampling_plies`` plies after the opening, greedy after;
    ``search_options`` for :class:`pyaz.Search`: root noise, c_puct, ...) against
    ``opponent`` (a :class:`~pyaz.eval.players.Player`) from ``start``. Returns the network's
    positions as :class:`SelfPlayRecords` (z: +1 won, -1 lost, ``draw_value`` drawn; score 0:
    no score target), with ``imitate`` the opponent's moves after the opening too (a one-hot
    policy target, q = z), and the match. A kill point ``sparring-game`` follows each game."""
    if games < 1:
        raise ValueError(f"sparring games must be >= 1, got {games}")
    plies = default_opening_plies(start)
    network = _RecordingPlayer(
        evaluator,
        simulations,
        name="network",
        seed=seed,
        sampling_plies=plies + sampling_plies,  # the sampled plies start after the opening
        draw_value=draw_value,
        **search_options,
    )
    match = play_match(
        network, opponent, games, start, opening_plies=plies, seed=seed, fault="sparring-game"
    )
    return SparringResult(_records(start, network, match, draw_value, plies, imitate), match)


def _records(
    start: NetworkGameState,
    network: _RecordingPlayer,
    match: MatchResult,
    draw_value: float,
    opening_plies: int,
    imitate: bool,
) -> SelfPlayRecords:
    """The recorded positions of ``match``'s games in self-play's columns, in the order of
    play (with ``imitate`` the opponent's moves between the network's)."""
    moves: list[_Move] = []
    rows: list[tuple[float, int, int]] = []  # each move's z, mover and game
    ends: list[int] = []
    for index, (game, recorded) in enumerate(zip(match.games, network.games, strict=True)):
        side = index % 2  # the network's side: the first player in even games
        won = draw_value if game.winner is None else 1.0 if game.winner == side else -1.0
        theirs = draw_value if game.winner is None else -won  # the opponent's z
        ours = iter(recorded)
        state = start.clone()
        for number, action in enumerate(game.all_actions):
            mover = number % 2  # 0: the side to move at the match's start
            if number >= len(game.opening) and (mover == side or imitate):
                move = next(ours) if mover == side else _demonstration(state, action, theirs)
                moves.append(move)
                rows.append((won if mover == side else theirs, mover, index))
            state.apply(int(action))
        ends.append(int(start.ply) + len(game.all_actions))
    outcomes, sides, games = np.asarray(rows, dtype=np.float64).reshape(-1, 3).T
    ply = np.asarray([move.ply for move in moves], dtype=np.int32)
    game_id = games.astype(np.int32)
    return SelfPlayRecords(
        planes=np.asarray([move.planes for move in moves], dtype=np.float32).reshape(
            -1, *start.encode().shape
        ),
        policy=np.asarray([move.policy for move in moves], dtype=np.float32).reshape(
            -1, start.num_actions
        ),
        outcome=outcomes.astype(np.float32),
        root_value=np.asarray([move.root_value for move in moves], dtype=np.float32),
        score=np.zeros(len(moves), dtype=np.float32),
        player=sides.astype(np.int8),
        ply=ply,
        plies_to_end=np.asarray(ends, dtype=np.int32)[game_id] - ply,
        game_id=game_id,
        game_status=np.asarray([int(game.status) for game in match.games], dtype=np.int8),
        game_length=np.asarray(ends, dtype=np.int32),
        game_opening=np.full(len(match.games), opening_plies, dtype=np.int32),
        evaluator_calls=0,
        evaluated_leaves=0,
        full_searches=sum(len(recorded) for recorded in network.games),
        cheap_searches=0,
    )


def _demonstration(state: NetworkGameState, action: int, z: float) -> _Move:
    """The opponent's move ``action`` at ``state`` as a target: all the policy on it, and its
    result ``z`` as the root value too (q = z)."""
    policy = np.zeros(state.num_actions, dtype=np.float32)
    policy[int(action)] = 1.0
    return _Move(state.encode(), policy, z, int(state.ply))
