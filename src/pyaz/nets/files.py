"""The one reader of files written by ``torch.save``: :func:`read_torch_file`.

Every torch file pyaz reads (networks, run checkpoints, AlphaGomoku pairs, ZetaGo and curling
files) goes through it, so that opening a file cannot run code from it: it is read with
``torch.load(weights_only=True)``, which builds only tensors, plain containers (dict, list,
tuple) and plain values (str, int, float, bool, None), and refuses any other Python object
before building it (a pickle whose unpickling would call ``os.system`` is refused).
"""

from __future__ import annotations

import io
import os
import re
import warnings
import zipfile
from pathlib import Path
from typing import Any

import torch

__all__ = ["read_torch_file"]

_ZIP_MAGIC = b"PK\x03\x04"


def read_torch_file(path: str | os.PathLike[str], what: str) -> Any:
    """The object that ``torch.save`` wrote to ``path``, with its tensors on the CPU, read with
    ``weights_only=True``: nothing in the file is executed.

    Raises OSError as it comes when the file cannot be read at all (missing, no permission, a
    folder), and a one-line ValueError ``"PATH is not WHAT: REASON"`` (``what`` such as "a
    pyaz network file") for every file whose content is wrong: empty, truncated ("truncated:
    not a complete torch file"), random bytes, a TorchScript archive, or an object other than
    tensors and plain values (the reason names it; a file written by an older pyaz version
    that stored such objects is refused alike).
    """
    file = Path(path)
    data = file.read_bytes()  # then every failure of torch.load is the content's fault
    if not data:
        raise ValueError(f"{file} is not {what}: the file is empty")
    try:
        with warnings.catch_warnings():  # torch warns about pickle protocols and TorchScript
            warnings.simplefilter("ignore")
            return torch.load(io.BytesIO(data), map_location="cpu", weights_only=True)
    except Exception as error:  # pickle, zip, EOF, Unicode, key errors: whatever the bytes give
        raise ValueError(f"{file} is not {what}: {_reason(data, error)}") from None


def _reason(data: bytes, error: Exception) -> str:
    """Why ``data`` could not be read, in words (one line)."""
    is_zip = zipfile.is_zipfile(io.BytesIO(data))
    if data.startswith(_ZIP_MAGIC) and not is_zip:
        return f"truncated: not a complete torch file ({len(data)} bytes)"
    if is_zip and _is_torchscript_zip(data):
        return "it is a TorchScript archive (only pyaz.load_model reads those, as a network)"
    text = str(error)
    refused = re.search(r"GLOBAL ([\w.]+)", text)  # torch's words vary between versions
    if refused:
        return (
            f"it refers to {refused.group(1)}, and pyaz reads only tensors and plain values "
            "from torch files, so that no file can run code (a file not written by pyaz, or "
            "by an older pyaz that stored other objects)"
        )
    detail = re.search(r"WeightsUnpickler error:\s*([^\n]+)", text)
    if detail:
        first = detail.group(1)
    elif "Weights only load failed" in text:
        first = "a pickle that pyaz does not read"
    else:
        first = f"{type(error).__name__}: {(text.strip().splitlines() or [''])[0]}"
    first = first.strip()
    if len(first) > 200:
        first = first[:200] + "..."
    return f"not a torch file, or a damaged one ({first})"


def _is_torchscript_zip(data: bytes) -> bool:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return any(
                "/code/" in name or name.endswith("/constants.pkl") for name in archive.namelist()
            )
    except (zipfile.BadZipFile, OSError, ValueError):
        return False
