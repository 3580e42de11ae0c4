"""The arena: players, matches with alternating colours, the Wilson interval and gating rules."""

from __future__ import annotations

import math

import pytest

import pyaz
from pyaz._core import Status
from pyaz.eval.arena import GameRecord, MatchResult, play_game, play_match
from pyaz.eval.gates import WilsonGate, azg_gate, games_for_width, score_gate
from pyaz.eval.players import Player, RandomPlayer, SearchPlayer, uct_player
from pyaz.eval.stats import wilson_interval

# Newcombe RG (1998), "Two-sided confidence intervals for the single proportion: comparison of
# seven methods", Statistics in Medicine 17:857-872, Table I, methods 3 (Wilson score) and 4
# (score with continuity correction), 95%, to 4 decimals. Every value was recomputed
# independently with scipy.stats.binomtest(k, n).proportion_ci(0.95, method="wilson" /
# "wilsoncc") (scipy 1.17) and by solving |p - pi| - 1/(2n) = z sqrt(pi (1 - pi) / n) for pi
# numerically (brentq); all three agree to 1e-6.
NEWCOMBE_TABLE_I = [
    # (x, n, Wilson (method 3), Wilson with continuity correction (method 4))
    (81, 263, (0.2553, 0.3662), (0.2535, 0.3682)),
    (15, 148, (0.0624, 0.1605), (0.0598, 0.1644)),
    (0, 20, (0.0000, 0.1611), (0.0000, 0.2005)),
    (1, 29, (0.0061, 0.1718), (0.0018, 0.1963)),
]


@pytest.mark.parametrize(("x", "n", "plain", "corrected"), NEWCOMBE_TABLE_I)
def test_wilson_interval_matches_newcombe_1998_table_1(x, n, plain, corrected) -> None:
    """Newcombe (1998) Table I, examples (a)-(d); also Reed (2007), J Mod Appl Stat Meth 6(1)."""
    assert wilson_interval(x, n, continuity=False) == pytest.approx(plain, abs=6e-5)
    assert wilson_interval(x, n) == pytest.approx(corrected, abs=6e-5)
    assert wilson_interval(x, n, continuity=True) == wilson_interval(x, n)


def test_wilson_interval_more_digits_and_edges() -> None:
    """Six-digit values from scipy's binomtest(...).proportion_ci (wilson, wilsoncc)."""
    assert wilson_interval(81, 263) == pytest.approx((0.253509, 0.368176), abs=1e-6)
    plain = wilson_interval(81, 263, continuity=False)
    assert plain == pytest.approx((0.255289, 0.366210), abs=1e-6)
    assert wilson_interval(7, 10) == pytest.approx((0.353671, 0.919052), abs=1e-6)
    assert wilson_interval(29, 29) == pytest.approx((0.854384, 1.0), abs=1e-6)
    assert wilson_interval(10, 10) == pytest.approx((0.655463, 1.0), abs=1e-6)
    assert wilson_interval(5, 5) == pytest.approx((0.462944, 1.0), abs=1e-6)
    # Symmetry: the interval for n - x is the mirror image of the one for x.
    lo, hi = wilson_interval(15, 148)
    assert wilson_interval(133, 148) == pytest.approx((1 - hi, 1 - lo), abs=1e-12)
    # At p = 1/2 and n = 400 the corrected interval is just wider than 0.1.
    lo, hi = wilson_interval(200, 400)
    assert hi - lo == pytest.approx(0.1000069, abs=1e-6)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    for bad in ((-1, 10), (11, 10), (1, -1)):
        with pytest.raises(ValueError):
            wilson_interval(*bad)


def test_wilson_interval_fractional_successes_solve_the_score_equation() -> None:
    """Draws count half, so successes may be fractional: check the defining equation directly."""
    z = 1.959963984540054
    for successes, n in ((6.5, 10), (30.5, 47), (0.5, 3)):
        p = successes / n
        lo, hi = wilson_interval(successes, n)
        for bound in (lo, hi):
            # The continuity-corrected bounds satisfy |p - pi| - 1/(2n) = z sqrt(pi(1-pi)/n).
            assert abs(p - bound) - 1 / (2 * n) == pytest.approx(
                z * math.sqrt(bound * (1 - bound) / n), abs=1e-9
            )
        lo, hi = wilson_interval(successes, n, continuity=False)
        for bound in (lo, hi):
            assert abs(p - bound) == pytest.approx(z * math.sqrt(bound * (1 - bound) / n), abs=1e-9)


def test_wilson_interval_agrees_with_scipy() -> None:
    stats = pytest.importorskip("scipy.stats")
    for k, n in ((0, 1), (1, 1), (3, 7), (12, 30), (30, 30), (55, 100), (500, 1001)):
        ci = stats.binomtest(k, n).proportion_ci(0.95, method="wilsoncc")
        assert wilson_interval(k, n) == pytest.approx((ci.low, ci.high), abs=1e-9)
        ci = stats.binomtest(k, n).proportion_ci(0.95, method="wilson")
        assert wilson_interval(k, n, continuity=False) == pytest.approx((ci.low, ci.high), abs=1e-9)


def _result(wins: int, draws: int, losses: int) -> MatchResult:
    return MatchResult(a_wins=wins, draws=draws, b_wins=losses)


def test_match_result_score_counts_draws_half() -> None:
    result = _result(6, 2, 2)
    assert result.n == 10
    assert result.score == pytest.approx(0.7)
    assert result.wilson_interval() == wilson_interval(7, 10)
    assert _result(0, 0, 0).score == 0.5


def test_match_result_record_counts_distinct_games() -> None:
    result = MatchResult()
    games = (([0, 1], 0, True), ([0, 1], 1, False), ([2, 3], None, True))
    for actions, winner, a_first in games:
        status = {None: Status.DRAW, 0: Status.FIRST_PLAYER_WIN, 1: Status.SECOND_PLAYER_WIN}[
            winner
        ]
        result.add(GameRecord(actions, status, winner), a_first)
    assert result.as_record() == {
        "score": pytest.approx(2.5 / 3), "wins": 2, "draws": 1, "losses": 0, "games": 3,
        "distinct_games": 2,
    }  # fmt: skip


def test_score_gate() -> None:
    assert score_gate(_result(7, 0, 3), 0.6)
    assert not score_gate(_result(6, 0, 4), 0.6)  # strictly greater than u
    assert score_gate(_result(5, 3, 2), 0.6)  # score 0.65
    assert not score_gate(_result(4, 4, 2), 0.6)  # score 0.6
    assert not score_gate(_result(0, 10, 0), 0.5)  # all draws: score 0.5, not above
    assert score_gate(_result(1, 9, 0), 0.5)
    assert not score_gate(_result(8, 0, 2), 0.8)
    assert not score_gate(_result(0, 0, 0), 0.0)
    with pytest.raises(ValueError):
        score_gate(_result(1, 0, 0), 1.5)


def test_azg_gate_is_alpha_zero_generals_rule() -> None:
    # alpha-zero-general's Coach: reject if pwins + nwins == 0 or nwins / (pwins + nwins) < u.
    assert azg_gate(_result(10, 25, 5), 0.6)  # 10 / 15 = 0.667 >= 0.6; the 25 draws do not count
    assert azg_gate(_result(2, 38, 0), 0.6)  # 2 / 2 = 1
    assert not azg_gate(_result(0, 40, 0), 0.6)  # no decisive game: rejected
    assert azg_gate(_result(6, 0, 4), 0.6)  # exactly u: accepted (>=)
    assert not azg_gate(_result(5, 30, 4), 0.6)  # 5 / 9 = 0.556
    assert not azg_gate(_result(0, 0, 0), 0.0)
    for bad in (1.5, -0.1, float("nan")):
        with pytest.raises(ValueError, match="update threshold"):
            azg_gate(_result(1, 0, 0), bad)


def test_wilson_gate_decisions() -> None:
    gate = WilsonGate(min_games=6, max_games=100)
    assert gate.decision(_result(5, 0, 0)) is None  # before min_games
    assert gate.decision(_result(6, 0, 0)) == "replace"  # CC lower bound 0.5168
    assert gate.decision(_result(0, 0, 6)) == "keep"  # upper bound 0.4832
    assert gate.decision(_result(5, 0, 1)) is None  # (0.3588, 0.9912)
    assert gate.decision(_result(0, 6, 0)) is None  # all draws: (0.2, 0.8)
    assert gate.decision(_result(14, 0, 6)) is None  # 0.7: lower 0.4566
    assert gate.decision(_result(16, 0, 4)) == "replace"  # 0.8: lower 0.5573
    assert gate.decision(_result(4, 0, 16)) == "keep"
    assert gate.decision(_result(49, 0, 50)) is None  # width 0.2 at n = 99 ...
    assert gate.decision(_result(40, 19, 40)) is None
    assert gate.decision(_result(50, 0, 50)) == "keep"  # ... capped at max_games = 100
    assert gate.decision(_result(60, 0, 40)) == "keep"  # score 0.6, lower bound 0.4970
    assert gate.decision(_result(61, 0, 39)) == "replace"  # lower bound 0.5070
    # The width rule: at p = 1/2 the interval is narrower than 0.1 from n = 402 on.
    wide = WilsonGate(max_games=1000)
    assert wide.decision(_result(200, 0, 200)) is None
    assert wide.decision(_result(201, 0, 201)) == "keep"
    lo, hi = wilson_interval(201, 402)
    assert lo < 0.5 < hi and hi - lo < 0.1
    assert wide(_result(201, 0, 201)) and not wide(_result(200, 0, 200))
    assert wide.reason(_result(201, 0, 201)) == "width"
    with pytest.raises(ValueError):
        WilsonGate(min_games=10, max_games=5)


def test_the_wilson_gates_width_rule_needs_about_400_games() -> None:
    # Continuity-corrected 95% Wilson interval at p = 1/2, by hand (Newcombe 1998, method 4):
    # n = 401, successes 200.5: L = (2np + z^2 - 1 - z sqrt(z^2 - 2 - 1/n + 4p(nq + 1)))
    # / (2(n + z^2)) and U likewise; U - L = 0.09988 < 0.1, while at n = 400 it is 0.100007.
    z = 1.959963984540054
    for n, expected_width in ((400, 0.100007), (401, 0.099880)):
        p = q = 0.5
        lower = (2 * n * p + z * z - 1 - z * (z * z - 2 - 1 / n + 4 * p * (n * q + 1)) ** 0.5) / (
            2 * (n + z * z)
        )
        upper = (2 * n * p + z * z + 1 + z * (z * z + 2 - 1 / n + 4 * p * (n * q - 1)) ** 0.5) / (
            2 * (n + z * z)
        )
        assert upper - lower == pytest.approx(expected_width, abs=2e-6)
        lo, hi = wilson_interval(n / 2, n)
        assert (lo, hi) == pytest.approx((lower, upper))
    assert games_for_width() == 401
    assert games_for_width(continuity=False) == 381
    # The default cap leaves room for the rule; a 40-game cap never reaches it.
    gate = WilsonGate()
    assert gate.max_games > games_for_width()
    short = WilsonGate(max_games=40)
    assert (
        short.decision(_result(20, 0, 20)) == "keep" and short.reason(_result(20, 0, 20)) == "cap"
    )
    assert gate.decision(_result(20, 0, 20)) is None  # no width stop at 40 games


class FirstLegal:
    """Always plays the lowest legal action, and records the side it played in each game."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.sides: list[int] = []
        self.observed: list[int] = []

    def reset(self, state) -> None:
        self.sides.append(-1)
        self.observed = []

    def choose(self, state) -> int:
        if self.sides[-1] == -1:
            self.sides[-1] = state.to_move()
        return min(state.legal_actions())

    def observe(self, action: int) -> None:
        self.observed.append(action)


def test_colours_alternate() -> None:
    a, b = FirstLegal("a"), FirstLegal("b")
    assert isinstance(a, Player) and isinstance(RandomPlayer(), Player)
    result = play_match(a, b, 6, pyaz.make("connect_four"), opening_plies=0)
    assert a.sides == [0, 1, 0, 1, 0, 1] and b.sides == [1, 0, 1, 0, 1, 0]
    assert [g.first for g in result.games] == ["a", "b"] * 3
    # Both play the same fixed moves, so the same side wins every game: the wins split evenly.
    # Without openings such a match is one game repeated, and it says so.
    assert len({tuple(g.actions) for g in result.games}) == 1
    assert result.distinct_games == 1
    assert result.games[0].winner is not None
    assert result.a_wins == result.b_wins == 3 and result.draws == 0
    assert a.observed == b.observed == result.games[-1].actions  # both see every move


def test_uct_beats_random_at_connect_four() -> None:
    start = pyaz.make("connect_four")
    uct = uct_player(200)
    result = play_match(uct, RandomPlayer(seed=7), 20, start)
    assert result.n == 20 and len(result.games) == 20
    assert result.a_wins >= 17, str(result)
    for game in result.games:
        state = start.clone()
        for action in game.all_actions:
            assert state.is_legal(action)
            state.apply(action)
        assert state.is_terminal() and state.status() == game.status
        winners = {pyaz.Status.FIRST_PLAYER_WIN: 0, pyaz.Status.SECOND_PLAYER_WIN: 1}
        assert game.winner == winners.get(game.status)
    # Seeded: the same players replay the same match.
    again = play_match(uct_player(200), RandomPlayer(seed=7), 20, start)
    assert [g.actions for g in again.games] == [g.actions for g in result.games]


def test_search_player_reuses_its_tree() -> None:
    start = pyaz.make("connect_four")
    player = SearchPlayer("uniform", 64, name="puct", c_puct=1.5)
    record = play_game(player, RandomPlayer(seed=3), start)
    assert isinstance(record, GameRecord) and record.length == len(record.actions) >= 7
    # The root after the game is the final position, reached by advancing the kept tree.
    state = start.clone()
    for action in record.actions:
        state.apply(action)
    assert str(player.search.root_state) == str(state)
    # Each move runs 64 new simulations on top of the kept subtree's visits.
    player.reset(start)
    player.choose(start)
    assert player.search.root_visits == 64
    player.observe(3)
    player.observe(3)
    kept = player.search.root_visits
    assert kept > 0
    player.choose(start.child(3).child(3))
    assert player.search.root_visits == kept + 64
    # Out of sync (not told of a move): the player re-roots at the position it is given.
    position = start.child(0).child(1)
    action = player.choose(position)
    assert position.is_legal(action) and str(player.search.root_state) == str(position)
    fresh = SearchPlayer("uniform", 64, reuse_tree=False)
    fresh.reset(start)
    fresh.choose(start)
    fresh.observe(3)
    fresh.observe(3)
    fresh.choose(start.child(3).child(3))
    assert fresh.search.root_visits == 64


def test_search_players_with_a_network_and_sampling_play_legal_games() -> None:
    np = pytest.importorskip("numpy")

    def net(planes):
        return np.zeros((planes.shape[0], 7), np.float32), np.zeros(planes.shape[0], np.float32)

    a = SearchPlayer(net, 32, name="net", temperature=1.0, seed=5, batch_size=4)
    b = uct_player(50, seed=2)
    result = play_match(a, b, 4, pyaz.make("connect_four"))
    assert result.n == 4
    for game in result.games:
        state = pyaz.make("connect_four")
        for action in game.all_actions:
            assert state.is_legal(action)
            state.apply(action)
        assert state.status() == game.status


def test_random_openings_are_shared_by_each_pair_of_games() -> None:
    start = pyaz.make("connect_four")
    a, b = uct_player(50, name="a"), uct_player(50, seed=1, name="b")
    result = play_match(a, b, 8, start, opening_plies=4, seed=3)
    openings = [tuple(g.opening) for g in result.games]
    assert all(len(o) == 4 for o in openings)
    assert openings[0::2] == openings[1::2]  # each pair: one opening, both colour assignments
    assert len(set(openings)) == 4
    assert [g.first for g in result.games] == ["a", "b"] * 4
    for game in result.games:
        state = start.clone()
        for action in game.all_actions:
            assert state.is_legal(action)
            state.apply(action)
        assert state.status() == game.status
    again = play_match(
        uct_player(50, name="a"),
        uct_player(50, seed=1, name="b"),
        8,
        start,
        opening_plies=4,
        seed=3,
    )
    assert [g.all_actions for g in again.games] == [g.all_actions for g in result.games]
    assert play_match(a, b, 2, start, opening_plies=4, seed=4).games[0].opening != list(openings[0])


def test_wilson_gate_stops_a_lopsided_match_early() -> None:
    gate = WilsonGate(min_games=6, max_games=40)
    start = pyaz.make("connect_four")
    decision, result = gate.run(uct_player(200), RandomPlayer(seed=11), start)
    assert decision == "replace", str(result)
    assert 6 <= result.n < 40
    assert result.wilson_interval()[0] > 0.5
    # The same through play_match's stop callback, challenger losing: stops with "keep".
    result = play_match(RandomPlayer(seed=11), uct_player(200), 40, start, stop=gate)
    assert result.n < 40 and gate.decision(result) == "keep"


def test_play_match_progress_and_errors(capsys) -> None:
    start = pyaz.make("connect_four", width=4, height=4)
    result = play_match(RandomPlayer(1), RandomPlayer(2), 3, start, progress=True)
    assert result.n == 3
    assert "3/3" in capsys.readouterr().err
    assert play_match(RandomPlayer(1), RandomPlayer(2), 0, start).n == 0

    class Cheat(FirstLegal):
        def choose(self, state) -> int:
            return 99

    with pytest.raises(ValueError, match="illegal"):
        play_game(Cheat("cheat"), RandomPlayer(), start)
    over = pyaz.make("connect_four").play("1 2 1 2 1 2 1")
    with pytest.raises(ValueError):
        play_game(RandomPlayer(), RandomPlayer(), over)


def test_the_greedy_player_takes_wins_blocks_and_the_most_discs() -> None:
    from pyaz.eval.players import GreedyPlayer
    from pyaz.eval.presets import make_player

    greedy = make_player("greedy", pyaz.make("connect_four"), seed=1)
    assert isinstance(greedy, GreedyPlayer)
    win = pyaz.make("connect_four").play("1 2 1 2 1 2")  # X can complete column 1
    assert greedy.choose(win) == 0
    block = pyaz.make("connect_four").play("1 2 1 2 1")  # O must stop column 1
    assert greedy.choose(block) == 0
    othello = pyaz.make("othello", size=6)
    for _ in range(6):  # along a game: the move it picks leaves the most own discs
        me = othello.to_move() + 1
        counts = {a: int((othello.child(a).board() == me).sum()) for a in othello.legal_actions()}
        assert counts[greedy.choose(othello)] == max(counts.values())
        othello.apply(othello.legal_actions()[0])
    with pytest.raises(ValueError, match="takes no argument"):
        make_player("greedy:3", othello)
    # a game written in Python (no child()): it takes the win, then blocks
    ttt = pyaz.make("tictactoe")
    greedy = make_player("greedy", ttt, seed=1)
    for action in (0, 3, 1, 4):  # X to move with 0 1 against 3 4: 2 wins
        ttt.apply(action)
    assert greedy.choose(ttt) == 2
    ttt = pyaz.make("tictactoe")
    for action in (0, 3, 8):  # O to move: X threatens nothing, O has 3 and may not win yet
        ttt.apply(action)
    ttt.apply(4)  # O: 3 4; X to move must block 5
    assert greedy.choose(ttt) == 5


def test_a_guarded_network_gets_the_workers_one_thread_like_a_bare_one() -> None:
    # A parallel match's worker sets torch's threads (and so ONNX Runtime's) for a network
    # player, also inside guard:...: two workers must not each spin a thread per core.
    import torch

    from pyaz.eval.parallel import MatchPlan, MatchWorker
    from pyaz.eval.presets import guarded_spec

    assert guarded_spec("guard:50:0:model:runs/x:800") == "model:runs/x:800"
    assert guarded_spec("model:runs/x:800") == "model:runs/x:800"
    before = torch.get_num_threads()
    try:
        torch.set_num_threads(2)
        MatchWorker(MatchPlan("guard:model:x:8", "random", "gomoku", {"size": 9}, torch_threads=1))
        assert torch.get_num_threads() == 1
    finally:
        torch.set_num_threads(before)
