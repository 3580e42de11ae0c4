"""Gating: whether a challenger network replaces the best one, by the rule of each seed.

- seed 001 (AlphaZeroGeneral): play ``n`` games and replace when the challenger's score exceeds
  the update threshold ``u`` (:func:`gate_by_threshold`);
- seed 000: play until the 95% Wilson score interval with continuity correction lies above 0.5
  (replace), below 0.5 (keep), or is narrower than 0.1 (keep) (:class:`WilsonGate`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pyaz.eval.arena import MatchResult, play_match
from pyaz.eval.players import Player
from pyaz.eval.stats import Z_95
from pyaz.games import GameState

__all__ = ["Decision", "WilsonGate", "gate_by_threshold"]

Decision = Literal["replace", "keep"]


def gate_by_threshold(result: MatchResult, u: float = 0.6) -> bool:
    """Seed 001's arena rule: the challenger (``a``) replaces the best when its score exceeds ``u``.

    ``result`` is the match of ``n`` games with the challenger as ``a``. The score counts a
    draw as half a win, ``(wins + draws/2) / n``, so with ``u = 0.5`` a challenger that only
    draws is not accepted (the comparison is strict). Seed 001 studies u in {0.5, 0.6, 0.7}
    and finds 0.5 and 0.6 acceptable, 0.7 too strict; 0.6 is AlphaZeroGeneral's default. An
    empty match never replaces.
    """
    if not 0.0 <= u <= 1.0:
        raise ValueError(f"u must be in [0, 1], got {u}")
    return result.n > 0 and result.score > u


@dataclass(frozen=True)
class WilsonGate:
    """Seed 000's sequential gating rule, usable as ``play_match(..., stop=gate)``.

    After each game (from ``min_games`` on) the 95% Wilson score interval with continuity
    correction of the challenger's (``a``'s) score, draws counting half, decides:

    - lower bound > ``threshold`` (0.5): "replace" (the challenger is better);
    - upper bound < ``threshold``: "keep" (the best is better);
    - upper - lower < ``min_width`` (0.1): "keep" (too close to tell: no replacement);
    - ``max_games`` played without a decision: "keep", so the match always ends.

    Seed 000 notes that stopping sequentially this way does not give exactly 95% confidence.
    The interval assumes independent games: between deterministic (greedy) players, use
    ``opening_plies`` in :meth:`run` / :func:`play_match` (or a temperature), or every game
    pair is a repeat and the gate decides on two games counted many times.
    """

    min_games: int = 10
    max_games: int = 400
    threshold: float = 0.5
    min_width: float = 0.1
    z: float = Z_95
    continuity: bool = True

    def __post_init__(self) -> None:
        if self.min_games < 1:
            raise ValueError(f"min_games must be >= 1, got {self.min_games}")
        if self.max_games < self.min_games:
            raise ValueError(f"max_games ({self.max_games}) < min_games ({self.min_games})")

    def decision(self, result: MatchResult) -> Decision | None:
        """The decision, "replace" or "keep", or None while the match should go on."""
        n = result.n
        if n >= self.min_games:
            lower, upper = result.wilson_interval(self.z, self.continuity)
            if lower > self.threshold:
                return "replace"
            if upper < self.threshold or upper - lower < self.min_width:
                return "keep"
        if n >= self.max_games:
            return "keep"
        return None

    def __call__(self, result: MatchResult) -> bool:
        """The ``stop`` callback: True once a decision is reached."""
        return self.decision(result) is not None

    def run(
        self,
        challenger: Player,
        best: Player,
        start_state: GameState,
        progress: bool = False,
        opening_plies: int = 0,
        seed: int = 0,
    ) -> tuple[Decision, MatchResult]:
        """Plays the gating match (challenger as ``a``) and returns the decision and the result.

        ``opening_plies`` and ``seed`` are as in :func:`play_match`.
        """
        result = play_match(
            challenger,
            best,
            self.max_games,
            start_state,
            progress,
            stop=self,
            opening_plies=opening_plies,
            seed=seed,
        )
        decision = self.decision(result)
        return (decision if decision is not None else "keep"), result
