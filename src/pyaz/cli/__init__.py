"""The pyaz commands (``pyaz-*``); nothing outside this package imports it."""

from __future__ import annotations

from pathlib import Path

from pyaz.common.exits import exit_from_main

__all__ = ["cannot_write", "exit_from_main"]


def cannot_write(error: OSError, folder: Path) -> str:
    """``cannot write FILE (reason)`` for a write into ``folder`` that failed."""
    where = error.filename if error.filename is not None else folder
    return f"cannot write {where} ({error.strerror or str(error)})"
