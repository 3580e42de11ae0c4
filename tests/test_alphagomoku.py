"""Seed 004, AlphaGomoku: winning value decay (search backup and z labels), double networks
(the colour split, the pair file), the phase-1 positions, the presets and bad input.

Expected values come from hand-derived backups of a two-move endgame and from pyaz's own Gomoku
rules (``child``/``status``), never from the code under test.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

import pyaz
from pyaz._core import Gomoku
from pyaz.eval import arena
from pyaz.eval.presets import make_player
from pyaz.eval.threat_guard import ThreatGuardPlayer
from pyaz.methods.alphagomoku import (
    NetworkPair,
    PairEvaluator,
    decayed_outcomes,
    network_pair,
    pair_player,
    save_pair,
    side_to_move,
)
from pyaz.methods.alphagomoku.data import basic_positions
from pyaz.nets import PolicyValueNet, net_config_for

# O to move; whichever of e1 / e5 O takes, X takes the other and completes five (row 1 or 5).
ENDGAME = """X X X X .
X O O X O
O X O O O
O O X O O
X X X X ."""


def _constant(value: float, actions: int = 25):
    def evaluate(planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return np.zeros((len(planes), actions), np.float32), np.full(len(planes), value, np.float32)

    return evaluate


@pytest.mark.parametrize("decay", [1.0, 0.8, 0.5])
def test_value_decay_scales_each_backup_step(decay: float) -> None:
    """Every leaf has value c for the side to move. A child's first visit backs up its own
    leaf (-c for O, undecayed); later visits reach X's five one ply below: +1 for X on the
    edge into the five, -1 * decay for O on the edge into the child, +decay^2 for X at the
    root. So Q(child) = (-c - (N - 1) decay) / N and the root (for O) is the negated mean of
    -c (its own expansion), +c decay (first visits) and +decay^2 (the rest)."""
    c = 0.3
    state = Gomoku.from_text(ENDGAME)
    search = pyaz.Search(state, value_decay=decay, batch_size=1)
    search.run(40, _constant(c))
    counts = search.visit_counts()
    q = search.q_values()
    first_visits = 0
    later = 0
    for action in (4, 24):
        n = int(counts[action])
        assert n >= 2
        assert q[action] == pytest.approx((-c - (n - 1) * decay) / n, abs=1e-6)
        first_visits += 1
        later += n - 1
    total = -c + first_visits * c * decay + later * decay**2
    assert search.root_visits == 1 + first_visits + later
    assert search.root_value == pytest.approx(-total / search.root_visits, abs=1e-6)


@pytest.mark.parametrize("bad", [0.0, -0.1, 1.01, float("nan")])
def test_a_decay_outside_zero_one_is_a_value_error(bad: float) -> None:
    state = pyaz.make("gomoku", size=9)
    with pytest.raises(ValueError, match="value_decay must be in"):
        pyaz.Search(state, value_decay=bad)
    with pytest.raises(ValueError, match="value_decay must be in"):
        pyaz.SelfPlay(state, simulations=2, value_decay=bad).play(1)
    with pytest.raises(ValueError, match="value_decay must be in"):
        decayed_outcomes(np.ones(2, np.float32), np.ones(2, np.int32), bad)


def test_the_decay_defaults_to_off() -> None:
    from pyaz.search.search import DEFAULTS

    assert DEFAULTS["value_decay"] == 1.0


def test_z_labels_decay_with_the_plies_to_the_end() -> None:
    records = pyaz.SelfPlay(pyaz.make("gomoku", size=9), simulations=4, seed=3).play(2, "rollout")
    z = decayed_outcomes(records.outcome, records.plies_to_end, 0.9)
    for game in range(records.num_games):
        rows = np.flatnonzero(records.game_id == game)
        last = rows[np.argmax(records.ply[rows])]
        assert records.plies_to_end[last] == 1  # the winning (or last) move
        if records.game_status[game] != int(pyaz.Status.DRAW):
            assert z[last] == pytest.approx(0.9)  # the winner's last move: 1 * 0.9^1
        for row in rows:
            expected = records.outcome[row] * 0.9 ** (records.game_length[game] - records.ply[row])
            assert z[row] == pytest.approx(expected, abs=1e-6)


def _random_states(size: int, count: int, seed: int) -> list[Gomoku]:
    rng = random.Random(seed)
    states = []
    for _ in range(count):
        state = Gomoku(size)
        for _ in range(rng.randrange(0, size * size // 2)):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            states.append(state)
    return states


def test_the_colour_to_move_is_read_off_the_planes() -> None:
    states = _random_states(9, 60, seed=1)
    planes = np.stack([s.encode() for s in states])
    assert side_to_move(planes).tolist() == [int(s.to_move()) for s in states]


def test_the_pair_evaluator_calls_each_colour_once_per_batch_with_its_own_positions() -> None:
    seen: dict[int, list[int]] = {0: [], 1: []}

    def for_colour(colour: int):
        def evaluate(planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            assert (side_to_move(planes) == colour).all()
            seen[colour].append(len(planes))
            value = 0.25 if colour == 0 else -0.25
            return np.zeros((len(planes), 81), np.float32), np.full(len(planes), value, np.float32)

        return evaluate

    def joint(planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        values = np.where(side_to_move(planes) == 0, 0.25, -0.25).astype(np.float32)
        return np.zeros((len(planes), 81), np.float32), values

    state = pyaz.make("gomoku", size=9)
    pair = PairEvaluator(for_colour(0), for_colour(1))
    split, together = pyaz.Search(state, batch_size=8), pyaz.Search(state, batch_size=8)
    split.run(200, pair)
    together.run(200, joint)
    assert np.array_equal(split.visit_counts(), together.visit_counts())
    assert split.root_value == pytest.approx(together.root_value, abs=1e-6)
    assert seen[0] and seen[1] and max(seen[0] + seen[1]) > 1  # batching survives the split
    assert pair.calls == [len(seen[0]), len(seen[1])]


def _pair(size: int, single: bool = False) -> NetworkPair:
    net = PolicyValueNet(net_config_for(pyaz.make("gomoku", size=size), "seed004"))
    return NetworkPair.fresh(net, single=single)


def test_a_pair_file_round_trips(tmp_path: Path) -> None:
    pair = _pair(9)
    with torch_no_grad():
        for p in pair.white.parameters():
            p.add_(0.01)
    pair.settings = {"value_decay": 0.9, "c_puct": 2.0}
    save_pair(pair, tmp_path / "pair.pt")
    loaded = network_pair(pyaz.load_model(tmp_path, "alphagomoku-pair"))
    assert loaded.settings == pair.settings and not loaded.single
    planes = np.stack([s.encode() for s in _random_states(9, 8, seed=2)])
    for mine, theirs in ((pair.black, loaded.black), (pair.white, loaded.white)):
        mine.eval()
        assert np.allclose(_run(mine, planes), _run(theirs, planes), atol=1e-6)
    assert not np.allclose(_run(loaded.black, planes), _run(loaded.white, planes))
    single = _pair(9, single=True)
    save_pair(single, tmp_path / "single.pt")
    again = network_pair(pyaz.load_model(tmp_path / "single.pt", "alphagomoku-pair"))
    assert again.single and again.white is again.black


def torch_no_grad():
    import torch

    return torch.no_grad()


def _run(net: PolicyValueNet, planes: np.ndarray) -> np.ndarray:
    import torch

    with torch.no_grad():
        logits, values = net(torch.from_numpy(planes))
    return np.concatenate([logits.numpy().ravel(), values.numpy().ravel()])


def test_a_pair_of_mismatched_games_is_a_value_error(tmp_path: Path) -> None:
    nine, eleven = _pair(9), _pair(11)
    with pytest.raises(ValueError, match="do not play the same game"):
        NetworkPair(nine.black, eleven.white)
    save_pair(nine, tmp_path / "pair.pt")
    with pytest.raises(ValueError, match="another game or board size"):
        make_player(f"alphagomoku:{tmp_path / 'pair.pt'}", pyaz.make("gomoku", size=11))
    with pytest.raises(ValueError, match="plays Gomoku"):
        network_pair(pyaz.load_model(tmp_path, "alphagomoku-pair")).check(
            pyaz.make("othello", size=8)
        )
    (tmp_path / "other.pt").write_bytes(b"not a pair")
    with pytest.raises(ValueError, match="is not an AlphaGomoku pair file"):
        network_pair(pyaz.load_model(tmp_path / "other.pt", "alphagomoku-pair"))
    with pytest.raises(FileNotFoundError):
        network_pair(pyaz.load_model(tmp_path / "missing.pt", "alphagomoku-pair"))


def test_the_alphagomoku_preset_plays_distinct_games(tmp_path: Path) -> None:
    save_pair(_pair(9), tmp_path / "pair.pt")
    state = pyaz.make("gomoku", size=9)
    player = pyaz.make_player(f"alphagomoku:{tmp_path}:16", state)
    result = arena.play_match(player, make_player("random", state), 4, state, seed=1)
    assert result.n == 4 and result.distinct_games == 4
    assert pair_player(tmp_path, 8).simulations == 8


def test_the_mentor_preset_and_its_bad_input() -> None:
    state = pyaz.make("gomoku", size=9)
    mentor = make_player("mentor:20", state)
    result = arena.play_match(mentor, make_player("random", state), 2, state, seed=0)
    assert result.a_wins == 2  # the mentor never loses to random play
    with pytest.raises(ValueError, match="plays gomoku"):
        make_player("mentor", pyaz.make("othello", size=8))
    with pytest.raises(ValueError, match="9x9 to 15x15, not 7x7"):
        make_player("mentor", pyaz.make("gomoku", size=7))
    with pytest.raises(ValueError, match="five in a row, not line_length 4"):
        make_player("mentor", pyaz.make("gomoku", size=9, line_length=4))
    with pytest.raises(ValueError, match="MS must be an integer"):
        make_player("mentor:fast", state)
    with pytest.raises(ValueError, match="time per move"):
        make_player("mentor:0", state)


def test_the_guard_preset_wraps_any_gomoku_player_and_refuses_bad_input(tmp_path: Path) -> None:
    state = pyaz.make("gomoku", size=9)
    save_pair(_pair(9), tmp_path / "pair.pt")
    networks = make_player(f"guard:20:alphagomoku:{tmp_path}:16", state)
    assert isinstance(networks, ThreatGuardPlayer) and networks.tree is not None
    rows: list[int] = []
    network = networks.tree.evaluator
    networks.tree.evaluator = lambda planes: (rows.append(len(planes)), network(planes))[1]
    result = arena.play_match(networks, make_player("random", state), 2, state, seed=1)
    assert result.n == 2 and sum(networks.tree.changed.values()) == sum(rows) >= 16  # every leaf
    guard = make_player("guard:50:random", state)
    assert isinstance(guard, ThreatGuardPlayer) and guard.inner.name == "random"
    result = arena.play_match(guard, make_player("random", state), 4, state, seed=0)
    assert result.a_wins == 4 and result.distinct_games == 4  # random play never defends
    assert guard.decisions.get("win", 0) + guard.decisions.get("vcf", 0) >= 4
    assert make_player("guard:uct:8", state).inner.simulations == 8  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="plays gomoku"):
        make_player("guard:random", pyaz.make("othello", size=8))
    with pytest.raises(ValueError, match="say which player to guard"):
        make_player("guard:20", state)
    with pytest.raises(ValueError, match="time per move"):
        make_player("guard:0:random", state)
    with pytest.raises(ValueError, match="NODES is the leaf analysis of a network's search"):
        make_player("guard:30:500:uct:8", state)
    root_only = make_player("guard:30:0:uct:8", state)
    assert isinstance(root_only, ThreatGuardPlayer) and root_only.tree is None
    with pytest.raises(ValueError, match="node budget of a leaf's analysis"):
        make_player(f"guard:30:{10**10}:uct:8", state)
    with pytest.raises(ValueError, match="unknown player 'nobody'"):
        make_player("guard:nobody", state)


def _state_of(planes: np.ndarray, to_move: int) -> Gomoku:
    own, other = planes[0], planes[1]
    black, white = (own, other) if to_move == 0 else (other, own)
    rows = [
        " ".join("X" if black[r, c] else "O" if white[r, c] else "." for c in range(len(own)))
        for r in range(len(own))
    ]
    return Gomoku.from_text("\n".join(rows))


def _wins_now(state: Gomoku) -> set[int]:
    won = pyaz.Status.FIRST_PLAYER_WIN if state.to_move() == 0 else pyaz.Status.SECOND_PLAYER_WIN
    return {a for a in state.legal_actions() if state.child(a).status() == won}


def test_basic_positions_are_what_the_paper_says_by_the_rules() -> None:
    examples = basic_positions(9, 40, seed=5)
    assert len(examples) == 40 and (examples.player == 0).sum() == 20
    for planes, policy, z, player in zip(
        examples.planes, examples.policy, examples.outcome, examples.player, strict=True
    ):
        state = _state_of(planes, int(player))
        assert int(state.to_move()) == int(player) and not state.is_terminal()
        assert policy.sum() == 1.0 and policy.max() == 1.0
        target = int(np.argmax(policy))
        if player == 0:  # attack: Black to move, the target makes five
            assert z == 1.0 and target in _wins_now(state)
        else:  # defence: White has no five; every move but the target lets Black make five
            assert z == 0.0 and not _wins_now(state)
            assert not _wins_now(state.child(target))
            others = [a for a in state.legal_actions() if a != target]
            assert all(_wins_now(state.child(a)) for a in others[:10])


def test_sgd_with_momentum_is_an_option_and_a_bad_optimizer_is_refused() -> None:
    from pyaz.train.trainer import Trainer, TrainSettings

    state = pyaz.make("gomoku", size=9)
    net = PolicyValueNet(net_config_for(state, "seed004"))
    trainer = Trainer(net, TrainSettings(optimizer="sgd", momentum=0.9), state)
    assert type(trainer.optimizer).__name__ == "SGD"
    with pytest.raises(ValueError, match="unknown optimizer 'rmsprop'"):
        Trainer(net, TrainSettings(optimizer="rmsprop"), state)


def _tiny(**changes: object) -> dict[str, object]:
    config: dict[str, object] = {
        "size": 9, "basic_positions": 200, "mentor_ms": 5.0, "imitation_games": 2,
        "imitation_rounds": 1, "imitation_eval_games": 2, "iterations": 1, "episodes": 4,
        "simulations": 8, "parallel_games": 4, "epochs": 1, "gate_games": 2,
        "eval_mentor_ms": 5.0, "eval_simulations": 8, "batch_size": 32,
    }  # fmt: skip
    return {**config, **changes}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"value_decay": 1.5}, "value_decay must be in"),
        ({"value_decay": 0.0}, "value_decay must be in"),
        ({"size": 7}, "size must be in 9..15"),
        ({"optimizer": "lbfgs"}, "optimizer must be one of"),
        ({"episodes": 0}, "episodes must be >= 1"),
        ({"threat_planes": "auto"}, "threat_planes must be one of"),
    ],
)
def test_bad_pipeline_settings_are_value_errors(change: dict, message: str) -> None:
    from pyaz.methods.alphagomoku.pipeline import AlphaGomokuConfig

    with pytest.raises(ValueError, match=message):
        AlphaGomokuConfig(**_tiny(**change)).validate()  # type: ignore[arg-type]


def test_the_pipeline_runs_its_phases_and_resumes(tmp_path: Path) -> None:
    import json

    from pyaz.methods.alphagomoku.pipeline import AlphaGomokuConfig, AlphaGomokuRun

    AlphaGomokuRun(AlphaGomokuConfig(**_tiny()), tmp_path).run()  # type: ignore[arg-type]
    AlphaGomokuRun(AlphaGomokuConfig(**_tiny(iterations=2)), tmp_path).run()  # type: ignore[arg-type]
    records = [json.loads(line) for line in (tmp_path / "metrics.jsonl").read_text().splitlines()]
    assert [r["kind"] for r in records] == ["basic", "imitation", "iteration", "iteration"]
    assert [r["iteration"] for r in records[2:]] == [1, 2]  # the second call went on
    imitation = records[1]
    assert imitation["distinct_mentor_games"] == 2 and imitation["vs_mentor_distinct_games"] == 2
    for record in records[2:]:
        assert record["training_examples"] % 8 == 0  # every position with its 7 symmetries
        assert record["gate_distinct_games"] == record["gate_games"] == 2
    pair = network_pair(pyaz.load_model(tmp_path, "alphagomoku-pair"))
    assert not pair.single and pair.settings["value_decay"] == 0.95
    progress = json.loads((tmp_path / "progress.json").read_text())
    assert progress["phase"] == 3 and set(progress["times"]) == {"basic", "imitation", "selfplay"}
    assert pair.net(0).config.threat_line == 0  # the paper's networks read the board alone


def test_the_pipeline_trains_on_its_threads_or_the_processs(tmp_path: Path) -> None:
    import torch

    from pyaz.methods.alphagomoku.pipeline import AlphaGomokuConfig, AlphaGomokuRun

    before = torch.get_num_threads()
    try:
        torch.set_num_threads(2)
        AlphaGomokuRun(AlphaGomokuConfig(**_tiny(iterations=0)), tmp_path / "a")  # type: ignore[arg-type]
        assert torch.get_num_threads() == 2  # none: the process's (an experiment's share)
        AlphaGomokuRun(AlphaGomokuConfig(**_tiny(iterations=0, torch_threads=1)), tmp_path / "b")  # type: ignore[arg-type]
        assert torch.get_num_threads() == 1
    finally:
        torch.set_num_threads(before)
    with pytest.raises(ValueError, match="torch_threads must be >= 1, got 0"):
        AlphaGomokuConfig(**_tiny(torch_threads=0)).validate()  # type: ignore[arg-type]


def test_the_pair_can_read_the_deep_threat_planes(tmp_path: Path) -> None:
    from pyaz.methods.alphagomoku.pair import BLACK, WHITE
    from pyaz.methods.alphagomoku.pipeline import AlphaGomokuConfig, AlphaGomokuRun

    config = AlphaGomokuConfig(**_tiny(threat_planes="deep", curriculum=False))  # type: ignore[arg-type]
    AlphaGomokuRun(config, tmp_path).run()
    pair = network_pair(pyaz.load_model(tmp_path, "alphagomoku-pair"))
    for colour in (BLACK, WHITE):
        net = pair.net(colour).config
        assert (net.threat_line, net.threat_depth, net.stem_planes) == (5, 2, net.planes + 4)
    state = pyaz.make("gomoku", size=9)
    player = make_player(f"alphagomoku:{tmp_path}:8", state)
    assert player.choose(state.clone()) in state.legal_actions()


def test_experiment_options_and_ablations_are_checked(tmp_path: Path) -> None:
    from pyaz.experiments import get_experiment
    from pyaz.experiments.runner import run_experiment

    with pytest.raises(ValueError, match="has no option 'bogus'"):
        run_experiment(get_experiment("alphagomoku"), tmp_path, options={"bogus": "1"})
    with pytest.raises(ValueError, match="has no option 'ablations'"):
        run_experiment(get_experiment("losses"), tmp_path, options={"ablations": "decay"})
    experiment = get_experiment("alphagomoku")
    experiment.options = {"ablations": "decay,speed"}
    with pytest.raises(ValueError, match="--option ablations: unknown 'speed'"):
        experiment.runs("short")
    experiment.options = {"ablations": "decay,double,curriculum"}
    runs = experiment.runs("short")
    assert [r.name for r in runs] == ["alphagomoku", "no-decay", "single-network", "no-curriculum"]
    configs = [r.kwargs["config"] for r in runs]
    assert "value_decay" not in configs[0]  # the pipeline's default (0.95)
    assert configs[1]["value_decay"] == 1.0 and configs[2]["double"] is False
    assert configs[3]["curriculum"] is False
    experiment.options = {"ablations": "threats"}
    runs = experiment.runs("short")
    assert [r.name for r in runs] == ["alphagomoku", "threat-planes"]
    assert runs[1].kwargs["config"]["threat_planes"] == "deep"


def test_the_short_experiment_with_an_ablation_plays_it_head_to_head(tmp_path: Path) -> None:
    import json

    from pyaz.cli import experiment as cli

    out = tmp_path / "ag"
    argv = ["alphagomoku", "--short", "--out", str(out), "--option", "ablations=decay"]
    assert cli.main(argv) == 0
    summary = json.loads((out / "summary.json").read_text())
    vs_mentor = summary["vs_mentor"]
    assert vs_mentor["games"] == 4 and vs_mentor["distinct_games"] == 4
    assert vs_mentor["wins"] + vs_mentor["draws"] + vs_mentor["losses"] == 4
    head = summary["ablations"]["no-decay"]["main_vs_this"]
    assert head["games"] == head["distinct_games"] == 4
    config = json.loads((out / "runs" / "no-decay" / "config.json").read_text())
    assert config["value_decay"] == 1.0
    for board in summary["sample_games"]:
        assert (out / board).stat().st_size > 1000
    games = json.loads((out / "games-alphagomoku.json").read_text())
    assert [g["alphagomoku"] for g in games] == ["black", "white"] * 2
    # the plan is checked on resume: another option set is refused
    assert cli.main([*argv[:-1], "ablations=double", "--resume"]) == 2
    assert cli.main(["alphagomoku", "--short", "--out", str(tmp_path / "x"), "--option", "x"]) == 2


def test_the_short_experiment_plays_the_alphazero_loop_from_the_pairs_openings(
    tmp_path: Path,
) -> None:
    import json

    from pyaz.cli import experiment as cli
    from pyaz.experiments import get_experiment

    experiment = get_experiment("alphagomoku")
    experiment.options = {"ablations": "alphazero,decay"}
    runs = experiment.runs("cpu", seed=3)
    assert [r.name for r in runs] == ["alphagomoku", "alphazero-loop", "no-decay"]
    loop = runs[1].kwargs["config"]
    assert runs[1].target == "pyaz.experiments.runs:train_selfplay"
    assert (loop["game"], loop["size"], loop["seed"], loop["max_minutes"]) == ("gomoku", 9, 3, 60.0)
    assert (loop["threads"], loop["sampling_plies"], loop["eval_opponent"]) == (32, 6, "mentor:20")

    out = tmp_path / "ag"
    argv = ["alphagomoku", "--short", "--out", str(out), "--option", "ablations=alphazero"]
    assert cli.main(argv) == 0
    summary = json.loads((out / "summary.json").read_text())
    result = summary["ablations"]["alphazero-loop"]
    assert result["games"] == result["distinct_games"] == 4
    assert "main_vs_this" not in result  # not an ablation of the pair: no head-to-head
    pair_score = summary["ablations"]["alphagomoku"]["score"]
    expected = {True: "level", False: None}[result["score"] == pair_score]
    assert summary["stronger"] == (
        expected or ("alphazero-loop" if result["score"] > pair_score else "alphagomoku")
    )
    pair_games = json.loads((out / "games-alphagomoku.json").read_text())
    loop_games = json.loads((out / "games-alphazero-loop.json").read_text())
    assert [g["opening"] for g in loop_games] == [g["opening"] for g in pair_games]
    assert json.loads((out / "runs" / "alphazero-loop" / "config.json").read_text())["game"] == (
        "gomoku"
    )
    readme = (out / "README.md").read_text()
    assert "from the same openings" in readme and "Ablations head to head" not in readme
