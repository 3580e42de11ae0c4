"""The pyaz commands (``pyaz-*``); nothing outside this package imports it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import NoReturn


def exit_from_main(main: Callable[[], int]) -> NoReturn:
    """``python -m pyaz.cli.NAME``: runs ``main`` and exits with its status.

    CPython marks a KeyboardInterrupt that passes through an ``exec`` or ``eval`` of a string as
    unhandled, even when a caller catches it (``dataclasses`` builds ``__init__`` that way, e.g.
    while torch imports lazily), and a ``python -m`` program so marked ends by SIGINT (status -2)
    instead of the 130 that pyaz returns after a Ctrl-C it handled. Evaluating any string clears
    the mark, so this evaluates a constant before exiting (console scripts exit through another
    path and need none of this)."""
    status = main()
    eval("None")  # a constant; clears CPython's stale unhandled-interrupt mark
    raise SystemExit(status)


def cannot_write(error: OSError, folder: Path) -> str:
    """``cannot write FILE (reason)`` for a write into ``folder`` that failed."""
    where = error.filename if error.filename is not None else folder
    return f"cannot write {where} ({error.strerror or str(error)})"
