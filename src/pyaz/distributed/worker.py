"""The self-play worker: one Ray actor, with its own C++ self-play engine and a copy of the
network, playing shares of an iteration (synchronous mode) or games without end with the latest
weights it was sent (asynchronous mode).

Weights arrive as an object-store reference wrapped in a list (so that Ray does not fetch them
with every call): a worker fetches a new network only when the push number changes.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field
from typing import Any

from pyaz.distributed.records import chunk_seed
from pyaz.games import make
from pyaz.nets import net_from_state
from pyaz.nets.runtimes import make_evaluator
from pyaz.search import SelfPlay, SelfPlayRecords

__all__ = ["AsyncOrder", "SelfPlayWorker", "Share"]


@dataclass(frozen=True)
class Share:
    """A worker's part of a synchronous iteration: ``games`` games seeded ``seed``."""

    index: int
    games: int
    seed: int
    push: int  # which weights (the engine's push number)
    options: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class AsyncOrder:
    """What an asynchronous worker plays until told otherwise: chunks of ``chunk_games`` games
    with the network of push ``push`` (version ``version``), seeds from ``seed``; ``first_chunk``
    numbers the next chunk (the chunks its earlier instances delivered are not replayed)."""

    push: int
    version: int
    seed: int
    chunk_games: int
    first_chunk: int
    options: dict[str, Any] = field(default_factory=dict)


class SelfPlayWorker:
    """Self-play for one game on one worker; see the module docstring."""

    MAX_WAITING_CHUNKS = 1  # an asynchronous worker pauses when this many wait for the learner

    def __init__(
        self,
        game: str,
        game_options: dict[str, Any],
        runtime: str,
        threads: int,
        index: int,
        device: str = "cpu",
    ) -> None:
        import torch

        torch.set_num_threads(max(1, threads))
        self.start = make(game, **game_options)
        self.runtime = runtime
        self.threads = threads
        self.index = index
        self.device = device
        self._push = -1
        self._evaluator: Any = None
        self._changed = threading.Condition()
        self._order: AsyncOrder | None = None
        self._weights: dict[int, Any] = {}
        self._finished: list[tuple[int, int, SelfPlayRecords]] = []
        self._failure: BaseException | None = None
        self._thread: threading.Thread | None = None

    def identity(self) -> dict[str, Any]:
        """Where this worker runs: its process id, node and host."""
        import ray

        return {
            "index": self.index,
            "pid": os.getpid(),
            "node_id": ray.get_runtime_context().get_node_id(),
            "hostname": os.uname().nodename,
        }

    @staticmethod
    def _fetch(weights: list[Any]) -> Any:
        import ray

        return ray.get(weights[0])

    def _build(self, state: dict[str, Any]) -> Any:
        net = net_from_state(state)
        shape = (net.config.planes, net.config.height, net.config.width)
        runtime = "torchscript" if self.device != "cpu" else self.runtime
        return make_evaluator(net, shape, runtime, device=self.device, threads=self.threads)

    # -- synchronous ----------------------------------------------------------------------------

    def play_share(self, share: Share, weights: list[Any]) -> tuple[int, SelfPlayRecords, int]:
        """Plays the share (the same games whenever it is played again); returns its index,
        its records and this process's id."""
        if share.push != self._push:
            self._evaluator = self._build(self._fetch(weights))
            self._push = share.push
        player = SelfPlay(self.start, seed=share.seed, **share.options)
        return share.index, player.play(share.games, self._evaluator), os.getpid()

    # -- asynchronous ---------------------------------------------------------------------------

    def pull(
        self, order: AsyncOrder, weights: list[Any], wait_s: float
    ) -> tuple[list[tuple[int, int, SelfPlayRecords]], int]:
        """Takes ``order`` (fetching its weights when they are new), keeps playing in the
        background, and returns the chunks finished since the last pull as (chunk number,
        network version, records), waiting up to ``wait_s`` seconds for at least one; and this
        process's id."""
        with self._changed:
            if self._order is None or order.push != self._order.push:
                if order.push not in self._weights:
                    self._weights = {order.push: self._fetch(weights)}
                self._order = order
                self._changed.notify_all()
            if self._thread is None:
                self._thread = threading.Thread(target=self._play_forever, daemon=True)
                self._thread.start()
            self._changed.wait_for(
                lambda: bool(self._finished) or self._failure is not None, wait_s
            )
            if self._failure is not None:
                raise RuntimeError(f"self-play worker {self.index} failed") from self._failure
            finished, self._finished = self._finished, []
            self._changed.notify_all()
        return finished, os.getpid()

    def _play_forever(self) -> None:
        try:
            chunk = -1
            while True:
                with self._changed:
                    self._changed.wait_for(lambda: len(self._finished) < self.MAX_WAITING_CHUNKS)
                    order = self._order
                    assert order is not None
                    chunk = max(chunk + 1, order.first_chunk)  # a restart goes on numbering
                    state = self._weights.get(order.push)
                if order.push != self._push:
                    assert state is not None  # pull stored the order's weights first
                    self._evaluator = self._build(state)
                    self._push = order.push
                seed = chunk_seed(order.seed, self.index, chunk)
                player = SelfPlay(self.start, seed=seed, **order.options)
                records = player.play(order.chunk_games, self._evaluator)
                with self._changed:
                    self._finished.append((chunk, order.version, records))
                    self._changed.notify_all()
        except BaseException as error:  # reported by the next pull
            with self._changed:
                self._failure = error
                self._changed.notify_all()
