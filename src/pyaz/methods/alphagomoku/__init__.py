"""Seed 004, AlphaGomoku: double networks (III-B), winning value decay (III-C) and the
three-phase curriculum with its rule-based mentor (IV), for free-style Gomoku.

- :mod:`~pyaz.methods.alphagomoku.pair`: the black and white networks, their evaluator (one batched
  call per colour) and their file.
- :mod:`~pyaz.methods.alphagomoku.data`: the examples of the three phases, z decayed.
- :mod:`~pyaz.methods.alphagomoku.pipeline`: the curriculum and self-play loop.
- :mod:`~pyaz.methods.alphagomoku.players`: the pair as a player and the ``alphagomoku:PATH[:SIMS]``
  preset.

The Gomocup/Piskvork ``pbrain`` engine (``pyaz-gomocup``) is :mod:`pyaz.engines.gomocup_server`.

The winning value decay in the search is the ``value_decay`` option of :class:`pyaz.Search` and
:class:`pyaz.SelfPlay`; the mentor is :class:`pyaz._core.GomokuMentor` (the ``mentor[:MS]``
preset).
"""

from __future__ import annotations

from pyaz.methods.alphagomoku.data import check_decay, decayed_outcomes
from pyaz.methods.alphagomoku.pair import (
    NetworkPair,
    PairEvaluator,
    network_pair,
    save_pair,
    side_to_move,
)
from pyaz.methods.alphagomoku.players import pair_player

__all__ = [
    "NetworkPair",
    "PairEvaluator",
    "check_decay",
    "decayed_outcomes",
    "network_pair",
    "pair_player",
    "save_pair",
    "side_to_move",
]
