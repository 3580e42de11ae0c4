"""Issue 25, item 6: KataGo's auxiliary score target (Wu 2019, section 4.1). Self-play records the
final score margin of each position's player, normalised by the board's area (checked against
games replayed by hand through the Python game API); a score head learns it with its own loss
weight; with score_weight 0 nothing changes (the same network and files); games without a score
refuse it, and a run with it resumes."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch

import pyaz
from pyaz.cli import selfplay as cli
from pyaz.common.runlog import read_metrics
from pyaz.methods.alphazero.config import TrainConfig
from pyaz.methods.alphazero.loop import TrainingLoop
from pyaz.methods.alphazero.targets import merge_duplicates
from pyaz.nets import PolicyValueNet, net_config_for, net_from_state, net_state, to_torchscript
from pyaz.train.replay import ReplayBuffer
from pyaz.train.trainer import Trainer, TrainSettings


def replayed_final_state(start: Any, records: pyaz.SelfPlayRecords, game: int) -> Any:
    """The final position of ``game``, replayed from ``start`` through the Python game API: with
    sampling_plies 0 every move is the most visited action (the lowest on ties), i.e. the
    argmax of the recorded policy; each replayed position must match the recorded planes."""
    rows = np.flatnonzero(records.game_id == game)
    state = start.clone()
    for row in rows:
        np.testing.assert_array_equal(state.encode(), records.planes[row])
        state.apply(int(np.argmax(records.policy[row])))
    assert state.is_terminal() and len(rows) == records.game_length[game]
    return state


def test_othello_records_the_final_disc_difference_from_each_players_view() -> None:
    start = pyaz.make("othello", size=6)
    records = pyaz.SelfPlay(start, simulations=8, sampling_plies=0, seed=5).play(3)
    assert start.has_score and records.score.dtype == np.float32
    for game in range(records.num_games):
        final = replayed_final_state(start, records, game)
        board = final.board()
        discs = [int((board == 1).sum()), int((board == 2).sum())]  # Black, White
        assert discs == [final.disc_count(0), final.disc_count(1)]
        for row in np.flatnonzero(records.game_id == game):
            player = int(records.player[row])
            margin = (discs[player] - discs[1 - player]) / 36
            assert records.score[row] == pytest.approx(margin, abs=1e-7)
            # the side with more discs won: the score's sign is the outcome's
            assert np.sign(records.score[row]) == records.outcome[row]
    assert np.any(records.score != 0)


def test_go_records_the_area_score_with_komi_from_each_players_view() -> None:
    start = pyaz.make("go", size=5, komi=2.5)
    records = pyaz.SelfPlay(start, simulations=8, sampling_plies=0, seed=2).play(2)
    assert start.has_score
    for game in range(records.num_games):
        final = replayed_final_state(start, records, game)
        black, white = final.area()
        assert final.score() == black - white - 2.5  # Black's margin, komi included
        for row in np.flatnonzero(records.game_id == game):
            sign = 1.0 if records.player[row] == 0 else -1.0
            expected = float(np.clip(sign * final.score() / 25, -1.0, 1.0))
            assert records.score[row] == pytest.approx(expected, abs=1e-7)
            assert np.sign(records.score[row]) == records.outcome[row]  # no draws with komi 2.5


@pytest.mark.parametrize(
    ("game", "options"),
    [("connect_four", {"width": 4, "height": 4}), ("gomoku", {"size": 5}), ("racing_kings", {})],
)
def test_games_without_a_score_record_zero(game: str, options: dict[str, Any]) -> None:
    start = pyaz.make(game, **options)
    assert not start.has_score
    if game == "racing_kings":
        return  # its self-play games are long; the trait is what Python reads
    records = pyaz.SelfPlay(start, simulations=4, seed=1).play(2)
    assert records.score.shape == records.outcome.shape and not records.score.any()


# -- the network ------------------------------------------------------------------------------


def test_the_score_head_gives_one_score_in_minus_one_one_and_forward_is_unchanged() -> None:
    state = pyaz.make("othello", size=6)
    torch.manual_seed(0)
    net = PolicyValueNet(net_config_for(state, "tiny", score_head=True)).eval()
    x = torch.randn(5, 2, 6, 6)
    logits, value = net(x)
    logits2, value2, score = net.forward_with_score(x)
    assert logits.shape == (5, 37) and value.shape == (5, 1) and score.shape == (5, 1)
    assert torch.equal(logits, logits2) and torch.equal(value, value2)
    assert bool(((score > -1) & (score < 1)).all())
    scripted = to_torchscript(net)  # the evaluators' export sees only forward
    assert torch.allclose(scripted(x)[1], value)
    azg = PolicyValueNet(net_config_for(state, "azg", filters=8, score_head=True)).eval()
    assert azg.forward_with_score(x)[2].shape == (5, 1)


def test_without_the_score_head_the_network_is_exactly_todays() -> None:
    state = pyaz.make("othello", size=6)
    config = net_config_for(state, "tiny")
    assert config.score_head is False
    torch.manual_seed(3)
    plain = PolicyValueNet(config)
    torch.manual_seed(3)
    scored = PolicyValueNet(net_config_for(state, "tiny", score_head=True))
    extra = set(scored.state_dict()) - set(plain.state_dict())
    assert extra and all(key.startswith("score_head.") for key in extra)
    for key, tensor in plain.state_dict().items():  # the score head is built last
        assert torch.equal(scored.state_dict()[key], tensor), key
    assert not any("score" in key for key in plain.state_dict())
    with pytest.raises(ValueError, match="has no score head"):
        plain.forward_with_score(torch.zeros(2, 2, 6, 6))
    # A network saved before score_head existed loads without one.
    saved = net_state(plain)
    del saved["config"]["score_head"]
    assert net_from_state(saved).config.score_head is False


# -- the targets and the loss -----------------------------------------------------------------


def test_dedupe_averages_the_score_and_the_buffer_keeps_it() -> None:
    state = pyaz.make("connect_four", width=4, height=4)
    planes = np.zeros((3, 2, 4, 4), dtype=np.float32)
    planes[2, 0, 3, 0] = 1.0  # rows 0 and 1 the same position, row 2 another
    policy = np.full((3, 4), 0.25, dtype=np.float32)
    value = np.array([1.0, -1.0, 0.5], dtype=np.float32)
    score = np.array([0.25, 0.75, -0.5], dtype=np.float32)
    merged = merge_duplicates(planes, policy, value, state, None, score)
    assert merged.score is not None
    np.testing.assert_array_equal(merged.score, [0.5, -0.5])
    np.testing.assert_array_equal(merged.value, [0.0, 0.5])
    assert merge_duplicates(planes, policy, value, state).score is None
    with pytest.raises(ValueError, match=r"\(score 2\)"):
        merge_duplicates(planes, policy, value, state, None, score[:2])
    # an archive written without scores (an older pyaz) loads with score 0, has_scores False
    old = io.BytesIO()
    np.savez(
        old, lengths=np.array([3]), iteration=np.array([1]), game_number=np.array([0]),
        planes=planes, policy=policy, outcome=value, root_value=value,
    )  # fmt: skip
    buffer = ReplayBuffer.from_bytes(old.getvalue())
    assert not buffer.has_scores and not buffer.scores().any()
    again = ReplayBuffer.from_bytes(buffer.to_bytes())
    assert again.has_scores and again.scores().shape == (3,)


def test_the_score_loss_is_weighted_into_the_training_loss() -> None:
    state = pyaz.make("othello", size=6)
    torch.manual_seed(0)
    net = PolicyValueNet(net_config_for(state, "tiny", score_head=True, dropout=0.0))
    rng = np.random.default_rng(0)
    planes = rng.random((8, 2, 6, 6)).astype(np.float32)
    policy = np.full((8, 37), 1 / 37, dtype=np.float32)
    outcome = np.ones(8, dtype=np.float32)
    score = np.full(8, 0.5, dtype=np.float32)
    settings = TrainSettings(epochs=1, batch_size=8, lr=1e-9, augment=False, score_weight=2.0)
    net.train()
    with torch.no_grad():
        logits, value, predicted = net.forward_with_score(torch.from_numpy(planes))
    lp = -(torch.from_numpy(policy) * torch.log_softmax(logits, 1)).sum(1).mean().item()
    lv = ((value.reshape(-1) - 1) ** 2).mean().item()
    ls = ((predicted.reshape(-1) - 0.5) ** 2).mean().item()
    stats = Trainer(net, settings, state).train_epoch(planes, policy, outcome, rng, score)
    assert stats.loss_score == pytest.approx(ls, rel=1e-5)
    assert stats.loss == pytest.approx(lp + lv + 2.0 * ls, rel=1e-5)
    off = Trainer(net, TrainSettings(epochs=1, batch_size=8), state)
    assert off.train_epoch(planes, policy, outcome, rng).loss_score == 0.0
    with pytest.raises(ValueError, match=r"score_weight 2.0 needs one score target per example"):
        Trainer(net, settings, state).train_epoch(planes, policy, outcome, rng)
    plain = PolicyValueNet(net_config_for(state, "tiny"))
    with pytest.raises(ValueError, match=r"score_weight 2.0 needs a network with a score head"):
        Trainer(plain, settings, state)
    with pytest.raises(ValueError, match=r"score_weight must be in \[0, 10\], got 11"):
        Trainer(net, TrainSettings(score_weight=11.0), state)


# -- the option -------------------------------------------------------------------------------

TINY = [
    *["--game", "othello", "--size", "6", "--net", "tiny", "--blocks", "1", "--filters", "8"],
    *["--value-hidden", "16", "--episodes", "4", "--simulations", "8", "--epochs", "1"],
    *["--parallel-games", "4", "--eval-opponent", "none", "--length-probe-games", "4"],
    *["--threads", "1", "--seed", "3", "--score-weight", "0.5", "--quiet"],
]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"game": "connect_four", "game_options": {}}, "score_weight must be 0 for connect_four"),
        ({"game": "gomoku", "game_options": {"size": 9}}, "score_weight must be 0 for gomoku"),
        ({"score_weight": 10.5}, r"score_weight must be in \[0, 10\], got 10.5"),
        ({"score_weight": float("nan")}, "score_weight must be in"),
    ],
)
def test_bad_score_weights_are_errors_naming_it(changes: dict[str, Any], message: str) -> None:
    config = TrainConfig(score_weight=0.5, eval_opponent="none")
    for name, value in changes.items():
        setattr(config, name, value)
    with pytest.raises(ValueError, match=message):
        config.validate()


def test_the_option_names_katago_and_its_normalisation() -> None:
    text = " ".join(cli.build_parser(full=True).format_help().split())
    assert "--score-weight" in text and "KataGo" in text and "Wu 2019" in text
    assert "disc difference / n^2" in text


def test_a_run_with_the_score_head_trains_it_and_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    assert cli.main([*TINY, "--iterations", "2", "--out", str(out)]) == 0
    rows = [r for r in read_metrics(out) if r["kind"] == "iteration"]
    assert len(rows) == 2 and all(
        np.isfinite(r["loss_score"]) and r["loss_score"] > 0 for r in rows
    )
    epochs = [r for r in read_metrics(out) if r["kind"] == "train_epoch"]
    assert all("loss_score" in r for r in epochs)
    saved = torch.load(out / "checkpoint.pt", weights_only=False)
    assert saved["config"]["score_weight"] == 0.5
    assert any(key.startswith("score_head.") for key in saved["current"]["state_dict"])
    buffer = np.load(out / saved["buffer"])
    assert buffer["score"].shape == buffer["outcome"].shape and buffer["score"].any()
    # score_weight is not resumable: it decides the architecture
    assert cli.main(["--out", str(out), "--resume", "--score-weight", "0", "--quiet"]) == 2
    assert "score_weight 0.5 -> 0.0" in capsys.readouterr().err
    assert cli.main(["--out", str(out), "--resume", "--iterations", "3", "--quiet"]) == 0
    last = [r for r in read_metrics(out) if r["kind"] == "iteration"][-1]
    assert last["iteration"] == 3 and np.isfinite(last["loss_score"])


def test_a_run_without_the_score_weight_resumes_only_without_it(tmp_path: Path) -> None:
    """A checkpoint saved before score_weight existed (its config lacks it) has no score head."""
    config = cli.settings_from(cli.build_parser().parse_args([*TINY, "--out", "unused"]))
    config.score_weight, config.iterations = 0.0, 1
    run = tmp_path / "run"
    TrainingLoop(config, run, progress=False).run()
    saved = torch.load(run / "checkpoint.pt", weights_only=False)
    assert not any("score" in key for key in saved["current"]["state_dict"])
    del saved["config"]["score_weight"]
    torch.save(saved, run / "checkpoint.pt")
    settings = json.loads((run / "config.json").read_text())
    del settings["score_weight"]
    (run / "config.json").write_text(json.dumps(settings, indent=2))
    config.score_weight, config.iterations = 0.5, 2
    with pytest.raises(ValueError, match=r"was started with score_weight 0.0"):
        TrainingLoop(config, run, resume=True, progress=False)
    config.score_weight = 0.0  # as it was started: it resumes
    TrainingLoop(config, run, resume=True, progress=False).run()
    assert [r["iteration"] for r in read_metrics(run) if r["kind"] == "iteration"] == [1, 2]
