"""The game registry: ``pyaz.make(name, **options)`` builds the start state of any game."""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field
from typing import Any, TypeAlias

import numpy as np

from pyaz._core import ConnectFour, Go, Gomoku, Othello, RacingKings

BoardState: TypeAlias = Othello | ConnectFour | Gomoku | Go | RacingKings


@dataclass(frozen=True)
class GameSpec:
    """How to build one game: its class, the options it takes with their defaults, and aliases."""

    cls: type
    options: dict[str, Any]
    aliases: tuple[str, ...] = field(default=())
    summary: str = ""


GAMES: dict[str, GameSpec] = {
    "othello": GameSpec(Othello, {"size": 8}, ("reversi",), "Othello/Reversi, n x n for n in 4..8"),
    "connect_four": GameSpec(
        ConnectFour,
        {"width": 7, "height": 6},
        ("connect4", "connectfour", "connect-four"),
        "Connect Four, width x height with width*(height+1) <= 64",
    ),
    "gomoku": GameSpec(
        Gomoku,
        {"size": 15, "line_length": 5, "overline_wins": True},
        ("gobang", "five-in-a-row"),
        "Gomoku/Gobang, n x n for n in 5..15, line_length in a row wins",
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
    ),
    "racingkings": GameSpec(
        RacingKings,
        {"start": "standard"},
        ("racing_kings", "racing-kings"),
        "Racing Kings; start 'standard', 'racingkings-mod' (seed 000's modified start) or a FEN",
    ),
    "racingkings-mod": GameSpec(
        RacingKings,
        {"start": "racingkings-mod"},
        ("racing_kings_mod", "racingkings_mod"),
        f"seed 000's modified Racing Kings: {RacingKings.MOD_FEN}",
    ),
}

_ALIASES = {alias: name for name, spec in GAMES.items() for alias in (name, *spec.aliases)}


def canonical_name(name: str) -> str:
    """The registry name for ``name`` or one of its aliases (case-insensitive)."""
    if not isinstance(name, str):
        raise TypeError(f"a game name must be a str, got {name!r}")
    key = name.strip().lower().replace(" ", "_")
    if key not in _ALIASES:
        known = ", ".join(sorted(GAMES))
        raise ValueError(f"unknown game {name!r}; known games: {known}")
    return _ALIASES[key]


def make(name: str, **options: Any) -> BoardState:
    """The start state of game ``name`` with ``options`` (see ``pyaz.GAMES`` for each game's).

    >>> make("connect_four", width=7, height=6).num_actions
    7
    """
    spec = GAMES[canonical_name(name)]
    unknown = set(options) - set(spec.options)
    if unknown:
        allowed = ", ".join(f"{k}={v!r}" for k, v in spec.options.items())
        raise TypeError(f"{name!r} takes no option(s) {sorted(unknown)}; its options: {allowed}")
    for option, value in options.items():
        _check_option(name, option, value, spec.options[option])
    return spec.cls(**{**spec.options, **options})


def _check_option(game: str, option: str, value: Any, default: Any) -> None:
    """TypeError naming ``option`` when ``value`` is not of its default's type (a bool option
    takes True/False only; an int option an integer, never a float or a bool)."""
    if isinstance(default, bool):
        if not isinstance(value, bool | np.bool_):
            raise TypeError(f"{game} option {option} must be True or False, got {value!r}")
    elif isinstance(default, int):
        if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Integral):
            raise TypeError(f"{game} option {option} must be an integer, got {value!r}")
    elif isinstance(default, str) and not isinstance(value, str):
        raise TypeError(f"{game} option {option} must be a str, got {value!r}")


def same_position(a: BoardState, b: BoardState) -> bool:
    """Whether two states are the same position: the same game, ply and board text (the text
    names the side to move and, where the game has them, the pass and ko state)."""
    return type(a) is type(b) and a.ply == b.ply and str(a) == str(b)
