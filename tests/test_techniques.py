"""The techniques registry (issue 75, item 3): every TrainConfig field belongs to the core or to
exactly one technique, each technique's values are valid settings, its hooks name real code, and
``switched_on`` gives its values (copies) and names an unknown technique."""

from __future__ import annotations

import dataclasses
import importlib
from pathlib import Path

import pytest

from pyaz.train.config import TrainConfig
from pyaz.train.techniques import CORE, TECHNIQUES, owner, switched_on

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
