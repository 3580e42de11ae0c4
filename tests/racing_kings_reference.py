"""References for the Racing Kings tests: python-chess perft and outcomes, Fairy-Stockfish perft.

Two independent implementations that agree on ordinary positions (start-position counts in
``../shared/reference/perft.md``) but count differently once a king stands on the 8th rank:

- python-chess (``chess.variant.RacingKingsBoard``), like lichess and pyaz, ends the race as
  soon as it is decided: when Black's king reaches the 8th rank, and when White's does and Black,
  to move, has no legal king move onto it (python-chess looks for a free, unattacked square next
  to Black's king rather than generating moves; in Racing Kings that is the same thing, because
  a slider seeing through Black's king, or a discovered check by it, would need a king in check).
- Fairy-Stockfish 11.1's ``go perft`` only stops generating moves for a side whose own king is
  on the 8th rank when it is to move. It therefore also counts White's moves after Black's king
  has arrived, and Black's moves after White's king has arrived when Black cannot answer: at the
  last ply only, because the ply after that stops. (Its search decides those races correctly.)

``pc_perft(..., rule="fairy-stockfish")`` reproduces Fairy-Stockfish's counting with
python-chess's move generator, so that each difference between pyaz and Fairy-Stockfish is
checked to be exactly this one.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Literal

import chess
import chess.variant

EndRule = Literal["python-chess", "fairy-stockfish"]

FAIRY_STOCKFISH_CANDIDATES = ("fairy-stockfish", "/usr/games/fairy-stockfish")
MISSING_FAIRY_STOCKFISH = (
    "Fairy-Stockfish is not installed (needed by the Racing Kings tests); on Debian/Ubuntu: "
    "apt-get install fairy-stockfish"
)


def race_over(board: chess.variant.RacingKingsBoard, rule: EndRule) -> bool:
    """Whether the side to move has no moves because of the race, under an end rule."""
    if rule == "python-chess":
        return board.is_variant_end()
    return bool(board.kings & board.occupied_co[board.turn] & chess.BB_RANK_8)


def legal_moves(board: chess.variant.RacingKingsBoard, rule: EndRule) -> list[chess.Move]:
    """python-chess's legal moves; under Fairy-Stockfish's rule also in a race python-chess
    already calls over (python-chess then generates none)."""
    if rule == "python-chess":
        return list(board.legal_moves)
    return [
        move
        for move in board.generate_pseudo_legal_moves()
        if not board.is_into_check(move) and not board.gives_check(move)
    ]


def pc_perft(
    board: chess.variant.RacingKingsBoard, depth: int, rule: EndRule = "python-chess"
) -> int:
    """Move paths of length ``depth`` with python-chess's move generator; a finished race has no
    moves (python-chess's examples/perft convention). 50-move and repetition draws are ignored,
    as Fairy-Stockfish's ``go perft`` ignores them."""
    if depth == 0:
        return 1
    if race_over(board, rule):
        return 0
    moves = legal_moves(board, rule)
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        board.push(move)
        total += pc_perft(board, depth - 1, rule)
        board.pop()
    return total


# Outcome reasons, named like pyaz.RacingKingsTermination members.
_REASONS = {
    chess.Termination.VARIANT_WIN: "GOAL",
    chess.Termination.VARIANT_LOSS: "GOAL",
    chess.Termination.VARIANT_DRAW: "GOAL_DRAW",
    chess.Termination.STALEMATE: "STALEMATE",
    chess.Termination.FIFTY_MOVES: "FIFTY_MOVES",
    chess.Termination.THREEFOLD_REPETITION: "THREEFOLD_REPETITION",
    chess.Termination.SEVENTYFIVE_MOVES: "SEVENTYFIVE_MOVES",
    chess.Termination.FIVEFOLD_REPETITION: "FIVEFOLD_REPETITION",
}


def pc_outcome(board: chess.variant.RacingKingsBoard) -> tuple[chess.Color | None, str] | None:
    """python-chess's result (winner, reason) under pyaz's draw rules, or None if the game goes on.

    python-chess's ``outcome()`` ends games automatically by the race, stalemate, the 75-move
    rule and fivefold repetition, and leaves the 50-move rule and threefold repetition to a
    claim. pyaz applies those two automatically, so like is compared with like by asking
    python-chess's own ``is_fifty_moves()`` and ``is_repetition(3)`` after ``outcome()``: the
    order of python-chess's ``outcome(claim_draw=True)``, without its look-ahead claims (a
    repetition that one more move would make).
    """
    outcome = board.outcome()
    if outcome is not None:
        return outcome.winner, _REASONS[outcome.termination]
    if board.is_fifty_moves():
        return None, "FIFTY_MOVES"
    if board.is_repetition(3):
        return None, "THREEFOLD_REPETITION"
    return None


def find_fairy_stockfish() -> str | None:
    """Path of the fairy-stockfish binary (Debian installs it in /usr/games, off PATH)."""
    for candidate in FAIRY_STOCKFISH_CANDIDATES:
        found = shutil.which(candidate)
        if found:
            return found
        if Path(candidate).is_file():
            return candidate
    return None


class FairyStockfish:
    """A Fairy-Stockfish process driven over UCI with ``UCI_Variant racingkings``."""

    def __init__(self, path: str) -> None:
        self._process = subprocess.Popen(
            [path],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        self._send("uci")
        self._read_until("uciok")
        self._send("setoption name UCI_Variant value racingkings")
        self._sync()

    def _send(self, line: str) -> None:
        assert self._process.stdin is not None
        self._process.stdin.write(line + "\n")
        self._process.stdin.flush()

    def _lines(self) -> Iterator[str]:
        assert self._process.stdout is not None
        for line in self._process.stdout:
            yield line.strip()
        raise RuntimeError("fairy-stockfish exited")

    def _read_until(self, prefix: str) -> list[str]:
        lines = []
        for line in self._lines():
            lines.append(line)
            if line.startswith(prefix):
                return lines
        raise AssertionError("unreachable")

    def _sync(self) -> list[str]:
        self._send("isready")
        return self._read_until("readyok")

    def timed_perft(self, fen: str, depth: int) -> tuple[int, float]:
        """(nodes, seconds): ``go perft depth`` from ``fen``, timed from the command to the
        "Nodes searched" line (the process is already running and set up)."""
        self._send(f"position fen {fen}")
        self._sync()
        began = time.perf_counter()
        self._send(f"go perft {depth}")
        last = self._read_until("Nodes searched")[-1]
        seconds = time.perf_counter() - began
        match = re.fullmatch(r"Nodes searched: (\d+)", last)
        assert match, f"unexpected fairy-stockfish output {last!r}"
        return int(match.group(1)), seconds

    def perft(self, fen: str, depth: int) -> int:
        """Fairy-Stockfish's perft node count (see the module docstring for its end rule)."""
        return self.timed_perft(fen, depth)[0]

    def echo_fen(self, fen: str) -> str:
        """The FEN that Fairy-Stockfish's ``d`` command prints after ``position fen``."""
        self._send(f"position fen {fen}")
        self._send("d")
        for line in self._sync():
            if line.startswith("Fen:"):
                return line.removeprefix("Fen:").strip()
        raise AssertionError("fairy-stockfish's 'd' printed no Fen: line")

    def close(self) -> None:
        """Ends the process."""
        if self._process.poll() is None:
            self._send("quit")
            try:
                self._process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
