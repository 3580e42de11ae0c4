"""What the tests ask of an error message a person reads: one line, no traceback, not endless."""

from __future__ import annotations

MAX_LINE = 1000
"""The longest one-line message the tests accept: a message that quotes a hostile value cuts
it, while temporary paths make honest ones a few hundred characters long."""


def one_line(text: str) -> str:
    """The one line of ``text`` (surrounding blank space ignored); fails unless ``text`` is
    exactly one line, without a traceback, of at most :data:`MAX_LINE` characters."""
    lines = text.strip().splitlines()
    assert len(lines) == 1, lines[:3]
    assert "Traceback" not in lines[0]
    assert len(lines[0]) <= MAX_LINE, lines[0][:1000]
    return lines[0]
