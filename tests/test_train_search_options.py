"""The self-play search techniques of issue 25 as training settings: each reaches SelfPlay, each
bad value is refused naming the setting, and a run with them trains and resumes."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from pyaz.methods.alphazero.config import TrainConfig
from pyaz.methods.alphazero.loop import TrainingLoop


def _config(**changes: object) -> TrainConfig:
    base = TrainConfig(
        game="connect_four", game_options={"width": 5, "height": 4}, iterations=1, episodes=4,
        simulations=16, parallel_games=4, epochs=1, batch_size=16, eval_opponent="none",
        arena_games=2, elo_games=0,
    )  # fmt: skip
    return dataclasses.replace(base, **changes)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("changes", "named"),
    [
        ({"search_rule": "alphabeta"}, "search_rule"),
        ({"gumbel_actions": 0}, "gumbel_actions"),
        ({"full_search_prob": 0.0}, "full_search_prob"),
        ({"full_search_prob": 1.5}, "full_search_prob"),
        ({"full_search_prob": float("nan")}, "full_search_prob"),
        ({"cheap_simulations": 17}, "cheap_simulations"),
        ({"cheap_simulations": -1}, "cheap_simulations"),
        ({"forced_playouts": True, "search_rule": "gumbel"}, "forced_playouts"),
        ({"solver": "yes"}, "solver"),
    ],
)
def test_bad_search_settings_are_refused_naming_them(changes: dict, named: str) -> None:
    with pytest.raises((ValueError, TypeError), match=named):
        _config(**changes).validate()


def test_the_search_settings_reach_self_play(tmp_path: Path) -> None:
    config = _config(
        search_rule="gumbel", gumbel_actions=4, solver=True, full_search_prob=0.5,
        cheap_simulations=4,
    )  # fmt: skip
    loop = TrainingLoop(config, tmp_path / "run", progress=False)
    options = loop._self_play_job(1).options
    assert options["rule"] == "gumbel"
    assert options["gumbel_actions"] == 4
    assert options["solver"] is True
    assert options["full_search_prob"] == 0.5
    assert options["cheap_simulations"] == 4
    loop.run()
    loop.log.close()


@pytest.mark.parametrize(
    "changes",
    [
        {"search_rule": "gumbel", "gumbel_actions": 4},
        {"solver": True},
        {"forced_playouts": True},
        {"full_search_prob": 0.25},
    ],
)
def test_a_run_with_each_technique_trains_and_keeps_only_full_searches(
    tmp_path: Path, changes: dict
) -> None:
    loop = TrainingLoop(_config(**changes), tmp_path / "run", progress=False)
    loop.run()
    loop.log.close()
    assert loop.counters["iteration"] == 1
    positions = loop.buffer.num_positions
    assert positions > 0
    if changes.get("full_search_prob") == 0.25:  # about a quarter of about 4 x 12 moves
        assert positions < 4 * 20 * 0.6


@pytest.mark.parametrize(
    ("game", "changes", "used"),
    [
        ("gomoku", {}, ("gumbel", True)),  # measured best on 9x9 (2026-11-29)
        ("connect_four", {}, ("puct", False)),
        ("othello", {}, ("puct", False)),
        ("gomoku", {"forced_playouts": True}, ("puct", False)),  # PUCT's technique
        ("gomoku", {"search_rule": "puct"}, ("puct", False)),
        ("gomoku", {"search_rule": "gumbel"}, ("gumbel", True)),
        ("gomoku", {"solver": False}, ("gumbel", False)),
        ("gomoku", {"search_rule": "puct", "solver": True}, ("puct", True)),
        ("othello", {"search_rule": "gumbel"}, ("gumbel", False)),
    ],
)
def test_auto_search_is_the_games_measured_best(game: str, changes: dict, used: tuple) -> None:
    options = {"connect_four": {}, "gomoku": {"size": 9}, "othello": {"size": 8}}[game]
    config = TrainConfig(game=game, game_options=options, **changes)
    config.validate()
    assert config.search_used == used
    resolved = config.resolved()
    assert (resolved.search_rule, resolved.solver) == used


def test_a_gomoku_run_saves_and_plays_what_auto_chose(tmp_path: Path) -> None:
    config = _config(game="gomoku", game_options={"size": 5, "line_length": 4})
    loop = TrainingLoop(config, tmp_path / "run", progress=False)
    options = loop._self_play_job(1).options
    assert (options["rule"], options["solver"]) == ("gumbel", True)
    saved = json.loads((tmp_path / "run" / "config.json").read_text())
    assert (saved["search_rule"], saved["solver"]) == ("gumbel", True)  # not auto / null
    assert saved["value_target_q"] == 0.5  # none: Gomoku's z/q blend
    loop.log.close()


@pytest.mark.parametrize(
    ("game", "given", "used"),
    [("gomoku", None, 0.5), ("connect_four", None, 0.0), ("othello", None, 0.0),
     ("gomoku", 0.0, 0.0), ("othello", 0.25, 0.25)],
)  # fmt: skip
def test_the_value_target_is_the_games_measured_best(
    game: str, given: float | None, used: float
) -> None:
    options = {"connect_four": {}, "gomoku": {"size": 9}, "othello": {"size": 8}}[game]
    config = TrainConfig(game=game, game_options=options, value_target_q=given)
    config.validate()
    assert config.value_target_q_used == used and config.resolved().value_target_q == used


@pytest.mark.parametrize(
    ("game", "options", "given", "used"),
    [("othello", {"size": 8}, None, 1), ("othello", {}, None, 1),
     ("othello", {"size": 6}, None, 2), ("connect_four", {}, None, 2),
     ("gomoku", {"size": 9}, None, 2), ("othello", {"size": 8}, 3, 3), ("connect_four", {}, 1, 1)],
)  # fmt: skip
def test_the_epochs_are_the_games_measured_best(
    game: str, options: dict[str, int], given: int | None, used: int
) -> None:
    config = TrainConfig(game=game, game_options=options, epochs=given)
    config.validate()
    assert config.epochs_used == used and config.resolved().epochs == used


def test_a_saved_null_epochs_is_the_games_and_a_saved_number_stays() -> None:
    othello8 = {"game": "othello", "game_options": {"size": 8}}
    assert TrainingLoop.upgrade_settings({**othello8, "epochs": None})["epochs"] == 1
    assert TrainingLoop.upgrade_settings({**othello8, "epochs": 2})["epochs"] == 2  # older runs
    assert TrainingLoop.upgrade_settings(othello8)["epochs"] == 2
    othello6 = {"game": "othello", "game_options": {"size": 6}, "epochs": None}
    assert TrainingLoop.upgrade_settings(othello6)["epochs"] == 2


def test_saved_runs_keep_their_search() -> None:
    # before search_rule and solver: PUCT without the solver, whatever the game
    assert TrainingLoop.upgrade_settings({"game": "gomoku"})["search_rule"] == "puct"
    assert TrainingLoop.upgrade_settings({"game": "gomoku"})["solver"] is False
    hand_written = TrainingLoop.upgrade_settings({"game": "gomoku", "search_rule": "auto"})
    assert (hand_written["search_rule"], hand_written["solver"]) == ("gumbel", False)
    hand_written = TrainingLoop.upgrade_settings(
        {"game": "gomoku", "search_rule": "auto", "solver": None}
    )
    assert (hand_written["search_rule"], hand_written["solver"]) == ("gumbel", True)
    # sparring games (played by PUCT) leave the self-play search as the game's
    sparring = {"game": "gomoku", "search_rule": "auto", "solver": None, "sparring_games": 4}
    assert TrainingLoop.upgrade_settings(sparring)["search_rule"] == "gumbel"
    # before the game's value target (2026-12-01) every run saved its weight; a null written by
    # hand is the game's, a config.json without the key a run with z
    assert TrainingLoop.upgrade_settings({"game": "gomoku"})["value_target_q"] == 0.0
    none = {"game": "gomoku", "value_target_q": None}
    assert TrainingLoop.upgrade_settings(none)["value_target_q"] == 0.5


@pytest.mark.parametrize("preset", ["gobang5-seed001", "gomoku15-seed004"])
def test_the_seed_presets_search_as_their_papers(preset: str) -> None:
    from pyaz.methods.alphazero.preset_files import load_preset, train_config

    config = train_config(load_preset(preset))
    assert config.search_used == ("puct", False) and config.value_target_q_used == 0.0
    assert config.sparring_used == ("none", 0, False)  # its own games alone


def test_seed_001s_experiments_search_with_puct_on_gobang() -> None:
    from pyaz.experiments.losses import LossesExperiment
    from pyaz.methods.alphazero.preset_files import train_config

    settings = LossesExperiment().config("gobang5", "plus", "short", 0)
    config = train_config(settings)
    assert config.search_used == ("puct", False) and config.value_target_q_used == 0.0
    assert config.sparring_used == ("none", 0, False)
