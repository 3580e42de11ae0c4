"""The subprocess plumbing shared by the clients of external engines (GTP and UCI).

:class:`EngineProcess` starts an engine with pipes to its stdin, stdout and stderr, queues its
output lines from a reader thread, keeps the tail of its stderr for error messages, writes
command lines, reads lines with a timeout (killing an engine that stops answering), and shuts
the engine down (the protocol's ``quit``, then terminate, then kill) by :meth:`close`, by
leaving a ``with`` block, or when the object is garbage-collected. A protocol client subclasses
it and names its error classes (:attr:`error`, :attr:`timeout_error`, :attr:`not_found_error`)
and its ``quit`` (:meth:`_quit`).
"""

from __future__ import annotations

import contextlib
import os
import queue
import shutil
import subprocess
import threading
from collections import deque
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO

from pyaz.common.closing import ClosesOnExit
from pyaz.common.workers import child_preexec

__all__ = ["GAME_DIRS", "ClosesOnExit", "EngineProcess", "find_engine"]

GAME_DIRS: tuple[str, ...] = ("/usr/games", "/usr/local/games")
"""Where Debian installs game engines (not on PATH by default)."""

_EOF = None  # what the reader thread queues when the engine closes its output


class EngineProcess(ClosesOnExit):
    """An engine in a subprocess that talks a line protocol on stdin/stdout.

    ``command`` is the argument vector; ``timeout`` the default number of seconds to wait for
    a line; ``install_hint`` is added to the :attr:`not_found_error` raised when the executable
    is missing. Lines are UTF-8 both ways, whatever the locale; output bytes that are not
    UTF-8 are read as U+FFFD.
    """

    error: type[Exception] = RuntimeError
    """Raised when the engine has exited or cannot be written to."""
    timeout_error: type[Exception] = TimeoutError
    """Raised when no line comes in time (the engine has been killed)."""
    not_found_error: type[Exception] = FileNotFoundError
    """Raised when the executable does not exist (or cannot be run)."""

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
        self._lock = threading.Lock()  # for a client's command-and-answer exchanges
        try:
            self._process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                encoding="utf-8",  # whatever the locale; bytes that are not UTF-8 become U+FFFD
                errors="replace",  # (strict decoding ended the reader: "the engine exited")
                bufsize=1,
                preexec_fn=child_preexec(),  # in a match's worker: the engine dies with it
            )
        except PermissionError as error:
            raise self.not_found_error(f"cannot run {self.command[0]}: {error}") from error
        except FileNotFoundError as error:
            hint = f": {install_hint}" if install_hint else ""
            name = Path(self.command[0]).name
            raise self.not_found_error(f"{name} not found{hint} ({error})") from error
        self._readers = [
            threading.Thread(target=self._read_stdout, daemon=True),
            threading.Thread(target=self._read_stderr, daemon=True),
        ]
        for reader in self._readers:
            reader.start()

    # ------------------------------------------------------------------ life cycle

    def __del__(self) -> None:
        process = getattr(self, "_process", None)
        if process is not None and process.poll() is None:
            process.kill()

    @property
    def alive(self) -> bool:
        """Whether the engine process is still running."""
        return self._process.poll() is None

    def _quit(self, timeout: float) -> None:
        """Asks the engine to exit (the protocol's ``quit``); errors of :attr:`error` are
        ignored by :meth:`close`."""

    def close(self, timeout: float = 2.0) -> int | None:
        """Stops the engine: ``quit``, then terminate, then kill. Returns its exit status."""
        process = self._process
        if process.poll() is None:
            with contextlib.suppress(self.error):
                self._quit(timeout)
            for escalate in (process.terminate, process.kill):
                try:
                    process.wait(timeout=timeout)
                    break
                except subprocess.TimeoutExpired:
                    escalate()
            else:
                process.wait()
        for stream in (process.stdin, process.stdout, process.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        return process.returncode

    # ------------------------------------------------------------------ lines

    def _write(self, line: str) -> None:
        """Writes one command line; :attr:`error` when the engine has exited."""
        stdin = self._process.stdin
        if self._process.poll() is not None or stdin is None:
            raise self.error(f"the engine has exited{self._exit_details()}")
        try:
            stdin.write(line + "\n")
            stdin.flush()
        except (BrokenPipeError, OSError) as error:
            raise self.error(f"cannot send {line!r}: {error}{self._exit_details()}") from error

    def _next_line(self, timeout: float, awaited: str, while_: str) -> str:
        """The next line of the engine's output (without the line break).

        When none comes within ``timeout`` seconds the engine is killed and
        :attr:`timeout_error` raised, saying ``no {awaited} within ... s``; when the engine
        has exited, :attr:`error` saying ``the engine exited while {while_}``.
        """
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            self._process.kill()
            raise self.timeout_error(
                f"no {awaited} within {timeout:g} s; the engine was killed"
            ) from None
        if line is _EOF:
            self._lines.put(_EOF)  # later reads fail the same way
            self._settle_after_exit()
            raise self.error(f"the engine exited while {while_}{self._exit_details()}")
        return line

    def _settle_after_exit(self, timeout: float = 1.0) -> None:
        """Gives a closing engine a moment to exit and its stderr reader to catch up."""
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._process.wait(timeout=timeout)
        self._readers[1].join(timeout=timeout)

    def _read_stdout(self) -> None:
        self._pump(self._process.stdout, lambda line: self._lines.put(line.rstrip("\r\n")))
        self._lines.put(_EOF)

    def _read_stderr(self) -> None:
        self._pump(self._process.stderr, lambda line: self._stderr_tail.append(line.rstrip()))

    @staticmethod
    def _pump(stream: IO[str] | None, take: Callable[[str], object]) -> None:
        assert stream is not None
        try:
            for line in stream:
                take(line)
        except (OSError, ValueError):
            pass

    def _exit_details(self) -> str:
        """`` (exit status N)`` once the engine has exited, and the tail of its stderr."""
        code = self._process.poll()
        details = "" if code is None else f" (exit status {code})"
        tail = " | ".join(line for line in self._stderr_tail if line)
        return details + (f"; stderr: {tail}" if tail else "")


def find_engine(
    names: str | Sequence[str],
    install_hint: str,
    error: type[Exception] = FileNotFoundError,
) -> str:
    """Path of the first of ``names`` found on PATH or in :data:`GAME_DIRS` (a name with a
    slash is taken as a path); else ``error("<name> not found: <install_hint>")``."""
    candidates = [names] if isinstance(names, str) else list(names)
    for name in candidates:
        found = shutil.which(name) or shutil.which(name, path=os.pathsep.join(GAME_DIRS))
        if found:
            return found
    raise error(f"{candidates[0]} not found: {install_hint}")
