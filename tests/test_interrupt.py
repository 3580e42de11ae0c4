"""Ctrl-C of pyaz-selfplay: a real process gets SIGINT in the middle of an iteration's self-play,
stops within seconds saying how many of the iteration's games it kept, and ``--resume`` ends
as the uninterrupted run of the same seed (the same records, networks, checkpoint and buffer:
nothing lost, nothing counted twice; tests/test_faults.py's comparison). Also the self-play
parts themselves (methods/alphazero/selfplay_parts.py): seeds, merging, foreign parts removed.
"""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from test_faults import assert_same_run

import pyaz
from pyaz.games import make
from pyaz.methods.alphazero.selfplay_engine import SelfPlayJob
from pyaz.methods.alphazero.selfplay_parts import (
    PARTS_DIR,
    PartsPlay,
    kept_games,
    merge_records,
    part_path,
    part_seed,
    remove_parts,
)
from pyaz.search import SelfPlay

# Connect Four 5x4, 3 iterations of 12 games in parts of 4 (200 simulations: a part takes a
# few tenths of a second), a 2-game gate (u = 0) and a 2-game evaluation.
RUN = [
    *["--game", "connect_four", "--width", "5", "--height", "4", "--net", "tiny"],
    *["--episodes", "12", "--simulations", "200", "--epochs", "1", "--parallel-games", "4"],
    *["--gating", "score", "--arena-games", "2", "--update-threshold", "0.0"],
    *["--eval-games", "2", "--eval-opponent", "random", "--threads", "1", "--seed", "3"],
    *["--iterations", "3", "--quiet"],
]
KEPT = re.compile(
    r"interrupted in iteration 2: (?:(\d+) finished self-play games of its 12 are kept|"
    r"its (12) self-play games are kept)"
)
EXIT_S = 3.0  # SIGINT to exit; about 0.6 s on the 2-core test machine


def command(out: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "pyaz.cli.selfplay", *RUN, "--out", str(out), *extra]


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("reference") / "run"
    subprocess.run(command(out), check=True, capture_output=True, timeout=300)
    return out


def test_ctrl_c_in_self_play_keeps_the_finished_parts_and_resumes_to_the_same_run(
    tmp_path: Path, reference: Path
) -> None:
    out = tmp_path / "run"
    process = subprocess.Popen(command(out), stderr=subprocess.PIPE, text=True)
    first = part_path(out, 2, 0)
    deadline = time.monotonic() + 240
    while not first.exists():  # iteration 2's first part is kept: its second is being played
        assert process.poll() is None, process.communicate()[1][-2000:]
        assert time.monotonic() < deadline
        time.sleep(0.002)
    sent = time.monotonic()
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=60)
    took = time.monotonic() - sent
    assert process.returncode == 130, stderr[-2000:]
    assert took < EXIT_S, took
    said = KEPT.search(stderr)
    assert said is not None, stderr[-2000:]
    kept = int(said[1] or said[2])
    assert kept in (4, 8, 12)  # whole parts of 4 games, the first at least
    assert kept_games(out, 2) == kept
    assert "--resume" in stderr
    resumed = subprocess.run(command(out, "--resume"), capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    assert_same_run(out, reference)
    assert not (out / PARTS_DIR).exists()  # removed once their iteration committed


def test_parts_play_the_games_of_one_call_up_to_parallel_games_then_new_seeds() -> None:
    assert part_seed(7, 0) == 7
    assert part_seed(7, 1) == 7 + 0x9E3779B97F4A7C15
    assert part_seed(2**64 - 1, 1) == 0x9E3779B97F4A7C15 - 1  # modulo 2^64
    start = make("connect_four", width=4, height=4)
    one = SelfPlay(start, simulations=4, parallel_games=2, seed=5).play(2, "uniform")
    two = SelfPlay(start, simulations=4, parallel_games=2, seed=9).play(3, "uniform")
    merged = merge_records([one, two])
    assert merged.num_games == 5
    assert merged.num_positions == one.num_positions + two.num_positions
    np.testing.assert_array_equal(merged.game_id, np.concatenate([one.game_id, two.game_id + 2]))
    np.testing.assert_array_equal(
        merged.game_length, np.concatenate([one.game_length, two.game_length])
    )
    assert merged.evaluator_calls == one.evaluator_calls + two.evaluator_calls
    with pytest.raises(ValueError, match="no self-play records"):
        merge_records([])


def test_a_part_of_another_job_is_removed_with_a_note_and_replayed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    start = make("connect_four", width=4, height=4)
    options = {"simulations": 4, "parallel_games": 2}
    parts = PartsPlay(tmp_path, start, progress=False)
    job = SelfPlayJob(games=3, seed=11, version=0, options=options)
    played = parts.play(job, 1, "uniform", 10.0)
    assert played.num_games == 3
    assert kept_games(tmp_path, 1) == 3  # parts of 2 and 1 games
    stamps = [part_path(tmp_path, 1, k).stat().st_mtime_ns for k in (0, 1)]
    again = parts.play(job, 1, "uniform", 10.0)  # read back, not played (nor written) again
    assert [part_path(tmp_path, 1, k).stat().st_mtime_ns for k in (0, 1)] == stamps
    np.testing.assert_array_equal(again.policy, played.policy)
    other = SelfPlayJob(games=3, seed=12, version=0, options=options)
    parts.play(other, 1, "uniform", 10.0)
    assert capsys.readouterr().err.count("no readable part of this iteration's games: removed") == 2
    part_path(tmp_path, 1, 0).write_bytes(b"not a part")  # damaged: played again
    assert parts.play(other, 1, "uniform", 10.0).num_games == 3
    assert "no readable part" in capsys.readouterr().err
    assert remove_parts(tmp_path, 0) == 0 and kept_games(tmp_path, 1) == 3
    assert remove_parts(tmp_path, 1) == 2
    assert kept_games(tmp_path, 1) == 0 and not (tmp_path / PARTS_DIR).exists()


# --------------------------------------------------------------------------- python -m


HANDLED_INTERRUPT = """
def main():
    try:
        exec("raise KeyboardInterrupt")  # as a lazy import building a dataclass may be hit
    except KeyboardInterrupt:
        return 130
    return 0

if __name__ == "__main__":
    {exit}
"""


@pytest.mark.parametrize(
    ("exit_line", "status"),
    [
        ("raise SystemExit(main())", -signal.SIGINT),  # CPython's stale mark: killed by SIGINT
        ("from pyaz.common.exits import exit_from_main; exit_from_main(main)", 130),
    ],
)
def test_a_handled_ctrl_c_exits_130_under_python_dash_m(
    tmp_path: Path, exit_line: str, status: int
) -> None:
    """A Ctrl-C that a command handled (status 130) passed through an ``exec`` of a string:
    ``python -m`` ends the process by SIGINT unless the command exits through
    :func:`pyaz.common.exits.exit_from_main` (the experiment folder test saw it: status -2)."""
    (tmp_path / "handled.py").write_text(HANDLED_INTERRUPT.replace("{exit}", exit_line))
    done = subprocess.run(
        [sys.executable, "-m", "handled"], cwd=tmp_path, capture_output=True, timeout=60
    )
    assert done.returncode == status, done.stderr


def test_every_python_dash_m_main_exits_through_exit_from_main() -> None:
    """Each module that ``python -m`` runs a ``main()`` of (the commands, the oracle sets, the
    shipped networks' writer) ends through exit_from_main, so a handled Ctrl-C exits 130."""
    source = Path(pyaz.__file__).parent
    mains = []
    for path in sorted(source.rglob("*.py")):
        text = path.read_text()
        block = (
            text.partition('if __name__ == "__main__":')[2] if path.name != "__main__.py" else text
        )
        if "main(" in block.partition("\ndef ")[0]:
            mains.append(path.relative_to(source).as_posix())
            assert "exit_from_main(main)" in block, path
    assert {"cli/arena.py", "cli/board/__main__.py", "eval/oracle_sets.py"} <= set(mains)


def test_a_ctrl_c_inside_an_extension_import_stays_a_ctrl_c(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pybind11 turns a KeyboardInterrupt during a module's initialisation into ImportError
    "initialization failed" (seen in CI with onnxruntime): the interrupt comes back as one; a
    plain ImportError stays what it is."""
    from pyaz.common.imports import import_interruptibly

    (tmp_path / "interrupted_init.py").write_text(
        "try:\n    raise KeyboardInterrupt\n"
        "except KeyboardInterrupt as error:\n"
        "    raise ImportError('initialization failed') from error\n"
    )
    (tmp_path / "broken_init.py").write_text("raise ImportError('no such library')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(KeyboardInterrupt):
        import_interruptibly("interrupted_init")
    with pytest.raises(ImportError, match="no such library"):
        import_interruptibly("broken_init")
    assert import_interruptibly("json").dumps([1]) == "[1]"
