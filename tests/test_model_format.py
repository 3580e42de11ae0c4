"""One model file format and one loader (issue 26, item 2): every kind of network pyaz saves
carries the header (format, version, kind, game, board, architecture, pyaz version), and
``pyaz.load_model`` reads every kind, old files without the header too, running nothing from
them, and returns one typed record for each (issue 75, item 2), out of which each method's
accessor reads its own network; bad files, the wrong kind and the wrong game are one-line errors
naming the file.
"""

from __future__ import annotations

import io
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
import torch

import pyaz
from pyaz import nets
from pyaz.eval.presets import make_player
from pyaz.methods.alphagomoku.pair import (
    NetworkPair,
    PairModule,
    network_pair,
    save_pair,
)
from pyaz.methods.kr_dl_uct.loop import curling_network
from pyaz.methods.kr_dl_uct.net import CurlingNet
from pyaz.methods.reinforce.net import (
    SmallConfig,
    SmallPolicyNet,
    policy_network,
    save_network,
)
from pyaz.nets import PolicyValueNet, net_config_for, net_state
from pyaz.nets.files import HEADER_KEY, model_bytes, model_header, read_model_file


def az_net(game: str = "connect_four", **options: Any) -> PolicyValueNet:
    torch.manual_seed(0)
    return PolicyValueNet(net_config_for(pyaz.make(game, **options), "tiny")).eval()


def small_zetago() -> SmallPolicyNet:
    torch.manual_seed(0)
    return SmallPolicyNet(SmallConfig(filters=4, layers=2)).eval()


def curling_net() -> CurlingNet:
    torch.manual_seed(0)
    return CurlingNet(4, 1).eval()


def one_line(error: pytest.ExceptionInfo[BaseException]) -> str:
    lines = str(error.value).strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def same_weights(a: torch.nn.Module, b: torch.nn.Module) -> bool:
    one, two = a.state_dict(), b.state_dict()
    return one.keys() == two.keys() and all(torch.equal(one[k], two[k]) for k in one)


def save_every_kind(folder: Path) -> dict[str, Path]:
    """One file of each kind, written by its saver."""
    files = {kind: folder / f"{kind}.pt" for kind in nets.MODEL_KINDS}
    files["az"].write_bytes(nets.net_file_bytes(az_net(), "connect_four", {}, iteration=3))
    save_pair(NetworkPair.fresh(az_net("gomoku", size=9)), files["alphagomoku-pair"])
    save_network(small_zetago(), files["zetago-policy"])
    net = curling_net()
    payload = {"net": net.state_dict(), "channels": 4, "blocks": 1, "iteration": 2}
    arch = {"channels": 4, "blocks": 1}
    files["curling"].write_bytes(model_bytes("curling", payload, "curling", {}, arch))
    return files


def test_every_kind_round_trips_through_pyaz_load_model(tmp_path: Path) -> None:
    files = save_every_kind(tmp_path)
    az = pyaz.load_model(files["az"])
    assert isinstance(az, nets.LoadedModel) and az.iteration == 3
    assert same_weights(az.net, az_net()) and az.settings["game"] == "connect_four"
    pair = network_pair(pyaz.load_model(files["alphagomoku-pair"]))
    assert isinstance(pair, NetworkPair) and same_weights(pair.black, az_net("gomoku", size=9))
    zetago = policy_network(pyaz.load_model(files["zetago-policy"]))
    assert isinstance(zetago, SmallPolicyNet) and same_weights(zetago, small_zetago())
    curling = curling_network(pyaz.load_model(files["curling"]))
    assert isinstance(curling, CurlingNet) and same_weights(curling, curling_net())
    assert not curling.training and not zetago.training and not az.net.training
    for kind, path in files.items():  # each kind's file, read as that kind
        assert read_model_file(path).kind == kind
        assert pyaz.load_model(path, kind).kind == kind
    pair_file, policy_file = files["alphagomoku-pair"], files["zetago-policy"]
    assert isinstance(network_pair(pyaz.load_model(pair_file, "alphagomoku-pair")), NetworkPair)
    assert isinstance(policy_network(pyaz.load_model(policy_file, "zetago-policy")), SmallPolicyNet)
    assert isinstance(curling_network(pyaz.load_model(files["curling"], "curling")), CurlingNet)
    assert nets.load_model(files["az"]).iteration == 3


def test_pyaz_load_model_returns_one_typed_record_for_every_kind(tmp_path: Path) -> None:
    files = save_every_kind(tmp_path)
    modules = {
        "az": PolicyValueNet,
        "alphagomoku-pair": PairModule,
        "zetago-policy": SmallPolicyNet,
        "curling": CurlingNet,
    }
    games = {"az": "connect_four", "alphagomoku-pair": "gomoku", "zetago-policy": "go",
             "curling": "curling"}  # fmt: skip
    iterations = {"az": 3, "alphagomoku-pair": None, "zetago-policy": None, "curling": 2}
    assert pyaz.load_model is nets.load_model  # one loader, defined once
    for kind, path in files.items():
        for loaded in (pyaz.load_model(path), pyaz.load_model(path, kind=kind, game=games[kind])):
            assert type(loaded) is nets.LoadedModel, kind
            assert (loaded.kind, loaded.path, loaded.game) == (kind, path, games[kind])
            assert isinstance(loaded.module, modules[kind]) and not loaded.module.training
            assert loaded.iteration == iterations[kind], kind
            assert loaded.config == (az_net().config if kind == "az" else None), kind
    pair = pyaz.load_model(files["alphagomoku-pair"])
    assert isinstance(pair.module, PairModule) and network_pair(pair) is pair.module.pair
    assert pair.module.black is network_pair(pair).black
    assert set(pair.module.state_dict()) == {
        f"{colour}.{name}" for colour in ("black", "white") for name in az_net().state_dict()
    }
    cached = pyaz.load_model(files["curling"], cached=True)
    assert pyaz.load_model(files["curling"], "curling", cached=True) is not cached  # per kind
    assert pyaz.load_model(files["curling"], cached=True) is cached
    with pytest.raises(ValueError, match="unknown model kind 'chess'"):
        pyaz.load_model(files["az"], kind="chess")


def test_a_methods_accessor_refuses_another_kind_naming_both(tmp_path: Path) -> None:
    files = save_every_kind(tmp_path)
    accessors: dict[str, Any] = {
        "az": lambda loaded: loaded.net,
        "alphagomoku-pair": network_pair,
        "zetago-policy": policy_network,
        "curling": curling_network,
    }
    for wanted, accessor in accessors.items():
        for found, path in files.items():
            loaded = pyaz.load_model(path)
            if found == wanted:
                assert accessor(loaded) is not None
                continue
            with pytest.raises(ValueError) as raised:
                accessor(loaded)
            assert one_line(raised) == (
                f"{path} is {nets.MODEL_KINDS[found]} (kind {found}), not "
                f"{nets.MODEL_KINDS[wanted]} (kind {wanted})"
            )
    with pytest.raises(ValueError, match=r"\(kind curling\), not an AlphaZero network"):
        pyaz.load_model(files["curling"]).evaluator()  # what plays an AlphaZero network only
    odd = nets.LoadedModel(curling_net(), None, path=files["curling"], kind="zetago-policy")
    with pytest.raises(ValueError) as raised:  # a record built by hand: the module's type too
        policy_network(odd)
    assert one_line(raised) == (
        f"{files['curling']}: a ZetaGo policy network whose module is a CurlingNet, not a "
        "_PolicyNet"
    )


def test_the_header_of_each_kind(tmp_path: Path) -> None:
    files = save_every_kind(tmp_path)
    headers = {
        kind: torch.load(path, weights_only=True)[HEADER_KEY] for kind, path in files.items()
    }
    common = {"format": "pyaz-model", "format_version": 1, "pyaz_version": pyaz.__version__}
    for kind, header in headers.items():
        assert {k: header[k] for k in common} == common
        assert header["kind"] == kind
    assert (headers["az"]["game"], headers["az"]["game_options"]) == ("connect_four", {})
    assert headers["az"]["arch"] == net_state(az_net())["config"]
    pair = headers["alphagomoku-pair"]
    assert (pair["game"], pair["game_options"]) == ("gomoku", {"size": 9})
    assert pair["arch"]["width"] == 9 and pair["arch"]["actions"] == 81
    zetago = headers["zetago-policy"]
    assert (zetago["game"], zetago["game_options"]) == ("go", {"size": 5})
    assert zetago["arch"] == {
        "kind": "small",
        "config": {"size": 5, "layers": 2, "filters": 4, "value_head": False},
    }
    curling = headers["curling"]
    assert (curling["game"], curling["arch"]) == ("curling", {"channels": 4, "blocks": 1})
    with pytest.raises(ValueError, match="unknown model kind 'chess'"):
        model_header("chess", "chess", {}, {})


def test_the_curling_loop_writes_the_header(tmp_path: Path) -> None:
    from pyaz.methods.kr_dl_uct.config import CurlingConfig
    from pyaz.methods.kr_dl_uct.loop import CurlingTrainingLoop

    config = CurlingConfig(
        iterations=1, games=1, ends=1, simulations=4, initial_actions=4, supervised_games=1,
        supervised_steps=1, eval_opponent="none", workers=1, channels=4, blocks=1, batch_size=8,
    )  # fmt: skip
    out = tmp_path / "curling"
    loop = CurlingTrainingLoop(config, out, progress=False)
    loop.run()
    model = read_model_file(out / "nets" / "iter-00001.pt", "curling")
    assert model.header is not None and model.header["arch"] == {"channels": 4, "blocks": 1}
    assert model.payload["iteration"] == 1
    assert same_weights(curling_network(pyaz.load_model(out / "nets" / "iter-00001.pt")), loop.net)
    assert same_weights(curling_network(pyaz.load_model(out)), loop.net)  # checkpoint.pt, no header


def old_files(folder: Path) -> dict[str, Path]:
    """Files as pyaz wrote them before the header."""
    files: dict[str, Any] = {
        "az-iter.pt": {"net": net_state(az_net()), "iteration": 5},
        "az-bare.pt": net_state(az_net()),
        "alphagomoku-pair.pt": {
            "format": "pyaz-alphagomoku-pair-1",
            "black": net_state(az_net("gomoku", size=9)),
            "white": net_state(az_net("gomoku", size=9)),
            "single": False,
            "settings": {"c_puct": 2.0},
        },
        "zetago-policy.pt": {
            "zetago": small_zetago().describe(),
            "state_dict": small_zetago().state_dict(),
        },
        "curling-iter.pt": {"net": curling_net().state_dict(), "channels": 4, "blocks": 1},
        "curling-checkpoint.pt": {
            "net": curling_net().state_dict(),
            "net_config": {"channels": 4, "blocks": 1},
            "counters": {"iteration": 1},
        },
    }
    for name, data in files.items():
        torch.save(data, folder / name)
    return {name: folder / name for name in files}


def test_old_files_without_the_header_still_load(tmp_path: Path) -> None:
    files = old_files(tmp_path)
    expected = {
        "az-iter.pt": lambda loaded: loaded.net,
        "az-bare.pt": lambda loaded: loaded.net,
        "alphagomoku-pair.pt": network_pair,
        "zetago-policy.pt": policy_network,
        "curling-iter.pt": curling_network,
        "curling-checkpoint.pt": curling_network,
    }
    for name, accessor in expected.items():
        loaded = pyaz.load_model(files[name])
        assert isinstance(loaded, nets.LoadedModel) and loaded.game is None, name
        assert isinstance(accessor(loaded), torch.nn.Module | NetworkPair), name
        assert read_model_file(files[name]).header is None
    assert pyaz.load_model(files["curling-checkpoint.pt"]).iteration == 1
    assert pyaz.load_model(files["az-iter.pt"]).iteration == 5
    pair = network_pair(pyaz.load_model(files["alphagomoku-pair.pt"], "alphagomoku-pair"))
    assert pair.settings == {"c_puct": 2.0}
    policy = policy_network(pyaz.load_model(files["zetago-policy.pt"], "zetago-policy"))
    assert same_weights(policy, small_zetago())
    curling = curling_network(pyaz.load_model(files["curling-checkpoint.pt"], "curling"))
    assert same_weights(curling, curling_net())


def test_run_folders_of_each_method(tmp_path: Path) -> None:
    files = save_every_kind(tmp_path)
    gomoku = tmp_path / "gomoku-run"
    gomoku.mkdir()
    shutil.copy(files["alphagomoku-pair"], gomoku / "pair.pt")
    assert isinstance(network_pair(pyaz.load_model(gomoku)), NetworkPair)
    zetago = tmp_path / "zetago-run"
    zetago.mkdir()
    shutil.copy(files["zetago-policy"], zetago / "net.pt")
    torch.save({"net": small_zetago().state_dict(), "iteration": 1}, zetago / "checkpoint.pt")
    assert isinstance(policy_network(pyaz.load_model(zetago)), SmallPolicyNet)
    go = pyaz.make("go", size=5)
    assert make_player(f"model:{zetago}:3", go).name == f"model:{zetago}:3"
    assert make_player(f"model:{gomoku}", pyaz.make("gomoku", size=9)).name == f"model:{gomoku}"
    old_curling = old_files(tmp_path)["curling-iter.pt"]  # no header: no game to compare
    with pytest.raises(ValueError) as raised:  # a curling network plays curling only
        make_player(f"model:{old_curling}", pyaz.make("connect_four"))
    line = one_line(raised)  # the spec named, cut when long (issue 74)
    assert line.startswith("'model:") and " plays curling, not connect_four" in line, line
    (tmp_path / "empty").mkdir()
    with pytest.raises(FileNotFoundError, match="not a run folder"):
        pyaz.load_model(tmp_path / "empty")


# ------------------------------------------------------------------- bad files


def test_bad_files_are_one_line_errors_naming_them(tmp_path: Path) -> None:
    files = save_every_kind(tmp_path)
    truncated = tmp_path / "truncated.pt"
    truncated.write_bytes(files["az"].read_bytes()[:2000])
    text = tmp_path / "notes.pt"
    text.write_text("hello\n")
    foreign = tmp_path / "foreign.pt"
    torch.save({"weights": torch.zeros(3), "epoch": 4}, foreign)
    cases = {
        truncated: "is not a pyaz model file: truncated: not a complete torch file",
        text: "is not a pyaz model file: not a torch file",
        foreign: "holds no pyaz model (a torch file not written by pyaz; expected one of: ",
    }
    for path, reason in cases.items():
        with pytest.raises(ValueError) as raised:
            pyaz.load_model(path)
        assert one_line(raised).startswith(f"{path} "), one_line(raised)
        assert reason in one_line(raised)
    with pytest.raises(ValueError) as raised:
        pyaz.load_model(foreign, "curling")
    assert one_line(raised) == (
        f"{foreign} holds no pyaz model (a torch file not written by pyaz; expected a curling "
        "network)"
    )


def test_a_config_with_a_bad_threat_search_is_a_one_line_error(tmp_path: Path) -> None:
    # A crafted file: a Gomoku network whose config says threat_search "3000" (a string).
    state = torch.load(
        io.BytesIO(nets.net_file_bytes(az_net("gomoku", size=9), "gomoku", {"size": 9})),
        weights_only=True,
    )
    state["net"]["config"]["threat_search"] = "3000"
    path = tmp_path / "crafted.pt"
    torch.save(state, path)
    with pytest.raises(ValueError) as raised:
        pyaz.load_model(path)
    assert one_line(raised) == (
        f"{path}: the network's config: threat_search must be an integer, got '3000'"
    )


def test_the_wrong_kind_names_both_kinds(tmp_path: Path) -> None:
    files = save_every_kind(tmp_path)
    cases = [  # the kind asked for, the file, what it is
        ("az", files["zetago-policy"], "a ZetaGo policy network"),
        ("alphagomoku-pair", files["az"], "an AlphaZero network"),
        ("zetago-policy", files["alphagomoku-pair"], "an AlphaGomoku network pair"),
        ("curling", files["zetago-policy"], "a ZetaGo policy network"),
        ("az", files["curling"], "a curling network"),
    ]
    needed = ["an AlphaZero network", "an AlphaGomoku network pair", "a ZetaGo policy network",
              "a curling network", "an AlphaZero network"]  # fmt: skip
    for (kind, path, found), need in zip(cases, needed, strict=True):
        with pytest.raises(ValueError) as raised:
            pyaz.load_model(path, kind)
        assert one_line(raised).startswith(f"{path} is {found} (kind "), one_line(raised)
        assert f"not {need} (kind " in one_line(raised)
    old = old_files(tmp_path)["zetago-policy.pt"]  # a headerless file: its kind inferred
    with pytest.raises(ValueError, match=r"is a ZetaGo policy network .*not an AlphaZero"):
        nets.load_model(old, "az")


def test_another_games_file_names_both_games(tmp_path: Path) -> None:
    files = save_every_kind(tmp_path)
    with pytest.raises(ValueError) as raised:
        pyaz.load_model(files["az"], game="othello")
    assert one_line(raised) == f"{files['az']} is a model for connect_four, not for othello"
    with pytest.raises(ValueError) as raised:
        make_player(f"model:{files['zetago-policy']}", pyaz.make("othello", size=6))
    assert one_line(raised) == f"{files['zetago-policy']} is a model for go, not for othello"
    assert isinstance(pyaz.load_model(files["az"], game="connect_four"), nets.LoadedModel)


def test_a_newer_or_damaged_header_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "net.pt"
    data = torch.load(io_bytes(nets.net_file_bytes(az_net(), "connect_four")), weights_only=True)
    torch.save({**data, HEADER_KEY: {**data[HEADER_KEY], "format_version": 2}}, path)
    with pytest.raises(ValueError) as raised:
        pyaz.load_model(path)
    assert one_line(raised).startswith(f"{path} was written by a newer pyaz")
    assert one_line(raised).endswith("reads up to 1): upgrade pyaz")
    torch.save({**data, HEADER_KEY: "az"}, path)
    with pytest.raises(ValueError, match="its pyaz_model header is damaged"):
        pyaz.load_model(path)
    torch.save({**data, HEADER_KEY: {**data[HEADER_KEY], "kind": "chess"}}, path)
    with pytest.raises(ValueError, match="unknown model kind 'chess'"):
        nets.load_model(path)


def io_bytes(data: bytes) -> Any:
    import io

    return io.BytesIO(data)


class RunsCode:
    """Unpickled, it calls ``os.system("touch MARKER")`` (as tests/test_model_trust.py)."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (os.system, (f"touch '{self.marker}'",))


@pytest.mark.parametrize("with_header", [False, True])
def test_a_file_that_would_run_code_runs_nothing(tmp_path: Path, with_header: bool) -> None:
    marker = tmp_path / "MARKER"
    path = tmp_path / "hostile.pt"
    data: dict[str, Any] = {"net": RunsCode(marker), "iteration": 1}
    if with_header:
        data[HEADER_KEY] = model_header("az", "connect_four", {}, {})
    torch.save(data, path)
    for load in (pyaz.load_model, lambda p: make_player(f"model:{p}", pyaz.make("connect_four"))):
        with pytest.raises(ValueError) as raised:
            load(path)
        assert one_line(raised).startswith(f"{path} is not a pyaz model file: it refers to ")
        assert "system" in one_line(raised)
    assert not marker.exists()


# ------------------------------------------------------------------- model:PATH plays every kind


def test_model_path_plays_a_pair_and_a_policy_network(tmp_path: Path) -> None:
    files = save_every_kind(tmp_path)
    gomoku = pyaz.make("gomoku", size=9)
    player = make_player(f"model:{files['alphagomoku-pair']}:4", gomoku)
    assert player.name == f"model:{files['alphagomoku-pair']}:4"
    player.reset(gomoku)
    assert gomoku.is_legal(player.choose(gomoku))
    go = pyaz.make("go", size=5)
    player = make_player(f"model:{files['zetago-policy']}:4", go)
    assert player.name == f"model:{files['zetago-policy']}:4"
    player.reset(go)
    try:
        assert go.is_legal(player.choose(go))
    except Exception as error:  # seed 003's search may resign
        assert type(error).__name__ == "Resignation"
    with pytest.raises(ValueError, match="another game or board size"):
        make_player(f"model:{files['alphagomoku-pair']}", pyaz.make("gomoku", size=11))
    with pytest.raises(ValueError) as raised:
        make_player(f"model:{files['curling']}", pyaz.make("connect_four"))
    assert one_line(raised) == f"{files['curling']} is a model for curling, not for connect_four"
    connect_four = pyaz.make("connect_four")
    player = make_player(f"model:{files['az']}:4", connect_four)
    player.reset(connect_four)
    assert connect_four.is_legal(player.choose(connect_four))


def test_a_training_runs_networks_carry_the_az_header(tmp_path: Path) -> None:
    from pyaz.methods.alphazero.config import TrainConfig
    from pyaz.methods.alphazero.loop import TrainingLoop
    from pyaz.nets.files import read_model_file

    config = TrainConfig(
        game="connect_four", game_options={"width": 5, "height": 4}, iterations=1, episodes=2,
        simulations=4, epochs=1, batch_size=8, eval_games=0, gating="none",
        length_probe_games=4, parallel_games=2,
    )  # fmt: skip
    TrainingLoop(config, tmp_path / "run", progress=False).run()
    model = read_model_file(tmp_path / "run" / "nets" / "iter-00001.pt", kind="az")
    assert model.header is not None and model.header["kind"] == "az"
    assert model.header["game"] == "connect_four"
    assert model.header["game_options"] == {"width": 5, "height": 4}
    assert pyaz.load_model(tmp_path / "run" / "nets" / "iter-00001.pt").iteration == 1


def test_an_alphazero_network_refuses_a_game_without_planes() -> None:
    # curling's shots are continuous: a clear ValueError, not an AttributeError
    from pyaz.nets.shipped import shipped_path

    model = pyaz.load_model(shipped_path("othello6"))
    with pytest.raises(ValueError, match="plays a game with input planes and actions, not curling"):
        model.check(pyaz.make("curling"))
