"""AlphaGomoku as a player: PUCT search guided by a network pair (each node evaluated by the
network of the colour to move there), with the pair's winning value decay; and the
``alphagomoku:PATH[:SIMS]`` player preset (named in :data:`pyaz.eval.presets.METHOD_PRESETS`,
which ``make_player`` imports on first use of the preset).
"""

from __future__ import annotations

import os
from typing import Any

from pyaz.eval.players import Player, SearchPlayer
from pyaz.eval.presets import PresetSpec
from pyaz.methods.alphagomoku.pair import NetworkPair, network_pair
from pyaz.nets.loading import load_model

__all__ = ["DEFAULT_SIMULATIONS", "build_pair_player", "pair_player"]

DEFAULT_SIMULATIONS = 200


def pair_player(
    pair: NetworkPair | str | os.PathLike[str],
    simulations: int = DEFAULT_SIMULATIONS,
    name: str = "alphagomoku",
    seed: int = 0,
    runtime: str | None = None,
    sampling_plies: int = 0,
    **search_options: Any,
) -> SearchPlayer:
    """A :class:`~pyaz.eval.players.SearchPlayer` on ``pair`` (a :class:`NetworkPair` or the
    path of its file or run folder): greedy by visit count after ``sampling_plies`` plies drawn
    from pi (semi-stochastic, seed 004), tree reuse, the pair's ``c_puct`` and ``value_decay``
    unless ``search_options`` set them."""
    loaded = (
        pair
        if isinstance(pair, NetworkPair)
        else network_pair(load_model(pair, "alphagomoku-pair"))
    )
    options: dict[str, Any] = {
        key: float(loaded.settings[key])
        for key in ("c_puct", "value_decay")
        if loaded.settings.get(key) is not None
    }
    options.update(search_options)
    return SearchPlayer(
        loaded.evaluator(runtime),
        simulations,
        name=name,
        seed=seed,
        sampling_plies=sampling_plies,
        **options,
    )


def build_pair_player(spec: PresetSpec) -> Player:
    """The ``alphagomoku:PATH[:SIMS]`` preset (see :mod:`pyaz.eval.presets`)."""
    path, simulations = spec.path_and_simulations(DEFAULT_SIMULATIONS, what="pair")
    pair = network_pair(load_model(path, "alphagomoku-pair"))
    pair.check(spec.state)
    return pair_player(pair, simulations, name=spec.text, seed=spec.seed, runtime=spec.runtime)
