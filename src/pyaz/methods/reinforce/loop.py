"""REINFORCE self-play against a pool of earlier snapshots (seed 003, section 3.2, Algorithm 1,
section 3.5).

Each iteration the learner plays ``games`` games (n, the paper's minibatch of episodes) against one
opponent drawn uniformly from the :class:`OpponentPool`, as Black in half of them and White in the
other half, all batched (:func:`pyaz.methods.reinforce.play.play_games`). Its (s, a, r) triples go
into the :class:`ReplayBuffer` in all 8 symmetric copies; then ``updates`` gradient steps on
minibatches drawn from the buffer minimise

    loss = -mean(log p(a|s) * (r - b(s)))

with b = 0 (the paper's update) or, with ``baseline=True``, b(s) = v(s) from a value head trained
alongside by mean squared error to r (AlphaGo's update, the fix the paper names for its
oscillations). Every ``snapshot_every`` episodes (500 in the paper) a copy of the learner joins
the pool, which starts with the initial network.
"""

from __future__ import annotations

import copy
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch

from pyaz._core import Go
from pyaz.common.faults import fault_point
from pyaz.common.folder_lock import FolderLock
from pyaz.common.run import TrainingRun, atomic_write_with, config_from
from pyaz.games.symmetry import transform_board, transform_planes
from pyaz.methods.reinforce.net import (
    PolicyNet,
    check_board_size,
    masked_logits,
    num_policy_actions,
    policy_logits,
    policy_network,
    save_network,
)
from pyaz.methods.reinforce.play import play_games
from pyaz.nets.evaluator import denormals_flushed
from pyaz.nets.files import read_torch_file, torch_bytes
from pyaz.nets.loading import load_model

LOG_PROB_FLOOR = -7.0  # log(0.0009): see reinforce_loss
NET_FILE = "net.pt"
_BUFFER_ARRAYS = ("planes", "legal", "action", "value")  # a ReplayBuffer's arrays, per copy

__all__ = [
    "OpponentPool",
    "ReinforceConfig",
    "ReinforceTrainer",
    "ReplayBuffer",
    "action_permutation",
    "empty_board_max_probability",
    "reinforce_loss",
]


def action_permutation(size: int, k: int) -> np.ndarray:
    """Where each policy action goes under symmetry ``k`` (pyaz.transform_planes' numbering):
    ``result[a]`` is the action that point ``a`` becomes; the pass and resign stay."""
    source = transform_board(np.arange(size * size).reshape(size, size), k).ravel()
    moved = np.empty(size * size + 2, dtype=np.int64)
    moved[source] = np.arange(size * size)
    moved[size * size :] = [size * size, size * size + 1]
    return moved


class OpponentPool:
    """Frozen copies of the learner; :meth:`sample` draws one uniformly."""

    def __init__(self, capacity: int | None = None) -> None:
        if capacity is not None and capacity < 1:
            raise ValueError(f"the pool capacity must be >= 1 (or None), got {capacity}")
        self.capacity = capacity
        self.snapshots: list[PolicyNet] = []

    def __len__(self) -> int:
        return len(self.snapshots)

    def add(self, net: PolicyNet) -> None:
        snapshot = copy.deepcopy(net).eval()
        for parameter in snapshot.parameters():
            parameter.requires_grad_(False)
        self.snapshots.append(snapshot)
        if self.capacity is not None and len(self.snapshots) > self.capacity:
            self.snapshots.pop(0)

    def sample(self, rng: np.random.Generator) -> tuple[int, PolicyNet]:
        """(index, network) drawn uniformly; ValueError if the pool is empty."""
        if not self.snapshots:
            raise ValueError("the opponent pool is empty: add the initial network first")
        index = int(rng.integers(len(self.snapshots)))
        return index, self.snapshots[index]

    def state(self) -> list[dict[str, torch.Tensor]]:
        return [s.state_dict() for s in self.snapshots]

    def load(self, template: PolicyNet, states: list[dict[str, torch.Tensor]]) -> None:
        self.snapshots = []
        for state in states:
            net = copy.deepcopy(template)
            net.load_state_dict(state)
            self.add(net)


class ReplayBuffer:
    """(s, a, v) triples, each stored in its 8 symmetric copies (section 3.5); holds the last
    ``capacity`` copies. ``legal`` masks travel with the states (they move like the actions)."""

    def __init__(self, size: int, capacity: int) -> None:
        self.size = check_board_size(size)
        if capacity < 8:
            raise ValueError(f"the replay buffer capacity must be >= 8, got {capacity}")
        self.capacity = capacity
        self.planes = np.zeros((capacity, 3, size, size), dtype=np.float32)
        self.legal = np.zeros((capacity, num_policy_actions(size)), dtype=bool)
        self.action = np.zeros(capacity, dtype=np.int64)
        self.value = np.zeros(capacity, dtype=np.float32)
        self.count = 0  # copies ever added
        self._moves = [action_permutation(size, k) for k in range(8)]

    def __len__(self) -> int:
        return min(self.count, self.capacity)

    def add(
        self, planes: np.ndarray, legal: np.ndarray, action: np.ndarray, value: np.ndarray
    ) -> None:
        """Adds each triple in its 8 symmetric copies."""
        for k, moved in enumerate(self._moves):
            index = (self.count + np.arange(len(action))) % self.capacity
            self.planes[index] = transform_planes(planes, k)
            self.legal[index[:, None], moved] = legal  # moved covers every action
            self.action[index], self.value[index] = moved[action], value
            self.count += len(action)

    def _arrays(self, rows: Any) -> dict[str, torch.Tensor]:
        return {name: torch.from_numpy(getattr(self, name)[rows]) for name in _BUFFER_ARRAYS}

    def sample(self, rows: int, rng: np.random.Generator) -> dict[str, torch.Tensor]:
        if len(self) == 0:
            raise ValueError("the replay buffer is empty")
        return self._arrays(rng.integers(len(self), size=rows))

    def state(self) -> dict[str, Any]:
        """Tensors and an int (what ``torch.load(weights_only=True)`` reads back)."""
        return {**self._arrays(np.arange(len(self))), "count": int(self.count)}

    def load(self, state: dict[str, Any]) -> None:
        n = len(state["action"])
        for name in _BUFFER_ARRAYS:
            getattr(self, name)[:n] = state[name]
        self.count = int(state["count"])


def reinforce_loss(
    net: PolicyNet,
    batch: dict[str, torch.Tensor],
    baseline: bool,
    value_weight: float = 1.0,
    log_prob_floor: float | None = LOG_PROB_FLOOR,
) -> tuple[torch.Tensor, dict[str, float]]:
    """The loss of a minibatch: REINFORCE ``-mean(log p(a|s) (r - b))`` (b = v(s), detached, with
    ``baseline``; the value head then adds ``value_weight * mean((v - r)^2)``).

    ``log p`` is clamped below at ``log_prob_floor`` (None: not at all), so a replayed move the
    policy no longer plays stops pushing its probability down: without it, the replay buffer's
    stale losing moves drive the logits to infinity (measured: loss -2e11 after 500 iterations
    on 5x5)."""
    planes, legal, action, reward = batch["planes"], batch["legal"], batch["action"], batch["value"]
    if baseline:
        logits, values = net.logits_and_values(planes)
        advantage = reward - values.detach()
        value_loss = torch.mean((values - reward) ** 2)
    else:
        logits = net(planes)
        advantage = reward
        value_loss = torch.zeros(())
    log_p = torch.log_softmax(masked_logits(logits, legal), dim=1)
    chosen = log_p.gather(1, action.unsqueeze(1)).squeeze(1)
    if log_prob_floor is not None:
        chosen = chosen.clamp(min=log_prob_floor)
    policy_loss = -(chosen * advantage).mean()
    total = policy_loss + value_weight * value_loss
    return total, {
        "policy_loss": float(policy_loss.detach()),
        "value_loss": float(value_loss.detach()),
    }


def empty_board_max_probability(net: PolicyNet, komi: float | None = None) -> tuple[float, int]:
    """The largest move probability at the empty board (Black to move) and its action (Fig. 3)."""
    probabilities = torch.softmax(policy_logits(net, [Go(net.size, komi=komi)]), dim=1)[0]
    return float(probabilities.max()), int(probabilities.argmax())


@dataclass
class ReinforceConfig:
    """Settings of a REINFORCE run (the paper's values where it gives them)."""

    iterations: int = 100
    games: int = 32  # n: episodes per iteration, against one opponent
    updates: int = 1  # gradient steps per iteration
    minibatch: int = 256  # (s, a, v) copies per gradient step
    learning_rate: float = 1e-3
    optimizer: str = "adam"  # or "sgd" (the paper's plain gradient step)
    snapshot_every: int = 500  # episodes between snapshots into the pool (the paper: 500)
    pool_capacity: int | None = None
    buffer_capacity: int = 40_000  # symmetric copies kept
    baseline: bool = False  # r - v(s) with a value head trained alongside
    value_weight: float = 1.0
    log_prob_floor: float | None = LOG_PROB_FLOOR
    allow_resign: bool = True
    max_grad_norm: float | None = None
    checkpoint_every: int = 25
    seed: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in (
            "iterations",
            "games",
            "updates",
            "minibatch",
            "snapshot_every",
            "checkpoint_every",
        ):
            if getattr(self, name) < 1 and not (name == "iterations" and self.iterations == 0):
                raise ValueError(f"{name} must be >= 1, got {getattr(self, name)}")
        if self.optimizer not in ("adam", "sgd"):
            raise ValueError(f"optimizer must be 'adam' or 'sgd', got {self.optimizer!r}")
        if self.learning_rate <= 0:
            raise ValueError(f"learning_rate must be > 0, got {self.learning_rate}")


class ReinforceTrainer(TrainingRun):
    """Trains ``net`` by REINFORCE self-play (see the module docstring) in ``folder``, a
    :class:`~pyaz.common.run.TrainingRun` (its lock, resume and commit rules): the run's
    ``config.json`` (the :class:`ReinforceConfig` fields and ``network``, the network's
    description), ``metrics.jsonl`` (one record per iteration), ``checkpoint.pt`` (every
    ``checkpoint_every`` iterations and after the last), ``net.pt`` (the latest committed
    network, :func:`pyaz.methods.reinforce.net.policy_network`) and ``FINISHED`` once the last
    iteration is committed (:func:`~pyaz.common.run.run_finished`).

    A resumed run (``resume``; None: when the folder holds a checkpoint) continues exactly as the
    uninterrupted run would (the networks, optimiser, pool, buffer and random state are saved):
    ``iterations`` and ``checkpoint_every`` may change, nothing else."""

    RESUMABLE = ("iterations", "checkpoint_every")
    NAME = "zetago"

    def __init__(
        self,
        net: PolicyNet,
        config: ReinforceConfig,
        folder: str | Path,
        resume: bool | None = None,
        progress: bool = False,
        lock: FolderLock | None = None,
    ) -> None:
        if config.baseline and not net.has_value:
            raise ValueError("baseline=True needs a network with a value head (value_head=True)")
        self.net, self.config = net, config
        parameters = [p for p in net.parameters() if p.requires_grad]
        optimizer = torch.optim.Adam if config.optimizer == "adam" else torch.optim.SGD
        self.optimizer: torch.optim.Optimizer = optimizer(parameters, lr=config.learning_rate)
        self.pool = OpponentPool(config.pool_capacity)
        self.pool.add(net)  # the pool starts with the initial network
        self.buffer = ReplayBuffer(net.size, config.buffer_capacity)
        self.rng = np.random.default_rng(config.seed)
        self.episodes = 0
        self.elapsed = 0.0
        settings = {**asdict(config), "network": net.describe()}
        super().__init__(folder, settings, resume, progress, lock)

    @property
    def iteration(self) -> int:
        """The iterations done."""
        return self.step

    @classmethod
    def from_settings(
        cls, folder: Path, settings: dict[str, Any], progress: bool, lock: FolderLock | None
    ) -> ReinforceTrainer:
        """The run in ``folder`` resumed with ``settings``; its network is rebuilt from the
        folder's ``net.pt`` (its weights then come from the checkpoint)."""
        if not (folder / NET_FILE).exists():
            raise ValueError(
                f"{folder} holds no network to resume from ({NET_FILE}): its run committed "
                "nothing; start it again with its settings, or in another folder"
            )
        config = config_from(ReinforceConfig, settings)
        net = policy_network(load_model(folder / NET_FILE, "zetago-policy"))
        return cls(net, config, folder, resume=True, progress=progress, lock=lock)

    @classmethod
    def upgrade_settings(cls, saved: dict[str, Any]) -> dict[str, Any]:
        """Before the run framework config.json held ``{"reinforce": {...}, "network": {...}}``."""
        old = saved.get("reinforce")
        if isinstance(old, dict):
            return {**old, "network": saved.get("network")}
        return saved

    def total_steps(self) -> int:
        return self.config.iterations

    def should_checkpoint(self) -> bool:
        return self.step % self.config.checkpoint_every == 0

    def write_latest(self) -> None:
        atomic_write_with(self.folder / NET_FILE, lambda path: save_network(self.net, path))

    def state_bytes(self) -> bytes:
        return torch_bytes(
            {
                "net": self.net.state_dict(),
                "optimizer": self.optimizer.state_dict(),
                "pool": self.pool.state(),
                "buffer": self.buffer.state(),
                "rng": self.rng.bit_generator.state,
                "iteration": self.step,
                "episodes": self.episodes,
                "elapsed": self.elapsed,
            }
        )

    def restore(self, path: Path) -> int:
        saved = read_torch_file(path, "a ZetaGo training checkpoint")  # runs nothing from it
        try:
            self.net.load_state_dict(saved["net"])
            self.optimizer.load_state_dict(saved["optimizer"])
            self.pool.load(self.net, saved["pool"])
            self.buffer.load(saved["buffer"])
            self.rng.bit_generator.state = saved["rng"]
            self.episodes, self.elapsed = int(saved["episodes"]), float(saved["elapsed"])
            return int(saved["iteration"])
        except (KeyError, TypeError, ValueError, RuntimeError) as error:
            first = (str(error).strip().splitlines() or [type(error).__name__])[0][:200]
            raise ValueError(f"{path} is not a ZetaGo training checkpoint ({first})") from None

    @denormals_flushed()  # its updates; the mode is put back after the step
    def run_step(self, step: int) -> list[dict[str, Any]]:
        """One iteration: the games against a pool opponent, the buffer, the gradient steps."""
        started = time.perf_counter()
        config = self.config
        opponent_index, opponent = self.pool.sample(self.rng)
        learner_colour = np.arange(config.games) % 2  # Black in even games, White in odd
        self.net.eval()
        games = play_games(
            [self.net, opponent],
            [(int(colour), 1 - int(colour)) for colour in learner_colour],
            self.net.size,
            record_seat=0,
            seed=int(self.rng.integers(2**63)),
            allow_resign=config.allow_resign,
        )
        fault_point("self-play")
        self.buffer.add(games.planes, games.legal, games.action, games.reward)
        scores = games.score_for(learner_colour)
        before = self.episodes
        self.episodes += config.games
        if self.episodes // config.snapshot_every > before // config.snapshot_every:
            self.pool.add(self.net)
        self.net.train()
        losses, norms, values = [], [], []
        for _ in range(config.updates):
            batch = self.buffer.sample(config.minibatch, self.rng)
            loss, parts = reinforce_loss(
                self.net, batch, config.baseline, config.value_weight, config.log_prob_floor
            )
            self.optimizer.zero_grad()
            loss.backward()
            norms.append(_gradient_norm(self.net))
            if config.max_grad_norm is not None:
                torch.nn.utils.clip_grad_norm_(self.net.parameters(), config.max_grad_norm)
            self.optimizer.step()
            losses.append(parts["policy_loss"])
            values.append(parts["value_loss"])
        self.net.eval()
        fault_point("train-epoch")
        self.elapsed += time.perf_counter() - started
        max_probability, top_action = empty_board_max_probability(self.net)
        record = {
            "kind": "iteration",
            "iteration": step,
            "episodes": self.episodes,
            "opponent": opponent_index,
            "pool_size": len(self.pool),
            "win_ratio": float(np.mean((scores + 1) / 2)),
            "game_length": float(games.length.mean()),
            "max_game_length": int(games.length.max()),
            "resignations": int((games.resigned >= 0).sum()),
            "positions": len(games.action),
            "loss": float(np.mean(losses)),
            "value_loss": float(np.mean(values)),
            "grad_norm": float(np.mean(norms)),
            "max_probability": max_probability,
            "top_action": top_action,
            "elapsed_s": self.elapsed,
        }
        return [record]


def _gradient_norm(net: PolicyNet) -> float:
    squares = [float(p.grad.detach().pow(2).sum()) for p in net.parameters() if p.grad is not None]
    return float(np.sqrt(sum(squares)))
