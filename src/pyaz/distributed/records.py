"""Splitting an iteration's games over workers and putting their records back together.

>>> share_sizes(10, 3)
[4, 3, 3]
>>> share_seed(7, 0)
7
>>> share_seed(7, 1) != share_seed(7, 2) != 7
True
"""

from __future__ import annotations

import numpy as np

__all__ = ["chunk_seed", "share_seed", "share_sizes"]

_SEED_BITS = 63


def share_sizes(games: int, shares: int) -> list[int]:
    """``games`` split into ``shares`` parts as even as possible, the larger ones first; they
    add up to ``games`` exactly (a share may be 0 when there are more shares than games)."""
    if games < 0:
        raise ValueError(f"games must be >= 0, got {games}")
    if shares < 1:
        raise ValueError(f"shares must be >= 1, got {shares}")
    base, extra = divmod(games, shares)
    return [base + (1 if index < extra else 0) for index in range(shares)]


def share_seed(seed: int, index: int) -> int:
    """The seed of share ``index`` of a job seeded ``seed`` (itself derived from the run's seed
    and the iteration). Share 0 keeps the job's seed, so one worker plays exactly the embedded
    loop's games; the others get distinct seeds drawn from (seed, index)."""
    if index < 0:
        raise ValueError(f"index must be >= 0, got {index}")
    return seed if index == 0 else _derived(seed, index)


def chunk_seed(seed: int, worker: int, chunk: int) -> int:
    """The seed of chunk ``chunk`` of worker ``worker`` in asynchronous self-play."""
    return _derived(seed, 1 << 20, worker, chunk)


def _derived(*parts: int) -> int:
    state = np.random.SeedSequence(list(parts)).generate_state(2, np.uint32)
    return int((int(state[0]) << 32 | int(state[1])) & ((1 << _SEED_BITS) - 1))
