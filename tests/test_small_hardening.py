"""The smaller items of issue 74 (item 6): each bad input is a one-line error naming it, never
a traceback, a hang or a silent wrong answer.

- player specs: errors name the spec (``model:P:²``, 5,000-digit counts, other scripts' digits),
  and a PATH with ``:`` in it plays when the path exists as a whole;
- game options: an integer out of any range names the option (no pybind overload dump);
- a FIFO named checkpoint.pt, or named as the replay buffer, does not hang ``--resume``;
- ``pyaz-gtp`` stops a long ``genmove`` at the end of its input or on ``quit``;
- an engine that exits at once (``--eval-opponent gtp:true``) is a one-line error.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import threading
import time
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest
import torch
from messages import one_line

import pyaz
from pyaz.cli import selfplay
from pyaz.engines.gtp_server import GtpServer
from pyaz.engines.search import EngineSearch
from pyaz.eval.players import SearchPlayer
from pyaz.eval.presets import make_player, with_simulations
from pyaz.methods.alphazero.loop import TrainingLoop
from pyaz.nets import PolicyValueNet, net_config_for, net_state
from pyaz.train.checkpoint import read_checkpoint

# Connect Four 4x4, a tiny network: a run that opens in a second or two.
RUN = [
    *["--game", "connect_four", "--width", "4", "--height", "4", "--net", "tiny"],
    *["--episodes", "4", "--simulations", "8", "--epochs", "1", "--parallel-games", "4"],
    *["--eval-games", "2", "--eval-opponent", "random", "--threads", "1", "--quiet"],
]


# --------------------------------------------------------------------------- player specs


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("model:P:²", "'model:P:²': SIMULATIONS must be an integer, got '²'"),
        ("uct:١٢", "'uct:١٢': SIMULATIONS must be an integer, got '١٢'"),
        ("uct:1_000", "'uct:1_000': SIMULATIONS must be an integer, got '1_000'"),
        ("mentor:²", "'mentor:²': MS must be an integer, got '²'"),
        ("model:P:" + "1" * 5000, "'model:P:111"),
        ("uct:" + "1" * 5000, "'uct:111"),
        ("gnugo:-" + "9" * 5000, "'gnugo:-999"),
        ("gtp:'unclosed", '"gtp:\'unclosed": No closing quotation'),
    ],
)
def test_spec_errors_name_the_spec_in_one_short_line(spec: str, says: str) -> None:
    game = "gomoku" if spec.startswith("mentor") else "go"
    with pytest.raises(ValueError) as error:
        make_player(spec, pyaz.make(game, size=9))
    message = str(error.value)
    assert message.startswith(says), message
    assert "\n" not in message and len(message) < 300, message


def test_a_model_path_with_a_colon_plays_when_it_exists_whole(tmp_path: Path) -> None:
    state = pyaz.make("othello", size=6)
    net = PolicyValueNet(net_config_for(state, blocks=1, filters=8, value_hidden=8))
    path = tmp_path / "net:5"  # a checkpoint whose name ends like a simulation count
    torch.save({"net": net_state(net)}, path)
    whole = make_player(f"model:{path}", state)
    assert isinstance(whole, SearchPlayer) and whole.simulations == 100  # not net, 5
    counted = make_player(f"model:{path}:7:rule=gumbel", state)
    assert isinstance(counted, SearchPlayer) and counted.simulations == 7
    assert with_simulations(f"model:{path}", 9) == f"model:{path}:9"
    assert with_simulations(f"model:{path}:7:solver=on", 9) == f"model:{path}:9:solver=on"
    with pytest.raises(FileNotFoundError):  # no such file: the last field is the count
        make_player(f"model:{tmp_path}/other:5", state)


# --------------------------------------------------------------------------- game options


@pytest.mark.parametrize(
    ("game", "options", "error", "says"),
    [
        ("othello", {"size": 10**30}, ValueError, "othello option size is out of range, got an"),
        ("othello", {"size": -(10**5000)}, ValueError, "othello option size is out of range"),
        ("gomoku", {"size": 2**31}, ValueError, "gomoku option size is out of range, got 2147"),
        ("connect_four", {"height": -(2**40)}, ValueError, "connect_four option height is out"),
        ("go", {"max_game_length": 2**63}, ValueError, "go option max_game_length is out of"),
        ("go", {"max_game_length": "x"}, TypeError, "go option max_game_length must be an int"),
        ("go", {"komi": 10**400}, ValueError, "go option komi is out of range"),
        ("go", {"komi": "7.5"}, TypeError, "go option komi must be a number, got '7.5'"),
        ("othello", {"size": -1}, ValueError, "Othello board size must be between 4 and 8"),
    ],
)
def test_out_of_range_game_options_name_the_option(
    game: str, options: dict[str, Any], error: type[Exception], says: str
) -> None:
    with pytest.raises(error) as raised:
        pyaz.make(game, **options)
    message = str(raised.value)
    assert message.startswith(says), message
    assert "incompatible" not in message and "\n" not in message and len(message) < 200


def test_game_options_in_range_still_build() -> None:
    go = pyaz.make("go", size=9, komi=6, max_game_length=None)
    assert isinstance(go, pyaz.Go) and go.komi == 6.0
    assert str(pyaz.make("othello", size=6)) == str(pyaz.Othello(6))


# --------------------------------------------------------------------------- FIFOs on resume


def finishes(call: Callable[[], object], fifos: list[Path], seconds: float = 60) -> object:
    """``call()``'s result (or the exception it raised) when it returns within ``seconds``;
    fails when it blocks on one of ``fifos`` (which are then opened for writing, so that the
    blocked read ends and the thread with it)."""
    outcome: list[object] = []

    def target() -> None:
        try:
            outcome.append(call())
        except BaseException as error:
            outcome.append(error)

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(seconds)
    hung = thread.is_alive()
    for fifo in fifos if hung else []:
        with contextlib.suppress(OSError):
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
    thread.join(30)
    assert not hung, f"blocked on a FIFO for {seconds} s"
    return outcome[0]


def test_a_fifo_named_checkpoint_does_not_hang_resume(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    out.mkdir()
    config = selfplay.settings_from(selfplay.build_parser().parse_args([*RUN, "--out", "x"]))
    saved = {"method": TrainingLoop.NAME, **asdict(config.resolved())}
    (out / "config.json").write_text(json.dumps(saved))
    os.mkfifo(out / "checkpoint.pt")
    status = finishes(
        lambda: selfplay.main(["--out", str(out), "--resume"]), [out / "checkpoint.pt"]
    )
    assert status == 2
    assert one_line(capsys.readouterr().err) == (
        f"pyaz-selfplay: {out / 'checkpoint.pt'} is not a regular file, so no checkpoint pyaz wrote"
    )


def test_a_fifo_named_as_the_replay_buffer_does_not_hang_resume(tmp_path: Path) -> None:
    state = {"optimizer": {}, "rng": {}, "torch_rng": torch.zeros(1), "counters": {}, "config": {}}
    torch.save({**state, "buffer": "buffer-00001.npz"}, tmp_path / "checkpoint.pt")
    os.mkfifo(tmp_path / "buffer-00001.npz")
    error = finishes(lambda: read_checkpoint(tmp_path), [tmp_path / "buffer-00001.npz"])
    assert isinstance(error, ValueError)
    assert str(error) == (
        f"{tmp_path / 'buffer-00001.npz'} is not a regular file, so no buffer pyaz wrote"
    )


# --------------------------------------------------------------------------- pyaz-gtp


@pytest.mark.parametrize("ending", ["end of input", "quit"])
def test_gtp_stops_a_long_genmove_at_the_end_of_input_or_quit(ending: str) -> None:
    # a search of 10**8 simulations (capped at a minute, so that a failure ends too)
    server = GtpServer(EngineSearch.uct(seed=1), size=9, simulations=10**8, max_seconds=60)
    read, write = os.pipe()
    stdin, commands = os.fdopen(read, "r"), os.fdopen(write, "w")
    stdout = io.StringIO()
    commands.write("1 genmove b\n")
    commands.flush()
    began = time.monotonic()
    thread = threading.Thread(target=server.serve, args=(stdin, stdout), daemon=True)
    thread.start()
    time.sleep(0.5)  # the search is under way
    if ending == "quit":
        commands.write("2 quit\n")
        commands.flush()
    else:
        commands.close()
    thread.join(20)
    assert not thread.is_alive(), "genmove went on"
    assert time.monotonic() - began < 20
    answers = stdout.getvalue().split("\n\n")
    assert re.fullmatch(r"=1 ([A-HJ][1-9]|pass)", answers[0]), answers  # the move so far
    assert len(server.moves) == 1  # and played
    assert answers[1:] == (["=2 ", ""] if ending == "quit" else [""])
    assert server.last_result is not None and 0 < server.last_result.simulations < 10**8
    with contextlib.suppress(OSError):
        commands.close()
    stdin.close()


# --------------------------------------------------------------------------- engines that exit


@pytest.mark.parametrize(
    ("game", "spec", "says"),
    [
        ("go", "gtp:true", "eval_opponent 'gtp:true': the engine "),  # has exited, or exited
        ("racingkings", "uci:true", "eval_opponent 'uci:true': "),
    ],
)
def test_an_engine_that_exits_at_once_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str, spec: str, says: str
) -> None:
    out = tmp_path / "run"
    size = ["--size", "5"] if game == "go" else []
    argv = ["--game", game, *size, "--net", "tiny", "--eval-opponent", spec, "--out", str(out)]
    assert selfplay.main([*argv, "--quiet"]) == 2
    line = one_line(capsys.readouterr().err)
    assert line.startswith(f"pyaz-selfplay: {says}") and "exit" in line, line
    assert not out.exists()  # refused before the run folder
