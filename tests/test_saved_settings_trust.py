"""Saved settings never start a process (issue 74, item 3).

A run folder's config.json (or an experiment's saved plan) is data someone may hand over: a
player spec in it that names an external engine (``gtp:COMMAND``, ``uci:``, ``gnugo``, ...,
also behind ``guard:``) is refused on ``--resume`` unless the same spec is given on the command
line this time, with one line naming the setting and the file and saying how to allow it. The
engines here would create a marker file: it must never appear.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest
from messages import one_line

from pyaz.cli import selfplay
from pyaz.common.settings import refuse_saved_engines
from pyaz.eval.presets import starts_process
from pyaz.experiments import get_experiment
from pyaz.experiments.runner import EXPERIMENT_FILE, run_experiment
from pyaz.methods.alphazero.config import TrainConfig
from pyaz.methods.alphazero.loop import TrainingLoop

OPTION = {"eval_opponent": "--eval-opponent", "sparring": "--sparring"}


def engine(marker: Path) -> str:
    """A GTP engine spec that would create ``marker`` if it were ever started."""
    return f"gtp:touch {marker}"


def saved_run(folder: Path, **settings: Any) -> Path:
    """A run folder whose config.json holds a Go 5x5 run with ``settings`` (as a run saves
    them: resolved, with its method); returns the folder."""
    config = TrainConfig(game="go", game_options={"size": 5}, net="tiny", **settings)
    folder.mkdir()
    saved = {"method": TrainingLoop.NAME, **asdict(config.resolved())}
    (folder / "config.json").write_text(json.dumps(saved))
    return folder


@pytest.mark.parametrize(
    ("setting", "wrap"),
    [("eval_opponent", "{}"), ("sparring", "{}"), ("sparring", "guard:100:{}")],
)
def test_resume_refuses_a_saved_engine_and_starts_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], setting: str, wrap: str
) -> None:
    marker = tmp_path / "started"
    spec = wrap.format(engine(marker))
    games = {"sparring_games": 2} if setting == "sparring" else {}
    out = saved_run(tmp_path / "run", **{setting: spec, **games})
    status = selfplay.main(["--out", str(out), "--resume", "--quiet"])
    line = one_line(capsys.readouterr().err)
    assert status == 2
    assert line.startswith(f"pyaz-selfplay: {out / 'config.json'}: {setting} {spec!r} starts")
    assert line.endswith(f"repeat {OPTION[setting]} {spec!r} on the command line to allow it")
    assert not marker.exists()


def test_resume_takes_a_saved_engine_given_again_on_the_command_line(tmp_path: Path) -> None:
    marker = tmp_path / "started"
    spec = engine(marker)
    out = saved_run(tmp_path / "run", eval_opponent=spec)
    args = selfplay.build_parser().parse_args(
        ["--out", str(out), "--resume", "--eval-opponent", spec]
    )
    assert selfplay.settings_from(args).eval_opponent == spec  # checked, nothing started
    assert not marker.exists()


def test_a_preset_file_repeating_the_engine_does_not_allow_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Only the command line is the person's word: a preset is a file, as config.json is."""
    marker = tmp_path / "started"
    spec = engine(marker)
    out = saved_run(tmp_path / "run", eval_opponent=spec)
    preset = tmp_path / "preset.toml"
    preset.write_text(f"eval_opponent = {json.dumps(spec)}\n")
    status = selfplay.main(["--out", str(out), "--resume", "--preset", str(preset)])
    assert status == 2
    assert "eval_opponent" in one_line(capsys.readouterr().err)
    assert not marker.exists()


def test_from_folder_refuses_a_saved_engine_unless_passed_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    marker = tmp_path / "started"
    spec = engine(marker)
    out = saved_run(tmp_path / "run", eval_opponent=spec)
    with pytest.raises(ValueError) as refused:
        TrainingLoop.from_folder(out)
    assert str(refused.value) == (
        f"{out / 'config.json'}: eval_opponent {spec!r} starts an external engine, and saved "
        f"settings never start a process: pass eval_opponent={spec!r} to allow it"
    )

    def opened(cls: type, folder: Path, settings: dict[str, Any], *rest: Any) -> Any:
        return settings  # what the loop would be built with (building it starts the engine)

    monkeypatch.setattr(TrainingLoop, "from_settings", classmethod(opened))
    settings: Any = TrainingLoop.from_folder(out, eval_opponent=spec)
    assert settings["eval_opponent"] == spec
    assert not marker.exists()


def test_an_experiment_plan_naming_an_engine_is_refused_before_any_run(tmp_path: Path) -> None:
    """An experiment's runs come from pyaz's code; a saved plan that differs (here, a run
    whose opponent is an engine) is refused before anything runs."""
    marker = tmp_path / "started"
    experiment = get_experiment("grid")
    runs = [asdict(spec) for spec in experiment.runs("short", 0)]
    runs[0]["kwargs"]["config"]["eval_opponent"] = engine(marker)
    plan = {"experiment": "grid", "scale": "short", "seed": 0, "options": {}, "runs": runs}
    out = tmp_path / "experiment"
    out.mkdir()
    (out / EXPERIMENT_FILE).write_text(json.dumps(plan))
    with pytest.raises(ValueError, match="plans other runs than this pyaz's grid"):
        run_experiment(experiment, out, resume=True, write=lambda line: None)
    assert not marker.exists()
    assert not (out / "runs").exists()


@pytest.mark.parametrize(
    ("spec", "starts"),
    [
        ("gtp:gnugo --mode gtp", True),
        (" GTP: gnugo", True),
        ("uci:stockfish", True),
        ("gnugo:5", True),
        ("pachi", True),
        ("gtp-rhino:3", True),
        ("fairy-stockfish", True),
        ("lichess:2", True),
        ("guard:gtp:x", True),
        ("guard:100:5:uci:x", True),
        ("guard:guard:gnugo", True),
        ("guard:model:runs/g9:800", False),
        ("model:runs/gtp:5", False),
        ("mentor:20", False),
        ("uct200", False),
        ("none", False),
        ("", False),
        ("guard:", False),
    ],
)
def test_which_specs_start_a_process(spec: str, starts: bool) -> None:
    assert starts_process(spec) is starts


def test_the_refusal_is_one_bounded_line_whatever_the_saved_value() -> None:
    spec = "gtp:sh -c 'touch x'\n" + "y" * 10_000
    with pytest.raises(ValueError) as refused:
        refuse_saved_engines("run/config.json", {"sparring": spec}, {}, starts_process)
    message = str(refused.value)
    assert "\n" not in message and len(message) < 700
    assert message.startswith("run/config.json: sparring \"gtp:sh -c 'touch x'\\ny")
    refuse_saved_engines(
        "c.json", {"sparring": spec, "seed": 3}, {"sparring": spec}, starts_process
    )
    refuse_saved_engines("c.json", {"eval_opponent": "uct200", "game": 5}, {}, starts_process)
