"""The paired difference of two sets of matches played from the same openings.

Two networks that met the same opponent from the same random openings (``pyaz-arena`` with the
same ``--seed``, ``--openings`` and game) can be compared opening by opening, which removes
the spread that the openings themselves bring: an opening that favours one colour, or one that
both networks misplay. For each opening that both sides played, the difference is A's mean
score in the ``x`` matches that played it (the mean of each match's mean over its games from
it) minus the same in the ``y`` matches (each opening is played once with each colour, so a
match gives two games of it); openings only one side played are left out. So a side may pool
matches of several seeds (other openings) and several runs (the same openings). The result
is the mean of these differences over the openings and its 95% percentile bootstrap interval
over the openings (:func:`pyaz.eval.stats.bootstrap_mean`, seeded).

The bootstrap holds the players fixed: it says how sure the difference is for these networks
against this opponent, not for another run of the same training (for that, several runs a
side, pooled: ``x`` and ``y`` may each hold several matches).

The matches are read from the ``summary.json`` that ``pyaz-arena --out DIR`` writes (plain
JSON, nothing executed). Summaries written before 2026-12-04 hold no openings; they are paired
by their game pairs of the same seed and opening plies (games 2k - 1 and 2k of a seed hold the
same opening), which holds for matches of the same game played by the same pyaz.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from pyaz.eval.stats import RESAMPLES, bootstrap_mean

__all__ = ["PairedDifference", "a_scores_by_opening", "load_summary", "paired_difference"]

SUMMARY = "summary.json"


@dataclass(frozen=True)
class PairedDifference:
    """The mean paired difference ``x - y`` of A's score over ``openings`` shared openings,
    with its 95% bootstrap interval [``low``, ``high``]; ``x_score`` and ``y_score`` are A's
    mean scores on those openings, ``x_games`` and ``y_games`` the games they hold."""

    difference: float
    low: float
    high: float
    openings: int
    x_score: float
    y_score: float
    x_games: int
    y_games: int

    def __str__(self) -> str:
        return (
            f"{self.x_score:.3f} against {self.y_score:.3f} on {self.openings} shared openings "
            f"({self.x_games} and {self.y_games} games): paired difference "
            f"{self.difference:+.3f}, 95% bootstrap interval over the openings "
            f"[{self.low:+.3f}, {self.high:+.3f}]"
        )


def load_summary(folder: str | Path) -> dict[str, Any]:
    """The ``summary.json`` of a ``pyaz-arena --out`` folder (or that file itself).

    ValueError naming the file when it is missing, not JSON, or not a match summary.
    """
    path = Path(folder)
    if path.is_dir() or path.suffix != ".json":
        path = path / SUMMARY
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ValueError(f"{path}: no such file (a pyaz-arena --out folder holds one)") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"{path}: cannot be read ({error})") from None
    try:
        summary = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"{path}: not JSON ({error.msg}, line {error.lineno})") from None
    results = summary.get("results") if isinstance(summary, dict) else None
    if not isinstance(results, list) or not all(isinstance(r, dict) for r in results):
        raise ValueError(f"{path}: not a pyaz-arena match summary (no list of results)")
    for key in ("a", "b", "game"):
        if not isinstance(summary.get(key), str):
            raise ValueError(f"{path}: not a pyaz-arena match summary (no {key!r})")
    summary["path"] = str(path)
    return summary


def _a_score(result: dict[str, Any], a_first: bool, where: str) -> float:
    token = result.get("result")
    if token == "1/2-1/2":
        return 0.5
    if token not in ("1-0", "0-1"):
        raise ValueError(f"{where}: game {result.get('game')} has no result 1-0, 0-1 or 1/2-1/2")
    return 1.0 if (token == "1-0") == a_first else 0.0


def a_scores_by_opening(
    summary: dict[str, Any], by_pair: bool = False
) -> dict[tuple[Any, ...], list[float]]:
    """A's score in each game of a match summary (1 a win, 0.5 a draw), grouped by opening.

    The key is the opening's plies (``("opening", ply, ...)``); with ``by_pair``, or in a
    match without openings, it is the game pair of the match's seed and opening plies
    (``("pair", seed, plies, k)``: games 2k + 1 and 2k + 2).
    """
    where = summary.get("path", "the summary")
    groups: dict[tuple[Any, ...], list[float]] = {}
    for position, result in enumerate(summary["results"]):
        number = result.get("game", position + 1)
        if not isinstance(number, int) or number < 1:
            raise ValueError(f"{where}: result {position + 1} has no game number")
        a_first = result.get("a_first", number % 2 == 1)  # A moves first in games 1, 3, ...
        opening = result.get("opening")
        if by_pair or not opening:
            pair = (number - 1) // 2
            key: tuple[Any, ...] = ("pair", summary.get("seed"), summary.get("opening_plies"), pair)
        else:
            key = ("opening", *opening)
        groups.setdefault(key, []).append(_a_score(result, bool(a_first), where))
    return groups


def _check_comparable(summaries: Sequence[dict[str, Any]]) -> None:
    first = summaries[0]
    for other in summaries[1:]:
        for key in ("game", "game_options", "b"):
            if other.get(key) != first.get(key):
                raise ValueError(
                    f"the matches differ in {key}: {first.get(key)!r} in {first['path']}, "
                    f"{other.get(key)!r} in {other['path']}"
                )


def paired_difference(
    x: Sequence[dict[str, Any]],
    y: Sequence[dict[str, Any]],
    resamples: int = RESAMPLES,
    seed: int = 0,
) -> PairedDifference:
    """A's paired score difference, the matches ``x`` minus the matches ``y`` (summaries from
    :func:`load_summary`), over the openings that both sides played (see the module).

    ValueError when a side is empty, when the matches differ in game, board or opponent B,
    or when the two sides share no opening.
    """
    if not x or not y:
        raise ValueError("paired_difference needs at least one match on each side")
    summaries = [*x, *y]
    for summary in summaries:
        summary.setdefault("path", "a summary")
    by_pair = any(
        result.get("opening") is None for summary in summaries for result in summary["results"]
    )
    _check_comparable(summaries)
    x_groups = [a_scores_by_opening(summary, by_pair) for summary in x]
    y_groups = [a_scores_by_opening(summary, by_pair) for summary in y]
    shared = set().union(*x_groups) & set().union(*y_groups)
    if not shared:
        raise ValueError(
            "the matches share no opening: play them with the same --seed, --openings and game"
        )
    order = sorted(shared, key=repr)

    def side_means(sides: list[dict[tuple[Any, ...], list[float]]]) -> np.ndarray:
        return np.array(
            [np.mean([np.mean(groups[key]) for groups in sides if key in groups]) for key in order]
        )

    x_means, y_means = side_means(x_groups), side_means(y_groups)
    difference, low, high = bootstrap_mean(list(x_means - y_means), resamples, seed)
    return PairedDifference(
        difference=difference,
        low=low,
        high=high,
        openings=len(order),
        x_score=float(x_means.mean()),
        y_score=float(y_means.mean()),
        x_games=sum(len(groups.get(key, ())) for groups in x_groups for key in order),
        y_games=sum(len(groups.get(key, ())) for groups in y_groups for key in order),
    )
