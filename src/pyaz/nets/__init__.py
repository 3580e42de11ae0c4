"""The networks layer: policy-value networks (:mod:`pyaz.nets.model`), the one model file
format (:mod:`pyaz.nets.files`: a header with the kind, game, architecture and pyaz version
beside the payload), the loader of AlphaZero networks (:func:`load_model`) and of any kind
(:func:`load_any`, ``pyaz.load_model``), the one reader of torch files, which runs nothing
from them (:func:`read_torch_file`), and the evaluators that run a network for the search on an
inference runtime (:mod:`pyaz.nets.runtimes`: ONNX Runtime by default on a CPU, TorchScript,
OpenVINO)."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names with their types, for mypy (at run time: __getattr__)
    from pyaz.nets.evaluator import (
        TorchEvaluator,
    )
    from pyaz.nets.files import (
        MODEL_KINDS,
        ModelFile,
        model_bytes,
        model_header,
        read_model_file,
        read_torch_file,
        write_model_file,
    )
    from pyaz.nets.kinds import load_any, model_kind, model_path
    from pyaz.nets.loading import (
        CHECKPOINT_FILE,
        RUN_CONFIG_FILE,
        TORCHSCRIPT_FILE,
        LoadedModel,
        check_network,
        is_torchscript,
        load_model,
        load_net,
        model_file,
        net_file_bytes,
        run_config,
        run_dir_of,
    )
    from pyaz.nets.model import (
        ARCHITECTURES,
        PRESETS,
        AzgNet,
        NetConfig,
        PolicyValueNet,
        ResidualBlock,
        ResNet,
        net_config_for,
        net_from_state,
        net_state,
        to_torchscript,
        torchscript_bytes,
    )
    from pyaz.nets.runtimes import (
        DEFAULT_RUNTIME,
        RUNTIMES,
        OnnxEvaluator,
        OpenVinoEvaluator,
        make_evaluator,
    )

# Every name below loads its module (and torch) only when it is first used, so that
# importing a torch-free part such as pyaz.nets.runtimes stays light.
_WHERE: dict[str, str] = {
    "TorchEvaluator": "pyaz.nets.evaluator",
    "read_torch_file": "pyaz.nets.files",
    "MODEL_KINDS": "pyaz.nets.files",
    "ModelFile": "pyaz.nets.files",
    "model_bytes": "pyaz.nets.files",
    "model_header": "pyaz.nets.files",
    "read_model_file": "pyaz.nets.files",
    "write_model_file": "pyaz.nets.files",
    "load_any": "pyaz.nets.kinds",
    "model_kind": "pyaz.nets.kinds",
    "model_path": "pyaz.nets.kinds",
    "net_file_bytes": "pyaz.nets.loading",
    "CHECKPOINT_FILE": "pyaz.nets.loading",
    "RUN_CONFIG_FILE": "pyaz.nets.loading",
    "TORCHSCRIPT_FILE": "pyaz.nets.loading",
    "LoadedModel": "pyaz.nets.loading",
    "check_network": "pyaz.nets.loading",
    "is_torchscript": "pyaz.nets.loading",
    "load_model": "pyaz.nets.loading",
    "load_net": "pyaz.nets.loading",
    "model_file": "pyaz.nets.loading",
    "run_config": "pyaz.nets.loading",
    "run_dir_of": "pyaz.nets.loading",
    "ARCHITECTURES": "pyaz.nets.model",
    "PRESETS": "pyaz.nets.model",
    "AzgNet": "pyaz.nets.model",
    "NetConfig": "pyaz.nets.model",
    "PolicyValueNet": "pyaz.nets.model",
    "ResidualBlock": "pyaz.nets.model",
    "ResNet": "pyaz.nets.model",
    "net_config_for": "pyaz.nets.model",
    "net_from_state": "pyaz.nets.model",
    "net_state": "pyaz.nets.model",
    "to_torchscript": "pyaz.nets.model",
    "THREAT_MODES": "pyaz.nets.model",
    "GAME_PLANES": "pyaz.nets.model",
    "check_game_planes": "pyaz.nets.model",
    "torchscript_bytes": "pyaz.nets.model",
    "DEFAULT_RUNTIME": "pyaz.nets.runtimes",
    "RUNTIMES": "pyaz.nets.runtimes",
    "OnnxEvaluator": "pyaz.nets.runtimes",
    "OpenVinoEvaluator": "pyaz.nets.runtimes",
    "make_evaluator": "pyaz.nets.runtimes",
}

__all__ = [
    "ARCHITECTURES",
    "CHECKPOINT_FILE",
    "DEFAULT_RUNTIME",
    "GAME_PLANES",
    "MODEL_KINDS",
    "PRESETS",
    "RUNTIMES",
    "RUN_CONFIG_FILE",
    "THREAT_MODES",
    "TORCHSCRIPT_FILE",
    "AzgNet",
    "LoadedModel",
    "ModelFile",
    "NetConfig",
    "OnnxEvaluator",
    "OpenVinoEvaluator",
    "PolicyValueNet",
    "ResNet",
    "ResidualBlock",
    "TorchEvaluator",
    "check_game_planes",
    "check_network",
    "is_torchscript",
    "load_any",
    "load_model",
    "load_net",
    "make_evaluator",
    "model_bytes",
    "model_file",
    "model_header",
    "model_kind",
    "model_path",
    "net_config_for",
    "net_file_bytes",
    "net_from_state",
    "net_state",
    "read_model_file",
    "read_torch_file",
    "run_config",
    "run_dir_of",
    "to_torchscript",
    "torchscript_bytes",
    "write_model_file",
]


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        value = getattr(importlib.import_module(_WHERE[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'pyaz.nets' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)
