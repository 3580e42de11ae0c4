"""The game profiles (:mod:`pyaz.games.profiles`): what auto (or none) resolves to in every
setting of :class:`~pyaz.methods.alphazero.config.TrainConfig`, for every built-in game and a spread
of boards, as it did before the per-game tables moved into the profiles; the legacy meaning of
``threat_planes`` auto; the profile of a game without one; what each profile holds; the
tables that moved from the modules outside games/ into the profiles (board views, record formats,
GTP and UCI games, the training method, the default games), as they were; a plug-in registered
with its profile; and the modules outside games/ that still name a board game (an allow-list that
may only shrink)."""

from __future__ import annotations

import ast
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

import pyaz
from pyaz.cli import selfplay
from pyaz.cli.gtp import build_parser as gtp_parser
from pyaz.cli.uci import build_parser as uci_parser
from pyaz.engines import uci_server
from pyaz.engines.gtp_server import RULES
from pyaz.eval import presets
from pyaz.eval.arena import default_opening_plies
from pyaz.eval.oracle_sets import GAME as ORACLE_SET_GAME
from pyaz.games import DEFAULT_GAME, GAMES, make, plugins, register_game
from pyaz.games.examples.tictactoe import TicTacToe
from pyaz.games.plugins import BUNDLED
from pyaz.games.profiles import (
    BOARD_VIEWS,
    DEFAULT_GTP_GAME,
    DEFAULT_PROFILE,
    DEFAULT_UCI_GAME,
    ENDINGS,
    METHODS,
    PROFILES,
    RECORDS,
    GameProfile,
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
    assert neutral == ((), (0,), ())  # no augmentation until a game declares its symmetries
    assert (DEFAULT_PROFILE.opening_plies, DEFAULT_PROFILE.oracle) == (2, False)
    assert DEFAULT_PROFILE.side_names == ("first player", "second player")
    with pytest.raises(TypeError, match="a game name must be a str, got 7"):
        profile(7)  # type: ignore[arg-type]


def test_every_profile_belongs_to_a_registered_game_and_holds_known_values() -> None:
    assert set(PROFILES) <= set(GAMES) | set(BUNDLED)  # the C++ games and the bundled ones
    known_kinds = set(presets.BUILDERS)
    for name, game in PROFILES.items():
        assert set(game.planes) <= set(THREAT_MODES) - {"off"}, name
        assert game.training.threat_planes.value in ("off", *game.planes), name
        assert 0 in game.symmetries and set(game.symmetries) <= set(range(8)), name
        assert set(game.opponents) <= known_kinds, name
        assert game.ending in ENDINGS, name
        assert len(game.side_names) == 2, name
        assert game.board_view in BOARD_VIEWS and game.record in RECORDS, name
        assert game.method in METHODS, name
        assert game.gtp is None or game.gtp.default_size in game.gtp.sizes, name


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


# what the modules outside games/ held before the tables moved into the profiles (2026-12-06)
BOARD_KINDS = {"connect_four": "columns", "racingkings": "chess"}  # by state name; else stones
RECORD_FORMATS = {"go": "sgf", "racingkings": "pgn", "racingkings-mod": "pgn"}  # else "moves"
GTP_RULES = {"go": (tuple(range(5, 20)), 9), "othello": ((4, 6, 8), 8)}  # engines/gtp_server.py


def test_the_tables_that_moved_into_the_profiles_are_as_they_were() -> None:
    for name in GAMES:
        game = profile(name)
        assert game.board_view == BOARD_KINDS.get(str(make(name).name), "stones"), name
        assert game.record == RECORD_FORMATS.get(name, "moves"), name
        assert game.method == ("kr_dl_uct" if name == "curling" else "alphazero"), name
    assert DEFAULT_PROFILE.board_view == "stones" and DEFAULT_PROFILE.record == "moves"
    assert (DEFAULT_PROFILE.gtp, DEFAULT_PROFILE.uci_variant) == (None, "")
    assert DEFAULT_PROFILE.method == "alphazero"
    # GTP: the games, their sizes, which plays the way Go is (the others as gtp-rhino)
    assert RULES == GTP_RULES and list(RULES) == ["go", "othello"]
    assert games_where(lambda game: game.gtp is not None and game.gtp.stones) == ["go"]
    # UCI: the variants the server plays and the command's games
    assert uci_server.VARIANTS == ("racingkings",)
    assert games_where(lambda game: bool(game.uci_variant)) == ["racingkings"]
    # the default games of pyaz-demo, pyaz-gtp and pyaz-uci
    assert (DEFAULT_GAME, DEFAULT_GTP_GAME, DEFAULT_UCI_GAME) == ("othello", "go", "racingkings")
    gtp_game = next(a for a in gtp_parser()._actions if a.dest == "game")
    assert (gtp_game.choices, gtp_game.default) == (["go", "othello"], "go")
    uci_game = next(a for a in uci_parser()._actions if a.dest == "game")
    assert (uci_game.choices, uci_game.default) == (["racingkings"], "racingkings")
    assert uci_game.help == "the game (UCI variant) to play: racingkings (default: racingkings)"
    # the greedy player's disc count, the mentor's game, the oracle sets' header
    assert games_where(lambda game: game.ending == "disc count") == ["othello"]
    assert games_where(lambda game: game.threat_analysis) == ["gomoku"]
    assert ORACLE_SET_GAME == "connect_four"


def test_a_game_registered_with_a_profile_takes_its_method(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(plugins, "_REGISTERED", {})
    shots = GameProfile(opening_plies=0, method="kr_dl_uct")
    register_game("Shots", TicTacToe, profile=shots)
    register_game("plain", TicTacToe)
    assert profile("shots") is profile("SHOTS") is shots
    assert profile("plain") is DEFAULT_PROFILE
    modes: list[str] = []
    monkeypatch.setattr(selfplay, "_train_curling", lambda args, game: modes.append(game) or 0)
    assert selfplay.main(["--game", "Shots", "--out", str(tmp_path / "run")]) == 0
    assert selfplay.main(["--game", "curling", "--out", str(tmp_path / "run")]) == 0
    assert modes == ["Shots", "curling"]


SOURCE = Path(pyaz.__file__).parent

STILL_NAMING_GAMES: dict[str, set[str]] = {
    # the value --technique curriculum gives the curriculum setting: the name of the preset
    # (pyaz/train/curricula.toml) it was measured with, as run configs and docs/training.md say
    "train/techniques.py": {"reversi"},
}
"""The modules outside games/ whose code (docstrings aside: an example names a game) holds a
board game's registry name or alias as a string, and the names each holds. A game's knowledge
belongs to its profile (:mod:`pyaz.games.profiles`): this list may only shrink."""

NOT_GAME_NAMES: dict[str, set[str]] = {
    "engines/uci_server.py": {"go"},  # UCI's command "go", not the game
}
"""The strings of a module that are a game's name but mean something else there."""


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
        allowed = STILL_NAMING_GAMES.get(module, set()) | NOT_GAME_NAMES.get(module, set())
        held = _names_held(path, names) - allowed
        if held:
            new[module] = sorted(held)
    assert not new, f"put what these modules know of a game into its profile: {new}"


def test_the_list_of_modules_naming_games_holds_only_what_they_name() -> None:
    # a module that no longer names a game leaves the list: the list shrinks as they do
    names = _game_names()
    stale = {
        module: sorted(listed - _names_held(SOURCE / module, names))
        for module, listed in {**STILL_NAMING_GAMES, **NOT_GAME_NAMES}.items()
        if not (SOURCE / module).exists() or listed - _names_held(SOURCE / module, names)
    }
    assert not stale, f"take these names off the list, the modules no longer hold them: {stale}"
