"""The search layer: the tree search (:class:`Search`) and batched self-play (:class:`SelfPlay`),
thin Python classes over the C++ searches of ``pyaz._core``."""

from pyaz.search.search import Evaluator, Search, register_search_class
from pyaz.search.selfplay import SelfPlay, SelfPlayRecords

__all__ = ["Evaluator", "Search", "SelfPlay", "SelfPlayRecords", "register_search_class"]
