"""An OS lock on a run or experiment folder, so that two processes never write one folder.

The lock is ``fcntl.flock`` on ``<folder>/.lock``: the kernel releases it when the process that
holds it ends, however it ends (Ctrl-C, SIGKILL, a crash), so a killed run never leaves a stale
lock behind and ``--resume`` can take the folder at once. The file itself stays; it holds the
pid of the last holder, for the error message only (the lock, not the file, is what counts).

>>> import tempfile
>>> from pathlib import Path
>>> folder = Path(tempfile.mkdtemp())
>>> with FolderLock(folder, "pyaz-selfplay"):
...     try:
...         FolderLock(folder, "pyaz-selfplay").acquire()
...     except FolderInUseError as error:
...         print("refused")
refused
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from pyaz.common.closing import ClosesOnExit

__all__ = ["LOCK_NAME", "FolderInUseError", "FolderLock"]

LOCK_NAME = ".lock"


class FolderInUseError(RuntimeError):
    """Another process holds the folder's lock."""


class FolderLock(ClosesOnExit):
    """Holds the lock of ``folder`` (created if missing) from :meth:`acquire` to
    :meth:`release`; a context manager. ``what`` names the kind of work in the message
    ("another pyaz-selfplay run uses ..."). A second lock of the same folder, in this process or
    another, raises :class:`FolderInUseError` at once (it never waits)."""

    def __init__(self, folder: str | os.PathLike[str], what: str = "pyaz") -> None:
        self.folder = Path(folder)
        self.what = what
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self) -> FolderLock:
        if self._fd is not None:
            return self
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.folder / LOCK_NAME
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read_pid(fd)
            os.close(fd)
            by = f" (process {holder})" if holder else ""
            raise FolderInUseError(
                f"{self.folder} is in use by another {self.what}{by}: wait for it to end, stop "
                "it, or pick another folder"
            ) from None
        except BaseException:
            os.close(fd)
            raise
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd
        return self

    def release(self) -> None:
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)

    close = release

    def __enter__(self) -> FolderLock:
        return self.acquire()

    def __del__(self) -> None:
        self.release()


def _read_pid(fd: int) -> int | None:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
        return int(text) if text.isdigit() else None
    except OSError:
        return None
