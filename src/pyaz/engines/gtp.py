"""A small client for Go engines that speak GTP (Go Text Protocol, version 2).

The engine runs as a subprocess; :meth:`GtpEngine.send` writes one command and returns the
text of the ``=`` answer, or raises :class:`GtpCommandError` on a ``?`` answer. Every read has
a timeout; an engine that stops answering is killed and :class:`GtpTimeoutError` raised.
The engine is shut down (``quit``, then terminate, then kill) by :meth:`GtpEngine.close`, by
leaving a ``with`` block, even on an error, or when the object is garbage-collected::

    >>> from pyaz.engines.gtp import gnugo
    >>> with gnugo(level=1, boardsize=9) as engine:          # doctest: +SKIP
    ...     engine.play("black", "E5")
    ...     engine.genmove("white")
    'C5'

GNU Go is found on PATH or in /usr/games; when it is missing, :func:`gnugo` raises
:class:`GtpEngineNotFoundError` saying how to install it.
"""

from __future__ import annotations

from collections.abc import Sequence

from pyaz.engines.process import EngineProcess, find_engine

__all__ = [
    "GtpCommandError",
    "GtpEngine",
    "GtpEngineNotFoundError",
    "GtpError",
    "GtpTimeoutError",
    "find_gnugo",
    "gnugo",
]

GNUGO_INSTALL_HINT = "apt-get install gnugo"


class GtpError(RuntimeError):
    """Any failure talking to a GTP engine."""


class GtpCommandError(GtpError):
    """The engine answered ``?``: the command failed (e.g. an illegal move)."""

    def __init__(self, command: str, message: str) -> None:
        super().__init__(f"GTP command {command!r} failed: {message}")
        self.command = command
        self.message = message


class GtpTimeoutError(GtpError, TimeoutError):
    """The engine did not answer in time (it has been killed)."""


class GtpEngineNotFoundError(GtpError, FileNotFoundError):
    """The engine's executable does not exist."""


class GtpEngine(EngineProcess):
    """A GTP engine in a subprocess: ``command`` (``["gnugo", "--mode", "gtp"]``), ``timeout``
    and ``install_hint`` as for :class:`~pyaz.engines.process.EngineProcess`."""

    error = GtpError
    timeout_error = GtpTimeoutError
    not_found_error = GtpEngineNotFoundError

    def _quit(self, timeout: float) -> None:
        self._write("quit")
        self._read_answer("quit", timeout)

    # ------------------------------------------------------------------ protocol

    def send(self, command: str, timeout: float | None = None) -> str:
        """Sends one command; returns the answer text after ``=`` (stripped, may be multi-line).

        Raises :class:`GtpCommandError` on ``?``, :class:`GtpTimeoutError` when no answer
        comes within ``timeout`` seconds (default: the engine's), :class:`GtpError` when the
        engine has exited.
        """
        command = command.strip()
        if not command or "\n" in command:
            raise ValueError(f"a GTP command is one non-empty line, got {command!r}")
        with self._lock:
            self._write(command)
            ok, text = self._read_answer(command, self.timeout if timeout is None else timeout)
        if not ok:
            raise GtpCommandError(command, text)
        return text

    def _answer_line(self, command: str, timeout: float) -> str:
        line = self._next_line(timeout, f"answer to {command!r}", f"answering {command!r}")
        return line.replace("\t", " ")

    def _read_answer(self, command: str, timeout: float) -> tuple[bool, str]:
        """(success, text) of the next answer: '=' or '?' line, continued until an empty line."""
        line = ""
        while not line.strip():
            line = self._answer_line(command, timeout)
        status = line[0]
        if status not in "=?":
            raise GtpError(f"unexpected answer to {command!r}: {line!r}")
        body = [line[1:].lstrip("0123456789")]  # drop the optional command id
        while True:
            line = self._answer_line(command, timeout)
            if not line.strip():
                break
            body.append(line)
        return status == "=", "\n".join(body).strip()

    # ------------------------------------------------------------------ common commands

    def name(self) -> str:
        """The engine's name."""
        return self.send("name")

    def boardsize(self, size: int) -> None:
        """Sets the board size (this clears the board)."""
        self.send(f"boardsize {size}")

    def clear_board(self) -> None:
        """Empties the board."""
        self.send("clear_board")

    def komi(self, komi: float) -> None:
        """Sets komi."""
        self.send(f"komi {komi:g}")

    def play(self, color: str, vertex: str) -> None:
        """Plays ``vertex`` (e.g. 'D4' or 'pass') for ``color`` ('black'/'white'/'b'/'w')."""
        self.send(f"play {color} {vertex}")

    def genmove(self, color: str, timeout: float | None = None) -> str:
        """The engine's move for ``color``, played on its board: a vertex, 'pass' or 'resign'."""
        return self.send(f"genmove {color}", timeout).lower()

    def list_stones(self, color: str) -> list[str]:
        """Vertices of ``color``'s stones (upper case)."""
        return self.send(f"list_stones {color}").upper().split()

    def final_score(self) -> str:
        """The engine's score of the current position, e.g. 'B+3.5', 'W+0.5' or '0'."""
        return self.send("final_score")


def find_gnugo() -> str:
    """Path of the GNU Go executable; :class:`GtpEngineNotFoundError` when it is missing."""
    return find_engine("gnugo", GNUGO_INSTALL_HINT, GtpEngineNotFoundError)


def gnugo(
    *,
    level: int = 1,
    boardsize: int | None = None,
    komi: float | None = None,
    chinese_rules: bool = True,
    capture_all_dead: bool = False,
    seed: int | None = None,
    extra_args: Sequence[str] = (),
    timeout: float = 30.0,
) -> GtpEngine:
    """GNU Go in GTP mode (never resigning), with area scoring unless ``chinese_rules=False``.

    ``capture_all_dead`` makes GNU Go remove dead stones before passing, so that a plain
    Tromp-Taylor count of the final board agrees with its ``final_score``.
    """
    args = [find_gnugo(), "--mode", "gtp", "--level", str(level), "--never-resign"]
    args += ["--chinese-rules"] * chinese_rules + ["--capture-all-dead"] * capture_all_dead
    args += ([] if seed is None else ["--seed", str(seed)]) + list(extra_args)
    engine = GtpEngine(args, timeout=timeout, install_hint=GNUGO_INSTALL_HINT)
    try:
        if boardsize is not None:
            engine.boardsize(boardsize)
            engine.clear_board()
        if komi is not None:
            engine.komi(komi)
    except BaseException:
        engine.close()
        raise
    return engine
