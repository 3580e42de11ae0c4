"""A GTP (Go Text Protocol, version 2) engine: pyaz's search playing Go, or Othello.

:class:`GtpServer` answers one command line at a time (:meth:`GtpServer.handle`), so it can be
driven in-process; :meth:`GtpServer.serve` runs it on a pair of text streams (``pyaz-gtp``
serves stdin/stdout), reading ahead so that ``quit`` or the end of the input stops a ``genmove``
under way. Answers are ``=[id] text`` or ``?[id] message`` followed by an empty
line; a bad command is answered with ``?`` and never stops the engine.

The board keeps the list of moves played since ``clear_board`` and is rebuilt from it on
``undo``. GTP lets a controller play either colour at any time (handicap stones, a side that
passes silently, moves after both sides passed); pyaz's states alternate and end after two
passes, so when a move comes for the side that is not to move, or after the game has ended,
the position is restarted from its stones with that side to move (Go: ``Go.with_stones``;
Othello: the board text with the other side to move, or a pass when the side to move has no
move). A restart forgets ko and the superko history, as a fresh board would.

Go is scored by Tromp-Taylor area (stones plus empty regions reaching only one colour, minus
komi; no dead stones are removed), Othello by the disc count (at the end of the game the empty
squares go to the winner, as gtp-rhino and the World Othello Federation count).
"""

from __future__ import annotations

import logging
import math
import queue
import re
import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, TextIO

from pyaz._core import Go, Othello
from pyaz._version import __version__
from pyaz.engines.search import EngineSearch, ThinkResult
from pyaz.engines.text_streams import shown, tolerant
from pyaz.games import make
from pyaz.games.profiles import DEFAULT_GTP_GAME, GtpRules, games_where, profile

__all__ = ["GtpCommandError", "GtpServer"]

log = logging.getLogger("pyaz.engines.gtp")

BLACK, WHITE = 0, 1
COLOUR_NAMES = ("B", "W")
BIG_GAME_LENGTH = 1_000_000
"""Go's length cap for the engine's board: the controller, not a cap, ends a GTP game."""

_INTEGER = re.compile(r"[0-9]+")
_FLOAT = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")
"""GTP's numbers: ASCII digits only (Python's int and float also take ``_``, spaces and other
scripts' digits, so that ``komi 6_5`` would be 65)."""


READ_AHEAD = 1024
"""The most input lines :meth:`GtpServer.serve` reads ahead of the command it runs (beyond them
the controller waits, as it would on a full pipe)."""


def _command_words(line: str) -> tuple[str, list[str]] | None:
    """(id, words) of a GTP input line, control characters and the comment dropped (the id
    ``""`` when there is none); None for a line without a command (empty, or only a comment)."""
    line = "".join(ch for ch in line if ch in "\t\n" or (ord(ch) >= 32 and ord(ch) != 127))
    line = line.split("#", 1)[0].replace("\t", " ").strip()
    if not line:
        return None
    words = line.split()
    ident = words.pop(0) if _INTEGER.fullmatch(words[0]) else ""
    return ident, words


def _float(text: str) -> float:
    """A GTP float (ASCII decimal, optional exponent); ValueError if ``text`` is not one."""
    if not _FLOAT.fullmatch(text):
        raise ValueError(f"{shown(text)} is not a number")
    return float(text)


class GtpCommandError(Exception):
    """A command failed; the message is sent back after ``?``."""


@dataclass
class TimeControl:
    """``time_settings``: main time, then ``byo_stones`` moves in every ``byo_time`` seconds."""

    main_time: float
    byo_time: float
    byo_stones: int

    @property
    def unlimited(self) -> bool:
        """GTP's convention: byo-yomi time with no stones means no time limit (so do zeros)."""
        return self.byo_stones == 0 and (self.byo_time > 0 or self.main_time == 0)


_Board = Go | Othello


class _Rules:
    """What the server needs to know of a game: the state, vertices, restarts and scoring;
    ``gtp`` its profile's :class:`~pyaz.games.profiles.GtpRules`."""

    def __init__(
        self, game: str, gtp: GtpRules, size: int, komi: float | None, options: dict[str, Any]
    ) -> None:
        self.game = game
        self.gtp = gtp
        self.size = size
        self.komi = komi
        self.options = options

    def new_state(self) -> _Board:
        if not self.gtp.stones:
            return make(self.game, size=self.size)  # type: ignore[return-value]
        state = make(
            self.game,
            size=self.size,
            komi=self.komi,
            max_game_length=BIG_GAME_LENGTH,
            **self.options,
        )
        return state  # type: ignore[return-value]

    def restart(self, state: _Board, colour: int) -> _Board:
        """The position of ``state`` (which may be over) with ``colour`` to move."""
        if isinstance(state, Go):
            board = state.board().ravel()
            black = [int(i) for i in (board == 1).nonzero()[0]]
            white = [int(i) for i in (board == 2).nonzero()[0]]
            return self.new_state().with_stones(black, white, colour)  # type: ignore[union-attr]
        lines = [line for line in str(state).splitlines() if not line.endswith(" to move")]
        lines.append(f"{'XO'[colour]} to move")
        return Othello.from_text("\n".join(lines))

    @staticmethod
    def score(state: _Board) -> float:
        """Black minus White, as the module docstring says."""
        if isinstance(state, Go):
            return float(state.score())
        board = state.board()
        difference = int((board == 1).sum() - (board == 2).sum())
        if state.is_terminal() and difference:
            empty = int((board == 0).sum())
            difference += empty if difference > 0 else -empty
        return float(difference)

    @staticmethod
    def vertex(state: _Board, action: int) -> str:
        """The GTP vertex of ``action``: upper case, or ``pass``."""
        return "pass" if action == state.pass_action else state.action_to_str(action).upper()


RULES: dict[str, tuple[tuple[int, ...], int]] = {
    name: (rules.sizes, rules.default_size)
    for name in games_where(lambda game: game.gtp is not None)
    for rules in [profile(name).gtp]
    if rules is not None
}
"""The games: name -> (the board sizes it is played on, the default size), as their profiles'
:class:`~pyaz.games.profiles.GtpRules` say."""


@dataclass(frozen=True)
class _Position:
    """The board after a list of moves: the state, and its origin and line for tree reuse."""

    state: _Board
    origin: Hashable
    line: tuple[int, ...]


class GtpServer:
    """A GTP engine for ``game`` (one of :data:`RULES`: Go or Othello) playing with ``engine``.

    ``simulations`` is the number of new simulations per ``genmove``; ``max_seconds`` (if
    given) caps the time per move, and so do the clock commands (``time_settings``,
    ``time_left``, ``kgs-time_settings``). ``resign_threshold`` > 0 makes the engine resign
    when the root value of the side to move falls below ``-resign_threshold`` (0: never).
    ``fixed_size`` (a network's board size) restricts ``boardsize`` to that one size.
    ``go_options`` go to :class:`pyaz.Go` (``superko``, ``allow_suicide``, ``history``).
    """

    def __init__(
        self,
        engine: EngineSearch,
        *,
        game: str = DEFAULT_GTP_GAME,
        size: int | None = None,
        komi: float | None = None,
        simulations: int = 1000,
        max_seconds: float | None = None,
        resign_threshold: float = 0.0,
        fixed_size: int | None = None,
        go_options: dict[str, Any] | None = None,
        name: str = "pyaz",
    ) -> None:
        if game not in RULES:
            raise ValueError(f"unknown GTP game {game!r}; known: {', '.join(RULES)}")
        if simulations < 1:
            raise ValueError(f"simulations must be >= 1, got {simulations}")
        sizes, default_size = RULES[game]
        size = size if size is not None else (fixed_size or default_size)
        allowed = (fixed_size,) if fixed_size is not None else sizes
        if size not in allowed:
            raise ValueError(f"{game} board size {size} is not supported; use one of {allowed}")
        self.engine = engine
        self.name = name
        self.simulations = simulations
        self.max_seconds = max_seconds
        self.resign_threshold = resign_threshold
        self.allowed_sizes = allowed
        gtp = profile(game).gtp
        assert gtp is not None  # a game of RULES
        self.rules = _Rules(game, gtp, size, komi, dict(go_options or {}) if gtp.stones else {})
        self.moves: list[tuple[int, int]] = []
        self.position = self._replay([])
        self.time_control: TimeControl | None = None
        self.time_left: dict[int, tuple[float, int]] = {}
        self.quit = False
        # set: a genmove under way (or to come) stops at once, answering the move found so
        # far; serve() sets it on quit and at the end of the input
        self.stop_search = threading.Event()
        self.last_result: ThinkResult | None = None
        self.commands: dict[str, Callable[[list[str]], str]] = {
            "protocol_version": lambda args: "2",
            "name": lambda args: self.name,
            "version": lambda args: f"{__version__} ({self.engine.description})",
            "known_command": self._known_command,
            "list_commands": lambda args: "\n".join(self.commands),
            "quit": self._quit,
            "boardsize": self._boardsize,
            "clear_board": lambda args: self._new_board(),
            "komi": self._komi,
            "play": self._play,
            "genmove": self._genmove,
            "reg_genmove": lambda args: self._genmove(args, "reg_genmove"),
            "kgs-genmove_cleanup": self._genmove,
            "undo": self._undo,
            "showboard": self._showboard,
            "final_score": lambda args: self._score_text(),
            "final_status_list": self._final_status_list,
            "time_settings": self._time_settings,
            "kgs-time_settings": self._kgs_time_settings,
            "time_left": self._time_left,
            "set_free_handicap": self._set_free_handicap,
        }
        if not gtp.stones:
            for go_only in ("kgs-genmove_cleanup", "final_status_list", "set_free_handicap"):
                del self.commands[go_only]

    # ------------------------------------------------------------------ the protocol

    @property
    def state(self) -> _Board:
        """The current position (do not modify it)."""
        return self.position.state

    def handle(self, line: str) -> str | None:
        """Answers one line of input: the full answer text (ending in an empty line), or None
        for a line without a command (empty, or only a comment)."""
        parsed = _command_words(line)
        if parsed is None:
            return None
        ident, words = parsed
        if not words:
            return f"?{ident} missing command\n\n"
        handler = self.commands.get(words[0].lower())
        if handler is None:
            return f"?{ident} unknown command\n\n"
        try:
            text = handler(words[1:])
        except GtpCommandError as failure:
            return f"?{ident} {failure}\n\n"
        except Exception as error:  # never crash on a command; report it instead
            log.exception("command %r failed", line)
            return f"?{ident} internal error: {error}\n\n"
        first, *rest = text.split("\n")
        text = "\n".join([first.rstrip(), *(part.rstrip() for part in rest if part.strip())])
        return f"={ident} {text}\n\n"

    def serve(self, stdin: TextIO, stdout: TextIO) -> int:
        """Answers commands from ``stdin`` on ``stdout`` until ``quit`` or the end of input;
        no byte stops the engine (:func:`~pyaz.engines.text_streams.tolerant`). A thread reads
        the input while commands run, so that a ``quit`` or the end of the input stops a
        ``genmove`` under way at once (:attr:`stop_search`; the move found so far is answered),
        and a controller that goes away leaves no engine searching."""
        tolerant(stdin, stdout)
        self.stop_search.clear()
        lines: queue.Queue[str | None] = queue.Queue(maxsize=READ_AHEAD)
        reader = threading.Thread(target=self._read, args=(stdin, lines), daemon=True)
        reader.start()
        while not self.quit and (line := lines.get()) is not None:
            answer = self.handle(line)
            if answer is not None:
                stdout.write(answer)
                stdout.flush()
        return 0

    def _read(self, stdin: TextIO, lines: queue.Queue[str | None]) -> None:
        """Puts the lines of ``stdin`` into ``lines``, then None at its end; a ``quit`` and the
        end (or a failed read) set :attr:`stop_search`."""
        try:
            for line in iter(stdin.readline, ""):
                parsed = _command_words(line)
                if parsed is not None and parsed[1][:1] and parsed[1][0].lower() == "quit":
                    self.stop_search.set()
                lines.put(line)
        except (OSError, ValueError):  # a closed or failing stdin ends the input
            pass
        finally:
            self.stop_search.set()
            lines.put(None)

    # ------------------------------------------------------------------ the board

    def _replay(self, moves: list[tuple[int, int]]) -> _Position:
        position = _Position(self.rules.new_state(), "start", ())
        for colour, action in moves:
            position = self._after(position, colour, action)
        return position

    def _to_move(self, position: _Position, colour: int) -> _Position:
        """``position`` with ``colour`` to move (not modified): as it is, or after a forced pass
        of the other side (kept in the line), or restarted from its stones."""
        state, pass_action = position.state, position.state.pass_action
        if not state.is_terminal():
            if state.to_move() == colour:
                return position
            if state.legal_actions() == [pass_action]:
                line = (*position.line, pass_action)
                return self._to_move(
                    _Position(state.child(pass_action), position.origin, line), colour
                )
        state = self.rules.restart(state, colour)
        if state.is_terminal() or state.to_move() != colour:
            raise GtpCommandError("illegal move: the game is over")
        return _Position(state, ("restart", str(state), state.ply), ())

    def _after(self, position: _Position, colour: int, action: int) -> _Position:
        """The position after ``colour`` plays ``action`` (GtpCommandError if illegal)."""
        position = self._to_move(position, colour)
        if not position.state.is_legal(action):
            raise GtpCommandError("illegal move")
        return _Position(position.state.child(action), position.origin, (*position.line, action))

    def _commit(self, colour: int, action: int, position: _Position | None = None) -> None:
        """Plays ``action`` for ``colour`` in ``position`` (default: the current one)."""
        self.position = self._after(position or self.position, colour, action)
        self.moves.append((colour, action))

    @staticmethod
    def _arity(args: list[str], count: int, usage: str) -> None:
        if len(args) != count:
            raise GtpCommandError(f"syntax error: {usage}")

    def _colour(self, text: str) -> int:
        word = text.lower()
        if word in ("b", "black", "w", "white"):
            return BLACK if word[0] == "b" else WHITE
        raise GtpCommandError(f"invalid color {shown(text)}")

    def _vertex_action(self, text: str) -> int:
        try:
            return int(self.state.str_to_action(text))
        except ValueError as error:
            raise GtpCommandError(f"invalid coordinate {shown(text)}: {error}") from None

    def _new_board(self) -> str:
        self.moves = []
        self.position = self._replay([])
        self.engine.forget()
        return ""

    # ------------------------------------------------------------------ commands

    def _known_command(self, args: list[str]) -> str:
        self._arity(args, 1, "known_command takes one command name")
        return "true" if args[0].lower() in self.commands else "false"

    def _quit(self, args: list[str]) -> str:
        self.quit = True
        return ""

    def _boardsize(self, args: list[str]) -> str:
        if len(args) != 1 or not _INTEGER.fullmatch(args[0]):
            raise GtpCommandError("syntax error: boardsize takes one integer")
        digits = args[0].lstrip("0")
        size = int(digits or "0") if len(digits) <= 3 else 0  # thousands of digits: no int()
        if size not in self.allowed_sizes:
            raise GtpCommandError("unacceptable size")
        self.rules.size = size
        return self._new_board()

    def _komi(self, args: list[str]) -> str:
        self._arity(args, 1, "komi takes one number")
        try:
            komi = _float(args[0])
        except ValueError as error:
            raise GtpCommandError(f"syntax error: komi {error}") from None
        if not math.isfinite(komi):
            raise GtpCommandError(f"syntax error: komi {shown(args[0])} is not finite")
        if self.rules.gtp.stones and komi != self.rules.komi:
            self.rules.komi = komi
            self.position = self._replay(self.moves)
        return ""

    def _play(self, args: list[str]) -> str:
        self._arity(args, 2, "play takes a color and a vertex")
        colour = self._colour(args[0])
        self._commit(colour, self._vertex_action(args[1]))
        return ""

    def _choose(self, colour: int) -> tuple[int | None, _Position]:
        """The engine's action for ``colour`` (None: resign) and the position it was chosen in."""
        position = self._to_move(self.position, colour)
        state = position.state
        legal = state.legal_actions()
        if len(legal) == 1:
            return int(legal[0]), position
        result = self.engine.think(
            state,
            position.origin,
            position.line,
            simulations=self.simulations,
            seconds=self._move_seconds(colour, state),
            stop=self.stop_search,
        )
        self.last_result = result
        assert result.action is not None
        log.info(
            "%s %s: %d simulations (%d visits, tree %s) in %.2f s, value %+.3f",
            COLOUR_NAMES[colour],
            self.rules.vertex(state, result.action),
            result.simulations,
            result.visits,
            "reused" if result.reused else "new",
            result.seconds,
            result.value,
        )
        if self.resign_threshold > 0 and result.value < -self.resign_threshold:
            return None, position
        return result.action, position

    def _genmove(self, args: list[str], command: str = "genmove") -> str:
        self._arity(args, 1, f"{command} takes a color")
        colour = self._colour(args[0])
        if not self.rules.gtp.stones and self.state.is_terminal():
            return "pass"
        action, position = self._choose(colour)
        if action is None:
            return "resign"
        if command == "genmove":  # reg_genmove only tells the move
            self._commit(colour, action, position)
        return self.rules.vertex(position.state, action)

    def _undo(self, args: list[str]) -> str:
        if not self.moves:
            raise GtpCommandError("cannot undo")
        self.moves.pop()
        self.position = self._replay(self.moves)
        return ""

    def _showboard(self, args: list[str]) -> str:
        lines = [line.rstrip() for line in str(self.state).splitlines() if line.strip()]
        lines.append(f"moves played: {len(self.moves)}  score now: {self._score_text()}")
        return "\n" + "\n".join(lines)

    def _score_text(self) -> str:
        score = self.rules.score(self.state)
        return f"{'B' if score > 0 else 'W'}+{abs(score):g}" if score else "0"

    def _final_status_list(self, args: list[str]) -> str:
        if len(args) != 1 or args[0].lower() not in ("alive", "dead", "seki"):
            raise GtpCommandError("syntax error: final_status_list takes alive, dead or seki")
        if args[0].lower() != "alive":
            return ""  # Tromp-Taylor: every stone on the board counts as alive
        board = self.state.board().ravel()
        return " ".join(self.rules.vertex(self.state, int(a)) for a in board.nonzero()[0])

    def _set_free_handicap(self, args: list[str]) -> str:
        if not args:
            raise GtpCommandError("syntax error: set_free_handicap takes vertices")
        if self.moves:
            raise GtpCommandError("board not empty")
        actions = [self._vertex_action(vertex) for vertex in args]
        if len(set(actions)) != len(actions) or self.state.pass_action in actions:
            raise GtpCommandError("bad vertex list")
        moves = [(BLACK, action) for action in actions]
        try:
            self.position = self._replay(moves)
        except GtpCommandError:
            raise GtpCommandError("bad vertex list") from None
        self.moves = moves
        return ""

    # ------------------------------------------------------------------ clocks

    def _numbers(self, args: list[str], count: int, name: str) -> list[float]:
        try:
            self._arity(args, count, f"{name} takes {count} numbers")
            values = [_float(arg) for arg in args]
        except ValueError:
            raise GtpCommandError(f"syntax error: {name} takes {count} numbers") from None
        if any(not math.isfinite(v) or v < 0 for v in values):
            raise GtpCommandError(f"syntax error: {name} takes non-negative numbers")
        return values

    def _set_clock(self, control: TimeControl | None) -> str:
        self.time_control = control
        self.time_left = {}
        return ""

    def _time_settings(self, args: list[str]) -> str:
        main_time, byo_time, byo_stones = self._numbers(args, 3, "time_settings")
        return self._set_clock(TimeControl(main_time, byo_time, int(byo_stones)))

    def _kgs_time_settings(self, args: list[str]) -> str:
        if not args:
            raise GtpCommandError("syntax error: kgs-time_settings takes a system and its numbers")
        system = args[0].lower()
        if system == "none":
            return self._set_clock(None)
        if system not in ("absolute", "byoyomi", "canadian"):
            raise GtpCommandError(f"syntax error: unknown time system {shown(args[0])}")
        count = 1 if system == "absolute" else 3
        numbers = self._numbers(args[1:], count, f"kgs-time_settings {system}")
        main_time, byo_time, stones = (*numbers, 0.0, 0.0)[:3]
        if system == "byoyomi":  # periods of one stone each
            stones = 1 if stones else 0
        return self._set_clock(TimeControl(main_time, byo_time, int(stones)))

    def _time_left(self, args: list[str]) -> str:
        self._arity(args, 3, "time_left takes a color, seconds and stones")
        colour = self._colour(args[0])
        seconds, stones = self._numbers(args[1:], 2, "time_left")
        self.time_left[colour] = (seconds, int(stones))
        return ""

    def _move_seconds(self, colour: int, state: _Board) -> float | None:
        """The time to spend on this move: ``max_seconds`` and the clock, whichever is less."""
        limits = [] if self.max_seconds is None else [self.max_seconds]
        control = self.time_control
        if control is not None and not control.unlimited:
            if colour in self.time_left:
                seconds, stones = self.time_left[colour]
            elif control.main_time > 0:
                seconds, stones = control.main_time, 0
            else:
                seconds, stones = control.byo_time, control.byo_stones
            if stones > 0:  # in byo-yomi: share the period's time among its stones
                limits.append(0.8 * seconds / stones)
            else:
                empty = int((state.board() == 0).sum())
                share = seconds / max(10, empty // 2)
                if control.byo_stones > 0:
                    share = max(share, 0.8 * control.byo_time / control.byo_stones)
                limits.append(min(share, 0.5 * seconds))
            limits = [max(0.0, limit - 0.05) for limit in limits]  # a margin for the I/O
        return min(limits) if limits else None
