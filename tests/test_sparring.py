"""Sparring games (``--sparring SPEC --sparring-games N``): the network's search against a fixed
opponent, its positions recorded beside the self-play ones with the self-play targets (and with
imitation the opponent's moves)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from test_faults import assert_same_run, killed, load, resume, selfplay_command
from test_train_techniques import TINY, tiny_config

import pyaz
from pyaz import Status
from pyaz.cli import selfplay as cli
from pyaz.common.runlog import read_metrics
from pyaz.eval.players import RandomPlayer
from pyaz.methods.alphazero.sparring import play_sparring

SPARRING = ["--sparring", "random", "--sparring-games", "2"]


def test_the_network_side_of_each_game_is_recorded_with_its_result() -> None:
    start = pyaz.make("connect_four", width=5, height=4)
    result = pyaz_sparring(start, games=8)
    records = result.records
    assert records.num_games == 8
    assert result.match.n == 8
    assert result.match.distinct_games == 8  # 4 random openings, each with both colours
    networks = []
    for game in range(8):
        rows = np.flatnonzero(records.game_id == game)
        assert rows.size > 0
        (network,) = set(records.player[rows].tolist())  # one side: the network's
        networks.append(network)
        status = Status(int(records.game_status[game]))
        z = 0.0 if status == Status.DRAW else 1.0 if int(status) == network + 2 else -1.0
        assert np.all(records.outcome[rows] == z)
        # the network moves on every other ply, and each row's position has ply stones
        assert np.all(np.diff(records.ply[rows]) == 2)
        assert np.array_equal(records.planes[rows][:, :2].sum(axis=(1, 2, 3)), records.ply[rows])
        assert np.array_equal(
            records.plies_to_end[rows], records.game_length[game] - records.ply[rows]
        )
    assert networks == [0, 1] * 4  # first in even games (2-ply openings), second in odd ones
    np.testing.assert_allclose(records.policy.sum(axis=1), 1.0, atol=1e-5)
    assert np.all(np.abs(records.root_value) <= 1.0)
    assert np.all(records.game_opening == 2)
    assert result.score >= 0.8  # UCT with 100 rollouts against uniformly random moves
    wins = sum(records.outcome[records.game_id == g][0] == 1.0 for g in range(8))
    assert wins == result.match.a_wins


def pyaz_sparring(start: Any, games: int, imitate: bool = False, draw: float = 0.0) -> Any:
    return play_sparring(
        start,
        RandomPlayer(seed=1),
        "rollout",
        games,
        simulations=100,
        seed=2,
        rule="uct",
        imitate=imitate,
        draw_value=draw,
    )


def test_imitation_adds_the_opponents_moves_as_one_hot_targets_with_its_result() -> None:
    start = pyaz.make("connect_four", width=5, height=4)
    alone = pyaz_sparring(start, games=6, draw=-0.25).records
    result = pyaz_sparring(start, games=6, imitate=True, draw=-0.25)
    records = result.records
    assert records.full_searches == alone.full_searches == alone.num_positions
    for game, record in enumerate(result.match.games):
        rows = np.flatnonzero(records.game_id == game)
        # every ply after the 2-ply opening, in the order of play, the two sides alternating
        assert records.ply[rows].tolist() == list(range(2, len(record.all_actions)))
        assert np.all(np.diff(records.player[rows]) != 0)
        network = rows[records.player[rows] == game % 2]
        theirs = rows[records.player[rows] != game % 2]
        ours = np.flatnonzero(alone.game_id == game)
        assert np.array_equal(records.planes[network], alone.planes[ours])
        assert np.array_equal(records.policy[network], alone.policy[ours])
        assert np.array_equal(records.outcome[network], alone.outcome[ours])
        # the opponent's rows: all the policy on the move it played, its z as z and q
        played = [record.all_actions[int(ply)] for ply in records.ply[theirs]]
        assert np.array_equal(records.policy[theirs].argmax(axis=1), played)
        assert np.all(records.policy[theirs].max(axis=1) == 1.0)
        z = -0.25 if record.winner is None else 1.0 if record.winner != game % 2 else -1.0
        assert np.all(records.outcome[theirs] == z) and np.all(records.root_value[theirs] == z)
        state = start.clone()
        for action in record.all_actions[: int(records.ply[theirs[0]])]:
            state.apply(action)
        assert np.array_equal(records.planes[theirs[0]], state.encode())


def test_a_gumbel_run_imitates_its_sparring_opponent(tmp_path: Path) -> None:
    out = tmp_path / "run"
    flags = [*SPARRING, "--sparring-imitation", "on", "--search-rule", "gumbel"]
    assert cli.main([*TINY, "--iterations", "1", "--out", str(out), *flags]) == 0
    (record,) = [r for r in read_metrics(out) if r["kind"] == "iteration"]
    assert record["games"] == 4 + 2
    assert 0 < record["sparring_positions"] < record["positions"]


def test_sparring_games_repeat_from_their_seed() -> None:
    start = pyaz.make("connect_four", width=5, height=4)
    first, second = pyaz_sparring(start, 4).records, pyaz_sparring(start, 4).records
    assert np.array_equal(first.planes, second.planes)
    assert np.array_equal(first.policy, second.policy)


def test_a_run_with_sparring_games_trains_on_them_and_logs_their_score(tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert cli.main([*TINY, "--iterations", "2", "--out", str(out), *SPARRING]) == 0
    iterations = [r for r in read_metrics(out) if r["kind"] == "iteration"]
    assert len(iterations) == 2
    for record in iterations:
        assert record["games"] == 4 + 2  # self-play, then sparring
        assert 0.0 <= record["sparring_score"] <= 1.0
        assert record["sparring_distinct_games"] == 2
        assert 0 < record["sparring_positions"] < record["positions"]
    assert load(out / "checkpoint.pt")["counters"]["games"] == 12


def test_a_run_killed_in_its_sparring_games_resumes_to_the_uninterrupted_run(
    tmp_path: Path,
) -> None:
    reference = tmp_path / "reference"
    subprocess.run(selfplay_command(reference, *SPARRING), check=True, capture_output=True)
    out = tmp_path / "run"
    killed(selfplay_command(out, *SPARRING), "sparring-game:3")  # iteration 2's first game
    assert load(out / "checkpoint.pt")["counters"]["iteration"] == 1
    resume(out)
    assert_same_run(out, reference)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"sparring": "random"}, r"sparring \('random'\) and sparring_games \(0\) go together"),
        (
            {"sparring": "none", "sparring_games": 3},
            r"sparring \('none'\) and sparring_games \(3\) go together",
        ),
        (
            {"sparring_games": 3},  # auto is none on Connect Four
            r"sparring \('auto', none on this board\) and sparring_games \(3\) go together",
        ),
        ({"sparring": "nonsense:3", "sparring_games": 1}, "sparring 'nonsense:3' is no player"),
        ({"sparring": "perfect", "sparring_games": 1}, "sparring 'perfect' is no player"),
        ({"sparring_imitation": True}, "sparring_imitation needs sparring games"),
        ({"sparring_games": -1}, "sparring_games must be >= 0, got -1"),
    ],
)
def test_bad_sparring_settings_are_errors_naming_them(
    changes: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        tiny_config(**changes).validate()


def test_a_sparring_opponent_of_another_game_is_named_before_any_game() -> None:
    config = tiny_config(sparring="mentor:20", sparring_games=2)
    config.validate()
    with pytest.raises(ValueError, match=r"^sparring: 'mentor:20' plays gomoku, not connect_four"):
        config.check_players()


def test_sparring_games_have_no_score_target() -> None:
    config = tiny_config(
        game="othello", game_options={"size": 6}, sparring="random", sparring_games=2
    )
    config.score_weight = 1.0
    with pytest.raises(ValueError, match="sparring_games record no final score"):
        config.validate()


GOMOKU_9 = {"game": "gomoku", "game_options": {"size": 9}}


@pytest.mark.parametrize(
    ("board", "changes", "used"),
    [
        # Gomoku: mentor:20, 20 games, imitation (0.509 against mentor:20 on 9x9, 2026-12-02)
        (GOMOKU_9, {}, ("mentor:20", 20, True)),
        ({"game": "gomoku", "game_options": {"size": 15}}, {}, ("mentor:20", 20, True)),
        (GOMOKU_9, {"sparring_games": 40}, ("mentor:20", 40, True)),
        (GOMOKU_9, {"sparring_imitation": False}, ("mentor:20", 20, False)),
        (GOMOKU_9, {"sparring_games": 0}, ("none", 0, False)),  # off
        (GOMOKU_9, {"sparring": "none"}, ("none", 0, False)),
        (GOMOKU_9, {"sparring": "uct:50", "sparring_games": 4}, ("uct:50", 4, True)),
        # the boards the mentor does not play: seed 001's Gobang, overlines that do not win
        (
            {"game": "gomoku", "game_options": {"size": 5, "line_length": 4}},
            {},
            ("none", 0, False),
        ),
        (
            {"game": "gomoku", "game_options": {"size": 9, "overline_wins": False}},
            {},
            ("none", 0, False),
        ),
        ({"game": "connect_four", "game_options": {}}, {}, ("none", 0, False)),
        ({"game": "othello", "game_options": {"size": 8}}, {}, ("none", 0, False)),
        (
            {"game": "connect_four", "game_options": {}},
            {"sparring": "random", "sparring_games": 2},
            ("random", 2, False),  # imitation is Gomoku's alone
        ),
    ],
)
def test_sparring_auto_is_the_mentor_with_imitation_on_gomoku_and_none_elsewhere(
    board: dict[str, Any], changes: dict[str, Any], used: tuple[str, int, bool]
) -> None:
    from pyaz.methods.alphazero.config import TrainConfig

    config = TrainConfig(**board, **changes)
    config.validate()
    assert config.sparring_used == used
    resolved = config.resolved()
    assert (resolved.sparring, resolved.sparring_games, resolved.sparring_imitation) == used
    if board is GOMOKU_9:  # sparring (played by PUCT) leaves self-play to Gumbel and the solver
        assert config.search_used == ("gumbel", True)


@pytest.mark.parametrize(
    ("game", "options", "plays"),
    [
        ("gomoku", {"size": 9}, True),
        ("gomoku", {"size": 15}, True),
        ("gomoku", {"size": 7}, False),
        ("gomoku", {"size": 9, "line_length": 4}, False),
        ("connect_four", {}, False),
    ],
)
def test_mentor_plays_is_check_mentor_game_without_raising(
    game: str, options: dict[str, Any], plays: bool
) -> None:
    from pyaz.eval.players import check_mentor_game, mentor_plays

    state = pyaz.make(game, **options)
    assert mentor_plays(state) is plays
    if plays:
        check_mentor_game(state)
    else:
        with pytest.raises(ValueError, match="the mentor plays"):
            check_mentor_game(state)


def test_saved_runs_keep_their_sparring() -> None:
    from pyaz.methods.alphazero.loop import TrainingLoop

    # before sparring's auto (2026-12-02): a run without sparring games unless it saved them
    before = TrainingLoop.upgrade_settings({"game": "gomoku", "game_options": {"size": 9}})
    assert (before["sparring"], before["sparring_games"], before["sparring_imitation"]) == (
        "none",
        0,
        False,
    )
    # an auto or a null written by hand is the game's
    hand_written = TrainingLoop.upgrade_settings(
        {"game": "gomoku", "game_options": {"size": 9}, "sparring": "auto", "sparring_games": None}
    )
    assert hand_written["sparring"] == "mentor:20" and hand_written["sparring_games"] == 20
    assert hand_written["sparring_imitation"] is False  # saved before imitation's none: off


def test_a_gomoku_run_spars_with_the_mentor_by_default_and_saves_it(tmp_path: Path) -> None:
    out = tmp_path / "run"
    flags = [
        *["--game", "gomoku", "--size", "9", "--net", "tiny", "--episodes", "2"],
        *["--simulations", "8", "--epochs", "1", "--parallel-games", "2", "--eval-games", "0"],
        *["--threads", "1", "--seed", "3", "--iterations", "1", "--quiet"],
        *["--sparring-games", "2"],  # the mentor of auto, with fewer games than its 20
    ]
    assert cli.main([*flags, "--out", str(out)]) == 0
    (record,) = [r for r in read_metrics(out) if r["kind"] == "iteration"]
    assert record["games"] == 2 + 2 and record["sparring_distinct_games"] == 2
    assert 0 < record["sparring_positions"] < record["positions"]
    saved = json.loads((out / "config.json").read_text())
    assert (saved["sparring"], saved["sparring_games"], saved["sparring_imitation"]) == (
        "mentor:20",
        2,
        True,
    )
    assert (saved["search_rule"], saved["solver"]) == ("gumbel", True)
    # and a resume with --out alone continues it with those settings
    args = cli.build_parser().parse_args(["--out", str(out), "--resume", "--iterations", "1"])
    assert cli.settings_from(args).sparring == "mentor:20"
