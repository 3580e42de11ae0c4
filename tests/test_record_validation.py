"""Every file pyaz reads back is checked (issue 74, item 5): damaged summary.json files of
``pyaz-arena paired``, metrics.jsonl records, a run's config.json as the tournament reads it,
and the result tables of the Elo fit give a one-line ValueError naming the file, the line (in
JSONL) and the field; never a traceback, a hang or a wrong figure."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import warnings
from pathlib import Path
from typing import Any

import pytest

from pyaz.cli.arena import main
from pyaz.common import checked_json
from pyaz.common.checked_json import MAX_DEPTH, MAX_INT
from pyaz.common.runlog import RunLog, damaged_lines, read_metrics, read_run_config
from pyaz.eval import paired
from pyaz.eval.elo import counts_from_games, fit_elo
from pyaz.eval.paired import load_summary, paired_difference
from pyaz.eval.tournament import start_state_for
from pyaz.experiments.report import eval_curve

INTEGER = f"an integer from 0 to {MAX_INT}"
GAME_NUMBER = f"an integer from 1 to {MAX_INT}"
SEED = f"an integer from {-MAX_INT} to {MAX_INT}"
SCALAR = "a string, a number, true, false or null"


# --------------------------------------------------------------------------- summary.json


def _summary(a_first: Any = False) -> dict[str, Any]:
    """A two-game match summary as pyaz-arena writes it, from one opening: A loses game 1
    as first (0-1) and wins game 2 as second (0-1); ``a_first`` is game 2's flag."""
    results = [
        {"game": 1, "result": "0-1", "a_first": True, "opening": [3, 4]},
        {"game": 2, "result": "0-1", "a_first": a_first, "opening": [3, 4]},
    ]
    return {
        "a": "x",
        "b": "uct:200",
        "game": "othello",
        "game_options": {"size": 8},
        "seed": 5,
        "opening_plies": 2,
        "results": results,
    }


def _write(folder: Path, summary: dict[str, Any] | str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "summary.json"
    path.write_text(summary if isinstance(summary, str) else json.dumps(summary))
    return path


def _changed(change: dict[str, Any], result: dict[str, Any] | None = None) -> dict[str, Any]:
    summary = {**_summary(), **change}
    if result is not None:
        summary["results"] = [{**summary["results"][0], **result}, summary["results"][1]]
    return summary


def test_a_first_false_as_a_string_no_longer_flips_the_paired_score(tmp_path: Path) -> None:
    baseline = _write(tmp_path / "baseline", {**_summary(), "results": _summary()["results"][:1]})
    correct = load_summary(_write(tmp_path / "correct", _summary(a_first=False)).parent)
    against = [load_summary(baseline.parent)]
    # A scores 0 then 1 on the opening, a mean of 0.5, against the baseline's 0
    assert paired_difference([correct], against).difference == pytest.approx(0.5)
    damaged = _write(tmp_path / "damaged", _summary(a_first="false"))
    with pytest.raises(ValueError) as error:  # read as true before: a score of 0, not 0.5
        paired_difference([load_summary(damaged.parent)], against)
    assert str(error.value) == (
        f"{damaged}: results[1].a_first must be true or false, not the string 'false'"
    )


@pytest.mark.parametrize(
    ("change", "result", "message"),
    [
        ({}, {"a_first": 1}, "results[0].a_first must be true or false, not 1"),
        ({}, {"a_first": None}, "results[0].a_first must be true or false, not null"),
        ({}, {"game": True}, f"results[0].game must be {GAME_NUMBER}, not true"),
        ({}, {"game": 1.0}, f"results[0].game must be {GAME_NUMBER}, not 1.0"),
        ({}, {"game": 0}, f"results[0].game must be {GAME_NUMBER}, not 0"),
        ({}, {"game": 10**30}, f"results[0].game must be {GAME_NUMBER}, not {10**30}"),
        ({}, {"game": "1"}, f"results[0].game must be {GAME_NUMBER}, not the string '1'"),
        ({}, {"opening": {"3": 4}}, "results[0].opening must be a list of integers, not an object"),
        ({}, {"opening": [3, -4]}, f"results[0].opening[1] must be {INTEGER}, not -4"),
        ({}, {"opening": [3, [4]]}, f"results[0].opening[1] must be {INTEGER}, not a list"),
        ({}, {"opening": [3, False]}, f"results[0].opening[1] must be {INTEGER}, not false"),
        ({}, {"result": ["1-0"]}, "game 1 has no result 1-0, 0-1 or 1/2-1/2 (results[0].result "
         "is a list)"),
        ({"seed": "5"}, None, f"seed must be {SEED}, not the string '5'"),
        ({"seed": True}, None, f"seed must be {SEED}, not true"),
        ({"opening_plies": -1}, None, f"opening_plies must be {INTEGER}, not -1"),
        ({"a": 7}, None, "a must be a string of at most 65536 characters, not 7"),
        ({"b": ["uct"]}, None, "b must be a string of at most 65536 characters, not a list"),
        ({"game_options": [8]}, None, "game_options must be an object, not a list"),
        ({"game_options": {"size": {"n": 8}}}, None, f"game_options.size must be {SCALAR}, "
         "not an object"),
        ({"results": {"game": 1}}, None, "not a pyaz-arena match summary (no list of results)"),
        ({"results": [[1]]}, None, "not a pyaz-arena match summary (no list of results)"),
        ({"game": None}, None, "game must be a string of at most 65536 characters, not null"),
    ],
)  # fmt: skip
def test_a_damaged_summary_field_is_named(
    tmp_path: Path, change: dict[str, Any], result: dict[str, Any] | None, message: str
) -> None:
    path = _write(tmp_path, _changed(change, result))
    with pytest.raises(ValueError) as error:
        load_summary(tmp_path)
    assert str(error.value) == f"{path}: {message}"


@pytest.mark.parametrize(
    ("value", "shown"), [("NaN", "NaN"), ("Infinity", "infinity"), ("-Infinity", "infinity")]
)
def test_nan_and_infinity_are_no_game_number(tmp_path: Path, value: str, shown: str) -> None:
    text = json.dumps(_summary()).replace('"game": 1,', f'"game": {value},')
    path = _write(tmp_path, text)
    with pytest.raises(ValueError) as error:
        load_summary(tmp_path)
    assert str(error.value) == f"{path}: results[0].game must be {GAME_NUMBER}, not {shown}"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), f"nests deeper than {MAX_DEPTH} levels"),
        ("[" * 100_000 + "]" * 100_000, f"nests deeper than {MAX_DEPTH} levels"),
        ('{"a": ' + "7" * 5000 + "}", "not JSON pyaz wrote (an integer far too long)"),
        ("[1, 2]", "not a pyaz-arena match summary (no list of results)"),
        ("", "not JSON (Expecting value, line 1)"),
    ],
    ids=["deep", "very-deep", "long-integer", "list", "empty"],
)
def test_a_summary_that_is_no_summary_is_one_line(tmp_path: Path, text: str, message: str) -> None:
    path = _write(tmp_path, text)
    with pytest.raises(ValueError) as error:
        load_summary(tmp_path)
    assert str(error.value) == f"{path}: {message}"


def test_deep_nesting_in_a_field_nobody_reads_is_refused(tmp_path: Path) -> None:
    nested: Any = 1
    for _ in range(MAX_DEPTH):
        nested = [nested]
    path = _write(tmp_path, {**_summary(), "files": nested})
    with pytest.raises(ValueError, match=f"^{path}: nests deeper than {MAX_DEPTH} levels$"):
        load_summary(tmp_path)


def test_a_summary_that_is_not_utf8_or_too_large_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "summary.json"
    path.write_bytes(b'{"a": "caf\xe9"}')
    with pytest.raises(ValueError, match=f"^{path}: not UTF-8 text, so not JSON pyaz wrote$"):
        load_summary(tmp_path)
    _write(tmp_path, _summary())
    monkeypatch.setattr(paired, "MAX_SUMMARY_BYTES", 100)
    with pytest.raises(ValueError, match=f"^{path}: larger than 100 bytes, more than pyaz"):
        load_summary(tmp_path)


def test_a_fifo_or_a_folder_named_summary_json_is_refused_unread(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "summary.json")  # reading it would wait for a writer forever
    message = "not a regular file, so not a file pyaz wrote"
    with pytest.raises(ValueError, match=f"^{tmp_path / 'summary.json'}: {message}$"):
        load_summary(tmp_path)
    (tmp_path / "other" / "summary.json").mkdir(parents=True)
    with pytest.raises(ValueError, match=f"^{tmp_path / 'other' / 'summary.json'}: {message}$"):
        load_summary(tmp_path / "other")


def test_an_in_memory_summary_is_checked_too() -> None:
    summary = {**_summary(a_first="false"), "path": "given"}
    with pytest.raises(ValueError, match=r"^given: results\[1\]\.a_first must be true or false"):
        paired_difference([summary], [_summary()])


def test_paired_command_prints_one_line_and_exits_2_on_a_damaged_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = _write(tmp_path / "good", _summary()).parent
    damaged = _write(tmp_path / "bad", _summary(a_first="false"))
    assert main(["paired", str(damaged.parent), "--against", str(good)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        f"pyaz-arena paired: {damaged}: results[1].a_first must be true or false, "
        "not the string 'false'\n"
    )
    deep = _write(tmp_path / "deep", "[" * 100_000)
    assert main(["paired", str(good), "--against", str(deep.parent)]) == 2
    assert capsys.readouterr().err == f"pyaz-arena paired: {deep}: nests deeper than 32 levels\n"


def test_paired_with_a_damaged_summary_fails_before_the_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    damaged = _write(tmp_path / "bad", _changed({"seed": 1.5}))
    argv = ["random", "random", "--game", "othello", "--size", "4", "--games", "2", "--quiet"]
    assert main([*argv, "--paired-with", str(damaged.parent)]) == 2
    captured = capsys.readouterr()
    assert captured.err == f"pyaz-arena: {damaged}: seed must be {SEED}, not 1.5\n"
    assert "games" not in captured.out


def test_the_console_script_gives_no_traceback_on_a_damaged_summary(tmp_path: Path) -> None:
    script = shutil.which("pyaz-arena")
    if script is None:
        pytest.fail("pyaz-arena is not installed as a console script: pip install -e .")
    good = _write(tmp_path / "good", _summary()).parent
    damaged = _write(tmp_path / "bad", _changed({}, {"game": [1]}))
    done = subprocess.run(
        [script, "paired", str(good), "--against", str(damaged.parent)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr == (
        f"pyaz-arena paired: {damaged}: results[0].game must be {GAME_NUMBER}, not a list\n"
    )


# --------------------------------------------------------------------------- metrics.jsonl


def _metrics(folder: Path, *lines: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "metrics.jsonl"
    path.write_text("".join(line + "\n" for line in lines))
    return path


GOOD = '{"kind": "iteration", "iteration": 1, "loss": 2.5}'
LAST = '{"kind": "iteration", "iteration": 3, "loss": NaN}'


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"kind": "iteration", "iteration": "2"}', f"iteration must be {INTEGER}, "
         "not the string '2'"),
        ('{"kind": "iteration", "iteration": true}', f"iteration must be {INTEGER}, not true"),
        ('{"kind": "iteration", "iteration": NaN}', f"iteration must be {INTEGER}, not NaN"),
        ('{"kind": "iteration", "iteration": -2}', f"iteration must be {INTEGER}, not -2"),
        ('{"kind": "iteration", "step": 2.0}', f"step must be {INTEGER}, not 2.0"),
        ('{"kind": "eval", "win_ratio": "0.5"}', "win_ratio must be a number, "
         "not the string '0.5'"),
        ('{"kind": "eval", "win_ratio": false}', "win_ratio must be a number, not false"),
        ('{"kind": "eval", "opponent": ["uct"]}', f"opponent must be {SCALAR}, not a list"),
        ('{"kind": "eval", "loss": {"v": 1}}', f"loss must be {SCALAR}, not an object"),
        ('{"kind": "eval", "games": 1e400}', f"games must be {INTEGER}, not infinity"),
        ('{"kind": "eval", "epochs": 2.5}', f"epochs must be {INTEGER}, not 2.5"),
        ('{"kind": "eval", "seed": ' + "9" * 20 + "}", f"seed must be {SCALAR}, "
         f"not {'9' * 20}"),
        ('{"kind": 3}', "kind must be a string of at most 65536 characters, not 3"),
        ('{"kind": ""}', "kind must be a non-empty string, not the string ''"),
        ("[1, 2]", "must hold a JSON object, not a list"),
        ('"text"', "must hold a JSON object, not the string 'text'"),
        ("[" * 40 + "]" * 40, f"nests deeper than {MAX_DEPTH} levels"),
        ("[" * 100_000, f"nests deeper than {MAX_DEPTH} levels"),
        ('{"kind": "eval", "games": ' + "7" * 5000 + "}", "not JSON pyaz wrote (an integer "
         "far too long)"),
        ("{broken", "not a JSON object"),
    ],
    ids=lambda value: value[:30].replace("[", "(").replace("]", ")"),
)  # fmt: skip
def test_a_damaged_metrics_line_is_skipped_and_named(
    tmp_path: Path, line: str, message: str
) -> None:
    path = _metrics(tmp_path, GOOD, line, LAST)
    skipped: list[str] = []
    records = read_metrics(tmp_path, skipped)
    assert [r["iteration"] for r in records] == [1, 3]
    assert skipped == [f"{path} line 2: {message}"]
    with pytest.warns(UserWarning) as warned:
        assert read_metrics(tmp_path) == records
    assert [str(w.message) for w in warned] == [f"{path} line 2: {message}: skipping the line"]


def test_valid_records_read_as_before(tmp_path: Path) -> None:
    _metrics(tmp_path, GOOD, '{"kind": "eval", "win_ratio": null, "note": "ok", "seed": -4}')
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        records = read_metrics(tmp_path)
    assert records == [
        {"kind": "iteration", "iteration": 1, "loss": 2.5},
        {"kind": "eval", "win_ratio": None, "note": "ok", "seed": -4},
    ]


def test_a_line_cut_short_at_the_end_is_still_dropped_silently(tmp_path: Path) -> None:
    path = _metrics(tmp_path, GOOD)
    with path.open("a") as file:
        file.write('{"kind": "iteration", "iteration": 2, "lo')  # killed mid-write
    skipped: list[str] = []
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert [r["iteration"] for r in read_metrics(tmp_path)] == [1]
    assert read_metrics(tmp_path, skipped) == [{"kind": "iteration", "iteration": 1, "loss": 2.5}]
    assert skipped == [f"{path} line 2: cut short (the run was stopped while writing it)"]


def test_a_character_cut_in_two_on_the_last_line_is_cut_short(tmp_path: Path) -> None:
    path = _metrics(tmp_path, GOOD)
    with path.open("ab") as file:
        file.write('{"kind": "note", "text": "café'.encode()[:-1])  # killed mid-character
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert len(read_metrics(tmp_path)) == 1


def test_a_damaged_record_on_the_last_line_is_no_cut_short_one(tmp_path: Path) -> None:
    path = _metrics(tmp_path, GOOD, '{"kind": "iteration", "iteration": "2"}')
    with pytest.warns(UserWarning, match=f"^{path} line 2: iteration must be"):
        assert len(read_metrics(tmp_path)) == 1


def test_damaged_lines_names_the_field(tmp_path: Path) -> None:
    path = _metrics(tmp_path, GOOD, '{"kind": "eval", "iteration": 2, "win_ratio": "high"}')
    assert damaged_lines(tmp_path) == [
        f"{path}: dropped line 2, a 'eval' record of iteration 2 (win_ratio must be a number, "
        "not the string 'high'): "
        + repr('{"kind": "eval", "iteration": 2, "win_ratio": "high"}'[:60])
    ]


def test_opening_a_run_log_survives_a_deeply_nested_cut_short_line(tmp_path: Path) -> None:
    path = _metrics(tmp_path, GOOD)
    with path.open("a") as file:
        file.write("[" * 100_000)  # no newline: the tail a killed write leaves
    with RunLog(tmp_path, tensorboard=False) as log:
        log.log({"kind": "iteration", "iteration": 2})
    assert [r["iteration"] for r in read_metrics(tmp_path)] == [1, 2]


def test_a_fifo_named_metrics_jsonl_or_config_json_is_refused_unread(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "metrics.jsonl")
    os.mkfifo(tmp_path / "config.json")
    message = "not a regular file, so not a file pyaz wrote"
    with pytest.raises(ValueError, match=f"^{tmp_path / 'metrics.jsonl'}: {message}$"):
        read_metrics(tmp_path)
    with pytest.raises(ValueError, match=f"^{tmp_path / 'config.json'}: {message}$"):
        read_run_config(tmp_path)


def test_config_json_nested_too_deep_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "config.json").write_text("[" * 100_000)
    with pytest.raises(ValueError, match=f"^{tmp_path / 'config.json'}: nests deeper than 32"):
        read_run_config(tmp_path)


def test_an_eval_curve_leaves_out_records_without_the_value(tmp_path: Path) -> None:
    _metrics(
        tmp_path,
        '{"kind": "eval", "elapsed_s": 1.0, "win_ratio": 0.25}',
        '{"kind": "eval", "elapsed_s": 2.0, "win_ratio": null}',
        '{"kind": "eval", "elapsed_s": 3.0}',
    )
    curve = eval_curve(read_metrics(tmp_path))
    assert (curve.x.tolist(), curve.y.tolist()) == ([1.0], [0.25])


def test_too_large_a_metrics_file_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pyaz.common import runlog

    path = _metrics(tmp_path, GOOD, GOOD)
    monkeypatch.setattr(runlog, "MAX_METRICS_BYTES", len(GOOD) + 1)
    with pytest.raises(ValueError, match=f"^{path}: larger than {len(GOOD) + 1} bytes"):
        read_metrics(tmp_path)


# --------------------------------------------------------------------------- config.json, Elo


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"game_options": {}}, "game is missing"),
        ({"game": ["othello"]}, "game must be a string of at most 65536 characters, not a list"),
        ({"game": "othello", "game_options": {"size": [4]}}, f"game_options.size must be "
         f"{SCALAR}, not a list"),
        ({"game": "othello", "game_options": "size=4"}, "game_options must be an object, "
         "not the string 'size=4'"),
    ],
)  # fmt: skip
def test_the_tournament_names_the_damaged_field_of_a_run_config(
    tmp_path: Path, config: dict[str, Any], message: str
) -> None:
    (tmp_path / "config.json").write_text(json.dumps(config))
    with pytest.raises(ValueError) as error:
        start_state_for([tmp_path / "checkpoint.pt"])
    assert str(error.value) == f"{tmp_path / 'config.json'}: {message}"


def test_results_that_are_booleans_or_strings_are_no_game_counts() -> None:
    with pytest.raises(
        ValueError, match=r"^result must be 1, 0\.5 or 0 for the first player, got True"
    ):
        counts_from_games([("a", "b", True)])
    as_read: Any = {("a", "b"): ("3", 0, 1)}  # as a file might hold them
    with pytest.raises(ValueError, match=r"game counts must be numbers, got \('3', 0, 1\)"):
        fit_elo(as_read)
    with pytest.raises(ValueError, match=r"game counts must be numbers, got \(True, 0, 1\)"):
        fit_elo({("a", "b"): (True, 0, 1)})
    as_read = {("a", "b"): "301"}
    with pytest.raises(ValueError, match=r"expected \(wins, draws, losses\), got '301'"):
        fit_elo(as_read)
    assert counts_from_games([("a", "b", 1), ("a", "b", 0.5)]) == {("a", "b"): [1, 1, 0]}


def test_described_values_stay_short() -> None:
    assert checked_json.described("x" * 1000) == f"the string {'x' * 40!r}..."
    assert checked_json.described(10**50) == "an integer of more than 40 digits"
