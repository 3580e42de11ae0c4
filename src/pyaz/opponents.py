"""Named opponents: ``make_player(spec, start_state)`` builds any :class:`pyaz.arena.Player`.

Presets (``spec``), checked against the game of ``start_state``:

===============================  ==============================================================
``random``                       uniformly random legal moves (any game)
``uct200``, ``uct:N``, ``uctN``  UCT with N random-rollout simulations a move (any game; seed
                                 000's Reversi reference is ``uct200``)
``model:PATH[:SIMS]``            a pyaz network with PUCT search, SIMS simulations (default
                                 100); PATH is a checkpoint file (``nets/iter-*.pt``), a run
                                 folder (its ``checkpoint.pt``'s best network and the run's
                                 ``c_puct``/``draw_value``) or a TorchScript file
``gnugo[:LEVEL]``                GNU Go over GTP (Go), level 0..10 (default 10); board size,
                                 komi, superko and suicide rules from the start state
``pachi[:PLAYOUTS]``             the Pachi Go engine over GTP (Go), N playouts a move (default
                                 1000), only when a real Pachi is on PATH
``gtp-rhino[:LEVEL[:RAND]]``     GRhino over GTP (Othello 8x8), level 1..5 (default 3),
                                 evaluator randomness 0..10 (default 0)
``fairy-stockfish[:SKILL[:DEPTH[:MOVETIME]]]``
                                 Fairy-Stockfish over UCI (Racing Kings): ``Skill Level``
                                 -20..20 (default 20), ``go depth DEPTH movetime MOVETIME``
                                 (default 5 and 100 ms)
``lichess:N``                    lichess's "Stockfish level N" (1..8) with Fairy-Stockfish
                                 (Racing Kings); seed 000's "Stockfish level 2" is
                                 ``lichess:2`` = ``fairy-stockfish:-5:5:100``
``gtp:COMMAND ARGS...``          any GTP engine (Go, or Othello with Othello coordinates)
``uci:COMMAND ARGS...``          any UCI engine playing Racing Kings (``UCI_Variant
                                 racingkings``), ``go movetime 100``
===============================  ==============================================================

External engines run as subprocesses and follow the game by replaying every move (``observe``
sends ``play``; a UCI engine gets ``position fen START moves ...``). They have ``close()`` and
work as context managers; :func:`close_player` closes any player that has something to close.
A missing engine raises ``FileNotFoundError`` saying how to install it. An engine that resigns
raises :class:`Resignation` from ``choose``; :func:`play_game` turns that into a loss.

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

import functools
import os
import re
import shlex
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pyaz
from pyaz import arena
from pyaz.engine_process import ClosesOnExit, EngineProcess
from pyaz.games import GameState
from pyaz.gtp import (
    GtpEngine,
    GtpEngineNotFoundError,
    GtpError,
    gnugo,
)

if TYPE_CHECKING:  # pyaz.nets imports torch, loaded only when a model is asked for
    from pyaz.nets import LoadedModel

__all__ = [
    "LICHESS_LEVELS",
    "PRESETS_HELP",
    "EngineError",
    "GameOutcome",
    "GtpPlayer",
    "Resignation",
    "UciEngine",
    "UciEngineNotFoundError",
    "UciError",
    "UciPlayer",
    "UciTimeoutError",
    "close_player",
    "find_engine",
    "is_external",
    "load_model",
    "make_player",
    "play_game",
    "spec_kind",
]

PRESETS_HELP = """\
player presets (SPEC):
  random                      uniformly random legal moves (any game)
  uct200, uct:N               UCT with N random-rollout simulations a move (any game;
                              seed 000's Reversi reference is uct200)
  model:PATH[:SIMS]           a pyaz network + PUCT search with SIMS simulations (default 100);
                              PATH: a checkpoint (runs/x/nets/iter-00010.pt), a run folder
                              (its best network) or a TorchScript file
  gnugo[:LEVEL]               GNU Go over GTP (go), level 0..10 (default 10)
  pachi[:PLAYOUTS]            Pachi over GTP (go), playouts a move (default 1000); needs the
                              Pachi Go engine on PATH (Debian's 'pachi' is another program)
  gtp-rhino[:LEVEL[:RAND]]    GRhino over GTP (othello 8x8), level 1..5 (default 3)
  fairy-stockfish[:SKILL[:DEPTH[:MOVETIME]]]
                              Fairy-Stockfish over UCI (racingkings), Skill Level -20..20
                              (default 20), go depth DEPTH (5) movetime MOVETIME ms (100)
  lichess:N                   lichess's 'Stockfish level N' (1..8) with Fairy-Stockfish
                              (racingkings); seed 000's 'Stockfish level 2' is lichess:2
  gtp:COMMAND ARGS...         any GTP engine (go or othello), e.g. 'gtp:gnugo --mode gtp'
  uci:COMMAND ARGS...         any UCI engine that plays racingkings (go movetime 100)
Engines are looked up on PATH and in /usr/games (Debian: apt-get install gnugo grhino
fairy-stockfish)."""

GAME_DIRS: tuple[str, ...] = ("/usr/games", "/usr/local/games")
"""Where Debian installs game engines (not on PATH by default)."""

GNUGO_HINT = "apt-get install gnugo"
GRHINO_HINT = "apt-get install grhino"
FAIRY_STOCKFISH_HINT = "apt-get install fairy-stockfish"
PACHI_HINT = (
    "build the Pachi Go engine from https://github.com/pasky/pachi (make DCNN=0 GENERIC=1) "
    "and put its 'pachi' binary on PATH; Debian's 'pachi' package is an unrelated game"
)

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

DEFAULT_MODEL_SIMULATIONS = 100
ENGINE_TIMEOUT = 120.0


class EngineError(RuntimeError):
    """An external engine misbehaved: an illegal move, a position it does not follow, ..."""


Resignation = arena.Resignation  # re-exported: engines raise it from ``choose``


def find_engine(
    names: str | Sequence[str], install_hint: str, error: type[Exception] = GtpEngineNotFoundError
) -> str:
    """Path of the first of ``names`` found on PATH or in :data:`GAME_DIRS`, else ``error``.

    The error says ``"<name> not found: <install_hint>"``.
    """
    candidates = [names] if isinstance(names, str) else list(names)
    for name in candidates:
        found = shutil.which(name)
        if found:
            return found
        for folder in GAME_DIRS:
            path = os.path.join(folder, name)
            if os.path.isfile(path) and os.access(path, os.X_OK):
                return path
    raise error(f"{candidates[0]} not found: {install_hint}")


def _same_position(a: GameState, b: GameState) -> bool:
    return type(a) is type(b) and a.ply == b.ply and str(a) == str(b)


def _game_name(state: GameState) -> str:
    return str(state.name)


# --------------------------------------------------------------------------- UCI client


class UciError(EngineError):
    """Any failure talking to a UCI engine."""


class UciTimeoutError(UciError, TimeoutError):
    """The UCI engine did not answer in time (it has been killed)."""


class UciEngineNotFoundError(UciError, FileNotFoundError):
    """The UCI engine's executable does not exist."""


class UciEngine(EngineProcess):
    """A UCI chess engine in a subprocess (a small client, enough to play games).

    The constructor runs the ``uci`` handshake: :attr:`id_name` and :attr:`options` (option
    name -> the rest of its ``option`` line) come from it. Every read has a timeout; an engine
    that stops answering is killed and :class:`UciTimeoutError` raised. ``close()`` (or leaving
    a ``with`` block) sends ``quit``, then terminates, then kills.
    """

    error = UciError
    timeout_error = UciTimeoutError
    not_found_error = UciEngineNotFoundError
    permission_means_not_found = True

    def __init__(
        self, command: Sequence[str], *, timeout: float = 30.0, install_hint: str | None = None
    ) -> None:
        super().__init__(command, timeout=timeout, install_hint=install_hint)
        self.id_name = ""
        self.options: dict[str, str] = {}
        try:
            self.send("uci")
            for line in self.read_until("uciok"):
                if line.startswith("id name "):
                    self.id_name = line[len("id name ") :].strip()
                elif line.startswith("option name "):
                    rest = line[len("option name ") :]
                    name, _, spec = rest.partition(" type ")
                    self.options[name.strip()] = "type " + spec
        except BaseException:
            self.close()
            raise

    def _quit(self, timeout: float) -> None:
        self.send("quit")

    def send(self, line: str) -> None:
        """Writes one command line."""
        self._write(line)

    def read_until(self, prefix: str, timeout: float | None = None) -> list[str]:
        """Lines up to and including the first that starts with ``prefix``."""
        limit = self.timeout if timeout is None else timeout
        lines: list[str] = []
        while True:
            line = self._next_line(
                limit, f"{prefix!r} from the engine", f"we waited for {prefix!r}"
            )
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def is_ready(self) -> None:
        """``isready`` and wait for ``readyok``."""
        self.send("isready")
        self.read_until("readyok")

    def set_option(self, name: str, value: object) -> None:
        """``setoption name NAME value VALUE`` (booleans as true/false)."""
        text = str(value).lower() if isinstance(value, bool) else str(value)
        self.send(f"setoption name {name} value {text}")

    def option_vars(self, name: str) -> list[str]:
        """The ``var`` values of a combo option (empty if the engine has no such option)."""
        words = self.options.get(name, "").split()
        return [words[i + 1] for i, word in enumerate(words[:-1]) if word == "var"]

    def new_game(self) -> None:
        """``ucinewgame`` and wait until the engine is ready."""
        self.send("ucinewgame")
        self.is_ready()

    def position(self, fen: str, moves: Sequence[str] = ()) -> None:
        """``position fen FEN [moves ...]``."""
        line = f"position fen {fen}"
        if moves:
            line += " moves " + " ".join(moves)
        self.send(line)

    def go(self, limits: str, timeout: float | None = None) -> str | None:
        """``go LIMITS``; the best move (UCI text), or None for ``(none)``/``0000``."""
        self.send(f"go {limits}")
        last = self.read_until("bestmove", timeout)[-1].split()
        move = last[1] if len(last) > 1 else "(none)"
        return None if move in ("(none)", "0000") else move


# --------------------------------------------------------------------------- external players


class _ExternalPlayer(ClosesOnExit):
    """Shared life cycle of engine-backed players: ``close()`` and the context manager."""

    name: str
    engine: GtpEngine | UciEngine

    def close(self) -> None:
        """Shuts the engine down (idempotent)."""
        self.engine.close()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r}, command={self.engine.command!r})"


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

    def __init__(
        self,
        engine: GtpEngine,
        name: str,
        start_state: GameState,
        genmove_command: str = "genmove",
    ) -> None:
        self.engine = engine
        self.name = name
        self.genmove_command = genmove_command
        self.game = _game_name(start_state)
        if self.game not in ("go", "othello"):
            engine.close()
            raise ValueError(f"GTP players play Go or Othello, not {self.game}")
        self._state: GameState = start_state.clone()
        self._pending: int | None = None

    # GTP text of an action and back
    def _vertex(self, action: int) -> str:
        if self.game == "go":
            return str(self._state.action_to_vertex(action))  # type: ignore[union-attr]
        return str(self._state.action_to_str(action))

    def _colour(self, state: GameState) -> str:
        return "b" if state.to_move() == 0 else "w"

    def reset(self, state: GameState) -> None:
        """Sets the engine's board to ``state``."""
        self._state = state.clone()
        self._pending = None
        if self.game == "go":
            size = int(state.size)  # type: ignore[union-attr]
            self.engine.boardsize(size)
            self.engine.clear_board()
            self.engine.komi(float(state.komi))  # type: ignore[union-attr]
            board = state.board().ravel()
            for colour, code in (("b", 1), ("w", 2)):
                for action in (board == code).nonzero()[0]:
                    self.engine.play(colour, str(state.action_to_vertex(int(action))))  # type: ignore[union-attr]
        else:
            size = int(state.size)  # type: ignore[union-attr]
            if not _same_position(state, pyaz.make("othello", size=size)):
                raise ValueError(
                    "a GTP Othello engine can only start from the standard position; give it "
                    "the opening's moves through observe() instead (pyaz-arena does)"
                )
            self.engine.boardsize(size)
            self.engine.clear_board()

    def choose(self, state: GameState) -> int:
        """``genmove`` for the side to move; the engine's move as a pyaz action."""
        if not _same_position(self._state, state):
            if self.game != "go":
                raise EngineError(
                    f"{self.name} was not told of every move: its game is at ply "
                    f"{self._state.ply}, the position asked about at ply {state.ply}"
                )
            self.reset(state)
        colour = self._colour(state)
        command = f"{self.genmove_command} {colour}"
        reply = self.engine.send(command, timeout=ENGINE_TIMEOUT).strip().lower()
        if reply == "resign":
            raise Resignation(self.name)
        if reply == "pass":
            action = int(state.num_actions) - 1
        else:
            try:
                action = int(
                    state.vertex_to_action(reply)  # type: ignore[union-attr]
                    if self.game == "go"
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
        pending, self._pending = self._pending, None
        if pending is not None and action != pending:
            pass_action = int(self._state.num_actions) - 1
            if self.game == "go" or pending != pass_action:
                self.engine.send("undo")
            pending = None
        if pending is None:
            is_pass = action == int(self._state.num_actions) - 1
            if not (is_pass and self.game == "othello"):
                try:
                    self.engine.play(colour, "pass" if is_pass else self._vertex(action))
                except GtpError as error:
                    raise EngineError(
                        f"{self.name} refused {self._state.action_to_str(action)} at ply "
                        f"{self._state.ply}: {error}"
                    ) from error
        self._state.apply(action)


class UciPlayer(_ExternalPlayer):
    """A UCI engine as a Racing Kings player.

    ``reset`` sends ``ucinewgame``; ``choose`` sends ``position fen START moves ...`` (the
    game's start and every move since, so the engine sees repetitions) and ``go LIMITS``.
    """

    engine: UciEngine

    def __init__(self, engine: UciEngine, name: str, limits: str = "movetime 100") -> None:
        self.engine = engine
        self.name = name
        self.limits = limits
        self._fen = ""
        self._moves: list[str] = []
        self._state: GameState | None = None

    def reset(self, state: GameState) -> None:
        """A new game from ``state``."""
        self._state = state.clone()
        self._fen = str(state.fen())  # type: ignore[union-attr]
        self._moves = []
        self.engine.new_game()

    def choose(self, state: GameState) -> int:
        """The engine's best move in ``state``."""
        if self._state is None or not _same_position(self._state, state):
            self._state = state.clone()
            self._fen = str(state.fen())  # type: ignore[union-attr]
            self._moves = []
        self.engine.position(self._fen, self._moves)
        move = self.engine.go(self.limits, timeout=ENGINE_TIMEOUT)
        if move is None:
            raise EngineError(
                f"{self.name} found no move at ply {state.ply}, where pyaz's game goes on:\n{state}"
            )
        try:
            action = int(state.parse_uci(move))  # type: ignore[union-attr]
        except ValueError as error:
            raise EngineError(f"{self.name} played {move!r}: {error}\n{state}") from None
        if not state.is_legal(action):
            raise EngineError(f"{self.name} played {move!r}, illegal for pyaz:\n{state}")
        return action

    def observe(self, action: int) -> None:
        """Adds ``action`` to the move list sent with the next ``position``."""
        if self._state is None:
            raise EngineError(f"{self.name}: observe() before reset()")
        self._moves.append(str(self._state.uci(action)))  # type: ignore[union-attr]
        self._state.apply(action)


# --------------------------------------------------------------------------- models


def load_model(path: str | os.PathLike[str]) -> LoadedModel:
    """Loads a pyaz network for play with :func:`pyaz.nets.load_model`, cached per process by
    the file's path and modification time (so the players of a match share one module).

    ``path`` is a checkpoint file (``{"net": ...}`` as in ``nets/iter-*.pt``, or a bare
    ``net_state``), a run's ``checkpoint.pt`` or run folder (the *best* network, with the run's
    settings such as ``c_puct`` and ``draw_value``), or a TorchScript file
    (``best.torchscript.pt``).
    """
    from pyaz.nets import model_file

    file = model_file(path).resolve()
    return _load_model_cached(str(file), file.stat().st_mtime_ns)


@functools.lru_cache(maxsize=8)
def _load_model_cached(path: str, mtime_ns: int) -> LoadedModel:
    from pyaz.nets import load_model as load_network

    return load_network(path)


def _model_player(path: str, simulations: int, state: GameState, name: str, seed: int) -> Any:
    from pyaz.evaluator import TorchEvaluator

    model = load_model(path)
    model.check(state)
    evaluator = TorchEvaluator(model.module)
    options: dict[str, Any] = {}
    for key in ("c_puct", "draw_value"):
        if model.settings.get(key) is not None:
            options[key] = float(model.settings[key])
    return arena.SearchPlayer(evaluator, simulations, name=name, seed=seed, **options)


# --------------------------------------------------------------------------- presets


_EXTERNAL = ("gnugo", "pachi", "gtp-rhino", "fairy-stockfish", "lichess", "gtp", "uci")


def _split(spec: str) -> tuple[str, str]:
    spec = spec.strip()
    kind, _, rest = spec.partition(":")
    kind = kind.strip().lower()
    match = re.fullmatch(r"uct(\d+)", kind)
    if match:
        return "uct", match.group(1)
    return kind, rest.strip()


def spec_kind(spec: str) -> str:
    """The preset's kind: ``"random"``, ``"uct"``, ``"model"``, ``"gnugo"``, ... (lower case)."""
    return _split(spec)[0]


def is_external(spec: str) -> bool:
    """Whether ``spec`` names an external engine (a subprocess worth keeping across games)."""
    return _split(spec)[0] in _EXTERNAL


def _ints(spec: str, rest: str, defaults: Sequence[int], names: Sequence[str]) -> list[int]:
    parts = [p for p in rest.split(":")] if rest else []
    if len(parts) > len(defaults):
        raise ValueError(f"{spec!r}: too many fields (expected {':'.join(names)})")
    values = list(defaults)
    for index, part in enumerate(parts):
        try:
            values[index] = int(part)
        except ValueError:
            raise ValueError(f"{spec!r}: {names[index]} must be an integer, got {part!r}") from None
    return values


def _check_range(spec: str, what: str, value: int, low: int, high: int) -> None:
    if not low <= value <= high:
        raise ValueError(f"{spec!r}: {what} must be in {low}..{high}, got {value}")


def _need(spec: str, state: GameState, *games: str) -> None:
    if _game_name(state) not in games:
        raise ValueError(
            f"{spec!r} plays {' or '.join(games)}, not {state.name} (pick a preset that fits "
            f"the game; 'random', 'uct:N' and 'model:PATH' play every game)"
        )


def _need_othello8(spec: str, state: GameState) -> None:
    _need(spec, state, "othello")
    if int(state.size) != 8:  # type: ignore[union-attr]
        raise ValueError(f"{spec!r} plays Othello on 8x8 only, not {state.size}x{state.size}")  # type: ignore[union-attr]


def _go_flags(state: GameState) -> list[str]:
    flags = []
    if bool(state.superko):  # type: ignore[union-attr]
        flags.append("--positional-superko")
    if bool(state.allow_suicide):  # type: ignore[union-attr]
        flags.append("--allow-suicide")
    return flags


def _fairy_stockfish(spec: str, skill: int, depth: int, movetime: int) -> UciPlayer:
    path = find_engine("fairy-stockfish", FAIRY_STOCKFISH_HINT, UciEngineNotFoundError)
    engine = UciEngine([path], install_hint=FAIRY_STOCKFISH_HINT)
    try:
        _racing_kings_variant(engine, spec)
        engine.set_option("Skill Level", skill)
        engine.is_ready()
    except BaseException:
        engine.close()
        raise
    limits = " ".join(
        part for part in (f"depth {depth}" if depth > 0 else "", f"movetime {movetime}") if part
    )
    return UciPlayer(engine, spec, limits)


def _racing_kings_variant(engine: UciEngine, spec: str) -> None:
    variants = engine.option_vars("UCI_Variant")
    if "racingkings" not in variants:
        raise ValueError(
            f"{spec!r}: the engine {engine.id_name or engine.command[0]!r} offers no "
            "UCI_Variant racingkings (plain Stockfish plays standard chess only; use "
            "Fairy-Stockfish: apt-get install fairy-stockfish)"
        )
    engine.set_option("UCI_Variant", "racingkings")
    engine.is_ready()


def _pachi(spec: str, playouts: int, seed: int, state: GameState) -> GtpPlayer:
    path = shutil.which("pachi")
    if path is None:
        raise GtpEngineNotFoundError(f"pachi not found on PATH: {PACHI_HINT}")
    command = [path, "-t", f"={playouts}", "-s", str(seed), "threads=1,resign_threshold=0"]
    engine = GtpEngine(command, timeout=5.0, install_hint=PACHI_HINT)
    try:
        name = engine.name()
    except GtpError as error:
        engine.close(timeout=0.5)
        raise GtpEngineNotFoundError(
            f"{path} does not speak GTP, so it is not the Pachi Go engine ({error}); {PACHI_HINT}"
        ) from None
    if "pachi" not in name.lower():
        engine.close()
        raise GtpEngineNotFoundError(
            f"{path} answered 'name' with {name!r}, not Pachi: {PACHI_HINT}"
        )
    engine.timeout = ENGINE_TIMEOUT
    # Cleanup mode: Pachi passes only once dead stones are captured, so that pyaz's
    # Tromp-Taylor count (no dead-stone removal) scores the game as Pachi would.
    return GtpPlayer(engine, spec, state, genmove_command="kgs-genmove_cleanup")


def make_player(spec: str, start_state: GameState, seed: int = 0) -> arena.Player:
    """The player that ``spec`` names (see the module docstring), for ``start_state``'s game.

    ``seed`` seeds the random player, the search players and GNU Go/Pachi. Raises ValueError
    for an unknown spec or one that does not fit the game, FileNotFoundError (with how to
    install it) for a missing engine or model. The player's ``name`` is ``spec``.
    """
    kind, rest = _split(spec)
    name = spec.strip()
    state = start_state
    if kind == "random":
        if rest:
            raise ValueError(f"{spec!r}: 'random' takes no argument")
        return arena.RandomPlayer(seed=seed, name=name)
    if kind == "uct":
        (simulations,) = _ints(spec, rest, [200], ["SIMULATIONS"])
        _check_range(spec, "the number of simulations", simulations, 1, 10**9)
        return arena.uct_player(simulations, name=name, seed=seed)
    if kind == "model":
        if not rest:
            raise ValueError(f"{spec!r}: say which network, model:PATH[:SIMULATIONS]")
        path, simulations = rest, DEFAULT_MODEL_SIMULATIONS
        head, _, tail = rest.rpartition(":")
        if head and tail.isdigit():
            path, simulations = head, int(tail)
        _check_range(spec, "the number of simulations", simulations, 1, 10**9)
        return _model_player(path, simulations, state, name, seed)  # type: ignore[no-any-return]
    if kind == "gnugo":
        _need(spec, state, "go")
        (level,) = _ints(spec, rest, [10], ["LEVEL"])
        _check_range(spec, "the GNU Go level", level, 0, 10)
        engine = gnugo(
            level=level,
            capture_all_dead=True,
            seed=seed,
            extra_args=_go_flags(state),
            timeout=ENGINE_TIMEOUT,
        )
        return _started(GtpPlayer(engine, name, state), state)
    if kind == "pachi":
        _need(spec, state, "go")
        (playouts,) = _ints(spec, rest, [1000], ["PLAYOUTS"])
        _check_range(spec, "the number of playouts", playouts, 1, 10**9)
        return _started(_pachi(name, playouts, seed, state), state)
    if kind == "gtp-rhino":
        _need_othello8(spec, state)
        level, rand = _ints(spec, rest, [3, 0], ["LEVEL", "RAND"])
        _check_range(spec, "the GRhino level", level, 1, 5)
        _check_range(spec, "the GRhino randomness", rand, 0, 10)
        path = find_engine("gtp-rhino", GRHINO_HINT)
        command = [path, "-l", str(level)]
        if rand:
            command += ["-r", str(rand)]
        engine = GtpEngine(command, timeout=ENGINE_TIMEOUT, install_hint=GRHINO_HINT)
        return _started(GtpPlayer(engine, name, state), state)
    if kind == "fairy-stockfish":
        _need(spec, state, "racingkings")
        skill, depth, movetime = _ints(spec, rest, [20, 5, 100], ["SKILL", "DEPTH", "MOVETIME"])
        _check_range(spec, "the Skill Level", skill, -20, 20)
        _check_range(spec, "the depth", depth, 0, 100)
        _check_range(spec, "the movetime (ms)", movetime, 1, 10**7)
        return _fairy_stockfish(name, skill, depth, movetime)
    if kind == "lichess":
        _need(spec, state, "racingkings")
        (level,) = _ints(spec, rest, [2], ["LEVEL"])
        if level not in LICHESS_LEVELS:
            raise ValueError(f"{spec!r}: the lichess level must be in 1..8, got {level}")
        skill, movetime, depth = LICHESS_LEVELS[level]
        return _fairy_stockfish(name, skill, depth, movetime)
    if kind in ("gtp", "uci"):
        command = shlex.split(rest)
        if not command:
            raise ValueError(f"{spec!r}: give the engine's command line, {kind}:COMMAND ARGS...")
        found = shutil.which(command[0]) or next(
            (
                os.path.join(d, command[0])
                for d in GAME_DIRS
                if os.access(os.path.join(d, command[0]), os.X_OK)
            ),
            command[0],
        )
        command[0] = found
        hint = "check the command, or install the engine"
        if kind == "gtp":
            _need(spec, state, "go", "othello")
            gtp_engine = GtpEngine(command, timeout=ENGINE_TIMEOUT, install_hint=hint)
            return _started(GtpPlayer(gtp_engine, name, state), state)
        _need(spec, state, "racingkings")
        uci_engine = UciEngine(command, install_hint=hint)
        try:
            _racing_kings_variant(uci_engine, spec)
        except BaseException:
            uci_engine.close()
            raise
        return UciPlayer(uci_engine, name, "movetime 100")
    raise ValueError(f"unknown player {spec!r}\n{PRESETS_HELP}")


def _started(player: GtpPlayer, state: GameState) -> GtpPlayer:
    """Checks the engine accepts the game's setup now, so that errors show at once."""
    try:
        player.reset(state if player.game == "go" else pyaz.make("othello", size=state.size))  # type: ignore[union-attr]
    except BaseException:
        player.close()
        raise
    return player


def close_player(player: object) -> None:
    """Calls ``player.close()`` if it has one (external engines); other players need nothing."""
    close = getattr(player, "close", None)
    if callable(close):
        close()


# --------------------------------------------------------------------------- one game


@dataclass(frozen=True)
class GameOutcome:
    """A finished game and whether it ended by resignation (``resigned``: the side, 0 or 1)."""

    record: arena.GameRecord
    resigned: int | None = None


def play_game(
    first: arena.Player,
    second: arena.Player,
    start_state: GameState,
    opening: Sequence[int] = (),
) -> GameOutcome:
    """:func:`pyaz.arena.play_game` (opening moves, resignations), with the resignation shown."""
    record = arena.play_game(first, second, start_state, opening)
    return GameOutcome(record, record.resigned)
