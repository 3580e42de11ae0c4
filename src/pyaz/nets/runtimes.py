"""Where a network runs for the search: the inference runtimes, one evaluator class each.

- ``onnxruntime`` (:class:`OnnxEvaluator`, the default on a CPU): the network exported to ONNX
  and run by ONNX Runtime. Measured side by side on this project's 2-core CPU, one thread each
  (``bench/test_inference_bench.py``, README "Benchmarks"), it runs the tiny network 2.3-6.2x
  and the small one 1.5-3.2x as fast as TorchScript at batches of 1 to 64 (the most at small
  batches, where TorchScript's fixed cost per call dominates), and the main command's
  self-play 2.4x as fast; outputs equal to 1e-4. OpenVINO came second (1.2-2.8x).
- ``torchscript`` (:class:`~pyaz.nets.evaluator.TorchEvaluator`): the TorchScript module run by
  PyTorch; the runtime for CUDA devices.
- ``openvino`` (:class:`OpenVinoEvaluator`, ``pip install ".[openvino]"``): Intel's runtime, from
  the same ONNX export.

Training always stays in PyTorch; an evaluator is a snapshot of the network's weights when it
was made. :func:`make_evaluator` builds the one a runtime names.

pyaz never reads an ONNX file: the only ONNX model it runs is the one :func:`onnx_bytes` has
just exported in memory from a torch module (bounded by :mod:`pyaz.nets.bounds` when it came
from a file), handed to ONNX Runtime and OpenVINO as bytes. A model given as bytes has no
folder, so no ``external_data`` location of it is ever resolved against the file system.
"""

from __future__ import annotations

import io
import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from pyaz.common.imports import import_interruptibly
from pyaz.nets.threat_search import ThreatSearchEvaluator

if TYPE_CHECKING:  # torch loads when a network is exported or run, not with the runtime names
    from torch import nn

__all__ = [
    "DEFAULT_RUNTIME",
    "RUNTIMES",
    "OnnxEvaluator",
    "OpenVinoEvaluator",
    "make_evaluator",
    "onnx_bytes",
    "resolve_runtime",
]

RUNTIMES = ("onnxruntime", "torchscript", "openvino")
DEFAULT_RUNTIME = "onnxruntime"

Evaluator = Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]


def resolve_runtime(runtime: str | None, device: str = "cpu") -> str:
    """The runtime to use: ``runtime`` when given (checked), else ONNX Runtime on a CPU and
    TorchScript on any other device."""
    if runtime is None:
        return DEFAULT_RUNTIME if str(device).startswith("cpu") else "torchscript"
    if runtime not in RUNTIMES:
        raise ValueError(f"runtime must be one of {', '.join(RUNTIMES)}, got {runtime!r}")
    if runtime != "torchscript" and not str(device).startswith("cpu"):
        raise ValueError(f"the {runtime} runtime runs on the CPU; use torchscript on {device!r}")
    return runtime


def onnx_bytes(module: nn.Module, planes_shape: tuple[int, int, int]) -> bytes:
    """``module`` (a torch or TorchScript module, in eval mode) exported to ONNX with a dynamic
    batch dimension: input ``planes`` [B, C, H, W], outputs ``policy`` [B, A] and ``value``."""
    import torch

    was_training = module.training
    module.eval()
    example = torch.zeros(2, *planes_shape)
    buffer = io.BytesIO()
    batch = {0: "batch"}
    try:
        with warnings.catch_warnings(), torch.no_grad():
            warnings.simplefilter("ignore")
            torch.onnx.export(
                module,
                (example,),
                buffer,  # type: ignore[arg-type]  # the exporter writes to any binary file
                input_names=["planes"],
                output_names=["policy", "value"],
                dynamic_axes={"planes": batch, "policy": batch, "value": batch},
                dynamo=False,
            )
    finally:
        module.train(was_training)
    return buffer.getvalue()


class OnnxEvaluator:
    """A network run by ONNX Runtime on the CPU with ``threads`` intra-op threads."""

    def __init__(self, module: nn.Module, planes_shape: tuple[int, int, int], threads: int = 1):
        onnxruntime = import_interruptibly("onnxruntime")
        if threads < 1:
            raise ValueError(f"threads must be >= 1, got {threads}")
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
        self.session = onnxruntime.InferenceSession(
            onnx_bytes(module, planes_shape), options, providers=["CPUExecutionProvider"]
        )
        self.calls = 0

    def __call__(self, planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        self.calls += 1
        logits, values = self.session.run(None, {"planes": np.ascontiguousarray(planes)})
        return logits, values.reshape(-1)


class OpenVinoEvaluator:
    """A network run by OpenVINO on the CPU (from its ONNX export) with ``threads`` threads."""

    def __init__(self, module: nn.Module, planes_shape: tuple[int, int, int], threads: int = 1):
        try:
            openvino = import_interruptibly("openvino")
        except ImportError:
            raise ValueError(
                "the openvino runtime needs OpenVINO: pip install 'pyaz[openvino]'"
            ) from None
        if threads < 1:
            raise ValueError(f"threads must be >= 1, got {threads}")
        core = openvino.Core()
        model = core.read_model(onnx_bytes(module, planes_shape))
        # f32 always: on CPUs with bfloat16 units (AVX512-BF16, AMX) OpenVINO's default is bf16,
        # which moves the outputs by ~5e-4, more than the 1e-4 the runtimes are held to.
        config = {
            "INFERENCE_NUM_THREADS": str(threads),
            "PERFORMANCE_HINT": "LATENCY",
            "INFERENCE_PRECISION_HINT": "f32",
        }
        self.compiled = core.compile_model(model, "CPU", config)
        self.request = self.compiled.create_infer_request()
        self.calls = 0

    def __call__(self, planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        self.calls += 1
        results = self.request.infer({0: np.ascontiguousarray(planes)})
        logits, values = (np.array(results[output]) for output in self.compiled.outputs)
        return logits, values.reshape(-1)


def make_evaluator(
    module: nn.Module,
    planes_shape: tuple[int, int, int] | None,
    runtime: str | None = None,
    device: str = "cpu",
    threads: int | None = None,
) -> Any:
    """The search's evaluator for ``module`` on ``runtime`` (default: ONNX Runtime on a CPU,
    TorchScript elsewhere). ``planes_shape`` (C, H, W) is needed for the ONNX export; without it
    (a TorchScript file whose shape is unknown) the TorchScript runtime is used. ``threads``
    defaults to PyTorch's intra-op thread count. For a network with threat-search planes
    (``config.threat_search``), ``planes_shape`` is the game's and the evaluator appends the
    planes (:class:`~pyaz.nets.threat_search.ThreatSearchEvaluator`)."""
    config: Any = getattr(module, "config", None)
    nodes = int(getattr(config, "threat_search", 0) or 0)
    if nodes and planes_shape is not None:
        planes_shape = (config.input_planes, planes_shape[1], planes_shape[2])
    evaluator = _runtime_evaluator(module, planes_shape, runtime, device, threads)
    return ThreatSearchEvaluator(evaluator, nodes, config.planes) if nodes else evaluator


def _runtime_evaluator(
    module: nn.Module,
    planes_shape: tuple[int, int, int] | None,
    runtime: str | None,
    device: str,
    threads: int | None,
) -> Any:
    import torch

    chosen = resolve_runtime(runtime, device)
    if chosen != "torchscript" and planes_shape is None:
        if runtime is not None:
            raise ValueError(f"the {runtime} runtime needs the network's input shape")
        chosen = "torchscript"
    count = torch.get_num_threads() if threads is None else threads
    if chosen != "torchscript":
        assert planes_shape is not None
        cpu = OnnxEvaluator if chosen == "onnxruntime" else OpenVinoEvaluator
        return cpu(module, planes_shape, count)
    from pyaz.nets.evaluator import TorchEvaluator
    from pyaz.nets.model import PolicyValueNet, to_torchscript

    scripted = to_torchscript(module) if isinstance(module, PolicyValueNet) else module
    return TorchEvaluator(scripted, device=device)
