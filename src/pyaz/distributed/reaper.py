"""A watchdog that ends the processes of a local Ray when the process that started it ends.

``ray.init()`` starts the Ray node (GCS, raylet, dashboard head, monitors) as children of the
driver; Ray's own fate-sharing kills those when the driver is killed, but the raylet's agents
(``ray::DashboardAgent``, ``ray::RuntimeEnvAgent``) and task workers outlive a SIGKILLed driver
by a minute or more. :func:`start_reaper` starts this file as a small process (standard library
only) that follows every descendant of the node's processes while the driver lives. When the
driver ends without saying goodbye (its pipe closes: a kill, a crash), the watchdog kills every
process it followed that is still running, at once; after :meth:`Reaper.stop` (a clean
``ray.shutdown()``) it gives them a few seconds to end on their own, then kills the stragglers.
A process is killed only if its start time is the one recorded, so a reused pid is never hit.
Linux only (it reads ``/proc``); elsewhere :func:`start_reaper` returns None.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

__all__ = ["Reaper", "children", "start_reaper"]

POLL_S = 0.5
GRACE_S = 5.0
STOP = b"stop\n"


def _processes() -> dict[int, tuple[int, str]]:
    """Every living process (not the zombies): pid -> (parent pid, start time), from
    ``/proc``."""
    table = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue  # ended meanwhile
        if fields[0] != b"Z":
            table[int(entry.name)] = (int(fields[1]), fields[19].decode())
    return table


def children(pid: int) -> set[int]:
    """The pids of the processes whose parent is ``pid`` now (none without ``/proc``)."""
    if not os.path.isdir("/proc"):
        return set()
    return {child for child, (parent, _) in _processes().items() if parent == pid}


def _follow(tracked: dict[int, str]) -> None:
    """Adds to ``tracked`` (pid -> start time) every living descendant of its living members."""
    table = _processes()
    alive = {pid for pid, start in tracked.items() if table.get(pid, (0, ""))[1] == start}
    added = True
    while added:
        added = False
        for pid, (parent, start) in table.items():
            if parent in alive and pid not in alive:
                tracked[pid] = start
                alive.add(pid)
                added = True


def _living(tracked: dict[int, str]) -> list[int]:
    table = _processes()
    return [pid for pid, start in tracked.items() if table.get(pid, (0, ""))[1] == start]


def watch(roots: list[int]) -> None:
    """The watchdog's loop: follows ``roots`` and their descendants until standard input says
    :data:`STOP` (wait :data:`GRACE_S`, then kill what is left) or closes (kill at once)."""
    for name in ("SIGINT", "SIGHUP"):  # the driver handles Ctrl-C; its end is what counts
        signal.signal(getattr(signal, name), signal.SIG_IGN)
    table = _processes()
    tracked = {pid: table[pid][1] for pid in roots if pid in table}
    received = b""
    while True:
        _follow(tracked)
        ready, _, _ = select.select([sys.stdin.fileno()], [], [], POLL_S)
        if not ready:
            continue
        data = os.read(sys.stdin.fileno(), 64)
        received += data
        if not data or STOP in received:
            break
    if STOP in received:
        deadline = time.monotonic() + GRACE_S
        while _living(tracked) and time.monotonic() < deadline:
            time.sleep(0.1)
    for _ in range(20):
        _follow(tracked)
        living = _living(tracked)
        if not living:
            return
        for pid in living:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.1)


class Reaper:
    """The watchdog process of a local Ray (see the module docstring)."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process

    def stop(self) -> None:
        """After a clean shutdown: lets the watchdog end what is left of Ray and waits for it."""
        with contextlib.suppress(OSError):  # OSError: the watchdog is gone already
            assert self.process.stdin is not None
            self.process.stdin.write(STOP)
            self.process.stdin.close()
        try:
            self.process.wait(GRACE_S + 5.0)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def start_reaper(roots: set[int]) -> Reaper | None:
    """Starts the watchdog over the processes ``roots`` (and their descendants); None on a
    system without ``/proc`` or when there is nothing to watch."""
    if not roots or not Path("/proc/self/stat").exists():
        return None
    command = [sys.executable, "-I", str(Path(__file__)), *map(str, sorted(roots))]
    process = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    return Reaper(process)


if __name__ == "__main__":
    watch([int(arg) for arg in sys.argv[1:]])
