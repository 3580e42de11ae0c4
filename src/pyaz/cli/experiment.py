"""``pyaz-experiment NAME --out DIR``: one of the seeds' experiments, from training to the report.

Runs every training run of the experiment (each an ordinary run folder under ``DIR/runs/``,
several at once with ``--workers``), then evaluates, aggregates and plots, and writes
``DIR/summary.json`` and ``DIR/README.md``. ``--short`` is the CI-sized version (minutes on two
cores) that still goes through every stage; ``--scale cpu`` what a 2-core machine does in hours
(the README's documented results); the default is the paper's own settings. ``--resume``
continues an interrupted experiment with its saved settings (``pyaz-experiment --out DIR
--resume`` is enough): finished runs are not run again, and a setting given again that differs
from the saved one is an error naming it (``--workers`` and ``--ray`` may change). One
experiment at a time uses a folder: a second one with the same ``--out`` stops at once.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pyaz.cli import exit_from_main
from pyaz.common.folder_lock import FolderInUseError
from pyaz.distributed.cluster import RayUnavailableError
from pyaz.experiments import EXPERIMENTS, get_experiment
from pyaz.experiments.base import SCALES
from pyaz.experiments.runner import EXPERIMENT_FILE, read_plan, run_experiment


def _catalogue() -> str:
    lines = ["experiments:"]
    for name in sorted(EXPERIMENTS):
        try:
            experiment = get_experiment(name)
        except Exception as error:  # a broken experiment must not hide the others
            lines.append(f"  {name:<12} (cannot load: {error})")
            continue
        lines.append(f"  {name:<12} {experiment.title} ({experiment.seed_paper})")
        lines += [f"  {'':<12} {scale}: {cost}" for scale, cost in experiment.costs.items()]
        lines += [f"  {'':<12} --option {k}=...: {v}" for k, v in experiment.option_help.items()]
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    """The ``pyaz-experiment`` argument parser."""
    parser = argparse.ArgumentParser(
        prog="pyaz-experiment",
        usage="%(prog)s NAME --out OUT [options]  (or: %(prog)s --out OUT --resume)",
        description=__doc__.split("\n\n")[1] if __doc__ else None,
        epilog=_catalogue(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "name",
        metavar="NAME",
        nargs="?",
        help=f"one of: {', '.join(sorted(EXPERIMENTS))} (with --resume: the saved one)",
    )
    parser.add_argument("--out", type=Path, help="the experiment's folder (required)")
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--short", action="store_true", help="the CI-sized version (--scale short)")
    size.add_argument(
        "--scale",
        choices=SCALES,
        default=None,
        help="short (CI, minutes), cpu (a 2-core machine, hours) or full (the paper's; default; "
        "with --resume: the saved one)",
    )
    parser.add_argument(
        "--workers", type=int, default=1, help="runs at once, each in its own process (default 1)"
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="continue an interrupted experiment with its saved settings",
    )
    parser.add_argument(
        "--ray",
        nargs="?",
        const="",
        metavar="ADDRESS",
        help="run each training run as a Ray task (pip install 'pyaz[ray]'): no ADDRESS starts a "
        "local Ray with --workers CPUs (or joins RAY_ADDRESS), 'auto' or HOST:PORT joins a "
        "cluster; the folder must be shared by the cluster's nodes",
    )
    parser.add_argument(
        "--seed", type=int, default=None, help="seed of every run (default 0; --resume: saved)"
    )
    parser.add_argument(
        "--repetitions",
        type=int,
        default=None,
        metavar="N",
        help="runs per configuration, instead of the scale's (curriculum, losses, accelerations; "
        "e.g. 1 for a first look at the cpu scale in a fraction of its time)",
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="an option of the experiment itself, repeatable (alphagomoku: "
        "ablations=double,decay,curriculum also trains a run without each)",
    )
    return parser


def _options(items: list[str]) -> dict[str, str] | None:
    """The ``--option`` items as a dict; None when there are none (the saved ones on resume)."""
    options = {}
    for item in items:
        key, equals, value = item.partition("=")
        if not equals or not key.strip():
            raise ValueError(f"--option takes KEY=VALUE, got {item!r}")
        options[key.strip()] = value.strip()
    return options or None


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``pyaz-experiment``; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.workers < 1:
        parser.error("--workers must be at least 1")
    if args.name is None and not args.resume:
        parser.error("NAME is required (or --resume, to continue the experiment in --out)")
    if args.name is not None and args.name not in EXPERIMENTS:
        parser.error(f"unknown experiment {args.name!r}: one of {', '.join(sorted(EXPERIMENTS))}")
    if args.out is None:
        parser.error("--out is required: the experiment's folder")
    name = args.name
    try:
        saved = read_plan(args.out) if args.resume else None
        if name is None:
            if saved is None:
                raise ValueError(f"{args.out} holds no experiment to resume (no {EXPERIMENT_FILE})")
            name = saved["experiment"]
        experiment = get_experiment(name)
        scale = "short" if args.short else args.scale
        if scale is None and saved is None:
            scale = "full"
        executor = None
        if args.ray is not None:
            from pyaz.experiments.ray_runner import ray_executor

            executor = ray_executor(args.ray or None)
        run_experiment(
            experiment,
            args.out,
            scale=scale,
            workers=args.workers,
            resume=args.resume,
            seed=args.seed,
            repetitions=args.repetitions,
            executor=executor,
            options=_options(args.option),
        )
    except KeyboardInterrupt:
        operational = (f" --workers {args.workers}" if args.workers > 1 else "") + (
            "" if args.ray is None else f" --ray {args.ray}".rstrip()
        )
        print(
            f"\ninterrupted: finished runs are kept; continue with\n"
            f"  pyaz-experiment {name} --out {args.out} --resume{operational}",
            file=sys.stderr,
        )
        return 130
    except (ValueError, TypeError, OSError, FolderInUseError, RayUnavailableError) as error:
        print(f"pyaz-experiment: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    exit_from_main(main)
