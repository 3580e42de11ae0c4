"""Seed 002's method for digital curling: the network (:mod:`~pyaz.methods.kr_dl_uct.net`),
KR-DL-UCT and DL-UCT (:mod:`~pyaz.methods.kr_dl_uct.dl_uct`), self-play
(:mod:`~pyaz.methods.kr_dl_uct.selfplay`), the training loop (:mod:`~pyaz.methods.kr_dl_uct.loop`),
its players (:mod:`~pyaz.methods.kr_dl_uct.players`), the games it learns from
(:mod:`~pyaz.methods.kr_dl_uct.records`: :func:`play_game`) and plots.

The game itself (state, rules, scoring, rendering, features) is :mod:`pyaz.games.curling`; its
names are re-exported here for the code that reads ``pyaz.methods.kr_dl_uct.new_game`` and the like.
"""

from pyaz.games.curling import *  # noqa: F403
from pyaz.methods.kr_dl_uct.records import play_game as play_game
from pyaz.methods.kr_dl_uct.records import replay as replay
