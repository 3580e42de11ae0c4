"""An engine is given the time a move that its level needs (issue 78): GRhino's level 5 searches
the end game for minutes on a 2-core machine, and a match must not stop it at 120 s."""

from __future__ import annotations

import shutil

import pytest

import pyaz
from pyaz.eval import external

needs_grhino = pytest.mark.skipif(
    shutil.which("gtp-rhino") is None and shutil.which("/usr/games/gtp-rhino") is None,
    reason="gtp-rhino is not installed (apt-get install grhino)",
)


@needs_grhino
@pytest.mark.parametrize(("level", "seconds"), [(3, 120.0), (4, 120.0), (5, 1200.0)])
def test_grhino_gets_the_time_its_level_needs(level: int, seconds: float) -> None:
    player = external.gtp_rhino_player("rhino", pyaz.make("othello"), level, 0)
    try:
        assert player.engine.timeout == seconds
        state = pyaz.make("othello")
        player.reset(state.clone())
        assert state.is_legal(player.choose(state))  # genmove waits on the engine's own time
    finally:
        player.close()
