"""Curling in ``pyaz-board``: a sheet with the stones, a person throwing draws to a point
clicked on the sheet, or any curling preset of :mod:`pyaz.eval.presets` (``rule``, ``kr[:N]``,
``kr-dl:PATH[:N]``, ``model:PATH``, ``random``), as pyaz-arena plays them: a game is a
:class:`~pyaz.games.curling.CurlingState`, which throws each target with its GAT noise."""

from __future__ import annotations

import itertools
import threading
from typing import Any

from pyaz.cli.board.sessions import shown
from pyaz.eval import presets
from pyaz.eval.players import Player
from pyaz.games import curling, make

PLAYERS_HELP = "curling players: human, or a preset such as rule, kr:64, kr-dl:PATH, model:PATH"


class CurlingGame:
    """A curling game of ``ends`` ends between two players (team 0 throws first)."""

    _ids = itertools.count(1)

    def __init__(self, specs: list[str], ends: int = 2, seed: int = 0) -> None:
        if not isinstance(specs, list) or len(specs) != 2:
            raise ValueError(f"give two curling players, got {shown(specs)}")
        if not isinstance(ends, int) or not 1 <= ends <= 10:
            raise ValueError(f"the number of ends must be in 1..10, got {shown(ends)}")
        self.id = f"c{next(self._ids)}"
        self.specs = [str(spec).strip() for spec in specs]
        self.state = make("curling", ends=ends, seed=seed)
        self.players = [self._player(spec, seed + index) for index, spec in enumerate(self.specs)]
        self.shown = self.state.game.copy()  # the stones after the last throw (before the count)
        self.lock = threading.Lock()

    def _player(self, spec: str, seed: int) -> Player | None:
        """The player ``spec`` names (None: a person)."""
        if spec.lower() == "human":
            return None
        try:
            player = presets.make_player(spec, self.state.clone(), seed=seed)
            player.reset(self.state.clone())
        except (ValueError, OSError) as error:
            raise ValueError(f"curling player {shown(spec)}: {error}\n{PLAYERS_HELP}") from None
        return player

    def throw(self, x: float | None = None, y: float | None = None) -> None:
        """The next stone: the engine's shot, or a person's draw to (x, y) (metres, the tee at
        (0, TEE_Y)); ValueError when the game is over or the wrong side is asked."""
        with self.lock:
            state = self.state
            if state.is_terminal():
                raise ValueError("the game is over")
            player = self.players[state.to_move()]
            if player is None:
                if x is None or y is None:
                    raise ValueError("a person throws: give the point (x, y) to draw to")
                target = curling.Target(float(x), float(y), 1)
            else:
                target = player.choose(state)
            before = state.game.copy()
            state.apply(target)
            before.apply_no_end(state.executed[-1])
            self.shown = before

    def close(self) -> None:
        """Nothing to stop: curling players run no engine process."""

    def to_json(self) -> dict[str, Any]:
        """The sheet, the stones after the last throw, the score and whose throw is next."""
        with self.lock:
            game = self.state.game
            stones = self.shown.stones()
            a, b = (int(points) for points in game.total_score())  # FixedSize(2)
            over = self.state.is_terminal()
            winner = 0 if a > b else 1
            result = "Draw" if a == b else f"team {winner} ({self.specs[winner]}) wins {a}-{b}"
            return {
                "id": self.id,
                "players": self.specs,
                "stones": [
                    [float(stones[i][0]), float(stones[i][1]), self.shown.team_of(i)]
                    for i in range(16)
                    if stones[i][2] > 0
                ],
                "end": int(game.end),
                "shot": int(game.shot),
                "to_move": int(game.to_move),
                "human_turn": not over and self.players[game.to_move] is None,
                "end_scores": [[int(x), int(y)] for x, y in game.end_scores],
                "score": [a, b],
                "over": over,
                "result": result if over else "",
                "sheet": {
                    "half_width": curling.SHEET_HALF_WIDTH,
                    "hog": curling.HOG_LINE_Y,
                    "tee": curling.TEE_Y,
                    "back": curling.BACK_LINE_Y,
                    "house": curling.HOUSE_RADIUS,
                    "stone": curling.STONE_RADIUS,
                },
            }
