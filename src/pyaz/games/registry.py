"""The game registry: ``pyaz.make(name, **options)`` builds the start state of any game."""

from __future__ import annotations

import numbers
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, TypeAlias, TypeGuard, get_args, overload

import numpy as np

from pyaz._core import (
    ConnectFour,
    ConnectFourSearch,
    Go,
    Gomoku,
    GomokuSearch,
    GoSearch,
    Othello,
    OthelloSearch,
    RacingKings,
    RacingKingsSearch,
    TicTacToe,
    TicTacToeSearch,
)
from pyaz._core import perft as native_perft
from pyaz._core import random_game_lengths as native_random_game_lengths
from pyaz._core import random_playouts as native_random_playouts
from pyaz.common.shown import cut
from pyaz.games.curling import TARGETS, CurlingState, make_state
from pyaz.games.plugins import make_plugin, plugin_name, plugin_names
from pyaz.games.state import (
    INTEGER_ACTIONS,
    ActionRecord,
    BoardGameState,
    DrawableGameState,
    GameState,
    PlayableGameState,
    played,
    winner,
)

NativeGame: TypeAlias = Othello | ConnectFour | Gomoku | Go | RacingKings | TicTacToe
"""The board games of pyaz's C++ core: the type of what only they can do (their own search
classes, the exact solvers, the external engines' sessions); :func:`is_native` tells one. Code
that works on any game takes a protocol of :mod:`pyaz.games.state` instead (:func:`perft` and
the random games run in C++ for these, by a state's own methods for any other)."""

if TYPE_CHECKING:  # mypy checks that pyaz's own games follow the protocols they are played by
    from pyaz.games.examples.tictactoe import TicTacToe as PythonTicTacToe
    from pyaz.games.openspiel import OpenSpielBoardState, OpenSpielState

    _DRAWN: tuple[type[DrawableGameState], ...] = (
        Othello, ConnectFour, Gomoku, Go, RacingKings, TicTacToe, PythonTicTacToe,
        OpenSpielBoardState,
    )  # fmt: skip
    _PLAYED: type[PlayableGameState] = OpenSpielState  # no board() (openspiel.BOARDS has not it)
    _CURLING: type[GameState] = CurlingState


DEFAULT_GAME = "othello"
"""The game a command plays when none is named (``pyaz-demo``)."""

INT_RANGE = (-(2**31), 2**31 - 1)
"""The integers a game option takes at most (the C++ rules count in 32 bits); each game
checks its own, narrower range."""


@dataclass(frozen=True)
class GameSpec:
    """How to build one game: its class (or the function that builds its start state), the
    options it takes with their defaults, and aliases; ``kinds`` says what an option whose
    default is None takes (``int`` or ``float``); ``search`` is a C++ game's own search class
    (``_core.XSearch``, which :class:`pyaz.Search` and :class:`pyaz.SelfPlay` use for it; None:
    the search over a game written in Python); ``record`` how a record keeps its actions
    (integers unless the game's are not)."""

    cls: Callable[..., Any]
    options: dict[str, Any]
    aliases: tuple[str, ...] = field(default=())
    summary: str = ""
    kinds: dict[str, type] = field(default_factory=dict)
    search: type | None = None
    record: ActionRecord = INTEGER_ACTIONS


GAMES: dict[str, GameSpec] = {
    "othello": GameSpec(
        Othello,
        {"size": 8},
        ("reversi",),
        "Othello/Reversi, n x n for n in 4..8",
        search=OthelloSearch,
    ),
    "connect_four": GameSpec(
        ConnectFour,
        {"width": 7, "height": 6},
        ("connect4", "connectfour", "connect-four"),
        "Connect Four, width x height with width*(height+1) <= 64",
        search=ConnectFourSearch,
    ),
    "gomoku": GameSpec(
        Gomoku,
        {"size": 15, "line_length": 5, "overline_wins": True},
        ("gobang", "five-in-a-row"),
        "Gomoku/Gobang, n x n for n in 5..15, line_length in a row wins",
        search=GomokuSearch,
    ),
    "go": GameSpec(
        Go,
        {
            "size": 9,
            "komi": None,  # None: 7.5 from 9x9 up, 0 below (Go.default_komi)
            "superko": False,
            "allow_suicide": False,
            "max_game_length": None,  # None: 3 * size * size (Go.default_max_game_length)
            "history": 0,  # earlier positions in encode(), two planes each
        },
        ("weiqi", "baduk"),
        "Go, n x n for n in 5..19, Tromp-Taylor area scoring, komi, optional superko",
        {"komi": float, "max_game_length": int},
        search=GoSearch,
    ),
    "racingkings": GameSpec(
        RacingKings,
        {"start": "standard"},
        ("racing_kings", "racing-kings"),
        "Racing Kings; start 'standard', 'racingkings-mod' (seed 000's modified start) or a FEN",
        search=RacingKingsSearch,
    ),
    "racingkings-mod": GameSpec(
        RacingKings,
        {"start": "racingkings-mod"},
        ("racing_kings_mod", "racingkings_mod"),
        f"seed 000's modified Racing Kings: {RacingKings.MOD_FEN}",
        search=RacingKingsSearch,
    ),
    "curling": GameSpec(
        make_state,
        {"ends": 2, "noise": "gat", "physics": "fcv1", "extra_ends": 0, "seed": 0},
        (),
        "seed 002's digital curling, continuous shots with execution noise: ends in 1..100, "
        "noise 'gat', 'dc3' or 'none', physics 'fcv1' or 'gat', extra_ends in 0..100 to "
        "break a tie, seed >= 0 of the noise",
        record=TARGETS,
    ),
    "tictactoe_cpp": GameSpec(
        TicTacToe,
        {},
        ("tictactoe-cpp",),
        "tic-tac-toe in C++: the tutorial's Python game 'tictactoe' (pyaz.games.examples) ported "
        "for speed, the same actions, moves and planes (docs/tutorial-python-game.md)",
        search=TicTacToeSearch,
    ),
}

_ALIASES = {alias: name for name, spec in GAMES.items() for alias in (name, *spec.aliases)}


def canonical_name(name: str) -> str:
    """The registry name for ``name`` or one of its aliases (case-insensitive), or for a
    plug-in game (:func:`pyaz.games.plugins.plugin_name`: imports nothing)."""
    if not isinstance(name, str):
        raise TypeError(f"a game name must be a str, got {name!r}")
    key = name.strip().lower().replace(" ", "_")
    if key in _ALIASES:
        return _ALIASES[key]
    plugin = plugin_name(name)
    if plugin is None:
        known, plugins = ", ".join(sorted(GAMES)), ", ".join(plugin_names())
        raise ValueError(
            f"unknown game {name!r}; known games: {known}; plug-in games: {plugins}; or "
            "'openspiel:NAME', or a module path 'package.module:Name'"
        )
    return plugin


def action_record(state: GameState) -> ActionRecord:
    """How a record keeps the actions of ``state``'s game: its registration's
    (:attr:`GameSpec.record`), integers for a game registered without one or a plug-in game."""
    spec = GAMES.get(str(state.name))
    return INTEGER_ACTIONS if spec is None else spec.record


@overload
def make(name: Literal["curling"], **options: Any) -> CurlingState: ...
@overload
def make(name: str, **options: Any) -> NativeGame: ...
def make(name: str, **options: Any) -> NativeGame | CurlingState:
    """The start state of game ``name`` with ``options`` (see ``pyaz.GAMES`` for each game's):
    a board game's, or curling's :class:`~pyaz.games.curling.CurlingState` (typed so when the
    name is the literal ``"curling"``; :func:`board_games` names the others). A name is typed
    as a C++ game (:data:`NativeGame`); a plug-in game's state (a game written in Python, an
    OpenSpiel game) is returned as it is: :func:`is_native` or a protocol of
    :mod:`pyaz.games.state` tells what it has.

    >>> make("connect_four", width=7, height=6).num_actions
    7
    """
    canonical = canonical_name(name)
    if canonical not in GAMES:  # a plug-in game (pyaz.games.plugins), typed as a board game
        return make_plugin(canonical, **options)  # type: ignore[return-value]
    spec = GAMES[canonical]
    unknown = set(options) - set(spec.options)
    if unknown:
        allowed = ", ".join(f"{k}={v!r}" for k, v in spec.options.items())
        raise TypeError(f"{name!r} takes no option(s) {sorted(unknown)}; its options: {allowed}")
    for option, value in options.items():
        default = spec.options[option]
        if value is None and default is None:
            continue  # the game's own choice (Go's komi and length cap)
        kind = type(default) if default is not None else spec.kinds[option]
        _check_option(name, option, value, kind, spec.summary)
    return spec.cls(**{**spec.options, **options})


def _check_option(game: str, option: str, value: Any, kind: type, summary: str) -> None:
    """TypeError naming ``option`` when ``value`` is not of its ``kind`` (a bool option takes
    True/False only; an int option an integer, never a float or a bool; a float option a real
    number, never a bool); ValueError naming it, with the game's ``summary``, for an integer
    outside :data:`INT_RANGE` or a number too large for a float (the game checks its own range
    after)."""
    if kind is bool:
        if not isinstance(value, bool | np.bool_):
            raise TypeError(f"{game} option {option} must be True or False, got {_shown(value)}")
    elif kind is int:
        if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Integral):
            raise TypeError(f"{game} option {option} must be an integer, got {_shown(value)}")
        if not INT_RANGE[0] <= int(value) <= INT_RANGE[1]:
            raise ValueError(
                f"{game} option {option} is out of range, got {_shown(value)} ({summary})"
            )
    elif kind is float:
        if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Real):
            raise TypeError(f"{game} option {option} must be a number, got {_shown(value)}")
        try:
            float(value)
        except OverflowError:
            raise ValueError(
                f"{game} option {option} is out of range, got {_shown(value)} ({summary})"
            ) from None
    elif kind is str and not isinstance(value, str):
        raise TypeError(f"{game} option {option} must be a str, got {_shown(value)}")


def _shown(value: Any) -> str:
    """``value`` for an error message: an integer of 30 digits or more by its size in bits
    (Python will not print one of more than 4300 digits), anything else cut to 80 characters."""
    if isinstance(value, numbers.Integral) and abs(int(value)) >= 10**30:
        return f"an integer of {int(value).bit_length()} bits"
    return cut(repr(value), 80)


def is_native(state: Any) -> TypeGuard[NativeGame]:
    """Whether ``state`` is one of pyaz's C++ board games (:data:`NativeGame`)."""
    return isinstance(state, get_args(NativeGame))


def perft(state: BoardGameState, depth: int, count_finished: bool = False) -> int:
    """The number of action sequences of length ``depth`` from ``state`` (a game that ends
    sooner adds 1 if ``count_finished``, else nothing): in C++ for a native game, by the
    state's own methods (:func:`python_perft`) for a game written in Python. ValueError for a
    negative depth, TypeError for a depth that is no integer or a state whose actions are not a
    list (curling's shots)."""
    _check_board_game(state, "perft counts a board game's legal actions")
    depth = _count(depth, "perft depth")
    if is_native(state):
        return int(native_perft(state, depth, bool(count_finished)))
    return python_perft(state, depth, bool(count_finished))


def python_perft(state: BoardGameState, depth: int, count_finished: bool = False) -> int:
    """:func:`perft` by the state's own methods (clone, apply, legal_actions), for any board
    game, pyaz's own included (the tests check the two agree)."""
    if state.is_terminal():
        return 1 if depth == 0 or count_finished else 0
    if depth == 0:
        return 1
    return sum(
        python_perft(played(state, action), depth - 1, count_finished)
        for action in state.legal_actions()
    )


def random_game_lengths(state: BoardGameState, games: int, seed: int = 0) -> np.ndarray:
    """The lengths in plies (int32) of ``games`` uniformly random games from ``state``: in C++
    for a native game, by the state's own methods for a game written in Python (the draws
    differ between the two). Errors as :func:`random_playouts`."""
    games, seed = _random_games_arguments(state, games, seed)
    if is_native(state):
        return np.asarray(native_random_game_lengths(state, games, seed))
    lengths = np.zeros(games, dtype=np.int32)
    for index, game in enumerate(_random_games(state, games, seed)):
        lengths[index] = game.ply - state.ply
    return lengths


def random_playouts(state: BoardGameState, games: int, seed: int = 0) -> tuple[int, int, int]:
    """(wins, draws, losses) of the side to move in ``state`` over ``games`` uniformly random
    games from it: in C++ for a native game, by the state's own methods for a game written in
    Python (the draws differ between the two). ValueError for a negative count or a seed
    outside 0..2**64-1, TypeError for a count or seed that is no integer, or a state whose
    actions are not a list to draw from (curling's shots)."""
    games, seed = _random_games_arguments(state, games, seed)
    if is_native(state):
        wins, draws, losses = native_random_playouts(state, games, seed)
        return int(wins), int(draws), int(losses)
    mover = state.to_move()
    ends = [winner(game.status()) for game in _random_games(state, games, seed)]
    wins, draws = ends.count(mover), ends.count(None)
    return wins, draws, len(ends) - wins - draws


def _check_board_game(state: Any, what: str) -> None:
    """TypeError saying ``what`` and naming ``state`` when it is no board game's state."""
    if not isinstance(state, BoardGameState):
        if isinstance(state, GameState):
            raise TypeError(f"{what}; got a {state.name} state")
        raise TypeError(f"{what}; got {_shown(state)} ({type(state).__name__})")


def _count(value: Any, what: str) -> int:
    """``value`` as a count: an integer >= 0 (TypeError for no integer or a bool, ValueError
    for a negative one, each naming ``what``)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{what} must be an integer, got {_shown(value)}")
    if value < 0:
        raise ValueError(f"{what} must be >= 0, got {_shown(value)}")
    return int(value)


def _random_games_arguments(state: Any, games: Any, seed: Any) -> tuple[int, int]:
    """The count and seed of random games from ``state``, checked (see :func:`random_playouts`)."""
    _check_board_game(state, "random games draw a board game's legal actions")
    seed = _count(seed, "the seed")
    if seed >= 2**64:
        raise ValueError(f"the seed must be below 2**64, got {_shown(seed)}")
    return _count(games, "the number of games"), seed


def _random_games(state: BoardGameState, games: int, seed: int) -> Iterator[BoardGameState]:
    """``games`` uniformly random games from ``state``, each played to its end."""
    rng = random.Random(seed)
    for _ in range(games):
        game = state.clone()
        while not game.is_terminal():
            game.apply(rng.choice(game.legal_actions()))
        yield game


def board_games() -> list[str]:
    """The registered games whose states have finitely many integer actions (a
    :class:`~pyaz.games.state.BoardGameState`): every game but those whose actions are
    continuous (curling's shots)."""
    return [name for name in GAMES if isinstance(make(name), BoardGameState)]


def same_position(a: GameState, b: GameState) -> bool:
    """Whether two states are the same position: the same game, ply and board text (the text
    names the side to move and, where the game has them, the pass and ko state). TypeError for
    a state of a game with continuous actions (curling), whose text is only a picture."""
    for state in (a, b):
        if not isinstance(state, BoardGameState):
            raise TypeError(f"same_position compares board games' states, got {state.name}'s")
    return type(a) is type(b) and a.ply == b.ply and str(a) == str(b)
