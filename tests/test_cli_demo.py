"""``pyaz-demo``: a random game shown, then many tallied, for every board game (a game written
in Python too), and a clear refusal of what it cannot play."""

from __future__ import annotations

import pytest

from pyaz.cli import demo


@pytest.mark.parametrize(
    ("game", "where"),
    [("othello", "C++"), ("tictactoe", "Python"), ("openspiel:tic_tac_toe", "Python")],
)
def test_a_game_is_shown_then_random_games_are_tallied(
    game: str, where: str, capsys: pytest.CaptureFixture[str]
) -> None:
    if game.startswith("openspiel:"):
        pytest.importorskip("pyspiel")
    assert demo.main(["--game", game, "--games", "300", "--quiet"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("moves: ") and lines[1].startswith("result: ")
    tally = lines[2]
    assert tally.startswith("300 random games: first player ") and tally.endswith(f"in {where})")
    wins, draws, losses = (int(tally.split()[i]) for i in (5, 7, 9))
    assert wins + draws + losses == 300


def test_what_it_cannot_play_is_refused_in_a_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert demo.main(["--game", "curling"]) == 2
    assert "curling has no list of legal actions to draw from" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:
        demo.main(["--games", "-5"])
    assert exit_.value.code == 2 and "--games must be >= 0, got -5" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        demo.main(["--seed", "-1"])
    assert "--seed must be in 0..2**64-1, got -1" in capsys.readouterr().err
