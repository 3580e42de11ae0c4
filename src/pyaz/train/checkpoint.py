"""The one checkpoint writer and reader of the training loops (board games and curling).

An iteration is saved as: the replay buffer (``buffer-NNNNN.npz``), the per-iteration files (the
network of the iteration under ``nets/``, the TorchScript export, ...), and last
``checkpoint.pt``, which names the buffer: writing it is the commit point. Every file is
written atomically (a temporary file, fsync, rename), so a kill at any moment leaves the
previous iteration's checkpoint intact, and a resumed run starts from the last committed one.
"""

from __future__ import annotations

import io
import math
import os
import re
import zipfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from pyaz.common.runlog import atomic_write_bytes
from pyaz.nets.files import read_torch_file, torch_bytes

__all__ = [
    "CHECKPOINT_FILE",
    "read_checkpoint",
    "torch_bytes",
    "write_files",
    "write_iteration",
]

CHECKPOINT_FILE = "checkpoint.pt"


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
    removal left the previous one.

    Nothing in the files is executed (see :func:`~pyaz.nets.files.read_torch_file`; the buffer
    is checked as an .npz archive of plain arrays, every array decoded). A checkpoint or buffer
    that is empty, truncated, not what pyaz writes or missing its keys, and a buffer that is not
    a regular file (a FIFO is never opened; :class:`~pyaz.common.run.TrainingRun` checks the
    checkpoint so), is a one-line ValueError naming the file; OSError when a file cannot be
    read at all.
    """
    run_dir = Path(run_dir)
    path = run_dir / CHECKPOINT_FILE
    data = read_torch_file(path, "a pyaz training checkpoint")
    missing = [key for key in _CHECKPOINT_KEYS if not isinstance(data, dict) or key not in data]
    if missing:
        raise ValueError(f"{path} is not a pyaz training checkpoint: it lacks {', '.join(missing)}")
    name = data["buffer"]
    if not isinstance(name, str) or not re.fullmatch(r"buffer-\d{5,}\.npz", name):
        raise ValueError(f"{path} is not a pyaz training checkpoint: its buffer is {name!r}")
    buffer_path = run_dir / name
    if buffer_path.exists() and not buffer_path.is_file():  # a FIFO would block for ever
        raise ValueError(f"{buffer_path} is not a regular file, so no buffer pyaz wrote")
    buffer = buffer_path.read_bytes()
    _check_npz(buffer_path, buffer)
    _remove_other_buffers(run_dir, name)
    return data, buffer


_CHECKPOINT_KEYS = ("buffer", "optimizer", "rng", "torch_rng", "counters", "config")
"""What every loop's checkpoint holds (beside its networks)."""


def _check_npz(path: Path, data: bytes) -> None:
    """ValueError naming ``path`` unless ``data`` is a complete .npz archive of plain arrays:
    every member's checksum and .npy header are checked, its size matches its shape, and no
    array holds Python objects (streamed: no array is decoded into memory)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            damaged = archive.testzip()
            if damaged is not None:
                raise ValueError(f"{damaged} is damaged (bad checksum)")
            for info in archive.infolist():
                with archive.open(info) as member:
                    version = np.lib.format.read_magic(member)
                    read_header = (
                        np.lib.format.read_array_header_1_0
                        if version == (1, 0)
                        else np.lib.format.read_array_header_2_0
                    )
                    shape, _, dtype = read_header(member)
                    if dtype.hasobject:
                        raise ValueError(f"{info.filename} holds Python objects")
                    size = member.tell() + math.prod(shape) * dtype.itemsize
                    if info.file_size != size:
                        raise ValueError(f"{info.filename} is not as long as its shape says")
    except Exception as error:  # zip, npy header, zlib errors: the content's fault
        if not data:
            reason = "the file is empty"
        elif data.startswith(b"PK\x03\x04") and not zipfile.is_zipfile(io.BytesIO(data)):
            reason = f"truncated: not a complete .npz archive ({len(data)} bytes)"
        else:
            text = (
                str(error) if isinstance(error, ValueError) else f"{type(error).__name__}: {error}"
            )
            reason = (text.strip().splitlines() or [""])[0][:200]
        raise ValueError(f"{path} is not a pyaz replay buffer (.npz): {reason}") from None
