"""Self-play records for curling: one game of KR-DL-UCT against itself, kept compactly.

A game yields, for every shot, the network input (bit-packed), the search's policy target over
the 32x32x2 target grid and, once the end is scored, the value target (the end's score for the
team that threw, as one of 17 bins). Policy targets are the root children's visit counts n(a)
of Algorithm 1, each added to the grid cell nearest its target (seed 002 trains the policy on
the search's proposals, section 5.2; binning continuous actions to the grid is pyaz's choice),
and stored sparsely: the ``POLICY_CELLS`` heaviest cells, renormalised.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from pyaz.games import curling

POLICY_CELLS = 32  # grid cells kept per policy target (the rest of the mass is dropped)
_BINARY_PLANES = [p for p in range(curling.NUM_PLANES) if p != 10]  # plane 10 is shot / 15


def pack_planes(planes: np.ndarray) -> np.ndarray:
    """[NUM_PLANES, 32, 32] float planes -> bits of the 0/1 planes (plane 10 is rebuilt from the
    shot number by :func:`unpack_planes`)."""
    return np.packbits(planes[_BINARY_PLANES] > 0.5)


def unpack_planes(packed: np.ndarray, shots: np.ndarray) -> np.ndarray:
    """Inverse of :func:`pack_planes` for a batch: packed [N, bytes], shot numbers [N]."""
    n = len(shots)
    size = len(_BINARY_PLANES) * curling.GRID * curling.GRID
    bits = np.unpackbits(packed, axis=1, count=size).reshape(
        n, len(_BINARY_PLANES), curling.GRID, curling.GRID
    )
    planes = np.empty((n, curling.NUM_PLANES, curling.GRID, curling.GRID), dtype=np.float32)
    planes[:, _BINARY_PLANES] = bits
    planes[:, 10] = (np.asarray(shots, dtype=np.float32) / 15.0)[:, None, None]
    return planes


def policy_target(children: list[curling.RootChild]) -> tuple[np.ndarray, np.ndarray]:
    """Visit counts of the root's children on the grid: (cells [POLICY_CELLS] int32, weights
    [POLICY_CELLS] float32 summing to 1; unused slots have weight 0 and cell 0)."""
    mass: dict[int, float] = {}
    for child in children:
        if child.visits > 0:
            cell = curling.target_to_action(child.action)
            mass[cell] = mass.get(cell, 0.0) + float(child.visits)
    if not mass:
        raise ValueError("the search returned no visited action")
    top = sorted(mass.items(), key=lambda kv: (-kv[1], kv[0]))[:POLICY_CELLS]
    total = sum(w for _, w in top)
    cells = np.zeros(POLICY_CELLS, dtype=np.int32)
    weights = np.zeros(POLICY_CELLS, dtype=np.float32)
    cells[: len(top)] = [cell for cell, _ in top]
    weights[: len(top)] = [w / total for _, w in top]
    return cells, weights


@dataclass
class Shots:
    """Training examples (one per shot), as parallel arrays."""

    planes: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), dtype=np.uint8))
    shot: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int8))
    cells: np.ndarray = field(default_factory=lambda: np.zeros((0, POLICY_CELLS), np.int32))
    weights: np.ndarray = field(default_factory=lambda: np.zeros((0, POLICY_CELLS), np.float32))
    value_bin: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int8))

    def __len__(self) -> int:
        return len(self.shot)

    @staticmethod
    def concat(parts: list[Shots]) -> Shots:
        parts = [p for p in parts if len(p)]
        if not parts:
            return Shots()
        return Shots(*(np.concatenate([getattr(p, name) for p in parts]) for name in _SHOT_FIELDS))

    def last(self, count: int) -> Shots:
        """The newest ``count`` examples (a sliding window)."""
        return Shots(*(getattr(self, name)[-count:] for name in _SHOT_FIELDS))

    def arrays(self) -> dict[str, np.ndarray]:
        return {name: getattr(self, name) for name in _SHOT_FIELDS}

    @staticmethod
    def from_arrays(arrays: dict[str, np.ndarray]) -> Shots:
        return Shots(*(np.asarray(arrays[name]) for name in _SHOT_FIELDS))


_SHOT_FIELDS = ("planes", "shot", "cells", "weights", "value_bin")


@dataclass
class PlayedGame:
    """One self-play game: its examples and its per-end scores (team 0, team 1)."""

    shots: Shots
    end_scores: list[tuple[int, int]]


@dataclass
class _GameInPlay:
    """A self-play game under way: its state and what it has recorded so far."""

    seed: int
    state: curling.Game
    # per shot: packed planes, shot number, policy cells and weights, end, team to move
    rows: list[tuple[np.ndarray, int, np.ndarray, np.ndarray, int, int]] = field(
        default_factory=list
    )

    def search_params(self, params: curling.KrUctParams) -> curling.KrUctParams:
        """A copy of ``params`` seeded for this game's next shot."""
        mine = copy.copy(params)
        mine.seed = self.seed * 100_003 + len(self.rows)
        return mine

    def throw(self, result: curling.KrUctResult, noise: curling.NoiseParams) -> None:
        """Records the position with the search's policy target and throws its best shot."""
        state, thrown = self.state, len(self.rows)
        packed = pack_planes(curling.encode(state))
        self.rows.append(
            (packed, state.shot, *policy_target(result.children), state.end, state.to_move)
        )
        model = state.rules.physics.model
        shot = curling.target_to_shot(result.best, model)
        state.apply(curling.perturb(shot, noise, model, self.seed * 7919 + thrown))

    def finish(self) -> PlayedGame:
        """The examples with their value targets, once the game is over."""
        end_scores = [(int(a), int(b)) for a, b in self.state.end_scores]
        packed, shot_no, cells, weights, ends, teams = zip(*self.rows, strict=True)
        mine = [end_scores[e][t] - end_scores[e][1 - t] for e, t in zip(ends, teams, strict=True)]
        shots = Shots(
            np.stack(packed),
            np.array(shot_no, dtype=np.int8),
            np.stack(cells),
            np.stack(weights),
            (np.clip(mine, -8, 8) + 8).astype(np.int8),
        )
        return PlayedGame(shots, end_scores)


def play_self_play_game(
    evaluator: curling.LeafEvaluatorFn,
    params: curling.KrUctParams,
    num_ends: int,
    noise: curling.NoiseParams,
    seed: int,
    physics: str = "fcv1",
    extra_ends: int = 0,
    progress: Callable[[int], object] | None = None,
) -> PlayedGame:
    """KR-DL-UCT against itself for ``num_ends`` ends with execution noise; every shot is
    recorded with the search's policy target, and the value targets are filled in as each end
    is scored. The evaluator is called once per leaf (see :func:`play_self_play_games` for the
    batched driver). ``progress(1)`` is called after each shot."""
    game = _GameInPlay(seed, curling.new_game(num_ends, physics=physics, extra_ends=extra_ends))
    while not game.state.is_game_over:
        game.throw(curling.kr_uct_search(game.state, game.search_params(params), evaluator), noise)
        if progress is not None:
            progress(1)
    return game.finish()


@dataclass
class BatchCounters:
    """Evaluator calls and leaves of a batched self-play run (mean batch = leaves / calls)."""

    calls: int = 0
    leaves: int = 0
    max_batch: int = 0

    def add(self, counts: dict[str, int]) -> None:
        self.calls += int(counts["calls"])
        self.leaves += int(counts["leaves"])
        self.max_batch = max(self.max_batch, int(counts["max_batch"]))


def play_self_play_games(
    evaluator: curling.BatchEvaluatorFn,
    params: curling.KrUctParams,
    num_ends: int,
    noise: curling.NoiseParams,
    seeds: list[int],
    physics: str = "fcv1",
    extra_ends: int = 0,
    games_in_flight: int = 0,
    counters: BatchCounters | None = None,
    progress: Callable[[int], object] | None = None,
) -> list[PlayedGame]:
    """:func:`play_self_play_game` for every seed, up to ``games_in_flight`` games at a time (0:
    all of them): the searches for the next shot of every game run together in C++ and each
    round sends the waiting leaves of all of them to ``evaluator`` in one call (with
    ``params.leaves_per_round`` leaves per search and round). With leaves_per_round = 1 each
    game is the one :func:`play_self_play_game` plays with an evaluator that gives the same
    values. ``counters`` (optional) receives the evaluator calls and leaves; ``progress(n)``
    (optional) is told of the n shots thrown after each round."""
    if isinstance(games_in_flight, bool) or not isinstance(games_in_flight, int):
        raise TypeError(f"games_in_flight must be an int, got {games_in_flight!r}")
    if games_in_flight < 0:
        raise ValueError(f"games_in_flight must be >= 0, got {games_in_flight}")
    if params.leaves_per_round < 1:
        raise ValueError(f"leaves_per_round must be >= 1, got {params.leaves_per_round}")
    width = games_in_flight or max(1, len(seeds))
    played: list[PlayedGame] = []
    for first in range(0, len(seeds), width):
        games = [
            _GameInPlay(s, curling.new_game(num_ends, physics=physics, extra_ends=extra_ends))
            for s in seeds[first : first + width]
        ]
        _play_together(games, evaluator, params, noise, counters, progress)
        played.extend(game.finish() for game in games)
    return played


def _play_together(
    games: list[_GameInPlay],
    evaluator: curling.BatchEvaluatorFn,
    params: curling.KrUctParams,
    noise: curling.NoiseParams,
    counters: BatchCounters | None,
    progress: Callable[[int], object] | None = None,
) -> None:
    """One shot of every unfinished game per step, all their searches batched together."""
    while True:
        live = [g for g in games if not g.state.is_game_over]
        if not live:
            return
        results, counts = curling.kr_uct_search_many(
            [g.state for g in live], [g.search_params(params) for g in live], evaluator
        )
        if counters is not None:
            counters.add(counts)
        for game, result in zip(live, results, strict=True):
            game.throw(result, noise)
        if progress is not None:
            progress(len(live))


end_counts = curling.end_counts  # the loop's and the tests' name for it
