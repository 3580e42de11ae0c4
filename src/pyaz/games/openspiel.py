"""OpenSpiel's games as pyaz games: ``pyaz.make("openspiel:breakthrough(rows=6,columns=6)")``
(or ``pyaz.make("openspiel:breakthrough", rows=6, columns=6)``) is an :class:`OpenSpielState`
wrapping a pyspiel state, which follows :class:`~pyaz.games.state.BoardGameState`.

Only the games pyaz's search and training handle are taken: two players, perfect information,
sequential moves, no chance, zero-sum returns of -1, 0 or 1, and an observation tensor; any
other is a ValueError saying which of these it breaks. pyspiel (the ``open_spiel`` package) is
optional: ``pip install "pyaz[openspiel]"``.

The planes are the observation tensor of the side to move (OpenSpiel's shape, one or two
dimensions padded to three: ``(C, H, W)``; hex's, declared as ``(C, columns, rows)``, read row
by row as it is written) and one more plane, all ones when the second player
is to move (many of OpenSpiel's observations, breakthrough's among them, do not say whose turn
it is, which the value from the side to move's point of view needs).

The board page (``pyaz-board``) draws the games of :data:`BOARDS`, those whose observation
tensor is one plane (or a set of planes) per side's pieces: their states are
:class:`OpenSpielBoardState`, with ``board()`` read from that tensor and the cells of each
move found by playing it (:meth:`OpenSpielBoardState.action_cells`). The other games' states
have no ``board()`` (checkers' kings, amazons' arrows, chess's pieces are more than a side's
piece on a cell), and the board refuses them as it refuses any game without one.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Self

import numpy as np

from pyaz._core import Status
from pyaz.common.imports import import_interruptibly
from pyaz.common.shown import cut

__all__ = [
    "BOARDS",
    "INSTALL_HINT",
    "BoardReading",
    "OpenSpielBoardState",
    "OpenSpielGame",
    "OpenSpielState",
    "load_openspiel",
    "load_pyspiel",
    "openspiel_factory",
]

INSTALL_HINT = 'pip install "pyaz[openspiel]"'
"""How to install what OpenSpiel's games need."""

_OPTION_TYPES = (bool, int, float, str)
Cell = list[int] | None


@dataclass(frozen=True)
class BoardReading:
    """How ``board()`` reads one of OpenSpiel's games from its observation tensor (player 0's):

    - ``planes``: by the tensor's number of planes, (the planes of the first player's pieces,
      those of the second player's); a tensor of another number of planes is not read;
    - ``bottom_up``: the tensor's row 0 is the bottom row of OpenSpiel's drawing (``str``), so
      the rows are turned over (row 0 of ``board()`` is always the top one);
    - ``view``: how the board page draws it: ``stones`` (a move puts a piece on a cell),
      ``columns`` (a disc dropped into a column), ``pieces`` (a move takes a piece from one cell
      to another, on a chequered board), ``hex`` (stones on a rhombus of hexagons);
    - ``labels``: how the rows and columns are named as the game's moves name them:
      ``indices`` (0, 1, ... both: ``x(row,col)``), ``columns`` (columns 0, 1, ...), ``ranks up``
      (files a, b, ...; rank 1 the bottom row), ``ranks down`` (rank 1 the top row);
    - ``sides``: the sides' names, first player first (its pieces are 1 in ``board()``);
    - ``rows_first``: the tensor is declared as ``(C, columns, rows)`` but written row by row
      (OpenSpiel's hex), so it is read as ``(C, rows, columns)``, by the board and by the
      network's planes alike (the same on a square board; on a rectangle the declared shape
      would scramble the cells).
    """

    planes: Mapping[int, tuple[tuple[int, ...], tuple[int, ...]]]
    bottom_up: bool
    view: str
    labels: str
    sides: tuple[str, str]
    rows_first: bool = False


_X_O = ("X", "O")
_BLACK_WHITE = ("Black (x)", "White (o)")
_FIRST_SECOND = {3: ((0,), (1,))}  # the first player's plane, the second's, the empty cells'
_EMPTY_O_X = {3: ((2,), (1,))}
BOARDS: dict[str, BoardReading] = {
    # black (player 0, on the top rows at the start), white, empty
    "breakthrough": BoardReading(
        _FIRST_SECOND, False, "pieces", "ranks up", ("Black (b)", "White (w)")
    ),
    # x, o, empty; the tensor's row 0 is the bottom row
    "connect_four": BoardReading(_FIRST_SECOND, True, "columns", "columns", _X_O),
    # nine cell states (o's four, empty, x's four: joined to no edge, to one, to both), or
    # with plain_obs_tensor x, o, empty; declared (C, columns, rows), written row by row
    "hex": BoardReading(
        {9: ((5, 6, 7, 8), (0, 1, 2, 3)), **_FIRST_SECOND},
        False,
        "hex",
        "ranks down",
        _BLACK_WHITE,
        rows_first=True,
    ),
    # x, o, empty; the tensor's row 0 is rank 1, the bottom row
    "lines_of_action": BoardReading(_FIRST_SECOND, True, "pieces", "ranks up", _X_O),
    "mnk": BoardReading(_EMPTY_O_X, False, "stones", "indices", _X_O),
    # empty, the player's own, the opponent's (player 0's view: x, o); a pass moves no piece
    "othello": BoardReading({3: ((1,), (2,))}, False, "stones", "ranks down", _BLACK_WHITE),
    "tic_tac_toe": BoardReading(_EMPTY_O_X, False, "stones", "indices", _X_O),
}
"""The OpenSpiel games the board page draws, by OpenSpiel's short name (``get_type().short_name``),
and how their observation tensors read as a board; each checked against OpenSpiel's own drawing
(``str``) in tests/test_openspiel_games.py."""


def load_pyspiel() -> Any:
    """The pyspiel module; ValueError saying how to install it when it is missing."""
    try:
        return import_interruptibly("pyspiel")
    except ImportError:
        raise ValueError(
            f"OpenSpiel's games need pyspiel, from the open_spiel package: {INSTALL_HINT}"
        ) from None


@dataclass(frozen=True)
class OpenSpielGame:
    """A loaded OpenSpiel game and what every state of it shares: its pyaz name, the shape of
    its observation tensor (as OpenSpiel writes it: hex's as ``(C, rows, columns)``, see
    :attr:`BoardReading.rows_first`), the planes' shape (``(C, H, W)``, one plane more), the
    size of its action space and its length bound."""

    game: Any
    name: str
    observation_shape: tuple[int, ...]
    planes_shape: tuple[int, int, int]
    num_actions: int
    max_game_length: int
    reading: BoardReading | None = None  # how board() reads it (None: no board(), see BOARDS)

    def new_state(self) -> OpenSpielState:
        """The start state: an :class:`OpenSpielBoardState` for a game that ``board()`` reads,
        else an :class:`OpenSpielState`."""
        return (OpenSpielState if self.reading is None else OpenSpielBoardState)(self)


def openspiel_factory(text: str) -> Callable[..., OpenSpielState]:
    """The factory of the OpenSpiel game ``text`` (``NAME`` or ``NAME(key=value,...)``): called
    with keyword options (more of the game's parameters), it loads the game
    (:func:`load_openspiel`) and returns its start state."""

    def start(**options: Any) -> OpenSpielState:
        return load_openspiel(text, options).new_state()

    return start


def load_openspiel(text: str, options: Mapping[str, Any] | None = None) -> OpenSpielGame:
    """The OpenSpiel game ``text`` with the parameters of its text and ``options``. ValueError
    naming the game when pyspiel is missing, the game is unknown, a parameter is unknown, of
    the wrong type or given twice, or the game is not one pyaz handles (see the module)."""
    pyspiel = load_pyspiel()
    params = _parameters(pyspiel, text, dict(options or {}))
    name = params.pop("name")
    if name not in pyspiel.registered_names():
        raise ValueError(f"unknown OpenSpiel game {name!r} (pyspiel.registered_names() lists them)")
    try:
        game = pyspiel.load_game(name, params)
    except pyspiel.SpielError as error:
        detail = cut(str(error).splitlines()[0], 200)
        raise ValueError(f"OpenSpiel game {text!r} with {params}: {detail}") from None
    _check_game_type(pyspiel, game)
    shape = tuple(int(n) for n in game.observation_tensor_shape())
    reading = _reading(game, shape)
    if reading is not None and reading.rows_first:
        shape = (shape[0], shape[2], shape[1])
    planes = _planes_shape(str(game), shape)
    game_name = str(game).removesuffix("()")
    return OpenSpielGame(
        game,
        f"openspiel:{game_name}",
        shape,
        (planes[0] + 1, planes[1], planes[2]),
        int(game.num_distinct_actions()),
        int(game.max_game_length()),
        reading,
    )


def _reading(game: Any, shape: tuple[int, ...]) -> BoardReading | None:
    """How ``board()`` reads ``game`` (:data:`BOARDS`), or None when it does not: another game,
    or a tensor that is not ``(C, H, W)`` with a number of planes the reading knows."""
    reading = BOARDS.get(str(game.get_type().short_name))
    if reading is None or len(shape) != 3 or shape[0] not in reading.planes:
        return None
    return reading


def _parameters(pyspiel: Any, text: str, options: dict[str, Any]) -> dict[str, Any]:
    """The game's parameters: those of ``text`` and ``options`` (with ``name``)."""
    try:
        params = dict(pyspiel.game_parameters_from_string(text))
    except pyspiel.SpielError as error:
        detail = cut(str(error).splitlines()[0], 200)
        raise ValueError(
            f"{text!r} is no OpenSpiel game ('NAME(key=value,...)'): {detail}"
        ) from None
    for key, value in options.items():
        if not isinstance(value, _OPTION_TYPES) or isinstance(value, np.generic):
            shown = cut(repr(value), 80)
            raise ValueError(
                f"OpenSpiel option {key} must be a bool, int, float or str, got {shown}"
            )
        if key == "name" or (key in params and params[key] != value):
            raise ValueError(
                f"OpenSpiel option {key} is given twice: {params.get(key)!r}, {value!r}"
            )
        params[key] = value
    return params


def _check_game_type(pyspiel: Any, game: Any) -> None:
    """ValueError naming the game and why when pyaz cannot play it (see the module)."""
    kind = game.get_type()
    problems = {
        "it has not two players": game.num_players() != 2,
        "it is not perfect information": (
            kind.information != pyspiel.GameType.Information.PERFECT_INFORMATION
        ),
        "its moves are not sequential": kind.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL,
        "it has chance": kind.chance_mode != pyspiel.GameType.ChanceMode.DETERMINISTIC,
        "it is not zero-sum": kind.utility != pyspiel.GameType.Utility.ZERO_SUM,
        "its returns are not within -1..1": game.min_utility() < -1 or game.max_utility() > 1,
        "it has no observation tensor": not kind.provides_observation_tensor,
    }
    broken = [why for why, bad in problems.items() if bad]
    if broken:
        raise ValueError(
            f"OpenSpiel game {str(game)!r} is not one pyaz plays ({'; '.join(broken)}): pyaz "
            "takes two-player, perfect-information, sequential, deterministic, zero-sum games "
            "with returns -1, 0 or 1 and an observation tensor"
        )
    if _plain_hex_off_square(kind, game):
        raise ValueError(
            f"OpenSpiel game {str(game)!r}: OpenSpiel writes hex's plain observation tensor past "
            "its end on a board that is not square (the process's memory is corrupted: seen on "
            "3x2, 4x2 and 6x5), so pyaz does not play it; without plain_obs_tensor it does"
        )


def _plain_hex_off_square(kind: Any, game: Any) -> bool:
    """Whether ``game`` is hex with ``plain_obs_tensor`` on a board that is not square."""
    if str(kind.short_name) != "hex":
        return False
    params = game.get_parameters()
    return bool(params.get("plain_obs_tensor")) and params.get("num_rows") != params.get("num_cols")


def _planes_shape(game: str, shape: tuple[int, ...]) -> tuple[int, int, int]:
    """``shape`` as ``(C, H, W)``: one dimension is one row of one plane, two one plane."""
    if len(shape) == 3:
        return (shape[0], shape[1], shape[2])
    if len(shape) == 2:
        return (1, shape[0], shape[1])
    if len(shape) == 1:
        return (1, 1, shape[0])
    raise ValueError(f"OpenSpiel game {game!r} has an observation of shape {shape}, not 1-3 D")


class OpenSpielState:
    """A position of an OpenSpiel game, as a pyaz :class:`~pyaz.games.state.BoardGameState`:
    actions are OpenSpiel's (``0..num_actions-1``), written as OpenSpiel writes them; side 0
    is OpenSpiel's player 0."""

    def __init__(self, game: OpenSpielGame, state: Any = None, last_mover: int = 1) -> None:
        """The start of ``game`` (or ``state``, a pyspiel state of it, whose last action was
        ``last_mover``'s)."""
        self.game = game
        self._state = game.game.new_initial_state() if state is None else state
        self._last_mover = last_mover

    @property
    def name(self) -> str:
        return self.game.name

    @property
    def num_actions(self) -> int:
        return self.game.num_actions

    @property
    def planes_shape(self) -> tuple[int, int, int]:
        return self.game.planes_shape

    @property
    def board_shape(self) -> tuple[int, int]:
        return (self.game.planes_shape[1], self.game.planes_shape[2])

    @property
    def max_game_length(self) -> int:
        return self.game.max_game_length

    @property
    def ply(self) -> int:
        return int(self._state.move_number())

    @property
    def pyspiel_state(self) -> Any:
        """The pyspiel state (a clone: changing it leaves this state as it is)."""
        return self._state.clone()

    def to_move(self) -> int:
        """The side to move (at the end: the side after the one that moved last)."""
        player = int(self._state.current_player())
        return player if player >= 0 else 1 - self._last_mover

    def is_terminal(self) -> bool:
        return bool(self._state.is_terminal())

    def returns(self) -> list[float]:
        """Each side's return: -1, 0 or 1 at the end, 0 before; ValueError naming the game
        when OpenSpiel gives other returns."""
        returns = [float(r) for r in self._state.returns()]
        if any(r not in (-1.0, 0.0, 1.0) for r in returns) or sum(returns) != 0:
            raise ValueError(f"{self.name} returned {returns}: pyaz takes -1, 0 or 1, zero-sum")
        return returns

    def status(self) -> Status:
        if not self.is_terminal():
            return Status.ONGOING
        first, second = self.returns()
        if first == second:
            return Status.DRAW
        return Status.FIRST_PLAYER_WIN if first > second else Status.SECOND_PLAYER_WIN

    def legal_actions(self) -> list[int]:
        return [int(a) for a in self._state.legal_actions()]

    def is_legal(self, action: Any, /) -> bool:
        legal = isinstance(action, numbers.Integral) and not isinstance(action, bool)
        return legal and int(action) in self.legal_actions()

    def legal_mask(self) -> np.ndarray:
        mask = np.zeros(self.num_actions, dtype=bool)
        mask[self.legal_actions()] = True
        return mask

    def apply(self, action: Any, /) -> None:
        """Plays ``action`` for the side to move; ValueError (the state unchanged) if it is
        not legal here."""
        if not self.is_legal(action):
            raise ValueError(f"{self.name}: action {cut(repr(action), 40)} is not legal here")
        self._last_mover = self.to_move()
        self._state.apply_action(int(action))

    def clone(self) -> Self:
        return type(self)(self.game, self._state.clone(), self._last_mover)

    def encode(self) -> np.ndarray:
        """The planes: the side to move's observation tensor as ``(C, H, W)``, then a plane of
        ones when the second player is to move (zeros when the first is)."""
        side = self.to_move()
        observation = np.asarray(self._state.observation_tensor(side), dtype=np.float32)
        channels, height, width = self.planes_shape
        planes = np.empty(self.planes_shape, dtype=np.float32)
        planes[:-1] = observation.reshape(channels - 1, height, width)
        planes[-1] = float(side)
        return planes

    def action_to_str(self, action: int) -> str:
        return str(self._state.action_to_string(self.to_move(), int(action)))

    def str_to_action(self, text: str) -> int:
        """The legal action OpenSpiel writes ``text``; ValueError if there is none."""
        try:
            return int(self._state.string_to_action(self.to_move(), text))
        except RuntimeError as error:  # pyspiel.SpielError
            detail = cut(str(error).splitlines()[0], 120)
            raise ValueError(f"{self.name}: no action reads {text!r} ({detail})") from None

    def __str__(self) -> str:
        return str(self._state)

    def __repr__(self) -> str:
        return f"<{self.name} at ply {self.ply}>"


class OpenSpielBoardState(OpenSpielState):
    """A position of an OpenSpiel game of :data:`BOARDS`: an :class:`OpenSpielState` with the
    board page's members, a :class:`~pyaz.games.state.DrawableGameState`."""

    @property
    def reading(self) -> BoardReading:
        assert self.game.reading is not None
        return self.game.reading

    @property
    def board_view(self) -> str:
        """How the board page draws the game (:attr:`BoardReading.view`)."""
        return self.reading.view

    @property
    def side_names(self) -> tuple[str, str]:
        """The sides' names, first player first."""
        return self.reading.sides

    def board(self) -> np.ndarray:
        """The cells, read from OpenSpiel's observation tensor of player 0 (:data:`BOARDS`): 0
        empty, 1 a piece of the first player, 2 of the second; row 0 is the top row of
        OpenSpiel's drawing (``str``)."""
        planes = np.asarray(self._state.observation_tensor(0), dtype=np.float32)
        planes = planes.reshape(self.game.observation_shape)
        first, second = self.reading.planes[planes.shape[0]]
        cells = np.zeros(planes.shape[1:], dtype=np.int8)
        cells[planes[list(first)].sum(axis=0) > 0] = 1
        cells[planes[list(second)].sum(axis=0) > 0] = 2
        return cells[::-1].copy() if self.reading.bottom_up else cells

    def action_cells(self, action: int) -> tuple[Cell, Cell]:
        """(from, to): the ``[row, col]`` cells of ``board()`` that the legal ``action`` moves
        the side to move's piece from and to, found by playing it on a copy. ``to`` is the cell
        that turns the mover's and was empty (Othello's flipped discs turn too), else the one
        cell that turns the mover's (a capture); ``from`` the one cell the mover's piece leaves
        empty (None for a piece put on the board); (None, None) for a move that takes no cell
        (a pass). ValueError if ``action`` is not legal here."""
        before = self.board()
        after_state = self.clone()
        after_state.apply(action)
        after = after_state.board()
        mine = self.to_move() + 1
        gained = [[int(r), int(c)] for r, c in np.argwhere((after == mine) & (before != mine))]
        placed = [cell for cell in gained if before[cell[0], cell[1]] == 0]
        left = [[int(r), int(c)] for r, c in np.argwhere((before == mine) & (after == 0))]
        to = placed[0] if len(placed) == 1 else gained[0] if len(gained) == 1 else None
        return (left[0] if len(left) == 1 and to is not None else None), to

    def board_labels(self) -> tuple[list[str], list[str]]:
        """(column labels left to right, row labels top to bottom) as the game's moves name the
        cells (:attr:`BoardReading.labels`)."""
        rows, cols = self.board_shape
        style = self.reading.labels
        if style == "indices":
            return [str(c) for c in range(cols)], [str(r) for r in range(rows)]
        if style == "columns":
            return [str(c) for c in range(cols)], ["" for _ in range(rows)]
        files = [chr(ord("a") + c) for c in range(cols)]
        if style == "ranks up":
            return files, [str(rows - r) for r in range(rows)]
        return files, [str(r + 1) for r in range(rows)]
