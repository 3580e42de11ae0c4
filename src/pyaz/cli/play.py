"""``pyaz-play``: play a game against a pyaz network or any preset of :mod:`pyaz.eval.players`.

The board is drawn before every move of yours (``str(state)``, the last move's cell in brackets:
:func:`mark_last_move`), both your move and the opponent's are echoed ("You play d3", "uct:200
plays c4"), and moves are typed in the game's own
notation (``state.action_to_str``: ``d3`` in Othello and Gomoku, ``4`` in Connect Four, ``C3``
or ``pass`` in Go, UCI ``e3d2`` in Racing Kings). Besides moves: ``help`` lists the legal
moves, ``undo`` takes back your last move and the reply to it, ``resign`` gives up and
``quit`` leaves. Input that is not a legal move is answered with a hint, never a crash; a
hint's example move is a legal move of the position (:func:`not_a_move_hint`).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable

from pyaz.cli import exit_from_main
from pyaz.cli.options import (
    add_game_arguments,
    add_runtime_argument,
    describe_game,
    game_from_args,
    given_game_options,
)
from pyaz.eval import presets
from pyaz.eval.external import EngineError
from pyaz.eval.players import Player, Resignation, close_player
from pyaz.games import GameState, PlayableGameState
from pyaz.games.profiles import profile
from pyaz.nets.shipped import SHIPPED, builtin_spec, shipped_for

HELP_WORDS = ("help", "h", "?", "moves")
UNDO_WORDS = ("undo", "u", "back", "takeback")
QUIT_WORDS = ("quit", "q", "exit")
RESIGN_WORDS = ("resign",)
COMMANDS = "'help' lists the legal moves, 'undo' takes back a move pair, 'resign', 'quit'"
# the example move of a parser's message ("e.g. 'c4'", "such as 'D4'"): a fixed square
_EXAMPLE_MOVE = re.compile(r"(e\.g\.|such as) '[^']*'")


def build_parser() -> argparse.ArgumentParser:
    """The ``pyaz-play`` argument parser."""
    parser = argparse.ArgumentParser(
        prog="pyaz-play",
        description=(
            "Play against a pyaz network (--model) or a preset opponent (--opponent) in the\n"
            "terminal. Moves are typed in the game's notation (Othello/Gomoku d3, Connect Four\n"
            "4, Go C3 or pass, Racing Kings UCI e3d2); 'help' lists the legal moves, 'undo'\n"
            "takes back your last move and the reply, 'resign' and 'quit' end the game."
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=presets.PRESETS_HELP
        + """

examples:
  pyaz-play --game connect_four                         (against UCT, 200 simulations)
  pyaz-play --game othello --size 6 --model runs/o6 --human-second
  pyaz-play --game go --size 9 --opponent gnugo:5
  pyaz-play --game racingkings-mod --opponent lichess:2""",
    )
    add_game_arguments(parser)
    who = parser.add_argument_group("opponent")
    choice = who.add_mutually_exclusive_group()
    choice.add_argument("--model", help="a network: checkpoint file, run folder or TorchScript")
    choice.add_argument(
        "--opponent",
        help="a player preset (default: the network that ships with pyaz for the board, "
        f"model:builtin:NAME, where there is one ({', '.join(sorted(SHIPPED))}), else "
        "uct:SIMULATIONS)",
    )
    who.add_argument(
        "--simulations",
        type=int,
        help=f"search simulations a move for --model (default {presets.DEFAULT_MODEL_SIMULATIONS}"
        ") or the default UCT opponent (default 200)",
    )
    who.add_argument("--seed", type=int, default=0, help="seed of the opponent (default 0)")
    add_runtime_argument(who)
    side = who.add_mutually_exclusive_group()
    side.add_argument("--human-first", action="store_true", help="you move first (default)")
    side.add_argument("--human-second", action="store_true", help="the opponent moves first")
    return parser


def opponent_spec(args: argparse.Namespace) -> str:
    """The preset that the options name."""
    simulations = args.simulations
    if simulations is not None and simulations < 1:
        raise ValueError("--simulations must be at least 1")
    if args.model is not None:
        return f"model:{args.model}:{simulations or presets.DEFAULT_MODEL_SIMULATIONS}"
    if args.opponent is None:  # the network that ships for the board, else UCT
        shipped = shipped_for(str(args.game), given_game_options(args))
        if shipped is not None:
            return builtin_spec(shipped, simulations)
        return f"uct:{simulations or 200}"
    if simulations is None:
        return str(args.opponent)
    kind = presets.spec_kind(args.opponent)
    if kind == "model":
        return presets.with_simulations(args.opponent, simulations)
    if kind == "uct":
        return f"uct:{simulations}"
    raise ValueError(f"--simulations does not apply to {args.opponent!r}")


def side_name(state: GameState, side: int) -> str:
    """How the board names ``side`` (0 moves first): as the state does where it names its sides
    (``side_names``: an OpenSpiel game's, :data:`pyaz.games.openspiel.BOARDS`), else as the
    game's profile does."""
    names = getattr(state, "side_names", None) or profile(str(state.name)).side_names
    return str(names[side])


def _legal_text(state: PlayableGameState, limit: int = 0) -> str:
    moves = [str(state.action_to_str(a)) for a in state.legal_actions()]
    if limit and len(moves) > limit:
        return " ".join(moves[:limit]) + f" ... ({len(moves)} moves; 'help' lists them all)"
    return " ".join(moves)


def not_a_move_hint(state: PlayableGameState, error: ValueError) -> str:
    """The answer to input that is no move: the parser's message ``error``, its example move
    (which may be an occupied square) replaced by a legal move of ``state`` (not a pass where
    another move is legal), then some legal moves."""
    moves = [str(state.action_to_str(a)) for a in state.legal_actions()]
    example = next((move for move in moves if move.lower() != "pass"), moves[0])
    message = _EXAMPLE_MOVE.sub(lambda match: f"{match[1]} '{example}'", str(error))
    return f"Not a move: {message}. Try one of: {_legal_text(state, 12)}"


def result_text(state: GameState, human: int, resigned: int | None = None) -> str:
    """The announcement of the result, from the human's side."""
    if resigned is not None:
        return "You resigned: you lose." if resigned == human else "The opponent resigns: you win!"
    winner, details = outcome(state)
    if winner is None:
        return "Draw." + details
    return ("You win!" if winner == human else "You lose.") + details


def outcome(state: GameState, area: str = " (Tromp-Taylor area)") -> tuple[int | None, str]:
    """The winner of the finished game ``state`` (None: a draw) and its score or ending in
    brackets: `` (B+3.5 (Tromp-Taylor area))`` (``area`` after the score), `` (discs X 40 - O
    24)``, `` (checkmate)``; empty for the other games and a drawn Go game. The game's profile
    names its ending, read from that game's own members (``score()``, ``board()``, ...)."""
    status = state.status().name
    winner = None if status == "DRAW" else 0 if status == "FIRST_PLAYER_WIN" else 1
    ending = profile(str(state.name)).ending
    detail = ""
    if ending == "area score":
        score = float(state.score())  # type: ignore[attr-defined]
        detail = f"{'B' if score > 0 else 'W'}+{abs(score):g}{area}" if score else ""
    elif ending == "disc count":
        board = state.board()  # type: ignore[attr-defined]
        detail = f"discs X {int((board == 1).sum())} - O {int((board == 2).sum())}"
    elif ending == "termination":
        detail = str(state.termination().name).lower().replace("_", " ")  # type: ignore[attr-defined]
    return winner, f" ({detail})" if detail else ""


def mark_last_move(before: str, after: str) -> str:
    """The board drawing ``after`` with the last move's cell in brackets (``[X]``): the cell
    that was empty (``.``) in ``before`` and is not now (a piece placed, a king moved onto an
    empty square), else one that holds another piece now (a capture in Racing Kings). Only
    one-character cells between spaces, on lines of four such cells or more (rows of the
    board), count, so the side to move, coordinates and FEN lines are never marked;
    a pass (nothing placed) marks nothing. A cell at the start of a line shifts the whole
    drawing one column to the right, to make room for its bracket."""
    old_lines, new_lines = before.split("\n"), after.split("\n")
    changed = [  # (not placed, row, column): the first cell placed on, else the first changed
        (was != ".", row, column)
        for row, (old, new) in enumerate(zip(old_lines, new_lines, strict=False))
        if len(old) == len(new) and sum(len(token) == 1 for token in new.split()) >= 4
        for column, (was, now) in enumerate(zip(old, new, strict=True))
        if was != now and now not in " ." and _cell(old, column) and _cell(new, column)
    ]
    if not changed:
        return after
    _, row, column = min(changed)
    if column == 0:
        new_lines = [" " + line if line else line for line in new_lines]
        column = 1
    line = new_lines[row]
    end = line[column + 2 :] if column + 1 < len(line) else ""
    new_lines[row] = f"{line[: column - 1]}[{line[column]}]{end}"
    return "\n".join(new_lines)


def _cell(line: str, column: int) -> bool:
    """Whether ``line[column]`` stands alone between spaces (or the line's ends)."""
    left = column == 0 or line[column - 1] == " "
    right = column + 1 == len(line) or line[column + 1] == " "
    return left and right


def play_session(
    start: PlayableGameState,
    opponent: Player,
    human: int = 0,
    read: Callable[[str], str] | None = None,
    write: Callable[[str], None] = print,
) -> int:
    """Runs one game, the human playing side ``human``; returns 0 (finished or quit).

    ``read`` is called with the prompt and returns a line (default: the built-in ``input``,
    looked up at each call so that tests can replace it); ``write`` prints.
    """
    state = start.clone()
    moves: list[int] = []
    movers: list[int] = []  # who played each move
    before: list[str] = []  # the drawing before each move

    def push(action: int) -> None:
        movers.append(int(state.to_move()))
        before.append(str(state))
        state.apply(action)
        moves.append(action)
        opponent.observe(action)

    def board() -> str:
        """The board, the last move in brackets."""
        drawing = str(state)
        return mark_last_move(before[-1], drawing) if before else drawing

    opponent.reset(start.clone())
    pass_action = int(start.num_actions) - 1
    write(
        f"You play {side_name(start, human)} and move {('first', 'second')[human]}; "
        f"{opponent.name} plays {side_name(start, 1 - human)}. Type a move; {COMMANDS}."
    )
    shown = -1
    while not state.is_terminal():
        mover = int(state.to_move())
        if mover == human and shown != len(moves):
            write(board())
            shown = len(moves)
        if mover != human:
            try:
                action = int(opponent.choose(state.clone()))
            except Resignation:
                write(result_text(state, human, resigned=1 - human))
                return 0
            write(f"{opponent.name} plays {state.action_to_str(action)}")
            push(action)
            continue
        legal = state.legal_actions()
        if profile(str(state.name)).pass_when_stuck and legal == [pass_action]:
            write("You have no move and must pass.")
            push(pass_action)
            continue
        try:
            line = (read or input)(f"{side_name(state, human)} to move> ")
        except EOFError:
            write("\nBye.")
            return 0
        text = line.strip()
        word = text.lower()
        if not text:
            write(f"Type a move (e.g. {_legal_text(state, 3)}); {COMMANDS}.")
        elif word in HELP_WORDS:
            write(f"Legal moves: {_legal_text(state)}")
            write(f"Commands: {COMMANDS}.")
        elif word in QUIT_WORDS:
            write("Game abandoned.")
            return 0
        elif word in RESIGN_WORDS:
            write(result_text(state, human, resigned=human))
            return 0
        elif word in UNDO_WORDS:
            if human not in movers:
                write("Nothing to undo yet.")
                continue
            keep = len(movers) - 1 - movers[::-1].index(human)
            replay = moves[:keep]
            del moves[:], movers[:], before[:]
            state = start.clone()
            opponent.reset(start.clone())
            for action in replay:
                push(action)
            write("Took back your last move and the reply.")
            shown = -1
        else:
            try:
                action = int(state.str_to_action(text))
            except ValueError as error:
                write(not_a_move_hint(state, error))
                continue
            if not state.is_legal(action):
                write(f"{text} is not legal here. Legal moves: {_legal_text(state, 12)}")
                continue
            write(f"You play {state.action_to_str(action)}")
            push(action)
    write(board())
    write(f"Game over after {state.ply - start.ply} moves. {result_text(state, human)}")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``pyaz-play``; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        name, options, start = game_from_args(args)
        spec = opponent_spec(args)
    except (ValueError, TypeError) as error:
        parser.error(str(error))
    if not isinstance(start, PlayableGameState):
        parser.error(
            f"{name} has no moves to type (its actions have no text): play it on the board, "
            "pyaz-board"
        )
    try:
        opponent = presets.make_player(spec, start, seed=args.seed, runtime=args.runtime)
    except (ValueError, TypeError, OSError, RuntimeError) as error:
        print(f"pyaz-play: {error}", file=sys.stderr)
        return 2
    print(f"{describe_game(name, options)}: you against {spec}")
    try:
        return play_session(start, opponent, int(args.human_second))
    except KeyboardInterrupt:
        print("\nGame abandoned.")
        return 130
    except (EngineError, RuntimeError) as error:
        print(f"pyaz-play: the opponent failed: {error}", file=sys.stderr)
        return 1
    except ValueError as error:  # the opponent refused the game at its start
        print(f"pyaz-play: {error}", file=sys.stderr)
        return 2
    finally:
        close_player(opponent)


if __name__ == "__main__":
    exit_from_main(main)
