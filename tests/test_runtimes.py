"""The inference runtimes give the network's outputs (to 1e-4): ONNX Runtime (the default on a
CPU), OpenVINO and TorchScript, for both architectures and several games; a search on the
default runtime finds what it finds on TorchScript; bad choices are clear errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

import pyaz
from pyaz.nets import (
    DEFAULT_RUNTIME,
    OnnxEvaluator,
    PolicyValueNet,
    TorchEvaluator,
    load_model,
    make_evaluator,
    net_config_for,
    net_state,
    to_torchscript,
)
from pyaz.nets.runtimes import resolve_runtime

CASES = [
    ("othello", {"size": 6}, "tiny"),
    ("connect_four", {}, "tiny"),
    ("gomoku", {"size": 9}, "seed004"),
    ("othello", {"size": 6}, "azg"),
    ("go", {"size": 5}, "tiny"),
]


@pytest.mark.parametrize("runtime", ["onnxruntime", "openvino", "torchscript"])
@pytest.mark.parametrize(("game", "options", "preset"), CASES)
def test_every_runtime_gives_the_networks_outputs(
    runtime: str, game: str, options: dict[str, int], preset: str
) -> None:
    if runtime == "openvino":
        pytest.importorskip("openvino")
    torch.manual_seed(1)
    state = pyaz.make(game, **options)
    overrides = {"filters": 16} if preset == "azg" else {}
    net = PolicyValueNet(net_config_for(state, preset, **overrides))
    net.eval()
    evaluator = make_evaluator(net, tuple(state.planes_shape), runtime, threads=1)
    for batch in (1, 7):
        planes = np.random.default_rng(batch).integers(0, 2, (batch, *state.planes_shape))
        planes = planes.astype(np.float32)
        logits, values = evaluator(planes)
        with torch.inference_mode():
            expected_logits, expected_values = net(torch.from_numpy(planes))
        assert logits.shape == (batch, state.num_actions) and values.shape == (batch,)
        np.testing.assert_allclose(logits, expected_logits.numpy(), atol=1e-4)
        np.testing.assert_allclose(values, expected_values.numpy().reshape(-1), atol=1e-4)


def test_the_default_runtime_is_onnx_runtime_on_a_cpu(tmp_path: Path) -> None:
    assert DEFAULT_RUNTIME == "onnxruntime"
    assert resolve_runtime(None, "cpu") == "onnxruntime"
    assert resolve_runtime(None, "cuda") == "torchscript"
    state = pyaz.make("connect_four")
    net = PolicyValueNet(net_config_for(state))
    path = tmp_path / "net.pt"
    torch.save(net_state(net), path)
    assert isinstance(load_model(path).evaluator(), OnnxEvaluator)
    assert isinstance(load_model(path).evaluator(runtime="torchscript"), TorchEvaluator)
    scripted = tmp_path / "net.torchscript.pt"
    torch.jit.save(to_torchscript(net), str(scripted))
    archive = load_model(scripted, execute_torchscript_code=True)
    assert isinstance(archive.evaluator(), TorchEvaluator)  # no shape: TorchScript
    on_onnx = archive.evaluator(planes_shape=tuple(state.planes_shape))
    assert isinstance(on_onnx, OnnxEvaluator)  # a TorchScript archive exports too
    planes = state.encode()[None]
    np.testing.assert_allclose(on_onnx(planes)[0], archive.evaluator()(planes)[0], atol=1e-4)


def test_a_search_on_onnx_runtime_matches_torchscript() -> None:
    torch.manual_seed(3)
    state = pyaz.make("connect_four")
    net = PolicyValueNet(net_config_for(state))
    visits = {}
    for runtime in ("onnxruntime", "torchscript"):
        search = pyaz.Search(state, batch_size=8)
        search.run(300, make_evaluator(net, tuple(state.planes_shape), runtime))
        visits[runtime] = search.visit_counts()
    np.testing.assert_array_equal(visits["onnxruntime"], visits["torchscript"])


def test_bad_runtime_choices_are_clear_errors() -> None:
    state = pyaz.make("connect_four")
    net = PolicyValueNet(net_config_for(state))
    with pytest.raises(ValueError, match="runtime must be one of"):
        make_evaluator(net, tuple(state.planes_shape), "tensorrt")
    with pytest.raises(ValueError, match="runs on the CPU"):
        resolve_runtime("onnxruntime", "cuda")
    with pytest.raises(ValueError, match="needs the network's input shape"):
        make_evaluator(net, None, "onnxruntime")
    with pytest.raises(ValueError, match="threads"):
        OnnxEvaluator(net, tuple(state.planes_shape), threads=0)


def test_the_training_loop_runs_on_each_runtime(tmp_path: Path) -> None:
    from pyaz.methods.alphazero.config import TrainConfig
    from pyaz.methods.alphazero.loop import TrainingLoop

    for runtime in ("onnxruntime", "torchscript"):
        config = TrainConfig(
            game="connect_four",
            game_options={"width": 5, "height": 4},
            iterations=1,
            episodes=4,
            simulations=8,
            epochs=1,
            parallel_games=4,
            eval_opponent="random",
            eval_games=2,
            runtime=runtime,
        )
        loop = TrainingLoop(config, tmp_path / runtime, progress=False)
        loop.run()
        assert loop.counters["games"] == 4
    with pytest.raises(ValueError, match="runtime must be one of"):
        TrainConfig(runtime="fast").validate()
