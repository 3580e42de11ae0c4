"""What every training command does around its loop: report bad settings as one line (exit 2),
keep finished iterations on Ctrl-C and say how to resume (exit 130), report a failed write (a
full disk, a read-only folder) as one line that names the file and says what to do (exit 2),
write the plots unless a write failed."""

from __future__ import annotations

import errno
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Protocol


class Loop(Protocol):
    def run(self) -> None: ...


def run_training(
    build: Callable[[], Loop],
    out: Path,
    resume_command: str,
    plot: Callable[[Path], object],
    outputs: str,
) -> int:
    """Builds the loop with ``build()`` and runs it; returns the process exit status."""
    try:
        loop = build()
    except (ValueError, TypeError, FileExistsError, OSError) as error:
        print(f"pyaz-selfplay: {error}", file=sys.stderr)
        return 2
    wrote = True
    try:
        loop.run()
    except KeyboardInterrupt:
        print(
            f"\ninterrupted: the last finished iteration is saved; continue with\n"
            f"  {resume_command}",
            file=sys.stderr,
        )
        return 130
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
