"""A tournament's journal: ``games.jsonl`` in a ``pyaz-tournament --out`` folder, so that a
tournament killed at any moment (Ctrl-C, ``kill``, a lost machine) resumes where it stopped.

The first line names the tournament: its players and the SHA-256 of each one's network file,
the pairs that meet, the game and its start, the seed and the opening plies. Each later line is
one finished game (its match, its number in the match, the players by colour, the result, the
opening and the moves), written and synced to disk as the game ends. Running the same
tournament again with the same ``--out`` reads the games already played and plays only the
others, from the same openings: nothing is lost and no game is counted twice (a game that was
being played is played again from its start; a network player's search may choose other moves
than it would have in one unbroken run, as its random stream is not where it was). A larger
``--games`` extends each match; games beyond a smaller one are left out of the ratings, not
removed. The folder is locked while the tournament plays in it.

The file may come from anyone: each game line is checked (its match and players, its opening
the one the match draws for it) and its moves are replayed from the start before it counts, so
a damaged line is a one-line ValueError naming the file, the line and the field.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pyaz import _core
from pyaz.common.checked_json import MAX_INT, Fields, parse_json
from pyaz.common.journal import Journal, file_sha256
from pyaz.eval.arena import GameRecord, draw_openings, game_start
from pyaz.eval.match_journal import read_game
from pyaz.games.registry import action_record
from pyaz.games.state import GameState

__all__ = ["GAMES_FILE", "KIND", "Played", "TournamentJournal", "game_line", "match_seed"]

GAMES_FILE = "games.jsonl"
"""The journal's name in a ``--out`` folder."""

KIND = "pyaz tournament"
"""The ``journal`` field of the first line."""

Played = dict[int, dict[int, GameRecord]]
"""Games read back: by match, then by the game's number in its match (both from 0)."""


def match_seed(seed: int, match: int) -> int:
    """The seed of match ``match`` of a tournament seeded ``seed`` (its openings, its chance)."""
    return seed * 1_000_003 + match


def file_digest(path: Path | None) -> str | None:
    """The SHA-256 of a player's network file (a run folder: its checkpoint), None for a
    player without one."""
    if path is None:
        return None
    from pyaz.nets import model_path

    return file_sha256(model_path(path))


def game_line(record: GameRecord, match: int, game: int) -> dict[str, Any]:
    """One game's line: its match and number, the players, the result (the first player's
    score), the end, the opening and the moves."""
    return {
        "match": match,
        "game": game,
        "first": record.first,
        "second": record.second,
        "result": record.first_score,
        "winner": record.winner,
        "status": record.status.name,
        "resigned": record.resigned,
        "plies": len(record.all_actions),
        "opening": list(record.opening),
        "actions": list(record.actions),  # as play_game keeps them (curling's as lists)
    }


class TournamentJournal:
    """The journal of one tournament: :meth:`open` reads (or starts) it, :meth:`append` adds
    a finished game, :meth:`close` closes it and unlocks the folder. ``played`` holds the games
    read back (those below the tournament's games a match), ``beyond`` counts the others."""

    def __init__(self, journal: Journal, played: Played, beyond: int) -> None:
        self.path = journal.path
        self.played = played
        self.beyond = beyond
        self._journal = journal

    @classmethod
    def open(
        cls,
        out: Path,
        players: Sequence[tuple[str, Path | None]],
        pairs: Sequence[tuple[int, int]],
        games: int,
        start: GameState,
        opening_plies: int,
        seed: int,
        *,
        restart_other: bool = False,
    ) -> TournamentJournal:
        """The journal in ``out`` of the tournament of ``players`` ((name, network file or
        None) each) meeting in ``pairs``, ``games`` games a pair, from ``start`` with
        ``opening_plies`` random plies, seeded ``seed`` (started when missing).
        ``restart_other``: a file of another tournament is started afresh (a folder the caller
        owns, a run's ``elo``) instead of refused.

        ValueError naming the file when it is not a journal, holds another tournament (naming
        the field that differs) or a game line is damaged;
        :class:`~pyaz.common.folder_lock.FolderInUseError` when another process plays in
        ``out``; OSError when the file cannot be read or written."""
        header = {
            "journal": KIND,
            "players": [name for name, _ in players],
            "networks": [file_digest(path) for _, path in players],
            "pairs": [list(pair) for pair in pairs],
            "game": str(start.name),
            "start": str(start),
            "opening_plies": opening_plies,
            "seed": seed,
        }
        journal = Journal.open(out / GAMES_FILE, header, restart_other=restart_other)
        try:
            checker = _GameChecker(
                [name for name, _ in players], pairs, games, start, opening_plies, seed
            )
            played: Played = {}
            beyond = 0
            for number, line in journal.lines:
                key, record = checker.check(line, f"{journal.path} line {number}")
                if record is None:
                    beyond += 1
                else:
                    played.setdefault(key[0], {})[key[1]] = record
        except BaseException:
            journal.close()
            raise
        journal.lines = []
        return cls(journal, played, beyond)

    def append(self, record: GameRecord, match: int, game: int) -> None:
        """Adds game ``game`` of match ``match``, synced to disk; OSError naming the file."""
        self._journal.append(game_line(record, match, game))

    def close(self) -> None:
        """Closes the file and unlocks the folder (idempotent; never raises)."""
        self._journal.close()


class _GameChecker:
    """Checks the game lines of one journal against its tournament."""

    def __init__(
        self,
        names: list[str],
        pairs: Sequence[tuple[int, int]],
        games: int,
        start: GameState,
        opening_plies: int,
        seed: int,
    ) -> None:
        self.names = names
        self.pairs = list(pairs)
        self.games = games
        self.start = start
        self.plies = opening_plies
        self.seed = seed
        self.record = action_record(start)
        self.seen: set[tuple[int, int]] = set()
        self._openings: dict[int, list[list[int]]] = {}

    def check(self, line: bytes, where: str) -> tuple[tuple[int, int], GameRecord | None]:
        """(match, game) of the line and its game, checked; None for the game when it is
        beyond the tournament's games a match."""
        fields = Fields(parse_json(line, where), where)
        match = fields.integer("match", high=len(self.pairs) - 1)
        game = fields.integer("game", high=MAX_INT)
        if (match, game) in self.seen:
            raise ValueError(f"{where}: game {game + 1} of match {match + 1} is in the file twice")
        self.seen.add((match, game))
        if game >= self.games:
            return (match, game), None
        a, b = (self.names[i] for i in self.pairs[match])
        first, second = (a, b) if game % 2 == 0 else (b, a)
        start = game_start(self.start, match_seed(self.seed, match), game)
        opening = self.openings(match)[game // 2]
        read = read_game(fields, f"game {game + 1}", (first, second), opening, start, self.record)
        end = getattr(_core.Status, read.status)
        return (match, game), GameRecord(
            read.actions, end, read.winner, first, second, read.opening, read.resigned
        )

    def openings(self, match: int) -> list[list[int]]:
        """The openings match ``match`` draws (one a pair of games)."""
        if match not in self._openings:
            self._openings[match] = draw_openings(
                self.start, self.plies, (self.games + 1) // 2, match_seed(self.seed, match)
            )
        return self._openings[match]
