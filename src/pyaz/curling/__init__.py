"""Seed 002's method for digital curling: the network (:mod:`~pyaz.curling.net`), KR-DL-UCT and
DL-UCT (:mod:`~pyaz.curling.dl_uct`), self-play (:mod:`~pyaz.curling.selfplay`), the training
loop (:mod:`~pyaz.curling.loop`), its players (:mod:`~pyaz.curling.players`) and plots.

The game itself (state, rules, scoring, rendering, features) is :mod:`pyaz.games.curling`; its
names are re-exported here for the code that reads ``pyaz.curling.new_game`` and the like.
"""

from pyaz.games.curling import *  # noqa: F403
