"""Model files that anyone may have made (issue 74, items 2, 4 and 6): no TorchScript archive is
executed (its ``__setstate__`` can write any file), a file's sizes are bounded before anything is
built or read whole, and a network whose weights are not finite is refused; each error is one
short line naming the file.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
import zipfile
from pathlib import Path
from typing import Any

import pytest
import torch
from messages import one_line

import pyaz
from pyaz import nets
from pyaz.cli import arena
from pyaz.methods.alphagomoku.pair import NetworkPair, save_pair
from pyaz.methods.kr_dl_uct.net import CurlingNet
from pyaz.methods.reinforce.net import SmallConfig, SmallPolicyNet, save_network
from pyaz.nets import PolicyValueNet, net_config_for, net_file_bytes, net_state
from pyaz.nets.bounds import MAX_FILE_BYTES

BOARD = ["--game", "connect_four", "--width", "4", "--height", "4", "--games", "1", "--quiet"]


class WritesAFile(torch.nn.Module):
    """Scripted and saved, its archive's ``__setstate__`` writes ``AAAAAAAA`` to ``target``
    when ``torch.jit.load`` reads it: what a hostile TorchScript export does."""

    def __init__(self, target: str) -> None:
        super().__init__()
        self.target = target
        self.written = torch.zeros(1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x

    @torch.jit.export
    def __getstate__(self) -> tuple[str, bool]:
        return (self.target, self.training)

    @torch.jit.export
    def __setstate__(self, state: tuple[str, bool]) -> None:
        self.target = state[0]
        self.training = state[1]
        self.written = torch.from_file(self.target, shared=True, size=8, dtype=torch.uint8)
        self.written.fill_(65)


def tiny_net(game: str = "connect_four", **options: Any) -> PolicyValueNet:
    return PolicyValueNet(net_config_for(pyaz.make(game, **options), "tiny"))


@pytest.fixture
def hostile_export(tmp_path: Path) -> tuple[Path, Path]:
    """A run folder holding only a TorchScript export that writes ``MARKER`` when loaded, and
    config.json; returns (the folder, the marker)."""
    folder, marker = tmp_path / "run", tmp_path / "MARKER"
    folder.mkdir()
    torch.jit.save(torch.jit.script(WritesAFile(str(marker))), str(folder / "best.torchscript.pt"))
    (folder / "config.json").write_text('{"game": "connect_four"}')
    assert not marker.exists()
    return folder, marker


LOADS = {
    "pyaz.load_model(file)": lambda folder: pyaz.load_model(folder / "best.torchscript.pt"),
    "pyaz.load_model(folder)": pyaz.load_model,
    "load_model(file, az)": lambda folder: nets.load_model(folder / "best.torchscript.pt", "az"),
    "load_model(folder, az, cached)": lambda folder: nets.load_model(folder, "az", cached=True),
    "nets.model_kind(file)": lambda folder: nets.model_kind(folder / "best.torchscript.pt"),
}


@pytest.mark.parametrize("load", list(LOADS))
def test_no_loader_executes_a_torchscript_archive(
    hostile_export: tuple[Path, Path], load: str
) -> None:
    folder, marker = hostile_export
    with pytest.raises(ValueError) as raised:
        LOADS[load](folder)
    line = one_line(str(raised.value))
    assert line.startswith(f"{folder / 'best.torchscript.pt'} is a TorchScript archive"), line
    assert "pyaz does not execute TorchScript files" in line and "checkpoint.pt" in line, line
    assert not marker.exists()
    torch.jit.load(str(folder / "best.torchscript.pt"))  # the archive is as hostile as it says
    assert marker.read_bytes() == b"AAAAAAAA"


def test_pyaz_arena_does_not_execute_a_torchscript_run_folder(
    hostile_export: tuple[Path, Path],
) -> None:
    folder, marker = hostile_export
    done = subprocess.run(
        [sys.executable, "-m", "pyaz.cli.arena", f"model:{folder}", "random", *BOARD],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=folder.parent,
    )
    assert done.returncode == 2, done.stderr[-2000:]
    line = one_line(done.stderr)
    assert f"{folder / 'best.torchscript.pt'} is a TorchScript archive" in line, line
    assert "does not execute TorchScript" in line, line
    assert not marker.exists()


def test_a_run_folder_without_checkpoint_plays_its_newest_iteration(tmp_path: Path) -> None:
    (tmp_path / "nets").mkdir()
    for k in (2, 10):  # 10 after 2, whatever the names' order
        (tmp_path / "nets" / f"iter-{k:05d}.pt").write_bytes(
            net_file_bytes(tiny_net(), "connect_four", iteration=k)
        )
    (tmp_path / "best.torchscript.pt").write_bytes(b"never read")
    model = nets.load_model(tmp_path)
    assert model.path == tmp_path / "nets" / "iter-00010.pt" and model.iteration == 10


# ------------------------------------------------------------------- sizes, before anything


def _az_file(path: Path, config: dict[str, Any], state_dict: dict[str, Any]) -> Path:
    torch.save({"net": {"config": config, "state_dict": state_dict}, "iteration": 1}, path)
    return path


def _refused(path: Path, load: Any = nets.load_model) -> str:
    """The one-line ValueError of loading ``path``, which must come at once."""
    began = time.perf_counter()
    with pytest.raises(ValueError) as raised:
        load(path)
    assert time.perf_counter() - began < 5
    line = one_line(str(raised.value))
    assert str(path) in line, line
    return line


HUGE = {
    "a value head 2e7 wide": ({"value_hidden": 20_000_000}, "value_hidden 20000000"),
    "20,000 residual blocks": ({"blocks": 20_000}, "blocks 20000"),
    "a million filters": ({"filters": 1_000_000}, "filters 1000000"),
    "a 1e9-plane input": ({"planes": 10**9}, "planes 1000000000"),
    "a 71-bit action count": ({"actions": 2**70}, "actions a 71-bit number"),
    "sizes in range, too many parameters": (
        {"height": 128, "width": 128, "value_planes": 256, "value_hidden": 65536},
        "parameters, more than",
    ),
}


@pytest.mark.parametrize("case", list(HUGE))
def test_huge_sizes_are_refused_before_the_network_is_built(tmp_path: Path, case: str) -> None:
    net = tiny_net()
    change, expected = HUGE[case]
    path = _az_file(tmp_path / "huge.pt", {**net_state(net)["config"], **change}, net.state_dict())
    line = _refused(path)
    assert expected in line, line


def test_weights_that_do_not_fit_the_config_are_named_in_one_short_line(tmp_path: Path) -> None:
    net = tiny_net()
    config, weights = net_state(net)["config"], net.state_dict()
    wrong = {**weights, "value_head.5.weight": torch.zeros(64, 43)}
    line = _refused(_az_file(tmp_path / "shape.pt", config, wrong))
    assert "config and weights do not go together" in line, line
    assert "'value_head.5.weight' has shape (64, 43), the config's network (64, 42)" in line, line
    extra = {**weights, **{f"{'x' * 300}{k}": torch.zeros(1) for k in range(2000)}}
    line = _refused(_az_file(tmp_path / "extra.pt", config, extra))
    assert "the weights hold 'xxxx" in line and "which the config's network has not" in line


def test_a_config_field_pyaz_does_not_know_is_refused_shortly(tmp_path: Path) -> None:
    net = tiny_net()
    config = {**net_state(net)["config"], "y" * 100_000: 1}
    line = _refused(_az_file(tmp_path / "field.pt", config, net.state_dict()))
    assert "has a field 'yyy" in line, line


@pytest.mark.parametrize("kind", ["zetago", "curling"])
def test_the_method_networks_sizes_are_bounded_too(tmp_path: Path, kind: str) -> None:
    path = tmp_path / f"{kind}.pt"
    if kind == "zetago":
        save_network(SmallPolicyNet(SmallConfig(filters=4, layers=2)), path)
        data = torch.load(path, weights_only=True)
        data["zetago"]["config"]["layers"] = 100_000
        expected = "layers 100000"
    else:
        net = CurlingNet(4, 1)
        payload = {"net": net.state_dict(), "channels": 4, "blocks": 20_000, "iteration": 1}
        data = {**payload, "pyaz_model": nets.model_header("curling", "curling", {}, {})}
        expected = "blocks 20000"
    torch.save(data, path)
    assert expected in _refused(path, pyaz.load_model)


def _with_lying_entry(source: Path, path: Path, claimed: int) -> Path:
    """``source`` (a torch file) with one more entry, deflated, whose zip directory says it
    unpacks to ``claimed`` bytes (torch reads only the entries its pickle names)."""
    data = source.read_bytes()
    with zipfile.ZipFile(path, "w") as archive:
        with zipfile.ZipFile(source) as original:
            for entry in original.infolist():
                archive.writestr(entry, original.read(entry))
        archive.writestr("archive/data/bomb", b"\0" * 100_000, zipfile.ZIP_DEFLATED)
    blob = bytearray(path.read_bytes())
    directory = blob.rindex(b"PK\x01\x02", 0, blob.rindex(b"PK\x05\x06"))
    assert blob[directory + 46 : directory + 62] == b"archive/data/bomb"[:16]
    blob[directory + 24 : directory + 28] = claimed.to_bytes(4, "little")  # uncompressed size
    path.write_bytes(bytes(blob))
    assert data != path.read_bytes()
    return path


def test_a_zip_entry_that_unpacks_past_the_ceiling_is_refused_before_reading(
    tmp_path: Path,
) -> None:
    good = tmp_path / "good.pt"
    good.write_bytes(net_file_bytes(tiny_net(), "connect_four"))
    nets.load_model(good)
    bomb = _with_lying_entry(good, tmp_path / "bomb.pt", 3_000_000_000)
    line = _refused(bomb)
    assert "its zip entries unpack to 3,000" in line and f"{MAX_FILE_BYTES:,}" in line, line


def test_a_file_over_the_size_ceiling_is_refused_without_reading_it(tmp_path: Path) -> None:
    sparse = tmp_path / "sparse.pt"
    with sparse.open("wb") as file:
        file.truncate(3 * 10**9)  # 3 GB of holes: nothing on the disk
    line = _refused(sparse)
    assert "3,000,000,000 bytes, more than" in line, line


@pytest.mark.parametrize("where", ["run folder", "file"])
def test_a_fifo_is_refused_without_hanging(tmp_path: Path, where: str) -> None:
    fifo = tmp_path / "checkpoint.pt"
    os.mkfifo(fifo)
    outcome: list[BaseException | None] = []

    def load() -> None:
        try:
            nets.load_model(tmp_path if where == "run folder" else fifo, "az")
            outcome.append(None)
        except BaseException as error:  # recorded for the assertions
            outcome.append(error)

    thread = threading.Thread(target=load, daemon=True)
    thread.start()
    thread.join(10)
    hung = thread.is_alive()
    if hung:  # a writer lets the blocked reader go, so that the test ends
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        thread.join(10)
    assert not hung, "loading a FIFO hung"
    assert isinstance(outcome[0], ValueError), outcome
    line = one_line(str(outcome[0]))
    assert line.startswith(f"{fifo} is not a pyaz network file: not a regular file"), line


# ------------------------------------------------------------------- weights that are not numbers


def _poison(module: torch.nn.Module, name: str, value: float) -> None:
    """Puts ``value`` in the first element of ``module``'s tensor ``name``."""
    module.state_dict()[name].view(-1)[0] = value  # the state_dict's tensors are the module's


def _poisoned(kind: str, path: Path) -> Path:
    """A model file of ``kind`` one of whose weights (:data:`TENSORS`) is not finite."""
    if kind == "az":
        net = tiny_net()
        _poison(net, "value_head.5.weight", float("nan"))
        path.write_bytes(net_file_bytes(net, "connect_four"))
    elif kind == "alphagomoku-pair":
        net = tiny_net("gomoku", size=9)
        _poison(net, "stem.0.weight", float("inf"))
        save_pair(NetworkPair.fresh(net), path)
    elif kind == "zetago-policy":
        zetago = SmallPolicyNet(SmallConfig(filters=4, layers=2))
        _poison(zetago, "heads.extra.bias", float("nan"))
        save_network(zetago, path)
    else:
        curling = CurlingNet(4, 1)
        _poison(curling, "value_fc.0.bias", float("-inf"))
        payload = {"net": curling.state_dict(), "channels": 4, "blocks": 1, "iteration": 1}
        torch.save({**payload, "pyaz_model": nets.model_header(kind, kind, {}, {})}, path)
    return path


TENSORS = {
    "az": "'value_head.5.weight'",
    "alphagomoku-pair": "'stem.0.weight'",
    "zetago-policy": "'heads.extra.bias'",
    "curling": "'value_fc.0.bias'",
}


@pytest.mark.parametrize("kind", list(TENSORS))
def test_weights_that_are_not_finite_are_refused_at_load(tmp_path: Path, kind: str) -> None:
    line = _refused(_poisoned(kind, tmp_path / "poisoned.pt"), pyaz.load_model)
    assert f"{TENSORS[kind]} holds NaN or infinite values" in line, line


def test_pyaz_arena_refuses_a_nan_network_before_a_result_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _poisoned("az", tmp_path / "nan.pt")
    assert arena.main([f"model:{path}", "random", *BOARD]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # no result line, no header line
    line = one_line(captured.err)
    assert str(path) in line and "holds NaN or infinite values" in line, line


# ------------------------------------------------------------------- ONNX


def test_onnx_models_are_handed_to_the_runtime_as_bytes_made_in_memory(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """pyaz reads no ONNX file (so no external data is resolved): the ONNX Runtime session is
    made from the bytes just exported."""
    import onnxruntime

    given: list[Any] = []
    session = onnxruntime.InferenceSession

    def recording(model: Any, *args: Any, **kwargs: Any) -> Any:
        given.append(model)
        return session(model, *args, **kwargs)

    monkeypatch.setattr(onnxruntime, "InferenceSession", recording)
    state = pyaz.make("connect_four", width=4, height=4)
    evaluator = nets.make_evaluator(tiny_net("connect_four", width=4, height=4), (2, 4, 4))
    assert evaluator(state.encode()[None])[0].shape == (1, 4)
    assert len(given) == 1 and isinstance(given[0], bytes) and b"pytorch" in given[0][:20]
