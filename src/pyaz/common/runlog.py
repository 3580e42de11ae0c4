"""Crash-safe metrics log for a training run folder: JSONL (the record), CSV, TensorBoard.

A run folder keeps ``metrics.jsonl`` as the source of truth: one JSON object per line, each
written with a single ``write`` and then flushed and fsynced, so a killed process leaves at
worst a half-written last line. ``metrics.csv`` is derived from it (regenerated whenever a new
column appears and whenever a :class:`RunLog` is opened), and TensorBoard scalars go under
``tensorboard/<kind>/`` when the ``tensorboard`` package is installed.

>>> import tempfile
>>> from pathlib import Path
>>> run = Path(tempfile.mkdtemp())
>>> with RunLog(run, tensorboard=False) as log:
...     log.log({"kind": "iteration", "iteration": 0, "loss": 2.5})
...     log.log({"kind": "iteration", "iteration": 1, "loss": 2.0})
>>> [r["loss"] for r in read_metrics(run)]
[2.5, 2.0]
>>> truncate_after(run, 0)
1
>>> (run / "metrics.csv").read_text().splitlines()[0]
'kind,iteration,loss,wall_time'

Resuming after an interruption: load the last checkpoint (iteration ``k``), call
``truncate_after(run_dir, k)``, then open a new :class:`RunLog`. Opening repairs a half-written
last line, and TensorBoard events past the last kept record of each kind are purged.
:class:`~pyaz.common.run.TrainingRun` does all of this for a training loop, under the folder's
lock (:class:`~pyaz.common.folder_lock.FolderLock`), and says which damaged lines it dropped.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import math
import os
import re
import tempfile
import time
import warnings
from collections.abc import Collection, Iterable, Mapping
from pathlib import Path
from typing import Any, NamedTuple

from pyaz.common.checked_json import (
    Fields,
    NotJSONError,
    NotRegularFileError,
    open_regular,
    parse_json,
    read_json_file,
    read_regular_file,
)
from pyaz.common.closing import ClosesOnExit
from pyaz.common.faults import fault_point
from pyaz.common.folder_lock import FolderLock

__all__ = [
    "CSV_NAME",
    "JSONL_NAME",
    "TB_DIR",
    "RunLog",
    "Value",
    "atomic_write_bytes",
    "check_record",
    "check_resume_settings",
    "damaged_lines",
    "export_csv",
    "fsync_dir",
    "lock_run_folder",
    "read_metrics",
    "read_plain_file",
    "read_run_config",
    "truncate_after",
    "write_json_atomic",
]

JSONL_NAME = "metrics.jsonl"
CSV_NAME = "metrics.csv"
TB_DIR = "tensorboard"
CONFIG_NAME = "config.json"
#: The largest ``config.json`` read.
MAX_CONFIG_BYTES = 16 * 2**20
#: The largest ``metrics.jsonl`` read (some 500,000 records).
MAX_METRICS_BYTES = 256 * 2**20
#: Fields of a record that count something: a non-negative integer wherever they appear.
COUNT_FIELDS = ("iteration", "step", "games", "train_steps", "epochs")
#: Fields of a record that the plots and reports read as numbers: a number (NaN included) or
#: null, never a string or a boolean.
NUMBER_FIELDS = frozenset(
    {
        "loss", "loss_policy", "loss_value", "loss_sum", "loss_product",
        "time_selfplay", "time_train", "time_arena",
        "elapsed_s", "wall_time",
        "win_ratio", "perfect_agreement", "elo",
    }
)  # fmt: skip

#: A value a record may hold (numpy / torch scalars are converted with ``.item()``).
Value = float | int | str | bool | None

# The TensorBoard x-axis of a record: the first of these keys it has, else a per-kind counter.
_STEP_KEYS = ("step", "iteration")

_tb_warned = False


# --------------------------------------------------------------------------- atomic files


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` atomically: readers see the old file or the new one, never half.

    The bytes go to a temporary file in the same directory, which is fsynced and then renamed
    over ``path`` with :func:`os.replace`; the directory is fsynced too (POSIX), so the rename
    survives a power cut. The temporary file is removed if anything fails. The new file gets
    the usual permissions (0666 less the umask), not the 0600 of a temporary file.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        fault_point(f"before-replace/{path.name}")
        os.replace(tmp, path)
    except BaseException as error:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(error, OSError) and error.errno is not None:  # name the file, not tmp
            raise OSError(error.errno, error.strerror, str(path)) from error
        raise
    fsync_dir(path.parent)
    fault_point(f"after-replace/{path.name}")


def write_json_atomic(path: str | os.PathLike[str], obj: Any) -> None:
    """Write ``obj`` as indented JSON (UTF-8, trailing newline) to ``path`` atomically.

    Raises ``TypeError`` (before touching the file) if ``obj`` is not JSON-serialisable.
    """
    text = json.dumps(obj, indent=2, ensure_ascii=False) + "\n"
    atomic_write_bytes(path, text.encode("utf-8"))


def fsync_dir(directory: Path) -> None:
    """Persist a rename or a new file in ``directory`` (no-op where directories cannot be
    opened)."""
    if os.name == "posix":
        with contextlib.suppress(OSError):
            fd = os.open(directory, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)


# --------------------------------------------------------------------------- reading


def read_plain_file(path: str | os.PathLike[str], what: str) -> bytes:
    """The bytes of ``path``, a file that pyaz wrote as ``what`` (such as "buffer"). A path that
    is no regular file (a FIFO, a device, a folder) is a one-line ValueError naming it, refused
    before anything is read, so that nothing hangs; OSError (FileNotFoundError included) when
    it cannot be opened."""
    try:
        file = open_regular(path)
    except NotRegularFileError:
        raise ValueError(f"{path} is not a regular file, so no {what} pyaz wrote") from None
    with file:
        return file.read()


def read_metrics(
    run_dir: str | os.PathLike[str], skipped: list[str] | None = None
) -> list[dict[str, Any]]:
    """All records of ``run_dir/metrics.jsonl`` in order (``[]`` if the file does not exist).

    Each record is checked (:func:`check_record`). A last line that does not parse (a process
    killed mid-write) is dropped silently; a line elsewhere that does not parse, and any line
    whose record is damaged, is skipped with a warning naming the file, the line and the
    field. With ``skipped`` (a list), no warning is issued: one line per skipped line, the
    cut-short last one included, is appended to it instead.

    ValueError naming the file when it is not a regular file (a FIFO is never opened for
    reading) or larger than :data:`MAX_METRICS_BYTES`.
    """
    _, lines = _parsed_lines(run_dir)
    for line in lines:
        if line.record is not None:
            continue
        if skipped is not None:
            skipped.append(line.problem)
        elif not line.last or line.is_json:
            warnings.warn(f"{line.problem}: skipping the line", stacklevel=2)
    return [line.record for line in lines if line.record is not None]


def check_record(value: object, where: str) -> dict[str, Any]:
    """``value`` (a line of ``metrics.jsonl``, parsed) if it is a record as :class:`RunLog`
    writes it: a JSON object of plain values (strings, numbers, booleans, null; no lists or
    objects; integers and strings bounded), whose ``kind``, if any, is a non-empty string, whose
    :data:`COUNT_FIELDS` are non-negative integers and whose :data:`NUMBER_FIELDS` are numbers
    (NaN included) or null. Else a one-line ValueError naming ``where`` and the field."""
    fields = Fields(value, where)
    for key, item in fields.data.items():
        fields.scalar(key, item)
    if "kind" in fields.data and not fields.text("kind"):
        raise fields.problem("kind", "a non-empty string", "")
    for key in COUNT_FIELDS:
        fields.optional_integer(key)
    for key in NUMBER_FIELDS.intersection(fields.data):
        if fields.data[key] is not None:
            fields.number(key, finite=False)
    return fields.data


class _Line(NamedTuple):
    """A non-blank line of ``metrics.jsonl``: its number (from 1), its bytes, its record (None
    when it holds none), the one line saying why it holds none, whether it parsed as JSON at
    all (``is_json``), and whether it is the file's last non-blank line."""

    number: int
    text: bytes
    record: dict[str, Any] | None
    problem: str
    is_json: bool
    last: bool


def _parsed_lines(run_dir: str | os.PathLike[str]) -> tuple[Path, list[_Line]]:
    """``run_dir/metrics.jsonl`` and its non-blank lines (:class:`_Line`); no lines if the file
    is missing. ValueError naming the file when it is not a regular file or too large."""
    path = Path(run_dir) / JSONL_NAME
    try:
        data = read_regular_file(path, MAX_METRICS_BYTES)
    except FileNotFoundError:
        return path, []
    except OSError as error:
        raise ValueError(f"{path}: cannot be read ({error.strerror or error})") from None
    numbered = [(i, line) for i, line in enumerate(data.split(b"\n")) if line.strip()]
    parsed = []
    for i, line in numbered:
        where, last = f"{path} line {i + 1}", i == numbered[-1][0]
        record, problem, is_json = None, "", True
        try:
            value = parse_json(line, where)
        except NotJSONError:
            cut = "cut short (the run was stopped while writing it)"
            problem, is_json = f"{where}: {cut if last else 'not a JSON object'}", False
        except ValueError as error:  # JSON, but not as pyaz writes it
            problem = str(error)
        else:
            try:
                record = check_record(value, where)
            except ValueError as error:
                problem = str(error)
        parsed.append(_Line(i + 1, line, record, problem, is_json, last))
    return path, parsed


def lock_run_folder(run_dir: str | os.PathLike[str]) -> FolderLock:
    """The held lock of run folder ``run_dir`` (created if needed): OSError with one line
    saying what to do when files cannot be written in it (:func:`check_writable`),
    :class:`~pyaz.common.folder_lock.FolderInUseError` naming the folder when another process
    (or another lock in this one) holds it. The lock lasts until released or the process ends."""
    check_writable(run_dir)
    try:
        return FolderLock(run_dir, "training run").acquire()
    except OSError as error:  # the folder changed under us since the probe
        raise OSError(error.errno, f"cannot lock the run folder {run_dir}: {error}") from None


def read_run_config(run_dir: str | os.PathLike[str]) -> dict[str, Any]:
    """The settings run folder ``run_dir`` was started with (its config.json); ValueError with
    one line naming the folder when it holds no run, or the file when it is damaged, not a
    regular file or larger than :data:`MAX_CONFIG_BYTES`."""
    path = Path(run_dir) / CONFIG_NAME
    try:
        data = read_json_file(path, MAX_CONFIG_BYTES)  # a FIFO or a huge file: ValueError
    except FileNotFoundError:
        raise ValueError(
            f"{run_dir} holds no run to resume (no {CONFIG_NAME}): start one without --resume"
        ) from None
    if not isinstance(data, dict):
        raise ValueError(f"{path}: the run's settings are not a JSON object")
    return data


def check_resume_settings(
    run_dir: str | os.PathLike[str],
    saved: Mapping[str, Any],
    now: Mapping[str, Any],
    resumable: Collection[str] = (),
) -> None:
    """ValueError naming every setting (with both values) that differs between ``saved`` (the
    run's config.json) and ``now``, except those named in ``resumable``. Settings that only one
    side has (from another pyaz version) are not compared; a dict-valued setting (the game's
    options) is compared entry by entry, each named by its own key."""
    changed = []
    for key in saved.keys() & now.keys():
        if key in resumable:
            continue
        old, new = saved[key], now[key]
        if isinstance(old, dict) and isinstance(new, dict):
            pairs = [(k, old.get(k), new.get(k)) for k in sorted(old.keys() | new.keys())]
        else:
            pairs = [(key, old, new)]
        changed += [f"{k} {a!r} -> {b!r}" for k, a, b in pairs if a != b]
    if changed:
        may = f"only {', '.join(resumable)} may change" if resumable else "none may change"
        raise ValueError(
            f"{run_dir} was started with other settings, which a resumed run keeps: "
            f"{', '.join(sorted(changed))} ({may})"
        )


def damaged_lines(run_dir: str | os.PathLike[str]) -> list[str]:
    """One description per line of ``run_dir/metrics.jsonl`` that holds no record (a record
    cut short by a kill, usually the last line, or a damaged one): its number, the kind and
    iteration it seems to hold, and why. :func:`truncate_after` drops these lines."""
    path, lines = _parsed_lines(run_dir)
    notes = []
    for line in lines:
        if line.record is not None:
            continue
        text = line.text.decode("utf-8", "replace")
        kind = re.search(r'"kind":\s*"([^"]*)"', text)
        iteration = re.search(r'"iteration":\s*(\d+)', text)
        what = f"a {kind.group(1)!r} record" if kind else "a record"
        if iteration:
            what += f" of iteration {iteration.group(1)}"
        if line.is_json:
            why = f"({line.problem.removeprefix(f'{path} line {line.number}: ')})"
        else:
            why = "cut short when the run was stopped" if line.last else "not a JSON object"
        notes.append(f"{path}: dropped line {line.number}, {what} {why}: {text[:60]!r}")
    return notes


def check_writable(run_dir: str | os.PathLike[str]) -> None:
    """Creates ``run_dir`` if needed and checks that files can be written in it; else raises
    OSError with one line that names the folder and says what to do."""
    run_dir = Path(run_dir)
    try:
        run_dir.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=run_dir) as probe:
            probe.write(b"pyaz")
    except OSError as error:
        reason = error.strerror or str(error)
        raise OSError(
            error.errno,
            f"cannot write in the run folder {run_dir} ({reason}): make it writable, free "
            "space, or pick another folder",
        ) from None


def remove_temporaries(run_dir: str | os.PathLike[str]) -> int:
    """Removes the temporary files that :func:`atomic_write_bytes` leaves when killed
    (``.NAME.XXXX.tmp``) anywhere under ``run_dir``; returns how many."""
    paths = [path for path in Path(run_dir).rglob(".*.tmp") if path.is_file()]
    for path in paths:
        path.unlink()
    return len(paths)


def remove_networks_after(run_dir: str | os.PathLike[str], iteration: int) -> int:
    """Removes ``nets/iter-NNNNN.pt`` of iterations after ``iteration``, written by a run
    killed before it committed them; returns how many."""
    paths = [
        path
        for path in (Path(run_dir) / "nets").glob("iter-*.pt")
        if (number := path.stem.removeprefix("iter-")).isdigit() and int(number) > iteration
    ]
    for path in paths:
        path.unlink()
    return len(paths)


def truncate_after(run_dir: str | os.PathLike[str], iteration: int, key: str = "iteration") -> int:
    """Drop the records whose ``key`` is greater than ``iteration``; return how many.

    For resuming from the checkpoint of iteration ``iteration``: metrics written after it would
    otherwise appear twice. Records without ``key`` are kept. ``metrics.jsonl`` is
    rewritten atomically (a half-written last line goes too) and ``metrics.csv`` regenerated.
    Call it while no :class:`RunLog` is open on the folder, or use :meth:`RunLog.truncate_after`.
    """
    run_dir = Path(run_dir)
    if not (run_dir / JSONL_NAME).exists():
        return 0
    records = read_metrics(run_dir)
    kept = [r for r in records if not _after(r.get(key), iteration)]
    atomic_write_bytes(run_dir / JSONL_NAME, b"".join(_json_line(r) for r in kept))
    _write_csv(run_dir / CSV_NAME, kept)
    return len(records) - len(kept)


def export_csv(run_dir: str | os.PathLike[str]) -> Path:
    """Regenerate ``run_dir/metrics.csv`` from ``metrics.jsonl``; return its path."""
    path = Path(run_dir) / CSV_NAME
    _write_csv(path, read_metrics(run_dir))
    return path


def _after(value: Any, iteration: int) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and value > iteration


# --------------------------------------------------------------------------- writing


class RunLog(ClosesOnExit):
    """Appends metric records of a run folder to JSONL, CSV and (optionally) TensorBoard.

    Each record is a flat dict of scalars with a ``kind`` (``"iteration"``, ``"eval"``,
    ``"train_epoch"``...) and, where it makes sense, ``iteration`` (used by
    :func:`truncate_after`) and ``step`` (the TensorBoard x-axis; else ``iteration``, else a
    per-kind counter). A ``wall_time`` (Unix seconds) is added if the record has none.

    Opening a folder that already has metrics (a resumed run) repairs a half-written last line,
    regenerates the CSV and, for TensorBoard, purges events of each kind past its last kept
    record. One process at a time may log to a folder (:func:`lock_run_folder` locks it). Use as a
    context manager or call :meth:`close`.
    """

    def __init__(self, run_dir: str | os.PathLike[str], tensorboard: bool = True) -> None:
        """Open (creating if needed) the run folder ``run_dir`` for appending.

        ``tensorboard=True`` writes scalars under ``run_dir/tensorboard`` when the
        ``tensorboard`` package is importable; otherwise TensorBoard is skipped with a one-time
        warning.
        """
        self.run_dir = Path(run_dir)
        self.jsonl_path = self.run_dir / JSONL_NAME
        self.csv_path = self.run_dir / CSV_NAME
        self.tb_dir = self.run_dir / TB_DIR
        self._tb_writer_cls = _summary_writer_cls() if tensorboard else None
        self._open()

    def _open(self) -> None:
        """(Re)open the folder: repair the JSONL tail, regenerate the CSV, resume TB steps."""
        self.run_dir.mkdir(parents=True, exist_ok=True)
        _repair_tail(self.jsonl_path)
        existing = read_metrics(self.run_dir)
        self._fields: list[str] = _fieldnames(existing)
        _write_csv(self.csv_path, existing, self._fields)

        # TensorBoard steps continue from the kept records; later events are purged on open.
        self._tb_counts: dict[str, int] = {}
        self._tb_last: dict[str, int] = {}
        for record in existing:
            kind = str(record.get("kind", "misc"))
            step = self._tb_step(kind, record)
            self._tb_last[kind] = max(self._tb_last.get(kind, -1), step)
        self._tb_writers: dict[str, Any] = {}

        self._jsonl = open(self.jsonl_path, "ab")  # noqa: SIM115 (closed in close())
        self._csv = open(self.csv_path, "a", newline="", encoding="utf-8")  # noqa: SIM115
        self._closed = False

    @property
    def tensorboard_enabled(self) -> bool:
        """Whether scalars are written to TensorBoard."""
        return self._tb_writer_cls is not None

    def log(self, record: Mapping[str, Any]) -> None:
        """Append one record (stored with plain Python values and ``wall_time`` added).

        Values must be ``float``, ``int``, ``str``, ``bool`` or ``None`` (numpy and torch
        scalars are converted); ``kind`` must be a string. NaN and infinities are kept (as the
        JSON extensions ``NaN``/``Infinity``, which Python's ``json`` reads back).
        Raises ``TypeError``/``ValueError`` for a bad record, before anything is written.
        """
        if self._closed:
            raise RuntimeError("RunLog is closed")
        clean = _clean_record(record)
        clean.setdefault("wall_time", time.time())

        # JSONL first: it is the record of truth and must be durable.
        fault_point(f"before-append/{JSONL_NAME}")
        try:
            self._jsonl.write(_json_line(clean))
            self._jsonl.flush()
            os.fsync(self._jsonl.fileno())
        except OSError as error:  # a full disk: name the file
            raise OSError(error.errno, error.strerror, str(self.jsonl_path)) from error
        fault_point(f"after-append/{JSONL_NAME}")

        new_keys = [k for k in clean if k not in self._fields]
        if new_keys:
            self._fields.extend(new_keys)
            self._csv.close()
            _write_csv(self.csv_path, read_metrics(self.run_dir), self._fields)
            self._csv = open(self.csv_path, "a", newline="", encoding="utf-8")  # noqa: SIM115
        else:
            csv.DictWriter(self._csv, self._fields).writerow(_csv_row(clean))
            self._csv.flush()

        if self._tb_writer_cls is not None:
            self._log_tensorboard(clean)

    def truncate_after(self, iteration: int) -> int:
        """Like :func:`truncate_after` on this folder, while it is open; return records dropped."""
        if self._closed:
            raise RuntimeError("RunLog is closed")
        self.close()
        dropped = truncate_after(self.run_dir, iteration)
        self._open()
        return dropped

    def close(self) -> None:
        """Close all files. Idempotent."""
        if self._closed:
            return
        self._closed = True
        self._jsonl.close()
        self._csv.close()
        for writer in self._tb_writers.values():
            writer.close()
        self._tb_writers.clear()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.close()

    # ----------------------------------------------------------------------- TensorBoard

    def _tb_step(self, kind: str, record: Mapping[str, Any]) -> int:
        """The record's TensorBoard step; advances the per-kind counter either way."""
        count = self._tb_counts.get(kind, 0)
        self._tb_counts[kind] = count + 1
        for key in _STEP_KEYS:
            value = record.get(key)
            if isinstance(value, int) and not isinstance(value, bool):
                return value
        return count

    def _log_tensorboard(self, record: Mapping[str, Value]) -> None:
        kind = str(record["kind"])
        step = self._tb_step(kind, record)
        writer = self._tb_writers.get(kind)
        if writer is None:
            assert self._tb_writer_cls is not None
            # purge_step: TensorBoard hides older events of this run at steps >= it, i.e. those
            # logged after the last kept record (a truncated resume or a lost last line).
            writer = self._tb_writer_cls(
                log_dir=str(self.tb_dir / _safe_name(kind)),
                purge_step=self._tb_last.get(kind, -1) + 1,
            )
            self._tb_writers[kind] = writer
        wall = record.get("wall_time")
        walltime = float(wall) if isinstance(wall, int | float) else None
        for key, value in record.items():
            if key in ("kind", "wall_time", *_STEP_KEYS) or isinstance(value, str | None):
                continue
            writer.add_scalar(f"{kind}/{key}", float(value), step, walltime=walltime)
        writer.flush()


# --------------------------------------------------------------------------- helpers


def _summary_writer_cls() -> Any:
    """``torch.utils.tensorboard.SummaryWriter``, or ``None`` (with a one-time warning)."""
    global _tb_warned
    try:
        from torch.utils.tensorboard import SummaryWriter
    except ImportError as exc:  # torch or tensorboard missing
        if not _tb_warned:
            _tb_warned = True
            warnings.warn(
                f"TensorBoard logging disabled ({exc}); `pip install tensorboard` to enable it",
                RuntimeWarning,
                stacklevel=3,
            )
        return None
    return SummaryWriter


def _clean_record(record: Mapping[str, Any]) -> dict[str, Value]:
    clean: dict[str, Value] = {}
    for key, value in record.items():
        if not isinstance(key, str):
            raise TypeError(f"record keys must be str, got {key!r}")
        clean[key] = _plain(key, value)
    kind = clean.get("kind")
    if not isinstance(kind, str) or not kind:
        raise ValueError(f"a record needs a non-empty str 'kind', got {kind!r}")
    return clean


def _plain(key: str, value: Any) -> Value:
    item = getattr(value, "item", None)  # numpy scalar / 0-d array, torch 0-d tensor
    if callable(item) and not isinstance(value, bool | int | float | str):
        with contextlib.suppress(ValueError, RuntimeError):
            value = item()
    if value is None or isinstance(value, bool | int | float | str):
        return value
    raise TypeError(f"record value {key!r} must be a scalar (float, int, str, bool, None)")


def _json_line(record: Mapping[str, Any]) -> bytes:
    return (json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8")


def _fieldnames(records: Iterable[Mapping[str, Any]]) -> list[str]:
    """Column names in order of first appearance."""
    return list(dict.fromkeys(key for record in records for key in record))


def _csv_row(record: Mapping[str, Any]) -> dict[str, Any]:
    return {  # None as empty, nan, inf and -inf as text
        k: "" if v is None else str(v) if isinstance(v, float) and not math.isfinite(v) else v
        for k, v in record.items()
    }


def _write_csv(path: Path, records: list[dict[str, Any]], fields: list[str] | None = None) -> None:
    """Write all ``records`` to ``path`` atomically (header only if no records but fields)."""
    if fields is None:
        fields = _fieldnames(records)
    buf = io.StringIO(newline="")
    if fields:
        writer = csv.DictWriter(buf, fields, restval="", extrasaction="ignore")
        writer.writeheader()
        for record in records:
            writer.writerow(_csv_row(record))
    atomic_write_bytes(path, buf.getvalue().encode("utf-8"))


def _repair_tail(path: Path) -> None:
    """Make ``path`` end with a newline: finish a complete last record, cut a partial one."""
    try:
        data = read_regular_file(path, MAX_METRICS_BYTES)
    except FileNotFoundError:
        return
    if not data or data.endswith(b"\n"):
        return
    line_start = data.rfind(b"\n") + 1  # 0 when the whole file is one unterminated line
    try:
        complete = isinstance(parse_json(data[line_start:], str(path)), dict)
    except ValueError:
        complete = False
    with open(path, "rb+") as f:
        if complete:
            f.seek(0, os.SEEK_END)
            f.write(b"\n")
        else:
            f.truncate(line_start)
        f.flush()
        os.fsync(f.fileno())


def _safe_name(kind: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", kind).strip(".") or "misc"
