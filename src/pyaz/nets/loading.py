"""The one loader of model files: :func:`load_model` (``pyaz.load_model``) reads a model of any
kind (an AlphaZero network: a run folder, its ``checkpoint.pt``, ``nets/iter-*.pt``, a bare
network file; an AlphaGomoku pair, a ZetaGo policy network, a curling network) and returns the
same typed record for each, a :class:`LoadedModel`, which every player, engine and tournament
uses. Each method reads its own network out of the record with its accessor
(:func:`~pyaz.methods.alphagomoku.pair.network_pair`,
:func:`~pyaz.methods.reinforce.net.policy_network`,
:func:`~pyaz.methods.kr_dl_uct.loop.curling_network`), a ValueError naming both kinds for a
record of another kind. The methods sit above this layer: :data:`pyaz.nets.kinds.LOADERS` names
the function that builds each kind's record, imported when first needed.

It reads weights, never code: the TorchScript export of a run (``best.torchscript.pt``, for
deployment) is not loaded, since ``torch.jit.load`` runs the code an archive holds (its
``__setstate__`` may write files); only the Python call ``load_model(path,
execute_torchscript_code=True)`` loads one, for a file its user trusts as a program.
"""

from __future__ import annotations

import functools
import importlib
import itertools
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import torch
from torch import nn

from pyaz._core import GomokuMentor
from pyaz.common.runlog import read_run_config
from pyaz.games import NetworkGameState
from pyaz.nets.bounds import shortened
from pyaz.nets.files import (
    MODEL_KINDS,
    ModelFile,
    _is_net_state,
    _no_model,
    is_torchscript,
    model_bytes,
    open_bounded,
    read_model_file,
    torchscript_refusal,
)
from pyaz.nets.kinds import LOADERS, RUN_MODEL_FILES
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

FILE_NAMES: dict[str, str] = {
    "az": "a pyaz network file",
    "alphagomoku-pair": "an AlphaGomoku pair file",
    "zetago-policy": "a ZetaGo network file",
    "curling": "a curling network file",
}
"""What a file of each kind is called in the messages about a file that holds none (a file of
any kind: "a pyaz model file")."""

ModuleT = TypeVar("ModuleT", bound=nn.Module)


@dataclass(frozen=True, eq=False)
class LoadedModel:
    """A model loaded by :func:`load_model`, of any kind, and what is known about where it came
    from.

    ``kind`` is its kind, a key of :data:`~pyaz.nets.files.MODEL_KINDS` (``"az"``,
    ``"alphagomoku-pair"``, ``"zetago-policy"``, ``"curling"``). ``module`` is its torch
    module, in eval mode on the CPU: for ``"az"`` a :class:`PolicyValueNet` (:attr:`net`) or,
    for a TorchScript archive loaded with ``execute_torchscript_code=True``, the scripted
    module; for the other kinds the method's own module, which the method's accessor returns
    typed (see :meth:`module_of`).
    ``config`` is the :class:`NetConfig` of an AlphaZero network (None for TorchScript, which
    does not keep it, and for the other kinds, whose modules keep their own).
    ``settings`` are the run's settings: for an AlphaZero network the run folder's
    ``config.json`` over the config saved in ``checkpoint.pt`` (``game``, ``game_options``,
    ``c_puct``, ``draw_value``, ...), for a pair the settings saved with it; empty when there
    are none. ``path`` is the file read (for a run folder: its ``pair.pt`` or ``net.pt``, else
    ``checkpoint.pt`` or the newest ``nets/iter-*.pt``); ``iteration`` the training iteration
    when the file says (else None); ``game`` the game the file's header names, else the one its
    settings name (None when neither does).
    """

    module: nn.Module
    config: NetConfig | None
    settings: dict[str, Any] = field(default_factory=dict)
    path: Path = Path()
    iteration: int | None = None
    kind: str = "az"
    game: str | None = None

    def module_of(self, kind: str, module_type: type[ModuleT]) -> ModuleT:
        """The module, checked to be a ``module_type`` of kind ``kind``: what each method's
        accessor returns. A one-line ValueError naming both kinds for a model of another kind
        (and naming both types for a module of another type)."""
        self._check_kind(kind)
        if not isinstance(self.module, module_type):
            raise ValueError(
                f"{self.path}: {MODEL_KINDS[kind]} whose module is a "
                f"{type(self.module).__name__}, not a {module_type.__name__}"
            )
        return self.module

    def _check_kind(self, kind: str) -> None:
        """A one-line ValueError naming both kinds unless this model is of kind ``kind``."""
        if self.kind != kind:
            raise ValueError(
                f"{self.path} is {MODEL_KINDS[self.kind]} (kind {self.kind}), not "
                f"{MODEL_KINDS[kind]} (kind {kind})"
            )

    @property
    def net(self) -> PolicyValueNet:
        """The :class:`PolicyValueNet` of an AlphaZero network (ValueError for a TorchScript
        archive, loaded with ``execute_torchscript_code``, and for a model of another kind)."""
        self._check_kind("az")
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
        for an explicit runtime other than TorchScript; the default falls back to TorchScript).
        An AlphaZero network only: ValueError naming both kinds for another kind."""
        self._check_kind("az")
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
        state: NetworkGameState,
        evaluate: Callable[[np.ndarray], tuple[Any, Any]] | None = None,
    ) -> None:
        """Raises ValueError when the network does not fit ``state``'s game (see
        :func:`check_network`); ``evaluate`` runs it (default: the module where it lies). An
        AlphaZero network only: ValueError naming both kinds for another kind."""
        self._check_kind("az")
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
    state: NetworkGameState,
    path: str | os.PathLike[str],
    config: NetConfig | None,
    evaluate: Callable[[np.ndarray], tuple[Any, Any]],
) -> None:
    """Raises ValueError when a network does not fit ``state``'s game.

    Compares ``config`` (when known) with the game's planes and actions, then runs ``evaluate``
    once on ``state``'s planes (float32 ``[1, C, H, W]`` -> ``(logits, values)``) and checks that
    it gives one policy logit per action and one value. ``path`` names the network in messages.
    A game without planes (curling's continuous shots) is a ValueError too.
    """
    if not isinstance(state, NetworkGameState):
        raise ValueError(
            f"{path}: an AlphaZero network plays a game with input planes and actions, "
            f"not {getattr(state, 'name', type(state).__name__)}"
        )
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
    """The AlphaZero network file ``path`` names: the file itself, or in a run folder its
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


def model_path(path: str | os.PathLike[str]) -> Path:
    """The file :func:`load_model` reads for ``path``: the file itself, or in a run folder its
    ``pair.pt`` or ``net.pt`` (:data:`~pyaz.nets.kinds.RUN_MODEL_FILES`), else what
    :func:`model_file` picks (``checkpoint.pt``, else the newest ``nets/iter-*.pt``)."""
    folder = Path(path)
    if folder.is_dir():
        for name in RUN_MODEL_FILES:
            if (folder / name).exists():
                return folder / name
    return model_file(path)


def model_kind(path: str | os.PathLike[str]) -> tuple[str, str | None]:
    """The kind of the model at ``path`` (see :func:`model_path`) and the game its header names
    (None without one); read once per file and modification time. A one-line ValueError for
    a file that holds no model (a TorchScript archive too)."""
    file = model_path(path).resolve()
    return _kind_cached(str(file), file.stat().st_mtime_ns)


@functools.lru_cache(maxsize=32)
def _kind_cached(path: str, mtime_ns: int) -> tuple[str, str | None]:
    model = read_model_file(path)
    return model.kind, model.game


def load_model(
    path: str | os.PathLike[str],
    kind: str | None = None,
    game: str | None = None,
    *,
    cached: bool = False,
    execute_torchscript_code: bool = False,
) -> LoadedModel:
    """The model at ``path``, of any kind, on the CPU, in eval mode, as a :class:`LoadedModel`
    (``pyaz.load_model``). A method reads its own network out of it with its accessor (see
    :meth:`LoadedModel.module_of`); an AlphaZero network is :attr:`LoadedModel.net`.

    ``path`` is a model file or a run folder (:func:`model_path`: its ``pair.pt`` or ``net.pt``,
    else its ``checkpoint.pt``, else its newest ``nets/iter-*.pt``). An AlphaZero network is
    the run's ``checkpoint.pt`` (``{"best": net_state, "config": {...}, "counters": ...}``, its
    best network), a per-iteration file ``nets/iter-NNNNN.pt`` (``{"net": net_state,
    "iteration": k}``) or a bare :func:`net_state` file; its settings come from the
    ``config.json`` of its run folder (:func:`run_config`) over the config inside
    ``checkpoint.pt``. The file may carry the model header
    (:func:`~pyaz.nets.files.read_model_file`; its game and game options join an AlphaZero
    network's settings) or not (written before it: its kind is inferred from its keys).

    With ``kind`` (a key of :data:`~pyaz.nets.files.MODEL_KINDS`) the file must be of that
    kind, else a one-line ValueError naming both kinds; with ``game`` the model must be for that
    game when it names one (:attr:`LoadedModel.game`), else a one-line ValueError naming both
    games.

    Nothing in the file is executed: it is read by :func:`~pyaz.nets.files.read_torch_file`
    (``weights_only=True``: tensors and plain values only; a pickle that would call a function
    is refused; its size bounded before it is read), and its network is checked before it is
    built (:func:`~pyaz.nets.model.net_from_state` and each method's builder: bounded sizes and
    parameter count, weights of the config's shapes, finite). A TorchScript archive
    (``best.torchscript.pt``, or a run folder holding no other network) is a one-line
    ValueError: ``torch.jit.load`` runs the code an archive holds (a ``__setstate__`` can write
    any file), so pyaz does not call it.

    ``execute_torchscript_code=True`` (Python only; no command reaches it) loads a TorchScript
    archive at ``path`` with ``torch.jit.load``, RUNNING THE CODE IN THE FILE with the rights
    of this process: only for a file you trust as you would a program. Its module keeps no
    config (``config`` None); it is an AlphaZero network (kind ``"az"``).

    Raises FileNotFoundError for a missing file or a folder that is not a run folder, OSError
    when it cannot be read at all, and a one-line ValueError naming the file for a file that
    holds no model (of ``kind``, when given: empty, truncated, too large, not a regular file,
    not a torch file, other objects, sizes out of bounds, weights that do not fit or are not
    finite, a TorchScript archive). A saved iteration that is not an integer >= 0 is ignored
    (None).

    With ``cached``, a file is read once per process for a given modification time and
    ``kind``, so that the players of a match share one module (do not train a cached module).
    """
    if kind is not None and kind not in MODEL_KINDS:
        raise ValueError(f"unknown model kind {kind!r}: one of {', '.join(MODEL_KINDS)}")
    file = model_path(path)
    if cached:
        file = file.resolve()
        loaded = _load_cached(str(file), file.stat().st_mtime_ns, kind, execute_torchscript_code)
    else:
        loaded = _load(file, kind, execute_torchscript_code)
    if game is not None and loaded.game not in (None, str(game)):
        raise ValueError(f"{file} is a model for {loaded.game}, not for {game}")
    return loaded


def _load(file: Path, kind: str | None, execute_torchscript_code: bool) -> LoadedModel:
    """The model in ``file`` (see :func:`load_model`), built by its kind's builder."""
    if execute_torchscript_code and is_torchscript(file):
        if kind not in (None, "az"):
            raise ValueError(
                f"{file} is a TorchScript export of an AlphaZero network (kind az), not "
                f"{MODEL_KINDS[kind]} (kind {kind})"
            )
        return _execute_torchscript(file)
    what = "a pyaz model file" if kind is None else FILE_NAMES[kind]
    model = read_model_file(file, kind, what=what)
    return _builder(model.kind)(model)


@functools.lru_cache(maxsize=8)
def _load_cached(
    path: str, mtime_ns: int, kind: str | None, execute_torchscript_code: bool
) -> LoadedModel:
    return _load(Path(path), kind, execute_torchscript_code)


def _builder(kind: str) -> Callable[[ModelFile], LoadedModel]:
    """The function that builds the record of a model file of ``kind`` (see
    :data:`~pyaz.nets.kinds.LOADERS`), imported on first use."""
    module, _, function = LOADERS[kind].partition(":")
    builder: Callable[[ModelFile], LoadedModel] = getattr(importlib.import_module(module), function)
    return builder


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
    return LoadedModel(module, None, settings, file, game=settings_game(settings))


def model_from_file(model: ModelFile) -> LoadedModel:
    """The record of an ``"az"`` model file read by :func:`~pyaz.nets.files.read_model_file`
    (see :func:`load_model`): its :class:`PolicyValueNet` and the run's settings."""
    file, data = model.path, model.payload
    state: Any = data
    header = model.header or {}
    embedded: dict[str, Any] = {k: header[k] for k in ("game", "game_options") if k in header}
    if isinstance(data.get("net"), dict):  # nets/iter-*.pt
        state = data["net"]
    elif isinstance(data.get("best"), dict):  # checkpoint.pt
        state = data["best"]
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
    game = model.game or settings_game(settings)
    return LoadedModel(net, net.config, settings, file, saved_iteration(data), "az", game)


def saved_iteration(payload: Mapping[str, Any]) -> int | None:
    """The training iteration a model file's payload records: its ``"iteration"``
    (``nets/iter-*.pt``), else its ``counters``' (``checkpoint.pt``); None when it records
    none or one that is not an integer >= 0 (a float that is one counts)."""
    value = payload.get("iteration")
    counters = payload.get("counters")
    if value is None and isinstance(counters, Mapping):
        value = counters.get("iteration")
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def settings_game(settings: Mapping[str, Any]) -> str | None:
    """The game a model's ``settings`` name (their ``"game"`` when it is a string), else None."""
    game = settings.get("game")
    return game if isinstance(game, str) else None


def net_file_bytes(
    net: PolicyValueNet,
    game: str,
    game_options: Mapping[str, Any] | None = None,
    iteration: int | None = None,
) -> bytes:
    """A network file (as ``nets/iter-*.pt``: ``{"net": net_state, "iteration": k}``) with the
    model header of kind ``"az"`` for ``game`` and ``game_options``, which :func:`load_model`
    (``pyaz.load_model``) reads."""
    payload: dict[str, Any] = {"net": net_state(net)}
    if iteration is not None:
        payload["iteration"] = int(iteration)
    return model_bytes("az", payload, game, game_options, payload["net"]["config"])
