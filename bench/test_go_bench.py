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
    PEER_TARGET_S,
    PYAZ_TARGET_S,
    GameSpec,
    Side,
    _load_spiel_game,
    _median,
    _peer_name,
    calibrate,
    check_outcomes_agree,
    pyaz_playouts,
    spiel_playouts,
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

    mine = Side(pyaz_playouts(pyaz, spec))
    peer = Side(lambda n, seed: spiel_playouts(game, n, seed))
    mine.games_per_round = calibrate(mine.fn, PYAZ_TARGET_S * bench_cfg.scale, bench_cfg.seed)
    peer.games_per_round = calibrate(peer.fn, PEER_TARGET_S * bench_cfg.scale, bench_cfg.seed)

    round_no = 0

    def one_round() -> None:
        nonlocal round_no
        seed = bench_cfg.seed + 1 + round_no
        order = (mine, peer) if round_no % 2 == 0 else (peer, mine)
        for side in order:
            side.run(seed)
        round_no += 1

    benchmark.pedantic(one_round, rounds=bench_cfg.rounds, iterations=1, warmup_rounds=0)

    check_outcomes_agree(spec.label, mine.wdl, peer.wdl)

    round_ratios = [a / b for a, b in zip(mine.rates, peer.rates, strict=True)]
    value = _median(mine.rates)
    peer_value = _median(peer.rates)
    info: dict[str, Any] = {
        # report.py schema
        "game": spec.label,
        "measure": "random games/s",
        "unit": "games/s",
        "engine": "pyaz",
        "value": value,
        "peer": _peer_name(),
        "peer_value": peer_value,
        "ratio": _median(round_ratios),
        "target_ratio": spec.target_ratio,
        # convenience aliases and raw data
        "games_per_s": value,
        "peer_games_per_s": peer_value,
        "pyaz_games_per_round": mine.games_per_round,
        "peer_games_per_round": peer.games_per_round,
        "pyaz_rates": mine.rates,
        "peer_rates": peer.rates,
        "round_ratios": round_ratios,
        "pyaz_first_player_wdl": mine.wdl,
        "peer_first_player_wdl": peer.wdl,
        "pyaz_cpu_per_wall": _median(mine.cpu_per_wall),
        "pyaz_kwargs": spec.pyaz_kwargs,
        "spiel_params": dict(game.get_parameters()),
    }
    benchmark.extra_info.update(info)
    record_row(info)
    assert info["pyaz_cpu_per_wall"] < 1.3, "pyaz.random_playouts used more than one core"
