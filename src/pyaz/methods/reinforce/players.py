"""Arena players for seed 003's networks, and their presets:

``zetago:PATH``              the raw policy (the paper's "reflex agent"): the most probable legal
                             move of the network saved at PATH (resign included: it resigns when
                             resigning is its most probable action)
``zetago-mcts:PATH[:SIMS]``  the paper's MCTS (section 3.6) with that policy, SIMS simulations
                             (default 200)

:data:`pyaz.eval.presets.METHOD_PRESETS` names both builders, so every ``make_player`` (the arena,
the training loop's evaluation, their worker processes) finds them without importing this
package first.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch

from pyaz._core import Go
from pyaz.eval.players import Player, Resignation
from pyaz.eval.presets import PresetSpec
from pyaz.games import GameState
from pyaz.methods.reinforce.mcts import PolicyMcts
from pyaz.methods.reinforce.net import PolicyNet, policy_logits, policy_network
from pyaz.nets.loading import load_model

__all__ = ["PolicyMctsPlayer", "PolicyNetPlayer", "build_mcts_player", "build_policy_player"]

DEFAULT_SIMULATIONS = 200


def _check_state(net: PolicyNet, state: GameState, name: str) -> Go:
    if not isinstance(state, Go):
        raise ValueError(f"{name} plays Go, not {state.name}")
    if int(state.size) != net.size:
        raise ValueError(
            f"{name}'s network plays {net.size}x{net.size}, not {state.size}x{state.size}"
        )
    return state


class _NetPlayer:
    """A player of a network ``net`` of one board size, named ``name``."""

    net: PolicyNet
    name: str

    def reset(self, state: GameState) -> None:
        _check_state(self.net, state, self.name)

    def observe(self, action: int) -> None:
        del action


class PolicyNetPlayer(_NetPlayer):
    """The raw policy: samples from the masked softmax (``temperature`` > 0) or plays its most
    probable legal action (0); resigning raises :class:`~pyaz.eval.players.Resignation`."""

    def __init__(
        self,
        net: PolicyNet,
        name: str = "zetago",
        temperature: float = 0.0,
        allow_resign: bool = True,
        seed: int = 0,
    ) -> None:
        self.net, self.name = net, name
        self.temperature, self.allow_resign = temperature, allow_resign
        self.rng = np.random.default_rng(seed)

    def choose(self, state: GameState) -> int:
        go = _check_state(self.net, state, self.name)
        logits = policy_logits(self.net, [go], self.allow_resign)[0]
        if self.temperature > 0:
            p = torch.softmax(logits / self.temperature, dim=0).double().numpy()
            action = int(self.rng.choice(len(p), p=p / p.sum()))
        else:
            action = int(logits.argmax())
        if action == go.size * go.size + 1:
            raise Resignation(self.name)
        return action


class PolicyMctsPlayer(_NetPlayer):
    """The policy network inside the policy MCTS of seed 003
    (:class:`~pyaz.methods.reinforce.mcts.PolicyMcts`); it never resigns."""

    def __init__(
        self,
        net: PolicyNet,
        simulations: int,
        name: str = "zetago-mcts",
        batch: int = 16,
        seed: int = 0,
    ) -> None:
        self.net, self.name = net, name
        self.search = PolicyMcts(net, simulations, batch=batch, seed=seed)

    def choose(self, state: GameState) -> int:
        action, _ = self.search.search(_check_state(self.net, state, self.name))
        return action


def _load(text: str, path: str) -> PolicyNet:
    if not path:
        raise ValueError(f"{text!r}: say which network, e.g. zetago:run/net.pt")
    if not Path(path).exists():
        raise FileNotFoundError(f"{text!r}: no network at {path}")
    return policy_network(load_model(path, "zetago-policy"))


def build_policy_player(spec: PresetSpec) -> Player:
    """The ``zetago:PATH`` preset: the raw policy network."""
    player = PolicyNetPlayer(_load(spec.text, spec.rest), name=spec.text, seed=spec.seed)
    player.reset(spec.state)
    return player


def build_mcts_player(spec: PresetSpec) -> Player:
    """The ``zetago-mcts:PATH[:SIMS]`` preset: the policy inside seed 003's tree search."""
    path, simulations = spec.path_and_simulations(DEFAULT_SIMULATIONS)
    player = PolicyMctsPlayer(_load(spec.text, path), simulations, name=spec.text, seed=spec.seed)
    player.reset(spec.state)
    return player
