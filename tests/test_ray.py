"""Self-play and experiments on Ray (issue 18): the synchronous mode plays the embedded loop's
iterations (the very same records with one worker), the asynchronous mode tags games with the
network that played them, a real two-node cluster on loopback survives a killed worker, and an
experiment's runs become Ray tasks. Tiny settings (Connect Four 5x4, 8 filters, 8 simulations)
keep the file to about a minute and a half; every wait is bounded."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from pyaz.common.runlog import read_metrics
from pyaz.distributed.records import share_seed, share_sizes
from pyaz.methods.alphazero.config import TrainConfig
from pyaz.methods.alphazero.loop import TrainingLoop
from pyaz.methods.alphazero.selfplay_parts import merge_records
from pyaz.search import SelfPlay

BIN = Path(sys.executable).parent


def ray_command() -> str:
    """Ray's command line: the one beside this interpreter (a venv's), else the one on PATH (a
    venv made with --system-site-packages takes Ray from outside it). A failure without it: Ray
    is a test dependency, and the package without its command is a broken install."""
    found = shutil.which("ray", path=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}")
    if found is None:
        pytest.fail("no ray command beside Python or on PATH (pip install '.[test]')")
    return found


TINY: dict[str, Any] = {
    "game": "connect_four",
    "game_options": {"width": 5, "height": 4},
    "simulations": 8,
    "parallel_games": 4,
    "epochs": 1,
    "batch_size": 16,
    "filters": 8,
    "eval_opponent": "none",
    "length_probe_games": 10,
    "seed": 5,
}
TINY_CLI = [
    *("--game", "connect_four", "--width", "5", "--height", "4", "--simulations", "8"),
    *("--parallel-games", "4", "--epochs", "1", "--batch-size", "16", "--filters", "8"),
    *("--eval-opponent", "none", "--length-probe-games", "10", "--seed", "5", "--quiet"),
]


def tiny(**changes: Any) -> TrainConfig:
    return TrainConfig(**{**TINY, **changes})


def iterations(run: Path) -> list[dict[str, Any]]:
    return [r for r in read_metrics(run) if r["kind"] == "iteration"]


# -- splitting and joining (no Ray needed) --------------------------------------------------------


def test_shares_add_up_to_the_games_and_have_distinct_seeds() -> None:
    for games in range(0, 30):
        for shares in range(1, 7):
            sizes = share_sizes(games, shares)
            assert sum(sizes) == games and max(sizes) - min(sizes) <= 1
    assert share_seed(123, 0) == 123  # one worker plays the embedded loop's games
    seeds = {share_seed(seed, index) for seed in range(50) for index in range(8)}
    assert len(seeds) == 400
    with pytest.raises(ValueError, match="shares"):
        share_sizes(4, 0)


def test_concatenated_records_renumber_the_games() -> None:
    import pyaz

    start = pyaz.make("connect_four", width=5, height=4)
    parts = [SelfPlay(start, simulations=4, seed=s).play(n, "uniform") for s, n in ((1, 3), (2, 2))]
    joined = merge_records(parts)
    assert joined.num_games == 5 and joined.num_positions == sum(p.num_positions for p in parts)
    for game in range(5):  # game g of the joined records is game g or g - 3 of a part
        part, local = (parts[0], game) if game < 3 else (parts[1], game - 3)
        rows = joined.planes[joined.game_id == game]
        assert np.array_equal(rows, part.planes[part.game_id == local])
    assert joined.game_length.tolist() == [*parts[0].game_length, *parts[1].game_length]


# -- in-process Ray ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def local_ray() -> Iterator[Any]:
    ray = pytest.importorskip("ray")
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield ray
    finally:
        ray.shutdown()


def ray_run(config: TrainConfig, run: Path, **settings: Any) -> TrainingLoop:
    from pyaz.distributed import RaySelfPlay, RaySettings

    with RaySelfPlay(config, run, RaySettings(timeout_s=120, **settings)) as engine:
        loop = TrainingLoop(config, run, progress=False, self_play=engine)
        loop.run()
    return loop


def test_one_worker_plays_the_embedded_loops_records(local_ray: Any, tmp_path: Path) -> None:
    # 6 games in flight at once: the embedded loop plays them as one part (train.selfplay_parts)
    config = tiny(iterations=2, episodes=6, parallel_games=6)
    embedded = TrainingLoop(config, tmp_path / "embedded", progress=False)
    embedded.run()
    on_ray = ray_run(tiny(iterations=2, episodes=6, parallel_games=6), tmp_path / "ray", workers=1)
    for a, b in zip(iterations(tmp_path / "embedded"), iterations(tmp_path / "ray"), strict=True):
        assert (a["games"], a["positions"], a["loss"]) == (b["games"], b["positions"], b["loss"])
        assert b["ray_workers"] == 1 and b["version_lag_mean"] == 0
    for x, y in zip(embedded.buffer.arrays(), on_ray.buffer.arrays(), strict=True):
        assert np.array_equal(x, y)  # the same positions, policies and outcomes, in order
    cluster = json.loads((tmp_path / "ray" / "cluster.json").read_text())
    assert cluster["resources"]["CPU"] == 2 and len(cluster["workers"]) == 1


def test_two_workers_play_exactly_e_games_reproducibly(local_ray: Any, tmp_path: Path) -> None:
    config = tiny(iterations=2, episodes=7)
    embedded = TrainingLoop(config, tmp_path / "embedded", progress=False)
    embedded.run()
    first = ray_run(config, tmp_path / "a", workers=2)
    ray_run(config, tmp_path / "b", workers=2)
    rows_a, rows_b = iterations(tmp_path / "a"), iterations(tmp_path / "b")
    for emb, a, b in zip(iterations(tmp_path / "embedded"), rows_a, rows_b, strict=True):
        # The same number of games as the embedded loop; the same games when run again. The
        # positions equal the embedded loop's only with one worker: two engines draw other
        # games than one (see the test above).
        assert emb["games"] == a["games"] == b["games"] == 7
        assert (a["positions"], a["loss"]) == (b["positions"], b["loss"])
        assert a["ray_workers"] == 2 and a["worker_restarts"] == 0
    assert first.buffer.num_games == 14
    assert sum(g.outcome.size for g in first.buffer.games) == sum(r["positions"] for r in rows_a)


def test_async_games_carry_the_network_version(local_ray: Any, tmp_path: Path) -> None:
    config = tiny(iterations=4, episodes=6)
    ray_run(config, tmp_path / "async", workers=2, mode="async", chunk_games=3)
    rows = iterations(tmp_path / "async")
    assert len(rows) == 4
    for row in rows:
        assert row["games"] >= 6 and row["net_version"] == row["iteration"] - 1
        counts = dict(part.split(":") for part in row["version_games"].split(","))
        assert sum(int(n) for n in counts.values()) == row["games"]
        assert all(0 <= int(v) <= row["net_version"] for v in counts)
        assert row["version_lag_mean"] >= 0 and row["version_min"] <= row["net_version"]
    assert rows[-1]["version_games"] != "0:" + str(rows[-1]["games"])  # new weights reached them


def test_a_worker_that_cannot_start_is_an_error_not_a_hang(local_ray: Any, tmp_path: Path) -> None:
    from pyaz.distributed import RaySelfPlay, RaySettings, WorkerTimeoutError

    began = time.monotonic()
    with pytest.raises(WorkerTimeoutError, match="no answer within 3 s"):
        RaySelfPlay(tiny(), tmp_path, RaySettings(workers=1, worker_cpus=64, timeout_s=3))
    assert time.monotonic() - began < 30


def test_an_unreachable_cluster_is_a_clear_error(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    from pyaz.cli import selfplay

    port = free_port()
    began = time.monotonic()
    code = selfplay.main(["--out", str(tmp_path / "x"), "--ray", f"127.0.0.1:{port}", *TINY_CLI])
    assert code == 1
    assert time.monotonic() - began < 30


def test_ray_options_need_ray(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from pyaz.cli import selfplay

    with pytest.raises(SystemExit):
        selfplay.main(["--out", str(tmp_path / "x"), "--workers", "2"])
    assert "--workers need --ray" in capsys.readouterr().err


def test_experiment_runs_become_ray_tasks(local_ray: Any, tmp_path: Path) -> None:
    from pyaz.experiments.base import Experiment, RunSpec
    from pyaz.experiments.ray_runner import PLACEMENT_FILE, ray_executor
    from pyaz.experiments.runner import run_experiment

    class Two(Experiment):
        name = "two"

        def runs(self, scale: str, seed: int = 0) -> list[RunSpec]:
            config = {**TINY, "iterations": 1, "episodes": 4}
            return [
                RunSpec(f"seed-{k}", "pyaz.experiments.runs:train_selfplay", {"config": config})
                for k in range(2)
            ]

        def report(self, out: Path, runs: list[RunSpec], scale: str, seed: int = 0) -> Any:
            return {"games": [iterations(out / "runs" / r.name)[0]["games"] for r in runs]}

    out = tmp_path / "two"
    lines: list[str] = []
    summary = run_experiment(Two(), out, executor=ray_executor(), write=lines.append)
    assert summary["games"] == [4, 4]
    placements = [
        json.loads((out / "runs" / f"seed-{k}" / PLACEMENT_FILE).read_text()) for k in (0, 1)
    ]
    assert all(p["pid"] != os.getpid() for p in placements)  # run by Ray's workers
    again = run_experiment(Two(), out, resume=True, executor=ray_executor(), write=lines.append)
    assert again["games"] == [4, 4] and "2 runs (2 finished before)" in lines[-3]
    assert len(iterations(out / "runs" / "seed-0")) == 1  # not run twice


# -- a real two-node cluster on loopback ---------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def cluster_env() -> dict[str, str]:
    # Token authentication (Ray >= 2.5x) is off: the cluster listens on loopback only.
    return {**os.environ, "RAY_USAGE_STATS_ENABLED": "0", "RAY_AUTH_MODE": "disabled"}


def start_node(args: list[str], log: Path) -> subprocess.Popen[bytes]:
    """``ray start --block``: the node's processes live as long as this one (stopped by pid)."""
    with log.open("wb") as out:
        return subprocess.Popen(
            [ray_command(), "start", "--block", "--node-ip-address=127.0.0.1", *args],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=cluster_env(),
            start_new_session=True,
        )


def wait_until(condition: Any, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what} within {seconds} s")
        time.sleep(0.2)


def stop_node(node: subprocess.Popen[bytes]) -> None:
    """Stops the node this test started, by its process group: SIGTERM (ray start --block then
    stops the node's processes), SIGKILL if it lingers."""
    for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 10)):
        if node.poll() is not None:
            break
        os.killpg(node.pid, sig)
        try:
            node.wait(wait)
        except subprocess.TimeoutExpired:
            continue
    with contextlib.suppress(ProcessLookupError):  # anything of the group left behind
        os.killpg(node.pid, signal.SIGKILL)


@pytest.fixture(scope="module")
def two_nodes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    pytest.importorskip("ray")
    logs = tmp_path_factory.mktemp("cluster")
    port = free_port()
    address = f"127.0.0.1:{port}"
    nodes = []
    try:
        head = [f"--port={port}", "--head", "--num-cpus=1", "--include-dashboard=false"]
        nodes.append(start_node(head, logs / "head.log"))
        wait_until(lambda: reachable(port), 60, "the head node did not listen")
        nodes.append(start_node([f"--address={address}", "--num-cpus=1"], logs / "node.log"))
        yield address
    finally:
        for node in reversed(nodes):
            stop_node(node)


def cpu_seconds(pid: int) -> float:
    """The CPU time process ``pid`` has used (Linux /proc): grows while a worker plays."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def reachable(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


def selfplay_command(out: Path, address: str, episodes: int, simulations: int) -> list[str]:
    return [
        str(BIN / "pyaz-selfplay"), "--out", str(out), *TINY_CLI, "--iterations", "1",
        "--episodes", str(episodes), "--simulations", str(simulations),
        "--ray", address, "--workers", "2", "--worker-cpus", "1", "--ray-timeout", "120",
    ]  # fmt: skip


def test_a_two_node_cluster_plays_an_iteration_and_survives_a_killed_worker(
    two_nodes: str, tmp_path: Path
) -> None:
    env = cluster_env()
    first = tmp_path / "first"
    done = subprocess.run(
        selfplay_command(first, two_nodes, 6, 8), env=env, capture_output=True, timeout=180
    )
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    cluster = json.loads((first / "cluster.json").read_text())
    assert (
        len([n for n in cluster["nodes"] if n["alive"]]) == 2 and cluster["resources"]["CPU"] == 2
    )
    assert len({w["node_id"] for w in cluster["workers"]}) == 2  # one worker on each node
    assert iterations(first)[0]["games"] == 6

    # A longer iteration (two shares of 60 games, seconds each); SIGKILL a worker while it plays.
    second = tmp_path / "second"
    log = (tmp_path / "second.log").open("wb")
    driver = subprocess.Popen(
        selfplay_command(second, two_nodes, 120, 100), env=env, stdout=log, stderr=log
    )
    try:
        wait_until(lambda: (second / "config.json").exists(), 120, "the driver did not start")
        victim = json.loads((second / "cluster.json").read_text())["workers"][1]["pid"]
        idle = cpu_seconds(victim)
        wait_until(lambda: cpu_seconds(victim) > idle + 0.3, 120, "the worker did not play")
        killed_at = time.time()
        os.kill(victim, signal.SIGKILL)
        assert driver.wait(240) == 0, (tmp_path / "second.log").read_text()[-2000:]
    finally:
        if driver.poll() is None:
            driver.kill()
        log.close()
    row = iterations(second)[0]
    assert row["games"] == 120 and row["worker_restarts"] == 1
    selfplay_began = row["wall_time"] - row["time_selfplay"] - row["time_train"] - row["time_arena"]
    assert selfplay_began < killed_at < selfplay_began + row["time_selfplay"]  # mid-iteration
    workers = json.loads((second / "cluster.json").read_text())["workers"]
    assert workers[1]["pid"] != victim  # a new process plays share 1 again
