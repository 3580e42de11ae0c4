"""``pyaz-arena --out``'s journal (``match.jsonl``): a match stopped at any moment resumes with
nothing lost and nothing counted twice, a larger ``--games`` extends it, and a damaged or
foreign journal is a one-line error naming the file, the line and the field."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import pytest

from pyaz.cli.arena import main
from pyaz.common import journal
from pyaz.common.folder_lock import FolderLock
from pyaz.eval.match_journal import JOURNAL, network_digest
from pyaz.eval.parallel import MatchPlan, play_games
from pyaz.nets.shipped import shipped_path

ARGV = ["random", "uct:20", "--game", "connect_four", "--openings", "2", "--quiet", "--seed", "3"]


def _match(out: Path, games: int, *extra: str) -> int:
    return main([*ARGV, "--games", str(games), "--out", str(out), *extra])


def _lines(out: Path) -> list[bytes]:
    return (out / JOURNAL).read_bytes().splitlines()


@pytest.fixture(scope="module")
def whole(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 6-game match played in one go."""
    out = tmp_path_factory.mktemp("whole")
    assert _match(out, 6) == 0
    return out


def _journal_in(folder: Path, journal: bytes) -> Path:
    """``folder``, made, holding ``journal`` as its match.jsonl."""
    folder.mkdir()
    (folder / JOURNAL).write_bytes(journal)
    return folder


def _one_game(header: bytes, game: object) -> bytes:
    """A journal of ``header`` and one game line."""
    return header + b"\n" + json.dumps(game).encode() + b"\n"


def _summary(out: Path) -> dict[str, Any]:
    return dict(json.loads((out / "summary.json").read_text()))


def test_the_journal_holds_every_game_as_played(whole: Path) -> None:
    lines = _lines(whole)
    header = json.loads(lines[0])
    assert header["journal"] == "pyaz-arena match"
    assert (header["a"], header["b"], header["game"], header["seed"]) == (
        "random",
        "uct:20",
        "connect_four",
        3,
    )
    assert header["opening_plies"] == 2
    assert header["runtime"] is None and header["networks"] == {"a": None, "b": None}
    games = [json.loads(line) for line in lines[1:]]
    assert sorted(g["index"] for g in games) == list(range(6))
    summary = _summary(whole)
    assert summary["games"] == 6 and summary["games_resumed"] == 0
    by_index = {g["index"]: g for g in games}
    for result in summary["results"]:
        game = by_index[result["game"] - 1]
        assert (game["status"], game["opening"], game["a_first"]) == (
            result["status"],
            result["opening"],
            result["a_first"],
        )


def test_a_match_killed_mid_write_resumes_with_the_same_games(
    whole: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "killed"
    out.mkdir()
    lines = _lines(whole)
    # Killed with three games kept and the fourth's line cut halfway.
    (out / JOURNAL).write_bytes(b"\n".join(lines[:4]) + b"\n" + lines[4][: len(lines[4]) // 2])
    assert _match(out, 6) == 0
    printed = capsys.readouterr().out
    assert f"resuming: 3 of the 6 games played before, read from {out / JOURNAL}" in printed
    summary = _summary(out)
    assert summary["games"] == 6 and summary["games_resumed"] == 3
    # the games' own times, the three read back included (the wall time is this session's)
    times = [game["seconds"] for game in summary["results"]]
    assert len(times) == 6 and summary["game_seconds"] == pytest.approx(sum(times), abs=1e-3)
    # Players are seeded per game: the games played after the stop are the ones it missed.
    assert (out / "games.txt").read_text() == (whole / "games.txt").read_text()
    assert sorted(json.loads(line)["index"] for line in _lines(out)[1:]) == list(range(6))


def test_a_finished_match_plays_nothing_again_and_a_larger_one_extends_it(
    whole: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _journal_in(tmp_path / "again", (whole / JOURNAL).read_bytes())
    assert _match(out, 6) == 0
    assert "resuming: 6 of the 6 games" in capsys.readouterr().out
    assert len(_lines(out)) == 7
    assert _match(out, 8) == 0
    assert "resuming: 6 of the 8 games" in capsys.readouterr().out
    assert len(_lines(out)) == 9
    summary = _summary(out)
    assert summary["games"] == 8 and summary["distinct_games"] == 8
    whole_games = (whole / "games.txt").read_text().splitlines()
    assert (out / "games.txt").read_text().splitlines()[: len(whole_games)] == whole_games
    # A smaller --games tallies the first games and leaves the others in the file.
    assert _match(out, 2) == 0
    printed = capsys.readouterr().out
    assert "resuming: 2 of the 2 games played before" in printed
    assert "(6 more beyond --games 2 left out)" in printed
    assert _summary(out)["games"] == 2
    assert len(_lines(out)) == 9


def test_another_match_in_the_folder_is_refused(
    whole: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _journal_in(tmp_path / "other", (whole / JOURNAL).read_bytes())
    assert main(["random", "uct:30", *ARGV[2:], "--games", "6", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err == (
        f'pyaz-arena: {out / JOURNAL} holds another match: its b is "uct:20", this match\'s '
        '"uct:30" (give another --out, or remove the file to start this one there)\n'
    )
    assert main([*ARGV, "--seed", "4", "--games", "6", "--out", str(out)]) == 2
    assert "its seed is 3, this match's 4" in capsys.readouterr().err


def _damaged(line: dict[str, Any], key: str, value: Any) -> dict[str, Any]:
    return {**line, key: value}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda g: _damaged(g, "index", "1"), "line 2: index must be an integer from 0"),
        (lambda g: _damaged(g, "a_first", not g["a_first"]), "line 2: a_first must be"),
        (
            lambda g: _damaged(g, "opening", [*g["opening"], 0]),
            "line 2: game 1's opening is not the one",
        ),
        (lambda g: _damaged(g, "status", "ONGOING"), "line 2: status must be DRAW or"),
        (lambda g: _damaged(g, "winner", True), "line 2: winner must be"),
        (lambda g: _damaged(g, "actions", [7]), "line 2: game 1's move at ply 2 is illegal"),
        (lambda g: _damaged(g, "actions", [2**40]), "line 2: game 1's move at ply 2 is illegal"),
        (lambda g: _damaged(g, "actions", g["actions"][:-1]), "line 2: game 1 replays to not over"),
        (lambda g: _damaged(g, "actions", ["3"]), "line 2: actions[0] must be an integer"),
        (lambda g: _damaged(g, "seconds", "NaN"), "line 2: seconds must be a finite number"),
        (lambda g: _damaged(g, "resigned", 2), "line 2: resigned must be an integer from 0 to 1"),
        (lambda g: [g], "line 2: must hold a JSON object, not a list"),
        (lambda g: _damaged(g, "first", g["second"]), "line 2: first must be"),
        (lambda g: _damaged(g, "second", "x\ny"), "line 2: second must be"),
    ],
)
def test_a_damaged_game_line_is_refused_naming_it(
    whole: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], change: Any, message: str
) -> None:
    lines = _lines(whole)
    first = next(json.loads(line) for line in lines[1:] if json.loads(line)["index"] == 0)
    out = _journal_in(tmp_path / "damaged", _one_game(lines[0], change(first)))
    assert _match(out, 6) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"pyaz-arena: {out / JOURNAL} {message}"), err
    assert err.count("\n") == 1


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"not json\n", "not a pyaz-arena match journal"),
        (b'{"journal": "something else"}\n', "not a pyaz-arena match journal"),
        (None, "line 3: game 1 is in the file twice"),
        (None, "line 2: not JSON"),
    ],
)
def test_a_damaged_journal_is_refused(
    whole: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    content: bytes | None,
    message: str,
) -> None:
    lines = _lines(whole)
    first = next(line for line in lines[1:] if json.loads(line)["index"] == 0)
    if content is None:
        content = lines[0] + b"\n" + (first + b"\n" + first if "twice" in message else b"{]")
        content += b"\n"
    out = _journal_in(tmp_path / "damaged", content)
    assert _match(out, 6) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"pyaz-arena: {out / JOURNAL}"), err
    assert message in err and err.count("\n") == 1


def test_a_journal_that_is_not_a_regular_file_is_never_opened(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "fifo"
    out.mkdir()
    os.mkfifo(out / JOURNAL)  # opening it to read would block for ever
    assert _match(out, 2) == 2
    assert "not a regular file" in capsys.readouterr().err


def test_a_journal_cut_inside_its_first_line_starts_the_match_again(
    whole: Path, tmp_path: Path
) -> None:
    out = _journal_in(tmp_path / "cut", _lines(whole)[0][:10])
    assert _match(out, 2) == 0
    assert json.loads(_lines(out)[0])["journal"] == "pyaz-arena match"
    assert _summary(out)["games_resumed"] == 0


def test_a_game_the_journal_could_not_keep_is_not_counted() -> None:
    plan = MatchPlan("random", "random", "connect_four", openings=2, games=4)
    kept: list[int] = []

    def keep(game: dict[str, Any]) -> None:
        if len(kept) == 2:
            raise OSError(28, "No space left on device", "match.jsonl")
        kept.append(game["index"])

    games, error = play_games(plan, 4, progress=False, on_game=keep)
    assert isinstance(error, OSError) and error.filename == "match.jsonl"
    assert [g["index"] for g in games] == kept == [0, 1]


def test_a_file_of_that_name_that_is_no_journal_is_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _journal_in(tmp_path / "notes", b"my notes")
    assert _match(out, 2) == 2
    assert capsys.readouterr().err == (
        f"pyaz-arena: {out / JOURNAL}: not a pyaz-arena match journal (no first line)\n"
    )
    assert (out / JOURNAL).read_bytes() == b"my notes"


def test_two_processes_never_play_one_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "busy"
    with FolderLock(out, "pyaz-arena match"):
        assert _match(out, 2) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"pyaz-arena: {out} is in use by another pyaz-arena match (process ")
    assert not (out / JOURNAL).exists()
    assert _match(out, 2) == 0  # the lock goes with the process that held it


def test_a_game_that_was_resigned_replays_and_one_that_was_not_is_refused(
    whole: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = _lines(whole)
    first = next(json.loads(line) for line in lines[1:] if json.loads(line)["index"] == 0)
    # Side 0 (the first player) resigns after the opening: the second player wins.
    resigned = {**first, "actions": [], "resigned": 0, "status": "SECOND_PLAYER_WIN", "winner": 1}
    out = _journal_in(tmp_path / "resigned", _one_game(lines[0], resigned))
    assert _match(out, 2) == 0
    results = _summary(out)["results"]
    assert results[0]["resigned"] == 0 and results[0]["result"] == "0-1"
    # The side to move after the opening is side 0: side 1 cannot have resigned there.
    wrong = {**resigned, "resigned": 1, "status": "FIRST_PLAYER_WIN", "winner": 0}
    (out / JOURNAL).write_bytes(_one_game(lines[0], wrong))
    assert _match(out, 2) == 2
    assert (
        "game 1 replays to not where the side that resigned is to move" in capsys.readouterr().err
    )


def test_a_resume_in_two_processes_plays_the_games_left(whole: Path, tmp_path: Path) -> None:
    out = tmp_path / "parallel"
    out.mkdir()
    lines = _lines(whole)
    (out / JOURNAL).write_bytes(b"\n".join(lines[:2]) + b"\n")
    assert _match(out, 6, "--parallel", "2") == 0
    assert _summary(out)["games_resumed"] == 1
    assert (out / "games.txt").read_text() == (whole / "games.txt").read_text()


def test_a_header_of_other_game_options_is_refused(
    whole: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _journal_in(tmp_path / "options", (whole / JOURNAL).read_bytes())
    assert _match(out, 6, "--width", "6") == 2
    assert 'its game_options is {}, this match\'s {"width": 6}' in capsys.readouterr().err
    assert _match(out, 6, "--openings", "3") == 2
    assert "its opening_plies is 2, this match's 3" in capsys.readouterr().err


CURLING = ["random", "random", "--game", "curling", "--ends", "1", "--quiet", "--seed", "2"]


def test_a_curling_match_resumes_with_the_same_shots(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    assert main([*CURLING, "--games", "2", "--out", str(whole)]) == 0
    cut.mkdir()
    lines = _lines(whole)
    (cut / JOURNAL).write_bytes(b"\n".join(lines[:2]) + b"\n")
    assert main([*CURLING, "--games", "2", "--out", str(cut)]) == 0
    assert "resuming: 1 of the 2 games" in capsys.readouterr().out
    assert (cut / "games.txt").read_text() == (whole / "games.txt").read_text()
    timeless = [[{**r, "seconds": 0} for r in _summary(o)["results"]] for o in (cut, whole)]
    assert timeless[0] == timeless[1]

    game = json.loads(lines[1])
    damaged = [
        ({**game, "actions": [[1.0, 2.0, 10**400]]}, "actions[0] must be a target"),
        ({**game, "actions": [[1.0, 2.0, 2]]}, "actions[0] must be a target"),
        ({**game, "actions": [[10**400, 2.0, 1]]}, "actions[0] must be a target"),
        ({**game, "actions": "x"}, "actions must be a list, each a target"),
        ({**game, "actions": game["actions"][:-1]}, "replays to not over"),
        ({**game, "actions": [[0.0, 0.0, 1]] * len(game["actions"])}, "replays to"),
    ]
    for record, message in damaged:
        bad = _journal_in(
            tmp_path / f"bad{len(message)}{len(str(record['actions']))}",
            _one_game(lines[0], record),
        )
        assert main([*CURLING, "--games", "2", "--out", str(bad)]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"pyaz-arena: {bad / JOURNAL} line 2: ") and message in err, err
        assert err.count("\n") == 1


def test_the_header_names_the_network_each_player_reads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shipped = shipped_path("builtin:connect_four7x6")
    digest = hashlib.sha256(shipped.read_bytes()).hexdigest()
    assert network_digest("model:builtin:connect_four7x6:8") == digest
    assert network_digest("guard:100:0:model:builtin:connect_four7x6") == digest
    assert network_digest("random") is None and network_digest("gtp-rhino:5") is None
    net = tmp_path / "net.pt"
    net.write_bytes(shipped.read_bytes())
    argv = [f"model:{net}:2", "random", "--game", "connect_four", "--quiet", "--games", "2"]
    out = tmp_path / "match"
    assert main([*argv, "--out", str(out)]) == 0
    assert json.loads(_lines(out)[0])["networks"] == {"a": digest, "b": None}
    # The network changed between the stop and the resume: not the same player.
    net.write_bytes(shipped.read_bytes() + b"\0")
    assert main([*argv, "--out", str(out)]) == 2
    assert f'holds another match: its networks is {{"a": "{digest}"' in capsys.readouterr().err


def test_a_journal_write_that_fails_stops_the_match_and_the_same_command_resumes(
    whole: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = _journal_in(tmp_path / "full", b"\n".join(_lines(whole)[:2]) + b"\n")

    def full(descriptor: int) -> None:
        raise OSError(28, "No space left on device")

    with monkeypatch.context() as patch:
        patch.setattr(journal.os, "fsync", full)
        assert _match(out, 6) == 1
    err = capsys.readouterr().err
    assert err == (
        "pyaz-arena: the match stopped after 1 games: [Errno 28] No space left on device: "
        f"'{out / JOURNAL}'; the same command resumes it ({out / JOURNAL})\n"
    )
    assert _summary(out)["games"] == 1
    assert _match(out, 6) == 0  # the folder was unlocked; the game written but not synced is kept
    assert _summary(out)["games_resumed"] == 2
    assert (out / "games.txt").read_text() == (whole / "games.txt").read_text()
