"""Command-line options shared by the pyaz commands: the game and its options (one table for
every command), the model, search and logging options of the engines."""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pyaz.engines.search import EngineSearch
from pyaz.engines.text_streams import tolerant
from pyaz.games import (
    GAMES,
    PlayableGameState,
    allow_code_reference,
    canonical_name,
    is_code_reference,
    make,
)
from pyaz.nets.runtimes import RUNTIMES

if TYPE_CHECKING:
    from pyaz.engines.gtp_server import GtpServer
    from pyaz.engines.uci_server import UciServer
    from pyaz.nets import LoadedModel

# (flag, option name in pyaz.GAMES, type, help); a flag only applies to games with that option.
GAME_FLAGS: list[tuple[str, str, Any, str]] = [
    ("--size", "size", int, "board size: othello 4..8, gomoku 5..15, go 5..19"),
    ("--width", "width", int, "connect_four width (default 7)"),
    ("--height", "height", int, "connect_four height (default 6)"),
    ("--line-length", "line_length", int, "gomoku: stones in a row that win (default 5)"),
    ("--komi", "komi", float, "go: komi (default 7.5 from 9x9 up, 0 below)"),
    ("--max-game-length", "max_game_length", int, "go: length cap in moves (default 3*size^2)"),
    ("--start", "start", str, "racingkings: 'standard', 'racingkings-mod' or a FEN"),
]
# (flag, option name, its value when the flag is given, help)
GAME_SWITCHES: list[tuple[str, str, bool, str]] = [
    ("--superko", "superko", True, "go: positional superko"),
    ("--allow-suicide", "allow_suicide", True, "go: suicide of 2+ stones is legal"),
    ("--exact-length", "overline_wins", False, "gomoku: only exactly line-length in a row wins"),
]


def add_game_arguments(
    parser: argparse.ArgumentParser, *, required: bool = True, game_help: str | None = None
) -> None:
    """``--game`` and the game options, the same for every command."""
    names = ", ".join(sorted(GAMES))
    group = parser.add_argument_group("game")
    group.add_argument(
        "--game",
        required=required,
        type=game_argument,
        help=game_help
        or f"the game: {names} (or an alias); a plug-in game's name, openspiel:NAME, or a "
        "module path package.module:Name",
    )
    for flag, _, kind, text in GAME_FLAGS:
        group.add_argument(flag, type=kind, help=text)
    for flag, _, _, text in GAME_SWITCHES:
        group.add_argument(flag, action="store_true", help=text)


def game_argument(text: str) -> str:
    """``--game`` as typed: a module path there is the person's own choice, which
    :func:`pyaz.make` may then import (:func:`~pyaz.games.plugins.allow_code_reference`)."""
    if is_code_reference(text):
        try:
            allow_code_reference(text)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None
    return text


def given_game_options(args: argparse.Namespace) -> dict[str, Any]:
    """The game options given on the command line (not checked against a game)."""
    options = {key: getattr(args, key) for _, key, _, _ in GAME_FLAGS}
    options = {key: value for key, value in options.items() if value is not None}
    for flag, key, value, _ in GAME_SWITCHES:
        if getattr(args, flag[2:].replace("-", "_")):
            options[key] = value
    return options


def check_game_options(name: str, options: dict[str, Any]) -> None:
    """ValueError naming the flag when an option does not apply to game ``name`` (a plug-in
    game's factory checks its own options when the game is made: a TypeError naming it)."""
    canonical = canonical_name(name)
    if canonical not in GAMES:
        return
    allowed = GAMES[canonical].options
    flags = {key: flag for flag, key, *_ in (*GAME_FLAGS, *GAME_SWITCHES)}
    for key in options:
        if key not in allowed:
            flag = flags.get(key, "--" + key.replace("_", "-"))
            raise ValueError(f"{flag} does not apply to {canonical_name(name)}")


def game_from_args(args: argparse.Namespace) -> tuple[str, dict[str, Any], PlayableGameState]:
    """(canonical game name, its options, the start state); ValueError for unfit options."""
    name = canonical_name(args.game)
    options = given_game_options(args)
    check_game_options(name, options)
    return name, options, make(name, **options)


def describe_game(name: str, options: dict[str, Any]) -> str:
    """``"go (size=9, komi=7.5)"``."""
    if not options:
        return name
    return f"{name} ({', '.join(f'{k}={v}' for k, v in options.items())})"


# --------------------------------------------------------------------------- engines
# The options that pyaz-gtp and pyaz-uci share, and the search they build from them.


def add_runtime_argument(parser: argparse.ArgumentParser | Any) -> None:
    """Adds ``--runtime``: where networks run (ONNX Runtime by default on a CPU)."""
    parser.add_argument(
        "--runtime",
        choices=RUNTIMES,
        default=None,
        help="where a network runs: onnxruntime (default on a CPU: the fastest measured), "
        "torchscript (default on a GPU), openvino (pip install 'pyaz[openvino]')",
    )


def add_model_arguments(parser: argparse.ArgumentParser) -> None:
    """Adds ``--model``, ``--device`` and ``--runtime``."""
    parser.add_argument(
        "--model",
        metavar="PATH",
        help="a network written by pyaz-selfplay (the run folder, nets/iter-*.pt or the "
        "checkpoint; not the TorchScript export, which pyaz does not execute); without it the "
        "engine plays UCT with random rollouts",
    )
    parser.add_argument(
        "--device", default="cpu", help="torch device for --model, e.g. cpu or cuda (default: cpu)"
    )
    add_runtime_argument(parser)


def add_search_arguments(parser: argparse.ArgumentParser) -> None:
    """Adds ``--seed``, ``--threads``, ``--c-puct`` and ``--c-uct``."""
    parser.add_argument(
        "--seed", type=int, default=0, help="seed of the search's random numbers (default: 0)"
    )
    parser.add_argument(
        "--threads", type=int, default=1, help="search threads (default: 1, reproducible)"
    )
    parser.add_argument(
        "--c-puct",
        type=float,
        default=1.0,
        help="PUCT exploration constant with --model (default: 1.0)",
    )
    parser.add_argument(
        "--c-uct",
        type=float,
        default=2**0.5,
        help="UCB1 exploration constant without --model (default: sqrt(2))",
    )


def add_logging_arguments(parser: argparse.ArgumentParser) -> None:
    """Adds ``--verbose`` and ``--quiet``."""
    parser.add_argument("--verbose", action="store_true", help="log debugging details to stderr")
    parser.add_argument(
        "--quiet", action="store_true", help="log only warnings and errors to stderr"
    )


MAX_THREADS = 1024
"""The most search threads an option takes (as the C++ core)."""


def check_search_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Exits through ``parser.error`` when the options of :func:`add_search_arguments` are off."""
    if not 1 <= args.threads <= MAX_THREADS:
        parser.error(f"--threads must be in 1..{MAX_THREADS}, got {args.threads}")
    if not 0 <= args.seed < 2**64:
        parser.error(f"--seed must be in 0..2**64-1, got {args.seed}")
    for name in ("c_puct", "c_uct"):
        value = getattr(args, name)
        if not 0 <= value < math.inf:  # NaN fails too
            parser.error(f"--{name.replace('_', '-')} must be a finite number >= 0, got {value}")


def engine_from_arguments(args: argparse.Namespace, model: LoadedModel | None) -> EngineSearch:
    """The search of the options of :func:`add_search_arguments`: UCT with random rollouts
    without ``model``, else PUCT guided by its network."""
    return EngineSearch.for_model(
        model,
        seed=args.seed,
        threads=args.threads,
        c_puct=args.c_puct,
        c_uct=args.c_uct,
        device=getattr(args, "device", "cpu"),
        runtime=getattr(args, "runtime", None),
    )


def load_engine_model(path: str | None, game: str | None = None) -> LoadedModel | None:
    """The network of ``--model`` (None without it), checked against ``game`` when given;
    ValueError ``cannot load --model PATH: reason`` (``use`` with ``game``)."""
    if path is None:
        return None
    try:
        from pyaz.nets import load_model

        model = load_model(path, "az")
        if game is not None:
            model.check(make(game))
    except (OSError, ValueError, RuntimeError) as error:
        raise ValueError(f"cannot {'use' if game else 'load'} --model {path}: {error}") from None
    return model


def serve_stdio(
    server: GtpServer | UciServer, on_interrupt: Callable[[], None] = lambda: None
) -> int:
    """Serves ``server``'s protocol on stdin/stdout (bad bytes become U+FFFD, reported as such);
    130 after a Ctrl-C (after ``on_interrupt()``)."""
    tolerant(sys.stdin, sys.stdout)
    try:
        return server.serve(sys.stdin, sys.stdout)
    except KeyboardInterrupt:
        on_interrupt()
        return 130
