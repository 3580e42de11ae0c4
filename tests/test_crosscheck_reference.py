"""Cross-check pyaz's games against the independent pure-Python reference.

``tests/reference_games.py`` implements Othello, Connect Four and Gomoku from the
rules in ``docs/api-games.md``. These tests compare pyaz with it by perft (both
terminal conventions, from the start and from mid-game positions), by playing
thousands of seeded random games in lockstep, and by comparing the outcome
frequencies of ``pyaz.random_playouts`` with those of random reference games.

pyaz is imported directly on purpose: a missing extension is a failure, not a skip.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

import pytest
from reference_games import (
    DRAW,
    FIRST,
    ONGOING,
    SECOND,
    RefConnectFour,
    RefGame,
    RefGomoku,
    RefOthello,
    play_moves,
    ref_perft,
    ref_perft_profile,
)

import pyaz

STATUS_NAMES = {
    pyaz.Status.ONGOING: ONGOING,
    pyaz.Status.DRAW: DRAW,
    pyaz.Status.FIRST_PLAYER_WIN: FIRST,
    pyaz.Status.SECOND_PLAYER_WIN: SECOND,
}

REFERENCE_CLASSES: dict[str, Any] = {
    "othello": RefOthello,
    "connect_four": RefConnectFour,
    "gomoku": RefGomoku,
}


@dataclass(frozen=True)
class Config:
    """A game and its constructor arguments, for both pyaz and the reference."""

    game: str
    params: tuple[tuple[str, Any], ...]

    @property
    def kwargs(self) -> dict[str, Any]:
        """Keyword arguments for ``pyaz.make`` and the reference class."""
        return dict(self.params)

    @property
    def label(self) -> str:
        """Readable test id, e.g. ``othello-size=8``."""
        return "-".join([self.game, *(f"{key}={value}" for key, value in self.params)])

    def make_pyaz(self) -> Any:
        """A fresh pyaz state."""
        return pyaz.make(self.game, **self.kwargs)

    def make_ref(self) -> RefGame:
        """A fresh reference state."""
        return REFERENCE_CLASSES[self.game](**self.kwargs)


def othello(size: int) -> Config:
    """Othello config."""
    return Config("othello", (("size", size),))


def connect_four(width: int, height: int) -> Config:
    """Connect Four config."""
    return Config("connect_four", (("width", width), ("height", height)))


def gomoku(size: int, line_length: int, overline_wins: bool = True) -> Config:
    """Gomoku config."""
    params = (("size", size), ("line_length", line_length), ("overline_wins", overline_wins))
    return Config("gomoku", params)


def make_pair(config: Config, moves: list[int] | None = None) -> tuple[Any, RefGame]:
    """pyaz and reference states of ``config`` after ``moves`` (applied to both)."""
    pz, ref = config.make_pyaz(), config.make_ref()
    for move in moves or []:
        ref.apply(move)
        pz.apply(move)
    return pz, ref


def describe(config: Config, moves: list[int]) -> str:
    """Reproducer text for an assertion message."""
    return f"{config.label} after moves {moves}"


def assert_same_position(pz: Any, ref: RefGame, config: Config, moves: list[int]) -> None:
    """Every observable of the two states agrees (legal moves, mask, board, side, status)."""
    legal = ref.legal_actions()
    assert pz.legal_actions() == legal, describe(config, moves)
    mask = pz.legal_mask()
    assert mask.dtype == bool, describe(config, moves)
    assert mask.shape == (ref.num_actions,), describe(config, moves)
    assert mask.nonzero()[0].tolist() == legal, describe(config, moves)
    assert pz.board().tolist() == ref.board(), describe(config, moves)
    assert pz.to_move() == ref.to_move(), describe(config, moves)
    assert STATUS_NAMES[pz.status()] == ref.status(), describe(config, moves)
    assert pz.is_terminal() == (ref.status() != ONGOING), describe(config, moves)
    assert pz.ply == len(moves), describe(config, moves)


def assert_perft_matches(config: Config, moves: list[int], max_depth: int) -> None:
    """pyaz.perft equals the reference for depths 1..max_depth, both conventions."""
    pz, ref = make_pair(config, moves)
    convention_a, convention_b = ref_perft_profile(ref, max_depth)
    for depth in range(1, max_depth + 1):
        where = f"{describe(config, moves)}, depth {depth}"
        assert pyaz.perft(pz, depth) == convention_a[depth], where
        assert pyaz.perft(pz, depth, count_finished=True) == convention_b[depth], where


def random_moves(config: Config, plies: int, seed: int) -> list[int]:
    """A seeded random move sequence of up to ``plies`` moves (stops early at game end)."""
    rng = random.Random(seed)
    ref = config.make_ref()
    moves: list[int] = []
    while len(moves) < plies and ref.legal_actions():
        move = rng.choice(ref.legal_actions())
        ref.apply(move)
        moves.append(move)
    return moves


def random_moves_until_empty(config: Config, empties: int, seed: int) -> list[int]:
    """Seeded random Othello moves until only ``empties`` cells are empty (game still on)."""
    rng = random.Random(seed)
    while True:
        ref = config.make_ref()
        moves: list[int] = []
        while ref.legal_actions() and sum(row.count(0) for row in ref.board()) > empties:
            move = rng.choice(ref.legal_actions())
            ref.apply(move)
            moves.append(move)
        if ref.legal_actions():
            return moves


def cells(size: int, coords: list[tuple[int, int]]) -> list[int]:
    """Actions of (row, col) coordinates on a ``size`` x ``size`` board."""
    return [row * size + col for row, col in coords]


# --------------------------------------------------------------------------
# The reference against published numbers (no pyaz needed)
# --------------------------------------------------------------------------


def test_reference_othello_8x8_published_perft() -> None:
    """Othello 8x8 perft 1..6 from the start: 4, 12, 56, 244, 1396, 8200."""
    convention_a, convention_b = ref_perft_profile(RefOthello(8), 6)
    assert convention_a[1:] == [4, 12, 56, 244, 1396, 8200]
    assert convention_b[1:] == [4, 12, 56, 244, 1396, 8200]
    assert ref_perft(RefOthello(8), 4) == 244


def test_reference_connect_four_7x6_published_perft() -> None:
    """Connect Four 7x6: 7**d positions for d <= 6 (nobody can win before ply 7)."""
    assert [ref_perft(RefConnectFour(7, 6), d) for d in range(1, 5)] == [7, 49, 343, 2401]


def test_reference_profile_agrees_with_plain_perft() -> None:
    """The one-walk perft profile equals ref_perft depth by depth, both conventions."""
    state = play_moves(RefOthello(4), [1, 0, 4])
    convention_a, convention_b = ref_perft_profile(state, 13)
    for depth in (0, 5, 9, 10, 13):
        assert convention_a[depth] == ref_perft(state, depth)
        assert convention_b[depth] == ref_perft(state, depth, count_finished=True)


def test_reference_rules_spot_checks() -> None:
    """A few hand-checked positions for the reference itself."""
    odd = RefOthello(5)
    assert odd.board()[1][1:3] == [2, 1] and odd.board()[2][1:3] == [1, 2]
    assert odd.legal_actions() == [1, 5, 13, 17]  # (0,1) (1,0) (2,3) (3,2)

    c4 = play_moves(RefConnectFour(7, 6), [3, 3, 3])
    assert [row[3] for row in c4.board()] == [0, 0, 0, 1, 2, 1]
    c4 = play_moves(RefConnectFour(7, 6), [0, 6, 1, 6, 2, 6, 3])
    assert c4.status() == FIRST and c4.legal_actions() == []

    # Gomoku 7x7, line 5, row 3 = X X X . X X: filling the gap makes six in a row.
    black = [(3, 0), (3, 1), (3, 2), (3, 4), (3, 5)]
    white = [(0, 0), (0, 2), (0, 4), (6, 0), (6, 2)]
    setup = cells(7, [cell for pair in zip(black, white, strict=True) for cell in pair])
    exact = play_moves(RefGomoku(7, 5, overline_wins=False), [*setup, 24])
    assert exact.status() == ONGOING and exact.last_move_overline_only
    free = play_moves(RefGomoku(7, 5, overline_wins=True), [*setup, 24])
    assert free.status() == FIRST

    # No wrap-around: (0,4) (0,5) (1,0) (1,1) are consecutive action numbers on 6x6.
    wrap = play_moves(RefGomoku(6, 4), cells(6, [(0, 4), (5, 5), (0, 5), (5, 3), (1, 0), (4, 4)]))
    wrap.apply(7)
    assert wrap.status() == ONGOING


# --------------------------------------------------------------------------
# perft: pyaz against the reference
# --------------------------------------------------------------------------

START_PERFT_CASES = [
    (othello(5), 6),
    (othello(6), 5),
    (othello(7), 5),
    (othello(8), 5),
    (connect_four(4, 4), 8),
    (connect_four(5, 4), 6),
    (connect_four(5, 5), 6),
    (connect_four(6, 6), 5),
    (connect_four(7, 6), 5),
    (gomoku(5, 4), 3),
    (gomoku(6, 4), 2),
    (gomoku(7, 5, overline_wins=True), 2),
    (gomoku(7, 5, overline_wins=False), 2),
]


@pytest.mark.parametrize(
    ("config", "depth"), START_PERFT_CASES, ids=[c.label for c, _ in START_PERFT_CASES]
)
def test_perft_from_start(config: Config, depth: int) -> None:
    """perft from the initial position, depths 1..depth, both conventions."""
    assert_perft_matches(config, [], depth)


def test_perft_othello_4x4_full_game_tree() -> None:
    """The whole 4x4 Othello tree: the conventions split from depth 8 and A dies out."""
    convention_a, convention_b = ref_perft_profile(RefOthello(4), 20)
    assert convention_a[-1] == 0  # every game is over by then
    assert convention_a[8] != convention_b[8]
    pz = pyaz.make("othello", size=4)
    for depth in range(1, 21):
        assert pyaz.perft(pz, depth) == convention_a[depth], f"depth {depth}"
        assert pyaz.perft(pz, depth, count_finished=True) == convention_b[depth], f"depth {depth}"


OTHELLO_ENDGAME_CASES = [
    (othello(5), 7, 11),
    (othello(6), 8, 12),
    (othello(7), 8, 21),
    (othello(8), 8, 31),
]


@pytest.mark.parametrize(
    ("config", "empties", "seed"),
    OTHELLO_ENDGAME_CASES,
    ids=[c.label for c, _, _ in OTHELLO_ENDGAME_CASES],
)
def test_perft_othello_endgames(config: Config, empties: int, seed: int) -> None:
    """perft to the end of the game from random positions with few empty cells (passes too)."""
    moves = random_moves_until_empty(config, empties, seed)
    assert_perft_matches(config, moves, empties + 4)


MIDGAME_CASES = [
    (othello(6), 16, 1, 5),
    (othello(7), 20, 2, 4),
    (connect_four(4, 4), 6, 3, 10),
    (connect_four(5, 4), 10, 4, 8),
    (connect_four(5, 5), 12, 5, 7),
    (connect_four(6, 6), 18, 6, 6),
    (connect_four(7, 6), 20, 7, 5),
    (connect_four(7, 6), 30, 8, 6),
]


@pytest.mark.parametrize(
    ("config", "plies", "seed", "depth"),
    MIDGAME_CASES,
    ids=[f"{c.label}-ply{p}-seed{s}" for c, p, s, _ in MIDGAME_CASES],
)
def test_perft_random_midgame(config: Config, plies: int, seed: int, depth: int) -> None:
    """perft from seeded random mid-game positions."""
    moves = random_moves(config, plies, seed)
    assert_perft_matches(config, moves, depth)


# Gomoku positions near wins, as (row, col) in play order (Black first).
GOMOKU_POSITIONS: dict[str, tuple[int, list[tuple[int, int]]]] = {
    # 5x5, both sides have three in a row; Black to move and wins at (2,3).
    "open-threes-5x5": (5, [(2, 0), (0, 0), (2, 1), (0, 1), (2, 2), (0, 2)]),
    # 6x6: Black (0,4) (0,5) (1,0) are consecutive action numbers; (1,1) would
    # complete them only with wrap-around. White has an anti-diagonal three.
    "wrap-bait-6x6": (6, [(0, 4), (2, 3), (0, 5), (3, 2), (1, 0), (4, 1)]),
    # 7x7, line 5: Black X X X . X X on row 3 (the gap makes six) and four on
    # column 6 missing (3,6) (makes exactly five); White X X . X X X on row 6.
    "overline-7x7": (
        7,
        [
            (3, 0), (6, 0), (3, 1), (6, 1), (3, 2), (6, 3), (3, 4), (6, 4), (3, 5),
            (6, 5), (0, 6), (0, 0), (1, 6), (1, 2), (2, 6), (5, 4), (4, 6), (1, 0),
        ],
    ),
    # 7x7, line 5: the gap (3,3) makes six on row 3 and exactly five on column 3.
    "overline-and-five-7x7": (
        7,
        [
            (3, 0), (6, 0), (3, 1), (6, 2), (3, 2), (6, 4), (3, 4), (6, 6), (3, 5),
            (5, 1), (0, 3), (5, 5), (1, 3), (0, 0), (2, 3), (0, 6), (4, 3), (6, 3),
        ],
    ),
}  # fmt: skip

GOMOKU_PERFT_CASES = [
    ("open-threes-5x5", 4, True, 3),
    ("open-threes-5x5", 4, False, 3),
    ("wrap-bait-6x6", 4, True, 3),
    ("wrap-bait-6x6", 4, False, 3),
    ("overline-7x7", 5, True, 3),
    ("overline-7x7", 5, False, 3),
    ("overline-and-five-7x7", 5, True, 2),
    ("overline-and-five-7x7", 5, False, 2),
]


@pytest.mark.parametrize(
    ("position", "line_length", "overline_wins", "depth"),
    GOMOKU_PERFT_CASES,
    ids=[f"{p}-overline_wins={o}" for p, _, o, _ in GOMOKU_PERFT_CASES],
)
def test_perft_gomoku_near_wins(
    position: str, line_length: int, overline_wins: bool, depth: int
) -> None:
    """perft from hand-made positions where wins, overlines and edges matter."""
    size, coords = GOMOKU_POSITIONS[position]
    assert_perft_matches(gomoku(size, line_length, overline_wins), cells(size, coords), depth)


# --------------------------------------------------------------------------
# Random games in lockstep
# --------------------------------------------------------------------------


@dataclass
class Tally:
    """What happened over a batch of random games."""

    outcomes: Counter[str]
    pyaz_outcomes: Counter[str]
    games: int = 0
    passes: int = 0
    overlines_without_win: int = 0
    wins_by_overline: int = 0


def note_move(tally: Tally, ref: RefGame, action: int) -> None:
    """Record passes and overlines of the move just applied to ``ref``."""
    if isinstance(ref, RefOthello) and action == ref.pass_action:
        tally.passes += 1
    if isinstance(ref, RefGomoku):
        tally.overlines_without_win += ref.last_move_overline_only
        won = ref.status() in (FIRST, SECOND)
        tally.wins_by_overline += won and ref.last_move_longest_run > ref.line_length


def play_lockstep(config: Config, games: int, seed: int) -> Tally:
    """Play seeded random games in both implementations, comparing every position."""
    rng = random.Random(seed)
    tally = Tally(Counter(), Counter())
    for _ in range(games):
        pz, ref = make_pair(config)
        moves: list[int] = []
        while True:
            assert_same_position(pz, ref, config, moves)
            legal = ref.legal_actions()
            if not legal:
                break
            action = rng.choice(legal)
            moves.append(action)
            ref.apply(action)
            pz.apply(action)
            note_move(tally, ref, action)
        tally.outcomes[ref.status()] += 1
        tally.pyaz_outcomes[STATUS_NAMES[pz.status()]] += 1
        tally.games += 1
    return tally


def reference_outcomes(config: Config, games: int, seed: int) -> Counter[str]:
    """Outcomes of seeded uniformly random reference games (same games as play_lockstep)."""
    rng = random.Random(seed)
    outcomes: Counter[str] = Counter()
    for _ in range(games):
        ref = config.make_ref()
        while legal := ref.legal_actions():
            ref.apply(rng.choice(legal))
        outcomes[ref.status()] += 1
    return outcomes


LOCKSTEP_CASES = [
    (othello(6), 2000),
    (othello(8), 1000),
    (othello(5), 1000),
    (othello(7), 1000),
    (connect_four(7, 6), 3000),
    (connect_four(5, 5), 3000),
    (connect_four(6, 7), 3000),
    (gomoku(6, 4), 2000),
    (gomoku(15, 5, overline_wins=True), 500),
    (gomoku(15, 5, overline_wins=False), 500),
    (gomoku(9, 5, overline_wins=False), 500),
]
LOCKSTEP_IDS = [c.label for c, _ in LOCKSTEP_CASES]

# Outcomes of the lockstep games, reused by the statistics test when available.
LOCKSTEP_OUTCOMES: dict[Config, Counter[str]] = {}


def lockstep_seed(config: Config) -> int:
    """A fixed seed per config."""
    return sum(ord(ch) for ch in config.label) * 7919


@pytest.mark.parametrize(("config", "games"), LOCKSTEP_CASES, ids=LOCKSTEP_IDS)
def test_random_games_lockstep(config: Config, games: int) -> None:
    """Thousands of random games, every position compared; outcomes tallied."""
    tally = play_lockstep(config, games, lockstep_seed(config))
    assert tally.games == games
    assert sum(tally.outcomes.values()) == games
    assert tally.pyaz_outcomes == tally.outcomes
    LOCKSTEP_OUTCOMES[config] = tally.outcomes
    if config.game == "othello":
        assert tally.passes > 0, "no pass occurred: the pass rule went untested"
    if config.game == "gomoku" and not config.kwargs["overline_wins"]:
        assert tally.overlines_without_win > 0, "no non-winning overline occurred"
    if config.game == "gomoku" and config.kwargs["overline_wins"] and config.kwargs["size"] > 6:
        assert tally.wins_by_overline > 0, "no game was won by an overline"


def assert_same_frequencies(expected: Counter[str], observed: Counter[str], label: str) -> None:
    """Each outcome's proportion agrees within 5 standard errors (two-sample, pooled)."""
    n_expected, n_observed = sum(expected.values()), sum(observed.values())
    for outcome in (FIRST, DRAW, SECOND):
        p_expected = expected[outcome] / n_expected
        p_observed = observed[outcome] / n_observed
        pooled = (expected[outcome] + observed[outcome]) / (n_expected + n_observed)
        stderr = math.sqrt(pooled * (1 - pooled) * (1 / n_expected + 1 / n_observed))
        assert abs(p_expected - p_observed) <= 5 * stderr, (
            f"{label}: {outcome} reference {p_expected:.4f} (n={n_expected}) "
            f"vs pyaz.random_playouts {p_observed:.4f} (n={n_observed})"
        )


def playout_outcomes(pz: Any, playouts: int, seed: int) -> Counter[str]:
    """pyaz.random_playouts as absolute outcomes (it reports for the side to move)."""
    wins, draws, losses = pyaz.random_playouts(pz, playouts, seed)
    assert wins + draws + losses == playouts
    mover, other = (FIRST, SECOND) if pz.to_move() == 0 else (SECOND, FIRST)
    return Counter({mover: wins, DRAW: draws, other: losses})


@pytest.mark.parametrize(("config", "games"), LOCKSTEP_CASES, ids=LOCKSTEP_IDS)
def test_random_playout_frequencies(config: Config, games: int) -> None:
    """pyaz.random_playouts (n=20000) matches the reference's random-game outcome rates."""
    seed = lockstep_seed(config)
    reference = LOCKSTEP_OUTCOMES.get(config) or reference_outcomes(config, games, seed)
    observed = playout_outcomes(config.make_pyaz(), 20000, seed)
    assert_same_frequencies(reference, observed, config.label)


def test_random_playout_frequencies_second_to_move() -> None:
    """From a position with the second player to move, wins are counted for that player."""
    config = connect_four(5, 4)
    moves = [2]
    rng = random.Random(99)
    reference: Counter[str] = Counter()
    for _ in range(3000):
        ref = play_moves(config.make_ref(), moves)
        while legal := ref.legal_actions():
            ref.apply(rng.choice(legal))
        reference[ref.status()] += 1
    pz, _ = make_pair(config, moves)
    assert pz.to_move() == 1
    assert_same_frequencies(reference, playout_outcomes(pz, 20000, 5), config.label)
    assert pz.legal_actions() == [0, 1, 2, 3, 4]  # random_playouts left the state alone


# --------------------------------------------------------------------------
# Illegal actions
# --------------------------------------------------------------------------

ILLEGAL_CASES = [othello(6), othello(5), connect_four(4, 4), gomoku(5, 4), gomoku(7, 5, False)]


@pytest.mark.parametrize("config", ILLEGAL_CASES, ids=[c.label for c in ILLEGAL_CASES])
def test_illegal_actions_rejected(config: Config) -> None:
    """Along random games (and at their end) every illegal action raises ValueError in both."""
    rng = random.Random(2024)
    for _ in range(20):
        pz, ref = make_pair(config)
        moves: list[int] = []
        while True:
            legal = set(ref.legal_actions())
            for action in [-1, *range(ref.num_actions + 1)]:
                assert pz.is_legal(action) == (action in legal), describe(config, moves)
                if action in legal:
                    continue
                with pytest.raises(ValueError):
                    ref.apply(action)
                with pytest.raises(ValueError):
                    pz.apply(action)
            assert_same_position(pz, ref, config, moves)
            if not legal:
                break
            action = rng.choice(sorted(legal))
            moves.append(action)
            ref.apply(action)
            pz.apply(action)
