"""The new-game walkthrough of the docs (issue 75): docs/adding-a-game.md, "Which files, in
order", followed step by step for a game written in Python on a toy game defined here (the
state class, the conformance kit, the registration with its profile, the search, one tiny
training iteration of ``pyaz-selfplay``), and the files that the walkthrough names, for a game
written in C++ and for one written in Python, exist; each file of the C++ list holds the
tutorial's port of tic-tac-toe (``tictactoe_cpp``).

The yardstick no one here wrote: the toy game's perft counted by brute force over every
sequence of cells, apart from its class."""

from __future__ import annotations

import copy
import itertools
import json
import re
from functools import partial
from pathlib import Path

import numpy as np
import pytest

import pyaz
from pyaz._core import Status
from pyaz.cli import selfplay
from pyaz.games import plugins
from pyaz.games.profiles import GameProfile, profile
from pyaz.testing import DIHEDRAL, check_game

ROOT = Path(__file__).resolve().parents[1]
WALKTHROUGH = ROOT / "docs" / "adding-a-game.md"
CELLS = 5


def _won(cells: tuple[int, ...] | list[int], mark: int) -> bool:
    """Whether ``mark`` holds two neighbouring cells of the row."""
    return any(cells[i] == cells[i + 1] == mark for i in range(CELLS - 1))


class Neighbours:
    """The toy game: a row of five cells; the players mark an empty cell in turn, and the
    first to hold two neighbouring cells wins; a full row is a draw. Actions are the cells
    0..4 from the left, written 'a' to 'e'."""

    name = "neighbours"
    num_actions = CELLS
    board_shape = (1, CELLS)
    planes_shape = (2, 1, CELLS)  # the side to move's marks, the other side's
    max_game_length = CELLS

    def __init__(self) -> None:
        self.cells = [0] * CELLS  # 0 empty, 1 the first player's mark, 2 the second's
        self.ply = 0

    def to_move(self) -> int:
        return self.ply % 2

    def status(self) -> Status:
        if _won(self.cells, 1):
            return Status.FIRST_PLAYER_WIN
        if _won(self.cells, 2):
            return Status.SECOND_PLAYER_WIN
        return Status.DRAW if all(self.cells) else Status.ONGOING

    def is_terminal(self) -> bool:
        return self.status() != Status.ONGOING

    def legal_actions(self) -> list[int]:
        return [] if self.is_terminal() else [i for i, cell in enumerate(self.cells) if not cell]

    def is_legal(self, action: int) -> bool:
        return action in self.legal_actions()

    def apply(self, action: int) -> None:
        if not self.is_legal(action):
            raise ValueError(f"illegal action {action!r}")
        self.cells[action] = 1 + self.to_move()
        self.ply += 1

    def clone(self) -> Neighbours:
        other = copy.copy(self)
        other.cells = list(self.cells)
        return other

    def board(self) -> np.ndarray:
        return np.array(self.cells, dtype=np.int8).reshape(self.board_shape)

    def encode(self) -> np.ndarray:
        board, me = self.board(), 1 + self.to_move()
        return np.stack([board == me, board == 3 - me]).astype(np.float32)

    def action_to_str(self, action: int) -> str:
        return "abcde"[action]

    def str_to_action(self, text: str) -> int:
        if len(text) != 1 or text not in "abcde":
            raise ValueError(f"not a cell: {text!r}")
        return "abcde".index(text)

    def __str__(self) -> str:
        return "".join(".XO"[c] for c in self.cells)


MIRROR = GameProfile(symmetries=(0, 4))
"""The toy game's profile: a row keeps only its mirror image (transform 4), no rotation."""


def _brute_force_perft(depth: int) -> int:
    """The sequences of ``depth`` distinct cells in which no player won before the last."""

    def over(moves: tuple[int, ...]) -> bool:
        cells = [0] * CELLS
        for ply, cell in enumerate(moves):
            cells[cell] = 1 + ply % 2
        return _won(cells, 1) or _won(cells, 2) or all(cells)

    return sum(
        not any(over(moves[:ply]) for ply in range(1, depth))
        for moves in itertools.permutations(range(CELLS), depth)
    )


@pytest.fixture(autouse=True)
def no_registered_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts with no game registered, and leaves none behind."""
    monkeypatch.setattr(plugins, "_REGISTERED", {})


def test_a_game_written_in_python_follows_the_walkthrough(tmp_path: Path) -> None:
    # 1. the state class (above), 2. the conformance kit, with counts made apart from it
    perft = {depth: _brute_force_perft(depth) for depth in range(1, CELLS + 1)}
    assert perft[1] == 5 and perft[2] == 20  # no one holds two cells before ply 3
    pyaz.register_game("neighbours", Neighbours, summary="the walkthrough's toy", profile=MIRROR)
    report = check_game(partial(pyaz.make, "neighbours"), symmetries=DIHEDRAL, perft=perft)
    assert report.skipped == [], str(report)
    assert "transforms [0, 4]" in str(report)  # the profile's, through pyaz.games.symmetry
    # 3. registered: made by its name, with its profile
    assert isinstance(pyaz.make("neighbours"), Neighbours)
    assert profile("neighbours") is MIRROR
    # 4. searched by the C++ search through the adapter: X wins at once by a neighbour of 'c'
    state = pyaz.make("neighbours")
    for cell in ("c", "a"):
        state.apply(state.str_to_action(cell))
    search = pyaz.Search(state, solver=True, seed=1)
    search.run(200, "rollout")
    assert search.proven_value() == 1
    assert state.action_to_str(search.choose_action()) in ("b", "d")
    # 5. trained by the main command, one tiny iteration
    out = tmp_path / "run"
    args = ["--game", "neighbours", "--iterations", "1", "--episodes", "4", "--simulations", "8"]
    args += ["--eval-opponent", "random", "--eval-games", "2", "--threads", "1", "--quiet"]
    assert selfplay.main([*args, "--out", str(out)]) == 0
    records = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    assert [r["games"] for r in records if r.get("kind") == "iteration"] == [4]
    assert json.loads((out / "config.json").read_text())["game"] == "neighbours"


def _walkthrough(kind: str) -> list[list[str]]:
    """The files that each step of the walkthrough's numbered list for a game written in
    ``kind`` names, in order."""
    text = WALKTHROUGH.read_text()
    section = text.split("## Which files, in order", 1)[1].split("\n## ", 1)[0]
    part = section.split(f"A game written in {kind}", 1)[1].split("\nA game written in ", 1)[0]
    steps = re.split(r"^\d+\. ", part, flags=re.M)[1:]
    assert len(steps) >= 3, part
    return [re.findall(r"`([\w./-]+\.(?:h|cpp|py|pyi|txt|md|toml))`", step) for step in steps]


@pytest.mark.parametrize("kind", ["C++", "Python"])
def test_the_walkthroughs_files_exist(kind: str) -> None:
    files = [path for step in _walkthrough(kind) for path in step]
    assert files, f"the walkthrough for a game written in {kind} names no file"
    missing = [path for path in files if not (ROOT / path).is_file()]
    assert not missing, f"docs/adding-a-game.md names files that do not exist: {missing}"


def test_each_step_of_the_cpp_walkthrough_names_first_a_file_of_the_port() -> None:
    firsts = [step[0] for step in _walkthrough("C++")]
    assert firsts[:2] == ["src/cpp/games/tictactoe.h", "src/cpp/games/tictactoe.cpp"]
    port = re.compile(r"TicTacToe|tictactoe_cpp|tictactoe\.cpp")
    lacking = [path for path in firsts if not port.search((ROOT / path).read_text())]
    assert not lacking, f"these files of the C++ walkthrough hold nothing of the port: {lacking}"
