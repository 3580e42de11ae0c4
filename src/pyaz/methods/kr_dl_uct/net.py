"""The curling network of seed 002 (policy over the 32x32x2 target grid, 17-bin end-score value),
the KR-DL-UCT leaf evaluator built on it, and supervised data from played games.

The network follows ICML18 section 4.1 (3x3 conv trunk with residual blocks; a 2-filter policy
head to 2048 logits; a 1-filter value head to 256 then 17 bins for the end score -8..+8 of the
team to move), with the input planes of :func:`pyaz.methods.kr_dl_uct.encode`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import torch
from torch import nn

from pyaz.games import curling
from pyaz.nets import ResidualBlock
from pyaz.nets.bounds import check_sizes, checked_module

_BIN_SCORES = np.arange(-8, 9, dtype=np.float64)


class CurlingNet(nn.Module):
    """Policy logits [B, 2048] and value logits [B, 17] from planes [B, NUM_PLANES, 32, 32]."""

    def __init__(self, channels: int = 32, blocks: int = 9) -> None:
        super().__init__()
        grid = curling.GRID
        self.stem = nn.Sequential(
            nn.Conv2d(curling.NUM_PLANES, channels, 3, padding=1, bias=False),
            nn.BatchNorm2d(channels),
            nn.ReLU(),
        )
        self.trunk = nn.Sequential(*[ResidualBlock(channels) for _ in range(blocks)])
        self.policy_conv = nn.Sequential(
            nn.Conv2d(channels, 2, 1, bias=False), nn.BatchNorm2d(2), nn.ReLU()
        )
        self.policy_fc = nn.Linear(2 * grid * grid, curling.NUM_ACTIONS)
        self.value_conv = nn.Sequential(
            nn.Conv2d(channels, 1, 1, bias=False), nn.BatchNorm2d(1), nn.ReLU()
        )
        self.value_fc = nn.Sequential(
            nn.Linear(grid * grid, 256), nn.ReLU(), nn.Linear(256, curling.SCORE_BINS)
        )

    def forward(self, planes: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        x = self.trunk(self.stem(planes))
        policy = self.policy_fc(self.policy_conv(x).flatten(1))
        value = self.value_fc(self.value_conv(x).flatten(1))
        return policy, value


CURLING_LIMITS: dict[str, tuple[int, int]] = {"channels": (1, 4096), "blocks": (0, 256)}
"""The range of the size fields of a curling network read from a file, generous ceilings far
above seed 002's network (9 blocks of 32 channels)."""


def curling_net_from_state(config: Any, state_dict: Any) -> CurlingNet:
    """The :class:`CurlingNet` of ``config`` (its ``channels`` and ``blocks``, read from a
    file) with the weights ``state_dict``, checked before it is built: sizes within
    :data:`CURLING_LIMITS`, then :func:`~pyaz.nets.bounds.checked_module` (parameter count,
    weights of the config's shapes, finite). KeyError for a missing field, TypeError or a
    one-line ValueError for the rest."""
    check_sizes(config, CURLING_LIMITS, "the curling network's config")
    channels, blocks = config["channels"], config["blocks"]
    return checked_module(lambda: CurlingNet(channels, blocks), state_dict, "the curling network")


_GRID_TARGETS = np.array(
    [[t.x, t.y, t.spin] for t in (curling.action_to_target(a) for a in range(curling.NUM_ACTIONS))],
    dtype=np.float64,
)


def kr_dl_evaluator(
    net: CurlingNet,
    tau_fgz: float = 1.0,
    tau: float = 0.33,
    fgz_shots: int = 3,
    win_table: np.ndarray | None = None,
) -> curling.LeafEvaluatorFn:
    """The KR-DL-UCT leaf evaluator for ``pyaz.methods.kr_dl_uct.kr_uct_search``: the k initial
    actions are drawn by the search from the policy p^(1/tau) over the grid targets (tau_fgz for the
    first ``fgz_shots`` shots).

    The value (team 0's view) is the expected end score from the 17 bins or, with ``win_table``
    (P_win[n, d + max_diff], from ``curling.win_probability_table`` or ``curling.seed002_table``),
    team 0's game win rate minus 0.5 through the multi-end table (seed 002's KR-DRL-MES). A
    finished end (16 stones thrown; the search passes it when ``evaluate_finished_ends`` is set)
    is valued by its real score, as a one-hot distribution. One network call per leaf; see
    :func:`kr_dl_batch_evaluator` for many leaves per call."""
    batch = kr_dl_batch_evaluator(net, tau_fgz, tau, fgz_shots, win_table, chunk=1)

    def evaluate(state: curling.Game) -> tuple[float, np.ndarray | None, np.ndarray | None]:
        values, candidates, weights = batch([state])
        if state.shot >= 16:
            return float(values[0]), None, None
        assert weights is not None
        return float(values[0]), candidates, weights[0]

    return evaluate


def kr_dl_batch_evaluator(
    net: CurlingNet,
    tau_fgz: float = 1.0,
    tau: float = 0.33,
    fgz_shots: int = 3,
    win_table: np.ndarray | None = None,
    chunk: int = 4,
) -> curling.BatchEvaluatorFn:
    """:func:`kr_dl_evaluator` for ``pyaz.methods.kr_dl_uct.kr_uct_search_many``: the leaves of a
    round go through the network together (the finished ends among them are valued by their real
    score), in forward passes of exactly ``chunk`` rows (the last one padded with empty planes). A
    row's output then does not depend on which other leaves share its batch (CPU kernels round
    differently for different batch sizes), so self-play games do not depend on how many games are
    in flight or how they are split among worker processes. ``chunk=0``: one forward pass of
    all the leaves (faster for big batches; the rounding then depends on the batch)."""
    if isinstance(chunk, bool) or not isinstance(chunk, int) or chunk < 0:
        raise ValueError(f"chunk must be an int >= 0, got {chunk!r}")
    net.eval()

    def forward(planes: np.ndarray) -> tuple[torch.Tensor, torch.Tensor]:
        rows = len(planes)
        if chunk == 0:
            out: tuple[torch.Tensor, torch.Tensor] = net(torch.from_numpy(planes))
            return out
        padded = np.zeros((-(-rows // chunk) * chunk, *planes.shape[1:]), dtype=planes.dtype)
        padded[:rows] = planes
        outputs = [net(torch.from_numpy(padded[i : i + chunk])) for i in range(0, rows, chunk)]
        logits = torch.cat([o[0] for o in outputs])[:rows]
        return logits, torch.cat([o[1] for o in outputs])[:rows]

    def value_of(state: curling.Game, bins: np.ndarray) -> float:
        if win_table is not None:
            return curling.state_win_rate(state, bins, win_table) - 0.5
        expected = float(bins @ _BIN_SCORES)
        return expected if state.to_move == 0 else -expected

    @torch.no_grad()
    def evaluate(
        states: list[curling.Game],
    ) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None]:
        weights = np.zeros((len(states), curling.NUM_ACTIONS))
        live = [i for i, s in enumerate(states) if s.shot < 16]
        bins: dict[int, np.ndarray] = {}  # the live leaves' value bins
        if live:
            logits, value_logits = forward(np.stack([curling.encode(states[i]) for i in live]))
            temperature = torch.tensor(
                [tau_fgz if states[i].shot < fgz_shots else tau for i in live], dtype=torch.float64
            )
            weights[live] = torch.softmax(logits.double() / temperature[:, None], dim=1).numpy()
            bins = dict(zip(live, torch.softmax(value_logits.double(), dim=1).numpy(), strict=True))
        values = [
            value_of(s, bins[i] if i in bins else curling.house_score_distribution(s))
            for i, s in enumerate(states)
        ]
        return np.array(values, dtype=np.float64), _GRID_TARGETS, weights

    return evaluate


def records_to_examples(
    records: Sequence[curling.GameRecord], num_ends: int = 8, physics: str = "fcv1"
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Replay game records (their executed shots, under the ``physics`` they were played with)
    into (planes, action, end-score bin) examples:
    the action is the grid cell nearest each intended target, the value target the end's final
    score for the team that threw (bin = score + 8). Returns float32 planes [N, C, 32, 32], int64
    actions, int64 bins."""
    planes, actions, bins = [], [], []
    for record in records:
        state = curling.new_game(num_ends=num_ends, physics=physics)
        for end, _, team, target, executed in record.shots:
            scores = record.end_scores[end]
            planes.append(curling.encode(state))
            actions.append(curling.target_to_action(target))
            bins.append(int(np.clip(scores[team] - scores[1 - team], -8, 8)) + 8)
            state.apply(executed)
    return (
        np.stack(planes).astype(np.float32),
        np.array(actions, dtype=np.int64),
        np.array(bins, dtype=np.int64),
    )
