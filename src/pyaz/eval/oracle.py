"""Perfect-play agreement on Connect Four: how often a player keeps a position's exact value.

:func:`hard_positions` draws a fixed, seeded set of distinct *hard* positions by random play
from the start (hard: the side to move has no immediate win, and its legal moves do not all
have the same game-theoretic value, so a lost position is never hard), each solved exactly by
:func:`pyaz.search.solve`. :func:`perfect_play_agreement` asks a player for its move in each
and reports the share of moves that keep the value (win stays win, draw stays draw), with a
Wilson interval. :class:`PerfectPlayer` plays a best move (random among the best, seeded).

>>> import pyaz
>>> positions = hard_positions(5, 4, count=20, seed=1)
>>> len(positions), len({p.key for p in positions})
(20, 20)
>>> perfect_play_agreement(PerfectPlayer(seed=0), positions).agreement
1.0
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pyaz._core import ConnectFour, Status
from pyaz.eval.players import Player, _SimplePlayer
from pyaz.eval.stats import wilson_interval
from pyaz.games import GameState
from pyaz.search.solver import MAX_HEIGHT, MAX_WIDTH, check_solvable, solve

__all__ = [
    "AgreementResult",
    "OraclePosition",
    "PerfectPlayer",
    "check_distinct",
    "hard_positions",
    "perfect_play_agreement",
]


@dataclass(frozen=True)
class OraclePosition:
    """A solved position: the state, its value for the side to move, the moves that keep it."""

    state: Any  # a Connect Four state, or any game's (pyaz.eval.exhaustive)
    value: int  # +1 win, 0 draw (hard positions are never lost: every move would lose)
    good_moves: frozenset[int]  # the columns whose value equals the position's

    @property
    def key(self) -> tuple[int, bytes | str]:
        """What tells positions apart: the side to move and the board's cells (the state's
        text for a game without a board array)."""
        board = getattr(self.state, "board", None)
        return int(self.state.to_move()), board().tobytes() if board else str(self.state)


@dataclass(frozen=True)
class AgreementResult:
    """The share of positions where the player's move kept the exact value."""

    agreement: float  # kept / positions
    lower: float  # 95% Wilson interval (with continuity correction, pyaz.eval.stats)
    upper: float
    kept: int
    positions: int  # distinct positions asked


def _check_size(width: int, height: int) -> None:
    if not (4 <= width <= MAX_WIDTH and 4 <= height <= MAX_HEIGHT):
        raise ValueError(
            f"hard positions need a Connect Four board of 4..{MAX_WIDTH} columns x "
            f"4..{MAX_HEIGHT} rows, got {width}x{height}"
        )


def _random_position(width: int, height: int, plies: int, rng: random.Random) -> ConnectFour:
    """The state after ``plies`` random moves from the start (games that end sooner restart)."""
    while True:
        state = ConnectFour(width=width, height=height)
        while state.ply < plies and not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            return state


def solve_position(state: ConnectFour) -> OraclePosition | None:
    """``state`` solved, or None when it is not hard (an immediate win exists, or every legal
    move has the same value)."""
    solution = solve(state)
    mover_wins = Status.FIRST_PLAYER_WIN if state.to_move() == 0 else Status.SECOND_PLAYER_WIN
    if any(state.child(column).status() == mover_wins for column in solution.move_values):
        return None
    values = {move.value for move in solution.move_values.values()}
    if len(values) < 2:
        return None
    return OraclePosition(state, solution.value, frozenset(solution.value_preserving_moves))


def hard_positions(
    width: int = 7,
    height: int = 6,
    count: int = 100,
    seed: int = 0,
    min_ply: int | None = None,
    max_ply: int | None = None,
) -> list[OraclePosition]:
    """``count`` distinct hard positions of a ``width`` x ``height`` board, reached by random
    play from the start after a number of plies drawn uniformly in ``min_ply..max_ply``
    (defaults: a third of the cells to the cells less 6; on 7x6, 14..36, where the solver
    takes well under a second a position). The same arguments give the same positions;
    nothing is cached. ValueError for a board the solver does not take or a bad range."""
    _check_size(width, height)
    cells = width * height
    low = cells // 3 if min_ply is None else min_ply
    high = cells - 6 if max_ply is None else max_ply
    if not 0 <= low <= high < cells:
        raise ValueError(f"need 0 <= min_ply <= max_ply < {cells}, got {low}..{high}")
    if count < 1:
        raise ValueError(f"count must be >= 1, got {count}")
    rng = random.Random(seed)
    positions: list[OraclePosition] = []
    seen: set[tuple[int, bytes]] = set()
    attempts = 0
    while len(positions) < count:
        attempts += 1
        if attempts > 100 * count + 1000:
            raise ValueError(
                f"found only {len(positions)} distinct hard positions of {count} in "
                f"{attempts - 1} random games on {width}x{height}, plies {low}..{high}"
            )
        state = _random_position(width, height, rng.randint(low, high), rng)
        key = int(state.to_move()), state.board().tobytes()
        if key in seen:
            continue
        seen.add(key)
        position = solve_position(state)
        if position is not None:
            positions.append(position)
    return positions


def check_distinct(positions: Sequence[OraclePosition], what: str) -> None:
    """ValueError naming ``what`` when there are no ``positions`` or they are not distinct."""
    if not positions:
        raise ValueError(f"{what} needs at least one position")
    keys = {position.key for position in positions}
    if len(keys) != len(positions):
        raise ValueError(
            f"the positions must be distinct: {len(positions)} given, {len(keys)} distinct"
        )


def perfect_play_agreement(player: Player, positions: list[OraclePosition]) -> AgreementResult:
    """The share of ``positions`` in which ``player`` chooses a move that keeps the exact value,
    with its 95% Wilson interval. The player is reset to each position before it chooses.
    ValueError when the positions are not distinct or there are none."""
    check_distinct(positions, "perfect_play_agreement")
    kept = 0
    for position in positions:
        state = position.state.clone()
        player.reset(state.clone())
        kept += int(player.choose(state)) in position.good_moves
    lower, upper = wilson_interval(kept, len(positions))
    return AgreementResult(kept / len(positions), lower, upper, kept, len(positions))


class PerfectPlayer(_SimplePlayer):
    """Plays a best move of Connect Four (up to 7 columns x 6 rows) by exact solving: the
    quickest win, else a draw, else the slowest loss, random among equal scores (seeded)."""

    def __init__(self, seed: int = 0, name: str = "perfect") -> None:
        self.name = name
        self._rng = random.Random(seed)

    def reset(self, state: GameState) -> None:
        """ValueError unless the game is Connect Four on a board the solver takes."""
        if not isinstance(state, ConnectFour):
            check_solvable(state)  # raises, naming the game
        else:
            _check_size(state.num_actions, state.board_shape[0])

    def choose(self, state: ConnectFour) -> int:
        """A best move of ``state``."""
        return int(self._rng.choice(solve(state).best_moves))
