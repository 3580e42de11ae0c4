"""One game interface: every game's state is a :class:`pyaz.games.state.GameState`, and curling
plays through the arena and the player specs like the board games."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path

import pytest
import torch

import pyaz
from pyaz._core import Status
from pyaz.eval.arena import play_game, play_match
from pyaz.eval.players import ShotPlayer
from pyaz.eval.presets import make_player
from pyaz.games import board_games, curling
from pyaz.games.state import BoardGameState, GameState, SeededGameState
from pyaz.methods.kr_dl_uct.net import CurlingNet
from pyaz.nets.files import model_bytes
from pyaz.testing import Options, check_protocol


def test_every_games_state_satisfies_the_protocol() -> None:
    """The board games by the conformance kit's protocol check (a BoardGameState at its start;
    tests/test_conformance_kit.py runs every check on them); curling here."""
    for name in board_games():
        check_protocol(partial(pyaz.make, name), Options())
        assert not isinstance(pyaz.make(name), SeededGameState), name
    state = curling.make_state()
    assert isinstance(state, GameState) and isinstance(state, SeededGameState)
    assert not isinstance(state, BoardGameState)  # continuous actions: no legal_actions
    assert (state.name, state.ply, state.to_move(), state.status()) == (
        "curling",
        0,
        0,
        Status.ONGOING,
    )


def test_the_protocols_are_exported_and_board_state_is_the_native_union() -> None:
    """pyaz exports the game protocols and ``NativeGame``, the C++ games' union (the old name
    ``BoardState`` is gone)."""
    import pyaz.games.state as state_module

    assert pyaz.NativeGame == pyaz.games.NativeGame and not hasattr(pyaz, "BoardState")
    for name in ("GameState", "BoardGameState", "NetworkGameState", "PlayableGameState"):
        assert getattr(pyaz, name) is getattr(state_module, name)
    python_game, native = pyaz.make("tictactoe"), pyaz.make("tictactoe_cpp")
    for game in (python_game, native):
        assert isinstance(game, pyaz.DrawableGameState), game.name
    assert pyaz.games.is_native(native) and not pyaz.games.is_native(python_game)


def _fixed(target: curling.Target, name: str) -> ShotPlayer:
    return ShotPlayer(lambda game, seed: target, name)


def test_a_curling_match_through_the_arena_has_the_hand_worked_result() -> None:
    """Without noise, a team that draws to the button scores against one that throws every
    stone through the house (y = 80 m, far beyond the back line): it wins as first and as
    second, 16 shots a game."""
    button = _fixed(curling.Target(0.0, curling.TEE_Y, 1), "button")
    through = _fixed(curling.Target(0.0, 80.0, 1), "through")
    start = curling.make_state(ends=1, noise="none")
    result = play_match(button, through, 2, start, seed=5)
    assert (result.a_wins, result.draws, result.b_wins) == (2, 0, 0)
    assert [g.status for g in result.games] == [Status.FIRST_PLAYER_WIN, Status.SECOND_PLAYER_WIN]
    assert all(g.length == 16 and g.opening == [] for g in result.games)
    assert result.games[0].actions[0] == (0.0, pytest.approx(curling.TEE_Y), 1)
    record = play_game(through, through, start)  # nobody in the house: a blank end, a draw
    assert record.status == Status.DRAW and record.winner is None


def test_curling_games_repeat_from_their_seed_and_differ_between_seeds() -> None:
    rule = ShotPlayer(curling.rule_based_player(samples=1), "rule")
    start = curling.make_state(ends=1)  # GAT execution noise
    one = play_match(rule, rule, 2, start, seed=3)
    two = play_match(rule, rule, 2, start, seed=3)
    assert [g.actions for g in one.games] == [g.actions for g in two.games]
    assert one.distinct_games == 2  # games 0 and 1 draw their noise from seeds 3 and 4


def test_curling_presets_play_and_refuse_the_wrong_game(tmp_path: Path) -> None:
    torch.manual_seed(0)
    net = CurlingNet(4, 1).eval()
    payload = {"net": net.state_dict(), "channels": 4, "blocks": 1, "iteration": 1}
    path = tmp_path / "curling.pt"
    path.write_bytes(model_bytes("curling", payload, "curling", {}, {"channels": 4, "blocks": 1}))
    start = curling.make_state(ends=1)
    model = make_player(f"model:{path}:4", start)
    assert isinstance(model, ShotPlayer) and model.name == f"model:{path}:4"
    result = play_match(model, make_player("kr:4", start), 2, start)
    assert result.n == 2 and all(g.length == 16 for g in result.games)
    with pytest.raises(ValueError, match="plays curling, not othello"):
        make_player("rule", pyaz.make("othello"))
    with pytest.raises(ValueError, match="plays the board games, not curling"):
        play_game(make_player("uct:4", start), make_player("rule", start), start)
    record = play_game(make_player("random", start, seed=1), make_player("rule", start), start)
    grid = {curling.action_to_target(a).y for a in range(0, curling.NUM_ACTIONS, 64)}
    assert all(y in grid for _, y, _ in record.actions[::2])  # random: grid targets
    with pytest.raises(ValueError, match="no random openings"):
        play_match(
            make_player("rule", start), make_player("rule", start), 2, start, opening_plies=2
        )


def _curling_net_file(path: Path, seed: int) -> Path:
    torch.manual_seed(seed)
    payload = {"net": CurlingNet(4, 1).eval().state_dict(), "channels": 4, "blocks": 1}
    path.write_bytes(model_bytes("curling", payload, "curling", {}, {"channels": 4, "blocks": 1}))
    return path


def test_pyaz_arena_and_pyaz_tournament_play_curling(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from pyaz.cli import arena, tournament

    out = tmp_path / "arena"
    args = ["kr:4", "rule", "--game", "curling", "--ends", "1", "--games", "2", "--quiet"]
    assert arena.main([*args, "--out", str(out)]) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert (summary["game"], summary["game_options"], summary["games"]) == (
        "curling",
        {"ends": 1},
        2,
    )
    assert (summary["opening_plies"], summary["distinct_games"]) == (0, 2)
    lines = (out / "games.txt").read_text().splitlines()
    assert len(lines) == 3 + 2 and len(lines[3].split()) == 16 + 1  # 16 targets, the result
    assert arena.main(["rule", "rule", "--game", "curling", "--openings", "2", "--quiet"]) == 2
    assert capsys.readouterr().err == (
        "pyaz-arena: curling has no random openings: opening plies must be 0\n"
    )
    assert arena.main(["uct:10", "rule", "--game", "curling", "--quiet"]) == 2  # before any game
    assert capsys.readouterr().err == "pyaz-arena: uct:10 plays the board games, not curling\n"
    nets = [_curling_net_file(tmp_path / f"c{i}.pt", i) for i in (1, 2)]
    elo = tmp_path / "elo"
    args = [str(nets[0]), str(nets[1]), "--game", "curling", "--games", "2"]
    assert tournament.main([*args, "--simulations", "2", "--out", str(elo), "--quiet"]) == 0
    _, *games = [json.loads(line) for line in (elo / "games.jsonl").read_text().splitlines()]
    assert [(g["first"], g["second"], g["plies"]) for g in games] == [
        ("c1", "c2", 32),  # two ends of 16 shots (the default curling match)
        ("c2", "c1", 32),
    ]


def test_winner_names_the_side_that_won_or_none_for_a_draw() -> None:
    from pyaz.games import winner

    assert winner(Status.FIRST_PLAYER_WIN) == 0
    assert winner(Status.SECOND_PLAYER_WIN) == 1
    assert winner(Status.DRAW) is None
    with pytest.raises(ValueError, match="the game is not over"):
        winner(Status.ONGOING)
    # a finished game: Connect Four 4x4 won by the first player's vertical four
    state = pyaz.make("connect_four", width=4, height=4).play("1 2 1 2 1 2 1")
    assert winner(state.status()) == 0


def test_a_games_registration_says_how_a_record_keeps_its_actions() -> None:
    """Board games' actions are integers (a plug-in game's too); curling's registration names its
    targets: what JSON holds of one reads back to the same target, and a value that is not one
    reads as None (the journal's error names the value)."""
    from pyaz.games.registry import action_record
    from pyaz.games.state import INTEGER_ACTIONS

    for name in ("othello", "connect4", "go", "tictactoe", "openspiel:tic_tac_toe"):
        assert action_record(pyaz.make(name)) is INTEGER_ACTIONS, name
    assert [INTEGER_ACTIONS.read(v) for v in (0, 7, -1, True, 1.0, "3", 2**63)] == [
        0, 7, None, None, None, None, None,
    ]  # fmt: skip
    targets = action_record(curling.make_state())
    target = curling.Target(0.25, 38.5, -1)
    written = json.loads(json.dumps(targets.write(target)))
    assert written == [0.25, 38.5, -1]
    back = targets.read(written)
    assert (back.x, back.y, back.spin) == (0.25, 38.5, -1)
    for bad in (
        [0.25, 38.5, 0],
        [0.25, 38.5, True],
        [0, 38.5, 1],
        [float("nan"), 1.0, 1],
        [1.0, 2.0],
        3,
    ):
        assert targets.read(bad) is None, bad
