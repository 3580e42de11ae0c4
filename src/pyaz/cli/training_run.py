"""What every training command does around its loop: report bad settings as one line (exit 2),
lock the run folder while the run uses it (another process using it: one line, exit 2), keep
finished iterations on Ctrl-C at any moment and say how to resume (exit 130), report a failed
write (a full disk, a read-only folder) as one line that names the file and says what to do
(exit 2), write the plots unless a write failed."""

from __future__ import annotations

import errno
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Protocol, TypeVar

from pyaz.common.folder_lock import FolderInUseError, FolderLock
from pyaz.common.runlog import lock_run_folder

Settings = TypeVar("Settings")


class Loop(Protocol):
    def run(self) -> object: ...


def run_training(
    settings: Callable[[], Settings],
    build: Callable[[Settings, FolderLock], Loop],
    out: Path,
    resume_command: str,
    plot: Callable[[Path], object],
    outputs: str,
) -> int:
    """Reads and checks the settings with ``settings()``, builds the loop with ``build(settings,
    lock)`` and runs it; returns the process exit status.

    The run folder ``out`` is locked from before anything is written in it until the plots are
    done: a folder that exists is locked before ``settings()`` reads anything in it (the saved
    settings of a resumed run), a new one only once the settings passed their checks (a bad
    option creates no folder)."""
    lock: FolderLock | None = None
    try:
        try:
            if out.is_dir():
                lock = lock_run_folder(out)
            chosen = settings()
            lock = lock or lock_run_folder(out)
            loop = build(chosen, lock)
        except (ValueError, TypeError, OSError, FolderInUseError) as error:
            print(f"pyaz-selfplay: {error}", file=sys.stderr)
            return 2
        wrote = True
        try:
            loop.run()
        except KeyboardInterrupt:
            return _interrupted(out, resume_command)
        except OSError as error:  # a full disk or a folder made read-only during the run
            wrote = False
            print(f"pyaz-selfplay: {write_error(error, resume_command)}", file=sys.stderr)
            return 2
        finally:
            if wrote:  # after a failed write the plots would fail too: one line is enough
                try:
                    plot(out)
                except OSError as error:
                    print(f"pyaz-selfplay: no plots written: {error}", file=sys.stderr)
        print(f"done: {out} ({outputs})")
        return 0
    except KeyboardInterrupt:  # while the settings were read or the loop was made
        return _interrupted(out, resume_command)
    finally:
        if lock is not None:
            lock.release()


def _interrupted(out: Path, resume_command: str) -> int:
    """Says what Ctrl-C kept and how to go on; the exit status of an interrupted run."""
    if (out / "config.json").exists():
        print(
            f"\ninterrupted: the last finished iteration is saved; continue with\n"
            f"  {resume_command}",
            file=sys.stderr,
        )
    else:
        print("\ninterrupted before the run started", file=sys.stderr)
    return 130


def write_error(error: OSError, resume_command: str) -> str:
    """One line for a write that failed during a run: the file, the reason, what to do."""
    where = f" {error.filename}" if error.filename else ""
    reason = error.strerror or str(error)
    if error.errno in (errno.ENOSPC, errno.EDQUOT):
        advice = "free space on its disk"
    elif error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        advice = "make the run folder writable"
    else:
        advice = "fix the cause"
    return (
        f"cannot write{where} ({reason}); the last finished iteration is saved: {advice}, "
        f"then continue with: {resume_command}"
    )
