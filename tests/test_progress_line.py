"""What ``pyaz-selfplay`` shows while it runs (issue 77, items 2 and 3): one line that stays
(elapsed, iterations, the budget that ends the run, an ETA from this process's rate) with the
stage bars below it leaving nothing behind; a resumed run says where it resumes and leaves the
games it restored out of its rate; the run's PNG plots are drawn while it runs and after Ctrl-C.
"""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pyaz.cli import selfplay
from pyaz.common import plots
from pyaz.common.faults import FAULT_ENV
from pyaz.common.plots import LivePlots
from pyaz.common.progress_line import RunClock, progress_line
from pyaz.common.runlog import read_metrics
from pyaz.methods.alphazero.config import TrainConfig
from pyaz.methods.alphazero.loop import TrainingLoop

# Connect Four 4x4, a tiny network, 8 simulations, 4 games an iteration in parts of 2, no gate,
# no evaluation (the arena's bars are eval/'s).
RUN = [
    *["--game", "connect_four", "--width", "4", "--height", "4", "--net", "tiny"],
    *["--episodes", "4", "--simulations", "8", "--epochs", "1", "--parallel-games", "2"],
    *["--gating", "none", "--eval-opponent", "none", "--threads", "1", "--seed", "3"],
]
PLOTS = ("win_ratio.png", "losses.png", "stage_times.png")
# Connect Four 4x4 with a 2-game evaluation against random, for the plots.
LOOP: dict[str, Any] = {
    "game": "connect_four", "game_options": {"width": 4, "height": 4}, "net": "tiny",
    "episodes": 4, "simulations": 8, "epochs": 1, "parallel_games": 4, "gating": "none",
    "eval_games": 2, "eval_opponent": "random", "threads": 1, "seed": 3,
    "length_probe_games": 20,
}  # fmt: skip


def screen(text: str) -> list[str]:
    """The lines a terminal shows after ``text`` (carriage returns, newlines that return the
    carriage as a terminal's output does, cursor up)."""
    rows: list[list[str]] = [[]]
    row = column = 0
    for up, cr, nl, char in re.findall(r"\x1b\[(\d*)A|(\r)|(\n)|(.)", text, flags=re.S):
        if cr:
            column = 0
        elif nl:
            row, column = row + 1, 0
            if row == len(rows):
                rows.append([])
        elif char:
            line = rows[row] = [*rows[row], *" " * (column + 1 - len(rows[row]))]
            line[column] = char
            column += 1
        else:
            row = max(0, row - int(up or 1))
    return ["".join(line).rstrip() for line in rows]


def shown(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[int, str]:
    """``pyaz-selfplay argv`` in this process, its stdout and stderr in one stream, as a
    terminal interleaves them: (exit status, the text)."""
    monkeypatch.setattr(plots, "make_plots", lambda folder: [])  # the end's: seconds, not tested
    stream = io.StringIO()
    monkeypatch.setattr(sys, "stdout", stream)
    monkeypatch.setattr(sys, "stderr", stream)
    status = selfplay.main(argv)
    return status, stream.getvalue()


# ------------------------------------------------------------------------------ the line


def test_a_minute_budget_is_the_budget_and_its_time_left_the_eta() -> None:
    clock = RunClock("alphazero", "iteration", 386, 0, 1200.0, 100000, 1200.0, 1800.0)
    assert progress_line(clock) == (
        "alphazero | 20:00 elapsed | 386 iterations done | budget 30 min | ETA 10:00"
    )


def test_the_iterations_are_the_budget_when_they_end_the_run_first() -> None:
    clock = RunClock("alphazero", "iteration", 10, 0, 100.0, 12, 100.0, 3600.0)
    assert progress_line(clock).endswith("10/12 iterations done | budget 12 iterations | ETA 0:20")


def test_the_rate_is_this_process_s_steps_alone() -> None:
    # resumed at 30: 10 steps in 50 s here, 5 s a step (not 60 s over 40 steps)
    resumed = RunClock("alphazero", "iteration", 40, 30, 50.0, 100, 3000.0)
    assert progress_line(resumed) == (
        "alphazero | 50:00 elapsed | 40/100 iterations done | budget 100 iterations | ETA 5:00"
    )
    opened = RunClock("alphazero", "iteration", 30, 30, 2.0, 100, 2950.0)
    assert progress_line(opened).endswith("| ETA ?")  # no step played here yet
    unknown = RunClock("zetago", "iteration", 3, 0, 61.0, None)
    assert progress_line(unknown) == "zetago | 1:01 elapsed | 3 iterations done"


def test_the_line_stays_with_the_minute_budget_and_the_stage_bars_leave_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = [*RUN, "--iterations", "100000", "--max-minutes", "0.01", "--out", str(tmp_path)]
    status, text = shown(argv, monkeypatch)
    assert status == 0, text[-2000:]
    lines = [line for line in screen(text) if line]
    assert lines[-1] == f"done: {tmp_path} (plots, metrics, checkpoints, best.torchscript.pt)"
    line = lines[-2]
    assert re.fullmatch(
        r"alphazero \| 0:0\d elapsed \| \d+ iterations? done \| budget 0\.01 min \| ETA 0:00",
        line,
    ), line
    summaries = lines[:-2]  # all the rest: one line an iteration, no bar left, no fragment
    assert summaries and all(re.match(r"iter \d+ \| ", line) for line in summaries), lines
    assert "100000" not in text  # the iterations are a cap the minutes reach first


def test_a_resumed_run_says_so_and_its_rate_leaves_the_restored_games_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = [*RUN, "--iterations", "2", "--quiet", "--out", str(tmp_path)]
    env = {**os.environ, FAULT_ENV: "self-play-game:7"}  # iteration 2: its first part of 2 kept
    command = [sys.executable, "-m", "pyaz.cli.selfplay", *argv]
    killed = subprocess.run(command, env=env, capture_output=True, text=True, timeout=240)
    assert killed.returncode == -9, killed.stderr[-2000:]
    status, text = shown(["--out", str(tmp_path), "--resume", "--quiet"], monkeypatch)
    assert status == 0, text[-2000:]
    said = f"resuming {tmp_path} at iteration 2 (1 done; 2 of its 4 self-play games restored)"
    assert said in text.splitlines()
    assert re.search(r"^iter 2/2 \| [\d.]+ games/s \(2 restored\) \|", text, re.M), text
    second = [r for r in read_metrics(tmp_path) if r["kind"] == "iteration"][1]
    played = second["games_per_s"] * second["time_selfplay"]
    assert second["games"] == 4 and played == pytest.approx(2)


# ------------------------------------------------------------------------------ the plots


def test_the_plots_are_drawn_while_the_run_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(TrainingLoop, "PLOT_EVERY_S", 0.0)
    loop = TrainingLoop(TrainConfig(**LOOP, iterations=3), tmp_path, progress=False)
    try:
        loop.advance()
        assert all((tmp_path / name).exists() for name in PLOTS)
    finally:
        loop.close()


def test_the_plots_are_drawn_after_ctrl_c(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[subprocess.Popen[bytes] | None] = []
    on_stop = LivePlots.on_stop

    def recorded(self: LivePlots) -> subprocess.Popen[bytes] | None:
        started.append(on_stop(self))
        return started[-1]

    monkeypatch.setattr(LivePlots, "on_stop", recorded)
    loop = TrainingLoop(TrainConfig(**LOOP, iterations=3), tmp_path, progress=False)
    train = loop._train

    def ctrl_c_in_iteration_2(iteration: int) -> dict[str, float]:
        if iteration == 2:
            raise KeyboardInterrupt
        return train(iteration)

    monkeypatch.setattr(loop, "_train", ctrl_c_in_iteration_2)
    with pytest.raises(KeyboardInterrupt):
        loop.run()
    assert loop.interrupted and len(started) == 1 and started[0] is not None
    assert started[0].wait(timeout=60) == 0
    assert all((tmp_path / name).exists() for name in PLOTS)
