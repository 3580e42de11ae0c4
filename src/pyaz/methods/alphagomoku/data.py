"""Training examples of the three phases of seed 004's curriculum (IV), with the winning value
decay (III-C) in the z labels.

- :func:`basic_positions` (phase 1, IV-B): generated attack and defence positions with one-hot
  targets; attack: Black to move with four in a row open at both ends, pi on a cell that makes
  five, z = 1; defence: White to move against a black four blocked at one end, pi on the cell
  that stops five, z = 0 (the paper's values). The mentor's threat finder
  (``GomokuMentor.threat_map``) checks every label.
- :func:`mentor_games` (phase 2, IV-C): the mentor's self-play games, pi one-hot on the
  mentor's move, z the game's result for the mover, decayed.
- :func:`selfplay_examples` (phase 3, IV-D): pyaz's self-play records, z decayed.

Each gives an :class:`Examples` whose ``player`` says whose move each position is (0 Black,
1 White), so that each colour's network trains on its own moves only.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, fields

import numpy as np

from pyaz._core import Gomoku, GomokuMentor, Status
from pyaz.games.state import winner
from pyaz.games.symmetry import transform_planes, transform_policy
from pyaz.search import SelfPlayRecords

__all__ = [
    "Examples",
    "basic_positions",
    "check_decay",
    "decayed_outcomes",
    "mentor_games",
    "selfplay_examples",
    "with_symmetries",
]

FIVE = 6  # threat_map: a stone here makes five
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


def check_decay(decay: float) -> float:
    """``decay`` as a float; ValueError unless it lies in (0, 1] (1: no decay)."""
    value = float(decay)
    if not 0.0 < value <= 1.0:  # NaN fails too
        raise ValueError(f"value_decay must be in (0, 1], got {decay}")
    return value


def decayed_outcomes(outcome: np.ndarray, plies_to_end: np.ndarray, decay: float) -> np.ndarray:
    """Seed 004's decayed labels: z * decay^(plies to the end of the game), counted as
    ``SelfPlayRecords.plies_to_end`` does (1 for the position where the last move is played),
    which matches the search's backup: a leaf one ply before a five is worth decay^1."""
    rate = check_decay(decay)
    return (outcome * np.power(rate, plies_to_end.astype(np.float64))).astype(np.float32)


@dataclass
class Examples:
    """Training examples: ``planes`` [N, 3, n, n], ``policy`` [N, n*n], ``outcome`` [N] (z for
    the side to move), ``player`` [N] (0 Black, 1 White to move)."""

    planes: np.ndarray
    policy: np.ndarray
    outcome: np.ndarray
    player: np.ndarray

    def __len__(self) -> int:
        return len(self.outcome)

    def rows(self, rows: np.ndarray) -> Examples:
        """The examples at ``rows``."""
        return Examples(*(array[rows] for array in self.arrays().values()))

    def of(self, colour: int) -> Examples:
        """The examples of one colour."""
        return self.rows(np.flatnonzero(self.player == colour))

    def arrays(self) -> dict[str, np.ndarray]:
        """The four arrays by name (for ``numpy.savez``)."""
        return {field.name: getattr(self, field.name) for field in fields(self)}

    @staticmethod
    def concat(parts: list[Examples]) -> Examples:
        parts = [p for p in parts if len(p)]
        if not parts:
            raise ValueError("no examples to train on")
        arrays = [p.arrays() for p in parts]
        return Examples(*(np.concatenate([a[name] for a in arrays]) for name in arrays[0]))

    @staticmethod
    def zeros(count: int, size: int) -> Examples:
        """``count`` examples of a ``size`` x ``size`` board, all zero (to be filled)."""
        return Examples(
            np.zeros((count, 3, size, size), dtype=np.float32),
            np.zeros((count, size * size), dtype=np.float32),
            np.zeros(count, dtype=np.float32),
            np.zeros(count, dtype=np.int64),
        )


def with_symmetries(examples: Examples, state: Gomoku) -> Examples:
    """The examples and their 7 other rotations and reflections (seed 004, IV-D)."""
    planes, policy, outcome, player = examples.arrays().values()
    turned = [
        Examples(transform_planes(planes, k), transform_policy(policy, k, state), outcome, player)
        for k in range(1, 8)
    ]
    return Examples.concat([examples, *turned])


def _line(size: int, rng: random.Random, length: int) -> tuple[list[tuple[int, int]], int, int]:
    """A random line of ``length + 2`` cells on the board (the stones plus one cell beyond each
    end, each end possibly off the board): (cells of the stones, dr, dc)."""
    while True:
        dr, dc = rng.choice(DIRECTIONS)
        r, c = rng.randrange(size), rng.randrange(size)
        cells = [(r + i * dr, c + i * dc) for i in range(length)]
        if all(0 <= x < size and 0 <= y < size for x, y in cells):
            return cells, dr, dc


def _build(size: int, black: list[int], white: list[int]) -> Gomoku | None:
    """The position with these stones, played in alternation from Black, a stone of the line
    last when White is to move (the last-move plane then shows Black's four being made); None
    when a five appears on the way."""
    state = Gomoku(size, 5, True)
    order = [*black[1:], black[0]] if len(black) > len(white) else black
    for index, action in enumerate(order):
        for move in (action, *white[index : index + 1]):
            if state.is_terminal():
                return None
            state.apply(move)
    return None if state.is_terminal() else state


def _basic_position(size: int, attack: bool, rng: random.Random) -> tuple[Gomoku, int] | None:
    """One attack or defence position and its target action, or None when the random stones
    spoiled it (another five, or a second threat)."""
    cells, dr, dc = _line(size, rng, 4)
    before = (cells[0][0] - dr, cells[0][1] - dc)
    after = (cells[-1][0] + dr, cells[-1][1] + dc)
    ends = [r * size + c for r, c in (before, after) if 0 <= r < size and 0 <= c < size]
    black = [r * size + c for r, c in cells]
    if len(ends) < (2 if attack else 1):
        return None  # an attack's four is open at both ends, a defence's at one at least
    target = rng.choice(ends)
    white = [] if attack else [end for end in ends if end != target]  # the blocked end
    taken = {*black, *white, target}
    extra = rng.randrange(0, max(1, size * size // 10))
    # Black to move (attack): as many white stones as black; White to move: one fewer.
    want_white = len(black) + extra - len(white) - (0 if attack else 1)
    free = [a for a in range(size * size) if a not in taken]
    free = rng.sample(free, min(extra + want_white, len(free)))
    if want_white < 0 or extra + want_white > len(free):
        return None
    black += free[:extra]
    white += free[extra : extra + want_white]
    state = _build(size, black, white)
    return None if state is None else (state, target)


def _labels_hold(state: Gomoku, target: int, attack: bool) -> bool:
    """The threat finder agrees with the label: attack, the target makes five for Black;
    defence, Black's only five is at the target and White has no five of its own."""
    black_fives = set(np.flatnonzero(GomokuMentor.threat_map(state, 0).reshape(-1) == FIVE))
    white_fives = np.flatnonzero(GomokuMentor.threat_map(state, 1).reshape(-1) == FIVE)
    if attack:
        return target in black_fives
    return black_fives == {target} and white_fives.size == 0


def basic_positions(size: int, count: int, seed: int = 0, attack_share: float = 0.5) -> Examples:
    """``count`` generated positions of phase 1 (see the module docstring), ``attack_share`` of
    them attacks (first) and the rest defences, on a ``size`` x ``size`` board (9..15)."""
    if not 9 <= size <= 15:
        raise ValueError(f"basic positions need a board of 9x9 to 15x15, got {size}x{size}")
    if count < 1:
        raise ValueError(f"count must be >= 1, got {count}")
    rng = random.Random(seed)
    examples = Examples.zeros(count, size)
    attacks = round(count * attack_share)
    made = 0
    while made < count:
        attack = made < attacks
        built = _basic_position(size, attack, rng)
        if built is None or not _labels_hold(*built, attack):
            continue
        state, target = built
        examples.planes[made] = state.encode()
        examples.policy[made, target] = 1.0
        examples.outcome[made] = 1.0 if attack else 0.0
        examples.player[made] = int(state.to_move())
        made += 1
    return examples


def mentor_games(
    size: int,
    games: int,
    mentor: GomokuMentor,
    decay: float = 1.0,
    opening_plies: int = 0,
    seed: int = 0,
) -> tuple[Examples, list[list[int]]]:
    """Phase 2: ``games`` self-play games of ``mentor`` (give it some ``randomness`` so that
    games differ) after ``opening_plies`` random plies; one example per mentor move (pi one-hot
    on it, z the result for the mover times decay^(plies to the end)). Returns the examples and
    each game's actions."""
    rng = random.Random(seed)
    rows: list[tuple[np.ndarray, int, int, int]] = []  # planes, action, player, game
    results: list[tuple[Status, int]] = []
    played: list[list[int]] = []
    for _ in range(games):
        state = Gomoku(size, 5, True)
        actions: list[int] = []
        for _ in range(opening_plies):
            action = rng.choice(state.legal_actions())
            state.apply(action)
            actions.append(action)
            if state.is_terminal():
                break
        first = len(rows)
        while not state.is_terminal():
            action = int(mentor.choose(state))
            rows.append((state.encode(), action, int(state.to_move()), int(state.ply)))
            state.apply(action)
            actions.append(action)
        results.extend([(state.status(), int(state.ply))] * (len(rows) - first))
        played.append(actions)
    examples = Examples.zeros(len(rows), size)
    plies_to_end = np.zeros(len(rows), dtype=np.int64)
    for i, ((plane, action, mover, ply), (status, length)) in enumerate(
        zip(rows, results, strict=True)
    ):
        examples.planes[i] = plane
        examples.policy[i, action] = 1.0
        examples.player[i] = mover
        plies_to_end[i] = length - ply
        side = winner(status)
        examples.outcome[i] = 0.0 if side is None else 1.0 if side == mover else -1.0
    examples.outcome = decayed_outcomes(examples.outcome, plies_to_end, decay)
    return examples, played


def selfplay_examples(records: SelfPlayRecords, decay: float = 1.0) -> Examples:
    """Phase 3's examples from pyaz's self-play records, z decayed."""
    outcome = decayed_outcomes(records.outcome, records.plies_to_end, decay)
    return Examples(records.planes, records.policy, outcome, records.player.astype(np.int64))
