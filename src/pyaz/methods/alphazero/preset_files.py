"""Reading training presets: the TOML files shipped in :mod:`pyaz.methods.alphazero.presets` (by
name) or any TOML file (by path), whose keys are :class:`~pyaz.methods.alphazero.config.TrainConfig`
fields (and the game
options ``size``, ``width``, ``height``, ``line_length``, ... at the top level)."""

from __future__ import annotations

import dataclasses
import os
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

from pyaz.common.settings import make_settings
from pyaz.games import GAMES
from pyaz.methods.alphazero.config import TrainConfig

__all__ = ["load_preset", "preset_names", "train_config"]


def preset_names() -> list[str]:
    """The names of the shipped presets (file names without ``.toml``)."""
    folder = resources.files("pyaz.methods.alphazero.presets")
    return sorted(p.name[: -len(".toml")] for p in folder.iterdir() if p.name.endswith(".toml"))


def load_preset(name_or_path: str | os.PathLike[str]) -> dict[str, Any]:
    """The settings of a shipped preset (``"reversi8-curriculum"``) or of a TOML file.

    ValueError names the known presets when ``name_or_path`` is neither; a file that cannot be
    read, is not UTF-8 or is not valid TOML is a one-line ValueError naming the file and the
    problem. The values are checked later, as settings (:meth:`TrainConfig.validate`).
    """
    path = Path(name_or_path)
    if path.suffix != ".toml" or not path.is_file():
        name = path.name.removesuffix(".toml")
        if name not in preset_names():
            known = ", ".join(preset_names())
            raise ValueError(
                f"no preset file or shipped preset {str(name_or_path)!r}; shipped: {known}"
            )
        text = (
            resources.files("pyaz.methods.alphazero.presets").joinpath(f"{name}.toml").read_text()
        )
        source = f"preset {name}"
    else:
        source = str(path)
        try:
            text = path.read_bytes().decode("utf-8")
        except UnicodeDecodeError as error:
            raise ValueError(
                f"{source}: not a UTF-8 text file (byte {error.start}: "
                f"{error.object[error.start : error.start + 1]!r})"
            ) from None
        except OSError as error:
            raise ValueError(f"{source}: cannot read it ({error.strerror or error})") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ValueError(f"{source}: not valid TOML ({error})") from None


def train_config(settings: dict[str, Any]) -> TrainConfig:
    """A :class:`~pyaz.methods.alphazero.config.TrainConfig` from flat settings (a preset's, maybe
    with overrides): keys naming a game option (``size``, ``width``, ``komi``, ...) go into
    ``game_options`` (with any ``game_options`` table); the rest must be ``TrainConfig`` fields
    (ValueError naming the unknown ones). Its values are checked by :meth:`TrainConfig.validate`,
    against the ranges declared with the fields."""
    values = dict(settings)
    game_options = values.pop("game_options", {})
    if not isinstance(game_options, dict):
        raise TypeError(f"game_options must be a table of game options, got {game_options!r}")
    game_options = dict(game_options)
    option_names = {name for spec in GAMES.values() for name in spec.options}
    fields = {f.name for f in dataclasses.fields(TrainConfig)}
    for key in [key for key in values if key in option_names and key not in fields]:
        game_options[key] = values.pop(key)
    config = make_settings(TrainConfig, values)
    if game_options or "game" in values:
        config.game_options = game_options
    return config
