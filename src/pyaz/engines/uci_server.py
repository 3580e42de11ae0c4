"""A UCI (Universal Chess Interface) engine for Racing Kings: pyaz's search behind ``pyaz-uci``.

:class:`UciServer` takes one input line at a time (:meth:`UciServer.handle`) and writes its
output lines through a callback, so it can be driven in-process; :meth:`UciServer.serve` runs it
on a pair of text streams. ``go`` searches in a background thread, so ``stop``, ``isready`` and
``quit`` are answered while it thinks; :meth:`UciServer.wait` waits for the search to finish.
The input is never blocked by a search: a ``go`` or ``ucinewgame`` sent while a search runs
stops that search first (it answers its ``bestmove``), as a ``stop`` would.

Supported: ``uci`` (``id``, the options, ``uciok``), ``isready``, ``ucinewgame``, ``setoption``
(``UCI_Variant`` racingkings only, ``Nodes``, ``Move Overhead``), ``position startpos|fen FEN
[moves ...]``, ``go`` with ``nodes``, ``movetime``,
``depth`` (``depth d`` means ``d * DEPTH_SIMULATIONS`` simulations), ``wtime``/``btime``/
``winc``/``binc``/``movestogo``, ``infinite``; ``stop``, ``ponderhit`` (taken as ``stop``),
``debug``, ``d`` (show the board, as Stockfish), ``quit``. A ``go`` without limits runs the
default number of simulations. Illegal input is answered with ``info string error: ...`` and the
previous position (or option value) is kept. Option values beyond the range that ``uci``
advertises are refused. A ``go nodes`` below 1 searches one node (said in an ``info string``):
every ``go`` is answered with a searched ``bestmove``.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

from pyaz._core import RacingKings
from pyaz._version import __version__
from pyaz.engines.search import EngineSearch, ThinkResult, value_to_centipawns
from pyaz.games.profiles import games_where, profile

__all__ = [
    "DEPTH_SIMULATIONS",
    "MAX_MOVE_OVERHEAD",
    "MAX_NODES",
    "GoLimits",
    "UciServer",
    "parse_go",
]

log = logging.getLogger("pyaz.engines.uci")

DEPTH_SIMULATIONS = 100
"""Simulations per unit of ``go depth``: a search tree has no fixed depth, so depth maps to a
number of simulations (``go depth 5`` runs 500)."""

MAX_NODES = 100_000_000
"""The largest ``Nodes`` option (simulations of a plain ``go``), as ``uci`` advertises it."""

MAX_MOVE_OVERHEAD = 5000
"""The largest ``Move Overhead`` option in milliseconds, as ``uci`` advertises it."""

VARIANTS = tuple(
    profile(name).uci_variant for name in games_where(lambda game: bool(game.uci_variant))
)
"""The ``UCI_Variant`` values the engine plays, as the games' profiles name them."""

GO_INT_WORDS = ("wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "mate", "movetime")


@dataclass
class GoLimits:
    """The limits of one ``go`` command (times in milliseconds)."""

    wtime: int | None = None
    btime: int | None = None
    winc: int = 0
    binc: int = 0
    movestogo: int | None = None
    depth: int | None = None
    nodes: int | None = None
    mate: int | None = None
    movetime: int | None = None
    infinite: bool = False
    ponder: bool = False


def parse_go(words: list[str]) -> GoLimits:
    """The limits in the words after ``go`` (ValueError on a malformed number or word).

    ``searchmoves`` and the moves after it are not supported and raise ValueError.
    """
    limits = GoLimits()
    items = iter(words)
    for given in items:
        word = given.lower()
        if word in ("infinite", "ponder"):
            setattr(limits, word, True)
        elif word in GO_INT_WORDS:
            if (text := next(items, None)) is None:
                raise ValueError(f"go {word} needs a number")
            setattr(limits, word, _go_number(word, text))
        elif word == "searchmoves":
            raise ValueError("go searchmoves is not supported")
        else:
            raise ValueError(f"unknown go parameter {given!r}")
    return limits


MAX_GO_NUMBER = 2**62
"""The largest number a ``go`` parameter takes (larger ones are refused, not wrapped)."""


def _go_number(word: str, text: str) -> int:
    """The integer value of ``go WORD TEXT`` (ValueError naming TEXT unless it is a finite number
    of at most ``MAX_GO_NUMBER`` in size; fractions are cut, as ``int``)."""
    try:
        number = float(text)
    except ValueError:
        raise ValueError(f"go {word} {text!r} is not a number") from None
    if not abs(number) <= MAX_GO_NUMBER:
        raise ValueError(f"go {word} {text!r} is out of range (at most {MAX_GO_NUMBER})")
    return int(number)


def _spin_value(option: str, text: str, low: int, high: int) -> int:
    """The value of spin option ``option`` (ValueError naming it unless ``text`` is an integer in
    ``low..high``, the range that ``uci`` advertises)."""
    if not text.isdigit() or not low <= int(text) <= high:
        raise ValueError(f"{option} must be an integer in {low}..{high}, got {text!r}")
    return int(text)


class UciServer:
    """A UCI engine for Racing Kings playing with ``engine``.

    ``write`` receives each output line (without its newline); it is called from the input
    thread and from the search thread, one line at a time under a lock. ``nodes`` is the number
    of simulations of a ``go`` without limits; ``move_overhead_ms`` is kept back from every
    clock budget for the I/O.
    """

    def __init__(
        self,
        engine: EngineSearch,
        write: Callable[[str], None],
        *,
        nodes: int = 1000,
        move_overhead_ms: int = 30,
        name: str = "pyaz",
    ) -> None:
        if not 1 <= nodes <= MAX_NODES:
            raise ValueError(f"nodes must be in 1..{MAX_NODES}, got {nodes}")
        if not 0 <= move_overhead_ms <= MAX_MOVE_OVERHEAD:
            raise ValueError(
                f"move_overhead_ms must be in 0..{MAX_MOVE_OVERHEAD}, got {move_overhead_ms}"
            )
        self.engine = engine
        self.nodes = nodes
        self.move_overhead_ms = move_overhead_ms
        self.name = name
        self._write = write
        self._write_lock = threading.Lock()
        self.start_fen = RacingKings.STANDARD_FEN
        self.moves: list[str] = []
        self.actions: list[int] = []
        self.state = RacingKings(self.start_fen)
        self.quit = False
        self.debug = False
        self.last_result: ThinkResult | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------------ I/O

    def send(self, line: str) -> None:
        """Writes one output line."""
        with self._write_lock:
            self._write(line)

    def error(self, message: str) -> None:
        """Reports a bad input line (UCI has no error reply; engines send an info string)."""
        self.send(f"info string error: {message}")

    def serve(self, stdin: TextIO, stdout: TextIO) -> int:
        """Answers ``stdin`` on ``stdout`` until ``quit`` or the end of input."""
        try:
            while not self.quit and (line := stdin.readline()):
                self.handle(line)
        finally:  # a search thread must not outlive the input (nor the interpreter)
            self.stop()
        return 0

    @property
    def searching(self) -> bool:
        """Whether a ``go`` is running."""
        return self._thread is not None and self._thread.is_alive()

    def wait(self, timeout: float | None = None) -> bool:
        """Waits for the running search to end; returns whether it has."""
        thread = self._thread
        if thread is not None:
            thread.join(timeout)
        return thread is None or not thread.is_alive()

    def stop(self) -> None:
        """Stops the running search (it answers ``bestmove``) and waits for it."""
        self._stop.set()
        self.wait()

    # ------------------------------------------------------------------ commands

    def handle(self, line: str) -> None:
        """Processes one input line (unknown commands are reported and ignored)."""
        words = line.split()
        if not words:
            return
        command, args = words[0], words[1:]
        handler = {
            "uci": self._uci,
            "isready": lambda args: self.send("readyok"),
            "ucinewgame": self._ucinewgame,
            "setoption": self._setoption,
            "position": self._position,
            "go": self._go,
            "stop": lambda args: self.stop(),
            "ponderhit": lambda args: self.stop(),
            "debug": self._debug,
            "d": self._show,
            "register": lambda args: None,
            "quit": self._quit,
        }.get(command)
        if handler is None:
            self.error(f"unknown command {command!r}")
            return
        try:
            handler(args)
        except ValueError as err:
            self.error(str(err))
        except Exception as err:  # never let one bad line end the engine (and abort a search)
            log.exception("command %r failed", line.strip())
            self.error(f"{command} failed: {type(err).__name__}: {err}")

    def _uci(self, args: list[str]) -> None:
        self.send(f"id name {self.name} {__version__} ({self.engine.description})")
        self.send("id author the pyaz developers")
        variants = " ".join(f"var {variant}" for variant in VARIANTS)
        self.send(f"option name UCI_Variant type combo default {VARIANTS[0]} {variants}")
        self.send(f"option name Nodes type spin default {self.nodes} min 1 max {MAX_NODES}")
        self.send(
            f"option name Move Overhead type spin default {self.move_overhead_ms} "
            f"min 0 max {MAX_MOVE_OVERHEAD}"
        )
        self.send("uciok")

    def _debug(self, args: list[str]) -> None:
        self.debug = bool(args) and args[0].lower() == "on"

    def _quit(self, args: list[str]) -> None:
        self.quit = True
        self.stop()

    def _ucinewgame(self, args: list[str]) -> None:
        self.stop()  # the engine's tree is dropped below: no search may be using it
        self._set_position(RacingKings.STANDARD_FEN, [])
        self.engine.forget()

    def _setoption(self, args: list[str]) -> None:
        text = " ".join(args)
        if not text.lower().startswith("name "):
            raise ValueError(f"setoption needs 'name': {text!r}")
        name, _, value = text[5:].partition(" value ")
        name, value = name.strip().lower(), value.strip()
        if name == "uci_variant" and value.lower() not in VARIANTS:
            plays = " or ".join(VARIANTS)
            raise ValueError(f"unsupported UCI_Variant {value!r}; this engine plays {plays}")
        if name == "nodes":
            self.nodes = _spin_value("Nodes", value, 1, MAX_NODES)
        elif name == "move overhead":
            self.move_overhead_ms = _spin_value("Move Overhead", value, 0, MAX_MOVE_OVERHEAD)
        elif name != "uci_variant":
            raise ValueError(f"unknown option {name!r}")

    def _position(self, args: list[str]) -> None:
        if not args:
            raise ValueError("position needs startpos or fen")
        cut = args.index("moves") if "moves" in args else len(args)
        head, moves = args[:cut], args[cut + 1 :]
        if head == ["startpos"]:
            fen = RacingKings.STANDARD_FEN
        elif len(head) > 1 and head[0] == "fen":
            fen = " ".join(head[1:])
        else:
            raise ValueError(f"position needs 'startpos' or 'fen FEN', got {' '.join(args)!r}")
        self._set_position(fen, moves)

    def _set_position(self, fen: str, moves: list[str]) -> None:
        """Sets the position, or raises ValueError and keeps the previous one."""
        state = RacingKings.from_fen(fen)
        actions = []
        for number, move in enumerate(moves):
            try:
                actions.append(int(state.push_uci(move)))
            except ValueError as error:
                raise ValueError(
                    f"move {number + 1} ({move!r}) cannot be played; the position is "
                    f"unchanged: {error}"
                ) from None
        self.start_fen, self.moves, self.actions, self.state = fen, list(moves), actions, state

    def _show(self, args: list[str]) -> None:
        for line in str(self.state).splitlines():
            self.send(line)

    # ------------------------------------------------------------------ search

    def _go(self, args: list[str]) -> None:
        limits = parse_go(args)
        if limits.nodes is not None and limits.nodes < 1:
            self.send(f"info string go nodes {limits.nodes} is below 1; searching 1 node")
            limits.nodes = 1
        self.stop()  # a go while searching ends that search (so that the input is never blocked)
        self._stop = threading.Event()
        search = (self.state.clone(), self.start_fen, tuple(self.actions), limits, self._stop)
        self._thread = threading.Thread(target=self._search, args=search, daemon=True)
        self._thread.start()

    def _budget(self, limits: GoLimits, white: bool) -> tuple[int | None, float | None]:
        """(simulations, seconds) for ``limits``; (None, None) means until stopped."""
        if limits.infinite or limits.ponder:
            return None, None
        counts = [] if limits.nodes is None else [limits.nodes]
        if limits.depth is not None:
            counts.append(max(1, limits.depth) * DEPTH_SIMULATIONS)
        millis: list[float] = [] if limits.movetime is None else [limits.movetime]
        clock = limits.wtime if white else limits.btime
        if clock is not None:
            increment = limits.winc if white else limits.binc
            millis.append(min(clock / (limits.movestogo or 30) + 0.75 * increment, clock / 2))
        if not counts and not millis:
            return self.nodes, None
        seconds = [max(0.0, ms - self.move_overhead_ms) / 1000 for ms in millis]
        return min(counts, default=None), min(seconds, default=None)

    def _search(
        self,
        state: RacingKings,
        origin: str,
        line: tuple[int, ...],
        limits: GoLimits,
        stop: threading.Event,
    ) -> None:
        white = state.to_move() == 0
        simulations, seconds = self._budget(limits, white)
        waits_for_stop = limits.infinite or limits.ponder
        try:
            if state.is_terminal():
                if waits_for_stop:
                    stop.wait()
                self.send("info string the game is over")
                self.send("bestmove (none)")
                return
            result = self.engine.think(
                state,
                origin,
                line,
                simulations=simulations,
                seconds=seconds,
                stop=stop,
                progress=lambda progress: self._info(state, progress),
            )
            self.last_result = result
            self._info(state, result)
            if waits_for_stop:
                stop.wait()
            assert result.action is not None
            self.send(f"bestmove {state.uci(result.action)}")
        except Exception as error:  # keep the protocol alive: answer with some legal move
            log.exception("search failed")
            self.error(f"search failed: {error}")
            legal = state.legal_uci()
            self.send(f"bestmove {legal[0] if legal else '(none)'}")

    def _info(self, state: RacingKings, result: ThinkResult) -> None:
        millis = max(1, int(result.seconds * 1000))
        nps = int(result.simulations * 1000 / millis)
        pv = "" if result.action is None else f" pv {state.uci(result.action)}"
        self.send(
            f"info nodes {result.simulations} nps {nps} time {millis} "
            f"score cp {value_to_centipawns(result.value)}{pv}"
        )
        if self.debug:
            self.send(
                f"info string visits {result.visits} tree {result.tree_size} "
                f"reused {str(result.reused).lower()} value {result.value:+.4f}"
            )
