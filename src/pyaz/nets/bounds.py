"""Bounds on what a model file may make pyaz build, checked before anything is built.

A model file is data that anyone may have made: its config names the sizes of the module to
build and its tensors the weights. A file is at most :data:`MAX_FILE_BYTES` (checked by
:func:`pyaz.nets.files.read_torch_file` before it reads a byte), and before a module is built
from one (:func:`checked_module`), each loader checks the config's size fields against its
ceilings (:func:`check_sizes`: :data:`pyaz.nets.model.NET_LIMITS`, the curling and ZetaGo
networks' own); then the module is laid out on the meta device, where it holds no memory, its
parameter count is checked against :data:`MAX_PARAMETERS`, and every tensor of the state_dict
must have a name and shape that module has, and finite values. Only then is it built.

Every error is one line of a few hundred characters at most (:func:`shortened` cuts what a file
put in it), and comes before the memory or the time that a hostile size would take.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import torch
from torch import nn

from pyaz.common.shown import cut

__all__ = [
    "MAX_FILE_BYTES",
    "MAX_PARAMETERS",
    "check_sizes",
    "check_weights",
    "checked_module",
    "parameter_shapes",
    "shortened",
]

MAX_FILE_BYTES = 2 * 1024**3
"""The largest torch file pyaz reads (2 GiB), a generous ceiling: the largest file pyaz writes is
the training checkpoint of the seed000 preset (10 blocks of 512 filters: the best and current
networks and the optimizer's state, about 750 MB with Adam)."""

MAX_PARAMETERS = 2**28
"""The most parameters a network read from a file may have (268M, 1 GiB of float32), a generous
ceiling: the largest network pyaz builds is the azg preset (512 channels) on a 19x19 board,
about 118M parameters; the seed000 preset on 19x19 has about 48M."""

Module = TypeVar("Module", bound=nn.Module)


def shortened(text: str, limit: int = 160) -> str:
    """``text`` on one line (its whitespace runs made single spaces), cut to ``limit``
    characters and ``...``: what a file put in a message stays short."""
    return cut(" ".join(text.split()), limit)


def _number(value: int) -> str:
    """``value`` in a message: its digits, or its size in bits when it has too many."""
    return str(value) if value.bit_length() <= 64 else f"a {value.bit_length()}-bit number"


def check_sizes(fields: Any, limits: Mapping[str, tuple[int, int]], what: str) -> None:
    """Raises unless each field of ``limits`` that ``fields`` (a config read from a file) holds
    is an integer within its ``(least, most)``: TypeError naming ``what`` and the field for a
    non-integer (or ``fields`` not a dict), ValueError naming the value and the range."""
    if not isinstance(fields, Mapping):
        raise TypeError(f"{what} is not a dict but {type(fields).__name__}")
    for name, (least, most) in limits.items():
        if name not in fields:
            continue
        value = fields[name]
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{what}: {name} must be an integer, got {shortened(repr(value), 40)}")
        if not least <= value <= most:
            raise ValueError(
                f"{what}: {name} {_number(value)} is out of the range pyaz reads from a file "
                f"({least}..{most})"
            )


def parameter_shapes(build: Callable[[], nn.Module], what: str) -> dict[str, tuple[int, ...]]:
    """The state_dict shapes of the module ``build`` makes, laid out on the meta device (no
    memory, no values); ValueError naming ``what`` when it would have more than
    :data:`MAX_PARAMETERS` parameters. ``build`` must be bounded already (its sizes checked by
    :func:`check_sizes`): the layout takes time per layer."""
    with torch.device("meta"):
        skeleton = build()
    count = sum(parameter.numel() for parameter in skeleton.parameters())
    if count > MAX_PARAMETERS:
        raise ValueError(
            f"{what} would have {count:,} parameters, more than the {MAX_PARAMETERS:,} pyaz "
            "reads from a file"
        )
    return {name: tuple(tensor.shape) for name, tensor in skeleton.state_dict().items()}


def check_weights(state_dict: Any, shapes: Mapping[str, tuple[int, ...]], what: str) -> None:
    """ValueError naming ``what`` and the tensor unless ``state_dict`` maps names of ``shapes``
    to dense tensors of those shapes whose values are all finite (no NaN, no infinity). A name
    of ``shapes`` may be missing (``load_state_dict`` says which ones a module needs)."""
    if not isinstance(state_dict, dict):
        raise ValueError(f"{what}'s weights are not a dict of tensors")
    for name, tensor in state_dict.items():
        label = shortened(repr(name), 80)
        if name not in shapes:
            raise ValueError(
                f"{what}'s config and weights do not go together: the weights hold {label}, "
                "which the config's network has not"
            )
        if not isinstance(tensor, torch.Tensor) or tensor.layout != torch.strided:
            raise ValueError(f"{what}'s weight {label} is not a dense tensor")
        if tuple(tensor.shape) != shapes[name]:
            raise ValueError(
                f"{what}'s config and weights do not go together: weight {label} has shape "
                f"{shortened(str(tuple(tensor.shape)), 60)}, the config's network {shapes[name]}"
            )
        if not bool(torch.isfinite(tensor).all()):
            raise ValueError(f"{what}'s weight {label} holds NaN or infinite values")


def checked_module(build: Callable[[], Module], state_dict: Any, what: str) -> Module:
    """The module ``build`` makes, with the weights ``state_dict``, built only after
    :func:`parameter_shapes` and :func:`check_weights` passed; ValueError naming ``what``
    otherwise, and for weights that still do not load (missing tensors: one line, cut)."""
    check_weights(state_dict, parameter_shapes(build, what), what)
    module = build()
    try:
        module.load_state_dict(state_dict)
    except RuntimeError as error:
        raise ValueError(
            f"{what}'s config and weights do not go together ({shortened(str(error))})"
        ) from None
    return module
