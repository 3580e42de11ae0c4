"""The networks that ship with pyaz (issue 77, item 1): each loads, says where it came from,
plays as model:builtin:NAME, is pyaz-play's default opponent on its board, and beats the
reference opponent it is documented to beat in a short match of distinct games."""

from __future__ import annotations

import pytest

import pyaz
from pyaz.cli import play
from pyaz.cli.board.trust import ForbiddenError, SpecPolicy
from pyaz.eval import arena, presets
from pyaz.nets import load_model
from pyaz.nets.files import read_model_file
from pyaz.nets.shipped import SHIPPED, shipped_for, shipped_path


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_each_shipped_network_loads_and_says_where_it_came_from(name: str) -> None:
    network = SHIPPED[name]
    path = shipped_path(name)
    assert path.stat().st_size < 2 * 2**20  # a few hundred KB
    model = load_model(path)
    model.check(pyaz.make(network.game, **network.game_options))
    payload = read_model_file(path, "az").payload
    provenance = payload["provenance"]
    assert provenance["command"].startswith("pyaz-selfplay")
    assert provenance == network.provenance()  # all but the simulations it plays with
    assert network.minutes > 0 and network.figure and network.simulations >= 1


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_each_shipped_network_beats_uct200_in_distinct_games(name: str) -> None:
    network = SHIPPED[name]
    start = pyaz.make(network.game, **network.game_options)
    player = presets.make_player(f"model:builtin:{name}", start, seed=1)
    reference = presets.make_player("uct200", start, seed=2)
    result = arena.play_match(player, reference, 20, start, seed=3, progress=False)
    assert result.distinct_games == 20
    assert result.score > 0.6


def test_pyaz_play_plays_the_shipped_network_by_default() -> None:
    def spec(*argv: str) -> str:
        args = play.build_parser().parse_args(list(argv))
        return play.opponent_spec(args)

    assert spec("--game", "othello", "--size", "6") == "model:builtin:othello6:100"
    assert spec("--game", "othello", "--size", "6", "--simulations", "50").endswith(":50")
    assert spec("--game", "othello") == "model:builtin:othello8:100"
    assert spec("--game", "othello", "--size", "7") == "uct:200"  # 7x7: none ships
    assert spec("--game", "connect_four") == "model:builtin:connect_four7x6:100"
    assert spec("--game", "connect_four", "--width", "6", "--height", "6") == "uct:200"
    # Gomoku 9x9's figure is at 1,200 simulations a move: its network plays with them
    assert spec("--game", "gomoku", "--size", "9") == "model:builtin:gomoku9:1200"
    assert spec("--game", "gomoku", "--size", "9", "--simulations", "50").endswith(":50")
    assert spec("--game", "gomoku") == "uct:200"  # 15x15: none ships
    assert spec("--game", "othello", "--size", "6", "--opponent", "random") == "random"
    assert shipped_for("Reversi", {"size": 6}) == "othello6"
    assert shipped_for("nonsense", {}) is None


def test_a_name_that_does_not_ship_is_a_clear_error() -> None:
    shipped = "shipped: connect_four7x6, gomoku9, othello6, othello8"
    with pytest.raises(ValueError, match=f"no shipped network 'chess'; {shipped}"):
        presets.make_player("model:builtin:chess", pyaz.make("othello", size=6))
    with pytest.raises(ValueError, match="a model for othello"):
        presets.make_player("model:builtin:othello6", pyaz.make("connect_four"))


def test_the_board_offers_shipped_networks_without_a_models_folder() -> None:
    policy = SpecPolicy.of(False, [])
    policy.check("model:builtin:othello6:100")
    with pytest.raises(ForbiddenError):
        policy.check("model:/etc/passwd")
