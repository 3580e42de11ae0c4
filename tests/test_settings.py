"""One declaration per setting (issue 26, item 4): pyaz.common.settings, the options of
pyaz-selfplay generated from TrainConfig and CurlingConfig, the curling mode, the options table
of docs/training.md."""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from pyaz.cli import selfplay
from pyaz.common.settings import (
    add_options,
    check_settings,
    declarations,
    flag,
    given_values,
    int_list,
    make_settings,
    markdown_table,
    setting,
    switch,
)
from pyaz.experiments.seed001 import SYMBOLS
from pyaz.methods.alphazero.config import TrainConfig
from pyaz.methods.kr_dl_uct.config import CurlingConfig

ROOT = Path(__file__).resolve().parents[1]


@dataclasses.dataclass
class Toy:
    count: int = setting(3, symbol="n", low=1, high=9, help="how many")
    rate: float = setting(0.5, low=0.0, high=1.0, help="a share")
    rule: str = setting("a", choices=("a", "b"), help="which | rule")
    steps: list[int] = setting([2], low=1, help="a schedule")  # noqa: RUF009
    size: int | None = setting(None, low=0, help="none: automatic")
    on: bool = setting(False, help="a switch")
    big: int = setting(0, low=0, help="up to the C++ core's 2**31 - 1")


@pytest.mark.parametrize(
    ("changes", "error", "message"),
    [
        ({"count": 0}, ValueError, "count must be >= 1, got 0"),
        ({"count": 10}, ValueError, "count must be in 1..9, got 10"),
        ({"big": 2**31}, ValueError, "big must be in 0..2147483647, got 2147483648"),
        ({"rate": 1.5}, ValueError, "rate must be in [0, 1], got 1.5"),
        ({"rate": float("nan")}, ValueError, "rate must be in [0, 1], got nan"),
        ({"rule": "c"}, ValueError, "rule must be one of a, b, got 'c'"),
        ({"steps": [2, 0]}, ValueError, "steps must hold integers in 1..2147483647, got [2, 0]"),
        ({"steps": [True]}, ValueError, "steps must hold integers in 1..2147483647, got [True]"),
        ({"size": -1}, ValueError, "size must be >= 0, got -1"),
        ({"count": True}, TypeError, "count must be int, got True"),
        ({"count": 2.0}, TypeError, "count must be int, got float 2.0"),
        ({"size": "7"}, TypeError, "size must be int | None, got str '7'"),
        ({"on": 1}, TypeError, "on must be bool, got int 1"),
        ({"steps": "2,3"}, TypeError, "steps must be list, got str '2,3'"),
    ],
)
def test_values_out_of_their_declared_range_are_one_line_errors(
    changes: dict[str, Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error) as raised:
        check_settings(Toy(**changes))
    assert str(raised.value) == message


def test_values_in_range_pass_and_list_defaults_are_not_shared() -> None:
    check_settings(Toy(count=9, rate=0, size=0, steps=[], on=True, big=2**31 - 1))
    first, second = Toy(), Toy()
    first.steps.append(5)
    assert second.steps == [2]
    kinds = {name: kind for name, (kind, _) in declarations(Toy).items()}
    assert kinds == {
        "count": "int",
        "rate": "float",
        "rule": "str",
        "steps": "list",
        "size": "int",
        "on": "bool",
        "big": "int",
    }


def test_options_are_generated_with_types_and_help() -> None:
    parser = argparse.ArgumentParser()
    added = add_options(parser, Toy())
    assert sorted(added) == sorted(declarations(Toy))
    args = parser.parse_args(["--count", "4", "--rate", "0.25", "--steps", "1,2", "--on", "yes"])
    assert (args.count, args.rate, args.steps, args.on, args.rule, args.size) == (
        4,
        0.25,
        [1, 2],
        True,
        None,  # not given: the dataclass default applies
        None,
    )
    assert added["count"].help == "n: how many (1..9; default 3)"
    assert added["rate"].help == "a share ([0, 1]; default 0.5)"
    assert added["rule"].help == "which | rule (a, b; default a)"
    assert added["steps"].help == "a schedule (integers >= 1; default 2)"
    assert added["on"].help == "a switch (on, off; default off)"
    assert added["size"].help == "none: automatic (>= 0, none; default none)"
    # an optional setting takes none: given (over a preset's value), and None
    args = parser.parse_args(["--size", "None", "--count", "2"])
    assert given_values(args, ["size", "count", "rate"]) == {"size": None, "count": 2}
    assert given_values(parser.parse_args(["--size", "5"]), ["size"]) == {"size": 5}
    with pytest.raises(SystemExit):
        parser.parse_args(["--count", "none"])  # count is no optional setting
    other = argparse.ArgumentParser()
    shared = {"count": other.add_argument("--count", type=int, help="the other's")}
    assert "count" not in add_options(other, Toy(), shared, "toy")
    assert shared["count"].help == "the other's; toy: n: how many (1..9; default 3)"


def test_the_markdown_table_of_a_declaration() -> None:
    table = markdown_table(Toy(steps=[]))
    assert table.splitlines()[:5] == [
        "| Option | Symbol | Values | Default | Meaning |",
        "|---|---|---|---|---|",
        "| `--count` | n | 1..9 | 3 | how many |",
        "| `--rate` |  | [0, 1] | 0.5 | a share |",
        "| `--rule` |  | a, b | a | which \\| rule |",
    ]
    assert "| `--steps` |  | integers >= 1 | none | a schedule |" in table
    assert "| `--size` |  | >= 0, none | none | none: automatic |" in table


def test_text_parsers_and_unknown_settings() -> None:
    assert int_list("350, 500,750") == [350, 500, 750] and int_list("none") == []
    with pytest.raises(argparse.ArgumentTypeError, match="expected integers"):
        int_list("4,x")
    assert switch("ON") is True and switch("0") is False
    with pytest.raises(argparse.ArgumentTypeError, match="expected on or off, got 'maybe'"):
        switch("maybe")
    assert make_settings(Toy, {"count": 2}).count == 2
    with pytest.raises(ValueError, match=r"^unknown toy settings \['cnt'\]; known: big, count"):
        make_settings(Toy, {"cnt": 2}, "toy settings")


# --------------------------------------------------------------------------- the two configs


@pytest.mark.parametrize("config", [TrainConfig, CurlingConfig])
def test_every_setting_declares_its_help_and_values(config: type[Any]) -> None:
    declared = declarations(config)
    assert list(declared) == [item.name for item in dataclasses.fields(config)]
    for name, (kind, spec) in declared.items():
        assert len(spec.help) > 8, name
        has_range = spec.low is not None and (kind != "float" or spec.high is not None)
        assert has_range or spec.choices or spec.accepts or kind == "bool", name
        if spec.choices:
            assert getattr(config(), name) in spec.choices, name
    check_settings(config())  # the defaults are in range


def test_the_paper_symbols_are_declared() -> None:
    symbols = {name: spec.symbol for name, (_, spec) in declarations(TrainConfig).items()}
    table_1 = {
        "iterations": "I",
        "episodes": "E",
        "sampling_plies": "T'",
        "simulations": "m",
        "c_puct": "c",
        "retrain_iterations": "rs",
        "epochs": "ep",
        "batch_size": "bs",
        "lr": "lr",
        "dropout": "d",
        "arena_games": "n",
        "update_threshold": "u",
    }
    assert {name: symbols[name] for name in table_1} == table_1
    assert table_1 == SYMBOLS  # the sweep's table headers come from the declarations


def test_help_all_lists_every_setting_of_both_modes() -> None:
    text = selfplay.build_parser(full=True).format_help()
    for config in (TrainConfig, CurlingConfig):
        for name, (_, spec) in declarations(config).items():
            options = spec.option.replace(",", " ").split() if spec.option else [flag(name)]
            for option in (word for word in options if word.startswith("--")):
                assert f"{option} " in text or f"{option}\n" in text, option
    words = " ".join(text.split())
    assert "curling mode (--game curling)" in words
    assert "m: MCTS simulations per move (25/100/200) (1..1000000; default 100); curling:" in words


def test_the_training_page_table_is_the_rendered_one() -> None:
    path = ROOT / "scripts" / "options_table.py"
    spec = importlib.util.spec_from_file_location("options_table", path)
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    page = (ROOT / "docs" / "training.md").read_text()
    assert script.with_table(page) == page, "run python scripts/options_table.py"
    assert markdown_table(TrainConfig()) in page and markdown_table(CurlingConfig()) in page
    with pytest.raises(ValueError, match=r"training\.md needs one"):
        script.with_table("no markers")


# --------------------------------------------------------------------------- the curling mode


def _error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert selfplay.main(argv) == 2
    return capsys.readouterr().err.strip()


def test_each_mode_refuses_the_other_modes_options(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = ["--out", str(tmp_path / "run")]
    curling = ["--game", "curling", *out]
    assert _error([*curling, "--episodes", "3", "--size", "6"], capsys) == (
        "pyaz-selfplay: --episodes, --size: does not apply to curling"
    )
    assert _error([*curling, "--ray", "--no-augment"], capsys) == (
        "pyaz-selfplay: --no-augment, --ray: does not apply to curling"
    )
    assert _error([*out, "--game", "connect_four", "--channels", "0"], capsys) == (
        "pyaz-selfplay: --channels: applies only to --game curling"
    )
    assert not (tmp_path / "run").exists()


def test_none_on_the_command_line_resets_a_presets_optional_setting(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    preset = tmp_path / "gomoku.toml"
    preset.write_text('game = "gomoku"\nsize = 9\nsolver = false\nopening_spread = 3\nblocks = 3\n')
    words = ["--out", "x", "--preset", str(preset)]
    config = selfplay.settings_from(selfplay.build_parser().parse_args(words))
    assert (config.solver, config.opening_spread, config.blocks) == (False, 3, 3)
    none = [*words, "--solver", "none", "--opening-spread", "none", "--blocks", "NONE"]
    config = selfplay.settings_from(selfplay.build_parser().parse_args(none))
    assert (config.solver, config.opening_spread, config.blocks) == (None, None, None)
    assert config.search_used == ("gumbel", True)  # none: the game's choice
    with pytest.raises(SystemExit):
        selfplay.build_parser().parse_args([*words, "--solver", "maybe"])
    assert "argument --solver: expected on or off, got 'maybe'" in capsys.readouterr().err


def test_a_resume_compares_auto_and_none_as_what_they_choose(tmp_path: Path) -> None:
    run = tmp_path / "run"
    run.mkdir()
    saved = TrainConfig(game="gomoku", game_options={"size": 9}).resolved()
    assert (saved.search_rule, saved.solver) == ("gumbel", True)
    (run / "config.json").write_text(json.dumps(dataclasses.asdict(saved)))
    resume = ["--out", str(run), "--resume"]
    same = [*resume, "--search-rule", "auto", "--solver", "none", "--max-minutes", "9"]
    config = selfplay.settings_from(selfplay.build_parser().parse_args(same))
    assert (config.search_rule, config.solver, config.max_minutes) == ("gumbel", True, 9.0)
    other = selfplay.build_parser().parse_args([*resume, "--solver", "off"])
    with pytest.raises(ValueError, match=r"other settings.*: solver True -> False \("):
        selfplay.settings_from(other)


def test_the_game_of_a_preset_or_the_command_line_picks_the_mode(tmp_path: Path) -> None:
    preset = tmp_path / "curling.toml"
    preset.write_text('game = "curling"\nends = 3\nsimulations = 12\n')
    args = selfplay.build_parser().parse_args(["--out", "x", "--preset", str(preset)])
    assert selfplay.game_of(args) == "curling"
    config = selfplay.curling_settings_from(args)
    assert (config.ends, config.simulations, config.games) == (3, 12, CurlingConfig.games)
    words = ["--out", "x", "--game", "curling", "--simulations", "7", "--workers", "2"]
    config = selfplay.curling_settings_from(selfplay.build_parser().parse_args(words))
    assert (config.simulations, config.workers, config.lr) == (7, 2, 0.01)
    board = selfplay.build_parser().parse_args(["--out", "x", "--simulations", "7"])
    assert selfplay.game_of(board) == "othello" and selfplay.settings_from(board).simulations == 7
    preset.write_text("channels = 2000\n")  # no game: the board games, which have no channels
    args = selfplay.build_parser().parse_args(["--out", "x", "--preset", str(preset)])
    with pytest.raises(ValueError, match=r"unknown settings \['channels'\]"):
        selfplay.settings_from(args)
