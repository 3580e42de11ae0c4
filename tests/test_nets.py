"""pyaz.nets.load_model: every file the training loop writes (a run folder, checkpoint.pt,
nets/iter-*.pt, a bare net_state, TorchScript), the run's settings beside it, and clear errors."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import numpy as np
import pytest
import torch

import pyaz
from pyaz import nets
from pyaz.games import NativeGame

SETTINGS = {
    "game": "connect_four",
    "game_options": {"width": 4, "height": 4},
    "c_puct": 1.5,
    "draw_value": -0.25,
}


def small_state() -> NativeGame:
    return pyaz.make("connect_four", width=4, height=4)


def tiny_net(seed: int = 0) -> nets.PolicyValueNet:
    torch.manual_seed(seed)
    return nets.PolicyValueNet(nets.net_config_for(small_state()))


def same_weights(a: torch.nn.Module, b: torch.nn.Module) -> bool:
    left, right = a.state_dict(), b.state_dict()
    return left.keys() == right.keys() and all(torch.equal(left[k], right[k]) for k in left)


def outputs(module: torch.nn.Module) -> tuple[torch.Tensor, torch.Tensor]:
    planes = torch.from_numpy(np.ascontiguousarray(small_state().encode()[None], np.float32))
    with torch.inference_mode():
        logits, value = module(planes)
    return logits, value.reshape(-1)


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A run folder as the training loop leaves it: config.json, checkpoint.pt (best = net 1,
    current = net 2, the loop's config inside), nets/iter-00001..2.pt and best.torchscript.pt."""
    folder = tmp_path_factory.mktemp("run")
    (folder / "config.json").write_text(json.dumps(SETTINGS))
    best, current = tiny_net(1), tiny_net(2)
    torch.save(
        {
            "best": nets.net_state(best),
            "current": nets.net_state(current),
            "counters": {"iteration": 2.0},
            "config": {**SETTINGS, "c_puct": 9.0, "simulations": 8},
        },
        folder / "checkpoint.pt",
    )
    (folder / "nets").mkdir()
    for k in (1, 2):
        net = best if k == 2 else tiny_net(3)
        torch.save(
            {"net": nets.net_state(net), "iteration": k}, folder / "nets" / f"iter-{k:05d}.pt"
        )
    (folder / "best.torchscript.pt").write_bytes(nets.torchscript_bytes(best))
    return folder


def test_run_folder_loads_the_best_network_with_the_run_settings(run: Path) -> None:
    model = nets.load_model(run, "az")
    assert model.path == run / "checkpoint.pt"
    assert isinstance(model.module, nets.PolicyValueNet) and not model.module.training
    assert model.config == tiny_net(1).config and model.net is model.module
    assert same_weights(model.module, tiny_net(1))  # "best", not "current"
    assert model.iteration == 2
    # config.json wins over the config saved inside checkpoint.pt; the rest of that is kept.
    assert model.settings == {**SETTINGS, "simulations": 8}
    model.check(small_state())
    direct = nets.load_model(str(run / "checkpoint.pt"), "az")
    assert direct.path == model.path and same_weights(direct.module, model.module)


def test_iteration_files_and_bare_net_state(run: Path, tmp_path: Path) -> None:
    model = nets.load_model(run / "nets" / "iter-00001.pt", "az")
    assert model.iteration == 1 and same_weights(model.module, tiny_net(3))
    assert model.settings == SETTINGS  # the run folder's config.json, two levels up
    assert not model.module.training

    bare = tmp_path / "bare.pt"
    torch.save(nets.net_state(tiny_net(4)), bare)
    model = nets.load_model(bare, "az")
    assert model.iteration is None and model.settings == {} and model.path == bare
    assert same_weights(model.module, tiny_net(4))
    assert same_weights(nets.load_model(str(bare), "az").net, tiny_net(4))  # the typed net


def test_torchscript_archives_load_only_when_their_code_may_run(run: Path, tmp_path: Path) -> None:
    """pyaz does not execute TorchScript (tests/test_model_bounds.py); the Python API's
    ``execute_torchscript_code`` loads an export one trusts."""
    with pytest.raises(ValueError, match="pyaz does not execute TorchScript files"):
        nets.load_model(run / "best.torchscript.pt", "az")
    model = nets.load_model(run / "best.torchscript.pt", "az", execute_torchscript_code=True)
    assert isinstance(model.module, torch.jit.ScriptModule) and not model.module.training
    assert model.config is None and model.iteration is None
    assert model.settings == SETTINGS
    expected = outputs(tiny_net(1).eval())
    got = outputs(model.module)
    assert all(torch.allclose(a, b, atol=1e-5) for a, b in zip(got, expected, strict=True))
    model.check(small_state())
    with pytest.raises(ValueError, match="TorchScript"):
        model.net  # noqa: B018 (the property raises)
    # A run folder with only the TorchScript export: never played from it.
    only = tmp_path / "scripted-run"
    only.mkdir()
    (only / "best.torchscript.pt").write_bytes(nets.torchscript_bytes(tiny_net(5)))
    for options in ({}, {"execute_torchscript_code": True}):
        with pytest.raises(ValueError, match="pyaz does not execute TorchScript files"):
            nets.load_model(only, "az", **options)
    assert nets.is_torchscript(only / "best.torchscript.pt")
    assert not nets.is_torchscript(run / "checkpoint.pt")


def test_check_rejects_another_game(run: Path) -> None:
    othello = pyaz.make("othello", size=6)
    with pytest.raises(ValueError, match=r"takes 2x4x4 planes and 4 actions.*does not fit"):
        nets.load_model(run, "az").check(othello)
    with pytest.raises(ValueError, match="does not fit othello"):
        nets.load_model(run / "best.torchscript.pt", execute_torchscript_code=True).check(othello)


def test_missing_files_and_folders(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="not found"):
        nets.load_model(tmp_path / "nothing.pt", "az")
    with pytest.raises(FileNotFoundError, match="not a run folder"):
        nets.load_model(tmp_path, "az")


def test_files_without_a_network(tmp_path: Path) -> None:
    junk = tmp_path / "junk.pt"
    junk.write_text("not a checkpoint")
    with pytest.raises(ValueError, match=r"junk\.pt is not a pyaz network file: not a torch file"):
        nets.load_model(junk, "az")
    empty = tmp_path / "empty.pt"
    empty.write_bytes(b"")
    with pytest.raises(
        ValueError, match=r"empty\.pt is not a pyaz network file: the file is empty"
    ):
        nets.load_model(empty, "az")
    for name, data in {
        "list.pt": [1, 2, 3],
        "weights.pt": tiny_net().state_dict(),  # weights without the config
        "other.pt": {"net": {"weights": 1}},
        "optimizer.pt": {"best": {"state_dict": {}}},
    }.items():
        torch.save(data, tmp_path / name)
        with pytest.raises(ValueError, match="holds no pyaz network"):
            nets.load_model(tmp_path / name, "az")
    state = nets.net_state(tiny_net())
    state["config"] = {**state["config"], "filters": 16}  # weights of 32 filters
    torch.save({"net": state}, tmp_path / "mismatch.pt")
    with pytest.raises(ValueError, match="config and weights do not go together"):
        nets.load_model(tmp_path / "mismatch.pt", "az")
    broken = tmp_path / "broken.torchscript.pt"
    with zipfile.ZipFile(broken, "w") as archive:
        archive.writestr("broken/code/__torch__/net.py", "garbage")
        archive.writestr("broken/constants.pkl", b"garbage")
    assert nets.is_torchscript(broken)
    with pytest.raises(ValueError, match=r"broken\.torchscript\.pt is a TorchScript archive"):
        nets.load_model(broken, "az")
    with pytest.raises(ValueError, match=r"not a pyaz network file: a broken TorchScript archive"):
        nets.load_model(broken, "az", execute_torchscript_code=True)


def test_a_broken_config_json_is_reported(tmp_path: Path) -> None:
    torch.save({"net": nets.net_state(tiny_net())}, tmp_path / "net.pt")
    (tmp_path / "config.json").write_text("{not json")
    with pytest.raises(ValueError, match=r"config\.json"):
        nets.load_model(tmp_path / "net.pt", "az")
    (tmp_path / "config.json").write_text("[1, 2]")
    with pytest.raises(ValueError, match="not a JSON object"):
        nets.load_model(tmp_path / "net.pt", "az")
