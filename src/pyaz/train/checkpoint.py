"""The one checkpoint writer and reader of the training loops (board games and curling).

An iteration is saved as: the replay buffer (``buffer-NNNNN.npz``), the per-iteration files (the
network of the iteration under ``nets/``, the TorchScript export, ...), and last
``checkpoint.pt``, which names the buffer: writing it is the commit point. Every file is
written atomically (a temporary file, fsync, rename), so a kill at any moment leaves the
previous iteration's checkpoint intact, and a resumed run starts from the last committed one.
"""

from __future__ import annotations

import io
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import torch

from pyaz.common.runlog import atomic_write_bytes

__all__ = [
    "CHECKPOINT_FILE",
    "changed_settings",
    "read_checkpoint",
    "torch_bytes",
    "write_files",
    "write_iteration",
]

CHECKPOINT_FILE = "checkpoint.pt"


def torch_bytes(obj: Any) -> bytes:
    """``obj`` as ``torch.save`` writes it."""
    blob = io.BytesIO()
    torch.save(obj, blob)
    return blob.getvalue()


def write_iteration(
    run_dir: str | os.PathLike[str],
    iteration: int,
    checkpoint: Mapping[str, Any],
    buffer: bytes,
    files: Mapping[str, bytes] | None = None,
) -> None:
    """Saves finished iteration ``iteration`` into ``run_dir``.

    ``buffer`` is the replay buffer's serialised bytes (``buffer-NNNNN.npz``); ``files`` maps
    paths relative to ``run_dir`` to their bytes; ``checkpoint`` is the loop's state, written
    last as ``checkpoint.pt`` with the buffer's file name under ``"buffer"``. Older buffers are
    removed once the checkpoint names the new one.
    """
    run_dir = Path(run_dir)
    buffer_name = f"buffer-{iteration:05d}.npz"
    atomic_write_bytes(run_dir / buffer_name, buffer)
    write_files(run_dir, files or {})
    atomic_write_bytes(
        run_dir / CHECKPOINT_FILE, torch_bytes({**checkpoint, "buffer": buffer_name})
    )
    _remove_other_buffers(run_dir, buffer_name)


def _remove_other_buffers(run_dir: Path, buffer_name: str) -> None:
    for old in run_dir.glob("buffer-*.npz"):
        if old.name != buffer_name:
            old.unlink()


def write_files(run_dir: str | os.PathLike[str], files: Mapping[str, bytes]) -> None:
    """Writes ``files`` (paths relative to ``run_dir`` -> bytes), each atomically. A loop calls
    it on resume too, to re-derive the files that name the latest network (``best.*``): a run
    killed after writing them but before its checkpoint left them one iteration ahead."""
    for relative, data in files.items():
        path = Path(run_dir) / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(path, data)


def read_checkpoint(run_dir: str | os.PathLike[str]) -> tuple[dict[str, Any], bytes]:
    """The state saved by :func:`write_iteration` and its buffer's bytes, for a resume. The
    buffers the checkpoint does not name are removed: a run killed between its commit and their
    removal left the previous one."""
    run_dir = Path(run_dir)
    data = torch.load(run_dir / CHECKPOINT_FILE, map_location="cpu", weights_only=False)
    buffer = (run_dir / data["buffer"]).read_bytes()
    _remove_other_buffers(run_dir, data["buffer"])
    return data, buffer


def changed_settings(saved: Mapping[str, Any], now: Mapping[str, Any]) -> list[str]:
    """The names of the settings that differ between a saved run and the resumed one."""
    return sorted(key for key in saved.keys() | now.keys() if saved.get(key) != now.get(key))
