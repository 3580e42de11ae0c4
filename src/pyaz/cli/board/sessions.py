"""Games in progress for ``pyaz-board``: the position as JSON, the players (the presets of
:mod:`pyaz.eval.presets`, or ``human``), engine moves in a background thread, and the live
analysis of a tree search (visits, Q and prior per move, the principal variation, the value).

The search is run in slices of simulations so that the page can poll the root's statistics
and the principal variation (:meth:`pyaz.Search.principal_variation`) while it thinks, and so
that a search stops between two slices (:class:`pyaz.Search` has no way to stop one sooner)
when its game is closed or has moved on, or when a newer analysis replaces it. At most
:class:`SearchSlots` searches run at once.
"""

from __future__ import annotations

import functools
import itertools
import re
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from pyaz.cli.options import check_game_options
from pyaz.cli.play import outcome, side_name
from pyaz.eval import presets
from pyaz.eval.players import Player, Resignation, SearchPlayer, close_player
from pyaz.games import (
    BoardGameState,
    DrawableGameState,
    GameState,
    PlayableGameState,
    canonical_name,
    make,
)
from pyaz.games.openspiel import BOARDS
from pyaz.games.plugins import OPENSPIEL_PREFIX
from pyaz.games.profiles import profile

HUMAN = "human"
SLICES = 10  # an engine's search is run in this many slices, each followed by a snapshot
MAX_SLICE = 2_000  # simulations at most in a slice: a stopped search ends within one
MAX_SEARCHES = 4  # searches running at once in a board
SLOT_WAIT = 2.0  # seconds a request waits for a free search slot before it is refused
PV_DEPTH = 4  # moves of the principal variation shown
Cell = list[int] | None


def shown(value: Any) -> str:
    """``value`` as a message shows it: its repr, cut to 100 characters."""
    text = repr(value)
    return text if len(text) <= 100 else f"{text[:100]}... ({len(text)} characters)"


def _square(text: str) -> list[int]:
    """``"e2"`` -> [row, col] with row 0 the 8th rank."""
    return [8 - int(text[1]), ord(text[0]) - ord("a")]


def board_view(state: DrawableGameState) -> str:
    """How the page draws ``state``'s game: the state's own ``board_view`` where it has one (an
    OpenSpiel game's, :data:`pyaz.games.openspiel.BOARDS`), else its profile's."""
    return str(getattr(state, "board_view", None) or profile(str(state.name)).board_view)


def picks_legal(state: DrawableGameState) -> bool:
    """Whether the page plays a click as the legal move at the cells clicked (a game whose
    state gives its moves' cells, ``action_cells``: an OpenSpiel game's), rather than as the
    cell's name in the game's notation."""
    return callable(getattr(state, "action_cells", None))


def move_cells(state: DrawableGameState, action: int) -> tuple[Cell, Cell]:
    """(from, to) board cells of ``action`` ([row, col], row 0 at the top as ``str(state)``
    draws it); ``from`` is None except in a game drawn as chess (Racing Kings) or a game whose
    state gives its moves' cells (``action_cells``: OpenSpiel's breakthrough and the like),
    ``to`` None for a pass."""
    if picks_legal(state):
        start, to = state.action_cells(action)  # type: ignore[attr-defined]
        return start, to
    view = board_view(state)
    if view == "chess":
        uci = str(state.uci(action))  # type: ignore[attr-defined]
        return _square(uci[:2]), _square(uci[2:4])
    if view == "columns":
        column = state.board()[:, action]
        empty = [r for r in range(len(column)) if column[r] == 0]
        return None, [empty[-1] if empty else 0, int(action)]
    if action == getattr(state, "pass_action", -1):
        return None, None
    if hasattr(state, "action_to_coord"):
        row, col = state.action_to_coord(action)
        return None, [int(row), int(col)]
    return None, _grid_cell(state, action)


def _grid_cell(state: Any, action: int) -> Cell:
    """The cell of ``action`` in a game without coordinates of its own (a game written in
    Python): row-major over its board when it has one action a cell, else None (the move is
    played from the list)."""
    rows, cols = (int(n) for n in state.board().shape)
    if int(state.num_actions) != rows * cols:
        return None
    return [action // cols, action % cols]


def labels(state: DrawableGameState) -> tuple[list[str], list[str]]:
    """(column labels left to right, row labels top to bottom) as the game's notation names
    them (the state's own ``board_labels()`` where it has one)."""
    if callable(getattr(state, "board_labels", None)):
        cols_shown, rows_shown = state.board_labels()  # type: ignore[attr-defined]
        return list(cols_shown), list(rows_shown)
    view = board_view(state)
    rows, cols = (int(n) for n in state.board().shape)
    if view == "chess":
        return list("abcdefgh"), [str(8 - r) for r in range(8)]
    if view == "columns":
        return [str(c + 1) for c in range(cols)], ["" for _ in range(rows)]
    point = getattr(state, "coord_to_action", lambda row, col: row * cols + col)
    if not hasattr(state, "coord_to_action") and int(state.num_actions) != rows * cols:
        return [str(c + 1) for c in range(cols)], [str(r + 1) for r in range(rows)]
    col_labels = [re.sub(r"\d", "", str(state.action_to_str(point(0, c)))) for c in range(cols)]
    row_labels = [re.sub(r"\D", "", str(state.action_to_str(point(r, 0)))) for r in range(rows)]
    return col_labels, row_labels


def result_text(state: GameState, players: list[str]) -> str:
    """The result in words: who won (side and player) or a draw, with the score where the
    game has one."""
    winner, details = outcome(state, ", area")
    if winner is None:
        return "Draw" + details
    return f"{side_name(state, winner)} ({players[winner]}) wins{details}"


def snapshot(
    state: DrawableGameState, player: SearchPlayer, target: int, new: int
) -> dict[str, Any]:
    """The root statistics of ``player``'s search rooted at ``state``: each move with visits,
    Q (side to move's view; None while unvisited), prior and board cell, most visited first;
    the root value, the principal variation (the tree's most visited line), the simulations at
    the root (those of a reused subtree included) and the ``new`` ones of
    ``target``."""
    search = player.search
    visits = search.visit_counts()
    q_values = search.q_values()
    priors = search.priors()
    moves: list[dict[str, Any]] = []
    for action in state.legal_actions():
        n = int(visits[action])
        q = float(q_values[action]) if n else None
        moves.append({**_move(state, action), "visits": n, "q": q, "prior": float(priors[action])})
    moves.sort(key=lambda m: (-m["visits"], -m["prior"]))
    pv = move_texts(state, search.principal_variation(PV_DEPTH))
    return {
        "player": player.name,
        "simulations": int(search.root_visits),
        "new": new,
        "target": target,
        "root_value": float(search.root_value),
        "to_move": int(state.to_move()),
        "pv": pv,
        "moves": moves,
        "done": new >= target,
    }


def move_texts(start: PlayableGameState, actions: Iterable[int]) -> list[str]:
    """The moves ``actions`` from ``start`` in the game's notation (ValueError if one is
    illegal)."""
    state = start.clone()
    texts = []
    for action in actions:
        if not state.is_legal(int(action)):
            raise ValueError(f"illegal action {action}")
        texts.append(str(state.action_to_str(int(action))))
        state.apply(int(action))
    return texts


def _move(state: DrawableGameState, action: int) -> dict[str, Any]:
    """``action`` for the page: ``{"move": its text, "from": cell, "cell": cell}``."""
    start, cell = move_cells(state, int(action))
    return {"move": str(state.action_to_str(action)), "from": start, "cell": cell}


class SearchCancelledError(Exception):
    """A search stopped between two slices (its game closed or moved on, or a newer analysis)."""


class BusyError(Exception):
    """Every search slot is taken (answered with 429 and the message)."""


class SearchSlots:
    """At most ``size`` searches at once: a search holds a slot while it runs."""

    def __init__(self, size: int | None = None) -> None:
        self.size = MAX_SEARCHES if size is None else size
        self._free = threading.BoundedSemaphore(self.size)

    def take(self, seconds: float | None = None) -> None:
        """Takes a slot, waiting at most ``seconds`` (default :data:`SLOT_WAIT`): BusyError
        when none frees up."""
        if not self._free.acquire(timeout=SLOT_WAIT if seconds is None else seconds):
            raise BusyError(
                f"{self.size} searches are running (the board's limit); wait for one to end "
                "or start fewer games"
            )

    def release(self) -> None:
        """Gives back a slot taken with :meth:`take`."""
        self._free.release()

    @contextmanager
    def held(self, cancelled: Callable[[], bool]) -> Iterator[None]:
        """A slot for the block, waited for as long as it takes, unless ``cancelled()`` turns
        true meanwhile (SearchCancelledError)."""
        while not self._free.acquire(timeout=0.1):
            if cancelled():
                raise SearchCancelledError
        try:
            yield
        finally:
            self._free.release()


def _never() -> bool:
    return False


def think(
    player: Player,
    state: DrawableGameState,
    on_slice: Callable[[dict[str, Any]], None],
    simulations: int | None = None,
    cancelled: Callable[[], bool] = _never,
) -> int:
    """``player``'s move in ``state``. A :class:`SearchPlayer` that keeps its tree searches in
    :data:`SLICES` slices of at most :data:`MAX_SLICE` simulations (``simulations`` in all,
    default its own), calling ``on_slice(snapshot)`` after each, and plays what its ``choose``
    gives after the last slice (with the whole tree; its random numbers run per slice, so a
    move may differ from one search in one go); SearchCancelledError when ``cancelled()`` turns
    true between two slices. Other players just choose."""
    if not isinstance(player, SearchPlayer) or not player.reuse_tree:
        return int(player.choose(state.clone()))
    total = simulations or player.simulations
    saved = player.simulations
    step = min(max(1, -(-total // SLICES)), MAX_SLICE)
    action, done_so_far = 0, 0
    try:
        while done_so_far < total:
            if cancelled():
                raise SearchCancelledError
            player.simulations = min(step, total - done_so_far)
            action = int(player.choose(state.clone()))
            done_so_far += player.simulations
            if cancelled():
                raise SearchCancelledError
            on_slice(snapshot(state, player, total, done_so_far))
    finally:
        player.simulations = saved
    return action


@dataclass
class Session:
    """One game: the start, the moves so far and each side's player (None: a person)."""

    id: str
    game: str
    options: dict[str, Any]
    start: DrawableGameState
    specs: list[str]
    players: list[Player | None]
    delay: float = 0.0
    state: DrawableGameState = field(init=False)
    history: list[str] = field(default_factory=list)  # the moves in the game's notation
    last: list[Cell] | None = None  # the (from, to) cells of the last move
    analysis: dict[str, Any] | None = None
    error: str | None = None
    resigned: int | None = None
    thinking: bool = False
    lock: threading.RLock = field(default_factory=threading.RLock)
    closed: bool = False
    slots: SearchSlots = field(default_factory=SearchSlots)
    _thread: threading.Thread | None = None
    _analysis_stop: threading.Event | None = None  # the running analysis's stop signal

    def __post_init__(self) -> None:
        self.state = self.start.clone()

    @property
    def over(self) -> bool:
        """Whether the game has ended (finished, resigned or stopped by an engine failure)."""
        return bool(self.state.is_terminal()) or self.resigned is not None or self.error is not None

    def engine_to_move(self) -> bool:
        """Whether a player (not a person) is to move in a game not over."""
        return not self.over and self.players[int(self.state.to_move())] is not None

    def to_json(self) -> dict[str, Any]:
        """The page's view of the game (see the module docstring)."""
        with self.lock:
            state = self.state
            cols, rows = labels(state)
            view = board_view(state)
            board = state.piece_board() if view == "chess" else state.board()  # type: ignore[attr-defined]
            human_turn = not self.over and not self.engine_to_move()
            legal = [_move(state, action) for action in state.legal_actions()] if human_turn else []
            if self.resigned is not None:
                result = (
                    f"{self.specs[self.resigned]} resigns: {self.specs[1 - self.resigned]} wins"
                )
            elif state.is_terminal():
                result = result_text(state, self.specs)
            else:
                result = ""
            return {
                "id": self.id,
                "game": self.game,
                "options": self.options,
                "kind": view,
                "pick": "legal" if picks_legal(state) else "notation",
                "board": board.tolist(),
                "col_labels": cols,
                "row_labels": rows,
                "to_move": int(state.to_move()),
                "sides": [side_name(state, 0), side_name(state, 1)],
                "players": self.specs,
                "history": list(self.history),
                "last": self.last,
                "legal": legal,
                "over": self.over,
                "result": result,
                "error": self.error,
                "thinking": self.thinking,
                "analysis": self.analysis,
                "text": str(state),
            }

    def play(self, text: str) -> None:
        """A person's move ``text`` in the game's notation: ValueError with the command line's
        message when it is not a move or not legal here, or when it is not a person's turn."""
        with self.lock:
            if self.over:
                raise ValueError("the game is over")
            if self.engine_to_move():
                raise ValueError(f"it is {self.specs[int(self.state.to_move())]}'s turn")
            try:
                action = int(self.state.str_to_action(str(text).strip()))
            except ValueError as error:
                raise ValueError(f"Not a move: {error}") from None
            if not self.state.is_legal(action):
                raise ValueError(f"{text} is not legal here")
            self._push(action)
        self.kick()

    def _push(self, action: int) -> None:
        self.history.append(str(self.state.action_to_str(action)))
        self.last = list(move_cells(self.state, action))
        self.state.apply(action)
        for player in self.players:
            if player is not None:
                player.observe(action)

    def kick(self) -> None:
        """Starts the engine thread when an engine is to move and none runs."""
        with self.lock:
            running = self._thread is not None and self._thread.is_alive()
            if self.closed or running or not self.engine_to_move():
                return
            self._thread = threading.Thread(target=self._drive, daemon=True)
            self.thinking = True
            self._thread.start()

    def moved_on(self, ply: int) -> bool:
        """Whether a search of the position at ``ply`` is no use any more (the game closed or
        went past it)."""
        return self.closed or len(self.history) != ply

    def _drive(self) -> None:
        """Plays the engines' moves while an engine is to move."""
        first = True
        while True:
            with self.lock:
                if self.closed or not self.engine_to_move():
                    self.thinking = False
                    return
                mover = int(self.state.to_move())
                player = self.players[mover]
                position = self.state.clone()
                ply = len(self.history)
                self.thinking = True
            assert player is not None
            if not first and self.delay:
                time.sleep(self.delay)
            first = False
            cancelled = functools.partial(self.moved_on, ply)
            try:
                with self.slots.held(cancelled):
                    action = think(
                        player, position, functools.partial(self._show, ply), None, cancelled
                    )
            except SearchCancelledError:
                with self.lock:
                    self.thinking = False
                return
            except Exception as error:  # a resignation, or an engine failure: the game ends
                with self.lock:
                    if isinstance(error, Resignation):
                        self.resigned = mover
                    else:
                        self.error = f"{self.specs[mover]} failed: {error}"
                    self.thinking = False
                return
            with self.lock:
                if self.closed or len(self.history) != ply:
                    self.thinking = False
                    return
                self._push(action)

    def analyse(self, spec: str, simulations: int | None, wait: bool) -> None:
        """Searches the current position with the search player ``spec`` (``uct:N``,
        ``model:PATH[:SIMS]``; checked by the caller) in the background, the snapshots going
        to :attr:`analysis`; ValueError for a spec without a tree search, BusyError when no
        search slot frees up. The analysis running before stops; this one stops when the game
        closes or moves on. ``wait``: return when it is done."""
        with self.lock:
            if self.state.is_terminal():
                raise ValueError("the game is over; there is no position to analyse")
            position = self.state.clone()
            ply = len(self.history)
        player = presets.make_player(spec, position.clone())
        if not isinstance(player, SearchPlayer):
            close_player(player)
            raise ValueError(no_tree_search(spec))
        player.reset(position.clone())
        stop = threading.Event()
        with self.lock:
            if self._analysis_stop is not None:
                self._analysis_stop.set()
            self._analysis_stop = stop
        self.slots.take()
        thread = threading.Thread(
            target=self._analyse, args=(player, position, ply, simulations, stop), daemon=True
        )
        thread.start()
        if wait:
            thread.join()

    def _analyse(
        self,
        player: SearchPlayer,
        position: DrawableGameState,
        ply: int,
        simulations: int | None,
        stop: threading.Event,
    ) -> None:
        """The analysis thread: ``player``'s search of ``position`` shown slice by slice until
        it is done or ``stop`` is set; it gives back its search slot."""

        def show(view: dict[str, Any]) -> None:
            with self.lock:  # not after a newer analysis began (it sets stop under the lock)
                if not stop.is_set():
                    self._show(ply, view)

        try:
            think(player, position, show, simulations, lambda: stop.is_set() or self.moved_on(ply))
        except SearchCancelledError:
            pass
        finally:
            self.slots.release()

    def _show(self, ply: int, view: dict[str, Any]) -> None:
        """``view`` (a :func:`snapshot`) becomes :attr:`analysis` while the game is at ``ply``."""
        with self.lock:
            if len(self.history) == ply:
                self.analysis = {**view, "ply": ply}

    def close(self) -> None:
        """Stops the searches (after the slice in progress) and closes external engines."""
        with self.lock:
            self.closed = True
            if self._analysis_stop is not None:
                self._analysis_stop.set()
        for player in self.players:
            if player is not None:
                close_player(player)


def no_tree_search(spec: str) -> str:
    """The message for an analysis asked of ``spec``, a player without a tree search."""
    return f"{shown(spec)} has no tree search to show; analyse with uct:N or model:PATH"


_ids = itertools.count(1)


def new_session(
    game: str,
    options: dict[str, Any],
    specs: list[str],
    seed: int = 0,
    delay: float = 0.0,
    moves: list[str] | None = None,
    slots: SearchSlots | None = None,
) -> Session:
    """A new game of ``game`` with ``options`` between ``specs`` (first player first; ``human``
    for a person; checked by the caller), after ``moves`` (the game's notation), its searches
    in ``slots`` (default: slots of its own). ValueError/TypeError with the command line's
    message for a bad game, option, spec or move; FileNotFoundError for a missing model or
    engine."""
    name = canonical_name(str(game))
    if not isinstance(options, dict):
        raise TypeError(
            f"the game options must be an object such as {{'size': 6}}, got {shown(options)}"
        )
    check_game_options(name, options)
    start = make(name, **options)
    if not isinstance(start, BoardGameState):
        raise ValueError(f"{name} is not played on a board of cells: it has its own panel")
    if not callable(getattr(start, "board", None)):
        drawn = ""
        if name.startswith(OPENSPIEL_PREFIX):
            drawn = (
                " (of OpenSpiel's games the board draws those whose observation is a plane per "
                f"side's pieces: {', '.join(sorted(BOARDS))})"
            )
        raise ValueError(
            f"{name} has no board() array of its cells (0 empty, 1 and 2 the sides' pieces): "
            f"the board draws a game from it; play it with pyaz-play{drawn}"
        )
    if not isinstance(specs, list) or len(specs) != 2:
        raise ValueError(f"give two players (first, second), got {shown(specs)}")
    texts = [str(spec).strip() for spec in specs]
    players: list[Player | None] = []
    try:
        for index, text in enumerate(texts):
            if text.lower() == HUMAN:
                players.append(None)
            else:
                players.append(presets.make_player(text, start.clone(), seed=seed + index))
    except BaseException:
        for player in players:
            close_player(player)
        raise
    session = Session(
        f"g{next(_ids)}",
        name,
        options,
        start,
        texts,
        players,
        delay=float(delay),
        slots=slots or SearchSlots(),
    )
    try:
        for player in players:
            if player is not None:
                player.reset(start.clone())
        for text in moves or []:
            action = int(session.state.str_to_action(text))
            if not session.state.is_legal(action):
                raise ValueError(f"{text} is not legal here")
            session._push(action)
    except BaseException:
        session.close()  # its engines stop with the request that failed
        raise
    return session
