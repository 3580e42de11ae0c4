"""A match's journal: ``match.jsonl`` in a ``pyaz-arena --out`` folder, so that a match killed at
any moment (Ctrl-C, ``kill``, a lost machine) resumes where it stopped.

The first line names the match (A, B, the game and its options, the seed, the opening plies);
each later line is one finished game, appended and synced to disk as the game ends. Running the
same match again with the same ``--out`` reads the games already played and plays only the
others: nothing is lost and no game is counted twice. A larger ``--games`` extends the match
(the openings of pair ``k`` depend only on the seed and ``k``); games of the file beyond a
smaller ``--games`` are left out of the tally, not removed. The folder is locked while a match
plays in it (:class:`~pyaz.common.folder_lock.FolderLock`), so two processes never write one
journal.

The file may come from anyone, damaged or hostile: it is read as bounded JSON, never executed;
each game's fields are checked, its opening must be the one the match draws for it, and a board
game's moves are replayed from the start (each legal, the end as recorded), so a damaged line
is a one-line ValueError naming the file, the line and the field. A last line cut short by a
killed write is dropped (that game is played again).
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any, BinaryIO, cast

from pyaz import _core
from pyaz.common.checked_json import MAX_INT, Fields, parse_json, read_regular_file
from pyaz.common.folder_lock import FolderLock
from pyaz.eval.parallel import MatchPlan
from pyaz.games.state import BoardGameState, GameState, SeededGameState, winner

__all__ = ["JOURNAL", "MAX_JOURNAL_BYTES", "MatchJournal"]

JOURNAL = "match.jsonl"
"""The journal's name in a ``--out`` folder."""

MAX_JOURNAL_BYTES = 256 * 2**20
"""The largest journal read (some 100,000 games of Go on 19x19)."""

KIND = "pyaz-arena match"
"""The ``journal`` field of the first line."""

_STATUSES = ("DRAW", "FIRST_PLAYER_WIN", "SECOND_PLAYER_WIN")


def _header(plan: MatchPlan, start: GameState) -> dict[str, Any]:
    """What the first line holds: what makes two matches the same match."""
    header = {
        "journal": KIND,
        "a": plan.a,
        "b": plan.b,
        "game": plan.game,
        "game_options": plan.options,
        "seed": plan.seed,
        "opening_plies": plan.opening_plies(start),
    }
    return dict(json.loads(json.dumps(header)))  # as the file holds it (tuples as lists)


class MatchJournal:
    """The journal of one match in ``out``: :meth:`open` reads (or starts) it, :meth:`append`
    adds a finished game, :meth:`close` closes it."""

    def __init__(self, path: Path, file: BinaryIO, lock: FolderLock) -> None:
        self.path = path
        self._file = file
        self._lock = lock

    @classmethod
    def open(
        cls, out: Path, plan: MatchPlan, start: GameState
    ) -> tuple[MatchJournal, dict[int, dict[str, Any]], int]:
        """The journal of ``plan`` in ``out`` (started when missing), the games of it already
        played with an index below ``plan.games`` (by index) and the number of games beyond.
        The folder is locked until :meth:`close` (two processes never play one match).

        ValueError naming the file when it is not a journal, holds another match (naming the
        field that differs), or a game line is damaged;
        :class:`~pyaz.common.folder_lock.FolderInUseError` when another process plays in
        ``out``; OSError when the file cannot be read or written."""
        lock = FolderLock(out, "pyaz-arena match").acquire()
        try:
            journal, played, beyond = cls._open(out / JOURNAL, plan, start, lock)
        except BaseException:
            lock.release()
            raise
        return journal, played, beyond

    @classmethod
    def _open(
        cls, path: Path, plan: MatchPlan, start: GameState, lock: FolderLock
    ) -> tuple[MatchJournal, dict[int, dict[str, Any]], int]:
        header = _header(plan, start)
        played: dict[int, dict[str, Any]] = {}
        beyond = 0
        try:
            data = read_regular_file(path, MAX_JOURNAL_BYTES)
        except FileNotFoundError:
            data = b""
        if b"\n" not in data:  # none, or its first line cut short by a kill: the match starts
            if not _json_line(header).startswith(data):
                raise ValueError(f"{path}: not a pyaz-arena match journal (no first line)")
            file: BinaryIO = open(path, "wb")  # noqa: SIM115 (closed in close())
            _write_line(file, header, path)
            return cls(path, file, lock), played, beyond
        kept = data.rfind(b"\n") + 1  # a last line cut short by a kill: that game plays again
        lines = data[:kept].split(b"\n")[:-1]
        _check_header(lines[0], header, path)
        checker = _GameChecker(plan, start, path)
        for number, line in enumerate(lines[1:], start=2):
            if not line.strip():
                continue
            index, game = checker.check(line, number)
            if game is None:
                beyond += 1
            else:
                played[index] = game
        file = open(path, "r+b")  # noqa: SIM115 (closed in close())
        file.truncate(kept)
        file.seek(0, os.SEEK_END)
        return cls(path, file, lock), played, beyond

    def append(self, game: dict[str, Any]) -> None:
        """Adds a finished game (a :meth:`~pyaz.eval.parallel.MatchWorker.play` record) and
        syncs it to disk; OSError naming the file when the write fails."""
        _write_line(self._file, game, self.path)

    def close(self) -> None:
        """Closes the file and unlocks the folder (idempotent)."""
        self._file.close()
        self._lock.release()


def _json_line(record: dict[str, Any]) -> bytes:
    return (json.dumps(record) + "\n").encode("utf-8")


def _write_line(file: BinaryIO, record: dict[str, Any], path: Path) -> None:
    try:
        file.write(_json_line(record))
        file.flush()
        os.fsync(file.fileno())
    except OSError as error:
        raise OSError(error.errno, error.strerror, str(path)) from error


def _check_header(line: bytes, expected: dict[str, Any], path: Path) -> None:
    """ValueError unless ``line`` is a journal's first line naming the match ``expected``."""
    where = f"{path} line 1"
    try:
        value = parse_json(line, where)
    except ValueError:
        value = None
    if not isinstance(value, dict) or value.get("journal") != KIND:
        raise ValueError(f"{path}: not a pyaz-arena match journal (its first line names no match)")
    for key, wanted in expected.items():
        if value.get(key) != wanted:
            raise ValueError(
                f"{path} holds another match: its {key} is {value.get(key)!r}, this match's "
                f"{wanted!r} (give another --out, or remove the file to start this one there)"
            )


class _GameChecker:
    """Checks the game lines of one journal against its match."""

    def __init__(self, plan: MatchPlan, start: GameState, path: Path) -> None:
        self.plan = plan
        self.start = start
        self.path = path
        self.seen: set[int] = set()
        self.openings = plan.openings_for(start)
        self.replays = isinstance(start, BoardGameState) and not isinstance(start, SeededGameState)

    def check(self, line: bytes, number: int) -> tuple[int, dict[str, Any] | None]:
        """The index of the game on line ``number`` (from 1) and the game, checked; None for
        the game when its index is beyond the match's games (left for a longer match)."""
        where = f"{self.path} line {number}"
        fields = Fields(parse_json(line, where), where)
        index = fields.integer("index", high=MAX_INT)
        if index in self.seen:
            raise ValueError(f"{where}: game {index + 1} is in the file twice")
        self.seen.add(index)
        if index >= self.plan.games:
            return index, None
        a_first = fields.boolean("a_first")
        if a_first != self.plan.a_first(index):
            raise fields.problem("a_first", str(self.plan.a_first(index)).lower(), a_first)
        opening = fields.integers("opening")
        expected = self.openings[index // 2] if self.openings else []
        if opening != expected:
            raise ValueError(
                f"{where}: game {index + 1}'s opening is not the one this match draws for it "
                f"(the file holds {opening}, the match {expected})"
            )
        status = fields.text("status", choices=_STATUSES)
        win = winner(getattr(_core.Status, status))
        recorded = fields.data.get("winner")
        if recorded != win or isinstance(recorded, bool):
            raise fields.problem("winner", "null" if win is None else str(win), recorded)
        resigned = fields.optional_integer("resigned", high=1)
        actions = fields.data.get("actions")
        if not isinstance(actions, list):
            raise fields.problem("actions", "a list of moves", actions)
        if self.replays:
            self._replay(fields, index, [*opening, *fields.integers("actions")], status, resigned)
        else:
            for ply, action in enumerate(actions):
                _check_target(fields, ply, action)
        return index, {
            "index": index,
            "a_first": a_first,
            "first": fields.text("first"),
            "second": fields.text("second"),
            "opening": opening,
            "actions": actions,
            "status": status,
            "winner": win,
            "resigned": resigned,
            "seconds": fields.number("seconds"),
        }

    def _replay(
        self, fields: Fields, index: int, moves: list[int], status: str, resigned: int | None
    ) -> None:
        """ValueError naming the line unless the moves (the opening's first) replay, each
        legal, to the recorded end."""
        state = cast(BoardGameState, self.start.clone())
        for ply, action in enumerate(moves):
            if state.is_terminal() or action not in state.legal_actions():
                raise ValueError(
                    f"{fields.where}: game {index + 1}'s move {action} at ply {ply} is illegal"
                )
            state.apply(action)
        if resigned is None:
            end = state.status().name if state.is_terminal() else "not over"
        elif state.is_terminal() or int(state.to_move()) != resigned:
            end = "not where the side that resigned is to move"
        else:
            end = "SECOND_PLAYER_WIN" if resigned == 0 else "FIRST_PLAYER_WIN"
        if end != status:
            raise ValueError(
                f"{fields.where}: game {index + 1} replays to {end}, the file says {status}"
            )


def _check_target(fields: Fields, number: int, action: object) -> None:
    """A game with chance (curling): each move is a target [x, y, spin]."""
    ok = (
        isinstance(action, list)
        and len(action) == 3
        and all(isinstance(v, float | int) and not isinstance(v, bool) for v in action)
        and all(math.isfinite(v) and abs(v) <= MAX_INT for v in action)
        and isinstance(action[2], int)
    )
    if not ok:
        raise fields.problem(f"actions[{number}]", "a target [x, y, spin]", action)
