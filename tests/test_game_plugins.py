"""Games from outside pyaz (issue 76): registered in Python, offered by an installed package's
entry point, named by a module path; the bundled tic-tac-toe with its exhaustive minimax; and
saved settings that never import a module."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import pytest

import pyaz
from pyaz._core import Status
from pyaz.cli import selfplay
from pyaz.games import (
    allow_code_reference,
    canonical_name,
    is_code_reference,
    plugins,
    register_game,
)
from pyaz.games.examples.tictactoe import TicTacToe
from pyaz.games.minimax import solve_all
from pyaz.games.profiles import DEFAULT_PROFILE, profile
from pyaz.games.symmetry import symmetry_ids
from pyaz.methods.alphazero.saved_settings import refuse_saved_code, upgrade_settings
from pyaz.testing import DIHEDRAL, check_game

# Tic-tac-toe's published counts: 255,168 games, 1440 of them over at ply 5.
TIC_TAC_TOE_PERFT = {1: 9, 2: 72, 3: 504, 4: 3024, 5: 15120, 6: 54720}

GAME_MODULE = """
from pyaz.games.examples.tictactoe import TicTacToe

class Game(TicTacToe):
    name = "{name}"

def start(first=None):
    state = Game()
    if first is not None:
        state.apply(first)
    return state

class NotAGame:
    name = "half"

IMPORTED = True
"""


@pytest.fixture(autouse=True)
def no_registered_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts with no game registered and no module path allowed, and leaves none
    behind."""
    monkeypatch.setattr(plugins, "_REGISTERED", {})
    monkeypatch.setattr(plugins, "_ALLOWED_CODE", set())
    monkeypatch.setattr(plugins, "_DECLARED", {})
    monkeypatch.setattr(plugins, "_STATE_NAMES", {})


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder on sys.path for the tests' modules and distributions; the modules imported
    from it are forgotten after the test."""
    monkeypatch.syspath_prepend(str(tmp_path))
    before = set(sys.modules)
    yield tmp_path
    for name in set(sys.modules) - before:
        if name.startswith("plugin_"):
            del sys.modules[name]


def _module(site: Path, name: str, game: str = "from_module") -> str:
    (site / f"{name}.py").write_text(GAME_MODULE.format(name=game))
    return name


def _distribution(site: Path, module: str, entry_points: str) -> None:
    """An installed distribution pyaz-mygame whose entry points are ``entry_points``."""
    info = site / "pyaz_mygame-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: pyaz-mygame\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[pyaz.games]\n{entry_points}\n")


# -- registered in Python ---------------------------------------------------------------------


def test_a_registered_game_is_made_by_its_name_with_its_options() -> None:
    register_game("Noughts", lambda first=None: _played(TicTacToe(), first), summary="3x3")
    assert canonical_name(" noughts ") == "noughts"
    assert pyaz.make("NOUGHTS").legal_actions() == list(range(9))
    assert pyaz.make("noughts", first=4).legal_actions() == [0, 1, 2, 3, 5, 6, 7, 8]
    assert plugins.find_plugin("noughts").summary == "3x3"
    with pytest.raises(TypeError, match=r"'noughts'.*unexpected keyword argument 'size'"):
        pyaz.make("noughts", size=4)


def _played(state: TicTacToe, action: int | None) -> TicTacToe:
    if action is not None:
        state.apply(action)
    return state


def test_registering_checks_the_name_and_the_factory() -> None:
    register_game("noughts", TicTacToe)
    with pytest.raises(ValueError, match="'noughts' is registered already"):
        register_game("Noughts", TicTacToe)
    register_game("noughts", lambda: TicTacToe(), replace=True)
    for name in ("othello", "Reversi", "connect4", "tictactoe"):
        with pytest.raises(ValueError, match="a game of pyaz's own"):
            register_game(name, TicTacToe)
    for name in ("", "  ", "my:game"):
        with pytest.raises(ValueError, match="non-empty and have no ':'"):
            register_game(name, TicTacToe)
    with pytest.raises(TypeError, match="must be a str, got 3"):
        register_game(3, TicTacToe)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="factory of 'board' must be callable, got 'x'"):
        register_game("board", "x")  # type: ignore[arg-type]


def test_a_factory_that_builds_no_game_is_named() -> None:
    register_game("half", lambda: object())
    with pytest.raises(ValueError, match=r"game 'half' is not a game: .* gave a object"):
        pyaz.make("half")


def test_an_unknown_name_lists_the_built_in_and_plug_in_games() -> None:
    register_game("noughts", TicTacToe)
    with pytest.raises(ValueError) as error:
        pyaz.make("chess")
    message = str(error.value)
    assert message.startswith("unknown game 'chess'; known games: connect_four, ")
    assert "plug-in games: noughts, tictactoe;" in message
    assert "'openspiel:NAME'" in message and "'package.module:Name'" in message


# -- offered by an installed package ----------------------------------------------------------


def test_an_installed_packages_entry_point_makes_its_game(site: Path) -> None:
    module = _module(site, "plugin_entry", "mygame")
    _distribution(site, module, f"MyGame = {module}:start")
    assert "mygame" in plugins.plugin_names()
    assert module not in sys.modules  # listing and naming load no entry point
    assert canonical_name("mygame") == "mygame"
    assert module not in sys.modules
    state = pyaz.make("MyGame", first=0)
    assert (state.name, state.ply) == ("mygame", 1)
    assert plugins.find_plugin("mygame").source == f"entry point {module}:start"
    refuse_saved_code("config.json", {"game": "mygame"}, {})  # an installed package: allowed


def test_an_entry_points_game_declares_its_profile_on_its_factory(site: Path) -> None:
    """``pyaz_profile`` on the entry point's factory is the game's profile once it is made: its
    symmetries augment its training and the kit checks them; anything else is refused."""
    module = _module(site, "plugin_declared", "squares")
    with (site / f"{module}.py").open("a") as source:
        source.write(
            "from pyaz.games.profiles import GameProfile, SQUARE_SYMMETRIES\n"
            "start.pyaz_profile = GameProfile(symmetries=SQUARE_SYMMETRIES, opening_plies=3)\n"
            "def wrong(first=None):\n    return start(first)\n"
            "wrong.pyaz_profile = 'all eight'\n"
        )
    _distribution(site, module, f"squares = {module}:start\nwrong = {module}:wrong")
    assert profile("squares") is DEFAULT_PROFILE  # nothing loaded yet: nothing imported
    state = pyaz.make("squares")
    assert profile("squares").opening_plies == 3
    assert symmetry_ids(state) == list(range(8))
    report = check_game(lambda: pyaz.make("squares"))
    assert report.skipped == ["perft"] and "transforms [0, 1, 2, 3, 4, 5, 6, 7]" in str(report)
    with pytest.raises(TypeError, match=r"profile of game 'wrong' must be a .*GameProfile"):
        pyaz.make("wrong")
    with pytest.raises(TypeError, match=r"profile of game 'mine' must be a .*GameProfile"):
        register_game("mine", TicTacToe, profile="all eight")  # type: ignore[arg-type]


def test_an_entry_point_that_does_not_load_is_named(site: Path) -> None:
    _distribution(site, "plugin_gone", "broken = plugin_gone:start")
    with pytest.raises(ValueError, match="game 'broken': module 'plugin_gone' does not import"):
        pyaz.make("broken")


# -- named by a module path -------------------------------------------------------------------


def test_a_module_path_makes_the_game_it_names(site: Path) -> None:
    module = _module(site, "plugin_path")
    assert is_code_reference(f"{module}:Game")
    assert canonical_name(f" {module}:Game ") == f"{module}:Game"  # the case kept
    assert module not in sys.modules  # naming imports nothing
    with pytest.raises(ValueError, match="only when a person names it as --game"):
        pyaz.make(f"{module}:Game")  # not allowed yet
    assert module not in sys.modules
    allow_code_reference(f"{module}:Game")
    allow_code_reference(f"{module}:start")
    assert pyaz.make(f"{module}:Game").name == "from_module"
    assert pyaz.make(f"{module}:start", first=8).ply == 1
    assert plugins.find_plugin(f"{module}:Game").source == "module path"


def test_a_module_path_games_profile_is_found_by_its_states_name(site: Path) -> None:
    """What pyaz looks up by a position (the arena's openings, the ending, the engines) finds
    the profile a module path game declares, though its states carry a name of their own."""
    from pyaz.eval.arena import default_opening_plies

    module = _module(site, "plugin_states", "corners")
    with (site / f"{module}.py").open("a") as source:
        source.write(
            "from pyaz.games.profiles import GameProfile\n"
            "Game.pyaz_profile = GameProfile(opening_plies=3)\n"
        )
    allow_code_reference(f"{module}:Game")
    state = pyaz.make(f"{module}:Game")
    assert state.name == "corners" and profile("corners").opening_plies == 3
    assert default_opening_plies(state) == 3


def test_two_games_whose_states_share_a_name_may_not_give_it_two_profiles(site: Path) -> None:
    for module, plies in (("plugin_twin_a", 3), ("plugin_twin_b", 5)):
        _module(site, module, "twins")
        with (site / f"{module}.py").open("a") as source:
            source.write(
                "from pyaz.games.profiles import GameProfile\n"
                f"Game.pyaz_profile = GameProfile(opening_plies={plies})\n"
            )
        allow_code_reference(f"{module}:Game")
    assert pyaz.make("plugin_twin_a:Game").name == "twins"
    with pytest.raises(ValueError, match="names its states 'twins', as another game with another"):
        pyaz.make("plugin_twin_b:Game")
    assert profile("twins").opening_plies == 3  # the first game's, kept


@pytest.mark.parametrize("taken", ["othello", "Connect Four", "gomoku"])
def test_a_plug_in_game_whose_states_carry_a_built_in_name_is_refused(
    site: Path, taken: str
) -> None:
    """A game written in Python whose states call themselves "othello" would get Othello's
    profile (its engines, its ending) wherever pyaz looks a position's game up."""
    module = _module(site, f"plugin_taken_{taken.split()[0].lower()}", taken)
    allow_code_reference(f"{module}:Game")
    with pytest.raises(ValueError, match=f"names its states '{taken}', the name of a game of"):
        pyaz.make(f"{module}:Game")
    register_game("mine", lambda: pyaz.make("tictactoe"))
    assert pyaz.make("mine").name == "tictactoe"  # another plug-in game's name: no profile taken


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("plugin_missing:Game", "module 'plugin_missing' does not import .*ModuleNotFoundError"),
        ("plugin_attr:Nothing", "'plugin_attr:Nothing' has no 'Nothing'"),
        ("plugin_attr:IMPORTED", "'plugin_attr:IMPORTED' is not a class or function"),
        ("plugin_attr:NotAGame", "is not a game: its factory gave a NotAGame.*BoardGameState"),
        ("plugin attr:Game", "is no module path: expected 'package.module:Name'"),
        ("plugin_attr:", "is no module path"),
    ],
)
def test_a_bad_module_path_is_a_value_error_naming_it(site: Path, path: str, message: str) -> None:
    _module(site, "plugin_attr")
    with pytest.raises(ValueError, match=message):
        allow_code_reference(path)
        pyaz.make(path)


def test_what_is_a_code_reference() -> None:
    assert is_code_reference("mypkg.games:MyGame") and is_code_reference("x:y")
    for name in ("openspiel:tic_tac_toe", " OpenSpiel:hex(board_size=5)", "tictactoe", "go", 3):
        assert not is_code_reference(name)


def test_a_module_path_typed_as_game_on_the_command_line_is_allowed(site: Path) -> None:
    module = _module(site, "plugin_typed")
    args = selfplay.build_parser().parse_args(["--game", f"{module}:Game", "--out", "x"])
    assert pyaz.make(args.game).name == "from_module"
    with pytest.raises(SystemExit):
        selfplay.build_parser().parse_args(["--game", "plugin typed:Game", "--out", "x"])


# -- saved settings never import a module -----------------------------------------------------


@pytest.mark.parametrize(
    "game",
    ["subprocess:Popen", "os:system", "plugin_saved_direct:Game"],
)
def test_what_no_person_allowed_is_never_imported_nor_called(site: Path, game: str) -> None:
    """The check is in pyaz.make itself, so every reader of a saved name (a run folder, a model
    file, a match summary, a request to the board) is covered: a config.json holding
    ``subprocess:Popen`` with ``game_options {"args": [...]}`` starts no process."""
    _module(site, "plugin_saved_direct")
    with pytest.raises(ValueError, match="is a module path, which pyaz imports"):
        pyaz.make(game, args=["touch", str(site / "started")])
    assert not (site / "started").exists()
    assert "plugin_saved_direct" not in sys.modules


def test_a_saved_module_path_is_refused_unless_given_again(site: Path) -> None:
    game = f"{_module(site, 'plugin_saved')}:Game"
    with pytest.raises(ValueError) as error:
        refuse_saved_code("run/config.json", {"game": game}, {})
    assert str(error.value) == (
        f"run/config.json: game '{game}' is a module path, and a saved setting never imports "
        f"a module (that would run its code): repeat --game '{game}' on the command line to "
        "allow it"
    )
    with pytest.raises(ValueError, match=f"pass game='{game}' to allow it"):
        refuse_saved_code("run/config.json", {"game": game}, {"game": "othello"}, False)
    refuse_saved_code("run/config.json", {"game": game}, {"game": f" {game}"})
    for allowed in ("tictactoe", "openspiel:tic_tac_toe", "othello"):
        refuse_saved_code("run/config.json", {"game": allowed}, {})
    assert upgrade_settings({"game": game, "iterations": 2})["game"] == game
    assert "plugin_saved" not in sys.modules  # reading the settings imported nothing


def test_resuming_a_run_of_a_module_path_game_needs_it_on_the_command_line(site: Path) -> None:
    game = f"{_module(site, 'plugin_resume')}:Game"
    run = site / "run"
    run.mkdir()
    (run / "config.json").write_text(json.dumps({"method": "alphazero", "game": game}))
    args = selfplay.build_parser().parse_args(["--out", str(run), "--resume"])
    with pytest.raises(ValueError, match=f"repeat --game '{game}' on the command line"):
        selfplay.settings_from(args)
    assert "plugin_resume" not in sys.modules
    preset = site / "preset.toml"
    preset.write_text(f'game = "{game}"\n')
    args = selfplay.build_parser().parse_args(["--out", str(site / "new"), "--preset", str(preset)])
    with pytest.raises(ValueError, match=f"{preset}: game '{game}' is a module path"):
        selfplay.settings_from(args)
    assert "plugin_resume" not in sys.modules


# -- the tutorial's game ----------------------------------------------------------------------


def test_the_bundled_tic_tac_toe_passes_the_kit() -> None:
    report = check_game(
        partial(pyaz.make, "tictactoe"), perft=TIC_TAC_TOE_PERFT, symmetries=DIHEDRAL
    )
    assert report.game == "tictactoe" and report.skipped == []
    assert plugins.find_plugin("tictactoe").source == "bundled"
    assert type(pyaz.make("tictactoe")) is TicTacToe


def test_tic_tac_toe_is_a_draw_over_its_5478_reachable_positions() -> None:
    """5478: the published count of legal positions reachable from the empty board."""
    start = pyaz.make("tictactoe")
    table = solve_all(start)
    assert table.positions == 5478
    assert table.value(start) == 0
    assert table.best_actions(start) == list(range(9))  # every first move holds the draw
    state = _played(_played(start.clone(), 4), 1)  # X in the centre, O on an edge: X wins
    assert table.value(state) == 1
    assert table.best_actions(state) == [0, 2, 3, 5, 6, 8]  # all but the far edge b3
    assert table.value(_played(state.clone(), 7)) == 0  # O holds it after X's b3


def test_a_finished_tic_tac_toe_says_who_won() -> None:
    state = pyaz.make("tictactoe")
    for cell in ("a1", "a2", "b1", "b2", "c1"):
        state.apply(state.str_to_action(cell))
    assert state.status() == Status.FIRST_PLAYER_WIN and state.legal_actions() == []
    assert str(state) == "XXX\nOO.\n..."
    with pytest.raises(ValueError, match="illegal action 8"):
        state.apply(8)
