"""The techniques registry (issue 75, item 3): every TrainConfig field belongs to the core or to
exactly one technique, each technique's values are valid settings, its hooks name real code, and
``switched_on`` gives its values (copies) and names an unknown technique."""

from __future__ import annotations

import dataclasses
import importlib
from pathlib import Path

import pytest

from pyaz.cli import selfplay
from pyaz.methods.alphazero.config import TrainConfig
from pyaz.train.techniques import CORE, TECHNIQUES, markdown_tables, owner, switched_on

DOCS = Path(__file__).resolve().parents[1] / "docs"
FIELDS = [item.name for item in dataclasses.fields(TrainConfig)]


def test_every_field_belongs_to_the_core_or_to_exactly_one_technique() -> None:
    owned = [field for technique in TECHNIQUES.values() for field in technique.settings]
    assert sorted(CORE + tuple(owned)) == sorted(FIELDS)
    assert len(set(owned)) == len(owned) and not set(owned) & set(CORE)
    assert owner("full_search_prob") == "playout-cap" and owner("simulations") == "core"
    with pytest.raises(ValueError, match="'nonsense'"):
        owner("nonsense")


@pytest.mark.parametrize("name", list(TECHNIQUES))
def test_a_technique_is_named_valued_hooked_and_linked(name: str) -> None:
    technique = TECHNIQUES[name]
    assert technique.name == name == name.lower() and " " not in name
    assert set(technique.switches_on) <= set(FIELDS) and technique.switches_on
    config = TrainConfig(**switched_on([name]))
    assert {k: getattr(config, k) for k in technique.switches_on} == technique.switches_on
    for hook in technique.hooks:
        module, qualified = hook.split(":")
        target = importlib.import_module(module)
        for part in qualified.split("."):
            target = getattr(target, part)
    assert (DOCS / technique.link.split("#")[0]).is_file()


def test_switched_on_merges_copies_and_names_an_unknown_technique() -> None:
    values = switched_on(["playout-cap", "window-growth"])
    assert values == {"full_search_prob": 0.25, "cheap_simulations": 0, "window_growth": [4, 2]}
    values["window_growth"].append(9)
    assert TECHNIQUES["window-growth"].switches_on["window_growth"] == [4, 2]
    with pytest.raises(ValueError, match="'nope'"):
        switched_on(["nope"])


# -- the command line -------------------------------------------------------------------------


def test_the_help_shows_at_most_40_options_and_help_all_every_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        selfplay.main(["--help"])
    shown = [line for line in capsys.readouterr().out.splitlines() if line.startswith("  -")]
    assert 30 <= len(shown) <= 40
    assert not any("--full-search-prob" in line or "--ray" in line for line in shown)
    with pytest.raises(SystemExit) as done:
        selfplay.main(["--help-all"])
    assert done.value.code == 0
    every = [line for line in capsys.readouterr().out.splitlines() if line.startswith("  -")]
    assert len(every) > 100 and any("--full-search-prob" in line for line in every)


def test_a_technique_switches_its_settings_on_and_its_flags_still_win() -> None:
    parser = selfplay.build_parser()
    args = parser.parse_args(["--out", "x", "--technique", "playout-cap"])
    config = selfplay.settings_from(args)
    assert (config.full_search_prob, config.cheap_simulations) == (0.25, 0)
    args = parser.parse_args(
        ["--out", "x", "--technique", "playout-cap", "--full-search-prob", "0.5"]
    )
    assert selfplay.settings_from(args).full_search_prob == 0.5
    assert selfplay.settings_from(parser.parse_args(["--out", "x"])).full_search_prob == 1.0
    with pytest.raises(SystemExit):
        parser.parse_args(["--out", "x", "--technique", "no-such-thing"])


def test_help_technique_lists_them_and_shows_one(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        selfplay.main(["--help-technique"])
    assert done.value.code == 0
    listing = capsys.readouterr().out
    assert all(f"  {name} " in listing for name in TECHNIQUES)
    with pytest.raises(SystemExit):
        selfplay.main(["--help-technique", "playout-cap"])
    one = capsys.readouterr().out
    assert "--technique playout-cap sets: --full-search-prob 0.25 --cheap-simulations 0" in one
    assert "--full-search-prob: KataGo's playout cap randomisation" in one
    with pytest.raises(SystemExit):
        selfplay.main(["--help-technique", "nonsense"])
    assert "unknown technique 'nonsense'" in capsys.readouterr().err


def test_the_docs_table_is_the_registrys() -> None:
    text = (Path(__file__).resolve().parents[1] / "docs" / "training.md").read_text()
    start = text.index("<!-- techniques-table")
    table = text[text.index("\n", start) + 1 : text.index("<!-- /techniques-table -->")]
    assert table == markdown_tables()
