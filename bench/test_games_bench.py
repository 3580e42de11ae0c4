"""pyaz vs OpenSpiel: random full games per second, and Othello perft throughput.

Each playout benchmark measures *both* engines in the same test, interleaved round by
round (the order alternates every round), so the pyaz/OpenSpiel ratio is taken under
the same machine conditions.  Absolute figures drift by +-30% between runs; ratios
within one run are much steadier.

Before anything is timed, each playout test plays a few random games in lockstep on
both engines and checks that they agree on legal moves, termination and result, so
the two sides provably play the same rules on the same board.  Perft results are
checked against the known leaf counts, and the playout outcome frequencies of both
engines must agree statistically, so a broken engine cannot post a number.
"""

from __future__ import annotations

import importlib.metadata
import math
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from conftest import BenchConfig

# Outcome counts from the first player's point of view: (wins, draws, losses).
WDL = tuple[int, int, int]
PlayoutFn = Callable[[int, int], WDL]

PYAZ_TARGET_S = 0.5  # pyaz share of one round (brief: 0.2-1 s)
PEER_TARGET_S = 0.5  # OpenSpiel share of one round (brief: ~0.5 s)
LOCKSTEP_GAMES = 20  # random games replayed on both engines before timing


@dataclass(frozen=True)
class GameSpec:
    label: str  # row label in the report
    group: str  # pytest-benchmark group
    pyaz_name: str
    pyaz_kwargs: dict[str, Any]
    spiel_name: str
    spiel_params: dict[str, Any]
    target_ratio: float | None  # pyaz must be at least this many times faster than OpenSpiel


GAMES: list[GameSpec] = [
    GameSpec(
        label="Othello 8x8",
        group="othello-8x8",
        pyaz_name="othello",
        pyaz_kwargs={"size": 8},
        spiel_name="othello",
        spiel_params={},  # OpenSpiel's Othello is fixed at 8x8
        target_ratio=50.0,
    ),
    GameSpec(
        label="Connect Four 7x6",
        group="connect-four-7x6",
        pyaz_name="connect_four",
        pyaz_kwargs={"width": 7, "height": 6},
        spiel_name="connect_four",
        spiel_params={"columns": 7, "rows": 6, "x_in_row": 4},
        target_ratio=20.0,
    ),
    GameSpec(
        # Free-style: five or more in a row wins (OpenSpiel's gomoku counts overlines).
        label="Gomoku 15x15",
        group="gomoku-15x15",
        pyaz_name="gomoku",
        pyaz_kwargs={"size": 15, "line_length": 5, "overline_wins": True},
        spiel_name="gomoku",
        spiel_params={"size": 15, "connect": 5, "dims": 2, "wrap": False, "anti": False},
        target_ratio=30.0,
    ),
]

# Othello 8x8 perft from the start position, passes count as a ply, games that end
# before the horizon contribute nothing (pyaz's default count_finished=False; the
# count_finished=True convention gives 212,258,800 at depth 11).
PERFT_CASES: list[tuple[int, int, float | None]] = [
    (9, 3_005_288, None),
    (11, 212_258_216, 300e6),
]


def _peer_name() -> str:
    try:
        version = importlib.metadata.version("open_spiel")
    except importlib.metadata.PackageNotFoundError:
        version = "?"
    return f"OpenSpiel {version} (Python loop)"


def _load_spiel_game(pyspiel: ModuleType, spec: GameSpec) -> Any:
    game = pyspiel.load_game(spec.spiel_name, spec.spiel_params)
    params = game.get_parameters()
    for key, value in spec.spiel_params.items():
        got = params.get(key)
        assert got == value, f"{spec.spiel_name}: parameter {key}={got!r}, want {value!r}"
    return game


# --------------------------------------------------------------------------- engines


def spiel_playouts(game: Any, n: int, seed: int) -> WDL:
    """n uniformly random OpenSpiel games, driven from Python the usual way."""
    rng = random.Random(seed)
    wins = draws = losses = 0
    for _ in range(n):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        first = state.returns()[0]
        if first > 0:
            wins += 1
        elif first < 0:
            losses += 1
        else:
            draws += 1
    return wins, draws, losses


def pyaz_playouts(pyaz: ModuleType, spec: GameSpec) -> PlayoutFn:
    def run(n: int, seed: int) -> WDL:
        state = pyaz.make(spec.pyaz_name, **spec.pyaz_kwargs)
        wins, draws, losses = pyaz.random_playouts(state, n, seed)
        return int(wins), int(draws), int(losses)

    return run


def _pyaz_outcome(pyaz: ModuleType, state: Any) -> int:
    status = state.status()
    if status == pyaz.Status.FIRST_PLAYER_WIN:
        return 1
    if status == pyaz.Status.SECOND_PLAYER_WIN:
        return -1
    assert status == pyaz.Status.DRAW, f"terminal state with status {status!r}"
    return 0


def check_same_rules(pyaz: ModuleType, spec: GameSpec, game: Any, n_games: int, seed: int) -> None:
    """Replay random games on both engines; legal moves, end and result must agree."""
    rng = random.Random(seed)
    probe = pyaz.make(spec.pyaz_name, **spec.pyaz_kwargs)
    assert probe.num_actions == game.num_distinct_actions(), "action spaces differ"
    for g in range(n_games):
        mine = pyaz.make(spec.pyaz_name, **spec.pyaz_kwargs)
        peer = game.new_initial_state()
        moves: list[int] = []
        while True:
            where = f"{spec.label} game {g}, moves {moves}"
            assert mine.is_terminal() == peer.is_terminal(), f"terminal mismatch: {where}"
            if peer.is_terminal():
                peer_result = int(math.copysign(1, peer.returns()[0])) if peer.returns()[0] else 0
                assert _pyaz_outcome(pyaz, mine) == peer_result, f"result mismatch: {where}"
                break
            assert mine.to_move() == peer.current_player(), f"side to move mismatch: {where}"
            legal = list(peer.legal_actions())
            assert list(mine.legal_actions()) == legal, f"legal moves mismatch: {where}"
            move = rng.choice(legal)
            moves.append(move)
            mine.apply(move)
            peer.apply_action(move)


# --------------------------------------------------------------------------- timing


@dataclass
class Side:
    fn: PlayoutFn
    games_per_round: int = 0
    rates: list[float] = field(default_factory=list)
    cpu_per_wall: list[float] = field(default_factory=list)
    wdl: list[int] = field(default_factory=lambda: [0, 0, 0])

    def run(self, seed: int) -> None:
        n = self.games_per_round
        c0 = time.process_time()
        t0 = time.perf_counter()
        result = self.fn(n, seed)
        wall = time.perf_counter() - t0
        cpu = time.process_time() - c0
        assert sum(result) == n, f"{n} games requested, outcome counts {result}"
        self.rates.append(n / wall)
        self.cpu_per_wall.append(cpu / wall if wall > 0 else 1.0)
        for i in range(3):
            self.wdl[i] += result[i]


def calibrate(fn: PlayoutFn, target_s: float, seed: int, max_n: int = 100_000_000) -> int:
    """Number of games that take about target_s seconds (probe grows geometrically)."""
    n = 1
    while True:
        t0 = time.perf_counter()
        fn(n, seed)
        wall = time.perf_counter() - t0
        if wall >= min(0.05, target_s / 4) or n >= max_n:
            break
        n *= 4 if wall < 0.005 else 2
    return max(1, min(max_n, round(n * target_s / max(wall, 1e-9))))


def check_outcomes_agree(label: str, mine: list[int], peer: list[int]) -> None:
    """First-player win and loss frequencies must agree within sampling noise."""
    n_mine, n_peer = sum(mine), sum(peer)
    for idx, what in ((0, "first-player wins"), (2, "first-player losses")):
        p_mine, p_peer = mine[idx] / n_mine, peer[idx] / n_peer
        p = (mine[idx] + peer[idx]) / (n_mine + n_peer)
        sigma = math.sqrt(max(p * (1 - p), 1e-4) * (1 / n_mine + 1 / n_peer))
        assert abs(p_mine - p_peer) <= 6 * sigma + 0.005, (
            f"{label}: {what} pyaz {p_mine:.4f} vs OpenSpiel {p_peer:.4f} "
            f"(n={n_mine}/{n_peer}, sigma={sigma:.4f}); "
            "the engines do not play the same random game"
        )


def _median(values: list[float]) -> float:
    return float(statistics.median(values))


def time_random_games(
    benchmark: Any,
    spec: GameSpec,
    pyaz: ModuleType,
    game: Any,
    bench_cfg: BenchConfig,
    record_row: Callable[[dict[str, Any]], None],
) -> None:
    """Times pyaz.random_playouts against OpenSpiel's Python loop on ``game``, interleaved round
    by round, checks that both sides' results agree, and records report.py's row."""
    mine = Side(pyaz_playouts(pyaz, spec))
    peer = Side(lambda n, seed: spiel_playouts(game, n, seed))
    mine.games_per_round = calibrate(mine.fn, PYAZ_TARGET_S * bench_cfg.scale, bench_cfg.seed)
    peer.games_per_round = calibrate(peer.fn, PEER_TARGET_S * bench_cfg.scale, bench_cfg.seed)

    round_no = 0

    def one_round() -> None:
        nonlocal round_no
        seed = bench_cfg.seed + 1 + round_no
        order = (mine, peer) if round_no % 2 == 0 else (peer, mine)
        for side in order:
            side.run(seed)
        round_no += 1

    benchmark.pedantic(one_round, rounds=bench_cfg.rounds, iterations=1, warmup_rounds=0)

    check_outcomes_agree(spec.label, mine.wdl, peer.wdl)

    round_ratios = [a / b for a, b in zip(mine.rates, peer.rates, strict=True)]
    value = _median(mine.rates)
    peer_value = _median(peer.rates)
    ratio = _median(round_ratios)
    info: dict[str, Any] = {
        # report.py schema
        "game": spec.label,
        "measure": "random games/s",
        "unit": "games/s",
        "engine": "pyaz",
        "value": value,
        "peer": _peer_name(),
        "peer_value": peer_value,
        "ratio": ratio,
        "target_ratio": spec.target_ratio,
        # convenience aliases and raw data
        "games_per_s": value,
        "peer_games_per_s": peer_value,
        "pyaz_games_per_round": mine.games_per_round,
        "peer_games_per_round": peer.games_per_round,
        "pyaz_rates": mine.rates,
        "peer_rates": peer.rates,
        "round_ratios": round_ratios,
        "pyaz_first_player_wdl": mine.wdl,
        "peer_first_player_wdl": peer.wdl,
        "pyaz_cpu_per_wall": _median(mine.cpu_per_wall),
        "pyaz_kwargs": spec.pyaz_kwargs,
        "spiel_params": dict(game.get_parameters()),
    }
    benchmark.extra_info.update(info)
    record_row(info)
    # "single thread": a pyaz that spreads playouts over cores would burn more CPU than wall time.
    assert info["pyaz_cpu_per_wall"] < 1.3, "pyaz.random_playouts used more than one core"


# --------------------------------------------------------------------------- benchmarks


@pytest.mark.parametrize(
    "spec",
    [pytest.param(s, marks=pytest.mark.benchmark(group=s.group), id=s.group) for s in GAMES],
)
def test_random_games_per_s(
    benchmark: Any,
    spec: GameSpec,
    pyaz: ModuleType,
    pyspiel: ModuleType,
    bench_cfg: BenchConfig,
    record_row: Callable[[dict[str, Any]], None],
) -> None:
    """Random full games per second, single thread: pyaz.random_playouts vs OpenSpiel."""
    game = _load_spiel_game(pyspiel, spec)
    check_same_rules(pyaz, spec, game, LOCKSTEP_GAMES, bench_cfg.seed)

    time_random_games(benchmark, spec, pyaz, game, bench_cfg, record_row)


@pytest.mark.benchmark(group="othello-8x8")
@pytest.mark.parametrize(
    ("depth", "expected", "target"), PERFT_CASES, ids=[f"perft{d}" for d, _, _ in PERFT_CASES]
)
def test_othello_perft(
    benchmark: Any,
    pyaz: ModuleType,
    bench_cfg: BenchConfig,
    record_row: Callable[[dict[str, Any]], None],
    depth: int,
    expected: int,
    target: float | None,
) -> None:
    """Leaves per second of pyaz.perft on the Othello 8x8 start position."""
    start = pyaz.make("othello", size=8)

    t0 = time.perf_counter()
    leaves = pyaz.perft(start, depth)  # warm-up and correctness check
    first_wall = time.perf_counter() - t0
    assert leaves == expected, f"perft({depth}) = {leaves}, expected {expected}"

    reps = max(1, math.ceil(0.25 * bench_cfg.scale / max(first_wall, 1e-9)))
    rounds = bench_cfg.rounds if depth < 11 else min(3, bench_cfg.rounds)
    rates: list[float] = []

    def one_round() -> None:
        t = time.perf_counter()
        for _ in range(reps):
            got = pyaz.perft(start, depth)
            assert got == expected, f"perft({depth}) = {got}, expected {expected}"
        rates.append(expected * reps / (time.perf_counter() - t))

    benchmark.pedantic(one_round, rounds=rounds, iterations=1, warmup_rounds=0)

    value = _median(rates)
    info: dict[str, Any] = {
        "game": "Othello 8x8",
        "measure": f"perft({depth}) leaves/s",
        "unit": "leaves/s",
        "engine": "pyaz",
        "value": value,
        "peer": "Edax-class (not measured)",
        "peer_value": None,
        "target_value": target,
        "leaves": expected,
        "depth": depth,
        "calls_per_round": reps,
        "rates": rates,
        "leaves_per_s": value,
    }
    benchmark.extra_info.update(info)
    record_row(info)
