"""The settings of a run of the AlphaZero/AlphaGo Zero loop (:class:`TrainConfig`): each one
declared once, with its help, symbol and range; the checks of their values and between them
(:meth:`TrainConfig.validate`, :meth:`TrainConfig.check_players`); and what auto or none
chooses for the game (:meth:`TrainConfig.resolved`, from the game's tuned training defaults,
:attr:`pyaz.games.profiles.GameProfile.training`).
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass, replace
from typing import Any

from pyaz.common.settings import check_settings, setting
from pyaz.eval import exhaustive, presets
from pyaz.eval.players import check_mentor_game, close_player, mentor_plays
from pyaz.games import (
    DEFAULT_GAME,
    NetworkGameState,
    PlayableGameState,
    canonical_name,
    make,
)
from pyaz.games.profiles import games_where, profile
from pyaz.methods.alphazero.schedules import LR_SCHEDULES, check_window_growth
from pyaz.nets import (
    PRESETS as NET_PRESETS,
)
from pyaz.nets import (
    THREAT_MODES,
    NetConfig,
    check_game_planes,
    net_config_for,
)
from pyaz.nets.runtimes import RUNTIMES
from pyaz.search.solver import MAX_HEIGHT, MAX_WIDTH
from pyaz.train.curriculum import Curriculum
from pyaz.train.trainer import LOSSES

GATINGS = ("none", "threshold", "score", "wilson")
SEARCH_RULES = ("puct", "gumbel")  # TrainConfig.search_rule
GAME_OPTIONS = "--size, --width, --height, --komi, ..."
THREAT_PLANES = ("auto", *THREAT_MODES)  # TrainConfig.threat_planes: auto, on, ..., off

PERFECT_OPPONENT = "perfect"
"""The eval_opponent that measures agreement with exact play instead of playing a match."""


def _game_board(game: str, options: dict[str, Any]) -> tuple[str, PlayableGameState | None]:
    """``game``'s canonical name and start state, or ``("", None)`` for a game or options that
    :meth:`TrainConfig.validate` names as bad."""
    with contextlib.suppress(ValueError, TypeError):
        return canonical_name(game), make(game, **options)
    return "", None


@dataclass
class TrainConfig:
    """Every setting of a run, declared once (:func:`~pyaz.common.settings.setting`): its help,
    symbol and range make pyaz-selfplay's options, the checks of :meth:`validate` and the
    README's table (scripts/options_table.py). Symbols and a/b/c values: seed 001's Table 1."""

    game: str = setting(
        DEFAULT_GAME, help="the game (curling: the curling mode)", accepts="a game", option="--game"
    )
    game_options: dict[str, Any] = setting(  # noqa: RUF009
        {"size": 6}, help="the game's options (see --help)", accepts="its", option=GAME_OPTIONS
    )
    iterations: int = setting(100, symbol="I", low=1, help="self-play iterations (50/100/150)")
    max_minutes: float = setting(
        0.0,
        low=0.0,
        high=1e7,
        help="stop after the iteration that takes the run time (self-play, training, gating, "
        "evaluation and checkpoints, summed over resumes) past this many minutes; 0: no limit",
    )
    episodes: int = setting(50, symbol="E", low=1, help="self-play games per iteration (10/50/100)")
    sampling_plies: int = setting(
        15, symbol="T'", low=0, help="plies drawn from the visit counts, greedy after them"
    )
    simulations: int = setting(
        100, symbol="m", low=1, high=10**6, help="MCTS simulations per move (25/100/200)"
    )
    c_puct: float = setting(
        1.0, symbol="c", low=0.0, high=1e6, help="PUCT exploration (0.5/1.0/2.0)"
    )
    retrain_iterations: int = setting(
        20,
        symbol="rs",
        low=0,
        help="keep the games of the last rs iterations (0: --replacement); 10 on Othello 8x8, "
        "one run: ahead of 20 at 10 minutes, level at 30, 2026-12-05",
    )
    replacement: float = setting(
        0.1, low=0.0, high=1.0, help="share of the oldest games dropped after training (seed 000)"
    )
    epochs: int | None = setting(
        None,
        symbol="ep",
        low=1,
        help="training epochs per iteration (5/10/15; 2 learns faster a CPU second than 10: "
        "the same strength in half the time on Othello 8x8, issue 19); none: the game's "
        "(othello 8x8 1: 1.6x the iterations of 2 in its 30-minute main command and ahead against "
        "gtp-rhino level 3 over two runs, 2026-12-03; 2 for the others: 1 on Gomoku 9x9 gave "
        "1.4x the iterations and no gain, 2026-11-29; on Othello 6x6 level with 2 at the same run "
        "minute, two runs against one, 2026-12-04); a run saves the value none chose",
    )
    batch_size: int = setting(64, symbol="bs", low=2, help="training batch size (32/64/96)")
    lr: float = setting(
        0.005, symbol="lr", low=1e-12, high=10.0, help="Adam's step (0.001/0.005/0.01)"
    )
    dropout: float = setting(
        0.3, symbol="d", low=0.0, high=0.95, help="heads' dropout (0.2/0.3/0.4)"
    )
    arena_games: int = setting(40, symbol="n", low=1, help="games of the gate (20/40/100)")
    update_threshold: float = setting(
        0.6, symbol="u", low=0.0, high=1.0, help="the gate's threshold (0.5/0.6/0.7; see --gating)"
    )
    gating: str = setting(
        "none",
        choices=GATINGS,
        help="none (AlphaZero loop), threshold (seed 001 as alpha-zero-general: n games, "
        "wins / (wins + losses) >= u, draws ignored), score ((wins + draws/2) / n > u), "
        "wilson (seed 000's sequential 95% Wilson rule)",
    )
    wilson_max_games: int = setting(500, low=10, help="cap of the wilson gate (401 games needed)")
    arena_sampling_plies: int = setting(
        8, low=0, help="gate players draw their first this-many plies from the visit counts"
    )
    opening_plies: int | None = setting(
        None,
        low=0,
        help="random plies opening each pair of gate/evaluation games, played with both colours "
        "(none: the game's, e.g. othello 4, connect_four 2)",
    )
    draw_value: float = setting(0.0, low=-1.0, high=1.0, help="a draw's value (seed 000: -0.5)")
    value_target_q: float | None = setting(
        None,
        symbol="w",
        low=0.0,
        high=1.0,
        help="the value target is (1 - w) * z + w * q, z the game's result and q the search's "
        "root value (Oracle's 'Lessons from AlphaZero', part 4: 0.5); 0 is AlphaZero's z; none: "
        "the game's (gomoku 0.5, level with z on 9x9 at 1,200 simulations over four 30-minute runs "
        "and ahead at 800, 2026-12-01; 0 for the others, "
        "level with z on Connect Four 6x6); a run saves the value none chose",
    )
    dedupe: bool = setting(
        False,
        help="on: the repeated positions of the training window (up to the symmetries) become "
        "one example with their mean targets (Oracle, part 6); logged as dedupe_share",
    )
    lr_schedule: str = setting(
        "auto",
        choices=("auto", *LR_SCHEDULES),
        help="constant; cosine (lr down to lr/100); onecycle (lr/10 up to lr over the first 30% "
        "of the run, then down to lr/100: Smith's 1cycle, Oracle, part 6), over --iterations "
        "or --max-minutes, whichever share is further on; the last value holds after; auto: "
        "the game's (connect_four cosine, measured best on 6x6 and level on 7x6 in 30 minutes, "
        "2026-11-28; constant for the other games: cosine not better on Othello 8x8 nor on "
        "Gomoku 9x9, one run each); a run saves the value auto chose",
    )
    window_growth: list[int] = setting(  # noqa: RUF009
        [],
        accepts="START,EVERY (both >= 1) or none",
        help="keep the games of START iterations, one more every EVERY, up to rs (Oracle's slow "
        "window, part 6: 4,2); none: rs throughout",
    )
    simulations_schedule: list[int] = setting(  # noqa: RUF009
        [],
        low=1,
        high=10**6,
        help="self-play simulations over equal shares of --iterations or --max-minutes, whichever "
        "is further on (MiniZero's progressive simulation, e.g. 25,50,100); gates and "
        "evaluations keep m",
    )
    drop_draw: float = setting(
        0.0, low=0.0, high=1.0, help="chance to drop a drawn game (seed 000)"
    )
    min_buffer_games: int = setting(0, low=0, help="train only once the buffer holds this many")
    min_buffer_schedule: list[int] = setting(  # noqa: RUF009
        [], low=0, help="the k-th training waits for the k-th number of games (seed 000)"
    )
    length_probe_games: int = setting(
        200, low=1, help="random games measuring the curriculum's first average length"
    )
    l2: float = setting(0.0, low=0.0, high=1.0, help="L2 coefficient c in c*||theta||^2")
    augment: bool = setting(True, help="random symmetries of the examples", option="--no-augment")
    loss: str = setting("plus", choices=LOSSES, help="l+, lp, lv, lx = lp * lv, l_lambda")
    loss_lambda: float = setting(0.5, low=0.0, high=1.0, help="lambda of the l_lambda loss")
    net: str = setting("tiny", choices=tuple(NET_PRESETS), help="network preset (azg: seed 001's)")
    blocks: int | None = setting(None, low=1, high=64, help="residual blocks (none: the preset's)")
    filters: int | None = setting(None, low=1, high=1024, help="filters (none: the preset's)")
    value_hidden: int | None = setting(
        None, low=1, high=4096, help="value head width (none: --net's)"
    )
    value_planes: int | None = setting(
        None,
        low=1,
        high=256,
        help="planes of the value head's 1x1 convolution (none: --net's, AlphaZero's 1); the "
        "resnet networks only",
    )
    dirichlet_alpha: float = setting(0.3, low=1e-9, high=1e6, help="root Dirichlet noise shape")
    dirichlet_epsilon: float = setting(0.25, low=0.0, high=1.0, help="root noise weight (0: none)")
    search_rule: str = setting(
        "auto",
        choices=("auto", *SEARCH_RULES),
        help="self-play search: puct (AlphaZero) or gumbel (Danihelka et al. 2022: Gumbel-top-k "
        "root moves, sequential halving, the completed-Q policy target; for 8-32 simulations); "
        "auto: the game's (gomoku gumbel with the solver, ahead of puct on 9x9 in 30 minutes, "
        "2026-11-29; puct for the other games, where gumbel learned less, and beside "
        "--forced-playouts); a run saves the value auto chose",
    )
    gumbel_actions: int = setting(16, low=1, help="gumbel: root moves sampled (the paper's 16)")
    gumbel_warmup: float = setting(
        0.0,
        low=0.0,
        high=1.0,
        help="the share of the horizon (--iterations or --max-minutes, whichever is further on, "
        "as the schedules) over which self-play searches with gumbel at "
        "--gumbel-warmup-simulations a move, then with --search-rule (Gumbel's few "
        "simulations early, AlphaZero's search later; a hybrid, not in a paper); 0: off. "
        "Othello 8x8, 0.33 at 16, one run: behind the default at 800 simulations",
    )
    gumbel_warmup_simulations: int = setting(
        16, low=1, high=10**6, help="self-play simulations a move under --gumbel-warmup"
    )
    solver: bool | None = setting(
        None,
        help="MCTS-solver (Winands et al. 2008): proven results propagated and played; none: "
        "on beside gumbel on gomoku (the pair measured best there), else off; a run saves the "
        "value none chose",
    )
    rollout_mix: float = setting(
        0.0,
        low=0.0,
        high=1.0,
        help="AlphaGo's mixed leaf value (Silver et al. 2016): (1 - lambda) * the network's value "
        "+ lambda * the result of one random playout, in self-play, the gate, the evaluation and "
        "the run's model: players (AlphaGo: 0.5); 0: the network alone. Measured on Othello: "
        "ahead of the baseline against UCT-200 early, behind it against gtp-rhino",
    )
    forced_playouts: bool = setting(
        False, help="KataGo's forced playouts and policy target pruning (Wu 2019, 3.2; puct)"
    )
    full_search_prob: float = setting(
        1.0,
        low=1e-9,
        high=1.0,
        help="KataGo's playout cap randomisation (Wu 2019, 3.1): the share of moves searched "
        "with m, the only training examples (KataGo 0.25); 1: off",
    )
    cheap_simulations: int = setting(
        0, low=0, help="simulations of the other moves under --full-search-prob (0: m // 6)"
    )
    score_weight: float = setting(
        0.0,
        symbol="W",
        low=0.0,
        high=10.0,
        help="KataGo's auxiliary score target (Wu 2019, 4.1) with loss weight W: a score head "
        "learns the final margin over the area (othello: disc difference / n^2; go: area score "
        "with komi / n^2); othello and go only; 0: no score head (0.5 on Othello 8x8: level, two "
        "seeds against gtp-rhino level 3, 2026-12-04)",
    )
    threat_planes: str = setting(
        "auto",
        choices=THREAT_PLANES,
        help="two fixed input planes that the network computes itself: the empty cells where "
        "the player to move, and the opponent, would complete a line (connect_four 4, gomoku "
        "its line length), hand-made input features as KataGo's (Wu 2019, appendix A); deep: "
        "two more planes, the empty cells where a stone makes a new threat (a line all but one "
        "full, no opponent stone: gomoku's fours); forks: deep and four more, the cells that "
        "make a three (a line two short) and the forks (cells that make a four or a three in "
        "two directions at once); parity: on and one more plane, the rows where a threat of "
        "the player to move wins a zugzwang ending (Allis 1988: odd rows for the first "
        "player, even for the second), connect_four only; on, deep and forks: connect_four "
        "and gomoku only; mobility (othello only): four planes, the legal moves of each "
        "player and each one's frontier (the empty cells next to the other's discs), IAGO's "
        "current and potential mobility (Rosenbloom 1982); "
        "auto: what measured best (connect_four parity, 2026-11-28; gomoku deep), off for the "
        "other games; a run saves the value auto chose",
    )
    threat_targets: int = setting(
        0,
        low=0,
        high=10_000_000,
        help="gomoku: the targets of each self-play position corrected by seed 004's mentor's "
        "threat analysis, N nodes a position: the move a five, a block or a forced win "
        "(VCF/VCT) dictates; against the opponent's forced win, the search's share on the "
        "moves that stop it; value +1 where it finds a forced win, -1 where none of the "
        "defences it tries holds (not in the paper: a hybrid; logged as threat_policy_changed, "
        "threat_value_changed, time_threats); 0: off",
    )
    threat_search: int = setting(
        0,
        low=0,
        high=10_000_000,
        help="gomoku: four more input planes from seed 004's mentor's threat-space search, N "
        "nodes a position (deterministic): the cell a five, a block or a forced win (VCF/VCT) "
        "dictates; the cells that stop the opponent's forced win; all ones when the side to "
        "move wins by force; all ones when it is lost by force. The analogue of KataGo's "
        "ladder planes (Wu 2019, appendix A): the result of a search the network cannot "
        "read from the stones. Not in the papers: a hybrid input; the network's every "
        "evaluation pays for the analysis (logged as time_threat_search: its seconds in "
        "local self-play, summed over threads, and for the buffer's positions; measured: "
        "docs/results/accelerations-cpu.md); 0: off",
    )
    sparring: str = setting(
        "auto",
        accepts="a pyaz-arena player spec, auto or none",
        help="the fixed opponent of --sparring-games (e.g. gomoku's mentor:20, othello's "
        "gtp-rhino:3): any pyaz-arena spec; none: no sparring games; auto: the game's "
        "(gomoku mentor:20 with 20 games and --sparring-imitation, on the boards the mentor "
        "plays: 0.499 against mentor:20 after 30 minutes on 9x9 over five runs, 0.451 without, "
        "2026-12-02; none for the other games); a run saves the value auto chose",
    )
    sparring_games: int | None = setting(
        None,
        low=0,
        high=10_000,
        help="games an iteration of the network's search (--simulations, root noise, "
        "--sampling-plies) against --sparring, from random openings with both colours; the "
        "network's positions join the self-play ones as training examples (a fixed opponent "
        "in the mix, as AlphaStar's league; not in the AlphaZero papers; logged as "
        "sparring_score, time_sparring); played by PUCT whatever --search-rule; 0: off; "
        "none: the game's with --sparring auto (gomoku 20), else 0",
    )
    sparring_imitation: bool | None = setting(
        None,
        help="also train on the --sparring opponent's moves after the opening: the policy "
        "target all on its move, the value target its result (seed 004's imitation of its "
        "mentor, AlphaGo's supervised stage; not in the AlphaZero papers); none: on beside "
        "sparring games on gomoku (measured best there), else off",
    )
    curriculum: str = setting(
        "none",
        accepts="none, reversi, racingkings or a TOML file",
        help="end-game-first zeta(t) (seed 000 II-B2): a preset or a TOML file of steps",
    )
    opening_spread: int | None = setting(
        None,
        low=0,
        high=1000,
        help="each self-play game opens with a number of uniformly random plies drawn uniformly "
        "in 0..N, neither searched nor recorded, so that training sees the positions random play "
        "reaches (the hard positions of --eval-opponent perfect are such); 0: off; not with "
        "--curriculum; none: the game's (connect_four 24, measured best on 6x6, 2026-11-27; "
        "0 for the other games and with --curriculum); a run saves the value none chose",
    )
    parallel_games: int = setting(32, low=1, help="self-play games in flight (one network batch)")
    threads: int = setting(
        1,
        low=1,
        high=1024,
        help="threads of the tree work of self-play and, unless --torch-threads says otherwise, "
        "of the network (capped at the machine's cores)",
    )
    torch_threads: int | None = setting(
        None,
        low=1,
        high=256,
        help="intra-op threads of the network, in self-play and training (none: --threads, "
        "capped at the machine's cores)",
    )
    runtime: str = setting(
        "onnxruntime", choices=RUNTIMES, help="network runtime of self-play, gates, evaluations"
    )
    eval_every: int = setting(1, low=1, help="evaluate every this many iterations")
    eval_games: int = setting(20, low=0, help="games per evaluation (with perfect: hard positions)")
    eval_opponent: str = setting(
        "uct200",
        accepts="a pyaz-arena player spec, none or perfect",
        help="uct200 (UCT with 200 rollouts: seed 000's), random, none, any pyaz-arena spec, or "
        "perfect (the share of value-keeping moves on hard positions over the whole game, by "
        "stage: connect_four up to 7x6 by its solver, a game of at most 200,000 positions such "
        "as tictactoe by exhaustive minimax)",
    )
    elo_games: int = setting(0, low=0, help="games a pair for the Elo of the iterations (0: off)")
    elo_every: int = setting(1, low=1, help="Elo of every this many iterations (and the last)")
    seed: int = setting(0, low=0, high=2**64 - 1, help="deterministic with --threads 1")

    @property
    def network_threads(self) -> int:
        """The network's intra-op threads (ONNX Runtime's or PyTorch's, playing and training):
        ``torch_threads``, else ``threads`` capped at the machine's cores. On a 2-core machine
        ``--threads 32`` with one network thread (the default before 2026-11-27) played self-play
        1.7x and trained 1.3x slower than with two (docs/results/accelerations-cpu.md). Ray's
        workers give their network the CPUs each holds instead (``--worker-cpus``)."""
        if self.torch_threads is not None:
            return self.torch_threads
        return max(1, min(self.threads, os.cpu_count() or 1))

    def validate(self) -> None:
        """TypeError/ValueError naming the setting when a value has the wrong type or is out of
        its declared range or choices (:func:`~pyaz.common.settings.check_settings`), the game
        or its options are unknown, the curriculum is neither a preset nor a readable file, or
        eval_opponent is no player preset. Starts nothing (see :meth:`check_players`)."""
        check_settings(self)
        if self.cheap_simulations > self.simulations:
            raise ValueError(
                f"cheap_simulations must be in 0..simulations ({self.simulations}), got "
                f"{self.cheap_simulations}"
            )
        if self.forced_playouts and (self.search_rule == "gumbel" or self.gumbel_warmup > 0):
            raise ValueError("forced_playouts needs search_rule 'puct' and no gumbel_warmup")
        check_window_growth(self.window_growth, self.retrain_iterations)
        state = make(self.game, **self.game_options)  # ValueError/TypeError naming the game
        # before the network: threat_mode resolves a game without planes to off
        check_game_planes(self.threat_planes, canonical_name(self.game))
        self.net_config(state)  # ValueError naming value_planes beside a network without it
        if self.score_weight > 0 and not state.has_score:
            raise ValueError(
                f"score_weight must be 0 for {self.game}, which has no final score (Othello "
                f"and Go have one), got {self.score_weight}"
            )
        for name in ("threat_targets", "threat_search"):
            if getattr(self, name) > 0:
                check_mentor_game(state, f"{name} ({getattr(self, name)}): the threat analysis")
        if self.threat_search > 0 and not bool(getattr(state, "overline_wins", True)):
            raise ValueError(
                f"threat_search ({self.threat_search}) reads free-style Gomoku (overlines "
                "win, seed 004's rules), not overline_wins=False"
            )
        self._check_sparring()
        try:
            Curriculum.named(self.curriculum)
        except (OSError, ValueError, TypeError, KeyError, IndexError) as error:
            raise _naming("curriculum", self.curriculum, error) from None
        if (self.opening_spread or 0) > 0 and self.curriculum != "none":
            raise ValueError(
                f"opening_spread ({self.opening_spread}) and curriculum ({self.curriculum!r}) "
                "both choose the random opening plies: use one of them"
            )
        kind = presets.spec_kind(self.eval_opponent)
        if kind not in (*presets.BUILDERS, *presets.METHOD_PRESETS, "none"):
            raise ValueError(
                f"eval_opponent {self.eval_opponent!r} is no player preset (uct200, random, "
                "none, perfect, model:PATH, gnugo:LEVEL, ...: see pyaz-arena --help)"
            )
        if self.eval_opponent == PERFECT_OPPONENT:  # a game the solver takes, on its board
            if not profile(self.game).oracle:
                try:  # a game small enough to list: exhaustive minimax
                    exhaustive.check_small(state)
                except ValueError as error:
                    oracles = " or ".join(games_where(lambda game: game.oracle))
                    raise ValueError(
                        f"eval_opponent 'perfect' (agreement with exact play) needs {oracles} "
                        f"or a game small enough for exhaustive minimax: {error}"
                    ) from None
            elif state.num_actions > MAX_WIDTH or state.board_shape[0] > MAX_HEIGHT:
                width, height = state.num_actions, state.board_shape[0]
                raise ValueError(
                    f"eval_opponent 'perfect' needs a Connect Four board up to {MAX_WIDTH} "
                    f"columns x {MAX_HEIGHT} rows, got {width}x{height}"
                )

    def net_config(self, state: NetworkGameState) -> NetConfig:
        """The network of the run for ``state``: ``net`` with the explicit sizes, dropout, the
        score head and the threat planes (ValueError for value_planes beside --net azg)."""
        return net_config_for(
            state,
            self.net,
            blocks=self.blocks,
            filters=self.filters,
            value_hidden=self.value_hidden,
            value_planes=self.value_planes,
            dropout=self.dropout,
            score_head=self.score_weight > 0,
            threats=self.threat_mode,
            threat_search=self.threat_search,
        )

    @property
    def threat_mode(self) -> str:
        """``threat_planes`` with auto resolved for the game (its profile's); off for a game
        without planes."""
        game = profile(self.game)
        if not game.planes:
            return "off"
        auto = game.training.threat_planes.value
        return auto if self.threat_planes == "auto" else self.threat_planes

    @property
    def lr_schedule_used(self) -> str:
        """``lr_schedule`` with auto resolved for the game (its profile's)."""
        if self.lr_schedule != "auto":
            return self.lr_schedule
        return profile(self.game).training.lr_schedule.value

    @property
    def opening_spread_plies(self) -> int:
        """``opening_spread`` with none resolved: the game's (its profile's), 0 beside a
        curriculum, which chooses the opening plies itself."""
        if self.opening_spread is not None:
            return self.opening_spread
        if self.curriculum != "none":
            return 0
        return profile(self.game).training.opening_spread.value

    @property
    def epochs_used(self) -> int:
        """``epochs`` with none resolved for the game and its board (its profile's)."""
        if self.epochs is not None:
            return self.epochs
        game, state = _game_board(self.game, self.game_options)
        shape = tuple(state.board_shape) if state is not None else ()
        return profile(game).training.epochs_for(shape)

    @property
    def value_target_q_used(self) -> float:
        """``value_target_q`` with none resolved for the game (its profile's; 0, AlphaZero's
        z, where no measurement chose otherwise)."""
        if self.value_target_q is not None:
            return self.value_target_q
        return profile(self.game).training.value_target_q.value

    @property
    def search_used(self) -> tuple[str, bool]:
        """``search_rule`` and ``solver`` with auto and none resolved for the game: the game's
        rule (its profile's), PUCT beside forced playouts (PUCT's technique), and the solver on
        beside Gumbel where the profile says so. (Sparring games are played by PUCT whatever the
        rule: they do not change it.)"""
        tuned, rule, solver = profile(self.game).training, self.search_rule, self.solver
        if rule == "auto":
            rule = "puct" if self.forced_playouts else tuned.search_rule.value
        if solver is None:
            solver = rule == "gumbel" and tuned.solver.value
        return rule, solver

    @property
    def sparring_used(self) -> tuple[str, int, bool]:
        """``sparring``, ``sparring_games`` and ``sparring_imitation`` with auto and none
        resolved for the game and its board: the game's opponent and games
        (its profile's) where its opponent, seed 004's mentor, plays the board with its rules
        (overlines win) and the games are not 0, else none and 0 games; imitation on beside
        sparring games where the profile says so."""
        game, state = _game_board(self.game, self.game_options)
        tuned = profile(game).training
        sparring, games, imitation = self.sparring, self.sparring_games, self.sparring_imitation
        auto_games = 0
        if sparring == "auto":
            sparring = "none"
            auto = tuned.sparring.value
            mentor = (
                state is not None
                and bool(getattr(state, "overline_wins", True))
                and mentor_plays(state)
            )
            if auto is not None and games != 0 and mentor:
                sparring, auto_games = auto
        if games is None:
            games = auto_games
        if imitation is None:
            imitation = games > 0 and tuned.sparring_imitation.value
        return sparring, games, imitation

    def resolved(self) -> TrainConfig:
        """These settings with what auto (or none) chose for the game written in: the planes,
        the opening spread, the schedule, the search, the value target, the sparring, the
        epochs; what a run saves in its config.json."""
        rule, solver = self.search_used
        sparring, sparring_games, imitation = self.sparring_used
        return replace(
            self,
            sparring=sparring,
            sparring_games=sparring_games,
            sparring_imitation=imitation,
            threat_planes=self.threat_mode,
            opening_spread=self.opening_spread_plies,
            lr_schedule=self.lr_schedule_used,
            search_rule=rule,
            solver=solver,
            value_target_q=self.value_target_q_used,
            epochs=self.epochs_used,
        )

    def check_players(self) -> None:
        """After :meth:`validate`: builds the evaluation and sparring opponents once (then closes
        them), so that a spec that does not fit the game or is out of range, a missing engine
        or model file, or an engine that fails to start (one that exits at once: ``gtp:true``),
        is a one-line ValueError naming eval_opponent or sparring before any game."""
        state = make(self.game, **self.game_options)
        sparring, sparring_games, _ = self.sparring_used
        for name, spec, used in (
            ("eval_opponent", self.eval_opponent, self.eval_games > 0),
            ("sparring", sparring, sparring_games > 0),
        ):
            if spec in ("none", PERFECT_OPPONENT) or not used:
                continue
            try:
                player = presets.make_player(spec, state, seed=self.seed)
            except (ValueError, TypeError, OSError, RuntimeError) as error:  # GtpError, UciError
                raise _naming(name, spec, error) from None
            close_player(player)

    def _check_sparring(self) -> None:
        """ValueError unless sparring and sparring_games (auto and none resolved) are both set
        or both off, with a player preset and no score head (sparring games record no final
        score)."""
        sparring, games, imitation = self.sparring_used
        if (sparring == "none") != (games == 0):
            given = self.sparring
            chose = f"{given!r}, none on this board" if given == "auto" else repr(given)
            raise ValueError(
                f"sparring ({chose}) and sparring_games ({games}) go "
                "together: give an opponent and a number of games an iteration, or neither"
            )
        if sparring == "none":
            if imitation:
                raise ValueError(
                    "sparring_imitation needs sparring games: give --sparring SPEC "
                    "--sparring-games N with it"
                )
            return
        kind = presets.spec_kind(sparring)
        if kind not in (*presets.BUILDERS, *presets.METHOD_PRESETS) or sparring == PERFECT_OPPONENT:
            raise ValueError(
                f"sparring {sparring!r} is no player preset (mentor:MS, uct:N, "
                "gtp-rhino:LEVEL, model:PATH, ...: see pyaz-arena --help)"
            )
        if self.score_weight > 0:
            raise ValueError(
                f"sparring_games record no final score: use score_weight 0 with them, got "
                f"{self.score_weight}"
            )


def _naming(setting: str, value: str, error: Exception) -> ValueError:
    """A ValueError with the first line of ``error``'s message, naming ``setting`` and
    ``value`` unless it does already."""
    line = (str(error).strip().splitlines() or [type(error).__name__])[0]
    if not line.startswith(setting):
        line = f"{setting}: {line}" if value in line else f"{setting} {value!r}: {line}"
    return ValueError(line)
