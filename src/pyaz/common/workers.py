"""Worker processes that die with their parent: every process pool of pyaz (an experiment's runs,
a match's parallel games, curling's self-play) starts its workers with
:func:`die_with_parent`, so that no worker outlives the command, however the command ends."""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time

__all__ = ["die_with_parent"]

_PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int) -> None:
    """In a worker process (a pool's initializer): the kernel kills this process when ``parent``
    ends, however it ends (SIGKILL included; Linux ``prctl(PR_SET_PDEATHSIG)``), and a parent
    already gone ends it at once. Elsewhere a thread checks the parent every second."""
    libc = ctypes.CDLL(None, use_errno=True) if sys.platform == "linux" else None
    if libc is None or libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
        _watch_parent(parent)
    if os.getppid() != parent:
        os._exit(1)


def _watch_parent(parent: int) -> None:
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()
