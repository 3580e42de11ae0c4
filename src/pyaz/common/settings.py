"""One declaration per setting (issue 26, item 4): a dataclass field made with :func:`setting`
carries its help text, the paper's symbol and its range, choices or accepted values; from the
fields come the command-line options (:func:`add_options`), the checks of a value's type and
range (:func:`check_settings`, for the command line and presets alike) and the README's table
of options (:func:`markdown_table`). Nothing else declares them again."""

from __future__ import annotations

import argparse
import copy
import dataclasses
import math
import os
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

from pyaz.common.shown import cut

INT_MOST = 2**31 - 1
"""The largest int setting unless one declares ``high``: the C++ core counts in 32 bits."""
TYPES: dict[str, tuple[type, ...]] = {"int": (int,), "float": (int, float), "str": (str,)}
TYPES.update({"bool": (bool,), "list": (list,), "dict": (dict,)})
Config = TypeVar("Config")


@dataclasses.dataclass(frozen=True)
class Declared:
    """What :func:`setting` declares: ``low``/``high`` bound numbers (both inclusive; for a list,
    each element), ``choices`` the allowed strings, ``accepts`` says in words what a setting
    checked elsewhere takes, ``option`` names a hand-written option (none is generated)."""

    help: str
    symbol: str = ""
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()
    accepts: str = ""
    option: str = ""


def setting(
    default: Any,
    *,
    help: str,
    symbol: str = "",
    low: float | None = None,
    high: float | None = None,
    choices: tuple[str, ...] = (),
    accepts: str = "",
    option: str = "",
) -> Any:
    """A dataclass field with ``default`` (a list or dict is copied for each instance) and its
    declaration (:class:`Declared`) as metadata."""
    metadata = {"setting": Declared(help, symbol, low, high, tuple(choices), accepts, option)}
    if isinstance(default, list | dict):
        return dataclasses.field(default_factory=lambda: copy.deepcopy(default), metadata=metadata)
    return dataclasses.field(default=default, metadata=metadata)


def declarations(config: Any) -> dict[str, tuple[str, Declared]]:
    """name -> (kind, declaration) of the declared fields of a dataclass (type or instance),
    in field order; kind is int, float, str, bool, list or dict (``int | None`` is int)."""
    return {
        item.name: (str(item.type).split("[")[0].split(" ")[0], item.metadata["setting"])
        for item in dataclasses.fields(config)
        if "setting" in item.metadata
    }


def flag(name: str) -> str:
    """``"batch_size"`` -> ``"--batch-size"``."""
    return "--" + name.replace("_", "-")


def check_settings(config: Any) -> None:
    """TypeError naming the setting when a value has the wrong type, ValueError naming it and
    the value when it is out of its declared range or choices (None passes where the type says
    ``| None``); NaN is out of every range."""
    optional = _optional(config)
    for name, (kind, spec) in declarations(config).items():
        value, low, high = getattr(config, name), spec.low, spec.high
        if value is None and optional[name]:
            continue
        text = kind + (" | None" if optional[name] else "")
        if isinstance(value, bool) and kind != "bool":
            raise TypeError(f"{name} must be {text}, got {value!r}")
        if not _fits(value, kind):
            raise TypeError(f"{name} must be {text}, got {type(value).__name__} {value!r}")
        most = int(high if high is not None else INT_MOST)
        if spec.choices and value not in spec.choices:
            known = ", ".join(spec.choices)
            raise ValueError(f"{name} must be one of {known}, got {value!r}")
        if low is None:
            continue
        if kind == "int" and value < low:
            raise ValueError(f"{name} must be >= {_number(low)}, got {value}")
        if kind == "int" and value > most:
            raise ValueError(f"{name} must be in {_number(low)}..{most}, got {value}")
        if kind == "float" and not low <= float(value) <= (math.inf if high is None else high):
            raise ValueError(f"{name} must be in {range_text(kind, spec)}, got {float(value)}")
        if kind == "list" and any(type(n) is not int or not low <= n <= most for n in value):
            raise ValueError(f"{name} must hold integers in {_number(low)}..{most}, got {value}")


def _fits(value: Any, kind: str) -> bool:
    return isinstance(value, TYPES.get(kind, (object,)))


def make_settings(cls: type[Config], values: Mapping[str, Any], what: str = "settings") -> Config:
    """``cls(**values)``; ValueError naming the keys that are no field of ``cls``."""
    known = [item.name for item in dataclasses.fields(cls)]  # type: ignore[arg-type]
    unknown = sorted(set(values) - set(known))
    if unknown:
        raise ValueError(f"unknown {what} {unknown}; known: {', '.join(sorted(known))}")
    return cls(**values)


def refuse_saved_engines(
    path: str | os.PathLike[str],
    saved: Mapping[str, Any],
    given: Mapping[str, Any],
    starts_process: Callable[[str], bool],
    command_line: bool = True,
) -> None:
    """A one-line ValueError naming the setting and ``path`` (the file ``saved`` was read
    from) for the first saved setting whose value would start a process (``starts_process``:
    an external engine's player spec) unless ``given`` (what the person asked for this time:
    the command line, or ``from_folder``'s arguments when ``command_line`` is False) holds the
    same value. Saved settings are data, never a command to run; this starts nothing."""
    for name, value in saved.items():
        if not isinstance(value, str) or not starts_process(value) or given.get(name) == value:
            continue
        shown = cut(value, 200, quote=True)
        again = f"pass {name}={shown}"
        if command_line:
            again = f"repeat {flag(name)} {shown} on the command line"
        raise ValueError(
            f"{path}: {name} {shown} starts an external engine, and saved settings never "
            f"start a process: {again} to allow it"
        )


def int_list(text: str) -> list[int]:
    """``"350,500,750"`` -> [350, 500, 750]; ``"none"`` or ``""`` -> []."""
    try:
        parts = [] if text.strip().lower() == "none" else text.split(",")
        return [int(part) for part in parts if part.strip()]
    except ValueError:
        message = f"expected integers separated by commas, got {text!r}"
        raise argparse.ArgumentTypeError(message) from None


def switch(text: str) -> bool:
    """``"on"``/``"off"`` (or true/false, yes/no, 1/0) -> True/False."""
    words = {"on": True, "true": True, "yes": True, "1": True}
    words.update({"off": False, "false": False, "no": False, "0": False})
    try:
        return words[text.strip().lower()]
    except KeyError:
        raise argparse.ArgumentTypeError(f"expected on or off, got {text!r}") from None


PARSERS: dict[str, Any] = {"int": int, "float": float, "str": str, "bool": switch, "list": int_list}


class _NoneGiven:
    """What an optional setting's option parses ``none`` to: given, and None (unlike an option
    not given at all, which argparse leaves None). :func:`given_values` turns it into None."""

    def __repr__(self) -> str:
        return "none"


NONE_GIVEN: Any = _NoneGiven()


def _or_none(parse: Any) -> Any:
    """``parse`` that also takes ``none`` (any case), as :data:`NONE_GIVEN`."""

    def parse_or_none(text: str) -> Any:
        return NONE_GIVEN if text.strip().lower() == "none" else parse(text)

    parse_or_none.__name__ = getattr(parse, "__name__", "value")  # argparse names it in errors
    return parse_or_none


def given_values(args: argparse.Namespace, names: Iterable[str]) -> dict[str, Any]:
    """name -> value of the options of ``names`` given on the command line (argparse's None:
    not given), an optional setting's ``none`` as None: so that ``--solver none`` sets the
    setting back to none over a preset's value."""
    values = {name: getattr(args, name) for name in names}
    return {
        name: None if value is NONE_GIVEN else value
        for name, value in values.items()
        if value is not None
    }


def _optional(config: Any) -> dict[str, bool]:
    """name -> whether the field's type admits None (``int | None``: ``none`` is a value)."""
    return {item.name: "None" in str(item.type) for item in dataclasses.fields(config)}


def range_text(kind: str, spec: Declared, optional: bool = False) -> str:
    """The values a setting takes, in words: ``"1..64"``, ``"[0, 1]"``, ``"a, b"``, ...; an
    ``optional`` one's (its type admits None) end with ``none``."""
    text = _values_text(kind, spec)
    return f"{text}, none" if optional and text else "none" if optional else text


def _values_text(kind: str, spec: Declared) -> str:
    low, high = spec.low, spec.high
    if spec.choices or spec.accepts or kind == "bool":
        return spec.accepts or ", ".join(spec.choices) or "on, off"
    if low is None:
        return ""
    if kind == "float":
        return f"[{low:g}, {math.inf if high is None else high:g}]"
    numbers = f"{_number(low)}..{_number(high)}" if high is not None else f">= {_number(low)}"
    return f"integers {numbers}" if kind == "list" else numbers


def _number(value: float) -> str:
    return str(value) if isinstance(value, int) else f"{value:g}"


def value_text(value: Any) -> str:
    """A default as the command line writes it: on/off, comma lists, none."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, dict):
        value = [f"{key}={item}" for key, item in value.items()]
    if isinstance(value, list):
        return ",".join(map(str, value)) or "none"
    return "none" if value is None else str(value)


def add_options(
    group: Any, config: Any, shared: Mapping[str, argparse.Action] = {}, label: str = ""
) -> dict[str, argparse.Action]:
    """Adds an option (``--batch-size``, default None: not given) for every declared field of
    ``config`` (an instance: its values are the defaults shown) that has no hand-written option;
    a field whose name is in ``shared`` adds ``"; LABEL: its help"`` to that option instead.
    Help: ``"m: MCTS simulations per move (1..1000000; default 100)"``. Returns the options
    added, by field name."""
    added: dict[str, argparse.Action] = {}
    optional = _optional(config)
    for name, (kind, spec) in declarations(config).items():
        if spec.option:
            continue
        values = "" if spec.accepts else range_text(kind, spec, optional[name])
        default = ("; " if values else "") + f"default {value_text(getattr(config, name))}"
        symbol = f"{spec.symbol}: " if spec.symbol else ""
        text = f"{symbol}{spec.help} ({values}{default})".replace("%", "%%")
        if name in shared:
            shared[name].help = f"{shared[name].help}; {label}: {text}"
            continue
        parse = _or_none(PARSERS[kind]) if optional[name] else PARSERS[kind]
        added[name] = group.add_argument(flag(name), type=parse, help=text)
    return added


def markdown_table(config: Any) -> str:
    """The Markdown table of the declared settings of ``config`` (an instance)."""
    rows = ["| Option | Symbol | Values | Default | Meaning |", "|---|---|---|---|---|"]
    optional = _optional(config)
    for name, (kind, spec) in declarations(config).items():
        value = value_text(getattr(config, name))
        values = range_text(kind, spec, optional[name] and not spec.option)
        cells = (f"`{spec.option or flag(name)}`", spec.symbol, values, value)
        rows.append("| " + " | ".join(c.replace("|", "\\|") for c in (*cells, spec.help)) + " |")
    return "\n".join(rows) + "\n"
