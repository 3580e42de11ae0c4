"""Evaluations the experiments' reports share: a round robin of the final networks of many runs
plus the uniform random player, rated with Bayesian Elo (seed 001 Figs. 4, 11), kept in a folder
so that a report run again reads it back instead of playing it again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pyaz.eval.players import RandomPlayer
from pyaz.eval.tournament import RANDOM, Contestant, checkpoint_contestants, run_tournament
from pyaz.experiments.report import cached
from pyaz.games import GameState

__all__ = ["round_robin"]


def round_robin(
    folder: Path,
    networks: dict[str, Path],
    state: GameState,
    games: int,
    simulations: int,
    seed: int = 0,
    title: str = "",
) -> dict[str, Any]:
    """The Bayesian Elo of ``networks`` (name -> run folder or network file) and the random
    player (rated 0) after a round robin of ``games`` games a pair (distinct games: shared random
    openings, both colours); played once, then read back from ``folder/ratings.json``."""

    def play() -> dict[str, Any]:
        players = [Contestant(RANDOM, RandomPlayer(seed=seed, name=RANDOM))]
        specs = [f"{name}={path}" for name, path in networks.items()]
        players += checkpoint_contestants(specs, state, simulations, seed=seed)
        tournament = run_tournament(
            players, games, state, out=folder, anchor=RANDOM, seed=seed, progress=False, title=title
        )
        assert tournament.fit is not None
        return {
            "ratings": {
                r.name: {"elo": r.elo, "lower": r.lower, "upper": r.upper, "games": r.games}
                for r in tournament.fit.ratings
            },
            "games": sum(m.n for m in tournament.matches),
            "distinct_games": sum(m.distinct_games for m in tournament.matches),
            "games_per_pair": games,
            "simulations": simulations,
        }

    return cached(folder / "ratings.json", play)
