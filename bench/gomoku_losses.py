"""Why a Gomoku player lost: the mentor's threat analysis replayed over a match's games.

For each game of a ``pyaz-arena`` folder (its ``games.txt``, A moving first in games 1, 3,
5, ...; ``summary.json`` says how many plies of random opening to skip), before each of A's
moves, ``GomokuMentor.forced_moves`` (``--time-ms`` a position) says what the position held:
nothing forcing (``none``), a five to complete or block, a forced win of A's (``vcf``,
``vct``), or the opponent's forced win with the moves that stop it, A's move among them
(``defend-kept``) or not (``defend-missed``), or no move that stops it (``defend-none``: the
game was lost by force). Each game's result is then counted with whether such a lost-by-force
position came up. Run::

    pyaz-arena guard:model:runs/g9:800 mentor:20 --game gomoku --size 9 --games 100 --out runs/m
    python bench/gomoku_losses.py runs/m

The analysis is timed, so counts near a budget's edge can differ between two runs.
"""

from __future__ import annotations

import argparse
import collections
import json
from pathlib import Path

from pyaz._core import Gomoku, GomokuMentor


def position_kind(mentor: GomokuMentor, state: Gomoku, action: int) -> str:
    """What the threat analysis finds before ``action`` is played in ``state``."""
    forced = mentor.forced_moves(state)
    reason = str(mentor.last_info["reason"])
    if reason != "defend":
        return reason
    if not forced:
        return "defend-none"
    return "defend-kept" if action in forced else "defend-missed"


def analyse(
    folder: Path, size: int, time_ms: float, opening_plies: int
) -> tuple[collections.Counter, collections.Counter]:
    """(A's positions by kind, A's games by (result, lost by force at some point)); the first
    ``opening_plies`` plies of each game (its random opening) are not A's choices."""
    mentor = GomokuMentor(time_ms=time_ms)
    kinds: collections.Counter = collections.Counter()
    games: collections.Counter = collections.Counter()
    lines = [line.split() for line in (folder / "games.txt").read_text().splitlines()]
    for index, moves in enumerate(line for line in lines if line and not line[0].startswith("#")):
        result, moves = moves[-1], moves[:-1]
        a_colour = index % 2
        state, lost_by_force = Gomoku(size), False
        for ply, move in enumerate(moves):
            action = state.str_to_action(move)
            if state.to_move() == a_colour and ply >= opening_plies:
                kind = position_kind(mentor, state, action)
                kinds[kind] += 1
                lost_by_force |= kind == "defend-none"
            state = state.child(action)
        a_won = result == ("1-0" if a_colour == 0 else "0-1")
        outcome = "draw" if result == "1/2-1/2" else "win" if a_won else "loss"
        games[(outcome, lost_by_force)] += 1
    return kinds, games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="a pyaz-arena --out folder (games.txt)")
    parser.add_argument("--size", type=int, default=9, help="the board size (default 9)")
    parser.add_argument("--time-ms", type=float, default=100.0, help="analysis time a position")
    args = parser.parse_args()
    summary = json.loads((args.folder / "summary.json").read_text())
    kinds, games = analyse(args.folder, args.size, args.time_ms, int(summary["opening_plies"]))
    print("A's positions:", ", ".join(f"{k} {n}" for k, n in kinds.most_common()))
    for (outcome, forced), count in sorted(games.items()):
        after = "after a position lost by force" if forced else "with no such position"
        print(f"{outcome}: {count} {after}")


if __name__ == "__main__":
    main()
