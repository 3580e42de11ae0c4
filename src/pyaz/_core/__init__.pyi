"""
pyaz C++ core: game rules, perft, random playouts and tree search.
"""
from __future__ import annotations
import collections.abc
import numpy
import numpy.typing
import typing
from . import curling
__all__: list[str] = ['ConnectFour', 'ConnectFourSearch', 'ConnectFourSolver', 'Go', 'GoSearch', 'Gomoku', 'GomokuMentor', 'GomokuSearch', 'Othello', 'OthelloSearch', 'PythonGameSearch', 'RacingKings', 'RacingKingsSearch', 'RacingKingsTermination', 'Status', 'TicTacToe', 'TicTacToeSearch', 'check_self_play', 'curling', 'go_policy_play', 'perft', 'random_game_lengths', 'random_playouts', 'search_defaults', 'self_play', 'self_play_defaults']
class Status:
    """
    Game outcome, or ONGOING.
    
    Members:
    
      ONGOING
    
      DRAW
    
      FIRST_PLAYER_WIN
    
      SECOND_PLAYER_WIN
    """
    DRAW: typing.ClassVar[Status]
    FIRST_PLAYER_WIN: typing.ClassVar[Status]
    ONGOING: typing.ClassVar[Status]
    SECOND_PLAYER_WIN: typing.ClassVar[Status]
    __members__: typing.ClassVar[dict[str, Status]]
    @typing.overload
    def __eq__(self, other: Status) -> bool:
        ...
    @typing.overload
    def __eq__(self, other: typing.Any) -> bool:
        ...
    def __getstate__(self) -> int:
        ...
    def __hash__(self) -> int:
        ...
    def __index__(self) -> int:
        ...
    def __init__(self, value: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def __int__(self) -> int:
        ...
    @typing.overload
    def __ne__(self, other: Status) -> bool:
        ...
    @typing.overload
    def __ne__(self, other: typing.Any) -> bool:
        ...
    def __repr__(self) -> str:
        ...
    def __setstate__(self, state: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def __str__(self) -> str:
        ...
    @property
    def name(self) -> str:
        ...
    @property
    def value(self) -> int:
        ...
class Othello:
    """
    Othello/Reversi on an n x n board (4..8). Actions r*n + c; n*n is the pass, legal only when the side to move has no placement. Odd sizes put the start block on rows/columns n//2-1 and n//2.
    """
    @staticmethod
    def from_text(text: str) -> Othello:
        """
        Parses a board (str() output or rows of '.XO'); 'O to move' in the text sets the side, otherwise X (Black) is to move.
        """
    def __copy__(self) -> Othello:
        ...
    def __deepcopy__(self, memo: dict) -> Othello:
        ...
    def __init__(self, size: typing.SupportsInt | typing.SupportsIndex = 8) -> None:
        ...
    def __repr__(self) -> str:
        ...
    def __str__(self) -> str:
        ...
    def action_to_coord(self, action: typing.SupportsInt | typing.SupportsIndex) -> tuple[int, int]:
        """
        (row, col) of a board action; row 0 is the top.
        """
    def action_to_str(self, action: typing.SupportsIndex) -> str:
        ...
    def apply(self, action: typing.SupportsIndex) -> None:
        """
        Applies a legal action in place; ValueError if it is illegal or the game is over.
        """
    def board(self) -> numpy.typing.NDArray[numpy.int8]:
        """
        int8 (H, W): 0 empty, 1 first player, 2 second player; row 0 is the top.
        """
    def child(self, action: typing.SupportsIndex) -> Othello:
        """
        A new state with the action applied; this one is unchanged.
        """
    def clone(self) -> Othello:
        ...
    def coord_to_action(self, row: typing.SupportsInt | typing.SupportsIndex, col: typing.SupportsInt | typing.SupportsIndex) -> int:
        ...
    def disc_count(self, player: typing.SupportsInt | typing.SupportsIndex) -> int:
        ...
    def encode(self) -> numpy.typing.NDArray[numpy.float32]:
        """
        Network input, float32 (C, H, W), from the side to move's point of view.
        """
    def is_legal(self, action: typing.SupportsIndex) -> bool:
        ...
    def is_terminal(self) -> bool:
        ...
    def legal_actions(self) -> list[int]:
        """
        Legal actions, ascending; empty when the game is over.
        """
    def legal_mask(self) -> numpy.typing.NDArray[numpy.bool]:
        """
        Boolean mask over the action space.
        """
    def play(self, moves: typing.Any) -> Othello:
        """
        Applies a move list (a string such as 'd3 c3' or a sequence of ints/strs); all or nothing: on an illegal move the state is unchanged and ValueError names the move.
        """
    def status(self) -> Status:
        ...
    def str_to_action(self, text: str) -> int:
        ...
    def to_move(self) -> int:
        """
        0: the first player (X, Black); 1: the second (O, White).
        """
    @property
    def board_shape(self) -> tuple[int, int]:
        ...
    @property
    def has_score(self) -> bool:
        """
        Whether self-play records a final score margin (Othello, Go) beside the outcome.
        """
    @property
    def name(self) -> str:
        ...
    @property
    def num_actions(self) -> int:
        """
        Size of the action space.
        """
    @property
    def pass_action(self) -> int:
        ...
    @property
    def planes_shape(self) -> tuple[int, int, int]:
        """
        Shape (C, H, W) of encode().
        """
    @property
    def ply(self) -> int:
        """
        Number of actions applied so far.
        """
    @property
    def size(self) -> int:
        ...
class ConnectFour:
    """
    Connect Four, width x height with width*(height+1) <= 64. Actions are columns 0..width-1.
    """
    @staticmethod
    def from_text(text: str) -> ConnectFour:
        ...
    def __copy__(self) -> ConnectFour:
        ...
    def __deepcopy__(self, memo: dict) -> ConnectFour:
        ...
    def __init__(self, width: typing.SupportsInt | typing.SupportsIndex = 7, height: typing.SupportsInt | typing.SupportsIndex = 6) -> None:
        ...
    def __repr__(self) -> str:
        ...
    def __str__(self) -> str:
        ...
    def action_to_str(self, action: typing.SupportsIndex) -> str:
        ...
    def apply(self, action: typing.SupportsIndex) -> None:
        """
        Applies a legal action in place; ValueError if it is illegal or the game is over.
        """
    def board(self) -> numpy.typing.NDArray[numpy.int8]:
        """
        int8 (H, W): 0 empty, 1 first player, 2 second player; row 0 is the top.
        """
    def child(self, action: typing.SupportsIndex) -> ConnectFour:
        """
        A new state with the action applied; this one is unchanged.
        """
    def clone(self) -> ConnectFour:
        ...
    def encode(self) -> numpy.typing.NDArray[numpy.float32]:
        """
        Network input, float32 (C, H, W), from the side to move's point of view.
        """
    def is_legal(self, action: typing.SupportsIndex) -> bool:
        ...
    def is_terminal(self) -> bool:
        ...
    def legal_actions(self) -> list[int]:
        """
        Legal actions, ascending; empty when the game is over.
        """
    def legal_mask(self) -> numpy.typing.NDArray[numpy.bool]:
        """
        Boolean mask over the action space.
        """
    def play(self, moves: typing.Any) -> ConnectFour:
        """
        Applies a move list (a string such as 'd3 c3' or a sequence of ints/strs); all or nothing: on an illegal move the state is unchanged and ValueError names the move.
        """
    def status(self) -> Status:
        ...
    def str_to_action(self, text: str) -> int:
        ...
    def to_move(self) -> int:
        """
        0: the first player (X, Black); 1: the second (O, White).
        """
    @property
    def board_shape(self) -> tuple[int, int]:
        ...
    @property
    def has_score(self) -> bool:
        """
        Whether self-play records a final score margin (Othello, Go) beside the outcome.
        """
    @property
    def name(self) -> str:
        ...
    @property
    def num_actions(self) -> int:
        """
        Size of the action space.
        """
    @property
    def planes_shape(self) -> tuple[int, int, int]:
        """
        Shape (C, H, W) of encode().
        """
    @property
    def ply(self) -> int:
        """
        Number of actions applied so far.
        """
class Gomoku:
    """
    Gomoku/Gobang on an n x n board (5..15); line_length in a row wins; with overline_wins=False only exactly line_length wins.
    """
    @staticmethod
    def from_planes(planes: typing.Annotated[numpy.typing.ArrayLike, numpy.float32], line_length: typing.SupportsInt | typing.SupportsIndex = 5, overline_wins: bool = True) -> Gomoku:
        """
        The position of a network input (encode()'s planes, (C >= 2, n, n)): plane 0 the side to move's stones, plane 1 the opponent's (a stone above 0.5); X has as many stones as O, or one more. The last move is not restored. ValueError for another shape or a position no game reaches.
        """
    @staticmethod
    def from_text(text: str, line_length: typing.SupportsInt | typing.SupportsIndex = 5, overline_wins: bool = True) -> Gomoku:
        ...
    def __copy__(self) -> Gomoku:
        ...
    def __deepcopy__(self, memo: dict) -> Gomoku:
        ...
    def __init__(self, size: typing.SupportsInt | typing.SupportsIndex = 15, line_length: typing.SupportsInt | typing.SupportsIndex = 5, overline_wins: bool = True) -> None:
        ...
    def __repr__(self) -> str:
        ...
    def __str__(self) -> str:
        ...
    def action_to_coord(self, action: typing.SupportsInt | typing.SupportsIndex) -> tuple[int, int]:
        """
        (row, col) of a board action; row 0 is the top.
        """
    def action_to_str(self, action: typing.SupportsIndex) -> str:
        ...
    def apply(self, action: typing.SupportsIndex) -> None:
        """
        Applies a legal action in place; ValueError if it is illegal or the game is over.
        """
    def board(self) -> numpy.typing.NDArray[numpy.int8]:
        """
        int8 (H, W): 0 empty, 1 first player, 2 second player; row 0 is the top.
        """
    def child(self, action: typing.SupportsIndex) -> Gomoku:
        """
        A new state with the action applied; this one is unchanged.
        """
    def clone(self) -> Gomoku:
        ...
    def coord_to_action(self, row: typing.SupportsInt | typing.SupportsIndex, col: typing.SupportsInt | typing.SupportsIndex) -> int:
        ...
    def encode(self) -> numpy.typing.NDArray[numpy.float32]:
        """
        Network input, float32 (C, H, W), from the side to move's point of view.
        """
    def is_legal(self, action: typing.SupportsIndex) -> bool:
        ...
    def is_terminal(self) -> bool:
        ...
    def legal_actions(self) -> list[int]:
        """
        Legal actions, ascending; empty when the game is over.
        """
    def legal_mask(self) -> numpy.typing.NDArray[numpy.bool]:
        """
        Boolean mask over the action space.
        """
    def play(self, moves: typing.Any) -> Gomoku:
        """
        Applies a move list (a string such as 'd3 c3' or a sequence of ints/strs); all or nothing: on an illegal move the state is unchanged and ValueError names the move.
        """
    def status(self) -> Status:
        ...
    def str_to_action(self, text: str) -> int:
        ...
    def to_move(self) -> int:
        """
        0: the first player (X, Black); 1: the second (O, White).
        """
    @property
    def board_shape(self) -> tuple[int, int]:
        ...
    @property
    def has_score(self) -> bool:
        """
        Whether self-play records a final score margin (Othello, Go) beside the outcome.
        """
    @property
    def last_action(self) -> typing.Any:
        ...
    @property
    def line_length(self) -> int:
        ...
    @property
    def name(self) -> str:
        ...
    @property
    def num_actions(self) -> int:
        """
        Size of the action space.
        """
    @property
    def overline_wins(self) -> bool:
        ...
    @property
    def planes_shape(self) -> tuple[int, int, int]:
        """
        Shape (C, H, W) of encode().
        """
    @property
    def ply(self) -> int:
        """
        Number of actions applied so far.
        """
    @property
    def size(self) -> int:
        ...
class Go:
    """
    Go on an n x n board (5..19) with Tromp-Taylor area scoring. Actions r*n + c (row 0 at the top), n*n is the pass; moves as text are GTP vertices ('D4': column letters without I, row numbers from 1 at the bottom) or 'pass'. Suicide is illegal unless allow_suicide (then multi-stone suicide is legal); simple ko always; superko=True adds positional superko. Two consecutive passes, or max_game_length actions (default 3*n*n), end the game. komi defaults to 7.5 from 9x9 up and 0 below. encode() gives own, opponent, empty and Black-to-move planes, then own/opponent planes for each of `history` earlier positions.
    """
    @staticmethod
    def default_komi(size: typing.SupportsInt | typing.SupportsIndex) -> float:
        ...
    @staticmethod
    def default_max_game_length(size: typing.SupportsInt | typing.SupportsIndex) -> int:
        ...
    @staticmethod
    def from_sgf(text: str, *, superko: bool = False, allow_suicide: bool = False, max_game_length: int | None = None, history: int = 0) -> Go:
        """
        The position at the end of an SGF record's main line (komi and size from the record).
        """
    @staticmethod
    def from_text(text: str, komi: typing.SupportsFloat | typing.SupportsIndex | None = None, superko: bool = False, allow_suicide: bool = False, max_game_length: typing.SupportsInt | typing.SupportsIndex | None = None, history: typing.SupportsInt | typing.SupportsIndex = 0) -> Go:
        """
        Parses a board (str() output or rows of '.XO'); 'O to move' in the text sets the side, otherwise Black is to move.
        """
    def __copy__(self) -> Go:
        ...
    def __deepcopy__(self, memo: dict) -> Go:
        ...
    def __init__(self, size: typing.SupportsInt | typing.SupportsIndex = 9, komi: typing.SupportsFloat | typing.SupportsIndex | None = None, superko: bool = False, allow_suicide: bool = False, max_game_length: typing.SupportsInt | typing.SupportsIndex | None = None, history: typing.SupportsInt | typing.SupportsIndex = 0) -> None:
        ...
    def __repr__(self) -> str:
        ...
    def __str__(self) -> str:
        ...
    def action_to_coord(self, action: typing.SupportsInt | typing.SupportsIndex) -> tuple[int, int]:
        """
        (row, col) of a board action; row 0 is the top.
        """
    def action_to_str(self, action: typing.SupportsIndex) -> str:
        ...
    def action_to_vertex(self, action: typing.SupportsInt | typing.SupportsIndex) -> str:
        """
        GTP vertex of an action: 'D4' or 'pass'.
        """
    def apply(self, action: typing.SupportsIndex) -> None:
        """
        Applies a legal action in place; ValueError if it is illegal or the game is over.
        """
    def area(self) -> tuple[int, int]:
        """
        (Black, White) Tromp-Taylor area: stones plus empty regions reaching only that colour.
        """
    def board(self) -> numpy.typing.NDArray[numpy.int8]:
        """
        int8 (H, W): 0 empty, 1 first player, 2 second player; row 0 is the top.
        """
    def child(self, action: typing.SupportsIndex) -> Go:
        """
        A new state with the action applied; this one is unchanged.
        """
    def clone(self) -> Go:
        ...
    def coord_to_action(self, row: typing.SupportsInt | typing.SupportsIndex, col: typing.SupportsInt | typing.SupportsIndex) -> int:
        ...
    def encode(self) -> numpy.typing.NDArray[numpy.float32]:
        """
        Network input, float32 (C, H, W), from the side to move's point of view.
        """
    def is_legal(self, action: typing.SupportsIndex) -> bool:
        ...
    def is_terminal(self) -> bool:
        ...
    def legal_actions(self) -> list[int]:
        """
        Legal actions, ascending; empty when the game is over.
        """
    def legal_mask(self) -> numpy.typing.NDArray[numpy.bool]:
        """
        Boolean mask over the action space.
        """
    def play(self, moves: typing.Any) -> Go:
        """
        Applies a move list (a string such as 'd3 c3' or a sequence of ints/strs); all or nothing: on an illegal move the state is unchanged and ValueError names the move.
        """
    def score(self) -> float:
        """
        Tromp-Taylor area score now: Black's area minus White's minus komi.
        """
    def status(self) -> Status:
        ...
    def str_to_action(self, text: str) -> int:
        ...
    def to_move(self) -> int:
        """
        0: the first player (X, Black); 1: the second (O, White).
        """
    def to_sgf(self, moves: collections.abc.Sequence[int | str] = tuple(), result: str | None = None) -> str:
        """
        SGF record starting at ``state`` (its stones become AB/AW setup) followed by ``moves``.
        
            ``moves`` are actions or GTP vertices played from ``state`` (checked for legality). RE is
            ``result`` if given, else the score when the moves end the game.
            
        """
    def vertex_to_action(self, vertex: str) -> int:
        """
        Action of a GTP vertex ('D4', case-insensitive) or 'pass'.
        """
    def with_stones(self, black: collections.abc.Iterable, white: collections.abc.Iterable = [], to_move: typing.SupportsInt | typing.SupportsIndex = 0) -> Go:
        """
        A start position with these rules and only the given stones (actions or vertices), `to_move` (0 Black, 1 White) to play; ValueError on overlaps or chains without liberties.
        """
    @property
    def allow_suicide(self) -> bool:
        ...
    @property
    def board_hash(self) -> int:
        """
        Zobrist hash of the stones (the key of positional superko).
        """
    @property
    def board_shape(self) -> tuple[int, int]:
        ...
    @property
    def captures(self) -> tuple[int, int]:
        """
        (stones captured by Black, by White); suicided stones count for the opponent.
        """
    @property
    def has_score(self) -> bool:
        """
        Whether self-play records a final score margin (Othello, Go) beside the outcome.
        """
    @property
    def history(self) -> int:
        """
        Earlier positions in encode() (two planes each, 0..7).
        """
    @property
    def ko_action(self) -> typing.Any:
        """
        The point that simple ko forbids to the side to move, or None.
        """
    @property
    def komi(self) -> float:
        ...
    @property
    def max_game_length(self) -> int:
        """
        Actions (passes included) after which the game is scored.
        """
    @property
    def name(self) -> str:
        ...
    @property
    def num_actions(self) -> int:
        """
        Size of the action space.
        """
    @property
    def pass_action(self) -> int:
        ...
    @property
    def passes(self) -> int:
        """
        Consecutive passes just played (two end the game).
        """
    @property
    def planes_shape(self) -> tuple[int, int, int]:
        """
        Shape (C, H, W) of encode().
        """
    @property
    def ply(self) -> int:
        """
        Number of actions applied so far.
        """
    @property
    def size(self) -> int:
        ...
    @property
    def superko(self) -> bool:
        """
        Positional superko in force.
        """
class TicTacToe:
    """
    Tic-tac-toe in C++, registered as 'tictactoe_cpp': the tutorial's game written in Python (pyaz.games.examples.tictactoe, registered as 'tictactoe') ported for speed, with the same actions, moves and planes. Actions are the cells r*3 + c from the top left, written 'a1' (top left) to 'c3'; X moves first.
    """
    @staticmethod
    def from_text(text: str) -> TicTacToe:
        """
        Parses a board (str() output or three rows of '.XO'); the mark counts say who is to move.
        """
    def __copy__(self) -> TicTacToe:
        ...
    def __deepcopy__(self, memo: dict) -> TicTacToe:
        ...
    def __init__(self) -> None:
        ...
    def __repr__(self) -> str:
        ...
    def __str__(self) -> str:
        ...
    def action_to_coord(self, action: typing.SupportsInt | typing.SupportsIndex) -> tuple[int, int]:
        """
        (row, col) of a board action; row 0 is the top.
        """
    def action_to_str(self, action: typing.SupportsIndex) -> str:
        ...
    def apply(self, action: typing.SupportsIndex) -> None:
        """
        Applies a legal action in place; ValueError if it is illegal or the game is over.
        """
    def board(self) -> numpy.typing.NDArray[numpy.int8]:
        """
        int8 (H, W): 0 empty, 1 first player, 2 second player; row 0 is the top.
        """
    def child(self, action: typing.SupportsIndex) -> TicTacToe:
        """
        A new state with the action applied; this one is unchanged.
        """
    def clone(self) -> TicTacToe:
        ...
    def coord_to_action(self, row: typing.SupportsInt | typing.SupportsIndex, col: typing.SupportsInt | typing.SupportsIndex) -> int:
        ...
    def encode(self) -> numpy.typing.NDArray[numpy.float32]:
        """
        Network input, float32 (C, H, W), from the side to move's point of view.
        """
    def is_legal(self, action: typing.SupportsIndex) -> bool:
        ...
    def is_terminal(self) -> bool:
        ...
    def legal_actions(self) -> list[int]:
        """
        Legal actions, ascending; empty when the game is over.
        """
    def legal_mask(self) -> numpy.typing.NDArray[numpy.bool]:
        """
        Boolean mask over the action space.
        """
    def play(self, moves: typing.Any) -> TicTacToe:
        """
        Applies a move list (a string such as 'd3 c3' or a sequence of ints/strs); all or nothing: on an illegal move the state is unchanged and ValueError names the move.
        """
    def status(self) -> Status:
        ...
    def str_to_action(self, text: str) -> int:
        ...
    def to_move(self) -> int:
        """
        0: the first player (X, Black); 1: the second (O, White).
        """
    @property
    def board_shape(self) -> tuple[int, int]:
        ...
    @property
    def has_score(self) -> bool:
        """
        Whether self-play records a final score margin (Othello, Go) beside the outcome.
        """
    @property
    def name(self) -> str:
        ...
    @property
    def num_actions(self) -> int:
        """
        Size of the action space.
        """
    @property
    def planes_shape(self) -> tuple[int, int, int]:
        """
        Shape (C, H, W) of encode().
        """
    @property
    def ply(self) -> int:
        """
        Number of actions applied so far.
        """
    @property
    def size(self) -> int:
        ...
class RacingKingsTermination:
    """
    Why a Racing Kings game ended.
    
    Members:
    
      NONE : the game is still going
    
      GOAL : a king reached the 8th rank and won (White's only when Black could not answer)
    
      GOAL_DRAW : White reached the 8th rank and Black answered by reaching it too
    
      STALEMATE
    
      FIFTY_MOVES : 100 plies without a capture (automatic)
    
      THREEFOLD_REPETITION : the position occurred for the third time (automatic)
    """
    FIFTY_MOVES: typing.ClassVar[RacingKingsTermination]
    GOAL: typing.ClassVar[RacingKingsTermination]
    GOAL_DRAW: typing.ClassVar[RacingKingsTermination]
    NONE: typing.ClassVar[RacingKingsTermination]
    STALEMATE: typing.ClassVar[RacingKingsTermination]
    THREEFOLD_REPETITION: typing.ClassVar[RacingKingsTermination]
    __members__: typing.ClassVar[dict[str, RacingKingsTermination]]
    @typing.overload
    def __eq__(self, other: RacingKingsTermination) -> bool:
        ...
    @typing.overload
    def __eq__(self, other: typing.Any) -> bool:
        ...
    def __getstate__(self) -> int:
        ...
    def __hash__(self) -> int:
        ...
    def __index__(self) -> int:
        ...
    def __init__(self, value: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def __int__(self) -> int:
        ...
    @typing.overload
    def __ne__(self, other: RacingKingsTermination) -> bool:
        ...
    @typing.overload
    def __ne__(self, other: typing.Any) -> bool:
        ...
    def __repr__(self) -> str:
        ...
    def __setstate__(self, state: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def __str__(self) -> str:
        ...
    @property
    def name(self) -> str:
        ...
    @property
    def value(self) -> int:
        ...
class RacingKings:
    """
    Racing Kings (lichess rules): no move may give check; the first king on the 8th rank wins, but Black draws by answering White's arrival with its own. Stalemate, the 50-move rule and threefold repetition are automatic draws. Actions: from * 64 + to (a1 = 0, h8 = 63), then 88 promotion slots that never occur (4184 in all).
    """
    MOD_FEN: typing.ClassVar[str] = '8/8/8/8/2krRK2/2nbBN2/8/8 w - - 0 1'
    STANDARD_FEN: typing.ClassVar[str] = '8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1'
    @staticmethod
    def from_fen(fen: str) -> RacingKings:
        """
        Parses a FEN; ValueError if it is malformed or the position is impossible.
        """
    @staticmethod
    def from_text(text: str) -> RacingKings:
        """
        Parses a FEN, or text with a 'FEN: ...' line (the str() output).
        """
    def __copy__(self) -> RacingKings:
        ...
    def __deepcopy__(self, memo: dict) -> RacingKings:
        ...
    def __init__(self, start: str = 'standard') -> None:
        """
        start: 'standard', 'racingkings-mod' (seed 000's modified start; also 'mod') or a FEN.
        """
    def __repr__(self) -> str:
        ...
    def __str__(self) -> str:
        ...
    def action_to_str(self, action: typing.SupportsIndex) -> str:
        ...
    def apply(self, action: typing.SupportsIndex) -> None:
        """
        Applies a legal action in place; ValueError if it is illegal or the game is over.
        """
    def board(self) -> numpy.typing.NDArray[numpy.int8]:
        """
        int8 (H, W): 0 empty, 1 first player, 2 second player; row 0 is the top.
        """
    def child(self, action: typing.SupportsIndex) -> RacingKings:
        """
        A new state with the action applied; this one is unchanged.
        """
    def clone(self) -> RacingKings:
        ...
    def encode(self) -> numpy.typing.NDArray[numpy.float32]:
        """
        Network input, float32 (C, H, W), from the side to move's point of view.
        """
    def fen(self) -> str:
        ...
    def is_legal(self, action: typing.SupportsIndex) -> bool:
        ...
    def is_terminal(self) -> bool:
        ...
    def legal_actions(self) -> list[int]:
        """
        Legal actions, ascending; empty when the game is over.
        """
    def legal_mask(self) -> numpy.typing.NDArray[numpy.bool]:
        """
        Boolean mask over the action space.
        """
    def legal_uci(self) -> list[str]:
        """
        Legal moves as UCI text, in action order.
        """
    def parse_uci(self, uci: str) -> int:
        """
        The action of a UCI move (legality not checked); ValueError on bad text.
        """
    def piece_at(self, square: typing.SupportsInt | typing.SupportsIndex) -> int:
        """
        Piece on a square (a1 = 0); see piece_board().
        """
    def piece_board(self) -> numpy.typing.NDArray[numpy.int8]:
        """
        int8 (8, 8), row 0 = 8th rank: python-chess piece types (2 knight .. 6 king), positive for White, negative for Black, 0 empty.
        """
    def play(self, moves: typing.Any) -> RacingKings:
        """
        Applies a move list (a string such as 'd3 c3' or a sequence of ints/strs); all or nothing: on an illegal move the state is unchanged and ValueError names the move.
        """
    def push_uci(self, uci: str) -> int:
        """
        Applies a legal UCI move in place and returns its action; ValueError otherwise.
        """
    def status(self) -> Status:
        ...
    def str_to_action(self, text: str) -> int:
        ...
    def termination(self) -> RacingKingsTermination:
        """
        Why the game ended (NONE while it goes on).
        """
    def to_move(self) -> int:
        """
        0: the first player (X, Black); 1: the second (O, White).
        """
    def uci(self, action: typing.SupportsInt | typing.SupportsIndex) -> str:
        """
        UCI text of an action.
        """
    @property
    def board_shape(self) -> tuple[int, int]:
        ...
    @property
    def fullmove_number(self) -> int:
        ...
    @property
    def halfmove_clock(self) -> int:
        """
        Plies since the last capture (the 50-move rule's counter).
        """
    @property
    def has_score(self) -> bool:
        """
        Whether self-play records a final score margin (Othello, Go) beside the outcome.
        """
    @property
    def key(self) -> int:
        """
        Zobrist key of the position.
        """
    @property
    def name(self) -> str:
        ...
    @property
    def num_actions(self) -> int:
        """
        Size of the action space.
        """
    @property
    def planes_shape(self) -> tuple[int, int, int]:
        """
        Shape (C, H, W) of encode().
        """
    @property
    def ply(self) -> int:
        """
        Number of actions applied so far.
        """
class OthelloSearch:
    def __init__(self, state: Othello, **kwargs) -> None:
        ...
    def advance(self, action: typing.SupportsIndex) -> None:
        ...
    def choose_action(self, temperature: float = 0.0, seed: typing.SupportsIndex = 0) -> int:
        ...
    def improved_policy(self) -> numpy.typing.NDArray[numpy.float32]:
        """
        Gumbel's improved policy softmax(logits + sigma(completed Q)) over the root's actions.
        """
    def policy(self, temperature: float = 1.0) -> numpy.typing.NDArray[numpy.float32]:
        ...
    def policy_target(self) -> numpy.typing.NDArray[numpy.float32]:
        """
        The policy target self-play records for the root.
        """
    def principal_variation(self, max_depth: typing.SupportsInt | typing.SupportsIndex) -> list[int]:
        """
        The most visited line from the root (each expanded node's most visited child), at most max_depth moves.
        """
    def priors(self) -> numpy.typing.NDArray[numpy.float32]:
        ...
    def proven_value(self) -> int | None:
        """
        The solver's proven result of the root for the player to move: 1, 0, -1 or None.
        """
    def pruned_visit_counts(self) -> numpy.typing.NDArray[numpy.int32]:
        """
        The root's visit counts after KataGo's policy target pruning (forced playouts).
        """
    def q_values(self) -> numpy.typing.NDArray[numpy.float32]:
        ...
    def run(self, simulations: typing.SupportsIndex, evaluator: typing.Any = 'uniform') -> None:
        ...
    def set_root(self, state: Othello) -> None:
        ...
    def visit_counts(self) -> numpy.typing.NDArray[numpy.int32]:
        ...
    @property
    def collisions(self) -> int:
        ...
    @property
    def pending_visits(self) -> int:
        ...
    @property
    def root_state(self) -> Othello:
        ...
    @property
    def root_value(self) -> float:
        ...
    @property
    def root_visits(self) -> int:
        ...
    @property
    def tree_full(self) -> bool:
        ...
    @property
    def tree_size(self) -> int:
        ...
class ConnectFourSearch:
    def __init__(self, state: ConnectFour, **kwargs) -> None:
        ...
    def advance(self, action: typing.SupportsIndex) -> None:
        ...
    def choose_action(self, temperature: float = 0.0, seed: typing.SupportsIndex = 0) -> int:
        ...
    def improved_policy(self) -> numpy.typing.NDArray[numpy.float32]:
        """
        Gumbel's improved policy softmax(logits + sigma(completed Q)) over the root's actions.
        """
    def policy(self, temperature: float = 1.0) -> numpy.typing.NDArray[numpy.float32]:
        ...
    def policy_target(self) -> numpy.typing.NDArray[numpy.float32]:
        """
        The policy target self-play records for the root.
        """
    def principal_variation(self, max_depth: typing.SupportsInt | typing.SupportsIndex) -> list[int]:
        """
        The most visited line from the root (each expanded node's most visited child), at most max_depth moves.
        """
    def priors(self) -> numpy.typing.NDArray[numpy.float32]:
        ...
    def proven_value(self) -> int | None:
        """
        The solver's proven result of the root for the player to move: 1, 0, -1 or None.
        """
    def pruned_visit_counts(self) -> numpy.typing.NDArray[numpy.int32]:
        """
        The root's visit counts after KataGo's policy target pruning (forced playouts).
        """
    def q_values(self) -> numpy.typing.NDArray[numpy.float32]:
        ...
    def run(self, simulations: typing.SupportsIndex, evaluator: typing.Any = 'uniform') -> None:
        ...
    def set_root(self, state: ConnectFour) -> None:
        ...
    def visit_counts(self) -> numpy.typing.NDArray[numpy.int32]:
        ...
    @property
    def collisions(self) -> int:
        ...
    @property
    def pending_visits(self) -> int:
        ...
    @property
    def root_state(self) -> ConnectFour:
        ...
    @property
    def root_value(self) -> float:
        ...
    @property
    def root_visits(self) -> int:
        ...
    @property
    def tree_full(self) -> bool:
        ...
    @property
    def tree_size(self) -> int:
        ...
class GomokuSearch:
    def __init__(self, state: Gomoku, **kwargs) -> None:
        ...
    def advance(self, action: typing.SupportsIndex) -> None:
        ...
    def choose_action(self, temperature: float = 0.0, seed: typing.SupportsIndex = 0) -> int:
        ...
    def improved_policy(self) -> numpy.typing.NDArray[numpy.float32]:
        """
        Gumbel's improved policy softmax(logits + sigma(completed Q)) over the root's actions.
        """
    def policy(self, temperature: float = 1.0) -> numpy.typing.NDArray[numpy.float32]:
        ...
    def policy_target(self) -> numpy.typing.NDArray[numpy.float32]:
        """
        The policy target self-play records for the root.
        """
    def principal_variation(self, max_depth: typing.SupportsInt | typing.SupportsIndex) -> list[int]:
        """
        The most visited line from the root (each expanded node's most visited child), at most max_depth moves.
        """
    def priors(self) -> numpy.typing.NDArray[numpy.float32]:
        ...
    def proven_value(self) -> int | None:
        """
        The solver's proven result of the root for the player to move: 1, 0, -1 or None.
        """
    def pruned_visit_counts(self) -> numpy.typing.NDArray[numpy.int32]:
        """
        The root's visit counts after KataGo's policy target pruning (forced playouts).
        """
    def q_values(self) -> numpy.typing.NDArray[numpy.float32]:
        ...
    def run(self, simulations: typing.SupportsIndex, evaluator: typing.Any = 'uniform') -> None:
        ...
    def set_root(self, state: Gomoku) -> None:
        ...
    def visit_counts(self) -> numpy.typing.NDArray[numpy.int32]:
        ...
    @property
    def collisions(self) -> int:
        ...
    @property
    def pending_visits(self) -> int:
        ...
    @property
    def root_state(self) -> Gomoku:
        ...
    @property
    def root_value(self) -> float:
        ...
    @property
    def root_visits(self) -> int:
        ...
    @property
    def tree_full(self) -> bool:
        ...
    @property
    def tree_size(self) -> int:
        ...
class GoSearch:
    def __init__(self, state: Go, **kwargs) -> None:
        ...
    def advance(self, action: typing.SupportsIndex) -> None:
        ...
    def choose_action(self, temperature: float = 0.0, seed: typing.SupportsIndex = 0) -> int:
        ...
    def improved_policy(self) -> numpy.typing.NDArray[numpy.float32]:
        """
        Gumbel's improved policy softmax(logits + sigma(completed Q)) over the root's actions.
        """
    def policy(self, temperature: float = 1.0) -> numpy.typing.NDArray[numpy.float32]:
        ...
    def policy_target(self) -> numpy.typing.NDArray[numpy.float32]:
        """
        The policy target self-play records for the root.
        """
    def principal_variation(self, max_depth: typing.SupportsInt | typing.SupportsIndex) -> list[int]:
        """
        The most visited line from the root (each expanded node's most visited child), at most max_depth moves.
        """
    def priors(self) -> numpy.typing.NDArray[numpy.float32]:
        ...
    def proven_value(self) -> int | None:
        """
        The solver's proven result of the root for the player to move: 1, 0, -1 or None.
        """
    def pruned_visit_counts(self) -> numpy.typing.NDArray[numpy.int32]:
        """
        The root's visit counts after KataGo's policy target pruning (forced playouts).
        """
    def q_values(self) -> numpy.typing.NDArray[numpy.float32]:
        ...
    def run(self, simulations: typing.SupportsIndex, evaluator: typing.Any = 'uniform') -> None:
        ...
    def set_root(self, state: Go) -> None:
        ...
    def visit_counts(self) -> numpy.typing.NDArray[numpy.int32]:
        ...
    @property
    def collisions(self) -> int:
        ...
    @property
    def pending_visits(self) -> int:
        ...
    @property
    def root_state(self) -> Go:
        ...
    @property
    def root_value(self) -> float:
        ...
    @property
    def root_visits(self) -> int:
        ...
    @property
    def tree_full(self) -> bool:
        ...
    @property
    def tree_size(self) -> int:
        ...
class RacingKingsSearch:
    def __init__(self, state: RacingKings, **kwargs) -> None:
        ...
    def advance(self, action: typing.SupportsIndex) -> None:
        ...
    def choose_action(self, temperature: float = 0.0, seed: typing.SupportsIndex = 0) -> int:
        ...
    def improved_policy(self) -> numpy.typing.NDArray[numpy.float32]:
        """
        Gumbel's improved policy softmax(logits + sigma(completed Q)) over the root's actions.
        """
    def policy(self, temperature: float = 1.0) -> numpy.typing.NDArray[numpy.float32]:
        ...
    def policy_target(self) -> numpy.typing.NDArray[numpy.float32]:
        """
        The policy target self-play records for the root.
        """
    def principal_variation(self, max_depth: typing.SupportsInt | typing.SupportsIndex) -> list[int]:
        """
        The most visited line from the root (each expanded node's most visited child), at most max_depth moves.
        """
    def priors(self) -> numpy.typing.NDArray[numpy.float32]:
        ...
    def proven_value(self) -> int | None:
        """
        The solver's proven result of the root for the player to move: 1, 0, -1 or None.
        """
    def pruned_visit_counts(self) -> numpy.typing.NDArray[numpy.int32]:
        """
        The root's visit counts after KataGo's policy target pruning (forced playouts).
        """
    def q_values(self) -> numpy.typing.NDArray[numpy.float32]:
        ...
    def run(self, simulations: typing.SupportsIndex, evaluator: typing.Any = 'uniform') -> None:
        ...
    def set_root(self, state: RacingKings) -> None:
        ...
    def visit_counts(self) -> numpy.typing.NDArray[numpy.int32]:
        ...
    @property
    def collisions(self) -> int:
        ...
    @property
    def pending_visits(self) -> int:
        ...
    @property
    def root_state(self) -> RacingKings:
        ...
    @property
    def root_value(self) -> float:
        ...
    @property
    def root_visits(self) -> int:
        ...
    @property
    def tree_full(self) -> bool:
        ...
    @property
    def tree_size(self) -> int:
        ...
class TicTacToeSearch:
    def __init__(self, state: TicTacToe, **kwargs) -> None:
        ...
    def advance(self, action: typing.SupportsIndex) -> None:
        ...
    def choose_action(self, temperature: float = 0.0, seed: typing.SupportsIndex = 0) -> int:
        ...
    def improved_policy(self) -> numpy.typing.NDArray[numpy.float32]:
        """
        Gumbel's improved policy softmax(logits + sigma(completed Q)) over the root's actions.
        """
    def policy(self, temperature: float = 1.0) -> numpy.typing.NDArray[numpy.float32]:
        ...
    def policy_target(self) -> numpy.typing.NDArray[numpy.float32]:
        """
        The policy target self-play records for the root.
        """
    def principal_variation(self, max_depth: typing.SupportsInt | typing.SupportsIndex) -> list[int]:
        """
        The most visited line from the root (each expanded node's most visited child), at most max_depth moves.
        """
    def priors(self) -> numpy.typing.NDArray[numpy.float32]:
        ...
    def proven_value(self) -> int | None:
        """
        The solver's proven result of the root for the player to move: 1, 0, -1 or None.
        """
    def pruned_visit_counts(self) -> numpy.typing.NDArray[numpy.int32]:
        """
        The root's visit counts after KataGo's policy target pruning (forced playouts).
        """
    def q_values(self) -> numpy.typing.NDArray[numpy.float32]:
        ...
    def run(self, simulations: typing.SupportsIndex, evaluator: typing.Any = 'uniform') -> None:
        ...
    def set_root(self, state: TicTacToe) -> None:
        ...
    def visit_counts(self) -> numpy.typing.NDArray[numpy.int32]:
        ...
    @property
    def collisions(self) -> int:
        ...
    @property
    def pending_visits(self) -> int:
        ...
    @property
    def root_state(self) -> TicTacToe:
        ...
    @property
    def root_value(self) -> float:
        ...
    @property
    def root_visits(self) -> int:
        ...
    @property
    def tree_full(self) -> bool:
        ...
    @property
    def tree_size(self) -> int:
        ...
class PythonGameSearch:
    def __init__(self, state: typing.Any, **kwargs) -> None:
        ...
    def advance(self, action: typing.SupportsIndex) -> None:
        ...
    def choose_action(self, temperature: float = 0.0, seed: typing.SupportsIndex = 0) -> int:
        ...
    def improved_policy(self) -> numpy.typing.NDArray[numpy.float32]:
        """
        Gumbel's improved policy softmax(logits + sigma(completed Q)) over the root's actions.
        """
    def policy(self, temperature: float = 1.0) -> numpy.typing.NDArray[numpy.float32]:
        ...
    def policy_target(self) -> numpy.typing.NDArray[numpy.float32]:
        """
        The policy target self-play records for the root.
        """
    def principal_variation(self, max_depth: typing.SupportsInt | typing.SupportsIndex) -> list[int]:
        """
        The most visited line from the root (each expanded node's most visited child), at most max_depth moves.
        """
    def priors(self) -> numpy.typing.NDArray[numpy.float32]:
        ...
    def proven_value(self) -> int | None:
        """
        The solver's proven result of the root for the player to move: 1, 0, -1 or None.
        """
    def pruned_visit_counts(self) -> numpy.typing.NDArray[numpy.int32]:
        """
        The root's visit counts after KataGo's policy target pruning (forced playouts).
        """
    def q_values(self) -> numpy.typing.NDArray[numpy.float32]:
        ...
    def run(self, simulations: typing.SupportsIndex, evaluator: typing.Any = 'uniform') -> None:
        ...
    def set_root(self, state: typing.Any) -> None:
        ...
    def visit_counts(self) -> numpy.typing.NDArray[numpy.int32]:
        ...
    @property
    def collisions(self) -> int:
        ...
    @property
    def pending_visits(self) -> int:
        ...
    @property
    def root_state(self) -> typing.Any:
        ...
    @property
    def root_value(self) -> float:
        ...
    @property
    def root_visits(self) -> int:
        ...
    @property
    def tree_full(self) -> bool:
        ...
    @property
    def tree_size(self) -> int:
        ...
class GomokuMentor:
    """
    Rule-based free-style Gomoku player (seed 004's mentor): line patterns, VCF and VCT threat-space search, then iterative-deepening alpha-beta.
    
    Each move: complete a five ('win'); else block the opponent's five ('block'); else the first move of a VCF ('vcf') or VCT ('vct') found; else, if the opponent would win by VCF or VCT were it to move, alpha-beta among the moves that stop it ('defend'); else alpha-beta among the strongest moves near the stones ('search'). Boards 9..15, line_length 5, overlines as the state's rule says. Not for use from two threads at once (calls wait for each other).
    """
    MAX_TIME_MS: typing.ClassVar[float] = 86400000.0
    THREAT_SEARCH_PLANES: typing.ClassVar[int] = 4
    @staticmethod
    def threat_map(state: Gomoku, colour: typing.SupportsInt | typing.SupportsIndex) -> numpy.typing.NDArray[numpy.int8]:
        """
        int8 (n, n): what a stone of colour (0 = X) would make on each cell: 0 nothing forcing, 1 an open three, 2 two open threes, 3 a four, 4 a four and an open three, 5 an open four or two fours, 6 a five; 0 on occupied cells.
        """
    def __init__(self, *, time_ms: typing.SupportsFloat | typing.SupportsIndex = 1000.0, max_nodes: typing.SupportsInt | typing.SupportsIndex = 0, max_depth: typing.SupportsInt | typing.SupportsIndex = 0, randomness: typing.SupportsFloat | typing.SupportsIndex = 0.0, seed: typing.SupportsInt | typing.SupportsIndex = 0, vcf_depth: typing.SupportsInt | typing.SupportsIndex = 12, vct_depth: typing.SupportsInt | typing.SupportsIndex = 6) -> None:
        """
        time_ms: time per move (0: none; at most MAX_TIME_MS, a day); max_nodes: nodes per move over all phases (0: none; with time_ms=0 the moves are deterministic); max_depth: alpha-beta depth cap (0: none); at least one limit must be set. randomness in [0, 1]: 0 plays the best move; otherwise a uniform pick among the moves whose alpha-beta score is within randomness * 400 of the best (400 is about an open three), and a random first move in the central 3x3, so self-play games differ; seed: its random numbers. vcf_depth / vct_depth: attacking moves in a VCF / VCT.
        """
    def choose(self, state: Gomoku) -> int:
        """
        The mentor's action for the side to move. ValueError for a finished game, a board size outside 9..15 or a line_length other than 5; KeyboardInterrupt on Ctrl-C.
        """
    def find_vcf(self, state: Gomoku, max_depth: typing.SupportsInt | typing.SupportsIndex = 12, max_nodes: typing.SupportsInt | typing.SupportsIndex = 1000000) -> typing.Any:
        """
        A victory by continuous fours for the side to move within max_depth fours, or None: the actions attacker, reply, attacker, ..., ending with the five. Every reply but the last is forced (the only cell that stops a five); the last follows an open four or a double four, where any reply loses. max_nodes 0: no node limit.
        """
    def find_vct(self, state: Gomoku, max_depth: typing.SupportsInt | typing.SupportsIndex = 6, max_nodes: typing.SupportsInt | typing.SupportsIndex = 2000000, time_ms: typing.SupportsFloat | typing.SupportsIndex = 0.0) -> typing.Any:
        """
        A victory by continuous threats (threes and fours) for the side to move within max_depth attacking moves, or None: the shortest found, as the actions of one line (after a three the defender has several answers; the attacker wins against each). max_nodes / time_ms 0: no such limit.
        """
    def forced_moves(self, state: Gomoku) -> list[int]:
        """
        choose()'s threat analysis alone, within the same limits: [the move] that a five or a forced win dictates (last_info['reason'] 'win', 'block', 'vcf' or 'vct'); else the moves after which the opponent no longer wins by VCF/VCT ('defend'; [] when none was found among the moves tried: its strongest 24 (VCT) or 40 (VCF) candidates, the threat's cells and its own fours; when last_info['answers_complete'] is False the budget ran out before all were tried); else [] ('none'). Errors as choose().
        """
    def read_threats(self, state: Gomoku) -> tuple[str, list[int]]:
        """
        forced_moves() read as (verdict, moves): 'win', 'block', 'vcf' or 'vct' and the one move it dictates; 'defend' and every move that stops the opponent's forced win; 'lost' and [] (no move tried stops it, or the opponent has two fives to complete); 'unproven' and [] (the budget ran out before every answer was tried: proves nothing); 'none' and []. Errors as choose().
        """
    def threat_search_planes(self, planes: typing.Annotated[numpy.typing.ArrayLike, numpy.float32], overline_wins: bool = True) -> tuple:
        """
        The threat-search planes (pyaz.nets.threat_search) of a batch of Gomoku network inputs (batch, C >= 2, n, n), planes 0 and 1 the side to move's stones and the opponent's: (float32 (batch, 4, n, n), {verdict: count}), the four planes from read_threats() of each position (finished games: zeros, not counted). ValueError for another shape or a position no game reaches; KeyboardInterrupt on Ctrl-C.
        """
    @property
    def last_info(self) -> dict:
        """
        What the last choose() or forced_moves() did: reason ('opening', 'win', 'block', 'vcf', 'vct', 'defend', 'search', 'none'), depth (completed alpha-beta depth), nodes, score (alpha-beta, for the mover; wins near +-1,000,000), time_ms, line (the forced win played, as actions), threat (the opponent's forced line that 'defend' answered), answers_complete (False when the budget ran out before every answer to it was tried), root_moves, candidates (moves within the random margin), root_scores ((action, score) pairs of the last completed iteration, best first; below best - margin only upper bounds).
        """
class ConnectFourSolver:
    """
    Exact Connect Four solver for boards up to 7 columns x 6 rows (Pascal Pons' method: bitboards, negamax with alpha-beta over non-losing moves, a transposition table of bounds shared by mirror images, threat-count move ordering, null-window search for the exact score). Scores are for the side to move: 0 a draw; a win with the mover's k-th disc scores width*height//2 + 1 - k ((width*height + 1 - n)//2 when the winning disc is played after n discs), a loss the negative of the opponent's. The table (8 bytes an entry) is kept between calls. Calls from two threads wait for each other.
    """
    def __init__(self, *, table_entries: typing.SupportsInt | typing.SupportsIndex = 8388593) -> None:
        """
        table_entries: transposition-table size (a prime spreads keys best; the default, 8388593, is 64 MiB).
        """
    def clear(self) -> None:
        """
        Empties the transposition table and zeroes the node count.
        """
    def move_scores(self, state: ConnectFour) -> list[int | None]:
        """
        For each column, the exact score after playing it, for the player who plays it (None for a full column). Errors as solve().
        """
    def solve(self, state: ConnectFour) -> int:
        """
        The exact score of the state for the side to move. ValueError for a board above 7 columns x 6 rows or a finished game; KeyboardInterrupt on Ctrl-C.
        """
    def value(self, state: ConnectFour) -> int:
        """
        The game-theoretic value for the side to move: 1 a win, 0 a draw, -1 a loss, without the exact score (two null-window searches; about as long as solve() on the empty boards measured). Errors as solve().
        """
    @property
    def nodes(self) -> int:
        """
        Nodes searched since construction or the last clear().
        """
@typing.overload
def check_self_play(start: Othello, **kwargs) -> None:
    """
    Checks self-play options for `start` as self_play() does (ValueError or TypeError naming the option), without playing.
    """
@typing.overload
def check_self_play(start: ConnectFour, **kwargs) -> None:
    """
    Checks self-play options for `start` as self_play() does (ValueError or TypeError naming the option), without playing.
    """
@typing.overload
def check_self_play(start: Gomoku, **kwargs) -> None:
    """
    Checks self-play options for `start` as self_play() does (ValueError or TypeError naming the option), without playing.
    """
@typing.overload
def check_self_play(start: Go, **kwargs) -> None:
    """
    Checks self-play options for `start` as self_play() does (ValueError or TypeError naming the option), without playing.
    """
@typing.overload
def check_self_play(start: RacingKings, **kwargs) -> None:
    """
    Checks self-play options for `start` as self_play() does (ValueError or TypeError naming the option), without playing.
    """
@typing.overload
def check_self_play(start: TicTacToe, **kwargs) -> None:
    """
    Checks self-play options for `start` as self_play() does (ValueError or TypeError naming the option), without playing.
    """
@typing.overload
def check_self_play(start: typing.Any, **kwargs) -> None:
    """
    Checks self-play options for `start` as self_play() does (ValueError or TypeError naming the option), without playing.
    """
def go_policy_play(starts: collections.abc.Sequence[Go], policies: collections.abc.Sequence[typing.Any], seats: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], record_seat: typing.SupportsInt | typing.SupportsIndex = 0, allow_resign: bool = True, temperature: typing.SupportsFloat | typing.SupportsIndex = 1.0, seed: typing.SupportsInt | typing.SupportsIndex = 0) -> dict:
    """
    Plays Go games from `starts` with no search (seed 003): seats[2*g + colour] is the index of the policy fn(planes[B,3,n,n], legal[B,n*n+2]) -> logits[B,n*n+2] that plays that colour in game g; each step calls every policy once for all the games it moves in and samples from the softmax over legal actions (temperature 0: argmax). Action n*n is the pass, n*n+1 resigns. Returns the positions where policy `record_seat` moved (planes black/white/empty, legal masks, actions, colour, game id, ply) and each game's status, resigning colour (-1 none) and length.
    """
@typing.overload
def perft(state: Othello, depth: typing.SupportsInt | typing.SupportsIndex, count_finished: bool = False) -> int:
    ...
@typing.overload
def perft(state: ConnectFour, depth: typing.SupportsInt | typing.SupportsIndex, count_finished: bool = False) -> int:
    ...
@typing.overload
def perft(state: Gomoku, depth: typing.SupportsInt | typing.SupportsIndex, count_finished: bool = False) -> int:
    ...
@typing.overload
def perft(state: Go, depth: typing.SupportsInt | typing.SupportsIndex, count_finished: bool = False) -> int:
    ...
@typing.overload
def perft(state: TicTacToe, depth: typing.SupportsInt | typing.SupportsIndex, count_finished: bool = False) -> int:
    ...
@typing.overload
def perft(state: RacingKings, depth: typing.SupportsInt | typing.SupportsIndex, count_finished: bool = False) -> int:
    ...
@typing.overload
def random_game_lengths(state: Othello, games: typing.SupportsInt | typing.SupportsIndex, seed: typing.SupportsInt | typing.SupportsIndex = 0) -> numpy.typing.NDArray[numpy.int32]:
    """
    Lengths in plies of `games` uniformly random games from `state`.
    """
@typing.overload
def random_game_lengths(state: ConnectFour, games: typing.SupportsInt | typing.SupportsIndex, seed: typing.SupportsInt | typing.SupportsIndex = 0) -> numpy.typing.NDArray[numpy.int32]:
    """
    Lengths in plies of `games` uniformly random games from `state`.
    """
@typing.overload
def random_game_lengths(state: Gomoku, games: typing.SupportsInt | typing.SupportsIndex, seed: typing.SupportsInt | typing.SupportsIndex = 0) -> numpy.typing.NDArray[numpy.int32]:
    """
    Lengths in plies of `games` uniformly random games from `state`.
    """
@typing.overload
def random_game_lengths(state: Go, games: typing.SupportsInt | typing.SupportsIndex, seed: typing.SupportsInt | typing.SupportsIndex = 0) -> numpy.typing.NDArray[numpy.int32]:
    """
    Lengths in plies of `games` uniformly random games from `state`.
    """
@typing.overload
def random_game_lengths(state: TicTacToe, games: typing.SupportsInt | typing.SupportsIndex, seed: typing.SupportsInt | typing.SupportsIndex = 0) -> numpy.typing.NDArray[numpy.int32]:
    """
    Lengths in plies of `games` uniformly random games from `state`.
    """
@typing.overload
def random_game_lengths(state: RacingKings, games: typing.SupportsInt | typing.SupportsIndex, seed: typing.SupportsInt | typing.SupportsIndex = 0) -> numpy.typing.NDArray[numpy.int32]:
    """
    Lengths in plies of `games` uniformly random games from `state`.
    """
@typing.overload
def random_playouts(state: Othello, games: typing.SupportsInt | typing.SupportsIndex, seed: typing.SupportsInt | typing.SupportsIndex = 0) -> tuple[int, int, int]:
    ...
@typing.overload
def random_playouts(state: ConnectFour, games: typing.SupportsInt | typing.SupportsIndex, seed: typing.SupportsInt | typing.SupportsIndex = 0) -> tuple[int, int, int]:
    ...
@typing.overload
def random_playouts(state: Gomoku, games: typing.SupportsInt | typing.SupportsIndex, seed: typing.SupportsInt | typing.SupportsIndex = 0) -> tuple[int, int, int]:
    ...
@typing.overload
def random_playouts(state: Go, games: typing.SupportsInt | typing.SupportsIndex, seed: typing.SupportsInt | typing.SupportsIndex = 0) -> tuple[int, int, int]:
    ...
@typing.overload
def random_playouts(state: TicTacToe, games: typing.SupportsInt | typing.SupportsIndex, seed: typing.SupportsInt | typing.SupportsIndex = 0) -> tuple[int, int, int]:
    ...
@typing.overload
def random_playouts(state: RacingKings, games: typing.SupportsInt | typing.SupportsIndex, seed: typing.SupportsInt | typing.SupportsIndex = 0) -> tuple[int, int, int]:
    ...
def search_defaults() -> dict:
    """
    The default of every Search option (search/params.h, the one place they are set).
    """
@typing.overload
def self_play(start: Othello, evaluator: typing.Any, on_game_end: typing.Any = None, **kwargs) -> dict:
    ...
@typing.overload
def self_play(start: ConnectFour, evaluator: typing.Any, on_game_end: typing.Any = None, **kwargs) -> dict:
    ...
@typing.overload
def self_play(start: Gomoku, evaluator: typing.Any, on_game_end: typing.Any = None, **kwargs) -> dict:
    ...
@typing.overload
def self_play(start: Go, evaluator: typing.Any, on_game_end: typing.Any = None, **kwargs) -> dict:
    ...
@typing.overload
def self_play(start: RacingKings, evaluator: typing.Any, on_game_end: typing.Any = None, **kwargs) -> dict:
    ...
@typing.overload
def self_play(start: TicTacToe, evaluator: typing.Any, on_game_end: typing.Any = None, **kwargs) -> dict:
    ...
@typing.overload
def self_play(start: typing.Any, evaluator: typing.Any, on_game_end: typing.Any = None, **kwargs) -> dict:
    ...
def self_play_defaults() -> dict:
    """
    The default of every SelfPlay option besides the Search ones (search/params.h).
    """
