"""A match's journal: ``match.jsonl`` in a ``pyaz-arena --out`` folder, so that a match killed at
any moment (Ctrl-C, ``kill``, a lost machine) resumes where it stopped.

The first line names the match: A, B, the game and its options, the seed, the opening plies,
the runtime, and the SHA-256 of each network file a player reads (so that a run that trained on
between a stop and the resume, or a relative path read from another folder, is not taken for
the same player). Each later line is one finished game, written and synced to disk as the game
ends. Running the same match again with the same ``--out`` reads the games already played and
plays only the others, from the same openings with the same player seeds: nothing is lost and
no game is counted twice. A larger ``--games`` extends the match (the openings of pair ``k``
depend only on the seed and ``k``); games of the file beyond a smaller ``--games`` are left out
of the tally, not removed. The folder is locked while a match plays in it
(:class:`~pyaz.common.folder_lock.FolderLock`), so two processes never write one journal.

The file may come from anyone, damaged or hostile: it is read as bounded JSON (each line at
most :data:`MAX_LINE_BYTES`), never executed; each game's fields are checked, its players must
be the match's, its opening the one the match draws for it, and its moves are replayed from the
start (each legal, the end as recorded; curling's shots from the game's seed), so a damaged
line is a one-line ValueError naming the file, the line and the field. A last line cut short by
a killed write is dropped (that game is played again).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pyaz import _core
from pyaz.common.checked_json import MAX_INT, Fields, parse_json
from pyaz.common.journal import MAX_JOURNAL_BYTES, MAX_LINE_BYTES, Journal, file_sha256
from pyaz.eval import presets
from pyaz.eval.parallel import MatchPlan
from pyaz.games.registry import action_record
from pyaz.games.state import ActionRecord, BoardGameState, GameState, winner

__all__ = [
    "JOURNAL",
    "MAX_JOURNAL_BYTES",
    "MAX_LINE_BYTES",
    "GameLine",
    "MatchJournal",
    "read_game",
]

JOURNAL = "match.jsonl"
"""The journal's name in a ``--out`` folder."""

KIND = "pyaz-arena match"
"""The ``journal`` field of the first line."""

STATUSES = ("DRAW", "FIRST_PLAYER_WIN", "SECOND_PLAYER_WIN")
"""How a game recorded in a journal ended (:class:`~pyaz._core.Status` names)."""

Played = dict[int, dict[str, Any]]
"""Games read back, by index (from 0)."""


def network_digest(spec: str) -> str | None:
    """The SHA-256 of the network file that the player ``spec`` reads (a run folder's
    checkpoint, a shipped network's file), None for a player without one."""
    fields = presets.network_fields(presets.guarded_spec(spec))
    if fields is None:
        return None
    from pyaz.nets import model_path
    from pyaz.nets.shipped import BUILTIN_PREFIX, shipped_path

    path = fields[0]
    return file_sha256(shipped_path(path) if path.startswith(BUILTIN_PREFIX) else model_path(path))


def _header(plan: MatchPlan, start: GameState) -> dict[str, Any]:
    """What the first line holds: what makes two matches the same match."""
    header = {
        "journal": KIND,
        "a": plan.a,
        "b": plan.b,
        "game": plan.game,
        "game_options": plan.options,
        "seed": plan.seed,
        "opening_plies": plan.opening_plies(start),
        "runtime": plan.runtime,
        "networks": {"a": network_digest(plan.a), "b": network_digest(plan.b)},
    }
    return header


class MatchJournal:
    """The journal of one match: :meth:`open` reads (or starts) it, :meth:`append` adds a
    finished game, :meth:`close` closes it and unlocks the folder. ``played`` holds the games
    read back with an index below the match's games, ``beyond`` counts those above."""

    def __init__(self, journal: Journal, played: Played, beyond: int) -> None:
        self.path = journal.path
        self.played = played
        self.beyond = beyond
        self.append = journal.append
        self.close = journal.close

    @classmethod
    def open(
        cls, out: Path, plan: MatchPlan, start: GameState, names: tuple[str, str]
    ) -> MatchJournal:
        """The journal of ``plan`` in ``out`` (started when missing), with the games of it
        already played (:attr:`played`, :attr:`beyond`). ``names`` are the names players A and
        B go by in the records. The folder is locked until :meth:`close` (two processes never
        play one match).

        ValueError naming the file when it is not a journal, holds another match (naming the
        field that differs), or a game line is damaged;
        :class:`~pyaz.common.folder_lock.FolderInUseError` when another process plays in
        ``out``; OSError when the file cannot be read or written."""
        journal = Journal.open(out / JOURNAL, _header(plan, start))
        try:
            played: Played = {}
            beyond = 0
            checker = _GameChecker(plan, start, names, journal.path)
            for number, line in journal.lines:
                index, game = checker.check(line, number)
                if game is None:
                    beyond += 1
                else:
                    played[index] = game
        except BaseException:
            journal.close()
            raise
        journal.lines = []
        return cls(journal, played, beyond)


class _GameChecker:
    """Checks the game lines of one journal against its match."""

    def __init__(self, plan: MatchPlan, start: GameState, names: tuple[str, str], path: Path):
        self.plan = plan
        self.start = start
        self.names = names
        self.path = path
        self.seen: set[int] = set()
        self.openings = plan.openings_for(start)
        self.record = action_record(start)

    def check(self, line: bytes, number: int) -> tuple[int, dict[str, Any] | None]:
        """The index of the game on line ``number`` (from 1) and the game, checked; None for
        the game when its index is beyond the match's games (left for a longer match)."""
        where = f"{self.path} line {number}"
        fields = Fields(parse_json(line, where), where)
        index = fields.integer("index", high=MAX_INT)
        if index in self.seen:
            raise ValueError(f"{where}: game {index + 1} is in the file twice")
        self.seen.add(index)
        if index >= self.plan.games:
            return index, None
        a_first = fields.boolean("a_first")
        if a_first != self.plan.a_first(index):
            raise fields.problem("a_first", str(self.plan.a_first(index)).lower(), a_first)
        first, second = self.names if a_first else self.names[::-1]
        opening = self.openings[index // 2] if self.openings else []
        start = self.plan.game_start(self.start, index)
        game = read_game(fields, f"game {index + 1}", (first, second), opening, start, self.record)
        return index, {
            "index": index,
            "a_first": a_first,
            "first": first,
            "second": second,
            "opening": game.opening,
            "actions": game.actions,
            "status": game.status,
            "winner": game.winner,
            "resigned": game.resigned,
            "seconds": fields.number("seconds"),
        }


@dataclass(frozen=True)
class GameLine:
    """A journal line's game, checked (:func:`read_game`): the opening, the players' moves
    (as a record keeps them, :attr:`~pyaz.games.state.ActionRecord.write`: curling's targets
    as (x, y, spin)), the end (a :class:`~pyaz._core.Status`
    name), the winner (0, 1, None) and the side that resigned (None)."""

    opening: list[int]
    actions: list[Any]
    status: str
    winner: int | None
    resigned: int | None


def read_game(
    fields: Fields,
    game: str,
    players: tuple[str, str],
    opening: list[int],
    start: GameState,
    record: ActionRecord,
) -> GameLine:
    """The game (``game``: "game K", for a message) of a journal line's ``fields``, checked:
    its players (first, second) are ``players``, its opening is ``opening`` (the one its match
    draws for it), its winner is its end's, and its moves replay from ``start`` (each legal, to
    the end recorded); ValueError naming the line and the field otherwise."""
    fields.text("first", choices=(players[0],))
    fields.text("second", choices=(players[1],))
    if fields.integers("opening") != opening:
        raise ValueError(f"{fields.where}: {game}'s opening is not the one its match draws for it")
    status = fields.text("status", choices=STATUSES)
    won = winner(getattr(_core.Status, status))
    recorded = fields.data.get("winner")
    if recorded != won or isinstance(recorded, bool):
        raise fields.problem("winner", "null" if won is None else str(won), recorded)
    resigned = fields.optional_integer("resigned", high=1)
    actions = read_actions(fields, record)
    check_replay(start, [*opening, *actions], status, resigned, f"{fields.where}: {game}")
    kept = [record.write(action) for action in actions]  # as play_game keeps them
    return GameLine(opening, kept, status, won, resigned)


def read_actions(fields: Fields, record: ActionRecord) -> list[Any]:
    """The game's moves (field ``actions``), each read as its game's records keep them
    (``record``: integers, curling's targets); ValueError naming the field otherwise."""
    values = fields.data.get("actions")
    if not isinstance(values, list):
        raise fields.problem("actions", f"a list, each {record.expected}", values)
    actions = [record.read(value) for value in values]
    for ply, (value, action) in enumerate(zip(values, actions, strict=True)):
        if action is None:
            raise fields.problem(f"actions[{ply}]", record.expected, value)
    return actions


def check_replay(
    start: GameState, moves: list[Any], status: str, resigned: int | None, game: str
) -> None:
    """ValueError naming ``game`` ("FILE line N: game K") unless ``moves`` replay from
    ``start`` (not modified), each legal, to the end recorded: ``status`` (a
    :class:`~pyaz._core.Status` name), reached by the rules or by the side ``resigned``
    resigning where it is to move."""
    state = start.clone()
    for ply, action in enumerate(moves):
        if state.is_terminal() or not _legal(state, action):
            raise ValueError(f"{game}'s move at ply {ply} is illegal")
        state.apply(action)
    if resigned is None:
        end = state.status().name if state.is_terminal() else "not over"
    elif state.is_terminal() or int(state.to_move()) != resigned:
        end = "not where the side that resigned is to move"
    else:
        end = "SECOND_PLAYER_WIN" if resigned == 0 else "FIRST_PLAYER_WIN"
    if end != status:
        raise ValueError(f"{game} replays to {end}, the file says {status}")


def _legal(state: GameState, action: Any) -> bool:
    """Whether ``action`` may be played in ``state`` (a board game's integer is looked up in
    its legal actions, so that no integer reaches the rules that they cannot take)."""
    if isinstance(state, BoardGameState) and isinstance(action, int):
        return action in state.legal_actions()
    return bool(state.is_legal(action))
