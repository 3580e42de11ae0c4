"""``pyaz-selfplay``: train a player by self-play (the main job).

Settings come from the defaults, then a ``--preset`` TOML file, then the command line; a resumed
run (``--resume``) takes the settings it was started with (its config.json), and only the
settings of :data:`~pyaz.train.loop.RESUMABLE` may differ on its command line. Every setting is
checked before the run folder is touched. The run folder (``--out``) is locked while the run
uses it; it gets config.json, metrics.jsonl/.csv, TensorBoard logs, checkpoints, the networks of
every iteration (nets/), the best network as TorchScript, and PNG plots.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

from pyaz.cli.options import add_game_arguments, add_resume_argument, given_game_options
from pyaz.cli.training_run import run_training
from pyaz.common.folder_lock import FolderLock
from pyaz.common.runlog import check_resume_settings, read_run_config
from pyaz.distributed.cluster import RayUnavailableError, WorkerLostError, WorkerTimeoutError
from pyaz.games import canonical_name
from pyaz.train.loop import RESUMABLE, UPPER_BOUNDS, TrainConfig, TrainingLoop
from pyaz.train.preset_files import load_preset, preset_names, train_config


def _int_list(text: str) -> list[int]:
    """``"350,500,750"`` -> [350, 500, 750]."""
    try:
        return [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        message = f"expected integers separated by commas, got {text!r}"
        raise argparse.ArgumentTypeError(message) from None


def _switch(text: str) -> bool:
    """``"on"``/``"off"`` (or true/false, yes/no, 1/0) -> True/False."""
    words = {"on": True, "true": True, "yes": True, "1": True}
    words.update({"off": False, "false": False, "no": False, "0": False})
    try:
        return words[text.strip().lower()]
    except KeyError:
        raise argparse.ArgumentTypeError(f"expected on or off, got {text!r}") from None


# (option, type, help); the option's destination is the TrainConfig field of the same name.
OPTIONS: list[tuple[str, Any, str]] = [
    ("iterations", int, "I: self-play iterations (seed 001 Table 1: 50/100/150)"),
    (
        "max_minutes",
        float,
        "stop after the iteration that takes the run time (self-play, training, gating and "
        "evaluation, summed over resumes) past this many minutes; 0: no limit",
    ),
    ("episodes", int, "E: self-play games per iteration (10/50/100)"),
    ("sampling_plies", int, "T': moves drawn from the visit policy before this ply, greedy after"),
    ("simulations", int, "m: MCTS simulations per move (25/100/200)"),
    ("c_puct", float, "c: PUCT exploration weight (0.5/1.0/2.0)"),
    (
        "retrain_iterations",
        int,
        "rs: keep the games of the last rs iterations; 0 uses --replacement",
    ),
    ("replacement", float, "share of the oldest games dropped after training (seed 000: 0.1)"),
    (
        "epochs",
        int,
        "ep: training epochs per iteration (Table 1: 5/10/15; the default 2 learns faster a CPU "
        "second)",
    ),
    ("batch_size", int, "bs: training batch size (32/64/96)"),
    ("lr", float, "lr: Adam learning rate (0.001/0.005/0.01)"),
    ("dropout", float, "d: dropout probability in the network heads (0.2/0.3/0.4)"),
    ("arena_games", int, "n: arena games between challenger and best (20/40/100)"),
    (
        "update_threshold",
        float,
        "u: the challenger replaces the best when wins / (wins + losses) >= u (0.5/0.6/0.7)",
    ),
    (
        "gating",
        str,
        "none (AlphaZero loop), threshold (seed 001 as alpha-zero-general: n games, "
        "wins / (wins + losses) >= u, draws ignored), score ((wins + draws/2) / n > u), "
        "wilson (seed 000's sequential 95%% Wilson rule)",
    ),
    ("wilson_max_games", int, "cap of the wilson gate (its width rule acts after 401 games)"),
    (
        "arena_sampling_plies",
        int,
        "gate players draw their first this-many plies from the visit counts (seed 004)",
    ),
    (
        "opening_plies",
        int,
        "random plies opening each pair of gate/evaluation games, played with both colours "
        "(default: the game's, e.g. othello 4, connect_four 2)",
    ),
    (
        "min_buffer_schedule",
        _int_list,
        "comma list: the k-th training waits for the k-th number of games (seed 000 Racing "
        "Kings: 350,500,750,1000,1500,2000)",
    ),
    ("length_probe_games", int, "random games measuring the curriculum's first average length"),
    ("draw_value", float, "value of a draw for both players (seed 000: -0.5)"),
    (
        "value_target_q",
        float,
        "w in [0, 1]: the value target is (1 - w) * z + w * q, z the game's result and q the "
        "search's root value (the z/q average of Oracle's 'Lessons from AlphaZero', part 4, "
        "Connect Four: 0.5); 0 is AlphaZero's z",
    ),
    (
        "dedupe",
        _switch,
        "on: the positions of the training window that repeat (the same planes, up to the "
        "symmetries augmented) become one example with their mean policy and value targets "
        "(Oracle's position averaging, 'Lessons from AlphaZero', part 6); logged as "
        "dedupe_share",
    ),
    (
        "lr_schedule",
        str,
        "constant; cosine (lr down to lr/100); onecycle (lr/10 up to lr over the first 30%% "
        "of the run, then down to lr/100: Smith's 1cycle, as Oracle's 'Lessons from "
        "AlphaZero', part 6). The run is --iterations long for the schedule, also with "
        "--max-minutes (give --iterations what the time allows); the last value holds after",
    ),
    (
        "window_growth",
        _int_list,
        "START,EVERY: keep the games of START iterations, one more every EVERY iterations, up "
        "to --retrain-iterations (Oracle's slow window, 'Lessons from AlphaZero', part 6: "
        "4,2); none: --retrain-iterations throughout",
    ),
    (
        "simulations_schedule",
        _int_list,
        "comma list: self-play simulations over equal shares of --iterations (MiniZero's "
        "progressive simulation, e.g. 25,50,100: 25 in the first third); gates and "
        "evaluations keep --simulations",
    ),
    ("drop_draw", float, "chance to drop a drawn game from the buffer (seed 000: 0.1 / 0.5)"),
    ("min_buffer_games", int, "train only once the buffer holds this many games"),
    ("l2", float, "L2 coefficient c in c*||theta||^2 added to the loss"),
    ("loss", str, "plus (l+), policy (lp), value (lv), product (lx), lambda (l_lambda)"),
    ("loss_lambda", float, "lambda of the l_lambda loss"),
    ("net", str, "network preset: tiny, small, seed000, seed004, azg (alpha-zero-general's)"),
    ("blocks", int, "residual blocks (overrides the preset)"),
    ("filters", int, "convolution filters (overrides the preset)"),
    ("value_hidden", int, "value head width (overrides the preset)"),
    ("dirichlet_alpha", float, "root Dirichlet noise shape"),
    ("dirichlet_epsilon", float, "root Dirichlet noise weight (0 disables)"),
    ("curriculum", str, "end-game-first zeta(t): none, reversi, racingkings, or a TOML file"),
    ("parallel_games", int, "self-play games in flight (their leaves share one network batch)"),
    ("threads", int, "threads for tree work in self-play (any number works on any machine)"),
    ("torch_threads", int, "intra-op threads for the network (1 is fastest for small CPU nets)"),
    (
        "runtime",
        str,
        "where self-play, gates and evaluations run the network: onnxruntime (the fastest "
        "measured on a CPU), torchscript, openvino; training stays in PyTorch",
    ),
    ("eval_every", int, "evaluate against the reference opponent every this many iterations"),
    (
        "eval_games",
        int,
        "games per evaluation (colours alternate); with --eval-opponent perfect, the number of "
        "hard positions",
    ),
    (
        "eval_opponent",
        str,
        "uct200 (UCT, 200 rollouts: seed 000's Reversi reference), random, none, any "
        "pyaz-arena spec, or perfect (connect_four up to 7x6: no match; the network's share "
        "of value-keeping moves on --eval-games seeded hard positions, solved exactly, "
        "recorded as perfect_agreement)",
    ),
    ("elo_games", int, "games a pair for the Elo of each iteration at the end (0: off)"),
    ("elo_every", int, "rate the networks of every this many iterations (and the last)"),
    (
        "search_rule",
        str,
        "self-play search: puct (AlphaZero) or gumbel (Danihelka et al. 2022: Gumbel-top-k "
        "root moves, sequential halving, the completed-Q improved policy as the target; for "
        "8-32 simulations)",
    ),
    ("gumbel_actions", int, "gumbel: root moves sampled (m; the paper's 16)"),
    (
        "solver",
        _switch,
        "on: MCTS-solver (Winands et al. 2008): proven wins and losses propagated in the tree, "
        "a proven win played",
    ),
    (
        "forced_playouts",
        _switch,
        "on: KataGo's forced playouts at the root (k = 2) and policy target pruning (Wu 2019, "
        "3.2; puct only)",
    ),
    (
        "full_search_prob",
        float,
        "KataGo's playout cap randomisation (Wu 2019, 3.1): the share of moves searched with "
        "--simulations (only those are training examples; KataGo 0.25); 1 is off",
    ),
    (
        "cheap_simulations",
        int,
        "simulations of the other moves under --full-search-prob (0: simulations // 6)",
    ),
    (
        "score_weight",
        float,
        "W in [0, 10]: KataGo's auxiliary score target (Wu 2019, 4.1): a score head learns "
        "the game's final score margin from the player to move's view, normalised to [-1, 1] "
        "by the board's area (othello: disc difference / n^2; go: Tromp-Taylor area score "
        "with komi / n^2, clipped), with loss weight W; othello and go only; 0: no score head",
    ),
    ("seed", int, "seed for everything (deterministic with --threads 1)"),
]


def build_parser() -> argparse.ArgumentParser:
    defaults = TrainConfig()
    parser = argparse.ArgumentParser(
        prog="pyaz-selfplay",
        description="Train a policy-value network by self-play with C++ tree search.",
        epilog=(
            "Example: pyaz-selfplay --game othello --size 6 --threads 32 --out runs/o6. "
            "Curling has its own loop and options: pyaz-selfplay --game curling --help"
        ),
    )
    parser.add_argument("--out", type=Path, required=True, help="run folder (created if missing)")
    parser.add_argument(
        "--preset",
        help="settings: a shipped preset's name (" + ", ".join(preset_names()) + ") or a TOML "
        "file (keys = option names)",
    )
    add_resume_argument(parser, RESUMABLE, ", --quiet and the Ray options")
    add_game_arguments(
        parser,
        required=False,
        game_help=f"game name (default {defaults.game}); curling runs seed 002's own loop",
    )
    parser.add_argument("--no-augment", action="store_true", help="no symmetry augmentation")
    parser.add_argument("--quiet", action="store_true", help="no progress bars")
    for name, kind, text in OPTIONS:
        default = getattr(defaults, name)
        most = f"; at most {UPPER_BOUNDS[name]}" if name in UPPER_BOUNDS else ""
        parser.add_argument(
            "--" + name.replace("_", "-"), type=kind, help=f"{text} (default {default}{most})"
        )
    _add_ray_arguments(parser)
    return parser


def _add_ray_arguments(parser: argparse.ArgumentParser) -> None:
    ray = parser.add_argument_group(
        "Ray (pip install 'pyaz[ray]')",
        "self-play in Ray actors on a cluster; the learner, gating and evaluation stay here",
    )
    ray.add_argument(
        "--ray",
        nargs="?",
        const="",
        metavar="ADDRESS",
        help="play self-play games on Ray: no ADDRESS starts a local Ray (or joins RAY_ADDRESS), "
        "'auto' joins the cluster started on this machine, HOST:PORT a cluster's head",
    )
    ray.add_argument("--workers", type=int, help="self-play actors (default 1)")
    ray.add_argument(
        "--ray-mode",
        choices=("sync", "async"),
        help="sync: each iteration waits for its E games (the embedded loop's semantics, the "
        "default); async: actors keep playing with the latest weights they have",
    )
    ray.add_argument(
        "--ray-timeout", type=float, help="seconds to wait for the workers before an error (600)"
    )
    ray.add_argument("--worker-cpus", type=float, help="CPUs per actor (default --threads)")
    ray.add_argument("--worker-gpus", type=float, help="GPUs per actor (default 0)")
    ray.add_argument(
        "--chunk-games", type=int, help="async: games per chunk an actor plays (default E/N)"
    )


def ray_settings(args: argparse.Namespace) -> Any:
    """The :class:`~pyaz.distributed.RaySettings` of the command line (None without --ray)."""
    ray_only = ("workers", "ray_mode", "ray_timeout", "worker_cpus", "worker_gpus", "chunk_games")
    if args.ray is None:
        given = [name for name in ray_only if getattr(args, name) is not None]
        if given:
            names = ", ".join("--" + name.replace("_", "-") for name in given)
            raise ValueError(f"{names} need --ray")
        return None
    from pyaz.distributed import RaySettings

    settings = RaySettings(
        address=args.ray or None,
        workers=args.workers if args.workers is not None else 1,
        mode=args.ray_mode or "sync",
        timeout_s=args.ray_timeout if args.ray_timeout is not None else 600.0,
        worker_cpus=args.worker_cpus,
        worker_gpus=args.worker_gpus or 0.0,
        chunk_games=args.chunk_games,
    )
    settings.validate()
    return settings


def given_settings(args: argparse.Namespace) -> dict[str, Any]:
    """The settings of the preset (``--preset``: a shipped preset's name or a TOML file) and
    the command line, the command line's winning: flat (game options at the top level)."""
    values: dict[str, Any] = {}
    if args.preset is not None:
        values.update(_flat(load_preset(args.preset)))
    values.update(given_game_options(args))
    if args.game is not None:
        values["game"] = args.game
    for name, _, _ in OPTIONS:
        if getattr(args, name) is not None:
            values[name] = getattr(args, name)
    if args.no_augment:
        values["augment"] = False
    return values


def settings_from(args: argparse.Namespace) -> TrainConfig:
    """Defaults < preset < command line. With ``--resume``: the run's config.json < preset <
    command line, where the preset and the command line may change only the settings of
    :data:`~pyaz.train.loop.RESUMABLE` (ValueError naming each other one that differs), and a
    folder without config.json is a ValueError."""
    given = given_settings(args)
    if not args.resume:
        return train_config(given)
    saved = read_run_config(args.out)
    if "game" in given and canonical_name(given["game"]) == canonical_name(saved.get("game", "")):
        given["game"] = saved["game"]  # an alias of the same game
    config = train_config({**_flat(saved), **given})
    check_resume_settings(args.out, saved, asdict(config), RESUMABLE)
    return config


def _flat(settings: dict[str, Any]) -> dict[str, Any]:
    """``settings`` with the entries of its ``game_options`` table at the top level (where
    :func:`~pyaz.train.preset_files.train_config` takes them; top-level keys win)."""
    values = dict(settings)
    options = values.pop("game_options", {})
    if not isinstance(options, dict):
        raise TypeError(f"game_options must be a table of game options, got {options!r}")
    return {**options, **values}


def _is_curling(argv: list[str]) -> bool:
    """Whether the command line, its preset or the run being resumed names the curling game."""
    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--game")
    pre.add_argument("--preset")
    pre.add_argument("--out", type=Path)
    pre.add_argument("--resume", action="store_true")
    known, _ = pre.parse_known_args(argv)
    if known.game is not None:
        return bool(known.game == "curling")
    try:
        if known.preset is not None:
            return bool(load_preset(known.preset).get("game") == "curling")
        saved = known.out / "config.json" if known.out is not None else None
        if known.resume and saved is not None and saved.exists():
            return bool(json.loads(saved.read_text()).get("game") == "curling")
    except (OSError, ValueError):
        return False  # the main parser reports the problem
    return False


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if _is_curling(argv):
        from pyaz.cli import selfplay_curling

        return selfplay_curling.main(argv)
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        ray = ray_settings(args)
    except ValueError as error:
        parser.error(str(error))
    engines: list[Any] = []

    def settings() -> TrainConfig:
        config = settings_from(args)
        config.validate()
        config.check_players()
        return config

    def build(config: TrainConfig, lock: FolderLock) -> TrainingLoop:
        engine = None
        if ray is not None:
            from pyaz.distributed import RaySelfPlay

            engine = RaySelfPlay(config, args.out, ray)
            engines.append(engine)
        return TrainingLoop(
            config,
            args.out,
            resume=args.resume,
            progress=not args.quiet,
            self_play=engine,
            lock=lock,
        )

    def plot(out: Path) -> None:
        from pyaz.common.plots import make_plots

        make_plots(out)

    resume = f"pyaz-selfplay --out {args.out} --resume" + _ray_words(argv)
    try:
        return run_training(
            settings,
            build,
            args.out,
            resume,
            plot,
            "plots, metrics, checkpoints, best.torchscript.pt",
        )
    except (RayUnavailableError, WorkerTimeoutError, WorkerLostError) as error:
        print(f"pyaz-selfplay: {error}", file=sys.stderr)
        return 1
    finally:
        for engine in engines:
            engine.close()


def _ray_words(argv: list[str]) -> str:
    """The Ray options of the command line, for the resume hint."""
    words = []
    for index, word in enumerate(argv):
        if word == "--ray" or word.startswith(("--ray", "--workers", "--worker-", "--chunk-")):
            words.append(word)
            following = argv[index + 1] if index + 1 < len(argv) else ""
            if "=" not in word and following and not following.startswith("--"):
                words.append(following)
    return "".join(" " + word for word in words)


if __name__ == "__main__":
    raise SystemExit(main())
