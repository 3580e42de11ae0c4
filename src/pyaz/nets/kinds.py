"""Any pyaz model file, whatever its kind: :func:`load_any` (``pyaz.load_model``) reads an
AlphaZero network, an AlphaGomoku pair, a ZetaGo policy network or a curling network, with or
without the model header (:mod:`pyaz.nets.files`), and returns that kind's object.

The method kinds are loaded by their own packages, which sit above this layer: :data:`LOADERS`
names each kind's loader (``module:function``, taking a :class:`~pyaz.nets.files.ModelFile`)
and it is imported when first needed, as :data:`pyaz.eval.presets.METHOD_PRESETS` does.
"""

from __future__ import annotations

import functools
import importlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pyaz.nets.files import MODEL_KINDS, ModelFile, read_model_file
from pyaz.nets.loading import is_torchscript, load_model, model_file

__all__ = ["LOADERS", "RUN_MODEL_FILES", "load_any", "model_kind", "model_path"]

LOADERS: dict[str, str] = {
    "az": "pyaz.nets.loading:model_from_file",
    "alphagomoku-pair": "pyaz.methods.alphagomoku.pair:pair_from_file",
    "zetago-policy": "pyaz.methods.reinforce.net:network_from_file",
    "curling": "pyaz.methods.kr_dl_uct.loop:curling_net_from_file",
}
"""The loader of each kind (``module:function``), imported when first used."""

RUN_MODEL_FILES = ("pair.pt", "net.pt")
"""The model files of the method run folders (AlphaGomoku, ZetaGo), looked for before the
AlphaZero and curling ``checkpoint.pt`` (a ZetaGo run's ``checkpoint.pt`` holds no model)."""


def model_path(path: str | os.PathLike[str]) -> Path:
    """The file :func:`load_any` reads for ``path``: the file itself, or in a run folder its
    ``pair.pt`` or ``net.pt``, else what :func:`~pyaz.nets.loading.model_file` picks."""
    folder = Path(path)
    if folder.is_dir():
        for name in RUN_MODEL_FILES:
            if (folder / name).exists():
                return folder / name
    return model_file(path)


def load_any(
    path: str | os.PathLike[str],
    kind: str | None = None,
    game: str | None = None,
    *,
    execute_torchscript_code: bool = False,
) -> Any:
    """The model at ``path`` (a file or a run folder, see :func:`model_path`), in eval mode:
    a :class:`~pyaz.nets.loading.LoadedModel` for kind ``"az"``, a
    :class:`~pyaz.methods.alphagomoku.pair.NetworkPair`, a ZetaGo ``SmallPolicyNet``/``TransferNet``
    or a :class:`~pyaz.methods.kr_dl_uct.net.CurlingNet`.

    Nothing in the file runs (:func:`~pyaz.nets.files.read_torch_file`), and its sizes are
    bounded before any module is built (:mod:`pyaz.nets.bounds`). With ``kind`` the file must
    be of that kind, with ``game`` for that game (when its header or, for an AlphaZero network,
    its run's config.json names one). FileNotFoundError for a missing file; a one-line
    ValueError naming the file for anything else (see
    :func:`~pyaz.nets.files.read_model_file`), a TorchScript archive included.
    ``execute_torchscript_code=True`` loads a TorchScript archive, RUNNING THE CODE IN IT (see
    :func:`~pyaz.nets.loading.load_model`; Python only, no command reaches it).
    """
    if kind is not None and kind not in MODEL_KINDS:
        raise ValueError(f"unknown model kind {kind!r}: one of {', '.join(MODEL_KINDS)}")
    file = model_path(path)
    if execute_torchscript_code and is_torchscript(file):
        model = ModelFile(file, "az", {})
        if kind not in (None, "az"):
            raise ValueError(f"{file} is a TorchScript export of an AlphaZero network, not {kind}")
        loaded: Any = load_model(file, execute_torchscript_code=True)
    else:
        model = read_model_file(file, kind, game)
        loaded = _loader(model.kind)(model)
    if model.kind == "az" and game is not None and loaded.settings.get("game") not in (None, game):
        raise ValueError(f"{file} is a model for {loaded.settings['game']}, not for {game}")
    return loaded


def model_kind(path: str | os.PathLike[str]) -> tuple[str, str | None]:
    """The kind of the model at ``path`` (see :func:`load_any`) and the game its header names
    (None without one); read once per file and modification time. A one-line ValueError for
    a file that holds no model (a TorchScript archive too)."""
    file = model_path(path).resolve()
    return _kind_cached(str(file), file.stat().st_mtime_ns)


@functools.lru_cache(maxsize=32)
def _kind_cached(path: str, mtime_ns: int) -> tuple[str, str | None]:
    model = read_model_file(path)
    return model.kind, model.game


def _loader(kind: str) -> Callable[[ModelFile], Any]:
    module, _, function = LOADERS[kind].partition(":")
    loader: Callable[[ModelFile], Any] = getattr(importlib.import_module(module), function)
    return loader
