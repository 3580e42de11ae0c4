"""Shared options, fixtures and hooks for the pyaz benchmark suite.

Run with::

    pytest bench/ --benchmark-only --benchmark-json=bench/results.json
    python bench/report.py bench/results.json

Every benchmark stores its figures in ``benchmark.extra_info`` under the keys that
``bench/report.py`` reads (see the README for the schema), so the report never has
to interpret pytest-benchmark's own timing statistics.
"""

from __future__ import annotations

import importlib.metadata
import os
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import pytest

_ROWS_KEY = pytest.StashKey[list[dict[str, Any]]]()


@dataclass(frozen=True)
class BenchConfig:
    """Knobs shared by all benchmarks (set from the command line)."""

    rounds: int
    scale: float
    seed: int


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("pyaz-bench", "pyaz benchmark suite")
    group.addoption(
        "--bench-rounds",
        type=int,
        default=5,
        help="timed rounds per paired playout benchmark (default 5; perft(11) uses min(3, this))",
    )
    group.addoption(
        "--bench-scale",
        type=float,
        default=1.0,
        help="multiply the per-round time budgets, e.g. 0.2 for a quick smoke run (default 1.0)",
    )
    group.addoption(
        "--bench-seed",
        type=int,
        default=20240601,
        help="base seed for the random playouts of both engines",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.stash[_ROWS_KEY] = []


@pytest.fixture(scope="session")
def bench_cfg(pytestconfig: pytest.Config) -> BenchConfig:
    rounds = int(pytestconfig.getoption("--bench-rounds", default=5))
    scale = float(pytestconfig.getoption("--bench-scale", default=1.0))
    seed = int(pytestconfig.getoption("--bench-seed", default=20240601))
    if rounds < 1:
        raise pytest.UsageError("--bench-rounds must be >= 1")
    if scale <= 0:
        raise pytest.UsageError("--bench-scale must be > 0")
    return BenchConfig(rounds=rounds, scale=scale, seed=seed)


@pytest.fixture(scope="session")
def pyaz() -> ModuleType:
    """The engine under test; benchmarks are skipped while it is not installed."""
    module: ModuleType = pytest.importorskip("pyaz", reason="pyaz extension is not built/installed")
    return module


@pytest.fixture(scope="session")
def pyspiel() -> ModuleType:
    """The OpenSpiel peer."""
    module: ModuleType = pytest.importorskip("pyspiel", reason="open-spiel is not installed")
    return module


@pytest.fixture
def record_row(pytestconfig: pytest.Config) -> Any:
    """Remember a finished row so the terminal summary can print it."""

    def _record(extra_info: dict[str, Any]) -> None:
        pytestconfig.stash[_ROWS_KEY].append(dict(extra_info))

    return _record


def _dist_version(name: str) -> str | None:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def pytest_benchmark_update_machine_info(
    config: pytest.Config, machine_info: dict[str, Any]
) -> None:
    versions: dict[str, str | None] = {
        "open_spiel": _dist_version("open_spiel"),
        "numpy": _dist_version("numpy"),
        "pytest-benchmark": _dist_version("pytest-benchmark"),
    }
    pyaz_version = _dist_version("pyaz")
    if pyaz_version is None:
        try:
            import pyaz

            pyaz_version = str(getattr(pyaz, "__version__", "unknown"))
        except ImportError:
            pyaz_version = None
    versions["pyaz"] = pyaz_version
    machine_info["pyaz_bench_versions"] = versions
    machine_info["cpu_count"] = os.cpu_count()


@pytest.fixture
def one_torch_thread() -> Any:
    """Pin PyTorch to one intra-op thread (the search runs on one thread too)."""
    try:
        import torch
    except ImportError:
        yield
        return
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def _si(value: float, unit: str) -> str:
    for factor, prefix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= factor:
            return f"{value / factor:.3g} {prefix} {unit}".rstrip()
    return f"{value:.3g} {unit}".rstrip()


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    rows = config.stash.get(_ROWS_KEY, [])
    if not rows:
        return
    terminalreporter.section("pyaz bench summary (ratios within this run)")
    for row in rows:
        unit = row.get("unit", "")
        label = f"{row.get('game', '?'):<16} {row.get('measure', '?'):<22}"
        line = f"{label} pyaz {_si(float(row['value']), unit)}"
        if row.get("peer_value") is not None:
            line += f" | {row.get('peer', 'peer')} {_si(float(row['peer_value']), unit)}"
        if row.get("ratio") is not None:
            line += f" | ratio {float(row['ratio']):.1f}x"
            if row.get("target_ratio") is not None:
                line += f" (target >= {float(row['target_ratio']):g}x)"
        elif row.get("target_value") is not None:
            line += f" (target >= {_si(float(row['target_value']), unit)})"
        terminalreporter.write_line(line)
