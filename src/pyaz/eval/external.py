"""External engines as players: :class:`GtpPlayer` (Go, Othello) and :class:`UciPlayer`
(Racing Kings through python-chess), and the builders of the engine presets of
:func:`pyaz.eval.players.make_player` (``gnugo``, ``pachi``, ``gtp-rhino``, ``fairy-stockfish``,
``lichess``, ``gtp:``, ``uci:``).

External engines run as subprocesses and follow the game by replaying every move (``observe``
sends ``play``; a UCI engine gets ``position fen START moves ...``). They have ``close()`` and
work as context managers. A missing engine raises ``FileNotFoundError`` saying how to install
it. An engine that resigns raises :class:`~pyaz.eval.players.Resignation` from ``choose``;
:func:`pyaz.eval.arena.play_game` turns that into a loss.

Engine conventions (checked by running them; see ``../shared/reference/engines.md``):

- GTP Go (GNU Go, Pachi): vertices as pyaz's Go text (``A``..``T`` without ``I``, row 1 at the
  bottom), ``pass``; GNU Go runs with ``--never-resign --chinese-rules --capture-all-dead`` so
  that it removes dead stones before passing and pyaz's Tromp-Taylor count agrees with it.
  Pachi runs with ``-t =PLAYOUTS -s SEED threads=1,resign_threshold=0`` and is asked for moves
  with ``kgs-genmove_cleanup`` (it passes only once dead stones are captured). For other
  Pachi settings (``--nopatterns --nojoseki`` when its data files are missing, more threads),
  use ``gtp:pachi ...``.
- gtp-rhino (GRhino 0.16.1): only ``boardsize 8``; columns ``a``..``h`` and row 1 at the top,
  d4 White and e4 Black at the start, exactly pyaz's Othello notation and colours (Black = X =
  player 0). ``play b pass`` is a syntax error, so a pass is not sent: the engine sees the
  passing side has no move and lets the other colour play. ``play`` for the colour not to move
  is "illegal move", and ``genmove`` for the colour not to move answers ``pass``, so a ``pass``
  while pyaz has a legal placement means the two have drifted apart (an error here).
- Fairy-Stockfish: ``setoption name UCI_Variant value racingkings``; FENs and moves are UCI
  text as pyaz's; ``bestmove (none)`` only in finished positions.
"""

from __future__ import annotations

import contextlib
import shlex
import shutil
from collections.abc import Sequence

import chess
import chess.engine
import chess.variant

from pyaz._core import Go, RacingKings
from pyaz.engines.gtp import GtpEngine, GtpEngineNotFoundError, GtpError, gnugo
from pyaz.engines.process import ClosesOnExit, find_engine
from pyaz.engines.uci import UciEngineNotFoundError, UciError, start_uci_engine
from pyaz.eval.players import Resignation
from pyaz.games import GameState, NativeGame, make, same_position
from pyaz.games.profiles import profile

__all__ = [
    "FAIRY_STOCKFISH_HINT",
    "GRHINO_HINT",
    "LICHESS_LEVELS",
    "PACHI_HINT",
    "EngineError",
    "GtpPlayer",
    "UciEngineNotFoundError",
    "UciError",
    "UciPlayer",
    "fairy_stockfish_player",
    "gnugo_player",
    "gtp_player",
    "gtp_rhino_player",
    "pachi_player",
    "uci_player",
]

GRHINO_HINT = "apt-get install grhino"
FAIRY_STOCKFISH_HINT = "apt-get install fairy-stockfish"
PACHI_HINT = (
    "build the Pachi Go engine from https://github.com/pasky/pachi (make DCNN=0 GENERIC=1) "
    "and put its 'pachi' binary on PATH; Debian's 'pachi' package is an unrelated game"
)
ANY_ENGINE_HINT = "check the command, or install the engine"

LICHESS_LEVELS: dict[int, tuple[int, int, int]] = {
    1: (-9, 50, 5),
    2: (-5, 100, 5),
    3: (-1, 150, 5),
    4: (3, 200, 5),
    5: (7, 300, 5),
    6: (11, 400, 8),
    7: (16, 500, 13),
    8: (20, 1000, 22),
}
"""lichess AI level -> (Skill Level, movetime ms, depth), from lichess-org/fishnet."""

ENGINE_TIMEOUT = 120.0
"""Seconds an engine may take for one reply before the match stops it."""

GRHINO_LEVEL_TIMEOUT = {5: 1200.0}
"""GRhino's levels that need more than :data:`ENGINE_TIMEOUT` for a move: level 5's end-game
search took over 120 s for one move on a 2-core machine (2026-12-05), so it is given 20 minutes
a move rather than a bounded end-game depth, to play the level as GRhino defines it."""


class EngineError(RuntimeError):
    """An external engine misbehaved: an illegal move, a position it does not follow, ..."""


class _ExternalPlayer(ClosesOnExit):
    """Shared life cycle of engine-backed players: ``close()`` and the context manager."""

    name: str

    def close(self) -> None:
        """Shuts the engine down (idempotent)."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r})"


class GtpPlayer(_ExternalPlayer):
    """A GTP engine as a player of Go or Othello.

    The player keeps its own copy of the game. ``reset`` sets the engine up (Go: ``boardsize``,
    ``clear_board``, ``komi``, then any stones of the start position as ``play`` commands;
    Othello: ``boardsize``, ``clear_board``, and the start must be the standard one),
    ``observe`` sends ``play COLOUR VERTEX`` for every move the engine did not generate itself
    (a Go pass is ``play b pass``; an Othello pass is not sent, see the module notes), and
    ``choose`` sends ``genmove COLOUR`` (or ``genmove_command``): a vertex, ``pass`` or
    ``resign`` (raising :class:`Resignation`). A move pyaz finds illegal raises
    :class:`EngineError`.
    """

    engine: GtpEngine

    def close(self) -> None:
        """Shuts the engine down (idempotent)."""
        self.engine.close()

    def __init__(
        self,
        engine: GtpEngine,
        name: str,
        start_state: NativeGame,
        genmove_command: str = "genmove",
    ) -> None:
        self.engine = engine
        self.name = name
        self.genmove_command = genmove_command
        self.game = str(start_state.name)
        rules = profile(self.game).gtp
        if rules is None:
            engine.close()
            raise ValueError(f"GTP players play Go or Othello, not {self.game}")
        self.stones = rules.stones  # Go's way, else gtp-rhino's (GtpRules)
        self._state: NativeGame = start_state.clone()
        self._pending: int | None = None

    # GTP text of an action and back
    def _vertex(self, action: int) -> str:
        if self.stones:
            return str(self._state.action_to_vertex(action))  # type: ignore[union-attr]
        return str(self._state.action_to_str(action))

    def _colour(self, state: GameState) -> str:
        return "b" if state.to_move() == 0 else "w"

    def reset(self, state: NativeGame) -> None:
        """Sets the engine's board to ``state``."""
        self._state = state.clone()
        self._pending = None
        size = int(state.size)  # type: ignore[union-attr]
        if not self.stones and not same_position(state, make(self.game, size=size)):
            raise ValueError(
                "a GTP Othello engine can only start from the standard position; give it "
                "the opening's moves through observe() instead (pyaz-arena does)"
            )
        self.engine.boardsize(size)
        self.engine.clear_board()
        if self.stones:
            self.engine.komi(float(state.komi))  # type: ignore[union-attr]
            board = state.board().ravel()
            for colour, code in (("b", 1), ("w", 2)):
                for action in (board == code).nonzero()[0]:
                    self.engine.play(colour, str(state.action_to_vertex(int(action))))  # type: ignore[union-attr]

    def choose(self, state: NativeGame) -> int:
        """``genmove`` for the side to move; the engine's move as a pyaz action."""
        if not same_position(self._state, state):
            if not self.stones:
                raise EngineError(
                    f"{self.name} was not told of every move: its game is at ply "
                    f"{self._state.ply}, the position asked about at ply {state.ply}"
                )
            self.reset(state)
        colour = self._colour(state)
        command = f"{self.genmove_command} {colour}"
        reply = self.engine.send(command).strip().lower()  # the engine's own timeout
        if reply == "resign":
            raise Resignation(self.name)
        if reply == "pass":
            action = int(state.num_actions) - 1
        else:
            try:
                action = int(
                    state.vertex_to_action(reply)  # type: ignore[union-attr]
                    if self.stones
                    else state.str_to_action(reply)
                )
            except ValueError as error:
                raise EngineError(f"{self.name} answered genmove with {reply!r}: {error}") from None
        if not state.is_legal(action):
            legal = " ".join(state.action_to_str(a) for a in state.legal_actions())
            raise EngineError(
                f"{self.name} played {reply!r}, illegal for pyaz at ply {state.ply} "
                f"(legal: {legal}); the engine and pyaz disagree on the position or the rules:"
                f"\n{state}"
            )
        self._pending = action
        return action

    def observe(self, action: int) -> None:
        """Replays ``action`` on the engine (unless the engine generated it)."""
        colour = self._colour(self._state)
        pass_action = int(self._state.num_actions) - 1
        is_pass = action == pass_action
        pending, self._pending = self._pending, None
        if pending is not None and action != pending:
            if self.stones or pending != pass_action:
                self.engine.send("undo")
            pending = None
        if pending is None and not (is_pass and not self.stones):
            try:
                self.engine.play(colour, "pass" if is_pass else self._vertex(action))
            except GtpError as error:
                raise EngineError(
                    f"{self.name} refused {self._state.action_to_str(action)} at ply "
                    f"{self._state.ply}: {error}"
                ) from error
        self._state.apply(action)


class UciPlayer(_ExternalPlayer):
    """A UCI engine (a python-chess ``SimpleEngine``) as a Racing Kings player.

    The player keeps a ``chess.variant.RacingKingsBoard`` of the game: ``reset`` starts it from
    the start position's FEN, ``observe`` pushes every move, and ``choose`` asks the engine with
    ``limit`` (python-chess sends the start FEN and every move since, so the engine sees
    repetitions). ``limits`` describes the limit as UCI ``go`` words (``depth 5 movetime 100``).
    """

    def __init__(
        self, engine: chess.engine.SimpleEngine, name: str, depth: int = 0, movetime_ms: int = 100
    ) -> None:
        self.engine = engine
        self.name = name
        self.limit = chess.engine.Limit(depth=depth if depth > 0 else None, time=movetime_ms / 1e3)
        self.limits = (f"depth {depth} " if depth > 0 else "") + f"movetime {movetime_ms}"
        self._board: chess.variant.RacingKingsBoard | None = None
        self._state: RacingKings | None = None

    def close(self) -> None:
        """Shuts the engine down (``quit``, then kill; idempotent)."""
        with contextlib.suppress(
            chess.engine.EngineError, chess.engine.EngineTerminatedError, TimeoutError
        ):
            self.engine.close()

    def reset(self, state: RacingKings) -> None:
        """A new game from ``state``."""
        self._state = state.clone()
        self._board = chess.variant.RacingKingsBoard(str(state.fen()))

    def choose(self, state: RacingKings) -> int:
        """The engine's best move in ``state``."""
        if self._board is None or self._state is None or not same_position(self._state, state):
            self.reset(state)
        assert self._board is not None
        try:
            played = self.engine.play(self._board, self.limit, game=id(self)).move
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError) as error:
            raise EngineError(f"{self.name} failed at ply {state.ply}: {error}") from None
        except TimeoutError:
            self.close()
            raise EngineError(f"{self.name} did not answer in time; it was stopped") from None
        if played is None:
            raise EngineError(
                f"{self.name} found no move at ply {state.ply}, where pyaz's game goes on:\n{state}"
            )
        move = played.uci()
        try:
            action = int(state.parse_uci(move))
        except ValueError as error:
            raise EngineError(f"{self.name} played {move!r}: {error}\n{state}") from None
        if not state.is_legal(action):
            raise EngineError(f"{self.name} played {move!r}, illegal for pyaz:\n{state}")
        return action

    def observe(self, action: int) -> None:
        """Adds ``action`` to the game the engine is shown."""
        if self._board is None or self._state is None:
            raise EngineError(f"{self.name}: observe() before reset()")
        self._board.push_uci(str(self._state.uci(action)))
        self._state.apply(action)


# --------------------------------------------------------------------------- preset builders


def _go_flags(state: Go) -> list[str]:
    rules = {"--positional-superko": state.superko, "--allow-suicide": state.allow_suicide}
    return [flag for flag, on in rules.items() if bool(on)]


def _started(player: GtpPlayer, state: NativeGame) -> GtpPlayer:
    """Checks the engine accepts the game's setup now, so that errors show at once."""
    try:
        player.reset(state if player.stones else make(player.game, size=state.size))  # type: ignore[union-attr]
    except BaseException:
        player.close()
        raise
    return player


def gnugo_player(name: str, state: Go, level: int, seed: int) -> GtpPlayer:
    """GNU Go at ``level``, with the start state's superko and suicide rules."""
    engine = gnugo(
        level=level,
        capture_all_dead=True,
        seed=seed,
        extra_args=_go_flags(state),
        timeout=ENGINE_TIMEOUT,
    )
    return _started(GtpPlayer(engine, name, state), state)


def pachi_player(name: str, state: Go, playouts: int, seed: int) -> GtpPlayer:
    """The Pachi Go engine (only a real Pachi on PATH), ``playouts`` a move, cleanup genmoves."""
    path = shutil.which("pachi")
    if path is None:
        raise GtpEngineNotFoundError(f"pachi not found on PATH: {PACHI_HINT}")
    command = [path, "-t", f"={playouts}", "-s", str(seed), "threads=1,resign_threshold=0"]
    engine = GtpEngine(command, timeout=5.0, install_hint=PACHI_HINT)
    try:
        engine_name = engine.name()
    except GtpError as error:
        engine.close(timeout=0.5)
        raise GtpEngineNotFoundError(
            f"{path} does not speak GTP, so it is not the Pachi Go engine ({error}); {PACHI_HINT}"
        ) from None
    if "pachi" not in engine_name.lower():
        engine.close()
        raise GtpEngineNotFoundError(
            f"{path} answered 'name' with {engine_name!r}, not Pachi: {PACHI_HINT}"
        )
    engine.timeout = ENGINE_TIMEOUT
    # Cleanup mode: Pachi passes only once dead stones are captured, so that pyaz's
    # Tromp-Taylor count (no dead-stone removal) scores the game as Pachi would.
    player = GtpPlayer(engine, name, state, genmove_command="kgs-genmove_cleanup")
    return _started(player, state)


def gtp_rhino_player(name: str, state: NativeGame, level: int, randomness: int) -> GtpPlayer:
    """GRhino (Othello 8x8) at ``level`` with evaluator ``randomness``, given the time a move
    its level needs (:data:`GRHINO_LEVEL_TIMEOUT`)."""
    path = find_engine("gtp-rhino", GRHINO_HINT, GtpEngineNotFoundError)
    command = [path, "-l", str(level)]
    if randomness:
        command += ["-r", str(randomness)]
    timeout = GRHINO_LEVEL_TIMEOUT.get(level, ENGINE_TIMEOUT)
    engine = GtpEngine(command, timeout=timeout, install_hint=GRHINO_HINT)
    return _started(GtpPlayer(engine, name, state), state)


def gtp_player(name: str, state: NativeGame, command: Sequence[str]) -> GtpPlayer:
    """Any GTP engine playing Go or Othello."""
    argv = [find_engine(command[0], ANY_ENGINE_HINT, GtpEngineNotFoundError), *command[1:]]
    engine = GtpEngine(argv, timeout=ENGINE_TIMEOUT, install_hint=ANY_ENGINE_HINT)
    return _started(GtpPlayer(engine, name, state), state)


def fairy_stockfish_player(
    name: str, state: GameState, skill: int, depth: int, movetime_ms: int
) -> UciPlayer:
    """Fairy-Stockfish playing ``state``'s game (Racing Kings: the ``UCI_Variant`` its profile
    names) at ``Skill Level`` ``skill``, ``go depth DEPTH movetime MOVETIME`` (depth 0: no depth
    limit)."""
    engine = start_uci_engine(
        ["fairy-stockfish"],
        install_hint=FAIRY_STOCKFISH_HINT,
        variant=profile(str(state.name)).uci_variant,
        options={"Skill Level": skill},
    )
    return UciPlayer(engine, name, depth, movetime_ms)


def uci_player(name: str, state: GameState, command: Sequence[str]) -> UciPlayer:
    """Any UCI engine that plays ``state``'s game (Racing Kings), ``go movetime 100``."""
    variant = profile(str(state.name)).uci_variant
    engine = start_uci_engine(command, install_hint=ANY_ENGINE_HINT, variant=variant)
    return UciPlayer(engine, name, 0, 100)


def split_command(spec: str, rest: str, kind: str) -> list[str]:
    """The engine command line of a ``gtp:``/``uci:`` spec (ValueError naming the spec when
    it is empty or its quotes do not close)."""
    try:
        command = shlex.split(rest)
    except ValueError as error:  # shlex's "No closing quotation" names nothing
        raise ValueError(f"{spec!r}: {error} in the engine's command line") from None
    if not command:
        raise ValueError(f"{spec!r}: give the engine's command line, {kind}:COMMAND ARGS...")
    return command
