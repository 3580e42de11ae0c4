"""Time to strength (issue 19): how much wall time a training run needs to reach a given score
against reference opponents. A documented benchmark, not a CI test.

    python bench/time_to_strength.py --out runs/tts-o6 --minutes 30 -- --game othello --size 6
    python bench/time_to_strength.py --out runs/tts-o6 --opponents greedy,uct200 --every 2
    python bench/time_to_strength.py --out runs/tts-o8 --minutes 60 \\
        --opponents uct200,gtp-rhino:1,gtp-rhino:3 -- --game othello --size 8

1. Trains with ``pyaz-selfplay`` (the arguments after ``--``; the README's main command by
   default, with the run's own evaluations off) into ``OUT/run`` for ``--minutes`` of run time
   (``--max-minutes``), or continues it when it was interrupted; ``--run DIR`` evaluates a run
   folder that exists instead.
2. Plays the network of every ``--every``-th iteration (and the last) against each opponent:
   ``--games`` games from distinct random openings, each opening with both colours, the
   network greedy with ``--simulations`` simulations a move. Each result goes to
   ``OUT/strength.jsonl`` as it is measured, so an interrupted evaluation resumes where it was.
3. Writes ``OUT/strength.json`` (per opponent: the score against run time and the first time
   the score reached each target of ``--targets``) and ``OUT/strength.png``.

The run time of iteration N is the run's own ``elapsed_s`` after it (self-play, training,
gating and the run's evaluations); the evaluations of this script are not counted.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import pyaz
from pyaz.cli import selfplay
from pyaz.common.plots import figure, save_figure
from pyaz.common.runlog import read_metrics
from pyaz.eval.arena import play_match
from pyaz.eval.presets import make_player

MAIN_COMMAND = ["--game", "othello", "--size", "6", "--threads", "2", "--eval-every", "1000"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0] if __doc__ else None,
        epilog="Arguments after -- go to pyaz-selfplay (default: the README's main command).",
    )
    parser.add_argument("--out", type=Path, required=True, help="the benchmark's folder")
    parser.add_argument("--minutes", type=float, default=30.0, help="training run time (30)")
    parser.add_argument(
        "--opponents", default="greedy,uct200", help="pyaz-arena specs, comma-separated"
    )
    parser.add_argument("--games", type=int, default=40, help="games per evaluation (40)")
    parser.add_argument("--every", type=int, default=2, help="evaluate every this many iterations")
    parser.add_argument("--simulations", type=int, default=100, help="network player's (100)")
    parser.add_argument(
        "--targets", default="0.9,0.95", help="scores whose first time is reported (0.9,0.95)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the openings (0)")
    parser.add_argument(
        "--run",
        type=Path,
        default=None,
        help="evaluate this finished run folder instead of training",
    )
    return parser


def train(out: Path, minutes: float, selfplay_args: list[str]) -> Path:
    """Runs (or resumes) the training run; returns its folder."""
    run = out / "run"
    args = [*(selfplay_args or MAIN_COMMAND), "--iterations", "100000", "--quiet"]
    args += ["--max-minutes", str(minutes), "--out", str(run)]
    if (run / "checkpoint.pt").exists():
        args.append("--resume")
    status = selfplay.main(args)
    if status != 0:
        raise SystemExit(f"pyaz-selfplay exited with {status}")
    return run


def run_times(run: Path) -> dict[int, float]:
    """Iteration -> the run time after it (older runs without ``elapsed_s`` in their iteration
    records: the sum of their stage times, their evaluations not counted)."""
    times, total = {}, 0.0
    for r in read_metrics(run):
        if r["kind"] == "iteration":
            total += r["time_selfplay"] + r["time_train"] + r["time_arena"]
            times[r["iteration"]] = r.get("elapsed_s", total)
    return times


def evaluate(run: Path, out: Path, options: argparse.Namespace) -> list[dict[str, Any]]:
    """Plays the chosen iterations against each opponent; returns every measurement."""
    config = json.loads((run / "config.json").read_text())
    start = pyaz.make(config["game"], **config["game_options"])
    elapsed = run_times(run)
    last = max(elapsed)
    iterations = sorted({n for n in elapsed if n % options.every == 0} | {last})
    log = out / "strength.jsonl"
    done = [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
    seen = {(r["iteration"], r["opponent"]) for r in done}
    for iteration in iterations:
        net = run / "nets" / f"iter-{iteration:05d}.pt"
        for spec in options.opponents.split(","):
            if (iteration, spec) in seen:
                continue
            player = make_player(f"model:{net}:{options.simulations}", start, seed=options.seed)
            opponent = make_player(spec, start, seed=options.seed + 1)
            result = play_match(player, opponent, options.games, start, seed=options.seed)
            record = {
                "iteration": iteration,
                "elapsed_s": elapsed[iteration],
                "opponent": spec,
                **result.as_record(),
            }
            print(
                f"iter {iteration} ({elapsed[iteration] / 60:.1f} min) vs {spec}: "
                f"{result.score:.2f} ({result.distinct_games} distinct games of {result.n})",
                flush=True,
            )
            with log.open("a") as stream:
                stream.write(json.dumps(record) + "\n")
            done.append(record)
    return done


def summarise(records: list[dict[str, Any]], targets: list[float]) -> dict[str, Any]:
    """Per opponent: the curve and the first run time at which each target was reached."""
    summary: dict[str, Any] = {}
    for spec in sorted({r["opponent"] for r in records}):
        curve = sorted((r for r in records if r["opponent"] == spec), key=lambda r: r["iteration"])
        reached = {}
        for target in targets:
            first = next((r for r in curve if r["score"] >= target), None)
            reached[f"{target:g}"] = None if first is None else round(first["elapsed_s"] / 60, 1)
        summary[spec] = {"minutes_to_reach": reached, "curve": curve}
    return summary


def plot(summary: dict[str, Any], path: Path) -> None:
    fig = figure(1, width=6.5, height=4.0)
    ax = fig.add_subplot()
    for spec, item in summary.items():
        minutes = [r["elapsed_s"] / 60 for r in item["curve"]]
        ax.plot(minutes, [r["score"] for r in item["curve"]], marker="o", label=spec)
    ax.set_xlabel("run time (minutes)")
    ax.set_ylabel("score of the network player")
    ax.set_ylim(-0.02, 1.02)
    ax.grid(alpha=0.3)
    ax.legend()
    save_figure(fig, path, 120)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    cut = argv.index("--") if "--" in argv else len(argv)
    own, selfplay_args = argv[:cut], argv[cut + 1 :]
    options = build_parser().parse_args(own)
    if options.games < 2 or options.every < 1 or options.minutes <= 0:
        raise SystemExit("--games must be >= 2, --every >= 1 and --minutes > 0")
    targets = [float(t) for t in options.targets.split(",")]
    options.out.mkdir(parents=True, exist_ok=True)
    run = options.run or train(options.out, options.minutes, selfplay_args)
    summary = summarise(evaluate(run, options.out, options), targets)
    (options.out / "strength.json").write_text(json.dumps(summary, indent=1) + "\n")
    plot(summary, options.out / "strength.png")
    for spec, item in summary.items():
        print(f"{spec}: minutes to reach {item['minutes_to_reach']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
