"""An experiment's runs as Ray tasks: ``pyaz-experiment NAME --ray [ADDRESS]``.

:func:`ray_executor` plugs into :func:`~pyaz.experiments.runner.run_experiment` in place of the
local process pool: every pending run becomes a task (one CPU) placed by Ray's scheduler, running
:func:`~pyaz.experiments.runner.execute_run` as a worker process would, so the run folders, the
``DONE`` markers and ``--resume`` work as before. The experiment's folder must be one that every
node sees (a shared file system) when the cluster has more than this machine. A task whose worker
dies is run again (the training loops resume from their checkpoints).
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from pyaz.common.runlog import write_json_atomic
from pyaz.distributed.cluster import connect, import_ray
from pyaz.experiments.base import RunSpec, run_folder
from pyaz.experiments.runner import Executor, Progress, execute_run

__all__ = ["PLACEMENT_FILE", "ray_executor"]

PLACEMENT_FILE = "ray_task.json"
"""Written into a run's folder by the task that runs it: the node, host and process."""


def execute_run_on_ray(out: str, spec: RunSpec) -> float:
    """:func:`~pyaz.experiments.runner.execute_run` in a Ray task, noting where it ran."""
    ray = import_ray()
    folder = run_folder(Path(out), spec)
    folder.mkdir(parents=True, exist_ok=True)
    placement = {
        "node_id": ray.get_runtime_context().get_node_id(),
        "hostname": os.uname().nodename,
        "pid": os.getpid(),
        "started": time.time(),
    }
    write_json_atomic(folder / PLACEMENT_FILE, placement)
    return execute_run(out, spec)


def ray_executor(address: str | None = None, cpus_per_run: float = 1.0) -> Executor:
    """The executor that runs the pending runs as Ray tasks on the cluster at ``address``
    (None: a local Ray with ``workers`` CPUs, or ``RAY_ADDRESS``; see
    :func:`~pyaz.distributed.connect`), each with ``cpus_per_run`` CPUs."""
    if not cpus_per_run > 0:
        raise ValueError(f"cpus_per_run must be > 0, got {cpus_per_run}")

    def execute(pending: list[RunSpec], out: Path, workers: int, progress: Progress) -> None:
        connection = connect(address, num_cpus=workers)
        try:
            _run_tasks(pending, out, progress, cpus_per_run)
        finally:
            if connection.started:
                connection.close()

    return execute


def _run_tasks(pending: list[RunSpec], out: Path, progress: Progress, cpus: float) -> None:
    ray = import_ray()
    task = ray.remote(execute_run_on_ray).options(num_cpus=cpus, max_retries=2)
    refs: dict[Any, RunSpec] = {task.remote(str(out), spec): spec for spec in pending}
    slots = max(1, int(ray.cluster_resources().get("CPU", 1) // cpus))
    progress.workers = slots
    progress.write(f"ray: {len(refs)} runs as tasks, {slots} at a time on the cluster")
    remaining = list(refs)
    try:
        while remaining:
            finished, remaining = ray.wait(remaining, num_returns=1)
            for ref in finished:
                progress.finished(refs[ref], float(ray.get(ref)))
            progress.report(
                [refs[ref] for ref in finished], [refs[ref] for ref in remaining], slots
            )
    except BaseException:
        for ref in remaining:
            ray.cancel(ref, force=True)
        raise
