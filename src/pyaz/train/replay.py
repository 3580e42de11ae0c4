"""The experience buffer: self-play positions kept game by game, oldest first.

Two replacement policies from the seeds: drop a fraction of the oldest games after each training
(seed 000's experience replacement, 0.1), or keep only the games of the last ``rs`` iterations
(seed 001's retrain window). Drawn games can be dropped with a probability on arrival (seed 000's
drop-draw chance).

Each position keeps its game's outcome z and the search's root value q (both for the player to move
there), from which :func:`pyaz.methods.alphazero.targets.value_targets` makes the value target. A
buffer saved by a pyaz without root values (or records without them) gets q = z: the blended target
is then z whatever the weight.

Each position also keeps the game's final score margin for its player (the auxiliary score
target, :class:`pyaz.SelfPlayRecords`'s ``score``; 0 in games without a score). A buffer saved by
a pyaz without scores (or records without them) gets score 0 and ``has_scores`` False: such a
buffer belongs to a run without a score head (``score_weight`` is fixed for a run, and a run
with it saves the scores), so the zeros are never trained on; the training loop refuses to
resume such a run with ``score_weight`` > 0.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import numpy as np

from pyaz.search.selfplay import SelfPlayRecords


@dataclass
class GameExperience:
    """The recorded positions of one game."""

    iteration: int
    game_number: int  # unique over the whole run
    planes: np.ndarray
    policy: np.ndarray
    outcome: np.ndarray
    root_value: np.ndarray  # q: the search's root value for the player to move (z if unknown)
    score: np.ndarray  # the final score margin for the player to move (0 if none or unknown)


_COLUMNS = ("planes", "policy", "outcome", "root_value", "score")
"""The per-position arrays of a game (:class:`GameExperience`'s last fields)."""


class ReplayBuffer:
    def __init__(self) -> None:
        self.games: list[GameExperience] = []
        self.has_scores = True  # False: loaded from an archive without scores (score 0)

    @property
    def num_games(self) -> int:
        return len(self.games)

    @property
    def num_positions(self) -> int:
        return sum(len(g.outcome) for g in self.games)

    def add(
        self,
        records: SelfPlayRecords,
        iteration: int,
        first_game_number: int,
        drop_draw: float,
        rng: np.random.Generator,
    ) -> int:
        """Adds every game of ``records`` with recorded positions (a draw is dropped with chance
        ``drop_draw``; records without root values or scores: see the module docstring); returns
        how many games were kept."""
        kept = 0
        root_value = getattr(records, "root_value", None)
        score = getattr(records, "score", None)
        columns = (
            records.planes,
            records.policy,
            records.outcome,
            np.asarray(records.outcome if root_value is None else root_value, dtype=np.float32),
            np.asarray(
                np.zeros(len(records.outcome)) if score is None else score, dtype=np.float32
            ),
        )
        for game in range(records.num_games):
            rows = np.flatnonzero(records.game_id == game)
            is_draw = int(records.game_status[game]) == 1
            if rows.size == 0 or (is_draw and rng.random() < drop_draw):
                continue
            arrays = (column[rows] for column in columns)
            self.games.append(GameExperience(iteration, first_game_number + game, *arrays))
            kept += 1
        return kept

    def drop_oldest(self, fraction: float) -> int:
        """Removes the oldest ``fraction`` of the games (rounded down); returns how many."""
        if not 0.0 <= fraction <= 1.0:
            raise ValueError(f"the replacement fraction must be in [0, 1], got {fraction}")
        count = int(len(self.games) * fraction)
        del self.games[:count]
        return count

    def keep_last_iterations(self, iterations: int, current: int) -> int:
        """Keeps the games of iterations ``current - iterations + 1 .. current``."""
        before = len(self.games)
        self.games = [g for g in self.games if g.iteration > current - iterations]
        return before - len(self.games)

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """All positions as (planes, policy, outcome)."""
        return self._joined("planes"), self._joined("policy"), self._joined("outcome")

    def root_values(self) -> np.ndarray:
        """Every position's root value q, in the order of :meth:`arrays`."""
        return self._joined("root_value")

    def scores(self) -> np.ndarray:
        """Every position's score target, in the order of :meth:`arrays`."""
        return self._joined("score")

    def _joined(self, column: str) -> np.ndarray:
        """``column`` of every game, in the buffer's order."""
        if not self.games:
            raise ValueError("the buffer is empty")
        return np.concatenate([getattr(g, column) for g in self.games])

    def to_bytes(self) -> bytes:
        """The buffer as an .npz archive (for atomic checkpoint writes)."""
        buffer = io.BytesIO()
        lengths = np.array([len(g.outcome) for g in self.games], dtype=np.int64)
        arrays = {
            "lengths": lengths,
            "iteration": np.array([g.iteration for g in self.games], dtype=np.int64),
            "game_number": np.array([g.game_number for g in self.games], dtype=np.int64),
        }
        if self.games:
            arrays |= {column: self._joined(column) for column in _COLUMNS}
        np.savez(buffer, **arrays)  # type: ignore[arg-type]  # numpy's stub: allow_pickle
        return buffer.getvalue()

    @classmethod
    def from_bytes(cls, data: bytes) -> ReplayBuffer:
        """The buffer :meth:`to_bytes` wrote (by an older pyaz too: see the module docstring);
        ValueError when the root values or scores do not match the outcomes."""
        archive = np.load(io.BytesIO(data))
        buffer = cls()
        if len(archive["lengths"]) == 0:
            return buffer
        # Read each array once: indexing the archive decompresses the whole member every time.
        lengths, iterations, numbers = (archive[k] for k in ("lengths", "iteration", "game_number"))
        planes, policy, outcome = archive["planes"], archive["policy"], archive["outcome"]
        root_value = archive["root_value"] if "root_value" in archive.files else outcome
        buffer.has_scores = "score" in archive.files
        score = archive["score"] if buffer.has_scores else np.zeros_like(outcome, np.float32)
        for name, array in (("root_value", root_value), ("score", score)):
            if array.shape != outcome.shape:
                raise ValueError(
                    f"the buffer's {name} has shape {array.shape}, its outcome {outcome.shape}"
                )
        bounds = np.concatenate([[0], np.cumsum(lengths)])
        columns = (planes, policy, outcome, root_value, score)
        for i in range(len(lengths)):
            rows = slice(bounds[i], bounds[i + 1])
            arrays = (column[rows].copy() for column in columns)
            buffer.games.append(GameExperience(int(iterations[i]), int(numbers[i]), *arrays))
        return buffer
