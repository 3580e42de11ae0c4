"""pyaz as an engine: the search behind the GTP (:mod:`pyaz.engines.gtp_server`) and UCI
(:mod:`pyaz.engines.uci_server`) servers.

:class:`EngineSearch` wraps :func:`pyaz.Search` for a program that is told moves one at a time
and asked to think under a budget (simulations, seconds, or until stopped). It keeps the search
tree between moves: a position is named by its *origin* (any hashable naming where the game
started, e.g. a FEN) and the *line* of actions played since, and when a new position extends
the line the tree was built for, the tree is advanced along the new actions instead of being
thrown away.

Without a model the search is plain UCT with random rollouts (as
:func:`pyaz.eval.players.uct_player`), so the engines work out of the box; with a model
(:func:`pyaz.nets.load_model`) it is PUCT with the network as the evaluator::

    >>> import pyaz
    >>> from pyaz.engines.search import EngineSearch
    >>> engine = EngineSearch.uct(seed=1)
    >>> result = engine.think(pyaz.make("connect_four"), "start", (), simulations=200)
    >>> pyaz.make("connect_four").is_legal(result.action)
    True
"""

from __future__ import annotations

import contextlib
import logging
import math
import sys
import threading
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pyaz.games import NetworkGameState, same_position
from pyaz.search import Evaluator, Search

if TYPE_CHECKING:  # pyaz.nets imports torch, which an engine without a network does not need
    from pyaz.nets import LoadedModel

__all__ = ["EngineSearch", "ThinkResult", "setup_logging", "value_to_centipawns"]

log = logging.getLogger("pyaz.engines")

MIN_CHUNK = 16
"""The fewest simulations a time-limited search runs between clock checks."""

CHUNK_SECONDS = 0.05
"""About how long a time-limited or open-ended search runs between clock checks."""

FIXED_CHUNK = 128
"""Simulations between checks of the stop event when only a simulation budget is set (fixed,
so that such a search is reproducible)."""


@dataclass(frozen=True)
class ThinkResult:
    """What one :meth:`EngineSearch.think` found.

    ``action`` is the most visited root action (None when the position has no legal action);
    ``value`` the root value in [-1, 1] for the side to move; ``simulations`` the simulations
    run by this call; ``visits`` the root's visits (more than ``simulations`` when a reused
    subtree already held some); ``seconds`` the wall time of the call; ``tree_size`` the nodes
    in the tree; ``reused`` whether the search started from visits kept from an earlier search
    (tree reuse).
    """

    action: int | None
    value: float
    simulations: int
    visits: int
    seconds: float
    tree_size: int
    reused: bool


ProgressCallback = Callable[[ThinkResult], None]


class EngineSearch:
    """A search with tree reuse and budgets, for an engine that plays one game at a time.

    ``evaluator`` is ``"rollout"``, ``"uniform"`` or a network callable (see :mod:`pyaz.search`);
    ``search_options`` go to :func:`pyaz.Search` (``rule``, ``c_puct``, ``c_uct``, ``threads``,
    ``batch_size``, ``max_nodes``, ``seed``, ...). Moves are greedy by visit count, so a search
    with ``threads=1`` is reproducible for a given seed.
    """

    def __init__(
        self, evaluator: Evaluator, *, description: str = "", **search_options: Any
    ) -> None:
        self.evaluator = evaluator
        self.search_options = dict(search_options)
        self.description = description or (
            f"{search_options.get('rule', 'puct')} with "
            f"{evaluator if isinstance(evaluator, str) else 'a network'}"
        )
        self.seed = int(search_options.get("seed", 0))
        self._search: Any = None
        self._key: tuple[Hashable, tuple[int, ...]] | None = None
        self._moves = 0

    @classmethod
    def uct(cls, seed: int = 0, **search_options: Any) -> EngineSearch:
        """Plain UCT with random rollouts (UCB1, ``c_uct`` = sqrt(2) unless given)."""
        options = {"rule": "uct", "seed": seed, **search_options}
        return cls("rollout", description="UCT with random rollouts", **options)

    @classmethod
    def puct(cls, evaluator: Evaluator, seed: int = 0, **search_options: Any) -> EngineSearch:
        """PUCT with a network evaluator."""
        options = {"rule": "puct", "seed": seed, **search_options}
        return cls(evaluator, description="PUCT with a network", **options)

    @classmethod
    def for_model(
        cls,
        model: LoadedModel | None,
        *,
        seed: int = 0,
        threads: int = 1,
        c_puct: float = 1.0,
        c_uct: float = 2**0.5,
        device: str = "cpu",
        runtime: str | None = None,
    ) -> EngineSearch:
        """UCT with random rollouts without ``model``, else PUCT guided by its network (run on
        ``runtime``; default: ONNX Runtime on a CPU)."""
        if model is None:
            return cls.uct(seed=seed, threads=threads, c_uct=c_uct)
        evaluator = model.evaluator(device, runtime)
        return cls.puct(evaluator, seed=seed, threads=threads, c_puct=c_puct)

    @property
    def search(self) -> Any:
        """The underlying :func:`pyaz.Search` object (None before the first :meth:`think`)."""
        return self._search

    def forget(self) -> None:
        """Drops the tree (e.g. on a new game); the next search starts afresh."""
        self._key = None
        if self._search is not None:
            self._search.set_root(self._search.root_state)

    def _root_at(self, state: NetworkGameState, origin: Hashable, line: tuple[int, ...]) -> None:
        """Roots the search at ``state``, keeping the old tree's subtree when it leads there."""
        if self._search is None or type(self._search.root_state) is not type(state):
            self._search = Search(state.clone(), **self.search_options)
            self._key = (origin, line)
            return
        key, search = self._key, self._search
        if key is not None and key[0] == origin and line[: len(key[1])] == key[1]:
            with contextlib.suppress(ValueError):  # an action the old tree cannot play
                for action in line[len(key[1]) :]:
                    search.advance(int(action))
                if same_position(search.root_state, state):
                    self._key = (origin, line)
                    return
        search.set_root(state.clone())
        self._key = (origin, line)

    def think(
        self,
        state: NetworkGameState,
        origin: Hashable,
        line: Sequence[int],
        *,
        simulations: int | None = None,
        seconds: float | None = None,
        stop: threading.Event | None = None,
        progress: ProgressCallback | None = None,
        progress_every: float = 1.0,
    ) -> ThinkResult:
        """Searches ``state`` (reached by ``line`` from ``origin``) and returns the best move.

        The search runs ``simulations`` new simulations, or until ``seconds`` have passed, or
        until ``stop`` is set, whichever comes first (at least one limit must be given). With a
        time limit or a stop event it runs in chunks and checks between them
        (:data:`CHUNK_SECONDS` and :data:`MIN_CHUNK`, or :data:`FIXED_CHUNK`).
        ``progress`` is called about every ``progress_every`` seconds during a long search.
        A terminal ``state`` gives ``action=None`` without searching; so does a stop event
        already set before any simulation (then the best move so far, if any, is returned).
        """
        if simulations is None and seconds is None and stop is None:
            raise ValueError("think needs a limit: simulations, seconds or a stop event")
        if simulations is not None and simulations < 0:
            raise ValueError(f"simulations must be >= 0, got {simulations}")
        began = time.perf_counter()
        line = tuple(int(a) for a in line)
        if state.is_terminal():
            return ThinkResult(None, 0.0, 0, 0, 0.0, 0, False)
        self._root_at(state, origin, line)
        search = self._search
        reused = int(search.root_visits) > 0
        done = 0
        if seconds is None and stop is None and progress is None:
            assert simulations is not None
            if simulations:
                search.run(simulations, self.evaluator)
            done = simulations
        else:
            deadline = math.inf if seconds is None else began + max(0.0, seconds)
            budget = math.inf if simulations is None else simulations
            chunk = MIN_CHUNK
            timed = seconds is not None or simulations is None
            next_report = began + progress_every
            while done < budget:
                if stop is not None and stop.is_set():
                    break
                now = time.perf_counter()
                if now >= deadline and done > 0:
                    break
                size = int(min(chunk if timed else FIXED_CHUNK, budget - done))
                search.run(size, self.evaluator)
                done += size
                now = time.perf_counter()
                rate = done / max(now - began, 1e-6)
                left = deadline - now
                chunk = max(MIN_CHUNK, int(rate * min(CHUNK_SECONDS, max(left, 0.0))))
                if progress is not None and now >= next_report:
                    progress(self._result(search, done, began, reused))
                    next_report = now + progress_every
        result = self._result(search, done, began, reused)
        self._moves += 1
        return result

    def _result(self, search: Any, done: int, began: float, reused: bool) -> ThinkResult:
        action: int | None = None
        if search.root_visits > 0:
            action = int(search.choose_action(0.0, self.seed + self._moves))
        elif not search.root_state.is_terminal():
            action = int(search.root_state.legal_actions()[0])
        value, visits, size = float(search.root_value), int(search.root_visits), search.tree_size
        seconds = time.perf_counter() - began
        return ThinkResult(action, value, done, visits, seconds, int(size), reused)


def setup_logging(program: str, verbose: bool = False, quiet: bool = False) -> None:
    """Sends the engines' log (the ``pyaz.engines`` logger) to stderr, prefixed with ``program``.

    The protocol owns stdout, so nothing else may be written there. Calling this again
    replaces the handler it installed before.
    """
    logger = logging.getLogger("pyaz.engines")
    for handler in list(logger.handlers):
        if getattr(handler, "_pyaz_engine", False):
            logger.removeHandler(handler)
    handler = logging.StreamHandler(sys.stderr)
    handler._pyaz_engine = True  # type: ignore[attr-defined]
    handler.setFormatter(logging.Formatter(f"{program}: %(message)s"))
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG if verbose else logging.WARNING if quiet else logging.INFO)
    logger.propagate = False


def value_to_centipawns(value: float) -> int:
    """A root value in [-1, 1] as centipawns (Leela Chess Zero's tangent mapping, clamped)."""
    value = max(-1.0, min(1.0, value))
    return round(111.714640912 * math.tan(1.5620688421 * value))
