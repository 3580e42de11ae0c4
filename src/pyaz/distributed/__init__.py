"""Self-play beyond one machine, on Ray: actors on many hosts feed the learner in this process.

:class:`RaySelfPlay` plugs into :class:`~pyaz.methods.alphazero.loop.TrainingLoop` as its self-play
engine (synchronous iterations with the embedded loop's semantics, or asynchronous with versioned
weights); :func:`connect` joins or starts a Ray cluster. Ray is an optional extra (``pip install
".[ray]"``): it is imported only when one of these is used, so ``import pyaz`` works without it.
"""

from __future__ import annotations

from pyaz.distributed.cluster import (
    RayUnavailableError,
    WorkerLostError,
    WorkerTimeoutError,
    cluster_info,
    connect,
)
from pyaz.distributed.records import share_seed, share_sizes
from pyaz.distributed.selfplay import MODES, RaySelfPlay, RaySettings

__all__ = [
    "MODES",
    "RaySelfPlay",
    "RaySettings",
    "RayUnavailableError",
    "WorkerLostError",
    "WorkerTimeoutError",
    "cluster_info",
    "connect",
    "share_seed",
    "share_sizes",
]
