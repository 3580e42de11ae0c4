"""Run folders of ``pyaz-selfplay`` (board games and curling), issue 24 items 2, 3, 4, 8, 12.

- A run folder is locked while a run uses it: a second run on it (with or without --resume)
  exits 2 at once naming the folder; a killed run leaves no stale lock (--resume works at once).
- ``--out DIR --resume`` alone continues the run with exactly the settings it was started with
  (config.json), before and after its first committed iteration; an option beside it that
  differs from the saved one is an error naming it, except the few meant to change.
- Every setting, player spec and file is checked before any work (nothing written).
- A damaged line of metrics.jsonl dropped by --resume is said, not dropped silently.
- Presets: out-of-range sizes and thread counts, non-UTF-8 or invalid TOML files are one line.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import torch
from messages import one_line

from pyaz.cli import selfplay
from pyaz.common.faults import FAULT_ENV
from pyaz.common.folder_lock import FolderInUseError, FolderLock
from pyaz.common.runlog import check_resume_settings, read_metrics, remove_temporaries
from pyaz.methods.alphazero.config import TrainConfig
from pyaz.methods.alphazero.loop import TrainingLoop

# Connect Four 4x4 (not the default game), a tiny network, 8 simulations, 4 games an iteration.
RUN = [
    *["--game", "connect_four", "--width", "4", "--height", "4", "--net", "tiny"],
    *["--episodes", "4", "--simulations", "8", "--epochs", "1", "--parallel-games", "4"],
    *["--eval-games", "2", "--eval-opponent", "random", "--threads", "1", "--seed", "3"],
    "--quiet",
]
# Curling with 1-end games, 2 games an iteration, a 4-channel 1-block network (not the defaults).
CURLING = [
    *["--game", "curling", "--ends", "1", "--games", "2", "--simulations", "6"],
    *["--channels", "4", "--blocks", "1", "--supervised-games", "2", "--supervised-steps", "4"],
    *["--steps", "4", "--batch-size", "16", "--eval-opponent", "none", "--workers", "1"],
    "--quiet",
]
MODULE = [sys.executable, "-m", "pyaz.cli.selfplay"]


def command(*argv: str) -> list[str]:
    return [*MODULE, *argv]


def start(argv: list[str], fault: str | None = None) -> subprocess.Popen[str]:
    env = {**os.environ, **({FAULT_ENV: fault} if fault else {})}
    return subprocess.Popen(
        command(*argv), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )


def killed(argv: list[str], fault: str) -> None:
    """Runs the command with the fault point armed; asserts that it died there by SIGKILL."""
    process = start(argv, fault)
    _, err = process.communicate(timeout=240)
    assert process.returncode == -signal.SIGKILL, (fault, process.returncode, err[-2000:])


def wait_for(path: Path, process: subprocess.Popen[str], seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while not path.exists():
        assert process.poll() is None, process.communicate()[1][-2000:]
        assert time.monotonic() < deadline, f"no {path} after {seconds} s"
        time.sleep(0.05)


def stop(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        process.kill()
    process.communicate(timeout=60)


def main(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """``pyaz-selfplay argv`` in this process: (exit status, stderr)."""
    status = selfplay.main(argv)
    return status, capsys.readouterr().err


def iterations(run: Path) -> list[int]:
    return [r["iteration"] for r in read_metrics(run) if r["kind"] == "iteration"]


def saved_config(run: Path) -> dict[str, Any]:
    return dict(torch.load(run / "checkpoint.pt", weights_only=True)["config"])


# --------------------------------------------------------------------------- 2: one run a folder


@pytest.mark.parametrize("game", ["connect_four", "curling"])
def test_a_second_run_on_a_folder_in_use_exits_2_at_once(tmp_path: Path, game: str) -> None:
    out = tmp_path / "run"
    settings = RUN if game == "connect_four" else CURLING
    first = start([*settings, "--iterations", "1000", "--out", str(out)])
    try:
        wait_for(out / "config.json", first)  # written under the lock, held until the end
        for extra in ([], ["--resume"]):
            began = time.monotonic()
            second = subprocess.run(
                command(*settings, "--iterations", "1000", "--out", str(out), *extra),
                capture_output=True,
                text=True,
                timeout=120,
            )
            took = time.monotonic() - began
            assert second.returncode == 2, second.stderr[-2000:]
            line = one_line(second.stderr)
            assert line.startswith(f"pyaz-selfplay: {out} is in use by another training run"), line
            assert f"(process {first.pid})" in line
            assert took < 60  # at once: the interpreter's start, no game
            assert first.poll() is None  # the first run goes on
    finally:
        stop(first)
    # SIGKILL releases the lock: --resume takes the folder at once and finishes the run.
    done = iterations(out)
    resumed = subprocess.run(
        command("--out", str(out), "--resume", "--iterations", str(len(done) + 1), "--quiet"),
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    assert iterations(out) == list(range(1, len(done) + 2))


def test_the_loop_locks_its_folder_and_releases_it_when_it_ends(tmp_path: Path) -> None:
    out = tmp_path / "run"
    settings = tiny_config(iterations=1)
    with FolderLock(out, "test"), pytest.raises(FolderInUseError, match=str(out)):
        TrainingLoop(settings, out, progress=False)
    assert not (out / "config.json").exists()
    loop = TrainingLoop(settings, out, progress=False)
    with pytest.raises(FolderInUseError, match="in use by another training run"):
        TrainingLoop(settings, out, resume=True, progress=False)
    loop.run()
    TrainingLoop(settings, out, resume=True, progress=False).run()  # released by run()
    # The lock file disturbs nothing that lists or reads the folder.
    assert (out / ".lock").exists() and remove_temporaries(out) == 0
    from pyaz.nets import load_model

    assert load_model(out).iteration == 1


# --------------------------------------------------------------------------- 3: --resume alone


def tiny_config(**changes: Any) -> TrainConfig:
    args = selfplay.build_parser().parse_args([*RUN, "--out", "unused"])
    config = selfplay.settings_from(args)
    for name, value in changes.items():
        setattr(config, name, value)
    return config


@pytest.mark.parametrize(
    ("fault", "committed"),
    [("self-play-game:2", 0), ("after-replace/checkpoint.pt:1", 1)],
)
def test_resume_alone_continues_a_killed_connect_four_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], fault: str, committed: int
) -> None:
    out = tmp_path / "run"
    killed([*RUN, "--iterations", "2", "--out", str(out)], fault)
    assert (out / "checkpoint.pt").exists() == (committed > 0)
    before = (out / "config.json").read_bytes()
    status, err = main(["--out", str(out), "--resume", "--quiet"], capsys)
    assert status == 0, err
    assert (out / "config.json").read_bytes() == before  # the defaults never replace it
    assert iterations(out) == [1, 2]
    config = saved_config(out)
    assert config == json.loads(before)
    assert (config["game"], config["game_options"]) == ("connect_four", {"width": 4, "height": 4})
    assert (config["episodes"], config["simulations"], config["seed"]) == (4, 8, 3)


def test_the_printed_resume_command_resumes_after_ctrl_c(tmp_path: Path) -> None:
    out = tmp_path / "run"
    first = start([*RUN, "--iterations", "3", "--out", str(out)])
    try:
        wait_for(out / "config.json", first)
        first.send_signal(signal.SIGINT)
        _, err = first.communicate(timeout=120)
    finally:
        stop(first)
    if first.returncode == 0:
        pytest.skip("the run ended before Ctrl-C reached it")
    assert first.returncode == 130, err[-2000:]
    printed = err.strip().splitlines()[-1].split()
    assert printed == ["pyaz-selfplay", "--out", str(out), "--resume"]
    resumed = subprocess.run(command(*printed[1:]), capture_output=True, text=True, timeout=240)
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    assert iterations(out) == [1, 2, 3]
    assert saved_config(out)["game_options"] == {"width": 4, "height": 4}


def test_resume_refuses_changed_settings_and_takes_the_resumable_ones(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    othello = [*["--game", "othello", "--size", "4", "--episodes", "2", "--simulations", "4"]]
    othello += [*["--epochs", "1", "--eval-opponent", "none", "--quiet", "--out", str(out)]]
    status, err = main([*othello, "--iterations", "1"], capsys)
    assert status == 0, err
    before = (out / "config.json").read_bytes()
    changed = [
        "--out",
        str(out),
        "--resume",
        "--episodes",
        "3",
        "--simulations",
        "5",
        "--size",
        "6",
    ]
    status, err = main([*changed, "--iterations", "2"], capsys)
    assert status == 2
    line = one_line(err)
    assert f"{out} was started with other settings" in line
    for named in ("episodes 2 -> 3", "simulations 4 -> 5", "size 4 -> 6"):
        assert named in line, line
    assert "only iterations, max_minutes" in line
    assert (out / "config.json").read_bytes() == before and iterations(out) == [1]
    # The same values again, the resumable ones changed: accepted, kept for the next resume.
    status, err = main([*othello, "--resume", "--iterations", "2", "--threads", "2"], capsys)
    assert status == 0, err
    assert iterations(out) == [1, 2]
    config = json.loads((out / "config.json").read_text())
    assert (config["iterations"], config["threads"]) == (2, 2)
    assert {**config, "iterations": 1, "threads": 1} == json.loads(before)
    # A preset naming other settings is refused the same way.
    preset = tmp_path / "other.toml"
    preset.write_text("lr = 0.5\n")
    status, err = main(["--out", str(out), "--resume", "--preset", str(preset)], capsys)
    assert status == 2 and "lr 0.005 -> 0.5" in one_line(err)


def test_the_loop_itself_refuses_changed_settings_on_resume(tmp_path: Path) -> None:
    out = tmp_path / "run"
    TrainingLoop(tiny_config(iterations=1), out, progress=False).run()
    with pytest.raises(ValueError, match=r"episodes 4 -> 6 .*only iterations"):
        TrainingLoop(tiny_config(iterations=2, episodes=6), out, resume=True, progress=False)
    check_resume_settings(out, {"game_options": {"size": 6}}, {"game_options": {"size": 6}})
    with pytest.raises(ValueError, match=r"size 6 -> 8 \(none may change\)"):
        check_resume_settings(out, {"game_options": {"size": 6}}, {"game_options": {"size": 8}})


@pytest.mark.parametrize(
    ("setting", "value", "named"),
    [
        ("sparring_games", "x", "sparring_games must be int | None, got str 'x'"),
        ("game_options", "4x4", "game_options must be a table of game options, got '4x4'"),
    ],
)
def test_resume_of_a_config_edited_to_a_wrong_kind_names_the_setting(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], setting: str, value: Any, named: str
) -> None:
    out = tmp_path / "run"
    status, err = main([*RUN, "--iterations", "1", "--out", str(out)], capsys)
    assert status == 0, err
    config = json.loads((out / "config.json").read_text())
    (out / "config.json").write_text(json.dumps({**config, setting: value}))
    status, err = main(["--out", str(out), "--resume"], capsys)
    assert status == 2
    assert named in one_line(err)


@pytest.mark.parametrize("folder", ["missing", "empty"])
def test_resume_without_a_run_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], folder: str
) -> None:
    out = tmp_path / "run"
    if folder == "empty":
        out.mkdir()
    status, err = main(["--out", str(out), "--resume"], capsys)
    assert status == 2
    assert one_line(err) == (
        f"pyaz-selfplay: {out} holds no run to resume (no config.json): start one without --resume"
    )
    assert out.exists() == (folder == "empty")  # a missing folder is not created


@pytest.mark.parametrize(
    ("fault", "committed"),
    [("before-replace/checkpoint.pt:1", None), ("after-replace/checkpoint.pt:2", 1)],
)
def test_resume_alone_continues_a_killed_curling_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], fault: str, committed: int | None
) -> None:
    out = tmp_path / "run"
    killed([*CURLING, "--iterations", "2", "--out", str(out)], fault)
    checkpoint = out / "checkpoint.pt"
    assert (torch.load(checkpoint)["counters"]["iteration"] if checkpoint.exists() else None) == (
        committed
    )
    before = (out / "config.json").read_bytes()
    status, err = main(["--out", str(out), "--resume", "--quiet"], capsys)
    assert status == 0, err
    assert (out / "config.json").read_bytes() == before
    assert iterations(out) == [1, 2]
    config = saved_config(out)
    assert config == json.loads(before)
    assert (config["channels"], config["blocks"], config["games"], config["workers"]) == (
        4,
        1,
        2,
        1,
    )
    # Other settings beside --resume: an error naming each; --iterations may grow.
    status, err = main(["--out", str(out), "--resume", "--games", "3", "--ends", "2"], capsys)
    assert status == 2
    line = one_line(err)
    assert "games 2 -> 3" in line and "ends 1 -> 2" in line and "only iterations" in line
    assert (out / "config.json").read_bytes() == before
    status, err = main(["--out", str(out), "--resume", "--iterations", "3", "--quiet"], capsys)
    assert status == 0, err
    assert iterations(out) == [1, 2, 3]


# --------------------------------------------------------------------------- 4: early checks


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--eval-opponent", "nope:3", "eval_opponent 'nope:3' is no player preset"),
        ("--eval-opponent", "uct:0", "eval_opponent: 'uct:0': the number of simulations must"),
        ("--eval-opponent", "gnugo:3", "eval_opponent: 'gnugo:3' plays go, not connect_four"),
        ("--eval-opponent", "model:MISSING", "eval_opponent 'model:MISSING': network file"),
        ("--curriculum", "BAD", "curriculum 'BAD': 'utf-8' codec can't decode"),
        ("--curriculum", "nope", "curriculum 'nope' is neither a preset"),
        ("--simulations", "0", "simulations must be >= 1, got 0"),
        ("--simulations", "1000001", "simulations must be in 1..1000000, got 1000001"),
        ("--threads", "1025", "threads must be in 1..1024, got 1025"),
    ],
)
def test_every_option_is_checked_before_any_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str, value: str, message: str
) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b"steps = [[0, 0.5]] # \xff\n")
    value = value.replace("MISSING", str(tmp_path / "missing.pt")).replace("BAD", str(bad))
    message = message.replace("MISSING", str(tmp_path / "missing.pt")).replace("BAD", str(bad))
    out = tmp_path / "run"
    began = time.monotonic()
    status, err = main([*RUN, "--iterations", "1", "--out", str(out), option, value], capsys)
    assert status == 2
    assert one_line(err).startswith(f"pyaz-selfplay: {message}"), err
    assert time.monotonic() - began < 10
    assert not out.exists()  # nothing written, not even the folder


def test_one_simulation_trains(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The fewest simulations accepted (1) is usable: self-play, gate and evaluation play."""
    out = tmp_path / "run"
    gate = ["--gating", "score", "--arena-games", "2"]
    status, err = main(
        [*RUN, *gate, "--simulations", "1", "--iterations", "1", "--out", str(out)], capsys
    )
    assert status == 0, err
    assert iterations(out) == [1]


# --------------------------------------------------------------------------- 12: damaged metrics


def test_resume_says_which_damaged_metrics_lines_it_drops(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    status, err = main([*RUN, "--iterations", "1", "--out", str(out)], capsys)
    assert status == 0, err
    metrics = out / "metrics.jsonl"
    lines = metrics.read_bytes().splitlines(keepends=True)
    metrics.write_bytes(b"".join([lines[0], b"#garbage\n", *lines[1:]]))
    with metrics.open("ab") as file:
        file.write(b'{"kind": "iteration", "iteration": 2, "games": 4, "lo')
    count = len(lines) + 2
    status, err = main(["--out", str(out), "--resume", "--quiet"], capsys)
    assert status == 0, err
    notes = [line for line in err.splitlines() if line.startswith("note:")]
    assert len(notes) == 2 and "Warning" not in err, err
    assert notes[0] == f"note: {metrics}: dropped line 2, a record not a JSON object: '#garbage'"
    assert notes[1].startswith(
        f"note: {metrics}: dropped line {count}, a 'iteration' record of iteration 2 cut short "
        "when the run was stopped: "
    )
    assert metrics.read_bytes().splitlines(keepends=True) == lines


# --------------------------------------------------------------------------- 8: presets


NOT_UTF8 = (b"lr = 0.01 # caf\xe9\n", "PRESET: not a UTF-8 text file (byte 15: b'\\xe9')")
NOT_TOML = (b"lr = = 0.01\n", "PRESET: not valid TOML (Invalid value (at line 1, column 6))")


@pytest.mark.parametrize(
    ("game", "text", "message"),
    [
        ("connect_four", b"filters = 100000000\n", "filters must be in 1..1024, got 100000000"),
        ("connect_four", b"blocks = 100000\n", "blocks must be in 1..64, got 100000"),
        (
            "connect_four",
            b"torch_threads = 100000\n",
            "torch_threads must be in 1..256, got 100000",
        ),
        (
            "connect_four",
            b"game_options = 3\n",
            "game_options must be a table of game options, got 3",
        ),
        ("connect_four", *NOT_UTF8),
        ("connect_four", *NOT_TOML),
        ("curling", b"channels = 100000000\n", "channels must be in 1..1024, got 100000000"),
        ("curling", b"torch_threads = 100000\n", "torch_threads must be in 1..256, got 100000"),
        ("curling", *NOT_UTF8),
        ("curling", *NOT_TOML),
    ],
)
def test_bad_presets_are_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str, text: bytes, message: str
) -> None:
    preset = tmp_path / "preset.toml"
    preset.write_bytes(text)
    out = tmp_path / "run"
    status, err = main(["--game", game, "--preset", str(preset), "--out", str(out)], capsys)
    assert status == 2
    assert one_line(err) == f"pyaz-selfplay: {message.replace('PRESET', str(preset))}"
    assert not out.exists()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--blocks", "65"], "blocks must be in 1..64, got 65"),
        (["--filters", "1025"], "filters must be in 1..1024, got 1025"),
        (["--torch-threads", "257"], "torch_threads must be in 1..256, got 257"),
        (["--value-hidden", "4097"], "value_hidden must be in 1..4096, got 4097"),
        (["--game", "curling", "--channels", "1025"], "channels must be in 1..1024, got 1025"),
        (["--game", "curling", "--blocks", "65"], "blocks must be in 0..64, got 65"),
        (["--game", "curling", "--torch-threads", "0"], "torch_threads must be >= 1, got 0"),
        (
            ["--game", "curling", "--torch-threads", "257"],
            "torch_threads must be in 1..256, got 257",
        ),
    ],
)
def test_network_sizes_and_threads_have_upper_bounds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, err = main([*argv, "--out", str(tmp_path / "run")], capsys)
    assert status == 2
    assert one_line(err) == f"pyaz-selfplay: {message}"
