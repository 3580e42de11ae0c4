"""What pyaz knows about each game beyond its rules binding: its :class:`GameProfile`.

A profile holds the input-plane variants a network may add for the game, the board symmetries that
training augments with, the random plies that open a match, the exact oracle and the evaluation
opponents that play it, how a person at the text board is told the sides and the result, how the
board page draws it, the format its match records are written in, how it is played over GTP or
UCI, the method that ``pyaz-selfplay`` trains it with, and the tuned training defaults
(:class:`TrainingDefaults`): what ``auto`` (or none) takes in each setting of
:class:`~pyaz.methods.alphazero.config.TrainConfig`, each value a :class:`Tuned` record with the
date and the figure that chose it (docs/results.md has each figure's row).

:func:`profile` returns a game's profile by any of its registry names (a plug-in's is the one given
to :func:`pyaz.register_game`); a game without one (a new game, a plug-in) gets
:data:`DEFAULT_PROFILE`, the neutral one: no extra planes, no symmetry but the identity (so no
augmentation: a game declares its symmetries in its profile, and the kit checks them), two
opening plies, no oracle or opponents of its own, stones on cells, records as move lists, neither
GTP nor UCI, the AlphaZero method, and the general training defaults.

>>> profile("connect4").training.opening_spread.value
24
>>> profile("connect_four").symmetries
(0, 4)
>>> profile("a game of my own") is DEFAULT_PROFILE
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from pyaz.games.plugins import registered_profile
from pyaz.games.registry import canonical_name

__all__ = [
    "BOARD_VIEWS",
    "DEFAULT_GTP_GAME",
    "DEFAULT_PROFILE",
    "DEFAULT_UCI_GAME",
    "ENDINGS",
    "METHODS",
    "PROFILES",
    "RECORDS",
    "SQUARE_SYMMETRIES",
    "GameProfile",
    "GtpRules",
    "TrainingDefaults",
    "Tuned",
    "games_where",
    "profile",
]

V = TypeVar("V")

RESULTS = "docs/results.md"  # the page each figure below is a row of


@dataclass(frozen=True)
class Tuned(Generic[V]):
    """A default ``value`` with the date it was ``chosen`` (ISO) and the ``figure`` that chose
    it (both empty for the general default that no measurement chose)."""

    value: V
    chosen: str = ""
    figure: str = ""


@dataclass(frozen=True)
class TrainingDefaults:
    """What auto (or none) takes in the settings of a training run on the game (the field of
    :class:`~pyaz.methods.alphazero.config.TrainConfig` of the same name), the general defaults
    where no measurement chose otherwise.

    ``threat_planes_before`` is what auto meant in a run saved before 2026-11-27, when runs began
    to save what auto chose; ``epochs_by_board`` the epochs of the boards (``board_shape``)
    measured apart from the game's ``epochs``; ``sparring`` the opponent preset and its games an
    iteration (None: no sparring), played only where that opponent plays the board."""

    threat_planes: Tuned[str] = Tuned("off")
    threat_planes_before: str = "off"
    opening_spread: Tuned[int] = Tuned(0)
    lr_schedule: Tuned[str] = Tuned("constant")
    search_rule: Tuned[str] = Tuned("puct")
    solver: Tuned[bool] = Tuned(False)
    epochs: Tuned[int] = Tuned(
        2,
        "2026-11-25",
        f"{RESULTS}, Othello 6x6: two epochs an iteration reached 0.90 against UCT-200 at minute "
        "12, ten epochs 0.81 (one run each)",
    )
    epochs_by_board: tuple[tuple[tuple[int, ...], Tuned[int]], ...] = ()
    value_target_q: Tuned[float] = Tuned(0.0)  # AlphaZero's z
    sparring: Tuned[tuple[str, int] | None] = Tuned(None)
    sparring_imitation: Tuned[bool] = Tuned(False)

    def epochs_for(self, board_shape: tuple[int, ...]) -> int:
        """The training epochs an iteration on a board of ``board_shape``."""
        for shape, epochs in self.epochs_by_board:
            if shape == board_shape:
                return epochs.value
        return self.epochs.value


ENDINGS = ("", "area score", "disc count", "termination")
"""How the text board tells a finished game's ending beside the winner (:attr:`GameProfile.ending`):
nothing, the Tromp-Taylor area score, the discs of each side, the way the game ended. In a game
that ends by the disc count, the greedy player (:class:`~pyaz.eval.players.GreedyPlayer`) plays
the move that leaves it the most discs."""

BOARD_VIEWS = ("stones", "columns", "chess")
"""How the board page (``pyaz-board``) draws a game (:attr:`GameProfile.board_view`): pieces on
the cells (a move is a cell, or a pass); discs dropped into columns (a move is a column, labelled
1, 2, ...); chess pieces (a move goes from one square to another, files a..h, ranks 8..1)."""

RECORDS = ("moves", "sgf", "pgn")
"""The format of a game's match records (:attr:`GameProfile.record`, written by
:func:`pyaz.eval.match_files.write_games`): ``games.txt``, one game a line in the game's move
text; one SGF file a game; ``games.pgn``, the games in PGN."""

METHODS = ("alphazero", "kr_dl_uct")
"""The methods (:mod:`pyaz.methods`) that ``pyaz-selfplay`` trains a game with
(:attr:`GameProfile.method`): the AlphaZero loop of the board games, or seed 002's KR-DL-UCT loop
of continuous shots."""


@dataclass(frozen=True)
class GtpRules:
    """How a game is played over GTP: by ``pyaz-gtp``
    (:class:`~pyaz.engines.gtp_server.GtpServer`) and by the GTP engines of
    :mod:`pyaz.eval.external`.

    - ``sizes``: the board sizes ``pyaz-gtp`` plays, ``default_size`` the one it starts on;
    - ``stones``: played the way Go is (GNU Go, Pachi): any position is set up by placing its
      stones, the board takes a komi and the Go options (superko, suicide, history), a pass is
      sent as a move, vertices are GTP's (``action_to_vertex``), and the server answers Go's
      own commands (``final_status_list``, ``kgs-genmove_cleanup``, ``set_free_handicap``).
      Otherwise the way gtp-rhino plays Othello: an engine's game starts from the standard
      position and follows every move, a pass is not sent (the engine sees that the side has no
      move), and ``genmove`` in a finished game answers ``pass``.
    """

    sizes: tuple[int, ...]
    default_size: int
    stones: bool = False


@dataclass(frozen=True)
class GameProfile:
    """Everything pyaz knows about a game beyond its rules binding.

    - ``planes``: the extra input planes a network may compute for it, as
      :data:`~pyaz.nets.model.THREAT_MODES` names them (off is always one more);
    - ``threat_analysis``: whether seed 004's threat analysis (the mentor's VCF/VCT search)
      reads its positions;
    - ``symmetries``: the dihedral transforms (:mod:`pyaz.games.symmetry`) its rules keep, by
      which training augments its examples: the identity alone unless a game declares more
      (:data:`SQUARE_SYMMETRIES`: all eight, for a square board whose actions are its cells, a
      trailing pass aside; pyaz cannot know this of a new game, and
      ``pyaz.testing.check_game`` checks what a game declares);
    - ``opening_plies``: the random plies that open each pair of games of a match by default;
    - ``oracle``: whether :func:`pyaz.search.solve` plays it exactly (eval_opponent perfect);
    - ``opponents``: the player presets of :mod:`pyaz.eval.presets` that play this game and
      no other (besides those that play every game);
    - ``side_names``: the sides as the text board names them, first to move first;
    - ``ending``: what the text board tells of a finished game (:data:`ENDINGS`);
    - ``pass_when_stuck``: whether a pass is legal only when no other move is, so that a side
      without a move passes without being asked;
    - ``board_view``: how the board page draws it (:data:`BOARD_VIEWS`);
    - ``record``: the format of its match records (:data:`RECORDS`);
    - ``gtp``: how it is played over GTP (:class:`GtpRules`; None: not over GTP);
    - ``uci_variant``: its ``UCI_Variant`` name, where UCI engines play it (empty: not over UCI);
    - ``method``: the method ``pyaz-selfplay`` trains it with (:data:`METHODS`);
    - ``training``: the tuned training defaults (:class:`TrainingDefaults`).
    """

    planes: tuple[str, ...] = ()
    threat_analysis: bool = False
    symmetries: tuple[int, ...] = (0,)
    opening_plies: int = 2
    oracle: bool = False
    opponents: tuple[str, ...] = ()
    side_names: tuple[str, str] = ("first player", "second player")
    ending: str = ""
    pass_when_stuck: bool = False
    board_view: str = "stones"
    record: str = "moves"
    gtp: GtpRules | None = None
    uci_variant: str = ""
    method: str = "alphazero"
    training: TrainingDefaults = TrainingDefaults()


DEFAULT_PROFILE = GameProfile()
"""The profile of a game that has none of its own: a new game, a plug-in, an OpenSpiel game."""

SQUARE_SYMMETRIES = tuple(range(8))
"""The eight symmetries of a square board (rotations and reflections)."""

_STONES = ("Black (X)", "White (O)")

OTHELLO = GameProfile(
    planes=("mobility",),
    symmetries=SQUARE_SYMMETRIES,
    opening_plies=4,  # 4 first moves and 3 replies: 2 plies would give only 12 openings
    opponents=("gtp-rhino", "gtp"),
    side_names=_STONES,
    ending="disc count",
    pass_when_stuck=True,
    gtp=GtpRules(sizes=(4, 6, 8), default_size=8),
    training=TrainingDefaults(
        epochs_by_board=(
            (
                (8, 8),
                Tuned(
                    1,
                    "2026-12-03",
                    f"{RESULTS}, Othello 8x8: one epoch an iteration, two runs against the "
                    "day's two default runs (two epochs), paired +0.089 [+0.026, +0.150] against "
                    "gtp-rhino level 3 at 100 simulations; 1.6x the iterations in the 30-minute "
                    "main command (Othello 6x6: level with two, 2026-12-04)",
                ),
            ),
        ),
    ),
)

CONNECT_FOUR = GameProfile(
    planes=("on", "deep", "forks", "parity"),  # parity: gravity gives rows a parity
    symmetries=(0, 4),  # gravity rules out rotations and the vertical flip
    oracle=True,
    opponents=("perfect",),
    side_names=("X", "O"),
    board_view="columns",
    training=TrainingDefaults(
        threat_planes=Tuned(
            "parity",
            "2026-11-28",
            f"{RESULTS}, Connect Four 6x6: the parity plane, two runs 0.972 [0.952, 0.984] and "
            "0.960 [0.938, 0.975] on 500 positions against 0.934-0.948 for six runs without it "
            "(the threat planes of on, 2026-11-26: 0.925 against 0.835)",
        ),
        threat_planes_before="on",
        opening_spread=Tuned(
            24,
            "2026-11-27",
            f"{RESULTS}, Connect Four 6x6: random openings, two runs of the 30-minute main "
            "command 0.938 [0.912, 0.957] and 0.932 [0.905, 0.952] on 500 positions against "
            "0.880 [0.847, 0.907] without",
        ),
        lr_schedule=Tuned(
            "cosine",
            "2026-11-28",
            f"{RESULTS}, Connect Four 6x6: the rate down a cosine, two runs 0.948 [0.924, 0.965] "
            "and 0.938 [0.912, 0.957] against 0.926 and 0.908 at a constant rate",
        ),
    ),
)

GOMOKU = GameProfile(
    planes=("on", "deep", "forks"),
    symmetries=SQUARE_SYMMETRIES,
    threat_analysis=True,
    opponents=("mentor", "guard"),
    side_names=_STONES,
    training=TrainingDefaults(
        threat_planes=Tuned(
            "deep",
            "2026-11-26",
            f"{RESULTS}, Gomoku 9x9: the deeper threat planes, one run 0.350 [0.259, 0.453] "
            "against mentor:20 at 800 simulations (the planes of on: 0.195; none: 0.070)",
        ),
        search_rule=Tuned(
            "gumbel",
            "2026-11-29",
            f"{RESULTS}, Gomoku 9x9: Gumbel with the MCTS-solver in self-play, three runs "
            "0.455 [0.398, 0.513] at 1,200 simulations against PUCT's 0.380 and 0.380, paired "
            "+0.075 [0.019, 0.130] (Gumbel behind PUCT on Connect Four and Othello)",
        ),
        solver=Tuned(True, "2026-11-29", "beside Gumbel: the search_rule figure"),
        value_target_q=Tuned(
            0.5,
            "2026-12-01",
            f"{RESULTS}, Gomoku 9x9: the z/q target, four runs 0.451 [0.402, 0.501] at 1,200 "
            "simulations, level with z alone's four; 0.441 at 800 (z: 0.389)",
        ),
        sparring=Tuned(
            ("mentor:20", 20),
            "2026-12-02",
            f"{RESULTS}, Gomoku 9x9: sparring with imitation of the mentor, five 30-minute runs "
            "0.499 [0.454, 0.544] against mentor:20 at 1,200 simulations, 0.451 without; on "
            "the boards the mentor plays (9x9 to 15x15, five in a row, overlines win)",
        ),
        sparring_imitation=Tuned(True, "2026-12-02", "beside sparring games: the sparring figure"),
    ),
)

GO = GameProfile(
    symmetries=SQUARE_SYMMETRIES,
    opponents=("gnugo", "pachi", "gtp"),
    side_names=_STONES,
    ending="area score",
    record="sgf",
    gtp=GtpRules(sizes=tuple(range(5, 20)), default_size=9, stones=True),
)

RACING_KINGS = GameProfile(
    symmetries=(0, 4),  # both kings race up the board: only the files mirror (a <-> h)
    opponents=("fairy-stockfish", "lichess", "uci"),
    side_names=("White", "Black"),
    ending="termination",
    board_view="chess",
    record="pgn",
    uci_variant="racingkings",  # as Fairy-Stockfish and lichess name it
)

CURLING = GameProfile(
    opening_plies=0,  # a shot with execution noise: no two games alike
    method="kr_dl_uct",  # seed 002's loop: continuous shots
)

TIC_TAC_TOE = GameProfile(
    symmetries=SQUARE_SYMMETRIES,
    training=TrainingDefaults(
        opening_spread=Tuned(
            6,
            "2026-12-06",
            f"{RESULTS}, tic-tac-toe: self-play games opening with up to 6 random plies, a perfect "
            "move in all 3,191 decisive positions (exhaustive minimax) after the 100 iterations of "
            "the main command (about 1.5 minutes on 2 cores) in each of three runs; up to 8 plies, "
            "one run, the same; without, 3,188 and 3,180 (two runs)",
        ),
    ),
)
"""Tic-tac-toe, the tutorial's game written in Python (``tictactoe``) and its C++ port
(``tictactoe_cpp``): the neutral profile but the eight symmetries of its square board and random
openings, which reach the positions after a first player's mistakes that self-play alone rarely
plays."""

PROFILES: dict[str, GameProfile] = {
    "othello": OTHELLO,
    "connect_four": CONNECT_FOUR,
    "gomoku": GOMOKU,
    "go": GO,
    "racingkings": RACING_KINGS,
    "racingkings-mod": RACING_KINGS,
    "curling": CURLING,
    "tictactoe": TIC_TAC_TOE,
    "tictactoe_cpp": TIC_TAC_TOE,
}
"""The built-in games' profiles by their registry names (one profile may serve two names)."""

DEFAULT_GTP_GAME = "go"
"""The game ``pyaz-gtp`` plays when none is named: Go, the protocol's own."""

DEFAULT_UCI_GAME = "racingkings"
"""The game ``pyaz-uci`` plays when none is named."""


def profile(name: str) -> GameProfile:
    """The profile of the game named ``name`` (any of its registry names or aliases, or the
    name its states carry): a built-in game's of :data:`PROFILES`, a game's given to
    :func:`~pyaz.games.plugins.register_game` or declared by its factory (found by its states'
    name too once one is made), else :data:`DEFAULT_PROFILE` (a game without one of its own,
    the registry's or not). TypeError for a name that is no str."""
    if not isinstance(name, str):
        raise TypeError(f"a game name must be a str, got {name!r}")
    try:
        canonical = canonical_name(name)
    except ValueError:  # a game the registry does not hold, or a plug-in game's states' name
        declared = registered_profile(name)
        return DEFAULT_PROFILE if declared is None else declared
    if canonical in PROFILES:
        return PROFILES[canonical]
    registered = registered_profile(canonical)  # a game registered with its profile
    return DEFAULT_PROFILE if registered is None else registered


def games_where(test: Callable[[GameProfile], bool]) -> list[str]:
    """The names of the games whose profile passes ``test``, sorted, one name for a profile
    that serves two (its first, the name its states carry)."""
    first: dict[int, str] = {}
    for name, game in PROFILES.items():
        if test(game):
            first.setdefault(id(game), name)
    return sorted(first.values())
