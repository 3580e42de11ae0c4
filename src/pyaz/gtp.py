"""A small client for Go engines that speak GTP (Go Text Protocol, version 2).

The engine runs as a subprocess; :meth:`GtpEngine.send` writes one command and returns the
text of the ``=`` answer, or raises :class:`GtpCommandError` on a ``?`` answer. Every read has
a timeout; an engine that stops answering is killed and :class:`GtpTimeoutError` raised.
The engine is shut down (``quit``, then terminate, then kill) by :meth:`GtpEngine.close`, by
leaving a ``with`` block, even on an error, or when the object is garbage-collected::

    >>> from pyaz.gtp import gnugo
    >>> with gnugo(level=1, boardsize=9) as engine:          # doctest: +SKIP
    ...     engine.play("black", "E5")
    ...     engine.genmove("white")
    'C5'

GNU Go is found on PATH or in /usr/games; when it is missing, :func:`gnugo` raises
:class:`GtpEngineNotFoundError` saying how to install it.
"""

from __future__ import annotations

import contextlib
import os
import queue
import shutil
import subprocess
import threading
from collections import deque
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType

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
_EOF = None  # what the reader thread queues when the engine closes its output


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


class GtpEngine:
    """A GTP engine in a subprocess.

    ``command`` is the argument vector (``["gnugo", "--mode", "gtp"]``); ``timeout`` is the
    default number of seconds to wait for each answer; ``install_hint`` is added to the error
    raised when the executable is missing.
    """

    def __init__(
        self,
        command: Sequence[str],
        *,
        timeout: float = 30.0,
        install_hint: str | None = None,
    ) -> None:
        if not command:
            raise ValueError("the engine command is empty")
        self.command = list(command)
        self.timeout = timeout
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr_tail: deque[str] = deque(maxlen=20)
        self._lock = threading.Lock()
        try:
            self._process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                bufsize=1,
            )
        except FileNotFoundError as error:
            name = Path(self.command[0]).name
            hint = f": {install_hint}" if install_hint else ""
            raise GtpEngineNotFoundError(f"{name} not found{hint} ({error})") from error
        except PermissionError as error:
            raise GtpEngineNotFoundError(f"cannot run {self.command[0]}: {error}") from error
        self._readers = [
            threading.Thread(target=self._read_stdout, daemon=True),
            threading.Thread(target=self._read_stderr, daemon=True),
        ]
        for reader in self._readers:
            reader.start()

    # ------------------------------------------------------------------ life cycle

    def __enter__(self) -> GtpEngine:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def __del__(self) -> None:
        process = getattr(self, "_process", None)
        if process is not None and process.poll() is None:
            process.kill()

    @property
    def alive(self) -> bool:
        """Whether the engine process is still running."""
        return self._process.poll() is None

    def close(self, timeout: float = 2.0) -> int | None:
        """Stops the engine: ``quit``, then terminate, then kill. Returns its exit status."""
        process = self._process
        if process.poll() is None:
            with contextlib.suppress(GtpError):
                self._write("quit")
                self._read_answer("quit", timeout)
            try:
                process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                process.terminate()
                try:
                    process.wait(timeout=timeout)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
        for stream in (process.stdin, process.stdout, process.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        return process.returncode

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

    def _write(self, command: str) -> None:
        stdin = self._process.stdin
        if self._process.poll() is not None or stdin is None:
            raise GtpError(f"the engine has exited{self._exit_details()}")
        try:
            stdin.write(command + "\n")
            stdin.flush()
        except (BrokenPipeError, OSError) as error:
            raise GtpError(f"cannot send {command!r}: {error}{self._exit_details()}") from error

    def _next_line(self, command: str, timeout: float) -> str:
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            self._process.kill()
            raise GtpTimeoutError(
                f"no answer to {command!r} within {timeout:g} s; the engine was killed"
            ) from None
        if line is _EOF:
            self._lines.put(_EOF)  # later reads fail the same way
            self._settle_after_exit()
            raise GtpError(f"the engine exited while answering {command!r}{self._exit_details()}")
        return line

    def _settle_after_exit(self, timeout: float = 1.0) -> None:
        """Gives a closing engine a moment to exit and its stderr reader to catch up."""
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._process.wait(timeout=timeout)
        self._readers[1].join(timeout=timeout)

    def _read_answer(self, command: str, timeout: float) -> tuple[bool, str]:
        """(success, text) of the next answer: '=' or '?' line, continued until an empty line."""
        line = ""
        while not line.strip():
            line = self._next_line(command, timeout)
        status = line[0]
        if status not in "=?":
            raise GtpError(f"unexpected answer to {command!r}: {line!r}")
        body = [line[1:].lstrip("0123456789")]  # drop the optional command id
        while True:
            line = self._next_line(command, timeout)
            if not line.strip():
                break
            body.append(line)
        return status == "=", "\n".join(body).strip()

    def _read_stdout(self) -> None:
        stdout = self._process.stdout
        assert stdout is not None
        try:
            for line in stdout:
                self._lines.put(line.rstrip("\r\n").replace("\t", " "))
        except (OSError, ValueError):
            pass
        self._lines.put(_EOF)

    def _read_stderr(self) -> None:
        stderr = self._process.stderr
        assert stderr is not None
        try:
            for line in stderr:
                self._stderr_tail.append(line.rstrip())
        except (OSError, ValueError):
            pass

    def _exit_details(self) -> str:
        code = self._process.poll()
        details = "" if code is None else f" (exit status {code})"
        tail = " | ".join(line for line in self._stderr_tail if line)
        return details + (f"; stderr: {tail}" if tail else "")

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
    found = shutil.which("gnugo")
    if found:
        return found
    for folder in ("/usr/games", "/usr/local/games"):
        candidate = os.path.join(folder, "gnugo")
        if os.access(candidate, os.X_OK):
            return candidate
    raise GtpEngineNotFoundError(f"gnugo not found: {GNUGO_INSTALL_HINT}")


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
    if chinese_rules:
        args.append("--chinese-rules")
    if capture_all_dead:
        args.append("--capture-all-dead")
    if seed is not None:
        args += ["--seed", str(seed)]
    args += list(extra_args)
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
