"""Networks that ship with pyaz: trained by the project's own main command, installed with the
package (``pyaz/nets/data``), played as ``model:builtin:NAME`` (and by ``pyaz-play`` when no
opponent is named, on the board they were trained for).

Each is one network file as :func:`~pyaz.nets.loading.load_model` reads it: the run's best
network, the run's settings (its search's ``c_puct`` and the rest) and a ``provenance`` record
(the command, the date, the training minutes, the figure against the reference opponent) that
:data:`SHIPPED` repeats (from pyaz/nets/data/shipped.json) and docs/getting-started.md shows.
:func:`write_shipped` makes one from a run folder (``python -m pyaz.nets.shipped RUN NAME``).

>>> sorted(SHIPPED)
['connect_four7x6', 'gomoku9', 'othello6', 'othello8']
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict, dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from pyaz.common.exits import exit_from_main
from pyaz.common.runlog import atomic_write_bytes
from pyaz.games import GAMES, canonical_name

__all__ = [
    "BUILTIN_PREFIX",
    "MODEL_SIMULATIONS",
    "SHIPPED",
    "ShippedNetwork",
    "builtin_spec",
    "shipped_for",
    "shipped_path",
    "write_shipped",
]

BUILTIN_PREFIX = "builtin:"
"""What names a shipped network where a network path goes: ``model:builtin:othello6``."""

MODEL_SIMULATIONS = 100
"""The simulations a move a network plays with where none are named (``model:PATH`` and a
shipped network without its own)."""


@dataclass(frozen=True)
class ShippedNetwork:
    """A network that ships: its file in pyaz/nets/data, its game and board, where it came from
    (the command that trained it, the date, the training minutes, the figure it reached) and
    the simulations a move it plays with where none are named (those of its figure; not part of
    the provenance the file holds)."""

    file: str
    game: str
    game_options: dict[str, Any]
    command: str
    date: str
    minutes: float
    figure: str
    simulations: int = MODEL_SIMULATIONS

    def board(self) -> dict[str, Any]:
        """The game options of its board in full: the game's defaults, then its own."""
        return {**_default_options(self.game), **self.game_options}

    def provenance(self) -> dict[str, Any]:
        """The record the network's file holds: where it came from (all but ``simulations``)."""
        return {k: v for k, v in asdict(self).items() if k != "simulations"}


SHIPPED: dict[str, ShippedNetwork] = {
    name: ShippedNetwork(**record)
    for name, record in json.loads(
        (resources.files("pyaz.nets") / "data" / "shipped.json").read_text()
    ).items()
}
"""The shipped networks by name, from pyaz/nets/data/shipped.json (a data file: the games' names
stay out of the code outside games/)."""


def shipped_path(name: str) -> Path:
    """The installed file of the shipped network ``name`` (``builtin:`` before it is taken);
    ValueError naming the known ones for another name."""
    key = name[len(BUILTIN_PREFIX) :] if name.startswith(BUILTIN_PREFIX) else name
    if key not in SHIPPED:
        raise ValueError(f"no shipped network {key!r}; shipped: {', '.join(sorted(SHIPPED))}")
    return Path(str(resources.files("pyaz.nets") / "data" / SHIPPED[key].file))


def builtin_spec(name: str, simulations: int | None = None) -> str:
    """The player preset of the shipped network ``name``: ``model:builtin:NAME:SIMS``, at its
    own simulations a move unless ``simulations`` names others."""
    return f"model:{BUILTIN_PREFIX}{name}:{simulations or SHIPPED[name].simulations}"


def shipped_for(game: str, game_options: dict[str, Any]) -> str | None:
    """The name of the shipped network for ``game`` (any of its names) on the board of
    ``game_options`` (missing options as the game's defaults); None when none ships."""
    try:
        name = canonical_name(game)
    except ValueError:
        return None
    board = {**_default_options(name), **game_options}
    for key, network in SHIPPED.items():
        if network.game == name and network.board() == board:
            return key
    return None


def _default_options(game: str) -> dict[str, Any]:
    """The default game options of the registered game ``game`` (none for another)."""
    return dict(GAMES[game].options) if game in GAMES else {}


def write_shipped(run: str | Path, out: str | Path, provenance: ShippedNetwork) -> Path:
    """Writes the best network of the run folder (or network file) ``run`` to ``out`` as a
    shipped network: the network, the run's settings and ``provenance``; returns ``out``."""
    from pyaz.nets.files import model_bytes  # torch: only here, so that naming one is light
    from pyaz.nets.loading import load_model
    from pyaz.nets.model import net_state

    model = load_model(run)
    state = net_state(model.net)
    settings: dict[str, Any] = {
        key: value
        for key, value in model.settings.items()
        if isinstance(value, (str, int, float, bool))
    }
    settings["game_options"] = dict(provenance.game_options)
    payload = {
        "best": state,
        "config": settings,
        "counters": {"iteration": model.iteration or 0},
        "provenance": provenance.provenance(),
    }
    data = model_bytes("az", payload, provenance.game, provenance.game_options, state["config"])
    atomic_write_bytes(Path(out), data)
    return Path(out)


def main(argv: list[str] | None = None) -> int:
    """``python -m pyaz.nets.shipped RUN NAME``: writes RUN's best network as the shipped
    network NAME (its provenance from :data:`SHIPPED`) into pyaz/nets/data."""
    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("run", type=Path)
    parser.add_argument("name", choices=sorted(SHIPPED))
    args = parser.parse_args(argv)
    out = write_shipped(args.run, shipped_path(args.name), SHIPPED[args.name])
    print(f"{out}: {out.stat().st_size} bytes", file=sys.stderr)
    return 0


if __name__ == "__main__":
    exit_from_main(main)
