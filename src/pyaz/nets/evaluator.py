"""``TorchEvaluator``: a PyTorch policy-value module as the search's batched evaluator, and
:func:`denormals_flushed`, the block every pyaz training step and torch evaluator call runs in.

The module (TorchScript or a plain ``nn.Module``) maps float planes ``[B, C, H, W]`` to
``(policy_logits [B, A], value [B] or [B, 1])`` with values in [-1, 1] (a tanh head).
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np
import torch


@contextlib.contextmanager
def denormals_flushed() -> Iterator[None]:
    """Within the block, the CPU treats subnormal floats (below 1.2e-38) as zero in this
    thread (:func:`torch.set_flush_denormal`); after it, the thread's mode is what it was, so
    that pyaz leaves its caller's floating-point state as it found it. Weight decay drives the
    weights of dead units towards zero through the subnormal range, where x86 arithmetic is
    10-100 times slower: measured on a seed 000 curriculum run (Reversi 6x6, tiny network, l2
    1e-4), a training step went from 15 ms to 200 ms once 7% of the weights were subnormal,
    and an iteration's training from 20 s to 200-600 s. Flushed, such a weight is 0, which it
    was all but in value. Every pyaz training step and torch evaluator call runs in such a
    block (it serves as a decorator too: ``@denormals_flushed()``). torch's own worker threads
    (``torch_threads`` > 1) keep the mode of the moment they were created."""
    was_on = _flushing()
    if not was_on:
        torch.set_flush_denormal(True)
    try:
        yield
    finally:
        if not was_on:
            torch.set_flush_denormal(False)


def _flushing() -> bool:
    """Whether this thread flushes subnormal floats to zero now."""
    return float(np.float32(1e-39) * np.float32(1.0)) == 0.0


class TorchEvaluator:
    """Calls ``module`` under ``torch.inference_mode()`` on ``device``.

    ``dtype`` is the input and compute dtype (e.g. ``torch.float16`` on a GPU); outputs come back
    as float32 numpy arrays. Batches larger than ``max_batch`` are split. On CUDA the planes are
    copied through pinned memory with non-blocking transfers.
    """

    def __init__(
        self,
        module: Any,
        device: str | torch.device = "cpu",
        dtype: torch.dtype = torch.float32,
        max_batch: int = 1024,
    ) -> None:
        if max_batch < 1:
            raise ValueError(f"max_batch must be >= 1, got {max_batch}")
        self.device = torch.device(device)
        if self.device.type == "cuda" and not torch.cuda.is_available():
            raise ValueError("device 'cuda' was asked for, but torch sees no CUDA device")
        self.dtype = dtype
        self.max_batch = max_batch
        self.module = module.to(device=self.device, dtype=dtype).eval()
        self.calls = 0

    def _to_device(self, planes: np.ndarray) -> torch.Tensor:
        with warnings.catch_warnings():
            # The search hands over a read-only array (owning its buffer); the module only
            # reads it.
            warnings.filterwarnings("ignore", message="The given NumPy array is not writable")
            tensor = torch.from_numpy(planes)
        if self.device.type == "cuda":
            tensor = tensor.pin_memory().to(self.device, non_blocking=True)
        return tensor.to(self.dtype)

    def _forward(self, planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        output = self.module(self._to_device(planes))
        if not isinstance(output, tuple | list) or len(output) != 2:
            raise TypeError("the module must return (policy_logits, value)")
        logits, value = output
        return logits.float().cpu().numpy(), value.float().reshape(-1).cpu().numpy()

    def __call__(self, planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        self.calls += 1
        with denormals_flushed(), torch.inference_mode():
            if len(planes) <= self.max_batch:
                return self._forward(planes)
            parts = [
                self._forward(planes[i : i + self.max_batch])
                for i in range(0, len(planes), self.max_batch)
            ]
        return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])
