"""Model files that anyone may have made (issue 24, items 1, 8 and 14): opening one never runs
code from it, every file pyaz writes still loads with ``torch.load(weights_only=True)``, and a
broken, truncated or foreign file (a network, a run's checkpoint or replay buffer) is a one-line
error naming it, never a traceback.

The crafted files hold a pickle whose unpickling would run ``touch MARKER``; the marker must not
appear, whichever loader or command opens them.
"""

from __future__ import annotations

import os
import pickle
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch
from messages import one_line

import pyaz
from pyaz import nets
from pyaz.cli import gtp, selfplay, uci
from pyaz.methods.alphagomoku.pair import NetworkPair, network_pair, save_pair
from pyaz.methods.alphazero.loop import TrainingLoop
from pyaz.methods.reinforce import ReinforceConfig, ReinforceTrainer
from pyaz.methods.reinforce.net import SmallConfig, SmallPolicyNet, policy_network, save_network
from pyaz.nets import PolicyValueNet, net_config_for, net_state, torchscript_bytes
from pyaz.nets.files import read_torch_file
from pyaz.train.checkpoint import read_checkpoint

# A Connect Four 4x4 run of one iteration with a tiny network (a few seconds).
RUN = [
    *["--game", "connect_four", "--width", "4", "--height", "4", "--net", "tiny"],
    *["--episodes", "2", "--simulations", "8", "--epochs", "1", "--parallel-games", "2"],
    *["--eval-opponent", "none", "--threads", "1", "--seed", "3", "--iterations", "1"],
    "--quiet",
]


class RunsCode:
    """Unpickled, it calls ``os.system("touch MARKER")``: what a hostile model file does."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (os.system, (f"touch '{self.marker}'",))


def hostile(folder: Path, kind: str, marker: Path) -> Path:
    """A file of ``kind`` whose loading with pickle would create ``marker``."""
    path = folder / f"{kind}.pt"
    payload = {"net": RunsCode(marker), "iteration": 1}
    if kind == "zip":  # what torch.save writes
        torch.save(payload, path)
    elif kind == "legacy":  # torch's older format (no zip)
        torch.save(payload, path, _use_new_zipfile_serialization=False)
    elif kind == "pickle":  # a bare pickle
        path.write_bytes(pickle.dumps(payload, protocol=2))
    elif kind == "torchscript":  # a real TorchScript archive whose data.pkl is the pickle
        net = PolicyValueNet(net_config_for(pyaz.make("othello", size=6), "tiny"))
        (folder / "real.torchscript.pt").write_bytes(torchscript_bytes(net))
        with (
            zipfile.ZipFile(folder / "real.torchscript.pt") as source,
            zipfile.ZipFile(path, "w") as archive,
        ):
            for name in source.namelist():
                data = source.read(name)
                archive.writestr(
                    name, pickle.dumps(payload) if name.endswith("/data.pkl") else data
                )
    else:
        raise AssertionError(kind)
    return path


KINDS = ["zip", "legacy", "pickle", "torchscript"]


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished one-iteration board-game run (checkpoint, buffer, nets/iter-00001.pt)."""
    out = tmp_path_factory.mktemp("run") / "run"
    args = selfplay.build_parser().parse_args([*RUN, "--out", str(out)])
    TrainingLoop(selfplay.settings_from(args), out, progress=False).run()
    return out


def test_the_crafted_file_does_run_code_when_unpickled_unsafely(tmp_path: Path) -> None:
    """The check that the test files are what they claim (what pyaz did before: code ran)."""
    marker = tmp_path / "MARKER"
    path = hostile(tmp_path, "zip", marker)
    torch.load(path, weights_only=False)
    assert marker.exists()


# ------------------------------------------------------------------- every loader, in process


def _zetago_resume(path: Path) -> None:
    folder = path.parent / "zetago-run"
    folder.mkdir()
    shutil.copy(path, folder / "checkpoint.pt")
    net = SmallPolicyNet(SmallConfig(filters=4, layers=2))
    ReinforceTrainer(net, ReinforceConfig(iterations=1), folder)


def _read_checkpoint(path: Path) -> None:
    folder = path.parent / "board-run"
    folder.mkdir()
    shutil.copy(path, folder / "checkpoint.pt")
    read_checkpoint(folder)


def _curling_network(path: Path) -> None:
    from pyaz.methods.kr_dl_uct.loop import curling_network

    curling_network(pyaz.load_model(path, "curling"))


LOADERS = {
    "load_model": lambda path: pyaz.load_model(path),
    "load_model pair": lambda path: network_pair(pyaz.load_model(path, "alphagomoku-pair")),
    "read_checkpoint": _read_checkpoint,
    "load_model zetago-policy": lambda path: policy_network(pyaz.load_model(path, "zetago-policy")),
    "zetago resume": _zetago_resume,
    "load_model curling": _curling_network,
}


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("loader", list(LOADERS))
def test_no_loader_runs_code_from_a_file(tmp_path: Path, kind: str, loader: str) -> None:
    marker = tmp_path / "MARKER"
    path = hostile(tmp_path, kind, marker)
    with pytest.raises(ValueError) as raised:
        LOADERS[loader](path)
    message = one_line(str(raised.value))
    assert str(path) in message or "checkpoint.pt" in message, message
    if kind == "zip":
        assert "refers to posix.system" in message or "refers to os.system" in message, message
    assert not marker.exists()


# ------------------------------------------------------------------- every command


def _command(name: str, path: Path, tmp_path: Path, run: Path) -> tuple[list[str], Path]:
    """The command line that opens ``path`` and the file its error must name."""
    python = [sys.executable, "-m"]
    if name == "pyaz-arena":
        game = ["--game", "connect_four", "--width", "4", "--height", "4", "--games", "1"]
        return [*python, "pyaz.cli.arena", f"model:{path}", "random", *game, "--quiet"], path
    if name == "pyaz-gtp":
        return [*python, "pyaz.cli.gtp", "--model", str(path)], path
    if name == "pyaz-uci":
        return [*python, "pyaz.cli.uci", "--model", str(path)], path
    if name == "pyaz-gomocup":
        return [*python, "pyaz.cli.gomocup", "--player", f"alphagomoku:{path}"], path
    if name == "pyaz-gomocup guard":
        return [*python, "pyaz.cli.gomocup", "--player", f"guard:model:{path}:8"], path
    assert name == "pyaz-selfplay --resume"
    out = tmp_path / "someone-elses-run"
    shutil.copytree(run, out)
    shutil.copy(path, out / "checkpoint.pt")
    return [*python, "pyaz.cli.selfplay", *RUN, "--out", str(out), "--resume"], (
        out / "checkpoint.pt"
    )


COMMANDS = [
    "pyaz-arena",
    "pyaz-gtp",
    "pyaz-uci",
    "pyaz-gomocup",
    "pyaz-gomocup guard",
    "pyaz-selfplay --resume",
]


@pytest.mark.parametrize("name", COMMANDS)
def test_no_command_runs_code_from_a_model_file(tmp_path: Path, run: Path, name: str) -> None:
    marker = tmp_path / "MARKER"
    path = hostile(tmp_path, "zip", marker)
    command, named = _command(name, path, tmp_path, run)
    done = subprocess.run(
        command, input="", capture_output=True, text=True, timeout=120, cwd=tmp_path
    )
    assert done.returncode == 2, (done.returncode, done.stderr[-2000:])
    line = one_line(done.stderr)
    assert str(named) in line and "is not a" in line, line
    assert not marker.exists()


# ------------------------------------------------------------------- what pyaz writes


def _weights_only_files(folder: Path) -> list[Path]:
    """Every torch file under ``folder`` (not the TorchScript exports), loaded weights-only."""
    files = sorted(p for p in folder.rglob("*.pt") if not nets.is_torchscript(p))
    for path in files:
        torch.load(path, map_location="cpu", weights_only=True)  # raises if refused
    for path in folder.rglob("*.pt"):
        if nets.is_torchscript(path):
            torch.jit.load(str(path))
    return files


def test_every_file_of_a_board_game_run_loads_weights_only(run: Path) -> None:
    names = [p.relative_to(run).as_posix() for p in _weights_only_files(run)]
    assert names == ["checkpoint.pt", "nets/iter-00001.pt"]
    data, _ = read_checkpoint(run)
    assert isinstance(data["optimizer"], dict) and isinstance(data["torch_rng"], torch.Tensor)
    assert nets.load_model(run).iteration == 1
    assert nets.load_model(run / "nets" / "iter-00001.pt").iteration == 1
    args = selfplay.build_parser().parse_args([*RUN, "--out", str(run), "--resume"])
    loop = TrainingLoop(selfplay.settings_from(args), run, resume=True, progress=False)
    assert loop.counters["iteration"] == 1  # resumed from the weights-only checkpoint


def test_every_file_of_a_curling_run_loads_weights_only(tmp_path: Path) -> None:
    from pyaz.methods.kr_dl_uct.config import CurlingConfig
    from pyaz.methods.kr_dl_uct.loop import CurlingTrainingLoop, curling_network

    config = CurlingConfig(
        iterations=1, games=1, ends=1, simulations=4, initial_actions=4, supervised_games=1,
        supervised_steps=1, eval_opponent="none", workers=1, channels=4, blocks=1, batch_size=8,
    )  # fmt: skip
    out = tmp_path / "curling"
    CurlingTrainingLoop(config, out, progress=False).run()
    names = [p.relative_to(out).as_posix() for p in _weights_only_files(out)]
    assert names == ["checkpoint.pt", "nets/iter-00000.pt", "nets/iter-00001.pt"]
    curling_network(pyaz.load_model(out / "nets" / "iter-00001.pt", "curling"))
    loop = CurlingTrainingLoop(config, out, resume=True, progress=False)
    assert loop.counters["iteration"] == 1


def test_every_zetago_file_loads_weights_only_and_resumes(tmp_path: Path) -> None:
    """The ZetaGo checkpoint stored its replay buffer as numpy arrays, which weights_only
    refuses: it is stored as tensors now (an old checkpoint is refused with that reason)."""
    folder = tmp_path / "zetago"
    config = ReinforceConfig(iterations=1, games=2, minibatch=8, checkpoint_every=1)
    trainer = ReinforceTrainer(SmallPolicyNet(SmallConfig(filters=4, layers=2)), config, folder)
    trainer.run()
    names = [p.name for p in _weights_only_files(folder)]
    assert names == ["checkpoint.pt", "net.pt"]
    save_network(trainer.net, tmp_path / "saved.pt")
    saved = pyaz.load_model(tmp_path / "saved.pt", "zetago-policy")
    assert isinstance(policy_network(saved), SmallPolicyNet)
    more = ReinforceConfig(iterations=2, games=2, minibatch=8, checkpoint_every=1)
    resumed = ReinforceTrainer(SmallPolicyNet(SmallConfig(filters=4, layers=2)), more, folder)
    count = len(trainer.buffer)
    assert resumed.iteration == 1 and len(resumed.buffer) == count > 0
    np.testing.assert_array_equal(resumed.buffer.planes[:count], trainer.buffer.planes[:count])
    np.testing.assert_array_equal(resumed.buffer.legal[:count], trainer.buffer.legal[:count])
    resumed.close()  # the run holds its folder's lock until it ends or is closed
    old = torch.load(folder / "checkpoint.pt", weights_only=True)
    old["buffer"] = {
        k: v.numpy() if isinstance(v, torch.Tensor) else v for k, v in old["buffer"].items()
    }
    torch.save(old, folder / "checkpoint.pt")  # as an older pyaz wrote it
    with pytest.raises(ValueError, match="by an older pyaz") as raised:
        ReinforceTrainer(SmallPolicyNet(SmallConfig(filters=4, layers=2)), more, folder)
    assert str(folder / "checkpoint.pt") in one_line(str(raised.value))


def test_an_alphagomoku_pair_loads_weights_only(tmp_path: Path) -> None:
    net = PolicyValueNet(net_config_for(pyaz.make("gomoku", size=9), "tiny"))
    pair = NetworkPair.fresh(net)
    pair.settings = {"game": "gomoku", "game_options": {"size": 9}, "c_puct": 1.5}
    path = save_pair(pair, tmp_path / "pair.pt")
    torch.load(path, weights_only=True)
    assert network_pair(pyaz.load_model(tmp_path, "alphagomoku-pair")).settings["c_puct"] == 1.5


# ------------------------------------------------------------------- broken files


def damaged(path: Path, damage: str) -> Path:
    """``path`` damaged in place; returns it."""
    data = path.read_bytes()
    broken = {
        "empty": b"",
        "truncated": data[: min(10_000, len(data) // 2)],
        "random": np.random.default_rng(0).bytes(5_000),
        "text": b"hello\n",
    }[damage]
    path.write_bytes(broken)
    return path


DAMAGES = ["empty", "truncated", "random", "text"]


@pytest.mark.parametrize("damage", DAMAGES)
def test_a_broken_model_file_is_a_one_line_error_naming_it(
    tmp_path: Path, run: Path, damage: str
) -> None:
    path = tmp_path / "iter.pt"
    shutil.copy(run / "nets" / "iter-00001.pt", path)
    damaged(path, damage)
    with pytest.raises(ValueError) as raised:
        nets.load_model(path, "az")
    message = one_line(str(raised.value))
    assert message.startswith(f"{path} is not a pyaz network file: ")
    assert "Errno" not in message
    if damage == "truncated":
        assert "truncated: not a complete torch file" in message
    if damage == "empty":
        assert message.endswith("the file is empty")


def test_a_model_truncated_to_10000_bytes_says_truncated(tmp_path: Path) -> None:
    net = PolicyValueNet(net_config_for(pyaz.make("othello", size=8), "small"))
    full = tmp_path / "full.pt"
    torch.save({"net": net_state(net), "iteration": 1}, full)
    assert full.stat().st_size > 100_000
    cut = tmp_path / "cut.pt"
    cut.write_bytes(full.read_bytes()[:10_000])
    with pytest.raises(ValueError, match="truncated: not a complete torch file") as raised:
        nets.load_model(cut)
    assert "Errno 22" not in str(raised.value)


def test_unreadable_files_keep_their_os_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        read_torch_file(tmp_path / "missing.pt", "a pyaz network file")
    with pytest.raises(IsADirectoryError):
        read_torch_file(tmp_path, "a pyaz network file")


@pytest.mark.parametrize("iteration", [float("inf"), float("nan"), "seven", -1, True, [1]])
def test_a_saved_iteration_that_is_no_number_is_ignored(tmp_path: Path, iteration: Any) -> None:
    net = PolicyValueNet(net_config_for(pyaz.make("othello", size=6), "tiny"))
    path = tmp_path / "net.pt"
    torch.save({"net": net_state(net), "iteration": iteration}, path)
    assert nets.load_model(path).iteration is None
    torch.save({"net": net_state(net), "iteration": 4.0}, path)
    assert nets.load_model(path).iteration == 4


def _resume_error(capsys: pytest.CaptureFixture[str], out: Path) -> str:
    assert selfplay.main([*RUN, "--out", str(out), "--resume"]) == 2
    captured = capsys.readouterr()
    return one_line(captured.err)


@pytest.mark.parametrize("damage", DAMAGES)
@pytest.mark.parametrize("broken", ["checkpoint.pt", "buffer-00001.npz"])
def test_resume_with_a_broken_checkpoint_or_buffer_is_a_one_line_error(
    tmp_path: Path, run: Path, capsys: pytest.CaptureFixture[str], broken: str, damage: str
) -> None:
    out = tmp_path / "run"
    shutil.copytree(run, out)
    damaged(out / broken, damage)
    line = _resume_error(capsys, out)
    assert line.startswith(f"pyaz-selfplay: {out / broken} is not a pyaz "), line
    if damage == "truncated":
        assert "truncated: not a complete" in line, line


def test_resume_refuses_foreign_torch_files_and_buffers(
    tmp_path: Path, run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    shutil.copytree(run, out)
    shutil.copy(run / "nets" / "iter-00001.pt", out / "checkpoint.pt")  # a network, not a run
    line = _resume_error(capsys, out)
    assert line.endswith("is not a pyaz training checkpoint: it lacks buffer, optimizer, rng, "
                         "torch_rng, counters, config"), line  # fmt: skip
    data = torch.load(run / "checkpoint.pt", weights_only=True)
    torch.save({**data, "buffer": "../../elsewhere.npz"}, out / "checkpoint.pt")
    assert "its buffer is '../../elsewhere.npz'" in _resume_error(capsys, out)
    shutil.copy(run / "checkpoint.pt", out / "checkpoint.pt")
    np.savez(out / "buffer-00001.npz", lengths=np.array([{"a": 1}], dtype=object))
    assert "lengths.npy holds Python objects" in _resume_error(capsys, out)
    (out / "buffer-00001.npz").unlink()
    assert "No such file or directory" in _resume_error(capsys, out)


# ------------------------------------------------------------------- TorchScript archives


def _torchscript(tmp_path: Path, game: str) -> Path:
    net = PolicyValueNet(net_config_for(pyaz.make(game), "tiny"))
    path = tmp_path / f"{game}.torchscript.pt"
    path.write_bytes(torchscript_bytes(net))
    return path


@pytest.mark.parametrize("runtime", ["onnxruntime", "openvino"])
def test_a_torchscript_export_is_not_executed_and_on_another_runtime_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], runtime: str
) -> None:
    """No command loads a TorchScript export (loading one runs its code: issue 74); the Python
    API loads one only with ``execute_torchscript_code``, and then it has no input shape."""
    othello = _torchscript(tmp_path, "othello")
    assert gtp.main(["--game", "othello", "--size", "8", "--model", str(othello),
                     "--runtime", runtime]) == 2  # fmt: skip
    line = one_line(capsys.readouterr().err)
    assert f"{othello} is a TorchScript archive" in line and "checkpoint.pt" in line, line
    racing = _torchscript(tmp_path, "racingkings")
    assert uci.main(["--model", str(racing), "--runtime", runtime]) == 2
    line = one_line(capsys.readouterr().err)
    assert "pyaz does not execute TorchScript files" in line, line
    model = nets.load_model(othello, execute_torchscript_code=True)
    with pytest.raises(ValueError, match="is a TorchScript export"):
        model.evaluator(runtime=runtime)
    assert model.evaluator(runtime="torchscript") is not None
    assert model.evaluator() is not None  # the default falls back to TorchScript
