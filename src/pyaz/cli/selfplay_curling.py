"""``pyaz-selfplay --game curling``: seed 002's pipeline for digital curling.

A supervised start from the rule-based player's games, then self-play with KR-DL-UCT, with the
multi-end win-probability table built from the run's own ends. The run folder (``--out``) gets
config.json, metrics.jsonl/.csv, TensorBoard logs, checkpoint.pt, the network of every iteration
(nets/), net.torchscript.pt, win_table.npy and PNG plots (losses, stage times, win ratio
against the reference opponent, the win table).
"""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path
from typing import Any

from pyaz.cli.options import add_resume_argument
from pyaz.cli.training_run import run_training
from pyaz.common.folder_lock import FolderLock
from pyaz.common.runlog import check_resume_settings, read_run_config
from pyaz.curling.config import (
    EVAL_OPPONENTS,
    RESUMABLE,
    UPPER_BOUNDS,
    WIN_TABLES,
    CurlingConfig,
)
from pyaz.curling.loop import CurlingTrainingLoop
from pyaz.train.preset_files import load_preset

# (option, type, help); the destination is the CurlingConfig field of the same name.
OPTIONS: list[tuple[str, type, str]] = [
    ("iterations", int, "self-play iterations"),
    ("games", int, "self-play games per iteration"),
    ("ends", int, "ends per game, 1..10 (seed 002: 8-end games; its comparisons use 2)"),
    ("extra_ends", int, "extra ends to break a tie after --ends (0: a tie stands)"),
    ("simulations", int, "KR-DL-UCT simulations per shot (seed 002: 400)"),
    ("c_ucb", float, "C, the exploration weight of Algorithm 1 (seed 002: 0.1)"),
    ("initial_actions", int, "k, actions drawn from the policy at a new node (seed 002: 20)"),
    ("tau", float, "policy temperature after the first 3 shots of an end (seed 002: 0.33)"),
    ("tau_opening", float, "policy temperature for the first 3 shots (seed 002: 1)"),
    (
        "win_table",
        str,
        f"leaf values, one of {', '.join(WIN_TABLES)}: none = expected end score (KR-DRL); "
        "seed002 = win rate through seed 002's Table 1; own = win rate through the table built "
        "from this run's ends (KR-DRL-MES)",
    ),
    ("window", int, "newest self-play shots trained on (seed 002: 1,000,000)"),
    ("steps", int, "SGD minibatches per iteration (0: from --sample-reuse)"),
    ("sample_reuse", float, "training samples per new self-play shot, when --steps is 0"),
    ("batch_size", int, "minibatch size"),
    ("lr", float, "SGD learning rate (seed 002: 0.01)"),
    ("momentum", float, "SGD momentum"),
    ("l2", float, "c in c*||theta||^2 of eq. 13 (seed 002: 0.0001)"),
    ("channels", int, "network filters (seed 002: 32)"),
    ("blocks", int, "residual blocks (seed 002: 9)"),
    ("supervised_games", int, "rule-based games for the supervised start (0: none)"),
    ("supervised_steps", int, "SGD minibatches of the supervised start"),
    ("noise", str, "execution noise: gat (seed 002), dc3 or none"),
    ("physics", str, "fcv1 (DigitalCurling3, default) or gat (the seed's simulator)"),
    ("eval_every", int, "evaluate every this many iterations"),
    ("eval_games", int, "evaluation games (colours and the first-end hammer alternate)"),
    (
        "eval_opponent",
        str,
        f"reference opponent, one of {', '.join(EVAL_OPPONENTS)} "
        "(kr-uct = KR-UCT with house-score leaves)",
    ),
    ("eval_simulations", int, "simulations per shot in evaluation games (0: --simulations)"),
    (
        "workers",
        int,
        "processes playing each iteration's self-play and evaluation games, 0 = one per core "
        "(results do not depend on it)",
    ),
    (
        "games_in_flight",
        int,
        "self-play games a worker plays at once, their search leaves sent to the network in one "
        "batch per round (0: all of its share; 1: one game at a time, one call per leaf)",
    ),
    (
        "leaves_per_round",
        int,
        "leaves each search gathers per round (1: Algorithm 1 exactly; more: virtual visits)",
    ),
    ("torch_threads", int, "intra-op threads for the network (in each worker)"),
    ("seed", int, "seed for everything (a run is reproducible)"),
]


def build_parser() -> argparse.ArgumentParser:
    defaults = CurlingConfig()
    parser = argparse.ArgumentParser(
        prog="pyaz-selfplay --game curling",
        description=(
            "Train the curling policy-value network as seed 002 does: a supervised start "
            "from the rule-based player, then KR-DL-UCT self-play. Each iteration plays "
            "--games games, trains --steps minibatches on the newest --window shots and "
            "plays --eval-games games against the reference opponent. Ctrl-C keeps every "
            "finished iteration; --resume continues."
        ),
        epilog="Example: pyaz-selfplay --game curling --out runs/curling --iterations 30",
    )
    parser.add_argument("--game", default="curling", help="curling (this parser)")
    parser.add_argument("--out", type=Path, required=True, help="run folder (created if missing)")
    parser.add_argument(
        "--preset", help="a shipped preset's name or a TOML file of settings (keys = option names)"
    )
    add_resume_argument(parser, RESUMABLE, " and --quiet")
    parser.add_argument("--quiet", action="store_true", help="no progress bars")
    for name, kind, text in OPTIONS:
        most = f"; at most {UPPER_BOUNDS[name]}" if name in UPPER_BOUNDS else ""
        parser.add_argument(
            "--" + name.replace("_", "-"),
            type=kind,
            help=f"{text} (default {getattr(defaults, name)}{most})",
        )
    return parser


def settings_from(args: argparse.Namespace) -> CurlingConfig:
    """Defaults < preset file < command line. With ``--resume``: the run's config.json <
    preset file < command line, where the preset and the command line may change only the
    settings of :data:`~pyaz.curling.config.RESUMABLE` (ValueError naming each other one that
    differs), and a folder without config.json is a ValueError."""
    values: dict[str, Any] = {}
    if args.preset is not None:
        values.update(load_preset(args.preset))
    for name, _, _ in OPTIONS:
        if getattr(args, name) is not None:
            values[name] = getattr(args, name)
    saved = read_run_config(args.out) if args.resume else {}
    values = {**saved, **values}
    known = {f.name for f in dataclasses.fields(CurlingConfig)}
    unknown = set(values) - known
    if unknown:
        raise ValueError(f"unknown curling settings {sorted(unknown)}")
    if values.setdefault("game", "curling") != "curling":
        raise ValueError(f"this is the curling loop, but the settings say game={values['game']!r}")
    config = CurlingConfig(**values)
    config.check()
    if args.resume:
        check_resume_settings(args.out, saved, dataclasses.asdict(config), RESUMABLE)
    return config


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)

    def build(config: CurlingConfig, lock: FolderLock) -> CurlingTrainingLoop:
        return CurlingTrainingLoop(
            config, args.out, resume=args.resume, progress=not args.quiet, lock=lock
        )

    def plot(out: Path) -> None:
        from pyaz.common.plots import make_plots
        from pyaz.curling.plots import plot_win_table

        make_plots(out)
        plot_win_table(out)

    return run_training(
        lambda: settings_from(args),
        build,
        args.out,
        f"pyaz-selfplay --game curling --out {args.out} --resume",
        plot,
        "plots, metrics, checkpoints, net.torchscript.pt, win_table.npy",
    )
