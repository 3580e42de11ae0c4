"""The Gomoku mentor (seed 004, IV-C): patterns, VCF/VCT proofs, never-missed wins and blocks, bad
input, diversity, Ctrl-C and strength.

Every claim of the mentor is checked with pyaz's own Gomoku rules (``child``/``status``), never
with the mentor's pattern code: a forced win is played out against every legal defence.
"""

from __future__ import annotations

import json
import os
import random
import signal
import threading
import time
import zipfile
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import pyaz
from pyaz._core import Gomoku, GomokuMentor

WIN = {0: pyaz.Status.FIRST_PLAYER_WIN, 1: pyaz.Status.SECOND_PLAYER_WIN}
# threat_map codes
FOUR, FOUR_THREE, WINNING_FOUR, FIVE = 3, 4, 5, 6

Search = Callable[[Gomoku, int], "list[int] | None"]


def _board(size: int, x: str, o: str, overline_wins: bool = True) -> Gomoku:
    """A position from the cells of X and O ("e5 f5 ...": column letter, row number from 1)."""
    rows = [["."] * size for _ in range(size)]
    for cells, stone in ((x, "X"), (o, "O")):
        for cell in cells.split():
            row, col = int(cell[1:]) - 1, ord(cell[0]) - ord("a")
            assert rows[row][col] == ".", cell
            rows[row][col] = stone
    return Gomoku.from_text("\n".join(" ".join(r) for r in rows), 5, overline_wins)


# Worked 9x9 positions (X's cells, O's cells): X completes five at e5; O must block five at e5;
# O faces X's open three (answers b5, f5, ...); O faces two fives (lost); a quiet position;
# X to move with its open three (a VCF, first move b5).
_WORKED = {
    "five": ("a5 b5 c5 d5", "a1 b1 c1 i9"),
    "block": ("a5 b5 c5 d5 i9", "a1 b1 c1 h9"),
    "three": ("c5 d5 e5", "a1 i1"),
    "two fives": ("b5 c5 d5 e5", "a1 i1 i9"),
    "quiet": ("e5 f6", "d4 g7"),
    "vcf": ("c5 d5 e5", "a1 i1 a9"),
}


def _worked(*names: str) -> list[Gomoku]:
    return [_board(9, *_WORKED[name]) for name in names]


def _short_run(**changes: Any) -> Any:
    """A few seconds of Gomoku 9x9 training (the tiny network, 16 simulations a move)."""
    from pyaz.methods.alphazero.config import TrainConfig

    return TrainConfig(
        game="gomoku", game_options={"size": 9}, simulations=16, epochs=1, net="tiny",
        eval_opponent="none", sampling_plies=30, seed=1, **changes,
    )  # fmt: skip


def _names(state: Gomoku, actions: list[int]) -> str:
    return " ".join(state.action_to_str(a) for a in actions)


def _immediate_wins(state: Gomoku) -> set[int]:
    """The side to move's moves that end the game in its favour (brute force with pyaz)."""
    me = state.to_move()
    return {a for a in state.legal_actions() if state.child(a).status() == WIN[me]}


def _winning_cells_after_pass(state: Gomoku) -> set[int]:
    """Cells where the side that just moved would complete five if the side to move played
    elsewhere: the union of its immediate wins after two different non-losing replies (a
    reply takes at most its own cell away, so two replies miss none)."""
    replies = [r for r in state.legal_actions() if not state.child(r).is_terminal()][:2]
    cells: set[int] = set()
    for reply in replies:
        cells |= _immediate_wins(state.child(reply))
    return cells


def _attacker_wins(
    state: Gomoku, plies: int, search: Search, line: list[int] | None = None
) -> bool:
    """True if the side to move wins within `plies` plies against every legal defence, playing
    `line` while the defender follows it and a fresh `search(state, plies_left)` line after any
    other reply; every step is played with pyaz's rules."""
    attacker = state.to_move()
    line = line or search(state, plies)
    if not line:
        return False
    child = state.child(line[0])
    if child.status() == WIN[attacker]:
        return True
    if plies < 3 or child.is_terminal():
        return False
    threats = _winning_cells_after_pass(child)
    for reply in child.legal_actions():
        after = child.child(reply)
        if after.is_terminal():
            return False  # the defender won (or drew by filling the board)
        quick = next((y for y in sorted(threats) if y != reply), None)
        if quick is not None and after.child(quick).status() == WIN[attacker]:
            continue
        rest = line[2:] if len(line) > 2 and reply == line[1] else None
        if not _attacker_wins(after, plies - 2, search, rest):
            return False
    return True


def _vcf_search(mentor: GomokuMentor) -> Search:
    return lambda state, plies: mentor.find_vcf(state, max_depth=(plies + 1) // 2)


def _vct_search(mentor: GomokuMentor) -> Search:
    return lambda state, plies: mentor.find_vct(state, max_depth=(plies + 1) // 2)


def _play_out(state: Gomoku, line: list[int]) -> Gomoku:
    """Plays the whole line (legal moves only) and returns the final state."""
    final = state.clone()
    for action in line:
        assert not final.is_terminal()
        final.apply(action)
    return final


@pytest.fixture(scope="module")
def mentor() -> GomokuMentor:
    return GomokuMentor(time_ms=1000)


# --- patterns ---------------------------------------------------------------------------------


def _random_positions(seed: int, sizes: tuple[int, ...], games: int, every: int = 3):
    """Positions along uniformly random games (both five rules), from ply 10 on."""
    rng = random.Random(seed)
    for overline_wins in (True, False):
        for size in sizes:
            for _ in range(games):
                state = pyaz.make("gomoku", size=size, overline_wins=overline_wins)
                while not state.is_terminal():
                    if state.ply >= 10 and state.ply % every == 0:
                        yield state.clone()
                    state.apply(rng.choice(state.legal_actions()))


def test_fours_and_fives_in_the_threat_map_match_the_rules() -> None:
    # For each empty cell x, pyaz counts the winning cells a stone on x creates; the mentor's
    # map must say five / two or more (open four, double four) / one (a four) / none alike.
    checked = {"five": 0, "winning": 0, "four": 0, "none": 0}  # no fives: skipped above
    for state in _random_positions(seed=1, sizes=(9, 11), games=3):
        me = state.to_move()
        if _immediate_wins(state):
            continue  # a side with a five to play is never asked about its fours
        codes = GomokuMentor.threat_map(state, me).ravel()
        for x in state.legal_actions():
            child = state.child(x)
            if child.status() == WIN[me]:
                expected = "five"
            else:
                n = len(_winning_cells_after_pass(child))
                expected = "none" if n == 0 else "four" if n == 1 else "winning"
            got = {FIVE: "five", WINNING_FOUR: "winning", FOUR: "four", FOUR_THREE: "four"}.get(
                int(codes[x]), "none"
            )
            assert got == expected, f"{state.action_to_str(x)}: {got} != {expected}\n{state}"
            checked[expected] += 1
    assert min(checked["winning"], checked["four"], checked["none"]) >= 50, checked


def test_exact_five_rule_does_not_count_an_overline() -> None:
    # X d8 e8 f8 g8 . i8 between O stones: h8 makes six in a row.
    x, o = "d8 e8 f8 g8 i8", "c8 j8 a1 o1 o15"
    free = _board(15, x, o, overline_wins=True)
    exact = _board(15, x, o, overline_wins=False)
    h8 = free.str_to_action("h8")
    assert _immediate_wins(free) == {h8}
    assert _immediate_wins(exact) == set()
    mentor = GomokuMentor(time_ms=0, max_nodes=20000)
    assert mentor.choose(free) == h8
    assert mentor.last_info["reason"] == "win"
    assert GomokuMentor.threat_map(exact, 0).ravel()[h8] < FOUR
    # Under the exact rule X has no move that threatens five at all, so no VCF.
    assert all(not _winning_cells_after_pass(exact.child(a)) for a in exact.legal_actions())
    assert mentor.find_vcf(exact) is None
    assert mentor.choose(exact) != h8 or mentor.last_info["reason"] != "win"


# --- VCF ----------------------------------------------------------------------------------------

# (size, X stones, O stones or a move list, overline_wins); X or O to move as the counts say.
VCF_POSITIONS = [
    # Two closed threes and a row of three: a four on row 5, then a four that is also open.
    (15, "e5 f5 g5 h6 h7 e8 f8 g8", "d5 h4 d8 a1 o1 a15 o15 h15", True),
    (15, "e5 f5 g5 h6 h7 e8 f8 g8", "d5 h4 d8 a1 o1 a15 o15 h15", False),
    # Chains of four fours, picked from random clusters, on 9x9 and 11x11.
    (9, "f4 g8 d5 b5 f2 f6 b7 e7 d4", "h4 h8 e5 g5 e6 g6 h3 h7 e4", True),
    (9, "f8 c5 e5 d2 h2 c3 e3 c7 f7", "g8 h8 h5 b6 g6 d4 f3 d7 h3", True),
    (11, "d7 c5 d5 c6 d9 g6", "i7 c8 f8 c9 e9 i6", True),
    (11, "i9 e6 d5 f5 h5 i8 c9 f6 h6", "f4 g3 e9 e8 g8 d3 f3 g6 h9", True),
]


def _position(size: int, x: str, o: str, overline_wins: bool) -> Gomoku:
    return _board(size, x, o, overline_wins)


@pytest.mark.parametrize(("size", "x", "o", "overline_wins"), VCF_POSITIONS)
def test_vcf_is_found_and_wins_against_every_defence(
    mentor: GomokuMentor, size: int, x: str, o: str, overline_wins: bool
) -> None:
    state = _position(size, x, o, overline_wins)
    assert not _immediate_wins(state)
    line = mentor.find_vcf(state)
    assert line is not None, f"no VCF found in\n{state}"
    attacker = state.to_move()
    assert _play_out(state, line).status() == WIN[attacker], _names(state, line)
    # Every attacking move but the last two threatens five (pyaz: a pass would lose)...
    board = state.clone()
    for i in range(0, len(line) - 3, 2):
        board.apply(line[i])
        assert _winning_cells_after_pass(board) == {line[i + 1]}, _names(state, line[: i + 2])
        board.apply(line[i + 1])
    # ...and the whole line holds against every legal reply, not only the forced ones.
    assert _attacker_wins(state, len(line), _vcf_search(mentor), line)
    assert mentor.choose(state) == line[0]
    assert mentor.last_info["reason"] == "vcf"
    assert mentor.last_info["line"] == line


def test_no_vcf_when_no_move_threatens_five(mentor: GomokuMentor) -> None:
    # Only open twos and threes: pyaz says no X move makes a winning cell, so no VCF exists.
    state = _board(15, "g7 h7 g9 j10", "f6 k11 a1 o15")
    assert all(not _winning_cells_after_pass(state.child(a)) for a in state.legal_actions())
    assert mentor.find_vcf(state) is None


# --- VCT ----------------------------------------------------------------------------------------

VCT_POSITIONS = [
    # Two open twos crossing at h7: a double three.
    (15, "f7 g7 h5 h6", "a1 o1 a15 o15"),
    # Picked from random clusters: a three first, then fours and threes.
    (15, "f5 j5 g10 h6 j6 f9", "g5 k5 i10 k8 e9 j11"),
    (11, "e4 h7 d5 g8", "h4 g7 g5 g3"),
    (9, "g4 e8 d2 f3 b4", "h4 b5 b3 h3 d4"),
    (11, "c7 f7 i7 e9 g5 d3 i6", "e4 g4 c5 e8 c3 g3 h9"),
]
VCT_PLY_BOUND = 29  # 5 attacking moves, then a VCF of 6 fours, the open four and the five: 25


@pytest.mark.parametrize(("size", "x", "o"), VCT_POSITIONS)
def test_vct_is_found_and_wins_against_every_defence(
    mentor: GomokuMentor, size: int, x: str, o: str
) -> None:
    state = _board(size, x, o)
    line = mentor.find_vct(state)
    assert line is not None, f"no VCT found in\n{state}"
    attacker = state.to_move()
    assert _play_out(state, line).status() == WIN[attacker], _names(state, line)
    # It is no VCF: some attacking move of the line threatens no five (pyaz: a pass is safe).
    board, quiet_moves = state.clone(), 0
    for i in range(0, len(line) - 1, 2):
        board.apply(line[i])
        quiet_moves += not _winning_cells_after_pass(board)
        board.apply(line[i + 1])
    assert quiet_moves >= 1, _names(state, line)
    assert _attacker_wins(state, VCT_PLY_BOUND, _vct_search(mentor), line), _names(state, line)
    chosen = mentor.choose(state)
    assert mentor.last_info["reason"] in ("vcf", "vct")
    assert _attacker_wins(state, VCT_PLY_BOUND, _vct_search(mentor), [chosen])


def test_a_three_against_an_open_three_is_too_slow(mentor: GomokuMentor) -> None:
    # X could make a double three at h7, but O (to move after it) has an open three of its own
    # on row 12 and would make an open four first: no VCT for X, and X must defend.
    state = _board(15, "f7 g7 h5 h6 a1", "f12 g12 h12 o1 o15")
    assert mentor.find_vcf(state) is None
    assert mentor.find_vct(state) is None
    move = mentor.choose(state)
    # After X's move O must not be able to make an open four (pyaz: two winning cells).
    after = state.child(move)
    for reply in after.legal_actions():
        assert len(_winning_cells_after_pass(after.child(reply))) < 2, state.action_to_str(reply)


# --- never miss a win or a block ----------------------------------------------------------------


def test_never_misses_an_immediate_win_or_a_needed_block() -> None:
    mentor = GomokuMentor(time_ms=0, max_nodes=3000)
    wins = blocks = 0
    for state in _random_positions(seed=7, sizes=(9, 11, 15), games=2, every=2):
        winning = _immediate_wins(state)
        threatened = _winning_cells_after_pass(state)
        if not winning and not threatened:
            continue
        move = mentor.choose(state)
        if winning:
            assert move in winning, f"missed the win in\n{state}"
            wins += 1
            continue
        if _immediate_wins(state.child(move)):
            # Allowed only if every move loses at once (two winning cells).
            assert all(_immediate_wins(state.child(a)) for a in state.legal_actions()), str(state)
        else:
            blocks += 1
        assert mentor.last_info["reason"] == "block"
    assert wins >= 20 and blocks >= 20, (wins, blocks)


# --- forced moves (the threat analysis alone) ---------------------------------------------------


def _open_four_possible(state: Gomoku) -> bool:
    """Whether the side to move has a move that leaves two winning cells (pyaz's rules)."""
    return any(
        len(_winning_cells_after_pass(state.child(a))) >= 2
        for a in state.legal_actions()
        if not state.child(a).is_terminal()
    )


def test_forced_moves_answer_an_open_three_with_exactly_the_cells_that_stop_it(
    mentor: GomokuMentor,
) -> None:
    # X's open three c5 d5 e5 (a5 and g5 empty too), O to move with nothing of its own. By hand:
    # only b5 and f5 stop an open four (after a5, X's f5 makes b5-f5 open; after g5, b5 does).
    state = _board(9, "c5 d5 e5", "a1 i1")
    answers = mentor.forced_moves(state)
    assert mentor.last_info["reason"] == "defend"
    assert sorted(state.action_to_str(a) for a in answers) == ["b5", "f5"]
    for action in state.legal_actions():  # pyaz's rules agree on every move
        assert (action in answers) == (not _open_four_possible(state.child(action)))


def test_forced_moves_are_one_move_for_a_five_or_a_forced_win(mentor: GomokuMentor) -> None:
    win = _board(9, "a5 b5 c5 d5", "a1 b1 c1 i9")  # X to move completes e5
    assert mentor.forced_moves(win) == [win.str_to_action("e5")]
    assert mentor.last_info["reason"] == "win"
    block = _board(9, "a5 b5 c5 d5 i9", "a1 b1 c1 h9")  # O to move must take e5
    assert mentor.forced_moves(block) == [block.str_to_action("e5")]
    assert mentor.last_info["reason"] == "block"
    for size, x, o, overline_wins in VCF_POSITIONS:
        state = _position(size, x, o, overline_wins)
        assert mentor.forced_moves(state) == [mentor.choose(state)]
        assert mentor.last_info["reason"] == "vcf"


def test_forced_moves_are_none_in_a_quiet_position(mentor: GomokuMentor) -> None:
    state = _board(9, "e5 f6", "d4 g7")  # two stones each: nothing forcing for either side
    assert mentor.forced_moves(state) == []
    assert mentor.last_info["reason"] == "none"
    assert mentor.last_info["time_ms"] < 1000  # within the mentor's limit


def test_the_threat_guard_overrides_a_player_that_ignores_an_open_three() -> None:
    from pyaz.eval.players import RandomPlayer
    from pyaz.eval.threat_guard import ThreatGuardPlayer

    state = _board(9, "c5 d5 e5", "a1 i1")
    guard = ThreatGuardPlayer(RandomPlayer(seed=3), time_ms=200)
    guard.reset(state)
    moves = {guard.choose(state) for _ in range(20)}
    assert {state.action_to_str(a) for a in moves} <= {"b5", "f5"}
    assert guard.decisions.get("defend", 0) + guard.decisions.get("inner", 0) == 20
    win = _board(9, "a5 b5 c5 d5", "a1 b1 c1 i9")
    assert guard.choose(win) == win.str_to_action("e5")
    assert guard.decisions["win"] == 1


def _uniform_evaluator(calls: list[np.ndarray]):
    """A stand-in network: logits 0 and value 0.25 for every leaf; keeps what it was given."""

    def evaluate(planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        calls.append(planes)
        return np.zeros((len(planes), 81), np.float32), np.full(len(planes), 0.25, np.float32)

    return evaluate


def _priors(logits: np.ndarray, state: Gomoku) -> dict[str, float]:
    """The priors a search takes from ``logits`` (softmax over the legal moves), by cell name."""
    legal = state.legal_actions()
    weights = np.exp(logits[legal] - logits[legal].max())
    return {state.action_to_str(a): w / weights.sum() for a, w in zip(legal, weights, strict=True)}


@pytest.mark.parametrize(
    ("x", "o", "value", "kept"),
    [
        ("c5 d5 e5", "a1 i1", 0.25, {"b5", "f5"}),  # O must answer X's open three
        ("c5 d5 e5", "a1 i1 a9", 1.0, {"b5"}),  # X makes an open four: a VCF (the mentor's pick)
        ("c5 d5 e5 e3 e4", "a1 i1 a9 i9", -1.0, None),  # two open threes: every O move loses
        ("e5 f6", "d4 g7", 0.25, None),  # nothing forcing: the network's output stays
        ("b5 c5 d5 e5", "a1 i1 i9", -1.0, None),  # two fives to stop: one block is not enough
    ],
)
def test_the_threat_aware_evaluator_marks_forced_leaves(
    x: str, o: str, value: float, kept: set[str] | None
) -> None:
    from pyaz.eval.threat_guard import ThreatAwareEvaluator

    state = _board(9, x, o)
    calls: list[np.ndarray] = []
    evaluator = ThreatAwareEvaluator(_uniform_evaluator(calls), max_nodes=3000)
    planes = np.stack([np.asarray(state.encode())] * 2)  # a batch of two, both analysed
    logits, values = evaluator(planes)
    assert values.tolist() == [value, value]
    priors = _priors(logits[1], state)
    if kept is None:
        assert len(set(priors.values())) == 1  # still uniform
    else:
        assert {cell for cell, p in priors.items() if p > 1e-6} == kept
        assert sum(priors[cell] for cell in kept) == pytest.approx(1.0)
    assert np.array_equal(calls[0], np.stack([np.asarray(state.encode())] * 2))  # unchanged


def test_the_threat_aware_evaluator_reads_each_leaf_of_a_mixed_batch() -> None:
    # Off-centre, in one batch: O to move against X's open three on column g (answers by
    # pyaz's rules), and X to move with it (its VCF). A flipped or transposed board, or the
    # wrong side to move, would mark other cells.
    from pyaz.eval.threat_guard import ThreatAwareEvaluator

    defend, attack = _board(9, "g2 g3 g4", "a8 b9"), _board(9, "g2 g3 g4", "a8 b9 a9")
    evaluator = ThreatAwareEvaluator(_uniform_evaluator([]), max_nodes=3000)
    logits, values = evaluator(np.stack([np.asarray(defend.encode()), np.asarray(attack.encode())]))
    answers = {
        defend.action_to_str(a)
        for a in defend.legal_actions()
        if not _open_four_possible(defend.child(a))
    }
    assert answers and {c for c, p in _priors(logits[0], defend).items() if p > 1e-6} == answers
    assert values.tolist() == [0.25, 1.0]
    (vcf_move,) = {c for c, p in _priors(logits[1], attack).items() if p > 1e-6}
    line = GomokuMentor(time_ms=1000).find_vcf(attack)
    assert line and _play_out(attack, line).status() == WIN[0]
    assert vcf_move == attack.action_to_str(line[0])


def test_an_unfinished_defence_changes_nothing() -> None:
    # 23 nodes find X's open three but run out before O's answers are all tried (the answers
    # are b5 f5, above): no proof, so neither the value nor the priors change.
    from pyaz.eval.threat_guard import ThreatAwareEvaluator

    state = _board(9, "c5 d5 e5", "a1 i1")
    evaluator = ThreatAwareEvaluator(_uniform_evaluator([]), max_nodes=23)
    logits, values = evaluator(np.asarray(state.encode())[None])
    assert values.tolist() == [0.25] and not logits.any()
    assert evaluator.changed == {"unproven": 1}
    assert evaluator.mentor.last_info["reason"] == "defend"


def test_threat_targets_correct_self_play_targets_as_worked_by_hand() -> None:
    # Rows: X completes five (e5); O blocks five (e5); O answers X's open three (b5 or f5:
    # the search gave b5 0.2, a non-answer 0.8); the same with nothing on the answers; O
    # facing two fives (lost); a quiet position (unchanged); X to move with its open three,
    # a VCF (the mentor's first move b5, as in the leaf evaluator's test above).
    from pyaz.methods.alphazero.targets import threat_targets

    states = _worked("five", "block", "three", "three", "two fives", "quiet", "vcf")
    planes = np.stack([np.asarray(s.encode()) for s in states])
    policy = np.full((7, 81), 1 / 81, dtype=np.float32)
    a = states[2].str_to_action
    policy[2] = 0.0
    policy[2][a("b5")], policy[2][a("i9")] = 0.2, 0.8
    policy[3] = 0.0
    policy[3][a("i9")] = 1.0
    outcome = np.array([-1, -1, 1, 0, 1, 1, -1], dtype=np.float32)
    new_policy, new_outcome, decided, counts = threat_targets(planes, policy, outcome, 3000)
    e5 = a("e5")
    assert new_policy[0][e5] == 1.0 and new_policy[1][e5] == 1.0
    assert new_policy[2][a("b5")] == 1.0  # the search's share on the answers, renormalised
    assert new_policy[3][a("b5")] == new_policy[3][a("f5")] == 0.5  # none: uniform on them
    assert np.array_equal(new_policy[4:6], policy[4:6])  # lost and quiet: the search's target
    assert new_policy[6][a("b5")] == 1.0  # the VCF's first move
    assert new_outcome.tolist() == [1, -1, 1, 0, -1, 1, 1]  # five, two fives, the VCF
    assert decided.tolist() == [True, False, False, False, True, False, True]
    assert new_policy.sum(axis=1) == pytest.approx(np.ones(7))
    assert counts == {
        "win": 1, "block": 1, "defend": 2, "lost": 1, "none": 1, "vcf": 1,
        "policy_changed": 5, "value_changed": 3,
    }  # fmt: skip
    assert outcome.tolist() == [-1, -1, 1, 0, 1, 1, -1] and policy[2][a("i9")] == 0.8  # kept


def test_a_gomoku_run_trains_on_threat_targets(tmp_path) -> None:
    from pyaz.methods.alphazero.loop import TrainingLoop
    from pyaz.methods.alphazero.targets import threat_targets

    config = _short_run(iterations=2, episodes=4, parallel_games=4, threat_targets=300)
    training = TrainingLoop(config, tmp_path / "run", progress=False)
    try:
        records = training.run_step(1) + training.run_step(2)
        planes, policy, outcome = training.buffer.arrays()
        root_value = training.buffer.root_values()
    finally:
        training.finish()
    rows = [r for r in records if r["kind"] == "iteration"]
    assert len(rows) == 2
    # random-ish self-play reaches fives and blocks: some targets change, never all
    assert all(0 < r["threat_policy_changed"] < 1 for r in rows)
    assert all(0 <= r["threat_value_changed"] < 1 and r["time_threats"] > 0 for r in rows)
    # the buffer holds the corrected targets: correcting them again changes nothing
    again_policy, again_outcome, decided, counts = threat_targets(planes, policy, outcome, 300)
    assert counts["policy_changed"] == counts["value_changed"] == 0
    assert np.array_equal(again_policy, policy) and np.array_equal(again_outcome, outcome)
    assert decided.any()
    assert np.array_equal(root_value[decided], outcome[decided])  # q follows the analysis


def test_threat_search_planes_as_worked_by_hand() -> None:
    # Rows (the side to move's view): X completes five (e5); O blocks five (e5); O answers X's
    # open three (b5 or f5, and the analysis's other answers); O facing two fives (lost); a
    # quiet position; X to move with its open three: a VCF (first move b5); 23 nodes that run
    # out before O's answers are all tried (no proof: nothing).
    from pyaz.nets.threat_search import ThreatSearchEvaluator, append_threat_search

    states = _worked("five", "block", "three", "two fives", "quiet", "vcf")
    planes = np.stack([np.asarray(s.encode()) for s in states])
    counts: dict[str, int] = {}
    out = append_threat_search(planes, GomokuMentor(time_ms=0.0, max_nodes=3000), counts)
    assert out.shape == (6, planes.shape[1] + 4, 9, 9) and out.dtype == np.float32
    assert np.array_equal(out[:, : planes.shape[1]], planes)  # the game's planes first, kept
    cells = [
        [states[r].action_to_str(int(a)) for a in np.flatnonzero(out[r, -4])] for r in range(6)
    ]
    assert cells == [["e5"], ["e5"], [], [], [], ["b5"]]  # the dictated move
    answers = {states[2].action_to_str(int(a)) for a in np.flatnonzero(out[2, -3])}
    assert {"b5", "f5"} <= answers and "i9" not in answers  # the moves that stop the three
    assert not out[[0, 1, 3, 4, 5], -3].any()
    assert [bool(out[r, -2].all()) for r in range(6)] == [True, False, False, False, False, True]
    assert [bool(out[r, -1].all()) for r in range(6)] == [False, False, False, True, False, False]
    assert not out[4, -4:].any()  # quiet: nothing
    assert counts == {"win": 1, "block": 1, "defend": 1, "lost": 1, "none": 1, "vcf": 1}
    short = ThreatSearchEvaluator(lambda x: (x, x), 23, planes.shape[1])
    seen, _ = short(planes[2:3])
    assert seen.shape[1] == planes.shape[1] + 4 and not seen[0, -4:].any()
    assert short.counts == {"unproven": 1}
    assert short(seen)[0] is not None and short.counts == {"unproven": 1}  # planes: as they are


def test_the_threat_search_planes_refuse_bad_inputs() -> None:
    mentor = GomokuMentor(time_ms=0.0, max_nodes=100)
    state = _board(9, "c5 d5 e5", "a1 i1")
    planes = np.asarray(state.encode())[None]
    with pytest.raises(ValueError, match=r"\(batch, planes >= 2, n, n\), got shape \(3, 9, 9\)"):
        mentor.threat_search_planes(planes[0])
    with pytest.raises(ValueError, match=r"boards of size 9\.\.15, got inputs of size 7"):
        mentor.threat_search_planes(np.zeros((1, 3, 7, 7), np.float32))
    impossible = planes.copy()
    impossible[0, 0, 8, :] = 1.0  # nine more stones for the side to move
    with pytest.raises(ValueError, match="impossible Gomoku position: X has"):
        mentor.threat_search_planes(impossible)
    out, counts = mentor.threat_search_planes(np.zeros((0, 3, 9, 9), np.float32))
    assert out.shape == (0, 4, 9, 9) and counts == {}
    five = _worked("five")[0]
    won = five.child(five.str_to_action("e5"))  # over: zeros, not counted
    out, counts = mentor.threat_search_planes(np.asarray(won.encode())[None])
    assert not out.any() and counts == {}


def test_a_gomoku_run_with_threat_search_planes_trains_saves_and_plays(tmp_path) -> None:
    from pyaz._core import ConnectFour
    from pyaz.common.runlog import read_metrics
    from pyaz.eval.players import network_player
    from pyaz.methods.alphazero.loop import TrainingLoop
    from pyaz.nets import load_model, net_config_for
    from pyaz.nets.threat_search import ThreatSearchEvaluator

    config = _short_run(iterations=1, episodes=2, parallel_games=2, threat_search=3000)
    training = TrainingLoop(config, tmp_path / "run", progress=False)
    try:
        training.run()
        planes, _, _ = training.buffer.arrays()
    finally:
        training.finish()
    (row,) = [r for r in read_metrics(tmp_path / "run") if r["kind"] == "iteration"]
    assert 0 < row["time_threat_search"] < row["time_selfplay"]  # logged, within self-play
    state = _board(9, "c5 d5 e5", "a1 i1")
    game_planes = np.asarray(state.encode()).shape[0]
    assert planes.shape[1:] == (game_planes + 4, 9, 9)  # the buffer holds the planes
    assert planes[:, -4:].any()  # random-ish self-play reaches fives and blocks
    model = load_model(tmp_path / "run")
    assert model.config is not None and model.config.threat_search == 3000
    assert model.config.planes == game_planes  # the game's planes; the evaluator adds four
    model.check(state)
    player = network_player(model, 32)
    assert isinstance(player.evaluator, ThreatSearchEvaluator)
    player.reset(state)
    assert state.is_legal(player.choose(state))
    assert player.evaluator.counts["defend"] >= 1  # the root: O faces X's open three
    assert player.evaluator.seconds > 0
    export = tmp_path / "run" / "best.torchscript.pt"  # cannot append the planes: none written
    assert not export.exists()
    with zipfile.ZipFile(export, "w") as archive:  # an earlier run's: refused unread
        archive.writestr("best/code/__torch__.py", "not TorchScript")
    with pytest.raises(ValueError) as refused:
        load_model(export, execute_torchscript_code=True)  # else refused as TorchScript
    assert str(refused.value) == (
        f"{export} is the TorchScript export of a network that reads 4 threat-search planes "
        "(threat_search 3000), which the export cannot compute: play the run folder, its "
        "checkpoint.pt or nets/iter-*.pt"
    )
    with pytest.raises(ValueError, match=r"threat_search \(300\) reads Gomoku's threats, not"):
        net_config_for(ConnectFour(), threat_search=300)


def test_the_guard_puts_the_threat_analysis_into_a_network_search() -> None:
    from pyaz.eval.players import SearchPlayer
    from pyaz.eval.threat_guard import ThreatAwareEvaluator, ThreatGuardPlayer

    state = _board(9, "c5 d5 e5", "a1 i1")
    inner = SearchPlayer(_uniform_evaluator([]), 64)
    guard = ThreatGuardPlayer(inner, time_ms=50)
    assert isinstance(inner.evaluator, ThreatAwareEvaluator) and guard.tree is inner.evaluator
    guard.reset(state)
    assert state.action_to_str(guard.choose(state)) in {"b5", "f5"}
    assert guard.tree.changed["defend"] >= 1 and guard.tree.changed["vcf"] >= 1  # X's replies
    # A move with prior ~0 still gets a visit when its first-play value beats the answers'
    # (here: the stand-in rates every leaf 0.25 for its mover); one, since the analysis at its
    # leaf finds X's VCF and scores it lost at once.
    visits = inner.search.visit_counts()
    answers = [state.str_to_action("b5"), state.str_to_action("f5")]
    assert visits[answers].sum() >= 40 and np.delete(visits, answers).max() <= 1
    plain = SearchPlayer(_uniform_evaluator([]), 8)
    assert ThreatGuardPlayer(plain, tree_nodes=0).tree is None and callable(plain.evaluator)
    with pytest.raises(ValueError, match="node budget must be >= 0, got -1"):
        ThreatGuardPlayer(plain, tree_nodes=-1)
    with pytest.raises(TypeError, match="node budget must be an integer, got nan"):
        ThreatGuardPlayer(plain, tree_nodes=float("nan"))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="node budget must be an integer, got 'x'"):
        ThreatAwareEvaluator(_uniform_evaluator([]), max_nodes="x")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="wraps a network evaluator"):
        ThreatAwareEvaluator("uniform")


class _Fixed:
    """A player that always answers ``move``."""

    name = "fixed"

    def __init__(self, move: str) -> None:
        self.move = move

    def reset(self, state: Gomoku) -> None: ...

    def observe(self, action: int) -> None: ...

    def choose(self, state: Gomoku) -> int:
        return state.str_to_action(self.move)


def test_the_guard_keeps_an_answer_that_its_budget_did_not_reach() -> None:
    # With 120 nodes the root analysis tries b5 and runs out before f5 (both answer X's open
    # three): the guard checks f5 itself and keeps it; a1 answers nothing and is replaced.
    from pyaz.eval.threat_guard import ThreatGuardPlayer

    state = _board(9, "c5 d5 e5", "a1 i1")
    for move, played, decided in (("f5", "f5", "inner"), ("a5", "b5", "defend")):
        guard = ThreatGuardPlayer(_Fixed(move))
        guard.mentor = GomokuMentor(time_ms=0, max_nodes=120)
        assert state.action_to_str(guard.choose(state)) == played
        assert guard.decisions == {decided: 1}


def test_the_loss_report_reads_an_arena_folder(mentor: GomokuMentor, tmp_path) -> None:
    # bench/gomoku_losses.py on two games by hand: X builds e5-g5 (an open three), O ignores it,
    # X makes an open four and five. Game 1: A is X (a VCF, then the win); game 2: A is O
    # (it missed the defence, then faced two fives).
    import importlib.util
    from pathlib import Path

    script = Path(__file__).resolve().parents[1] / "bench" / "gomoku_losses.py"
    spec = importlib.util.spec_from_file_location("gomoku_losses", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    game = "e5 a1 f5 a2 g5 a3 h5 a9 d5 1-0"
    (tmp_path / "games.txt").write_text(f"# A = x, B = y\n{game}\n{game}\n")
    summary = {"game_options": {"size": 9}, "opening_plies": 2}
    (tmp_path / "summary.json").write_text(json.dumps(summary))
    kinds, games = module.analyse(tmp_path, 200.0)
    assert dict(kinds) == {"none": 3, "vcf": 1, "win": 1, "defend-missed": 1, "block": 1}
    assert dict(games) == {("win", False, False): 1, ("loss", False, True): 1}
    # 120 nodes try b5 but not f5 (both answer X's open three): f5 is unproven, not missed.
    state, small = _board(9, "c5 d5 e5", "a1 i1"), GomokuMentor(time_ms=0, max_nodes=120)
    assert module.position_kind(small, state, state.str_to_action("b5")) == "defend-kept"
    assert module.position_kind(small, state, state.str_to_action("f5")) == "defend-unproven"
    assert module.position_kind(mentor, state, state.str_to_action("a5")) == "defend-missed"


# --- bad input ----------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [5, 7, 8])
def test_boards_below_nine_are_refused(mentor: GomokuMentor, size: int) -> None:
    state = pyaz.make("gomoku", size=size)
    for call in (mentor.choose, mentor.find_vcf, mentor.find_vct):
        with pytest.raises(ValueError, match=f"size {size}"):
            call(state)


@pytest.mark.parametrize("line_length", [4, 6])
def test_line_lengths_other_than_five_are_refused(mentor: GomokuMentor, line_length: int) -> None:
    state = pyaz.make("gomoku", size=9, line_length=line_length)
    with pytest.raises(ValueError, match=f"line_length {line_length}"):
        mentor.choose(state)


def test_a_finished_game_is_refused(mentor: GomokuMentor) -> None:
    state = pyaz.make("gomoku", size=9).play("a1 a9 b1 b9 c1 c9 d1 d9 e1")
    assert state.is_terminal()
    with pytest.raises(ValueError, match="game is over"):
        mentor.choose(state)
    with pytest.raises(ValueError, match="game is over"):
        mentor.find_vct(state)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"time_ms": -1.0}, "time_ms must be a finite number >= 0, got -1"),
        ({"time_ms": float("nan")}, "time_ms must be a finite number >= 0, got nan"),
        ({"max_nodes": -5}, "max_nodes must be >= 0, got -5"),
        ({"max_depth": 65}, "max_depth must be in 0..64, got 65"),
        ({"randomness": 1.5}, "randomness must be in \\[0, 1\\], got 1.5"),
        ({"seed": -1}, "seed must be >= 0, got -1"),
        ({"vcf_depth": 0}, "vcf_depth must be in 1..30, got 0"),
        ({"vct_depth": 13}, "vct_depth must be in 0..12, got 13"),
        ({"time_ms": 0}, "needs a limit"),
    ],
)
def test_bad_options_raise_value_error_naming_the_value(options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        GomokuMentor(**options)


def test_bad_arguments_raise(mentor: GomokuMentor) -> None:
    state = pyaz.make("gomoku", size=9)
    with pytest.raises(ValueError, match="max_depth must be >= 0, got -1"):
        mentor.find_vcf(state, max_depth=-1)
    with pytest.raises(ValueError, match="max_nodes must be >= 0, got -2"):
        mentor.find_vct(state, max_nodes=-2)
    with pytest.raises(ValueError, match="time_ms must be >= 0, got -3"):
        mentor.find_vct(state, time_ms=-3.0)
    with pytest.raises(ValueError, match="colour must be 0 or 1, got 2"):
        GomokuMentor.threat_map(state, 2)
    with pytest.raises(TypeError):
        mentor.choose(pyaz.make("othello"))
    with pytest.raises(TypeError):
        GomokuMentor(1000)  # keyword-only


# --- determinism, diversity, Ctrl-C -------------------------------------------------------------


def _self_play(black: GomokuMentor, white: GomokuMentor, size: int = 9) -> list[int]:
    state = pyaz.make("gomoku", size=size)
    moves = []
    while not state.is_terminal():
        move = (black if state.to_move() == 0 else white).choose(state)
        state.apply(move)
        moves.append(move)
    return moves


def test_node_limited_games_repeat_and_randomness_makes_them_differ() -> None:
    def make(randomness: float, seed: int) -> GomokuMentor:
        return GomokuMentor(time_ms=0, max_nodes=4000, randomness=randomness, seed=seed)

    assert _self_play(make(0, 0), make(0, 0)) == _self_play(make(0, 5), make(0, 6))
    first = _self_play(make(0.5, 1), make(0.5, 2))
    assert first == _self_play(make(0.5, 1), make(0.5, 2))
    games = {tuple(_self_play(make(0.5, s), make(0.5, s + 100))) for s in range(4)}
    assert len(games) == 4


def test_randomness_picks_only_among_close_moves() -> None:
    state = _board(15, "h8 i9", "g9 j8")
    picks = set()
    for seed in range(8):
        mentor = GomokuMentor(time_ms=0, max_nodes=20000, randomness=1.0, seed=seed)
        move = mentor.choose(state)
        picks.add(move)
        info = mentor.last_info
        scores = dict(info["root_scores"])
        assert info["reason"] == "search"
        assert scores[move] >= max(scores.values()) - 400
        assert info["candidates"] == sum(s >= max(scores.values()) - 400 for s in scores.values())
    assert len(picks) >= 2
    # A forced win is never randomised.
    win = _board(15, "e5 f5 g5 h6 h7 e8 f8 g8", "d5 h4 d8 a1 o1 a15 o15 h15")
    line = GomokuMentor(time_ms=1000).find_vcf(win)
    for seed in range(3):
        assert GomokuMentor(time_ms=1000, randomness=1.0, seed=seed).choose(win) == line[0]


def test_ctrl_c_interrupts_a_long_choose() -> None:
    state = _board(15, "h8", "i9")
    mentor = GomokuMentor(time_ms=120_000)
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            mentor.choose(state)
    finally:
        timer.cancel()
        timer.join()
    assert time.monotonic() - start < 60  # it did not run its 120 s
    # The mentor is usable afterwards.
    assert 0 <= GomokuMentor(time_ms=0, max_nodes=2000).choose(state) < 225


# --- strength -----------------------------------------------------------------------------------


def _uct_move(state: Gomoku, simulations: int, seed: int) -> int:
    search = pyaz.Search(state, rule="uct", seed=seed)
    search.run(simulations, "rollout")
    return int(search.choose_action(0))


def _openings(size: int, count: int, seed: int) -> list[list[int]]:
    """Distinct random openings of 2-4 stones within two cells of the centre."""
    rng = random.Random(seed)
    centre = size // 2
    near = [
        r * size + c for r in range(centre - 2, centre + 3) for c in range(centre - 2, centre + 3)
    ]
    openings: set[tuple[int, ...]] = set()
    while len(openings) < count:
        openings.add(tuple(rng.sample(near, rng.randint(2, 4))))
    return [list(o) for o in sorted(openings)]


def _match_vs_uct(mentor: GomokuMentor, size: int, openings: list[list[int]], sims: int):
    """The mentor's score (win 1, draw 1/2) over each opening played with both colours."""
    score, games = 0.0, []
    for index, opening in enumerate(openings):
        for mentor_colour in (0, 1):
            state = pyaz.make("gomoku", size=size).play(opening)
            while not state.is_terminal():
                if state.to_move() == mentor_colour:
                    move = mentor.choose(state)
                else:
                    move = _uct_move(state, sims, seed=index * 2 + mentor_colour)
                state.apply(move)
            result = state.status()
            if result == WIN[mentor_colour]:
                score += 1.0
            elif result == pyaz.Status.DRAW:
                score += 0.5
            games.append((tuple(opening), mentor_colour, result))
    return score, games


def test_mentor_beats_uct_with_2000_rollouts_on_9x9() -> None:
    # 12 distinct openings x both colours = 24 distinct games (node-limited: reproducible).
    mentor = GomokuMentor(time_ms=0, max_nodes=10000)
    score, games = _match_vs_uct(mentor, 9, _openings(9, 12, seed=3), sims=2000)
    assert len(set(games)) == 24
    assert score / len(games) >= 0.85, games


def test_mentor_beats_uct_with_2000_rollouts_on_15x15() -> None:
    # 5 distinct openings x both colours; 200 ms a move (timed: not bit-reproducible).
    mentor = GomokuMentor(time_ms=200)
    score, games = _match_vs_uct(mentor, 15, _openings(15, 5, seed=4), sims=2000)
    assert score / len(games) >= 0.9, games
