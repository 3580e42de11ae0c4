"""The training loop: self-play, training, optional arena gating, evaluation, checkpoints.

Two loops (seed 000 Fig. 3; seed 001 Algorithm 1):
- AlphaZero (``gating="none"``): self-play always uses the latest network.
- AlphaGo Zero (``gating`` "threshold", "score" or "wilson"): self-play uses the best network;
  after training, the challenger plays the best and replaces it by seed 001's rule as
  alpha-zero-general has it ("threshold": ``arena_games`` (n) games, wins / (wins + losses) >=
  ``update_threshold`` (u), draws ignored), by the score rule ("score": (wins + draws/2) / n >
  u) or by seed 000's sequential 95% Wilson rule ("wilson", at most ``wilson_max_games``). A
  rejected challenger is discarded and the next iteration trains again from the best network
  (as alpha-zero-general does).

Every match plays distinct games: each pair of games starts from a shared random opening
(``opening_plies``, default per game) played with both colour orders; gate players are
semi-stochastic (their first ``arena_sampling_plies`` plies drawn from the visit counts, seed
004's evaluation), and the evaluation against the reference opponent is greedy (seed 000). The
metrics say how many distinct games each match held.

The curriculum's running average game length starts from ``length_probe_games`` uniformly random
games of the game (then follows the self-play games), never from the size of the action space.

The loop is a :class:`~pyaz.common.run.TrainingRun` (a step is an iteration): every iteration
is checkpointed atomically (networks, optimiser, buffer, random states, counters), so
``resume=True`` (or :meth:`~pyaz.common.run.TrainingRun.from_folder`) continues after Ctrl-C or
a kill. The iteration in progress keeps its self-play games (played here, in parts of
``parallel_games`` games, each written as it ends: :mod:`~pyaz.train.selfplay_parts`): the
resumed run plays only the missing parts and ends as the uninterrupted run would (with
``threads`` 1); Ctrl-C says how many games it kept.
"""

from __future__ import annotations

import contextlib
import copy
import os
import sys
import time
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

import numpy as np
import torch
from tqdm import tqdm

from pyaz._core import GomokuMentor, random_game_lengths
from pyaz.common.faults import fault_point
from pyaz.common.folder_lock import FolderLock
from pyaz.common.run import TrainingRun
from pyaz.common.settings import check_settings, setting
from pyaz.eval import arena, gates, oracle, presets
from pyaz.eval.players import SearchPlayer, check_mentor_game, close_player, mentor_plays
from pyaz.games import BoardState, canonical_name, make
from pyaz.games.symmetry import symmetry_ids
from pyaz.nets import (
    GAME_PLANES,
    THREAT_MODES,
    TORCHSCRIPT_FILE,
    NetConfig,
    PolicyValueNet,
    check_game_planes,
    net_config_for,
    net_from_state,
    net_state,
    to_torchscript,
    torchscript_bytes,
)
from pyaz.nets import (
    PRESETS as NET_PRESETS,
)
from pyaz.nets.evaluator import TorchEvaluator
from pyaz.nets.loading import net_file_bytes
from pyaz.nets.runtimes import RUNTIMES, make_evaluator
from pyaz.nets.threat_search import ThreatSearchEvaluator, append_threat_search
from pyaz.search import SelfPlayRecords
from pyaz.search.solver import MAX_HEIGHT, MAX_WIDTH
from pyaz.train.checkpoint import (
    CHECKPOINT_FILE,
    read_checkpoint,
    write_files,
    write_iteration,
)
from pyaz.train.curriculum import Curriculum
from pyaz.train.replay import ReplayBuffer
from pyaz.train.schedules import (
    LR_SCHEDULES,
    check_window_growth,
    lr_factor,
    schedule_progress,
    scheduled_simulations,
    window_size,
)
from pyaz.train.selfplay_engine import SelfPlayEngine, SelfPlayJob
from pyaz.train.selfplay_parts import (
    PARTS_DIR,
    PartsPlay,
    kept_games,
    merge_records,
    remove_parts,
)
from pyaz.train.sparring import play_sparring
from pyaz.train.targets import merge_duplicates, threat_targets, value_targets
from pyaz.train.trainer import LOSSES, EpochStats, Trainer, TrainSettings

GATINGS = ("none", "threshold", "score", "wilson")
SEARCH_RULES = ("puct", "gumbel")  # TrainConfig.search_rule
GAME_OPTIONS = "--size, --width, --height, --komi, ..."
# threat_planes auto: the planes measured best per game (2026-11-26); elsewhere off
THREAT_AUTO = {"connect_four": "parity", "gomoku": "deep"}  # parity: 2026-11-28
THREAT_AUTO_BEFORE = {"connect_four": "on"}  # what auto meant in runs saved before 2026-11-27
THREAT_PLANES = ("auto", *THREAT_MODES)  # TrainConfig.threat_planes: auto, on, ..., off
# opening_spread none: the spread measured best per game (Connect Four 6x6, 2026-11-27); else 0
OPENING_SPREAD_AUTO = {"connect_four": 24}
# lr_schedule auto: the schedule measured best per game (Connect Four 6x6, 2026-11-28);
# constant for the others
LR_SCHEDULE_AUTO = {"connect_four": "cosine"}
# search_rule auto: the self-play search measured best per game (Gomoku 9x9: Gumbel with the
# MCTS-solver, 2026-11-29); PUCT for the others (Gumbel behind it on Connect Four and Othello)
SEARCH_RULE_AUTO = {"gomoku": "gumbel"}
# solver none: the MCTS-solver beside Gumbel where it measured best (Gomoku 9x9); else off
SOLVER_AUTO = {"gomoku": True}
# epochs none: the training epochs an iteration measured best per game and board (Othello
# 8x8: one, ahead of two in its 30-minute main command over two runs, 2026-12-03); two elsewhere
# (Othello 6x6: one level with two at the same run minute, two runs against one, 2026-12-04)
EPOCHS_AUTO: dict[tuple[str, tuple[int, ...]], int] = {("othello", (8, 8)): 1}
EPOCHS_DEFAULT = 2
# value_target_q none: the z/q blend where it measured best (Gomoku 9x9, 2026-12-01); else z
VALUE_TARGET_Q_AUTO = {"gomoku": 0.5}
# sparring auto: the fixed opponent and its games an iteration where sparring measured best
# (Gomoku 9x9, with imitation of its moves: 0.499 against mentor:20 over five 30-minute runs,
# 0.451 without, 2026-12-02), on the boards that opponent plays (the mentor: 9x9 to 15x15, five
# in a row, overlines win); none for the others
SPARRING_AUTO = {"gomoku": ("mentor:20", 20)}
# sparring_imitation none: on beside sparring games where it measured best (Gomoku 9x9); else off
SPARRING_IMITATION_AUTO = {"gomoku": True}


def _game_board(game: str, options: dict[str, Any]) -> tuple[str, BoardState | None]:
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
        "othello", help="the game (curling: the curling mode)", accepts="a game", option="--game"
    )
    game_options: dict[str, Any] = setting(  # noqa: RUF009
        {"size": 6}, help="the game's options (see --help)", accepts="its", option=GAME_OPTIONS
    )
    iterations: int = setting(100, symbol="I", low=1, help="self-play iterations (50/100/150)")
    max_minutes: float = setting(
        0.0,
        low=0.0,
        high=1e7,
        help="stop after the iteration that takes the run time (self-play, training, gating and "
        "evaluation, summed over resumes) past this many minutes; 0: no limit",
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
        "perfect (connect_four up to 7x6: the share of value-keeping moves on hard positions)",
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
        if self.eval_opponent == PERFECT_OPPONENT:  # Connect Four on a board the solver takes
            if canonical_name(self.game) != "connect_four":
                raise ValueError(
                    f"eval_opponent 'perfect' (agreement with the exact solver) needs "
                    f"connect_four, got game {self.game!r}"
                )
            width, height = state.num_actions, state.board_shape[0]
            if width > MAX_WIDTH or height > MAX_HEIGHT:
                raise ValueError(
                    f"eval_opponent 'perfect' needs a Connect Four board up to {MAX_WIDTH} "
                    f"columns x {MAX_HEIGHT} rows, got {width}x{height}"
                )

    def net_config(self, state: BoardState) -> NetConfig:
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
        """``threat_planes`` with auto resolved for the game (:data:`THREAT_AUTO`)."""
        game = canonical_name(self.game)
        if game not in GAME_PLANES:
            return "off"
        return THREAT_AUTO.get(game, "off") if self.threat_planes == "auto" else self.threat_planes

    @property
    def lr_schedule_used(self) -> str:
        """``lr_schedule`` with auto resolved for the game (:data:`LR_SCHEDULE_AUTO`)."""
        if self.lr_schedule != "auto":
            return self.lr_schedule
        return LR_SCHEDULE_AUTO.get(canonical_name(self.game), "constant")

    @property
    def opening_spread_plies(self) -> int:
        """``opening_spread`` with none resolved: the game's (:data:`OPENING_SPREAD_AUTO`), 0
        beside a curriculum, which chooses the opening plies itself."""
        if self.opening_spread is not None:
            return self.opening_spread
        if self.curriculum != "none":
            return 0
        return OPENING_SPREAD_AUTO.get(canonical_name(self.game), 0)

    @property
    def epochs_used(self) -> int:
        """``epochs`` with none resolved for the game and its board: :data:`EPOCHS_AUTO`'s value
        for the game and board shape, else :data:`EPOCHS_DEFAULT`."""
        if self.epochs is not None:
            return self.epochs
        game, state = _game_board(self.game, self.game_options)
        shape = tuple(state.board_shape) if state is not None else ()
        return EPOCHS_AUTO.get((game, shape), EPOCHS_DEFAULT)

    @property
    def value_target_q_used(self) -> float:
        """``value_target_q`` with none resolved for the game (:data:`VALUE_TARGET_Q_AUTO`;
        elsewhere 0, AlphaZero's z)."""
        if self.value_target_q is not None:
            return self.value_target_q
        return VALUE_TARGET_Q_AUTO.get(canonical_name(self.game), 0.0)

    @property
    def search_used(self) -> tuple[str, bool]:
        """``search_rule`` and ``solver`` with auto and none resolved for the game: the game's
        rule (:data:`SEARCH_RULE_AUTO`), PUCT beside forced playouts (PUCT's technique), and the
        solver on beside Gumbel where :data:`SOLVER_AUTO` says so. (Sparring games are played by
        PUCT whatever the rule: they do not change it.)"""
        game, rule, solver = canonical_name(self.game), self.search_rule, self.solver
        if rule == "auto":
            rule = "puct" if self.forced_playouts else SEARCH_RULE_AUTO.get(game, "puct")
        if solver is None:
            solver = rule == "gumbel" and SOLVER_AUTO.get(game, False)
        return rule, solver

    @property
    def sparring_used(self) -> tuple[str, int, bool]:
        """``sparring``, ``sparring_games`` and ``sparring_imitation`` with auto and none
        resolved for the game and its board: the game's opponent and games
        (:data:`SPARRING_AUTO`) where its opponent, seed 004's mentor, plays the board with its
        rules (overlines win) and the games are not 0, else none and 0 games; imitation on
        beside sparring games where :data:`SPARRING_IMITATION_AUTO` says so."""
        game, state = _game_board(self.game, self.game_options)
        sparring, games, imitation = self.sparring, self.sparring_games, self.sparring_imitation
        auto_games = 0
        if sparring == "auto":
            sparring = "none"
            auto = SPARRING_AUTO.get(game)
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
            imitation = games > 0 and SPARRING_IMITATION_AUTO.get(game, False)
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


PERFECT_OPPONENT = "perfect"
"""The eval_opponent that measures agreement with exact play instead of playing a match."""

RESUMABLE = (
    "iterations", "max_minutes", "threads", "torch_threads", "parallel_games", "runtime",
    "eval_every", "elo_games", "elo_every",
)  # fmt: skip
"""The settings that a resumed run may change (the rest stay as the run's config.json has them):
its length, how this machine runs it (threads, games in flight, network runtime), how often the
same evaluation is played, and the Elo rating done once at the end (not score_weight, which
decides whether the network has a score head). The games may differ
from an uninterrupted run's (as with threads > 1), not what the run learns from or is measured
against: the value targets (value_target_q, dedupe) and the schedules (lr_schedule,
window_growth, simulations_schedule) stay, and so does the schedules' horizon, the iterations
the run was started with (kept in the checkpoint): a resume with more iterations holds their
last values after it. A resume with another max_minutes moves the schedules' time share
(:mod:`pyaz.train.schedules`)."""


_SELF_PLAY_OPTIONS = (
    "parallel_games", "sampling_plies", "threads", "c_puct", "dirichlet_alpha",
    "dirichlet_epsilon", "draw_value", "gumbel_actions", "solver", "rollout_mix",
    "forced_playouts", "full_search_prob", "cheap_simulations",
)  # fmt: skip
"""The :class:`~pyaz.search.SelfPlay` options that self-play takes from the settings as they are."""
_SPARRING_OPTIONS = (
    "sampling_plies", "draw_value", "c_puct", "dirichlet_alpha", "dirichlet_epsilon", "solver",
    "forced_playouts",
)  # fmt: skip
"""The search options of sparring games (:func:`~pyaz.train.sparring.play_sparring`) taken from
the settings as they are."""


def _naming(setting: str, value: str, error: Exception) -> ValueError:
    """A ValueError with the first line of ``error``'s message, naming ``setting`` and
    ``value`` unless it does already."""
    line = (str(error).strip().splitlines() or [type(error).__name__])[0]
    if not line.startswith(setting):
        line = f"{setting}: {line}" if value in line else f"{setting} {value!r}: {line}"
    return ValueError(line)


class TrainingLoop(TrainingRun):
    """Runs a ``TrainConfig`` in ``run_dir``; see the module docstring. ``self_play`` plays the
    self-play games elsewhere (e.g. :class:`pyaz.distributed.RaySelfPlay`); by default they are
    played in this process. Its checkpoint is :func:`~pyaz.train.checkpoint.write_iteration`'s
    (the buffer, ``nets/iter-NNNNN.pt`` and ``best.torchscript.pt``, then ``checkpoint.pt``),
    from iteration 1 on."""

    RESUMABLE = RESUMABLE
    NAME = "alphazero"
    CONFIG = TrainConfig
    CHECKPOINT = CHECKPOINT_FILE
    INITIAL_CHECKPOINT = False  # iteration 0 is the seed's network: nothing to resume from
    LIVE_PLOTS = True  # win_ratio.png, losses.png, stage_times.png while it runs

    @classmethod
    def upgrade_settings(cls, saved: dict[str, Any]) -> dict[str, Any]:
        """A config.json from before a setting is a run without it (the values below): without
        threat planes before threat_planes (2026-11-26), without random opening plies, at a
        constant rate, of PUCT without the solver, with AlphaZero's z, without sparring games
        before sparring's auto (2026-12-02) unless it saved them; every run saved its epochs.
        One that saved threat_planes auto (before 2026-11-27, when runs began to save what auto
        chose) had them on Connect Four alone. Any other auto or null (written by hand: the
        loop saves what they chose) is the game's, as :meth:`TrainConfig.resolved` has it."""
        legacy = {
            "epochs": EPOCHS_DEFAULT,
            "threat_planes": "off",
            "opening_spread": 0,
            "lr_schedule": "constant",
            "search_rule": "puct",
            "solver": False,
            "value_target_q": 0.0,
            "sparring": "none",
            "sparring_games": 0,
            "sparring_imitation": False,
        }
        upgraded = {**legacy, **saved}
        try:
            game = canonical_name(str(upgraded.get("game")))
        except ValueError:
            return upgraded  # not a game: validate() names it
        if upgraded["threat_planes"] == "auto":
            upgraded["threat_planes"] = THREAT_AUTO_BEFORE.get(game, "off")
        # an auto or a null written by hand: the game's, as a run resolves it
        values = {f.name: upgraded[f.name] for f in fields(TrainConfig) if f.name in upgraded}
        try:
            values["game_options"] = dict(upgraded.get("game_options") or {})
            resolved = TrainConfig(**values).resolved()
        except (ValueError, TypeError):
            return upgraded  # a value of the wrong kind: validate() names it
        for name in legacy.keys() - {"threat_planes"}:
            upgraded[name] = getattr(resolved, name)
        return upgraded

    @classmethod
    def starts_process(cls, value: str) -> bool:
        """Whether ``value``, as eval_opponent or sparring, starts an external engine
        (:func:`~pyaz.eval.presets.starts_process`): :meth:`from_folder` refuses such a saved
        one unless it is given again."""
        return presets.starts_process(value)

    def __init__(
        self,
        config: TrainConfig,
        run_dir: Path,
        resume: bool = False,
        progress: bool = True,
        self_play: SelfPlayEngine | None = None,
        lock: FolderLock | None = None,
    ):
        """Checks the settings (:meth:`TrainConfig.validate`, :meth:`TrainConfig.check_players`)
        before anything else; then takes the run folder's lock (``lock``: one the caller holds
        and releases; without it the loop holds its own until :meth:`finish`, or the end of
        :meth:`run`), and with ``resume`` refuses settings that differ from the run's
        config.json other than :data:`RESUMABLE` and restores the last checkpoint (see
        :class:`~pyaz.common.run.TrainingRun`)."""
        config.validate()
        config.check_players()
        config = config.resolved()  # config.json says which planes, spread and schedule auto chose
        self.config = config
        self.engine = self_play
        self.start_state = make(config.game, **config.game_options)
        self._oracle_positions: list[oracle.OraclePosition] | None = None  # eval_opponent perfect
        self.curriculum = Curriculum.named(config.curriculum)
        torch.manual_seed(config.seed)
        torch.set_num_threads(config.network_threads)
        self.rng = np.random.default_rng(config.seed)
        self.current = PolicyValueNet(config.net_config(self.start_state))
        self.best = copy.deepcopy(self.current)
        self._scripted = [to_torchscript(self.current), to_torchscript(self.current)]
        self.trainer = Trainer(self.current, self._train_settings(), self.start_state)
        self.buffer = ReplayBuffer()
        # the analysis of threat_search, for the planes of the positions that enter the buffer
        self.search_planes = (
            GomokuMentor(time_ms=0.0, max_nodes=config.threat_search)
            if config.threat_search
            else None
        )
        self.threat_search_seconds = 0.0  # its time in an iteration (record time_threat_search)
        self._restored_games = 0  # the iteration's self-play games read back from its parts
        probe = random_game_lengths(
            self.start_state, max(1, config.length_probe_games), seed=config.seed
        )
        self.counters: dict[str, float] = {
            **dict.fromkeys(("iteration", "games", "train_steps", "epochs", "trainings"), 0),
            "elapsed_s": 0.0,
            # where the curriculum's running average starts (then it follows the self-play
            # games): the average length of length_probe_games uniformly random games
            "mean_game_length": float(np.mean(probe)),
            "best_iteration": 0,
            # the schedules' horizon: the iterations the run was started with (see RESUMABLE)
            "schedule_horizon": config.iterations,
            # 1: the schedules follow the share of max_minutes spent too (0 in runs saved before)
            "schedule_by_time": 1,
        }
        super().__init__(run_dir, asdict(config), resume, progress, lock)

    def _evaluator(self, net: PolicyValueNet, slot: int) -> Any:
        """``net`` as the search's evaluator on the run's runtime (two slots: gating needs two
        networks at once). On ONNX Runtime or OpenVINO the network is exported with its current
        weights (traced: no source files are read). On TorchScript the networks are scripted
        once per run and get fresh weights here: scripting reads the source files, which should
        not matter (or break) in the middle of a long run."""
        c = self.config
        if c.runtime != "torchscript":
            shape = (net.config.planes, net.config.height, net.config.width)
            return make_evaluator(net, shape, c.runtime, threads=c.network_threads)
        scripted = self._scripted[slot]
        scripted.load_state_dict(net.state_dict())
        evaluator = TorchEvaluator(scripted)
        if net.config.threat_search:
            return ThreatSearchEvaluator(evaluator, net.config.threat_search, net.config.planes)
        return evaluator

    def _min_buffer_games(self) -> int:
        """The games the buffer must hold before the next training."""
        schedule = self.config.min_buffer_schedule
        if schedule:
            return int(schedule[min(int(self.counters["trainings"]), len(schedule) - 1)])
        return self.config.min_buffer_games

    def _train_settings(self) -> TrainSettings:
        c = self.config
        return TrainSettings(
            c.epochs_used,
            c.batch_size,
            c.lr,
            c.l2,
            c.loss,
            c.loss_lambda,
            c.augment,
            score_weight=c.score_weight,
        )

    # -- stages ---------------------------------------------------------------------------------

    def _self_play_job(self, iteration: int) -> SelfPlayJob:
        """The iteration's games: E of them, seeded by the run's seed and the iteration."""
        c = self.config
        epoch = self.counters["epochs"]
        mean_length = self.counters["mean_game_length"]
        version = int(self.counters["best_iteration"]) if c.gating != "none" else iteration - 1
        spread = c.opening_spread_plies
        rule, simulations, _ = self._self_play_search(iteration)
        options = {name: getattr(c, name) for name in _SELF_PLAY_OPTIONS}
        options |= {
            "simulations": simulations,
            "random_opening_plies": spread or self.curriculum.random_plies(epoch, mean_length),
            "random_opening_spread": spread > 0,
            "opening_rollback_plies": -1
            if spread
            else self.curriculum.rollback_plies(epoch, mean_length),
            "rule": rule,
        }
        return SelfPlayJob(c.episodes, c.seed * 1_000_003 + iteration, version, options)

    def _simulations(self, iteration: int) -> int:
        """Self-play's simulations a move at ``iteration`` (``simulations_schedule``)."""
        if not (schedule := self.config.simulations_schedule):
            return self.config.simulations
        return scheduled_simulations(schedule, *self._schedule(iteration))

    def _self_play_search(self, iteration: int) -> tuple[str, int, bool]:
        """Self-play's rule and simulations a move at ``iteration``, and whether it is in the
        warm-up (the schedules' progress below ``gumbel_warmup``): Gumbel at
        ``gumbel_warmup_simulations`` there, else ``search_rule`` at :meth:`_simulations`."""
        c = self.config
        if c.gumbel_warmup > 0 and schedule_progress(*self._schedule(iteration)) < c.gumbel_warmup:
            return "gumbel", c.gumbel_warmup_simulations, True
        return c.search_rule, self._simulations(iteration), False

    def _examples(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict[str, float]]:
        """The training examples of the buffer (planes, policy, value target) and what making
        them measured: value targets blended with the root values (``value_target_q``), then
        duplicates merged (``dedupe``: ``dedupe_share`` of the positions, ``dedupe_merged``
        of them, folded into another one's example)."""
        planes, policy, value, _, measured = self._examples_with_score()
        return planes, policy, value, measured

    def _examples_with_score(
        self,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, float]]:
        """:meth:`_examples` with the score targets (averaged too when ``dedupe``) fourth."""
        c = self.config
        planes, policy, outcome = self.buffer.arrays()
        value = value_targets(outcome, self.buffer.root_values(), c.value_target_q_used)
        score = self.buffer.scores()
        if not c.dedupe:
            return planes, policy, value, score, {}
        symmetries = symmetry_ids(self.start_state) if c.augment else None
        merged = merge_duplicates(planes, policy, value, self.start_state, symmetries, score)
        measured = {"dedupe_share": merged.share, "dedupe_merged": merged.merged}
        assert merged.score is not None
        return merged.planes, merged.policy, merged.value, merged.score, measured

    def _threat_targets(self, records: SelfPlayRecords) -> tuple[SelfPlayRecords, dict[str, Any]]:
        """``records`` with Gomoku's targets corrected (:func:`~pyaz.train.targets.threat_targets`;
        a value the analysis gives replaces the root value q too, so that ``value_target_q``
        keeps it) and what it measured: the share of positions whose policy / value target
        changed, and its time."""
        began = time.perf_counter()
        policy, outcome, decided, counts = threat_targets(
            records.planes,
            records.policy,
            records.outcome,
            self.config.threat_targets,
            bool(getattr(self.start_state, "overline_wins", True)),
        )
        root_value = np.where(decided, outcome, records.root_value).astype(np.float32)
        positions = max(1, records.num_positions)
        measured = {
            "threat_policy_changed": counts["policy_changed"] / positions,
            "threat_value_changed": counts["value_changed"] / positions,
            "time_threats": time.perf_counter() - began,
        }
        return replace(records, policy=policy, outcome=outcome, root_value=root_value), measured

    def _self_play(self, iteration: int) -> SelfPlayRecords:
        job = self._self_play_job(iteration)
        net = self.best if self.config.gating != "none" else self.current
        if self.engine is not None:
            return self.engine.play(job, net)
        evaluator = self._evaluator(net, 0)
        parts = PartsPlay(self.folder, self.start_state, self.progress)
        records = parts.play(job, iteration, evaluator, float(self.counters["mean_game_length"]))
        self._restored_games = parts.restored
        if isinstance(evaluator, ThreatSearchEvaluator):
            self.threat_search_seconds += evaluator.seconds
        return records

    def _spar(
        self, iteration: int, records: SelfPlayRecords
    ) -> tuple[SelfPlayRecords, dict[str, Any]]:
        """``records`` with the network's positions of the iteration's sparring games
        (:func:`~pyaz.train.sparring.play_sparring`; with ``sparring_imitation`` the
        opponent's too) after them, and what they measured: the network's score in them and
        their time."""
        c = self.config  # resolved: an opponent, a number of games, imitation on or off
        began = time.perf_counter()
        net = self.best if c.gating != "none" else self.current
        seed = c.seed * 1_000_003 + iteration + 500_009
        opponent = presets.make_player(c.sparring, self.start_state, seed=seed)
        options = {name: getattr(c, name) for name in _SPARRING_OPTIONS}
        try:
            result = play_sparring(
                self.start_state,
                opponent,
                self._evaluator(net, 0),
                c.sparring_games or 0,
                self._simulations(iteration),
                seed,
                imitate=bool(c.sparring_imitation),
                **options,
            )
        finally:
            close_player(opponent)
        measured = {
            "sparring_score": result.score,
            "sparring_distinct_games": result.match.distinct_games,
            "sparring_positions": result.records.num_positions,
            "time_sparring": time.perf_counter() - began,
        }
        return merge_records([records, result.records]), measured

    def _train(self, iteration: int) -> dict[str, float]:
        """``epochs`` passes over the buffer's examples (:meth:`_examples`) at the learning
        rate of ``lr_schedule``; each epoch's losses (every target) are logged."""
        c = self.config
        planes, policy, outcome, score, measured = self._examples_with_score()
        factor = lr_factor(c.lr_schedule, *self._schedule(iteration))
        self.trainer.set_lr(c.lr * factor)
        if c.lr_schedule != "constant":
            measured["lr"] = c.lr * factor
        stats = None
        epochs = tqdm(
            range(self.config.epochs_used), desc="training", unit="epoch", leave=None,
            disable=not self.progress,
        )  # fmt: skip  # leave None: cleared below the run's line, kept when it is alone
        for _ in epochs:
            stats = self.trainer.train_epoch(planes, policy, outcome, self.rng, score)
            self.counters["train_steps"] += stats.steps
            self.counters["epochs"] += 1
            epochs.set_postfix(loss=f"{stats.loss:.3f}")
            self.log.log(
                {
                    "kind": "train_epoch",
                    "iteration": iteration,
                    "epochs": int(self.counters["epochs"]),
                    "train_steps": int(self.counters["train_steps"]),
                    **self._losses(stats),
                }
            )
            fault_point("train-epoch")
        self.counters["trainings"] += 1
        assert stats is not None
        return {**self._losses(stats), **measured}

    def _losses(self, stats: EpochStats) -> dict[str, float]:
        """The epoch's losses as the metrics record them (``loss_score`` with a score head)."""
        score = self.config.score_weight > 0
        return {
            name: value
            for name, value in asdict(stats).items()
            if name != "steps" and (score or name != "loss_score")
        }

    def _search_player(
        self, net: PolicyValueNet, name: str, seed: int = 0, sampling_plies: int = 0
    ) -> SearchPlayer:
        return SearchPlayer(
            self._evaluator(net, 0 if net is self.best else 1),
            self.config.simulations,
            name=name,
            seed=seed,
            sampling_plies=sampling_plies,
            c_puct=self.config.c_puct,
            draw_value=self.config.draw_value,
            rollout_mix=self.config.rollout_mix,
        )

    def _gate(self, iteration: int) -> dict[str, Any]:
        """The challenger against the best: distinct games from shared random openings, with
        semi-stochastic players (their first ``arena_sampling_plies`` plies drawn from pi)."""
        c = self.config
        seed = c.seed * 1_000_003 + iteration
        plies = c.arena_sampling_plies
        challenger = self._search_player(self.current, "challenger", 2 * seed, plies)
        best = self._search_player(self.best, "best", 2 * seed + 1, plies)
        reason = ""
        if c.gating == "wilson":
            gate = gates.WilsonGate(max_games=c.wilson_max_games)
            decision, result = gate.run(
                challenger, best, self.start_state, self.progress, c.opening_plies, seed
            )
            accepted = decision == "replace"
            reason = gate.reason(result)
        else:
            result = arena.play_match(
                challenger,
                best,
                c.arena_games,
                self.start_state,
                progress=self.progress,
                opening_plies=c.opening_plies,
                seed=seed,
            )
            rule = gates.azg_gate if c.gating == "threshold" else gates.score_gate
            accepted = rule(result, c.update_threshold)
        if accepted:
            self.best = copy.deepcopy(self.current)
            self.counters["best_iteration"] = self.counters["iteration"] + 1
        else:
            self.current.load_state_dict(self.best.state_dict())
        return {
            "arena_score": result.score,
            "arena_wins": result.a_wins,
            "arena_draws": result.draws,
            "arena_losses": result.b_wins,
            "arena_games": result.n,
            "arena_distinct_games": result.distinct_games,
            "arena_stop": reason,
            "accepted": int(accepted),
        }

    def _evaluate(self) -> dict[str, Any] | None:
        c = self.config
        if c.eval_opponent == "none" or c.eval_games < 1:
            return None
        net = self.best if c.gating != "none" else self.current
        if c.eval_opponent == PERFECT_OPPONENT:
            # the network player's share of value-keeping moves on eval_games hard positions
            # (the same seeded set at every evaluation, drawn on first use)
            if self._oracle_positions is None:
                width, height = self.start_state.num_actions, self.start_state.board_shape[0]
                self._oracle_positions = oracle.hard_positions(width, height, c.eval_games, c.seed)
            agreement = oracle.perfect_play_agreement(
                self._search_player(net, "pyaz", seed=c.seed), self._oracle_positions
            )
            return {
                "perfect_agreement": agreement.agreement,
                "perfect_agreement_lower": agreement.lower,
                "perfect_agreement_upper": agreement.upper,
                "opponent": PERFECT_OPPONENT,
                "eval_positions": agreement.positions,
                "eval_kept": agreement.kept,
            }
        opponent = presets.make_player(c.eval_opponent, self.start_state, seed=c.seed)
        try:
            # Greedy play against the reference opponent (seed 000), distinct games from shared
            # random openings; the same openings at every evaluation, so that the curve compares
            # like with like.
            result = arena.play_match(
                self._search_player(net, "pyaz", seed=c.seed),
                opponent,
                c.eval_games,
                self.start_state,
                progress=self.progress,
                opening_plies=c.opening_plies,
                seed=c.seed,
            )
        finally:
            close_player(opponent)
        return {
            "win_ratio": result.score,
            "opponent": c.eval_opponent,
            "eval_games": result.n,
            "eval_distinct_games": result.distinct_games,
            "eval_wins": result.a_wins,
            "eval_draws": result.draws,
            "eval_losses": result.b_wins,
        }

    # -- the loop -------------------------------------------------------------------------------

    def total_steps(self) -> int:
        return self.config.iterations

    def run_seconds(self) -> float:
        """The run's time (``elapsed_s``, what ``max_minutes`` counts)."""
        return float(self.counters["elapsed_s"])

    def time_budget_s(self) -> float | None:
        """``max_minutes`` in seconds (None without it)."""
        return self.config.max_minutes * 60.0 if self.config.max_minutes > 0 else None

    def resumed_work(self) -> str:
        """The self-play games of the iteration in progress kept in its parts ("": none)."""
        kept = kept_games(self.folder, self.step + 1)
        return f"{kept} of its {self.config.episodes} self-play games restored" if kept else ""

    def fraction_done(self) -> float:
        """The share of the iterations played or of ``max_minutes`` spent, the larger."""
        played = int(self.counters["iteration"]) / self.config.iterations
        return min(1.0, max(played, self._time_share()))

    def finished(self) -> bool:
        """Whether every iteration has been played, or the run time passed ``max_minutes``."""
        return int(self.counters["iteration"]) >= self.config.iterations or self._time_share() >= 1

    def _schedule(self, iteration: int) -> tuple[int, int, float]:
        """The schedules' arguments at ``iteration`` (:mod:`pyaz.train.schedules`): it, their
        horizon and the share of ``max_minutes`` spent before it, where they follow it (not in
        runs saved before they did)."""
        by_time = self.counters.get("schedule_by_time", 0)
        horizon = int(self.counters["schedule_horizon"])
        return iteration, horizon, self._time_share() if by_time else 0.0

    def _time_share(self) -> float:
        """The share of ``max_minutes`` spent (0 without a time budget)."""
        budget = self.config.max_minutes * 60.0
        return float(self.counters["elapsed_s"]) / budget if budget > 0 else 0.0

    def finish(self) -> None:
        """After the last iteration: the Elo of every iteration (``elo_games`` > 0)."""
        if self.config.elo_games > 0 and not (self.folder / "elo" / "fit.json").exists():
            self._rate_iterations()

    def _rate_iterations(self) -> None:
        """Seed 001 Fig. 10: Elo of the network of each iteration, the random player at 0.

        Each network plays its two predecessors in the chain random, iteration k, 2k, ...
        (``elo_games`` games a pair), which keeps the cost linear in the number of iterations.
        """
        from pyaz.eval.tournament import rate_run_iterations

        c = self.config
        ratings = rate_run_iterations(
            self.folder,
            c.elo_games,
            c.simulations,
            every=c.elo_every,
            neighbours=2,
            seed=c.seed,
            progress=self.progress,
            out=self.folder / "elo",
        )
        for rating in ratings:
            if rating.name.startswith("iter-"):
                self.log.log(
                    {
                        "kind": "elo",
                        "iteration": int(rating.name.removeprefix("iter-")),
                        "elo": rating.elo,
                        "elo_lower": rating.lower,
                        "elo_upper": rating.upper,
                    }
                )

    def run_step(self, step: int) -> list[dict[str, Any]]:
        """Iteration ``step``: self-play, training (its epochs logged as they end), the gate,
        the evaluation; returns the iteration's record and the evaluation's. On Ctrl-C, says on
        stderr how many of the iteration's self-play games are kept for the resumed run (the
        parts played: :mod:`~pyaz.train.selfplay_parts`), then lets the KeyboardInterrupt go."""
        try:
            return self._iteration(step)
        except KeyboardInterrupt:
            if self.engine is not None:
                raise
            kept, games = kept_games(self.folder, step), self.config.episodes
            where = self.folder / PARTS_DIR
            news = f"its {games} self-play games are kept in {where}; a resumed run trains on them"
            if kept < games:
                news = (
                    f"{kept} finished self-play games of its {games} are kept in {where}; a "
                    f"resumed run plays the other {games - kept}"
                )
            print(f"\ninterrupted in iteration {step}: {news}", file=sys.stderr, flush=True)
            raise

    def _iteration(self, step: int) -> list[dict[str, Any]]:
        """:meth:`run_step`'s work."""
        c, iteration = self.config, step
        began = time.perf_counter()
        self.threat_search_seconds = 0.0
        self._restored_games = 0
        records = self._self_play(iteration)
        restored = self._restored_games  # not played now: games_per_s leaves them out
        fault_point("self-play")
        lengths = records.game_length.astype(np.float64)  # of self-play alone
        sparred: dict[str, Any] = {}
        if c.sparring_games:  # resolved: 0 or more
            records, sparred = self._spar(iteration, records)
        corrected: dict[str, Any] = {}
        if c.threat_targets > 0:
            records, corrected = self._threat_targets(records)
        if self.search_planes is not None:
            appending = time.perf_counter()
            planes = append_threat_search(records.planes, self.search_planes)
            records = replace(records, planes=planes)
            self.threat_search_seconds += time.perf_counter() - appending
        kept = self.buffer.add(
            records, iteration, int(self.counters["games"]), c.drop_draw, self.rng
        )
        self.counters["games"] += records.num_games
        mean_before = self.counters["mean_game_length"]
        self.counters["mean_game_length"] = float(lengths.mean())  # the curriculum's av
        selfplay_done = time.perf_counter()
        record: dict[str, Any] = {
            "kind": "iteration",
            "iteration": iteration,
            "games": records.num_games,
            "games_kept": kept,
            "positions": records.num_positions,
            "buffer_games": self.buffer.num_games,
            "buffer_positions": self.buffer.num_positions,
            "mean_batch": records.mean_batch_size,
            "random_plies": int(records.game_opening.mean()),
            "av_length": mean_before,
            "zeta": self.curriculum.zeta(self.counters["epochs"]),
        }
        if c.simulations_schedule or c.gumbel_warmup > 0:
            _, record["simulations"], warmup = self._self_play_search(iteration)
            record["gumbel_warmup"] = int(warmup)
        if c.threat_search:
            record["time_threat_search"] = self.threat_search_seconds
        record |= sparred | corrected
        if self.engine is not None:
            record.update(self.engine.metrics())
        if self.buffer.num_games >= max(1, self._min_buffer_games()):
            record.update(self._train(iteration))
            if c.retrain_iterations > 0:
                window = window_size(c.window_growth, iteration, c.retrain_iterations)
                self.buffer.keep_last_iterations(window, iteration)
                if c.window_growth:
                    record["window"] = window
            else:
                self.buffer.drop_oldest(c.replacement)
        train_done = time.perf_counter()
        if c.gating != "none" and "loss" in record:
            record.update(self._gate(iteration))
            fault_point("gate")
        elif c.gating == "none":
            self.best.load_state_dict(self.current.state_dict())
        arena_done = time.perf_counter()
        self.counters["elapsed_s"] += arena_done - began
        self.counters["iteration"] = iteration
        record.update(
            time_selfplay=selfplay_done - began,
            time_train=train_done - selfplay_done,
            time_arena=arena_done - train_done,
            games_per_s=(records.num_games - restored) / max(selfplay_done - began, 1e-9),
            train_steps=self.counters["train_steps"],
            epochs=self.counters["epochs"],
            elapsed_s=self.counters["elapsed_s"],
        )
        evaluation = self._evaluate() if iteration % max(1, c.eval_every) == 0 else None
        fault_point("evaluate")
        self.counters["elapsed_s"] += time.perf_counter() - arena_done
        if evaluation is None:
            return [record]
        counted = {key: self.counters[key] for key in ("elapsed_s", "train_steps", "epochs")}
        return [record, {"kind": "eval", "iteration": iteration, **counted, **evaluation}]

    def summary(self, records: list[dict[str, Any]]) -> str:
        record, evaluation = records[0], records[1] if len(records) > 1 else None
        of = "" if self.time_budget_s() else f"/{self.config.iterations}"  # else a mere cap
        parts = [
            f"iter {record['iteration']}{of}",
            f"{record['games_per_s']:.1f} games/s"
            + (f" ({self._restored_games} restored)" if self._restored_games else ""),
            f"{record['positions']} positions (buffer {record['buffer_positions']})",
        ]
        if "loss" in record:
            policy, value = record["loss_policy"], record["loss_value"]
            parts.append(f"loss {record['loss']:.3f} (p {policy:.3f}, v {value:.3f})")
        if "arena_score" in record:
            verdict = "accepted" if record["accepted"] else "rejected"
            parts.append(f"arena {record['arena_score']:.2f} {verdict}")
        if evaluation is not None and "perfect_agreement" in evaluation:
            parts.append(f"perfect-play agreement {evaluation['perfect_agreement']:.2f}")
        elif evaluation is not None:
            parts.append(f"win ratio vs {evaluation['opponent']} {evaluation['win_ratio']:.2f}")
        return " | ".join(parts)

    # -- checkpoints ----------------------------------------------------------------------------

    def save_checkpoint(self) -> None:
        iteration = self.step
        state = {
            "best": net_state(self.best),
            "current": net_state(self.current),
            "optimizer": self.trainer.optimizer.state_dict(),
            "rng": self.rng.bit_generator.state,
            "torch_rng": torch.get_rng_state(),
            "counters": dict(self.counters),
            "config": self.settings,  # config.json's
        }
        files = {
            f"nets/iter-{iteration:05d}.pt": net_file_bytes(
                self.best, self.config.game, self.config.game_options, iteration
            ),
            **self._latest_files(),
        }
        write_iteration(self.folder, iteration, state, self.buffer.to_bytes(), files)
        remove_parts(self.folder, iteration)  # committed: the buffer holds its games

    def _latest_files(self) -> dict[str, bytes]:
        """The files that hold the latest best network, rewritten at every checkpoint: none
        for a threat-search network, whose planes a TorchScript export cannot compute."""
        if self.config.threat_search:
            return {}
        return {TORCHSCRIPT_FILE: torchscript_bytes(self.best)}

    def write_latest(self) -> None:
        write_files(self.folder, self._latest_files())  # on resume: maybe an uncommitted one's

    def restore(self, path: Path) -> int:
        data, buffer = read_checkpoint(path.parent)
        started = data["config"].get("score_weight", 0.0)
        if started != self.config.score_weight:  # a run saved before score_weight existed
            raise ValueError(
                f"{self.folder} was started with score_weight {started}, which a resumed run "
                f"keeps (it decides the network's score head), got {self.config.score_weight}"
            )
        self.best = net_from_state(data["best"])
        self.current.load_state_dict(data["current"]["state_dict"])
        self.trainer.optimizer.load_state_dict(data["optimizer"])
        self.rng.bit_generator.state = data["rng"]
        torch.set_rng_state(data["torch_rng"])
        self.counters.update({"schedule_by_time": 0, **data["counters"]})
        self.buffer = ReplayBuffer.from_bytes(buffer)
        if self.config.score_weight > 0 and not self.buffer.has_scores:
            raise ValueError(
                f"{self.folder}'s replay buffer has no score targets (an older pyaz wrote it): "
                "score_weight must be 0"
            )
        remove_parts(self.folder, int(self.counters["iteration"]))  # a kill after the commit
        return int(self.counters["iteration"])
