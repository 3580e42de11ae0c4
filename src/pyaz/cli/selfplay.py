"""``pyaz-selfplay``: train a player by self-play (the main job), in one of two modes picked by
the method the game's profile names (:attr:`~pyaz.games.profiles.GameProfile.method`): board
games (:class:`~pyaz.methods.alphazero.loop.TrainingLoop`) or curling (``--game curling``:
:class:`~pyaz.methods.kr_dl_uct.loop.CurlingTrainingLoop`). Every option is generated
from the one declaration of its setting (:class:`~pyaz.methods.alphazero.config.TrainConfig`,
:class:`~pyaz.methods.kr_dl_uct.config.CurlingConfig`).

Settings come from the defaults, then a ``--preset`` TOML file, then the command line; a resumed
run (``--resume``) takes the settings it was started with (its config.json), and only the
settings of :data:`~pyaz.methods.alphazero.saved_settings.RESUMABLE` may differ on its command line.
Every setting is checked before the run folder is touched. The run folder (``--out``) is locked
while the run uses it; it gets config.json, metrics.jsonl/.csv, TensorBoard logs, checkpoints,
the networks of every iteration (nets/), the best network as TorchScript (an export for other
tools: pyaz plays the weights, never the TorchScript), and PNG plots.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable
from dataclasses import asdict
from pathlib import Path
from typing import Any

from pyaz.cli import exit_from_main
from pyaz.cli.options import (
    GAME_FLAGS,
    GAME_SWITCHES,
    add_game_arguments,
    given_game_options,
)
from pyaz.cli.training_run import run_training
from pyaz.common.folder_lock import FolderLock
from pyaz.common.runlog import CONFIG_NAME, check_resume_settings, read_run_config
from pyaz.common.settings import (
    add_options,
    declarations,
    flag,
    given_values,
    make_settings,
    refuse_saved_engines,
)
from pyaz.eval.presets import starts_process
from pyaz.games import canonical_name
from pyaz.games.profiles import profile
from pyaz.methods.alphazero.config import TrainConfig
from pyaz.methods.alphazero.loop import TrainingLoop
from pyaz.methods.alphazero.preset_files import load_preset, preset_names, train_config
from pyaz.methods.alphazero.saved_settings import RESUMABLE, refuse_saved_code
from pyaz.methods.kr_dl_uct.config import RESUMABLE as CURLING_RESUMABLE
from pyaz.methods.kr_dl_uct.config import CurlingConfig
from pyaz.train.techniques import CORE, TECHNIQUES, switched_on, switches_text

BOARD = [name for name, (_, spec) in declarations(TrainConfig).items() if not spec.option]
CURLING = [name for name, (_, spec) in declarations(CurlingConfig).items() if not spec.option]
RAY = ("ray", "ray_mode", "ray_timeout", "worker_cpus", "worker_gpus", "chunk_games")


MODES = (
    "Two modes, picked by the game: board games (the AlphaZero and AlphaGo Zero loops: the "
    "options of 'training') and curling (--game curling, or a preset or resumed run of "
    "curling: seed 002's supervised start then KR-DL-UCT self-play, docs/curling.md: the "
    "options of 'curling mode', and those of 'training' that say 'curling:'). An option of "
    "the other mode is an error."
)


SHOWN = {
    "out", "preset", "resume", "game", "size", "width", "height", "no_augment", "quiet",
    "technique", "help_technique", "help_all",
    *(name for name in CORE if name not in ("game", "game_options", "augment")),
}  # fmt: skip
"""The options ``--help`` shows (the core settings, the run folder, the game and its board
size, the techniques): the others, each technique's settings, the other game options, Ray's and
the curling mode's, are taken as always and shown by ``--help-all`` and ``--help-technique``."""


def build_parser(full: bool = False) -> argparse.ArgumentParser:
    """The options of both modes, generated from the fields of :class:`TrainConfig` and
    :class:`~pyaz.methods.kr_dl_uct.config.CurlingConfig`
    (:func:`~pyaz.common.settings.add_options`);
    the help shows those of :data:`SHOWN`, or all of them when ``full``."""
    parser = argparse.ArgumentParser(
        prog="pyaz-selfplay",
        description="Train a policy-value network by self-play with C++ tree search. " + MODES,
        epilog="Example: pyaz-selfplay --game othello --size 6 --threads 32 --out runs/o6; "
        "pyaz-selfplay --game curling --out runs/curling (the curling mode: --game curling)."
        + ("" if full else " --help-all lists every option, --help-technique the techniques."),
    )
    parser.add_argument(
        "--technique",
        action="append",
        metavar="NAME",
        choices=list(TECHNIQUES),
        help="switch on a technique that measured no gain by default or serves one game "
        "(repeatable; its settings' flags still win): --help-technique lists them",
    )
    parser.add_argument(
        "--help-technique",
        nargs="?",
        const="list",
        metavar="NAME",
        action=_ShowAndExit,
        show=lambda name: technique_help(str(name)),
        help="list the techniques with their measured effect, or show one's settings, and exit",
    )
    parser.add_argument(
        "--help-all",
        nargs=0,
        action=_ShowAndExit,
        show=lambda _: build_parser(full=True).format_help(),
        help="show every option, and exit",
    )
    parser.add_argument("--out", type=Path, required=True, help="run folder (created if missing)")
    parser.add_argument(
        "--preset",
        help="settings: a shipped preset's name (" + ", ".join(preset_names()) + ") or a TOML "
        "file (keys = option names)",
    )
    board_resumable = ", ".join(flag(name) for name in RESUMABLE)
    curling_resumable = ", ".join(flag(name) for name in CURLING_RESUMABLE)
    parser.add_argument(
        "--resume",
        action="store_true",
        help="continue the run in --out with the settings it was started with (its "
        f"config.json): options given beside it must equal them, except {board_resumable}, "
        f"--quiet and the Ray options (curling: {curling_resumable}); a saved --eval-opponent "
        "or --sparring that starts an engine (gtp:, uci:, gnugo, ...) must be given again",
    )
    add_game_arguments(
        parser,
        required=False,
        game_help=f"the game (default {TrainConfig.game}); curling picks the curling mode",
    )
    parser.add_argument("--no-augment", action="store_true", help="no symmetry augmentation")
    parser.add_argument("--quiet", action="store_true", help="no progress bars")
    board = add_options(parser.add_argument_group("training"), TrainConfig())
    workers = _add_ray_arguments(parser)
    curling = parser.add_argument_group("curling mode (--game curling)")
    add_options(curling, CurlingConfig(), {**board, "workers": workers}, "curling")
    if not full:
        for action in parser._actions:
            if action.dest not in SHOWN and action.dest != "help":
                action.help = argparse.SUPPRESS
        for group in parser._action_groups:
            if all(action.help == argparse.SUPPRESS for action in group._group_actions):
                group.description = None  # nothing of it shown: no heading either
    return parser


class _ShowAndExit(argparse.Action):
    """An option that prints ``show(value)`` and exits, as ``--help`` does (before the required
    options are checked); a ValueError of ``show`` is the parser's error."""

    def __init__(self, *args: Any, show: Callable[[Any], str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.show = show

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        try:
            text = self.show(values)
        except ValueError as error:
            parser.error(str(error))
        print(text, end="" if text.endswith("\n") else "\n")
        parser.exit()


def technique_help(name: str) -> str:
    """What ``--help-technique NAME`` prints: every technique in a line (``list``), or one
    technique's summary, measured effect and verdict, what ``--technique NAME`` sets, and the
    help of each of its options; ValueError naming an unknown one."""
    if name == "list":
        lines = ["Techniques (pyaz-selfplay --technique NAME; --help-technique NAME for one):"]
        for technique in TECHNIQUES.values():
            lines.append(f"  {technique.name:<22} {technique.verdict}: {technique.summary}")
        return "\n".join(lines)
    if name not in TECHNIQUES:
        raise ValueError(f"unknown technique {name!r}; known: {', '.join(TECHNIQUES)}")
    technique = TECHNIQUES[name]
    helps = {action.dest: action for action in build_parser(full=True)._actions}
    lines = [
        f"{technique.name}: {technique.summary}",
        f"measured ({technique.measured or 'not here'}): {technique.effect}",
        f"verdict: {technique.verdict} (docs/{technique.link})",
        f"--technique {technique.name} sets: {switches_text(technique)}",
        "its options:",
    ]
    for field in technique.settings:
        action = helps[field]
        lines.append(f"  {'/'.join(action.option_strings)}: {action.help}")
    return "\n".join(lines)


def _add_ray_arguments(parser: argparse.ArgumentParser) -> argparse.Action:
    """The Ray options; returns ``--workers`` (the curling mode's workers share it)."""
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
    workers = ray.add_argument("--workers", type=int, help="Ray: self-play actors (default 1)")
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
    return workers


def ray_settings(args: argparse.Namespace) -> Any:
    """The :class:`~pyaz.distributed.RaySettings` of the command line (None without --ray)."""
    values = {name: getattr(args, name) for name in ("workers", *RAY[1:])}
    given = {name: value for name, value in values.items() if value is not None}
    if args.ray is None:
        if given:
            raise ValueError(f"{', '.join(flag(name) for name in given)} need --ray")
        return None
    from pyaz.distributed import RaySettings

    fields = {"ray_mode": "mode", "ray_timeout": "timeout_s"}  # the others: the option's name
    settings = RaySettings(
        address=args.ray or None, **{fields.get(name, name): v for name, v in given.items()}
    )
    settings.validate()
    return settings


def given_settings(args: argparse.Namespace) -> dict[str, Any]:
    """The settings of the preset (``--preset``: a shipped preset's name or a TOML file) and
    the command line, the command line's winning: flat (game options at the top level)."""
    values: dict[str, Any] = {}
    if args.preset is not None:
        preset = _flat(load_preset(args.preset))
        refuse_saved_code(args.preset, preset, {"game": args.game})  # a file: no module path
        values.update(preset)
    values.update(switched_on(args.technique or ()))
    values.update(given_game_options(args))
    if args.game is not None:
        values["game"] = args.game
    values.update(given_values(args, BOARD))
    if args.no_augment:
        values["augment"] = False
    return values


def settings_from(args: argparse.Namespace) -> TrainConfig:
    """Defaults < preset < command line. With ``--resume``: the run's config.json < preset <
    command line, where the preset and the command line may change only the settings of
    :data:`~pyaz.methods.alphazero.saved_settings.RESUMABLE` (ValueError naming each other one that
    differs; auto and none count as what they choose for the game, as the run saved them), and a
    folder without config.json is a ValueError. A saved setting that would start an external engine
    is a ValueError unless the command line gives it again, the same
    (:func:`~pyaz.common.settings.refuse_saved_engines`). An option of the curling mode is a
    ValueError."""
    curling_only = [name for name in CURLING if name not in BOARD and name != "workers"]
    _refuse(args, curling_only, "applies only to --game curling")
    given = given_settings(args)
    if not args.resume:
        return train_config(given)
    saved = TrainingLoop.upgrade_settings(read_run_config(args.out))
    saved.pop("method", None)
    command_line = given_values(args, BOARD)  # not the preset: a file, as config.json is
    refuse_saved_engines(args.out / CONFIG_NAME, saved, command_line, starts_process)
    refuse_saved_code(args.out / CONFIG_NAME, saved, {"game": args.game})  # a module path
    if "game" in given and canonical_name(given["game"]) == canonical_name(saved.get("game", "")):
        given["game"] = saved["game"]  # an alias of the same game
    # compared as resolved: the saved run holds what auto and none chose (TrainConfig.resolved)
    config = train_config({**_flat(saved), **given}).resolved()
    check_resume_settings(args.out, saved, asdict(config), RESUMABLE)
    return config


def curling_settings_from(args: argparse.Namespace) -> CurlingConfig:
    """The curling mode's :func:`settings_from`: the same order and resume rule (with
    :data:`~pyaz.methods.kr_dl_uct.config.RESUMABLE`); a board-game option is a ValueError naming
    it."""
    game_flags = [option[2:].replace("-", "_") for option, *_ in (*GAME_FLAGS, *GAME_SWITCHES)]
    board_only = [name for name in BOARD if name not in CURLING]
    _refuse(args, [*board_only, *game_flags, "no_augment", *RAY], "does not apply to curling")
    values = load_preset(args.preset) if args.preset is not None else {}
    values.update(given_values(args, ["game", *CURLING]))
    saved = read_run_config(args.out) if args.resume else {}
    saved.pop("method", None)  # the loop checks it
    config = make_settings(CurlingConfig, {**saved, **values}, "curling settings")
    config.check()
    if args.resume:
        check_resume_settings(args.out, saved, asdict(config), CURLING_RESUMABLE)
    return config


def _refuse(args: argparse.Namespace, names: Iterable[str], why: str) -> None:
    """ValueError naming the options of ``names`` given on the command line: the other mode's."""
    values = {name: getattr(args, name) for name in names}
    given = [flag(name) for name, v in values.items() if v is not None and v is not False]
    if given:
        raise ValueError(f"{', '.join(given)}: {why}")


def _flat(settings: dict[str, Any]) -> dict[str, Any]:
    """``settings`` with the entries of its ``game_options`` table at the top level (where
    :func:`~pyaz.methods.alphazero.preset_files.train_config` takes them; top-level keys win)."""
    values = dict(settings)
    options = values.pop("game_options", {})
    if not isinstance(options, dict):
        raise TypeError(f"game_options must be a table of game options, got {options!r}")
    return {**options, **values}


def game_of(args: argparse.Namespace) -> str:
    """The game that picks the mode: ``--game``, else the preset's, else (with ``--resume``)
    the saved run's, else the default; a preset or run folder that cannot be read picks the
    board games (its error comes when the settings are read)."""
    if args.game is not None:
        return str(args.game)
    try:
        preset = load_preset(args.preset) if args.preset is not None else {}
        saved = read_run_config(args.out) if args.resume and "game" not in preset else {}
    except (OSError, ValueError):
        return TrainConfig.game
    return str(preset.get("game", saved.get("game", TrainConfig.game)))


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser()
    args = parser.parse_args(argv)
    game = game_of(args)
    if profile(game).method == "kr_dl_uct":  # curling, or a game registered with its method
        return _train_curling(args, game)
    try:
        ray = ray_settings(args)
    except ValueError as error:
        parser.error(str(error))
    engines: list[Any] = []
    loops: list[TrainingLoop] = []

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
        loop = TrainingLoop(
            config,
            args.out,
            resume=args.resume,
            progress=not args.quiet,
            self_play=engine,
            lock=lock,
        )
        loops.append(loop)
        return loop

    def plot(out: Path) -> None:
        if any(loop.interrupted for loop in loops):
            return  # Ctrl-C: out at once (the next run's end draws them)
        from pyaz.common.plots import make_plots

        make_plots(out)

    resume = f"pyaz-selfplay --out {args.out} --resume" + _ray_words(argv)
    ray_errors: tuple[type[Exception], ...] = ()
    if ray is not None:  # imported only then: pyaz.distributed takes a second and a half
        from pyaz.distributed.cluster import (
            RayUnavailableError,
            WorkerLostError,
            WorkerTimeoutError,
        )

        ray_errors = (RayUnavailableError, WorkerTimeoutError, WorkerLostError)
    try:
        return run_training(
            settings,
            build,
            args.out,
            resume,
            plot,
            "plots, metrics, checkpoints, best.torchscript.pt",
        )
    except ray_errors as error:
        print(f"pyaz-selfplay: {error}", file=sys.stderr)
        return 1
    finally:
        for engine in engines:
            engine.close()


def _train_curling(args: argparse.Namespace, game: str) -> int:
    """The curling mode of ``game``: seed 002's loop
    (:class:`~pyaz.methods.kr_dl_uct.loop.CurlingTrainingLoop`)."""
    from pyaz.methods.kr_dl_uct.loop import CurlingTrainingLoop

    def build(config: CurlingConfig, lock: FolderLock) -> CurlingTrainingLoop:
        return CurlingTrainingLoop(
            config, args.out, resume=args.resume, progress=not args.quiet, lock=lock
        )

    def plot(out: Path) -> None:
        from pyaz.common.plots import make_plots
        from pyaz.methods.kr_dl_uct.plots import plot_win_table

        make_plots(out)
        plot_win_table(out)

    return run_training(
        lambda: curling_settings_from(args),
        build,
        args.out,
        f"pyaz-selfplay --game {game} --out {args.out} --resume",
        plot,
        "plots, metrics, checkpoints, net.torchscript.pt, win_table.npy",
    )


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
    exit_from_main(main)
