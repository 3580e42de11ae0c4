"""``pyaz-gomocup``: pyaz as a Gomocup / Piskvork ``pbrain`` engine on stdin/stdout.

Point a manager (Piskvork, the Gomocup manager) at the command ``pyaz-gomocup`` (the mentor,
following the manager's time per move), ``pyaz-gomocup --player mentor:MS`` (a fixed time) or
``pyaz-gomocup --player alphagomoku:PATH[:SIMS]`` (a trained pair). The protocol is in
:mod:`pyaz.alphagomoku.gomocup`.
"""

from __future__ import annotations

import argparse
import sys

from pyaz.alphagomoku.gomocup import GomocupBrain, mentor_factory, pair_factory, serve
from pyaz.alphagomoku.players import DEFAULT_SIMULATIONS


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


def _factory(spec: str):  # type: ignore[no-untyped-def]
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
    raise SystemExit(main())
