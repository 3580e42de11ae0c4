"""An iteration's self-play games played in parts, each part kept in the run folder as soon as
it ends, so that Ctrl-C (or a kill) loses at most the part in progress and a resumed run plays
only the parts that are missing.

A part is at most ``parallel_games`` games (the games in flight anyway: they start together and
end at about the same time, so a part in progress holds few finished games). Part 0 is played
with the job's seed, part k > 0 with a seed derived from it (:func:`part_seed`), so an iteration
of at most ``parallel_games`` games plays exactly the games one call would. A part's file
(``selfplay-parts/iter-NNNNN-part-KKK.npz``, written atomically) holds its records and the key
of the job it belongs to (games, seed, network version, options, part size); a resumed run uses
the parts of the iteration it plays whose key is its job's, and removes any other (so a resume
that changes ``threads`` or ``parallel_games`` plays the iteration's games again). The parts of
an iteration are removed once its checkpoint is committed (:func:`remove_parts`).

The progress bar counts the finished games, and between them moves by an estimate, so that a
long first part (all its games end at about the same time) shows progress and an ETA from its
first seconds: the network evaluations done, over the evaluations a game takes (simulations
times the running average game length), as games played; shown as a percentage. Below a
training run's line it leaves nothing behind when it closes.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

import numpy as np
from tqdm import tqdm

from pyaz import _core
from pyaz.common.faults import fault_point
from pyaz.common.runlog import atomic_write_bytes
from pyaz.games import NetworkGameState
from pyaz.methods.alphazero.selfplay_engine import SelfPlayJob
from pyaz.search import SelfPlay, SelfPlayRecords

__all__ = ["PARTS_DIR", "PartsPlay", "kept_games", "merge_records", "part_seed", "remove_parts"]

PARTS_DIR = "selfplay-parts"
_NAME = re.compile(r"iter-(\d{5,})-part-(\d{3,})\.npz")
_COUNTS = ("evaluator_calls", "evaluated_leaves", "full_searches", "cheap_searches")
_REFRESH_S = 0.5  # the bar is redrawn at most this often between finished games


def part_seed(seed: int, part: int) -> int:
    """The self-play seed of part ``part`` of a job seeded ``seed``: ``seed`` for part 0, else
    ``seed`` plus ``part`` times the 64-bit golden ratio, modulo 2^64 (distinct parts, distinct
    games)."""
    return seed if part == 0 else (seed + part * 0x9E3779B97F4A7C15) % 2**64


def merge_records(parts: list[SelfPlayRecords]) -> SelfPlayRecords:
    """The records of ``parts`` as one job's: positions and games concatenated in order, game
    ids shifted by the games of the parts before, the counts summed (parts without games, such
    as a Ray worker's empty share, are left out)."""
    parts = [part for part in parts if part.num_games > 0]
    if not parts:
        raise ValueError("no self-play records to merge")
    offsets = np.cumsum([0, *(part.num_games for part in parts[:-1])])
    values: dict[str, Any] = {}
    for item in fields(SelfPlayRecords):
        name = item.name
        if name in _COUNTS:
            values[name] = sum(int(getattr(part, name)) for part in parts)
        elif name == "game_id":
            shifted = [part.game_id + offset for part, offset in zip(parts, offsets, strict=True)]
            values[name] = np.concatenate(shifted).astype(parts[0].game_id.dtype)
        else:
            values[name] = np.concatenate([getattr(part, name) for part in parts])
    return SelfPlayRecords(**values)


def part_path(folder: Path, iteration: int, part: int) -> Path:
    return folder / PARTS_DIR / f"iter-{iteration:05d}-part-{part:03d}.npz"


def _parts_of(folder: Path) -> list[tuple[int, int, Path]]:
    """(iteration, part, path) of every part file in ``folder``."""
    paths = (folder / PARTS_DIR).glob("iter-*-part-*.npz")
    found = ((_NAME.fullmatch(path.name), path) for path in paths)
    return sorted((int(match[1]), int(match[2]), path) for match, path in found if match)


def remove_parts(folder: Path, through: int) -> int:
    """Removes the part files of iterations up to ``through`` (committed ones), and their
    folder once empty; returns how many files."""
    removed = 0
    for iteration, _, path in _parts_of(folder):
        if iteration <= through:
            path.unlink(missing_ok=True)
            removed += 1
    with contextlib.suppress(OSError):  # not empty, or not there
        (folder / PARTS_DIR).rmdir()
    return removed


def kept_games(folder: Path, iteration: int) -> int:
    """The games in the part files of ``iteration`` (what a resumed run will not play again)."""
    total = 0
    for number, _, path in _parts_of(folder):
        if number == iteration:
            try:
                with np.load(path, allow_pickle=False) as archive:
                    total += int(archive["game_status"].shape[0])
            except (OSError, ValueError, KeyError):
                continue
    return total


def _to_bytes(records: SelfPlayRecords, key: str) -> bytes:
    arrays = {name: np.asarray(value) for name, value in asdict(records).items()}
    buffer = io.BytesIO()
    np.savez(buffer, key=np.array(key), **arrays)  # type: ignore[arg-type]  # allow_pickle
    return buffer.getvalue()


def _from_file(path: Path, key: str) -> SelfPlayRecords | None:
    """The records in ``path`` if it is a readable part of the job ``key``; else None."""
    try:
        with np.load(path, allow_pickle=False) as archive:
            if str(archive["key"]) != key:
                return None
            values = {item.name: archive[item.name] for item in fields(SelfPlayRecords)}
            values |= {name: int(values[name]) for name in _COUNTS}
    except (OSError, ValueError, KeyError, EOFError):
        return None
    return SelfPlayRecords(**values)


@dataclass
class _Counting:
    """The evaluator, counting the positions it evaluates and redrawing the bar with the games
    played estimated from them (see the module docstring)."""

    inner: Callable[[np.ndarray], Any] | str  # a network, or a name the search knows
    bar: Any
    per_game: float  # evaluations a game takes (an estimate)
    first: int = 0  # games finished before the part in progress
    games: int = 0  # the part's games
    finished: int = 0  # the part's finished games
    leaves: int = 0  # the part's evaluations
    shown: float = 0.0

    def __call__(self, planes: np.ndarray) -> Any:
        self.leaves += int(planes.shape[0])
        if time.monotonic() - self.shown >= _REFRESH_S:
            self.show()
        assert callable(self.inner)
        return self.inner(planes)

    def start(self, first: int, games: int) -> None:
        self.first, self.games, self.finished, self.leaves = first, games, 0, 0

    def show(self) -> None:
        """The bar at the finished games plus the estimated share of the others."""
        self.shown = time.monotonic()
        estimate = min(self.leaves / self.per_game, self.games - 0.1)
        self.bar.n = self.first + (
            self.games if self.finished == self.games else max(float(self.finished), estimate)
        )
        self.bar.set_description_str(_label(self.first + self.finished, self.bar.total), False)
        self.bar.refresh()


def _label(finished: int, games: int) -> str:
    return f"self-play {finished}/{games} games"


class PartsPlay:
    """Plays a :class:`~pyaz.methods.alphazero.selfplay_engine.SelfPlayJob` in this process, in
    parts kept
    in ``folder`` (see the module docstring)."""

    def __init__(self, folder: Path, start: NetworkGameState, progress: bool) -> None:
        self.folder = folder
        self.start = start
        self.progress = progress
        self.restored = 0  # the games of the last play() read from kept parts, not played

    def play(
        self, job: SelfPlayJob, iteration: int, evaluator: Any, mean_length: float
    ) -> SelfPlayRecords:
        """The job's records: the kept parts of ``iteration`` read, the others played (each
        written when it ends; :attr:`restored` says how many games were read). ``mean_length``:
        the running average game length, for the progress estimate."""
        size = max(1, int(job.options.get("parallel_games", job.games)))
        sizes = [min(size, job.games - first) for first in range(0, job.games, size)]
        key = json.dumps(
            {"games": job.games, "seed": job.seed, "version": job.version, "part": size,
             "options": job.options},
            sort_keys=True,
        )  # fmt: skip
        parts = self._kept(iteration, key, len(sizes))
        done = self.restored = sum(part.num_games for part in parts.values())
        bar = tqdm(
            total=job.games, initial=done, desc=_label(done, job.games), unit="game",
            disable=not self.progress, leave=None,  # None: kept only when it is the only bar
            bar_format="{desc}: {percentage:5.1f}%|{bar}| [{elapsed}<{remaining}]",
        )  # fmt: skip
        simulations = int(job.options.get("simulations", 1))
        counting = _Counting(evaluator, bar, max(1.0, simulations * mean_length), first=done)
        try:
            for index, games in enumerate(sizes):
                if index in parts:
                    continue
                parts[index] = self._play_part(job, index, games, counting)
                atomic_write_bytes(
                    part_path(self.folder, iteration, index), _to_bytes(parts[index], key)
                )
        finally:
            bar.close()
        return merge_records([parts[index] for index in range(len(sizes))])

    def _kept(self, iteration: int, key: str, count: int) -> dict[int, SelfPlayRecords]:
        """The readable parts of ``iteration`` that belong to the job ``key``; every other part
        file of it is removed (said on stderr)."""
        kept: dict[int, SelfPlayRecords] = {}
        for number, index, path in _parts_of(self.folder):
            if number != iteration:
                continue
            records = _from_file(path, key) if index < count else None
            if records is None:
                print(
                    f"note: {path} is no readable part of this iteration's games: removed",
                    file=sys.stderr,
                )
                path.unlink(missing_ok=True)
            else:
                kept[index] = records
        return kept

    def _play_part(
        self, job: SelfPlayJob, index: int, games: int, counting: _Counting
    ) -> SelfPlayRecords:
        player = SelfPlay(self.start, seed=part_seed(job.seed, index), **job.options)
        counting.start(counting.first + counting.finished, games)

        def on_game_end(finished: int) -> None:
            counting.finished = finished
            counting.show()
            fault_point("self-play-game")

        evaluator = counting if callable(counting.inner) else counting.inner  # "uniform": as is
        raw = _core.self_play(
            player.start, evaluator, on_game_end, games=games, **player.options
        )  # as SelfPlay.play, with this bar
        return SelfPlayRecords(**raw)
