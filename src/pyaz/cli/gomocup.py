"""``pyaz-gomocup``: pyaz as a Gomocup / Piskvork ``pbrain`` engine on stdin/stdout.

Point a manager (Piskvork, the Gomocup manager) at the command ``pyaz-gomocup`` (the mentor,
following the manager's time per move), ``pyaz-gomocup --player mentor:MS`` (a fixed time) or
``pyaz-gomocup --player alphagomoku:PATH[:SIMS]`` (a trained pair). The protocol is in
:mod:`pyaz.engines.gomocup_server`.
"""

from __future__ import annotations

import argparse
import sys

from pyaz._core import Gomoku
from pyaz.alphagomoku.players import DEFAULT_SIMULATIONS
from pyaz.engines.gomocup_server import GomocupBrain, PlayerFactory, serve
from pyaz.eval.players import MentorPlayer, Player, check_mentor_game


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pyaz-gomocup",
        description=(
            "Run pyaz as a Gomocup/Piskvork pbrain engine on stdin/stdout: START, RESTART, "
            "BEGIN, TURN, BOARD ... DONE, TAKEBACK, INFO (timeout_turn, timeout_match, "
            "time_left, rule), ABOUT, END."
        ),
    )
    parser.add_argument(
        "--player",
        default="mentor",
        help="mentor (the manager's time per move), mentor:MS, or alphagomoku:PATH[:SIMS] "
        f"(a pair.pt or its run folder, default {DEFAULT_SIMULATIONS} simulations)",
    )
    return parser


def mentor_factory(fixed_ms: float | None = None) -> PlayerFactory:
    """The mentor, with ``fixed_ms`` a move or the manager's time per move."""

    def make(start: Gomoku, time_ms: float) -> Player:
        check_mentor_game(start)
        return MentorPlayer(fixed_ms if fixed_ms is not None else time_ms, name="mentor")

    return make


def pair_factory(path: str, simulations: int) -> PlayerFactory:
    """An AlphaGomoku pair (its file or run folder) with ``simulations`` a move (the manager's
    time is not followed: a search of fixed size)."""
    from pyaz.alphagomoku.pair import load_pair
    from pyaz.alphagomoku.players import pair_player

    pair = load_pair(path)
    made: list[Player] = []

    def make(start: Gomoku, time_ms: float) -> Player:
        pair.check(start)
        if not made:  # one player (one exported evaluator) for the whole session
            made.append(pair_player(pair, simulations))
        return made[0]

    return make


def _factory(spec: str) -> PlayerFactory:
    kind, _, rest = spec.partition(":")
    if kind == "mentor":
        if not rest:
            return mentor_factory()
        try:
            ms = float(rest)
        except ValueError:
            raise ValueError(f"mentor:MS takes milliseconds, got {rest!r}") from None
        if not ms > 0:
            raise ValueError(f"the mentor's time per move must be > 0 ms, got {rest}")
        return mentor_factory(ms)
    if kind == "alphagomoku" and rest:
        path, simulations = rest, DEFAULT_SIMULATIONS
        head, _, tail = rest.rpartition(":")
        if head and tail.isdigit():
            path, simulations = head, int(tail)
        return pair_factory(path, simulations)
    raise ValueError(f"--player is mentor, mentor:MS or alphagomoku:PATH[:SIMS], got {spec!r}")


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        factory = _factory(args.player)
    except (ValueError, OSError) as error:  # a bad spec, a missing, unreadable or broken pair
        print(f"pyaz-gomocup: {error}", file=sys.stderr)
        return 2
    serve(GomocupBrain(factory), sys.stdin, sys.stdout)
    return 0


if __name__ == "__main__":
    from pyaz.cli import exit_from_main

    exit_from_main(main)
