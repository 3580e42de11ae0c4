"""Cutting a value that came from outside (a file, a request, an engine, a command line) to a
few characters for a one-line message: :func:`cut`.

>>> cut("x" * 50, 8)
'xxxxxxxx...'
>>> cut("x" * 50, 8, quote=True)
"'xxxxxxxx'..."
>>> cut("short", 8, quote=True)
"'short'"
"""

from __future__ import annotations

__all__ = ["cut"]


def cut(text: str, limit: int = 40, quote: bool = False) -> str:
    """``text`` for a message: its first ``limit`` characters followed by ``...`` when it is
    longer; with ``quote``, the characters kept are quoted as Python writes a string (its
    ``repr``, so that no control character reaches the message) and ``...`` follows the quote."""
    kept = repr(text[:limit]) if quote else text[:limit]
    return kept if len(text) <= limit else kept + "..."
