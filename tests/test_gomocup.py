"""``pyaz-gomocup`` driven as a Gomocup/Piskvork manager drives a brain: a subprocess, one
command a line, bounded time. Every answer is checked with pyaz's own Gomoku rules."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pyaz
from pyaz._core import Gomoku

COMMAND = [sys.executable, "-m", "pyaz.cli.gomocup"]


class Manager:
    """Talks to a brain process line by line."""

    def __init__(self, *args: str) -> None:
        self.process = subprocess.Popen(
            [*COMMAND, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )

    def send(self, *lines: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write("".join(line + "\n" for line in lines))
        self.process.stdin.flush()

    def answer(self) -> str:
        assert self.process.stdout is not None
        return self.process.stdout.readline().strip()

    def close(self) -> int:
        self.send("END")
        return self.process.wait(timeout=30)


def _cell(text: str, size: int) -> int:
    x, y = (int(v) for v in text.split(","))
    assert 0 <= x < size and 0 <= y < size, text
    return y * size + x


def test_a_whole_game_against_random_moves() -> None:
    manager = Manager()
    try:
        manager.send("INFO timeout_turn 100", "INFO timeout_match 100000", "INFO rule 0")
        manager.send("START 9")
        assert manager.answer() == "OK"
        manager.send("ABOUT")
        assert manager.answer().startswith('name="pyaz"')
        manager.send("BEGIN")
        state = Gomoku(9)
        rng = random.Random(4)
        while True:
            action = _cell(manager.answer(), 9)
            assert state.is_legal(action)
            state.apply(action)
            if state.is_terminal():
                break
            reply = rng.choice(state.legal_actions())
            state.apply(reply)
            if state.is_terminal():
                break
            y, x = divmod(reply, 9)
            manager.send(f"TURN {x},{y}")
        assert state.status() == pyaz.Status.FIRST_PLAYER_WIN  # the mentor beats random play
    finally:
        assert manager.close() == 0


def test_board_takes_the_five_and_bad_commands_get_errors() -> None:
    manager = Manager("--player", "mentor:50")
    try:
        manager.send("START 15")
        assert manager.answer() == "OK"
        # The brain (1) has four in a row on row 3 (x 2..5), the opponent (2) four elsewhere.
        stones = ["2,3,1", "7,7,2", "3,3,1", "7,8,2", "4,3,1", "7,9,2", "5,3,1", "7,10,2"]
        manager.send("BOARD", *stones, "DONE")
        state = Gomoku(15)
        for line in stones:
            x, y, _ = line.split(",")
            state.apply(int(y) * 15 + int(x))
        action = _cell(manager.answer(), 15)
        assert state.child(action).status() == pyaz.Status.FIRST_PLAYER_WIN
        manager.send("TURN 99,99")
        assert manager.answer().startswith("ERROR")
        manager.send("START 7")
        assert manager.answer().startswith("ERROR")  # the mentor plays 9x9 to 15x15
        manager.send("RESTART")
        assert manager.answer() == "OK"
        manager.send("TURN 7,7")  # the opponent opens; the brain answers a legal move
        assert _cell(manager.answer(), 15) != 7 * 15 + 7
        manager.send("SOMETHING")
        assert manager.answer().startswith("UNKNOWN")
    finally:
        assert manager.close() == 0


def test_a_trained_pair_plays_and_refuses_another_board_size(tmp_path: Path) -> None:
    from pyaz.methods.alphagomoku import NetworkPair, save_pair
    from pyaz.nets import PolicyValueNet, net_config_for

    net = PolicyValueNet(net_config_for(pyaz.make("gomoku", size=9), "seed004"))
    save_pair(NetworkPair.fresh(net), tmp_path / "pair.pt")
    manager = Manager("--player", f"alphagomoku:{tmp_path / 'pair.pt'}:8")
    try:
        manager.send("START 11")
        assert manager.answer().startswith("ERROR")
        manager.send("START 9", "BEGIN")
        assert manager.answer() == "OK"
        assert Gomoku(9).is_legal(_cell(manager.answer(), 9))
    finally:
        assert manager.close() == 0


def test_any_gomoku_preset_plays_and_a_file_that_is_no_model_stops_it(tmp_path: Path) -> None:
    manager = Manager("--player", "guard:50:uct:50")
    try:
        manager.send("START 9", "BEGIN")
        assert manager.answer() == "OK"
        first = _cell(manager.answer(), 9)
        reply = next(a for a in Gomoku(9).legal_actions() if a != first)
        manager.send(f"TURN {reply % 9},{reply // 9}")
        second = _cell(manager.answer(), 9)
        assert second not in (first, reply)
    finally:
        assert manager.close() == 0
    (tmp_path / "notes.pt").write_text("not a network")
    for spec, named in (
        ("model:missing.pt", "missing.pt"),
        ("guard:100:model:notes.pt:80", "notes.pt is not a pyaz network file"),
        ("bogus:1", "got 'bogus:1'"),
    ):
        done = subprocess.run(
            [*COMMAND, "--player", spec],
            input="END\n",
            capture_output=True,
            text=True,
            timeout=60,
            cwd=tmp_path,
        )
        assert done.returncode == 2 and named in done.stderr, (spec, done.stderr[-500:])
