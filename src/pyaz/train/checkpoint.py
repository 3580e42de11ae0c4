"""The checkpoint of the board-game and curling loops, in the one layout that
:class:`~pyaz.common.run.TrainingRun` commits for every loop (see :mod:`pyaz.common.run`):
``checkpoint.pt`` holds the loop's state (networks, optimiser, random states, counters, the
settings) and names, under ``"buffer"``, its replay buffer, ``buffer-NNNNN.npz`` (``NNNNN``: the
step), a side file written before it (:meth:`~pyaz.common.run.TrainingRun.checkpoint_files`).
TrainingRun writes both, and removes the buffers that the checkpoint does not name; what is here
is what the two loops share beside it: the buffer's name, and the checks of both files when they
are read back. Earlier pyaz versions wrote the same files (through a writer of their own that
this layout replaces), so their run folders resume as they are.
"""

from __future__ import annotations

import io
import math
import os
import re
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from pyaz.common.run import CHECKPOINT_FILE
from pyaz.common.runlog import read_plain_file
from pyaz.nets.files import read_torch_file

__all__ = [
    "BUFFER_FILES",
    "CHECKPOINT_FILE",
    "buffer_file",
    "read_checkpoint",
]

BUFFER_FILES = "buffer-*.npz"
"""The replay buffers' names (a loop's :attr:`~pyaz.common.run.TrainingRun.NAMED_FILES`)."""


def buffer_file(step: int) -> str:
    """The name of the replay buffer committed with ``step``, which the checkpoint names."""
    return f"buffer-{step:05d}.npz"


def read_checkpoint(
    run_dir: str | os.PathLike[str], read: Callable[[str, str], bytes] | None = None
) -> tuple[dict[str, Any], bytes]:
    """The state in ``run_dir``'s ``checkpoint.pt`` and the bytes of the buffer it names.
    ``read(name, what)`` reads the buffer: a loop's
    :meth:`~pyaz.common.run.TrainingRun.read_named_file` (so that the run keeps it and removes
    the others); by default :func:`~pyaz.common.runlog.read_plain_file`, which removes nothing.

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
    buffer = read_plain_file(run_dir / name, "buffer") if read is None else read(name, "buffer")
    _check_npz(run_dir / name, buffer)
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
