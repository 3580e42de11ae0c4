"""Games and matches between players: :func:`play_game` plays one game, :func:`play_match` a
match with alternating colours, shared random openings and optional sequential stopping, and
:class:`MatchResult` keeps the tally with its Wilson interval::

    >>> import pyaz
    >>> from pyaz.eval.arena import play_match
    >>> from pyaz.eval.players import RandomPlayer, uct_player
    >>> result = play_match(uct_player(200), RandomPlayer(seed=1), 4, pyaz.make("connect_four"))
    >>> result.a_wins + result.draws + result.b_wins
    4

Draws count half a win everywhere here: ``score = (wins + draws / 2) / games``.
"""

from __future__ import annotations

import numbers
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from pyaz import _core
from pyaz.common.faults import fault_point
from pyaz.eval.players import Player, Resignation
from pyaz.eval.stats import Z_95, wilson_interval
from pyaz.games.profiles import profile
from pyaz.games.registry import action_record
from pyaz.games.state import BoardGameState, GameState, SeededGameState, winner

__all__ = [
    "GameRecord",
    "MatchResult",
    "default_opening_plies",
    "draw_openings",
    "game_start",
    "play_game",
    "play_match",
    "random_opening",
]


@dataclass(frozen=True)
class GameRecord:
    """One finished game: the actions played (integers; curling's targets as (x, y, spin)),
    the final status, and the winner.

    ``winner`` is 0 (the first player), 1 (the second player) or None for a draw. ``first``
    and ``second`` are the players' names. ``opening`` holds the random plies played before
    the players took over (see :func:`play_match`); ``actions`` are the players' own moves, so
    the whole game from the match's start is ``opening + actions`` (:attr:`all_actions`).
    """

    actions: list[Any]
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
    def all_actions(self) -> list[Any]:
        """Every ply from the match's start position: the opening, then the players' moves."""
        return [*self.opening, *self.actions]

    @property
    def first_score(self) -> float:
        """The first player's score: 1 for a win, 0.5 for a draw, 0 for a loss."""
        return 0.5 if self.winner is None else 1.0 - self.winner


def _plain(action: Any) -> Any:
    """A board game's action as a Python int (players may return numpy integers)."""
    return int(action) if isinstance(action, numbers.Integral) else action


def play_game(
    first: Player, second: Player, start_state: GameState, opening: Sequence[int] = ()
) -> GameRecord:
    """Plays one game from ``start_state`` (not modified): ``first`` plays side 0.

    Any game of the :class:`~pyaz.games.state.GameState` interface plays (curling too). Both
    players are reset to ``start_state`` and told of the ``opening`` moves through
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
        if state.is_terminal() or not state.is_legal(int(action)):  # only board games have them
            raise ValueError(f"opening move {action} is illegal at ply {state.ply}")
        state.apply(int(action))
        for player in players:
            player.observe(int(action))
    if state.is_terminal():
        raise ValueError("the start position (after the opening) is already over")
    actions: list[Any] = []
    record = action_record(state)
    resigned: int | None = None
    while not state.is_terminal():
        side = int(state.to_move())
        mover = players[side]
        try:
            action = _plain(mover.choose(state.clone()))
        except Resignation:
            resigned = side
            break
        if not state.is_legal(action):
            raise ValueError(
                f"{mover.name} chose illegal action {action} at ply {state.ply}:\n{state}"
            )
        state.apply(action)
        actions.append(record.write(action))
        for player in players:
            player.observe(action)
    if resigned is not None:
        status = _core.Status.SECOND_PLAYER_WIN if resigned == 0 else _core.Status.FIRST_PLAYER_WIN
    else:
        status = state.status()
    opening_list = [int(a) for a in opening]
    return GameRecord(
        actions, status, winner(status), first.name, second.name, opening_list, resigned
    )


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
    def distinct_games(self) -> int:
        """How many of the games differ in their moves (the opening included)."""
        return len({tuple(game.all_actions) for game in self.games})

    @property
    def score(self) -> float:
        """``a``'s win ratio counting draws as half: (wins + draws/2) / games (0.5 if none)."""
        if self.n == 0:
            return 0.5
        return (self.a_wins + 0.5 * self.draws) / self.n

    def as_record(self) -> dict[str, Any]:
        """The tally as a JSON-ready record from ``a``'s side: ``score``, ``wins``, ``draws``,
        ``losses``, ``games`` and ``distinct_games`` (how many games differ in their moves)."""
        return {
            "score": self.score,
            "wins": self.a_wins,
            "draws": self.draws,
            "losses": self.b_wins,
            "games": self.n,
            "distinct_games": self.distinct_games,
        }

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
            f"(score {self.score:.3f}, 95% CC-Wilson [{lo:.3f}, {hi:.3f}], "
            f"{self.distinct_games} distinct of {self.n} games)"
        )


def game_start(start_state: GameState, seed: int, index: int) -> GameState:
    """Game ``index``'s start in a match seeded ``seed`` (:func:`play_match`): ``start_state``,
    or for a game with chance its copy whose chance comes from ``seed + index``."""
    if isinstance(start_state, SeededGameState):
        return cast(GameState, start_state.with_seed(seed + index))
    return start_state


def default_opening_plies(state: GameState) -> int:
    """The default number of random opening plies of a match in ``state``'s game, its profile's
    (:attr:`~pyaz.games.profiles.GameProfile.opening_plies`): the fewest that give every match of
    a few dozen games distinct openings, few enough that neither side is much favoured by them.
    0 for a game that is not a :class:`~pyaz.games.state.BoardGameState` (curling: its games
    differ by their chance)."""
    if not isinstance(state, BoardGameState):
        return 0
    return profile(str(state.name)).opening_plies


def random_opening(start_state: BoardGameState, plies: int, rng: random.Random) -> list[int]:
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


def draw_openings(start_state: GameState, plies: int, count: int, seed: int) -> list[list[int]]:
    """``count`` random openings of ``plies`` plies, all different while the game has enough
    (``plies`` 0: ``count`` empty openings, for any game; more: a board game only).

    Opening ``k`` is drawn from a stream seeded by ``seed`` and ``k``, and drawn again (up to
    100 times) while it repeats an earlier one, so a match of ``2 * count`` games (each opening
    played with both colour orders) holds ``count`` distinct openings unless the game has fewer.
    """
    if plies < 0:
        raise ValueError(f"opening plies must be >= 0, got {plies}")
    if plies == 0:
        return [[] for _ in range(count)]
    if not isinstance(start_state, BoardGameState):
        raise ValueError(f"{start_state.name} has no random openings: opening plies must be 0")
    openings: list[list[int]] = []
    seen: set[tuple[int, ...]] = set()
    for index in range(count):
        rng = random.Random(seed * 1_000_003 + index)
        opening = random_opening(start_state, plies, rng)
        for _ in range(100):
            if tuple(opening) not in seen:
                break
            opening = random_opening(start_state, plies, rng)
        seen.add(tuple(opening))
        openings.append(opening)
    return openings


def play_match(
    a: Player,
    b: Player,
    games: int,
    start_state: GameState,
    progress: bool = False,
    stop: Callable[[MatchResult], bool] | None = None,
    opening_plies: int | None = None,
    seed: int = 0,
    fault: str = "match-game",
    played: Mapping[int, GameRecord] | None = None,
) -> MatchResult:
    """Plays up to ``games`` games of ``a`` against ``b`` from ``start_state``, alternating colours.

    ``a`` moves first in even-numbered games (0, 2, ...), ``b`` in odd ones. Each pair of games
    (2k, 2k + 1) starts from the same random opening of ``opening_plies`` plies (default:
    :func:`default_opening_plies`; 0 for none), played once with each colour order, so that
    neither player gains from the opening, and the openings of a match differ
    (:func:`draw_openings` with ``seed``); the opening is stored in each :class:`GameRecord`.
    Without openings, two greedy search players repeat one game per colour order however long
    the match: :attr:`MatchResult.distinct_games` says how many distinct games a match held.
    A game with chance (a :class:`~pyaz.games.state.SeededGameState`: curling's execution
    noise) plays game ``index`` from ``start_state.with_seed(seed + index)`` (no openings), so
    that the games of a match differ and each repeats with its seed.

    After each game ``stop(result_so_far)`` is called, if given, and the match ends when it
    returns True (for sequential stopping, e.g. a :class:`~pyaz.eval.gates.WilsonGate`).
    ``progress`` shows a tqdm bar. ``fault`` names the kill point after each game
    (:func:`~pyaz.common.faults.fault_point`). ``played`` holds games of this match played
    before (by index: a resumed tournament's), counted as they are and not played again
    (``stop`` is asked after the games played here).
    """
    if games < 0:
        raise ValueError(f"games must be >= 0, got {games}")
    plies = default_opening_plies(start_state) if opening_plies is None else opening_plies
    if plies < 0:
        raise ValueError(f"opening_plies must be >= 0, got {plies}")
    openings = draw_openings(start_state, plies, (games + 1) // 2, seed)
    result = MatchResult(a_name=a.name, b_name=b.name)
    from tqdm import tqdm

    bar = tqdm(
        total=games, desc=f"{a.name} vs {b.name}", unit="game", disable=not progress, leave=None
    )
    try:
        for index in range(games):
            a_first = index % 2 == 0
            if played is not None and index in played:
                result.add(played[index], a_first)
                bar.update(1)
                continue
            first, second = (a, b) if a_first else (b, a)
            record = play_game(
                first, second, game_start(start_state, seed, index), openings[index // 2]
            )
            result.add(record, a_first)
            fault_point(fault)
            bar.update(1)
            bar.set_postfix(w=result.a_wins, d=result.draws, l=result.b_wins)
            if stop is not None and stop(result):
                break
    finally:
        bar.close()
    return result
