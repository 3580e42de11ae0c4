"""The per-game values that auto (or none) takes in a setting of
:class:`~pyaz.train.config.TrainConfig`: each table holds the games where a value measured best,
with the date and figure that chose it; every other game takes the value its comment names.
"""

from __future__ import annotations

# threat_planes auto: the planes measured best per game (2026-11-26); elsewhere off
THREAT_AUTO = {"connect_four": "parity", "gomoku": "deep"}  # parity: 2026-11-28
THREAT_AUTO_BEFORE = {"connect_four": "on"}  # what auto meant in runs saved before 2026-11-27
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
