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
