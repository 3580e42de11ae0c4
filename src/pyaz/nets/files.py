"""The one reader of files written by ``torch.save`` (:func:`read_torch_file`) and the one model
file format (:func:`model_bytes`, :func:`read_model_file`).

Every torch file pyaz reads (networks, run checkpoints, AlphaGomoku pairs, ZetaGo and curling
files) goes through :func:`read_torch_file`, so that opening a file cannot run code from it: it
is read with ``torch.load(weights_only=True)``, which builds only tensors, plain containers
(dict, list, tuple) and plain values (str, int, float, bool, None), and refuses any other Python
object before building it (a pickle whose unpickling would call ``os.system`` is refused).

A model file is a dict: the kind's own payload keys and, beside them, :data:`HEADER_KEY` holding
:func:`model_header` (format, format_version, kind, game, game_options, arch, pyaz_version). The
payload keys are those of the files written before the header, so old readers of a payload keep
working, and a file without the header (an older run folder) still loads: its kind is inferred
from its keys as the loaders did before.
"""

from __future__ import annotations

import errno
import io
import os
import re
import stat
import warnings
import zipfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, BinaryIO

import torch

from pyaz._version import __version__
from pyaz.common.runlog import atomic_write_bytes
from pyaz.nets.bounds import MAX_FILE_BYTES, shortened

__all__ = [
    "HEADER_KEY",
    "MODEL_FORMAT",
    "MODEL_FORMAT_VERSION",
    "MODEL_KINDS",
    "ModelFile",
    "model_bytes",
    "model_header",
    "open_bounded",
    "read_model_file",
    "read_torch_file",
    "torch_bytes",
    "torchscript_refusal",
    "write_model_file",
]

MODEL_FORMAT = "pyaz-model"
MODEL_FORMAT_VERSION = 1
HEADER_KEY = "pyaz_model"
"""The key of a model file's dict that holds its header."""

MODEL_KINDS: dict[str, str] = {
    "az": "an AlphaZero network",
    "alphagomoku-pair": "an AlphaGomoku network pair",
    "zetago-policy": "a ZetaGo policy network",
    "curling": "a curling network",
}
"""The kinds of model file, with their names in messages."""

_OLD_PAIR_FORMAT = "pyaz-alphagomoku-pair-1"  # the marker of pair files before the header

_ZIP_MAGIC = b"PK\x03\x04"


def read_torch_file(path: str | os.PathLike[str], what: str) -> Any:
    """The object that ``torch.save`` wrote to ``path``, with its tensors on the CPU, read with
    ``weights_only=True``: nothing in the file is executed, and nothing in it can make the
    reading take more than :data:`~pyaz.nets.bounds.MAX_FILE_BYTES` of memory.

    Before torch reads anything (:func:`open_bounded`, then the zip archive's directory): the
    path must be a regular file (a FIFO, a device or a socket is refused without being opened
    for reading, so it cannot hang the reader) of at most ``MAX_FILE_BYTES`` bytes (a sparse
    file is not read), a zip archive as ``torch.save`` writes it (torch's older format and bare
    pickles are refused: their sizes cannot be checked before reading), whose entries unpack to
    at most ``MAX_FILE_BYTES`` in all (a small deflated entry cannot unpack to gigabytes), and
    not a TorchScript archive (pyaz does not execute those: :func:`torchscript_refusal`).

    Raises OSError as it comes when the file cannot be read at all (missing, no permission, a
    folder), and a one-line ValueError ``"PATH is not WHAT: REASON"`` (``what`` such as "a
    pyaz network file") for every file whose content is wrong: empty, too large, not a regular
    file, truncated ("truncated: not a complete torch file"), random bytes, or an object other
    than tensors and plain values (the reason names it; a file written by an older pyaz version
    that stored such objects is refused alike); a TorchScript archive gives
    :func:`torchscript_refusal`.
    """
    file = Path(path)
    with open_bounded(file, what) as handle:
        _check_archive(file, handle, what)
        handle.seek(0)
        try:
            with warnings.catch_warnings():  # torch warns about pickle protocols
                warnings.simplefilter("ignore")
                return torch.load(handle, map_location="cpu", weights_only=True)
        except Exception as error:  # pickle, zip, EOF, Unicode, key errors: whatever the bytes give
            raise ValueError(f"{file} is not {what}: {_reason(error)}") from None


def open_bounded(path: str | os.PathLike[str], what: str) -> BinaryIO:
    """``path`` opened for binary reading once it is known to be a regular file of 1 to
    :data:`~pyaz.nets.bounds.MAX_FILE_BYTES` bytes: checked with ``os.stat`` before it is
    opened, and again on the open file (opened non-blocking, so that a FIFO put there in
    between does not hang). OSError as it comes (IsADirectoryError for a folder); a one-line
    ValueError ``"PATH is not WHAT: REASON"`` for anything else."""
    file = Path(path)
    _check_status(file, os.stat(file), what)
    handle = os.fdopen(os.open(file, os.O_RDONLY | os.O_NONBLOCK), "rb")
    try:
        _check_status(file, os.fstat(handle.fileno()), what)
    except BaseException:
        handle.close()
        raise
    return handle


def _check_status(file: Path, status: os.stat_result, what: str) -> None:
    """Raises unless ``status`` is that of a regular file of 1 to MAX_FILE_BYTES bytes."""
    if stat.S_ISDIR(status.st_mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(file))
    if not stat.S_ISREG(status.st_mode):
        raise ValueError(
            f"{file} is not {what}: not a regular file (a FIFO, a device or a socket), which "
            "pyaz does not read"
        )
    if status.st_size == 0:
        raise ValueError(f"{file} is not {what}: the file is empty")
    if status.st_size > MAX_FILE_BYTES:
        raise ValueError(
            f"{file} is not {what}: {status.st_size:,} bytes, more than the {MAX_FILE_BYTES:,} "
            "pyaz reads from a model file"
        )


def _check_archive(file: Path, handle: BinaryIO, what: str) -> None:
    """Raises a one-line ValueError unless ``handle`` is a zip archive as ``torch.save`` writes
    it, not TorchScript, whose entries unpack to at most MAX_FILE_BYTES (read from the zip's
    directory, before any entry is)."""
    magic = handle.read(len(_ZIP_MAGIC))
    handle.seek(0)
    if not zipfile.is_zipfile(handle):
        if magic == _ZIP_MAGIC:
            size = os.fstat(handle.fileno()).st_size
            raise ValueError(
                f"{file} is not {what}: truncated: not a complete torch file ({size} bytes)"
            )
        raise ValueError(
            f"{file} is not {what}: not a torch file (pyaz reads the zip archives that torch.save "
            "writes, not torch's older format or a bare pickle)"
        )
    try:
        with zipfile.ZipFile(handle) as archive:
            entries = archive.infolist()
    except (zipfile.BadZipFile, ValueError, EOFError, OSError) as error:
        raise ValueError(
            f"{file} is not {what}: a damaged zip archive ({shortened(str(error))})"
        ) from None
    if _holds_code(entry.filename for entry in entries):
        raise ValueError(torchscript_refusal(file))
    unpacked = sum(entry.file_size for entry in entries)
    if unpacked > MAX_FILE_BYTES:
        raise ValueError(
            f"{file} is not {what}: its zip entries unpack to {unpacked:,} bytes, more than the "
            f"{MAX_FILE_BYTES:,} pyaz reads from a model file"
        )


def torchscript_refusal(file: Path) -> str:
    """The one-line refusal of the TorchScript archive ``file``."""
    return (
        f"{file} is a TorchScript archive, and pyaz does not execute TorchScript files (loading "
        "one runs the code it holds): play the run's weights instead, its checkpoint.pt or "
        "nets/iter-*.pt (or the run folder)"
    )


def _reason(error: Exception) -> str:
    """Why torch could not read a file, in words (one line)."""
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
    return f"not a torch file, or a damaged one ({shortened(first, 200)})"


def is_torchscript(source: str | os.PathLike[str] | IO[bytes]) -> bool:
    """Whether ``source`` (a path or a binary file) is a TorchScript archive (a zip holding
    compiled code), not a file written by ``torch.save``; False for a path that is not a
    regular file (never opened: a FIFO would block)."""
    if isinstance(source, str | os.PathLike) and not Path(source).is_file():
        return False
    try:
        with zipfile.ZipFile(source) as archive:
            return _holds_code(archive.namelist())
    except (zipfile.BadZipFile, OSError, ValueError):
        return False


def _holds_code(names: Iterable[str]) -> bool:
    """Whether the zip entries ``names`` are those of a TorchScript archive."""
    return any("/code/" in name or name.endswith("/constants.pkl") for name in names)


def model_header(
    kind: str, game: str, game_options: Mapping[str, Any] | None, arch: Mapping[str, Any]
) -> dict[str, Any]:
    """The header of a model file of ``kind`` (one of :data:`MODEL_KINDS`) for ``game`` with
    ``game_options`` (its board), ``arch`` the network's architecture (plain values)."""
    if kind not in MODEL_KINDS:
        raise ValueError(f"unknown model kind {kind!r}: one of {', '.join(MODEL_KINDS)}")
    return {
        "format": MODEL_FORMAT,
        "format_version": MODEL_FORMAT_VERSION,
        "kind": kind,
        "game": str(game),
        "game_options": dict(game_options or {}),
        "arch": dict(arch),
        "pyaz_version": __version__,
    }


def model_bytes(
    kind: str,
    payload: Mapping[str, Any],
    game: str,
    game_options: Mapping[str, Any] | None,
    arch: Mapping[str, Any],
) -> bytes:
    """A model file's bytes: ``payload`` with :func:`model_header` beside it, as ``torch.save``
    writes it (readable with ``weights_only=True`` when ``payload`` holds only tensors and
    plain values)."""
    return torch_bytes({**payload, HEADER_KEY: model_header(kind, game, game_options, arch)})


def torch_bytes(obj: Any) -> bytes:
    """``obj`` as ``torch.save`` writes it."""
    blob = io.BytesIO()
    torch.save(obj, blob)
    return blob.getvalue()


def write_model_file(
    path: str | os.PathLike[str],
    kind: str,
    payload: Mapping[str, Any],
    game: str,
    game_options: Mapping[str, Any] | None,
    arch: Mapping[str, Any],
) -> Path:
    """Writes :func:`model_bytes` to ``path`` atomically (a temporary file, fsynced, renamed);
    returns the path."""
    path = Path(path)
    atomic_write_bytes(path, model_bytes(kind, payload, game, game_options, arch))
    return path


@dataclass(frozen=True)
class ModelFile:
    """A model file read by :func:`read_model_file`: its ``kind``, its ``payload`` (the dict
    without the header) and its ``header`` (None for a file written before the header, whose
    kind was inferred from its keys)."""

    path: Path
    kind: str
    payload: dict[str, Any]
    header: dict[str, Any] | None = None

    @property
    def game(self) -> str | None:
        """The game the file says it plays (None without a header)."""
        return None if self.header is None else str(self.header["game"])


def read_model_file(
    path: str | os.PathLike[str],
    kind: str | None = None,
    game: str | None = None,
    what: str = "a pyaz model file",
) -> ModelFile:
    """The model file at ``path`` (read by :func:`read_torch_file`: nothing runs), checked.

    With ``kind``, the file must be of that kind, and with ``game`` (when the file's header
    names one) for that game; ``what`` names the file expected in messages. Every problem is a
    one-line ValueError naming the file: not a torch file, empty, truncated, objects other than
    tensors and plain values, a bad or newer header, no model of any kind, the wrong kind (both
    kinds named) or the wrong game (both games named). OSError as it comes when the file cannot
    be read at all.
    """
    file = Path(path)
    data = read_torch_file(file, what)
    if not isinstance(data, dict):
        raise ValueError(f"{file} {_no_model(kind)}")
    payload = {key: value for key, value in data.items() if key != HEADER_KEY}
    header = _check_header(file, data[HEADER_KEY]) if HEADER_KEY in data else None
    found = header["kind"] if header is not None else _infer_kind(payload)
    if found is None:
        raise ValueError(f"{file} {_no_model(kind)}")
    if kind is not None and found != kind:
        raise ValueError(
            f"{file} is {MODEL_KINDS[found]} (kind {found}), not {MODEL_KINDS[kind]} "
            f"(kind {kind}): pyaz.load_model reads it, model:PATH plays it"
        )
    model = ModelFile(file, found, payload, header)
    if game is not None and model.game is not None and model.game != str(game):
        raise ValueError(f"{file} is a model for {model.game}, not for {game}")
    return model


def _no_model(kind: str | None) -> str:
    if kind == "az":
        return (
            "holds no pyaz network (expected its config and weights, as nets/iter-*.pt, "
            "checkpoint.pt or a net_state file)"
        )
    expected = MODEL_KINDS[kind] if kind else f"one of: {', '.join(MODEL_KINDS.values())}"
    return f"holds no pyaz model (a torch file not written by pyaz; expected {expected})"


def _check_header(file: Path, header: Any) -> dict[str, Any]:
    """``header`` when it is a model header this pyaz reads, else a one-line ValueError."""
    if not isinstance(header, dict) or header.get("format") != MODEL_FORMAT:
        raise ValueError(f"{file} is not a pyaz model file: its {HEADER_KEY} header is damaged")
    version = header.get("format_version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ValueError(f"{file}: format_version {version!r} is not a pyaz model format version")
    if version > MODEL_FORMAT_VERSION:
        raise ValueError(
            f"{file} was written by a newer pyaz ({header.get('pyaz_version')!r}, model format "
            f"{version}; this pyaz {__version__} reads up to {MODEL_FORMAT_VERSION}): upgrade pyaz"
        )
    if header.get("kind") not in MODEL_KINDS:
        raise ValueError(f"{file}: unknown model kind {header.get('kind')!r}")
    if not isinstance(header.get("game"), str) or not isinstance(header.get("game_options"), dict):
        raise ValueError(f"{file}: the model header names no game and game options")
    return header


def _infer_kind(data: dict[str, Any]) -> str | None:
    """The kind of a file written before the header, from its keys (None: no model)."""
    if data.get("format") == _OLD_PAIR_FORMAT:
        return "alphagomoku-pair"
    if isinstance(data.get("zetago"), dict):
        return "zetago-policy"
    if any(_is_net_state(part) for part in (data, data.get("net"), data.get("best"))):
        return "az"  # a net_state, nets/iter-*.pt or checkpoint.pt
    if isinstance(data.get("net"), dict) and ("channels" in data or "net_config" in data):
        return "curling"  # nets/iter-*.pt or checkpoint.pt of a curling run
    return None


def _is_net_state(part: Any) -> bool:
    return (
        isinstance(part, dict)
        and isinstance(part.get("config"), dict)
        and isinstance(part.get("state_dict"), dict)
    )
