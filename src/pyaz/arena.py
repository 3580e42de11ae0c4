"""Matches between players, the Wilson score interval, and gating rules for replacing a network.

A :class:`Player` picks moves; :func:`play_game` plays one game and :func:`play_match` a match
with alternating colours and optional sequential stopping::

    >>> import pyaz
    >>> from pyaz.arena import RandomPlayer, play_match, uct_player
    >>> result = play_match(uct_player(200), RandomPlayer(seed=1), 4, pyaz.make("connect_four"))
    >>> result.a_wins + result.draws + result.b_wins
    4

Gating (replace the best network with a challenger or keep it):

- seed 001 (AlphaZeroGeneral): play ``n`` games and replace when the challenger's score exceeds
  the update threshold ``u`` (:func:`gate_by_threshold`);
- seed 000: play until the 95% Wilson score interval with continuity correction lies above 0.5
  (replace), below 0.5 (keep), or is narrower than 0.1 (keep) (:class:`WilsonGate`).

Draws count half a win everywhere here: ``score = (wins + draws / 2) / games``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

from pyaz import _core
from pyaz.games import GameState
from pyaz.search import Evaluator, Search

Z_95 = 1.959963984540054
"""The two-sided 95% normal quantile, Phi^-1(0.975)."""

Decision = Literal["replace", "keep"]


@runtime_checkable
class Player(Protocol):
    """Something that plays a game: told of the start, asked for moves, told of every move.

    The match driver calls ``reset(start)`` once per game, then for each ply ``choose(state)``
    on the player to move (``state`` is the current position; the player must not modify it)
    and ``observe(action)`` on both players with the action played, in order.
    """

    name: str

    def reset(self, state: GameState) -> None:
        """A new game begins from ``state``."""
        ...

    def choose(self, state: GameState) -> int:
        """The action to play in ``state``, the current position (this player is to move)."""
        ...

    def observe(self, action: int) -> None:
        """``action`` was played (by either side); called for every move of the game, in order."""
        ...


class RandomPlayer:
    """Plays uniformly at random among the legal actions (seeded, reproducible)."""

    def __init__(self, seed: int = 0, name: str = "random") -> None:
        self.name = name
        self._rng = random.Random(seed)

    def reset(self, state: GameState) -> None:
        """Nothing to prepare; the random stream continues across games."""

    def choose(self, state: GameState) -> int:
        """A legal action of ``state`` drawn uniformly."""
        return int(self._rng.choice(state.legal_actions()))

    def observe(self, action: int) -> None:
        """Ignored."""

    def __repr__(self) -> str:
        return f"RandomPlayer(name={self.name!r})"


class SearchPlayer:
    """Plays the move chosen by ``pyaz.Search`` after ``simulations`` simulations.

    ``evaluator`` is ``"uniform"``, ``"rollout"`` or a network callable (see
    :mod:`pyaz.search`). ``search_options`` go to ``pyaz.Search`` (``rule``, ``c_puct``,
    ``c_uct``, ``draw_value``, ``threads``, ``batch_size``, ``max_nodes``, ...; ``seed``
    defaults to this player's ``seed``). With ``rule="uct"`` and the ``"rollout"`` evaluator
    this is plain UCT (see :func:`uct_player`).

    The tree is reused across moves (seed 000: "the tree is retained for reuse in the player's
    next turn after it is trimmed ... based on the opponent's action"): ``reset`` sets the root,
    ``observe`` advances it, and each move runs ``simulations`` *new* simulations on top of the
    visits the kept subtree already holds. With ``reuse_tree=False`` the root is set afresh
    before every move, so each move is searched with exactly ``simulations`` simulations.

    Moves are greedy by visit count when ``temperature`` is 0 (the default, as against a
    reference opponent in seed 000), else drawn from pi ~ N^(1/temperature); move ``k`` of the
    player's life uses the seed ``seed + k``, so a player is reproducible (with ``threads=1``).
    """

    def __init__(
        self,
        evaluator: Evaluator,
        simulations: int,
        name: str = "search",
        temperature: float = 0.0,
        seed: int = 0,
        reuse_tree: bool = True,
        **search_options: Any,
    ) -> None:
        if simulations < 1:
            raise ValueError(f"simulations must be >= 1, got {simulations}")
        if temperature < 0:
            raise ValueError(f"temperature must be >= 0, got {temperature}")
        self.name = name
        self.evaluator = evaluator
        self.simulations = int(simulations)
        self.temperature = float(temperature)
        self.seed = int(seed)
        self.reuse_tree = reuse_tree
        self.search_options: dict[str, Any] = {"seed": self.seed, **search_options}
        self.search: Any = None
        self._moves = 0

    def reset(self, state: GameState) -> None:
        """Roots the search at ``state`` (creating the search on first use or a new game type)."""
        self._set_root(state)

    def choose(self, state: GameState) -> int:
        """Searches from ``state`` and returns the chosen action.

        If the kept tree's root is not ``state`` (the player was not told of every move, or
        ``reuse_tree`` is off), the root is set to ``state`` first.
        """
        if state.is_terminal():
            raise ValueError("the game is over; there is no move to choose")
        if (
            not self.reuse_tree
            or self.search is None
            or not _same_state(self.search.root_state, state)
        ):
            self._set_root(state)
        self.search.run(self.simulations, self.evaluator)
        action = int(self.search.choose_action(self.temperature, self.seed + self._moves))
        self._moves += 1
        return action

    def observe(self, action: int) -> None:
        """Keeps the subtree under ``action`` as the new root (tree reuse)."""
        if self.search is not None and self.reuse_tree:
            self.search.advance(int(action))

    def _set_root(self, state: GameState) -> None:
        if self.search is None or type(self.search.root_state) is not type(state):
            self.search = Search(state.clone(), **self.search_options)
        else:
            self.search.set_root(state.clone())

    def __repr__(self) -> str:
        return (
            f"SearchPlayer(name={self.name!r}, simulations={self.simulations}, "
            f"temperature={self.temperature}, options={self.search_options!r})"
        )


def _same_state(a: GameState, b: GameState) -> bool:
    return type(a) is type(b) and a.ply == b.ply and str(a) == str(b)


def uct_player(
    simulations: int = 200, name: str | None = None, seed: int = 0, **search_options: Any
) -> SearchPlayer:
    """Plain UCT with random rollouts: seed 000's reference opponent, "MCTS with 200 simulations".

    UCB1 selection (``c_uct`` = sqrt(2) unless given), one random playout per leaf, greedy
    moves by visit count, tree reuse across moves.
    """
    options = {"rule": "uct", **search_options}
    return SearchPlayer(
        "rollout",
        simulations,
        name=name if name is not None else f"uct{simulations}",
        seed=seed,
        **options,
    )


@dataclass(frozen=True)
class GameRecord:
    """One finished game: the actions played, the final status, and the winner.

    ``winner`` is 0 (the first player), 1 (the second player) or None for a draw. ``first``
    and ``second`` are the players' names. ``opening`` holds the random plies played before
    the players took over (see :func:`play_match`); ``actions`` are the players' own moves, so
    the whole game from the match's start is ``opening + actions`` (:attr:`all_actions`).
    """

    actions: list[int]
    status: _core.Status
    winner: int | None
    first: str = ""
    second: str = ""
    opening: list[int] = field(default_factory=list)
    resigned: int | None = None  # the side (0 or 1) that resigned, if the game ended so

    @property
    def length(self) -> int:
        """Number of plies the players played (the opening excluded)."""
        return len(self.actions)

    @property
    def all_actions(self) -> list[int]:
        """Every ply from the match's start position: the opening, then the players' moves."""
        return [*self.opening, *self.actions]


def _winner(status: _core.Status) -> int | None:
    if status == _core.Status.FIRST_PLAYER_WIN:
        return 0
    if status == _core.Status.SECOND_PLAYER_WIN:
        return 1
    if status == _core.Status.DRAW:
        return None
    raise ValueError(f"the game is not over: {status}")


class Resignation(Exception):  # noqa: N818 (it is an event, not an error)
    """Raised by a player's ``choose`` to resign; ``player`` is the resigning player's name."""

    def __init__(self, player: str) -> None:
        super().__init__(f"{player} resigns")
        self.player = player


def play_game(
    first: Player, second: Player, start_state: GameState, opening: Sequence[int] = ()
) -> GameRecord:
    """Plays one game from ``start_state`` (not modified): ``first`` plays side 0.

    Both players are reset to ``start_state`` and told of the ``opening`` moves through
    ``observe`` (so external engines, which cannot set up arbitrary positions, can follow);
    then the players take over. The side to move is read from the state each ply (so games
    with passes, where a player moves twice in a row, work). A :class:`Resignation` raised by a
    player's ``choose`` ends the game as a loss for its side. An illegal action raises
    ValueError.
    """
    state = start_state.clone()
    players = (first, second)
    for player in players:
        player.reset(state.clone())
    for action in opening:
        if state.is_terminal() or not state.is_legal(int(action)):
            raise ValueError(f"opening move {action} is illegal at ply {state.ply}")
        state.apply(int(action))
        for player in players:
            player.observe(int(action))
    if state.is_terminal():
        raise ValueError("the start position (after the opening) is already over")
    actions: list[int] = []
    resigned: int | None = None
    while not state.is_terminal():
        side = int(state.to_move())
        mover = players[side]
        try:
            action = int(mover.choose(state.clone()))
        except Resignation:
            resigned = side
            break
        if not state.is_legal(action):
            raise ValueError(
                f"{mover.name} chose illegal action {action} at ply {state.ply}:\n{state}"
            )
        state.apply(action)
        actions.append(action)
        for player in players:
            player.observe(action)
    if resigned is not None:
        status = _core.Status.SECOND_PLAYER_WIN if resigned == 0 else _core.Status.FIRST_PLAYER_WIN
    else:
        status = state.status()
    opening_list = [int(a) for a in opening]
    return GameRecord(
        actions, status, _winner(status), first.name, second.name, opening_list, resigned
    )


def wilson_interval(
    successes: float, n: int, z: float = Z_95, continuity: bool = True
) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion ``successes / n``, clipped to [0, 1].

    With ``continuity`` (the default; seed 000's rule) this is Newcombe's (1998) method 4, the
    score interval with continuity correction (also Reed 2007), with p = successes/n, q = 1-p::

        L = (2np + z^2 - 1 - z sqrt(z^2 - 2 - 1/n + 4p(nq + 1))) / (2(n + z^2)),  L = 0 if p = 0
        U = (2np + z^2 + 1 + z sqrt(z^2 + 2 - 1/n + 4p(nq - 1))) / (2(n + z^2)),  U = 1 if p = 1

    Without it, the plain Wilson (1927) interval (Newcombe's method 3)::

        (2np + z^2 -/+ z sqrt(z^2 + 4npq)) / (2(n + z^2))

    ``successes`` may be fractional (draws counted as half a win). ``n = 0`` gives (0, 1).
    """
    if n < 0:
        raise ValueError(f"n must be >= 0, got {n}")
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be in [0, n] = [0, {n}], got {successes}")
    if z <= 0:
        raise ValueError(f"z must be > 0, got {z}")
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    q = 1.0 - p
    z2 = z * z
    denom = 2.0 * (n + z2)
    if not continuity:
        half = z * math.sqrt(z2 + 4.0 * n * p * q)
        centre = 2.0 * n * p + z2
        return max(0.0, (centre - half) / denom), min(1.0, (centre + half) / denom)
    if p <= 0.0:
        lower = 0.0
    else:
        root = math.sqrt(max(0.0, z2 - 2.0 - 1.0 / n + 4.0 * p * (n * q + 1.0)))
        lower = max(0.0, (2.0 * n * p + z2 - 1.0 - z * root) / denom)
    if p >= 1.0:
        upper = 1.0
    else:
        root = math.sqrt(max(0.0, z2 + 2.0 - 1.0 / n + 4.0 * p * (n * q - 1.0)))
        upper = min(1.0, (2.0 * n * p + z2 + 1.0 + z * root) / denom)
    return lower, upper


@dataclass
class MatchResult:
    """The tally of a match between ``a`` and ``b``, from ``a``'s side.

    ``games`` holds each game's record in order; ``a`` played first in the even-numbered games
    (0, 2, ...) and second in the odd ones.
    """

    a_wins: int = 0
    draws: int = 0
    b_wins: int = 0
    games: list[GameRecord] = field(default_factory=list)
    a_name: str = "a"
    b_name: str = "b"

    @property
    def n(self) -> int:
        """Number of games played."""
        return self.a_wins + self.draws + self.b_wins

    @property
    def score(self) -> float:
        """``a``'s win ratio counting draws as half: (wins + draws/2) / games (0.5 if none)."""
        if self.n == 0:
            return 0.5
        return (self.a_wins + 0.5 * self.draws) / self.n

    def wilson_interval(self, z: float = Z_95, continuity: bool = True) -> tuple[float, float]:
        """The Wilson interval for ``a``'s score, draws counting as half a win."""
        return wilson_interval(self.a_wins + 0.5 * self.draws, self.n, z, continuity)

    def add(self, record: GameRecord, a_is_first: bool) -> None:
        """Counts one more game, in which ``a`` played first if ``a_is_first``."""
        self.games.append(record)
        if record.winner is None:
            self.draws += 1
        elif (record.winner == 0) == a_is_first:
            self.a_wins += 1
        else:
            self.b_wins += 1

    def __str__(self) -> str:
        lo, hi = self.wilson_interval()
        return (
            f"{self.a_name} vs {self.b_name}: +{self.a_wins} ={self.draws} -{self.b_wins} "
            f"(score {self.score:.3f}, 95% CC-Wilson [{lo:.3f}, {hi:.3f}])"
        )


def random_opening(start_state: GameState, plies: int, rng: random.Random) -> list[int]:
    """``plies`` uniformly random legal actions from ``start_state`` that do not end the game.

    An opening that would end the game is drawn again (up to 1000 tries, then ValueError).
    """
    for _ in range(1000):
        state = start_state.clone()
        actions: list[int] = []
        while len(actions) < plies and not state.is_terminal():
            action = int(rng.choice(state.legal_actions()))
            state.apply(action)
            actions.append(action)
        if not state.is_terminal():
            return actions
    raise ValueError(f"no {plies}-ply random opening that leaves the game going was found")


def play_match(
    a: Player,
    b: Player,
    games: int,
    start_state: GameState,
    progress: bool = False,
    stop: Callable[[MatchResult], bool] | None = None,
    opening_plies: int = 0,
    seed: int = 0,
) -> MatchResult:
    """Plays up to ``games`` games of ``a`` against ``b`` from ``start_state``, alternating colours.

    ``a`` moves first in even-numbered games (0, 2, ...), ``b`` in odd ones. After each game
    ``stop(result_so_far)`` is called, if given, and the match ends when it returns True (for
    sequential stopping, e.g. a :class:`WilsonGate`). ``progress`` shows a tqdm bar.

    Greedy search players are deterministic (``pyaz.Search`` with the "rollout" evaluator
    replays the same rollouts on every ``run``), so two of them play just two distinct games,
    one per colour assignment, however long the match. ``opening_plies > 0`` starts each pair
    of games (2k, 2k + 1) from the same random opening of that many plies (drawn with
    ``seed``), played once with each colour assignment, so that the games differ and neither
    player gains from the opening; the opening is stored in each :class:`GameRecord`.
    """
    if games < 0:
        raise ValueError(f"games must be >= 0, got {games}")
    if opening_plies < 0:
        raise ValueError(f"opening_plies must be >= 0, got {opening_plies}")
    result = MatchResult(a_name=a.name, b_name=b.name)
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=games, desc=f"{a.name} vs {b.name}", unit="game")
    opening: list[int] = []
    try:
        for index in range(games):
            a_first = index % 2 == 0
            if opening_plies and a_first:
                rng = random.Random(seed * 1_000_003 + index // 2)
                opening = random_opening(start_state, opening_plies, rng)
            first, second = (a, b) if a_first else (b, a)
            record = play_game(first, second, start_state, opening)
            result.add(record, a_first)
            if bar is not None:
                bar.update(1)
                bar.set_postfix(w=result.a_wins, d=result.draws, l=result.b_wins)
            if stop is not None and stop(result):
                break
    finally:
        if bar is not None:
            bar.close()
    return result


def gate_by_threshold(result: MatchResult, u: float = 0.6) -> bool:
    """Seed 001's arena rule: the challenger (``a``) replaces the best when its score exceeds ``u``.

    ``result`` is the match of ``n`` games with the challenger as ``a``. The score counts a
    draw as half a win, ``(wins + draws/2) / n``, so with ``u = 0.5`` a challenger that only
    draws is not accepted (the comparison is strict). Seed 001 studies u in {0.5, 0.6, 0.7}
    and finds 0.5 and 0.6 acceptable, 0.7 too strict; 0.6 is AlphaZeroGeneral's default. An
    empty match never replaces.
    """
    if not 0.0 <= u <= 1.0:
        raise ValueError(f"u must be in [0, 1], got {u}")
    return result.n > 0 and result.score > u


@dataclass(frozen=True)
class WilsonGate:
    """Seed 000's sequential gating rule, usable as ``play_match(..., stop=gate)``.

    After each game (from ``min_games`` on) the 95% Wilson score interval with continuity
    correction of the challenger's (``a``'s) score, draws counting half, decides:

    - lower bound > ``threshold`` (0.5): "replace" (the challenger is better);
    - upper bound < ``threshold``: "keep" (the best is better);
    - upper - lower < ``min_width`` (0.1): "keep" (too close to tell: no replacement);
    - ``max_games`` played without a decision: "keep", so the match always ends.

    Seed 000 notes that stopping sequentially this way does not give exactly 95% confidence.
    The interval assumes independent games: between deterministic (greedy) players, use
    ``opening_plies`` in :meth:`run` / :func:`play_match` (or a temperature), or every game
    pair is a repeat and the gate decides on two games counted many times.
    """

    min_games: int = 10
    max_games: int = 400
    threshold: float = 0.5
    min_width: float = 0.1
    z: float = Z_95
    continuity: bool = True

    def __post_init__(self) -> None:
        if self.min_games < 1:
            raise ValueError(f"min_games must be >= 1, got {self.min_games}")
        if self.max_games < self.min_games:
            raise ValueError(f"max_games ({self.max_games}) < min_games ({self.min_games})")

    def decision(self, result: MatchResult) -> Decision | None:
        """The decision, "replace" or "keep", or None while the match should go on."""
        n = result.n
        if n >= self.min_games:
            lower, upper = result.wilson_interval(self.z, self.continuity)
            if lower > self.threshold:
                return "replace"
            if upper < self.threshold or upper - lower < self.min_width:
                return "keep"
        if n >= self.max_games:
            return "keep"
        return None

    def __call__(self, result: MatchResult) -> bool:
        """The ``stop`` callback: True once a decision is reached."""
        return self.decision(result) is not None

    def run(
        self,
        challenger: Player,
        best: Player,
        start_state: GameState,
        progress: bool = False,
        opening_plies: int = 0,
        seed: int = 0,
    ) -> tuple[Decision, MatchResult]:
        """Plays the gating match (challenger as ``a``) and returns the decision and the result.

        ``opening_plies`` and ``seed`` are as in :func:`play_match`.
        """
        result = play_match(
            challenger,
            best,
            self.max_games,
            start_state,
            progress,
            stop=self,
            opening_plies=opening_plies,
            seed=seed,
        )
        decision = self.decision(result)
        return (decision if decision is not None else "keep"), result
