"""Players: the :class:`Player` protocol that every match drives, and the players that live in
Python: :class:`RandomPlayer`, :class:`SearchPlayer` (pyaz's tree search, the base of
:func:`uct_player` and the one network player :func:`network_player`),
:class:`MentorPlayer` (seed 004's rule-based Gomoku mentor, in C++) and :class:`ShotPlayer`
(a curling shot chooser: rule-based, KR-UCT, KR-DL-UCT). External engines are in
:mod:`pyaz.eval.external`; :func:`pyaz.eval.presets.make_player` builds any player from a spec.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from pyaz._core import Gomoku, Status
from pyaz.games import GameState, NetworkGameState, same_position
from pyaz.games.curling import NUM_ACTIONS, CurlingState, Target, action_to_target
from pyaz.games.openspiel import OpenSpielState, load_pyspiel
from pyaz.games.profiles import profile
from pyaz.games.state import BoardGameState, played
from pyaz.search import Evaluator, Search

if TYPE_CHECKING:  # pyaz.nets imports torch, loaded only when a network plays
    from pyaz.nets import LoadedModel

__all__ = [
    "GreedyPlayer",
    "MentorPlayer",
    "OpenSpielMctsPlayer",
    "Player",
    "RandomPlayer",
    "Resignation",
    "SearchPlayer",
    "ShotPlayer",
    "close_player",
    "network_player",
    "uct_player",
]


@runtime_checkable
class Player(Protocol):
    """Something that plays a game: told of the start, asked for moves, told of every move.

    The match driver calls ``reset(start)`` once per game, then for each ply ``choose(state)``
    on the player to move (``state`` is the current position; the player must not modify it)
    and ``observe(action)`` on both players with the action played, in order. States are a
    :class:`~pyaz.games.state.GameState` of the player's game (typed ``Any`` here so that a
    player may name its own game's state class); actions are ``int`` in the board games and a
    curling ``Target`` in curling.
    """

    name: str

    def reset(self, state: Any) -> None:
        """A new game begins from ``state``."""
        ...

    def choose(self, state: Any) -> Any:
        """The action to play in ``state``, the current position (this player is to move)."""
        ...

    def observe(self, action: Any) -> None:
        """``action`` was played (by either side); called for every move of the game, in order."""
        ...


class Resignation(Exception):  # noqa: N818 (it is an event, not an error)
    """Raised by a player's ``choose`` to resign; ``player`` is the resigning player's name."""

    def __init__(self, player: str) -> None:
        super().__init__(f"{player} resigns")
        self.player = player


class _SimplePlayer:
    """The base of the players that keep nothing of a game: ``reset`` (which a subclass may make
    check the game) and ``observe`` do nothing, and the repr shows the class and the name."""

    name: str

    def reset(self, state: Any) -> None:
        """Nothing to prepare."""

    def observe(self, action: Any) -> None:
        """Ignored: each move is chosen from the position alone (any search starts afresh)."""

    def __repr__(self) -> str:  # RandomPlayer(name=...) etc., also for a subclass of one
        cls = next(c for c in type(self).__mro__ if _SimplePlayer in c.__bases__)
        return f"{cls.__name__}(name={self.name!r})"


class RandomPlayer(_SimplePlayer):
    """Plays uniformly at random among the legal actions, in curling a uniformly random target
    of the 2,048-cell grid (:func:`pyaz.games.curling.action_to_target`); seeded, reproducible
    (the random stream continues across games)."""

    def __init__(self, seed: int = 0, name: str = "random") -> None:
        self.name = name
        self._rng = random.Random(seed)

    def choose(self, state: BoardGameState | CurlingState) -> int | Target:
        """A legal action of ``state`` (a curling target) drawn uniformly."""
        if isinstance(state, CurlingState):
            return action_to_target(self._rng.randrange(NUM_ACTIONS))
        return int(self._rng.choice(state.legal_actions()))


class OpenSpielMctsPlayer(_SimplePlayer):
    """OpenSpiel's own MCTS (``pyspiel.MCTSBot``, C++) for an OpenSpiel game
    (:class:`~pyaz.games.openspiel.OpenSpielState`): UCT with c = 2 and one random rollout a
    leaf, OpenSpiel's defaults, ``simulations`` a move, without its MCTS-solver (pyaz's network
    players search without one too). Seeded: game k of a match searches with seed + k."""

    UCT_C = 2.0
    MAX_MEMORY_MB = 1000

    def __init__(self, simulations: int, seed: int = 0, name: str = "openspiel-mcts") -> None:
        self.name = name
        self.simulations = simulations
        self._seed = seed
        self._games = 0
        self._bot: Any = None

    def reset(self, state: Any) -> None:
        """A new game: a fresh bot for ``state``'s game; ValueError unless it is OpenSpiel's."""
        if not isinstance(state, OpenSpielState):
            raise ValueError(
                f"{self.name} plays OpenSpiel's games (openspiel:NAME), not {state.name}"
            )
        pyspiel = load_pyspiel()
        seed = (self._seed + self._games) % 2**31
        self._games += 1
        evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
        self._bot = pyspiel.MCTSBot(
            state.game.game,
            evaluator,
            self.UCT_C,
            self.simulations,
            self.MAX_MEMORY_MB,
            False,  # no MCTS-solver
            seed,
            False,  # not verbose
        )

    def choose(self, state: Any) -> int:
        """OpenSpiel's MCTS move in ``state``."""
        if self._bot is None:
            self.reset(state)
        return int(self._bot.step(state.pyspiel_state))


class GreedyPlayer(_SimplePlayer):
    """A one-ply player. A game that ends by the disc count (its profile's ending: Othello):
    the move that leaves the most own discs (the classic greedy baseline); other games: a move
    that wins at once, else one that stops the opponent's immediate win, else a random one. Ties
    are broken at random (seeded)."""

    def __init__(self, seed: int = 0, name: str = "greedy") -> None:
        self.name = name
        self._rng = random.Random(seed)

    def choose(self, state: BoardGameState) -> int:
        """The greedy move in ``state`` (any game; a game that ends by the disc count has a
        ``board()``)."""
        actions = state.legal_actions()
        if profile(str(state.name)).ending == "disc count":
            me = int(state.to_move()) + 1
            boards = [played(state, a).board() for a in actions]  # type: ignore[attr-defined]
            scores = [int((board == me).sum()) for board in boards]
            best = max(scores)
            best_moves = [a for a, s in zip(actions, scores, strict=True) if s == best]
            return int(self._rng.choice(best_moves))
        mover = state.to_move()
        wins = [a for a in actions if _wins(played(state, a), mover)]
        if wins:
            return int(self._rng.choice(wins))
        blocks = [a for a in actions if not _opponent_wins_next(played(state, a), mover)]
        return int(self._rng.choice(blocks or actions))


def _wins(state: GameState, player: int) -> bool:
    won = Status.FIRST_PLAYER_WIN if player == 0 else Status.SECOND_PLAYER_WIN
    return bool(state.status() == won)


def _opponent_wins_next(state: BoardGameState, player: int) -> bool:
    """Whether the opponent (to move in ``state``) has a move that wins at once."""
    if state.is_terminal():
        return False
    opponent = 1 - player
    return any(_wins(played(state, a), opponent) for a in state.legal_actions())


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
    reference opponent in seed 000), else drawn from pi ~ N^(1/temperature). With
    ``sampling_plies`` > 0 the player is semi-stochastic (seed 004's evaluation): while the game
    is within ``sampling_plies`` plies of its start (the state given to ``reset``), moves are
    drawn from pi at ``sampling_temperature``, later ones at ``temperature``. Move ``k`` of the
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
        sampling_plies: int = 0,
        sampling_temperature: float = 1.0,
        **search_options: Any,
    ) -> None:
        if simulations < 1:
            raise ValueError(f"simulations must be >= 1, got {simulations}")
        for label, value in (
            ("temperature", temperature),
            ("sampling_temperature", sampling_temperature),
            ("sampling_plies", sampling_plies),
        ):
            if not value >= 0:  # also rejects NaN
                raise ValueError(f"{label} must be >= 0, got {value}")
        self.name = name
        self.evaluator = evaluator
        self.simulations = int(simulations)
        self.temperature = float(temperature)
        self.sampling_plies = int(sampling_plies)
        self.sampling_temperature = float(sampling_temperature)
        self.seed = int(seed)
        self.reuse_tree = reuse_tree
        self.search_options: dict[str, Any] = {"seed": self.seed, **search_options}
        self.search: Any = None
        self._moves = 0
        self._start_ply = 0

    def reset(self, state: NetworkGameState) -> None:
        """Roots the search at ``state`` (creating the search on first use or a new game type)."""
        if not isinstance(state, BoardGameState):  # curling's actions are continuous
            raise ValueError(
                f"{self.name} plays the board games, not {getattr(state, 'name', state)}"
            )
        self._start_ply = int(state.ply)
        self._set_root(state)

    def choose(self, state: NetworkGameState) -> int:
        """Searches from ``state`` and returns the chosen action.

        If the kept tree's root is not ``state`` (the player was not told of every move, or
        ``reuse_tree`` is off), the root is set to ``state`` first.
        """
        if state.is_terminal():
            raise ValueError("the game is over; there is no move to choose")
        if (
            not self.reuse_tree
            or self.search is None
            or not same_position(self.search.root_state, state)
        ):
            self._set_root(state)
        self.search.run(self.simulations, self.evaluator)
        sampling = int(state.ply) < self._start_ply + self.sampling_plies
        temperature = self.sampling_temperature if sampling else self.temperature
        action = int(self.search.choose_action(temperature, self.seed + self._moves))
        self._moves += 1
        return action

    def observe(self, action: int) -> None:
        """Keeps the subtree under ``action`` as the new root (tree reuse)."""
        if self.search is not None and self.reuse_tree:
            self.search.advance(int(action))

    def _set_root(self, state: NetworkGameState) -> None:
        if self.search is None or type(self.search.root_state) is not type(state):
            self.search = Search(state.clone(), **self.search_options)
        else:
            self.search.set_root(state.clone())

    def __repr__(self) -> str:
        return (
            f"SearchPlayer(name={self.name!r}, simulations={self.simulations}, "
            f"temperature={self.temperature}, options={self.search_options!r})"
        )


def uct_player(
    simulations: int = 200, name: str | None = None, seed: int = 0, **search_options: Any
) -> SearchPlayer:
    """Plain UCT with random rollouts: seed 000's reference opponent, "MCTS with 200 simulations".

    UCB1 selection (``c_uct`` = sqrt(2) unless given), one random playout per leaf, greedy
    moves by visit count, tree reuse across moves.
    """
    return SearchPlayer(
        "rollout",
        simulations,
        name=name if name is not None else f"uct{simulations}",
        seed=seed,
        **{"rule": "uct", **search_options},
    )


def network_player(
    model: LoadedModel | str | os.PathLike[str],
    simulations: int,
    name: str | None = None,
    seed: int = 0,
    device: str = "cpu",
    runtime: str | None = None,
    **search_options: Any,
) -> SearchPlayer:
    """The one network player: greedy PUCT with ``simulations`` simulations a move, guided by a
    network (a :class:`~pyaz.nets.LoadedModel`, or a path that :func:`pyaz.nets.load_model`
    reads, cached per process) run on ``runtime`` (default: ONNX Runtime on a CPU). The run's
    ``c_puct`` and ``draw_value`` apply unless ``search_options`` set them."""
    if isinstance(model, str | os.PathLike):
        from pyaz.nets import load_model

        model = load_model(model, "az", cached=True)
    return SearchPlayer(
        model.evaluator(device, runtime),
        simulations,
        name=name if name is not None else str(model.path),
        seed=seed,
        **{**model.search_options(), **search_options},
    )


class ShotPlayer(_SimplePlayer):
    """A curling player: ``chooser(game, seed)`` (a :data:`pyaz.games.curling.ShotChooser`: the
    rule-based player, KR-UCT, KR-DL-UCT) picks the target for a
    :class:`~pyaz.games.curling.CurlingState`. Shot k of a game gets the seed
    ``state.seed * 100003 + k``, so that a game repeats exactly from its seed (the arena gives
    game i of a match the seed ``seed + i``)."""

    def __init__(self, chooser: Callable[[Any, int], Target], name: str) -> None:
        self.chooser = chooser
        self.name = name

    def reset(self, state: CurlingState) -> None:
        """Checks that ``state`` is curling."""
        if not isinstance(state, CurlingState):
            raise ValueError(f"{self.name} plays curling, not {state.name}")

    def choose(self, state: CurlingState) -> Target:
        """The target to throw."""
        return self.chooser(state.game, state.seed * 100003 + state.ply)


MENTOR_SIZES = (9, 15)
"""The board sizes the Gomoku mentor plays (smallest, largest)."""


def _mentor_game_problem(state: GameState, what: str) -> str | None:
    """Why the mentor does not play ``state``'s game (one whose profile has the threat
    analysis: Gomoku), or None when it does."""
    if not profile(str(state.name)).threat_analysis:
        return f"{what} plays Gomoku only, not {state.name}"
    size = int(state.size)  # type: ignore[attr-defined]
    low, high = MENTOR_SIZES
    if not low <= size <= high:
        return f"{what} plays boards of {low}x{low} to {high}x{high}, not {size}x{size}"
    line = int(state.line_length)  # type: ignore[attr-defined]
    if line != 5:
        return f"{what} plays five in a row, not line_length {line}"
    return None


def check_mentor_game(state: GameState, what: str = "the mentor") -> None:
    """ValueError unless ``state`` is free-style Gomoku the mentor plays: a board of 9..15 and
    five in a row (seed 004's rules)."""
    problem = _mentor_game_problem(state, what)
    if problem is not None:
        raise ValueError(problem)


def mentor_plays(state: GameState) -> bool:
    """Whether the mentor plays ``state``'s game (:func:`check_mentor_game` without raising)."""
    return _mentor_game_problem(state, "the mentor") is None


class MentorPlayer(_SimplePlayer):
    """Seed 004's mentor (:class:`pyaz._core.GomokuMentor`, rule-based threat-space and
    alpha-beta search) as a player: ``time_ms`` per move, ``randomness`` in [0, 1] (0 plays its
    best move; more picks among the near-best, so that self-play games differ)."""

    def __init__(
        self, time_ms: float = 1000.0, randomness: float = 0.0, seed: int = 0, name: str = "mentor"
    ) -> None:
        from pyaz._core import GomokuMentor

        if not time_ms > 0:
            raise ValueError(f"the mentor's time per move must be > 0 ms, got {time_ms}")
        self.name = name
        self.mentor = GomokuMentor(time_ms=float(time_ms), randomness=randomness, seed=seed)

    def reset(self, state: GameState) -> None:
        """Checks that the mentor plays ``state``'s game (ValueError otherwise)."""
        check_mentor_game(state)

    def choose(self, state: Gomoku) -> int:
        """The mentor's move in ``state``."""
        return int(self.mentor.choose(state))


def close_player(player: object) -> None:
    """Calls ``player.close()`` if it has one (external engines); other players need nothing."""
    close = getattr(player, "close", None)
    if callable(close):
        close()
