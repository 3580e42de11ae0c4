"""Paired match comparisons (pyaz.eval.paired, ``pyaz-arena paired``, ``--paired-with``) and
the percentile bootstrap beneath them, against hand-worked cases."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from pyaz.cli.arena import main
from pyaz.eval.paired import a_scores_by_opening, load_summary, paired_difference
from pyaz.eval.stats import bootstrap_mean


def test_bootstrap_mean_of_two_runs_spans_them() -> None:
    assert bootstrap_mean([0.2, 0.4]) == pytest.approx((0.3, 0.2, 0.4))
    assert bootstrap_mean([0.7]) == pytest.approx((0.7, 0.7, 0.7))
    assert all(np.isnan(v) for v in bootstrap_mean([]))


def test_bootstrap_mean_interval_is_the_normal_one_for_many_values() -> None:
    values = np.random.default_rng(1).normal(0.3, 1.0, size=400)
    mean, low, high = bootstrap_mean(list(values), resamples=4000)
    half = 1.959964 * values.std(ddof=1) / np.sqrt(values.size)  # the normal approximation
    assert mean == pytest.approx(values.mean())
    assert low == pytest.approx(mean - half, abs=0.015)
    assert high == pytest.approx(mean + half, abs=0.015)


def _summary(a: str, results: list[tuple[list[int] | None, str]], **extra: Any) -> dict[str, Any]:
    """A match summary as pyaz-arena writes it; game i (from 1) has A first when i is odd."""
    rows = []
    for number, (opening, token) in enumerate(results, start=1):
        row: dict[str, Any] = {"game": number, "result": token}
        if opening is not None:
            row.update(a_first=number % 2 == 1, opening=opening)
        rows.append(row)
    summary = {"a": a, "b": "uct:200", "game": "othello", "game_options": {"size": 8}}
    summary.update(seed=5, opening_plies=2, results=rows, path=f"{a}/summary.json")
    summary.update(extra)
    return summary


# x: opening [1, 2]: A wins as first (1-0), loses as second (1-0): 0.5;
#    opening [3, 4]: a draw as first, a win as second (0-1): 0.75
X = _summary("x", [([1, 2], "1-0"), ([1, 2], "1-0"), ([3, 4], "1/2-1/2"), ([3, 4], "0-1")])
# y: opening [1, 2]: 0 then 1: 0.5; opening [3, 4]: 0 then 0: 0; [5, 6] is not in x
Y = _summary(
    "y",
    [([1, 2], "0-1"), ([1, 2], "0-1"), ([3, 4], "0-1"), ([3, 4], "1-0"), ([5, 6], "1-0")],
)


def test_a_scores_are_grouped_by_opening_from_a_side() -> None:
    assert a_scores_by_opening(X) == {("opening", 1, 2): [1.0, 0.0], ("opening", 3, 4): [0.5, 1.0]}
    assert a_scores_by_opening(Y)[("opening", 5, 6)] == [1.0]
    assert a_scores_by_opening(X, by_pair=True) == {
        ("pair", 5, 2, 0): [1.0, 0.0],
        ("pair", 5, 2, 1): [0.5, 1.0],
    }


def test_paired_difference_of_a_hand_worked_case() -> None:
    paired = paired_difference([X], [Y])
    # differences per shared opening: 0.5 - 0.5 = 0 and 0.75 - 0 = 0.75; [5, 6] is left out
    assert paired.openings == 2
    assert (paired.x_score, paired.y_score) == pytest.approx((0.625, 0.25))
    assert (paired.x_games, paired.y_games) == (4, 4)
    assert (paired.difference, paired.low, paired.high) == pytest.approx((0.375, 0.0, 0.75))
    assert "+0.375" in str(paired) and "2 shared openings" in str(paired)
    reverse = paired_difference([Y], [X])
    assert reverse.difference == pytest.approx(-0.375)


def test_several_matches_a_side_are_pooled_opening_by_opening() -> None:
    paired = paired_difference([X, Y], [Y])
    # x side: [1, 2] (0.5 + 0.5) / 2, [3, 4] (0.75 + 0) / 2, [5, 6] Y's alone, 1.0
    assert paired.openings == 3
    assert paired.x_score == pytest.approx((0.5 + 0.375 + 1.0) / 3)
    assert paired.difference == pytest.approx(((0.5 - 0.5) + (0.375 - 0.0) + 0.0) / 3)
    assert (paired.x_games, paired.y_games) == (9, 5)


def test_matches_of_other_openings_pool_over_the_openings_each_side_played() -> None:
    # a second seed: opening [5, 6] (also in y, 1.0 there) and [7, 8] (in no y match)
    x_seed_6 = _summary("x6", [([5, 6], "0-1"), ([5, 6], "0-1"), ([7, 8], "1-0")], seed=6)
    paired = paired_difference([X, x_seed_6], [Y])
    # [1, 2]: 0.5 - 0.5; [3, 4]: 0.75 - 0; [5, 6]: 0.5 - 1.0; [7, 8] left out
    assert paired.openings == 3
    assert paired.difference == pytest.approx((0.0 + 0.75 - 0.5) / 3)
    assert (paired.x_games, paired.y_games) == (6, 5)


def test_a_match_paired_with_itself_differs_by_nothing() -> None:
    paired = paired_difference([X], [copy.deepcopy(X)])
    assert (paired.difference, paired.low, paired.high) == (0.0, 0.0, 0.0)


def test_summaries_without_openings_are_paired_by_game_pairs_of_the_same_seed() -> None:
    old_x = _summary("x", [(None, "1-0"), (None, "1-0"), (None, "1/2-1/2"), (None, "0-1")])
    old_y = _summary("y", [(None, "0-1"), (None, "0-1"), (None, "0-1"), (None, "1-0")])
    assert paired_difference([old_x], [old_y]).difference == pytest.approx(0.375)
    other_seed = dict(old_y, seed=6)  # other openings: nothing to pair
    with pytest.raises(ValueError, match="share no opening"):
        paired_difference([old_x], [other_seed])
    both = paired_difference([old_x, dict(old_x, seed=6)], [old_y, other_seed])
    assert (both.difference, both.openings, both.x_games) == (pytest.approx(0.375), 4, 8)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"b": "gtp-rhino:3"}, r"differ in b: 'uct:200' in x/summary.json, 'gtp-rhino:3'"),
        ({"game_options": {"size": 6}}, "differ in game_options"),
        ({"game": "connect_four"}, "differ in game"),
    ],
)
def test_matches_that_cannot_be_paired_are_refused(change: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        paired_difference([X], [dict(Y, **change)])


def test_no_shared_opening_or_an_empty_side_is_refused() -> None:
    elsewhere = _summary("z", [([7, 8], "1-0"), ([7, 8], "0-1")])
    with pytest.raises(ValueError, match=r"share no opening.*same --seed"):
        paired_difference([X], [elsewhere])
    with pytest.raises(ValueError, match="at least one match on each side"):
        paired_difference([X], [])


def test_load_summary_names_the_file_and_the_problem(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"missing/summary.json: no such file"):
        load_summary(tmp_path / "missing")
    (tmp_path / "summary.json").write_text("{not json")
    with pytest.raises(ValueError, match=r"summary.json: not JSON"):
        load_summary(tmp_path)
    (tmp_path / "summary.json").write_text(json.dumps({"results": [1, 2]}))
    with pytest.raises(ValueError, match="not a pyaz-arena match summary"):
        load_summary(tmp_path)
    (tmp_path / "summary.json").write_text(json.dumps({"results": [], "a": "x", "b": "y"}))
    with pytest.raises(ValueError, match="no 'game'"):
        load_summary(tmp_path)
    bad_result = dict(X, results=[{"game": 1, "result": "1-1"}])
    with pytest.raises(ValueError, match="game 1 has no result 1-0"):
        a_scores_by_opening(bad_result)


def test_paired_matches_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = ["--game", "connect_four", "--width", "5", "--height", "4", "--games", "12"]
    base = [*game, "--seed", "3", "--quiet"]
    assert main(["random", "uct:40", *base, "--out", str(tmp_path / "a")]) == 0
    argv = ["uct:40", "uct:40", *base, "--out", str(tmp_path / "b")]
    assert main([*argv, "--paired-with", str(tmp_path / "a")]) == 0
    printed = capsys.readouterr().out
    assert "paired with" in printed and "on 6 shared openings (12 and 12 games)" in printed
    saved_b = load_summary(tmp_path / "b")
    expected = paired_difference([saved_b], [load_summary(tmp_path / "a")])
    assert saved_b["paired_with"]["difference"] == pytest.approx(expected.difference)
    assert saved_b["paired_with"]["openings"] == 6
    # each game's opening is saved: the two games of a pair share theirs, the pairs differ
    openings = [tuple(result["opening"]) for result in saved_b["results"]]
    assert openings[0::2] == openings[1::2] and len(set(openings)) == 6

    assert main(["paired", str(tmp_path / "b"), "--against", str(tmp_path / "b")]) == 0
    printed = capsys.readouterr().out
    assert "difference +0.000, 95% bootstrap interval over the openings [+0.000, +0.000]" in printed
    assert "B: uct:40, connect_four (width=5, height=4)" in printed


def test_a_paired_match_that_cannot_pair_fails_before_it_plays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = ["--game", "connect_four", "--width", "5", "--height", "4", "--games", "2", "--quiet"]
    assert main(["random", "uct:10", *game, "--seed", "1", "--out", str(tmp_path / "a")]) == 0
    capsys.readouterr()
    paired = ["--paired-with", str(tmp_path / "a")]
    assert main(["random", "uct:10", *game, "--seed", "2", *paired]) == 2
    error = capsys.readouterr()
    assert "its seed is 1, this match's 2" in error.err and "games" not in error.out
    assert main(["random", "uct:20", *game, "--seed", "1", "--paired-with", str(tmp_path)]) == 2
    assert "no such file" in capsys.readouterr().err
    assert main(["paired", str(tmp_path / "a"), "--against", str(tmp_path / "nowhere")]) == 2
    assert "nowhere/summary.json: no such file" in capsys.readouterr().err
