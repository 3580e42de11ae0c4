"""A journal: an append-only JSON-lines file that long work (a match, a tournament) writes one
finished item at a time, so that the same command after a kill resumes where it stopped.

The first line is the header: ``{"journal": KIND, ...}``, the fields that make two pieces of
work the same work. Each later line is one finished item, written unbuffered and synced to disk
as the item ends. :meth:`Journal.open` locks the folder
(:class:`~pyaz.common.folder_lock.FolderLock`: two processes never write one journal), reads
the file back (bounded: at most :data:`MAX_JOURNAL_BYTES`, each line at most
:data:`MAX_LINE_BYTES`; a last line cut short by a kill is dropped, and that item is done
again), checks the header against the work's and hands the item lines to the caller, who
checks each (the file may come from anyone: it is parsed as JSON, never executed).
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from pyaz.common.checked_json import MAX_JSON_BYTES, described, parse_json, read_regular_file
from pyaz.common.folder_lock import FolderLock
from pyaz.common.runlog import fsync_dir

__all__ = ["ANOTHER", "MAX_JOURNAL_BYTES", "MAX_LINE_BYTES", "Journal", "file_sha256"]

MAX_JOURNAL_BYTES = MAX_JSON_BYTES
"""The largest journal read (some 10,000 games of Go on 19x19)."""

MAX_LINE_BYTES = 2**20
"""The longest line read (a game of Go on 19x19 takes some 5 KB)."""

ANOTHER = "give another --out, or remove the file to start this one there"
"""What the message of a file that holds other work says to do."""


class Journal:
    """The journal at ``path``, open for appending, its folder locked: :meth:`open` reads (or
    starts) it, :meth:`append` adds one line, :meth:`close` closes it and unlocks the folder.
    ``lines`` holds the item lines read back: (line number from 1, the line's bytes)."""

    def __init__(
        self, path: Path, descriptor: int, lock: FolderLock, lines: list[tuple[int, bytes]]
    ) -> None:
        self.path = path
        self.lines = lines
        self._descriptor: int | None = descriptor
        self._lock = lock

    @classmethod
    def open(
        cls,
        path: Path,
        header: dict[str, Any],
        other: str = ANOTHER,
        *,
        restart_other: bool = False,
    ) -> Journal:
        """The journal at ``path`` whose first line is ``header`` (started when missing).

        ``header["journal"]`` names the kind of work, its last word what one piece of it is
        ("pyaz-arena match"); ``other`` is what the message adds when the file holds another
        (what to do: "give another --out, or remove the file"). With ``restart_other`` a file
        that holds another, or is no journal, is started afresh instead (a folder the caller
        owns). ValueError naming the file when it is not this kind of journal, holds other
        work (naming the field that differs) or a line is too long;
        :class:`~pyaz.common.folder_lock.FolderInUseError` when another process holds the
        folder; OSError when the file cannot be read or written."""
        lock = FolderLock(path.parent, str(header["journal"])).acquire()
        try:
            return cls._open(path, _as_written(header), other, restart_other, lock)
        except BaseException:
            lock.release()
            raise

    @classmethod
    def _open(
        cls,
        path: Path,
        header: dict[str, Any],
        other: str,
        restart_other: bool,
        lock: FolderLock,
    ) -> Journal:
        try:
            data = read_regular_file(path, MAX_JOURNAL_BYTES)
        except FileNotFoundError:
            data = b""
        started = b"\n" in data  # a whole first line
        problem = _problem(data.split(b"\n", 1)[0], header, path, other) if started else ""
        if restart_other and (problem or not started):
            data = b""  # no journal, or another's, in a folder the caller owns: started afresh
        if b"\n" not in data:  # none, or its first line cut short by a kill: the work starts
            if not _json_line(header).startswith(data):
                raise ValueError(f"{path}: not a {header['journal']} journal (no first line)")
            journal = cls(path, _open_descriptor(path, 0), lock, [])
            journal.append(header)
            fsync_dir(path.parent)  # the new file survives a power loss
            return journal
        if problem:
            raise ValueError(problem)
        kept = data.rfind(b"\n") + 1  # a last line cut short by a kill: that item is done again
        lines = data[:kept].split(b"\n")
        items: list[tuple[int, bytes]] = []
        for number, line in enumerate(lines[1:-1], start=2):
            if not line.strip():
                continue
            if len(line) > MAX_LINE_BYTES:
                raise ValueError(f"{path} line {number}: longer than {MAX_LINE_BYTES} bytes")
            items.append((number, line))
        del data, lines
        return cls(path, _open_descriptor(path, kept), lock, items)

    def append(self, record: dict[str, Any]) -> None:
        """Adds ``record`` as one line and syncs it to disk; OSError naming the file when the
        write fails."""
        assert self._descriptor is not None, "the journal is closed"
        data = _json_line(record)
        try:
            while data:
                data = data[os.write(self._descriptor, data) :]
            os.fsync(self._descriptor)
        except OSError as error:
            raise OSError(error.errno, error.strerror, str(self.path)) from error

    def close(self) -> None:
        """Closes the file and unlocks the folder (idempotent; never raises)."""
        descriptor, self._descriptor = self._descriptor, None
        try:
            if descriptor is not None:
                os.close(descriptor)
        except OSError:
            pass  # every line was synced when written
        finally:
            self._lock.release()


def file_sha256(path: Path) -> str:
    """The SHA-256 of the file at ``path`` (a journal's header names a player's network by
    it, so that a network that changed between a stop and the resume is another player)."""
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        for block in iter(lambda: stream.read(2**20), b""):
            digest.update(block)
    return digest.hexdigest()


def _as_written(header: dict[str, Any]) -> dict[str, Any]:
    """``header`` as the file holds it (tuples as lists)."""
    return dict(json.loads(json.dumps(header)))


def _open_descriptor(path: Path, keep: int) -> int:
    """The journal open for writing at its end, cut to its first ``keep`` bytes (a torn last
    line dropped); OSError naming it."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o644)
    try:
        os.ftruncate(descriptor, keep)
        os.lseek(descriptor, 0, os.SEEK_END)
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor


def _json_line(record: dict[str, Any]) -> bytes:
    return (json.dumps(record) + "\n").encode("utf-8")


def _problem(line: bytes, expected: dict[str, Any], path: Path, other: str) -> str:
    """Why ``line`` is not the first line of the journal ``expected`` ("" when it is)."""
    kind = str(expected["journal"])
    noun = kind.split()[-1]
    try:
        value = parse_json(line, f"{path} line 1") if len(line) <= MAX_LINE_BYTES else None
    except ValueError:
        value = None
    if not isinstance(value, dict) or value.get("journal") != kind:
        return f"{path}: not a {kind} journal (its first line names no {noun})"
    for key, wanted in expected.items():
        if value.get(key) != wanted:
            return (
                f"{path} holds another {noun}: its {key} is {_shown(value.get(key))}, this "
                f"{noun}'s {_shown(wanted)} ({other})"
            )
    return ""


def _shown(value: object) -> str:
    """A header field for a message: as JSON when short, else described."""
    text = json.dumps(value)
    return text if len(text) <= 200 else described(value)
