"""The threat planes (NetConfig.threat_line, TrainConfig.threat_planes): two fixed input planes
the network computes itself, the empty cells where the player to move (plane 0) and the
opponent (plane 1) would complete a line, and with ``deep`` (NetConfig.threat_depth 2) the cells
where a stone makes a new threat. Checked on hand-worked positions and against a plain loop over
the board's lines; saved and loaded with the network; by default parity for Connect Four and deep
for Gomoku only, off for the runs and seed presets from before; a clear error elsewhere. Othello's
mobility planes (each player's legal moves and frontier) are checked by hand and against the
engine's legal moves."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
import torch

import pyaz
from pyaz.cli import selfplay
from pyaz.methods.alphazero.config import TrainConfig
from pyaz.methods.alphazero.loop import TrainingLoop
from pyaz.methods.alphazero.preset_files import load_preset, train_config
from pyaz.nets import PolicyValueNet, load_model, net_config_for
from pyaz.nets.model import (
    THREAT_PLANE_COUNTS,
    MobilityPlanes,
    ParityPlane,
    ThreatPlanes,
    to_torchscript,
)


def planes_of(state: pyaz.NativeGame) -> torch.Tensor:
    return torch.from_numpy(state.encode()[None].astype(np.float32))


def threats(state: pyaz.NativeGame, line: int, depth: int = 1) -> np.ndarray:
    """The threat planes of ``state`` as int arrays: (own, opponent) completing a line, then
    with ``depth`` 2 (own, opponent) making a threat, with 3 also (own, opponent) making a
    three and (own, opponent) forks."""
    added = THREAT_PLANE_COUNTS[depth]
    return ThreatPlanes(line, depth)(planes_of(state))[0, -added:].numpy().astype(int)


def cells(plane: np.ndarray) -> set[tuple[int, int]]:
    return {(int(r), int(c)) for r, c in zip(*np.nonzero(plane), strict=True)}


def eager_matches_torchscript(net: PolicyValueNet, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
    """``net``'s outputs for ``x`` in eval mode, checked against its TorchScript copy."""
    with torch.no_grad():
        eager = net.eval()(x)
        scripted = to_torchscript(net)(x)
    assert all(torch.allclose(a, b, atol=1e-6) for a, b in zip(eager, scripted, strict=True))
    return tuple(eager)


def test_connect_four_rows_and_columns_by_hand() -> None:
    state = pyaz.make("connect_four", width=6, height=6)
    for column in (0, 0, 1, 1, 2, 2):  # X on the bottom row's first three cells, O above
        state.apply(column)
    own, opponent = threats(state, 4)
    # the planes' row 0 is the top: X (to move) completes the bottom row at column 3, O the
    # second row at column 3 (an empty cell in the air is still a threat: parity decides later)
    assert cells(own) == {(5, 3)} and cells(opponent) == {(4, 3)}
    vertical = pyaz.make("connect_four", width=6, height=6)
    for column in (0, 5, 0, 5, 0):  # X three high in column 0, O two in column 5; O to move
        vertical.apply(column)
    own, opponent = threats(vertical, 4)
    assert cells(own) == set() and cells(opponent) == {(2, 0)}


def test_gomoku_gaps_diagonals_and_blocked_lines_by_hand() -> None:
    state = pyaz.make("gomoku", size=9)
    black = [(4, 0), (4, 1), (4, 3), (4, 4), (0, 5), (1, 6), (2, 7), (3, 8)]
    white = [(8, 0), (8, 1), (8, 2), (8, 3), (6, 6), (7, 7), (0, 0), (2, 0)]
    for b, w in zip(black, white, strict=True):
        state.apply(b[0] * 9 + b[1])
        state.apply(w[0] * 9 + w[1])
    own, opponent = threats(state, 5)
    # Black (to move): XX.XX on row 4 -> the gap (4, 2); its diagonal (0,5)..(3,8) of four has
    # both ends off the board, so no threat
    assert cells(own) == {(4, 2)}
    # White: four on row 8 -> (8, 4) (the other end is the board's edge)
    assert cells(opponent) == {(8, 4)}


def test_gomoku_cells_that_make_a_four_by_hand() -> None:
    state = pyaz.make("gomoku", size=9)
    black = [(4, 2), (4, 3), (4, 4)]  # an open three on row 4
    white = [(0, 0), (0, 1), (4, 7)]  # White caps row 4 at column 7; two on row 0
    for b, w in zip(black, white, strict=True):
        state.apply(b[0] * 9 + b[1])
        state.apply(w[0] * 9 + w[1])
    complete_own, complete_opponent, make_own, make_opponent = threats(state, 5, depth=2)
    assert cells(complete_own) == set() and cells(complete_opponent) == set()
    # Black makes a four on row 4 at columns 0, 1, 5 or 6: each leaves a window of five with
    # four black stones and one empty cell; column 7 is White's, so no window reaches past 6
    assert cells(make_own) == {(4, 0), (4, 1), (4, 5), (4, 6)}
    # White's two on row 0 need two more stones: no four in one move
    assert cells(make_opponent) == set()
    assert ThreatPlanes(5)(planes_of(state)).shape[1] == state.planes_shape[0] + 2


DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


def along(
    stones: np.ndarray,
    others: np.ndarray | None,
    cell: tuple[int, int],
    step: tuple[int, int],
    line: int,
    shorts: tuple[int, ...],
) -> bool:
    """Whether a stone at ``cell`` makes some window of ``line`` cells on the board along
    ``step`` hold all but ``short`` (one of ``shorts``) of ``stones`` and, given the opponent's
    stones ``others``, none of them."""
    height, width = stones.shape
    (r, c), (dr, dc) = cell, step
    for start in range(-line + 1, 1):
        window = [(r + (start + i) * dr, c + (start + i) * dc) for i in range(line)]
        if not all(0 <= y < height and 0 <= x < width for y, x in window):
            continue
        rest = [(y, x) for y, x in window if (y, x) != (r, c)]
        if others is not None and any(others[y, x] for y, x in rest):
            continue
        if line - 1 - sum(stones[y, x] for y, x in rest) in shorts:
            return True
    return False


def directions_made(
    stones: np.ndarray,
    empty: np.ndarray,
    line: int,
    shorts: tuple[int, ...],
    others: np.ndarray | None = None,
) -> np.ndarray:
    """Per cell, the number of directions (0..4) along which a stone on that empty cell makes a
    window all but ``short`` full (:func:`along`)."""
    out = np.zeros_like(stones)
    for r, c in zip(*np.nonzero(empty), strict=True):
        out[r, c] = sum(along(stones, others, (r, c), step, line, shorts) for step in DIRECTIONS)
    return out


def brute_force(
    stones: np.ndarray, empty: np.ndarray, line: int, others: np.ndarray | None = None
) -> np.ndarray:
    """Every empty cell that completes ``line`` stones of ``stones`` along some direction; with
    the opponent's stones ``others``, every empty cell that makes a window of ``line`` hold all
    but one of them and none of the opponent's."""
    short = 0 if others is None else 1
    return (directions_made(stones, empty, line, (short,), others) > 0).astype(stones.dtype)


def brute_force_forks(
    stones: np.ndarray, empty: np.ndarray, line: int, others: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The cells that make a three (a window all but two full, none of ``others``) and the
    forks: the cells that make a four or a three in two or more directions."""
    threes = directions_made(stones, empty, line, (2,), others) > 0
    forks = directions_made(stones, empty, line, (1, 2), others) >= 2
    return threes.astype(stones.dtype), forks.astype(stones.dtype)


def random_positions(
    game: str, options: dict, count: int, seed: int, plies: tuple[int, int]
) -> Iterator[pyaz.NativeGame]:
    """``count`` positions of random play, each ``plies`` (low, high) plies long or shorter
    when the game ends first."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        state = pyaz.make(game, **options)
        for _ in range(int(rng.integers(*plies))):
            if state.is_terminal():
                break
            state.apply(int(rng.choice(state.legal_actions())))
        yield state


@pytest.mark.parametrize(("game", "options", "line"), [
    ("connect_four", {"width": 7, "height": 6}, 4),
    ("gomoku", {"size": 9}, 5),
])  # fmt: skip
def test_random_positions_agree_with_a_plain_loop(game: str, options: dict, line: int) -> None:
    found = made = seen_threes = seen_forks = 0
    for state in random_positions(game, options, 60, seed=0, plies=(8, 50)):
        x = state.encode().astype(int)
        empty = 1 - x[0] - x[1]
        planes = threats(state, line, depth=3)
        own, opponent, make_own, make_opponent = planes[:4]
        assert np.array_equal(own, brute_force(x[0], empty, line))
        assert np.array_equal(opponent, brute_force(x[1], empty, line))
        assert np.array_equal(make_own, brute_force(x[0], empty, line, x[1]))
        assert np.array_equal(make_opponent, brute_force(x[1], empty, line, x[0]))
        # each depth's planes come first in the next one's
        assert np.array_equal(threats(state, line), planes[:2])
        assert np.array_equal(threats(state, line, depth=2), planes[:4])
        three_own, three_opponent, fork_own, fork_opponent = planes[4:]
        for three, fork, mine, theirs in (
            (three_own, fork_own, x[0], x[1]),
            (three_opponent, fork_opponent, x[1], x[0]),
        ):
            want_three, want_fork = brute_force_forks(mine, empty, line, theirs)
            assert np.array_equal(three, want_three)
            assert np.array_equal(fork, want_fork)
        found += int(own.sum() + opponent.sum())
        made += int(make_own.sum() + make_opponent.sum())
        seen_threes += int(three_own.sum() + three_opponent.sum())
        seen_forks += int(fork_own.sum() + fork_opponent.sum())
    # the positions do hold every kind
    assert found > 10 and made > 10 and seen_threes > 10 and seen_forks > 10


def test_gomoku_forks_by_hand() -> None:
    state = pyaz.make("gomoku", size=9)
    # Black: two on row 4 (columns 2, 3) and two on column 5 (rows 1, 2); White far away, and
    # White's stone at (4, 7) does not block the row's windows that end before it
    black = [(4, 2), (4, 3), (1, 5), (2, 5)]
    white = [(8, 0), (8, 8), (0, 8), (4, 8)]
    for b, w in zip(black, white, strict=True):
        state.apply(b[0] * 9 + b[1])
        state.apply(w[0] * 9 + w[1])
    planes = threats(state, 5, depth=3)
    three_own, fork_own = planes[4], planes[6]
    # (4, 5) makes a three on row 4 (with (4, 2), (4, 3)) and a three on column 5 (with (1, 5),
    # (2, 5)): a three-three fork; (4, 4) makes a three on row 4 only
    assert three_own[4, 5] == 1 and fork_own[4, 5] == 1
    assert three_own[4, 4] == 1 and fork_own[4, 4] == 0
    assert fork_own.sum() >= 1 and planes[7].sum() == 0  # White's scattered stones: no fork


@pytest.mark.parametrize("runtime", ["onnxruntime", "torchscript"])
def test_the_network_reads_the_planes_and_saves_them(tmp_path: Path, runtime: str) -> None:
    state = pyaz.make("connect_four", width=6, height=6)
    plain = PolicyValueNet(net_config_for(state))
    net = PolicyValueNet(net_config_for(state, threat_line=4)).eval()
    assert net.config.stem_planes == 4 and plain.config.stem_planes == 2
    # no parameters of their own: the state_dict adds the fixed kernels (4 directions x 4
    # places of 7x7), and the stem reads 4 channels
    assert net.state_dict().keys() - plain.state_dict().keys() == {"threats.kernels"}
    assert not any(name.startswith("threats") for name, _ in net.named_parameters())
    assert net.state_dict()["threats.kernels"].shape == (16, 1, 7, 7)
    assert net.state_dict()["stem.0.weight"].shape[1] == 4
    # the kernels are fixed, so a state without them still loads whole
    weights = {k: v for k, v in net.state_dict().items() if k != "threats.kernels"}
    again = PolicyValueNet(net.config)
    again.load_state_dict(weights)
    kernels = "threats.kernels"
    assert torch.equal(again.state_dict()[kernels], net.state_dict()[kernels])
    x = planes_of(state).repeat(3, 1, 1, 1)
    with torch.no_grad():
        eager = net(x)
        scripted = to_torchscript(net)(x)
    assert all(torch.allclose(a, b) for a, b in zip(eager, scripted, strict=True))
    config = TrainConfig(
        game="connect_four", game_options={"width": 5, "height": 4}, runtime=runtime,
        iterations=2, episodes=2, simulations=4, eval_opponent="none", threat_planes="on",
    )  # fmt: skip
    TrainingLoop(config, tmp_path, progress=False).run()
    loaded = load_model(tmp_path)
    assert loaded.net is not None and loaded.net.config.threat_line == 4
    assert isinstance(loaded.net.threats, ThreatPlanes)


def test_auto_is_parity_for_connect_four_deep_for_gomoku_and_off_elsewhere() -> None:
    def line(game: str, planes: str = "auto", **options: int) -> int:
        config = TrainConfig(game=game, game_options=options, threat_planes=planes)
        config.validate()
        return net_config_for(pyaz.make(game, **options), threats=config.threat_mode).threat_line

    assert line("connect_four") == 4 and line("connect_four", "on") == 4
    assert line("gomoku", size=9) == 5 and line("gomoku", "off", size=9) == 0
    assert TrainConfig(game="gomoku").threat_mode == "deep"  # auto: measured best there
    assert TrainConfig(game="connect_four").threat_mode == "parity"  # measured best, 2026-11-28
    assert line("gomoku", "on", size=9) == 5
    assert line("gomoku", "on", size=5, line_length=4) == 4  # seed 001's Gobang
    assert line("othello", size=6) == 0 and line("go", size=9) == 0
    assert line("connect_four", "off") == 0
    expected = "threat planes must be one of on, deep, forks, parity, mobility, off, got 'auto'"
    with pytest.raises(ValueError, match=expected):
        net_config_for(pyaz.make("connect_four"), threats="auto")  # TrainConfig resolves auto


@pytest.mark.parametrize(("mode", "depth", "added"), [("deep", 2, 4), ("forks", 3, 8)])
@pytest.mark.parametrize("runtime", ["onnxruntime", "torchscript"])
def test_deep_and_forks_add_the_planes_of_the_cells_that_make_threats(
    tmp_path: Path, runtime: str, mode: str, depth: int, added: int
) -> None:
    config = TrainConfig(
        game="gomoku", game_options={"size": 5, "line_length": 4}, threat_planes=mode,
        runtime=runtime, iterations=2, episodes=2, simulations=4, eval_opponent="none",
    )  # fmt: skip
    config.validate()
    state = pyaz.make("gomoku", size=5, line_length=4)
    assert net_config_for(state, threats=mode).threat_depth == depth
    assert net_config_for(state, threats="on").threat_depth == 1
    TrainingLoop(config, tmp_path, progress=False).run()
    loaded = load_model(tmp_path)
    assert loaded.net is not None and loaded.net.config.threat_depth == depth
    assert loaded.net.config.stem_planes == loaded.net.config.planes + added
    for action in (6, 0, 7, 1):  # Black two on row 1, White two on row 0
        state.apply(action)
    x = planes_of(state).repeat(2, 1, 1, 1)
    eager_matches_torchscript(loaded.net, x)


def parity_rows(state: pyaz.NativeGame) -> list[int]:
    """The parity plane of ``state`` down its first column (row 0 the top)."""
    plane = ParityPlane()(planes_of(state))[0, -1].numpy().astype(int)
    assert (plane == plane[:, :1]).all()  # whole rows
    return [int(value) for value in plane[:, 0]]


def test_the_parity_plane_marks_the_rows_of_the_movers_threats_by_hand() -> None:
    state = pyaz.make("connect_four", width=6, height=6)
    # the first player to move: the odd rows from the bottom (1, 3, 5: indices 5, 3, 1)
    assert parity_rows(state) == [0, 1, 0, 1, 0, 1]
    state.apply(2)  # the second player to move: the even rows (2, 4, 6: indices 4, 2, 0)
    assert parity_rows(state) == [1, 0, 1, 0, 1, 0]
    state.apply(3)
    assert parity_rows(state) == [0, 1, 0, 1, 0, 1]
    seven_by_five = pyaz.make("connect_four", width=7, height=5)  # odd height: row 1 is index 4
    assert parity_rows(seven_by_five) == [1, 0, 1, 0, 1]
    seven_by_five.apply(0)
    assert parity_rows(seven_by_five) == [0, 1, 0, 1, 0]


@pytest.mark.parametrize("runtime", ["onnxruntime", "torchscript"])
def test_parity_mode_adds_the_plane_to_the_threat_planes(tmp_path: Path, runtime: str) -> None:
    state = pyaz.make("connect_four", width=5, height=4)
    config = net_config_for(state, threats="parity")
    assert config.parity_plane and config.threat_line == 4 and config.threat_depth == 1
    assert config.stem_planes == 2 + 2 + 1  # the stones, the two threat planes, the parity
    assert not net_config_for(state, threats="on").parity_plane
    train = TrainConfig(
        game="connect_four", game_options={"width": 5, "height": 4}, threat_planes="parity",
        runtime=runtime, iterations=2, episodes=2, simulations=4, eval_opponent="none",
    )  # fmt: skip
    TrainingLoop(train, tmp_path, progress=False).run()
    loaded = load_model(tmp_path)
    assert loaded.net is not None and loaded.net.config.parity_plane
    assert loaded.net.state_dict()["stem.0.weight"].shape[1] == 5
    for action in (0, 1, 1):
        state.apply(action)
    x = planes_of(state).repeat(2, 1, 1, 1)
    eager = eager_matches_torchscript(loaded.net, x)
    logits, values = loaded.evaluator(runtime=runtime)(x.numpy())
    assert np.allclose(values, eager[1].numpy().reshape(-1), atol=1e-5)
    assert np.allclose(logits, eager[0].numpy(), atol=1e-4)


def mobility(state: pyaz.NativeGame) -> np.ndarray:
    """The four mobility planes of ``state`` as int arrays: the legal moves of the player to
    move, then of the opponent, then the frontier of each (the empty cells next to the other's
    discs)."""
    return MobilityPlanes()(planes_of(state))[0, -4:].numpy().astype(int)


def named(state: pyaz.NativeGame, plane: np.ndarray) -> set[str]:
    width = plane.shape[1]
    return {state.action_to_str(r * width + c) for r, c in cells(plane)}


def test_the_mobility_planes_of_the_opening_by_hand() -> None:
    state = pyaz.make("othello", size=8)  # d4, e5 White (O); e4, d5 Black (X); Black to move
    moves, replies, frontier, their_frontier = (named(state, p) for p in mobility(state))
    assert moves == {"d3", "c4", "f5", "e6"}
    assert replies == {"e3", "f4", "c5", "d6"}  # White's, were it to move
    # the empty cells next to White's discs (d4, e5), then next to Black's (e4, d5)
    assert frontier == {"c3", "d3", "e3", "c4", "c5", "f4", "f5", "f6", "e6", "d6"}
    assert their_frontier == {"d3", "e3", "f3", "f4", "f5", "c4", "c5", "c6", "d6", "e6"}
    state.apply(state.str_to_action("d3"))  # White to move now: the planes follow the mover
    moves, replies, _, _ = (named(state, p) for p in mobility(state))
    assert moves == {"c3", "e3", "c5"}
    assert replies == {"f5", "e6", "f6"}  # Black's three moves that flank e5


def with_mover(state: pyaz.NativeGame, mover: str) -> pyaz.NativeGame:
    """The same discs with ``mover`` ('X' or 'O') to move."""
    board = str(state).split("\n")[:-1]
    return type(state).from_text("\n".join([*board, f"{mover} to move"]))


@pytest.mark.parametrize("size", [6, 8])
def test_the_mobility_planes_are_the_engines_legal_moves(size: int) -> None:
    rng = np.random.default_rng(size)
    checked = 0
    for _ in range(6):
        state = pyaz.make("othello", size=size)
        while not state.is_terminal():
            planes = mobility(state)
            mover = "X" if str(state).rstrip().endswith("X to move") else "O"
            other = with_mover(state, "O" if mover == "X" else "X")
            for plane, position in ((planes[0], state), (planes[1], other)):
                board_moves = np.asarray(position.legal_mask(), dtype=bool)[: size * size]
                assert np.array_equal(plane.reshape(-1).astype(bool), board_moves), str(state)
            checked += 1
            state.apply(int(rng.choice(state.legal_actions())))
    assert checked > 100


@pytest.mark.parametrize("runtime", ["onnxruntime", "torchscript"])
def test_mobility_mode_adds_four_planes_on_othello(tmp_path: Path, runtime: str) -> None:
    state = pyaz.make("othello", size=6)
    config = net_config_for(state, threats="mobility")
    assert config.mobility_planes and config.threat_line == 0 and not config.parity_plane
    assert config.stem_planes == 2 + 4
    assert TrainConfig(game="othello").threat_mode == "off"
    train = TrainConfig(
        game="othello", game_options={"size": 6}, threat_planes="mobility", runtime=runtime,
        iterations=2, episodes=2, simulations=4, eval_opponent="none",
    )  # fmt: skip
    TrainingLoop(train, tmp_path, progress=False).run()
    loaded = load_model(tmp_path)
    assert loaded.net is not None and loaded.net.config.mobility_planes
    assert loaded.net.state_dict()["stem.0.weight"].shape[1] == 6
    for move in ("c2", "b2"):
        state.apply(state.str_to_action(move))
    x = planes_of(state).repeat(2, 1, 1, 1)
    eager = eager_matches_torchscript(loaded.net, x)
    logits, values = loaded.evaluator(runtime=runtime)(x.numpy())
    assert np.allclose(values, eager[1].numpy().reshape(-1), atol=1e-5)
    assert np.allclose(logits, eager[0].numpy(), atol=1e-4)


def test_older_runs_and_the_seed_presets_keep_the_board_alone() -> None:
    # a config.json written before the setting existed is a run without the planes
    assert TrainingLoop.upgrade_settings({"game": "connect_four"})["threat_planes"] == "off"
    # one that saved auto (before runs saved what auto chose) had them on Connect Four alone
    for game, before in (("connect_four", "on"), ("connect4", "on"), ("gomoku", "off")):
        saved = {"game": game, "threat_planes": "auto"}
        assert TrainingLoop.upgrade_settings(saved)["threat_planes"] == before
    assert TrainingLoop.upgrade_settings({"threat_planes": "deep"})["threat_planes"] == "deep"
    for preset in ("connect4-5x5-seed001", "gobang5-seed001", "gomoku15-seed004"):
        assert train_config(load_preset(preset)).threat_planes == "off"
    assert train_config(load_preset("connect4-5x5-seed001")).opening_spread_plies == 0


def test_a_run_from_before_the_planes_resumes_without_them(tmp_path: Path) -> None:
    common = ["--game", "connect_four", "--width", "5", "--height", "4", "--episodes", "2",
              "--simulations", "4", "--eval-opponent", "none", "--quiet",
              "--out", str(tmp_path)]  # fmt: skip
    assert selfplay.main([*common, "--iterations", "1", "--threat-planes", "off"]) == 0
    config_file = tmp_path / "config.json"
    saved = json.loads(config_file.read_text())
    del saved["threat_planes"]  # as pyaz wrote it before the setting existed
    config_file.write_text(json.dumps(saved))
    args = ["--out", str(tmp_path), "--resume", "--iterations", "2", "--quiet"]
    assert selfplay.main(args) == 0
    loaded = load_model(tmp_path)
    assert loaded.net is not None and loaded.net.config.threat_line == 0


def test_a_run_saves_what_auto_chose_and_an_older_auto_resumes_as_it_was(tmp_path: Path) -> None:
    common = ["--game", "gomoku", "--size", "5", "--line-length", "4", "--episodes", "2",
              "--simulations", "4", "--eval-opponent", "none", "--quiet"]  # fmt: skip
    new, old = tmp_path / "new", tmp_path / "old"
    assert selfplay.main([*common, "--iterations", "1", "--out", str(new)]) == 0
    assert json.loads((new / "config.json").read_text())["threat_planes"] == "deep"
    loaded = load_model(new)
    assert loaded.net is not None and loaded.net.config.threat_depth == 2
    # a Gomoku run that saved auto when auto meant no planes there resumes without them
    assert (
        selfplay.main([*common, "--iterations", "1", "--threat-planes", "off", "--out", str(old)])
        == 0
    )
    saved = json.loads((old / "config.json").read_text())
    (old / "config.json").write_text(json.dumps({**saved, "threat_planes": "auto"}))
    assert selfplay.main(["--out", str(old), "--resume", "--iterations", "2", "--quiet"]) == 0
    loaded = load_model(old)
    assert loaded.net is not None and loaded.net.config.threat_line == 0


def test_bad_values_are_clear_errors() -> None:
    with pytest.raises(ValueError, match=r"'on' are planes of connect_four and gomoku, not of oth"):
        TrainConfig(game="othello", threat_planes="on").validate()
    with pytest.raises(ValueError, match=r"threat_planes 'deep' are planes of .*, not of go"):
        TrainConfig(game="go", threat_planes="deep").validate()
    with pytest.raises(ValueError, match=r"threat_planes 'forks' are planes of .*, not of othello"):
        TrainConfig(game="othello", threat_planes="forks").validate()
    expected = "threat_planes must be one of auto, on, deep, forks, parity, mobility, off"
    with pytest.raises(ValueError, match=expected):
        TrainConfig(game="connect_four", threat_planes="yes").validate()
    with pytest.raises(ValueError, match=r"'parity' are planes of connect_four, not of gomoku"):
        TrainConfig(game="gomoku", threat_planes="parity").validate()
    with pytest.raises(ValueError, match=r"'parity' are planes of connect_four, not of othello"):
        TrainConfig(game="othello", threat_planes="parity").validate()
    with pytest.raises(ValueError, match=r"'mobility' are planes of othello, not of connect_four"):
        TrainConfig(game="connect_four", game_options={}, threat_planes="mobility").validate()
    expected = r"threat_planes 'mobility' are planes of othello, not of go"
    with pytest.raises(ValueError, match=expected):
        net_config_for(pyaz.make("go", size=9), threats="mobility")
    with pytest.raises(ValueError, match="threat_line must be at least 2"):
        ThreatPlanes(1)
    with pytest.raises(ValueError, match="threat_depth must be 1, 2 or 3, got 4"):
        ThreatPlanes(4, depth=4)
