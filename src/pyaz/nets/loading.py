"""The one loader of model files: :func:`load_model` reads the networks the training loop writes
(a run folder, its ``checkpoint.pt``, ``nets/iter-*.pt``, a bare network file) and returns a
:class:`LoadedModel` that every player, engine and tournament uses.

It reads weights, never code: the TorchScript export of a run (``best.torchscript.pt``, for
deployment) is not loaded, since ``torch.jit.load`` runs the code an archive holds (its
``__setstate__`` may write files); only the Python call ``load_model(path,
execute_torchscript_code=True)`` loads one, for a file its user trusts as a program.
"""

from __future__ import annotations

import functools
import itertools
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from pyaz._core import GomokuMentor
from pyaz.common.runlog import read_run_config
from pyaz.games import BoardState
from pyaz.nets.bounds import shortened
from pyaz.nets.files import (
    ModelFile,
    _is_net_state,
    _no_model,
    is_torchscript,
    model_bytes,
    open_bounded,
    read_model_file,
    torchscript_refusal,
)
from pyaz.nets.model import NetConfig, PolicyValueNet, net_from_state, net_state
from pyaz.nets.runtimes import RUNTIMES, make_evaluator
from pyaz.nets.threat_search import THREAT_SEARCH_PLANES, append_threat_search

CHECKPOINT_FILE = "checkpoint.pt"
"""The training loop's checkpoint in a run folder (its ``"best"`` network is the one to play)."""

TORCHSCRIPT_FILE = "best.torchscript.pt"
"""The TorchScript export of the best network in a run folder (for deployment: pyaz does not
load it, see :func:`load_model`)."""

RUN_CONFIG_FILE = "config.json"
"""The run's settings in a run folder (``game``, ``game_options``, ``c_puct``, ...)."""


@dataclass(frozen=True, eq=False)
class LoadedModel:
    """A network loaded by :func:`load_model`, and what is known about where it came from.

    ``module`` is the torch module to evaluate, in eval mode on the CPU: a
    :class:`PolicyValueNet` or, for a TorchScript archive loaded with
    ``execute_torchscript_code=True``, the scripted module.
    ``config`` is its :class:`NetConfig` (None for TorchScript, which does not keep it).
    ``settings`` are the run's settings: the run folder's ``config.json`` over the config saved in
    ``checkpoint.pt`` (``game``, ``game_options``, ``c_puct``, ``draw_value``, ...; empty when
    neither is there). ``path`` is the file read (``checkpoint.pt`` or the newest
    ``nets/iter-*.pt`` for a run folder); ``iteration`` the training iteration when the file
    says (else None).
    """

    module: nn.Module
    config: NetConfig | None
    settings: dict[str, Any] = field(default_factory=dict)
    path: Path = Path()
    iteration: int | None = None

    @property
    def net(self) -> PolicyValueNet:
        """The :class:`PolicyValueNet` (ValueError for a TorchScript archive, loaded with
        ``execute_torchscript_code``)."""
        if not isinstance(self.module, PolicyValueNet):
            raise ValueError(
                f"{self.path} is a TorchScript archive, not a pyaz network file with its config "
                f"(use nets/iter-*.pt or {CHECKPOINT_FILE})"
            )
        return self.module

    @property
    def planes(self) -> int | None:
        """Input planes the network takes (None for TorchScript, which keeps no config)."""
        return self.config.planes if self.config is not None else None

    def go_history(self) -> int:
        """The ``history`` option of a Go state that fits this network: ``planes = 4 + 2h``
        (0 when unknown)."""
        return 0 if self.planes is None else max(0, (self.planes - 4) // 2)

    def search_options(self) -> dict[str, float]:
        """The run's ``c_puct``, ``draw_value`` and ``rollout_mix`` (when the run recorded
        them), for the search that plays this network."""
        return {
            key: float(self.settings[key])
            for key in ("c_puct", "draw_value", "rollout_mix")
            if self.settings.get(key) is not None
        }

    def evaluator(
        self,
        device: str = "cpu",
        runtime: str | None = None,
        planes_shape: tuple[int, int, int] | None = None,
    ) -> Any:
        """The network as the search's batched evaluator on ``runtime`` (default: ONNX Runtime
        on a CPU, TorchScript elsewhere; see :mod:`pyaz.nets.runtimes`). A TorchScript archive
        keeps no input shape: pass ``planes_shape`` to run it on ONNX Runtime (else ValueError
        for an explicit runtime other than TorchScript; the default falls back to TorchScript)."""
        shape = planes_shape
        if self.config is not None:
            shape = (self.config.planes, self.config.height, self.config.width)
        if shape is None and runtime in RUNTIMES and runtime != "torchscript":
            raise ValueError(
                f"{self.path} is a TorchScript export, which keeps no input shape: the {runtime} "
                f"runtime needs the run's network file ({CHECKPOINT_FILE}, nets/iter-*.pt or the "
                "run folder), or use --runtime torchscript"
            )
        return make_evaluator(self.module, shape, runtime, device)

    def check(
        self,
        state: BoardState,
        evaluate: Callable[[np.ndarray], tuple[Any, Any]] | None = None,
    ) -> None:
        """Raises ValueError when the network does not fit ``state``'s game (see
        :func:`check_network`); ``evaluate`` runs it (default: the module where it lies)."""
        check_network(state, self.path, self.config, evaluate or self._evaluate)

    def _evaluate(self, planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        module = self.module
        if self.config is not None and self.config.threat_search:
            nodes = self.config.threat_search
            planes = append_threat_search(planes, GomokuMentor(time_ms=0.0, max_nodes=nodes))
        tensor = next(itertools.chain(module.parameters(), module.buffers()), None)
        device = tensor.device if tensor is not None else torch.device("cpu")
        dtype = tensor.dtype if tensor is not None and tensor.is_floating_point() else None
        with torch.inference_mode():
            logits, values = module(torch.from_numpy(planes).to(device, dtype or torch.float32))
        return logits.float().cpu().numpy(), values.float().reshape(-1).cpu().numpy()


def check_network(
    state: BoardState,
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
    ``checkpoint.pt``, else its newest ``nets/iter-*.pt`` (never the TorchScript export: a
    folder with no other network is a one-line ValueError, :func:`torchscript_refusal`).
    FileNotFoundError when there is none. A path that is there but not a regular file (a
    FIFO) is returned: its reader refuses it without opening it."""
    file = Path(path)
    if file.is_dir():
        return _run_network(file)
    if not file.exists():
        raise FileNotFoundError(f"network file {str(path)!r} not found")
    return file


def _run_network(folder: Path) -> Path:
    """The network file of the run folder ``folder`` (see :func:`model_file`)."""
    if (folder / CHECKPOINT_FILE).exists():
        return folder / CHECKPOINT_FILE
    iterations = sorted((folder / "nets").glob("iter-*.pt"), key=_iteration_of)
    if iterations:
        return iterations[-1]
    if (folder / TORCHSCRIPT_FILE).exists():
        raise ValueError(torchscript_refusal(folder / TORCHSCRIPT_FILE))
    raise FileNotFoundError(
        f"{folder} is a folder without {CHECKPOINT_FILE} or nets/iter-*.pt: not a run folder"
    )


def _iteration_of(file: Path) -> tuple[int, str]:
    """The iteration number in a ``nets/iter-NNNNN.pt`` name (then the name), for sorting."""
    digits = file.stem.removeprefix("iter-")
    return (int(digits) if digits.isdigit() and len(digits) < 20 else -1, file.name)


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
    when there is none (no regular file); a one-line ValueError naming it when it is not a
    JSON object, or too large (:func:`~pyaz.common.runlog.read_run_config`)."""
    folder = run_dir_of(path)
    if not (folder / RUN_CONFIG_FILE).is_file():
        return None
    return read_run_config(folder)


def load_model(
    path: str | os.PathLike[str], *, cached: bool = False, execute_torchscript_code: bool = False
) -> LoadedModel:
    """Loads a network from what the training loop writes, on the CPU, in eval mode.

    ``path`` is one of: a run folder (its ``checkpoint.pt``, else its newest
    ``nets/iter-*.pt``); the run's ``checkpoint.pt`` (``{"best": net_state, "config": {...},
    "counters": ...}``, its best network); a per-iteration file ``nets/iter-NNNNN.pt``
    (``{"net": net_state, "iteration": k}``); or a bare :func:`net_state` file. The run's
    settings come from the ``config.json`` of its run folder (:func:`run_config`) over the
    config inside ``checkpoint.pt``.

    The file may carry the model header (:func:`~pyaz.nets.files.read_model_file`; its game
    and game options join the settings) or not (written before it); a file of another kind
    (an AlphaGomoku pair, a ZetaGo or curling network) is a ValueError naming both kinds.

    Nothing in the file is executed: it is read by :func:`~pyaz.nets.files.read_torch_file`
    (``weights_only=True``: tensors and plain values only; a pickle that would call a function
    is refused; its size bounded before it is read), and its network is checked before it is
    built (:func:`~pyaz.nets.model.net_from_state`: bounded sizes and parameter count, weights
    of the config's shapes, finite). A TorchScript archive (``best.torchscript.pt``, or a run
    folder holding no other network) is a one-line ValueError: ``torch.jit.load`` runs the code
    an archive holds (a ``__setstate__`` can write any file), so pyaz does not call it.

    ``execute_torchscript_code=True`` (Python only; no command reaches it) loads a TorchScript
    archive at ``path`` with ``torch.jit.load``, RUNNING THE CODE IN THE FILE with the rights
    of this process: only for a file you trust as you would a program. Its module keeps no
    config (``config`` None).

    Raises FileNotFoundError for a missing file or a folder that is not a run folder, OSError
    when it cannot be read at all, and a one-line ValueError naming the file for a file that
    holds no pyaz network (empty, truncated, too large, not a regular file, not a torch file,
    other objects, sizes out of bounds, weights that do not fit or are not finite, a
    TorchScript archive). A saved iteration that is not an integer >= 0 is ignored (None).

    With ``cached``, a file is read once per process for a given modification time, so that the
    players of a match share one module (do not train a cached module).
    """
    file = model_file(path)
    if cached:
        file = file.resolve()
        return _read_model_cached(str(file), file.stat().st_mtime_ns, execute_torchscript_code)
    if execute_torchscript_code and is_torchscript(file):
        return _execute_torchscript(file)
    return model_from_file(read_model_file(file, "az", what="a pyaz network file"))


@functools.lru_cache(maxsize=8)
def _read_model_cached(path: str, mtime_ns: int, execute_torchscript_code: bool) -> LoadedModel:
    return load_model(path, execute_torchscript_code=execute_torchscript_code)


def _execute_torchscript(file: Path) -> LoadedModel:
    """The TorchScript archive ``file``, loaded with ``torch.jit.load``: runs its code (see
    :func:`load_model`'s ``execute_torchscript_code``)."""
    settings = run_config(file) or {}
    if settings.get("threat_search"):
        raise ValueError(
            f"{file} is the TorchScript export of a network that reads "
            f"{THREAT_SEARCH_PLANES} threat-search planes (threat_search "
            f"{settings['threat_search']}), which the export cannot compute: play the run "
            f"folder, its {CHECKPOINT_FILE} or nets/iter-*.pt"
        )
    with open_bounded(file, "a TorchScript archive") as handle:
        try:
            module = torch.jit.load(handle, map_location="cpu")
        except Exception as error:  # torch raises RuntimeError and others for a broken archive
            raise ValueError(
                f"{file} is not a pyaz network file: a broken TorchScript archive "
                f"({shortened(str(error), 200)})"
            ) from None
    module.eval()
    return LoadedModel(module, None, settings, file)


def model_from_file(model: ModelFile) -> LoadedModel:
    """The network of an ``"az"`` model file read by :func:`~pyaz.nets.files.read_model_file`
    (see :func:`load_model`)."""
    file, data = model.path, model.payload
    state: Any = data
    iteration: Any = None
    header = model.header or {}
    embedded: dict[str, Any] = {k: header[k] for k in ("game", "game_options") if k in header}
    if isinstance(data.get("net"), dict):  # nets/iter-*.pt
        state = data["net"]
        iteration = data.get("iteration")
    elif isinstance(data.get("best"), dict):  # checkpoint.pt
        state = data["best"]
        counters = data.get("counters")
        iteration = counters.get("iteration") if isinstance(counters, dict) else None
        if isinstance(data.get("config"), dict):
            embedded.update(data["config"])
    if not _is_net_state(state):
        raise ValueError(f"{file} {_no_model('az')}")
    try:
        net = net_from_state(state)
    except (TypeError, ValueError, RuntimeError) as error:
        raise ValueError(f"{file}: {shortened(str(error), 240)}") from None
    net.eval()
    settings = {**embedded, **(run_config(file) or {})}
    return LoadedModel(net, net.config, settings, file, _iteration(iteration))


def _iteration(value: Any) -> int | None:
    """A saved iteration number: an integer >= 0 (or a float that is one), else None."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def net_file_bytes(
    net: PolicyValueNet,
    game: str,
    game_options: Mapping[str, Any] | None = None,
    iteration: int | None = None,
) -> bytes:
    """A network file (as ``nets/iter-*.pt``: ``{"net": net_state, "iteration": k}``) with the
    model header of kind ``"az"`` for ``game`` and ``game_options``, which :func:`load_model`
    and ``pyaz.load_model`` read."""
    payload: dict[str, Any] = {"net": net_state(net)}
    if iteration is not None:
        payload["iteration"] = int(iteration)
    return model_bytes("az", payload, game, game_options, payload["net"]["config"])


def load_net(path: str | os.PathLike[str]) -> PolicyValueNet:
    """The :class:`PolicyValueNet` in a network file or run folder (see :func:`load_model`; in
    eval mode); ValueError for a TorchScript archive."""
    return load_model(path).net
