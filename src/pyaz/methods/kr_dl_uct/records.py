"""Curling games between two shot choosers, played through the arena
(:func:`pyaz.eval.arena.play_game`, the one game loop of every game) and kept as the records the
method learns from (:class:`~pyaz.games.curling.GameRecord`: each end's score and every shot,
intended and executed)::

    >>> from pyaz.methods.kr_dl_uct.records import play_game
    >>> from pyaz.games import curling
    >>> record = play_game((curling.rule_based_player(samples=1),) * 2, num_ends=1, seed=1)
    >>> len(record.shots), len(record.end_scores)
    (16, 1)
"""

from __future__ import annotations

from collections.abc import Sequence

from pyaz.eval.arena import play_game as play_arena_game
from pyaz.eval.players import ShotPlayer
from pyaz.games import curling

__all__ = ["play_game", "replay"]


def play_game(
    players: tuple[curling.ShotChooser, curling.ShotChooser],
    num_ends: int = 8,
    noise: curling.NoiseParams | None = None,
    seed: int = 0,
    physics: str = "fcv1",
    extra_ends: int = 0,
) -> curling.GameRecord:
    """A game between two shot choosers (``players[0]`` is team 0, which throws first) with
    execution noise (GAT by default) drawn from ``seed``; a game tied after ``num_ends`` goes
    on with up to ``extra_ends`` extra ends (:func:`~pyaz.games.curling.new_game`). The game is
    the arena's game from ``CurlingState(..., seed)`` between two
    :class:`~pyaz.eval.players.ShotPlayer`, so that it repeats a match's game of that seed."""
    game = curling.new_game(num_ends=num_ends, physics=physics, extra_ends=extra_ends)
    start = curling.CurlingState(game, noise or curling.NoiseParams(curling.Noise.GAT), seed)
    first, second = (ShotPlayer(chooser, f"team {team}") for team, chooser in enumerate(players))
    return replay(start, play_arena_game(first, second, start).actions)


def replay(
    start: curling.CurlingState, targets: Sequence[tuple[float, float, int]]
) -> curling.GameRecord:
    """The record of the game that throws ``targets`` ((x, y, spin), as an arena record keeps
    them) from ``start`` (not modified): the same shots, executed with the same noise, as the
    game that chose them, since a curling game is a function of its seed and its targets."""
    state = start.clone()
    shots: list[tuple[int, int, int, curling.Target, curling.Shot]] = []
    for x, y, spin in targets:
        end, shot, team = int(state.game.end), int(state.game.shot), state.to_move()
        target = curling.Target(x, y, spin)
        state.apply(target)
        shots.append((end, shot, team, target, state.executed[-1]))
    return curling.GameRecord([(int(a), int(b)) for a, b in state.game.end_scores], shots)
