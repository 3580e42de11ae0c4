"""The search layer: the tree search (:class:`Search`) and batched self-play (:class:`SelfPlay`),
thin Python classes over the C++ searches of ``pyaz._core``, and the exact Connect Four
solver (:func:`solve`)."""

from pyaz.search.search import Evaluator, Search
from pyaz.search.selfplay import SelfPlay, SelfPlayRecords
from pyaz.search.solver import MoveValue, Solution, solve, solve_value

__all__ = [
    "Evaluator",
    "MoveValue",
    "Search",
    "SelfPlay",
    "SelfPlayRecords",
    "Solution",
    "solve",
    "solve_value",
]
