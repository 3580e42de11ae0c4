"""Why a Gomoku player lost: the mentor's threat analysis replayed over a match's games.

For each game of a ``pyaz-arena`` folder (its ``games.txt``, A moving first in games 1, 3,
5, ...; ``summary.json`` says how many plies of random opening to skip), before each of A's
moves, ``GomokuMentor.forced_moves`` (``--time-ms`` a position) says what the position held:
nothing forcing (``none``), a five to complete or block, a forced win of A's (``vcf``,
``vct``), or the opponent's forced win with the moves that stop it, A's move among them
(``defend-kept``) or not (``defend-missed``), or none of the moves it tries stops it
(``defend-none``: the game was lost by force), or its budget ran out before it tried them all
(``defend-unproven``). Each game's result is then counted with whether a lost-by-force
position and a missed defence came up. Run::

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
    info = mentor.last_info
    reason = str(info["reason"])
    if reason != "defend":
        return reason
    if action in forced:
        return "defend-kept"
    if not info["answers_complete"]:
        return "defend-unproven"  # the budget ran out before every answer was tried
    return "defend-missed" if forced else "defend-none"


def analyse(folder: Path, time_ms: float) -> tuple[collections.Counter, collections.Counter]:
    """(A's positions by kind, A's games by (result, lost by force at some point, a defence
    missed at some point)), from ``folder``'s games.txt and summary.json (the board, the
    five rule, and the plies of random opening, which are not A's choices)."""
    summary = json.loads((folder / "summary.json").read_text())
    options = summary.get("game_options", {})
    start = Gomoku(int(options.get("size", 15)), 5, bool(options.get("overline_wins", True)))
    opening_plies = int(summary["opening_plies"])
    mentor = GomokuMentor(time_ms=time_ms)
    kinds: collections.Counter = collections.Counter()
    games: collections.Counter = collections.Counter()
    lines = [line.split() for line in (folder / "games.txt").read_text().splitlines()]
    for index, moves in enumerate(line for line in lines if line and not line[0].startswith("#")):
        result, moves = moves[-1], [move for move in moves[:-1] if move != "resign"]
        a_colour = index % 2
        state, seen = start.clone(), set()
        for ply, move in enumerate(moves):
            action = state.str_to_action(move)
            if state.to_move() == a_colour and ply >= opening_plies:
                kind = position_kind(mentor, state, action)
                kinds[kind] += 1
                seen.add(kind)
            state = state.child(action)
        a_won = result == ("1-0" if a_colour == 0 else "0-1")
        outcome = "draw" if result == "1/2-1/2" else "win" if a_won else "loss"
        games[(outcome, "defend-none" in seen, "defend-missed" in seen)] += 1
    return kinds, games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="a pyaz-arena --out folder (games.txt)")
    parser.add_argument("--time-ms", type=float, default=100.0, help="analysis time a position")
    args = parser.parse_args()
    kinds, games = analyse(args.folder, args.time_ms)
    print("A's positions:", ", ".join(f"{k} {n}" for k, n in kinds.most_common()))
    for (outcome, lost, missed), count in sorted(games.items()):
        print(
            f"{outcome}: {count} games (a position lost by force: {lost}, "
            f"a missed defence: {missed})"
        )


if __name__ == "__main__":
    main()
