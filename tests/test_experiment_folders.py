"""Experiment folders (issue 24): one ``pyaz-experiment`` at a time in a folder (items 2, 13), a
resume that uses the saved settings (item 3), a damaged ``experiment.json`` or cache as a
one-line error naming the file (item 8), no report from a finished run whose files are gone
(item 12), and no processes left behind: pool workers die with their parent, a local Ray that
pyaz started is stopped by pyaz after the run, on Ctrl-C and when pyaz is killed (item 13).

Real processes run the real command line (``grid --short`` takes seconds; ``--scale cpu`` runs
are long enough to be caught while they run, and are always killed). Every wait is bounded and
every process a test starts is ended by its pid."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from pyaz.cli import experiment as cli
from pyaz.experiments.base import DONE_FILE, Experiment, RunSpec
from pyaz.experiments.report import cached
from pyaz.experiments.runner import is_done, run_experiment

COMMAND = [sys.executable, "-m", "pyaz.cli.experiment"]
ENV = {
    **os.environ,
    "RAY_USAGE_STATS_ENABLED": "0",
    "PYTHONUNBUFFERED": "1",
    "PYTHONFAULTHANDLER": "1",  # a SIGABRT prints every thread's stack (stopped_within)
}


# --------------------------------------------------------------------------- processes


def session_of(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[3])
    except (OSError, IndexError):
        return None


def in_session(session: int) -> list[int]:
    """The living processes (not zombies) of ``session``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and entry.name != str(session):
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            if fields[0] != "Z" and int(fields[3]) == session:
                found.append(int(entry.name))
    return found


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
    except OSError:
        return ""


def wait_for(condition: Callable[[], Any], seconds: float, what: str) -> Any:
    deadline = time.monotonic() + seconds
    while not (value := condition()):
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} within {seconds} s")
        time.sleep(0.2)
    return value


@contextlib.contextmanager
def experiment_process(args: list[str], log: Path) -> Iterator[subprocess.Popen[bytes]]:
    """``pyaz-experiment ARGS`` in its own session (output in ``log``); whatever is left of the
    session at the end is killed, pid by pid."""
    with log.open("wb") as out:
        process = subprocess.Popen(
            [*COMMAND, *args], stdout=out, stderr=subprocess.STDOUT, env=ENV, start_new_session=True
        )
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        for pid in in_session(process.pid):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        process.wait(30)


def stopped_within(process: subprocess.Popen[bytes], seconds: float, log: Path) -> int:
    """``process``'s exit status once it ends within ``seconds``; else it is aborted, so that
    its Python threads' stacks land in ``log`` (faulthandler), and the assertion shows them."""
    try:
        return process.wait(seconds)
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGABRT)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(10)
        raise AssertionError(
            f"pyaz-experiment did not end within {seconds} s; its output and threads:\n"
            + log.read_text(errors="replace")[-8000:]
        ) from None


def one_line_error(args: list[str], timeout: float = 120) -> str:
    done = subprocess.run(
        [*COMMAND, *args], capture_output=True, text=True, env=ENV, timeout=timeout
    )
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def cli_error(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    assert cli.main(args) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


# --------------------------------------------------------------------------- 2, 13: the lock


def test_one_experiment_at_a_time_a_killed_one_leaves_no_worker_and_resumes_at_once(
    tmp_path: Path,
) -> None:
    out = tmp_path / "sweep"
    first = ["sweep", "--scale", "cpu", "--workers", "2", "--out", str(out)]
    with experiment_process(first, tmp_path / "first.log") as process:
        wait_for((out / "experiment.json").exists, 120, "the experiment did not start")

        def workers() -> list[int]:
            return [p for p in in_session(process.pid) if "spawn_main" in cmdline(p)]

        wait_for(lambda: len(workers()) == 2, 120, "the two pool workers did not start")
        # A second experiment on the folder stops at once, whatever it asks for.
        for args in (["sweep", "--resume"], ["grid", "--short"]):
            error = one_line_error([*args, "--out", str(out)])
            assert f"{out} is in use by another pyaz-experiment (process {process.pid})" in error
        os.kill(process.pid, signal.SIGKILL)
        process.wait(10)
        # Its workers die with it (they wrote into the run folders until then).
        wait_for(lambda: not in_session(process.pid), 10, "processes outlived the experiment")

    # The resume (no NAME, no settings: the saved ones) takes the folder at once.
    with experiment_process(["--out", str(out), "--resume"], tmp_path / "resume.log") as resume:
        log = tmp_path / "resume.log"
        wait_for(lambda: "sweep: 25 runs (0 finished before)" in log.read_text(), 60, "no resume")
        resume.send_signal(signal.SIGINT)
        assert stopped_within(resume, 60, log) == 130
    assert f"pyaz-experiment sweep --out {out} --resume" in log.read_text()
    assert json.loads((out / "experiment.json").read_text())["scale"] == "cpu"


def test_a_sigint_to_the_experiment_alone_stops_the_runs_of_its_workers(tmp_path: Path) -> None:
    """``kill -INT`` of the experiment's process (not its process group, as a terminal's
    Ctrl-C is) stops the two runs its pool workers are playing: it ends with 130 and the resume
    line, and no worker is left (before, the pool waited for the runs to end, hours later)."""
    out = tmp_path / "sweep"
    args = ["sweep", "--scale", "cpu", "--workers", "2", "--out", str(out)]
    with experiment_process(args, tmp_path / "run.log") as process:

        def playing() -> int:
            return len(list((out / "runs").rglob(".progress.json")))

        wait_for(lambda: playing() == 2, 180, "the two runs did not start")
        process.send_signal(signal.SIGINT)
        assert stopped_within(process, 60, tmp_path / "run.log") == 130
        wait_for(lambda: not in_session(process.pid), 30, "workers outlived the experiment")
    assert (
        f"pyaz-experiment sweep --out {out} --resume --workers 2"
        in (tmp_path / "run.log").read_text()
    )


def test_the_lock_is_held_by_the_library_call_too(tmp_path: Path) -> None:
    from pyaz.common.folder_lock import FolderInUseError, FolderLock

    out = tmp_path / "toy"
    with FolderLock(out, "pyaz-experiment"), pytest.raises(FolderInUseError, match="in use"):
        run_experiment(Toy(stop=False), out, write=lambda _: None)
    assert not (out / "experiment.json").exists()
    run_experiment(Toy(stop=False), out, write=lambda _: None)  # released: free again


# --------------------------------------------------------------------------- 3: resume


def count_calls(folder: Path, value: int, stop_once: bool = False) -> None:
    """A run target: counts its calls; the first call of a ``stop_once`` run is a Ctrl-C."""
    calls = Path(folder) / "calls.txt"
    previous = int(calls.read_text()) if calls.exists() else 0
    calls.write_text(str(previous + 1))
    if stop_once and previous == 0:
        raise KeyboardInterrupt
    (Path(folder) / "value.txt").write_text(str(value))


class Toy(Experiment):
    name = "toy"
    title = "a toy"
    repeated = True
    option_help = {"flavour": "any text"}  # noqa: RUF012

    def __init__(self, stop: bool = True) -> None:
        self.stop = stop  # whether run-1's first call is a Ctrl-C

    def runs(self, scale: str, seed: int = 0) -> list[RunSpec]:
        count = {"short": 2, "cpu": 3, "full": 4}[scale] * self.repetitions(scale)
        offset = len(self.options.get("flavour", ""))
        return [
            RunSpec(
                f"run-{k}",
                "test_experiment_folders:count_calls",
                {"value": 100 * offset + seed + k, "stop_once": self.stop and k == 1},
            )
            for k in range(count)
        ]

    def report(self, out: Path, runs: list[RunSpec], scale: str, seed: int = 0) -> dict[str, Any]:
        return {"values": [int((out / "runs" / r.name / "value.txt").read_text()) for r in runs]}


@pytest.fixture(autouse=True)
def _importable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(Path(__file__).parent))


def test_a_resume_uses_the_saved_settings_and_names_one_that_differs(tmp_path: Path) -> None:
    out = tmp_path / "toy"
    asked: dict[str, Any] = {"scale": "cpu", "seed": 7, "repetitions": 2}
    with pytest.raises(KeyboardInterrupt):
        run_experiment(Toy(), out, options={"flavour": "ab"}, write=lambda _: None, **asked)
    summary = run_experiment(Toy(), out, resume=True, write=lambda _: None)  # nothing given
    assert summary["scale"] == "cpu" and summary["seed"] == 7 and summary["runs"] == 6
    assert summary["values"] == [207 + k for k in range(6)]
    assert [(out / "runs" / f"run-{k}" / "calls.txt").read_text() for k in range(3)] == [
        "1",
        "2",
        "1",
    ]
    plan = json.loads((out / "experiment.json").read_text())
    assert plan["options"] == {"flavour": "ab"} and plan["repetitions"] == 2
    for key, value, saved in (
        ("scale", "short", "'cpu'"),
        ("seed", 0, "7"),
        ("repetitions", 1, "2"),
        ("options", {"flavour": "b"}, "{'flavour': 'ab'}"),
    ):
        with pytest.raises(ValueError, match=rf"holds {key}={saved}, not .*without {key}"):
            run_experiment(Toy(), out, resume=True, write=lambda _: None, **{key: value})
    again = run_experiment(Toy(), out, resume=True, write=lambda _: None, **asked)  # the same
    assert again["values"] == summary["values"]


def test_a_resume_refuses_runs_that_differ_from_the_saved_plan(tmp_path: Path) -> None:
    out = tmp_path / "toy"
    run_experiment(Toy(stop=False), out, write=lambda _: None)
    plan = json.loads((out / "experiment.json").read_text())
    plan["runs"][1]["kwargs"]["value"] = 99  # another version of pyaz, or an edit
    (out / "experiment.json").write_text(json.dumps(plan))
    with pytest.raises(ValueError, match=r"experiment\.json plans other runs .*\(run run-1\)"):
        run_experiment(Toy(stop=False), out, resume=True, write=lambda _: None)


@pytest.fixture(scope="module")
def grid_short(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished ``pyaz-experiment grid --short`` (copied by each test that changes it)."""
    out = tmp_path_factory.mktemp("grid") / "grid"
    assert cli.main(["grid", "--short", "--out", str(out)]) == 0
    return out


def done_stamps(out: Path) -> dict[Path, int]:
    return {p: p.stat().st_mtime_ns for p in (out / "runs").glob(f"*/{DONE_FILE}")}


def test_the_command_line_resumes_with_out_alone(
    grid_short: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "grid"
    shutil.copytree(grid_short, out)
    stamps = done_stamps(out)
    assert len(stamps) == 4
    assert cli.main(["--out", str(out), "--resume"]) == 0
    assert json.loads((out / "summary.json").read_text())["scale"] == "short"
    assert done_stamps(out) == stamps  # nothing ran again
    assert cli.main(["grid", "--out", str(out), "--resume", "--short", "--seed", "0"]) == 0
    for args, expected in (
        (["--scale", "cpu"], "holds scale='short', not 'cpu'"),
        (["--scale", "full"], "holds scale='short', not 'full'"),
        (["--seed", "3"], "holds seed=0, not 3"),
    ):
        assert expected in cli_error(["grid", "--out", str(out), "--resume", *args], capsys)
    error = cli_error(["sweep", "--out", str(out), "--resume"], capsys)
    assert "holds the experiment 'grid', not 'sweep'" in error
    assert "no option 'x'" in cli_error(["--out", str(out), "--resume", "--option", "x=1"], capsys)
    assert "does not repeat" in cli_error(
        ["--out", str(out), "--resume", "--repetitions", "2"], capsys
    )
    assert done_stamps(out) == stamps
    empty = tmp_path / "empty"
    assert "holds no experiment to resume" in cli_error(["--out", str(empty), "--resume"], capsys)
    with pytest.raises(SystemExit):
        cli.main(["--out", str(empty)])
    assert "NAME is required" in capsys.readouterr().err


# --------------------------------------------------------------------------- 8: damaged JSON


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"[1, 2]", "holds an array"),
        (b'{"experiment": "grid", "scale": "sh', "not JSON (Unterminated string"),
        (b"", "not JSON (Expecting value"),
        (b'{"experiment": "grid"}\xff\xfe', "not UTF-8"),
        (b"[" * 100_000, "nests deeper than 32 levels"),
        (b'{"experiment": "grid", "scale": "huge", "seed": 0, "runs": []}', "scale is 'huge'"),
    ],
)
def test_a_damaged_experiment_json_is_a_one_line_error_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes, expected: str
) -> None:
    out = tmp_path / "grid"
    out.mkdir()
    (out / "experiment.json").write_bytes(content)
    for args in (["--out", str(out), "--resume"], ["grid", "--out", str(out), "--resume"]):
        error = cli_error(args, capsys)
        assert f"{out / 'experiment.json'}" in error and expected in error, error
    assert not (out / "runs").exists()


def test_a_damaged_cache_of_a_report_is_a_one_line_error_naming_it(
    grid_short: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "grid"
    shutil.copytree(grid_short, out)
    ratings = out / "tournament" / "ratings.json"
    text = ratings.read_text()
    ratings.write_text(text[: len(text) // 2])
    error = cli_error(["--out", str(out), "--resume"], capsys)
    assert f"{ratings}: not JSON (" in error and "delete it to compute it again" in error
    ratings.unlink()
    assert cli.main(["--out", str(out), "--resume"]) == 0  # computed again
    assert json.loads(ratings.read_text())["ratings"].keys() == json.loads(text)["ratings"].keys()


def test_cached_results_are_written_whole_and_read_back(tmp_path: Path) -> None:
    path = tmp_path / "result.json"
    assert cached(path, lambda: {"a": 1}) == {"a": 1}
    assert cached(path, lambda: {"a": 2}) == {"a": 1}  # read back, not computed
    assert not list(tmp_path.glob("*.tmp"))
    path.write_text("[1]")
    with pytest.raises(ValueError, match=r"result\.json holds an array"):
        cached(path, lambda: {"a": 3})


# --------------------------------------------------------------------------- 12: files gone


def test_a_finished_run_whose_files_are_gone_is_not_reported(
    grid_short: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "grid"
    shutil.copytree(grid_short, out)
    summary = (out / "summary.json").read_bytes()
    run = out / "runs" / "I1-E2-m6-ep1"
    (run / "metrics.jsonl").unlink()
    error = cli_error(["--out", str(out), "--resume"], capsys)
    assert f"{run} is marked finished but metrics.jsonl is gone" in error
    assert f"delete {run} to run it again" in error
    assert (out / "summary.json").read_bytes() == summary  # no report from what is missing
    shutil.rmtree(run)  # as the message says: the run runs again, and only that one
    stamps = done_stamps(out)
    assert cli.main(["--out", str(out), "--resume"]) == 0
    assert done_stamps(out).items() >= stamps.items() and (run / DONE_FILE).exists()
    assert (run / "metrics.jsonl").exists()
    detail = json.loads((out / "summary.json").read_text())["points"]
    assert all(point["total_min"] > 0 for point in detail)


def test_done_lists_the_files_of_the_run(tmp_path: Path) -> None:
    out = tmp_path / "toy"
    with pytest.raises(KeyboardInterrupt):
        run_experiment(Toy(), out, write=lambda _: None)
    spec = Toy().runs("short")[0]
    marker = json.loads((out / "runs" / "run-0" / DONE_FILE).read_text())
    assert marker["files"] == ["calls.txt", "value.txt"] and marker["seconds"] >= 0
    (out / "runs" / "run-0" / "value.txt").unlink()
    with pytest.raises(ValueError, match=r"run-0 is marked finished but value\.txt is gone"):
        is_done(out, spec)
    (out / "runs" / "run-0" / DONE_FILE).write_text("12.5\n")  # a DONE from before the list
    assert is_done(out, spec)


# --------------------------------------------------------------------------- 13: local Ray


def ray_session_ends(tmp_path: Path, how: str) -> None:
    out = tmp_path / how
    scale = ["--short"] if how == "end" else ["--scale", "cpu"]
    args = ["grid", *scale, "--ray", "--workers", "2", "--out", str(out)]
    log = tmp_path / f"{how}.log"
    with experiment_process(args, log) as process:
        if how == "end":
            assert process.wait(240) == 0, log.read_text()[-3000:]
        else:
            wait_for(lambda: "ray: 81 runs as tasks" in log.read_text(), 120, "Ray did not start")
            running = " ".join(cmdline(p) for p in in_session(process.pid))
            assert "DashboardAgent" in running and "RuntimeEnvAgent" in running, running
            process.send_signal(signal.SIGINT if how == "ctrl-c" else signal.SIGKILL)
            assert stopped_within(process, 60, log) == (130 if how == "ctrl-c" else -signal.SIGKILL)

        def left() -> list[str]:
            return [cmdline(p) for p in in_session(process.pid)]

        with contextlib.suppress(AssertionError):
            wait_for(lambda: not left(), 10, "")
        assert not left(), f"left behind after {how}: {left()}"


@pytest.mark.parametrize("how", ["end", "ctrl-c", "kill"])
def test_a_local_ray_started_by_pyaz_is_stopped_by_pyaz(tmp_path: Path, how: str) -> None:
    pytest.importorskip("ray")
    ray_session_ends(tmp_path, how)


@contextlib.contextmanager
def arena_in_session(tmp_path: Path, args: list[str]) -> Iterator[subprocess.Popen[bytes]]:
    """``pyaz-arena ARGS`` in a session of its own (its log in ``tmp_path``); whatever is left of
    the session is killed at the end."""
    command = [sys.executable, "-m", "pyaz.cli.arena", *args, "--quiet"]
    with (tmp_path / "arena.log").open("wb") as log:
        process = subprocess.Popen(
            command, stdout=log, stderr=subprocess.STDOUT, env=ENV, start_new_session=True
        )
    try:
        yield process
    finally:
        for pid in [process.pid, *in_session(process.pid)]:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


def kill_and_wait_for_session(process: subprocess.Popen[bytes], what: str) -> None:
    """SIGKILL ``process`` (nothing can clean up); nothing of its session may outlive it."""
    os.kill(process.pid, signal.SIGKILL)
    process.wait(10)
    wait_for(lambda: not in_session(process.pid), 10, f"{what} outlived the match")


def test_a_killed_parallel_match_leaves_no_worker(tmp_path: Path) -> None:
    """``pyaz-arena --parallel 2`` killed (SIGKILL, nothing can clean up): its two match workers
    die with it (pyaz.common.workers.die_with_parent), as every pool of pyaz's does."""
    args = ["uct:20000", "uct:20000", "--game", "othello", "--size", "8", "--games", "40"]
    with arena_in_session(tmp_path, [*args, "--parallel", "2"]) as process:

        def workers() -> list[int]:
            return [p for p in in_session(process.pid) if "spawn_main" in cmdline(p)]

        wait_for(lambda: len(workers()) == 2, 120, "the two match workers did not start")
        kill_and_wait_for_session(process, "workers")


SLOW_GTP_ENGINE = """\
import sys, time
for line in sys.stdin:
    command = line.split()[0] if line.split() else ""
    if command == "genmove":
        open(sys.argv[1], "w").close()
        time.sleep(600)  # thinks, and reads nothing, as a strong level does
    print("= 1" if command == "protocol_version" else "= ", flush=True)
    print(flush=True)
"""


def test_a_killed_parallel_match_leaves_no_engine_thinking(tmp_path: Path) -> None:
    """An engine in the middle of a long search does not read its closed input: killing
    ``pyaz-arena --parallel 2`` kills the engines its workers started too
    (``die_with_parent(children=True)``), not only the workers."""
    engine = tmp_path / "slow_gtp.py"
    engine.write_text(SLOW_GTP_ENGINE)
    thinking = tmp_path / "thinking"
    spec = f"gtp:{sys.executable} {engine} {thinking}"
    args = [spec, "random", "--game", "othello", "--size", "8", "--games", "2", "--openings", "0"]
    with arena_in_session(tmp_path, [*args, "--parallel", "2"]) as process:
        wait_for(thinking.exists, 120, "the engine never got a genmove")
        engines = [p for p in in_session(process.pid) if str(engine) in cmdline(p)]
        assert engines, (tmp_path / "arena.log").read_text()
        kill_and_wait_for_session(process, "an engine")
