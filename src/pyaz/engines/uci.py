"""UCI engines through python-chess's ``chess.engine`` (a maintained UCI client that knows the
chess variants): :func:`start_uci_engine` starts one, checks that it plays a variant and sets
it up.

python-chess sends ``setoption name UCI_Variant value racingkings`` by itself when it is given a
``chess.variant.RacingKingsBoard``, sends ``position fen START moves ...`` with the whole game
(so the engine sees repetitions), bounds every exchange with a timeout and kills an engine that
stops answering. Fairy-Stockfish 11.1 sometimes names a ponder move that is illegal after its
best move; python-chess logs that and goes on, and the log line is dropped here.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence

import chess.engine

from pyaz.engines.process import find_engine

__all__ = ["UciEngineNotFoundError", "UciError", "start_uci_engine"]


class UciError(RuntimeError):
    """A UCI engine misbehaved or does not play the game asked for."""


class UciEngineNotFoundError(UciError, FileNotFoundError):
    """The UCI engine's executable does not exist."""


class _DropPonderNoise(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return "invalid ponder move" not in record.getMessage()


logging.getLogger("chess.engine").addFilter(_DropPonderNoise())


def start_uci_engine(
    command: Sequence[str],
    *,
    install_hint: str,
    variant: str | None = None,
    options: Mapping[str, str | int | bool | None] | None = None,
    timeout: float = 30.0,
) -> chess.engine.SimpleEngine:
    """Starts a UCI engine (``command[0]`` looked up on PATH and in /usr/games), checks that it
    offers ``UCI_Variant`` ``variant`` when one is named, and sets ``options``.

    Raises :class:`UciEngineNotFoundError` (saying how to install it) for a missing engine and
    :class:`UciError` for one that does not speak UCI or lacks the variant.
    """
    path = find_engine(command[0], install_hint, UciEngineNotFoundError)
    try:
        engine = chess.engine.SimpleEngine.popen_uci([path, *command[1:]], timeout=timeout)
    except (chess.engine.EngineError, chess.engine.EngineTerminatedError, TimeoutError) as error:
        raise UciError(f"{path} did not start as a UCI engine: {error}") from None
    try:
        if variant is not None:
            offered = engine.options.get("UCI_Variant")
            if offered is None or variant not in (offered.var or []):
                name = engine.id.get("name", path)
                raise UciError(
                    f"the engine {name!r} offers no UCI_Variant {variant} (plain Stockfish "
                    "plays standard chess only; use Fairy-Stockfish: apt-get install "
                    "fairy-stockfish)"
                )
        if options:
            engine.configure(options)
    except BaseException:
        engine.close()
        raise
    return engine
