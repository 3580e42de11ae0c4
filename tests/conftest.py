"""The quick test tier: the modules below are marked ``long`` (each takes over ten seconds of
the default run on the 2-core machine, most of them minutes: training runs and their kills and
resumes, experiments, the sanitizer builds, the 7x6 Connect Four solve, reference cross-checks),
so that ``python -m pytest -m "not slow and not long"`` runs the rest in under three minutes,
while plain ``python -m pytest`` (what CI runs) still runs everything but ``slow``."""

from __future__ import annotations

import pytest

LONG_MODULES = frozenset(
    {
        "test_accelerations",
        "test_alphagomoku",
        "test_board_browser",
        "test_connect_four_solver",
        "test_crosscheck_reference",
        "test_curling_selfplay",
        "test_experiment_folders",
        "test_experiments",
        "test_faults",
        "test_interrupt",
        "test_learning",
        "test_model_trust",
        "test_protocol_limits",
        "test_ray",
        "test_reliability",
        "test_run_folders",
        "test_run_framework",
        "test_sanitizers",
        "test_train_search_options",
        "test_train_techniques",
        "test_training",
    }
)
"""Module names (tests/NAME.py) whose every test is marked ``long``."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Marks the tests of :data:`LONG_MODULES` ``long``."""
    for item in items:
        if item.path.stem in LONG_MODULES:
            item.add_marker(pytest.mark.long)
