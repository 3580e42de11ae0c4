"""The curling training loop of seed 002: a supervised start from the rule-based player's games
(section 5.1), then self-play reinforcement learning with KR-DL-UCT (section 5.2, Algorithm 1),
with the multi-end win-probability table built from the run's own ends (section 6.2).

Each iteration plays ``games`` self-play games, adds their shots to a sliding window of the
newest ``window`` shots (the seed keeps the newest 1,000,000), trains ``steps`` SGD minibatches
on eq. 13 (cross-entropy of the policy against the search's visit distribution, cross-entropy of
the 17 value bins against the end's real score, c * ||theta||^2), and every ``eval_every``
iterations plays ``eval_games`` games against a reference opponent (colours and the first-end
hammer alternate). The loop is a :class:`~pyaz.common.run.TrainingRun` (a step is an iteration;
the supervised start is step 0): every step is checkpointed atomically, so ``resume=True`` (or
:meth:`~pyaz.common.run.TrainingRun.from_folder`) continues after an interruption, losing at
most the step in progress.

The settings are in :mod:`pyaz.methods.kr_dl_uct.config`, the games (players, worker tasks) in
:mod:`pyaz.methods.kr_dl_uct.players`; matches are played by :mod:`pyaz.eval.arena`.

Scale: the seed ran 400 simulations per shot, a 9-block 32-filter network and 5 M self-play
shots on 5 GPUs for a week. The defaults here are a CPU-sized version (see ``CurlingConfig``);
every constant is an option.
"""

from __future__ import annotations

import contextlib
import io
import math
import multiprocessing
import os
import queue
import time
import warnings
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch.nn import functional
from tqdm import tqdm

from pyaz.common.faults import fault_point
from pyaz.common.folder_lock import FolderLock
from pyaz.common.run import TrainingRun, config_from
from pyaz.common.runlog import atomic_write_bytes, read_run_config
from pyaz.common.workers import die_with_parent
from pyaz.eval.arena import MatchResult
from pyaz.games import curling
from pyaz.methods.kr_dl_uct.config import NOISES, RESUMABLE, CurlingConfig
from pyaz.methods.kr_dl_uct.net import CurlingNet, curling_net_from_state, records_to_examples
from pyaz.methods.kr_dl_uct.players import (
    NetSnapshot,
    evaluation_games,
    match_summary,
    self_play_games,
)
from pyaz.methods.kr_dl_uct.records import play_game
from pyaz.methods.kr_dl_uct.selfplay import (
    POLICY_CELLS,
    Shots,
    end_counts,
    pack_planes,
    unpack_planes,
)
from pyaz.nets.evaluator import denormals_flushed
from pyaz.nets.files import ModelFile, model_bytes, torch_bytes
from pyaz.nets.loading import LoadedModel, saved_iteration
from pyaz.train.checkpoint import BUFFER_FILES, buffer_file, read_checkpoint


class CurlingTrainingLoop(TrainingRun):
    """Runs a :class:`CurlingConfig` in ``run_dir``; see the module docstring.

    The settings are checked first; then the run folder's lock is taken (``lock``: one the caller
    holds and releases; without it the loop holds its own until :meth:`run` ends), and with
    ``resume`` settings that differ from the run's config.json other than
    :data:`~pyaz.methods.kr_dl_uct.config.RESUMABLE` are refused and the last checkpoint restored
    (see :class:`~pyaz.common.run.TrainingRun`). Its checkpoint has the one layout of
    :class:`~pyaz.common.run.TrainingRun` (:mod:`pyaz.train.checkpoint`): the shots
    (``buffer-NNNNN.npz``) and ``nets/iter-NNNNN.pt``, then ``net.torchscript.pt`` and
    ``win_table.npy``, then ``checkpoint.pt``."""

    RESUMABLE = RESUMABLE
    NAME = "curling"
    CONFIG = CurlingConfig
    NAMED_FILES = (BUFFER_FILES,)
    INITIAL_CHECKPOINT = False  # step 0 is the supervised start (:meth:`start`)

    def __init__(
        self,
        config: CurlingConfig,
        run_dir: Path,
        resume: bool = False,
        progress: bool = True,
        lock: FolderLock | None = None,
    ) -> None:
        config.check()
        self.config = config
        torch.manual_seed(config.seed)
        torch.set_num_threads(max(1, config.torch_threads))
        self.rng = np.random.default_rng(config.seed)
        self.net = CurlingNet(config.channels, config.blocks)
        self.optimizer = torch.optim.SGD(
            self.net.parameters(),
            lr=config.lr,
            momentum=config.momentum,
            weight_decay=2 * config.l2,  # the gradient of c * ||theta||^2
        )
        self.buffer = Shots()
        self.ends_seen = np.zeros(curling.SCORE_BINS, dtype=np.int64)
        self.counters: dict[str, float] = dict.fromkeys(
            ("iteration", "games", "shots", "train_steps", "elapsed_s", "supervised"), 0
        )
        self.counters["elapsed_s"] = 0.0
        self._pool: ProcessPoolExecutor | None = None
        self._manager: Any = None  # serves the queue of the workers' shot counts
        self._shots: Any = None
        self._own_table: tuple[bytes, np.ndarray] | None = None
        self.workers = config.workers or os.cpu_count() or 1  # config.json keeps 0: per core
        super().__init__(run_dir, asdict(config), resume, progress, lock)

    # -- pieces ---------------------------------------------------------------------------------

    def noise(self) -> curling.NoiseParams:
        return curling.NoiseParams(NOISES[self.config.noise])

    def win_table(self) -> np.ndarray | None:
        """The leaves' multi-end table: none, the seed's Table 1, or P_win from this run's ends
        (the seed's Table 1 until the run has seen any end)."""
        if self.config.win_table == "none":
            return None
        own = self.own_table() if self.config.win_table == "own" else None
        return curling.seed002_table() if own is None else own

    def own_table(self) -> np.ndarray | None:
        """P_win from the one-end score distribution of every end this run has seen (None before
        the first); computed once per distinct set of counts."""
        if self.ends_seen.sum() == 0:
            return None
        key = self.ends_seen.tobytes()
        if self._own_table is None or self._own_table[0] != key:
            table = curling.win_probability_table(self.ends_seen / self.ends_seen.sum())
            self._own_table = (key, table)
        return self._own_table[1]

    # -- stages ---------------------------------------------------------------------------------

    def supervised_start(self) -> dict[str, Any]:
        """Section 5.1 on a small scale: rule-based games (one-hot policy on the reference
        program's shot, value = the end's score), mirrored, ``supervised_steps`` minibatches."""
        c = self.config
        player = curling.rule_based_player(self.noise())
        games = tqdm(
            range(c.supervised_games),
            desc="rule-based games",
            unit="game",
            disable=not self.progress,
        )
        records = [
            play_game(
                (player, player),
                c.ends,
                self.noise(),
                seed=c.seed * 1_000_003 + 500_000 + g,
                physics=c.physics,
                extra_ends=c.extra_ends,
            )
            for g in games
        ]
        for record in records:
            self.ends_seen += end_counts(record.end_scores)
        planes, actions, bins = records_to_examples(records, c.ends, c.physics)
        shots = Shots(
            np.stack([pack_planes(p) for p in planes]),
            np.rint(planes[:, 10, 0, 0] * 15).astype(np.int8),
            np.pad(actions[:, None], ((0, 0), (0, POLICY_CELLS - 1))).astype(np.int32),
            np.pad(np.ones((len(actions), 1)), ((0, 0), (0, POLICY_CELLS - 1))).astype(np.float32),
            bins.astype(np.int8),
        )
        stats = self.train(shots, c.supervised_steps, "supervised")
        return {"supervised_games": c.supervised_games, "supervised_shots": len(shots), **stats}

    def self_play(self, iteration: int) -> tuple[Shots, list[list[tuple[int, int]]]]:
        c = self.config
        seeds = [(c.seed * 1_000_003 + iteration) * 10_007 + g for g in range(c.games)]
        played = self._spread(self_play_games, seeds, "self-play", self.win_table())
        return Shots.concat([p.shots for p in played]), [p.end_scores for p in played]

    def _spread(
        self, task: Callable[..., list[Any]], items: list[Any], desc: str, *args: Any
    ) -> list[Any]:
        """Runs ``task(config, snapshot, *args, items, progress)`` over ``items`` (games): in
        this process, one game at a time, or split among the worker processes. The bar counts
        shots (16 an end), told by the games as they are thrown, so that it moves within the
        first seconds. The results do not depend on the number of workers."""
        snapshot = NetSnapshot.of(self.net, self.config)
        workers = min(self.workers, len(items))
        total = len(items) * 16 * self.config.ends  # extra ends may add a few
        with tqdm(total=total, desc=desc, unit="shot", disable=not self.progress) as bar:
            if workers <= 1:
                return [
                    r for i in items for r in task(self.config, snapshot, *args, [i], bar.update)
                ]
            if self._pool is None:
                context = multiprocessing.get_context("spawn")
                self._pool = ProcessPoolExecutor(
                    workers,
                    mp_context=context,
                    initializer=die_with_parent,
                    initargs=(os.getpid(),),
                )
                self._manager = context.Manager()
                self._shots = self._manager.Queue()
            shares = [items[w::workers] for w in range(workers)]
            put = self._shots.put if self.progress else None
            futures = [
                self._pool.submit(task, self.config, snapshot, *args, s, put) for s in shares
            ]
            while not all(future.done() for future in futures):
                with contextlib.suppress(queue.Empty):
                    bar.update(self._shots.get(timeout=0.25))
            parts = [future.result() for future in futures]
        results: list[Any] = [None] * len(items)
        for w, part in enumerate(parts):
            results[w::workers] = part
        return results

    @denormals_flushed()
    def train(self, shots: Shots, steps: int, desc: str = "training") -> dict[str, float]:
        """``steps`` SGD minibatches on eq. 13, each example mirrored left-right at random."""
        if len(shots) == 0 or steps == 0:
            return {}
        c = self.config
        self.net.train()
        totals = np.zeros(3)
        bar = tqdm(range(steps), desc=desc, unit="step", disable=not self.progress)
        for _ in bar:
            idx = self.rng.choice(len(shots), size=min(c.batch_size, len(shots)), replace=False)
            mirror = self.rng.random(len(idx)) < 0.5
            planes = unpack_planes(shots.planes[idx], shots.shot[idx])
            planes[mirror] = planes[mirror][..., ::-1]
            cells = shots.cells[idx].astype(np.int64)
            cells[mirror] = curling.mirror_actions(cells[mirror])
            target = np.zeros((len(idx), curling.NUM_ACTIONS), dtype=np.float32)
            np.add.at(target, (np.arange(len(idx))[:, None], cells), shots.weights[idx])
            logits, value_logits = self.net(torch.from_numpy(planes))
            loss_policy = -(torch.from_numpy(target) * functional.log_softmax(logits, 1)).sum(1)
            loss_value = functional.cross_entropy(
                value_logits, torch.from_numpy(shots.value_bin[idx].astype(np.int64))
            )
            loss = loss_policy.mean() + loss_value
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            totals += (loss.item(), loss_policy.mean().item(), loss_value.item())
            self.counters["train_steps"] += 1
            bar.set_postfix(loss=f"{loss.item():.3f}")
        self.net.eval()
        mean = totals / steps
        return {"loss": mean[0], "loss_policy": mean[1], "loss_value": mean[2]}

    def evaluate(self, iteration: int) -> dict[str, Any] | None:
        """KR-DL-UCT with the current network against the reference opponent."""
        c = self.config
        if c.eval_opponent == "none" or c.eval_games < 1:
            return None
        simulations = c.eval_simulations or c.simulations
        seed = (c.seed * 1_000_003 + iteration) * 10_007 + 5_000
        played = self._spread(
            evaluation_games,
            list(range(c.eval_games)),
            "evaluation",
            self.win_table(),
            c.eval_opponent,
            simulations,
            seed,
        )
        result = MatchResult()
        for game, record in played:
            result.add(record, game % 2 == 0)
        return {
            **match_summary(result),
            "opponent": c.eval_opponent,
            "eval_simulations": simulations,
        }

    # -- the loop -------------------------------------------------------------------------------

    def total_steps(self) -> int:
        return self.config.iterations

    def close(self) -> None:
        """Stops the worker processes, then closes the run (:meth:`TrainingRun.close`)."""
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None
        if self._manager is not None:
            self._manager.shutdown()
            self._manager = None
        super().close()

    def start(self) -> list[dict[str, Any]] | None:
        """Step 0: the supervised start and the supervised network's evaluation (none without
        ``supervised_games``)."""
        if self.config.supervised_games == 0:
            return None
        began = time.perf_counter()
        stats = self.supervised_start()
        self.counters["supervised"] = 1
        self.counters["elapsed_s"] += time.perf_counter() - began
        evaluation = self.evaluate(0)  # the supervised network's strength
        fault_point("evaluate")
        return [{"kind": "supervised", "iteration": 0, **stats}, *self._evaluated(0, evaluation)]

    def run_step(self, step: int) -> list[dict[str, Any]]:
        """Iteration ``step``: self-play, training, the evaluation; returns the iteration's
        record and the evaluation's."""
        c, iteration = self.config, step
        began = time.perf_counter()
        shots, end_scores = self.self_play(iteration)
        fault_point("self-play")
        for scores in end_scores:
            self.ends_seen += end_counts(scores)
        self.buffer = Shots.concat([self.buffer, shots]).last(c.window)
        self.counters["games"] += c.games
        self.counters["shots"] += len(shots)
        played = time.perf_counter()
        record: dict[str, Any] = {
            "kind": "iteration",
            "iteration": iteration,
            "games": c.games,
            "shots": len(shots),
            "buffer_shots": len(self.buffer),
            "shots_per_s": len(shots) / max(played - began, 1e-9),
            **self._end_statistics(end_scores),
        }
        steps = c.steps or max(1, math.ceil(c.sample_reuse * len(shots) / c.batch_size))
        record.update(self.train(self.buffer, steps))
        fault_point("train-epoch")
        trained = time.perf_counter()
        self.counters["elapsed_s"] += trained - began
        self.counters["iteration"] = iteration
        record.update(
            time_selfplay=played - began,
            time_train=trained - played,
            train_steps=self.counters["train_steps"],
        )
        evaluation = self.evaluate(iteration) if iteration % max(1, c.eval_every) == 0 else None
        fault_point("evaluate")
        self.counters["elapsed_s"] += time.perf_counter() - trained
        record["time_arena"] = time.perf_counter() - trained
        return [record, *self._evaluated(iteration, evaluation)]

    def _evaluated(self, iteration: int, evaluation: dict[str, Any] | None) -> list[dict[str, Any]]:
        """The record of the evaluation at ``iteration``, if there was one."""
        if evaluation is None:
            return []
        counted = {key: self.counters[key] for key in ("elapsed_s", "train_steps")}
        return [
            {"kind": "eval", "iteration": iteration, **counted, "epochs": iteration, **evaluation}
        ]

    def _end_statistics(self, end_scores: list[list[tuple[int, int]]]) -> dict[str, float]:
        ends = [e for game in end_scores for e in game]
        points = np.array([abs(a - b) for a, b in ends], dtype=np.float64)
        table = self.own_table()
        assert table is not None  # the iteration's own games have just added their ends
        return {
            "blank_ends": float(np.mean(points == 0)),
            "mean_end_points": float(points.mean()),
            "ends_seen": int(self.ends_seen.sum()),
            # own table: the first thrower's chance of a tied game with 1 and 8 ends to play
            "p_win_1_end_tied": float(table[1, table.shape[1] // 2]),
            "p_win_8_ends_tied": float(table[8, table.shape[1] // 2]),
        }

    def summary(self, records: list[dict[str, Any]]) -> str:
        lines = []
        for r in records:
            if r["kind"] == "iteration":
                loss = " | loss {loss:.3f} (p {loss_policy:.3f}, v {loss_value:.3f})"
                lines.append(
                    f"iter {r['iteration']}/{self.config.iterations} | {r['shots_per_s']:.2f} "
                    f"shots/s | {r['shots']} shots (window {r['buffer_shots']})"
                    + (loss.format(**r) if "loss" in r else "")
                )
            elif r["kind"] == "eval":
                lines.append(
                    f"iter {r['iteration']} evaluation vs {r['opponent']}: {r['wins']}-"
                    f"{r['draws']}-{r['losses']}, score {r['win_ratio']:.2f}"
                    f" [{r['wilson_low']:.2f}, {r['wilson_high']:.2f}]"
                )
        return "\n".join(lines)

    # -- checkpoints ----------------------------------------------------------------------------

    def checkpoint_files(self) -> dict[str, bytes]:
        """The iteration's shots (which the checkpoint names) and network."""
        iteration = self.step
        blob = io.BytesIO()
        np.savez_compressed(blob, **self.buffer.arrays())  # type: ignore[arg-type]
        net = {"channels": self.config.channels, "blocks": self.config.blocks}
        payload = {"net": self.net.state_dict(), **net, "iteration": iteration}
        return {
            buffer_file(iteration): blob.getvalue(),
            f"nets/iter-{iteration:05d}.pt": model_bytes("curling", payload, "curling", {}, net),
        }

    def state_bytes(self) -> bytes:
        return torch_bytes(
            {
                "net": self.net.state_dict(),
                "net_config": {"channels": self.config.channels, "blocks": self.config.blocks},
                "optimizer": self.optimizer.state_dict(),
                "rng": self.rng.bit_generator.state,
                "torch_rng": torch.get_rng_state(),
                "counters": dict(self.counters),
                "ends_seen": self.ends_seen.tolist(),
                "config": self.settings,  # config.json's
                "buffer": buffer_file(self.step),
            }
        )

    def _latest_files(self) -> dict[str, bytes]:
        """The files that hold the latest network and P_win table, rewritten at every
        checkpoint (and on resume: a kill may have left an uncommitted iteration's)."""
        files = {"net.torchscript.pt": self._traced_bytes()}
        table = self.own_table()  # the run's own P_win table (used at the leaves with "own")
        if table is not None:
            table_blob = io.BytesIO()
            np.save(table_blob, table)
            files["win_table.npy"] = table_blob.getvalue()
        return files

    def _traced_bytes(self) -> bytes:
        """The network as TorchScript, traced, not scripted: tracing needs no source files (safe
        mid-run under an editable install) and the network has no data-dependent control flow."""
        scripted = io.BytesIO()
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", category=DeprecationWarning)
            example = torch.zeros(1, curling.NUM_PLANES, curling.GRID, curling.GRID)
            torch.jit.save(torch.jit.trace(self.net, example), scripted)
        return scripted.getvalue()

    def write_latest(self) -> None:
        for name, data in self._latest_files().items():
            atomic_write_bytes(self.folder / name, data)

    def restore(self, path: Path) -> int:
        data, buffer = read_checkpoint(path.parent, self.read_named_file)
        saved = data["net_config"]
        if (saved["channels"], saved["blocks"]) != (self.config.channels, self.config.blocks):
            raise ValueError(
                f"the run's network has {saved['channels']} channels and {saved['blocks']}"
                " blocks; resume with the same --channels / --blocks"
            )
        self.net.load_state_dict(data["net"])
        self.optimizer.load_state_dict(data["optimizer"])
        self.rng.bit_generator.state = data["rng"]
        torch.set_rng_state(data["torch_rng"])
        self.counters.update(data["counters"])
        self.ends_seen = np.array(data["ends_seen"], dtype=np.int64)
        with np.load(io.BytesIO(buffer)) as arrays:
            self.buffer = Shots.from_arrays(dict(arrays))
        self.net.eval()
        return int(self.counters["iteration"])


def curling_network(loaded: LoadedModel) -> CurlingNet:
    """The curling network of ``loaded``, what ``pyaz.load_model`` returned for a curling
    network file; a one-line ValueError naming both kinds when it holds another kind of
    model."""
    return loaded.module_of("curling", CurlingNet)


def curling_net_from_file(model: ModelFile) -> LoadedModel:
    """The record of a model file of kind ``"curling"`` (see ``pyaz.load_model``): its
    :class:`CurlingNet`, checked before it is built; a one-line ValueError naming the file
    otherwise."""
    data = model.payload
    try:
        net = curling_net_from_state(data.get("net_config", data), data["net"])
    except (KeyError, TypeError, ValueError, RuntimeError) as error:
        first = (str(error).strip().splitlines() or [type(error).__name__])[0][:200]
        raise ValueError(f"{model.path}: a broken curling network ({first})") from None
    net.eval()
    iteration = saved_iteration(data)
    return LoadedModel(net, None, {}, model.path, iteration, "curling", model.game)


def read_config(run_dir: str | Path) -> CurlingConfig:
    """The :class:`CurlingConfig` of the run in ``run_dir`` (its config.json)."""
    return config_from(CurlingConfig, read_run_config(run_dir))
