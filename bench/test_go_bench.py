"""pyaz vs OpenSpiel: random full Go games per second on 9x9 and 19x19, single thread.

Both engines play the same game: komi 7.5, Tromp-Taylor area scoring, and OpenSpiel's default
length cap of 2*n*n actions (pyaz's own default is 3*n*n, so the pyaz side passes
``max_game_length=2*n*n``); every action, pass included, is drawn uniformly from the legal
ones, so own eyes get filled and the cap ends most games. Timing works as in
test_games_bench.py: both engines run in every round, in alternating order, and the ratio is
the median of the per-round ratios.

Before timing, random games are replayed on both engines (OpenSpiel numbers rows from the
bottom, pyaz from the top; the pass is n*n in both), which must agree on legal moves, game end
and result. OpenSpiel ends a game as a draw when a stone move repeats an earlier board; pyaz
(simple ko only, by default) plays on, so the replay stops comparing such a game there. That
rule touches about 0.2% of random 9x9 games, well inside the tolerance of the check that both
engines' first-player win and loss rates agree.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, Any

import pytest
from test_games_bench import (
    LOCKSTEP_GAMES,
    GameSpec,
    _load_spiel_game,
    time_random_games,
)

if TYPE_CHECKING:
    from conftest import BenchConfig


def go_spec(size: int, target_ratio: float | None) -> GameSpec:
    return GameSpec(
        label=f"Go {size}x{size}",
        group=f"go-{size}x{size}",
        pyaz_name="go",
        pyaz_kwargs={"size": size, "komi": 7.5, "max_game_length": 2 * size * size},
        spiel_name="go",
        spiel_params={"board_size": size, "komi": 7.5},
        target_ratio=target_ratio,
    )


# The target: at least 10x OpenSpiel on 9x9; 19x19 is reported without a target.
GO_GAMES = [go_spec(9, 10.0), go_spec(19, None)]


def _to_pyaz(size: int, spiel_action: int) -> int:
    if spiel_action == size * size:
        return spiel_action
    row, col = divmod(spiel_action, size)
    return (size - 1 - row) * size + col


def check_same_go_rules(pyaz: ModuleType, spec: GameSpec, game: Any, n_games: int, seed: int):
    """Replay random games on both engines; legal moves, end and result must agree."""
    size = spec.pyaz_kwargs["size"]
    assert game.max_game_length() == spec.pyaz_kwargs["max_game_length"], "length caps differ"
    rng = random.Random(seed)
    for g in range(n_games):
        mine = pyaz.make("go", **spec.pyaz_kwargs)
        peer = game.new_initial_state()
        moves: list[int] = []
        while not peer.is_terminal():
            where = f"{spec.label} game {g}, OpenSpiel moves {moves}"
            assert not mine.is_terminal(), f"pyaz ended early: {where}"
            assert mine.to_move() == peer.current_player(), f"side to move mismatch: {where}"
            legal = list(peer.legal_actions())
            ours = mine.legal_actions()
            assert ours == sorted(_to_pyaz(size, a) for a in legal), f"legal moves: {where}"
            move = rng.choice(legal)
            moves.append(move)
            mine.apply(_to_pyaz(size, move))
            peer.apply_action(move)
        if not mine.is_terminal():
            continue  # OpenSpiel's repetition draw (see the module docstring)
        first = peer.returns()[0]
        expected = (
            pyaz.Status.FIRST_PLAYER_WIN
            if first > 0
            else pyaz.Status.SECOND_PLAYER_WIN
            if first < 0
            else pyaz.Status.DRAW
        )
        assert mine.status() == expected, f"result mismatch: {spec.label} game {g}"


@pytest.mark.parametrize(
    "spec",
    [pytest.param(s, marks=pytest.mark.benchmark(group=s.group), id=s.group) for s in GO_GAMES],
)
def test_go_random_games_per_s(
    benchmark: Any,
    spec: GameSpec,
    pyaz: ModuleType,
    pyspiel: ModuleType,
    bench_cfg: BenchConfig,
    record_row: Callable[[dict[str, Any]], None],
) -> None:
    """Random full Go games per second, single thread: pyaz.random_playouts vs OpenSpiel."""
    game = _load_spiel_game(pyspiel, spec)
    check_same_go_rules(pyaz, spec, game, LOCKSTEP_GAMES, bench_cfg.seed)

    time_random_games(benchmark, spec, pyaz, game, bench_cfg, record_row)
