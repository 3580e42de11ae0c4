"""Residual policy-value networks sized per game, saved with their config, exported to TorchScript,
and loaded back from whatever the training loop wrote (:func:`load_model`).

The body is a 3x3 convolution stem and ``blocks`` residual blocks of ``filters`` channels (seed
000 Fig. 2); the policy head is a 1x1 convolution to 2 planes and a linear layer to the action
space (logits); the value head is a 1x1 convolution to 1 plane, a hidden layer of
``value_hidden`` units and a tanh output. ``dropout`` (seed 001's d) applies before the heads'
linear layers.
"""

from __future__ import annotations

import io
import warnings
from dataclasses import asdict, dataclass, replace
from typing import Any

import torch
from torch import nn

from pyaz.games import GameState


@dataclass(frozen=True)
class NetConfig:
    """Shape of the input and the output, and the size of the network."""

    planes: int
    height: int
    width: int
    actions: int
    blocks: int = 2
    filters: int = 32
    value_hidden: int = 64
    dropout: float = 0.3


# Sizes: "tiny"/"small" run on a CPU; "seed000" is seed 000's Tables I-II (10 blocks, 512
# filters, 256 value units); "seed004" approximates AlphaGomoku's residual tower (seed 004).
PRESETS: dict[str, dict[str, Any]] = {
    "tiny": {"blocks": 2, "filters": 32, "value_hidden": 64},
    "small": {"blocks": 4, "filters": 64, "value_hidden": 128},
    "seed000": {"blocks": 10, "filters": 512, "value_hidden": 256},
    "seed004": {"blocks": 5, "filters": 64, "value_hidden": 32},
}


def net_config_for(state: GameState, preset: str = "tiny", **overrides: Any) -> NetConfig:
    """The config of a network for ``state``'s game: a size preset plus explicit overrides."""
    if preset not in PRESETS:
        raise ValueError(f"unknown network preset {preset!r}; known: {', '.join(PRESETS)}")
    planes, height, width = state.planes_shape
    config = NetConfig(planes, height, width, state.num_actions, **PRESETS[preset])
    return replace(config, **{k: v for k, v in overrides.items() if v is not None})


class ResidualBlock(nn.Module):
    def __init__(self, filters: int) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(filters, filters, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(filters)
        self.conv2 = nn.Conv2d(filters, filters, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(filters)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.relu(self.bn1(self.conv1(x)))
        return torch.relu(x + self.bn2(self.conv2(y)))


class PolicyValueNet(nn.Module):
    """``forward(planes[B, C, H, W]) -> (policy_logits[B, A], value[B, 1] in [-1, 1])``."""

    def __init__(self, config: NetConfig) -> None:
        super().__init__()
        self.config = config
        c = config
        self.stem = nn.Sequential(
            nn.Conv2d(c.planes, c.filters, 3, padding=1, bias=False),
            nn.BatchNorm2d(c.filters),
            nn.ReLU(),
        )
        self.tower = nn.Sequential(*[ResidualBlock(c.filters) for _ in range(c.blocks)])
        area = c.height * c.width
        self.policy_head = nn.Sequential(
            nn.Conv2d(c.filters, 2, 1, bias=False),
            nn.BatchNorm2d(2),
            nn.ReLU(),
            nn.Flatten(),
            nn.Dropout(c.dropout),
            nn.Linear(2 * area, c.actions),
        )
        self.value_head = nn.Sequential(
            nn.Conv2d(c.filters, 1, 1, bias=False),
            nn.BatchNorm2d(1),
            nn.ReLU(),
            nn.Flatten(),
            nn.Dropout(c.dropout),
            nn.Linear(area, c.value_hidden),
            nn.ReLU(),
            nn.Linear(c.value_hidden, 1),
            nn.Tanh(),
        )

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.tower(self.stem(x))
        return self.policy_head(h), self.value_head(h)


def to_torchscript(net: PolicyValueNet) -> torch.jit.ScriptModule:
    """A TorchScript copy of ``net`` in eval mode (for the evaluator and for export)."""
    was_training = net.training
    net.eval()
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=DeprecationWarning)
        scripted = torch.jit.script(net)
    net.train(was_training)
    return scripted


def torchscript_bytes(net: PolicyValueNet) -> bytes:
    """The TorchScript archive of ``net`` (what ``torch.jit.load`` reads)."""
    buffer = io.BytesIO()
    torch.jit.save(to_torchscript(net), buffer)
    return buffer.getvalue()


def net_state(net: PolicyValueNet) -> dict[str, Any]:
    """A picklable snapshot: the config and the weights."""
    return {"config": asdict(net.config), "state_dict": net.state_dict()}


def net_from_state(state: dict[str, Any]) -> PolicyValueNet:
    """Rebuilds a network saved with ``net_state``."""
    net = PolicyValueNet(NetConfig(**state["config"]))
    net.load_state_dict(state["state_dict"])
    return net
