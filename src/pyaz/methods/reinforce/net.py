"""Seed 003's networks: the 5x5 policy network (section 3.3) and the transfer network that grows
it to a larger board (section 3.4, Table 1, Figure 1), with the 3-plane input of section 3.1.

Action space: ``W*W + 2`` logits, the points ``r*W + c`` (row 0 at the top), then the pass, then
resign. The points' logits come from the paper's 1x1 output convolution; the paper does not
say where the pass and resign logits come from, so a small linear layer on the globally averaged
features of the last convolution gives them. Illegal moves get a logit of ``-inf`` before the
softmax (:func:`masked_logits`): the paper masks only occupied points and counts a suicide as
resignation; pyaz masks every illegal move (occupied points, simple ko, suicide) and keeps resign
as an action of its own. The optional value head (the baseline variant of section 3.2) is a
two-layer perceptron on the same pooled features with a tanh output.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from pyaz._core import Go
from pyaz.nets.bounds import check_sizes, checked_module, shortened
from pyaz.nets.files import ModelFile, write_model_file
from pyaz.nets.loading import LoadedModel, load_model

__all__ = [
    "PolicyNet",
    "SmallConfig",
    "SmallPolicyNet",
    "TransferConfig",
    "TransferNet",
    "check_board_size",
    "encode_planes",
    "legal_policy_mask",
    "load_transfer_source",
    "masked_logits",
    "network_from_file",
    "num_policy_actions",
    "policy_logits",
    "policy_network",
    "save_network",
]

GAME = str(Go().name)
"""The registry name of the game the networks play (Go), as their files' header names it."""


def check_board_size(size: object) -> int:
    """``size`` as an int; ValueError naming it unless it is a Go board size pyaz plays (5..19)."""
    if isinstance(size, bool) or not isinstance(size, int | np.integer):
        raise TypeError(f"a board size is an integer, got {size!r}")
    if not 5 <= int(size) <= 19:
        raise ValueError(f"Go board size must be in 5..19, got {size}")
    return int(size)


def num_policy_actions(size: int) -> int:
    """The policy's actions on a ``size`` board: the points, the pass and resign."""
    return size * size + 2


def encode_planes(state: Go) -> np.ndarray:
    """Seed 003's input (section 3.1): float32 (3, W, W), black stones, white stones, empty."""
    board = state.board()
    return np.stack([board == 1, board == 2, board == 0]).astype(np.float32)


def legal_policy_mask(state: Go, allow_resign: bool = True) -> np.ndarray:
    """bool (W*W + 2): the legal points, the pass, and resign (legal unless not allowed); all
    False once the game is over."""
    mask = np.zeros(num_policy_actions(int(state.size)), dtype=bool)
    if state.is_terminal():
        return mask
    mask[:-1] = state.legal_mask()
    mask[-1] = allow_resign
    return mask


def masked_logits(logits: torch.Tensor, legal: torch.Tensor) -> torch.Tensor:
    """``logits`` with ``-inf`` where ``legal`` is False (a softmax then gives them 0)."""
    return logits.masked_fill(~legal.bool(), float("-inf"))


def policy_logits(net: PolicyNet, states: list[Go], allow_resign: bool = True) -> torch.Tensor:
    """``net``'s logits (B, W*W + 2) for ``states`` in inference mode, the illegal actions (and
    resign unless ``allow_resign``) masked (:func:`masked_logits`)."""
    planes = torch.from_numpy(np.stack([encode_planes(state) for state in states]))
    legal = torch.from_numpy(np.stack([legal_policy_mask(s, allow_resign) for s in states]))
    with torch.inference_mode():
        return masked_logits(net(planes), legal)


def _conv_stack(inputs: int, layers: int, filters: int, first: int = 5) -> nn.Sequential:
    """``layers`` convolutions of ``filters`` filters, the first ``first`` x ``first`` (5x5 in
    section 3.3.2) and the rest 3x3, each with a ReLU and the padding that keeps the board
    size."""
    modules: list[nn.Module] = []
    for index in range(layers):
        kernel = first if index == 0 else 3
        modules += [
            nn.Conv2d(inputs if index == 0 else filters, filters, kernel, padding=kernel // 2),
            nn.ReLU(),
        ]
    return nn.Sequential(*modules)


class _PolicyNet(nn.Module):
    """What both networks share: ``features`` (their own) feed the :class:`_Heads`."""

    heads: _Heads

    @property
    def has_value(self) -> bool:
        return self.heads.value is not None

    def features(self, planes: torch.Tensor) -> torch.Tensor:
        raise NotImplementedError

    def forward(self, planes: torch.Tensor) -> torch.Tensor:
        return self.heads.logits(self.features(planes))

    def logits_and_values(self, planes: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Logits and the value head's v(s) in [-1, 1] (for the baseline variant)."""
        features = self.features(planes)
        return self.heads.logits(features), self.heads.values(features)


class _Heads(nn.Module):
    """The output: 1x1 convolution for the points, a linear layer on the pooled features for the
    pass and resign, and optionally the value head."""

    def __init__(self, filters: int, value_head: bool) -> None:
        super().__init__()
        self.points = nn.Conv2d(filters, 1, 1)
        self.extra = nn.Linear(filters, 2)
        self.value: nn.Module | None = None
        if value_head:
            self.value = nn.Sequential(
                nn.Linear(filters, filters), nn.ReLU(), nn.Linear(filters, 1), nn.Tanh()
            )

    def logits(self, features: torch.Tensor) -> torch.Tensor:
        points = self.points(features).flatten(1)
        return torch.cat([points, self.extra(features.mean(dim=(2, 3)))], dim=1)

    def values(self, features: torch.Tensor) -> torch.Tensor:
        if self.value is None:
            raise ValueError("this network has no value head (value_head=False)")
        return self.value(features.mean(dim=(2, 3))).squeeze(1)


@dataclass(frozen=True)
class SmallConfig:
    """The 5x5 network of section 3.3.2: ``layers`` = C_S, ``filters`` = k_S (Table 1: 5, 32)."""

    size: int = 5
    layers: int = 5
    filters: int = 32
    value_head: bool = False

    def __post_init__(self) -> None:
        check_board_size(self.size)
        if self.layers < 1 or self.filters < 1:
            raise ValueError(f"layers and filters must be >= 1, got {self.layers}, {self.filters}")


class SmallPolicyNet(_PolicyNet):
    """Seed 003's policy network (section 3.3.2): C_S convolutions of k_S filters (the first 5x5,
    the rest 3x3, ReLU), whose output is the feature extractor the transfer network reuses, then
    a 1x1 convolution to the points' logits (see the module docstring for pass, resign, value).

    ``forward(planes)`` takes float (B, 3, W, W) and returns the unmasked logits (B, W*W + 2).
    """

    kind = "small"

    def __init__(self, config: SmallConfig | None = None) -> None:
        super().__init__()
        self.config = config or SmallConfig()
        self.size = self.config.size
        self.trunk = _conv_stack(3, self.config.layers, self.config.filters)
        self.heads = _Heads(self.config.filters, self.config.value_head)

    def features(self, planes: torch.Tensor) -> torch.Tensor:
        """The feature extractor: (B, k_S, W, W)."""
        return self.trunk(planes)

    def point_probabilities(self, planes: torch.Tensor) -> torch.Tensor:
        """(B, W*W): the 2-D softmax over the points alone, occupied points masked out (the
        policy the transfer network's R1 places on each window)."""
        points = self.heads.points(self.features(planes)).flatten(1)
        empty = planes[:, 2].flatten(1) > 0.5
        points = points.masked_fill(~empty, float("-inf"))
        probabilities = torch.softmax(points, dim=1)
        return torch.nan_to_num(probabilities, nan=0.0)  # a full window: all zeros

    def describe(self) -> dict[str, Any]:
        return {"kind": self.kind, "config": asdict(self.config)}


@dataclass(frozen=True)
class TransferConfig:
    """The transfer network (section 3.4, Table 1): ``size`` = W2, ``reductions`` = N,
    ``large_layers``/``large_filters`` = C_L/k_L, ``final_layers``/``final_filters`` = C_f/k_f.
    ``transfer=False`` drops R1 and R2: the same network without transfer (the paper's
    comparison agent, trained from scratch)."""

    size: int = 9
    reductions: int = 32
    large_layers: int = 5
    large_filters: int = 32
    final_layers: int = 3
    final_filters: int = 32
    value_head: bool = False
    transfer: bool = True

    def __post_init__(self) -> None:
        check_board_size(self.size)
        for name in (
            "reductions",
            "large_layers",
            "large_filters",
            "final_layers",
            "final_filters",
        ):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be >= 1, got {getattr(self, name)}")


def _window_index(small: int, large: int) -> torch.Tensor:
    """(F, small*small): for window f (row-major over its top-left corner) and point k of the
    window, the index of that point on the large board."""
    side = large - small + 1
    tops, lefts = np.divmod(np.arange(side * side)[:, None], side)
    r, c = np.divmod(np.arange(small * small), small)
    return torch.as_tensor((tops + r) * large + lefts + c, dtype=torch.long)


def _size_steps(small: int, large: int) -> list[int]:
    """Kernel sizes of the valid convolutions that shrink ``large`` to ``small``: 3x3 each (-2)
    and one 2x2 (-1) if the difference is odd."""
    difference = large - small
    return [3] * (difference // 2) + ([2] if difference % 2 else [])


class TransferNet(_PolicyNet):
    """Seed 003's transfer network (section 3.4, Figure 1) on a W2 board from a frozen W1 network.

    - R1 (local): the small network on every W1 x W1 window (stride 1, no padding); each window's
      2-D softmax over its points is zero-padded back into place: (B, F, W2, W2),
      F = (W2 - W1 + 1)^2.
    - R2 (global): N learned down-scalings of the board to W1 x W1 (valid 3x3 convolutions, 3
      channels in and out, (W2 - W1) / 2 of them; a 2x2 for an odd difference), each passed
      through the small network's feature extractor (N * k_S channels) and brought back to W2 by
      the transposed convolutions of the same shapes (per channel, learned): (B, N k_S, W2, W2).
    - R3 (large-board features): C_L convolutions of k_L filters, as in section 3.3.2.
    - R = (R1; R2; R3), then C_f 3x3 convolutions of k_f filters and the output heads.

    The small network's weights are frozen (``requires_grad`` False, kept in eval mode).
    """

    kind = "transfer"

    def __init__(self, small: SmallPolicyNet | None, config: TransferConfig | None = None) -> None:
        super().__init__()
        self.config = config or TransferConfig()
        self.size = self.config.size
        channels = self.config.large_filters
        self.small: SmallPolicyNet | None = None
        if self.config.transfer:
            if not isinstance(small, SmallPolicyNet):
                raise TypeError(f"the transfer source must be a SmallPolicyNet, got {small!r}")
            if small.size >= self.size:
                raise ValueError(
                    f"the transfer source plays {small.size}x{small.size}, which is not smaller "
                    f"than the target board {self.size}x{self.size}"
                )
            self.small = small
            for parameter in small.parameters():
                parameter.requires_grad_(False)
            w1, n, k_s = small.size, self.config.reductions, small.config.filters
            self.register_buffer("window_index", _window_index(w1, self.size), persistent=False)
            self.windows = (self.size - w1 + 1) ** 2
            steps = _size_steps(w1, self.size)
            down: list[nn.Module] = [nn.Conv2d(3, 3 * n, steps[0])]
            down += [nn.Conv2d(3 * n, 3 * n, k, groups=n) for k in steps[1:]]
            self.down = nn.Sequential(*down)
            self.up = nn.Sequential(
                *[nn.ConvTranspose2d(n * k_s, n * k_s, k, groups=n * k_s) for k in reversed(steps)]
            )
            channels += self.windows + n * k_s
        self.large = _conv_stack(3, self.config.large_layers, self.config.large_filters)
        final_filters = self.config.final_filters
        self.final = _conv_stack(channels, self.config.final_layers, final_filters, first=3)
        self.heads = _Heads(final_filters, self.config.value_head)

    def train(self, mode: bool = True) -> TransferNet:
        super().train(mode)
        if self.small is not None:
            self.small.eval()  # frozen
        return self

    def local_features(self, planes: torch.Tensor) -> torch.Tensor:
        """R1: (B, F, W2, W2), window f's point policy placed where the window lies."""
        assert self.small is not None
        w1, batch = self.small.size, planes.shape[0]
        windows = planes.unfold(2, w1, 1).unfold(3, w1, 1)  # (B, 3, S, S, W1, W1)
        windows = windows.permute(0, 2, 3, 1, 4, 5).reshape(-1, 3, w1, w1)
        probabilities = self.small.point_probabilities(windows).reshape(batch, self.windows, -1)
        placed = planes.new_zeros(batch, self.windows, self.size * self.size)
        window_index: torch.Tensor = self.window_index  # type: ignore[assignment]
        index = window_index.unsqueeze(0).expand(batch, -1, -1)
        placed.scatter_(2, index, probabilities)
        return placed.reshape(batch, self.windows, self.size, self.size)

    def global_features(self, planes: torch.Tensor) -> torch.Tensor:
        """R2: (B, N k_S, W2, W2)."""
        assert self.small is not None
        w1, batch, n = self.small.size, planes.shape[0], self.config.reductions
        reduced = self.down(planes).reshape(batch * n, 3, w1, w1)
        features = self.small.features(reduced)
        return self.up(features.reshape(batch, -1, w1, w1))

    def features(self, planes: torch.Tensor) -> torch.Tensor:
        parts = [self.large(planes)]
        if self.small is not None:
            parts = [self.local_features(planes), self.global_features(planes), *parts]
        return self.final(torch.cat(parts, dim=1))

    def describe(self) -> dict[str, Any]:
        described: dict[str, Any] = {"kind": self.kind, "config": asdict(self.config)}
        if self.small is not None:
            described["small"] = self.small.describe()
        return described


PolicyNet = SmallPolicyNet | TransferNet


def save_network(net: PolicyNet, path: str | Path) -> None:
    """Writes ``net`` (its description and weights) to ``path`` atomically: a model file of
    kind ``"zetago-policy"`` for Go on its board size (see :mod:`pyaz.nets.files`)."""
    payload = {"zetago": net.describe(), "state_dict": net.state_dict()}
    write_model_file(path, "zetago-policy", payload, GAME, {"size": net.size}, net.describe())


POLICY_NET_LIMITS: dict[str, tuple[int, int]] = {
    "layers": (1, 256),
    "filters": (1, 4096),
    "reductions": (1, 1024),
    "large_layers": (1, 256),
    "large_filters": (1, 4096),
    "final_layers": (1, 256),
    "final_filters": (1, 4096),
}
"""The range of each size field of a network description read from a file (the board size has
its own, 5..19), generous ceilings far above seed 003's networks (Table 1: 5 layers of 32
filters, 32 reductions)."""


def _config(kind: type[SmallConfig | TransferConfig], fields: Any) -> Any:
    """``kind`` (SmallConfig or TransferConfig) from a file's ``fields``, sizes bounded."""
    check_sizes(fields, POLICY_NET_LIMITS, f"the ZetaGo network's {kind.__name__}")
    return kind(**fields)


def _build(described: Any) -> PolicyNet:
    """The network a file's description names (its sizes bounded, its transfer source a small
    network: see :func:`network_from_file`)."""
    kind = described.get("kind") if isinstance(described, dict) else None
    if kind == "small":
        return SmallPolicyNet(_config(SmallConfig, described["config"]))
    if kind == "transfer":
        source = described.get("small")
        if source is not None and (not isinstance(source, dict) or source.get("kind") != "small"):
            raise ValueError("a transfer network's source must be a small network")
        small = None if source is None else _build(source)
        assert small is None or isinstance(small, SmallPolicyNet)
        return TransferNet(small, _config(TransferConfig, described["config"]))
    raise ValueError(f"not a ZetaGo network description: {shortened(repr(described), 80)}")


def policy_network(loaded: LoadedModel) -> PolicyNet:
    """The policy network of ``loaded``, what ``pyaz.load_model`` returned for a file of kind
    ``"zetago-policy"`` (written by :func:`save_network`, or a run folder's ``net.pt``; in eval
    mode): ``policy_network(pyaz.load_model(path, "zetago-policy"))``. A one-line ValueError
    naming both kinds when it holds another kind of model."""
    net = loaded.module_of("zetago-policy", _PolicyNet)
    if not isinstance(net, SmallPolicyNet | TransferNet):
        raise ValueError(f"{loaded.path}: a ZetaGo network of unknown type {type(net).__name__}")
    return net


def network_from_file(model: ModelFile) -> LoadedModel:
    """The record of a model file of kind ``"zetago-policy"`` (see ``pyaz.load_model``): its
    network, checked before it is built (sizes within :data:`POLICY_NET_LIMITS`, then
    :func:`~pyaz.nets.bounds.checked_module`: parameter count, weights of the description's
    shapes, finite); a one-line ValueError naming the file otherwise."""
    described = model.payload.get("zetago")
    try:
        net: PolicyNet = checked_module(
            lambda: _build(described), model.payload["state_dict"], "the ZetaGo network"
        )
    except (KeyError, TypeError, ValueError, RuntimeError, AttributeError) as error:
        first = shortened(str(error) or type(error).__name__)
        raise ValueError(f"{model.path}: a broken ZetaGo network ({first})") from None
    net.eval()
    return LoadedModel(net, None, {}, model.path, kind="zetago-policy", game=model.game)


def load_transfer_source(path: str | Path, size: int) -> SmallPolicyNet:
    """The small network at ``path``, checked to play ``size`` x ``size`` (ValueError naming
    both sizes otherwise): :func:`policy_network` of ``pyaz.load_model(path,
    "zetago-policy")``."""
    net = policy_network(load_model(path, "zetago-policy"))
    if not isinstance(net, SmallPolicyNet):
        raise ValueError(f"the transfer source {path} is a {net.kind} network, not a small one")
    if net.size != size:
        raise ValueError(
            f"the transfer source {path} plays {net.size}x{net.size}, the transfer expects "
            f"{size}x{size}"
        )
    return net
