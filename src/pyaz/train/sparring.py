"""Sparring games: the training network's search against a fixed opponent, recorded as training
examples beside the self-play games (``--sparring SPEC --sparring-games N``).

Self-play only shows the network the positions its own play leads to. A fixed opponent with
another style (Gomoku's rule-based mentor attacks by threat sequences, VCF and VCT, that
self-play rarely builds) reaches positions self-play never visits, and a network that never saw
them defends them badly. A share of each iteration's games is therefore played against such an
opponent, as the league of AlphaStar (Vinyals et al., Nature 2019) mixes fixed opponents into
self-play, and as seed 004 (AlphaGomoku) learns from its mentor. Only the network's moves are
recorded, with the same targets as a self-play move: the search's policy target and the game's
result for the player to move; the opponent's moves are not imitated. Not in the AlphaZero
loop of seed 000 or 001: an option, off by default.

Each game opens with the match's random plies (:func:`pyaz.eval.arena.random_opening`, drawn
per game), the network plays first in even games and second in odd ones, and draws its moves
from the visit counts while the game is within ``sampling_plies`` plies of the opening's end
(greedy after), with the self-play root noise.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import numpy as np

from pyaz._core import Status
from pyaz.common.faults import fault_point
from pyaz.eval.arena import default_opening_plies, random_opening
from pyaz.eval.players import Player, Resignation
from pyaz.games import BoardState
from pyaz.search import Search, SelfPlayRecords

__all__ = ["SparringResult", "play_sparring"]


@dataclass(frozen=True)
class SparringResult:
    """The network's positions of the sparring games (a :class:`SelfPlayRecords`) and its
    score in them (wins + draws / 2 over games, from its side)."""

    records: SelfPlayRecords
    wins: int
    draws: int
    losses: int

    @property
    def score(self) -> float:
        games = self.wins + self.draws + self.losses
        return (self.wins + 0.5 * self.draws) / max(1, games)


@dataclass
class _Game:
    """One sparring game's network positions while it is played."""

    planes: list[np.ndarray]
    policy: list[np.ndarray]
    root_value: list[float]
    player: list[int]
    ply: list[int]


def _outcome(status: Status, player: int, draw_value: float) -> float:
    if status == Status.DRAW:
        return draw_value
    winner = 0 if status == Status.FIRST_PLAYER_WIN else 1
    return 1.0 if winner == player else -1.0


def _play_one(
    start: BoardState,
    opponent: Player,
    evaluator: Any,
    network: int,
    opening: list[int],
    simulations: int,
    sampling_plies: int,
    search_options: dict[str, Any],
    seed: int,
) -> tuple[_Game, Status, int]:
    """Plays one game with the network as player ``network`` (the opponent is told of every
    move, the opening's too, as :func:`pyaz.eval.arena.play_game` does); returns the network's
    positions, the result (a resignation loses) and the final ply."""
    state = start.clone()
    opponent.reset(state.clone())
    for action in opening:
        state.apply(action)
        opponent.observe(action)
    search = Search(state, seed=seed, **search_options)
    game = _Game([], [], [], [], [])
    while not state.is_terminal():
        if state.to_move() == network:
            search.run(simulations, evaluator)
            game.planes.append(state.encode())
            game.policy.append(np.asarray(search.policy_target(), dtype=np.float32))
            game.root_value.append(float(search.root_value))
            game.player.append(network)
            game.ply.append(int(state.ply))
            sampled = int(state.ply) - len(opening) < sampling_plies
            temperature = 1.0 if sampled else 0.0
            action = search.choose_action(temperature=temperature, seed=seed + len(game.ply))
        else:
            try:
                action = int(opponent.choose(state.clone()))
            except Resignation:
                won = Status.FIRST_PLAYER_WIN if network == 0 else Status.SECOND_PLAYER_WIN
                return game, won, int(state.ply)
            if not state.is_legal(action):
                raise ValueError(
                    f"{opponent.name} chose illegal action {action} at ply {state.ply}"
                )
        state.apply(action)
        opponent.observe(action)
        if not state.is_terminal():
            search.advance(action)
    return game, state.status(), int(state.ply)


def play_sparring(
    start: BoardState,
    opponent: Player,
    evaluator: Any,
    games: int,
    simulations: int,
    seed: int,
    sampling_plies: int = 0,
    draw_value: float = 0.0,
    **search_options: Any,
) -> SparringResult:
    """Plays ``games`` games of ``evaluator``'s search (``simulations`` a move, drawn from the
    visit counts for ``sampling_plies`` plies after the opening, greedy after;
    ``search_options`` for :class:`pyaz.Search`: root noise, c_puct, ...) against
    ``opponent`` (a :class:`~pyaz.eval.players.Player`) from ``start``; the network moves first
    in even games. Returns the network's positions as :class:`SelfPlayRecords` (score 0: no
    score target) and its results."""
    if games < 1:
        raise ValueError(f"sparring games must be >= 1, got {games}")
    rng = random.Random(seed)
    plies = default_opening_plies(start)
    rows: list[_Game] = []
    statuses, ends, outcomes, results = [], [], [], []
    options = {"draw_value": draw_value, **search_options}
    for index in range(games):
        opening = random_opening(start, plies, rng)
        after = start.clone()
        for action in opening:
            after.apply(action)
        network = int(after.to_move()) if index % 2 == 0 else 1 - int(after.to_move())
        game, status, end = _play_one(
            start,
            opponent,
            evaluator,
            network,
            opening,
            simulations,
            sampling_plies,
            options,
            seed * 1_000_003 + index,
        )
        rows.append(game)
        statuses.append(int(status))
        ends.append(end)
        outcomes.append(_outcome(status, network, draw_value))
        results.append(0 if status == Status.DRAW else 1 if outcomes[-1] > 0 else -1)
        fault_point("sparring-game")
    records = _records(start, rows, statuses, ends, outcomes, plies)
    return SparringResult(records, results.count(1), results.count(0), results.count(-1))


def _records(
    start: BoardState,
    rows: list[_Game],
    statuses: list[int],
    ends: list[int],
    outcomes: list[float],
    opening_plies: int,
) -> SelfPlayRecords:
    counts = [len(game.ply) for game in rows]
    planes_shape = tuple(start.encode().shape)
    return SelfPlayRecords(
        planes=np.asarray([p for game in rows for p in game.planes], dtype=np.float32).reshape(
            -1, *planes_shape
        ),
        policy=np.asarray([p for game in rows for p in game.policy], dtype=np.float32).reshape(
            -1, start.num_actions
        ),
        outcome=np.repeat(np.asarray(outcomes, dtype=np.float32), counts),
        root_value=np.asarray([v for game in rows for v in game.root_value], dtype=np.float32),
        score=np.zeros(sum(counts), dtype=np.float32),
        player=np.asarray([p for game in rows for p in game.player], dtype=np.int8),
        ply=np.asarray([p for game in rows for p in game.ply], dtype=np.int32),
        plies_to_end=np.asarray(
            [end - p for game, end in zip(rows, ends, strict=True) for p in game.ply],
            dtype=np.int32,
        ),
        game_id=np.repeat(np.arange(len(rows), dtype=np.int32), counts),
        game_status=np.asarray(statuses, dtype=np.int8),
        game_length=np.asarray(ends, dtype=np.int32),
        game_opening=np.full(len(rows), opening_plies, dtype=np.int32),
        evaluator_calls=0,
        evaluated_leaves=0,
        full_searches=sum(counts),
        cheap_searches=0,
    )
