"""Seed 004's training pipeline: the three-phase curriculum (IV) on double networks (III-B) with
winning value decay (III-C).

1. *Learn basic rule* (IV-B): ``basic_positions`` generated attack and defence positions
   (:func:`~pyaz.methods.alphagomoku.data.basic_positions`), ``basic_epochs`` passes.
2. *Imitate the mentor* (IV-C): rounds of ``imitation_games`` mentor self-play games
   (``mentor_ms`` a move, ``mentor_randomness`` so that they differ), ``imitation_epochs``
   passes over all the mentor games so far, then a match of ``imitation_eval_games`` distinct
   games against the mentor; the phase stops when the pair scores at least
   ``imitation_stop_score`` (the paper's "defeat mentor AI with a great margin"), or after
   ``imitation_rounds`` rounds.
3. *Self-play* (IV-D): ``iterations`` of ``episodes`` self-play games with one tree per game
   guided by both networks, semi-stochastic (moves drawn from pi for ``sampling_plies`` plies,
   greedy after), the tree kept across moves, z decayed; training on the games of the last
   ``buffer_iterations`` iterations with the 7 extra symmetries; then the evaluation step: the
   trained pair plays the strongest so far (``gate_games`` distinct semi-stochastic games) and
   replaces it only when it wins (score > 0.5), else it is discarded.

Each network trains only on its colour's moves (``double``; without it one network learns both).
``curriculum=False`` skips phases 1 and 2. The loss is seed 004's eq. 9, (z - v)^2 - pi.log p +
c ||theta||^2 (``l2``), with Adam (the default) or the paper's SGD with momentum
(``optimizer="sgd"``, ``momentum``): measured on 9x9, SGD's value head stays saturated after
phase 1 (whose black targets are all z = 1) and stops learning, Adam's recovers.

:func:`train_alphagomoku` runs it in a folder (:class:`AlphaGomokuRun`, a
:class:`~pyaz.common.run.TrainingRun`): ``checkpoint.pt`` (committed after every step: phase 1,
each imitation round, each self-play iteration), ``pair.pt`` (the strongest pair),
``metrics.jsonl`` (one record per step), ``progress.json`` (the phases done and their times),
``config.json`` and, once the last step is committed, ``FINISHED``. A folder of a pyaz before
the run framework (``progress.json`` without ``checkpoint.pt``) is refused with what to do.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch

from pyaz._core import Gomoku, GomokuMentor
from pyaz.common.checked_json import MAX_JSON_BYTES, read_json_file
from pyaz.common.faults import fault_point
from pyaz.common.folder_lock import FolderLock
from pyaz.common.run import TrainingRun, atomic_write_with, config_from
from pyaz.common.runlog import read_run_config, write_json_atomic
from pyaz.common.settings import check_settings, setting
from pyaz.eval import arena
from pyaz.eval.players import MentorPlayer, check_mentor_game
from pyaz.games.profiles import profile
from pyaz.methods.alphagomoku.data import (
    Examples,
    basic_positions,
    check_decay,
    mentor_games,
    selfplay_examples,
    with_symmetries,
)
from pyaz.methods.alphagomoku.pair import (
    BLACK,
    GAME,
    PAIR_FILE,
    WHITE,
    NetworkPair,
    network_pair,
    save_pair,
)
from pyaz.methods.alphagomoku.players import pair_player
from pyaz.nets import PolicyValueNet, net_config_for
from pyaz.nets.files import read_torch_file, torch_bytes
from pyaz.nets.loading import load_model
from pyaz.search import SelfPlay
from pyaz.train.trainer import OPTIMIZERS, Trainer, TrainSettings

__all__ = ["AlphaGomokuConfig", "AlphaGomokuRun", "train_alphagomoku"]

PROGRESS_FILE = "progress.json"


@dataclass
class AlphaGomokuConfig:
    """Every setting of an AlphaGomoku run (see the module docstring), each declared once with
    its range (:func:`~pyaz.common.settings.setting`)."""

    size: int = setting(15, low=9, high=15, help="board size, 9..15 (the boards the mentor plays)")
    double: bool = setting(True, help="III-B: a black and a white network (off: one for both)")
    value_decay: float = setting(
        0.95, help="III-C: in the search backup and the z labels (1: none)"
    )
    curriculum: bool = setting(True, help="IV-B and IV-C before self-play (off: self-play only)")
    net: str = setting("seed004", help="the network preset")
    threat_planes: str = setting(
        "off",
        choices=(*profile(GAME).planes, "off"),
        help="input planes the networks compute (not the paper's: it reads the board alone): on, "
        "the empty cells that complete five for either colour; deep, also those that make a four; "
        "forks, also those that make a three and those that make two threats at once",
    )
    # phase 1
    basic_positions: int = setting(80_000, low=1, help="IV-B: generated attack/defence positions")
    basic_epochs: int = setting(3, low=0, help="IV-B: passes over them")
    # phase 2
    mentor_ms: float = setting(100.0, low=0.1, high=1e7, help="IV-C: the mentor's ms a move")
    mentor_randomness: float = setting(0.3, low=0.0, high=1.0, help="so that its games differ")
    imitation_games: int = setting(100, low=1, help="IV-C: mentor games a round")
    imitation_rounds: int = setting(10, low=0, help="IV-C: rounds at most")
    imitation_epochs: int = setting(3, low=1, help="IV-C: passes over the mentor games a round")
    imitation_eval_games: int = setting(20, low=0, help="IV-C: games against the mentor a round")
    imitation_stop_score: float = setting(0.75, low=0.0, high=1.0, help="IV-C: score that ends it")
    # phase 3
    iterations: int = setting(20, low=0, help="IV-D: self-play iterations")
    episodes: int = setting(40, low=1, help="IV-D: self-play games an iteration")
    simulations: int = setting(200, low=1, help="IV-D: simulations a move")
    sampling_plies: int = setting(6, low=0, help="IV-D: plies drawn from pi, greedy after")
    parallel_games: int = setting(20, low=1, help="self-play games played at once")
    epochs: int = setting(2, low=1, help="IV-D: passes over the buffer an iteration")
    buffer_iterations: int = setting(5, low=1, help="IV-D: iterations of games trained on")
    gate_games: int = setting(10, low=0, help="IV-D: games of the evaluation step")
    c_puct: float = setting(3.0, low=0.0, high=1e6, help="PUCT exploration")
    dirichlet_epsilon: float = setting(0.0, low=0.0, high=1.0, help="root noise weight")
    # training (eq. 9)
    optimizer: str = setting("adam", choices=OPTIMIZERS, help="adam, or the paper's SGD")
    lr: float = setting(0.002, low=1e-9, high=10.0, help="learning rate")
    momentum: float = setting(0.9, low=0.0, high=0.999, help="SGD's momentum")
    l2: float = setting(1e-4, symbol="c", low=0.0, high=1.0, help="eq. 9's c ||theta||^2")
    batch_size: int = setting(128, low=2, help="minibatch size")
    # evaluation against the mentor (V-A)
    eval_games: int = setting(100, low=0, help="V-A: games against the mentor")
    eval_mentor_ms: float = setting(100.0, low=0.1, high=1e7, help="V-A: the mentor's ms a move")
    eval_simulations: int = setting(200, low=1, help="V-A: the pair's simulations a move")
    torch_threads: int | None = setting(
        None,
        low=1,
        help="PyTorch's threads in training (none: the process's, all cores alone and cores / "
        "workers in an experiment); the pair's evaluators play on one thread, faster here",
    )
    seed: int = setting(0, low=0, high=2**64 - 1, help="random seed")

    def validate(self) -> None:
        """ValueError/TypeError naming the setting when a value is out of range."""
        if type(self.size) is int and not 9 <= self.size <= 15:  # its type: check_settings
            raise ValueError(
                f"size must be in 9..15 (the boards the mentor plays), got {self.size}"
            )
        check_settings(self)
        check_decay(self.value_decay)


class AlphaGomokuRun(TrainingRun):
    """Runs an :class:`AlphaGomokuConfig` in ``folder``, a
    :class:`~pyaz.common.run.TrainingRun` (its lock, resume and commit rules). Its steps are
    phase 1, each imitation round, each self-play iteration; every step is committed, and every
    record carries its ``step`` (the ``iteration`` of a self-play record counts phase 3 alone).

    A resumed run (``resume``; None: when the folder holds a checkpoint) continues from its last
    step with the pair, the optimisers' and random generators' states, the replay buffer and the
    mentor games saved: phases 1 and 3 go on as the uninterrupted run would (on the same PyTorch
    threads), phase 2 with the mentor's games and matches, which depend on its time limit.
    ``iterations``, ``torch_threads`` and ``eval_games`` may change on resume, nothing else."""

    RESUMABLE = ("iterations", "torch_threads", "eval_games")
    STEP_KEY = "step"
    NAME = "alphagomoku"
    CONFIG = AlphaGomokuConfig

    def __init__(
        self,
        config: AlphaGomokuConfig,
        folder: Path,
        progress: bool = False,
        resume: bool | None = None,
        lock: FolderLock | None = None,
    ) -> None:
        config.validate()
        self.config = config
        _refuse_an_old_folder(Path(folder))
        self.state = Gomoku(config.size, 5, True)
        check_mentor_game(self.state, "AlphaGomoku")
        torch.manual_seed(config.seed)
        if config.torch_threads is not None:
            torch.set_num_threads(config.torch_threads)
        self.rng = np.random.default_rng(config.seed)
        self.done: dict[str, Any] = {
            "phase": 0 if config.curriculum else 2, "round": 0, "iteration": 0, "times": {},
            "imitation_stopped": False,
        }  # fmt: skip
        net = PolicyValueNet(net_config_for(self.state, config.net, threats=config.threat_planes))
        self.pair = NetworkPair.fresh(net, single=not config.double)
        self.pair.settings = self._settings()
        self.trainers = self._trainers()
        self.mentor_examples: list[tuple[int, Examples]] = []
        self.buffer: list[tuple[int, Examples]] = []
        self._mentor: GomokuMentor | None = None
        super().__init__(folder, asdict(config), resume, progress, lock)

    def _settings(self) -> dict[str, Any]:
        c = self.config
        return {
            "game": GAME,
            "game_options": {"size": c.size, "line_length": 5, "overline_wins": True},
            "c_puct": c.c_puct,
            "value_decay": c.value_decay,
            "simulations": c.simulations,
            "double": c.double,
        }

    def _trainers(self) -> dict[int, Trainer]:
        c = self.config
        settings = TrainSettings(
            epochs=1, batch_size=c.batch_size, lr=c.lr, l2=c.l2, loss="plus",
            augment=False, optimizer=c.optimizer, momentum=c.momentum,
        )  # fmt: skip
        colours = [BLACK] if self.pair.single else [BLACK, WHITE]
        return {k: Trainer(self.pair.net(k), settings, self.state) for k in colours}

    # -- the run's steps and files ------------------------------------------------------------

    def _next(self) -> str | None:
        """The next step's kind: "basic", "imitation", "selfplay", or None when done."""
        if self.done["phase"] < 1:
            return "basic"
        if self.done["phase"] < 2:
            return "imitation"
        return "selfplay" if self.done["iteration"] < self.config.iterations else None

    def finished(self) -> bool:
        return self._next() is None

    def total_steps(self) -> int:
        """At most: imitation may stop before its last round."""
        c = self.config
        return (1 + c.imitation_rounds if c.curriculum else 0) + c.iterations

    def run_step(self, step: int) -> list[dict[str, Any]]:
        stage = self._next()
        if stage in ("basic", "imitation"):
            return [self.phase1() if stage == "basic" else self.imitation_round()]
        return [self.selfplay_iteration()]

    def write_latest(self) -> None:
        """``pair.pt`` (the strongest pair) and ``progress.json`` (the phases' progress and
        times, for reports)."""
        atomic_write_with(self.folder / PAIR_FILE, lambda path: save_pair(self.pair, path))
        write_json_atomic(self.folder / PROGRESS_FILE, {**self.done, "step": self.step})

    def state_bytes(self) -> bytes:
        return torch_bytes(
            {
                "step": self.step,
                "done": self.done,
                "nets": [net.state_dict() for net in self.pair.nets()],
                "optimizers": [t.optimizer.state_dict() for t in self.trainers.values()],
                "rng": self.rng.bit_generator.state,
                "torch_rng": torch.get_rng_state(),
                "buffer": _pack(self.buffer),
                "mentor": _pack(self.mentor_examples),
            }
        )

    def restore(self, path: Path) -> int:
        saved = read_torch_file(path, "an AlphaGomoku training checkpoint")  # runs nothing
        try:
            for net, state in zip(self.pair.nets(), saved["nets"], strict=True):
                net.load_state_dict(state)
            for trainer, state in zip(self.trainers.values(), saved["optimizers"], strict=True):
                trainer.optimizer.load_state_dict(state)
            self.rng.bit_generator.state = saved["rng"]
            torch.set_rng_state(saved["torch_rng"])
            self.buffer = _unpack(saved["buffer"])
            self.mentor_examples = _unpack(saved["mentor"])
            self.done = dict(saved["done"])
            return int(saved["step"])
        except (KeyError, TypeError, ValueError, RuntimeError) as error:
            first = (str(error).strip().splitlines() or [type(error).__name__])[0][:200]
            raise ValueError(
                f"{path} is not an AlphaGomoku training checkpoint ({first})"
            ) from None

    def _add_time(self, phase: str, seconds: float) -> None:
        times = self.done["times"]
        times[phase] = float(times.get(phase, 0.0)) + seconds

    # -- training ---------------------------------------------------------------------------

    def train(self, examples: Examples, epochs: int) -> dict[str, float]:
        """``epochs`` passes of each network over its colour's examples (all of them for a
        single network); returns the last epoch's mean losses per colour."""
        losses: dict[str, float] = {}
        for colour, trainer in self.trainers.items():
            mine = examples if self.pair.single else examples.of(colour)
            if len(mine) < 2:
                continue
            name = "both" if self.pair.single else ("black" if colour == BLACK else "white")
            for _ in range(epochs):
                stats = trainer.train_epoch(mine.planes, mine.policy, mine.outcome, self.rng)
                fault_point("train-epoch")
            losses[f"{name}_loss_policy"] = stats.loss_policy
            losses[f"{name}_loss_value"] = stats.loss_value
        for net in self.pair.nets():
            net.eval()
        return losses

    def mentor_match(self, games: int, seed: int) -> arena.MatchResult:
        """The pair (greedy) against the mentor (``eval_mentor_ms`` a move), ``games`` games
        from distinct random openings, colours alternating."""
        c = self.config
        player = _pair_player(c, self.pair, "alphagomoku", seed)
        mentor = MentorPlayer(c.eval_mentor_ms, seed=seed, name=f"mentor:{c.eval_mentor_ms:g}")
        return arena.play_match(
            player, mentor, games, self.state, progress=self.progress, seed=seed
        )

    # -- phases -----------------------------------------------------------------------------

    def phase1(self) -> dict[str, Any]:
        """Phase 1 (IV-B): the generated attack and defence positions."""
        c = self.config
        began = time.perf_counter()
        examples = basic_positions(c.size, c.basic_positions, seed=c.seed)
        losses = self.train(examples, c.basic_epochs) if c.basic_epochs else {}
        self._add_time("basic", time.perf_counter() - began)
        self.done["phase"] = 1 if c.imitation_rounds else 2
        return {"kind": "basic", "positions": len(examples), **losses}

    def imitation_round(self) -> dict[str, Any]:
        """One round of phase 2 (IV-C): mentor games, training on all of them so far, a match
        against the mentor; the phase ends when the pair scores ``imitation_stop_score`` or the
        rounds run out."""
        c = self.config
        if self._mentor is None:
            self._mentor = GomokuMentor(
                time_ms=c.mentor_ms, randomness=c.mentor_randomness, seed=c.seed
            )
        round_number = int(self.done["round"]) + 1
        began = time.perf_counter()
        examples, games = mentor_games(
            c.size, c.imitation_games, self._mentor, c.value_decay,
            opening_plies=2, seed=c.seed * 1000 + round_number,
        )  # fmt: skip
        self.mentor_examples.append((round_number, examples))
        mentor = Examples.concat([e for _, e in self.mentor_examples])
        losses = self.train(mentor, c.imitation_epochs)
        record: dict[str, Any] = {
            "kind": "imitation", "round": round_number, "mentor_games": len(games),
            "distinct_mentor_games": len({tuple(g) for g in games}),
            "positions": len(examples), **losses,
        }  # fmt: skip
        stop = False
        if c.imitation_eval_games:
            result = self.mentor_match(c.imitation_eval_games, seed=c.seed * 1000 + round_number)
            record.update(
                vs_mentor_score=result.score, vs_mentor_games=result.n,
                vs_mentor_distinct_games=result.distinct_games,
            )  # fmt: skip
            stop = result.score >= c.imitation_stop_score
        self._add_time("imitation", time.perf_counter() - began)
        self.done.update(round=round_number, imitation_stopped=stop)
        if stop or round_number >= c.imitation_rounds:
            self.done["phase"] = 2
        return record

    def selfplay_iteration(self) -> dict[str, Any]:
        """One iteration of phase 3 (IV-D): self-play, training on the buffer with the
        symmetries, the evaluation step against the strongest pair so far."""
        c = self.config
        iteration = int(self.done["iteration"]) + 1
        began = time.perf_counter()
        records = SelfPlay(
            self.state, simulations=c.simulations, parallel_games=c.parallel_games,
            sampling_plies=c.sampling_plies, temperature=1.0, c_puct=c.c_puct,
            dirichlet_epsilon=c.dirichlet_epsilon, value_decay=c.value_decay,
            seed=c.seed * 1_000_003 + iteration,
        ).play(c.episodes, self.pair.evaluator(), progress=self.progress)  # fmt: skip
        fault_point("self-play")
        selfplay_s = time.perf_counter() - began
        self.buffer.append((iteration, selfplay_examples(records, c.value_decay)))
        self.buffer = self.buffer[-c.buffer_iterations :]
        data = with_symmetries(Examples.concat([e for _, e in self.buffer]), self.state)
        best = self.pair.clone()
        losses = self.train(data, c.epochs)
        record: dict[str, Any] = {
            "kind": "iteration", "iteration": iteration, "games": records.num_games,
            "positions": records.num_positions,
            "mean_game_length": float(records.game_length.mean()),
            "black_wins": int((records.game_status == 2).sum()),
            "white_wins": int((records.game_status == 3).sum()),
            "training_examples": len(data), "time_selfplay": selfplay_s, **losses,
        }  # fmt: skip
        if c.gate_games:
            seed = c.seed * 1_000_003 + iteration
            trained = _pair_player(c, self.pair, "trained", 2 * seed, c.sampling_plies)
            strongest = _pair_player(c, best, "strongest", 2 * seed + 1, c.sampling_plies)
            result = arena.play_match(trained, strongest, c.gate_games, self.state, seed=seed)
            accepted = result.score > 0.5
            if not accepted:  # discard the trained pair, keep the strongest
                for mine, kept in zip(self.pair.nets(), best.nets(), strict=True):
                    mine.load_state_dict(kept.state_dict())
            record.update(
                gate_score=result.score, gate_games=result.n,
                gate_distinct_games=result.distinct_games, accepted=int(accepted),
            )  # fmt: skip
            fault_point("gate")
        self._add_time("selfplay", time.perf_counter() - began)
        record["elapsed_s"] = sum(self.done["times"].values())
        self.done["iteration"] = iteration
        if iteration >= c.iterations:
            self.done["phase"] = 3
        return record


def _refuse_an_old_folder(folder: Path) -> None:
    """ValueError for a run folder of a pyaz before the run framework (progress.json, no
    checkpoint), which cannot be resumed."""
    progress = folder / PROGRESS_FILE
    if not progress.exists() or (folder / TrainingRun.CHECKPOINT).exists():
        return
    try:
        new = "step" in read_json_file(progress, MAX_JSON_BYTES)
    except (OSError, ValueError):
        new = False
    if not new:
        raise ValueError(
            f"{folder} holds an AlphaGomoku run of an older pyaz ({PROGRESS_FILE} without "
            f"{TrainingRun.CHECKPOINT}), which cannot be resumed: keep its {PAIR_FILE} and "
            "start the run again in another folder"
        )


def _pack(parts: list[tuple[int, Examples]]) -> dict[str, torch.Tensor]:
    """Numbered examples (the buffer's iterations, the mentor's rounds) as tensors."""
    if not parts:
        return {}
    whole = Examples.concat([e for _, e in parts])
    numbers = np.concatenate([np.full(len(e), k, dtype=np.int64) for k, e in parts])
    return {"number": torch.from_numpy(numbers)} | {
        k: torch.from_numpy(np.ascontiguousarray(v)) for k, v in whole.arrays().items()
    }


def _unpack(packed: dict[str, torch.Tensor]) -> list[tuple[int, Examples]]:
    if not packed:
        return []
    arrays = {k: v.numpy() for k, v in packed.items()}
    numbers = arrays["number"]
    whole = Examples(arrays["planes"], arrays["policy"], arrays["outcome"], arrays["player"])
    return [(int(k), whole.rows(np.flatnonzero(numbers == k))) for k in np.unique(numbers)]


def train_alphagomoku(folder: Path, config: dict[str, Any]) -> None:
    """An AlphaGomoku run in ``folder`` with the :class:`AlphaGomokuConfig` fields ``config``
    (the experiments' run target; resumes what the folder holds)."""
    AlphaGomokuRun(AlphaGomokuConfig(**config), Path(folder)).run()  # resumes what is there


def read_config(folder: Path) -> AlphaGomokuConfig:
    """The :class:`AlphaGomokuConfig` of the run in ``folder``."""
    return config_from(AlphaGomokuConfig, read_run_config(folder))


def evaluate_against_mentor(
    folder: Path, games: int, seed: int = 0, mentor_ms: float | None = None
) -> arena.MatchResult:
    """Seed 004's V-A evaluation of the run in ``folder``: its pair (greedy, ``eval_simulations``)
    against the mentor (``mentor_ms`` a move, default the run's ``eval_mentor_ms``), ``games``
    games, half with each colour, each pair of games from its own random opening."""
    config = read_config(folder)
    player = _run_player(folder, "alphagomoku", seed)
    ms = config.eval_mentor_ms if mentor_ms is None else mentor_ms
    mentor = MentorPlayer(ms, seed=seed, name=f"mentor:{ms:g}")
    state = Gomoku(config.size, 5, True)
    return arena.play_match(player, mentor, games, state, seed=seed + 7919)


def _run_player(folder: Path, name: str, seed: int) -> Any:
    config = read_config(folder)
    pair = network_pair(load_model(Path(folder) / PAIR_FILE, "alphagomoku-pair"))
    return _pair_player(config, pair, name, seed)


def _pair_player(
    c: AlphaGomokuConfig, pair: NetworkPair, name: str, seed: int, sampling_plies: int = 0
) -> Any:
    """``pair`` as the player of ``c``'s evaluations (``eval_simulations``, ``c_puct``,
    ``value_decay``)."""
    return pair_player(
        pair, c.eval_simulations, name=name, seed=seed, sampling_plies=sampling_plies,
        c_puct=c.c_puct, value_decay=c.value_decay,
    )  # fmt: skip


def play_pairs(a: Path, b: Path, games: int, seed: int = 0) -> arena.MatchResult:
    """The pair of run ``a`` against the pair of run ``b`` (each greedy, with its own run's
    simulations, c_puct and value decay), ``games`` games, colours alternating, each pair of
    games from its own random opening."""
    size_a, size_b = read_config(a).size, read_config(b).size
    if size_a != size_b:
        raise ValueError(f"{a} plays {size_a}x{size_a} and {b} {size_b}x{size_b}")
    first, second = _run_player(a, a.name, seed), _run_player(b, b.name, seed + 1)
    return arena.play_match(first, second, games, Gomoku(size_a, 5, True), seed=seed + 104729)
