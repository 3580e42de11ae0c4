"""How well can the network learn Connect Four 6x6 values at all? (issue 25) A documented probe,
not a CI test.

Labels random-play positions (plies 6-30, not over) with their exact values
(:func:`pyaz.solve_value`; 8,000 take about 16 minutes on one core, kept in ``--data``), trains
the tiny network's value head on them alone (Adam, batch 64, a random mirror per example, value
loss only) once with each ``--threat-line`` (0: the board alone; 4: Connect Four's threat
planes) and each ``--value-planes`` (the value head's 1x1 convolution; AlphaZero's 1), and
reports the squared error on 1,000 held-out positions and the value head's ranking
of won over drawn positions on the probe's hard positions
(:func:`pyaz.eval.oracle.hard_positions`, seed 0, early / middle / late plies as in
``bench/connect_four_probe.py``; positions in those sets are removed from the training data).

    python bench/connect_four_supervised.py --data runs/c4-labelled.npz --threat-lines 0,4
"""

from __future__ import annotations

import argparse
import itertools
import json
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch

import pyaz
from pyaz.eval.oracle import hard_positions
from pyaz.nets import PolicyValueNet, net_config_for

PHASES = {"early": (6, 12), "middle": (13, 20), "late": (21, 30)}
HELD_OUT = 1000


def label(count: int, seed: int) -> dict[str, np.ndarray]:
    """``count`` random-play positions of plies 6-30 with their exact values."""
    rng = np.random.default_rng(seed)
    planes: list[np.ndarray] = []
    values: list[float] = []
    while len(values) < count:
        state = pyaz.make("connect_four", width=6, height=6)
        for _ in range(int(rng.integers(6, 31))):
            state.apply(int(rng.choice(state.legal_actions())))
            if state.is_terminal():
                break
        if not state.is_terminal():
            planes.append(state.encode().astype(np.float32))
            values.append(pyaz.solve_value(state))
    return {"planes": np.stack(planes), "value": np.array(values, np.float32)}


def value_rank(net: PolicyValueNet, positions: list[Any]) -> float:
    """The share of (won, drawn) pairs of ``positions`` that the value head orders right."""
    x = torch.from_numpy(np.stack([p.state.encode() for p in positions]).astype(np.float32))
    with torch.no_grad():
        v = net(x)[1].reshape(-1).numpy()
    exact = np.array([p.value for p in positions])
    pairs = v[exact == 1][:, None] - v[exact == 0][None, :]
    return float(np.mean(pairs > 0))


def train(
    planes: np.ndarray, value: np.ndarray, line: int, epochs: int, seed: int, value_planes: int = 1
) -> Any:
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    state = pyaz.make("connect_four", width=6, height=6)
    net = PolicyValueNet(net_config_for(state, "tiny", threat_line=line, value_planes=value_planes))
    optimiser = torch.optim.Adam(net.parameters(), lr=0.005)
    for _ in range(epochs):
        net.train()
        order = rng.permutation(len(value))
        for start in range(0, len(order) - 1, 64):
            rows = order[start : start + 64]
            x = planes[rows].copy()
            mirror = rng.random(len(rows)) < 0.5
            x[mirror] = x[mirror][..., ::-1]
            v = net(torch.from_numpy(np.ascontiguousarray(x)))[1].reshape(-1)
            loss = ((v - torch.from_numpy(value[rows])) ** 2).mean()
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
    return net.eval()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, required=True, help="labelled positions (.npz)")
    parser.add_argument("--positions", type=int, default=8000, help="to label when --data is new")
    parser.add_argument("--threat-lines", default="0,4", help="networks to train (0: none)")
    parser.add_argument("--value-planes", default="1", help="value head planes to try (1)")
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--seeds", default="0", help="training seeds, comma-separated")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    if not args.data.exists():
        np.savez(args.data, **label(args.positions, seed=0))  # type: ignore[arg-type]
    data = np.load(args.data)
    sets = {name: hard_positions(6, 6, 100, 0, lo, hi) for name, (lo, hi) in PHASES.items()}
    probe = {p.state.encode().astype(np.float32).tobytes() for s in sets.values() for p in s}
    keep = [i for i in range(len(data["value"])) if data["planes"][i].tobytes() not in probe]
    planes, value = data["planes"][keep], data["value"][keep]
    held = (torch.from_numpy(planes[-HELD_OUT:]), value[-HELD_OUT:])
    planes, value = planes[:-HELD_OUT], value[:-HELD_OUT]
    for seed in map(int, args.seeds.split(",")):
        for line, width in itertools.product(
            map(int, args.threat_lines.split(",")), map(int, args.value_planes.split(","))
        ):
            began = time.time()
            net = train(planes, value, line, args.epochs, seed, width)
            with torch.no_grad():
                error = float(np.mean((net(held[0])[1].reshape(-1).numpy() - held[1]) ** 2))
            row: dict[str, Any] = {"threat_line": line, "value_planes": width, "seed": seed}
            row["examples"] = len(value)
            row["held_out_mse"] = round(error, 3)
            row.update({name: round(value_rank(net, s), 3) for name, s in sets.items()})
            row["seconds"] = round(time.time() - began)
            print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
