"""What the text-protocol servers (GTP, UCI, Gomocup) share: quoting an input for an error
answer, and stdin/stdout that no byte can stop."""

from __future__ import annotations

import io
from typing import IO

from pyaz.common.shown import cut

__all__ = ["shown", "tolerant"]


def shown(text: str) -> str:
    """``text`` quoted for an answer, cut to 40 characters (the ``...`` inside the quotes)."""
    return repr(cut(text))


def tolerant(stdin: IO[str], stdout: IO[str]) -> None:
    """Sets real text streams (``sys.stdin``/``sys.stdout``) to read bytes that are not in their
    encoding as U+FFFD and to write what their encoding lacks as backslash escapes, so that no
    byte stops a server, whatever the locale; other streams are left as they are."""
    if isinstance(stdin, io.TextIOWrapper):
        stdin.reconfigure(errors="replace")
    if isinstance(stdout, io.TextIOWrapper):
        stdout.reconfigure(errors="backslashreplace")
