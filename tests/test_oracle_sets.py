"""Whole-game oracle sets (pyaz.eval.oracle_sets): the stages, a set that resumes after a kill
with nothing lost or counted twice, damaged files refused, and the shipped sets checked against
the exact solver's other path (scores of every move, pyaz.search.solve)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import pyaz
from pyaz.eval import oracle_sets
from pyaz.eval.oracle import PerfectPlayer
from pyaz.eval.oracle_sets import STAGES, load_set, stage_of, stage_plies, write_set
from pyaz.search.solver import solve


@pytest.mark.parametrize(("width", "height"), [(4, 4), (5, 4), (6, 6), (7, 6)])
def test_the_stages_are_thirds_of_the_cells_and_cover_the_game(width: int, height: int) -> None:
    cells = width * height
    plies = [ply for stage in STAGES for ply in stage_plies(width, height, stage)]
    assert plies == list(range(cells - 1))
    for stage in STAGES:
        assert {stage_of(ply, width, height) for ply in stage_plies(width, height, stage)} == {
            stage
        }
    assert stage_plies(7, 6, "opening") == range(0, 14)
    assert stage_plies(7, 6, "end") == range(28, 41)


def test_a_set_killed_part_way_resumes_to_the_same_file(tmp_path: Path) -> None:
    whole, resumed = tmp_path / "whole.jsonl", tmp_path / "resumed.jsonl"
    assert write_set(whole, 5, 4, per_stage=6, seed=3) == 18
    lines = whole.read_text().splitlines(keepends=True)
    resumed.write_text("".join(lines[:8]) + lines[8][:9])  # a kill in the middle of a line
    assert write_set(resumed, 5, 4, per_stage=6, seed=3) == 18
    assert resumed.read_text() == whole.read_text()
    assert write_set(resumed, 5, 4, per_stage=6, seed=3) == 18  # a finished set stays as it is
    assert resumed.read_text() == whole.read_text()


def test_a_set_holds_distinct_hard_positions_of_each_stage(tmp_path: Path) -> None:
    path = tmp_path / "set.jsonl"
    write_set(path, 5, 4, per_stage=6, seed=1)
    positions = load_set(path=path)
    assert [p.stage for p in positions] == [stage for stage in STAGES for _ in range(6)]
    assert len({p.position.key for p in positions}) == 18
    for staged in positions:
        assert staged.stage == stage_of(len(staged.moves), 5, 4)
        solution = solve(staged.position.state)
        assert solution.value == staged.position.value
        assert set(solution.value_preserving_moves) == staged.position.good_moves
        assert len({move.value for move in solution.move_values.values()}) > 1


def test_a_file_of_another_set_or_damaged_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "set.jsonl"
    write_set(path, 5, 4, per_stage=2, seed=1)
    with pytest.raises(ValueError, match="another oracle set"):
        write_set(path, 5, 4, per_stage=2, seed=2)
    lines = path.read_text().splitlines()
    record = json.loads(lines[1])
    for bad in ({**record, "moves": [9]}, {**record, "stage": "end"}, {**record, "value": 7}):
        path.write_text("\n".join([lines[0], json.dumps(bad)]) + "\n")
        with pytest.raises(ValueError, match=str(path)):
            load_set(path=path)
    path.write_text('{"format": "something else"}\n')
    with pytest.raises(ValueError, match="not an oracle set"):
        load_set(path=path)
    with pytest.raises(ValueError, match="no whole-game oracle set ships for 5x5"):
        load_set(5, 5)


class FirstLegal:
    """Plays the lowest legal column: keeps the value only by chance."""

    name = "first-legal"

    def reset(self, state: pyaz.BoardGameState) -> None:
        pass

    def choose(self, state: pyaz.BoardGameState) -> int:
        return int(state.legal_actions()[0])

    def observe(self, action: int) -> None:
        pass


def test_agreement_is_reported_by_stage(tmp_path: Path) -> None:
    path = tmp_path / "set.jsonl"
    write_set(path, 5, 4, per_stage=5, seed=2)
    positions = load_set(path=path)
    perfect = oracle_sets.agreement_by_stage(PerfectPlayer(seed=0), positions)
    assert list(perfect) == [*STAGES, "all"]
    assert all(result.agreement == 1.0 for result in perfect.values())
    assert [perfect[stage].positions for stage in STAGES] == [5, 5, 5]
    first = oracle_sets.agreement_by_stage(FirstLegal(), positions)
    assert first["all"].kept == sum(first[stage].kept for stage in STAGES) < 15


@pytest.mark.parametrize(("width", "height"), [(6, 6), (7, 6)])
def test_the_shipped_set_agrees_with_the_exact_solver(width: int, height: int) -> None:
    """Every position distinct, 100 of each stage; a sample of those the solver scores in well
    under a second (past the first plies) re-solved by the other path of the solver."""
    positions = load_set(width, height)
    assert [sum(p.stage == stage for p in positions) for stage in STAGES] == [100, 100, 100]
    assert len({p.position.key for p in positions}) == 300
    assert min(len(p.moves) for p in positions) <= 2  # the set reaches back to the first moves
    quick = [p for p in positions if len(p.moves) >= 10]
    for staged in random.Random(0).sample(quick, 12):
        solution = solve(staged.position.state)
        assert solution.value == staged.position.value, staged.moves
        assert set(solution.value_preserving_moves) == staged.position.good_moves, staged.moves


def test_the_command_scores_a_player_by_stage(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "set.jsonl"
    write_set(path, 5, 4, per_stage=4, seed=2)
    assert oracle_sets.main(["--player", "perfect", "--set", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "perfect on 12 hard 5x4 positions (kept / asked, 95% Wilson)"
    assert [line.split()[0] for line in lines[1:]] == [*STAGES, "all"]
    assert lines[-1].split()[-1] == "12/12"  # exact play keeps every value
    assert oracle_sets.main(["--player", "random", "--set", str(path)]) == 0
    kept = int(capsys.readouterr().out.splitlines()[-1].split()[-1].split("/")[0])
    assert kept < 12


def test_the_command_refuses_a_board_without_a_set_and_a_set_without_a_player() -> None:
    with pytest.raises(SystemExit):
        oracle_sets.main(["--width", "5", "--height", "6", "--player", "uct:10"])
    with pytest.raises(SystemExit):
        oracle_sets.main(["--set", "x.jsonl", "--out", "y.jsonl"])
    with pytest.raises(SystemExit):
        oracle_sets.main(["--player", "no-such-player:3", "--width", "6", "--height", "6"])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--width", "-1"], "4..7 columns x 4..6 rows, got -1x6"),
        (["--per-stage", "0"], "per_stage must be >= 1, got 0"),
    ],
)
def test_the_command_names_a_bad_set_to_make(
    args: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "set.jsonl"
    with pytest.raises(SystemExit) as exit_:
        oracle_sets.main([*args, "--out", str(out)])
    assert exit_.value.code == 2 and message in capsys.readouterr().err
    assert not out.exists()
    with pytest.raises(SystemExit):  # a folder that is not there
        oracle_sets.main(["--width", "4", "--height", "4", "--out", str(out / "x" / "y")])
    assert "No such file or directory" in capsys.readouterr().err
