"""Matches played in parallel processes: a :class:`MatchPlan` names the players by their specs
(so that each worker process builds its own players and engines), :func:`play_games` plays the
games in order or in a process pool, and :func:`tally` turns them into a
:class:`~pyaz.eval.arena.MatchResult`.

Game ``i`` (from 0) has A moving first when ``i`` is even; with ``openings`` K, games ``2k`` and
``2k + 1`` both start after the same K uniformly random plies, once with each colour order.
Players that live in Python (random, UCT, models) are built afresh for every game with a seed
derived from the plan's seed, the game's number and the side, so their games do not depend on
the number of workers; external engines are started once per worker and keep their own
randomness.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.util
import os
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any, cast

from pyaz._core import Status
from pyaz.common.workers import die_with_parent
from pyaz.eval import arena, presets
from pyaz.eval.players import Player, close_player
from pyaz.games import make
from pyaz.games.state import GameState, SeededGameState

__all__ = ["MatchPlan", "MatchWorker", "play_games", "start_state", "tally"]


@dataclass(frozen=True)
class MatchPlan:
    """Everything a worker needs to play any game of the match.

    ``openings`` is the number of random plies that open each pair of games (None: the game's
    default, :func:`~pyaz.eval.arena.default_opening_plies`; 0: none); the openings of a match
    differ (:func:`~pyaz.eval.arena.draw_openings`).
    """

    a: str
    b: str
    game: str
    options: dict[str, Any] = field(default_factory=dict)
    openings: int | None = None
    seed: int = 0
    torch_threads: int = 0
    games: int = 0
    runtime: str | None = None

    def a_first(self, index: int) -> bool:
        """A moves first in the even-numbered games."""
        return index % 2 == 0

    def opening_plies(self, start: GameState) -> int:
        """The random plies that open each pair of games."""
        return arena.default_opening_plies(start) if self.openings is None else self.openings

    def openings_for(self, start: GameState) -> list[list[int]]:
        """The random opening of every pair of games (pair k: games 2k and 2k + 1)."""
        return arena.draw_openings(
            start, self.opening_plies(start), (self.games + 1) // 2, self.seed
        )

    def game_start(self, start: GameState, index: int) -> GameState:
        """Game ``index``'s start: ``start``, or for a game with chance its copy whose chance
        events come from the plan's seed and the game's number."""
        if isinstance(start, SeededGameState):
            return cast(GameState, start.with_seed(self.seed * 1_000_003 + index))
        return start

    def player_seed(self, index: int, side: int) -> int:
        """The seed of player A (side 0) or B (side 1) in game ``index``."""
        return (self.seed * 1_000_003 + index) * 2 + side


def start_state(game: str, options: dict[str, Any]) -> GameState:
    """The start state of a match, a :class:`~pyaz.games.state.GameState`:
    ``pyaz.make(game, **options)``, any registered game's."""
    return make(game, **options)


class MatchWorker:
    """Plays games of a :class:`MatchPlan` in this process (one per worker process)."""

    def __init__(self, plan: MatchPlan) -> None:
        self.plan = plan
        self.start = start_state(plan.game, plan.options)
        self.openings = plan.openings_for(self.start)
        self._engines: dict[int, Player] = {}
        if plan.torch_threads > 0 and any(
            presets.spec_kind(presets.guarded_spec(spec)) == "model" for spec in (plan.a, plan.b)
        ):
            import torch

            torch.set_num_threads(plan.torch_threads)

    def player(self, side: int, index: int) -> Player:
        """Player A (side 0) or B (side 1) for game ``index``."""
        spec = (self.plan.a, self.plan.b)[side]
        if presets.is_external(spec):
            if side not in self._engines:
                self._engines[side] = presets.make_player(
                    spec, self.start, seed=self.plan.player_seed(0, side), runtime=self.plan.runtime
                )
            return self._engines[side]
        seed = self.plan.player_seed(index, side)
        return presets.make_player(spec, self.start, seed=seed, runtime=self.plan.runtime)

    def play(self, index: int) -> dict[str, Any]:
        """Plays game ``index``; its record as plain data (picklable)."""
        began = time.perf_counter()
        a_first = self.plan.a_first(index)
        opening = self.openings[index // 2] if self.openings else []
        a, b = self.player(0, index), self.player(1, index)
        first, second = (a, b) if a_first else (b, a)
        record = arena.play_game(first, second, self.plan.game_start(self.start, index), opening)
        return {
            "index": index,
            "a_first": a_first,
            "first": record.first,
            "second": record.second,
            "opening": record.opening,
            "actions": record.actions,
            "status": record.status.name,
            "winner": record.winner,
            "resigned": record.resigned,
            "seconds": round(time.perf_counter() - began, 3),
        }

    def close(self) -> None:
        """Shuts down the engines this worker started."""
        for player in self._engines.values():
            close_player(player)
        self._engines.clear()


_WORKER: MatchWorker | None = None


def _init_worker(plan: MatchPlan, parent: int) -> None:
    global _WORKER
    die_with_parent(parent, children=True)  # and its engines die with it
    _WORKER = MatchWorker(plan)
    multiprocessing.util.Finalize(_WORKER, _WORKER.close, exitpriority=10)


def _play_in_worker(index: int) -> dict[str, Any]:
    assert _WORKER is not None, "worker not initialised"
    return _WORKER.play(index)


def play_games(
    plan: MatchPlan,
    games: int,
    parallel: int = 1,
    progress: bool = True,
    played: dict[int, dict[str, Any]] | None = None,
    on_game: Callable[[dict[str, Any]], None] | None = None,
) -> tuple[list[dict[str, Any]], BaseException | None]:
    """Plays games 0..games-1 of ``plan`` but those in ``played`` (finished before, by index:
    a resumed match); (the finished games by index, ``played``'s included, the error if any).
    ``on_game`` is called with each game as it finishes (a journal that keeps it).

    An error in one game or in ``on_game`` (or Ctrl-C) stops the match; the games finished so
    far come back.
    """
    from tqdm import tqdm

    done = {i: game for i, game in (played or {}).items() if i < games}
    bar = tqdm(
        total=games,
        initial=len(done),
        desc=f"{plan.a} vs {plan.b}",
        unit="game",
        disable=not progress,
    )
    tally = [0, 0, 0]

    def count(game: dict[str, Any]) -> None:
        done[game["index"]] = game
        winner = game["winner"]
        tally[1 if winner is None else (0 if (winner == 0) == game["a_first"] else 2)] += 1
        bar.set_postfix_str(f"A +{tally[0]} ={tally[1]} -{tally[2]}")

    def finished(game: dict[str, Any]) -> None:
        if on_game is not None:
            on_game(game)
        count(game)
        bar.update(1)

    for game in list(done.values()):
        count(game)
    todo = [index for index in range(games) if index not in done]
    error: BaseException | None = None
    try:
        if not todo:
            pass
        elif parallel <= 1:
            worker = MatchWorker(plan)
            try:
                for index in todo:
                    finished(worker.play(index))
            finally:
                worker.close()
        else:
            context = multiprocessing.get_context("spawn")
            with ProcessPoolExecutor(
                max_workers=min(parallel, len(todo)),
                mp_context=context,
                initializer=_init_worker,
                initargs=(plan, os.getpid()),
            ) as pool:
                futures: list[Future[dict[str, Any]]] = [
                    pool.submit(_play_in_worker, index) for index in todo
                ]
                try:
                    for future in as_completed(futures):
                        finished(future.result())
                except BaseException:
                    for future in futures:
                        future.cancel()
                    raise
    except (Exception, KeyboardInterrupt) as caught:
        error = caught
    finally:
        bar.close()
    return [done[i] for i in sorted(done)], error


def tally(plan: MatchPlan, games: list[dict[str, Any]]) -> arena.MatchResult:
    """The games as a :class:`pyaz.eval.arena.MatchResult` from A's side."""
    result = arena.MatchResult(a_name=plan.a, b_name=plan.b)
    for game in games:
        record = arena.GameRecord(
            list(game["actions"]),
            getattr(Status, game["status"]),
            game["winner"],
            game["first"],
            game["second"],
            list(game["opening"]),
        )
        result.add(record, game["a_first"])
    return result
