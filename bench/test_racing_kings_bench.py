"""Racing Kings perft speed: pyaz against Fairy-Stockfish's ``go perft`` and python-chess.

All from the standard start, one thread, the last ply bulk-counted (a legal-move count) on every
side, and each pair timed in the same test with the order alternating between rounds:

- depth 5 and 6: ``pyaz.perft`` vs Fairy-Stockfish 11.1's ``go perft`` (a general variant engine,
  about 14.5 M nodes/s here). Fairy-Stockfish is timed from sending ``go perft`` to reading its
  "Nodes searched" line, with the process already started and set to ``racingkings``, as it
  prints no time of its own. Target: pyaz faster (ratio >= 1).
- depth 4: ``pyaz.perft`` vs python-chess's ``RacingKingsBoard`` perft (the tests' reference,
  about 0.2 M nodes/s), both at depth 4.

Node counts are checked against ``../shared/reference/perft.md`` every round.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import math
import statistics
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from conftest import BenchConfig

START_FEN = "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1"
START_PERFT = {4: 296_242, 5: 9_472_927, 6: 298_712_641}
PYAZ_MIN_ROUND_S = 0.25  # pyaz repeats a fast perft to fill at least this much of a round


def _reference() -> ModuleType:
    """tests/racing_kings_reference.py (python-chess perft and the Fairy-Stockfish client)."""
    pytest.importorskip("chess", reason="python-chess is not installed")
    path = Path(__file__).resolve().parents[1] / "tests" / "racing_kings_reference.py"
    spec = importlib.util.spec_from_file_location("racing_kings_reference", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def reference() -> ModuleType:
    return _reference()


@pytest.fixture(scope="module")
def fairy_stockfish(reference: ModuleType) -> Iterator[Any]:
    path = reference.find_fairy_stockfish()
    if path is None:
        pytest.skip(reference.MISSING_FAIRY_STOCKFISH)
    engine = reference.FairyStockfish(path)
    yield engine
    engine.close()


def _version(name: str) -> str:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return "?"


def _pyaz_rate(pyaz: ModuleType, depth: int, reps: int) -> float:
    start = pyaz.make("racingkings")
    began = time.perf_counter()
    for _ in range(reps):
        nodes = pyaz.perft(start, depth)
        assert nodes == START_PERFT[depth], f"pyaz perft({depth}) = {nodes}"
    return START_PERFT[depth] * reps / (time.perf_counter() - began)


def _reps_for(pyaz: ModuleType, depth: int, scale: float) -> int:
    began = time.perf_counter()
    pyaz.perft(pyaz.make("racingkings"), depth)  # warm-up and calibration
    return max(1, math.ceil(PYAZ_MIN_ROUND_S * scale / max(time.perf_counter() - began, 1e-9)))


def _run_pair(
    benchmark: Any,
    rounds: int,
    mine: Callable[[], float],
    peer: Callable[[], float],
) -> tuple[list[float], list[float]]:
    """Times both sides once per round, alternating which goes first; returns nodes/s lists."""
    mine_rates: list[float] = []
    peer_rates: list[float] = []
    round_no = 0

    def one_round() -> None:
        nonlocal round_no
        order = [(mine, mine_rates), (peer, peer_rates)]
        for fn, rates in order if round_no % 2 == 0 else reversed(order):
            rates.append(fn())
        round_no += 1

    benchmark.pedantic(one_round, rounds=rounds, iterations=1, warmup_rounds=0)
    return mine_rates, peer_rates


def _record(
    benchmark: Any,
    record_row: Callable[[dict[str, Any]], None],
    depth: int,
    peer: str,
    mine_rates: list[float],
    peer_rates: list[float],
    target_ratio: float | None,
    extra: dict[str, Any],
) -> None:
    round_ratios = [a / b for a, b in zip(mine_rates, peer_rates, strict=True)]
    info: dict[str, Any] = {
        "game": "Racing Kings",
        "measure": f"perft({depth}) nodes/s",
        "unit": "nodes/s",
        "engine": "pyaz",
        "value": statistics.median(mine_rates),
        "peer": peer,
        "peer_value": statistics.median(peer_rates),
        "ratio": statistics.median(round_ratios),
        "round_ratios": round_ratios,
        "target_ratio": target_ratio,
        "nodes": START_PERFT[depth],
        "depth": depth,
        "pyaz_rates": mine_rates,
        "peer_rates": peer_rates,
        **extra,
    }
    benchmark.extra_info.update(info)
    record_row(info)


@pytest.mark.benchmark(group="racing-kings")
@pytest.mark.parametrize("depth", [5, 6], ids=["perft5", "perft6"])
def test_perft_vs_fairy_stockfish(
    benchmark: Any,
    pyaz: ModuleType,
    fairy_stockfish: Any,
    bench_cfg: BenchConfig,
    record_row: Callable[[dict[str, Any]], None],
    depth: int,
) -> None:
    """Nodes per second of pyaz.perft and Fairy-Stockfish's go perft, start position."""
    reps = _reps_for(pyaz, depth, bench_cfg.scale)

    def peer() -> float:
        nodes, seconds = fairy_stockfish.timed_perft(START_FEN, depth)
        assert nodes == START_PERFT[depth], f"Fairy-Stockfish perft({depth}) = {nodes}"
        return nodes / seconds

    rounds = bench_cfg.rounds if depth < 6 else min(2, bench_cfg.rounds)
    mine_rates, peer_rates = _run_pair(
        benchmark, rounds, lambda: _pyaz_rate(pyaz, depth, reps), peer
    )
    _record(
        benchmark,
        record_row,
        depth,
        "Fairy-Stockfish 11.1 (go perft)",
        mine_rates,
        peer_rates,
        1.0,
        {"pyaz_calls_per_round": reps},
    )


@pytest.mark.benchmark(group="racing-kings")
def test_perft_vs_python_chess(
    benchmark: Any,
    pyaz: ModuleType,
    reference: ModuleType,
    bench_cfg: BenchConfig,
    record_row: Callable[[dict[str, Any]], None],
) -> None:
    """Nodes per second at depth 4: pyaz.perft and python-chess's perft (a Python loop)."""
    depth = 4
    reps = _reps_for(pyaz, depth, bench_cfg.scale)
    board = pytest.importorskip("chess.variant").RacingKingsBoard(START_FEN)

    def peer() -> float:
        began = time.perf_counter()
        nodes = reference.pc_perft(board, depth)
        assert nodes == START_PERFT[depth], f"python-chess perft({depth}) = {nodes}"
        return nodes / (time.perf_counter() - began)

    mine_rates, peer_rates = _run_pair(
        benchmark, min(3, bench_cfg.rounds), lambda: _pyaz_rate(pyaz, depth, reps), peer
    )
    _record(
        benchmark,
        record_row,
        depth,
        f"python-chess {_version('chess')}",
        mine_rates,
        peer_rates,
        None,
        {"pyaz_calls_per_round": reps},
    )
