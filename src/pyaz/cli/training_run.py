"""What every training command does around its loop: report bad settings as one line (exit 2),
keep finished iterations on Ctrl-C and say how to resume (exit 130), write the plots whatever
happens."""

from __future__ import annotations

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
        print(
            f"pyaz-selfplay: cannot write the run ({error}); the last finished iteration is "
            f"saved: free space or fix the permissions, then continue with  {resume_command}",
            file=sys.stderr,
        )
        return 2
    finally:
        try:
            plot(out)
        except OSError as error:
            print(f"pyaz-selfplay: no plots written: {error}", file=sys.stderr)
    print(f"done: {out} ({outputs})")
    return 0
