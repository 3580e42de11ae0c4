"""Joining or starting a Ray cluster, describing it, and waiting on it within a time limit.

Addresses the Ray way: ``None`` or ``"local"`` starts a Ray instance in this process (or reuses
the one already started), unless ``RAY_ADDRESS`` names a cluster; ``"auto"`` joins the cluster
started on this machine with ``ray start``; ``HOST:PORT`` joins that cluster's head.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pyaz.distributed.reaper import Reaper, children, start_reaper

__all__ = [
    "Connection",
    "RayUnavailableError",
    "WorkerLostError",
    "WorkerTimeoutError",
    "cluster_info",
    "connect",
    "get_within",
    "import_ray",
]

LOCAL = "local"
REACH_TIMEOUT_S = 10.0


class RayUnavailableError(RuntimeError):
    """Ray is not installed, or the cluster cannot be reached."""


class WorkerTimeoutError(TimeoutError):
    """Workers did not answer within the time limit."""


class WorkerLostError(RuntimeError):
    """A worker died more often than it may be restarted."""


def import_ray() -> Any:
    """The ``ray`` module, or :class:`RayUnavailableError` saying how to install it."""
    try:
        import ray
    except ImportError:
        raise RayUnavailableError('Ray is not installed: pip install "pyaz[ray]"') from None
    return ray


@dataclass(frozen=True)
class Connection:
    """How this process reached Ray: the address asked for (``local``: a Ray started here) and
    whether this call started it (then :meth:`close` stops it, every process of it: the
    dashboard and runtime-env agents and the task workers too). A Ray started here is also
    stopped when this process is killed (SIGKILL included; Linux): a watchdog process
    (:mod:`pyaz.distributed.reaper`) ends what Ray would leave behind."""

    address: str
    started: bool
    reaper: Reaper | None = field(default=None, compare=False, repr=False)

    def close(self) -> None:
        """Disconnects from the cluster (and stops the Ray this connection started)."""
        ray = import_ray()
        try:
            if ray.is_initialized():
                ray.shutdown()
        finally:
            if self.reaper is not None:
                self.reaper.stop()


def connect(address: str | None = None, num_cpus: int | None = None) -> Connection:
    """Joins the cluster at ``address`` (see the module docstring) or starts a local Ray with
    ``num_cpus`` CPUs. Reuses the Ray this process is already connected to. An unreachable
    ``HOST:PORT`` gives :class:`RayUnavailableError` within a few seconds, not a hang."""
    ray = import_ray()
    chosen = (address or os.environ.get("RAY_ADDRESS") or LOCAL).strip()
    if num_cpus is not None and num_cpus < 1:
        raise ValueError(f"num_cpus must be >= 1, got {num_cpus}")
    if chosen not in (LOCAL, "auto") and not chosen.startswith("ray://"):
        _check_reachable(chosen)
    if ray.is_initialized():
        return Connection(chosen, started=False)
    if chosen == LOCAL:
        before = children(os.getpid())
        # No dashboard (Ray still runs its minimal head process and the raylet's agents).
        ray.init(address="local", num_cpus=num_cpus, include_dashboard=False, log_to_driver=False)
        try:
            reaper = start_reaper(children(os.getpid()) - before)
        except BaseException:
            ray.shutdown()
            raise
        return Connection(LOCAL, started=True, reaper=reaper)
    try:
        ray.init(address=chosen, log_to_driver=False)
    except (ConnectionError, RuntimeError, ValueError) as error:
        raise RayUnavailableError(f"cannot join the Ray cluster at {chosen}: {error}") from error
    return Connection(chosen, started=False)


def _check_reachable(address: str) -> None:
    """:class:`RayUnavailableError` unless a TCP connection to ``HOST:PORT`` opens quickly."""
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(f"a Ray address is HOST:PORT, 'auto' or 'local', got {address!r}")
    try:
        with socket.create_connection((host, int(port)), timeout=REACH_TIMEOUT_S):
            pass
    except OSError as error:
        raise RayUnavailableError(
            f"cannot reach the Ray cluster at {address} within {REACH_TIMEOUT_S:g} s: {error}"
        ) from error


def cluster_info() -> dict[str, Any]:
    """What the cluster holds: Ray's version, its resources and its nodes (for the run folder)."""
    ray = import_ray()
    nodes = [
        {
            "node_id": node.get("NodeID"),
            "address": node.get("NodeManagerAddress"),
            "hostname": node.get("NodeManagerHostname"),
            "alive": bool(node.get("Alive")),
            "resources": {k: v for k, v in node.get("Resources", {}).items() if "node:" not in k},
        }
        for node in ray.nodes()
    ]
    return {
        "ray_version": ray.__version__,
        "resources": {k: v for k, v in ray.cluster_resources().items() if "node:" not in k},
        "nodes": nodes,
    }


def get_within(refs: Sequence[Any], timeout_s: float, what: str) -> list[Any]:
    """``ray.get(refs)`` within ``timeout_s`` seconds: :class:`WorkerTimeoutError` naming ``what``
    when they do not all answer in time, :class:`WorkerLostError` when a worker is gone for good."""
    ray = import_ray()
    from ray.exceptions import GetTimeoutError, RayActorError

    try:
        return list(ray.get(list(refs), timeout=timeout_s))
    except GetTimeoutError:
        cpus = ray.cluster_resources().get("CPU", 0)
        raise WorkerTimeoutError(
            f"{what}: no answer within {timeout_s:g} s (the cluster has {cpus:g} CPUs; a worker "
            "that cannot be placed, a lost node or a stuck network never answers)"
        ) from None
    except RayActorError as error:
        message = f"{what}: a worker died and could not be restarted: {error}"
        raise WorkerLostError(message) from error
