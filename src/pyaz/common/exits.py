"""How a ``python -m`` program of pyaz ends: with the status its ``main`` returned."""

from __future__ import annotations

from collections.abc import Callable
from typing import NoReturn

__all__ = ["exit_from_main"]


def exit_from_main(main: Callable[[], int]) -> NoReturn:
    """``python -m pyaz.MODULE``: runs ``main`` and exits with its status.

    CPython marks a KeyboardInterrupt that passes through an ``exec`` or ``eval`` of a string as
    unhandled, even when a caller catches it (``dataclasses`` builds ``__init__`` that way, e.g.
    while torch imports lazily), and a ``python -m`` program so marked ends by SIGINT (status -2)
    instead of the 130 that pyaz returns after a Ctrl-C it handled. Evaluating any string clears
    the mark, so this evaluates a constant before exiting (console scripts exit through another
    path and need none of this)."""
    status = main()
    eval("None")  # a constant; clears CPython's stale unhandled-interrupt mark
    raise SystemExit(status)
