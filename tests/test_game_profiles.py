"""The game profiles (:mod:`pyaz.games.profiles`): what auto (or none) resolves to in every
setting of :class:`~pyaz.methods.alphazero.config.TrainConfig`, for every built-in game and a spread
of boards, as it did before the per-game tables moved into the profiles; the legacy meaning of
``threat_planes`` auto; the profile of a game without one; what each profile holds; and the
modules outside games/ that still name a board game (an allow-list that may only shrink)."""

from __future__ import annotations

import ast
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

import pyaz
from pyaz.eval import presets
from pyaz.eval.arena import default_opening_plies
from pyaz.games import GAMES, make
from pyaz.games.profiles import (
    DEFAULT_PROFILE,
    ENDINGS,
    PROFILES,
    TrainingDefaults,
    Tuned,
    games_where,
    profile,
)
from pyaz.games.state import BoardGameState
from pyaz.methods.alphazero.config import TrainConfig
from pyaz.methods.alphazero.saved_settings import upgrade_settings
from pyaz.nets import THREAT_MODES

FIELDS = (
    "threat_planes", "opening_spread", "lr_schedule", "search_rule", "solver", "value_target_q",
    "sparring", "sparring_games", "sparring_imitation", "epochs",
)  # fmt: skip
"""The settings whose auto (or none) a game's profile decides, in :data:`RESOLVED`'s order."""

VARIANTS: dict[str, dict[str, Any]] = {
    "forced_playouts": {"forced_playouts": True},  # PUCT's technique: the rule stays PUCT
    "curriculum": {"curriculum": "reversi"},  # the curriculum chooses the opening plies
    "no_sparring": {"sparring_games": 0},
    "gumbel": {"search_rule": "gumbel"},  # the solver beside Gumbel where the game's
    "sparring_games": {"sparring_games": 5},
}
"""Settings given beside the auto ones, each a row of :data:`RESOLVED`'s changes."""

# (game, options, what every auto resolves to, the changes each VARIANTS entry makes to it),
# written from the code of 2026-12-06 before the tables moved into the profiles
RESOLVED: list[tuple[str, dict[str, Any], tuple[Any, ...], dict[str, dict[str, Any]]]] = [
    (
        "othello",
        {"size": 4},
        ("off", 0, "constant", "puct", False, 0.0, "none", 0, False, 2),
        {"gumbel": {"search_rule": "gumbel"}, "sparring_games": {"sparring_games": 5}},
    ),
    (
        "othello",
        {"size": 6},
        ("off", 0, "constant", "puct", False, 0.0, "none", 0, False, 2),
        {"gumbel": {"search_rule": "gumbel"}, "sparring_games": {"sparring_games": 5}},
    ),
    (
        "othello",
        {"size": 8},
        ("off", 0, "constant", "puct", False, 0.0, "none", 0, False, 1),
        {"gumbel": {"search_rule": "gumbel"}, "sparring_games": {"sparring_games": 5}},
    ),
    (
        "reversi",
        {"size": 8},
        ("off", 0, "constant", "puct", False, 0.0, "none", 0, False, 1),
        {"gumbel": {"search_rule": "gumbel"}, "sparring_games": {"sparring_games": 5}},
    ),
    (
        "connect_four",
        {},
        ("parity", 24, "cosine", "puct", False, 0.0, "none", 0, False, 2),
        {
            "curriculum": {"opening_spread": 0},
            "gumbel": {"search_rule": "gumbel"},
            "sparring_games": {"sparring_games": 5},
        },
    ),
    (
        "connect_four",
        {"width": 6, "height": 6},
        ("parity", 24, "cosine", "puct", False, 0.0, "none", 0, False, 2),
        {
            "curriculum": {"opening_spread": 0},
            "gumbel": {"search_rule": "gumbel"},
            "sparring_games": {"sparring_games": 5},
        },
    ),
    (
        "connect4",
        {"width": 5, "height": 4},
        ("parity", 24, "cosine", "puct", False, 0.0, "none", 0, False, 2),
        {
            "curriculum": {"opening_spread": 0},
            "gumbel": {"search_rule": "gumbel"},
            "sparring_games": {"sparring_games": 5},
        },
    ),
    (
        "gomoku",
        {},
        ("deep", 0, "constant", "gumbel", True, 0.5, "mentor:20", 20, True, 2),
        {
            "forced_playouts": {"search_rule": "puct", "solver": False},
            "no_sparring": {"sparring": "none", "sparring_games": 0, "sparring_imitation": False},
            "sparring_games": {"sparring_games": 5},
        },
    ),
    (
        "gomoku",
        {"size": 9},
        ("deep", 0, "constant", "gumbel", True, 0.5, "mentor:20", 20, True, 2),
        {
            "forced_playouts": {"search_rule": "puct", "solver": False},
            "no_sparring": {"sparring": "none", "sparring_games": 0, "sparring_imitation": False},
            "sparring_games": {"sparring_games": 5},
        },
    ),
    (
        "gomoku",
        {"size": 9, "overline_wins": False},
        ("deep", 0, "constant", "gumbel", True, 0.5, "none", 0, False, 2),
        {
            "forced_playouts": {"search_rule": "puct", "solver": False},
            "sparring_games": {"sparring_games": 5, "sparring_imitation": True},
        },
    ),
    (
        "gomoku",
        {"size": 6, "line_length": 4},
        ("deep", 0, "constant", "gumbel", True, 0.5, "none", 0, False, 2),
        {
            "forced_playouts": {"search_rule": "puct", "solver": False},
            "sparring_games": {"sparring_games": 5, "sparring_imitation": True},
        },
    ),
    (
        "gomoku",
        {"size": 9, "line_length": 4},
        ("deep", 0, "constant", "gumbel", True, 0.5, "none", 0, False, 2),
        {
            "forced_playouts": {"search_rule": "puct", "solver": False},
            "sparring_games": {"sparring_games": 5, "sparring_imitation": True},
        },
    ),
    (
        "go",
        {"size": 5},
        ("off", 0, "constant", "puct", False, 0.0, "none", 0, False, 2),
        {"gumbel": {"search_rule": "gumbel"}, "sparring_games": {"sparring_games": 5}},
    ),
    (
        "go",
        {},
        ("off", 0, "constant", "puct", False, 0.0, "none", 0, False, 2),
        {"gumbel": {"search_rule": "gumbel"}, "sparring_games": {"sparring_games": 5}},
    ),
    (
        "racingkings",
        {},
        ("off", 0, "constant", "puct", False, 0.0, "none", 0, False, 2),
        {"gumbel": {"search_rule": "gumbel"}, "sparring_games": {"sparring_games": 5}},
    ),
    (
        "racingkings-mod",
        {},
        ("off", 0, "constant", "puct", False, 0.0, "none", 0, False, 2),
        {"gumbel": {"search_rule": "gumbel"}, "sparring_games": {"sparring_games": 5}},
    ),
]


@pytest.mark.parametrize(("game", "options", "auto", "changes"), RESOLVED)
def test_every_auto_setting_resolves_as_before(
    game: str, options: dict[str, Any], auto: tuple[Any, ...], changes: dict[str, dict[str, Any]]
) -> None:
    for variant, settings in {"auto": {}, **VARIANTS}.items():
        resolved = TrainConfig(game=game, game_options=options, **settings).resolved()
        expected = {**dict(zip(FIELDS, auto, strict=True)), **changes.get(variant, {})}
        assert {name: getattr(resolved, name) for name in FIELDS} == expected, variant


@pytest.mark.parametrize(
    ("game", "planes"),
    [
        ("connect_four", "on"),
        ("connect4", "on"),
        ("gomoku", "off"),
        ("othello", "off"),
        ("go", "off"),
    ],
)
def test_threat_planes_auto_of_a_run_saved_before_2026_11_27(game: str, planes: str) -> None:
    saved = {"game": game, "game_options": {}, "threat_planes": "auto"}
    assert upgrade_settings(saved)["threat_planes"] == planes


def test_a_profile_by_any_name_and_the_neutral_one_for_a_game_without() -> None:
    assert profile("connect4") is profile("Connect Four") is PROFILES["connect_four"]
    mod = make("racingkings-mod")
    assert profile(str(mod.name)) is profile("racingkings-mod") is PROFILES["racingkings"]
    assert profile("mypkg.games:MyGame") is DEFAULT_PROFILE  # a plug-in: the neutral profile
    neutral = (DEFAULT_PROFILE.planes, DEFAULT_PROFILE.symmetries, DEFAULT_PROFILE.opponents)
    assert neutral == ((), (0, 1, 2, 3, 4, 5, 6, 7), ())
    assert (DEFAULT_PROFILE.opening_plies, DEFAULT_PROFILE.oracle) == (2, False)
    assert DEFAULT_PROFILE.side_names == ("first player", "second player")
    with pytest.raises(TypeError, match="a game name must be a str, got 7"):
        profile(7)  # type: ignore[arg-type]


def test_every_profile_belongs_to_a_registered_game_and_holds_known_values() -> None:
    assert set(PROFILES) <= set(GAMES)
    known_kinds = set(presets.BUILDERS)
    for name, game in PROFILES.items():
        assert set(game.planes) <= set(THREAT_MODES) - {"off"}, name
        assert game.training.threat_planes.value in ("off", *game.planes), name
        assert 0 in game.symmetries and set(game.symmetries) <= set(range(8)), name
        assert set(game.opponents) <= known_kinds, name
        assert game.ending in ENDINGS, name
        assert len(game.side_names) == 2, name


def test_every_tuned_value_names_its_date_and_figure() -> None:
    # a value that differs from the general default was chosen by a measurement: its record says
    # when and which figure; the general defaults say so too where one chose them
    for name, game in PROFILES.items():
        tuned = game.training
        for field in fields(TrainingDefaults):
            value = getattr(tuned, field.name)
            if isinstance(value, Tuned) and value != getattr(DEFAULT_PROFILE.training, field.name):
                assert value.chosen[:4] == "2026" and value.figure, (name, field.name)
        for shape, epochs in tuned.epochs_by_board:
            assert epochs.chosen and epochs.figure and len(shape) == 2, name
    assert profile("othello").training.epochs_for((8, 8)) == 1
    assert profile("othello").training.epochs_for((6, 6)) == 2


def test_what_the_profiles_decide_elsewhere() -> None:
    # the plane modes (nets), the symmetries (augmentation), the oracle and opponents (players)
    assert games_where(lambda game: "on" in game.planes) == ["connect_four", "gomoku"]
    assert games_where(lambda game: "mobility" in game.planes) == ["othello"]
    assert games_where(lambda game: game.oracle) == ["connect_four"]
    assert games_where(lambda game: "gtp" in game.opponents) == ["go", "othello"]
    assert games_where(lambda game: "uci" in game.opponents) == ["racingkings"]
    for name in ("connect_four", "racingkings"):
        assert pyaz.num_symmetries(make(name)) == 2
    for name in ("othello", "gomoku", "go"):
        assert pyaz.num_symmetries(make(name)) == 8


def test_a_matchs_opening_plies_are_the_profiles() -> None:
    # eval/arena.py keeps its own table until it reads the profiles: the two must not drift
    for name in GAMES:
        assert default_opening_plies(make(name)) == profile(name).opening_plies, name


SOURCE = Path(pyaz.__file__).parent

STILL_NAMING_GAMES: dict[str, set[str]] = {
    "methods/alphagomoku/pair.py": {"gomoku"},  # seed 004's method plays Gomoku only
    "methods/alphagomoku/pipeline.py": {"gomoku"},
    "cli/board/sessions.py": {"racingkings", "connect_four"},  # how the page draws each board
    "cli/demo.py": {"othello"},  # the default game of the command
    "cli/gtp.py": {"go"},
    "cli/uci.py": {"racingkings"},
    "engines/gtp_server.py": {"othello", "go"},  # the GTP games and their rules
    "engines/uci_server.py": {"go", "racingkings"},  # "go": UCI's command of that name
    "eval/arena.py": {"othello", "racingkings", "connect_four", "gomoku", "go"},
    "eval/external.py": {"othello", "go", "racingkings"},
    "eval/match_files.py": {"racingkings-mod", "go", "racingkings"},
    "eval/oracle_sets.py": {"connect_four"},
    "eval/players.py": {"gomoku", "othello"},  # the mentor's game; the greedy player's discs
    "experiments/acceleration_report.py": {"othello", "connect4"},  # the experiment's tracks
    "experiments/acceleration_techniques.py": {"othello", "connect4", "reversi", "connect_four"},
    "experiments/accelerations.py": {"othello", "connect4"},
    "experiments/alphagomoku.py": {"gomoku"},  # the seeds' experiments: their games
    "experiments/curriculum.py": {"racingkings-mod"},
    "experiments/losses.py": {"gomoku", "othello", "connect_four"},
    "experiments/seed001.py": {"othello"},
    "experiments/zetago.py": {"go"},
    "methods/alphazero/config.py": {"othello"},  # the default game of a run
    "train/curriculum.py": {"reversi", "racingkings"},  # the curriculum presets' names
    "train/techniques.py": {"reversi"},
    "methods/reinforce/net.py": {"go"},  # seed 003's method plays Go only
}
"""The modules outside games/ whose code (docstrings aside: an example names a game) holds a
board game's registry name or alias as a string, and the names each holds. A game's knowledge
belongs to its profile (:mod:`pyaz.games.profiles`): this list may only shrink."""


def _game_names() -> set[str]:
    """The registry names and aliases of the board games (curling's name is also its method's
    and its model kind's)."""
    return {
        alias
        for name, spec in GAMES.items()
        if isinstance(make(name), BoardGameState)
        for alias in (name, *spec.aliases)
    }


def _docstrings(tree: ast.Module) -> set[int]:
    """The ids of the docstring nodes of ``tree``'s module, classes and functions."""
    found = set()
    for node in ast.walk(tree):
        kinds = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
        if isinstance(node, kinds) and node.body and isinstance(node.body[0], ast.Expr):
            found.add(id(node.body[0].value))
    return found


def _names_held(path: Path, names: set[str]) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = _docstrings(tree)
    return {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and node.value in names and id(node) not in docstrings
    }


def test_no_new_module_outside_games_names_a_game() -> None:
    names = _game_names()
    assert {"connect_four", "connect4", "go", "reversi"} <= names
    new = {}
    for path in sorted(SOURCE.rglob("*.py")):
        module = path.relative_to(SOURCE).as_posix()
        if module.startswith("games/"):
            continue
        held = _names_held(path, names) - STILL_NAMING_GAMES.get(module, set())
        if held:
            new[module] = sorted(held)
    assert not new, f"put what these modules know of a game into its profile: {new}"
