"""The training loop: self-play, training, optional arena gating, evaluation, checkpoints.

Two loops (seed 000 Fig. 3; seed 001 Algorithm 1):
- AlphaZero (``gating="none"``): self-play always uses the latest network.
- AlphaGo Zero (``gating`` "threshold", "score" or "wilson"): self-play uses the best network;
  after training, the challenger plays the best and replaces it by seed 001's rule as
  alpha-zero-general has it ("threshold": ``arena_games`` (n) games, wins / (wins + losses) >=
  ``update_threshold`` (u), draws ignored), by the score rule ("score": (wins + draws/2) / n >
  u) or by seed 000's sequential 95% Wilson rule ("wilson", at most ``wilson_max_games``). A
  rejected challenger is discarded and the next iteration trains again from the best network
  (as alpha-zero-general does).

Every match plays distinct games: each pair of games starts from a shared random opening
(``opening_plies``, default per game) played with both colour orders; gate players are
semi-stochastic (their first ``arena_sampling_plies`` plies drawn from the visit counts, seed
004's evaluation), and the evaluation against the reference opponent is greedy (seed 000). The
metrics say how many distinct games each match held.

The curriculum's running average game length starts from ``length_probe_games`` uniformly random
games of the game (then follows the self-play games), never from the size of the action space.

The loop is a :class:`~pyaz.common.run.TrainingRun` (a step is an iteration): every iteration is
checkpointed atomically (networks, optimiser, buffer, random states, counters), so ``resume=True``
(or :meth:`~pyaz.common.run.TrainingRun.from_folder`) continues after Ctrl-C or a kill. The
iteration in progress keeps its self-play games (played here, in parts of ``parallel_games`` games,
each written as it ends: :mod:`~pyaz.methods.alphazero.selfplay_parts`): the resumed run plays only
the missing parts and ends as the uninterrupted run would (with ``threads`` 1); Ctrl-C says how many
games it kept.
"""

from __future__ import annotations

import copy
import sys
import time
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

import numpy as np
import torch
from tqdm import tqdm

from pyaz._core import GomokuMentor
from pyaz.common.faults import fault_point
from pyaz.common.folder_lock import FolderLock
from pyaz.common.run import TrainingRun
from pyaz.common.runlog import atomic_write_bytes
from pyaz.eval import presets
from pyaz.eval.players import SearchPlayer, close_player
from pyaz.games import make, random_game_lengths
from pyaz.games.symmetry import symmetry_ids
from pyaz.methods.alphazero.config import TrainConfig
from pyaz.methods.alphazero.matches import Evaluation, play_gate
from pyaz.methods.alphazero.saved_settings import RESUMABLE, upgrade_settings
from pyaz.methods.alphazero.schedules import (
    lr_factor,
    schedule_progress,
    scheduled_simulations,
    window_size,
)
from pyaz.methods.alphazero.selfplay_engine import SelfPlayEngine, SelfPlayJob
from pyaz.methods.alphazero.selfplay_parts import (
    PARTS_DIR,
    PartsPlay,
    kept_games,
    merge_records,
    remove_parts,
)
from pyaz.methods.alphazero.sparring import play_sparring
from pyaz.methods.alphazero.targets import (
    merge_duplicates,
    records_with_threat_targets,
    value_targets,
)
from pyaz.nets import (
    TORCHSCRIPT_FILE,
    PolicyValueNet,
    net_from_state,
    net_state,
    to_torchscript,
    torchscript_bytes,
)
from pyaz.nets.evaluator import TorchEvaluator
from pyaz.nets.files import torch_bytes
from pyaz.nets.loading import net_file_bytes
from pyaz.nets.runtimes import make_evaluator
from pyaz.nets.threat_search import ThreatSearchEvaluator, append_threat_search
from pyaz.search import SelfPlayRecords
from pyaz.train.checkpoint import BUFFER_FILES, buffer_file, read_checkpoint
from pyaz.train.curriculum import Curriculum
from pyaz.train.replay import ReplayBuffer
from pyaz.train.trainer import EpochStats, Trainer, TrainSettings

_SELF_PLAY_OPTIONS = (
    "parallel_games", "sampling_plies", "threads", "c_puct", "dirichlet_alpha",
    "dirichlet_epsilon", "draw_value", "gumbel_actions", "solver", "rollout_mix",
    "forced_playouts", "full_search_prob", "cheap_simulations",
)  # fmt: skip
"""The :class:`~pyaz.search.SelfPlay` options that self-play takes from the settings as they are."""
_SPARRING_OPTIONS = (
    "sampling_plies", "draw_value", "c_puct", "dirichlet_alpha", "dirichlet_epsilon", "solver",
    "forced_playouts",
)  # fmt: skip
"""The search options of sparring games (:func:`~pyaz.methods.alphazero.sparring.play_sparring`)
taken from
the settings as they are."""


class TrainingLoop(TrainingRun):
    """Runs a ``TrainConfig`` in ``run_dir``; see the module docstring. ``self_play`` plays the
    self-play games elsewhere (e.g. :class:`pyaz.distributed.RaySelfPlay`); by default they are
    played in this process. Its checkpoint has the one layout of
    :class:`~pyaz.common.run.TrainingRun` (:mod:`pyaz.train.checkpoint`): the buffer
    (``buffer-NNNNN.npz``) and ``nets/iter-NNNNN.pt``, then ``best.torchscript.pt``, then
    ``checkpoint.pt``, from iteration 1 on."""

    RESUMABLE = RESUMABLE
    NAME = "alphazero"
    CONFIG = TrainConfig
    NAMED_FILES = (BUFFER_FILES,)
    INITIAL_CHECKPOINT = False  # iteration 0 is the seed's network: nothing to resume from
    LIVE_PLOTS = True  # win_ratio.png, losses.png, stage_times.png while it runs

    @classmethod
    def upgrade_settings(cls, saved: dict[str, Any]) -> dict[str, Any]:
        """A config.json that an older pyaz wrote, as this one writes it
        (:func:`~pyaz.methods.alphazero.saved_settings.upgrade_settings`)."""
        return upgrade_settings(saved)

    @classmethod
    def starts_process(cls, value: str) -> bool:
        """Whether ``value``, as eval_opponent or sparring, starts an external engine
        (:func:`~pyaz.eval.presets.starts_process`): :meth:`from_folder` refuses such a saved
        one unless it is given again."""
        return presets.starts_process(value)

    def __init__(
        self,
        config: TrainConfig,
        run_dir: Path,
        resume: bool = False,
        progress: bool = True,
        self_play: SelfPlayEngine | None = None,
        lock: FolderLock | None = None,
    ):
        """Checks the settings (:meth:`TrainConfig.validate`, :meth:`TrainConfig.check_players`)
        before anything else; then takes the run folder's lock (``lock``: one the caller holds
        and releases; without it the loop holds its own until :meth:`finish`, or the end of
        :meth:`run`), and with ``resume`` refuses settings that differ from the run's
        config.json other than :data:`RESUMABLE` and restores the last checkpoint (see
        :class:`~pyaz.common.run.TrainingRun`)."""
        config.validate()
        config.check_players()
        config = config.resolved()  # config.json says which planes, spread and schedule auto chose
        self.config = config
        self.engine = self_play
        self.start_state = make(config.game, **config.game_options)
        self.evaluation = Evaluation(config, self.start_state)
        self.curriculum = Curriculum.named(config.curriculum)
        torch.manual_seed(config.seed)
        torch.set_num_threads(config.network_threads)
        self.rng = np.random.default_rng(config.seed)
        self.current = PolicyValueNet(config.net_config(self.start_state))
        self.best = copy.deepcopy(self.current)
        self._scripted = [to_torchscript(self.current), to_torchscript(self.current)]
        self.trainer = Trainer(self.current, self._train_settings(), self.start_state)
        self.buffer = ReplayBuffer()
        # the analysis of threat_search, for the planes of the positions that enter the buffer
        self.search_planes = (
            GomokuMentor(time_ms=0.0, max_nodes=config.threat_search)
            if config.threat_search
            else None
        )
        self.threat_search_seconds = 0.0  # its time in an iteration (record time_threat_search)
        self._restored_games = 0  # the iteration's self-play games read back from its parts
        probe = random_game_lengths(
            self.start_state, max(1, config.length_probe_games), seed=config.seed
        )
        self.counters: dict[str, float] = {
            **dict.fromkeys(("iteration", "games", "train_steps", "epochs", "trainings"), 0),
            "elapsed_s": 0.0,
            # where the curriculum's running average starts (then it follows the self-play
            # games): the average length of length_probe_games uniformly random games
            "mean_game_length": float(np.mean(probe)),
            "best_iteration": 0,
            # the schedules' horizon: the iterations the run was started with (see RESUMABLE)
            "schedule_horizon": config.iterations,
            # 1: the schedules follow the share of max_minutes spent too (0 in runs saved before)
            "schedule_by_time": 1,
        }
        super().__init__(run_dir, asdict(config), resume, progress, lock)

    def _evaluator(self, net: PolicyValueNet, slot: int) -> Any:
        """``net`` as the search's evaluator on the run's runtime (two slots: gating needs two
        networks at once). On ONNX Runtime or OpenVINO the network is exported with its current
        weights (traced: no source files are read). On TorchScript the networks are scripted
        once per run and get fresh weights here: scripting reads the source files, which should
        not matter (or break) in the middle of a long run."""
        c = self.config
        if c.runtime != "torchscript":
            shape = (net.config.planes, net.config.height, net.config.width)
            return make_evaluator(net, shape, c.runtime, threads=c.network_threads)
        scripted = self._scripted[slot]
        scripted.load_state_dict(net.state_dict())
        evaluator = TorchEvaluator(scripted)
        if net.config.threat_search:
            return ThreatSearchEvaluator(evaluator, net.config.threat_search, net.config.planes)
        return evaluator

    def _min_buffer_games(self) -> int:
        """The games the buffer must hold before the next training."""
        schedule = self.config.min_buffer_schedule
        if schedule:
            return int(schedule[min(int(self.counters["trainings"]), len(schedule) - 1)])
        return self.config.min_buffer_games

    def _train_settings(self) -> TrainSettings:
        c = self.config
        return TrainSettings(
            c.epochs_used,
            c.batch_size,
            c.lr,
            c.l2,
            c.loss,
            c.loss_lambda,
            c.augment,
            score_weight=c.score_weight,
        )

    # -- stages ---------------------------------------------------------------------------------

    def _self_play_job(self, iteration: int) -> SelfPlayJob:
        """The iteration's games: E of them, seeded by the run's seed and the iteration."""
        c = self.config
        epoch = self.counters["epochs"]
        mean_length = self.counters["mean_game_length"]
        version = int(self.counters["best_iteration"]) if c.gating != "none" else iteration - 1
        spread = c.opening_spread_plies
        rule, simulations, _ = self._self_play_search(iteration)
        options = {name: getattr(c, name) for name in _SELF_PLAY_OPTIONS}
        options |= {
            "simulations": simulations,
            "random_opening_plies": spread or self.curriculum.random_plies(epoch, mean_length),
            "random_opening_spread": spread > 0,
            "opening_rollback_plies": -1
            if spread
            else self.curriculum.rollback_plies(epoch, mean_length),
            "rule": rule,
        }
        return SelfPlayJob(c.episodes, c.seed * 1_000_003 + iteration, version, options)

    def _simulations(self, iteration: int) -> int:
        """Self-play's simulations a move at ``iteration`` (``simulations_schedule``)."""
        if not (schedule := self.config.simulations_schedule):
            return self.config.simulations
        return scheduled_simulations(schedule, *self._schedule(iteration))

    def _self_play_search(self, iteration: int) -> tuple[str, int, bool]:
        """Self-play's rule and simulations a move at ``iteration``, and whether it is in the
        warm-up (the schedules' progress below ``gumbel_warmup``): Gumbel at
        ``gumbel_warmup_simulations`` there, else ``search_rule`` at :meth:`_simulations`."""
        c = self.config
        if c.gumbel_warmup > 0 and schedule_progress(*self._schedule(iteration)) < c.gumbel_warmup:
            return "gumbel", c.gumbel_warmup_simulations, True
        return c.search_rule, self._simulations(iteration), False

    def _examples(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict[str, float]]:
        """The training examples of the buffer (planes, policy, value target) and what making
        them measured: value targets blended with the root values (``value_target_q``), then
        duplicates merged (``dedupe``: ``dedupe_share`` of the positions, ``dedupe_merged``
        of them, folded into another one's example)."""
        planes, policy, value, _, measured = self._examples_with_score()
        return planes, policy, value, measured

    def _examples_with_score(
        self,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, float]]:
        """:meth:`_examples` with the score targets (averaged too when ``dedupe``) fourth."""
        c = self.config
        planes, policy, outcome = self.buffer.arrays()
        value = value_targets(outcome, self.buffer.root_values(), c.value_target_q_used)
        score = self.buffer.scores()
        if not c.dedupe:
            return planes, policy, value, score, {}
        symmetries = symmetry_ids(self.start_state) if c.augment else None
        merged = merge_duplicates(planes, policy, value, self.start_state, symmetries, score)
        measured = {"dedupe_share": merged.share, "dedupe_merged": merged.merged}
        assert merged.score is not None
        return merged.planes, merged.policy, merged.value, merged.score, measured

    def _self_play(self, iteration: int) -> SelfPlayRecords:
        job = self._self_play_job(iteration)
        net = self.best if self.config.gating != "none" else self.current
        if self.engine is not None:
            return self.engine.play(job, net)
        evaluator = self._evaluator(net, 0)
        parts = PartsPlay(self.folder, self.start_state, self.progress)
        records = parts.play(job, iteration, evaluator, float(self.counters["mean_game_length"]))
        self._restored_games = parts.restored
        if isinstance(evaluator, ThreatSearchEvaluator):
            self.threat_search_seconds += evaluator.seconds
        return records

    def _spar(
        self, iteration: int, records: SelfPlayRecords
    ) -> tuple[SelfPlayRecords, dict[str, Any]]:
        """``records`` with the network's positions of the iteration's sparring games
        (:func:`~pyaz.methods.alphazero.sparring.play_sparring`; with ``sparring_imitation`` the
        opponent's too) after them, and what they measured: the network's score in them and
        their time."""
        c = self.config  # resolved: an opponent, a number of games, imitation on or off
        began = time.perf_counter()
        net = self.best if c.gating != "none" else self.current
        seed = c.seed * 1_000_003 + iteration + 500_009
        opponent = presets.make_player(c.sparring, self.start_state, seed=seed)
        options = {name: getattr(c, name) for name in _SPARRING_OPTIONS}
        try:
            result = play_sparring(
                self.start_state,
                opponent,
                self._evaluator(net, 0),
                c.sparring_games or 0,
                self._simulations(iteration),
                seed,
                imitate=bool(c.sparring_imitation),
                **options,
            )
        finally:
            close_player(opponent)
        measured = {
            "sparring_score": result.score,
            "sparring_distinct_games": result.match.distinct_games,
            "sparring_positions": result.records.num_positions,
            "time_sparring": time.perf_counter() - began,
        }
        return merge_records([records, result.records]), measured

    def _train(self, iteration: int) -> dict[str, float]:
        """``epochs`` passes over the buffer's examples (:meth:`_examples`) at the learning
        rate of ``lr_schedule``; each epoch's losses (every target) are logged."""
        c = self.config
        planes, policy, outcome, score, measured = self._examples_with_score()
        factor = lr_factor(c.lr_schedule, *self._schedule(iteration))
        self.trainer.set_lr(c.lr * factor)
        if c.lr_schedule != "constant":
            measured["lr"] = c.lr * factor
        stats = None
        epochs = tqdm(
            range(self.config.epochs_used), desc="training", unit="epoch", leave=None,
            disable=not self.progress,
        )  # fmt: skip  # leave None: cleared below the run's line, kept when it is alone
        for _ in epochs:
            stats = self.trainer.train_epoch(planes, policy, outcome, self.rng, score)
            self.counters["train_steps"] += stats.steps
            self.counters["epochs"] += 1
            epochs.set_postfix(loss=f"{stats.loss:.3f}")
            self.log.log(
                {
                    "kind": "train_epoch",
                    "iteration": iteration,
                    "epochs": int(self.counters["epochs"]),
                    "train_steps": int(self.counters["train_steps"]),
                    **self._losses(stats),
                }
            )
            fault_point("train-epoch")
        self.counters["trainings"] += 1
        assert stats is not None
        return {**self._losses(stats), **measured}

    def _losses(self, stats: EpochStats) -> dict[str, float]:
        """The epoch's losses as the metrics record them (``loss_score`` with a score head)."""
        score = self.config.score_weight > 0
        return {
            name: value
            for name, value in asdict(stats).items()
            if name != "steps" and (score or name != "loss_score")
        }

    def _search_player(
        self, net: PolicyValueNet, name: str, seed: int = 0, sampling_plies: int = 0
    ) -> SearchPlayer:
        return SearchPlayer(
            self._evaluator(net, 0 if net is self.best else 1),
            self.config.simulations,
            name=name,
            seed=seed,
            sampling_plies=sampling_plies,
            c_puct=self.config.c_puct,
            draw_value=self.config.draw_value,
            rollout_mix=self.config.rollout_mix,
        )

    def _gate(self, iteration: int) -> dict[str, Any]:
        """The challenger against the best (:func:`~pyaz.methods.alphazero.matches.play_gate`), with
        semi-stochastic players (their first ``arena_sampling_plies`` plies drawn from pi); the
        challenger becomes the best, or goes back to it; returns the gate's record."""
        c = self.config
        seed = c.seed * 1_000_003 + iteration
        plies = c.arena_sampling_plies
        challenger = self._search_player(self.current, "challenger", 2 * seed, plies)
        best = self._search_player(self.best, "best", 2 * seed + 1, plies)
        accepted, record = play_gate(c, challenger, best, self.start_state, seed, self.progress)
        if accepted:
            self.best = copy.deepcopy(self.current)
            self.counters["best_iteration"] = self.counters["iteration"] + 1
        else:
            self.current.load_state_dict(self.best.state_dict())
        return record

    def _evaluate(self) -> dict[str, Any] | None:
        """The evaluation's record (:class:`~pyaz.methods.alphazero.matches.Evaluation`) of the
        network
        that self-play uses, greedy; None without an evaluation."""
        c = self.config
        net = self.best if c.gating != "none" else self.current
        return self.evaluation.play(
            lambda: self._search_player(net, "pyaz", seed=c.seed), self.progress
        )

    # -- the loop -------------------------------------------------------------------------------

    def total_steps(self) -> int:
        return self.config.iterations

    def run_seconds(self) -> float:
        """The run's time (``elapsed_s``, what ``max_minutes`` counts)."""
        return float(self.counters["elapsed_s"])

    def time_budget_s(self) -> float | None:
        """``max_minutes`` in seconds (None without it)."""
        return self.config.max_minutes * 60.0 if self.config.max_minutes > 0 else None

    def count_seconds(self, seconds: float) -> None:
        """A step's commit (its log, checkpoint and plots) counts toward ``max_minutes``."""
        self.counters["elapsed_s"] += seconds

    def resumed_work(self) -> str:
        """The self-play games of the iteration in progress kept in its parts ("": none)."""
        kept = kept_games(self.folder, self.step + 1)
        return f"{kept} of its {self.config.episodes} self-play games restored" if kept else ""

    def fraction_done(self) -> float:
        """The share of the iterations played or of ``max_minutes`` spent, the larger."""
        played = int(self.counters["iteration"]) / self.config.iterations
        return min(1.0, max(played, self._time_share()))

    def finished(self) -> bool:
        """Whether every iteration has been played, or the run time passed ``max_minutes``."""
        return int(self.counters["iteration"]) >= self.config.iterations or self._time_share() >= 1

    def _schedule(self, iteration: int) -> tuple[int, int, float]:
        """The schedules' arguments at ``iteration`` (:mod:`pyaz.methods.alphazero.schedules`): it,
        their horizon and the share of ``max_minutes`` spent before it, where they follow it (not in
        runs saved before they did)."""
        by_time = self.counters.get("schedule_by_time", 0)
        horizon = int(self.counters["schedule_horizon"])
        return iteration, horizon, self._time_share() if by_time else 0.0

    def _time_share(self) -> float:
        """The share of ``max_minutes`` spent (0 without a time budget)."""
        budget = self.config.max_minutes * 60.0
        return float(self.counters["elapsed_s"]) / budget if budget > 0 else 0.0

    def finish(self) -> None:
        """After the last iteration: the Elo of every iteration (``elo_games`` > 0)."""
        if self.config.elo_games > 0 and not (self.folder / "elo" / "fit.json").exists():
            self._rate_iterations()

    def _rate_iterations(self) -> None:
        """Seed 001 Fig. 10: Elo of the network of each iteration, the random player at 0.

        Each network plays its two predecessors in the chain random, iteration k, 2k, ...
        (``elo_games`` games a pair), which keeps the cost linear in the number of iterations.
        """
        from pyaz.eval.tournament import rate_run_iterations

        c = self.config
        ratings = rate_run_iterations(
            self.folder,
            c.elo_games,
            c.simulations,
            every=c.elo_every,
            neighbours=2,
            seed=c.seed,
            progress=self.progress,
            out=self.folder / "elo",
        )
        for rating in ratings:
            if rating.name.startswith("iter-"):
                self.log.log(
                    {
                        "kind": "elo",
                        "iteration": int(rating.name.removeprefix("iter-")),
                        "elo": rating.elo,
                        "elo_lower": rating.lower,
                        "elo_upper": rating.upper,
                    }
                )

    def run_step(self, step: int) -> list[dict[str, Any]]:
        """Iteration ``step``: self-play, training (its epochs logged as they end), the gate,
        the evaluation; returns the iteration's record and the evaluation's. On Ctrl-C, says on
        stderr how many of the iteration's self-play games are kept for the resumed run (the parts
        played: :mod:`~pyaz.methods.alphazero.selfplay_parts`), then lets the KeyboardInterrupt
        go."""
        try:
            return self._iteration(step)
        except KeyboardInterrupt:
            if self.engine is not None:
                raise
            kept, games = kept_games(self.folder, step), self.config.episodes
            where = self.folder / PARTS_DIR
            news = f"its {games} self-play games are kept in {where}; a resumed run trains on them"
            if kept < games:
                news = (
                    f"{kept} finished self-play games of its {games} are kept in {where}; a "
                    f"resumed run plays the other {games - kept}"
                )
            print(f"\ninterrupted in iteration {step}: {news}", file=sys.stderr, flush=True)
            raise

    def _iteration(self, step: int) -> list[dict[str, Any]]:
        """:meth:`run_step`'s work."""
        c, iteration = self.config, step
        began = time.perf_counter()
        self.threat_search_seconds = 0.0
        self._restored_games = 0
        records = self._self_play(iteration)
        restored = self._restored_games  # not played now: games_per_s leaves them out
        fault_point("self-play")
        lengths = records.game_length.astype(np.float64)  # of self-play alone
        sparred: dict[str, Any] = {}
        if c.sparring_games:  # resolved: 0 or more
            records, sparred = self._spar(iteration, records)
        corrected: dict[str, Any] = {}
        if c.threat_targets > 0:
            overline_wins = bool(getattr(self.start_state, "overline_wins", True))
            records, corrected = records_with_threat_targets(
                records, c.threat_targets, overline_wins
            )
        if self.search_planes is not None:
            appending = time.perf_counter()
            planes = append_threat_search(records.planes, self.search_planes)
            records = replace(records, planes=planes)
            self.threat_search_seconds += time.perf_counter() - appending
        kept = self.buffer.add(
            records, iteration, int(self.counters["games"]), c.drop_draw, self.rng
        )
        self.counters["games"] += records.num_games
        mean_before = self.counters["mean_game_length"]
        self.counters["mean_game_length"] = float(lengths.mean())  # the curriculum's av
        selfplay_done = time.perf_counter()
        record: dict[str, Any] = {
            "kind": "iteration",
            "iteration": iteration,
            "games": records.num_games,
            "games_kept": kept,
            "positions": records.num_positions,
            "buffer_games": self.buffer.num_games,
            "buffer_positions": self.buffer.num_positions,
            "mean_batch": records.mean_batch_size,
            "random_plies": int(records.game_opening.mean()),
            "av_length": mean_before,
            "zeta": self.curriculum.zeta(self.counters["epochs"]),
        }
        if c.simulations_schedule or c.gumbel_warmup > 0:
            _, record["simulations"], warmup = self._self_play_search(iteration)
            record["gumbel_warmup"] = int(warmup)
        if c.threat_search:
            record["time_threat_search"] = self.threat_search_seconds
        record |= sparred | corrected
        if self.engine is not None:
            record.update(self.engine.metrics())
        if self.buffer.num_games >= max(1, self._min_buffer_games()):
            record.update(self._train(iteration))
            if c.retrain_iterations > 0:
                window = window_size(c.window_growth, iteration, c.retrain_iterations)
                self.buffer.keep_last_iterations(window, iteration)
                if c.window_growth:
                    record["window"] = window
            else:
                self.buffer.drop_oldest(c.replacement)
        train_done = time.perf_counter()
        if c.gating != "none" and "loss" in record:
            record.update(self._gate(iteration))
            fault_point("gate")
        elif c.gating == "none":
            self.best.load_state_dict(self.current.state_dict())
        arena_done = time.perf_counter()
        self.counters["elapsed_s"] += arena_done - began
        self.counters["iteration"] = iteration
        record.update(
            time_selfplay=selfplay_done - began,
            time_train=train_done - selfplay_done,
            time_arena=arena_done - train_done,
            games_per_s=(records.num_games - restored) / max(selfplay_done - began, 1e-9),
            train_steps=self.counters["train_steps"],
            epochs=self.counters["epochs"],
            elapsed_s=self.counters["elapsed_s"],
        )
        evaluation = self._evaluate() if iteration % max(1, c.eval_every) == 0 else None
        fault_point("evaluate")
        self.counters["elapsed_s"] += time.perf_counter() - arena_done
        if evaluation is None:
            return [record]
        counted = {key: self.counters[key] for key in ("elapsed_s", "train_steps", "epochs")}
        return [record, {"kind": "eval", "iteration": iteration, **counted, **evaluation}]

    def summary(self, records: list[dict[str, Any]]) -> str:
        record, evaluation = records[0], records[1] if len(records) > 1 else None
        of = "" if self.time_budget_s() else f"/{self.config.iterations}"  # else a mere cap
        parts = [
            f"iter {record['iteration']}{of}",
            f"{record['games_per_s']:.1f} games/s"
            + (f" ({self._restored_games} restored)" if self._restored_games else ""),
            f"{record['positions']} positions (buffer {record['buffer_positions']})",
        ]
        if "loss" in record:
            policy, value = record["loss_policy"], record["loss_value"]
            parts.append(f"loss {record['loss']:.3f} (p {policy:.3f}, v {value:.3f})")
        if "arena_score" in record:
            verdict = "accepted" if record["accepted"] else "rejected"
            parts.append(f"arena {record['arena_score']:.2f} {verdict}")
        if evaluation is not None and "perfect_agreement" in evaluation:
            parts.append(f"perfect-play agreement {evaluation['perfect_agreement']:.2f}")
        elif evaluation is not None:
            parts.append(f"win ratio vs {evaluation['opponent']} {evaluation['win_ratio']:.2f}")
        return " | ".join(parts)

    # -- checkpoints ----------------------------------------------------------------------------

    def checkpoint_files(self) -> dict[str, bytes]:
        """The iteration's buffer (which the checkpoint names) and best network."""
        iteration = self.step
        return {
            buffer_file(iteration): self.buffer.to_bytes(),
            f"nets/iter-{iteration:05d}.pt": net_file_bytes(
                self.best, self.config.game, self.config.game_options, iteration
            ),
        }

    def state_bytes(self) -> bytes:
        return torch_bytes(
            {
                "best": net_state(self.best),
                "current": net_state(self.current),
                "optimizer": self.trainer.optimizer.state_dict(),
                "rng": self.rng.bit_generator.state,
                "torch_rng": torch.get_rng_state(),
                "counters": dict(self.counters),
                "config": self.settings,  # config.json's
                "buffer": buffer_file(self.step),
            }
        )

    def save_checkpoint(self) -> None:
        """:class:`~pyaz.common.run.TrainingRun`'s commit; then the iteration's self-play parts
        go."""
        super().save_checkpoint()
        remove_parts(self.folder, self.step)  # committed: the buffer holds its games

    def _latest_files(self) -> dict[str, bytes]:
        """The files that hold the latest best network, rewritten at every checkpoint: none
        for a threat-search network, whose planes a TorchScript export cannot compute."""
        if self.config.threat_search:
            return {}
        return {TORCHSCRIPT_FILE: torchscript_bytes(self.best)}

    def write_latest(self) -> None:
        for name, data in self._latest_files().items():  # on resume: maybe an uncommitted one's
            atomic_write_bytes(self.folder / name, data)

    def restore(self, path: Path) -> int:
        data, buffer = read_checkpoint(path.parent, self.read_named_file)
        started = data["config"].get("score_weight", 0.0)
        if started != self.config.score_weight:  # a run saved before score_weight existed
            raise ValueError(
                f"{self.folder} was started with score_weight {started}, which a resumed run "
                f"keeps (it decides the network's score head), got {self.config.score_weight}"
            )
        self.best = net_from_state(data["best"])
        self.current.load_state_dict(data["current"]["state_dict"])
        self.trainer.optimizer.load_state_dict(data["optimizer"])
        self.rng.bit_generator.state = data["rng"]
        torch.set_rng_state(data["torch_rng"])
        self.counters.update({"schedule_by_time": 0, **data["counters"]})
        self.buffer = ReplayBuffer.from_bytes(buffer)
        if self.config.score_weight > 0 and not self.buffer.has_scores:
            raise ValueError(
                f"{self.folder}'s replay buffer has no score targets (an older pyaz wrote it): "
                "score_weight must be 0"
            )
        remove_parts(self.folder, int(self.counters["iteration"]))  # a kill after the commit
        return int(self.counters["iteration"])
