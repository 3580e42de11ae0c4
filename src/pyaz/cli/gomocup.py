"""``pyaz-gomocup``: pyaz as a Gomocup / Piskvork ``pbrain`` engine on stdin/stdout.

Point a manager (Piskvork, the Gomocup manager) at the command ``pyaz-gomocup`` (the mentor,
following the manager's time per move), ``pyaz-gomocup --player mentor:MS`` (a fixed time),
``pyaz-gomocup --player alphagomoku:PATH[:SIMS]`` (a trained pair) or any other Gomoku player
preset of ``pyaz-arena`` with its own fixed budget, e.g. ``--player guard:model:RUN:800`` (a
network behind the mentor's threat analysis). The protocol is in
:mod:`pyaz.engines.gomocup_server`.
"""

from __future__ import annotations

import argparse
import sys

from pyaz._core import Gomoku
from pyaz.cli import exit_from_main
from pyaz.engines.gomocup_server import GomocupBrain, PlayerFactory, serve
from pyaz.eval import presets
from pyaz.eval.players import MentorPlayer, Player, check_mentor_game
from pyaz.methods.alphagomoku.players import DEFAULT_SIMULATIONS


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
        help="mentor (the manager's time per move), mentor:MS, alphagomoku:PATH[:SIMS] "
        f"(a pair.pt or its run folder, default {DEFAULT_SIMULATIONS} simulations), or any "
        "Gomoku preset of pyaz-arena with its own budget, e.g. model:RUN:800 or "
        "guard:model:RUN:800 (the network behind the mentor's threat analysis)",
    )
    return parser


def mentor_factory(fixed_ms: float | None = None) -> PlayerFactory:
    """The mentor, with ``fixed_ms`` a move or the manager's time per move."""

    def make(start: Gomoku, time_ms: float) -> Player:
        check_mentor_game(start)
        return MentorPlayer(fixed_ms if fixed_ms is not None else time_ms, name="mentor")

    return make


def preset_factory(spec: str) -> PlayerFactory:
    """Any Gomoku player preset (:func:`pyaz.eval.presets.make_player`: an AlphaGomoku pair,
    a network, a guarded one, ...) with its own budget (the manager's time is not followed). A
    model file that ``spec`` names is read now, so that a file that is not a pyaz model stops
    the command; the player is made for each board size and five rule that the manager starts
    (a pair or network for another board: an ERROR line), and kept for the session (one
    exported evaluator)."""
    inner = presets.guarded_spec(spec)
    kind = presets.spec_kind(inner)
    if kind in ("model", "alphagomoku"):
        from pyaz.nets import load_model

        what = "network" if kind == "model" else "pair"
        path, _ = presets.PresetSpec(inner, Gomoku(15), 0, None).path_and_simulations(1, what)
        if kind == "model":
            load_model(path, "az", cached=True)  # the players made below read the same cached copy
        else:
            load_model(path, "alphagomoku-pair")  # ValueError naming the file if it is no pair
    made: dict[tuple[int, bool], Player] = {}

    def make(start: Gomoku, time_ms: float) -> Player:
        key = (start.size, start.overline_wins)
        if key not in made:
            try:
                made[key] = presets.make_player(spec, start)
            except OSError as error:  # the file went away since: an ERROR line, not a crash
                raise ValueError(str(error)) from None
        return made[key]

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
    if presets.spec_kind(spec) in (*presets.BUILDERS, *presets.METHOD_PRESETS):
        return preset_factory(spec)
    raise ValueError(
        f"--player is mentor, mentor:MS, alphagomoku:PATH[:SIMS] or a player preset, got {spec!r}"
    )


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
    exit_from_main(main)
