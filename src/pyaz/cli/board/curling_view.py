"""Curling in ``pyaz-board``: a sheet with the stones, a person throwing draws to a point
clicked on the sheet, or the rule-based and KR-UCT players of :mod:`pyaz.curling`.

All of ``pyaz-board``'s curling code is here, on the public names of :mod:`pyaz.curling`.
Shots are thrown with the GAT execution noise that :func:`pyaz.curling.play_game` uses.
"""

from __future__ import annotations

import itertools
import re
import threading
from typing import Any

from pyaz import curling

PLAYERS_HELP = (
    "curling players: human, rule (the rule-based player), kr-uct:N (KR-UCT, N simulations)"
)


def curling_player(spec: str) -> curling.Player | None:
    """The curling player ``spec`` names (None: a person); ValueError naming it otherwise."""
    text = str(spec).strip().lower()
    if text == "human":
        return None
    if text == "rule":
        return curling.rule_based_player()
    match = re.fullmatch(r"kr-uct:(\d+)", text)
    if match and 1 <= int(match.group(1)) <= 100_000:
        return curling.kr_uct_player(int(match.group(1)))
    raise ValueError(f"unknown curling player {spec!r}; {PLAYERS_HELP}")


class CurlingGame:
    """A curling game of ``ends`` ends between two players (team 0 throws first)."""

    _ids = itertools.count(1)

    def __init__(self, specs: list[str], ends: int = 2, seed: int = 0) -> None:
        if not isinstance(specs, list) or len(specs) != 2:
            raise ValueError(f"give two curling players, got {specs!r}")
        if not isinstance(ends, int) or not 1 <= ends <= 10:
            raise ValueError(f"the number of ends must be in 1..10, got {ends!r}")
        self.id = f"c{next(self._ids)}"
        self.specs = [str(spec).strip() for spec in specs]
        self.players = [curling_player(spec) for spec in specs]
        self.state = curling.new_game(num_ends=ends)
        self.shown = self.state.copy()  # the stones after the last throw (before the end's count)
        self.seed = seed
        self.throws = 0
        self.lock = threading.Lock()

    def throw(self, x: float | None = None, y: float | None = None) -> None:
        """The next stone: the engine's shot, or a person's draw to (x, y) (metres, the tee at
        (0, TEE_Y)); ValueError when the game is over or the wrong side is asked."""
        with self.lock:
            state = self.state
            if state.is_game_over:
                raise ValueError("the game is over")
            player = self.players[state.to_move]
            model = state.rules.physics.model
            if player is None:
                if x is None or y is None:
                    raise ValueError("a person throws: give the point (x, y) to draw to")
                target = curling.Target(float(x), float(y), 1)
            else:
                target = player(state, self.seed * 100003 + self.throws)
            noise = curling.NoiseParams(curling.Noise.GAT)
            shot = curling.perturb(curling.target_to_shot(target, model), noise, model, self.throws)
            self.shown = state.copy()
            self.shown.apply_no_end(shot)
            state.apply(shot)
            self.throws += 1

    def to_json(self) -> dict[str, Any]:
        """The sheet, the stones after the last throw, the score and whose throw is next."""
        with self.lock:
            state = self.state
            stones = self.shown.stones()
            total = state.total_score()
            over = bool(state.is_game_over)
            result = ""
            if over:
                a, b = int(total[0]), int(total[1])
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
                "end": int(state.end),
                "shot": int(state.shot),
                "to_move": int(state.to_move),
                "human_turn": not over and self.players[state.to_move] is None,
                "end_scores": [[int(a), int(b)] for a, b in state.end_scores],
                "score": [int(total[0]), int(total[1])],
                "over": over,
                "result": result,
                "sheet": {
                    "half_width": curling.SHEET_HALF_WIDTH,
                    "hog": curling.HOG_LINE_Y,
                    "tee": curling.TEE_Y,
                    "back": curling.BACK_LINE_Y,
                    "house": curling.HOUSE_RADIUS,
                    "stone": curling.STONE_RADIUS,
                },
            }
