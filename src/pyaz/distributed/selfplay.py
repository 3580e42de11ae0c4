""":class:`RaySelfPlay`: the training loop's self-play games played by Ray actors.

Synchronous mode (``"sync"``, the embedded loop's semantics): each iteration's E games are split
exactly over the N workers (:func:`~pyaz.distributed.records.share_sizes`); share i is seeded from
the iteration's seed and i (share 0 keeps it, so one worker plays the embedded loop's very games
when E is at most ``parallel_games``, which the embedded loop then plays as one part:
:mod:`pyaz.methods.alphazero.selfplay_parts`); the weights go to the object store once per
iteration; the shares' records come back as numpy arrays and are put together in share order. A
worker that dies is restarted by Ray and its unfinished share played again, with the same seed, so
the same games; results are gathered per share, so no game is counted twice.

Asynchronous mode (``"async"``): every worker keeps playing chunks of games with the latest
weights it was sent; each iteration the learner pushes its new weights and pulls finished chunks
until it has at least E new games; every game is tagged with the network version that played it.
A restarted worker goes on numbering its chunks after the last one delivered (chunks are seeded
by worker and number), so a finished chunk is never delivered twice.

Gating and evaluation games stay in the learner's process.
"""

from __future__ import annotations

import contextlib
import math
import time
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from pyaz.common.runlog import write_json_atomic
from pyaz.distributed.cluster import (
    WorkerTimeoutError,
    cluster_info,
    connect,
    get_within,
    import_ray,
)
from pyaz.distributed.records import share_seed, share_sizes
from pyaz.distributed.worker import AsyncOrder, SelfPlayWorker, Share
from pyaz.methods.alphazero.config import TrainConfig
from pyaz.methods.alphazero.selfplay_engine import SelfPlayJob
from pyaz.methods.alphazero.selfplay_parts import merge_records
from pyaz.nets import PolicyValueNet, net_state
from pyaz.search import SelfPlayRecords

__all__ = ["CLUSTER_FILE", "MODES", "RaySelfPlay", "RaySettings"]

MODES = ("sync", "async")
CLUSTER_FILE = "cluster.json"
PULL_WAIT_S = 1.0  # how long an asynchronous pull waits for a finished chunk


@dataclass(frozen=True)
class RaySettings:
    """How self-play runs on Ray: ``address`` (None: local Ray or ``RAY_ADDRESS``; ``auto``;
    ``HOST:PORT``), ``workers`` actors, ``mode`` (sync or async), ``timeout_s`` for any wait on
    the workers, CPUs and GPUs per worker (CPUs default to the run's ``threads``), how often a
    dead worker is restarted, and the games per asynchronous chunk (default: E / workers)."""

    address: str | None = None
    workers: int = 1
    mode: str = "sync"
    timeout_s: float = 600.0
    worker_cpus: float | None = None
    worker_gpus: float = 0.0
    max_restarts: int = 3
    chunk_games: int | None = None

    def validate(self) -> None:
        if self.workers < 1:
            raise ValueError(f"workers must be >= 1, got {self.workers}")
        if self.mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, got {self.mode!r}")
        if not self.timeout_s > 0:
            raise ValueError(f"timeout_s must be > 0, got {self.timeout_s}")
        if self.worker_cpus is not None and not self.worker_cpus > 0:
            raise ValueError(f"worker_cpus must be > 0, got {self.worker_cpus}")
        if self.worker_gpus < 0:
            raise ValueError(f"worker_gpus must be >= 0, got {self.worker_gpus}")
        if self.max_restarts < 0:
            raise ValueError(f"max_restarts must be >= 0, got {self.max_restarts}")
        if self.chunk_games is not None and self.chunk_games < 1:
            raise ValueError(f"chunk_games must be >= 1, got {self.chunk_games}")


class RaySelfPlay:
    """A self-play engine for :class:`~pyaz.methods.alphazero.loop.TrainingLoop` on Ray actors; see
    the module docstring. Connects (or starts Ray) and starts the workers when made; records the
    cluster in ``run_dir/cluster.json``; :meth:`close` stops the workers."""

    def __init__(self, config: TrainConfig, run_dir: Path, settings: RaySettings) -> None:
        settings.validate()
        config.validate()
        self.config = config
        self.settings = settings
        self.run_dir = Path(run_dir)
        self.ray = import_ray()
        cpus = settings.worker_cpus or float(max(1, config.threads))
        self.connection = connect(settings.address, math.ceil(cpus * settings.workers))
        self._push = -1
        self._weights: Any = None
        self._last: dict[str, Any] = {}
        self.restarts = 0
        # asynchronous state: one pull in flight per worker, the next chunk number of each
        self._pulls: dict[Any, int] = {}
        self._next_chunk = [0] * settings.workers
        try:
            self.workers = self._start_workers(cpus)
            identities = self._write_cluster(f"starting {settings.workers} self-play workers")
            self.pids = [int(identity["pid"]) for identity in identities]
        except BaseException:
            self.close()
            raise

    def _start_workers(self, cpus: float) -> list[Any]:
        s, c = self.settings, self.config
        actor = self.ray.remote(SelfPlayWorker).options(
            num_cpus=cpus,
            num_gpus=s.worker_gpus,
            max_restarts=s.max_restarts,
            max_task_retries=s.max_restarts,
        )
        device = "cuda" if s.worker_gpus > 0 else "cpu"
        # each worker's network takes the CPUs the worker holds, unless --torch-threads says
        threads = c.torch_threads if c.torch_threads is not None else max(1, int(cpus))
        return [
            actor.remote(c.game, c.game_options, c.runtime, threads, index, device)
            for index in range(s.workers)
        ]

    def _write_cluster(self, what: str) -> list[dict[str, Any]]:
        """Asks the workers where they run (``what`` names the wait), writes cluster.json."""
        identities = get_within(
            [w.identity.remote() for w in self.workers], self.settings.timeout_s, what
        )
        info = {
            "address": self.connection.address,
            "started_here": self.connection.started,
            "settings": asdict(self.settings),
            **cluster_info(),
            "workers": identities,
            "worker_restarts": self.restarts,
        }
        self.run_dir.mkdir(parents=True, exist_ok=True)
        write_json_atomic(self.run_dir / CLUSTER_FILE, info)
        return identities

    # -- the engine -----------------------------------------------------------------------------

    def play(self, job: SelfPlayJob, net: PolicyValueNet) -> SelfPlayRecords:
        """The job's games (exactly E in sync mode, at least E in async mode)."""
        began = time.perf_counter()
        state = net_state(net)
        self._weights = self.ray.put(state)  # once per iteration, whatever the workers
        tensors = state["state_dict"].values()
        self._push += 1
        play = self._play_sync if self.settings.mode == "sync" else self._play_async
        parts, versions, pids = play(job)
        records = merge_records(parts)
        self._note_pids(pids)
        lags = [job.version - version for version in versions]
        self._last = {
            "ray_mode": self.settings.mode,
            "ray_workers": self.settings.workers,
            "worker_restarts": self.restarts,
            "net_version": job.version,
            "version_min": min(versions),
            "version_lag_mean": sum(lags) / len(lags),
            "version_games": ",".join(f"{v}:{n}" for v, n in sorted(Counter(versions).items())),
            "weights_bytes": sum(t.numel() * t.element_size() for t in tensors),
            "records_bytes": sum(_nbytes(part) for part in parts),
            "time_ray_selfplay": time.perf_counter() - began,
        }
        return records

    def metrics(self) -> dict[str, Any]:
        return dict(self._last)

    def _play_sync(self, job: SelfPlayJob) -> tuple[list[SelfPlayRecords], list[int], list[int]]:
        sizes = share_sizes(job.games, self.settings.workers)
        refs = [
            self.workers[index].play_share.remote(
                Share(index, size, share_seed(job.seed, index), self._push, job.options),
                [self._weights],
            )
            for index, size in enumerate(sizes)
            if size > 0
        ]
        what = f"self-play shares of {job.games} games on {self.settings.workers} workers"
        results = sorted(get_within(refs, self.settings.timeout_s, what), key=lambda r: r[0])
        pids = list(self.pids)
        for index, _, pid in results:
            pids[index] = pid
        parts = [records for _, records, _ in results]
        return parts, [job.version] * sum(part.num_games for part in parts), pids

    def _play_async(self, job: SelfPlayJob) -> tuple[list[SelfPlayRecords], list[int], list[int]]:
        s = self.settings
        chunk = s.chunk_games or max(1, math.ceil(job.games / s.workers))
        seed = self.config.seed * 1_000_003

        def order(index: int) -> AsyncOrder:
            first = self._next_chunk[index]
            return AsyncOrder(self._push, job.version, seed, chunk, first, job.options)

        def submit(index: int) -> None:
            ref = self.workers[index].pull.remote(order(index), [self._weights], PULL_WAIT_S)
            self._pulls[ref] = index

        for index in set(range(s.workers)) - set(self._pulls.values()):
            submit(index)
        parts: list[SelfPlayRecords] = []
        versions: list[int] = []
        pids = list(self.pids)
        deadline = time.monotonic() + s.timeout_s
        while sum(part.num_games for part in parts) < job.games:
            left = deadline - time.monotonic()
            ready, _ = self.ray.wait(list(self._pulls), num_returns=1, timeout=max(0.0, left))
            if not ready:
                raise WorkerTimeoutError(
                    f"asynchronous self-play: fewer than {job.games} games within "
                    f"{s.timeout_s:g} s from {s.workers} workers"
                )
            index = self._pulls.pop(ready[0])
            chunks, pids[index] = get_within(ready, s.timeout_s, "an asynchronous pull")[0]
            for number, version, records in chunks:
                if number < self._next_chunk[index]:
                    continue  # delivered before: never counted twice
                self._next_chunk[index] = number + 1
                parts.append(records)
                versions += [version] * records.num_games
            submit(index)
        return parts, versions, pids

    def _note_pids(self, pids: list[int]) -> None:
        """Counts the workers that came back in a new process, and records where they run."""
        changed = sum(old != new for old, new in zip(self.pids, pids, strict=True))
        if changed:
            self.restarts += changed
            self.pids = pids
            self._write_cluster("workers")

    def close(self) -> None:
        """Stops the workers, and the Ray instance when this engine started it."""
        for worker in getattr(self, "workers", []):
            with contextlib.suppress(Exception):  # already gone
                self.ray.kill(worker, no_restart=True)
        self._pulls.clear()
        if self.connection.started:
            self.connection.close()

    def __enter__(self) -> RaySelfPlay:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _nbytes(records: SelfPlayRecords) -> int:
    """The bytes of the records' arrays (what came back through the object store)."""
    return sum(value.nbytes for value in vars(records).values() if hasattr(value, "nbytes"))
