"""Worker processes that die with their parent: every process pool of pyaz (an experiment's runs,
a match's parallel games, curling's self-play) starts its workers with
:func:`die_with_parent`, so that no worker outlives the command, however the command ends; with
``children=True`` the engines a worker starts (:func:`child_preexec`) die with it too."""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time
from collections.abc import Callable

__all__ = ["child_preexec", "die_with_parent"]

_PR_SET_PDEATHSIG = 1
_children_prctl: Callable[..., int] | None = None  # set by die_with_parent(children=True)


def die_with_parent(parent: int, children: bool = False) -> None:
    """In a worker process (a pool's initializer): the kernel kills this process when ``parent``
    ends, however it ends (SIGKILL included; Linux ``prctl(PR_SET_PDEATHSIG)``), and a parent
    already gone ends it at once. Elsewhere a thread checks the parent every second.

    With ``children``, the subprocesses that this worker's main thread starts with
    :func:`child_preexec` (the engines of a match) are killed when the worker ends, on Linux:
    an engine that is thinking does not read its closed input, and ran on for minutes after
    the command was killed."""
    global _children_prctl
    libc = ctypes.CDLL(None, use_errno=True) if sys.platform == "linux" else None
    _children_prctl = libc.prctl if libc is not None and children else None
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


def child_preexec() -> Callable[[], None] | None:
    """The ``preexec_fn`` for ``subprocess.Popen`` that makes the child die with this process,
    or None: only in a worker that asked for it (:func:`die_with_parent` with ``children``)
    and only from its main thread. The kernel's signal follows the *thread* that started the
    child, so a child started from a thread that ends first (a server's request thread) would
    be killed with that thread; the main thread lasts as long as the process."""
    prctl = _children_prctl  # looked up before the fork, not in the child
    if prctl is None or threading.current_thread() is not threading.main_thread():
        return None
    starter = os.getpid()

    def die_with_starter() -> None:
        prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != starter:  # the starter ended before the signal was armed
            os._exit(1)

    return die_with_starter
