"""pyaz-tournament: a round robin of tiny checkpoints on 4x4 Connect Four, its outputs, the
iteration ratings of one run, and clear errors (exit code 2)."""

from __future__ import annotations

import csv
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import torch

import pyaz
from pyaz import nets
from pyaz.cli import tournament as tournament_cli
from pyaz.cli.tournament import main
from pyaz.eval import tournament
from pyaz.eval.arena import GameRecord
from pyaz.eval.players import RandomPlayer
from pyaz.eval.tournament import (
    Contestant,
    default_name,
    game_result,
    play_tournament,
    rate_run_iterations,
    round_robin_pairs,
    run_tournament,
)

GAME = {"game": "connect_four", "game_options": {"width": 4, "height": 4}}


def tiny_net(seed: int) -> nets.PolicyValueNet:
    torch.manual_seed(seed)
    state = pyaz.make("connect_four", width=4, height=4)
    return nets.PolicyValueNet(nets.net_config_for(state, blocks=1, filters=8, value_hidden=16))


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """runs/a: nets/iter-00001..3.pt; runs/b: checkpoint.pt (the loop's format); runs/c: no
    config.json."""
    root = tmp_path_factory.mktemp("runs")
    for name in ("a", "b"):
        (root / name / "nets").mkdir(parents=True)
        config = {**GAME, "c_puct": 1.5, "draw_value": 0.0, "simulations": 8}
        (root / name / "config.json").write_text(json.dumps(config))
    for k in (1, 2, 3):
        torch.save(
            {"net": nets.net_state(tiny_net(k)), "iteration": k},
            root / "a" / "nets" / f"iter-{k:05d}.pt",
        )
    checkpoint = {
        "best": nets.net_state(tiny_net(10)),
        "current": nets.net_state(tiny_net(11)),
        "counters": {"iteration": 7},
        "config": GAME,
    }
    torch.save(checkpoint, root / "b" / "checkpoint.pt")
    (root / "c").mkdir()
    torch.save({"net": nets.net_state(tiny_net(20)), "iteration": 1}, root / "c" / "net.pt")
    (root / "c" / "junk.pt").write_text("not a checkpoint")
    return root


def test_cli_round_robin_writes_table_csv_games_and_plot(runs: Path, tmp_path: Path, capsys):
    out = tmp_path / "elo"
    args = [
        str(runs / "a" / "nets" / "iter-00001.pt"),
        str(runs / "a" / "nets" / "iter-00003.pt"),
        str(runs / "b" / "checkpoint.pt"),
        "--random",
        "--games",
        "2",
        "--simulations",
        "4",
        "--out",
        str(out),
        "--quiet",
    ]
    assert main(args) == 0
    printed = capsys.readouterr().out
    names = ["random", "a/iter-00001", "a/iter-00003", "b"]
    for name in names:
        assert name in printed
    assert "95% interval" in printed and "anchor random = 0" in printed

    with (out / "ratings.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert sorted(r["name"] for r in rows) == sorted(names)
    elos = [float(r["elo"]) for r in rows]
    assert elos == sorted(elos, reverse=True)  # best first
    by_name = {r["name"]: r for r in rows}
    assert float(by_name["random"]["elo"]) == 0.0
    assert by_name["b"]["iteration"] == "7"
    assert by_name["a/iter-00003"]["path"].endswith("iter-00003.pt")
    assert all(int(r["games"]) == 3 * 2 for r in rows)  # 3 opponents x 2 games
    for r in rows:
        assert float(r["lower"]) <= float(r["elo"]) <= float(r["upper"])

    header, *games = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    assert header["journal"] == "pyaz tournament" and len(header["players"]) == 4
    assert len(games) == 6 * 2  # 6 pairs x 2 games
    for g in games:
        assert g["result"] in (0.0, 0.5, 1.0) and g["first"] != g["second"]
        assert len(g["opening"]) == 2 and g["plies"] == len(g["opening"]) + len(g["actions"])
    # Colours alternate within each pair, from the same opening.
    first_two = [g for g in games if g["match"] == 0]
    assert first_two[0]["first"] == first_two[1]["second"]
    assert first_two[0]["opening"] == first_two[1]["opening"]

    fit = json.loads((out / "fit.json").read_text())
    assert fit["anchor"] == "random" and len(fit["covariance"]) == 4
    assert (out / "ratings.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    # the same command again: every game is in the journal, nothing is played twice
    before = (out / "games.jsonl").read_bytes()
    assert main([*args[:-1]]) == 0  # not --quiet: it says it resumes
    assert (
        f"resuming: 12 games played before, read from {out / 'games.jsonl'}"
        in capsys.readouterr().err
    )
    assert (out / "games.jsonl").read_bytes() == before
    with (out / "ratings.csv").open() as f:
        assert [r["elo"] for r in csv.DictReader(f)] == [r["elo"] for r in rows]


def test_load_checkpoint_reads_both_formats(runs: Path) -> None:
    model = nets.load_model(runs / "a" / "nets" / "iter-00002.pt", "az")
    assert model.iteration == 2 and isinstance(model.module, nets.PolicyValueNet)
    loaded = nets.load_model(runs / "b" / "checkpoint.pt", "az")
    best = loaded.module
    assert loaded.iteration == 7
    expected = tiny_net(10).state_dict()
    assert all(torch.equal(best.state_dict()[k], v) for k, v in expected.items())
    with pytest.raises(ValueError, match=r"junk\.pt is not a pyaz network file"):
        nets.load_model(runs / "c" / "junk.pt", "az")
    assert default_name(runs / "a" / "nets" / "iter-00002.pt") == "a/iter-00002"
    assert default_name(runs / "b" / "checkpoint.pt") == "b"
    assert default_name(runs / "c" / "net.pt") == "net"


def test_contestants_from_a_run_folder_and_a_network_file(runs: Path, tmp_path: Path) -> None:
    network = tmp_path / "net.pt"
    network.write_bytes(nets.net_file_bytes(tiny_net(10), "connect_four"))
    state = pyaz.make("connect_four", width=4, height=4)
    folder, named = tournament.checkpoint_contestants([runs / "b", f"nn={network}"], state, 4)
    assert (folder.name, folder.iteration, folder.path) == ("b", 7, runs / "b")
    assert folder.player.search_options["c_puct"] == 1.5  # the run's config.json
    assert (named.name, named.iteration) == ("nn", None)
    scripted = tmp_path / "best.torchscript.pt"
    scripted.write_bytes(nets.torchscript_bytes(tiny_net(10)))
    assert default_name(runs / "b") == "b" and default_name(scripted) == tmp_path.name
    for contestant in (folder, named):
        assert state.is_legal(contestant.player.choose(state.clone()))
    with pytest.raises(ValueError, match="the network takes 2x4x4 planes and 4 actions"):
        tournament.checkpoint_contestants([runs / "b"], pyaz.make("connect_four"), 4)
    with pytest.raises(ValueError, match="pyaz does not execute TorchScript files"):
        tournament.checkpoint_contestants([scripted], state, 4)  # issue 74


def test_game_from_options_labels_and_explicit_anchor(runs: Path, tmp_path: Path, capsys):
    # A checkpoint without config.json plays with --game; LABEL=PATH names the player.
    args = [
        f"first={runs / 'c' / 'net.pt'}",
        str(runs / "a" / "nets" / "iter-00002.pt"),
        "--game",
        "connect4",
        "--width",
        "4",
        "--height",
        "4",
        "--games",
        "2",
        "--simulations",
        "2",
        "--anchor",
        "first",
        "--out",
        str(tmp_path),
        "--quiet",
    ]
    assert main(args) == 0
    printed = capsys.readouterr().out
    assert "anchor first = 0" in printed and "a/iter-00002" in printed


def test_rate_run_iterations(runs: Path, tmp_path: Path) -> None:
    ratings = rate_run_iterations(runs / "a", games=2, simulations=2, every=2, out=tmp_path)
    # Iterations that are multiples of 2, and the last one, after the random anchor.
    assert [r.name for r in ratings] == ["random", "iter-00002", "iter-00003"]
    assert ratings[0].elo == 0.0 and ratings[0].interval == (0.0, 0.0)
    assert all(r.games == 4 and r.lower <= r.elo <= r.upper for r in ratings)
    assert (tmp_path / "ratings.png").exists() and (tmp_path / "ratings.csv").exists()
    chain = rate_run_iterations(runs / "a", games=2, simulations=2, neighbours=1)
    assert [r.games for r in chain] == [2, 4, 4, 2]  # random-1, 1-2, 2-3
    with pytest.raises(ValueError, match="holds no iter"):
        rate_run_iterations(runs / "b", games=2, simulations=2)


def test_round_robin_pairs_and_game_result() -> None:
    assert round_robin_pairs(3) == [(0, 1), (0, 2), (1, 2)]
    assert round_robin_pairs(4, neighbours=2) == [(0, 1), (0, 2), (1, 2), (1, 3), (2, 3)]
    status = pyaz.Status
    assert game_result(GameRecord([], status.FIRST_PLAYER_WIN, 0, "x", "y")).result == 1.0
    assert game_result(GameRecord([], status.SECOND_PLAYER_WIN, 1, "x", "y")).result == 0.0
    assert game_result(GameRecord([], status.DRAW, None, "x", "y")).result == 0.5


def test_random_players_tournament_is_reproducible() -> None:
    state = pyaz.make("connect_four", width=4, height=4)

    def play():
        players = [Contestant(n, RandomPlayer(seed=i, name=n)) for i, n in enumerate("xyz")]
        matches = play_tournament(players, 4, state, seed=3, progress=False)
        return [(g.first, g.second, g.winner, g.all_actions) for m in matches for g in m.games]

    games = play()
    assert len(games) == 3 * 4 and games == play()


class Interrupting(RandomPlayer):
    """Raises KeyboardInterrupt (as Ctrl-C would) at its ``after``-th move."""

    def __init__(self, after: int, name: str) -> None:
        super().__init__(seed=1, name=name)
        self.moves, self.after = 0, after

    def choose(self, state):
        self.moves += 1
        if self.moves == self.after:
            raise KeyboardInterrupt
        return super().choose(state)


def test_interrupt_rates_and_writes_the_games_so_far(tmp_path: Path) -> None:
    state = pyaz.make("connect_four", width=4, height=4)
    players = [
        Contestant("x", RandomPlayer(seed=0, name="x")),
        Contestant("y", RandomPlayer(seed=1, name="y")),
        Contestant("z", Interrupting(40, "z")),
    ]
    with pytest.raises(KeyboardInterrupt) as caught:
        run_tournament(players, 6, state, out=tmp_path, anchor="x", progress=False)
    partial = caught.value.tournament  # type: ignore[attr-defined]
    played = sum(len(m.games) for m in partial.matches)
    assert 6 <= played < 18
    assert partial.fit.rating("x").elo == 0.0
    lines = (tmp_path / "games.jsonl").read_text().splitlines()
    assert len(lines) == 1 + played and (tmp_path / "ratings.csv").exists()  # the header, games


def _xyz(last: RandomPlayer | None = None) -> list[Contestant]:
    players = [RandomPlayer(seed=0, name="x"), RandomPlayer(seed=1, name="y")]
    return [Contestant(p.name, p) for p in [*players, last or RandomPlayer(seed=2, name="z")]]


def _games(out: Path) -> list[dict]:
    header, *games = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    assert header["journal"] == "pyaz tournament"
    return games


def test_a_tournament_stopped_at_any_game_resumes_with_nothing_lost_or_counted_twice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Killed mid-game, the same tournament again plays only the games not in its journal: the
    games before the kill are kept as they were, each (match, game) is rated once, and the
    openings are the match's; a larger --games extends every match, a smaller one rates the
    first games."""
    state = pyaz.make("connect_four", width=4, height=4)
    with pytest.raises(KeyboardInterrupt):
        run_tournament(_xyz(Interrupting(40, "z")), 6, state, out=tmp_path, anchor="x",
                       progress=False)  # fmt: skip
    kept = _games(tmp_path)
    assert 6 <= len(kept) < 18
    resumed = run_tournament(_xyz(), 6, state, out=tmp_path, anchor="x", progress=True)
    assert f"resuming: {len(kept)} games played before" in capsys.readouterr().err
    games = _games(tmp_path)
    assert games[: len(kept)] == kept and len(games) == 18
    assert sorted((g["match"], g["game"]) for g in games) == [
        (m, k) for m in range(3) for k in range(6)
    ]
    assert [m.n for m in resumed.matches] == [6, 6, 6]
    for match in resumed.matches:  # the games rated are the journal's, in order
        ours = [
            g
            for g in games
            if (g["first"], g["second"])
            in {(match.a_name, match.b_name), (match.b_name, match.a_name)}
        ]
        ours.sort(key=lambda g: g["game"])
        assert [g.all_actions for g in match.games] == [g["opening"] + g["actions"] for g in ours]
        assert all(ours[k]["opening"] == ours[k + 1]["opening"] for k in range(0, 6, 2))
    assert resumed.fit is not None and resumed.fit.rating("x").elo == 0.0
    longer = run_tournament(_xyz(), 8, state, out=tmp_path, anchor="x", progress=False)
    assert [m.n for m in longer.matches] == [8, 8, 8] and len(_games(tmp_path)) == 24
    assert _games(tmp_path)[:18] == games
    shorter = run_tournament(_xyz(), 2, state, out=tmp_path, anchor="x", progress=True)
    assert [m.n for m in shorter.matches] == [2, 2, 2] and len(_games(tmp_path)) == 24
    assert "(18 more beyond --games 2 left out)" in capsys.readouterr().err


def test_a_journal_of_another_tournament_or_a_damaged_game_is_a_one_line_error(
    tmp_path: Path,
) -> None:
    state = pyaz.make("connect_four", width=4, height=4)
    run_tournament(_xyz(), 2, state, out=tmp_path, anchor="x", progress=False)
    path = tmp_path / "games.jsonl"
    other = [*_xyz()[:2], Contestant("w", RandomPlayer(seed=2, name="w"))]
    with pytest.raises(ValueError, match=r"holds another tournament: its players is \["):
        run_tournament(other, 2, state, out=tmp_path, anchor="x", progress=False)
    with pytest.raises(ValueError, match="its seed is 0, this tournament's 1"):
        run_tournament(_xyz(), 2, state, out=tmp_path, anchor="x", progress=False, seed=1)
    header, *lines = path.read_text().splitlines()
    first = json.loads(lines[0])
    damaged = {
        "a move that is not legal": (
            {**first, "actions": [9, *first["actions"][1:]]},
            "game 1's move at ply 2 is illegal",
        ),
        "another opening": (
            {**first, "opening": [0, 0]},
            "game 1's opening is not the one its match draws",
        ),
        "another player": ({**first, "first": "y"}, "first must be x, not the string 'y'"),
        "another result": ({**first, "winner": 1 if first["winner"] != 1 else 0}, "winner must be"),
        "a match beyond the pairs": ({**first, "match": 3}, "match must be an integer from 0 to 2"),
        "the same game twice": (first, "game 1 of match 1 is in the file twice"),
    }
    for why, (game, message) in damaged.items():
        path.write_text("\n".join([header, *lines, json.dumps(game)]) + "\n")
        if why != "the same game twice":
            path.write_text("\n".join([header, json.dumps(game), *lines[1:]]) + "\n")
        with pytest.raises(ValueError, match=re.escape(message)) as caught:
            run_tournament(_xyz(), 2, state, out=tmp_path, anchor="x", progress=False)
        assert str(caught.value).startswith(f"{path} line "), why
    restarted = run_tournament(other, 2, state, out=tmp_path, progress=False, restart_other=True)
    assert [m.n for m in restarted.matches] == [2, 2, 2] and len(_games(tmp_path)) == 6


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["missing.pt", "--random", "--games", "2"], "no such checkpoint: missing.pt"),
        (["{c}/net.pt", "--random", "--games", "2", "--game", "chess"], "unknown game 'chess'"),
        (["{c}/net.pt", "--random", "--games", "2"], "no config.json found"),
        (["{c}/net.pt", "--games", "2", "--game", "connect_four"], "at least two players"),
        (["{c}/junk.pt", "--random", "--games", "2", "--game", "othello"], "not a torch"),
        (
            ["{c}/net.pt", "--random", "--games", "2", "--game", "connect_four"],
            "the network takes 2x4x4 planes and 4 actions",
        ),
        (
            ["{a}/nets/iter-00001.pt", "--random", "--games", "2", "--anchor", "nobody"],
            "anchor 'nobody' is not a player",
        ),
        (["{a}/nets/iter-00001.pt", "--random", "--games", "0"], "--games must be >= 1"),
        (
            ["{a}/nets/iter-00001.pt", "--random", "--games", "2", "--width", "5"],
            "the network takes",
        ),
    ],
)
def test_cli_errors_exit_2_with_a_clear_message(runs, tmp_path, capsys, args, message) -> None:
    argv = [a.format(a=runs / "a", c=runs / "c") for a in args]
    assert main([*argv, "--out", str(tmp_path), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("pyaz-tournament: ") and message in err


def test_help_explains_every_option(capsys) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--help"])
    assert exited.value.code == 0
    text = capsys.readouterr().out
    parser = tournament_cli.build_parser()
    for action in parser._actions:
        assert action.help, action.dest
        for flag in action.option_strings:
            assert flag in text


def test_module_entry_point_runs() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "pyaz.cli.tournament", "--games", "1"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2 and "at least two players" in result.stderr


def test_a_second_process_is_kept_out_of_a_tournaments_folder(
    runs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from pyaz.common.folder_lock import FolderLock

    out = tmp_path / "elo"
    args = [str(runs / "a" / "nets" / "iter-00001.pt"), "--random", "--games", "2", "--quiet"]
    with FolderLock(out, "pyaz tournament"):
        assert main([*args, "--out", str(out)]) == 2
    assert "is in use by another pyaz tournament" in capsys.readouterr().err
    assert main([*args, "--out", str(out)]) == 0  # the lock went with its holder
