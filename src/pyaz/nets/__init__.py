"""The networks layer: policy-value networks (:mod:`pyaz.nets.model`), the one model file
format (:mod:`pyaz.nets.files`: a header with the kind, game, architecture and pyaz version
beside the payload), the one loader of every kind of model file (:func:`load_model`,
``pyaz.load_model``, which returns a :class:`LoadedModel`), the one reader of torch files,
which runs nothing from them (:func:`read_torch_file`; no TorchScript archive is executed), the
bounds a file's sizes must keep before anything is built from it (:mod:`pyaz.nets.bounds`), and
the evaluators that run a network for the search on an inference runtime
(:mod:`pyaz.nets.runtimes`: ONNX Runtime by default on a CPU, TorchScript, OpenVINO)."""

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
    from pyaz.nets.loading import (
        CHECKPOINT_FILE,
        RUN_CONFIG_FILE,
        TORCHSCRIPT_FILE,
        LoadedModel,
        check_network,
        is_torchscript,
        load_model,
        model_file,
        model_kind,
        model_path,
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
_NAMES = {  # module: the names it gives
    "evaluator": "TorchEvaluator",
    "files": "read_torch_file MODEL_KINDS ModelFile model_bytes model_header read_model_file "
    "write_model_file",
    "loading": "net_file_bytes CHECKPOINT_FILE RUN_CONFIG_FILE TORCHSCRIPT_FILE LoadedModel "
    "check_network is_torchscript load_model model_file model_kind model_path run_config "
    "run_dir_of",
    "model": "ARCHITECTURES PRESETS AzgNet NetConfig PolicyValueNet ResidualBlock ResNet "
    "net_config_for net_from_state net_state to_torchscript THREAT_MODES "
    "check_game_planes torchscript_bytes",
    "runtimes": "DEFAULT_RUNTIME RUNTIMES OnnxEvaluator OpenVinoEvaluator make_evaluator",
}
_WHERE = {name: f"pyaz.nets.{module}" for module, names in _NAMES.items() for name in names.split()}

__all__ = [
    "ARCHITECTURES",
    "CHECKPOINT_FILE",
    "DEFAULT_RUNTIME",
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
    "load_model",
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
