"""``pyaz-experiment accelerations`` (issue 25): the time-to-strength factor and its interval on
hand-made curves (values worked by hand in the comments), the techniques as data (every one a
TrainConfig setting, ``all`` their combination), bad options, and the ``--short`` run end to
end."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from pyaz.cli import experiment as cli
from pyaz.experiments import get_experiment
from pyaz.experiments.acceleration_report import introduction, verdict
from pyaz.experiments.acceleration_techniques import (
    ALL,
    BASELINE,
    HORIZON,
    HORIZONS,
    ON_HORIZON,
    REGISTERED,
    TECHNIQUES,
    VARIANTS,
    combine,
)
from pyaz.experiments.accelerations import AccelerationsExperiment
from pyaz.experiments.base import DONE_FILE
from pyaz.experiments.report import Curve
from pyaz.experiments.time_to_strength import mean_curve, speedup, time_to_reach, training_curve
from pyaz.train import techniques as registry

X = [1.0, 2.0, 3.0, 4.0]


def curve(y: list[float], x: list[float] = X) -> Curve:
    return Curve(np.array(x), np.array(y))


# The baseline: raw [0.2, 0.4, 0.6, 0.8], smoothed (trailing mean of up to 3) [0.2, 0.3, 0.4,
# 0.6]: its final strength is 0.6, first reached at minute 4.
BASE = curve([0.2, 0.4, 0.6, 0.8])


def test_time_to_reach_interpolates_between_evaluations() -> None:
    c = curve([0.2, 0.5, 0.9, 0.7])
    assert time_to_reach(c, 0.1) == 1.0  # already there at the first evaluation
    assert time_to_reach(c, 0.5) == 2.0
    assert time_to_reach(c, 0.7) == pytest.approx(2.5)  # 0.5 -> 0.9 between minutes 2 and 3
    assert time_to_reach(c, 0.95) is None
    assert time_to_reach(curve([]), 0.5) is None


def test_mean_curve_averages_over_the_common_span() -> None:
    single = curve([0.1, 0.2, 0.3, 0.4])
    assert (
        mean_curve([single]).x.tolist() == X
        and mean_curve([single]).y.tolist() == single.y.tolist()
    )
    # spans [1, 3] and [2, 4]: common span [2, 3]; at 2: (0.5 + 1) / 2, at 3: (1 + 1) / 2
    mean = mean_curve([curve([0.0, 1.0], [1.0, 3.0]), curve([1.0, 1.0], [2.0, 4.0])])
    assert mean.x.tolist() == [2.0, 3.0]
    assert mean.y.tolist() == pytest.approx([0.75, 1.0])
    assert mean_curve([]).x.size == 0


def test_the_factor_on_hand_worked_curves() -> None:
    # raw [0.3, 0.6, 0.9, 0.9] -> smoothed [0.3, 0.45, 0.6, 0.8]: 0.6 at minute 3, factor 4 / 3
    result = speedup([BASE], [curve([0.3, 0.6, 0.9, 0.9])])
    assert result.target == pytest.approx(0.6) and result.baseline_minutes == pytest.approx(4.0)
    assert result.minutes == pytest.approx(3.0) and result.factor == pytest.approx(4 / 3)
    # raw [0.5, 0.5, 0.5, 1.0] -> smoothed [0.5, 0.5, 0.5, 2/3]: 0.6 at 3 + 0.1 / (1/6) = 3.6
    result = speedup([BASE], [curve([0.5, 0.5, 0.5, 1.0])])
    assert result.minutes == pytest.approx(3.6) and result.factor == pytest.approx(4 / 3.6)
    # one run each: the interval is the point, the technique reached it in every resample
    assert result.low == pytest.approx(result.factor) == pytest.approx(result.high)
    assert result.reached == 1.0 and result.runs == 1
    # the baseline against itself is 1
    assert speedup([BASE], [BASE]).factor == pytest.approx(1.0)
    # never at 0.6 (smoothed tops at 0.5): not reached, the interval [0, 0]
    never = speedup([BASE], [curve([0.5, 0.5, 0.5, 0.5])])
    assert never.factor is None and never.minutes is None
    assert (never.low, never.high, never.reached) == (0.0, 0.0, 0.0)


def test_the_bootstrap_interval_over_repetitions() -> None:
    # Technique runs A (0.6 throughout: reaches 0.6 at minute 1, factor 4) and B (0.3: never).
    # Their mean curve is 0.45: not reached. Resamples: AA (1/4) -> 4, AB or BA (1/2) and BB
    # (1/4) -> never (0). So the interval is [0, 4], reached in about a quarter of them.
    result = speedup([BASE, BASE], [curve([0.6] * 4), curve([0.3] * 4)])
    assert result.factor is None and result.runs == 2
    assert (result.low, result.high) == (0.0, pytest.approx(4.0))
    assert result.reached == pytest.approx(0.25, abs=0.05)
    # Baseline runs A (BASE: target 0.6 at 4) and B (0.3 throughout: target 0.3 at 1); their
    # mean, smoothed [0.25, 0.3, 0.35, 0.45], reaches its end 0.45 at minute 4. A technique at
    # 0.5 throughout reaches 0.45 at 1: factor 4. Resamples of the baseline: AA -> target 0.6,
    # never (0, 1/4); AB, BA -> 4 (1/2); BB -> target 0.3 at 1 against 1: 1 (1/4).
    result = speedup([BASE, curve([0.3] * 4)], [curve([0.5] * 4)], seed=3)
    assert result.factor == pytest.approx(4.0) and result.target == pytest.approx(0.45)
    assert (result.low, result.high) == (0.0, pytest.approx(4.0))
    assert result.reached == pytest.approx(0.75, abs=0.05)


def test_the_training_curve_leaves_the_evaluations_time_out() -> None:
    records = [
        {"kind": "iteration", "iteration": 1, "time_selfplay": 30.0, "time_train": 30.0,
         "time_arena": 0.0, "elapsed_s": 60.0},
        {"kind": "eval", "iteration": 1, "elapsed_s": 600.0, "win_ratio": 0.25},
        {"kind": "iteration", "iteration": 2, "time_selfplay": 60.0, "time_train": 20.0,
         "time_arena": 10.0, "elapsed_s": 690.0},
        {"kind": "eval", "iteration": 2, "elapsed_s": 1290.0, "win_ratio": 0.75},
    ]  # fmt: skip
    result, iterations, minutes = training_curve(records, "win_ratio")
    assert result.x.tolist() == [1.0, 2.5] and result.y.tolist() == [0.25, 0.75]
    assert (iterations, minutes) == (2, 2.5)
    assert training_curve(records, "perfect_agreement")[0].x.size == 0


def test_all_combines_the_techniques_and_says_what_it_leaves_out() -> None:
    merged, left_out = combine(["gumbel", "zq-average", "forced-playouts"])
    assert merged == {**TECHNIQUES["gumbel"], **TECHNIQUES["zq-average"]}
    assert list(left_out) == ["forced-playouts"] and "gumbel" in left_out["forced-playouts"]
    # a setting given another value by a later technique: that one is left out
    merged, left_out = combine(["lr-onecycle", "progressive-sims", "window-growth"])
    assert merged["iterations"] == "horizon" and "window_growth" in merged
    assert left_out == {}


def test_every_technique_is_a_valid_training_setting_at_every_scale() -> None:
    experiment = AccelerationsExperiment()
    for scale in ("short", "cpu", "full"):
        experiment.options = {"techniques": ",".join(TECHNIQUES)}
        specs = experiment.runs(scale)  # validates every run's TrainConfig
        assert len(specs) == 2 * experiment.repetitions(scale)
        configs = specs[0].kwargs["configs"]
        othello_only = ("score-head", "othello-mobility")  # Connect Four has no score
        connect4 = [t for t in TECHNIQUES if t not in othello_only]
        assert list(configs) == [BASELINE, *connect4, ALL] and "score_weight" not in configs[ALL]
        assert configs["opening-spread"]["opening_spread"] == 24
        # "all" keeps the curriculum, which also chooses the opening plies
        assert configs[ALL]["curriculum"] == "reversi" and configs[ALL]["opening_spread"] == 0
        assert configs[BASELINE]["opening_spread"] == 0  # the measurements' baseline: no spread
        othello = specs[1].kwargs["configs"]
        lines_only = ("opening-spread", "threat-planes", "threat-deep", "threat-parity")
        assert list(othello) == [BASELINE, *[t for t in TECHNIQUES if t not in lines_only], ALL]
        assert othello["score-head"]["score_weight"] == othello[ALL]["score_weight"] == 0.5
        assert othello["othello-mobility"]["threat_planes"] == othello[ALL]["threat_planes"]
        assert configs["lr-onecycle"]["iterations"] == HORIZONS[scale]["connect4"]
        assert configs[BASELINE]["iterations"] >= HORIZONS[scale]["connect4"]
        assert "forced_playouts" not in configs[ALL] and configs[ALL]["dedupe"] is True
    experiment.options = {}
    assert experiment.labels("cpu") == [BASELINE, *TECHNIQUES, ALL]


@pytest.mark.parametrize(
    ("option", "named"),
    [("techniques=gumbel,bogus", "'bogus'"), ("tracks=go", "'go'"), ("techniques=", "none")],
)
def test_bad_options_are_one_line_errors(
    option: str, named: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "acc"
    assert cli.main(["accelerations", "--short", "--out", str(out), "--option", option]) == 2
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1 and named in error, error


def test_short_run_end_to_end(tmp_path: Path) -> None:
    out = tmp_path / "acc"
    assert cli.main(["accelerations", "--short", "--out", str(out)]) == 0
    summary = json.loads((out / "summary.json").read_text())
    experiment = get_experiment("accelerations")
    assert isinstance(experiment, AccelerationsExperiment)
    labels = experiment.labels("short")
    assert labels == [BASELINE, "gumbel", "zq-average", ALL]
    assert summary["techniques"][ALL] == {**TECHNIQUES["gumbel"], **TECHNIQUES["zq-average"]}
    for track, metric in (("connect4", "perfect_agreement"), ("othello", "win_ratio")):
        result = summary["tracks"][track]
        assert result["metric"] == metric and (out / result["figure"]).stat().st_size > 1000
        assert set(result["techniques"]) == set(labels)
        for label, data in result["techniques"].items():
            assert data["runs"] == 1 and data["iterations"] == [3]
            assert 0.0 <= data["final_mean"] <= 1.0 and data["training_minutes"][0] > 0
            low, high = data["factor_interval"]
            assert data["factor"] is None or low == pytest.approx(data["factor"]) == high
            config = json.loads(
                (out / "runs" / f"{track}-run1" / label / "config.json").read_text()
            )
            for key, value in summary["techniques"][label].items():
                assert config[key] == value
        assert result["techniques"][BASELINE]["factor"] == pytest.approx(1.0)
    assert set(summary["tracks"]["othello"]["final_matches"]["random"]) == set(labels)
    readme = (out / "README.md").read_text()
    assert "time factor" in readme and "## Verdict" in readme and "gumbel" in readme
    stamps = {p: p.stat().st_mtime_ns for p in (out / "runs").glob(f"*/{DONE_FILE}")}
    assert len(stamps) == 2
    assert cli.main(["accelerations", "--out", str(out), "--resume"]) == 0
    assert {p: p.stat().st_mtime_ns for p in stamps} == stamps  # nothing trained again


def test_the_introduction_names_only_the_tracks_run() -> None:
    text = introduction("cpu", 2, {BASELINE: {}}, {}, ["connect4"])
    assert "Connect Four 6x6 (12 minutes a run)" in text and "Othello" not in text
    both = introduction("cpu", 2, {BASELINE: {}}, {})
    assert "Connect Four 6x6 (12 minutes a run) and Othello 8x8 (15 minutes a run)" in both


def test_the_verdict_also_compares_final_strengths() -> None:
    def row(runs: int, mean: float, low: float, high: float) -> dict[str, object]:
        return {"runs": runs, "final_mean": mean, "final_interval": [low, high],
                "factor": 1.0, "factor_interval": [0.5, 2.0]}  # fmt: skip

    techniques = {
        BASELINE: row(2, 0.835, 0.82, 0.85),
        "up": row(2, 0.925, 0.91, 0.94),
        "down": row(2, 0.70, 0.68, 0.72),
        "level": row(2, 0.84, 0.80, 0.88),
        "alone": row(1, 0.99, 0.99, 0.99),  # one run: no interval, not decided
    }
    text = verdict({"tracks": {"connect4": {"techniques": techniques}}})
    final = text.splitlines()[-1]
    assert "above the baseline's interval: up (0.925); below it: down (0.700);" in final
    assert "level" not in final and "alone" not in final
    assert "not decided by these runs: up (1.00), down (1.00), level (1.00), alone" in text


def test_the_experiment_runs_the_registrys_techniques_with_their_values() -> None:
    # the experiment's techniques are the registry's (what --technique NAME switches on) and
    # variants of core settings; a schedule over the run spans the track's horizon
    assert set(REGISTERED) <= set(registry.TECHNIQUES)
    assert not set(VARIANTS) & set(registry.TECHNIQUES)
    assert set(TECHNIQUES) == set(REGISTERED) | set(VARIANTS)
    for label in REGISTERED:
        expected = dict(registry.TECHNIQUES[label].switches_on)
        if label in ON_HORIZON:
            expected["iterations"] = HORIZON
        assert TECHNIQUES[label] == expected, label
    # the values the experiment's recorded runs used (docs/results/accelerations-cpu.md)
    assert TECHNIQUES["playout-cap"] == {"full_search_prob": 0.25, "cheap_simulations": 0}
    assert TECHNIQUES["lr-cosine"] == {"lr_schedule": "cosine", "iterations": HORIZON}
    assert TECHNIQUES["value-weight"] == {"loss": "lambda", "loss_lambda": 0.25}
    assert list(TECHNIQUES)[:3] == ["gumbel", "gumbel-16", "solver"]  # the runs' order
