"""A Gomocup / Piskvork ``pbrain`` engine: any Gomoku player (``pyaz-gomocup`` gives it the
mentor or an AlphaGomoku pair) in the managers that Gomoku players use (Piskvork, the Gomocup
manager, gomocup's ``piskvork`` tournaments), beside the GTP and UCI servers.

The protocol (https://plastovicka.github.io/protocl2en.htm) as the brain sees it, one command
a line on stdin, answers on stdout; coordinates are ``x,y`` = column,row from 0:

- ``START N``: a new N x N game; ``OK``, or ``ERROR message`` for a size the player cannot play.
- ``RESTART``: the same size again; ``OK``.
- ``BEGIN``: the brain moves first; answers its move.
- ``TURN x,y``: the opponent played x,y; answers the brain's move.
- ``BOARD`` then lines ``x,y,who`` (1 the brain's stone, 2 the opponent's, 3 a continuous-game
  stone of the opponent) and ``DONE``: the position so far, in move order; answers a move. The
  block is taken whole or not at all: a bad line (another ``who``, a cell off the board, an
  occupied cell, a stone after the game ended) gets ``ERROR message`` and the position before
  the block stays.
- ``TAKEBACK x,y``: the stone at x,y is removed (it must be the last one); ``OK``.
- ``INFO key value``: ``timeout_turn`` / ``timeout_match`` / ``time_left`` (ms) set the mentor's
  time per move (see :meth:`GomocupBrain.move_time_ms`); ``rule`` 1 (exactly five) turns
  overlines off; renju (4) is answered with ``MESSAGE`` and played as free-style. No answer,
  except ``ERROR message`` for a value of these keys (or ``max_memory``, ``game_type``) that is
  not a whole number >= 0; values above ``MAX_INFO_VALUE`` count as ``MAX_INFO_VALUE``. Other
  keys (``folder``, ``evaluate``, ...) are ignored.
- ``ABOUT``: ``name="pyaz", version=..., author=..., country=...``.
- ``END``: the brain exits.

Anything else gets ``UNKNOWN message``; a malformed or illegal move gets ``ERROR message``.
Numbers are ASCII digits (no sign, ``_`` or other scripts' digits). Input bytes that are not
UTF-8 are read as U+FFFD (and answered with ``ERROR``), never stop the brain (:func:`serve`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import IO, Protocol

from pyaz._core import Gomoku
from pyaz._version import __version__
from pyaz.engines.text_streams import shown, tolerant

__all__ = [
    "DEFAULT_TIMEOUT_TURN_MS",
    "MAX_INFO_VALUE",
    "MAX_MOVE_MS",
    "GomocupBrain",
    "serve",
]

DEFAULT_TIMEOUT_TURN_MS = 5000
"""The turn time a brain assumes until the manager says (Gomocup's own default is 5 s)."""

MAX_INFO_VALUE = 2**31 - 1
"""The largest ``INFO`` number kept (the managers' 32-bit limit, about 24.8 days in ms): a
larger one counts as this, so that a huge ``timeout_turn`` means 'no limit per turn'."""

MAX_MOVE_MS = 600_000.0
"""The most the brain thinks on one move (10 minutes), whatever the manager allows."""

NUMERIC_INFO = ("timeout_turn", "timeout_match", "time_left", "max_memory", "game_type", "rule")
"""The ``INFO`` keys whose value is a whole number >= 0 (anything else there is an ERROR)."""

_NUMBER = re.compile(r"[0-9]+")
_HUGE = 10**18


def _whole_number(text: str, what: str) -> int:
    """``text`` as a whole number >= 0 in ASCII digits (more than 18 digits count as 10**18);
    ValueError naming ``what`` and the text otherwise (a sign, ``_``, other scripts' digits)."""
    text = text.strip()
    if not _NUMBER.fullmatch(text):
        raise ValueError(f"{what} must be a whole number >= 0, got {shown(text)}")
    digits = text.lstrip("0")
    return _HUGE if len(digits) > 18 else int(digits or "0")


class Player(Protocol):
    """What the brain asks of its player (any :class:`pyaz.eval.players.Player` fits)."""

    def reset(self, state: Gomoku) -> None: ...

    def choose(self, state: Gomoku) -> int: ...

    def observe(self, action: int) -> None: ...


PlayerFactory = Callable[[Gomoku, float], Player]
"""Builds the player for a new game: (start state, time per move in ms) -> player."""


class GomocupBrain:
    """The protocol state machine: :meth:`handle` takes one line and returns the answer lines.

    ``make_player(start, time_ms)`` builds the player for each new game (and again, told of the
    moves so far, when the time per move that the manager's ``INFO`` allows changes)."""

    def __init__(self, make_player: PlayerFactory, name: str = "pyaz") -> None:
        self.make_player = make_player
        self.name = name
        self.size = 0
        self.overline_wins = True
        self.moves: list[int] = []
        self.info: dict[str, int] = {"timeout_turn": DEFAULT_TIMEOUT_TURN_MS}
        self.player: Player | None = None
        self.player_time_ms = 0.0
        self.board_lines: list[str] | None = None
        self.finished = False

    # -- time ---------------------------------------------------------------------------------

    def move_time_ms(self) -> float:
        """Time to think this move: 70% of ``timeout_turn`` (0 means as fast as possible: 50 ms),
        at most a 15th of ``time_left`` when the manager sends it, at least 10 ms and at most
        ``MAX_MOVE_MS``."""
        turn = self.info.get("timeout_turn", DEFAULT_TIMEOUT_TURN_MS)
        budget = 0.7 * turn if turn > 0 else 50.0
        left = self.info.get("time_left")
        if left is not None and left > 0:
            budget = min(budget, left / 15.0)
        return min(MAX_MOVE_MS, max(10.0, budget))

    # -- the game -----------------------------------------------------------------------------

    def _new_game(self, size: int | None = None) -> Gomoku:
        return Gomoku(self.size if size is None else size, 5, self.overline_wins)

    def _state(self) -> Gomoku:
        state = self._new_game()
        for action in self.moves:
            state.apply(action)
        return state

    def _start(self, size: int) -> list[str]:
        if not 5 <= size <= 15:
            return [f"ERROR pyaz plays boards of 5x5 to 15x15, not {size}x{size}"]
        state = self._new_game(size)
        player = self.make_player(state, self.move_time_ms())
        player.reset(state)
        self.size, self.moves, self.player = size, [], player
        self.player_time_ms = self.move_time_ms()
        return ["OK"]

    def _parse_cell(self, text: str) -> int:
        parts = text.split(",")
        if len(parts) < 2:
            raise ValueError(f"a cell is x,y, got {shown(text)}")
        x, y = (_whole_number(part, "a cell's x and y") for part in parts[:2])
        if not (0 <= x < self.size and 0 <= y < self.size):
            raise ValueError(f"{shown(text)} is off the {self.size}x{self.size} board")
        return y * self.size + x

    def _cell(self, action: int) -> str:
        y, x = divmod(action, self.size)
        return f"{x},{y}"

    def _play(self, action: int) -> None:
        state = self._state()
        if state.is_terminal() or not state.is_legal(action):
            raise ValueError(f"{self._cell(action)} is not a legal move here")
        self.moves.append(action)
        assert self.player is not None
        self.player.observe(action)

    def _tell_player(self, new: bool = False) -> None:
        """Resets the player (a new one when ``new``: the mentor's time is fixed at birth) to
        a new game and tells it of the game so far."""
        start = self._new_game()
        if new:
            self.player = self.make_player(start, self.move_time_ms())
            self.player_time_ms = self.move_time_ms()
        assert self.player is not None
        self.player.reset(start)
        for action in self.moves:
            self.player.observe(action)

    def _answer(self) -> list[str]:
        state = self._state()
        if state.is_terminal():
            return ["ERROR the game is over"]
        if self.player is None or abs(self.move_time_ms() - self.player_time_ms) >= 1.0:
            self._tell_player(new=True)  # the time per move changed
        assert self.player is not None
        action = int(self.player.choose(state))
        self._play(action)
        return [self._cell(action)]

    def _board(self, lines: list[str]) -> list[str]:
        """The position of a BOARD block, all or nothing: every line is checked (and the moves
        replayed on a board of their own) before the game so far is replaced."""
        if len(lines) > self.size * self.size:
            return [f"ERROR a BOARD block of {len(lines)} lines: more than the board's cells"]
        mine: list[int] = []
        theirs: list[int] = []
        for line in lines:
            parts = line.split(",")
            if len(parts) != 3:
                return [f"ERROR a BOARD line is x,y,who, got {shown(line)}"]
            if parts[2].strip() not in ("1", "2", "3"):
                return [f"ERROR a BOARD line's who is 1, 2 or 3, got {shown(line)}"]
            action = self._parse_cell(line)
            (mine if parts[2].strip() == "1" else theirs).append(action)
        if len(mine) == len(theirs):
            black, white = mine, theirs
        elif len(theirs) == len(mine) + 1:
            black, white = theirs, mine
        else:
            return [f"ERROR {len(mine)} own and {len(theirs)} opponent stones: not our turn"]
        order = [a for pair in zip(black, white, strict=False) for a in pair]
        order += black[len(white) :]
        state = self._new_game()
        for action in order:
            if state.is_terminal() or not state.is_legal(action):
                return [f"ERROR BOARD: {self._cell(action)} is not a legal move there"]
            state.apply(action)
        self.moves = order
        self._tell_player()
        return self._answer()

    # -- commands -----------------------------------------------------------------------------

    def handle(self, line: str) -> list[str]:
        """The answer lines to one command line (none for INFO and END)."""
        try:
            return self._handle(line.strip())
        except ValueError as error:
            return [f"ERROR {error}"]

    def _handle(self, text: str) -> list[str]:
        if self.board_lines is not None:
            if text.upper() != "DONE":
                if len(self.board_lines) <= self.size * self.size:  # more: refused at DONE
                    self.board_lines.append(text)
                return []
            lines, self.board_lines = self.board_lines, None
            return self._board(lines)
        if not text:
            return []
        command, _, rest = text.partition(" ")
        command = command.upper()
        rest = rest.strip()
        if command == "END":
            self.finished = True
            return []
        if command == "ABOUT":
            return [f'name="{self.name}", version="{__version__}", author="pyaz", country=""']
        if command == "INFO":
            return self._info(rest)
        if command == "START":
            return self._start(_whole_number(rest, "START's size"))
        if command == "RECTSTART":
            width, _, height = rest.partition(",")
            if width.strip() != height.strip():
                return ["ERROR pyaz plays square boards only"]
            return self._start(_whole_number(width, "RECTSTART's size"))
        if command == "RESTART":
            return self._start(self.size)
        if not self.size:
            return ["ERROR no game: send START first"]
        if command == "BEGIN":
            return self._answer()
        if command == "TURN":
            self._play(self._parse_cell(rest))
            return self._answer()
        if command == "BOARD":
            self.board_lines = []
            return []
        if command == "TAKEBACK":
            action = self._parse_cell(rest)
            if not self.moves or self.moves[-1] != action:
                return [f"ERROR {rest} is not the last stone"]
            self.moves.pop()
            self._tell_player()
            return ["OK"]
        return [f"UNKNOWN command {command}"]

    def _info(self, rest: str) -> list[str]:
        key, _, value = rest.partition(" ")
        key = key.lower()
        if key not in NUMERIC_INFO:
            return []  # folder, evaluate and other keys: nothing to do
        number = min(MAX_INFO_VALUE, _whole_number(value, f"INFO {key}"))
        if key == "rule":
            self.overline_wins = not number & 1
            if number & 4:
                return ["MESSAGE pyaz plays free-style Gomoku, not renju"]
            return []
        self.info[key] = number
        return []


def serve(brain: GomocupBrain, stdin: IO[str], stdout: IO[str]) -> None:
    """Reads commands from ``stdin`` until END or end of input, answering on ``stdout``.

    Streams are made tolerant of any byte (:func:`pyaz.engines.text_streams.tolerant`)."""
    tolerant(stdin, stdout)
    for line in stdin:
        for answer in brain.handle(line):
            stdout.write(answer + "\n")
        stdout.flush()
        if brain.finished:
            return
