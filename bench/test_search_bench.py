"""pyaz tree search vs its peers: simulations per second.

1. UCT with random rollouts, one thread, 2,000 simulations per move search from the start
   position of Othello 8x8, Connect Four 7x6, Gomoku 15x15 and Go 9x9:
   ``pyaz.Search(state, rule="uct")`` + ``run(2000, "rollout")`` vs OpenSpiel's C++
   ``MCTSBot`` with a ``RandomRolloutEvaluator`` (``bot.step(state)``), same UCT constant.
2. PUCT with a uniform evaluator (P uniform, v = 0) on Othello 6x6, one thread, 800 simulations
   per move search: ``pyaz.Search(state)`` + ``run(800, "uniform")`` vs alpha-zero-general's
   pure-Python MCTS (``bench/azg_mcts.py``), once driving pyaz's own Othello state (only the
   search is Python) and once on AZG's own Python Othello (stock AZG; the target row).
3. Thread scaling of pyaz on Othello 8x8: ``threads=2`` vs ``threads=1`` (UCT+rollout and
   PUCT+uniform), and beside it the machine's own two-thread ceiling: two independent
   one-thread searches running at once vs one (nothing shared; turbo, shared caches and the
   hypervisor set it).
4. Batched inference: PUCT with a small ResNet (2 residual blocks, 32 filters; PyTorch on CPU,
   or a NumPy twin when torch is missing) called through a Python callable, ``batch_size=B``
   vs ``batch_size=1``; the batch size actually reached is reported.

As in ``test_games_bench.py``, both sides of a pair are timed in the same test, interleaved
round by round with the order alternating; the reported ratio is the median of the per-round
ratios.  A "move search" is what a game-playing driver does for one move, timed whole: pyaz
builds a fresh ``Search`` and calls ``run(n, evaluator)`` (the arena grows in blocks, so a
``Search`` costs microseconds to build; ``pyaz_search_ctor_ms`` records it); OpenSpiel's bot
builds a fresh tree in every ``step``; AZG builds a fresh ``MCTS`` and calls
``getActionProb``.  Before timing,
each test checks that both sides did the simulations asked for (root visit counts) and that
they agree on the search result as far as the algorithms allow.
"""

from __future__ import annotations

import importlib.metadata
import math
import os
import statistics
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Any

import azg_mcts
import numpy as np
import pytest

if TYPE_CHECKING:
    from conftest import BenchConfig

ROUND_TARGET_S = 0.5  # time of each side in one round (times --bench-scale)
UCT_C = math.sqrt(2.0)  # exploration constant of UCB1, the same in pyaz and OpenSpiel
UCT_SIMULATIONS = 2000  # per move search
PUCT_SIMULATIONS = 800  # per move search (AlphaZero's figure)
AZG_CPUCT = 1.0  # alpha-zero-general's default; pyaz's c_puct default is the same
SPIEL_MAX_MEMORY_MB = 1000
CPU_PER_WALL_MAX = 1.3  # a "single-thread" side that burns more CPU than this used threads


def _median(values: list[float]) -> float:
    return float(statistics.median(values))


def _version(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "?"


# --------------------------------------------------------------------------- timing


@dataclass
class Contender:
    """One side of a paired benchmark: repeated move searches, timed per round."""

    label: str
    search_once: Callable[[], int]  # one move search; returns the simulations it did
    new_round: Callable[[int], None] = lambda _round: None  # untimed set-up before a round
    reps: int = 1
    rates: list[float] = field(default_factory=list)
    cpu_per_wall: list[float] = field(default_factory=list)

    def calibrate(self, target_s: float) -> None:
        """Warm up, then choose how many move searches fill about target_s seconds."""
        self.new_round(-1)
        self.search_once()  # warm-up (caches, allocator, lazy imports)
        t0 = time.perf_counter()
        done = 0
        while True:
            self.search_once()
            done += 1
            wall = time.perf_counter() - t0
            if wall >= min(0.05, target_s / 4):
                break
        self.reps = max(1, round(done * target_s / wall))

    def run_round(self, round_no: int) -> None:
        self.new_round(round_no)
        c0 = time.process_time()
        t0 = time.perf_counter()
        sims = 0
        for _ in range(self.reps):
            sims += self.search_once()
        wall = time.perf_counter() - t0
        cpu = time.process_time() - c0
        self.rates.append(sims / wall)
        self.cpu_per_wall.append(cpu / wall if wall > 0 else 1.0)


def run_paired(benchmark: Any, mine: Contender, peer: Contender, cfg: BenchConfig) -> None:
    """Calibrate both sides, then time cfg.rounds interleaved rounds (order alternating)."""
    target = ROUND_TARGET_S * cfg.scale
    mine.calibrate(target)
    peer.calibrate(target)
    round_no = 0

    def one_round() -> None:
        nonlocal round_no
        order = (mine, peer) if round_no % 2 == 0 else (peer, mine)
        for side in order:
            side.run_round(round_no)
        round_no += 1

    benchmark.pedantic(one_round, rounds=cfg.rounds, iterations=1, warmup_rounds=0)


def paired_info(
    mine: Contender, peer: Contender, *, engine: str | None = None, peer_name: str | None = None
) -> dict[str, Any]:
    """report.py's keys (value, peer_value, ratio, round_ratios) plus the raw rates."""
    round_ratios = [a / b for a, b in zip(mine.rates, peer.rates, strict=True)]
    return {
        "engine": engine or mine.label,
        "value": _median(mine.rates),
        "peer": peer_name or peer.label,
        "peer_value": _median(peer.rates),
        "ratio": _median(round_ratios),
        "round_ratios": round_ratios,
        "pyaz_rates": mine.rates,
        "peer_rates": peer.rates,
        "pyaz_searches_per_round": mine.reps,
        "peer_searches_per_round": peer.reps,
        "pyaz_cpu_per_wall": _median(mine.cpu_per_wall),
        "peer_cpu_per_wall": _median(peer.cpu_per_wall),
        "load_average_1min": os.getloadavg()[0],
    }


def _ctor_ms(pyaz: ModuleType, state: Any, **options: Any) -> float:
    """Milliseconds to build a Search with these options (default arena: 2,000,000 nodes)."""
    times = []
    for _ in range(3):
        t0 = time.perf_counter()
        pyaz.Search(state, **options)
        times.append(time.perf_counter() - t0)
    return 1e3 * min(times)


# --------------------------------------------------------------------------- 1. UCT + rollouts


@dataclass(frozen=True)
class UctSpec:
    label: str
    group_id: str
    pyaz_name: str
    pyaz_kwargs: dict[str, Any]
    spiel_name: str
    spiel_params: dict[str, Any]
    target_ratio: float | None


UCT_GAMES: list[UctSpec] = [
    UctSpec(
        label="Othello 8x8",
        group_id="othello-8x8",
        pyaz_name="othello",
        pyaz_kwargs={"size": 8},
        spiel_name="othello",
        spiel_params={},
        target_ratio=20.0,
    ),
    UctSpec(
        label="Connect Four 7x6",
        group_id="connect-four-7x6",
        pyaz_name="connect_four",
        pyaz_kwargs={"width": 7, "height": 6},
        spiel_name="connect_four",
        spiel_params={"columns": 7, "rows": 6, "x_in_row": 4},
        target_ratio=None,
    ),
    UctSpec(
        label="Gomoku 15x15",
        group_id="gomoku-15x15",
        pyaz_name="gomoku",
        pyaz_kwargs={"size": 15, "line_length": 5, "overline_wins": True},
        spiel_name="gomoku",
        spiel_params={"size": 15, "connect": 5, "dims": 2, "wrap": False, "anti": False},
        target_ratio=None,
    ),
    # Rules as in test_go_bench.py: komi 7.5, Tromp-Taylor area scoring, OpenSpiel's length cap
    # of 2*n*n (pyaz's default is 3*n*n). OpenSpiel numbers rows from the bottom and pyaz from
    # the top (the pass is n*n in both), so _check_uct_searches compares legal moves as sets.
    UctSpec(
        label="Go 9x9",
        group_id="go-9x9",
        pyaz_name="go",
        pyaz_kwargs={"size": 9, "komi": 7.5, "max_game_length": 2 * 9 * 9},
        spiel_name="go",
        spiel_params={"board_size": 9, "komi": 7.5},
        target_ratio=None,
    ),
]


def _spiel_mcts_bot(pyspiel: ModuleType, game: Any, seed: int) -> Any:
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)  # n_rollouts, seed
    # (game, evaluator, uct_c, max_simulations, max_memory_mb, solve, seed, verbose):
    # solve=False because pyaz's UCT has no MCTS-solver either.
    return pyspiel.MCTSBot(
        game, evaluator, UCT_C, UCT_SIMULATIONS, SPIEL_MAX_MEMORY_MB, False, seed, False
    )


def _check_uct_searches(
    pyaz: ModuleType, pyspiel: ModuleType, spec: UctSpec, game: Any, seed: int
) -> dict[str, Any]:
    """Both searches do UCT_SIMULATIONS simulations and reach similar root values."""
    start = pyaz.make(spec.pyaz_name, **spec.pyaz_kwargs)
    spiel_start = game.new_initial_state()
    assert start.num_actions == game.num_distinct_actions(), "action spaces differ"
    if "max_game_length" in spec.pyaz_kwargs:
        assert game.max_game_length() == spec.pyaz_kwargs["max_game_length"], "length caps"
    assert sorted(start.legal_actions()) == sorted(spiel_start.legal_actions()), "start moves"
    mine_values, peer_values = [], []
    for k in range(3):
        search = pyaz.Search(start, rule="uct", c_uct=UCT_C, seed=seed + k)
        search.run(UCT_SIMULATIONS, "rollout")
        counts = np.asarray(search.visit_counts())
        assert search.root_visits == UCT_SIMULATIONS, f"pyaz root visits {search.root_visits}"
        assert counts.sum() == UCT_SIMULATIONS - 1, f"pyaz child visits {counts.sum()}"
        assert start.is_legal(int(counts.argmax())), "pyaz's most visited move is illegal"
        mine_values.append(float(search.root_value))

        root = _spiel_mcts_bot(pyspiel, game, seed + k).mcts_search(spiel_start)
        assert root.explore_count == UCT_SIMULATIONS, f"OpenSpiel visits {root.explore_count}"
        # root.player is the side to move at the root, total_reward sums its returns.
        peer_values.append(root.total_reward / root.explore_count)
    mine_v, peer_v = statistics.fmean(mine_values), statistics.fmean(peer_values)
    # A loose check (UCT concentrates on different moves on different runs): it catches a
    # sign error or broken rollouts, not small biases.
    assert abs(mine_v - peer_v) < 0.25, (
        f"{spec.label}: root value pyaz {mine_v:+.3f} vs OpenSpiel {peer_v:+.3f}"
    )
    return {"pyaz_root_value": mine_v, "peer_root_value": peer_v}


@pytest.mark.parametrize(
    "spec",
    [
        pytest.param(s, marks=pytest.mark.benchmark(group="mcts-uct-rollout"), id=s.group_id)
        for s in UCT_GAMES
    ],
)
def test_uct_rollout_sims_per_s(
    benchmark: Any,
    spec: UctSpec,
    pyaz: ModuleType,
    pyspiel: ModuleType,
    bench_cfg: BenchConfig,
    record_row: Callable[[dict[str, Any]], None],
) -> None:
    """UCT + one random rollout per leaf, one thread: pyaz.Search vs OpenSpiel's MCTSBot."""
    game = pyspiel.load_game(spec.spiel_name, spec.spiel_params)
    for key, value in spec.spiel_params.items():
        assert game.get_parameters().get(key) == value, f"OpenSpiel parameter {key}"
    checks = _check_uct_searches(pyaz, pyspiel, spec, game, bench_cfg.seed)

    start = pyaz.make(spec.pyaz_name, **spec.pyaz_kwargs)
    spiel_start = game.new_initial_state()
    holder: dict[str, Any] = {"seed": bench_cfg.seed + 1000}

    def pyaz_search() -> int:
        holder["seed"] += 1  # a new rollout stream for every move search
        search = pyaz.Search(start, rule="uct", c_uct=UCT_C, threads=1, seed=holder["seed"])
        search.run(UCT_SIMULATIONS, "rollout")
        return UCT_SIMULATIONS

    def spiel_round(r: int) -> None:
        holder["bot"] = _spiel_mcts_bot(pyspiel, game, bench_cfg.seed + 1000 + r)

    def spiel_search() -> int:
        holder["bot"].step(spiel_start)
        return UCT_SIMULATIONS

    mine = Contender("pyaz", pyaz_search)
    peer = Contender("OpenSpiel", spiel_search, spiel_round)
    run_paired(benchmark, mine, peer, bench_cfg)

    info: dict[str, Any] = {
        "game": spec.label,
        "measure": f"UCT+rollout sims/s ({UCT_SIMULATIONS:,}/move, 1 thread)",
        "unit": "sims/s",
        "target_ratio": spec.target_ratio,
        "simulations_per_search": UCT_SIMULATIONS,
        "uct_c": UCT_C,
        "pyaz_search_ctor_ms": _ctor_ms(pyaz, start, rule="uct"),
        **checks,
        **paired_info(
            mine,
            peer,
            engine="pyaz",
            peer_name=f"OpenSpiel {_version('open_spiel')} MCTSBot (C++)",
        ),
    }
    benchmark.extra_info.update(info)
    record_row(info)
    assert info["pyaz_cpu_per_wall"] < CPU_PER_WALL_MAX, "pyaz used more than one core"


# --------------------------------------------------------------------------- 2. PUCT vs AZG


@dataclass(frozen=True)
class AzgSpec:
    id: str
    peer: str
    stock_game: bool  # True: AZG's own Python Othello; False: pyaz's Othello state
    target_ratio: float | None


AZG_CASES: list[AzgSpec] = [
    # The target (300x) is against alpha-zero-general as it is (its MCTS on its own
    # Python Othello, about 3,200 sims/s here); its MCTS on pyaz's C++ Othello is a harder peer.
    AzgSpec("azg-on-pyaz-game", "alpha-zero-general MCTS (Python) on pyaz's Othello", False, None),
    AzgSpec("azg-stock", "alpha-zero-general MCTS + its Python Othello", True, 300.0),
]


def _azg_root(case: AzgSpec, start: Any) -> Any:
    """The argument azg_mcts.azg_search takes, and the canonical root board of its tree."""
    if case.stock_game:
        size = int(start.size)
        return size, azg_mcts.AzgOthelloGame(size).getInitBoard()
    return start, start


def _check_puct_vs_azg(pyaz: ModuleType, case: AzgSpec, start: Any) -> dict[str, Any]:
    """Same PUCT rule, same priors, same values: the root visit counts should match."""
    search = pyaz.Search(start, rule="puct", c_puct=AZG_CPUCT)
    search.run(PUCT_SIMULATIONS, "uniform")
    mine = np.asarray(search.visit_counts(), dtype=np.int64)
    arg, root = _azg_root(case, start)
    mcts = azg_mcts.azg_search(arg, PUCT_SIMULATIONS, AZG_CPUCT)
    theirs = np.asarray(azg_mcts.root_visit_counts(mcts, root), dtype=np.int64)
    assert mine.shape == theirs.shape, "action spaces differ"
    assert search.root_visits == PUCT_SIMULATIONS
    assert mine.sum() == theirs.sum() == PUCT_SIMULATIONS - 1, (mine.sum(), theirs.sum())
    # AZG merges transpositions and scores draws differently (1e-4 on pyaz's game, a loss in
    # its own Othello), pyaz does neither, so small differences are allowed; from the start
    # position with 800 simulations the counts come out identical.
    l1 = float(np.abs(mine / mine.sum() - theirs / theirs.sum()).sum())
    assert l1 < 0.1, f"root visit distributions differ: pyaz {mine}, AZG {theirs}"
    return {"root_visits_l1_distance": l1, "root_visits_identical": bool((mine == theirs).all())}


def _check_azg_othello_rules(pyaz: ModuleType, size: int, games: int, seed: int) -> None:
    """AZG's own Othello plays the same game as pyaz's: moves, end and winner, in lockstep."""
    rng = np.random.default_rng(seed)
    game = azg_mcts.AzgOthelloGame(size)
    for g in range(games):
        mine = pyaz.make("othello", size=size)
        board, player = game.getInitBoard(), 1
        while True:
            ended = game.getGameEnded(board, player)
            assert (ended != 0) == mine.is_terminal(), f"game {g}: end differs"
            if ended:
                status = str(mine.status())
                if not status.endswith("DRAW"):  # AZG's Othello scores a draw as a loss
                    first_won = status.endswith("FIRST_PLAYER_WIN")
                    assert (ended == 1) == (first_won == (player == 1)), f"game {g}: winner"
                break
            legal = np.flatnonzero(game.getValidMoves(board, player)).tolist()
            assert legal == sorted(mine.legal_actions()), f"game {g}: legal moves differ"
            action = int(rng.choice(legal))
            mine.apply(action)
            board, player = game.getNextState(board, player, action)


@pytest.mark.benchmark(group="mcts-puct-uniform")
@pytest.mark.parametrize("case", AZG_CASES, ids=[c.id for c in AZG_CASES])
def test_puct_uniform_vs_azg(
    benchmark: Any,
    case: AzgSpec,
    pyaz: ModuleType,
    bench_cfg: BenchConfig,
    record_row: Callable[[dict[str, Any]], None],
) -> None:
    """PUCT + uniform evaluator on Othello 6x6, one thread: pyaz vs AZG's Python MCTS."""
    start = pyaz.make("othello", size=6)
    if case.stock_game:
        _check_azg_othello_rules(pyaz, 6, 20, bench_cfg.seed)
    checks = _check_puct_vs_azg(pyaz, case, start)
    azg_arg, _ = _azg_root(case, start)

    def pyaz_search() -> int:
        search = pyaz.Search(start, rule="puct", c_puct=AZG_CPUCT, threads=1)
        search.run(PUCT_SIMULATIONS, "uniform")
        search.policy(1.0)  # AZG's getActionProb also returns the visit policy
        return PUCT_SIMULATIONS

    def azg_search() -> int:
        azg_mcts.azg_search(azg_arg, PUCT_SIMULATIONS, AZG_CPUCT)
        return PUCT_SIMULATIONS

    mine = Contender("pyaz", pyaz_search)
    peer = Contender("AZG", azg_search)
    run_paired(benchmark, mine, peer, bench_cfg)

    info: dict[str, Any] = {
        "game": "Othello 6x6",
        "measure": f"PUCT+uniform sims/s ({PUCT_SIMULATIONS}/move, 1 thread)",
        "unit": "sims/s",
        "target_ratio": case.target_ratio,
        "simulations_per_search": PUCT_SIMULATIONS,
        "c_puct": AZG_CPUCT,
        "azg_game": "AZG othello/OthelloGame.py" if case.stock_game else "pyaz Othello",
        "pyaz_search_ctor_ms": _ctor_ms(pyaz, start),
        **checks,
        **paired_info(mine, peer, engine="pyaz", peer_name=case.peer),
    }
    benchmark.extra_info.update(info)
    record_row(info)
    assert info["pyaz_cpu_per_wall"] < CPU_PER_WALL_MAX, "pyaz used more than one core"


# --------------------------------------------------------------------------- 3. threads


@dataclass(frozen=True)
class ThreadSpec:
    id: str
    rule: str
    evaluator: str
    simulations: int  # per move search
    label: str


THREAD_CASES: list[ThreadSpec] = [
    ThreadSpec("uct-rollout", "uct", "rollout", UCT_SIMULATIONS, "UCT+rollout"),
    ThreadSpec("puct-uniform", "puct", "uniform", 10_000, "PUCT+uniform"),
]


@pytest.mark.benchmark(group="mcts-threads")
@pytest.mark.parametrize("case", THREAD_CASES, ids=[c.id for c in THREAD_CASES])
def test_thread_scaling(
    benchmark: Any,
    case: ThreadSpec,
    pyaz: ModuleType,
    bench_cfg: BenchConfig,
    record_row: Callable[[dict[str, Any]], None],
) -> None:
    """pyaz sims/s on Othello 8x8 with threads=2 vs threads=1 (same tree, virtual loss).

    Each side keeps one ``pyaz.Search`` (and so its thread pool) and starts every move search
    from an empty tree with ``set_root``, as a game loop does between moves.
    """
    start = pyaz.make("othello", size=8)

    def search_with(n: int) -> Callable[[], int]:
        search = pyaz.Search(start, rule=case.rule, threads=n, seed=bench_cfg.seed)

        def run() -> int:
            search.set_root(start)
            search.run(case.simulations, case.evaluator)
            assert search.root_visits == case.simulations
            assert search.pending_visits == 0
            return case.simulations

        return run

    two = Contender("pyaz threads=2", search_with(2))
    one = Contender("pyaz threads=1", search_with(1))
    run_paired(benchmark, two, one, bench_cfg)

    info: dict[str, Any] = {
        "game": "Othello 8x8",
        "measure": f"{case.label} sims/s ({case.simulations:,}/move), 2 threads vs 1",
        "unit": "sims/s",
        "target_ratio": 1.8,
        "simulations_per_search": case.simulations,
        "cores": os.cpu_count(),
        **paired_info(two, one, engine="pyaz 2 threads", peer_name="pyaz 1 thread"),
    }
    # cpu/wall of the 2-thread side near 1.0 means the second thread hardly ran (other load
    # on a 2-core machine, or the threads wait on each other); near 2.0 means both were busy.
    info["threads2_cpu_per_wall"] = info.pop("pyaz_cpu_per_wall")
    info["threads1_cpu_per_wall"] = info.pop("peer_cpu_per_wall")
    info["measure"] += f" (2-thread CPU/wall {info['threads2_cpu_per_wall']:.2f})"
    benchmark.extra_info.update(info)
    record_row(info)


@pytest.mark.benchmark(group="mcts-threads")
@pytest.mark.parametrize("case", THREAD_CASES, ids=[c.id for c in THREAD_CASES])
def test_two_thread_ceiling(
    benchmark: Any,
    case: ThreadSpec,
    pyaz: ModuleType,
    bench_cfg: BenchConfig,
    record_row: Callable[[dict[str, Any]], None],
) -> None:
    """What two threads can give on this machine at all: two independent one-thread searches
    (two trees, nothing shared) running at once, vs one. Shared-tree scaling is read against it.
    """
    start = pyaz.make("othello", size=8)
    searches = [
        pyaz.Search(start, rule=case.rule, threads=1, seed=bench_cfg.seed + i) for i in range(2)
    ]

    def search(which: int) -> None:
        searches[which].set_root(start)
        searches[which].run(case.simulations, case.evaluator)

    def run_pair() -> int:
        helper = threading.Thread(target=search, args=(1,))
        helper.start()  # pyaz releases the GIL while it searches
        search(0)
        helper.join()
        return 2 * case.simulations

    def run_one() -> int:
        search(0)
        return case.simulations

    pair = Contender("two independent searches", run_pair)
    one = Contender("one search", run_one)
    run_paired(benchmark, pair, one, bench_cfg)
    info: dict[str, Any] = {
        "game": "Othello 8x8",
        "measure": f"{case.label} sims/s ({case.simulations:,}/move), two independent "
        "one-thread searches at once vs one: the machine's two-thread ceiling",
        "unit": "sims/s",
        "simulations_per_search": case.simulations,
        "cores": os.cpu_count(),
        **paired_info(pair, one, engine="2 searches at once", peer_name="1 search"),
    }
    benchmark.extra_info.update(info)
    record_row(info)


# --------------------------------------------------------------------------- 4. batching

NET_FILTERS = 32
NET_BLOCKS = 2
BATCH_SIMULATIONS = 400  # per move search
BATCH_SIZES = [16, 32]


def _torch_net(planes: int, height: int, width: int, actions: int, seed: int) -> Any:
    """AlphaZero-style ResNet in PyTorch (eval mode, CPU): (policy logits, tanh value)."""
    import torch
    from torch import nn

    torch.manual_seed(seed)

    class Residual(nn.Module):
        def __init__(self, f: int) -> None:
            super().__init__()
            self.conv1 = nn.Conv2d(f, f, 3, padding=1, bias=False)
            self.bn1 = nn.BatchNorm2d(f)
            self.conv2 = nn.Conv2d(f, f, 3, padding=1, bias=False)
            self.bn2 = nn.BatchNorm2d(f)

        def forward(self, x: Any) -> Any:
            y = torch.relu(self.bn1(self.conv1(x)))
            return torch.relu(x + self.bn2(self.conv2(y)))

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            f = NET_FILTERS
            self.stem = nn.Sequential(
                nn.Conv2d(planes, f, 3, padding=1, bias=False), nn.BatchNorm2d(f), nn.ReLU()
            )
            self.body = nn.Sequential(*[Residual(f) for _ in range(NET_BLOCKS)])
            self.policy = nn.Sequential(
                nn.Conv2d(f, 2, 1, bias=False),
                nn.BatchNorm2d(2),
                nn.ReLU(),
                nn.Flatten(),
                nn.Linear(2 * height * width, actions),
            )
            self.value = nn.Sequential(
                nn.Conv2d(f, 1, 1, bias=False),
                nn.BatchNorm2d(1),
                nn.ReLU(),
                nn.Flatten(),
                nn.Linear(height * width, 64),
                nn.ReLU(),
                nn.Linear(64, 1),
                nn.Tanh(),
            )

        def forward(self, x: Any) -> tuple[Any, Any]:
            x = self.body(self.stem(x))
            return self.policy(x), self.value(x).squeeze(1)

    net = Net().eval()

    def evaluate(batch: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        with torch.inference_mode():
            logits, values = net(torch.from_numpy(np.array(batch)))  # copy: input is read-only
        return logits.numpy(), values.numpy()

    return evaluate


def _numpy_net(planes: int, height: int, width: int, actions: int, seed: int) -> Any:
    """The same ResNet in NumPy (batch norm folded into the convolutions), for torch-less hosts."""
    rng = np.random.default_rng(seed)
    f = NET_FILTERS

    def conv_weights(cin: int, cout: int, k: int) -> tuple[np.ndarray, np.ndarray]:
        w = rng.normal(0, math.sqrt(2.0 / (cin * k * k)), (cout, cin, k, k)).astype(np.float32)
        return w, np.zeros(cout, np.float32)

    def conv3(x: np.ndarray, wb: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
        w, b = wb
        padded = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
        windows = np.lib.stride_tricks.sliding_window_view(padded, (3, 3), axis=(2, 3))
        return np.einsum("bchwij,ocij->bohw", windows, w, optimize=True) + b[None, :, None, None]

    def conv1(x: np.ndarray, wb: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
        w, b = wb
        return np.einsum("bchw,oc->bohw", x, w[:, :, 0, 0]) + b[None, :, None, None]

    relu = lambda x: np.maximum(x, 0)  # noqa: E731
    stem = conv_weights(planes, f, 3)
    blocks = [(conv_weights(f, f, 3), conv_weights(f, f, 3)) for _ in range(NET_BLOCKS)]
    p_conv, v_conv = conv_weights(f, 2, 1), conv_weights(f, 1, 1)
    p_fc = rng.normal(0, 0.05, (2 * height * width, actions)).astype(np.float32)
    v_fc1 = rng.normal(0, 0.05, (height * width, 64)).astype(np.float32)
    v_fc2 = rng.normal(0, 0.05, (64, 1)).astype(np.float32)

    def evaluate(batch: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        x = relu(conv3(batch, stem))
        for a, b in blocks:
            x = relu(x + conv3(relu(conv3(x, a)), b))
        n = x.shape[0]
        logits = relu(conv1(x, p_conv)).reshape(n, -1) @ p_fc
        values = np.tanh(relu(relu(conv1(x, v_conv)).reshape(n, -1) @ v_fc1) @ v_fc2)[:, 0]
        return logits.astype(np.float32), values.astype(np.float32)

    return evaluate


def _make_net(shape: tuple[int, int, int], actions: int, seed: int) -> tuple[Any, str]:
    try:
        import torch
    except ImportError:
        return _numpy_net(*shape, actions, seed), f"NumPy {np.__version__}"
    return _torch_net(*shape, actions, seed), f"PyTorch {torch.__version__} CPU, 1 thread"


@dataclass
class CountingEvaluator:
    """Wraps the network callable and counts calls and evaluated leaves."""

    fn: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]
    calls: int = 0
    leaves: int = 0

    def __call__(self, planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        self.calls += 1
        self.leaves += planes.shape[0]
        return self.fn(planes)


@pytest.mark.benchmark(group="mcts-batched")
@pytest.mark.parametrize("batch_size", BATCH_SIZES, ids=[f"batch{b}" for b in BATCH_SIZES])
def test_batched_inference(
    benchmark: Any,
    batch_size: int,
    pyaz: ModuleType,
    bench_cfg: BenchConfig,
    record_row: Callable[[dict[str, Any]], None],
    one_torch_thread: None,
) -> None:
    """PUCT + a small ResNet through a Python callable: batch_size=B vs batch_size=1."""
    start = pyaz.make("othello", size=8)
    net, backend = _make_net(tuple(start.planes_shape), start.num_actions, bench_cfg.seed)
    logits, values = net(start.encode()[None])
    assert logits.shape == (1, start.num_actions) and values.shape == (1,)

    counters = {b: CountingEvaluator(net) for b in (1, batch_size)}
    simulations = {b: 0 for b in (1, batch_size)}

    def search_with(b: int) -> Callable[[], int]:
        def run() -> int:
            search = pyaz.Search(start, rule="puct", threads=1, batch_size=b, seed=bench_cfg.seed)
            search.run(BATCH_SIMULATIONS, counters[b])
            assert search.root_visits == BATCH_SIMULATIONS
            simulations[b] += BATCH_SIMULATIONS
            return BATCH_SIMULATIONS

        return run

    batched = Contender(f"pyaz batch_size={batch_size}", search_with(batch_size))
    single = Contender("pyaz batch_size=1", search_with(1))
    run_paired(benchmark, batched, single, bench_cfg)

    # Batch size reached = simulations / evaluator calls (every search's first call evaluates
    # the root alone; simulations that end on a terminal node need no evaluation).
    reached = simulations[batch_size] / counters[batch_size].calls
    info: dict[str, Any] = {
        "game": "Othello 8x8",
        "measure": (
            f"PUCT+ResNet sims/s ({BATCH_SIMULATIONS}/move), batch {batch_size} vs 1 "
            f"(reached {reached:.1f})"
        ),
        "unit": "sims/s",
        "simulations_per_search": BATCH_SIMULATIONS,
        "batch_size": batch_size,
        "batch_reached": reached,
        "leaves_per_call": counters[batch_size].leaves / counters[batch_size].calls,
        "evaluator_calls": counters[batch_size].calls,
        "simulations": simulations[batch_size],
        "batch1_sims_per_call": simulations[1] / counters[1].calls,
        "net": f"ResNet {NET_BLOCKS} blocks x {NET_FILTERS} filters, {backend}",
        **paired_info(batched, single, engine=f"pyaz batch {batch_size}", peer_name="pyaz batch 1"),
    }
    benchmark.extra_info.update(info)
    record_row(info)
    assert reached > 1.0, "batching gathered no more than one leaf per call"
