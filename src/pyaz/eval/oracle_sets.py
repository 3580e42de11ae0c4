"""Whole-game oracle sets for Connect Four: hard positions from the first move to the last,
solved once and shipped as data, with agreement reported by stage.

:func:`pyaz.eval.oracle.hard_positions` draws its positions from a third of the cells on (it
solves them at run time, and the solver takes seconds to minutes a position in the opening),
so its figures leave the opening out. The sets here cover the whole game in three stages, the
thirds of the board's cells by the number of discs played, as Pascal Pons' test sets
("Beginning", "Middle", "End") do:

- ``opening``: ply < cells/3; ``middle``: cells/3 <= ply < 2 cells/3; ``end``: the rest.

Each stage holds the same number of distinct hard positions (no immediate win for the side to
move, legal moves of different values), each reached by random play from the start to a ply
drawn uniformly in its stage, each solved exactly (the value of every legal move, by
:func:`pyaz.search.solver.solve_value` on the child). :func:`write_set` makes a set (seeded,
resumable: it appends a line a position and skips what the file holds) and :func:`load_set`
reads one back; :data:`SHIPPED` names the sets that come with pyaz (``python -m
pyaz.eval.oracle_sets --width 6 --height 6`` remakes one). :func:`agreement_by_stage` asks a
player for its move in each position and gives the share that keeps the value per stage and
over all, each with its 95% Wilson interval.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from pyaz._core import ConnectFour, Status
from pyaz.common.checked_json import parse_json, read_regular_file
from pyaz.common.exits import exit_from_main
from pyaz.eval.oracle import (
    AgreementResult,
    OraclePosition,
    _check_size,
    check_distinct,
    perfect_play_agreement,
)
from pyaz.eval.players import Player, close_player
from pyaz.eval.stats import wilson_interval
from pyaz.search.solver import solve_value

__all__ = [
    "SHIPPED",
    "STAGES",
    "StagedPosition",
    "agreement_by_stage",
    "draw_positions",
    "evaluation_set",
    "load_set",
    "stage_of",
    "stage_plies",
    "stratified_sample",
    "write_set",
]

STAGES = ("opening", "middle", "end")
"""The stages of a game, thirds of the board's cells by the number of discs played."""

SHIPPED = {(6, 6): "connect_four_6x6_whole_game.jsonl", (7, 6): "connect_four_7x6_whole_game.jsonl"}
"""The sets that come with pyaz (in pyaz/eval/data), by (width, height)."""

FORMAT = "pyaz-oracle-set/1"
"""The first line of a set file names its format and how it was made."""

MAX_SET_BYTES = 16 * 2**20
"""The largest set file read (a position takes under 100 bytes)."""

GAME = str(ConnectFour().name)
"""The registry name of the game the sets are of, as a set file's header names it."""


@dataclass(frozen=True)
class StagedPosition:
    """A solved hard position with the moves that reach it and its stage."""

    position: OraclePosition
    moves: tuple[int, ...]  # the columns played from the start, in order
    stage: str


def stage_plies(width: int, height: int, stage: str) -> range:
    """The plies of ``stage`` on a ``width`` x ``height`` board (the end stage stops two plies
    before the board is full: a position with one empty column left has one legal move)."""
    cells = width * height
    if stage not in STAGES:
        raise ValueError(f"unknown stage {stage!r}: one of {', '.join(STAGES)}")
    index = STAGES.index(stage)
    low, high = cells * index // 3, cells * (index + 1) // 3
    return range(low, min(high, cells - 1))


def stage_of(ply: int, width: int, height: int) -> str:
    """The stage of a position after ``ply`` discs on a ``width`` x ``height`` board."""
    cells = width * height
    return next(s for i, s in reversed(list(enumerate(STAGES))) if ply >= cells * i // 3)


def _solved(state: ConnectFour) -> OraclePosition | None:
    """``state`` with the value of each legal move, or None when it is not hard (an immediate
    win, or all moves of one value)."""
    mover_wins = Status.FIRST_PLAYER_WIN if state.to_move() == 0 else Status.SECOND_PLAYER_WIN
    move_values: dict[int, int] = {}
    for column in state.legal_actions():
        child = state.child(column)
        if child.status() == mover_wins:
            return None
        move_values[column] = 0 if child.is_terminal() else -solve_value(child)
    value = max(move_values.values())
    if len(set(move_values.values())) < 2:
        return None
    good = frozenset(column for column, kept in move_values.items() if kept == value)
    return OraclePosition(state, value, good)


def _random_line(width: int, height: int, plies: int, rng: random.Random) -> tuple[int, ...]:
    """The columns of ``plies`` random moves from the start (a game that ends sooner starts
    over)."""
    while True:
        state = ConnectFour(width, height)
        moves: list[int] = []
        while len(moves) < plies and not state.is_terminal():
            moves.append(rng.choice(state.legal_actions()))
            state.apply(moves[-1])
        if not state.is_terminal():
            return tuple(moves)


def _replay(width: int, height: int, moves: Sequence[int]) -> ConnectFour:
    state = ConnectFour(width, height)
    for column in moves:
        if not state.is_legal(column):
            raise ValueError(f"move {column} of {list(moves)} is not legal on {width}x{height}")
        state.apply(column)
    return state


def _check_set(width: int, height: int, per_stage: int) -> None:
    """ValueError for a board the solver does not take or fewer than one position a stage."""
    _check_size(width, height)
    if per_stage < 1:
        raise ValueError(f"per_stage must be >= 1, got {per_stage}")


def draw_positions(
    width: int, height: int, per_stage: int, seed: int = 0, known: Sequence[Sequence[int]] = ()
) -> Iterator[StagedPosition]:
    """``per_stage`` distinct hard positions of each stage, stage by stage, solved (the same
    arguments give the same positions in the same order). ``known`` are the moves of the first
    positions, as an earlier call gave them: they are not solved again nor given, so that a set
    resumes where it stopped (the draws repeat; a draw that is not the next known position was
    not hard). ValueError for a board the solver does not take, or when a stage has too few
    hard positions."""
    _check_set(width, height, per_stage)
    rng = random.Random(seed)
    produced = 0
    for stage in STAGES:
        plies = stage_plies(width, height, stage)
        seen: set[tuple[int, ...]] = set()
        found = attempts = 0
        while found < per_stage:
            attempts += 1
            if attempts > 1000 * per_stage:
                raise ValueError(f"too few hard {stage} positions on {width}x{height}")
            moves = _random_line(width, height, rng.choice(plies), rng)
            state = _replay(width, height, moves)
            key = (int(state.to_move()), *state.board().ravel().tolist())
            if key in seen:
                continue
            seen.add(key)
            if produced < len(known):
                if moves != tuple(known[produced]):
                    continue  # not hard when it was first drawn
                found, produced = found + 1, produced + 1
                continue
            position = _solved(state)
            if position is None:
                continue
            found, produced = found + 1, produced + 1
            yield StagedPosition(position, moves, stage)


def write_set(path: Path, width: int, height: int, per_stage: int, seed: int = 0) -> int:
    """Writes (or completes) the set file ``path``: a header line, then one JSON line a
    position; returns how many positions it holds. A file holding another set is refused, and
    a board or count :func:`draw_positions` refuses leaves no file."""
    _check_set(width, height, per_stage)
    header = {
        "format": FORMAT,
        "game": GAME,
        "width": width,
        "height": height,
        "per_stage": per_stage,
        "seed": seed,
        "stages": {
            stage: [p.start, p.stop - 1]
            for stage in STAGES
            for p in [stage_plies(width, height, stage)]
        },
    }
    known: list[tuple[int, ...]] = []
    if path.exists() and path.stat().st_size:
        lines, whole = _lines(path)
        if lines[0] != header:
            raise ValueError(f"{path} holds another oracle set; remove it or choose another file")
        known = [_staged(record, width, height, path).moves for record in lines[1:]]
        with path.open("r+b") as file:  # a line cut short by a kill is drawn again
            file.truncate(whole)
    else:
        path.write_text(json.dumps(header) + "\n")
    done = len(known)
    with path.open("a") as out:
        for staged in draw_positions(width, height, per_stage, seed, known):
            out.write(json.dumps(_record(staged)) + "\n")
            out.flush()
            done += 1
    return done


def _record(staged: StagedPosition) -> dict[str, Any]:
    position = staged.position
    return {
        "moves": list(staged.moves),
        "stage": staged.stage,
        "value": position.value,
        "good_moves": sorted(position.good_moves),
    }


def load_set(width: int = 7, height: int = 6, path: Path | None = None) -> list[StagedPosition]:
    """The positions of a set file (by default the shipped set of the board, see
    :data:`SHIPPED`), replayed and checked (legal moves, a known stage, good moves legal).
    ValueError for a board with no shipped set or a damaged file."""
    if path is None:
        if (width, height) not in SHIPPED:
            known = ", ".join(f"{w}x{h}" for w, h in SHIPPED)
            raise ValueError(f"no whole-game oracle set ships for {width}x{height}: {known}")
        path = Path(str(resources.files("pyaz.eval") / "data" / SHIPPED[(width, height)]))
    lines, _ = _lines(path)
    width, height = int(lines[0]["width"]), int(lines[0]["height"])
    return [_staged(record, width, height, path) for record in lines[1:]]


def _lines(path: Path) -> tuple[list[Any], int]:
    """The JSON values of the whole lines of the set file ``path`` (a last line without its
    newline, cut short by a kill, is left out) and the bytes they take; ValueError naming the
    file unless its first line is a set header."""
    data = read_regular_file(path, MAX_SET_BYTES)
    whole = data.rfind(b"\n") + 1
    lines = [
        parse_json(line, f"{path} line {number}")
        for number, line in enumerate(data[:whole].splitlines(), 1)
    ]
    if not lines or not isinstance(lines[0], dict) or lines[0].get("format") != FORMAT:
        raise ValueError(f"{path} is not an oracle set (no {FORMAT} header)")
    if not all(isinstance(lines[0].get(key), int) for key in ("width", "height")):
        raise ValueError(f"{path}: its header names no board size")
    return lines, whole


def _staged(record: Any, width: int, height: int, path: Path) -> StagedPosition:
    try:
        moves = tuple(int(column) for column in record["moves"])
        stage, value = str(record["stage"]), int(record["value"])
        good = frozenset(int(column) for column in record["good_moves"])
    except (KeyError, TypeError, ValueError):
        raise ValueError(f"{path}: a damaged position record {str(record)[:120]}") from None
    try:
        state = _replay(width, height, moves)
    except ValueError as error:
        raise ValueError(f"{path}: {error}") from None
    if stage != stage_of(len(moves), width, height) or not good or value not in (0, 1):
        raise ValueError(f"{path}: position {list(moves)} has a wrong stage, value or moves")
    if not all(state.is_legal(column) for column in good):
        raise ValueError(f"{path}: position {list(moves)} names an illegal good move")
    return StagedPosition(OraclePosition(state, value, good), moves, stage)


def evaluation_set(width: int, height: int, count: int, seed: int = 0) -> list[StagedPosition]:
    """``count`` positions over the whole game for a run's evaluation, a third of each stage
    (the first stages take the remainder): a seeded sample of the shipped set of the board
    when there is one (at most its size), else drawn and solved now (:func:`draw_positions`;
    quick on boards smaller than 6x6)."""
    if (width, height) in SHIPPED:
        return stratified_sample(load_set(width, height), count, seed)
    wanted = _per_stage(count)
    drawn = list(draw_positions(width, height, max(wanted.values()), seed))
    return [p for stage in STAGES for p in [q for q in drawn if q.stage == stage][: wanted[stage]]]


def _per_stage(count: int) -> dict[str, int]:
    """``count`` split over the stages, a third each, the first stages taking the remainder;
    ValueError below 1."""
    if count < 1:
        raise ValueError(f"count must be >= 1, got {count}")
    return {stage: count // 3 + (index < count % 3) for index, stage in enumerate(STAGES)}


def stratified_sample(
    positions: Sequence[StagedPosition], count: int, seed: int = 0
) -> list[StagedPosition]:
    """A seeded sample of ``count`` of ``positions``, a third from each stage (the first
    stages take the remainder; a stage with fewer gives all it has), in stage order."""
    wanted = _per_stage(count)
    rng = random.Random(seed)
    chosen: list[StagedPosition] = []
    for stage in STAGES:
        pool = [p for p in positions if p.stage == stage]
        chosen += rng.sample(pool, min(wanted[stage], len(pool)))
    return chosen


def agreement_by_stage(
    player: Player, positions: Sequence[StagedPosition]
) -> dict[str, AgreementResult]:
    """The player's agreement with exact play in each stage that has positions, and over all
    (``"all"``: the stages' moves pooled, each position asked once), with 95% Wilson
    intervals. ValueError when the positions are not distinct or there are none."""
    check_distinct([p.position for p in positions], "agreement_by_stage")
    results = {
        stage: perfect_play_agreement(player, [p.position for p in positions if p.stage == stage])
        for stage in STAGES
        if any(p.stage == stage for p in positions)
    }
    kept = sum(result.kept for result in results.values())
    lower, upper = wilson_interval(kept, len(positions))
    results["all"] = AgreementResult(kept / len(positions), lower, upper, kept, len(positions))
    return results


def _score(spec: str, positions: Sequence[StagedPosition]) -> int:
    """Prints ``spec``'s agreement with exact play on ``positions``, by stage and over all."""
    from pyaz.eval.presets import make_player  # players import search and networks: only here

    board = positions[0].position.state
    width, height = board.num_actions, board.board_shape[0]
    player = make_player(spec, ConnectFour(width, height))
    try:
        results = agreement_by_stage(player, positions)
    finally:
        close_player(player)
    print(f"{spec} on {len(positions)} hard {width}x{height} positions (kept / asked, 95% Wilson)")
    for stage, result in results.items():
        print(
            f"  {stage:8s} {result.agreement:.3f} [{result.lower:.3f}, {result.upper:.3f}]"
            f"  {result.kept}/{result.positions}"
        )
    return 0


def main(argv: list[str] | None = None) -> int:
    """Makes (or completes) a set file (``--out FILE``), or scores a player on a set
    (``--player SPEC``: the shipped set of the board, or ``--set FILE``), by stage:
    ``python -m pyaz.eval.oracle_sets --width 6 --height 6 --player model:RUN:100``."""
    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--width", type=int, default=7, help="the board's columns (default 7)")
    parser.add_argument("--height", type=int, default=6, help="the board's rows (default 6)")
    parser.add_argument(
        "--per-stage", type=int, default=100, help="positions a stage to make (default 100)"
    )
    parser.add_argument("--seed", type=int, default=0, help="the seed of the set made (default 0)")
    job = parser.add_mutually_exclusive_group(required=True)
    job.add_argument("--out", type=Path, help="the set file to make or complete")
    job.add_argument(
        "--player",
        metavar="SPEC",
        help="score this player (as pyaz-arena names one, e.g. model:runs/c4:100 or uct:1000)",
    )
    parser.add_argument("--set", type=Path, help="with --player: this set file, not the shipped")
    args = parser.parse_args(argv)
    if args.player is None and args.set is not None:
        parser.error("--set goes with --player (--out names the file to make)")
    try:
        if args.player is not None:
            positions = load_set(args.width, args.height, args.set)
        else:
            count = write_set(args.out, args.width, args.height, args.per_stage, args.seed)
    except (ValueError, TypeError, OSError) as error:  # the set to read or write
        parser.error(str(error))
    except KeyboardInterrupt:
        kept = f"; the positions written are kept in {args.out}: run again to go on"
        print("interrupted" + (kept if args.out else ""), file=sys.stderr)
        return 130
    if args.player is None:
        print(f"{args.out}: {count} positions", file=sys.stderr)
        return 0
    try:
        return _score(args.player, positions)
    except (ValueError, TypeError) as error:  # a spec no player reads
        parser.error(str(error))
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    exit_from_main(main)
