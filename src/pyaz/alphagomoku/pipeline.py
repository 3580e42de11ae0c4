"""Seed 004's training pipeline: the three-phase curriculum (IV) on double networks (III-B) with
winning value decay (III-C).

1. *Learn basic rule* (IV-B): ``basic_positions`` generated attack and defence positions
   (:func:`~pyaz.alphagomoku.data.basic_positions`), ``basic_epochs`` passes.
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

:func:`train_alphagomoku` runs it in a folder: ``pair.pt`` (the strongest pair),
``metrics.jsonl`` (one record per round and iteration), ``progress.json`` (what is done, for
resuming after a kill: a resumed run continues at the next round or iteration, from the saved
pair, with the replay buffer of phase 3 saved along, but neither the optimiser's state nor the
mentor games of earlier imitation rounds) and ``config.json``.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

import numpy as np
import torch

from pyaz._core import Gomoku, GomokuMentor
from pyaz.alphagomoku.data import (
    Examples,
    basic_positions,
    check_decay,
    mentor_games,
    selfplay_examples,
    with_symmetries,
)
from pyaz.alphagomoku.pair import BLACK, PAIR_FILE, WHITE, NetworkPair, load_pair, save_pair
from pyaz.alphagomoku.players import pair_player
from pyaz.common.runlog import atomic_write_bytes
from pyaz.eval import arena
from pyaz.eval.players import MentorPlayer, check_mentor_game
from pyaz.nets import PolicyValueNet, net_config_for
from pyaz.search import SelfPlay
from pyaz.train.trainer import OPTIMIZERS, Trainer, TrainSettings

__all__ = ["AlphaGomokuConfig", "AlphaGomokuRun", "train_alphagomoku"]

PROGRESS_FILE = "progress.json"
METRICS_FILE = "metrics.jsonl"
BUFFER_FILE = "buffer.npz"


@dataclass
class AlphaGomokuConfig:
    """Every setting of an AlphaGomoku run (see the module docstring)."""

    size: int = 15
    double: bool = True  # III-B: a black and a white network (False: one for both)
    value_decay: float = 0.95  # III-C, in the search backup and the z labels (1: none)
    curriculum: bool = True  # IV-B and IV-C before self-play (False: self-play only)
    net: str = "seed004"
    # phase 1
    basic_positions: int = 80_000
    basic_epochs: int = 3
    # phase 2
    mentor_ms: float = 100.0
    mentor_randomness: float = 0.3
    imitation_games: int = 100
    imitation_rounds: int = 10
    imitation_epochs: int = 3
    imitation_eval_games: int = 20
    imitation_stop_score: float = 0.75
    # phase 3
    iterations: int = 20
    episodes: int = 40
    simulations: int = 200
    sampling_plies: int = 6
    parallel_games: int = 20
    epochs: int = 2
    buffer_iterations: int = 5
    gate_games: int = 10
    c_puct: float = 3.0
    dirichlet_epsilon: float = 0.0
    # training (eq. 9)
    optimizer: str = "adam"  # or "sgd": the paper's SGD with momentum
    lr: float = 0.002
    momentum: float = 0.9  # SGD's
    l2: float = 1e-4
    batch_size: int = 128
    # evaluation against the mentor (V-A)
    eval_games: int = 100
    eval_mentor_ms: float = 100.0
    eval_simulations: int = 200
    torch_threads: int = 1
    seed: int = 0

    def validate(self) -> None:
        """ValueError/TypeError naming the setting when a value is out of range."""
        for item in fields(self):
            value = getattr(self, item.name)
            if item.type in ("int", "float") and isinstance(value, bool):
                raise TypeError(f"{item.name} must be a number, got {value!r}")
        if not 9 <= self.size <= 15:
            raise ValueError(
                f"size must be in 9..15 (the boards the mentor plays), got {self.size}"
            )
        check_decay(self.value_decay)
        at_least = {
            "basic_positions": 1, "basic_epochs": 0, "imitation_games": 1,
            "imitation_rounds": 0, "imitation_epochs": 1, "imitation_eval_games": 0,
            "iterations": 0, "episodes": 1, "simulations": 1, "sampling_plies": 0,
            "parallel_games": 1, "epochs": 1, "buffer_iterations": 1, "gate_games": 0,
            "batch_size": 2, "eval_games": 0, "eval_simulations": 1, "torch_threads": 1,
            "seed": 0,
        }  # fmt: skip
        for name, low in at_least.items():
            if getattr(self, name) < low:
                raise ValueError(f"{name} must be >= {low}, got {getattr(self, name)}")
        ranges: dict[str, tuple[float, float]] = {
            "mentor_randomness": (0.0, 1.0), "imitation_stop_score": (0.0, 1.0),
            "dirichlet_epsilon": (0.0, 1.0), "lr": (1e-9, 10.0), "momentum": (0.0, 0.999),
            "l2": (0.0, 1.0), "c_puct": (0.0, 1e6), "mentor_ms": (0.1, 1e7),
            "eval_mentor_ms": (0.1, 1e7),
        }  # fmt: skip
        for name, (bottom, top) in ranges.items():
            if not bottom <= float(getattr(self, name)) <= top:  # NaN fails too
                raise ValueError(
                    f"{name} must be in [{bottom:g}, {top:g}], got {getattr(self, name)}"
                )
        if self.optimizer not in OPTIMIZERS:
            raise ValueError(
                f"optimizer must be one of {', '.join(OPTIMIZERS)}, got {self.optimizer!r}"
            )


class AlphaGomokuRun:
    """Runs an :class:`AlphaGomokuConfig` in ``folder`` (resuming what is there)."""

    def __init__(self, config: AlphaGomokuConfig, folder: Path, progress: bool = False) -> None:
        config.validate()
        self.config = config
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.progress_bar = progress
        self.state = Gomoku(config.size, 5, True)
        check_mentor_game(self.state, "AlphaGomoku")
        torch.manual_seed(config.seed)
        torch.set_num_threads(config.torch_threads)
        self.rng = np.random.default_rng(config.seed)
        self.done: dict[str, Any] = {"phase": 0, "round": 0, "iteration": 0, "times": {}}
        saved = self.folder / PROGRESS_FILE
        if saved.exists():
            self.done = json.loads(saved.read_text())
            self.pair = load_pair(self.folder / PAIR_FILE)
            self.pair.black.train()
            self.pair.white.train()
        else:
            net = PolicyValueNet(net_config_for(self.state, config.net))
            self.pair = NetworkPair.fresh(net, single=not config.double)
        self.pair.settings = self._settings()
        (self.folder / "config.json").write_text(json.dumps(asdict(config), indent=2) + "\n")
        self.trainers = self._trainers()
        self.mentor_examples: list[Examples] = []
        self.buffer: list[tuple[int, Examples]] = self._read_buffer()

    def _settings(self) -> dict[str, Any]:
        c = self.config
        return {
            "game": "gomoku",
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

    # -- bookkeeping ------------------------------------------------------------------------

    def _log(self, record: dict[str, Any]) -> None:
        with (self.folder / METRICS_FILE).open("a") as out:
            out.write(json.dumps(record) + "\n")
        if self.progress_bar:
            print(" | ".join(f"{k} {_short(v)}" for k, v in record.items()))

    def _commit(self, **done: Any) -> None:
        """Saves the pair, then the progress (the commit point)."""
        save_pair(self.pair, self.folder / PAIR_FILE)
        self.done.update(done)
        atomic_write_bytes(self.folder / PROGRESS_FILE, json.dumps(self.done, indent=2).encode())

    def _add_time(self, phase: str, seconds: float) -> None:
        times = self.done.setdefault("times", {})
        times[phase] = float(times.get(phase, 0.0)) + seconds

    def _read_buffer(self) -> list[tuple[int, Examples]]:
        path = self.folder / BUFFER_FILE
        if not path.exists():
            return []
        data = np.load(path)
        iterations = data["iteration"]
        whole = Examples(data["planes"], data["policy"], data["outcome"], data["player"])
        buffer = []
        for k in sorted(set(iterations.tolist())):
            rows = np.flatnonzero(iterations == k)
            buffer.append((int(k), whole.rows(rows)))
        return buffer

    def _write_buffer(self) -> None:
        if not self.buffer:
            return
        whole = Examples.concat([e for _, e in self.buffer])
        iterations = np.concatenate([np.full(len(e), k) for k, e in self.buffer])
        path = self.folder / BUFFER_FILE
        with path.with_suffix(".tmp.npz").open("wb") as out:
            np.savez(out, iteration=iterations, **whole.arrays())  # type: ignore[arg-type]
        path.with_suffix(".tmp.npz").replace(path)

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
            losses[f"{name}_loss_policy"] = stats.loss_policy
            losses[f"{name}_loss_value"] = stats.loss_value
        for net in self.pair.nets():
            net.eval()
        return losses

    def _player(self, pair: NetworkPair, name: str, seed: int, sampling_plies: int = 0) -> Any:
        c = self.config
        return pair_player(
            pair, c.eval_simulations, name=name, seed=seed, sampling_plies=sampling_plies,
            c_puct=c.c_puct, value_decay=c.value_decay,
        )  # fmt: skip

    def mentor_match(
        self, games: int, seed: int, pair: NetworkPair | None = None
    ) -> arena.MatchResult:
        """The pair (greedy) against the mentor (``eval_mentor_ms`` a move), ``games`` games
        from distinct random openings, colours alternating."""
        c = self.config
        player = self._player(pair or self.pair, "alphagomoku", seed)
        mentor = MentorPlayer(c.eval_mentor_ms, seed=seed, name=f"mentor:{c.eval_mentor_ms:g}")
        return arena.play_match(
            player, mentor, games, self.state, progress=self.progress_bar, seed=seed
        )

    # -- phases -----------------------------------------------------------------------------

    def phase1(self) -> None:
        c = self.config
        began = time.perf_counter()
        examples = basic_positions(c.size, c.basic_positions, seed=c.seed)
        losses = self.train(examples, c.basic_epochs) if c.basic_epochs else {}
        self._add_time("basic", time.perf_counter() - began)
        self._log({"kind": "basic", "positions": len(examples), **losses})
        self._commit(phase=1)

    def phase2(self) -> None:
        c = self.config
        mentor = GomokuMentor(time_ms=c.mentor_ms, randomness=c.mentor_randomness, seed=c.seed)
        while self.done["round"] < c.imitation_rounds:
            round_number = int(self.done["round"]) + 1
            began = time.perf_counter()
            examples, games = mentor_games(
                c.size, c.imitation_games, mentor, c.value_decay,
                opening_plies=2, seed=c.seed * 1000 + round_number,
            )  # fmt: skip
            self.mentor_examples.append(examples)
            losses = self.train(Examples.concat(self.mentor_examples), c.imitation_epochs)
            record: dict[str, Any] = {
                "kind": "imitation", "round": round_number, "mentor_games": len(games),
                "distinct_mentor_games": len({tuple(g) for g in games}),
                "positions": len(examples), **losses,
            }  # fmt: skip
            stop = False
            if c.imitation_eval_games:
                result = self.mentor_match(
                    c.imitation_eval_games, seed=c.seed * 1000 + round_number
                )
                record.update(
                    vs_mentor_score=result.score, vs_mentor_games=result.n,
                    vs_mentor_distinct_games=result.distinct_games,
                )  # fmt: skip
                stop = result.score >= c.imitation_stop_score
            self._add_time("imitation", time.perf_counter() - began)
            self._log(record)
            self._commit(round=round_number, imitation_stopped=stop)
            if stop:
                break
        self._commit(phase=2)

    def phase3(self) -> None:
        c = self.config
        while self.done["iteration"] < c.iterations:
            iteration = int(self.done["iteration"]) + 1
            began = time.perf_counter()
            records = SelfPlay(
                self.state, simulations=c.simulations, parallel_games=c.parallel_games,
                sampling_plies=c.sampling_plies, temperature=1.0, c_puct=c.c_puct,
                dirichlet_epsilon=c.dirichlet_epsilon, value_decay=c.value_decay,
                seed=c.seed * 1_000_003 + iteration,
            ).play(c.episodes, self.pair.evaluator(), progress=self.progress_bar)  # fmt: skip
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
                trained = self._player(self.pair, "trained", 2 * seed, c.sampling_plies)
                strongest = self._player(best, "strongest", 2 * seed + 1, c.sampling_plies)
                result = arena.play_match(trained, strongest, c.gate_games, self.state, seed=seed)
                accepted = result.score > 0.5
                if not accepted:  # discard the trained pair, keep the strongest
                    for mine, kept in zip(self.pair.nets(), best.nets(), strict=True):
                        mine.load_state_dict(kept.state_dict())
                record.update(
                    gate_score=result.score, gate_games=result.n,
                    gate_distinct_games=result.distinct_games, accepted=int(accepted),
                )  # fmt: skip
            self._add_time("selfplay", time.perf_counter() - began)
            record["elapsed_s"] = sum(self.done["times"].values())
            self._log(record)
            self._write_buffer()
            self._commit(iteration=iteration)
        self._commit(phase=3)

    def run(self) -> dict[str, Any]:
        """Runs what is left of the three phases; returns the progress record."""
        if self.config.curriculum:
            if self.done["phase"] < 1:
                self.phase1()
            if self.done["phase"] < 2:
                self.phase2()
        self.phase3()  # goes on while iterations are left (a longer run resumes here)
        return dict(self.done)


def _short(value: Any) -> str:
    return f"{value:.3g}" if isinstance(value, float) else str(value)


def train_alphagomoku(folder: Path, config: dict[str, Any]) -> None:
    """An AlphaGomoku run in ``folder`` with the :class:`AlphaGomokuConfig` fields ``config``
    (the experiments' run target; resumes what the folder holds)."""
    AlphaGomokuRun(AlphaGomokuConfig(**config), Path(folder)).run()


def read_config(folder: Path) -> AlphaGomokuConfig:
    """The :class:`AlphaGomokuConfig` of the run in ``folder``."""
    return AlphaGomokuConfig(**json.loads((Path(folder) / "config.json").read_text()))


def evaluate_against_mentor(
    folder: Path, games: int, seed: int = 0, mentor_ms: float | None = None
) -> arena.MatchResult:
    """Seed 004's V-A evaluation of the run in ``folder``: its pair (greedy, ``eval_simulations``)
    against the mentor (``mentor_ms`` a move, default the run's ``eval_mentor_ms``), ``games``
    games, half with each colour, each pair of games from its own random opening."""
    config = read_config(folder)
    pair = load_pair(Path(folder) / PAIR_FILE)
    player = pair_player(
        pair, config.eval_simulations, name="alphagomoku", seed=seed,
        c_puct=config.c_puct, value_decay=config.value_decay,
    )  # fmt: skip
    ms = config.eval_mentor_ms if mentor_ms is None else mentor_ms
    mentor = MentorPlayer(ms, seed=seed, name=f"mentor:{ms:g}")
    state = Gomoku(config.size, 5, True)
    return arena.play_match(player, mentor, games, state, seed=seed + 7919)


def _run_player(folder: Path, name: str, seed: int) -> Any:
    config = read_config(folder)
    pair = load_pair(Path(folder) / PAIR_FILE)
    return pair_player(
        pair, config.eval_simulations, name=name, seed=seed,
        c_puct=config.c_puct, value_decay=config.value_decay,
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
