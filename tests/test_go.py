"""Go rules on hand-made positions: captures, ko, snapback, suicide, superko, passes, scoring.

Boards are written top row first, as str() prints them; GTP vertices name points (column
letters without I, row 1 at the bottom), so on 5x5 "A5" is the top-left corner, action 0.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import pyaz


def stones(state: pyaz.Go, colour: int) -> set[str]:
    """GTP vertices of the stones of colour 1 (Black) or 2 (White)."""
    flat = state.board().ravel()
    return {state.action_to_vertex(int(a)) for a in np.flatnonzero(flat == colour)}


# --------------------------------------------------------------------------- basics


def test_defaults_by_size() -> None:
    nine = pyaz.make("go")
    assert (nine.size, nine.num_actions, nine.pass_action, nine.komi) == (9, 82, 81, 7.5)
    assert nine.max_game_length == 3 * 81
    assert nine.planes_shape == (4, 9, 9)
    assert pyaz.make("go", size=19).komi == 7.5
    # Below 9x9 the default komi is seed 003's 0 (its 5x5 games show "Komi: 0.0").
    assert pyaz.make("go", size=5).komi == 0.0
    assert pyaz.make("go", size=7, komi=9).komi == 9.0
    assert isinstance(pyaz.make("baduk", size=13), pyaz.Go)


@pytest.mark.parametrize("size", [4, 20, 0])
def test_bad_sizes_raise(size: int) -> None:
    with pytest.raises(ValueError, match="between 5 and 19"):
        pyaz.Go(size)


def test_bad_options_raise() -> None:
    with pytest.raises(ValueError, match="max_game_length"):
        pyaz.Go(9, max_game_length=0)
    with pytest.raises(ValueError, match="komi"):
        pyaz.Go(9, komi=float("nan"))


def test_vertex_names() -> None:
    state = pyaz.Go(9)
    assert state.action_to_vertex(0) == "A9"
    assert state.action_to_vertex(8) == "J9"  # no I column
    assert state.action_to_vertex(80) == "J1"
    assert state.action_to_vertex(81) == "pass"
    assert state.vertex_to_action("e5") == state.str_to_action("E5") == 40
    assert state.vertex_to_action("PASS") == 81
    assert pyaz.Go(19).vertex_to_action("T19") == 18
    assert state.action_to_coord(state.vertex_to_action("C7")) == (2, 2)
    with pytest.raises(ValueError, match="skip the letter I"):
        state.vertex_to_action("I5")
    with pytest.raises(ValueError, match="off the 9x9 board"):
        state.vertex_to_action("K5")
    with pytest.raises(ValueError, match="off the 9x9 board"):
        state.vertex_to_action("A10")
    with pytest.raises(ValueError, match="bad Go move"):
        state.vertex_to_action("55")


def test_text_round_trip() -> None:
    state = pyaz.Go(9).play("E5 C3 D3 C4")
    text = str(state)
    assert text.splitlines()[0].split() == list("ABCDEFGHJ")
    assert " 3 . . O X . . . . . 3" in text and " 4 . . O . . . . . . 4" in text
    again = pyaz.Go.from_text(text)
    np.testing.assert_array_equal(again.board(), state.board())
    assert again.to_move() == state.to_move() == 0
    white_to_move = pyaz.Go.from_text(str(pyaz.Go(5).play("C3")))
    assert white_to_move.to_move() == 1 and white_to_move.komi == 0.0


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("X.\n..", "between 5 and 19"),
        (". . . . .\n" * 4, "square"),
        ("X O . . .\nO . . . .\n" + ". . . . .\n" * 3, "A5 has no liberties"),
    ],
)
def test_from_text_validates(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        pyaz.Go.from_text(text)


def test_with_stones_sets_up_a_position() -> None:
    state = pyaz.Go(5, komi=0.5).with_stones(["A1", "B2"], [0, "E5"], to_move=1)
    assert stones(state, 1) == {"A1", "B2"} and stones(state, 2) == {"A5", "E5"}
    assert state.to_move() == 1 and state.ply == 0 and state.komi == 0.5
    with pytest.raises(ValueError, match="given twice"):
        state.with_stones(["A1"], ["A1"])
    with pytest.raises(ValueError, match="not a point"):
        state.with_stones([25], [])
    with pytest.raises(ValueError, match="no liberties"):
        state.with_stones(["A5"], ["B5", "A4"])


def test_encode_planes() -> None:
    state = pyaz.Go(5).play("C3 D3")  # Black to move
    planes = state.encode()
    c3, d3 = (2, 2), (2, 3)
    assert planes.shape == (4, 5, 5) and planes.dtype == np.float32
    assert planes[0][c3] == 1 and planes[1][d3] == 1  # own (Black), then White
    assert planes[2].sum() == 23 and planes[2][c3] == 0
    assert planes[3].min() == 1  # Black to move
    state.play("pass")
    planes = state.encode()
    assert planes[0][d3] == 1 and planes[1][c3] == 1 and planes[3].max() == 0
    np.testing.assert_array_equal(planes[:3].sum(axis=0), np.ones((5, 5)))


def test_history_planes() -> None:
    state = pyaz.Go(5, history=2).play("C3 D3 pass")  # White to move
    planes = state.encode()
    c3, d3 = (2, 2), (2, 3)
    assert state.planes_shape == planes.shape == (8, 5, 5) and state.history == 2
    np.testing.assert_array_equal(planes[:4], pyaz.Go(5).play("C3 D3 pass").encode())
    # One action ago (before the pass) the board was the same; White's view: own, opponent.
    assert planes[4][d3] == 1 and planes[5][c3] == 1 and planes[4:6].sum() == 2
    # Two actions ago only Black's C3 stood.
    assert planes[6].sum() == 0 and planes[7][c3] == 1 and planes[7].sum() == 1
    start = pyaz.Go(5, history=3).with_stones(["A1"], [])
    assert start.encode()[4:].sum() == 0  # nothing before the start
    captured = pyaz.Go(5, history=1).play("A5 B5 C3 A4")  # A4 took A5
    assert captured.encode()[4][0, 0] == 1 and captured.encode()[0][0, 0] == 0
    with pytest.raises(ValueError, match="history"):
        pyaz.Go(5, history=8)


# --------------------------------------------------------------------------- captures


def test_corner_and_edge_captures() -> None:
    state = pyaz.Go(5).play("A5 B5 C3 A4")  # White takes the corner stone
    assert stones(state, 1) == {"C3"} and state.captures == (0, 1)
    assert not state.is_legal(state.vertex_to_action("A5"))  # a lone stone without liberties
    state.play("C5 E1 B4 E2 A5")  # Black takes B5 on the edge; A4 is left in atari
    assert stones(state, 2) == {"A4", "E1", "E2"}
    assert state.captures == (1, 1)


MULTI_CAPTURE = """
. X X X .
X X O X .
X O . O X
. X X X .
. . . . .
"""


def test_one_move_captures_three_groups() -> None:
    state = pyaz.Go.from_text(MULTI_CAPTURE)
    assert state.to_move() == 0
    state.play("C3")
    assert stones(state, 2) == set()
    assert state.captures == (3, 0)
    assert state.ko_action is None  # three stones taken: no ko


def test_a_point_without_liberties_is_legal_only_if_it_captures() -> None:
    state = pyaz.Go.from_text(MULTI_CAPTURE)
    c3 = state.vertex_to_action("C3")
    assert state.is_legal(c3)  # Black: no empty neighbour, but it captures
    state.play("pass")
    assert not state.is_legal(c3)  # White: it would join three chains with no liberty left


KO = """
. X O . .
X O . O .
. X O . .
. . . . .
. . . . .
"""


def test_ko_retake_forbidden_until_a_move_elsewhere() -> None:
    state = pyaz.Go.from_text(KO, komi=0.5)
    state.play("C4")  # Black takes B4
    b4 = state.vertex_to_action("B4")
    assert state.captures == (1, 0) and state.ko_action == b4
    assert not state.is_legal(b4) and b4 not in state.legal_actions()
    with pytest.raises(ValueError, match=r"illegal action .* \(B4\)"):
        state.play("B4")
    state.play("E1 E2")  # a ko threat and its answer
    assert state.ko_action is None and state.is_legal(b4)
    state.play("B4")  # White retakes; now Black may not retake at once
    assert state.captures == (1, 1) and state.ko_action == state.vertex_to_action("C4")
    assert not state.is_legal(state.vertex_to_action("C4"))


def test_a_pass_lifts_the_ko_ban() -> None:
    state = pyaz.Go.from_text(KO, komi=0.5).play("C4")
    state.play("pass")
    assert state.ko_action is None and state.passes == 1


SNAPBACK = """
. . . . .
. . . . .
X X X . .
O O X . .
. . O . .
"""


def test_snapback_is_not_ko() -> None:
    state = pyaz.Go.from_text(SNAPBACK)
    state.play("B1")  # throw-in: self-atari
    state.play("A1")  # White takes the single stone ...
    assert state.captures == (0, 1)
    assert state.ko_action is None  # ... with a stone that joins a chain: no ko
    state.play("B1")  # ... and Black takes back three stones at once
    assert state.captures == (3, 1)
    assert stones(state, 2) == {"C1"}
    assert stones(state, 1) == {"A3", "B3", "C3", "C2", "B1"}


# --------------------------------------------------------------------------- suicide

SUICIDE = """
X . O . .
O O O . .
. . . . .
. . . . .
. . . . .
"""


def test_multi_stone_suicide_is_illegal_by_default() -> None:
    state = pyaz.Go.from_text(SUICIDE)
    b5 = state.vertex_to_action("B5")
    assert not state.is_legal(b5)
    with pytest.raises(ValueError, match="illegal"):
        state.play("B5")


def test_multi_stone_suicide_under_allow_suicide() -> None:
    state = pyaz.Go.from_text(SUICIDE, allow_suicide=True)
    assert state.allow_suicide
    state.play("B5")
    assert stones(state, 1) == set()  # A5 and B5 removed by their own move
    assert state.captures == (0, 2)  # credited to White, as GNU Go counts them
    assert state.to_move() == 1


@pytest.mark.parametrize("allow_suicide", [False, True])
def test_single_stone_suicide_is_never_legal(allow_suicide: bool) -> None:
    # It would leave the board as it was (GNU Go's --allow-suicide forbids it too).
    state = pyaz.Go(5, allow_suicide=allow_suicide).with_stones(["A4", "B5"], [], to_move=1)
    assert not state.is_legal(state.vertex_to_action("A5"))


# --------------------------------------------------------------------------- superko

# Found by random search on 5x5: after these 17 moves White's A3 would take back one stone
# and recreate the board after move 15 (a "send two, return one" shape, not a simple ko).
# GNU Go with --positional-superko agrees (tests/test_go_vs_gnugo.py checks it).
SUPERKO_MOVES = "B3 B2 E1 A3 E4 A1 C4 C5 D5 C3 B4 C1 E3 D4 A5 A4 A2"


def test_superko_forbids_recreating_an_earlier_board() -> None:
    plain = pyaz.Go(5, komi=0.5).play(SUPERKO_MOVES)
    strict = pyaz.Go(5, komi=0.5, superko=True).play(SUPERKO_MOVES)
    a3 = plain.vertex_to_action("A3")
    assert plain.is_legal(a3) and plain.ko_action is None
    assert not strict.is_legal(a3)
    assert a3 not in strict.legal_actions()
    assert set(plain.legal_actions()) - set(strict.legal_actions()) == {a3}
    # Without superko the move recreates the board after move 15 exactly.
    earlier = pyaz.Go(5, komi=0.5).play(SUPERKO_MOVES.split()[:15])
    np.testing.assert_array_equal(plain.child(a3).board(), earlier.board())
    assert plain.child(a3).board_hash == earlier.board_hash


def test_superko_matches_a_brute_force_board_history() -> None:
    """Random 5x5 games: the superko-legal moves are exactly the plain-legal stone moves whose
    resulting board (compared as arrays, not hashes) has not occurred before, plus the pass."""
    rng = random.Random(6)
    restricted = 0
    for _ in range(10):
        state = pyaz.Go(5, superko=True, max_game_length=10**6)
        plain = pyaz.Go(5, max_game_length=10**6)
        seen = {plain.board().tobytes()}
        for _ in range(400):
            legal = plain.legal_actions()
            expected = [a for a in legal[:-1] if plain.child(a).board().tobytes() not in seen]
            restricted += len(legal) - 1 - len(expected)
            assert state.legal_actions() == [*expected, state.pass_action], str(state)
            action = rng.choice(expected) if expected else state.pass_action
            state.apply(action)
            plain.apply(action)
            seen.add(state.board().tobytes())
            if state.is_terminal():
                break
    assert restricted > 0, "no superko restriction came up; the check proved nothing"


# --------------------------------------------------------------------------- end of game


def test_two_passes_end_the_game() -> None:
    state = pyaz.Go(5, komi=0.5).play("C3 pass")
    assert state.passes == 1 and not state.is_terminal()
    state.play("D3")  # a move resets the count
    assert state.passes == 0
    state.play("pass pass")
    assert state.is_terminal() and state.legal_actions() == []
    assert state.status() == pyaz.Status.FIRST_PLAYER_WIN  # B owns the whole board
    assert state.score() == 24.5 and state.area() == (25, 0)
    assert "game over: X wins (B+24.5)" in str(state)
    with pytest.raises(ValueError, match="game is over"):
        state.apply(state.pass_action)


def test_integer_komi_can_draw() -> None:
    state = pyaz.Go(5).play("pass pass")  # 5x5 default komi 0: an empty board is 0 : 0
    assert state.status() == pyaz.Status.DRAW and state.score() == 0.0


def test_max_game_length_ends_and_scores() -> None:
    state = pyaz.Go(5, max_game_length=4).play("C3 pass D4")
    assert not state.is_terminal()
    state.play("pass")
    assert state.is_terminal() and state.ply == 4
    assert state.status() == pyaz.Status.FIRST_PLAYER_WIN


def test_random_games_always_end() -> None:
    # Uniformly random play fills eyes and recaptures forever; the length cap ends it.
    for size in (5, 9, 19):
        wins, draws, losses = pyaz.random_playouts(pyaz.Go(size), 200, seed=size)
        assert wins + draws + losses == 200 and wins > 0 and losses > 0


# --------------------------------------------------------------------------- scoring

SCORING = """
. X O . X
. X O . .
. X O . .
. X O . .
. X O . .
"""


def test_tromp_taylor_area() -> None:
    state = pyaz.Go.from_text(SCORING, komi=0.5)
    # Black: 6 stones + column A (5). White: 5 stones; columns D-E (9 points) touch the
    # Black stone at E5 as well, so they are nobody's (no dead-stone removal in Tromp-Taylor).
    assert state.area() == (11, 5)
    assert state.score() == 11 - 5 - 0.5
    without_e5 = pyaz.Go.from_text(SCORING.replace("X\n", ".\n", 1), komi=0.5)
    assert without_e5.area() == (10, 15)


# --------------------------------------------------------------------------- children


def test_children_and_perft() -> None:
    start = pyaz.Go(5)
    assert pyaz.perft(start, 1) == 26
    assert pyaz.perft(start, 2) == 25 * 25 + 26  # after a stone: 24 points + pass
    state = pyaz.Go.from_text(KO).play("C4")
    legal = state.legal_actions()
    assert pyaz.perft(state, 1) == len(legal)
    assert pyaz.perft(state, 2) == sum(len(state.child(a).legal_actions()) for a in legal)
