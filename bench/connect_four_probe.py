"""Why does Connect Four learning stall? (issue 19) A documented probe, not a CI test.

Takes a training run's saved networks (``RUN/nets/iter-*.pt``) and, for each one picked, measures
on the same seeded hard positions (:func:`pyaz.eval.oracle.hard_positions`), split by how far
into the game they are:

- ``policy``: the raw policy's agreement (its most likely legal move keeps the exact value);
- ``value``: the value head's agreement with the exact value (win: v > 1/3, draw: |v| <= 1/3);
- ``value-rank``: the value head as a ranking, the share of (won, drawn) pairs ordered right;
- ``puct-N``: the network's PUCT player with N simulations (as ``--eval-opponent perfect``);

and the same PUCT counts with the uniform policy and random-rollout values (``uct:N``) as the
reference that knows nothing. Writes ``OUT/probe.json`` (one row per network and player) and
prints a table.

    python bench/connect_four_probe.py --run runs/c4-6x6 --out runs/c4-probe --iterations 1,20,93
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import numpy as np

from pyaz.eval.oracle import OraclePosition, hard_positions, perfect_play_agreement
from pyaz.eval.players import network_player
from pyaz.eval.presets import make_player
from pyaz.nets import load_model


def phases(cells: int) -> dict[str, tuple[int, int]]:
    """Ply ranges of the hard positions: on 6x6, early 6-12, middle 13-20, late 21-30."""
    third, five_ninths = cells // 3, cells * 5 // 9
    return {
        "early": (cells // 6, third),
        "middle": (third + 1, five_ninths),
        "late": (five_ninths + 1, cells - 6),
    }


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--run", type=Path, required=True, help="a pyaz-selfplay run folder")
    parser.add_argument("--out", type=Path, required=True, help="where probe.json goes")
    parser.add_argument("--iterations", default="", help="iterations to probe (default: 5 spread)")
    parser.add_argument("--positions", type=int, default=100, help="hard positions a phase (100)")
    parser.add_argument("--simulations", default="100,400", help="PUCT/UCT simulations (100,400)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the positions (0)")
    return parser


def _networks(run: Path, wanted: str) -> dict[int, Path]:
    found = {int(p.stem.split("-")[1]): p for p in sorted((run / "nets").glob("iter-*.pt"))}
    if not found:
        raise SystemExit(f"no nets/iter-*.pt in {run}")
    if wanted:
        picked = [int(text) for text in wanted.split(",")]
        missing = [i for i in picked if i not in found]
        if missing:
            raise SystemExit(f"no network for iterations {missing} in {run}")
    else:
        keys = sorted(found)
        picked = sorted({keys[round(i * (len(keys) - 1) / 4)] for i in range(5)})
    return {i: found[i] for i in picked}


def _raw_agreement(model: Any, positions: list[OraclePosition]) -> dict[str, float]:
    """The raw policy's and the value head's agreement with the exact values, and the value
    head as a ranking: the share of (won, drawn) position pairs where the won one gets the
    higher value (ties half; 0.5 is chance, NaN without both kinds)."""
    planes = np.stack([p.state.encode() for p in positions]).astype(np.float32)
    logits, values = model.evaluator()(planes)
    policy_kept = value_kept = 0
    for row, value, position in zip(logits, values, positions, strict=True):
        legal = position.state.legal_actions()
        best = max(legal, key=lambda action: row[action])
        policy_kept += best in position.good_moves
        predicted = 1 if value > 1 / 3 else (0 if value >= -1 / 3 else -1)
        value_kept += predicted == position.value
    won = np.array([v for v, p in zip(values, positions, strict=True) if p.value == 1])
    drawn = np.array([v for v, p in zip(values, positions, strict=True) if p.value == 0])
    pairs = won[:, None] - drawn[None, :]
    rank = float(np.mean(pairs > 0) + 0.5 * np.mean(pairs == 0)) if pairs.size else float("nan")
    count = len(positions)
    return {"policy": policy_kept / count, "value": value_kept / count, "value-rank": rank}


def main(argv: list[str] | None = None) -> None:
    args = build_parser().parse_args(argv)
    config = json.loads((args.run / "config.json").read_text())
    options = config["game_options"]
    width, height = int(options["width"]), int(options["height"])
    sims = [int(text) for text in args.simulations.split(",")]
    ranges = phases(width * height)
    sets = {
        name: hard_positions(width, height, args.positions, args.seed, low, high)
        for name, (low, high) in ranges.items()
    }
    rows: list[dict[str, Any]] = []

    def record(network: str, player: str, scores: dict[str, float]) -> None:
        rows.append({"network": network, "player": player, **scores})
        cells = "  ".join(f"{phase} {score:.2f}" for phase, score in scores.items())
        print(f"{network:>10} {player:>10}  {cells}", flush=True)

    start = next(iter(sets.values()))[0].state
    for n in sims:
        uct = make_player(f"uct:{n}", start, seed=args.seed)
        record(
            "-", f"uct-{n}", {k: perfect_play_agreement(uct, v).agreement for k, v in sets.items()}
        )
    for iteration, path in _networks(args.run, args.iterations).items():
        began = time.perf_counter()
        model = load_model(path, "az")
        raw = {phase: _raw_agreement(model, positions) for phase, positions in sets.items()}
        for part in ("policy", "value", "value-rank"):
            record(f"iter {iteration}", part, {k: v[part] for k, v in raw.items()})
        for n in sims:
            player = network_player(model, n, seed=args.seed)
            scores = {k: perfect_play_agreement(player, v).agreement for k, v in sets.items()}
            record(f"iter {iteration}", f"puct-{n}", scores)
        print(f"  ({time.perf_counter() - began:.0f} s)", flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    summary = {
        "run": str(args.run),
        "positions": {k: {"count": len(v), "plies": ranges[k]} for k, v in sets.items()},
        "wins": {k: sum(p.value == 1 for p in v) for k, v in sets.items()},
        "rows": rows,
    }
    (args.out / "probe.json").write_text(json.dumps(summary, indent=2) + "\n")


if __name__ == "__main__":
    main()
