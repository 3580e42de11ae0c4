"""The positions the checks look at, each named by the actions that lead to it from the start
state, and what a check can observe of one."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from pyaz.testing.options import Options, max_plies
from pyaz.testing.results import ConformanceError

__all__ = ["MakeState", "Moves", "differences", "observe", "random_game", "replay", "sample"]

MakeState = Callable[[], Any]
"""Builds a new start state of the game on every call."""

Moves = tuple[int, ...]
"""A position: the actions that lead to it from the start state."""


def replay(make_state: MakeState, moves: Sequence[int]) -> Any:
    """A new start state with ``moves`` applied (ConformanceError naming ``legal_actions`` if
    ``apply`` refuses one: every position the kit names was reached by legal actions)."""
    state = make_state()
    for ply, action in enumerate(moves):
        _apply_legal(state, action, moves[:ply])
    return state


def _apply_legal(state: Any, action: int, moves: Sequence[int]) -> None:
    """Applies ``action``, legal at the position ``moves``, to ``state``."""
    try:
        state.apply(action)
    except ValueError as error:
        raise ConformanceError(
            "legal_actions", moves, f"apply refused the legal action {action}: {error}"
        ) from error


def random_game(make_state: MakeState, rng: np.random.Generator, limit: int) -> Moves:
    """The actions of a game of uniformly random legal actions from the start state: it stops
    when the game is over, when no action is legal, or after ``limit`` plies."""
    state = make_state()
    moves: list[int] = []
    while len(moves) < limit and not state.is_terminal():
        legal = state.legal_actions()
        if not legal:
            break
        action = int(legal[int(rng.integers(len(legal)))])
        _apply_legal(state, action, moves)
        moves.append(action)
    return tuple(moves)


def sample(make_state: MakeState, options: Options) -> list[Moves]:
    """The positions the position checks look at, shortest first: the start, the end of each
    of ``options.games`` random games, and ``options.positions`` positions drawn from within
    them; the same for the same ``options.seed``."""
    rng = np.random.default_rng(options.seed)
    limit = max_plies(make_state(), options)
    games = [random_game(make_state, rng, limit) for _ in range(options.games)]
    within = [game[:ply] for game in games for ply in range(1, len(game))]
    drawn = rng.choice(len(within), size=min(options.positions, len(within)), replace=False)
    return sorted({(), *games, *(within[i] for i in drawn)}, key=lambda moves: (len(moves), moves))


def observe(state: Any) -> dict[str, Any]:
    """What a check compares between two states: ply, side to move, status, legal actions and,
    where the game has them, its board, its planes and its text."""
    seen: dict[str, Any] = {
        "ply": state.ply,
        "to_move": state.to_move(),
        "is_terminal": state.is_terminal(),
        "status": state.status(),
        "legal_actions": list(state.legal_actions()),
    }
    for method in ("board", "encode"):
        if callable(getattr(state, method, None)):
            seen[method] = np.array(getattr(state, method)())
    if type(state).__str__ is not object.__str__ or type(state).__repr__ is not object.__repr__:
        seen["text"] = str(state)  # object's own text names the object, not the position
    return seen


def differences(before: dict[str, Any], after: dict[str, Any]) -> str:
    """The observations (:func:`observe`) that differ, each with both values; empty if none."""
    changed = []
    for key, value in before.items():
        other = after.get(key)
        same = (
            isinstance(other, np.ndarray) and np.array_equal(value, other, equal_nan=True)
            if isinstance(value, np.ndarray)
            else value == other
        )
        if not same:
            changed.append(f"{key} {_shown(value)} became {_shown(other)}")
    return "; ".join(changed)


def _shown(value: Any) -> str:
    """A value for a message, on one line."""
    if isinstance(value, np.ndarray):
        return " ".join(np.array2string(value, threshold=200).split())
    return repr(value)
