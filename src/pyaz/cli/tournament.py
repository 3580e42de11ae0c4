"""``pyaz-tournament``: a round robin of trained networks (and the random player), rated with
Bayesian Elo (see :mod:`pyaz.eval.tournament`).

Example::

    pyaz-tournament runs/a/checkpoint.pt runs/b/checkpoint.pt --random --games 20 --out elo/

``--out`` is checked before the first game (a folder that cannot be made or written in: a
one-line error, exit 2). Each game is kept in ``--out``'s ``games.jsonl`` as it ends, and the
same command after a stop (Ctrl-C, a kill) plays only the games not in it
(:mod:`pyaz.eval.tournament_journal`). A write that fails later (a full disk) does not stop
the games: the ratings are printed, then one line on stderr names the file and the reason,
and the exit status is 1.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pyaz.cli import cannot_write, exit_from_main, options
from pyaz.common.folder_lock import FolderInUseError
from pyaz.eval.elo import DEFAULT_PRIOR
from pyaz.eval.match_files import check_writable
from pyaz.eval.players import RandomPlayer
from pyaz.eval.tournament import (
    RANDOM,
    Contestant,
    _split_spec,
    checkpoint_contestants,
    run_tournament,
    start_state_for,
)
from pyaz.games import GAMES
from pyaz.nets.shipped import MODEL_SIMULATIONS


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pyaz-tournament",
        description=(
            "Round robin between trained networks (and optionally the uniform random player), "
            "rated with Bayesian Elo (draws, first-move advantage, a virtual-draw prior); "
            "prints a ratings table and writes ratings.csv, games.jsonl, fit.json and "
            "ratings.png into --out."
        ),
        epilog=(
            "Example: pyaz-tournament runs/a/checkpoint.pt runs/b/nets/iter-00010.pt --random "
            "--games 20 --simulations 50 --out elo/"
        ),
    )
    parser.add_argument(
        "checkpoints",
        nargs="*",
        metavar="CHECKPOINT",
        help=(
            "a network written by pyaz-selfplay: runs/NAME/nets/iter-00005.pt, the run "
            "folder runs/NAME or its checkpoint.pt (its best network; TorchScript exports are "
            "not executed); LABEL=PATH names the player LABEL (default: "
            "NAME/iter-00005, or NAME for the run's best network)"
        ),
    )
    parser.add_argument(
        "--games",
        type=int,
        required=True,
        metavar="N",
        help="games per pair of players, colours alternating",
    )
    parser.add_argument(
        "--simulations",
        type=int,
        default=MODEL_SIMULATIONS,
        metavar="M",
        help=f"MCTS simulations per move of each network player (default {MODEL_SIMULATIONS})",
    )
    parser.add_argument(
        "--random",
        action="store_true",
        help=f"add the uniform random player, named {RANDOM!r} (the default anchor)",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=Path("tournament"),
        metavar="DIR",
        help="folder for ratings.csv, games.jsonl, fit.json, ratings.png (default ./tournament); "
        "games.jsonl keeps each game as it ends: the same command again resumes the tournament",
    )
    parser.add_argument(
        "--anchor",
        metavar="NAME",
        help=(
            "player rated 0; intervals are relative to it (default: random with --random, "
            "else the players' average is 0)"
        ),
    )
    options.add_game_arguments(
        parser,
        required=False,
        game_help=(
            f"game to play ({', '.join(GAMES)}); default: the game in the checkpoints' config.json"
        ),
    )
    parser.add_argument(
        "--opening-plies",
        type=int,
        default=None,
        help="random plies opening each pair of games, played once per colour; the openings "
        "of a match differ (default: the game's, othello 4, the others 2)",
    )
    parser.add_argument(
        "--prior",
        type=float,
        default=DEFAULT_PRIOR,
        help=(
            "the prior: about this many virtual draws per player, spread over its opponents "
            f"(Coulom's bayeselo prior; 0: maximum likelihood; default {DEFAULT_PRIOR:g})"
        ),
    )
    parser.add_argument(
        "--advantage",
        type=float,
        help="first-move advantage in Elo, held fixed (default: estimated)",
    )
    parser.add_argument(
        "--drawelo",
        type=float,
        help="Coulom's draw parameter in Elo, held fixed (default: estimated)",
    )
    parser.add_argument(
        "--seed", type=int, default=0, help="seed of the openings and the random player (0)"
    )
    parser.add_argument("--device", default="cpu", help="torch device for the networks (cpu)")
    options.add_runtime_argument(parser)
    parser.add_argument(
        "--torch-threads", type=int, default=1, help="torch intra-op threads (default 1)"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    write_error: OSError | None = None
    try:
        if args.games < 1:
            raise ValueError(f"--games must be >= 1, got {args.games}")
        if args.simulations < 1:
            raise ValueError(f"--simulations must be >= 1, got {args.simulations}")
        paths = [_split_spec(spec)[1] for spec in args.checkpoints]
        for path in paths:
            if not path.exists():
                raise FileNotFoundError(f"no such checkpoint: {path}")
        if len(paths) + int(args.random) < 2:
            raise ValueError("a tournament needs at least two players (checkpoints, --random)")
        game, chosen, state = start_state_for(paths, args.game, options.given_game_options(args))
        check_writable(args.out)

        import torch

        torch.set_num_threads(max(1, args.torch_threads))
        contestants: list[Contestant] = []
        if args.random:
            contestants.append(Contestant(RANDOM, RandomPlayer(seed=args.seed, name=RANDOM)))
        contestants += checkpoint_contestants(
            args.checkpoints,
            state,
            args.simulations,
            device=args.device,
            seed=args.seed,
            runtime=args.runtime,
        )
        anchor = args.anchor if args.anchor is not None else (RANDOM if args.random else None)
        title = options.describe_game(game, chosen)
        pairs = len(contestants) * (len(contestants) - 1) // 2
        if not args.quiet:
            print(
                f"{len(contestants)} players, {pairs} pairs x {args.games} games of {title}, "
                f"{args.simulations} simulations per move",
                file=sys.stderr,
            )
        try:
            tournament = run_tournament(
                contestants,
                args.games,
                state,
                out=args.out,
                anchor=anchor,
                prior=args.prior,
                advantage=args.advantage,
                drawelo=args.drawelo,
                opening_plies=args.opening_plies,
                seed=args.seed,
                progress=not args.quiet,
                title=title,
            )
        except OSError as error:
            if getattr(error, "tournament", None) is None:
                raise
            tournament, write_error = error.tournament, error  # type: ignore[attr-defined]
    except KeyboardInterrupt as interrupt:
        partial = getattr(interrupt, "tournament", None)
        if partial is not None and partial.fit is not None:
            print(partial.fit.table())
            print(
                f"interrupted: the games so far are rated in {args.out}; the same command "
                "resumes the tournament",
                file=sys.stderr,
            )
        else:
            print("interrupted", file=sys.stderr)
        return 130
    except (ValueError, TypeError, OSError, FolderInUseError) as error:
        print(f"pyaz-tournament: {error}", file=sys.stderr)
        return 2
    assert tournament.fit is not None
    print(tournament.fit.table())
    distinct = sum(m.distinct_games for m in tournament.matches)
    played = sum(m.n for m in tournament.matches)
    print(f"{distinct} distinct games of {played} ({len(tournament.matches)} matches)")
    if write_error is not None:
        print(f"pyaz-tournament: {cannot_write(write_error, args.out)}", file=sys.stderr)
        return 1
    print(f"wrote {args.out}/ratings.csv, games.jsonl, fit.json, ratings.png")
    return 0


if __name__ == "__main__":
    exit_from_main(main)
