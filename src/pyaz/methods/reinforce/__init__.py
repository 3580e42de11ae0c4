"""Seed 003, ZetaGo (Painter & Johnston, "Mastering the game of Go from scratch"): a softmax
policy network trained by REINFORCE self-play against a pool of its earlier snapshots, with no
tree search in self-play, on 5x5 Go, and its transfer to a larger board.

- :mod:`~pyaz.methods.reinforce.net`: the 5x5 policy network (section 3.3) and the transfer network
  (section 3.4), the 3-plane input, saving and loading;
- :mod:`~pyaz.methods.reinforce.play`: batched policy play in C++ (one network call per step for all
  games);
- :mod:`~pyaz.methods.reinforce.loop`: the opponent pool, the symmetric replay buffer, the REINFORCE
  loss with or without the value baseline, and the training loop (Algorithm 1);
- :mod:`~pyaz.methods.reinforce.mcts`: the paper's tree search (section 3.6);
- :mod:`~pyaz.methods.reinforce.players`: arena players and the ``zetago:PATH`` /
  ``zetago-mcts:PATH:SIMS`` presets (registered on import).
"""

from __future__ import annotations

from pyaz.methods.reinforce.loop import (
    OpponentPool,
    ReinforceConfig,
    ReinforceTrainer,
    ReplayBuffer,
)
from pyaz.methods.reinforce.mcts import PolicyMcts
from pyaz.methods.reinforce.net import (
    SmallConfig,
    SmallPolicyNet,
    TransferConfig,
    TransferNet,
    encode_planes,
    legal_policy_mask,
    load_transfer_source,
    policy_network,
    save_network,
)
from pyaz.methods.reinforce.play import PlayedGames, play_games
from pyaz.methods.reinforce.players import PolicyMctsPlayer, PolicyNetPlayer

__all__ = [
    "OpponentPool",
    "PlayedGames",
    "PolicyMcts",
    "PolicyMctsPlayer",
    "PolicyNetPlayer",
    "ReinforceConfig",
    "ReinforceTrainer",
    "ReplayBuffer",
    "SmallConfig",
    "SmallPolicyNet",
    "TransferConfig",
    "TransferNet",
    "encode_planes",
    "legal_policy_mask",
    "load_transfer_source",
    "play_games",
    "policy_network",
    "save_network",
]
