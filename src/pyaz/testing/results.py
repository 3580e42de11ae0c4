"""What the conformance kit reports: :class:`ConformanceError` when a game breaks a check,
:class:`Report` (one :class:`CheckResult` per check) when it passes them all."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["CheckResult", "ConformanceError", "Report"]

_MOVES_SHOWN = 40
"""A position's first moves shown in an error message (a game that never ends has thousands)."""


def describe_moves(moves: Sequence[int] | None) -> str:
    """Where a check broke, for a message: the start, or the actions that lead there."""
    if moves is None:
        return "from the start"
    if not moves:
        return "at the start"
    shown = ", ".join(str(a) for a in moves[:_MOVES_SHOWN])
    rest = f", ... ({len(moves)} in all)" if len(moves) > _MOVES_SHOWN else ""
    return f"after moves [{shown}{rest}]"


class ConformanceError(AssertionError):
    """A game broke a check. ``check`` names it (a key of :data:`pyaz.testing.CHECKS`);
    ``moves`` are the actions from the start state to the position where it broke (empty: the
    start itself; None: no one position, as for perft); ``detail`` says what differed."""

    def __init__(self, check: str, moves: Sequence[int] | None, detail: str) -> None:
        self.check = check
        self.moves = None if moves is None else tuple(moves)
        self.detail = detail
        super().__init__(f"{check} {describe_moves(self.moves)}: {detail}")


@dataclass(frozen=True)
class CheckResult:
    """One check that passed (``detail``: what it looked at) or did not apply to the game
    (``skipped``, ``detail``: why)."""

    check: str
    detail: str
    skipped: bool = False


@dataclass(frozen=True)
class Report:
    """What :func:`pyaz.testing.check_game` found: the game's name and every check's result."""

    game: str
    results: tuple[CheckResult, ...]

    @property
    def skipped(self) -> list[str]:
        """The checks that did not apply to the game."""
        return [r.check for r in self.results if r.skipped]

    def __str__(self) -> str:
        passed = len(self.results) - len(self.skipped)
        lines = [f"{self.game}: {passed} checks passed, {len(self.skipped)} skipped"]
        width = max(len(r.check) for r in self.results)
        for r in self.results:
            lines.append(f"  {r.check:<{width}}  {'skipped: ' if r.skipped else ''}{r.detail}")
        return "\n".join(lines)
