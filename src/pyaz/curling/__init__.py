"""Seed 002's method for digital curling: the network (:mod:`~pyaz.curling.net`), KR-DL-UCT and
DL-UCT (:mod:`~pyaz.curling.dl_uct`), self-play (:mod:`~pyaz.curling.selfplay`), the training
loop (:mod:`~pyaz.curling.loop`), its players (:mod:`~pyaz.curling.players`), the games it
learns from (:mod:`~pyaz.curling.records`: :func:`play_game`) and plots.

The game itself (state, rules, scoring, rendering, features) is :mod:`pyaz.games.curling`; its
names are re-exported here for the code that reads ``pyaz.curling.new_game`` and the like.
"""

from pyaz.curling.records import play_game as play_game
from pyaz.curling.records import replay as replay
from pyaz.games.curling import *  # noqa: F403
