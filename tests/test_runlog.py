"""Run-folder metrics: JSONL/CSV appends, crash tolerance, resume, atomic files, plots."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from pyaz.common.runlog import (
    CSV_NAME,
    JSONL_NAME,
    RunLog,
    atomic_write_bytes,
    export_csv,
    read_metrics,
    truncate_after,
    write_json_atomic,
)

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _iteration(i: int) -> dict[str, float | int | str]:
    return {
        "kind": "iteration",
        "iteration": i,
        "loss": 3.0 / (i + 1),
        "loss_policy": 2.0 / (i + 1),
        "loss_value": 1.0 / (i + 1),
        "time_selfplay": 10.0 + i,
        "time_train": 5.0,
        "time_arena": 2.0,
    }


def _eval(i: int, opponent: str = "mcts200") -> dict[str, float | int | str]:
    return {
        "kind": "eval",
        "iteration": i,
        "opponent": opponent,
        "win_ratio": min(1.0, 0.1 * i),
        "elapsed_s": 60.0 * (i + 1),
        "train_steps": 100 * (i + 1),
        "epochs": 3 * (i + 1),
    }


def _write_run(run: Path, iterations: int = 5) -> None:
    with RunLog(run, tensorboard=False) as log:
        for i in range(iterations):
            log.log(_iteration(i))
            log.log(_eval(i))


def _csv_rows(run: Path) -> list[dict[str, str]]:
    with open(run / CSV_NAME, newline="") as f:
        return list(csv.DictReader(f))


def test_log_and_read_back(tmp_path: Path) -> None:
    _write_run(tmp_path, 3)
    records = read_metrics(tmp_path)
    assert [r["kind"] for r in records] == ["iteration", "eval"] * 3
    assert records[2] == {**_iteration(1), "wall_time": records[2]["wall_time"]}
    assert all(isinstance(r["wall_time"], float) for r in records)
    lines = (tmp_path / JSONL_NAME).read_text().splitlines()
    assert len(lines) == 6 and all(json.loads(line) for line in lines)


def test_csv_header_grows_with_new_keys(tmp_path: Path) -> None:
    with RunLog(tmp_path, tensorboard=False) as log:
        log.log({"kind": "iteration", "iteration": 0, "loss": 1.5})
        log.log({"kind": "iteration", "iteration": 1, "loss": 1.25})
        header = (tmp_path / CSV_NAME).read_text().splitlines()[0]
        assert header == "kind,iteration,loss,wall_time"
        log.log({"kind": "eval", "iteration": 1, "win_ratio": 0.5, "opponent": "random"})
    rows = _csv_rows(tmp_path)
    assert list(rows[0]) == ["kind", "iteration", "loss", "wall_time", "win_ratio", "opponent"]
    assert [r["loss"] for r in rows] == ["1.5", "1.25", ""]
    assert rows[2]["win_ratio"] == "0.5" and rows[2]["opponent"] == "random"


def test_values_are_converted_and_validated(tmp_path: Path) -> None:
    with RunLog(tmp_path, tensorboard=False) as log:
        log.log({"kind": "x", "a": np.float32(0.5), "b": np.int64(3), "c": True, "d": None})
        log.log({"kind": "x", "nan": float("nan"), "wall_time": 12.0})
        with pytest.raises(TypeError):
            log.log({"kind": "x", "bad": [1, 2]})
        with pytest.raises(ValueError, match="kind"):
            log.log({"iteration": 1})
    first, second = read_metrics(tmp_path)
    assert (first["a"], first["b"], first["c"], first["d"]) == (0.5, 3, True, None)
    assert type(first["b"]) is int
    assert np.isnan(second["nan"]) and second["wall_time"] == 12.0
    assert len(read_metrics(tmp_path)) == 2  # the rejected records wrote nothing


def test_log_after_close_raises(tmp_path: Path) -> None:
    log = RunLog(tmp_path, tensorboard=False)
    log.close()
    log.close()  # idempotent
    with pytest.raises(RuntimeError):
        log.log({"kind": "iteration"})


def test_truncated_last_line_is_tolerated_and_repaired(tmp_path: Path) -> None:
    _write_run(tmp_path, 2)
    with open(tmp_path / JSONL_NAME, "ab") as f:
        f.write(b'{"kind": "iteration", "iteration": 2, "lo')  # killed mid-write
    assert len(read_metrics(tmp_path)) == 4
    # Reopening cuts the fragment, so the next record starts on its own line.
    with RunLog(tmp_path, tensorboard=False) as log:
        log.log(_iteration(2))
    records = read_metrics(tmp_path)
    assert len(records) == 5 and records[-1]["iteration"] == 2
    assert (tmp_path / JSONL_NAME).read_bytes().endswith(b"\n")
    assert len(_csv_rows(tmp_path)) == 5


def test_complete_last_line_without_newline_is_kept(tmp_path: Path) -> None:
    (tmp_path / JSONL_NAME).write_bytes(b'{"kind": "eval", "win_ratio": 0.25}')
    with RunLog(tmp_path, tensorboard=False) as log:
        log.log({"kind": "eval", "win_ratio": 0.5})
    assert [r["win_ratio"] for r in read_metrics(tmp_path)] == [0.25, 0.5]


def test_corrupt_middle_line_warns(tmp_path: Path) -> None:
    (tmp_path / JSONL_NAME).write_bytes(b'{"kind": "a"}\n{broken\n{"kind": "b"}\n')
    with pytest.warns(UserWarning, match="not a JSON object"):
        records = read_metrics(tmp_path)
    assert [r["kind"] for r in records] == ["a", "b"]


def test_read_metrics_of_missing_run(tmp_path: Path) -> None:
    assert read_metrics(tmp_path / "nope") == []
    assert truncate_after(tmp_path / "nope", 3) == 0


def test_truncate_after(tmp_path: Path) -> None:
    _write_run(tmp_path, 5)
    with RunLog(tmp_path, tensorboard=False) as log:
        log.log({"kind": "note", "text": "no iteration key"})
    assert truncate_after(tmp_path, 2) == 4
    records = read_metrics(tmp_path)
    assert max(r["iteration"] for r in records if "iteration" in r) == 2
    assert records[-1]["kind"] == "note"  # records without an iteration are kept
    assert len(_csv_rows(tmp_path)) == len(records) == 7
    # Resume: appending continues after the kept records.
    with RunLog(tmp_path, tensorboard=False) as log:
        log.log(_iteration(3))
        assert log.truncate_after(2) == 1  # also usable while open
        log.log(_iteration(3))
    assert [r.get("iteration") for r in read_metrics(tmp_path)][-2:] == [None, 3]


def test_export_csv_regenerates(tmp_path: Path) -> None:
    _write_run(tmp_path, 2)
    (tmp_path / CSV_NAME).unlink()
    assert export_csv(tmp_path) == tmp_path / CSV_NAME
    assert len(_csv_rows(tmp_path)) == 4


def test_atomic_writes_leave_no_temp_file(tmp_path: Path) -> None:
    target = tmp_path / "sub" / "config.json"
    write_json_atomic(target, {"game": "othello", "lr": 1e-3})
    write_json_atomic(target, {"game": "connect_four"})  # replaces
    assert json.loads(target.read_text()) == {"game": "connect_four"}
    atomic_write_bytes(tmp_path / "blob.bin", b"\x00\x01")
    assert (tmp_path / "blob.bin").read_bytes() == b"\x00\x01"
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["blob.bin", "config.json", "sub"]
    umask = os.umask(0)
    os.umask(umask)
    assert (target.stat().st_mode & 0o777) == 0o666 & ~umask
    with pytest.raises(TypeError):
        write_json_atomic(target, {"bad": object()})
    assert json.loads(target.read_text()) == {"game": "connect_four"}  # untouched
    assert sorted(p.name for p in target.parent.iterdir()) == ["config.json"]


def test_tensorboard_scalars_and_resume_purge(tmp_path: Path) -> None:
    pytest.importorskip("tensorboard")
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    with RunLog(tmp_path) as log:
        assert log.tensorboard_enabled
        for i in range(4):
            log.log({"kind": "iteration", "iteration": i, "loss": float(i)})
    truncate_after(tmp_path, 1)
    # TensorBoard orders event files by name: the creation second, then a per-process counter
    # compared as text (".9" sorts after ".10"), so a resumed writer in the same second may sort
    # first in a process that made many writers before. A real resume is seconds later.
    time.sleep(1.1)
    with RunLog(tmp_path) as log:
        log.log({"kind": "iteration", "iteration": 2, "loss": 20.0})
    acc = EventAccumulator(str(tmp_path / "tensorboard" / "iteration"))
    acc.Reload()
    events = acc.Scalars("iteration/loss")
    assert [(e.step, e.value) for e in events] == [(0, 0.0), (1, 1.0), (2, 20.0)]


def _check_png(path: Path) -> None:
    data = path.read_bytes()
    assert len(data) > 1000 and data.startswith(PNG_MAGIC)


def test_make_plots(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from pyaz.common.plots import make_plots

    with RunLog(tmp_path, tensorboard=False) as log:
        for i in range(6):
            log.log(_iteration(i))
            for e in range(2):
                log.log({"kind": "train_epoch", "iteration": i, "epochs": 2 * i + e, "loss": 1.0})
            log.log(_eval(i, "mcts200"))
            log.log(_eval(i, "random"))
    paths = make_plots(tmp_path, window=3, dpi=40)
    assert [p.name for p in paths] == ["losses.png", "stage_times.png", "win_ratio.png"]
    for path in paths:
        _check_png(path)
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_make_plots_draws_the_agreement_with_exact_play(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from pyaz.common.plots import make_plots

    with RunLog(tmp_path, tensorboard=False) as log:  # as --eval-opponent perfect writes them
        for i in range(4):
            log.log(_iteration(i))
            log.log(
                {
                    "kind": "eval",
                    "iteration": i,
                    "elapsed_s": 5.0 * i,
                    "train_steps": 10 * i,
                    "epochs": 2 * i,
                    "perfect_agreement": 0.8 + 0.02 * i,
                    "opponent": "perfect",
                }
            )
    paths = make_plots(tmp_path, window=3, dpi=40)
    assert [p.name for p in paths] == ["losses.png", "stage_times.png", "perfect_play.png"]
    _check_png(paths[-1])


def test_make_plots_skips_missing_data(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from pyaz.common.plots import make_plots

    assert make_plots(tmp_path) == []  # no metrics at all
    with RunLog(tmp_path, tensorboard=False) as log:
        log.log({"kind": "iteration", "iteration": 0, "loss_value": 0.5})  # no stage times
        # An eval without train_steps / epochs: those panels say "no data".
        log.log({"kind": "eval", "iteration": 0, "win_ratio": 0.5, "elapsed_s": 10.0})
    paths = make_plots(tmp_path, dpi=40)
    assert [p.name for p in paths] == ["losses.png", "win_ratio.png"]
    for path in paths:
        _check_png(path)
    assert not (tmp_path / "stage_times.png").exists()


def _plots_main(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pyaz.common.plots", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_plots_main_redraws_a_run_and_explains_bad_arguments(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    run, empty = tmp_path / "run", tmp_path / "empty"
    empty.mkdir()
    with RunLog(run, tensorboard=False) as log:
        for i in range(3):
            log.log(_iteration(i))
            log.log(_eval(i, "mcts200"))
    done = _plots_main(str(run), str(empty))
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:3] == [
        str(run / name) for name in ("losses.png", "stage_times.png", "win_ratio.png")
    ]
    assert f"{empty}: nothing to plot" in done.stdout
    _check_png(run / "win_ratio.png")

    usage = _plots_main()
    assert usage.returncode == 1 and "usage: python -m pyaz.common.plots RUN_DIR" in usage.stderr
    missing = _plots_main(str(tmp_path / "nowhere"))
    assert missing.returncode == 1
    assert f"not a run folder: {tmp_path / 'nowhere'}" in missing.stderr


def test_moving_average_is_centred_over_the_points_that_exist() -> None:
    from pyaz.common.plots import moving_average

    np.testing.assert_allclose(moving_average([1, 2, 3, 4, 5], 3), [1, 2, 3, 4, 5])
    np.testing.assert_allclose(moving_average([0, 0, 0, 0, 10], 5), [0, 0, 2, 10 / 3, 10])
    np.testing.assert_allclose(moving_average([1, 3], 10), [1, 3])
    rising = np.linspace(0.0, 0.9, 30)  # never a cumulative mean lagging below the points
    np.testing.assert_allclose(moving_average(rising, 20), rising)
    noisy = np.array([0.0, 1.0] * 15)
    smoothed = moving_average(noisy, 20)
    assert smoothed[0] == 0.0 and smoothed[-1] == 1.0
    np.testing.assert_allclose(smoothed[9:21], [0.4736842105263158, 0.5263157894736842] * 6)
    np.testing.assert_allclose(moving_average([4, 8, 6], 1), [4, 8, 6])
    assert moving_average([], 5).size == 0


def test_the_trailing_mean_uses_no_later_point() -> None:
    from pyaz.common.plots import trailing_mean

    assert trailing_mean([1.0, 2.0, 3.0, 4.0], 2).tolist() == [1.0, 1.5, 2.5, 3.5]
    # a jump at the end moves only the last point: nothing before it looks ahead
    assert trailing_mean([0.0, 0.0, 0.0, 9.0], 3).tolist() == [0.0, 0.0, 0.0, 3.0]
