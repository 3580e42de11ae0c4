"""Bayesian Elo: ratings with confidence intervals from a table of game results.

This follows Rémi Coulom's *Bayesian Elo* (the ``bayeselo`` program, which seed 001 uses after
AlphaZero; its ref. 33 is Coulom's whole-history rating, the time-varying extension of the same
model): a Bradley-Terry/Elo model with draws and a first-move advantage, a prior made of
virtual draws, the maximum a posteriori (MAP) ratings, and intervals from the curvature of the
log-posterior at its maximum.

Units
-----
Elo: a rating difference ``D`` means odds of ``10 ** (D / 400)`` (400 Elo = a factor 10 in the
odds, about 191 Elo = odds 3:1, a 75% expected score without draws). Internally the model works
in natural log-odds, ``x = D * ln(10) / 400``.

The model (Coulom's ``drawelo`` model)
--------------------------------------
For a game of ``first`` (rating ``r_f``, moving first) against ``second`` (``r_s``), with
``f(D) = 1 / (1 + 10 ** (-D / 400))`` the Elo logistic curve::

    P(first wins)  = f(r_f - r_s + advantage - drawelo)
    P(second wins) = f(r_s - r_f - advantage - drawelo)
    P(draw)        = 1 - P(first wins) - P(second wins)

``advantage`` (Elo) is what moving first is worth; ``drawelo`` (Elo, >= 0) sets how drawish the
game is: between equal players without advantage ``P(draw) = 2 f(drawelo) - 1`` (``drawelo`` 0
is the plain Bradley-Terry model, which has no draws). This is the model of ``bayeselo``.
Davidson's draw model (``P(draw)`` proportional to ``sqrt(P(win) P(loss))``) is the other common
choice; Coulom's is kept for comparability with the numbers in the seed papers. Both nuisance
parameters are estimated from the data by default (``advantage=None``, ``drawelo=None``) or held
fixed when given a value (``bayeselo``'s defaults are 32.8 and 97.3 Elo for chess). ``drawelo``
is held at 0 when the results have no draws, since its estimate would then be 0, on the
boundary.

The prior
---------
As in ``bayeselo`` (``CCondensedResults::AddPrior``), the prior is made of virtual draws between
players who met: each player adds ``prior`` / 2 virtual draws (default ``prior`` = 2), spread
over its opponents in proportion to the games played against each, half with each colour
order; so between players ``i`` and ``j`` who played ``g_ij`` games there are
``(prior / 2) * g_ij * (1 / g_i + 1 / g_j)`` virtual draws (``g_i``: all of ``i``'s games), and
a player meets about ``prior`` of them in all. This prior only involves rating differences (it
does not pull ratings toward any fixed value, so anchoring changes nothing but the offset), and
it shrinks the gap between two opponents by about as much as ``prior`` drawn games would: it
weighs little once there are many real games, and keeps the ratings finite when a player wins
(or loses) all its games. Unlike ``bayeselo``, where the virtual draws are draws of the full
model, here each counts as half a win and half a loss under the plain logistic curve (no
advantage, no drawelo), so that the prior's strength does not depend on, and does not move,
the estimates of ``advantage`` and ``drawelo``. Two players with only virtual draws between
them (3 wins out of 3 with ``prior`` 2 is scored like 4 out of 5) make the prior easy to check
by hand.

With ``prior=0`` the ratings are the maximum-likelihood estimates, which exist only when every
player has both scored against and conceded to the rest through some chain of games (Ford's
condition; checked, with a clear error). With or without the prior, the players must form one
connected group through the games played (else their relative ratings are not defined).

Estimation and intervals
------------------------
The log-posterior is concave in (ratings, advantage, drawelo) (the draw probability is a
log-concave integral of the logistic density), so Newton's method with a backtracking line
search finds the MAP in a few iterations; the gradient and Hessian are analytic. The covariance
of the estimates is the inverse of the negative Hessian at the MAP (the Laplace approximation),
which includes the uncertainty of the estimated advantage and drawelo. Ratings are reported
relative to an ``anchor`` player (e.g. ``"random"`` at 0), and each interval is that of the
difference to the anchor, ``elo +/- z * sqrt(Var(r_i - r_anchor))``, so the anchor's own
interval has width 0; without an anchor the average rating is 0 and the intervals are those of
``r_i - mean(r)``. ``bayeselo`` reports asymmetric intervals from the posterior of each rating
with the others fixed; the Laplace interval here is symmetric and accounts for the others'
uncertainty too.

Example: two players, the first wins 3 of 4 games, no prior, no advantage::

    >>> fit = fit_elo([("a", "b", 1), ("b", "a", 0), ("a", "b", 1), ("b", "a", 1)],
    ...               prior=0, advantage=0, anchor="b")
    >>> round(fit.rating("a").elo, 1)  # 400 * log10(3)
    190.8
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import astuple, dataclass, field
from numbers import Real
from statistics import NormalDist
from typing import TypeAlias

import numpy as np

NATS_PER_ELO = math.log(10.0) / 400.0
"""Natural log-odds per Elo point: ln(10) / 400."""

DEFAULT_PRIOR = 2.0
"""Virtual draws per player against a player rated 0 (``bayeselo``'s default)."""


@dataclass(frozen=True)
class GameResult:
    """One game: ``result`` is the first player's score, 1 (win), 0.5 (draw) or 0 (loss)."""

    first: str
    second: str
    result: float


GameLike: TypeAlias = GameResult | tuple[str, str, float]
"""A :class:`GameResult` or a ``(first, second, result)`` tuple."""

ResultTable: TypeAlias = Mapping[tuple[str, str], tuple[float, float, float]]
"""Counts per ordered pair: ``{(first, second): (first_wins, draws, second_wins)}``.

The key's first name moved first in those games. Results without colours can be entered with
half the games under each order, or under one order with ``advantage=0``.
"""


@dataclass(frozen=True)
class Rating:
    """One player's rating, relative to the anchor, with its interval.

    ``elo`` is the MAP rating; ``lower``/``upper`` bound the interval (95% unless asked
    otherwise) of the difference to the anchor; ``stderr`` is that difference's standard
    deviation. ``games`` counts the real games played (virtual draws excluded) and ``score``
    is the share of points won in them (a draw counting half).
    """

    name: str
    elo: float
    lower: float
    upper: float
    games: int
    score: float
    stderr: float = 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """``(lower, upper)``."""
        return self.lower, self.upper


@dataclass(frozen=True)
class EloFit:
    """The fitted model: the ratings (best first) and the estimated or fixed parameters.

    ``covariance`` is the covariance of the reported ratings (relative to the anchor, or to
    the mean when there is no anchor), in Elo squared, indexed like ``names``.
    """

    ratings: list[Rating]
    advantage: float
    drawelo: float
    anchor: str | None
    prior: float
    confidence: float
    names: list[str]
    covariance: np.ndarray = field(repr=False)
    advantage_stderr: float = 0.0
    drawelo_stderr: float = 0.0
    iterations: int = 0

    def rating(self, name: str) -> Rating:
        """The rating of player ``name`` (KeyError if there is no such player)."""
        for rating in self.ratings:
            if rating.name == name:
                return rating
        raise KeyError(f"no player {name!r}; players: {', '.join(self.names)}")

    def __getitem__(self, name: str) -> Rating:
        return self.rating(name)

    def probabilities(self, first: str, second: str) -> tuple[float, float, float]:
        """The model's (first wins, draw, second wins) for ``first`` moving first."""
        delta = self.rating(first).elo - self.rating(second).elo
        return outcome_probabilities(delta, self.advantage, self.drawelo)

    def table(self) -> str:
        """The ratings as a text table, with the fitted parameters underneath."""
        return format_ratings(self.ratings, self.confidence) + "\n" + self.summary()

    def summary(self) -> str:
        """One line: anchor, prior, advantage and drawelo."""
        anchor = f"{self.anchor} = 0" if self.anchor is not None else "average = 0"
        return (
            f"anchor {anchor}; prior {self.prior:g} virtual draws; first-move advantage "
            f"{self.advantage:.1f} +/- {self.advantage_stderr:.1f} Elo; drawelo "
            f"{self.drawelo:.1f} +/- {self.drawelo_stderr:.1f} Elo"
        )


def elo_to_probability(delta: float | np.ndarray) -> float | np.ndarray:
    """The Elo logistic curve ``f(D) = 1 / (1 + 10 ** (-D / 400))``."""
    return _sigmoid(np.asarray(delta, dtype=np.float64) * NATS_PER_ELO)[()]


def outcome_probabilities(
    delta: float, advantage: float = 0.0, drawelo: float = 0.0
) -> tuple[float, float, float]:
    """(first wins, draw, second wins) when the first player is rated ``delta`` Elo higher."""
    if drawelo < 0:
        raise ValueError(f"drawelo must be >= 0, got {drawelo}")
    x = (delta + advantage) * NATS_PER_ELO
    d = drawelo * NATS_PER_ELO
    win = float(_sigmoid(np.float64(x - d)))
    loss = float(_sigmoid(np.float64(-x - d)))
    return win, max(0.0, 1.0 - win - loss), loss


def counts_from_games(games: Iterable[GameLike]) -> dict[tuple[str, str], list[float]]:
    """Tallies games into a :data:`ResultTable`-like dict of ``[wins, draws, losses]`` lists."""
    table: dict[tuple[str, str], list[float]] = {}
    for game in games:
        first, second, result = astuple(game) if isinstance(game, GameResult) else game
        if first == second:
            raise ValueError(f"a player cannot play itself: {first!r}")
        if isinstance(result, bool | np.bool_) or result not in (1, 0.5, 0):  # True is no win
            raise ValueError(f"result must be 1, 0.5 or 0 for the first player, got {result!r}")
        slot = (1, 0.5, 0).index(result)
        table.setdefault((str(first), str(second)), [0.0, 0.0, 0.0])[slot] += 1
    return table


def fit_elo(
    results: Iterable[GameLike] | ResultTable,
    *,
    anchor: str | None = None,
    anchor_elo: float = 0.0,
    prior: float = DEFAULT_PRIOR,
    advantage: float | None = None,
    drawelo: float | None = None,
    confidence: float = 0.95,
    max_iterations: int = 100,
) -> EloFit:
    """Fits the Bayesian Elo model (see the module docstring) to ``results``.

    ``results`` is an iterable of games (:class:`GameResult` or ``(first, second, result)``)
    or a :data:`ResultTable` of counts. ``anchor`` names the player rated ``anchor_elo``
    (intervals are then relative to it); None puts the average at ``anchor_elo``. ``prior``
    is about the number of virtual draws each player gets, spread over its opponents (see
    the module docstring; 0: maximum likelihood). ``advantage`` and
    ``drawelo`` are estimated when None, else held at the given Elo values. ``confidence``
    sets the intervals' level (two-sided, normal quantile).

    Raises ValueError for malformed results, an unknown anchor, ratings that have no finite
    estimate (groups of players that never met, or, with ``prior=0``, a player that never
    scored or never conceded through any chain of games), or parameters that cannot be
    estimated (all games drawn, or only one colour assignment ever played, so that the
    advantage is confounded with the ratings, without a prior).
    """
    _check_options(prior, confidence, drawelo)
    data = _GameData.of(results, anchor)
    _check_connected(data)
    if prior == 0:
        _check_ford(data)
    n = len(data.names)
    wins, draws, losses = data.counts.T
    model = _Model(n, data.first, data.second, wins, draws, losses, prior)
    phi, free = _start(data, anchor, advantage, drawelo)
    phi, iterations = _newton(model, phi, free, max_iterations)
    cov = _covariance(model, phi, free, advantage is None, drawelo is None)
    anchor_index = data.index[anchor] if anchor is not None else None
    rel, rel_cov = _relative(phi[:n], cov[:n, :n], anchor_index, anchor_elo)
    return EloFit(
        ratings=_ratings(data, rel, rel_cov, confidence),
        advantage=float(phi[n]),
        drawelo=float(phi[n + 1]),
        anchor=anchor,
        prior=float(prior),
        confidence=confidence,
        names=data.names,
        covariance=rel_cov,
        advantage_stderr=float(math.sqrt(max(cov[n, n], 0.0))),
        drawelo_stderr=float(math.sqrt(max(cov[n + 1, n + 1], 0.0))),
        iterations=iterations,
    )


def _check_options(prior: float, confidence: float, drawelo: float | None) -> None:
    if prior < 0:
        raise ValueError(f"prior must be >= 0, got {prior}")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    if drawelo is not None and drawelo < 0:
        raise ValueError(f"drawelo must be >= 0, got {drawelo}")


@dataclass(frozen=True)
class _GameData:
    """The games as arrays over the pairs (first player, second player) that met."""

    names: list[str]
    index: dict[str, int]
    first: np.ndarray
    second: np.ndarray
    counts: np.ndarray  # [pairs, 3]: the first player's wins, draws, losses

    @classmethod
    def of(cls, results: Iterable[GameLike] | ResultTable, anchor: str | None) -> _GameData:
        table = {pair: cell for pair, cell in _as_table(results).items() if sum(cell) != 0}
        if not table:
            raise ValueError("no games to rate")
        names = sorted({name for pair in table for name in pair})
        index = {name: i for i, name in enumerate(names)}
        if anchor is not None and anchor not in index:
            raise ValueError(f"anchor {anchor!r} played no game; players: {', '.join(names)}")
        pairs = list(table)
        first = np.array([index[f] for f, _ in pairs], dtype=np.int64)
        second = np.array([index[s] for _, s in pairs], dtype=np.int64)
        counts = np.array([table[p] for p in pairs], dtype=np.float64).reshape(-1, 3)
        return cls(names, index, first, second, counts)


def _start(
    data: _GameData, anchor: str | None, advantage: float | None, drawelo: float | None
) -> tuple[np.ndarray, np.ndarray]:
    """The starting point and the free parameters, in Elo: the n ratings, the advantage, drawelo.

    Only rating differences are identified (the prior too involves only differences): one
    rating is held at 0, so the covariance of any difference is exact. ValueError when
    ``drawelo`` has no finite estimate (every game drawn) or is held at 0 despite draws.
    """
    n = len(data.names)
    phi = np.zeros(n + 2)
    free = np.ones(n + 2, dtype=bool)
    free[data.index[anchor] if anchor is not None else 0] = False
    if advantage is not None:
        phi[n] = advantage
        free[n] = False
    total_draws = float(data.counts[:, 1].sum())
    if drawelo is not None:
        if drawelo == 0 and total_draws > 0:
            raise ValueError(f"drawelo=0 gives draws probability 0, but there are {total_draws:g}")
        phi[n + 1] = drawelo
        free[n + 1] = False
    elif total_draws == 0:
        free[n + 1] = False  # no draws: the estimate is 0, on the boundary
    elif total_draws == data.counts.sum():
        raise ValueError("every game is a draw: drawelo cannot be estimated; pass drawelo=...")
    else:
        draw_rate = total_draws / data.counts.sum()
        phi[n + 1] = math.log((1 + draw_rate) / (1 - draw_rate)) / NATS_PER_ELO
    return phi, free


def _covariance(
    model: _Model, phi: np.ndarray, free: np.ndarray, advantage_free: bool, drawelo_free: bool
) -> np.ndarray:
    """The parameters' covariance: the inverse Hessian of the negative log posterior."""
    _, _, hessian = model.evaluate(phi, need_hessian=True)
    sub = hessian[np.ix_(free, free)]
    try:
        cov_free = np.linalg.inv(sub)
        np.linalg.cholesky(sub)
    except np.linalg.LinAlgError:
        raise ValueError(_not_identified(advantage_free, drawelo_free)) from None
    cov = np.zeros((len(phi), len(phi)))
    cov[np.ix_(free, free)] = cov_free
    return cov


def _relative(
    elo: np.ndarray, cov: np.ndarray, anchor: int | None, anchor_elo: float
) -> tuple[np.ndarray, np.ndarray]:
    """Ratings relative to the anchor (or to the average) and their covariance."""
    n = len(elo)
    contrast = np.eye(n)
    if anchor is not None:
        contrast[:, anchor] -= 1.0
    else:
        contrast -= 1.0 / n
    return contrast @ elo + anchor_elo, contrast @ cov @ contrast.T


def _ratings(
    data: _GameData, rel: np.ndarray, rel_cov: np.ndarray, confidence: float
) -> list[Rating]:
    """Each player's rating with its interval, games and score, best first."""
    n = len(data.names)
    stderr = np.sqrt(np.clip(np.diag(rel_cov), 0.0, None))
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    games_played = np.zeros(n)
    points = np.zeros(n)
    per_cell = data.counts.sum(axis=1)
    np.add.at(games_played, data.first, per_cell)
    np.add.at(games_played, data.second, per_cell)
    wins, draws, losses = data.counts.T
    np.add.at(points, data.first, wins + 0.5 * draws)
    np.add.at(points, data.second, losses + 0.5 * draws)
    ratings = [
        Rating(
            name=name,
            elo=float(rel[i]),
            lower=float(rel[i] - z * stderr[i]),
            upper=float(rel[i] + z * stderr[i]),
            games=round(games_played[i]),
            score=float(points[i] / games_played[i]) if games_played[i] else math.nan,
            stderr=float(stderr[i]),
        )
        for i, name in enumerate(data.names)
    ]
    ratings.sort(key=lambda r: (-r.elo, r.name))
    return ratings


def rate(results: Iterable[GameLike] | ResultTable, **options: object) -> list[Rating]:
    """The ratings of :func:`fit_elo` (best first); ``options`` as for it."""
    return fit_elo(results, **options).ratings  # type: ignore[arg-type]


def format_ratings(ratings: Sequence[Rating], confidence: float = 0.95) -> str:
    """A text table: rank, name, Elo, the interval, games and score, in the given order."""
    width = max([4, *(len(r.name) for r in ratings)])
    label = f"{round(confidence * 100):d}% interval"
    lines = [f"{'rank':>4}  {'name':<{width}}  {'Elo':>7}  {label:>19}  {'games':>6}  {'score':>6}"]
    for rank, r in enumerate(ratings, 1):
        interval = f"[{r.lower:7.1f}, {r.upper:7.1f}]"
        lines.append(
            f"{rank:>4}  {r.name:<{width}}  {r.elo:7.1f}  {interval:>19}  {r.games:>6}  "
            f"{r.score:6.3f}"
        )
    return "\n".join(lines)


# -- internals ----------------------------------------------------------------------------------


def _sigmoid(x: np.ndarray | np.float64) -> np.ndarray:
    """The logistic function, accurate in both tails."""
    x = np.asarray(x, dtype=np.float64)
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


def _log_sigmoid(x: np.ndarray) -> np.ndarray:
    return -np.logaddexp(0.0, -x)


def _as_table(results: Iterable[GameLike] | ResultTable) -> dict[tuple[str, str], list[float]]:
    if isinstance(results, Mapping):
        table: dict[tuple[str, str], list[float]] = {}
        for key, value in results.items():
            first, second = key
            if first == second:
                raise ValueError(f"a player cannot play itself: {first!r}")
            cell = _game_counts(key, value)
            old = table.setdefault((str(first), str(second)), [0.0, 0.0, 0.0])
            table[(str(first), str(second))] = [a + b for a, b in zip(old, cell, strict=True)]
        return table
    return counts_from_games(results)


def _game_counts(key: tuple[str, str], value: object) -> list[float]:
    """``value`` as the (wins, draws, losses) of ``key``: three finite non-negative numbers
    (never booleans or strings such as ``"3"``); ValueError naming the key otherwise."""
    if not isinstance(value, Sequence) or isinstance(value, str) or len(value) != 3:
        raise ValueError(f"{key}: expected (wins, draws, losses), got {value!r}")
    if not all(isinstance(v, Real) and not isinstance(v, bool) for v in value):
        raise ValueError(f"{key}: game counts must be numbers, got {value!r}")
    cell = [float(v) for v in value]
    if not all(math.isfinite(v) and v >= 0 for v in cell):
        raise ValueError(f"{key}: game counts must be finite and >= 0, got {value!r}")
    return cell


class _Model:
    """The negative log-posterior of the parameters (ratings, advantage, drawelo), in Elo."""

    def __init__(
        self,
        n: int,
        first: np.ndarray,
        second: np.ndarray,
        wins: np.ndarray,
        draws: np.ndarray,
        losses: np.ndarray,
        prior: float,
    ) -> None:
        self.n = n
        self.wins, self.draws, self.losses = wins, draws, losses
        self.has_draws = draws > 0
        # Virtual draws between players who met: (prior / 2) g_ij (1 / g_i + 1 / g_j).
        met: dict[tuple[int, int], float] = {}
        games = wins + draws + losses
        for f, s, g in zip(first.tolist(), second.tolist(), games.tolist(), strict=True):
            key = (min(f, s), max(f, s))
            met[key] = met.get(key, 0.0) + g
        per_player = np.zeros(n)
        for (i, j), g in met.items():
            per_player[i] += g
            per_player[j] += g
        keys = [k for k, g in met.items() if g > 0]
        self.virtual = np.array(
            [0.5 * prior * met[k] * (1 / per_player[k[0]] + 1 / per_player[k[1]]) for k in keys]
        )
        prior_design = np.zeros((len(keys), n + 2))
        prior_design[np.arange(len(keys)), [i for i, _ in keys]] = NATS_PER_ELO
        prior_design[np.arange(len(keys)), [j for _, j in keys]] = -NATS_PER_ELO
        self.prior_design = prior_design
        # x_k = c * (r_first - r_second + advantage): the design matrix of x in Elo.
        m = len(first)
        design = np.zeros((m, n + 2))
        rows = np.arange(m)
        design[rows, first] += NATS_PER_ELO
        design[rows, second] -= NATS_PER_ELO
        design[:, n] = NATS_PER_ELO
        self.design = design

    def evaluate(
        self, phi: np.ndarray, need_hessian: bool = False
    ) -> tuple[float, np.ndarray, np.ndarray]:
        """(value, gradient, Hessian) of the negative log-posterior; inf if ``phi`` is invalid."""
        n, c = self.n, NATS_PER_ELO
        size = n + 2
        d = phi[n + 1] * c
        if d < 0 or not np.isfinite(phi).all():
            return math.inf, np.zeros(size), np.zeros((size, size))
        x = self.design @ phi
        u, v = x - d, -x - d
        su, sv, nu, nv = _sigmoid(u), _sigmoid(v), _sigmoid(-u), _sigmoid(-v)
        loglik = float(self.wins @ _log_sigmoid(u) + self.losses @ _log_sigmoid(v))
        # Wins and losses: d/du log f(u) = f(-u), d2/du2 = -f(u) f(-u).
        lx = self.wins * nu - self.losses * nv
        ld = -self.wins * nu - self.losses * nv
        huu = -su * nu
        hvv = -sv * nv
        lxx = self.wins * huu + self.losses * hvv
        ldd = lxx.copy()
        lxd = -self.wins * huu + self.losses * hvv
        if self.has_draws.any():
            k = self.has_draws
            dr = self.draws[k]
            # P(draw) = f(d - |x|) - f(-d - |x|), even in x; computed at |x| for precision.
            sign = np.where(x[k] >= 0, 1.0, -1.0)
            y = np.abs(x[k])
            p, q = _sigmoid(d - y), _sigmoid(-d - y)
            delta = p - q
            if (delta <= 0).any():
                return math.inf, np.zeros(size), np.zeros((size, size))
            loglik += float(dr @ np.log(delta))
            pp, qq = p * _sigmoid(y - d), q * _sigmoid(d + y)
            p2, q2 = pp * (1 - 2 * p), qq * (1 - 2 * q)
            hy = (qq - pp) / delta
            hd = (pp + qq) / delta
            hyy = ((p2 - q2) * delta - (qq - pp) ** 2) / delta**2
            hdd = ((p2 - q2) * delta - (pp + qq) ** 2) / delta**2
            hyd = ((-q2 - p2) * delta - (qq - pp) * (pp + qq)) / delta**2
            lx[k] += dr * sign * hy
            ld[k] += dr * hd
            lxx[k] += dr * hyy
            ldd[k] += dr * hdd
            lxd[k] += dr * sign * hyd
        # Prior: v virtual draws between i and j, each half a win and half a loss:
        # (v / 2) (log f(z) + log f(-z)) with z = c (r_i - r_j).
        z = self.prior_design @ phi
        sz, nz = _sigmoid(z), _sigmoid(-z)
        logprior = 0.5 * float(self.virtual @ (_log_sigmoid(z) + _log_sigmoid(-z)))
        value = -(loglik + logprior)

        grad = self.design.T @ lx
        grad[n + 1] += c * ld.sum()
        grad += self.prior_design.T @ (0.5 * self.virtual * (nz - sz))
        grad = -grad
        if not need_hessian:
            return value, grad, np.zeros((size, size))
        hess = self.design.T @ (lxx[:, None] * self.design)
        cross = c * (self.design.T @ lxd)
        hess[:, n + 1] += cross
        hess[n + 1, :] += cross
        hess[n + 1, n + 1] += c * c * ldd.sum()
        hess -= self.prior_design.T @ ((self.virtual * sz * nz)[:, None] * self.prior_design)
        return value, grad, -hess


def _newton(
    model: _Model, phi: np.ndarray, free: np.ndarray, max_iterations: int
) -> tuple[np.ndarray, int]:
    """Damped Newton on the free parameters; returns the minimiser and the iterations used."""
    value, grad, hess = model.evaluate(phi, need_hessian=True)
    for iteration in range(1, max_iterations + 1):
        g = grad[free]
        h = hess[np.ix_(free, free)]
        step = _newton_step(h, g)
        # Newton decrement: stop when the predicted decrease is negligible.
        if float(-g @ step) < 1e-12:
            return phi, iteration
        t = 1.0
        while True:
            trial = phi.copy()
            trial[free] += t * step
            trial_value, trial_grad, trial_hess = model.evaluate(trial, need_hessian=True)
            if trial_value <= value + 1e-4 * t * float(g @ step):
                break
            t *= 0.5
            if t < 1e-10:
                return phi, iteration  # no progress possible: at the optimum to precision
        phi, value, grad, hess = trial, trial_value, trial_grad, trial_hess
        if np.abs(phi).max() > 1e5:
            raise ValueError(
                "the ratings diverge (a player or colour wins or loses everything): "
                "use a prior > 0 or fix advantage/drawelo"
            )
    raise ValueError(f"the Elo fit did not converge in {max_iterations} Newton iterations")


def _newton_step(h: np.ndarray, g: np.ndarray) -> np.ndarray:
    """Solves h s = -g, with a growing ridge if h is not positive definite."""
    ridge = 0.0
    scale = max(float(np.abs(np.diag(h)).max(initial=0.0)), 1e-12)
    for _ in range(60):
        try:
            factor = np.linalg.cholesky(h + ridge * np.eye(len(g)))
        except np.linalg.LinAlgError:
            ridge = max(ridge * 10.0, 1e-10 * scale)
            continue
        return np.linalg.solve(factor.T, np.linalg.solve(factor, -g))
    return -g / scale


def _not_identified(advantage_free: bool, drawelo_free: bool) -> str:
    hints = []
    if advantage_free:
        hints.append("fix the advantage (e.g. advantage=0 when colours are unknown or one-sided)")
    if drawelo_free:
        hints.append("fix drawelo")
    hints.append("use a prior > 0")
    return "the ratings are not identified by these games: " + "; or ".join(hints)


def _reachable(graph: list[set[int]]) -> set[int]:
    """The players that ``graph``'s edges (player -> players) reach from player 0."""
    seen, stack = {0}, [0]
    while stack:
        new = graph[stack.pop()] - seen
        seen |= new
        stack.extend(new)
    return seen


def _check_connected(data: _GameData) -> None:
    """The players must form one group through the games played."""
    names, n = data.names, len(data.names)
    neighbours: list[set[int]] = [set() for _ in range(n)]
    for f, s in zip(data.first.tolist(), data.second.tolist(), strict=True):
        neighbours[f].add(s)
        neighbours[s].add(f)
    seen = _reachable(neighbours)
    if len(seen) < n:
        group = ", ".join(names[i] for i in sorted(seen))
        rest = ", ".join(names[i] for i in range(n) if i not in seen)
        raise ValueError(
            f"no chain of games links {group} to {rest}: their relative ratings are undefined"
        )


def _check_ford(data: _GameData) -> None:
    """Without a prior the MLE exists iff the 'scored against' graph is strongly connected."""
    names, n = data.names, len(data.names)
    scored: list[set[int]] = [set() for _ in range(n)]  # i -> j: i won or drew against j
    conceded: list[set[int]] = [set() for _ in range(n)]  # the same edges reversed
    for f, s, (w, d, lo) in zip(data.first, data.second, data.counts, strict=True):
        for i, j, points in ((f, s, w + d), (s, f, lo + d)):
            if points > 0:
                scored[i].add(j)
                conceded[j].add(i)
    for graph, kind in ((scored, "forward"), (conceded, "backward")):
        seen = _reachable(graph)
        if len(seen) < n:
            rest = sorted(set(range(n)) - seen)
            group, others = (seen, rest) if kind == "forward" else (rest, seen)
            top = ", ".join(names[i] for i in sorted(others))
            bottom = ", ".join(names[i] for i in sorted(group))
            raise ValueError(
                "with prior=0 the ratings have no finite estimate: "
                f"{bottom} never won or drew against {top}; use a prior > 0 (virtual draws)"
            )
