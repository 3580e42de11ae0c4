"""TorchEvaluator: a TorchScript policy-value net driving the search."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from torch import nn

import pyaz

# TorchScript still works in torch 2.13 but warns that it is deprecated.
pytestmark = pytest.mark.filterwarnings(
    "ignore:`torch.jit.script` is deprecated:DeprecationWarning"
)


class TinyNet(nn.Module):
    def __init__(self, channels: int, height: int, width: int, actions: int) -> None:
        super().__init__()
        self.conv = nn.Conv2d(channels, 8, 3, padding=1)
        self.policy = nn.Linear(8 * height * width, actions)
        self.value = nn.Linear(8 * height * width, 1)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = torch.relu(self.conv(x)).flatten(1)
        return self.policy(h), torch.tanh(self.value(h))


def _net(state) -> nn.Module:
    torch.manual_seed(0)
    return TinyNet(*state.planes_shape, state.num_actions)


def test_matches_a_direct_forward_pass() -> None:
    state = pyaz.make("othello", size=6)
    net = _net(state)
    scripted = torch.jit.script(net)
    evaluator = pyaz.TorchEvaluator(scripted, max_batch=3)
    planes = np.stack([state.encode(), state.child(state.legal_actions()[0]).encode()] * 4)
    logits, values = evaluator(planes)
    with torch.no_grad():
        expected_logits, expected_values = net(torch.from_numpy(planes))
    np.testing.assert_allclose(logits, expected_logits.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(values, expected_values.numpy().ravel(), rtol=1e-5, atol=1e-6)
    assert logits.dtype == np.float32 and values.shape == (8,)


def test_search_priors_are_the_softmax_over_legal_actions() -> None:
    state = pyaz.make("othello", size=6)
    net = _net(state)
    search = pyaz.Search(state, batch_size=4)
    search.run(1, pyaz.TorchEvaluator(torch.jit.script(net)))
    with torch.no_grad():
        logits = net(torch.from_numpy(state.encode()[None]))[0][0].numpy()
    legal = state.legal_mask()
    expected = np.where(legal, np.exp(logits - logits[legal].max()), 0.0)
    np.testing.assert_allclose(search.priors(), expected / expected.sum(), rtol=1e-4)


def test_self_play_with_a_torch_net() -> None:
    state = pyaz.make("connect_four")
    evaluator = pyaz.TorchEvaluator(_net(state))
    records = pyaz.SelfPlay(state, simulations=16, parallel_games=8).play(8, evaluator)
    assert records.num_games == 8 and evaluator.calls == records.evaluator_calls


def test_nan_weights_are_reported() -> None:
    state = pyaz.make("connect_four")
    net = _net(state)
    with torch.no_grad():
        net.value.bias.fill_(float("nan"))
    with pytest.raises(ValueError, match="non-finite value"):
        pyaz.Search(state).run(10, pyaz.TorchEvaluator(net))


def test_bad_arguments() -> None:
    state = pyaz.make("connect_four")
    with pytest.raises(ValueError, match="max_batch"):
        pyaz.TorchEvaluator(_net(state), max_batch=0)
    if not torch.cuda.is_available():
        with pytest.raises(ValueError, match="CUDA"):
            pyaz.TorchEvaluator(_net(state), device="cuda")
