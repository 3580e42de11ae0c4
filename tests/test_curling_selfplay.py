"""Curling self-play training (seed 002 section 5.2): records, targets, the loop and its CLI."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import pyaz.methods.kr_dl_uct as curling  # noqa: E402
from pyaz.cli import selfplay  # noqa: E402
from pyaz.methods.kr_dl_uct.net import CurlingNet, kr_dl_batch_evaluator, kr_dl_evaluator  # noqa: E402
from pyaz.methods.kr_dl_uct.selfplay import (  # noqa: E402
    POLICY_CELLS,
    end_counts,
    pack_planes,
    play_self_play_game,
    policy_target,
    unpack_planes,
)


def _position() -> curling.Game:
    """Shot 5 of end 1 with stones of both teams in and around the house (off cell borders)."""
    state = curling.new_game(num_ends=2)
    for i, (x, y) in enumerate([(0.31, 38.2), (-0.52, 38.9), (0.13, 36.7), (1.07, 39.6)]):
        state.set_stone(i, x, y)
    state.shot = 4
    return state


def test_packed_planes_round_trip() -> None:
    state = _position()
    planes = curling.encode(state)
    unpacked = unpack_planes(pack_planes(planes)[None], np.array([state.shot]))
    np.testing.assert_array_equal(unpacked[0], planes)


def test_mirrored_planes_and_actions_match_the_mirrored_position() -> None:
    state = _position()
    mirrored = curling.new_game(num_ends=2)
    stones = state.stones()
    for i in range(4):
        mirrored.set_stone(i, -stones[i, 0], stones[i, 1])
    mirrored.shot = state.shot
    np.testing.assert_array_equal(curling.encode(mirrored), curling.encode(state)[..., ::-1])
    for target in (curling.Target(0.4, 38.0, 1), curling.Target(-1.3, 70.0, -1)):
        flipped = curling.Target(-target.x, target.y, -target.spin)
        assert curling.mirror_actions(np.array([curling.target_to_action(target)]))[0] == (
            curling.target_to_action(flipped)
        )
    actions = np.arange(curling.NUM_ACTIONS)
    np.testing.assert_array_equal(curling.mirror_actions(curling.mirror_actions(actions)), actions)


def test_policy_target_is_the_visit_distribution_on_the_grid() -> None:
    torch.manual_seed(0)
    params = curling.KrUctParams()
    params.simulations = 30  # at most 30 children: every cell fits in the target
    result = curling.kr_uct_search(_position(), params, kr_dl_evaluator(CurlingNet(4, 1)))
    cells, weights = policy_target(result.children)
    assert cells.shape == weights.shape == (POLICY_CELLS,)
    assert weights.sum() == pytest.approx(1.0)
    assert np.all(np.diff(weights) <= 0)  # heaviest first
    expected: dict[int, float] = {}
    for child in result.children:
        cell = curling.target_to_action(child.action)
        expected[cell] = expected.get(cell, 0.0) + child.visits / 30
    got = {int(c): float(w) for c, w in zip(cells, weights, strict=True) if w > 0}
    assert got == pytest.approx(expected)


def test_end_counts_agree_with_the_end_score_distribution() -> None:
    ends = [(0, 2), (1, 0), (0, 0), (0, 3), (2, 0)]
    record = curling.GameRecord(end_scores=ends, shots=[])
    counts = end_counts(ends)
    np.testing.assert_allclose(counts / counts.sum(), curling.end_score_distribution([record]))
    # first thrower's points minus the hammer team's: -2 (team 1 scores, team 1 then throws
    # first), -1 (team 0 scores), a blank (0), -3, then -2 for team 1 throwing first
    assert counts.tolist() == [0, 0, 0, 0, 0, 1, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0]


def test_a_self_play_game_records_every_shot_with_its_end_score() -> None:
    torch.manual_seed(0)
    params = curling.KrUctParams()
    params.simulations = 6
    game = play_self_play_game(
        kr_dl_evaluator(CurlingNet(4, 1)),
        params,
        num_ends=2,
        noise=curling.NoiseParams(curling.Noise.GAT),
        seed=3,
    )
    shots = game.shots
    assert len(shots) == 32 and len(game.end_scores) == 2
    np.testing.assert_array_equal(shots.shot, np.tile(np.arange(16), 2))
    np.testing.assert_allclose(shots.weights.sum(axis=1), 1.0, rtol=1e-6)
    hammer = 1
    for end, (a, b) in enumerate(game.end_scores):
        first = 1 - hammer
        for k in range(16):  # even shots belong to the team throwing first
            team = first if k % 2 == 0 else hammer
            mine = (a - b) if team == 0 else (b - a)
            assert shots.value_bin[16 * end + k] == mine + 8
        if a != b:
            hammer = 1 if a > b else 0


def _run(tmp: Path, *extra: str) -> int:
    return selfplay.main(
        [
            "--game",
            "curling",
            "--out",
            str(tmp),
            "--ends",
            "1",
            "--games",
            "2",
            "--simulations",
            "6",
            "--channels",
            "4",
            "--blocks",
            "1",
            "--supervised-games",
            "2",
            "--supervised-steps",
            "4",
            "--steps",
            "4",
            "--batch-size",
            "16",
            "--eval-games",
            "2",
            "--quiet",
            "--workers",
            "1",
            *extra,
        ]
    )


def _metrics(run: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in (run / "metrics.jsonl").read_text().splitlines()]


def _strip_times(records: list[dict[str, object]]) -> list[dict[str, object]]:
    timed = ("time_", "wall_time", "elapsed_s", "shots_per_s")
    return [{k: v for k, v in r.items() if not k.startswith(timed)} for r in records]


def test_cli_trains_and_resumes_exactly(tmp_path: Path) -> None:
    straight, split = tmp_path / "straight", tmp_path / "split"
    assert _run(straight, "--iterations", "2") == 0
    assert _run(split, "--iterations", "1") == 0
    assert _run(split, "--iterations", "1") == 2  # the folder holds a run: refused
    # resume takes the run's own settings from config.json; only --iterations changes
    assert selfplay.main(["--out", str(split), "--resume", "--iterations", "2", "--quiet"]) == 0
    assert _strip_times(_metrics(split)) == _strip_times(_metrics(straight))
    kinds = [(r["kind"], r["iteration"]) for r in _metrics(straight)]
    assert kinds == [
        ("supervised", 0),
        ("eval", 0),  # the supervised network, before any self-play
        ("iteration", 1),
        ("eval", 1),
        ("iteration", 2),
        ("eval", 2),
    ]
    for name in ("checkpoint.pt", "net.torchscript.pt", "win_table.npy", "nets/iter-00002.pt"):
        assert (straight / name).exists(), name
    for name in ("losses.png", "win_ratio.png", "win_table.png"):
        assert (straight / name).stat().st_size > 0, name
    table = np.load(straight / "win_table.npy")
    assert table.shape == (11, 49) and np.all((table > -1e-12) & (table < 1 + 1e-12))
    scripted = torch.jit.load(str(straight / "net.torchscript.pt"))
    policy, value = scripted(torch.zeros(2, curling.NUM_PLANES, 32, 32))
    assert policy.shape == (2, curling.NUM_ACTIONS) and value.shape == (2, curling.SCORE_BINS)
    evaluation = [r for r in _metrics(straight) if r["kind"] == "eval"][-1]
    assert evaluation["wins"] + evaluation["draws"] + evaluation["losses"] == 2
    assert evaluation["wilson_low"] <= evaluation["win_ratio"] <= evaluation["wilson_high"]


def test_worker_processes_play_the_same_games(tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    assert _run(one, "--iterations", "1", "--eval-games", "3") == 0
    assert _run(two, "--iterations", "1", "--eval-games", "3", "--workers", "2") == 0
    assert _strip_times(_metrics(two)) == _strip_times(_metrics(one))


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--win-table", "mine", "win_table must be one of"),
        ("--ends", "0", "ends must be >= 1"),
        ("--eval-opponent", "gnugo", "eval_opponent must be one of"),
        ("--noise", "loud", "noise must be one of"),
    ],
)
def test_bad_settings_are_refused_with_a_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str, value: str, message: str
) -> None:
    assert _run(tmp_path / "run", option, value) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "run" / "checkpoint.pt").exists()


def test_board_game_help_points_to_curling(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        selfplay.main(["--help"])
    assert "the curling mode: --game curling" in " ".join(capsys.readouterr().out.split())
    with pytest.raises(SystemExit):
        selfplay.main(["--help-all"])
    assert "curling mode (--game curling)" in capsys.readouterr().out


def test_self_play_tells_of_every_shot() -> None:
    """The progress hook hears each shot as it is thrown: 16 an end, one call a shot without
    batching, one call a round (all games in flight) with it."""
    from pyaz.methods.kr_dl_uct.selfplay import play_self_play_games

    torch.manual_seed(0)
    net = CurlingNet(channels=4, blocks=1)
    params = curling.KrUctParams()
    params.simulations = 2
    noise = curling.NoiseParams(curling.Noise.GAT)
    told: list[int] = []
    play_self_play_game(kr_dl_evaluator(net), params, 1, noise, 0, progress=told.append)
    assert told == [1] * 16
    told.clear()
    batched = kr_dl_batch_evaluator(net)
    play_self_play_games(batched, params, 1, noise, [1, 2, 3], progress=told.append)
    assert told == [3] * 16


def test_worker_processes_report_shots_as_they_are_thrown(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    args = ["--out", str(tmp_path / "run"), "--game", "curling", "--iterations", "1"]
    args += ["--games", "2", "--ends", "1", "--simulations", "4", "--channels", "4"]
    args += ["--blocks", "1", "--supervised-games", "0", "--eval-games", "2", "--workers", "2"]
    assert selfplay.main(args) == 0
    err = capfd.readouterr().err
    assert "self-play: 100%" in err and "32/32 [" in err  # 2 games of 16 shots
    assert "evaluation: 100%" in err
