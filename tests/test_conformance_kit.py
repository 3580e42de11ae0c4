"""The conformance kit (:mod:`pyaz.testing`): it passes on every built-in game and on a game
written in Python (the bundled tic-tac-toe of the tutorial), and each check fails on a
tic-tac-toe broken the way that check looks for. The tutorial's C++ port of tic-tac-toe
(``tictactoe_cpp``) counts what the Python game counts at every depth to the end."""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import pytest

import pyaz
from pyaz._core import Status
from pyaz.games import board_games
from pyaz.games.examples.tictactoe import TicTacToe
from pyaz.games.registry import python_perft
from pyaz.games.state import (
    BoardGameState,
    DrawableGameState,
    GameState,
    NetworkGameState,
    PlayableGameState,
    protocol_members,
)
from pyaz.games.symmetry import transform_planes, transform_policy
from pyaz.testing import (
    CHECKS,
    DIHEDRAL,
    ConformanceError,
    Options,
    Symmetries,
    check_game,
)
from pyaz.testing.checks import PROTOCOL_MEMBERS

# Tic-tac-toe's published counts: 255,168 games, 1440 of them over at ply 5.
TIC_TAC_TOE_PERFT = {1: 9, 2: 72, 3: 504, 4: 3024, 5: 15120, 6: 54720}

# The rest, to the last ply, as the Python game counts them (python_perft); with the games over
# before each depth counted too, the last is the published 255,168 games.
TIC_TAC_TOE_TO_THE_END = {**TIC_TAC_TOE_PERFT, 7: 148_176, 8: 200_448, 9: 127_872}

# (options, {depth: perft}) of each built-in game: the counts the games' own tests assert
# (test_othello.py, test_connect_four.py, test_go.py, test_racing_kings.py); Gomoku has no win
# before ply 9, so its counts are 225 * 224 * ...; tic-tac-toe's C++ port the Python game's
BUILT_IN: dict[str, tuple[dict[str, Any], dict[int, int]]] = {
    "othello": ({}, {1: 4, 2: 12, 3: 56, 4: 244, 5: 1396}),
    "connect_four": ({}, {1: 7, 2: 49, 3: 343, 4: 2401, 5: 16807}),
    "gomoku": ({}, {1: 225, 2: 225 * 224, 3: 225 * 224 * 223}),
    "go": ({"size": 5}, {1: 26, 2: 25 * 25 + 26}),
    "racingkings": ({}, {1: 21, 2: 421, 3: 11_264}),
    "racingkings-mod": ({}, {}),
    "tictactoe_cpp": ({}, TIC_TAC_TOE_TO_THE_END),
}


def test_the_table_names_every_built_in_game() -> None:
    assert set(BUILT_IN) == set(board_games())


@pytest.mark.parametrize("name", sorted(BUILT_IN))
def test_the_kit_passes_on_every_built_in_game(name: str) -> None:
    options, perft = BUILT_IN[name]
    report = check_game(partial(pyaz.make, name, **options), perft=perft)
    assert [r.check for r in report.results] == list(CHECKS)
    assert report.skipped == ([] if perft else ["perft"]), str(report)


def test_the_kit_passes_on_a_game_written_in_python() -> None:
    report = check_game(TicTacToe, perft=TIC_TAC_TOE_PERFT, symmetries=DIHEDRAL)
    assert report.game == "tictactoe" and report.skipped == []
    assert "[0, 1, 2, 3, 4, 5, 6, 7] keep the start" in str(report)
    assert check_game(TicTacToe).skipped == ["perft"]  # its profile declares 8; no counts given


def test_the_cpp_port_of_tictactoe_counts_as_the_python_game() -> None:
    """pyaz.perft counts a game written in Python by its own methods, pyaz's in C++."""
    python, port = TicTacToe(), pyaz.make("tictactoe_cpp")
    counts = {depth: pyaz.perft(python, depth) for depth in range(1, 10)}
    assert counts == TIC_TAC_TOE_TO_THE_END
    assert {depth: pyaz.perft(port, depth) for depth in range(1, 10)} == counts
    # the games over before the last ply counted too: every game once, the published 255,168
    assert pyaz.perft(python, 9, True) == pyaz.perft(port, 9, True) == 255_168
    with pytest.raises(ValueError, match="perft depth must be >= 0, got -1"):
        pyaz.perft(python, -1)
    with pytest.raises(TypeError, match="must be an integer, got '2'"):
        pyaz.perft(python, "2")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="got a curling state"):
        pyaz.perft(pyaz.make("curling"), 1)  # type: ignore[arg-type]


def test_python_perft_counts_as_pyaz_perft_does() -> None:
    """Connect Four 4x4 at depth 8, where the conventions differ (a vertical four at ply 7)."""
    start = pyaz.make("connect_four", width=4, height=4)
    for count_finished in (False, True):
        assert python_perft(start, 8, count_finished) == pyaz.perft(start, 8, count_finished)
    assert pyaz.perft(start, 8) < pyaz.perft(start, 8, count_finished=True)


class HalfAGame:
    """Only a name and a ply: not a game."""

    name = "half"
    ply = 0


class SharedBoard(TicTacToe):
    def clone(self) -> TicTacToe:
        return copy.copy(self)  # the copy shares the list of cells


class RefusesTheLastCell(TicTacToe):
    def apply(self, action: int) -> None:
        if action == 8:
            raise ValueError("the last cell is never played")
        super().apply(action)


class PlaysOnAfterAWin(TicTacToe):
    def legal_actions(self) -> list[int]:
        return [i for i, cell in enumerate(self.cells) if not cell]


class WrongPlanesShape(TicTacToe):
    planes_shape = (3, 3, 3)


class MirroredText(TicTacToe):
    def action_to_str(self, action: int) -> str:
        return "cba"[action % 3] + str(action // 3 + 1)  # str_to_action reads 'a' as the left


class NeverEnds(TicTacToe):
    """Nobody wins, and a full board is cleared: the bound it declares is never reached."""

    max_game_length = 60

    def status(self) -> Status:
        return Status.ONGOING

    def apply(self, action: int) -> None:
        super().apply(action)
        if all(self.cells):
            self.cells = [0] * 9


COUNTER_ROTATED = Symmetries(
    DIHEDRAL.ids,
    transform_planes,
    lambda policy, k, state: transform_policy(policy, -k % 4 if k < 4 else k, state),
)
"""The planes turn counter-clockwise and the policy clockwise: they do not commute."""


@dataclass(frozen=True)
class Broken:
    """A game broken for one check, and how the kit is run on it."""

    check: str
    make_state: Callable[[], Any]
    options: dict[str, Any]


BROKEN = [
    Broken("protocol", HalfAGame, {}),
    Broken("clone", SharedBoard, {}),
    Broken("legal_actions", RefusesTheLastCell, {}),
    Broken("terminal", PlaysOnAfterAWin, {}),
    Broken("planes", WrongPlanesShape, {}),
    Broken("symmetries", TicTacToe, {"symmetries": COUNTER_ROTATED}),
    Broken("action_text", MirroredText, {}),
    Broken("playouts", NeverEnds, {}),
    Broken("perft", TicTacToe, {"perft": {1: 9, 2: 72, 3: 505}}),
]


def test_the_protocol_check_knows_every_member_of_the_protocol() -> None:
    declared = {m for cls in (GameState, BoardGameState) for m in vars(cls) if m[0] != "_"}
    assert declared == set(PROTOCOL_MEMBERS) == set(protocol_members(BoardGameState))


def test_the_walkthrough_names_each_protocols_members() -> None:
    """docs/adding-a-game.md's table of the game protocols: each row names the members its
    protocol adds to the one before, as pyaz.games.state declares them."""
    text = (Path(__file__).resolve().parents[1] / "docs" / "adding-a-game.md").read_text()
    rows = {
        cells[1].strip(" `"): cells[2]
        for cells in (line.split("|") for line in text.splitlines() if line.startswith("| `"))
    }
    chain = (GameState, BoardGameState, NetworkGameState, PlayableGameState, DrawableGameState)
    before: tuple[str, ...] = ()
    for protocol in chain:
        members = protocol_members(protocol)
        assert members[: len(before)] == before, protocol.__name__
        added = [m for m in members[len(before) :] if f"`{m}" not in rows[protocol.__name__]]
        assert not added, f"{protocol.__name__}'s row leaves out {added}"
        before = members


def test_every_check_has_a_broken_game() -> None:
    assert [case.check for case in BROKEN] == list(CHECKS)


@pytest.mark.parametrize("case", BROKEN, ids=lambda case: case.check)
def test_the_kit_fails_on_a_game_broken_for_one_check(case: Broken) -> None:
    """check_game stops at the broken check, after all the ones before it passed; the check's
    own function fails the same way."""
    options = {"symmetries": DIHEDRAL, **case.options}
    with pytest.raises(ConformanceError) as caught:
        check_game(case.make_state, **options)
    error = caught.value
    assert isinstance(error, AssertionError) and error.check == case.check, str(error)
    assert str(error).startswith(f"{case.check} ") and error.detail in str(error)
    with pytest.raises(ConformanceError) as alone:
        CHECKS[case.check](case.make_state, Options(**options))
    assert (alone.value.check, alone.value.moves) == (case.check, error.moves)


def test_an_error_names_the_position_and_what_differed() -> None:
    with pytest.raises(ConformanceError) as caught:
        check_game(SharedBoard)
    assert str(caught.value).startswith("clone at the start: applying 4 to a clone changed")
    assert "; board [[0 0 0] [0 0 0] [0 0 0]] became [[0 0 0] [0 1 0] [0 0 0]];" in str(
        caught.value
    )
    with pytest.raises(ConformanceError) as caught:
        check_game(PlaysOnAfterAWin)
    error = caught.value
    assert error.moves  # the end of a random game that someone won
    where = f"after moves [{', '.join(map(str, error.moves))}]"
    assert str(error) == f"terminal {where}: {error.detail}"
    state = PlaysOnAfterAWin()
    for action in error.moves:  # the named position is reachable by legal actions
        state.apply(action)
    assert error.detail == f"is_terminal() is True with legal actions {state.legal_actions()}"
    with pytest.raises(ConformanceError, match=r"^playouts after moves \[\d+, .*\(60 in all\)\]"):
        check_game(NeverEnds)
    with pytest.raises(ConformanceError, match=r"^perft from the start: perft\(3\) is 504, the"):
        check_game(TicTacToe, perft={3: 505})


def test_options_are_checked() -> None:
    with pytest.raises(ValueError, match="playouts must be 0 or more"):
        check_game(TicTacToe, playouts=-1)
    with pytest.raises(ValueError, match="perft depths and counts"):
        check_game(TicTacToe, perft={-1: 1})
    report = check_game(NeverEnds, max_plies=200, playouts=0, games=1, positions=2)
    assert "0 random games" in str(report)  # no playout, so no game that never ends
