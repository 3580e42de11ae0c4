"""Seed 003, ZetaGo (Painter & Johnston, "Mastering the game of Go from scratch"): a softmax
policy network trained by REINFORCE self-play against a pool of its earlier snapshots, with no
tree search in self-play, on 5x5 Go, and its transfer to a larger board.

- :mod:`~pyaz.zetago.net`: the 5x5 policy network (section 3.3) and the transfer network
  (section 3.4), the 3-plane input, saving and loading;
- :mod:`~pyaz.zetago.play`: batched policy play in C++ (one network call per step for all games);
- :mod:`~pyaz.zetago.reinforce`: the opponent pool, the symmetric replay buffer, the REINFORCE
  loss with or without the value baseline, and the training loop (Algorithm 1);
- :mod:`~pyaz.zetago.mcts`: the paper's tree search (section 3.6);
- :mod:`~pyaz.zetago.players`: arena players and the ``zetago:PATH`` / ``zetago-mcts:PATH:SIMS``
  presets (registered on import).
"""

from __future__ import annotations

from pyaz.zetago.mcts import ZetaMcts
from pyaz.zetago.net import (
    SmallConfig,
    SmallPolicyNet,
    TransferConfig,
    TransferNet,
    encode_planes,
    legal_policy_mask,
    load_network,
    load_transfer_source,
    save_network,
)
from pyaz.zetago.play import PlayedGames, play_games
from pyaz.zetago.players import ZetaGoMctsPlayer, ZetaGoPlayer
from pyaz.zetago.reinforce import OpponentPool, ReinforceConfig, ReinforceTrainer, ReplayBuffer

__all__ = [
    "OpponentPool",
    "PlayedGames",
    "ReinforceConfig",
    "ReinforceTrainer",
    "ReplayBuffer",
    "SmallConfig",
    "SmallPolicyNet",
    "TransferConfig",
    "TransferNet",
    "ZetaGoMctsPlayer",
    "ZetaGoPlayer",
    "ZetaMcts",
    "encode_planes",
    "legal_policy_mask",
    "load_network",
    "load_transfer_source",
    "play_games",
    "save_network",
]
