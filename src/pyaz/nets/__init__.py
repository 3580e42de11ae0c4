"""The networks layer: residual policy-value networks (:mod:`pyaz.nets.model`), the one loader of
model files (:func:`load_model`), and the evaluators that run a network for the search
(:class:`TorchEvaluator`)."""

from pyaz.nets.evaluator import TorchEvaluator
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

__all__ = [
    "ARCHITECTURES",
    "CHECKPOINT_FILE",
    "PRESETS",
    "RUN_CONFIG_FILE",
    "TORCHSCRIPT_FILE",
    "AzgNet",
    "LoadedModel",
    "NetConfig",
    "PolicyValueNet",
    "ResNet",
    "ResidualBlock",
    "TorchEvaluator",
    "check_network",
    "is_torchscript",
    "load_model",
    "load_net",
    "model_file",
    "net_config_for",
    "net_from_state",
    "net_state",
    "run_config",
    "run_dir_of",
    "to_torchscript",
    "torchscript_bytes",
]
