"""The hostile-input suite: over a thousand generated bad inputs across the public entry points
(games, text formats, search and self-play options, evaluators, symmetries, curling, preset
files, the command lines' options), each of which must end in a ValueError or TypeError whose
message names the bad value: never another exception, a silent accept, a crash or a hang.

The cases (tests/hostile_cases.py) run in one subprocess with a time limit per case, so that a
crash or a hang fails the case that caused it instead of the test session.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hostile_cases import all_cases

CASES = {case.id: case for case in all_cases("unused")}
WORKER = Path(__file__).with_name("hostile_cases.py")


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, str | None]]:
    """Every case's outcome ({"type": exception name or None, "message": ...}); a case that
    crashed the worker is recorded as such, and the rest run on in a new worker."""
    folder = tmp_path_factory.mktemp("hostile")
    done: dict[str, dict[str, str | None]] = {}
    while len(done) < len(CASES):
        process = subprocess.run(
            [sys.executable, str(WORKER), str(folder), *done],
            capture_output=True,
            text=True,
            timeout=600,
        )
        started = None
        for line in process.stdout.splitlines():
            record = json.loads(line)
            if "start" in record:
                started = record["start"]
            else:
                done[record.pop("id")] = record
        if process.returncode != 0:
            if started is None or started in done:
                raise AssertionError(f"the worker failed outside a case: {process.stderr}")
            done[started] = {"type": f"crash (exit {process.returncode})", "message": ""}
    return done


def test_the_suite_is_large() -> None:
    assert len(CASES) >= 1000


@pytest.mark.parametrize("case_id", sorted(CASES))
def test_hostile_input(case_id: str, outcomes: dict[str, dict[str, str | None]]) -> None:
    outcome = outcomes[case_id]
    assert outcome["type"] in ("ValueError", "TypeError"), outcome
    message = outcome["message"] or ""
    assert any(name in message for name in CASES[case_id].names), (
        f"the message does not name the value (one of {CASES[case_id].names}): {message!r}"
    )
