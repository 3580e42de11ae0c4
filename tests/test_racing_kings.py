"""Racing Kings: perft against python-chess and Fairy-Stockfish, random games against python-chess's
outcome, FEN and UCI text, network planes and the action space.

python-chess and Fairy-Stockfish are both required (CI installs them): a missing one fails these
tests instead of skipping them. ``racing_kings_reference.py`` explains the one place where
Fairy-Stockfish's perft counts differently (after a king has reached the 8th rank).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Iterator

import chess
import chess.variant
import numpy as np
import pytest
from racing_kings_reference import (
    MISSING_FAIRY_STOCKFISH,
    FairyStockfish,
    find_fairy_stockfish,
    pc_outcome,
    pc_perft,
)

import pyaz

Board = chess.variant.RacingKingsBoard
STANDARD_FEN = "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1"
MOD_FEN = "8/8/8/8/2krRK2/2nbBN2/8/8 w - - 0 1"

# ../shared/reference/perft.md, agreed by python-chess 1.11.2 and Fairy-Stockfish 11.1.
START_PERFT = [21, 421, 11_264, 296_242, 9_472_927, 298_712_641]

# (name, FEN, pyaz perft at depths 1.., Fairy-Stockfish's where it differs). pyaz's counts equal
# python-chess's; Fairy-Stockfish's differ only where a king reaches the 8th rank within the
# horizon (see racing_kings_reference.py), and the test checks that rule explains each one.
PERFT_POSITIONS: list[tuple[str, str, list[int], list[int] | None]] = [
    ("start", STANDARD_FEN, [21, 421, 11264], None),
    ("mod-start", MOD_FEN, [16, 261, 4756, 88069], None),
    ("mid-captures", "8/8/5B2/3n1b2/3Rn3/7B/kr2N2K/qrb1N1RQ w - - 12 7", [34, 1204, 43368], None),
    ("mid-queens", "4R3/3q4/8/4B3/3R4/1kn2QNb/1rN5/1rbn2K1 w - - 6 16", [56, 1947, 101900], None),
    ("mid-open", "2R5/3Q1q2/5BRr/8/1k6/2n3N1/1r1b2N1/3n2K1 w - - 15 29", [44, 1770, 76762], None),
    ("mid-late", "4Q2B/2R5/2r5/r7/1k1N4/6N1/2nb4/3n1K2 w - - 13 46", [40, 1631, 63225], None),
    ("mid-early", "1r6/8/8/5b2/7B/NkN5/3n2BK/qrbR3Q w - - 3 11", [35, 1216, 41935], None),
    ("mid-black", "2b4B/q1r5/7b/4R3/k7/6N1/1r3QB1/1n4K1 b - - 22 23", [51, 1777, 88301], None),
    ("mod-mid", "8/8/8/3k1n2/5K2/2Bb4/4N3/8 w - - 6 5", [18, 353, 5991, 113906], None),
    ("mod-bishops", "8/6B1/8/2k5/4K3/8/4b3/2N5 w - - 7 13", [13, 167, 2581, 31681], None),
    ("mod-late", "b7/8/8/B1k5/8/8/8/2N2K2 w - - 23 21", [11, 137, 1845, 23592], None),
    ("many-checks-queen", "8/8/8/3k4/8/8/8/Q3K2R w - - 0 1", [24, 129, 3480, 18329], None),
    ("many-checks-army", "8/8/2k5/8/8/8/8/RNBQKBNR w - - 0 1", [41, 170, 7358], None),
    ("many-checks-black", "8/8/8/4K3/8/8/8/rnbqkbnr b - - 0 1", [41, 160, 6587], None),
    ("pins-discoveries", "8/8/8/8/R2N3k/8/1KB4r/8 w - - 0 1", [16, 170, 3711, 50163], None),
    ("king-discovers", "8/8/8/8/8/R1K4k/8/8 w - - 0 1", [10, 46, 827, 4977], None),
    ("near-stalemate-1", "8/3N4/8/2R5/8/4N3/4k2K/2Q5 w - - 6 67", [36, 101, 3480, 9955], None),
    ("near-stalemate-2", "8/7R/8/8/8/6BK/8/6k1 w - - 1 45", [20, 45, 998, 2390], None),
    ("near-stalemate-3", "8/8/1R6/8/k5K1/8/8/6Q1 w - - 19 142", [31, 74, 2320, 7210], None),
    ("stalemate", "8/8/8/8/8/8/2Q5/k3K3 b - - 0 1", [0, 0, 0], None),
    (
        "black-equalises",
        "8/1k4K1/8/8/8/8/r6R/8 w - - 0 1",
        [21, 399, 5175, 89412],
        [21, 399, 6102, 91284],
    ),
    (
        "equalise-by-capture",
        "R7/1k4K1/8/8/8/8/8/8 w - - 0 1",
        [20, 90, 1127, 6092],
        [20, 90, 1409, 6717],
    ),
    ("black-too-far", "8/6K1/8/1k6/8/8/8/8 w - - 0 1", [8, 40, 272, 1570], [8, 64, 272, 1844]),
    ("black-to-answer", "6K1/1k6/8/8/8/8/8/8 b - - 1 1", [8, 0, 0], None),
    ("black-cannot-answer", "R5K1/2k5/8/8/8/8/8/8 b - - 0 1", [0, 0, 0], [5, 0, 0]),
    ("black-first", "8/1k6/8/8/8/8/6K1/8 b - - 0 1", [8, 40, 272, 1362], [8, 64, 272, 1597]),
    ("black-home", "k7/8/8/N7/8/8/8/R3K3 w - - 0 1", [0, 0, 0], [11, 0, 0]),
    ("both-home", "k5K1/8/8/8/8/8/8/8 w - - 0 1", [0, 0, 0], None),
    (
        "race-with-pieces",
        "8/3K3b/7B/8/1k6/6n1/7N/8 w - - 11 9",
        [16, 253, 4370, 69781],
        [16, 314, 4370, 81131],
    ),
]
POSITION_IDS = [name for name, *_ in PERFT_POSITIONS]

WINNER = {
    chess.WHITE: pyaz.Status.FIRST_PLAYER_WIN,
    chess.BLACK: pyaz.Status.SECOND_PLAYER_WIN,
    None: pyaz.Status.DRAW,
}


@pytest.fixture(scope="module")
def fairy_stockfish() -> Iterator[FairyStockfish]:
    """A running Fairy-Stockfish; the tests fail (not skip) without it."""
    path = find_fairy_stockfish()
    if path is None:
        pytest.fail(MISSING_FAIRY_STOCKFISH)
    engine = FairyStockfish(path)
    yield engine
    engine.close()


# --------------------------------------------------------------------------- perft


def test_start_perft_matches_the_reference_table_to_depth_6() -> None:
    start = pyaz.make("racingkings")
    assert [pyaz.perft(start, d) for d in range(1, 7)] == START_PERFT


def test_start_perft_matches_fairy_stockfish_to_depth_5(fairy_stockfish: FairyStockfish) -> None:
    assert [fairy_stockfish.perft(STANDARD_FEN, d) for d in range(1, 6)] == START_PERFT[:5]


def test_start_perft_matches_python_chess_to_depth_4() -> None:
    assert pc_perft(Board(STANDARD_FEN), 4) == START_PERFT[3]


def test_there_are_at_least_20_positions_besides_the_start() -> None:
    assert len({fen for _, fen, *_ in PERFT_POSITIONS} - {STANDARD_FEN}) >= 20


@pytest.mark.parametrize(("name", "fen", "counts", "fsf_counts"), PERFT_POSITIONS, ids=POSITION_IDS)
def test_perft_matches_python_chess(
    name: str, fen: str, counts: list[int], fsf_counts: list[int] | None
) -> None:
    board = Board(fen)
    assert board.is_valid(), f"{name}: python-chess rejects {fen}: {board.status()!r}"
    state = pyaz.RacingKings(fen)
    assert [pyaz.perft(state, d) for d in range(1, len(counts) + 1)] == counts
    assert pc_perft(board, len(counts)) == counts[-1]


@pytest.mark.parametrize(("name", "fen", "counts", "fsf_counts"), PERFT_POSITIONS, ids=POSITION_IDS)
def test_perft_matches_fairy_stockfish(
    fairy_stockfish: FairyStockfish,
    name: str,
    fen: str,
    counts: list[int],
    fsf_counts: list[int] | None,
) -> None:
    depths = range(1, len(counts) + 1)
    expected = counts if fsf_counts is None else fsf_counts
    assert [fairy_stockfish.perft(fen, d) for d in depths] == expected
    if fsf_counts is not None:
        # The difference is Fairy-Stockfish's end-of-race counting and nothing else.
        assert [pc_perft(Board(fen), d, "fairy-stockfish") for d in depths] == fsf_counts


def test_perft_follows_the_50_move_rule_that_references_ignore() -> None:
    """pyaz's perft stops where pyaz's game ends; python-chess's and Fairy-Stockfish's perft
    ignore the halfmove clock (so the positions above all have small clocks)."""
    fen = "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 99 1"
    assert pyaz.perft(pyaz.RacingKings(fen), 1) == 21
    # Only the capture e1c2 keeps the game going past the 100th ply.
    after_capture = Board(fen)
    after_capture.push_uci("e1c2")
    assert pyaz.perft(pyaz.RacingKings(fen), 2) == after_capture.legal_moves.count() == 14
    assert pc_perft(Board(fen), 2) == 421


# --------------------------------------------------------------------------- random games


def _position_key(board: chess.Board) -> tuple[object, ...]:
    return (
        board.turn,
        board.occupied_co[chess.WHITE],
        board.occupied_co[chess.BLACK],
        board.kings,
        board.queens,
        board.rooks,
        board.bishops,
        board.knights,
    )


def _random_game(fen: str, rng: random.Random) -> tuple[pyaz.RacingKings, Board]:
    """Plays uniformly random moves on pyaz and python-chess together until pyaz ends the game.

    Cheap checks at every ply (python-chess is slow; the full result is compared at the end):
    where pyaz has at most 2 moves the move lists must agree (that is where a stalemate could
    hide), and python-chess must see no race end, 50-move count or threefold repetition that
    pyaz missed.
    """
    state = pyaz.RacingKings(fen)
    board = Board(fen)
    seen = Counter([_position_key(board)])
    while not state.is_terminal():
        actions = state.legal_actions()
        if len(actions) <= 2:
            assert sorted(state.uci(a) for a in actions) == sorted(
                m.uci() for m in board.legal_moves
            ), board.fen()
        action = rng.choice(actions)
        move = chess.Move(action >> 6, action & 63)
        if board.is_capture(move):
            seen.clear()
        board.push(move)
        state.apply(action)
        key = _position_key(board)
        seen[key] += 1
        if not state.is_terminal():
            assert not board.is_variant_end(), board.fen()
            assert board.halfmove_clock == state.halfmove_clock < 100, board.fen()
            assert seen[key] < 3, board.fen()
    return state, board


def _check_result(state: pyaz.RacingKings, board: Board) -> str:
    expected = pc_outcome(board)
    assert expected is not None, f"pyaz ended the game ({state.termination()}), python-chess not"
    winner, reason = expected
    assert (state.status(), state.termination().name) == (WINNER[winner], reason), board.fen()
    assert state.legal_actions() == []
    return reason


# 10,000 games: 5,000 from each start (about 30 s; python-chess dominates).
RANDOM_GAMES = 5_000


@pytest.mark.parametrize(("start", "seed"), [(STANDARD_FEN, 1), (MOD_FEN, 2)], ids=["start", "mod"])
def test_random_games_end_as_python_chess_says(start: str, seed: int) -> None:
    rng = random.Random(seed)
    reasons: Counter[str] = Counter()
    began = time.perf_counter()
    for _ in range(RANDOM_GAMES):
        state, board = _random_game(start, rng)
        assert state.fen() == board.fen()
        reasons[_check_result(state, board)] += 1
    assert sum(reasons.values()) == RANDOM_GAMES
    # Every way a game can end occurred (with these seeds), so each was compared.
    assert set(reasons) == {
        "GOAL",
        "GOAL_DRAW",
        "STALEMATE",
        "FIFTY_MOVES",
        "THREEFOLD_REPETITION",
    }, reasons
    print(f"{RANDOM_GAMES} games in {time.perf_counter() - began:.1f} s: {dict(reasons)}")


@pytest.mark.parametrize(("start", "seed"), [(STANDARD_FEN, 3), (MOD_FEN, 4)], ids=["start", "mod"])
def test_lockstep_legal_moves_and_fen_every_ply(start: str, seed: int) -> None:
    """Fewer games, compared in full at every ply: legal moves, FEN, status."""
    rng = random.Random(seed)
    for _ in range(25):
        state = pyaz.RacingKings(start)
        board = Board(start)
        while not state.is_terminal():
            assert sorted(state.legal_uci()) == sorted(m.uci() for m in board.legal_moves)
            assert state.fen() == board.fen()
            assert pc_outcome(board) is None
            uci = rng.choice(state.legal_uci())
            state.push_uci(uci)
            board.push_uci(uci)
        _check_result(state, board)


# --------------------------------------------------------------------------- rules


def _play(fen: str, moves: str) -> pyaz.RacingKings:
    state = pyaz.RacingKings(fen)
    for uci in moves.split():
        state.push_uci(uci)
    return state


def test_black_equalises_by_reaching_the_8th_rank_too() -> None:
    state = _play("8/1k4K1/8/8/8/8/8/8 w - - 0 1", "g7g8")
    assert not state.is_terminal() and state.to_move() == 1
    state.push_uci("b7b8")
    assert state.status() == pyaz.Status.DRAW
    assert state.termination() == pyaz.RacingKingsTermination.GOAL_DRAW


def test_white_wins_when_black_answers_elsewhere() -> None:
    state = _play("8/1k4K1/8/8/8/8/8/8 w - - 0 1", "g7g8 b7a6")
    assert state.status() == pyaz.Status.FIRST_PLAYER_WIN
    assert state.termination() == pyaz.RacingKingsTermination.GOAL


def test_white_wins_at_once_when_black_cannot_answer() -> None:
    too_far = _play("8/6K1/8/1k6/8/8/8/8 w - - 0 1", "g7h8")
    assert too_far.status() == pyaz.Status.FIRST_PLAYER_WIN and too_far.legal_actions() == []
    covered = pyaz.RacingKings("R5K1/2k5/8/8/8/8/8/8 b - - 0 1")  # b8, c8, d8 under the rook
    assert covered.status() == pyaz.Status.FIRST_PLAYER_WIN
    assert Board(covered.fen()).outcome() == chess.Outcome(chess.Termination.VARIANT_LOSS, True)


def test_black_wins_by_arriving_first() -> None:
    state = _play("8/1k6/8/8/8/8/6K1/8 b - - 0 1", "b7b8")
    assert state.status() == pyaz.Status.SECOND_PLAYER_WIN
    assert state.termination() == pyaz.RacingKingsTermination.GOAL


def test_moves_that_give_check_are_illegal() -> None:
    state = pyaz.RacingKings("8/8/8/3k4/8/8/8/Q3K2R w - - 0 1")
    legal = set(state.legal_uci())
    for checking in ("a1a2", "a1a5", "a1a8", "a1d1", "h1h5", "h1d1"):
        assert checking not in legal
        with pytest.raises(ValueError, match=f"illegal action .*{checking}"):
            state.clone().push_uci(checking)
    assert {"a1a3", "a1b1", "h1h4", "e1d2"} <= legal


def test_pins_and_discovered_checks() -> None:
    state = pyaz.RacingKings("8/8/8/8/R2N3k/8/1KB4r/8 w - - 0 1")
    moved = {uci[:2] for uci in state.legal_uci()}
    assert "c2" not in moved  # pinned to the king by the rook on h2
    assert "d4" not in moved  # any knight move would uncover the rook's check
    king = pyaz.RacingKings("8/8/8/8/8/R1K4k/8/8 w - - 0 1")  # the king shields a3-h3
    assert {u for u in king.legal_uci() if u.startswith("c3")} == {"c3b3", "c3d3"}


def test_stalemate_is_a_draw() -> None:
    state = pyaz.RacingKings("8/8/8/8/8/8/2Q5/k3K3 b - - 0 1")
    assert state.status() == pyaz.Status.DRAW
    assert state.termination() == pyaz.RacingKingsTermination.STALEMATE


def test_fifty_move_rule_is_automatic_and_captures_reset_it() -> None:
    state = _play("8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 98 1", "h2h3")
    assert not state.is_terminal() and state.halfmove_clock == 99
    state.push_uci("a2a3")
    assert state.termination() == pyaz.RacingKingsTermination.FIFTY_MOVES
    assert state.status() == pyaz.Status.DRAW
    capture = _play("8/8/5B2/3n1b2/3Rn3/7B/kr2N2K/qrb1N1RQ w - - 99 7", "d4d5")
    assert capture.halfmove_clock == 0 and not capture.is_terminal()


def test_threefold_repetition_is_automatic() -> None:
    shuffle = "h2h3 a2a3 h3h2 a3a2"
    state = _play("8/8/8/8/8/8/k6K/8 w - - 0 1", shuffle)
    assert not state.is_terminal()  # the start position has occurred twice
    first_key = state.key
    for uci in shuffle.split():
        state.push_uci(uci)
    assert state.key == first_key
    assert state.termination() == pyaz.RacingKingsTermination.THREEFOLD_REPETITION
    board = Board("8/8/8/8/8/8/k6K/8 w - - 0 1")
    for uci in (shuffle + " " + shuffle).split():
        board.push_uci(uci)
    assert board.is_repetition(3)


def test_zobrist_keys_identify_positions() -> None:
    kings = "8/8/8/8/8/8/k6K/8 w - - 0 1"
    a = _play(kings, "h2h3 a2a3 h3g4 a3b4")
    b = _play(kings, "h2g3 a2b3 g3g4 b3b4")  # the same position by another path
    assert a.key == b.key and a.fen() == b.fen()
    assert a.key != _play(kings, "h2g3 a2b3 g3g4 b3c4").key
    assert a.key != pyaz.RacingKings(kings).key
    assert pyaz.RacingKings(kings).key != pyaz.RacingKings(kings.replace(" w ", " b ")).key
    assert pyaz.RacingKings(a.fen()).key == a.key  # keys come from the position, not the path


# --------------------------------------------------------------------------- text


@pytest.mark.parametrize(("name", "fen", "counts", "fsf_counts"), PERFT_POSITIONS, ids=POSITION_IDS)
def test_fen_round_trip(
    name: str, fen: str, counts: list[int], fsf_counts: list[int] | None
) -> None:
    state = pyaz.RacingKings.from_fen(fen)
    assert state.fen() == fen == Board(fen).fen()
    assert pyaz.RacingKings.from_text(str(state)).fen() == fen
    assert state.to_move() == (0 if " w " in fen else 1)


def test_short_fens_get_defaults() -> None:
    assert pyaz.RacingKings("8/8/8/8/8/8/krbnNBRK/qrbnNBRQ").fen() == STANDARD_FEN
    assert pyaz.RacingKings("8/8/8/8/8/8/krbnNBRK/qrbnNBRQ b").fen().endswith(" b - - 0 1")
    assert pyaz.RacingKings("8/8/8/8/8/8/k6K/8 b - - 3 40").ply == 79


@pytest.mark.parametrize(
    ("fen", "message"),
    [
        ("", "expected 1 to 6 fields"),
        ("8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1 extra", "expected 1 to 6 fields"),
        ("8/8/8/8/8/8/krbnNBRK w - - 0 1", "8 ranks"),
        ("8/8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1", "more than 8 ranks"),
        ("8/8/8/8/8/8/krbnNBRKk/qrbnNBRQ w - - 0 1", "more than 8 squares"),
        ("8/8/8/8/8/8/krbnNBR/qrbnNBRQ w - - 0 1", "does not have 8 squares"),
        ("8/8/8/8/8/8/k6K/44 w - - 0 1", "two digits"),
        ("8/8/8/8/8/8/k6K/7X w - - 0 1", "unexpected character 'X'"),
        ("8/8/8/8/8/8/k6K/8 x - - 0 1", "side to move"),
        ("8/8/8/8/8/8/k6K/8 w KQ - 0 1", "castling"),
        ("8/8/8/8/8/8/k6K/8 w - e3 0 1", "en passant"),
        ("8/8/8/8/8/8/k6K/8 w - - -1 1", "halfmove clock"),
        ("8/8/8/8/8/8/k6K/8 w - - 0 x", "fullmove number"),
        ("8/8/8/8/8/8/k6K/8 w - - 0 0", "at least 1"),
    ],
)
def test_malformed_fens_raise_value_error(fen: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        pyaz.RacingKings.from_fen(fen)


@pytest.mark.parametrize(
    ("fen", "message"),
    [
        ("8/8/8/8/8/8/k6K/7P w - - 0 1", "no pawns"),
        ("8/8/8/8/8/8/k7/8 w - - 0 1", "White must have exactly one king, has 0"),
        ("8/8/8/8/8/8/k5KK/8 w - - 0 1", "White must have exactly one king, has 2"),
        ("8/8/8/8/8/8/kk5K/8 w - - 0 1", "Black must have exactly one king"),
        ("8/8/8/8/8/8/k6K/qq6 w - - 0 1", "Black has 2 queens"),
        ("8/8/8/8/8/8/k6K/5RRR w - - 0 1", "White has 3 rooks"),
        ("8/8/8/8/8/8/k6K/5NNN w - - 0 1", "White has 3 knights"),
        ("8/8/8/8/8/8/k6K/5BBB w - - 0 1", "White has 3 bishops"),
        ("8/8/8/8/8/8/k5RK/8 w - - 0 1", "Black's king is in check"),
        ("8/8/8/8/8/8/k5RK/8 b - - 0 1", "Black's king is in check"),
        ("8/8/8/8/8/8/kK6/8 w - - 0 1", "king is in check"),
        ("8/8/8/8/8/8/q6K/k7 w - - 0 1", "White's king is in check"),
        ("k6K/8/8/8/8/8/8/8 b - - 0 1", "both kings are on the 8th rank"),
    ],
)
def test_impossible_positions_raise_value_error(fen: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        pyaz.RacingKings.from_fen(fen)
    assert not Board(fen).is_valid()  # python-chess agrees


def test_start_option_and_registry() -> None:
    assert pyaz.make("racingkings").fen() == STANDARD_FEN
    assert pyaz.make("racing_kings").fen() == STANDARD_FEN
    assert pyaz.make("Racing Kings", start="racingkings-mod").fen() == MOD_FEN
    assert pyaz.make("racingkings-mod").fen() == MOD_FEN
    assert pyaz.make("racingkings", start="mod").fen() == MOD_FEN
    kings_only = pyaz.make("racingkings", start="8/8/8/8/8/8/k6K/8 w - - 0 1")
    assert kings_only.legal_uci() == ["h2g1", "h2h1", "h2g2", "h2g3", "h2h3"]
    assert pyaz.RacingKings.STANDARD_FEN == STANDARD_FEN and pyaz.RacingKings.MOD_FEN == MOD_FEN
    with pytest.raises(ValueError, match="invalid Racing Kings FEN 'modified'"):
        pyaz.make("racingkings", start="modified")


def test_mod_start_is_accepted_by_fairy_stockfish_and_python_chess(
    fairy_stockfish: FairyStockfish,
) -> None:
    assert Board(MOD_FEN).is_valid()
    assert fairy_stockfish.echo_fen(MOD_FEN) == MOD_FEN
    state = pyaz.make("racingkings-mod")
    assert len(state.legal_actions()) == 16
    pieces = state.piece_board()
    assert (pieces != 0).sum() == 8 and not pieces[:4].any() and not pieces[6:].any()


def test_to_string_shows_board_fen_and_side() -> None:
    text = str(pyaz.make("racingkings"))
    assert text.splitlines()[0].split() == list("abcdefgh")
    assert text.splitlines()[7] == "2 k r b n N B R K"
    assert f"FEN: {STANDARD_FEN}" in text and text.endswith("White to move\n")
    over = str(pyaz.RacingKings("k7/8/8/N7/8/8/8/R3K3 w - - 0 1"))
    assert "game over: Black wins (a king reached the 8th rank)" in over


# --------------------------------------------------------------------------- actions and planes


def test_action_space_is_seed_000s() -> None:
    state = pyaz.make("racingkings")
    assert state.num_actions == 64 * 64 + 88 == 4184
    assert state.planes_shape == (12, 8, 8)
    assert state.str_to_action("e2d4") == 12 * 64 + 27  # from * 64 + to, a1 = 0, h8 = 63
    assert state.uci(12 * 64 + 27) == "e2d4"


def test_every_action_round_trips_through_uci() -> None:
    state = pyaz.make("racingkings")
    texts = [state.uci(a) for a in range(state.num_actions)]
    assert [state.parse_uci(t) for t in texts] == list(range(state.num_actions))
    promotions = texts[4096:]
    assert len(set(promotions)) == 88
    assert promotions[:6] == ["a7a8n", "a7a8q", "a7b8n", "a7b8q", "b7a8n", "b7a8q"]
    assert promotions[-2:] == ["h2h1n", "h2h1q"]
    assert {chess.Move.from_uci(t).promotion for t in promotions} == {chess.KNIGHT, chess.QUEEN}


def test_promotion_slots_are_never_legal() -> None:
    state = pyaz.RacingKings("8/8/8/8/8/8/k6K/8 w - - 0 1")
    assert not any(state.is_legal(a) for a in range(4096, 4184))
    assert not state.legal_mask()[4096:].any()
    with pytest.raises(ValueError, match="illegal action 4096"):
        state.apply(4096)


@pytest.mark.parametrize(
    ("uci", "message"),
    [
        ("", "bad UCI move"),
        ("e2", "bad UCI move"),
        ("e2e9", "bad UCI move"),
        ("i2e4", "bad UCI move"),
        ("0000", "bad UCI move"),
        ("e2e4e5", "bad UCI move"),
        ("a7a8r", "only promotions to a knight"),
        ("a7a8k", "only promotions to a knight"),
        ("a6a7q", "not a pawn promotion move"),
        ("a7c8q", "not a pawn promotion move"),
    ],
)
def test_bad_uci_raises_value_error(uci: str, message: str) -> None:
    state = pyaz.make("racingkings")
    with pytest.raises(ValueError, match=message):
        state.parse_uci(uci)
    with pytest.raises(ValueError, match=message):
        state.push_uci(uci)
    assert state.ply == 0


def test_illegal_uci_is_rejected_without_change() -> None:
    state = pyaz.make("racingkings")
    for uci in ("h2h4", "a2a3", "e1e3", "g2g1", "a7a8q"):
        with pytest.raises(ValueError, match="illegal action"):
            state.push_uci(uci)
    assert state.fen() == STANDARD_FEN
    assert state.push_uci("H2H3") == 15 * 64 + 23 and state.to_move() == 1


def test_legal_actions_are_in_action_order_and_match_the_mask() -> None:
    state = pyaz.RacingKings("4R3/3q4/8/4B3/3R4/1kn2QNb/1rN5/1rbn2K1 w - - 6 16")
    actions = state.legal_actions()
    assert actions == sorted(actions) and len(actions) == 56
    assert np.flatnonzero(state.legal_mask()).tolist() == actions
    assert [state.uci(a) for a in actions] == state.legal_uci()


def test_encode_planes_from_the_side_to_move() -> None:
    state = pyaz.make("racingkings")
    planes = state.encode()
    assert planes.shape == (12, 8, 8) and planes.dtype == np.float32
    pieces = state.piece_board()
    # Plane order K Q R B N P; python-chess piece types 6 5 4 3 2 1.
    for kind, piece_type in enumerate((6, 5, 4, 3, 2, 1)):
        np.testing.assert_array_equal(planes[kind], pieces == piece_type)  # White to move
        np.testing.assert_array_equal(planes[6 + kind], pieces == -piece_type)
    assert planes[1, 7, 7] == 1  # White's queen on h1: row 7 (1st rank), column 7 (h-file)
    state.push_uci("h2h3")
    swapped = state.encode()
    np.testing.assert_array_equal(swapped[0], state.piece_board() == -6)  # Black's king first
    np.testing.assert_array_equal(swapped[6], state.piece_board() == 6)
    assert planes.sum() == 16 and not planes[5].any() and not planes[11].any()


def test_board_and_piece_board_agree() -> None:
    state = pyaz.make("racingkings")
    board = state.board()
    pieces = state.piece_board()
    np.testing.assert_array_equal(board == 1, pieces > 0)
    np.testing.assert_array_equal(board == 2, pieces < 0)
    assert pieces[7].tolist() == [-5, -4, -3, -2, 2, 3, 4, 5]  # 1st rank: qrbnNBRQ
    assert state.piece_at(chess.H2) == 6 and state.piece_at(chess.A2) == -6
    with pytest.raises(ValueError, match=r"not in 0\.\.63"):
        state.piece_at(64)


def _mirror_fen(fen: str) -> str:
    """The FEN with the files mirrored (a <-> h), by python-chess."""
    return Board(fen).transform(chess.flip_horizontal).fen()


@pytest.mark.parametrize(
    ("name", "fen", "counts", "fsf_counts"), PERFT_POSITIONS[:16], ids=POSITION_IDS[:16]
)
def test_mirroring_the_files_is_a_symmetry(
    name: str, fen: str, counts: list[int], fsf_counts: list[int] | None
) -> None:
    state = pyaz.RacingKings(fen)
    mirrored = pyaz.RacingKings(_mirror_fen(fen))
    assert pyaz.num_symmetries(state) == 2
    np.testing.assert_array_equal(
        pyaz.transform_policy(state.legal_mask(), 4, state), mirrored.legal_mask()
    )
    np.testing.assert_array_equal(pyaz.transform_planes(state.encode(), 4), mirrored.encode())
    assert [pyaz.perft(mirrored, d) for d in range(1, 3)] == counts[:2]
    with pytest.raises(ValueError, match="only symmetries 0 and 4"):
        pyaz.transform_policy(state.legal_mask(), 1, state)


def test_random_playouts_and_child_states() -> None:
    state = pyaz.make("racingkings-mod")
    wins, draws, losses = pyaz.random_playouts(state, 2000, seed=7)
    assert wins + draws + losses == 2000 and min(wins, draws, losses) > 0
    assert pyaz.random_playouts(state, 100, seed=3) == pyaz.random_playouts(state, 100, seed=3)
    child = state.child(state.legal_actions()[0])
    assert child.ply == 1 and state.ply == 0
