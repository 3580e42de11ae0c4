"""Perfect play for a game small enough to list every position: its decisive positions solved by
exhaustive minimax (:func:`pyaz.games.minimax.solve_all`), the yardstick of eval_opponent
``perfect`` for such a game (tic-tac-toe in Python or in C++, a plug-in game of similar size)
as the whole-game oracle sets are for Connect Four (:mod:`pyaz.eval.oracle_sets`).

A position is *decisive* when its legal moves do not all have the same value: a move there can
be wrong. Each one is a :class:`~pyaz.eval.oracle_sets.StagedPosition` whose stage is the
third of the game's longest line of play that its ply lies in (opening, middle, end), so that
:func:`~pyaz.eval.oracle_sets.agreement_by_stage` reports it as it does Connect Four's.

>>> import pyaz
>>> positions = decisive_positions(pyaz.make("tictactoe"))
>>> len(positions), positions[0].stage
(3191, 'opening')
"""

from __future__ import annotations

from collections import OrderedDict, deque
from collections.abc import Hashable
from typing import Any

from pyaz.eval.oracle import OraclePosition
from pyaz.eval.oracle_sets import STAGES, StagedPosition, stratified_sample
from pyaz.games import BoardGameState
from pyaz.games.minimax import Minimax, position_key, solve_all
from pyaz.games.state import played

__all__ = [
    "MAX_POSITIONS",
    "check_small",
    "decisive_positions",
    "evaluation_set",
]

MAX_POSITIONS = 200_000
"""The most positions a game may reach for exhaustive minimax (tic-tac-toe reaches 5,478, in
Python or in C++; a Python game lists about 30,000 a second)."""


_TABLES: OrderedDict[Hashable, Minimax] = OrderedDict()
"""The last few tables :func:`check_small` made, by game class, name and start position: a
run's settings check and its evaluation ask for the same one."""
_KEPT_TABLES = 4


def check_small(start: BoardGameState) -> Minimax:
    """The minimax table of every position reachable from ``start``, any game's (written in
    Python or C++); ValueError naming the game when it reaches more than :data:`MAX_POSITIONS`
    (refused as soon as it has listed that many, whatever the length of its lines; Connect Four
    has an exact solver instead). The
    table is made once for a game class, name and start position, then kept (the last few)."""
    key = (type(start), getattr(start, "name", None), position_key(start))
    if key in _TABLES:
        _TABLES.move_to_end(key)
        return _TABLES[key]
    table = solve_all(start, limit=MAX_POSITIONS)
    _TABLES[key] = table
    while len(_TABLES) > _KEPT_TABLES:
        _TABLES.popitem(last=False)
    return table


def decisive_positions(start: BoardGameState) -> list[StagedPosition]:
    """Every decisive position reachable from ``start``, solved, in order of ply (then of the
    first line of play that reaches it), each once."""
    table = check_small(start)
    found: list[tuple[Any, tuple[int, ...]]] = []
    seen = {table.key(start)}
    queue: deque[tuple[Any, tuple[int, ...]]] = deque([(start.clone(), ())])
    while queue:
        state, moves = queue.popleft()
        if state.is_terminal():
            continue
        found.append((state, moves))
        for action in state.legal_actions():
            child = played(state, action)
            if table.key(child) not in seen:
                seen.add(table.key(child))
                queue.append((child, (*moves, int(action))))
    longest = max(len(moves) for _, moves in found) + 1
    positions = []
    for state, moves in found:
        best = frozenset(int(a) for a in table.best_actions(state))
        if len(best) < len(state.legal_actions()):
            stage = STAGES[min(2, 3 * (int(state.ply) - int(start.ply)) // longest)]
            positions.append(
                StagedPosition(OraclePosition(state, table.value(state), best), moves, stage)
            )
    return positions


def evaluation_set(start: BoardGameState, count: int, seed: int = 0) -> list[StagedPosition]:
    """``count`` decisive positions for a run's evaluation, a third from each stage (the first
    stages take the remainder; a stage with fewer gives all it has), a seeded sample."""
    return stratified_sample(decisive_positions(start), count, seed)
