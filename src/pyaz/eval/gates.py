"""Gating: whether a challenger network replaces the best one, by the rule of each seed.

- seed 001 (alpha-zero-general, the framework it ran): the challenger plays ``n`` games and
  replaces the best when ``wins / (wins + losses) >= u``; draws are ignored, and a match without
  a decisive game rejects the challenger (:func:`azg_gate`);
- pyaz's earlier rule, kept as an option: replace when the score with draws counting half,
  ``(wins + draws / 2) / n``, exceeds ``u`` (:func:`score_gate`);
- seed 000: play until the 95% Wilson score interval with continuity correction lies above 0.5
  (replace), below 0.5 (keep), or is narrower than 0.1 (keep) (:class:`WilsonGate`).

The games of a gate are made distinct by :func:`pyaz.eval.arena.play_match` (shared random
openings, each played with both colour orders) and by the players (semi-stochastic search
players that draw their first moves from the visit counts, as seed 004's evaluation does).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from pyaz.eval.arena import MatchResult, play_match
from pyaz.eval.players import Player
from pyaz.eval.stats import Z_95, wilson_interval
from pyaz.games import GameState

__all__ = [
    "WILSON_MAX_GAMES",
    "Decision",
    "WilsonGate",
    "azg_gate",
    "games_for_width",
    "score_gate",
]

Decision = Literal["replace", "keep"]

WILSON_MAX_GAMES = 500
"""The default cap of :class:`WilsonGate`: the width rule (95% interval narrower than 0.1) can
only act after 401 games at a score of 0.5 (:func:`games_for_width`), so the cap must
be above that, or the rule never fires."""


def _check_u(u: float) -> None:
    if not 0.0 <= u <= 1.0 or math.isnan(u):
        raise ValueError(f"the update threshold u must be in [0, 1], got {u}")


def azg_gate(result: MatchResult, u: float = 0.6) -> bool:
    """Seed 001's arena rule as alpha-zero-general implements it: the challenger (``a``)
    replaces the best when ``wins / (wins + losses) >= u``. Draws do not count; with no decisive
    game the challenger is rejected. Seed 001 finds u in {0.5, 0.6} acceptable and 0.7 too
    strict; 0.6 is alpha-zero-general's default."""
    _check_u(u)
    decisive = result.a_wins + result.b_wins
    return decisive > 0 and result.a_wins / decisive >= u


def score_gate(result: MatchResult, u: float = 0.6) -> bool:
    """The challenger (``a``) replaces the best when its score with draws counting half,
    ``(wins + draws / 2) / n``, exceeds ``u`` (strictly). An empty match never replaces."""
    _check_u(u)
    return result.n > 0 and result.score > u


def games_for_width(width: float = 0.1, p: float = 0.5, continuity: bool = True) -> int:
    """The fewest games after which the 95% Wilson interval (with continuity correction, as the
    gate uses it) of a score ``p`` is narrower than ``width``: 401 for the defaults (381 without
    the correction), so
    :class:`WilsonGate`'s width rule cannot act in a shorter match."""
    if not 0 < width < 1:
        raise ValueError(f"width must be in (0, 1), got {width}")
    if not 0 <= p <= 1:
        raise ValueError(f"p must be in [0, 1], got {p}")
    for n in range(1, 10_000_000):
        lower, upper = wilson_interval(p * n, n, Z_95, continuity)
        if upper - lower < width:
            return n
    raise ValueError(f"no match shorter than 10 million games reaches width {width}")


@dataclass(frozen=True)
class WilsonGate:
    """Seed 000's sequential gating rule, usable as ``play_match(..., stop=gate)``.

    After each game (from ``min_games`` on) the 95% Wilson score interval with continuity
    correction of the challenger's (``a``'s) score, draws counting half, decides:

    - lower bound > ``threshold`` (0.5): "replace" (the challenger is better);
    - upper bound < ``threshold``: "keep" (the best is better);
    - upper - lower < ``min_width`` (0.1): "keep" (too close to tell: no replacement);
    - ``max_games`` played without a decision: "keep", so the match always ends.

    The width rule needs 401 games at a 0.5 score, so the default cap is
    :data:`WILSON_MAX_GAMES`. Seed 000 notes that stopping sequentially this way does not give
    exactly 95% confidence. The interval assumes independent games: :meth:`run` plays distinct
    games (random openings; pass semi-stochastic players).
    """

    min_games: int = 10
    max_games: int = WILSON_MAX_GAMES
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
        reason = self.reason(result)
        return None if not reason else "replace" if reason == "above" else "keep"

    def reason(self, result: MatchResult) -> str:
        """Why the match stopped: "above", "below", "width", "cap" or "" (still going)."""
        n = result.n
        if n >= self.min_games:
            lower, upper = result.wilson_interval(self.z, self.continuity)
            if lower > self.threshold:
                return "above"
            if upper < self.threshold:
                return "below"
            if upper - lower < self.min_width:
                return "width"
        return "cap" if n >= self.max_games else ""

    def __call__(self, result: MatchResult) -> bool:
        """The ``stop`` callback: True once a decision is reached."""
        return self.decision(result) is not None

    def run(
        self,
        challenger: Player,
        best: Player,
        start_state: GameState,
        progress: bool = False,
        opening_plies: int | None = None,
        seed: int = 0,
    ) -> tuple[Decision, MatchResult]:
        """Plays the gating match (challenger as ``a``) and returns the decision and the result.

        ``opening_plies`` and ``seed`` are as in :func:`~pyaz.eval.arena.play_match`.
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
