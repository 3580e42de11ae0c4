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
import itertools
import json
import os
import warnings
import zipfile
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
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


# -- loading ------------------------------------------------------------------------------------

CHECKPOINT_FILE = "checkpoint.pt"
"""The training loop's checkpoint in a run folder (its ``"best"`` network is the one to play)."""

TORCHSCRIPT_FILE = "best.torchscript.pt"
"""The TorchScript export of the best network in a run folder."""

RUN_CONFIG_FILE = "config.json"
"""The run's settings in a run folder (``game``, ``game_options``, ``c_puct``, ...)."""


@dataclass(frozen=True, eq=False)
class LoadedModel:
    """A network loaded by :func:`load_model`, and what is known about where it came from.

    ``module`` is the torch module to evaluate, in eval mode on the CPU: a
    :class:`PolicyValueNet` or, for a TorchScript archive, the scripted module.
    ``config`` is its :class:`NetConfig` (None for TorchScript, which does not keep it).
    ``settings`` are the run's settings: the run folder's ``config.json`` over the config saved in
    ``checkpoint.pt`` (``game``, ``game_options``, ``c_puct``, ``draw_value``, ...; empty when
    neither is there). ``path`` is the file read (``checkpoint.pt`` or ``best.torchscript.pt``
    for a run folder); ``iteration`` the training iteration when the file says (else None).
    """

    module: nn.Module
    config: NetConfig | None
    settings: dict[str, Any] = field(default_factory=dict)
    path: Path = Path()
    iteration: int | None = None

    @property
    def net(self) -> PolicyValueNet:
        """The :class:`PolicyValueNet` (ValueError for a TorchScript archive)."""
        if not isinstance(self.module, PolicyValueNet):
            raise ValueError(
                f"{self.path} is a TorchScript archive, not a pyaz network file with its config "
                f"(use nets/iter-*.pt or {CHECKPOINT_FILE})"
            )
        return self.module

    def check(
        self,
        state: GameState,
        evaluate: Callable[[np.ndarray], tuple[Any, Any]] | None = None,
    ) -> None:
        """Raises ValueError when the network does not fit ``state``'s game (see
        :func:`check_network`); ``evaluate`` runs it (default: the module where it lies)."""
        check_network(state, self.path, self.config, evaluate or self._evaluate)

    def _evaluate(self, planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        module = self.module
        tensor = next(itertools.chain(module.parameters(), module.buffers()), None)
        device = tensor.device if tensor is not None else torch.device("cpu")
        dtype = tensor.dtype if tensor is not None and tensor.is_floating_point() else None
        with torch.inference_mode():
            logits, values = module(torch.from_numpy(planes).to(device, dtype or torch.float32))
        return logits.float().cpu().numpy(), values.float().reshape(-1).cpu().numpy()


def check_network(
    state: GameState,
    path: str | os.PathLike[str],
    config: NetConfig | None,
    evaluate: Callable[[np.ndarray], tuple[Any, Any]],
) -> None:
    """Raises ValueError when a network does not fit ``state``'s game.

    Compares ``config`` (when known) with the game's planes and actions, then runs ``evaluate``
    once on ``state``'s planes (float32 ``[1, C, H, W]`` -> ``(logits, values)``) and checks that
    it gives one policy logit per action and one value. ``path`` names the network in messages.
    """
    wanted = (*state.planes_shape, state.num_actions)
    if config is not None:
        got = (config.planes, config.height, config.width, config.actions)
        if got != tuple(wanted):
            raise ValueError(
                f"{path}: the network takes {got[0]}x{got[1]}x{got[2]} planes and {got[3]} "
                f"actions, but {state.name} here has {wanted[0]}x{wanted[1]}x{wanted[2]} and "
                f"{wanted[3]}: it does not fit (trained for another game or board size)"
            )
    planes = np.ascontiguousarray(state.encode()[None], dtype=np.float32)
    try:
        logits, values = evaluate(planes)
    except Exception as error:  # the module's own error, whatever its type
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise ValueError(
            f"{path}: the network does not fit {state.name} planes of shape "
            f"{tuple(planes.shape[1:])}: {first}"
        ) from error
    if np.shape(logits) != (1, state.num_actions) or np.size(values) != 1:
        raise ValueError(
            f"{path}: the network gives policy {np.shape(logits)} and value {np.shape(values)}, "
            f"{state.name} needs (1, {state.num_actions}) and one value: it does not fit "
            "(trained for another game or board size)"
        )


def model_file(path: str | os.PathLike[str]) -> Path:
    """The file :func:`load_model` reads for ``path``: the file itself, or in a run folder its
    ``checkpoint.pt`` (else ``best.torchscript.pt``). FileNotFoundError when there is none."""
    file = Path(path)
    if file.is_dir():
        for name in (CHECKPOINT_FILE, TORCHSCRIPT_FILE):
            if (file / name).is_file():
                return file / name
        raise FileNotFoundError(
            f"{file} is a folder without {CHECKPOINT_FILE} or {TORCHSCRIPT_FILE}: not a run folder"
        )
    if not file.is_file():
        raise FileNotFoundError(f"network file {str(path)!r} not found")
    return file


def run_dir_of(path: str | os.PathLike[str]) -> Path:
    """The run folder of a network: ``runs/NAME`` for ``runs/NAME`` itself, for
    ``runs/NAME/nets/iter-*.pt`` and for ``runs/NAME/checkpoint.pt`` (the folder that holds
    ``config.json``); otherwise the file's folder."""
    path = Path(path)
    if path.is_dir():
        return path
    parent = path.parent
    if parent.name == "nets" and not (parent / RUN_CONFIG_FILE).exists():
        return parent.parent
    return parent


def run_config(path: str | os.PathLike[str]) -> dict[str, Any] | None:
    """The ``config.json`` of the run a network belongs to (see :func:`run_dir_of`), or None
    when there is none; ValueError when it is not a readable JSON object."""
    config = run_dir_of(path) / RUN_CONFIG_FILE
    if not config.is_file():
        return None
    try:
        data = json.loads(config.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ValueError(f"cannot read {config}: {error}") from None
    if not isinstance(data, dict):
        raise ValueError(f"{config} is not a JSON object")
    return data


def is_torchscript(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a TorchScript archive (a zip holding compiled code), not a file
    written by ``torch.save``."""
    try:
        if not zipfile.is_zipfile(path):
            return False
        with zipfile.ZipFile(path) as archive:
            return any(
                "/code/" in name or name.endswith("/constants.pkl") for name in archive.namelist()
            )
    except (OSError, zipfile.BadZipFile):
        return False


def load_model(path: str | os.PathLike[str]) -> LoadedModel:
    """Loads a network from what the training loop writes, on the CPU, in eval mode.

    ``path`` is one of: a run folder (its ``checkpoint.pt``, else its ``best.torchscript.pt``);
    the run's ``checkpoint.pt`` (``{"best": net_state, "config": {...}, "counters": ...}``, its
    best network); a per-iteration file ``nets/iter-NNNNN.pt`` (``{"net": net_state,
    "iteration": k}``); a bare :func:`net_state` file; or a TorchScript archive (``torch.jit``,
    e.g. ``best.torchscript.pt``). The run's settings come from the ``config.json`` of its run
    folder (:func:`run_config`) over the config inside ``checkpoint.pt``.

    Raises FileNotFoundError for a missing file or a folder that is not a run folder, and
    ValueError for a file that holds no pyaz network (OSError when it cannot be read at all).
    """
    file = model_file(path)
    embedded: dict[str, Any] = {}
    iteration: Any = None
    module: nn.Module
    if is_torchscript(file):
        try:
            module = torch.jit.load(str(file), map_location="cpu")
        except Exception as error:  # torch raises RuntimeError and others for a broken archive
            raise ValueError(
                f"cannot read a network from {file}: a broken TorchScript archive ({error})"
            ) from None
        config = None
    else:
        try:
            data = torch.load(file, map_location="cpu", weights_only=False)
        except OSError:
            raise
        except Exception as error:  # pickle, zip and EOF errors of every kind
            raise ValueError(
                f"cannot read a network from {file}: not a torch checkpoint or TorchScript "
                f"archive ({error})"
            ) from None
        state = data
        if isinstance(data, dict) and isinstance(data.get("net"), dict):  # nets/iter-*.pt
            state = data["net"]
            iteration = data.get("iteration")
        elif isinstance(data, dict) and isinstance(data.get("best"), dict):  # checkpoint.pt
            state = data["best"]
            counters = data.get("counters")
            iteration = counters.get("iteration") if isinstance(counters, dict) else None
            if isinstance(data.get("config"), dict):
                embedded = dict(data["config"])
        if not (
            isinstance(state, dict)
            and isinstance(state.get("config"), dict)
            and isinstance(state.get("state_dict"), dict)
        ):
            raise ValueError(
                f"{file} holds no pyaz network (expected its config and weights, as "
                "nets/iter-*.pt, checkpoint.pt or a net_state file)"
            )
        try:
            net = net_from_state(state)
        except (TypeError, ValueError, RuntimeError) as error:
            raise ValueError(
                f"{file}: the network's config and weights do not go together ({error})"
            ) from None
        module, config = net, net.config
    module.eval()
    settings = {**embedded, **(run_config(file) or {})}
    try:
        number = int(iteration) if iteration is not None else None
    except (TypeError, ValueError):
        number = None
    return LoadedModel(module, config, settings, file, number)


def load_net(path: str | os.PathLike[str]) -> PolicyValueNet:
    """The :class:`PolicyValueNet` in a network file or run folder (see :func:`load_model`; in
    eval mode); ValueError for a TorchScript archive, which keeps no config."""
    return load_model(path).net
