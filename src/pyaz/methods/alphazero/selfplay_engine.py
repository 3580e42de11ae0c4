"""Where the training loop's self-play games are played: in this process (the default) or by an
engine plugged into :class:`~pyaz.methods.alphazero.loop.TrainingLoop` (the Ray workers of
:mod:`pyaz.distributed`).

The loop describes each iteration's games as a :class:`SelfPlayJob` (how many, the seed, the
network's version and every :class:`~pyaz.search.SelfPlay` option); an engine plays it with the
network's current weights and returns the records, as :meth:`SelfPlay.play` does.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from pyaz.nets import PolicyValueNet
from pyaz.search import SelfPlayRecords

__all__ = ["SelfPlayEngine", "SelfPlayJob"]


@dataclass(frozen=True)
class SelfPlayJob:
    """One iteration's self-play games.

    ``games`` (E) are played with ``seed``; ``version`` is the network's version (the iteration
    whose end produced the self-play network, 0 for the initial one); ``options`` are the
    :class:`~pyaz.search.SelfPlay` options besides the seed (simulations, parallel games,
    curriculum plies, ...)."""

    games: int
    seed: int
    version: int
    options: dict[str, Any] = field(default_factory=dict)


class SelfPlayEngine(Protocol):
    """Plays a :class:`SelfPlayJob` with ``net``'s weights somewhere else than in the loop."""

    def play(self, job: SelfPlayJob, net: PolicyValueNet) -> SelfPlayRecords:
        """The records of the job's games (at least ``job.games`` of them)."""

    def metrics(self) -> dict[str, Any]:
        """Scalars about the last :meth:`play` for the iteration's metrics record."""
