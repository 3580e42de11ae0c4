"""Every registered experiment runs end to end at the CI-sized scale (``--short``): its runs, its
evaluation, its report (summary.json with the fields it promises, README.md, figures), and a
resumed call redoes no finished run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pyaz.cli import experiment as cli
from pyaz.experiments import EXPERIMENTS, get_experiment
from pyaz.experiments.base import DONE_FILE

# What each experiment's summary.json must hold (beyond the runner's own fields).
REQUIRED: dict[str, list[str]] = {
    "curriculum": ["settings", "verdict"],
    "sweep": ["table4", "agreement_with_paper", "runs_detail"],
    "losses": ["games"],
    "grid": ["points", "effects", "tournament", "best"],
    "curling": ["learning_curve", "figure3", "kr_minus_dl", "uniform_search"],
    "zetago": ["5x5_vs_gnugo", "9x9_transfer", "9x9_scratch"],
    "alphagomoku": ["vs_mentor", "phase_times", "imitation_stopped", "sample_games"],
    "accelerations": ["techniques", "tracks", "verdict"],
}


def test_the_pareto_front() -> None:
    from pyaz.experiments.grid import pareto_front

    points = [(3.0, 10.0), (1.0, 5.0), (2.0, 4.0), (4.0, 12.0), (5.0, 11.0), (1.0, 6.0)]
    assert pareto_front(points) == [5, 0, 3]  # (1, 6), (3, 10), (4, 12)


_RAN: dict[str, Path] = {}


def _short(name: str, factory: pytest.TempPathFactory) -> Path:
    """The experiment's folder after ``pyaz-experiment NAME --short`` (run once per session)."""
    if name not in _RAN:
        out = factory.mktemp("experiments") / name
        assert cli.main([name, "--short", "--out", str(out)]) == 0
        _RAN[name] = out
    return _RAN[name]


@pytest.mark.parametrize("name", sorted(EXPERIMENTS))
def test_short_experiment_runs_and_resumes(
    name: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    out = _short(name, tmp_path_factory)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["experiment"] == name and summary["scale"] == "short"
    for field in ["runs", *REQUIRED.get(name, [])]:
        assert field in summary, f"{name}: summary.json lacks {field!r}"
    readme = (out / "README.md").read_text()
    assert readme.startswith("# ") and len(readme) > 200
    for run in get_experiment(name).runs("short"):
        assert (out / "runs" / run.name / DONE_FILE).exists()
    stamps = {p: p.stat().st_mtime_ns for p in (out / "runs").glob(f"*/{DONE_FILE}")}
    assert cli.main([name, "--short", "--out", str(out), "--resume"]) == 0
    assert {p: p.stat().st_mtime_ns for p in stamps} == stamps  # no finished run ran again
    assert cli.main([name, "--short", "--out", str(out)]) == 2  # refuses without --resume


def test_the_curriculum_report_compares_both_players(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    out = _short("curriculum", tmp_path_factory)
    summary = json.loads((out / "summary.json").read_text())
    assert set(summary["settings"]) == {"reversi-az", "racingkings-az", "racingkings-agz"}
    for setting, result in summary["settings"].items():
        assert (out / result["figure"]).exists()
        for player in ("baseline", "curriculum"):
            data = result["players"][player]
            assert data["win_ratio_at"] and 0 <= data["auc_early_mean"] <= 1
            records = (out / "runs" / f"{setting}-run1" / player / "metrics.jsonl").read_text()
            evals = [json.loads(line) for line in records.splitlines() if '"eval"' in line]
            assert evals and all(e["eval_distinct_games"] == e["eval_games"] for e in evals)
    config = json.loads(
        (out / "runs" / "reversi-az-run1" / "curriculum" / "config.json").read_text()
    )
    assert config["curriculum"] == "reversi" and config["c_puct"] == 3.0
    baseline = json.loads(
        (out / "runs" / "reversi-az-run1" / "baseline" / "config.json").read_text()
    )
    assert baseline["curriculum"] == "none"
    assert (
        json.loads(
            (out / "runs" / "racingkings-agz-run1" / "baseline" / "config.json").read_text()
        )["gating"]
        == "wilson"
    )


def test_estimates_carry_their_95_percent_intervals() -> None:
    from pyaz.experiments.report import elo_estimate, score_estimate

    half = score_estimate("a", 5, 10)  # Newcombe's method 4 by hand: (12.84 -/+ 7.27) / 27.68
    assert half.value == 0.5 and half.runs == 1 and half.games == 10
    assert half.lower == pytest.approx(0.20142, abs=1e-5)
    assert half.upper == pytest.approx(0.79858, abs=1e-5)
    two = elo_estimate(
        "x",
        [
            {"elo": 100, "lower": 50, "upper": 150, "games": 10},
            {"elo": 200, "lower": 150, "upper": 250, "games": 10},
        ],
    )  # half-width: hypot(sqrt(50^2 + 50^2) / 2, 1.96 * 70.71 / sqrt(2)) = 104.18
    assert (two.value, two.runs, two.games) == (150.0, 2, 20)
    assert two.lower == pytest.approx(45.82, abs=0.01)
    assert two.upper == pytest.approx(254.18, abs=0.01)
    with pytest.raises(ValueError, match="no ratings for 'y'"):
        elo_estimate("y", [])


def test_a_comparison_says_undecided_when_the_intervals_overlap() -> None:
    from pyaz.experiments.report import comparison, elo_estimate, leader, score_estimate

    # 4 games a pair, one run each: "lx best" was written from this ("Elo std 0").
    lx = elo_estimate("lx", [{"elo": 40, "lower": -300, "upper": 380, "games": 8}])
    lp = elo_estimate("lp", [{"elo": 0, "lower": -340, "upper": 340, "games": 8}])
    text = comparison([lp, lx], "Final Elo by target")
    assert leader([lp, lx]) is None
    assert "Undecided: the 95% interval of lx overlaps that of lp" in text
    assert "lx: 40 Elo (95% interval -300 to 380; 1 run, 8 games)" in text
    assert "is ahead" not in text and "best" not in text
    strong = elo_estimate("lp", [{"elo": 500, "lower": 440, "upper": 560, "games": 400}])
    text = comparison([lx, strong], "Final Elo by target")
    assert leader([lx, strong]) == strong
    assert text.endswith("lp is ahead: its 95% interval lies above every other's.")
    assert "lp: 500 Elo (95% interval 440 to 560; 1 run, 400 games)" in text
    assert "Nothing to compare" in comparison([lx], "x") and "undecided" in comparison([], "x")
    empty = comparison([score_estimate("b", 0, 0), score_estimate("c", 2, 4)], "x")
    assert empty.startswith("x: c: 0.50 (95% Wilson interval 0.09 to 0.91; 1 run, 4 games); ")
    assert "b: no games. Undecided" in empty  # an estimate without games ranks last


def _zetago_readme(out: Path, transfer: tuple[int, int], scratch: tuple[int, int]) -> str:
    """zetago's README from known results: (points, games) of the 9x9 agents."""
    from pyaz.experiments.zetago import _write_readme

    def agent(points: int, games: int) -> dict[str, object]:
        colour = {"games": games // 2, "win_ratio": points / games}
        return {
            "win_ratio": points / games, "games": games, "distinct_games": games,
            "as_black": colour, "as_white": colour, "game_length": 30.0,
        }  # fmt: skip

    agents = {"9x9-transfer": agent(*transfer), "9x9-scratch": agent(*scratch)}
    summary = {"agents": agents, "5x5_mcts_vs_gnugo": agent(1, 2), "training": {}}
    _write_readme(out, "short", summary, {})
    return (out / "README.md").read_text()


def test_a_report_of_a_tiny_result_says_undecided_and_of_a_lopsided_one_the_winner(
    tmp_path: Path,
) -> None:
    tiny = _zetago_readme(tmp_path, (2, 2), (0, 2))  # 2-0 against 0-2: L = 0.198 by hand
    assert "Undecided: the 95% interval of transfer overlaps that of scratch" in tiny
    assert "transfer: 1.00 (95% Wilson interval 0.20 to 1.00; 1 run, 2 games)" in tiny
    lopsided = _zetago_readme(tmp_path, (95, 100), (10, 100))
    assert "transfer is ahead: its 95% interval lies above every other's." in lopsided
    assert "transfer: 0.95 (95% Wilson interval 0.88 to 0.98; 1 run, 100 games)" in lopsided
    assert "scratch: 0.10 (95% Wilson interval 0.05 to 0.18; 1 run, 100 games)" in lopsided


@pytest.mark.parametrize(
    ("scale", "game", "iterations"),
    [("cpu", "othello5", 40), ("cpu", "othello6", 20), ("full", "gobang5", 200)],
)
def test_the_losses_runs_train_the_documented_number_of_iterations(
    scale: str, game: str, iterations: int
) -> None:
    """The cpu scale is I 40 on 5x5 boards (the paper's 200 / 5), scaled once, not twice."""
    from pyaz.experiments import get_experiment

    config = get_experiment("losses").config(game, "value", scale, seed=0)
    assert config["iterations"] == iterations
    if scale == "cpu":
        assert (config["episodes"], config["simulations"], config["retrain_iterations"]) == (
            10,
            25,
            4,
        )


def test_experiment_workers_share_the_cores_among_them() -> None:
    from pyaz.experiments.runner import worker_threads

    assert [worker_threads(w, cores=16) for w in (1, 2, 3, 16, 32)] == [16, 8, 5, 1, 1]
    assert worker_threads(2, cores=2) == 1 and worker_threads(1) >= 1
