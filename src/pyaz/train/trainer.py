"""Network training on the experience buffer: the loss variants of seed 001 and an L2 term.

Losses (p = softmax of the policy logits, v = value, pi and z the targets):
- ``plus`` (default): l+ = -pi . log p + (v - z)^2
- ``policy``: lp = -pi . log p
- ``value``: lv = (v - z)^2
- ``product``: lx = lp * lv
- ``lambda``: l_lambda = lambda * lp + (1 - lambda) * lv
and ``l2`` * sum of squared weights is added to each (seed 001 uses dropout instead: l2 = 0).
With ``score_weight`` w > 0 (a network with a score head, a game with a score), w * ls is added
too, ls = (s - t)^2 the score head's mean squared error against the final score margin t
(KataGo's auxiliary score target: Wu 2019, "Accelerating Self-Play Learning in Go", 4.1).
The optimiser is Adam (default) or SGD with ``momentum`` (seed 004's "Stochastic Gradient Descend
algorithm with Momentum", its eq. 9 being ``plus`` with ``l2``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import torch

from pyaz.games import PlayableGameState
from pyaz.games.symmetry import symmetry_ids, transform_planes, transform_policy
from pyaz.nets import PolicyValueNet
from pyaz.nets.evaluator import denormals_flushed

_OBJECTIVES: dict[str, Callable[[torch.Tensor, torch.Tensor, float], torch.Tensor]] = {
    "plus": lambda lp, lv, lam: lp + lv,
    "policy": lambda lp, lv, lam: lp,
    "value": lambda lp, lv, lam: lv,
    "product": lambda lp, lv, lam: lp * lv,
    "lambda": lambda lp, lv, lam: lam * lp + (1.0 - lam) * lv,
}
LOSSES = tuple(_OBJECTIVES)
OPTIMIZERS = ("adam", "sgd")


def loss_terms(
    logits: torch.Tensor, value: torch.Tensor, pi: torch.Tensor, z: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor]:
    """Mean policy cross-entropy lp and mean squared value error lv over the batch."""
    lp = -(pi * torch.log_softmax(logits, dim=1)).sum(dim=1).mean()
    lv = ((value.reshape(-1) - z) ** 2).mean()
    return lp, lv


def combine(lp: torch.Tensor, lv: torch.Tensor, kind: str, lam: float) -> torch.Tensor:
    """The training objective ``kind`` (see the module docstring)."""
    _check_known("loss", kind, LOSSES)
    return _OBJECTIVES[kind](lp, lv, lam)


def _check_known(what: str, name: str, known: tuple[str, ...]) -> None:
    if name not in known:
        raise ValueError(f"unknown {what} {name!r}; known: {', '.join(known)}")


@dataclass(frozen=True)
class TrainSettings:
    epochs: int = 10  # ep
    batch_size: int = 64  # bs
    lr: float = 0.005  # lr
    l2: float = 0.0  # c in c * ||theta||^2
    loss: str = "plus"
    loss_lambda: float = 0.5
    augment: bool = True  # a random dihedral symmetry per example, where the game has them
    optimizer: str = "adam"  # or "sgd": SGD with momentum (seed 004)
    momentum: float = 0.9  # SGD's momentum
    score_weight: float = 0.0  # w of the auxiliary score loss w * ls (0: off; in [0, 10])


@dataclass
class EpochStats:
    """Means over an epoch's batches of the loss optimised (``loss``) and of every target of
    seed 001 whatever the one optimised (its Figs. 7-9 plot them all): lp, lv, l+ = lp + lv and
    lx = lp * lv (both before the L2 term), and the score loss ls (unweighted; 0 when
    ``score_weight`` is 0)."""

    loss: float
    loss_policy: float
    loss_value: float
    steps: int
    loss_sum: float = 0.0
    loss_product: float = 0.0
    loss_score: float = 0.0


def augment_batch(
    planes: np.ndarray, policy: np.ndarray, state: PlayableGameState, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """Applies an independent random symmetry of the game to each example."""
    ids = symmetry_ids(state)
    choice = rng.choice(ids, size=len(planes))
    planes, policy = planes.copy(), policy.copy()
    for k in ids:
        rows = np.flatnonzero(choice == k)
        if k == 0 or rows.size == 0:
            continue
        planes[rows] = transform_planes(planes[rows], int(k))
        policy[rows] = transform_policy(policy[rows], int(k), state)
    return planes, policy


class Trainer:
    """Adam, or SGD with momentum, on the loss ``settings.loss``; keeps its optimiser across
    iterations."""

    def __init__(
        self, net: PolicyValueNet, settings: TrainSettings, state: PlayableGameState
    ) -> None:
        _check_known("loss", settings.loss, LOSSES)
        if settings.epochs < 1 or settings.batch_size < 1 or settings.lr <= 0:
            raise ValueError("epochs and batch_size must be >= 1 and lr > 0")
        _check_known("optimizer", settings.optimizer, OPTIMIZERS)
        if not 0.0 <= settings.momentum < 1.0:
            raise ValueError(f"momentum must be in [0, 1), got {settings.momentum}")
        if not 0.0 <= settings.score_weight <= 10.0:  # NaN fails too
            raise ValueError(f"score_weight must be in [0, 10], got {settings.score_weight}")
        if settings.score_weight > 0 and not net.config.score_head:
            raise ValueError(
                f"score_weight {settings.score_weight} needs a network with a score head "
                "(NetConfig.score_head)"
            )
        self.net = net
        self.settings = settings
        self.state = state
        self.optimizer: torch.optim.Optimizer = (
            torch.optim.SGD(net.parameters(), lr=settings.lr, momentum=settings.momentum)
            if settings.optimizer == "sgd"
            else torch.optim.Adam(net.parameters(), lr=settings.lr)
        )

    def set_lr(self, lr: float) -> None:
        """The learning rate of the next steps (every parameter group's); ValueError unless
        lr > 0. The optimiser's state dict keeps it."""
        if not lr > 0:  # NaN fails too
            raise ValueError(f"lr must be > 0, got {lr}")
        for group in self.optimizer.param_groups:
            group["lr"] = lr

    def l2_term(self) -> torch.Tensor:
        return sum((p**2).sum() for p in self.net.parameters() if p.dim() > 1)  # type: ignore[return-value]

    @denormals_flushed()
    def train_epoch(
        self,
        planes: np.ndarray,
        policy: np.ndarray,
        outcome: np.ndarray,
        rng: np.random.Generator,
        score: np.ndarray | None = None,
    ) -> EpochStats:
        """One pass over the examples in random order, in batches of ``batch_size``. ``score``
        (the score targets, one per example) is needed when ``score_weight`` > 0, else unused;
        augmentation leaves it as it is (a final score is the same under every symmetry).
        Subnormal floats count as zero (:func:`~pyaz.nets.evaluator.denormals_flushed`)."""
        s = self.settings
        if s.score_weight > 0 and (score is None or score.shape != outcome.shape):
            shape = None if score is None else score.shape
            raise ValueError(
                f"score_weight {s.score_weight} needs one score target per example "
                f"({outcome.shape}), got {shape}"
            )
        self.net.train()
        order = rng.permutation(len(outcome))
        totals = np.zeros(6)
        steps = 0
        for start in range(0, len(order), s.batch_size):
            rows = order[start : start + s.batch_size]
            if len(rows) < 2:  # batch norm needs two examples
                continue
            x, pi = planes[rows], policy[rows]
            if s.augment:
                x, pi = augment_batch(x, pi, self.state, rng)
            ls = torch.zeros(())
            if s.score_weight > 0:
                assert score is not None
                logits, value, predicted = self.net.forward_with_score(torch.from_numpy(x))
                target = torch.from_numpy(np.asarray(score[rows], dtype=np.float32))
                ls = ((predicted.reshape(-1) - target) ** 2).mean()
            else:
                logits, value = self.net(torch.from_numpy(x))
            z = torch.from_numpy(outcome[rows])
            lp, lv = loss_terms(logits, value, torch.from_numpy(pi), z)
            loss = combine(lp, lv, s.loss, s.loss_lambda)
            if s.score_weight > 0:
                loss = loss + s.score_weight * ls
            if s.l2 > 0:
                loss = loss + s.l2 * self.l2_term()
            if not torch.isfinite(loss):
                raise FloatingPointError(f"the training loss became {loss.item()} (lower lr?)")
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            lp_value, lv_value = lp.item(), lv.item()
            totals += [
                loss.item(), lp_value, lv_value, lp_value + lv_value, lp_value * lv_value,
                ls.item(),
            ]  # fmt: skip
            steps += 1
        names = ("loss", "loss_policy", "loss_value", "loss_sum", "loss_product", "loss_score")
        mean = (totals / max(steps, 1)).tolist()
        return EpochStats(steps=steps, **dict(zip(names, mean, strict=True)))
