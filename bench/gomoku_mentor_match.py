"""The Gomoku mentor (seed 004's rule-based tree search) against UCT with random rollouts, or
against itself with another time per move; and its search speed.

Each opening (2-4 random stones within two cells of the centre, all distinct) is played twice,
the mentor taking each colour once. A draw counts as half a win. Run::

    python bench/gomoku_mentor_match.py --size 15 --openings 3 --time-ms 1000 --opponent uct
    python bench/gomoku_mentor_match.py --size 15 --openings 2 --opponent mentor --opponent-ms 100
    python bench/gomoku_mentor_match.py --speed        # nodes/s from a few middle-game positions

Timings depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import pyaz
from pyaz._core import Gomoku, GomokuMentor

Player = Callable[[Gomoku], int]
WIN = {0: pyaz.Status.FIRST_PLAYER_WIN, 1: pyaz.Status.SECOND_PLAYER_WIN}


def uct_player(simulations: int, seed: int) -> Player:
    rng = random.Random(seed)

    def play(state: Gomoku) -> int:
        search = pyaz.Search(state, rule="uct", seed=rng.randrange(2**31))
        search.run(simulations, "rollout")
        return int(search.choose_action(0))

    return play


def openings(size: int, count: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    centre = size // 2
    span = range(centre - 2, centre + 3)
    near = [r * size + c for r in span for c in span]
    found: set[tuple[int, ...]] = set()
    while len(found) < count:
        found.add(tuple(rng.sample(near, rng.randint(2, 4))))
    return [list(o) for o in sorted(found)]


def play_game(
    size: int, opening: list[int], players: tuple[Player, Player]
) -> tuple[pyaz.Status, int]:
    state = pyaz.make("gomoku", size=size).play(opening)
    while not state.is_terminal():
        state.apply(players[state.to_move()](state))
    return state.status(), state.ply


def match(args: argparse.Namespace) -> None:
    mentor = GomokuMentor(time_ms=args.time_ms)
    mentor_player: Player = mentor.choose
    if args.opponent == "uct":
        opponent = uct_player(args.simulations, args.seed)
        name = f"UCT {args.simulations} rollouts"
    else:
        opponent = GomokuMentor(time_ms=args.opponent_ms).choose
        name = f"mentor {args.opponent_ms:g} ms"
    score, games = 0.0, 0
    start = time.monotonic()
    for opening in openings(args.size, args.openings, args.seed):
        for mentor_colour in (0, 1):
            players = (mentor_player, opponent) if mentor_colour == 0 else (opponent, mentor_player)
            status, plies = play_game(args.size, opening, players)
            points = 1.0 if status == WIN[mentor_colour] else 0.0
            points = 0.5 if status == pyaz.Status.DRAW else points
            score += points
            games += 1
            colour = "X" if mentor_colour == 0 else "O"
            print(f"opening {opening} mentor {colour}: {points:g} ({plies} plies)", flush=True)
    elapsed = time.monotonic() - start
    print(
        f"mentor {args.time_ms:g} ms vs {name} on {args.size}x{args.size}: "
        f"{score:g}/{games} ({100 * score / games:.1f}%), {elapsed:.0f} s"
    )


def speed(args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    nodes = seconds = 0.0
    for _ in range(args.positions):
        state = pyaz.make("gomoku", size=15).play(openings(15, 1, rng.randrange(10**6))[0])
        filler = GomokuMentor(time_ms=0, max_nodes=3000, randomness=1.0, seed=rng.randrange(10**6))
        for _ in range(12):
            if state.is_terminal():
                break
            state.apply(filler.choose(state))
        if state.is_terminal():
            continue
        mentor = GomokuMentor(time_ms=args.time_ms)
        mentor.choose(state)
        info = mentor.last_info
        nodes += info["nodes"]
        seconds += info["time_ms"] / 1000
        print(
            f"ply {state.ply}: {info['reason']}, depth {info['depth']}, "
            f"{info['nodes']} nodes in {info['time_ms']:.0f} ms",
            flush=True,
        )
    print(f"{nodes / seconds:,.0f} nodes/s over {nodes:,.0f} nodes")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=15)
    parser.add_argument("--openings", type=int, default=3)
    parser.add_argument("--time-ms", type=float, default=1000.0)
    parser.add_argument("--opponent", choices=("uct", "mentor"), default="uct")
    parser.add_argument("--simulations", type=int, default=2000)
    parser.add_argument("--opponent-ms", type=float, default=100.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--speed", action="store_true", help="measure nodes/s instead")
    parser.add_argument("--positions", type=int, default=8)
    args = parser.parse_args()
    speed(args) if args.speed else match(args)


if __name__ == "__main__":
    main()
