"""Regression tests of issue 14 (reliability): each test failed before its fix.

Items: (1) ``pyaz-uci`` survives a ``position`` without startpos/fen, during a search too;
(2) ``pyaz-uci`` keeps reading its input while it searches; (3) an evaluator that calls back
into its own search gets a RuntimeError instead of a deadlock; (4) Ctrl-C stops ``Search.run``
and ``SelfPlay.play`` within a few seconds; (5) training runs resume from any kill without
duplicate metrics or lost networks; (6) NaN and out-of-range options are refused rather than
silently used; (7) bad input gets a ValueError/TypeError naming the value.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

import pyaz

UCI = [sys.executable, "-m", "pyaz.cli.uci", "--game", "racingkings"]


def run_uci(script: str, timeout: float = 20) -> subprocess.CompletedProcess[str]:
    """Feeds ``script`` to ``pyaz-uci`` in a subprocess (the process must end by itself)."""
    return subprocess.run(UCI, input=script, capture_output=True, text=True, timeout=timeout)


# --------------------------------------------------------------------------- 1, 2: pyaz-uci


def test_uci_position_without_startpos_or_fen_is_an_error_not_a_crash() -> None:
    done = run_uci("position moves\nposition\nposition moves e2e4\nisready\nquit\n")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert sum(line.startswith("info string error: position") for line in lines) == 3, lines
    assert lines[-1] == "readyok"


def test_uci_bad_position_during_a_search_does_not_abort() -> None:
    done = run_uci("go nodes 100000\nposition moves\nisready\nstop\nquit\n")
    assert done.returncode == 0, (done.returncode, done.stderr)
    lines = done.stdout.splitlines()
    assert any(line.startswith("info string error: position") for line in lines)
    assert "readyok" in lines and lines[-1].startswith("bestmove ")


def test_uci_go_during_an_unbounded_search_keeps_reading_input() -> None:
    started = time.monotonic()
    done = run_uci("go infinite\ngo nodes 10\nstop\nisready\nquit\n")
    assert time.monotonic() - started < 15
    lines = done.stdout.splitlines()
    assert "readyok" in lines
    assert sum(line.startswith("bestmove ") for line in lines) == 2, lines


def test_uci_huge_node_counts_do_not_block() -> None:
    done = run_uci("go nodes 99999999999999999999\ngo nodes 1e400\ngo nodes nan\nisready\nquit\n")
    lines = done.stdout.splitlines()
    assert "readyok" in lines
    assert sum("'99999999999999999999' is out of range" in line for line in lines) == 1, lines
    assert sum("'1e400' is out of range" in line for line in lines) == 1
    assert sum("'nan' is out of range" in line for line in lines) == 1


def test_uci_ucinewgame_during_a_search_stops_it() -> None:
    done = run_uci("go infinite\nucinewgame\nisready\nquit\n")
    lines = done.stdout.splitlines()
    assert lines.index("readyok") > next(
        i for i, line in enumerate(lines) if line.startswith("bestmove")
    )


def test_uci_non_utf8_input_is_reported_not_fatal() -> None:
    process = subprocess.run(
        UCI, input=b"\xff\xfe go\nisready\nquit\n", capture_output=True, timeout=20
    )
    assert process.returncode == 0, process.stderr
    lines = process.stdout.decode().splitlines()
    assert lines[-1] == "readyok" and "unknown command" in lines[0]


# --------------------------------------------------------------------------- 3: re-entry


def zeros_for(planes: np.ndarray, actions: int) -> tuple[np.ndarray, np.ndarray]:
    return np.zeros((len(planes), actions)), np.zeros(len(planes))


@pytest.mark.parametrize("threads", [1, 2])
def test_an_evaluator_calling_back_into_its_search_gets_a_runtime_error(threads: int) -> None:
    game = pyaz.make("connect_four", width=5, height=4)
    search = pyaz.Search(game, threads=threads)
    calls = {"advance": lambda: search.advance(0), "set_root": lambda: search.set_root(game)}
    for name, reenter in [("run", lambda: search.run(5, "uniform")), *calls.items()]:

        def evaluator(
            planes: np.ndarray, reenter: Callable[[], None] = reenter
        ) -> tuple[np.ndarray, np.ndarray]:
            reenter()
            return zeros_for(planes, 5)

        message = rf"Search\.{name} called while this search is running"
        with pytest.raises(RuntimeError, match=message):
            search.run(40, evaluator)
    assert search.pending_visits == 0  # the tree is consistent and usable afterwards
    search.run(20, "uniform")
    assert search.root_visits == 20


# --------------------------------------------------------------------------- 4: Ctrl-C

SIGINT_PROGRAMS = {
    "search": "s = pyaz.Search(pyaz.make('go', size=9)); print(1, flush=True); "
    "s.run(10**9, 'rollout')",
    "search-threads": "s = pyaz.Search(pyaz.make('go', size=9), threads=2); "
    "print(1, flush=True); s.run(10**9, 'rollout')",
    "self-play": "p = pyaz.SelfPlay(pyaz.make('go', size=9), simulations=800, parallel_games=2); "
    "print(1, flush=True); p.play(10**6, 'rollout')",
    "solver": "s = pyaz.ConnectFourSolver(); print(1, flush=True); "
    "s.move_scores(pyaz.make('connect_four'))",
    "solver-after": "s = pyaz.ConnectFourSolver(); print(1, flush=True)\n"
    "try:\n    s.value(pyaz.make('connect_four'))\nexcept KeyboardInterrupt:\n"
    "    print(s.solve(pyaz.make('connect_four', width=5, height=4)), flush=True); raise",
}


@pytest.mark.parametrize("program", sorted(SIGINT_PROGRAMS))
def test_ctrl_c_stops_long_searches_and_self_play(program: str) -> None:
    code = "import pyaz\n" + SIGINT_PROGRAMS[program]
    process = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert process.stdout is not None and process.stdout.readline().strip() == "1"
        time.sleep(0.5)  # inside the C++ loop by now
        process.send_signal(signal.SIGINT)
        process.wait(timeout=5)
    finally:
        process.kill()
    assert process.stderr is not None and "KeyboardInterrupt" in process.stderr.read()
    if program == "solver-after":  # the interrupted solver's table was cleared: right again
        assert process.stdout.read().strip() == "0"


# --------------------------------------------------------------------------- 6: silent accepts

NAN = float("nan")


@pytest.mark.parametrize(
    ("option", "value", "shown"),
    [
        ("c_puct", NAN, "nan"),
        ("c_puct", -1, "-1"),
        ("c_uct", float("inf"), "inf"),
        ("dirichlet_epsilon", NAN, "nan"),
        ("dirichlet_alpha", NAN, "nan"),
        ("virtual_loss", NAN, "nan"),
        ("fpu_value", NAN, "nan"),
        ("draw_value", NAN, "nan"),
        ("max_nodes", 2**40, "1099511627776"),
    ],
)
def test_search_refuses_nan_and_out_of_range_options(option: str, value: float, shown: str) -> None:
    game = pyaz.make("connect_four", width=5, height=4)
    with pytest.raises(ValueError, match=f"{option} must be .*, got {shown}"):
        pyaz.Search(game, **{option: value})
    with pytest.raises(ValueError, match=f"{option} must be .*, got {shown}"):
        pyaz.SelfPlay(game, **{option: value}).play(1)


@pytest.mark.parametrize("temperature", [NAN, float("inf"), -0.5])
def test_temperature_must_be_finite_and_non_negative(temperature: float) -> None:
    game = pyaz.make("connect_four", width=5, height=4)
    search = pyaz.Search(game)
    search.run(10)
    message = f"temperature must be a finite number >= 0, got {temperature:g}"
    with pytest.raises(ValueError, match=message):
        search.policy(temperature)
    with pytest.raises(ValueError, match=message):
        search.choose_action(temperature)
    with pytest.raises(ValueError, match=message):
        pyaz.SelfPlay(game, temperature=temperature).play(1)


def test_actions_must_be_integers_in_range() -> None:
    game = pyaz.make("connect_four")
    for method in (game.clone().apply, game.child, game.action_to_str):
        with pytest.raises(TypeError, match=r"action must be an integer, got np.float32\(1.7\)"):
            method(np.float32(1.7))  # used to play 1
        with pytest.raises(TypeError, match=r"action must be an integer, got 1.0"):
            method(1.0)
        with pytest.raises(TypeError, match=r"action must be an integer, got True"):
            method(True)
        with pytest.raises(ValueError, match=f"action {2**64} is out of range 0..6"):
            method(2**64)  # used to be pybind11's "incompatible function arguments"
    assert game.child(np.int64(3)).ply == 1
    assert not game.is_legal(2**64) and not game.is_legal(-1) and game.is_legal(np.int8(3))
    search = pyaz.Search(game)
    search.run(5)
    with pytest.raises(TypeError, match="action must be an integer"):
        search.advance(np.float32(1.7))  # type: ignore[arg-type]


def test_complex_evaluator_outputs_are_refused() -> None:
    game = pyaz.make("connect_four", width=5, height=4)
    search = pyaz.Search(game)
    with pytest.raises(TypeError, match="policy_logits must be an array of real numbers"):
        search.run(5, lambda p: (np.zeros((len(p), 5), complex), np.zeros(len(p))))
    with pytest.raises(TypeError, match="values must be an array of real numbers"):
        search.run(5, lambda p: (np.zeros((len(p), 5)), np.zeros(len(p), complex)))
    with pytest.raises(TypeError, match="values must be an array of real numbers"):
        search.run(5, lambda p: (np.zeros((len(p), 5)), ["a"] * len(p)))
    assert search.pending_visits == 0


# --------------------------------------------------------------------------- 7: clear errors


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ({"seed": -1}, ValueError, r"seed must be in \[0, 18446744073709551615\], got -1"),
        ({"seed": 2**64}, ValueError, "seed must be in .*, got 18446744073709551616"),
        ({"seed": 1.5}, TypeError, "seed must be an integer, got 1.5"),
        ({"threads": 0}, ValueError, "threads must be in .*, got 0"),
        ({"threads": "2"}, TypeError, "threads must be an integer, got '2'"),
        ({"c_puct": "1"}, TypeError, "c_puct must be a real number, got '1'"),
        ({"fpu_relative": "no"}, TypeError, "fpu_relative must be True or False, got 'no'"),
        ({"rule": 3}, TypeError, "rule must be a str, got 3"),
    ],
)
def test_search_option_types_and_ranges_are_named(
    options: dict[str, object], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        pyaz.Search(pyaz.make("connect_four"), **options)


def test_run_simulations_must_be_an_integer_in_range() -> None:
    search = pyaz.Search(pyaz.make("connect_four"))
    with pytest.raises(ValueError, match=f"simulations must be in .*, got {2**64}"):
        search.run(2**64)
    with pytest.raises(TypeError, match=r"simulations must be an integer, got 1.5"):
        search.run(1.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"simulations must be in .*, got -1"):
        search.run(-1)


# --------------------------------------------------------------------------- 6: curling inputs

INF = float("inf")


def curling_cases() -> list[tuple[str, object]]:
    from pyaz._core import curling as c

    state = c.GameState()

    def noise(**sigmas: float) -> c.NoiseParams:
        params = c.NoiseParams(c.Noise.DC3)
        for name, value in sigmas.items():
            setattr(params, name, value)
        return params

    shot = c.Shot(0.1, 2.5, 1)
    cases: list[tuple[str, object]] = []
    for bad in (NAN, INF, 1e30):
        cases += [
            ("shot vx", lambda bad=bad: c.Shot(bad, 2.5)),
            ("shot vy", lambda bad=bad: state.copy().apply(c.Shot(0.0, bad))),
            ("target x", lambda bad=bad: c.target_to_shot(c.Target(bad, 38.0))),
            ("stone x", lambda bad=bad: state.copy().set_stone(0, bad, 38.0)),
            ("stone y", lambda bad=bad: state.copy().set_stone(0, 0.0, bad)),
            ("stone 0 vx", lambda bad=bad: c.simulate_stones(np.array([[0, 30, bad, 1, 0]]))),
            ("shots row 0", lambda bad=bad: c.simulate_batch(state, np.array([[bad, 2.5, 1]]))),
        ]
    cases += [
        ("shot spin", lambda: c.Shot(0.0, 2.5, 7)),
        ("target spin", lambda: c.Target(0.0, 38.0, 0)),
        ("noise sigma_speed", lambda: c.perturb(shot, noise(sigma_speed=NAN))),
        ("noise sigma_angle", lambda: c.perturb(shot, noise(sigma_angle=-1.0))),
        ("noise sigma_x", lambda: state.copy().apply_noisy(shot, noise(sigma_x=INF), 0)),
        ("stone index", lambda: state.copy().set_stone(-1, 0.0, 38.0)),
        ("stone index", lambda: state.copy().set_stone(16, 0.0, 38.0)),
    ]
    return cases


def test_curling_refuses_nan_infinite_and_huge_values() -> None:
    cases = curling_cases()
    assert len(cases) >= 21
    for name, case in cases:
        with pytest.raises(ValueError, match=name):
            case()  # type: ignore[operator]


# --------------------------------------------------------------------------- 6, 7: text and API


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("(;GM[1]SZ[9];B[aa];W[aa])", r"move 2 W\[aa\] .*illegal"),  # occupied point
        ("(;GM[1]SZ[9]KM[nan])", r"KM\[nan\] is not a finite number"),
        ("(;GM[1]SZ[9]KM[inf])", r"KM\[inf\] is not a finite number"),
        ("(;GM[1]SZ[9]AB[aa]AW[aa])", r"AB and AW both hold point \[aa\]"),
        ("(;GM[1]SZ[9]AB[aa:bb]AW[bb])", r"AB and AW both hold point \[bb\]"),
        ("(;GM[1]SZ[9]AB[aa]AW[ab][ba])", r"setup stone \[aa\] .* no liberties"),
        ("(;GM[1]SZ[9];B[];W[];B[cc])", r"move 3 B\[cc\] .*the game is over"),
    ],
)
def test_parse_sgf_refuses_impossible_records(text: str, message: str) -> None:
    from pyaz.games.sgf import parse_sgf

    with pytest.raises(ValueError, match=message):
        parse_sgf(text)


def test_an_empty_othello_board_is_not_a_finished_draw() -> None:
    with pytest.raises(ValueError, match="this text has none"):
        pyaz.Othello.from_text("\n".join(["." * 8] * 8))


@pytest.mark.parametrize("parse", [pyaz.Othello.from_text, pyaz.ConnectFour.from_text])
def test_non_ascii_board_text_names_the_character(parse: object) -> None:
    with pytest.raises(ValueError, match="must be ASCII; found 'é' at line 2, column 4"):
        parse("........\n...é....")  # type: ignore[operator]


@pytest.mark.parametrize(
    ("clocks", "message"),
    [
        ("99999999999 1", "halfmove clock '99999999999' is out of range"),
        ("-1 1", "halfmove clock '-1' must be >= 0"),
        ("0 99999999999", "fullmove number '99999999999' is out of range"),
        ("x 1", "halfmove clock 'x' is not a number"),
    ],
)
def test_fen_clock_errors_say_what_is_wrong(clocks: str, message: str) -> None:
    board = pyaz.RacingKings.STANDARD_FEN.split()[0]
    with pytest.raises(ValueError, match=message):
        pyaz.RacingKings.from_fen(f"{board} w - - {clocks}")
    with pytest.raises(ValueError, match="must be ASCII; found 'ü'"):
        pyaz.RacingKings.from_fen(f"{board} ü - - 0 1")


def test_none_and_wrong_types_are_type_errors_naming_the_value() -> None:
    with pytest.raises(TypeError, match="a game name must be a str, got None"):
        pyaz.make(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="no self-play for None"):
        pyaz.SelfPlay(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="planes must be a numpy array, got NoneType"):
        pyaz.transform_planes(None, 0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"symmetry id must be an integer in 0..7, got 1.5"):
        pyaz.transform_planes(np.zeros((2, 3, 3)), 1.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"games must be an integer, got 2.5"):
        pyaz.SelfPlay(pyaz.make("connect_four")).play(2.5)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- 5: resume

TRAIN = [
    *["--game", "connect_four", "--width", "4", "--height", "4", "--episodes", "4"],
    *["--simulations", "4", "--epochs", "1", "--eval-games", "2", "--eval-opponent", "random"],
    *["--parallel-games", "4", "--quiet"],
]


def train(out: Path, iterations: int, *extra: str) -> int:
    from pyaz.cli import selfplay

    return selfplay.main([*TRAIN, "--iterations", str(iterations), "--out", str(out), *extra])


def iteration_numbers(run: Path) -> list[int]:
    from pyaz.common.runlog import read_metrics

    return [r["iteration"] for r in read_metrics(run) if r["kind"] == "iteration"]


@pytest.mark.parametrize("resume", [True, False])
def test_a_run_killed_before_its_first_checkpoint_starts_clean(
    tmp_path: Path, resume: bool
) -> None:
    import json

    out = tmp_path / "run"
    (out / "nets").mkdir(parents=True)
    # What a kill during iteration 1's checkpoint leaves: its settings (written first), its
    # metrics, its network, temporaries.
    from dataclasses import asdict

    from pyaz.cli import selfplay

    args = selfplay.build_parser().parse_args([*TRAIN, "--iterations", "2", "--out", str(out)])
    settings = selfplay.settings_from(args).resolved()  # as the loop saves it
    (out / "config.json").write_text(json.dumps(asdict(settings)))
    (out / "metrics.jsonl").write_text(json.dumps({"kind": "iteration", "iteration": 1}) + "\n")
    (out / "nets" / "iter-00001.pt").write_bytes(b"half")
    (out / ".checkpoint.pt.x1y2.tmp").write_bytes(b"half")
    (out / "nets" / ".iter-00001.pt.abcd.tmp").write_bytes(b"half")
    assert train(out, 2, *(["--resume"] if resume else [])) == 0
    assert iteration_numbers(out) == [1, 2]  # was [1, 1, 2]
    assert not list(out.rglob("*.tmp"))
    assert sorted(p.name for p in (out / "nets").iterdir()) == ["iter-00001.pt", "iter-00002.pt"]


def test_resume_rederives_best_and_drops_uncommitted_files(tmp_path: Path) -> None:
    import torch

    from pyaz.nets import load_model

    out = tmp_path / "run"
    assert train(out, 2) == 0
    # A kill after iteration 3 wrote its files but before its checkpoint.pt.
    (out / "best.torchscript.pt").write_bytes(b"iteration 3's, uncommitted")
    (out / "nets" / "iter-00003.pt").write_bytes(b"iteration 3's, uncommitted")
    (out / ".best.torchscript.pt.q9.tmp").write_bytes(b"half")
    assert train(out, 2, "--resume") == 0  # nothing left to play: only the repairs
    assert not (out / "nets" / "iter-00003.pt").exists() and not list(out.rglob("*.tmp"))
    scripted = torch.jit.load(str(out / "best.torchscript.pt"))
    best = load_model(str(out / "nets" / "iter-00002.pt"), "az").net
    planes = torch.rand(3, 2, 4, 4)
    best.eval()
    with torch.no_grad():
        assert torch.allclose(scripted(planes)[0], best(planes)[0], atol=1e-6)
    assert iteration_numbers(out) == [1, 2]


def test_an_unwritable_run_folder_is_a_one_line_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    command = [sys.executable, "-m", "pyaz.cli.selfplay", *TRAIN, "--iterations", "1"]
    done = subprocess.run(
        [*command, "--out", str(blocker / "run")], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert "cannot write in the run folder" in lines[0] and "pick another folder" in lines[0]


def test_check_writable_names_a_read_only_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tempfile

    from pyaz.common import runlog

    def refuse(*args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tempfile, "TemporaryFile", refuse)
    with pytest.raises(OSError, match=f"cannot write in the run folder {tmp_path} "):
        runlog.check_writable(tmp_path)


def test_gtp_non_utf8_input_is_reported_not_fatal() -> None:
    command = [sys.executable, "-m", "pyaz.cli.gtp", "--game", "go"]
    done = subprocess.run(
        command, input=b"\xff\xfe name\nprotocol_version\nquit\n", capture_output=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    answers = done.stdout.decode().split("\n\n")
    assert answers[0].startswith("?") and answers[1] == "= 2"
