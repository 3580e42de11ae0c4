"""Bayesian Elo: hand-checkable cases, a cross-check against choix, synthetic tournaments with
known true ratings (recovery and interval coverage), anchoring, colour symmetry and the prior."""

from __future__ import annotations

import doctest
import math

import numpy as np
import pytest

import pyaz.eval.elo
from pyaz.eval.elo import (
    NATS_PER_ELO,
    GameResult,
    _Model,
    counts_from_games,
    elo_to_probability,
    fit_elo,
    format_ratings,
    outcome_probabilities,
    rate,
)

# True ratings of a synthetic round robin: a random player (the anchor) and 7 others.
TRUE = {
    "random": 0.0,
    "a": 120.0,
    "b": 250.0,
    "c": 400.0,
    "d": 520.0,
    "e": 700.0,
    "f": 900.0,
    "g": 1200.0,
}
ADVANTAGE = 60.0
DRAWELO = 120.0


def simulate(
    rng: np.random.Generator,
    true: dict[str, float],
    games_per_pair: int,
    advantage: float = ADVANTAGE,
    drawelo: float = DRAWELO,
) -> dict[tuple[str, str], tuple[float, float, float]]:
    """A round robin drawn from the model: half the games of each pair under each colour order."""
    names = list(true)
    table = {}
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            half = games_per_pair // 2
            for first, second, k in ((a, b, half), (b, a, games_per_pair - half)):
                p = outcome_probabilities(true[first] - true[second], advantage, drawelo)
                table[(first, second)] = tuple(float(x) for x in rng.multinomial(k, p))
    return table


def games_of(table: dict[tuple[str, str], tuple[float, float, float]]) -> list[GameResult]:
    games = []
    for (first, second), (w, d, lo) in table.items():
        games += [GameResult(first, second, 1.0)] * int(w)
        games += [GameResult(first, second, 0.5)] * int(d)
        games += [GameResult(first, second, 0.0)] * int(lo)
    return games


def test_module_doctest() -> None:
    result = doctest.testmod(pyaz.eval.elo)
    assert result.attempted > 0 and result.failed == 0


def test_three_wins_one_loss_is_400_log10_3() -> None:
    # Plain Bradley-Terry (no prior, no advantage, no draws): f(D) = 3/4, D = 400 log10(3).
    games = [("a", "b", 1), ("b", "a", 0), ("a", "b", 1), ("b", "a", 1)]
    fit = fit_elo(games, prior=0, advantage=0, anchor="b")
    assert fit.rating("a").elo == pytest.approx(400 * math.log10(3), abs=1e-6)  # 190.85
    assert fit.rating("b").elo == 0.0
    assert fit.drawelo == 0.0  # no draws: the draw parameter is held at 0
    # The interval: Var = 1 / (N p (1 - p) c^2) with N = 4, p = 3/4.
    sd = 1 / math.sqrt(4 * 0.75 * 0.25) / NATS_PER_ELO
    assert fit.rating("a").stderr == pytest.approx(sd, rel=1e-6)
    assert fit.rating("a").lower == pytest.approx(190.849 - 1.959964 * sd, abs=1e-2)
    assert fit.rating("a").games == 4 and fit.rating("a").score == 0.75


def test_draw_model_reproduces_the_frequencies() -> None:
    # Two free parameters (rating gap, drawelo) and two free frequencies: the MLE matches them,
    # f(D - drawelo) = 3/6 wins and f(-D - drawelo) = 1/6 losses, so D = drawelo = 200 log10 5.
    table = {("a", "b"): (2, 1, 0), ("b", "a"): (1, 1, 1)}  # a: 3 wins, 2 draws, 1 loss
    fit = fit_elo(table, prior=0, advantage=0, anchor="b")
    assert fit.rating("a").elo == pytest.approx(200 * math.log10(5), abs=1e-6)  # 139.79
    assert fit.drawelo == pytest.approx(200 * math.log10(5), abs=1e-6)
    win, draw, loss = fit.probabilities("a", "b")
    assert (win, draw, loss) == pytest.approx((3 / 6, 2 / 6, 1 / 6))


def test_equal_players_drawelo_from_the_draw_rate() -> None:
    # Equal players, no advantage: P(draw) = 2 f(drawelo) - 1 = 1/2, drawelo = 400 log10(3).
    table = {("a", "b"): (1, 2, 1), ("b", "a"): (1, 2, 1)}
    fit = fit_elo(table, prior=0, advantage=0, anchor="a")
    assert fit.rating("b").elo == pytest.approx(0.0, abs=1e-9)
    assert fit.drawelo == pytest.approx(400 * math.log10(3), abs=1e-6)


# choix 0.4.1 (pip install choix), ilsr_pairwise(5, data, alpha=0, tol=1e-12) and
# opt_pairwise(5, data, alpha=0) on these games, theta converted to Elo (theta * 400 / ln 10)
# relative to "random"; both gave these numbers to 4 decimals.
CHOIX_WINS = [  # CHOIX_WINS[i][j]: wins of player i over player j
    [0, 3, 1, 0, 0],
    [17, 0, 6, 4, 1],
    [19, 14, 0, 9, 5],
    [20, 16, 11, 0, 8],
    [20, 19, 15, 12, 0],
]
CHOIX_NAMES = ["random", "uct", "net1", "net2", "net3"]
CHOIX_ELO = [0.0, 350.795, 544.8158, 622.4284, 737.4276]


def test_plain_bradley_terry_matches_choix() -> None:
    games = [
        (CHOIX_NAMES[i], CHOIX_NAMES[j], 1.0)
        for i in range(5)
        for j in range(5)
        for _ in range(CHOIX_WINS[i][j])
    ]
    fit = fit_elo(games, prior=0, advantage=0, anchor="random")
    got = [fit.rating(name).elo for name in CHOIX_NAMES]
    assert got == pytest.approx(CHOIX_ELO, abs=1e-3)


def test_gradient_and_hessian_match_finite_differences() -> None:
    rng = np.random.default_rng(3)
    n = 4
    pairs = [(i, j) for i in range(n) for j in range(n) if i != j]
    first = np.array([i for i, _ in pairs])
    second = np.array([j for _, j in pairs])
    counts = rng.integers(0, 5, size=(len(pairs), 3)).astype(float)
    model = _Model(n, first, second, *counts.T, prior=2.0)
    phi = np.array([30.0, -50.0, 100.0, -20.0, 40.0, 80.0])
    _, grad, hess = model.evaluate(phi, need_hessian=True)
    eps = 1e-4
    basis = np.eye(n + 2)
    num_grad = [
        (model.evaluate(phi + eps * e)[0] - model.evaluate(phi - eps * e)[0]) / 2 / eps
        for e in basis
    ]
    num_hess = [
        (model.evaluate(phi + eps * e)[1] - model.evaluate(phi - eps * e)[1]) / 2 / eps
        for e in basis
    ]
    assert grad == pytest.approx(np.array(num_grad), abs=1e-8)
    assert hess == pytest.approx(np.array(num_hess), abs=1e-9)


def test_recovers_known_ratings_advantage_and_drawelo() -> None:
    table = simulate(np.random.default_rng(7), TRUE, games_per_pair=200)
    fit = fit_elo(table, anchor="random", prior=0)
    covered = 0
    for name, true in TRUE.items():
        r = fit.rating(name)
        assert abs(r.elo - true) < 4 * max(r.stderr, 1e-9) + 1e-9, (name, r, true)
        assert abs(r.elo - true) < 80, (name, r.elo, true)
        covered += r.lower <= true <= r.upper
    assert covered >= 6  # of 8 (the anchor's interval is [0, 0] and covers its 0)
    assert abs(fit.advantage - ADVANTAGE) < 3 * fit.advantage_stderr
    assert abs(fit.drawelo - DRAWELO) < 3 * fit.drawelo_stderr
    assert fit.advantage_stderr < 10 and fit.drawelo_stderr < 6
    assert [r.name for r in fit.ratings] == sorted(TRUE, key=TRUE.__getitem__, reverse=True)


@pytest.mark.parametrize("prior", [0.0, 2.0])
def test_intervals_are_calibrated_over_many_tournaments(prior: float) -> None:
    # 40 simulated tournaments x 7 non-anchor players = 280 intervals: their 95% coverage and
    # the spread of the standardised errors show the Laplace intervals are honest.
    covered, z = [], []
    for seed in range(40):
        table = simulate(np.random.default_rng(seed), TRUE, games_per_pair=100)
        fit = fit_elo(table, anchor="random", prior=prior)
        for r in fit.ratings:
            if r.name != "random":
                covered.append(r.lower <= TRUE[r.name] <= r.upper)
                z.append((r.elo - TRUE[r.name]) / r.stderr)
    assert 0.90 <= np.mean(covered) <= 0.99
    assert 0.8 <= np.std(z) <= 1.2
    # Without a prior the estimates are unbiased; the prior shrinks the 1200-Elo spread a bit.
    assert abs(np.mean(z)) < (0.15 if prior == 0 else 0.35)


def test_anchor_sets_zero_and_intervals_are_relative() -> None:
    table = simulate(np.random.default_rng(1), TRUE, games_per_pair=40)
    by_random = fit_elo(table, anchor="random")
    by_c = fit_elo(table, anchor="c", anchor_elo=1000.0)
    assert by_random.rating("random").elo == 0.0
    assert by_random.rating("random").interval == (0.0, 0.0)
    assert by_c.rating("c").elo == 1000.0 and by_c.rating("c").stderr == 0.0
    shift = by_c.rating("random").elo - by_random.rating("random").elo
    for name in TRUE:
        assert by_c.rating(name).elo == pytest.approx(by_random.rating(name).elo + shift)
    # Var(r_c - r_random) is the same seen from either anchor.
    assert by_c.rating("random").stderr == pytest.approx(by_random.rating("c").stderr)
    average = fit_elo(table)
    assert average.anchor is None
    assert np.mean([r.elo for r in average.ratings]) == pytest.approx(0.0, abs=1e-9)
    assert all(r.stderr > 0 for r in average.ratings)


def test_swapping_colours_with_zero_advantage_changes_nothing() -> None:
    games = games_of(simulate(np.random.default_rng(2), TRUE, games_per_pair=20))
    swapped = [GameResult(g.second, g.first, 1.0 - g.result) for g in games]
    for advantage in (0.0, None):
        fit = fit_elo(games, anchor="random", advantage=advantage)
        fit_swapped = fit_elo(swapped, anchor="random", advantage=advantage)
        for name in TRUE:
            a, b = fit.rating(name), fit_swapped.rating(name)
            assert (a.elo, a.lower, a.upper) == pytest.approx((b.elo, b.lower, b.upper), abs=1e-6)
            assert a.games == b.games and a.score == pytest.approx(b.score)
        # An estimated advantage flips its sign: the other side now moves first.
        assert fit_swapped.advantage == pytest.approx(-fit.advantage, abs=1e-6)


def test_table_and_game_list_give_the_same_fit() -> None:
    table = simulate(np.random.default_rng(4), TRUE, games_per_pair=10)
    from_table = fit_elo(table, anchor="random")
    from_games = fit_elo(games_of(table), anchor="random")
    assert [(r.name, r.elo, r.games) for r in from_table.ratings] == [
        (r.name, pytest.approx(r.elo), r.games) for r in from_games.ratings
    ]
    assert counts_from_games([("x", "y", 1), ("x", "y", 0.5), ("x", "y", 0)]) == {
        ("x", "y"): [1.0, 1.0, 1.0]
    }


def test_prior_keeps_an_unbeaten_player_finite() -> None:
    games = [("a", "b", 1), ("b", "a", 0)] * 3 + [("b", "c", 1), ("c", "b", 0.5), ("c", "a", 0)]
    with pytest.raises(ValueError, match=r"prior=0.*b, c never won or drew against a"):
        fit_elo(games, prior=0, advantage=0)
    fit = fit_elo(games, anchor="c")
    a = fit.rating("a")
    assert math.isfinite(a.elo) and a.elo > fit.rating("b").elo > 0
    assert a.lower < a.elo < a.upper and a.score == 1.0


def test_prior_is_virtual_draws_between_opponents() -> None:
    # Two players: `prior` virtual draws between them, each half a win and half a loss. So 3 wins
    # of 3 with prior 2 score like 4 of 5 (gap 400 log10 4), 3 of 4 like 4 of 6 (400 log10 2),
    # and with prior 10, 3 of 4 like 8 of 14 (400 log10 (8 / 6)).
    sweep = [("a", "b", 1), ("b", "a", 0), ("a", "b", 1)]
    assert fit_elo(sweep, advantage=0, anchor="b")["a"].elo == pytest.approx(400 * math.log10(4))
    three_of_four = [*sweep, ("b", "a", 1)]
    gaps = {
        p: fit_elo(three_of_four, prior=p, advantage=0, anchor="b")["a"].elo for p in (0, 2, 10)
    }
    assert gaps[0] == pytest.approx(400 * math.log10(3))
    assert gaps[2] == pytest.approx(400 * math.log10(2))
    assert gaps[10] == pytest.approx(400 * math.log10(8 / 6))
    # A player's virtual draws are spread over its opponents by games played:
    # (prior / 2) g_ij (1 / g_i + 1 / g_j) between i and j; they only touch differences.
    model = _Model(
        3,
        np.array([0, 1]),
        np.array([1, 2]),
        np.array([3.0, 1.0]),
        np.zeros(2),
        np.array([1.0, 0.0]),
        prior=2.0,
    )
    # a-b: 4 games, b-c: 1 game; g_a = 4, g_b = 5, g_c = 1.
    assert model.virtual == pytest.approx([4 * (1 / 4 + 1 / 5), 1 * (1 / 5 + 1 / 1)])


def test_players_that_never_met_cannot_be_rated_together() -> None:
    games = [("a", "b", 1), ("b", "a", 0.5), ("c", "d", 0), ("d", "c", 1)]
    with pytest.raises(ValueError, match="no chain of games links a, b to c, d"):
        fit_elo(games)


def test_rate_returns_best_first_and_format() -> None:
    ratings = rate([("a", "b", 1), ("b", "a", 0.5), ("a", "b", 0.5)], anchor="b")
    assert [r.name for r in ratings] == ["a", "b"]
    text = format_ratings(ratings)
    assert "95% interval" in text and "a" in text.splitlines()[1]


def test_outcome_probabilities() -> None:
    win, draw, loss = outcome_probabilities(100.0, 30.0, 90.0)
    assert win + draw + loss == pytest.approx(1.0)
    assert win == pytest.approx(elo_to_probability(100 + 30 - 90))
    assert loss == pytest.approx(elo_to_probability(-100 - 30 - 90))
    _, draw, _ = outcome_probabilities(0.0, 0.0, 97.3)
    assert draw == pytest.approx(2 * elo_to_probability(97.3) - 1)
    assert elo_to_probability(400.0) == pytest.approx(10 / 11)


@pytest.mark.parametrize(
    ("games", "options", "message"),
    [
        ([("a", "b", 2)], {}, "result must be 1, 0.5 or 0"),
        ([("a", "a", 1)], {}, "cannot play itself"),
        ([], {}, "no games"),
        ([("a", "b", 1), ("b", "a", 0)], {"anchor": "z"}, "anchor 'z' played no game"),
        ([("a", "b", 0.5), ("b", "a", 0.5)], {}, "every game is a draw"),
        ([("a", "b", 0.5), ("b", "a", 1)], {"drawelo": 0.0}, "drawelo=0"),
        ([("a", "b", 1)], {"prior": -1}, "prior must be >= 0"),
        ([("a", "b", 1)], {"confidence": 1.5}, "confidence"),
    ],
)
def test_bad_input_is_a_clear_value_error(games, options, message) -> None:
    with pytest.raises(ValueError, match=message):
        fit_elo(games, **options)


def test_one_sided_colours_cannot_estimate_the_advantage_without_a_prior() -> None:
    # a always moves first against b: the advantage and the rating gap are confounded.
    games = [("a", "b", 1), ("a", "b", 0), ("a", "b", 1)]
    with pytest.raises(ValueError, match="not identified"):
        fit_elo(games, prior=0)
    assert fit_elo(games, prior=0, advantage=0, anchor="b")["a"].elo == pytest.approx(
        400 * math.log10(2)
    )
