"""Typed reading of the JSON that pyaz reads back (a match's ``summary.json``, a run's
``metrics.jsonl``, ...): such a file may come from someone else, damaged or hostile, so nothing
in it is used before its type and range are checked.

:func:`read_json_file` reads one JSON document from a regular file of bounded size (a FIFO, a
device or a folder is refused before it is read); :func:`parse_json` parses text already read.
Both refuse nesting deeper than :data:`MAX_DEPTH`. :class:`Fields` then hands out a JSON
object's fields, each checked as it is read (an integer is never a boolean, a float or NaN; a
boolean is never the string ``"false"``; counts are non-negative and bounded). Every failure is
a one-line ValueError that names the place (the file, and the line of a JSONL file), the field
(``results[3].a_first``) and what it holds.

>>> fields = Fields({"game": 3, "a_first": "false"}, "summary.json")
>>> fields.integer("game")
3
>>> fields.boolean("a_first")
Traceback (most recent call last):
...
ValueError: summary.json: a_first must be true or false, not the string 'false'
"""

from __future__ import annotations

import json
import math
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

from pyaz.common.shown import cut

__all__ = [
    "MAX_DEPTH",
    "MAX_INT",
    "MAX_JSON_BYTES",
    "MAX_TEXT",
    "Fields",
    "NotJSONError",
    "NotRegularFileError",
    "described",
    "parse_json",
    "read_json_file",
    "read_regular_file",
    "read_regular_start",
]

#: The deepest nesting of arrays and objects accepted (pyaz's files nest three levels or so).
MAX_DEPTH = 32
#: The largest magnitude of an integer read back (the largest a float holds exactly).
MAX_INT = 2**53
#: The longest string read back, in characters.
MAX_TEXT = 65_536
#: The largest JSON file read back where its reader names no ceiling of its own (pyaz writes
#: a few KiB to a few MiB: an experiment's plan, a run's progress, a report's cache).
MAX_JSON_BYTES = 64 * 2**20

_REQUIRED: Any = object()  # the default of a field that must be present


def described(value: object) -> str:
    """A short description of a JSON value for an error message (at most about 60 characters):
    ``the string 'false'``, ``true``, ``null``, ``NaN``, ``a list``, ``an object``, ``-3``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f"the string {cut(value, quote=True)}"
    if isinstance(value, int):
        return str(value) if abs(value) < 10**40 else "an integer of more than 40 digits"
    if isinstance(value, float):
        return "NaN" if math.isnan(value) else repr(value) if math.isfinite(value) else "infinity"
    if isinstance(value, list):
        return "a list"
    return "an object" if isinstance(value, dict) else type(value).__name__


class NotRegularFileError(ValueError):
    """A path that is no regular file (a FIFO, a device, a folder) where pyaz reads a file it
    wrote: refused before anything is read from it, so that nothing hangs."""


def open_regular(path: str | os.PathLike[str]) -> BinaryIO:
    """``path`` opened for reading bytes when it is a regular file; :class:`NotRegularFileError`
    naming it when it is something else (opened without blocking and checked before any read).
    OSError (FileNotFoundError included) as :func:`os.open` raises it."""
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        regular = stat.S_ISREG(os.fstat(descriptor).st_mode)
    except OSError:
        os.close(descriptor)
        raise
    if not regular:
        os.close(descriptor)
        raise NotRegularFileError(f"{path}: not a regular file, so not a file pyaz wrote")
    return os.fdopen(descriptor, "rb")


def read_regular_start(path: Path, max_bytes: int) -> tuple[bytes, bool]:
    """The first ``max_bytes`` bytes of the regular file ``path``, and whether they are the
    whole file; :class:`NotRegularFileError` naming it when it is something else (opened
    without blocking and checked before any read). OSError (FileNotFoundError included) as
    :func:`os.open` raises it."""
    with open_regular(path) as file:
        data = file.read(max_bytes + 1)
    return data[:max_bytes], len(data) <= max_bytes


def read_regular_file(path: Path, max_bytes: int) -> bytes:
    """The bytes of the regular file ``path``; ValueError naming it when it is something else
    (:func:`read_regular_start`) or larger than ``max_bytes``. OSError (FileNotFoundError
    included) as :func:`os.open` raises it."""
    data, whole = read_regular_start(path, max_bytes)
    if not whole:
        raise ValueError(f"{path}: larger than {max_bytes} bytes, more than pyaz writes there")
    return data


def _too_deep(value: object) -> bool:
    """Whether ``value`` nests arrays and objects more than :data:`MAX_DEPTH` levels deep."""
    pending: list[tuple[object, int]] = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        children: list[Any] = []
        if isinstance(item, dict):
            children = list(item.values())
        elif isinstance(item, list):
            children = item
        if children and depth >= MAX_DEPTH:
            return True
        pending += [(child, depth + 1) for child in children]
    return False


class NotJSONError(ValueError):
    """Bytes that are no JSON text at all (cut short, or something else), as against JSON
    that pyaz would not have written (nested too deeply, an integer too long)."""


def parse_json(text: str | bytes, where: str) -> Any:
    """The JSON value of ``text`` (UTF-8 bytes or a string); ValueError naming ``where`` (the
    file, the line) when it is not UTF-8, holds an integer too long to convert, or nests
    deeper than :data:`MAX_DEPTH`; :class:`NotJSONError` when it is no JSON."""
    try:
        value = json.loads(text)
    except UnicodeDecodeError:  # a character cut in two by a killed write, too
        raise NotJSONError(f"{where}: not UTF-8 text, so not JSON pyaz wrote") from None
    except json.JSONDecodeError as error:
        raise NotJSONError(f"{where}: not JSON ({error.msg}, line {error.lineno})") from None
    except RecursionError:
        raise ValueError(f"{where}: nests deeper than {MAX_DEPTH} levels") from None
    except ValueError:  # an integer of more digits than Python converts
        raise ValueError(f"{where}: not JSON pyaz wrote (an integer far too long)") from None
    if _too_deep(value):
        raise ValueError(f"{where}: nests deeper than {MAX_DEPTH} levels")
    return value


def read_json_file(path: Path, max_bytes: int) -> Any:
    """The JSON value in the regular file ``path`` of at most ``max_bytes`` bytes
    (:func:`read_regular_file`, then :func:`parse_json`); every failure but a missing file
    (FileNotFoundError) is a one-line ValueError naming the file."""
    try:
        data = read_regular_file(path, max_bytes)
    except FileNotFoundError:
        raise
    except OSError as error:
        raise ValueError(f"{path}: cannot be read ({error.strerror or error})") from None
    return parse_json(data, str(path))


class Fields:
    """The fields of a JSON object read from a file, each checked as it is read.

    ``where`` names the place (``"run/metrics.jsonl line 4"``), ``prefix`` the object within
    it (``"results[2]."``). Each accessor takes the field's name and, where the field may be
    absent, its ``default``; it returns the value with its Python type, or raises a one-line
    ValueError ``"WHERE: PREFIXFIELD must be WHAT, not WHAT IT HOLDS"``.
    """

    def __init__(self, data: object, where: str, prefix: str = "") -> None:
        if not isinstance(data, dict):
            what = f"{prefix.rstrip('.')} must be" if prefix else "must hold"
            raise ValueError(f"{where}: {what} a JSON object, not {described(data)}")
        self.data: dict[str, Any] = data
        self.where = where
        self.prefix = prefix

    def problem(self, key: str, expected: str, value: object) -> ValueError:
        """The error for field ``key`` holding ``value`` where ``expected`` belongs."""
        return ValueError(
            f"{self.where}: {self.prefix}{key} must be {expected}, not {described(value)}"
        )

    def _get(self, key: str, default: Any) -> Any:
        if key in self.data:
            return self.data[key]
        if default is _REQUIRED:
            raise ValueError(f"{self.where}: {self.prefix}{key} is missing")
        return default

    def integer(self, key: str, default: Any = _REQUIRED, low: int = 0, high: int = MAX_INT) -> int:
        """Field ``key``: an integer in [``low``, ``high``] (never a boolean or a float)."""
        value = self._get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self.problem(key, f"an integer from {low} to {high}", value)
        return value

    def optional_integer(self, key: str, low: int = 0, high: int = MAX_INT) -> int | None:
        """Field ``key``: an integer in [``low``, ``high``], or None when null or absent."""
        return None if self.data.get(key) is None else self.integer(key, low=low, high=high)

    def number(self, key: str, default: Any = _REQUIRED, finite: bool = True) -> float:
        """Field ``key``: a number (never a boolean or a string), finite unless ``finite`` is
        False, with a magnitude of at most :data:`MAX_INT` when an integer."""
        value = self._get(key, default)
        ok = isinstance(value, float) or (
            isinstance(value, int) and not isinstance(value, bool) and abs(value) <= MAX_INT
        )
        if not ok or (finite and not math.isfinite(value)):
            raise self.problem(key, "a finite number" if finite else "a number", value)
        return float(value)

    def boolean(self, key: str, default: Any = _REQUIRED) -> bool:
        """Field ``key``: true or false (never a string such as ``"false"``, never 0 or 1)."""
        value = self._get(key, default)
        if not isinstance(value, bool):
            raise self.problem(key, "true or false", value)
        return value

    def text(
        self, key: str, default: Any = _REQUIRED, choices: tuple[str, ...] | None = None
    ) -> str:
        """Field ``key``: a string of at most :data:`MAX_TEXT` characters, one of
        ``choices`` when given."""
        value = self._get(key, default)
        if choices is not None and value not in choices:
            raise self.problem(key, " or ".join(choices), value)
        if not isinstance(value, str) or len(value) > MAX_TEXT:
            raise self.problem(key, f"a string of at most {MAX_TEXT} characters", value)
        return value

    def integers(self, key: str, low: int = 0, high: int = MAX_INT) -> list[int]:
        """Field ``key``: a list of integers in [``low``, ``high``] (an absent field or null
        is an empty list)."""
        values = self.data.get(key)
        if values is None:
            return []
        if not isinstance(values, list):
            raise self.problem(key, "a list of integers", values)
        for index, value in enumerate(values):
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise self.problem(f"{key}[{index}]", f"an integer from {low} to {high}", value)
        return values

    def scalars(self, key: str) -> dict[str, Any]:
        """Field ``key``: an object whose values are all strings, numbers, booleans or null
        (settings such as a game's options); an absent field or null is an empty dict."""
        value = self.data.get(key)
        if value is None:
            return {}
        if not isinstance(value, dict):
            raise self.problem(key, "an object", value)
        inner = Fields(value, self.where, f"{self.prefix}{key}.")
        for name, item in value.items():
            inner.scalar(name, item)
        return value

    def scalar(self, key: str, value: object) -> None:
        """Checks that ``value`` (field ``key``) is a string of at most :data:`MAX_TEXT`
        characters, a number (an integer of magnitude at most :data:`MAX_INT`), a boolean or
        null."""
        ok = value is None or isinstance(value, bool | float)
        ok = ok or (isinstance(value, int) and abs(value) <= MAX_INT)
        ok = ok or (isinstance(value, str) and len(value) <= MAX_TEXT)
        if not ok:
            raise self.problem(key, "a string, a number, true, false or null", value)

    def objects(self, key: str) -> Iterator[Fields]:
        """Field ``key``: a list of JSON objects, each as :class:`Fields` named
        ``KEY[i].``."""
        values = self._get(key, _REQUIRED)
        if not isinstance(values, list):
            raise self.problem(key, "a list of objects", values)
        for index, value in enumerate(values):
            yield Fields(value, self.where, f"{self.prefix}{key}[{index}].")
