"""End-game-first curriculum (seed 000, section II-B2).

zeta(t) is the share of a game that is searched and recorded at training epoch t: the first
(1 - zeta) share of the average game length is played by uniformly random moves, without search
and without records. If random play ends the game, zeta share of the average length is taken
back and the search starts from there (at least one ply).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

PRESETS_FILE = Path(__file__).with_name("curricula.toml")
"""The presets' data file, shipped beside this module."""

PRESETS: dict[str, list[tuple[int, float]]] = {
    name: [(int(epoch), float(zeta)) for epoch, zeta in steps]
    for name, steps in tomllib.loads(PRESETS_FILE.read_text(encoding="utf-8")).items()
}
"""The presets by name (``none``, and seed 000's eq. 5 for Racing Kings and eq. 6 for Reversi):
(first epoch, zeta) steps, read from :data:`PRESETS_FILE`."""


@dataclass(frozen=True)
class Curriculum:
    """A step schedule: ``steps`` are (first epoch, zeta) pairs in increasing epoch order."""

    steps: tuple[tuple[int, float], ...]

    def __post_init__(self) -> None:
        if not self.steps or self.steps[0][0] != 0:
            raise ValueError("a curriculum needs a step starting at epoch 0")
        epochs = [e for e, _ in self.steps]
        if epochs != sorted(set(epochs)):
            raise ValueError(f"curriculum epochs must increase strictly, got {epochs}")
        for _, zeta in self.steps:
            if not 0.0 < zeta <= 1.0:
                raise ValueError(f"zeta must be in (0, 1], got {zeta}")

    def zeta(self, epoch: float) -> float:
        """The share of the game searched and recorded at training epoch ``epoch``."""
        return next(
            (zeta for start, zeta in reversed(self.steps) if epoch >= start), self.steps[0][1]
        )

    def random_plies(self, epoch: float, average_length: float) -> int:
        """Plies to play at random at the start of a game."""
        return round((1.0 - self.zeta(epoch)) * average_length)

    def rollback_plies(self, epoch: float, average_length: float) -> int:
        """Plies to take back when random play ends the game."""
        return max(1, round(self.zeta(epoch) * average_length))

    @classmethod
    def named(cls, spec: str) -> Curriculum:
        """A preset name ("none", "reversi", "racingkings") or a TOML file path.

        The TOML file holds ``steps = [[0, 0.25], [1, 0.5], [100, 1.0]]`` (epoch, zeta pairs).
        """
        if spec in PRESETS:
            return cls(tuple(PRESETS[spec]))
        path = Path(spec)
        if not path.is_file():
            known = ", ".join(PRESETS)
            raise ValueError(f"curriculum {spec!r} is neither a preset ({known}) nor a file")
        data = tomllib.loads(path.read_text())
        if "steps" not in data:
            raise ValueError(f"{path}: expected 'steps = [[epoch, zeta], ...]'")
        return cls(tuple((int(e), float(z)) for e, z in data["steps"]))
