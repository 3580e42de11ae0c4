"""Deterministic kill points for the fault-injection tests (tests/test_faults.py).

``fault_point(name)`` is called at the stage boundaries of a training iteration and around
every file write of a run. It does nothing unless the environment variable ``PYAZ_FAULT``
names that point: ``PYAZ_FAULT=NAME`` kills the process (SIGKILL, as ``kill -9`` or the
out-of-memory killer would: no ``finally`` blocks, no flushing) the first time ``NAME`` is
reached, ``PYAZ_FAULT=NAME:N`` the N-th time. The points:

- ``self-play-game``: after each finished self-play game (inside the C++ self-play);
- ``self-play``: self-play returned, its games not yet in the buffer;
- ``sparring-game``: after each sparring game (``--sparring-games``; after self-play);
- ``train-epoch``: after each training epoch (its record logged, the weights changed);
- ``match-game``: after each game of a match (the gate, then the evaluation);
- ``gate``, ``evaluate``: after the iteration's gate / evaluation;
- ``before-replace/FILE``, ``after-replace/FILE``: just before / after the rename that makes
  an atomic write of ``FILE`` (a file name such as ``checkpoint.pt``, ``iter-00002.pt``,
  ``buffer-00002.npz``, ``best.torchscript.pt``, ``metrics.csv``) visible;
- ``before-append/metrics.jsonl``, ``after-append/metrics.jsonl``: around each record written
  (and fsynced) to ``metrics.jsonl``;
- ``experiment-run``: a run of ``pyaz-experiment`` finished, its ``DONE`` file not yet
  written; ``experiment-report``: the report written, ``summary.json`` not yet.

Without ``PYAZ_FAULT`` a point costs one dictionary lookup.
"""

from __future__ import annotations

import os
import signal

__all__ = ["FAULT_ENV", "fault_point"]

FAULT_ENV = "PYAZ_FAULT"

_reached: dict[str, int] = {}


def fault_point(name: str) -> None:
    """Kills this process with SIGKILL when ``PYAZ_FAULT`` names ``name`` and this is the
    time it asks for (see the module docstring); else returns at once."""
    spec = os.environ.get(FAULT_ENV)
    if not spec:
        return
    target, count = _parse(spec)
    if target != name:
        return
    _reached[name] = _reached.get(name, 0) + 1
    if _reached[name] == count:
        os.kill(os.getpid(), signal.SIGKILL)


def _parse(spec: str) -> tuple[str, int]:
    """``"NAME:N"`` -> (NAME, N); ``"NAME"`` -> (NAME, 1). ValueError for a bad count."""
    target, colon, count = spec.rpartition(":")
    if not colon:
        return spec, 1
    if not count.isdigit() or int(count) < 1:
        raise ValueError(f"{FAULT_ENV} must be NAME or NAME:N with N >= 1, got {spec!r}")
    return target, int(count)
