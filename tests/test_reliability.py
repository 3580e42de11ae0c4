"""Regression tests of issue 14 (reliability): each test failed before its fix.

Items: (1) ``pyaz-uci`` survives a ``position`` without startpos/fen, during a search too;
(2) ``pyaz-uci`` keeps reading its input while it searches; (3) an evaluator that calls back
into its own search gets a RuntimeError instead of a deadlock; (4) Ctrl-C stops ``Search.run``
and ``SelfPlay.play`` within a few seconds; (5) training runs resume from any kill without
duplicate metrics or lost networks; (6) NaN and out-of-range options are refused rather than
silently used; (7) bad input gets a ValueError/TypeError naming the value.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import pyaz

UCI = [sys.executable, "-m", "pyaz.cli.uci", "--game", "racingkings"]


def run_uci(script: str, timeout: float = 20) -> subprocess.CompletedProcess[str]:
    """Feeds ``script`` to ``pyaz-uci`` in a subprocess (the process must end by itself)."""
    return subprocess.run(UCI, input=script, capture_output=True, text=True, timeout=timeout)


# --------------------------------------------------------------------------- 1, 2: pyaz-uci


def test_uci_position_without_startpos_or_fen_is_an_error_not_a_crash() -> None:
    done = run_uci("position moves\nposition\nposition moves e2e4\nisready\nquit\n")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert sum(line.startswith("info string error: position") for line in lines) == 3, lines
    assert lines[-1] == "readyok"


def test_uci_bad_position_during_a_search_does_not_abort() -> None:
    done = run_uci("go nodes 100000\nposition moves\nisready\nstop\nquit\n")
    assert done.returncode == 0, (done.returncode, done.stderr)
    lines = done.stdout.splitlines()
    assert any(line.startswith("info string error: position") for line in lines)
    assert "readyok" in lines and lines[-1].startswith("bestmove ")


def test_uci_go_during_an_unbounded_search_keeps_reading_input() -> None:
    started = time.monotonic()
    done = run_uci("go infinite\ngo nodes 10\nstop\nisready\nquit\n")
    assert time.monotonic() - started < 15
    lines = done.stdout.splitlines()
    assert "readyok" in lines
    assert sum(line.startswith("bestmove ") for line in lines) == 2, lines


def test_uci_huge_node_counts_do_not_block() -> None:
    done = run_uci("go nodes 99999999999999999999\ngo nodes 1e400\ngo nodes nan\nisready\nquit\n")
    lines = done.stdout.splitlines()
    assert "readyok" in lines
    assert sum("'99999999999999999999' is out of range" in line for line in lines) == 1, lines
    assert sum("'1e400' is out of range" in line for line in lines) == 1
    assert sum("'nan' is out of range" in line for line in lines) == 1


def test_uci_ucinewgame_during_a_search_stops_it() -> None:
    done = run_uci("go infinite\nucinewgame\nisready\nquit\n")
    lines = done.stdout.splitlines()
    assert lines.index("readyok") > next(
        i for i, line in enumerate(lines) if line.startswith("bestmove")
    )


def test_uci_non_utf8_input_is_reported_not_fatal() -> None:
    process = subprocess.run(
        UCI, input=b"\xff\xfe go\nisready\nquit\n", capture_output=True, timeout=20
    )
    assert process.returncode == 0, process.stderr
    lines = process.stdout.decode().splitlines()
    assert lines[-1] == "readyok" and "unknown command" in lines[0]
