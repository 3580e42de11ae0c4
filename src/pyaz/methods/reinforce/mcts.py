"""Seed 003's Monte-Carlo tree search (section 3.6) with the policy network as both its selection
and its simulation policy.

Each simulation walks down the partial tree choosing action a at state s with probability
proportional to ``pi_sel(a|s) / (n_s' + 1)`` (s' the successor, n its visits), adds the first
state not yet in the tree, plays the game out by sampling every move from ``pi_sim``, and adds the
result to the visit count and value sum of every node on the path. The move played is the root
child with the best average value (more visits break ties). The paper gives no exploration
constant and no prior: these are its rules as written.

Batching (pyaz's choice): simulations run in waves of ``batch``; the wave's rollouts are played
together by the C++ policy-play driver (one network call per step for all of them), and the
priors of the nodes the wave added are computed in one network call.
"""

from __future__ import annotations

import numpy as np
import torch

from pyaz._core import Go, Status
from pyaz.methods.reinforce.net import PolicyNet, policy_logits
from pyaz.methods.reinforce.play import play_games

__all__ = ["PolicyMcts"]


class _Node:
    __slots__ = ("children", "mover", "priors", "state", "value_sum", "visits")

    def __init__(self, state: Go, mover: int) -> None:
        self.state = state
        self.mover = mover  # the colour whose move led here: values are from its view
        self.children: dict[int, _Node] = {}
        self.priors: np.ndarray | None = None  # over the legal actions (pass included)
        self.visits = 0
        self.value_sum = 0.0


_STATUS_OF_WINNER = {-1: Status.DRAW, 0: Status.FIRST_PLAYER_WIN, 1: Status.SECOND_PLAYER_WIN}


def _result_for(status: Status, colour: int) -> float:
    if status == Status.DRAW:
        return 0.0
    won = (status == Status.FIRST_PLAYER_WIN) == (colour == 0)
    return 1.0 if won else -1.0


class PolicyMcts:
    """The policy MCTS of section 3.6 (the policy network selects and plays out) for one
    position at a time (see the module docstring)."""

    def __init__(self, net: PolicyNet, simulations: int, batch: int = 16, seed: int = 0) -> None:
        if simulations < 1:
            raise ValueError(f"simulations must be >= 1, got {simulations}")
        if batch < 1:
            raise ValueError(f"batch must be >= 1, got {batch}")
        self.net, self.simulations, self.batch = net, simulations, batch
        self.rng = np.random.default_rng(seed)

    def _evaluate_priors(self, nodes: list[_Node]) -> None:
        waiting = [n for n in nodes if n.priors is None and not n.state.is_terminal()]
        if not waiting:
            return
        logits = policy_logits(self.net, [n.state for n in waiting], allow_resign=False)
        probabilities = torch.softmax(logits, dim=1).numpy()
        for node, p in zip(waiting, probabilities, strict=True):
            node.priors = p[:-1]  # points and pass; resign is not a move of the tree

    def _select(self, root: _Node) -> list[_Node]:
        """The path of one simulation, root first; its last node is new, unevaluated or over."""
        path = [root]
        node = root
        while node.priors is not None and not node.state.is_terminal():
            actions = np.flatnonzero(node.priors > 0)
            if len(actions) == 0:
                actions = np.array(node.state.legal_actions())
            visits = np.array(
                [node.children[int(a)].visits if int(a) in node.children else 0 for a in actions]
            )
            weights = node.priors[actions] / (visits + 1) + 1e-12
            action = int(self.rng.choice(actions, p=weights / weights.sum()))
            child = node.children.get(action)
            if child is None:  # the new node ends the path
                node.children[action] = _Node(node.state.child(action), node.state.to_move())
                return [*path, node.children[action]]
            path.append(child)
            node = child
        return path

    def _wave(self, root: _Node, count: int) -> None:
        paths = [self._select(root) for _ in range(count)]
        leaves = [path[-1] for path in paths]
        playing = [i for i, leaf in enumerate(leaves) if not leaf.state.is_terminal()]
        statuses: dict[int, Status] = {
            i: leaf.state.status() for i, leaf in enumerate(leaves) if leaf.state.is_terminal()
        }
        if playing:
            games = play_games(
                [self.net],
                [(0, 0)] * len(playing),
                int(root.state.size),
                record_seat=-1,
                seed=int(self.rng.integers(2**63)),
                allow_resign=False,
                starts=[leaves[i].state for i in playing],
            )
            for i, winner in zip(playing, games.winner, strict=True):
                statuses[i] = _STATUS_OF_WINNER[int(winner)]
        for i, path in enumerate(paths):
            for node in path:
                node.visits += 1
                node.value_sum += _result_for(statuses[i], node.mover)
        self._evaluate_priors(leaves)

    def search(self, state: Go) -> tuple[int, dict[int, tuple[int, float]]]:
        """The move to play in ``state`` and, per root action, (visits, average value)."""
        if state.is_terminal():
            raise ValueError("the game is over: no move to search for")
        if int(state.size) != self.net.size:
            raise ValueError(
                f"the network plays {self.net.size}x{self.net.size}, "
                f"the board is {state.size}x{state.size}"
            )
        root = _Node(state.clone(), 1 - state.to_move())
        self._evaluate_priors([root])
        for done in range(0, self.simulations, self.batch):
            self._wave(root, min(self.batch, self.simulations - done))
        stats = {
            a: (c.visits, c.value_sum / c.visits) for a, c in root.children.items() if c.visits
        }
        best = max(stats, key=lambda a: (stats[a][1], stats[a][0]))
        return best, stats
