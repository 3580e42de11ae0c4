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

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from pyaz.common.checked_json import MAX_INT, Fields, described, read_json_file
from pyaz.eval.stats import RESAMPLES, bootstrap_mean

__all__ = [
    "PairedDifference",
    "a_scores_by_opening",
    "check_summary",
    "load_summary",
    "paired_difference",
]

SUMMARY = "summary.json"
#: The largest summary.json read (a match of some 100,000 games).
MAX_SUMMARY_BYTES = 64 * 2**20
#: A game's result from the first player's side, as a summary holds it.
RESULTS = ("1-0", "0-1", "1/2-1/2")


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
    """The ``summary.json`` of a ``pyaz-arena --out`` folder (or that file itself), checked
    (:func:`check_summary`).

    ValueError naming the file when it is missing, not a regular file, larger than
    :data:`MAX_SUMMARY_BYTES`, not JSON, or not a match summary; naming the field too when a
    field that the comparison reads is damaged.
    """
    path = Path(folder)
    try:
        if path.is_dir() or path.suffix != ".json":
            path = path / SUMMARY
        summary = read_json_file(path, MAX_SUMMARY_BYTES)
    except FileNotFoundError:
        raise ValueError(f"{path}: no such file (a pyaz-arena --out folder holds one)") from None
    except OSError as error:  # a name too long, a folder that cannot be searched
        raise ValueError(f"{path}: cannot be read ({error.strerror or error})") from None
    check_summary(summary, str(path))
    summary["path"] = str(path)
    return summary


def check_summary(summary: object, where: str) -> None:
    """ValueError naming ``where`` and the field unless ``summary`` is a match summary whose
    fields that a paired comparison reads have their types: ``a``, ``b`` and ``game``
    strings, ``game_options`` an object of plain values, ``seed`` and ``opening_plies``
    integers or null, and each result as :func:`a_scores_by_opening` reads it."""
    results = summary.get("results") if isinstance(summary, dict) else None
    if not isinstance(results, list) or not all(isinstance(r, dict) for r in results):
        raise ValueError(f"{where}: not a pyaz-arena match summary (no list of results)")
    fields = Fields(summary, where)
    for key in ("a", "b", "game"):
        if key not in fields.data:
            raise ValueError(f"{where}: not a pyaz-arena match summary (no {key!r})")
        fields.text(key)
    fields.scalars("game_options")
    fields.optional_integer("seed", low=-MAX_INT)
    fields.optional_integer("opening_plies")
    _scores_by_opening(fields, by_pair=False)


def _opening_key(summary: Fields, result: Fields, number: int, by_pair: bool) -> tuple[Any, ...]:
    """The key that groups a result with the other games of its opening (see
    :func:`a_scores_by_opening`)."""
    opening = result.integers("opening")
    if by_pair or not opening:
        seed = summary.optional_integer("seed", low=-MAX_INT)
        return ("pair", seed, summary.optional_integer("opening_plies"), (number - 1) // 2)
    return ("opening", *opening)


def _a_score(result: Fields, number: int) -> float:
    """A's score in the game of ``result``: 1 a win, 0.5 a draw; ``a_first`` says whether A
    moved first (by default, in games 1, 3, ...)."""
    a_first = result.boolean("a_first", default=number % 2 == 1)
    token = result.data.get("result")
    if token not in RESULTS:
        raise ValueError(
            f"{result.where}: game {number} has no result 1-0, 0-1 or 1/2-1/2 "
            f"({result.prefix}result is {described(token)})"
        )
    return 0.5 if token == "1/2-1/2" else 1.0 if (token == "1-0") == a_first else 0.0


def a_scores_by_opening(
    summary: dict[str, Any], by_pair: bool = False
) -> dict[tuple[Any, ...], list[float]]:
    """A's score in each game of a match summary (1 a win, 0.5 a draw), grouped by opening.

    The key is the opening's plies (``("opening", ply, ...)``); with ``by_pair``, or in a
    match without openings, it is the game pair of the match's seed and opening plies
    (``("pair", seed, plies, k)``: games 2k + 1 and 2k + 2). A result's fields are checked as
    they are read: ValueError naming the summary's ``path`` and the field otherwise.
    """
    return _scores_by_opening(Fields(summary, str(summary.get("path", "the summary"))), by_pair)


def _scores_by_opening(summary: Fields, by_pair: bool) -> dict[tuple[Any, ...], list[float]]:
    """:func:`a_scores_by_opening` of the summary's checked fields."""
    groups: dict[tuple[Any, ...], list[float]] = {}
    for position, result in enumerate(summary.objects("results")):
        number = result.integer("game", default=position + 1, low=1)
        key = _opening_key(summary, result, number, by_pair)
        groups.setdefault(key, []).append(_a_score(result, number))
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

    ValueError when a side is empty, when a summary is damaged (:func:`check_summary`), when
    the matches differ in game, board or opponent B, or when the two sides share no opening.
    """
    if not x or not y:
        raise ValueError("paired_difference needs at least one match on each side")
    summaries = [*x, *y]
    for summary in summaries:
        summary.setdefault("path", "a summary")
        check_summary(summary, str(summary["path"]))
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
