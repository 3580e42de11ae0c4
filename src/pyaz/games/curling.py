"""Digital curling from Python: state, shots, simulation, scoring, rendering, network features,
the 32x32x2 target grid, the multi-end win-probability table, KR-UCT / rule-based shot choosers,
and :class:`CurlingState`, curling as a :class:`~pyaz.games.state.GameState` that the arena
(:mod:`pyaz.eval.arena`) drives like any board game.

The simulator, rules and search live in C++ (``pyaz._core.curling``); see docs/curling.md for the
model choices. Coordinates: DigitalCurling3's shot frame, metres, the hack at (0, 0), +y down the
sheet, the tee at (0, TEE_Y)::

    >>> from pyaz.games import curling
    >>> state = curling.new_game(num_ends=2)
    >>> curling.simulate(state, curling.draw(0.0, curling.TEE_Y))
    False
    >>> curling.score(state)
    (1, 0)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from pyaz._core import Status
from pyaz._core import curling as _c
from pyaz.games.state import ActionRecord

Game = _c.GameState
"""The simulator's game in progress: the rules, the stones on the sheet, the end and shot, the
hammer and the scores (:class:`CurlingState` is curling as a game of the arena)."""
Shot = _c.Shot
Target = _c.Target
Physics = _c.Physics
Noise = _c.Noise
NoiseParams = _c.NoiseParams
PhysicsParams = _c.PhysicsParams
Rules = _c.Rules
KrUctParams = _c.KrUctParams
KrUctResult = _c.KrUctResult
RootChild = _c.RootChild
simulate_batch = _c.simulate_batch
rest_point = _c.rest_point
target_to_shot = _c.target_to_shot
shot_to_target = _c.shot_to_target
kr_uct_search = _c.kr_uct_search
kr_uct_search_many = _c.kr_uct_search_many
rule_based_shot = _c.rule_based_shot
generate_shots = _c.generate_shots
perturb = _c.perturb
house_value_team0 = _c.house_value_team0

STONE_RADIUS: float = _c.STONE_RADIUS
SHEET_HALF_WIDTH: float = _c.SHEET_HALF_WIDTH
HOG_LINE_Y: float = _c.HOG_LINE_Y
TEE_Y: float = _c.TEE_Y
BACK_LINE_Y: float = _c.BACK_LINE_Y
HOUSE_RADIUS: float = _c.HOUSE_RADIUS

GRID = 32
NUM_ACTIONS = GRID * GRID * 2
NUM_PLANES = 12
SCORE_BINS = 17  # end score -8..+8 for the team to move
# Target grid rows along the sheet: 24 "weak" rows from guards to the back of the house and 8
# "strong" rows of virtual stop points far beyond the back line (hit weights 2.7-3.6 m/s in FCV1).
WEAK_Y = np.linspace(33.0, 41.0, 24)
STRONG_Y = np.linspace(47.0, 85.0, 8)
GRID_Y = np.concatenate([WEAK_Y, STRONG_Y])
GRID_X = np.linspace(-2.2, 2.2, GRID)


def new_game(
    num_ends: int = 8, physics: str = "fcv1", fgz_shots: int = 5, extra_ends: int = 0
) -> Game:
    """A new game: team 0 throws first, team 1 holds the hammer in the first end. A game tied
    after ``num_ends`` goes on with up to ``extra_ends`` extra ends until one is scored (0: the
    tie stands)."""
    if physics.lower() not in ("fcv1", "gat"):
        raise ValueError(f"physics must be 'fcv1' or 'gat', got {physics!r}")
    rules = Rules()
    rules.num_ends = num_ends
    rules.extra_ends = extra_ends
    rules.fgz_shots = fgz_shots
    rules.physics = PhysicsParams.gat() if physics.lower() == "gat" else PhysicsParams.fcv1()
    return Game(rules)


def draw(x: float, y: float, spin: int = 1, physics: Physics = Physics.FCV1) -> Shot:
    """The shot that comes to rest at (x, y) on an empty sheet."""
    return target_to_shot(Target(x, y, spin), physics)


def simulate(
    state: Game, shot: Shot | Target, noise: NoiseParams | None = None, seed: int = 0
) -> bool:
    """Throw the next stone of ``state`` in place (a Target is converted first); True on a FGZ foul.
    The end is scored after its 16th stone."""
    if isinstance(shot, Target):
        shot = target_to_shot(shot, state.rules.physics.model)
    if noise is None or noise.model == Noise.NONE:
        return bool(state.apply(shot))
    return bool(state.apply_noisy(shot, noise, seed))


def score(state: Game) -> tuple[int, int]:
    """(team 0, team 1) points if the current end finished now."""
    a, b = state.house_score()
    return int(a), int(b)


def render_text(state: Game) -> str:
    """A small text picture of the house (rows along the sheet, 'o' team 0, 'x' team 1)."""
    cols, rows = 39, 21
    y0, y1 = TEE_Y - 3.0, BACK_LINE_Y + 0.3
    xs = -SHEET_HALF_WIDTH + (np.arange(cols) + 0.5) * 2 * SHEET_HALF_WIDTH / cols
    ys = y1 - (np.arange(rows) + 0.5) * (y1 - y0) / rows
    ring = np.abs(np.hypot(xs[None, :], ys[:, None] - TEE_Y) - HOUSE_RADIUS) < 0.08
    canvas = [["." if dot else " " for dot in row] for row in ring]
    for i, (x, y, alive) in enumerate(state.stones()):
        if not alive or not (y0 <= y <= y1):
            continue
        k = int((x + SHEET_HALF_WIDTH) / (2 * SHEET_HALF_WIDTH) * cols)
        r = int((y1 - y) / (y1 - y0) * rows)
        if 0 <= k < cols and 0 <= r < rows:
            canvas[r][k] = "o" if state.team_of(i) == 0 else "x"
    header = f"end {state.end} shot {state.shot} hammer {state.hammer} score {score(state)}"
    return "\n".join([header] + ["|" + "".join(row) + "|" for row in canvas])


def render_png(state: Game, path: str | Path, title: str | None = None) -> Path:
    """Draw the house and the stones in play with matplotlib and save a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Circle

    fig, ax = plt.subplots(figsize=(4, 5))
    for radius, colour in [
        (HOUSE_RADIUS, "#3b6fd6"),
        (1.219, "white"),
        (0.610, "#d63b3b"),
        (0.152, "white"),
    ]:
        ax.add_patch(Circle((0.0, TEE_Y), radius, color=colour, zorder=1))
    ax.axhline(TEE_Y, color="grey", lw=0.5)
    ax.axhline(BACK_LINE_Y, color="black", lw=1)
    ax.axhline(HOG_LINE_Y, color="red", lw=1)
    ax.axvline(0.0, color="grey", lw=0.5)
    for i, (x, y, alive) in enumerate(state.stones()):
        if alive:
            colour = "#f2c200" if state.team_of(i) == 0 else "#c03030"
            ax.add_patch(
                Circle((x, y), STONE_RADIUS, facecolor=colour, edgecolor="black", zorder=3)
            )
            ax.text(x, y, str(i), ha="center", va="center", fontsize=6, zorder=4)
    ax.set_xlim(-SHEET_HALF_WIDTH, SHEET_HALF_WIDTH)
    ax.set_ylim(HOG_LINE_Y - 0.5, BACK_LINE_Y + 0.6)
    ax.set_aspect("equal")
    ax.set_title(title or f"end {state.end}, shot {state.shot}, score {score(state)}", fontsize=8)
    out = Path(path)
    fig.savefig(out, dpi=100, bbox_inches="tight")
    plt.close(fig)
    return out


# ---- network features and the discrete target grid -------------------------------------------


def _cell(x: float, y: float) -> tuple[int, int] | None:
    col = int((x + SHEET_HALF_WIDTH) / (2 * SHEET_HALF_WIDTH) * GRID)
    row = int((y - HOG_LINE_Y) / (BACK_LINE_Y + STONE_RADIUS - HOG_LINE_Y) * GRID)
    if 0 <= col < GRID and 0 <= row < GRID:
        return row, col
    return None


def encode(state: Game) -> np.ndarray:
    """Input planes [NUM_PLANES, 32, 32] for the team to move (rows along the sheet from the hog
    line to the back line, columns across): own / opponent / empty, ones, stone in house, own and
    opponent nearest stone, the stones ranked 1st-3rd nearest overall, shot number / 15, hammer,
    free guard zone active."""
    planes = np.zeros((NUM_PLANES, GRID, GRID), dtype=np.float32)
    me = state.to_move
    stones = state.stones()
    dist = np.where(stones[:, 2] > 0, np.hypot(stones[:, 0], stones[:, 1] - TEE_Y), np.inf)
    order = np.argsort(dist)
    teams_seen: set[int] = set()
    for rank, i in enumerate(order):
        if not np.isfinite(dist[i]):
            break
        team = state.team_of(int(i))
        nearest_of_team = team not in teams_seen
        teams_seen.add(team)
        cell = _cell(stones[i, 0], stones[i, 1])
        if cell is None:
            continue
        mine = team == me
        planes[0 if mine else 1][cell] = 1.0
        if dist[i] < HOUSE_RADIUS + STONE_RADIUS:
            planes[4][cell] = 1.0
        if nearest_of_team:
            planes[5 if mine else 6][cell] = 1.0
        if rank < 3:
            planes[7 + rank][cell] = 1.0
    planes[2] = 1.0 - planes[0] - planes[1]
    planes[3] = 1.0
    planes[10] = state.shot / 15.0
    planes[11] = 1.0 if state.hammer == me else 0.0
    return planes


def action_to_target(action: int) -> Target:
    """Grid action 2 * (32 * row + col) + spin_bit -> target (spin_bit 0 = ccw +1, 1 = cw -1)."""
    cell, spin_bit = divmod(int(action), 2)
    row, col = divmod(cell, GRID)
    return Target(float(GRID_X[col]), float(GRID_Y[row]), 1 if spin_bit == 0 else -1)


def target_to_action(target: Target) -> int:
    """The nearest grid action to a target (targets between the two zones go to the nearer)."""
    col = int(np.argmin(np.abs(GRID_X - target.x)))
    row = int(np.argmin(np.abs(GRID_Y - target.y)))
    return 2 * (GRID * row + col) + (0 if target.spin >= 0 else 1)


def mirror_actions(actions: np.ndarray) -> np.ndarray:
    """Grid actions of the left-right mirror image: column reversed, spin flipped (the grid's x
    values are symmetric about the centre line, and a mirrored curl needs the other spin)."""
    cell, spin_bit = np.divmod(np.asarray(actions), 2)
    row, col = np.divmod(cell, GRID)
    return 2 * (GRID * row + (GRID - 1 - col)) + (1 - spin_bit)


# ---- multi-end strategy ------------------------------------------------------------------------


def win_probability_table(
    end_score_probs: Sequence[float],
    max_ends: int = 10,
    max_diff: int = 24,
    extra_end_win: float = 0.26,
) -> np.ndarray:
    """P_win[n, d + max_diff] for the team throwing first in an end, with n ends left (the coming
    end included) and score difference d (its points minus the hammer team's).

    ``end_score_probs`` (17 values) is the one-end distribution of the first thrower's points
    minus the hammer team's, -8..+8. The hammer passes to the team that did not score; a blank
    keeps it. After the last end: win if ahead, ``extra_end_win`` when tied (the first thrower's
    chance in an extra end; 0.26 from the hammer team's 74% in real extra ends, Ayumu used 0.219).
    Seed 002 Table 1 / ICML18 section 5.3 have this shape."""
    probs = np.asarray(end_score_probs, dtype=np.float64)
    probs = probs / probs.sum()
    diffs = np.arange(-max_diff, max_diff + 1)
    table = np.zeros((max_ends + 1, len(diffs)))
    table[0] = np.where(diffs > 0, 1.0, np.where(diffs < 0, 0.0, extra_end_win))
    for n in range(1, max_ends + 1):
        for k, p in enumerate(probs):
            s = k - 8
            nd = np.clip(diffs + s, -max_diff, max_diff)
            if s < 0:  # the hammer team scored: it throws first next end, seen from its side
                table[n] += p * (1.0 - table[n - 1][-nd + max_diff])
            else:  # a steal or a blank: the same team throws first next end
                table[n] += p * table[n - 1][nd + max_diff]
    return table


# Seed 002 Table 1 (KR-DRL-MES): P_win for the first thrower, rows n = 0..8 ends remaining after
# the coming end's result is known, columns score difference <= -4, -3, ..., +3, >= +4. Rows 9 and
# 10 of the paper are incomplete and left out; row 0 counts a tie as half a win.
SEED002_TABLE1 = np.array(
    [
        [0.000, 0.000, 0.000, 0.000, 0.500, 1.000, 1.000, 1.000, 1.000],
        [0.000, 0.002, 0.013, 0.075, 0.127, 0.355, 0.725, 0.915, 0.981],
        [0.017, 0.020, 0.058, 0.174, 0.435, 0.708, 0.860, 0.945, 0.981],
        [0.020, 0.027, 0.062, 0.144, 0.273, 0.467, 0.691, 0.854, 0.939],
        [0.058, 0.063, 0.114, 0.230, 0.412, 0.610, 0.770, 0.880, 0.938],
        [0.063, 0.072, 0.115, 0.205, 0.339, 0.506, 0.677, 0.813, 0.894],
        [0.103, 0.110, 0.159, 0.262, 0.408, 0.569, 0.715, 0.825, 0.889],
        [0.112, 0.119, 0.163, 0.250, 0.374, 0.520, 0.663, 0.779, 0.842],
        [0.147, 0.153, 0.198, 0.288, 0.411, 0.550, 0.679, 0.781, 0.843],
    ]
)


def seed002_table(max_diff: int = 24) -> np.ndarray:
    """Seed 002 Table 1 in :func:`win_probability_table`'s layout ``[n, d + max_diff]`` (n = 0..8),
    differences beyond +-4 saturated to the paper's "<= -4" / ">= +4" columns."""
    diffs = np.clip(np.arange(-max_diff, max_diff + 1), -4, 4) + 4
    return SEED002_TABLE1[:, diffs].copy()


def end_counts(end_scores: Sequence[tuple[int, int]]) -> np.ndarray:
    """17 counts of one game's ends by the first thrower's points minus the hammer team's (team 1
    holds the hammer in end 1; the scorer throws first next end; a blank keeps the hammer): what
    :func:`end_score_distribution` normalises."""
    counts = np.zeros(SCORE_BINS, dtype=np.int64)
    hammer = 1
    for a, b in end_scores:
        diff = (a - b) if hammer == 1 else (b - a)
        counts[int(np.clip(diff, -8, 8)) + 8] += 1
        if a != b:
            hammer = 1 if a > b else 0
    return counts


def end_score_distribution(records: Sequence[GameRecord]) -> np.ndarray:
    """The one-end score distribution (17 bins, first thrower's points minus the hammer team's,
    -8..+8) over every end of ``records``: the input of :func:`win_probability_table`."""
    counts = sum((end_counts(record.end_scores) for record in records), np.zeros(SCORE_BINS))
    if counts.sum() == 0:
        raise ValueError("no finished ends in the records")
    return counts / counts.sum()


def score_to_distribution(expected: float) -> np.ndarray:
    """A 17-bin distribution with the given mean (clipped to -8..+8) on the two nearest integers,
    so that an expected end score can go through :func:`win_rate_after_end` too."""
    expected = float(np.clip(expected, -8.0, 8.0))
    low = int(np.floor(expected))
    probs = np.zeros(SCORE_BINS)
    frac = expected - low
    probs[low + 8] += 1.0 - frac
    if frac > 0.0:
        probs[low + 9] += frac
    return probs


def win_rate_after_end(
    end_probs_team0: Sequence[float] | np.ndarray,
    diff_team0: int,
    hammer: int,
    ends_after: int,
    table: np.ndarray,
) -> float:
    """Team 0's chance to win the game, given the distribution of the current end's score
    (17 bins, team 0's points minus team 1's, -8..+8), the game score difference before the end
    (team 0 minus team 1), the team holding the hammer in this end and the number of ends left
    after it. ``table`` is P_win[n, d + max_diff] for the first thrower (win_probability_table or
    seed002_table). After the end the scorer throws first; a blank keeps the hammer:
    P0 = sum_s p(s) * (P_win[n, D] if team 0 throws first next, else 1 - P_win[n, -D])."""
    probs = np.asarray(end_probs_team0, dtype=np.float64)
    if probs.shape != (SCORE_BINS,):
        raise ValueError(f"expected {SCORE_BINS} score bins, got shape {probs.shape}")
    if not 0 <= ends_after < table.shape[0]:
        raise ValueError(f"ends_after={ends_after} outside the table's 0..{table.shape[0] - 1}")
    max_diff = (table.shape[1] - 1) // 2
    k = np.flatnonzero(probs)  # the bins of the scores s = k - 8 that can happen
    d = np.clip(diff_team0 + k - 8, -max_diff, max_diff).astype(np.int64)  # as int() did
    team0_first = (k > 8) | ((k == 8) & (hammer == 1))
    row = table[ends_after]
    p0 = np.where(team0_first, row[d + max_diff], 1.0 - row[max_diff - d])
    return float(sum(probs[k] * p0, 0.0))


def state_win_rate(
    state: Game, end_probs_mover: Sequence[float] | np.ndarray, table: np.ndarray
) -> float:
    """Team 0's win chance at a position inside an end, given the end-score distribution for the
    team to move (the network's 17 value bins). Finished ends (16 stones thrown, not yet scored)
    should pass the one-hot of their real score."""
    probs = np.asarray(end_probs_mover, dtype=np.float64)
    probs_team0 = probs if state.to_move == 0 else probs[::-1]
    a, b = state.total_score()
    # in an extra end no end follows unless it is blank: row 0 (a tie there is worth the
    # table's extra-end value)
    ends_after = max(0, state.rules.num_ends - state.end - 1)
    return win_rate_after_end(probs_team0, int(a - b), state.hammer, ends_after, table)


def house_score_distribution(state: Game) -> np.ndarray:
    """One-hot 17 bins of the house score as if the end finished now, for the team to move."""
    a, b = score(state)
    mine = (a - b) if state.to_move == 0 else (b - a)
    return np.eye(SCORE_BINS)[int(np.clip(mine, -8, 8)) + 8]


# ---- players -----------------------------------------------------------------------------------

ShotChooser = Callable[[Game, int], Target]
"""What picks a shot: ``chooser(game, seed)``, the target to throw in ``game`` with the seed of
its random choices (:class:`~pyaz.eval.players.ShotPlayer` makes one a player of the arena)."""
# evaluator(state) -> (value for team 0, candidate targets [K, 3] or None, weights [K] or None)
LeafEvaluatorFn = Callable[[Game], tuple[float, np.ndarray | None, np.ndarray | None]]
# batch evaluator(states) -> (values for team 0 [N], candidate targets [K, 3] shared by the N
# states or None, weights [N, K] or None): what kr_uct_search_many calls once per round
BatchEvaluatorFn = Callable[[list[Game]], tuple[np.ndarray, np.ndarray | None, np.ndarray | None]]


def rule_based_player(noise: NoiseParams | None = None, samples: int = 4) -> ShotChooser:
    """The greedy hand-made player: best generated shot by mean house score over noisy samples."""
    model = noise or NoiseParams(Noise.GAT)
    return lambda state, seed: rule_based_shot(state, model, samples, seed)


def kr_uct_player(
    simulations: int = 400, evaluator: LeafEvaluatorFn | None = None, **options: float
) -> ShotChooser:
    """KR-UCT (house-score leaves, generated shots) or, with a network evaluator, KR-DL-UCT."""

    def play(state: Game, seed: int) -> Target:
        params = KrUctParams()
        params.simulations = simulations
        params.seed = seed
        for key, value in options.items():
            setattr(params, key, value)
        return kr_uct_search(state, params, evaluator).best

    return play


@dataclass
class GameRecord:
    """A finished game: per-end scores and every shot (end, shot, team, intended target, executed
    shot after noise), so that replaying the executed shots reproduces the game exactly."""

    end_scores: list[tuple[int, int]]
    shots: list[tuple[int, int, int, Target, Shot]]

    @property
    def total(self) -> tuple[int, int]:
        return sum(s[0] for s in self.end_scores), sum(s[1] for s in self.end_scores)


NOISES: dict[str, Noise] = {"gat": Noise.GAT, "dc3": Noise.DC3, "none": Noise.NONE}
"""The execution-noise models by name."""


@dataclass
class CurlingState:
    """Curling as a :class:`~pyaz.games.state.GameState` with continuous actions (a
    :class:`Target`): ``apply`` throws the target's shot with execution noise drawn from the
    state's ``seed`` and the shot's number (shot k of a game: seed ``seed * 7919 + k``), so
    that a game is a function of its seed and its players' targets
    (:func:`pyaz.methods.kr_dl_uct.records.replay`).
    Team 0 is side 0 (it throws first in the first end); the game is won on total points, a tie
    after the extra ends is a draw. ``executed`` keeps every shot as thrown."""

    game: Game
    noise: NoiseParams = field(default_factory=lambda: NoiseParams(Noise.GAT))
    seed: int = 0
    executed: list[Shot] = field(default_factory=list)
    name: str = "curling"

    @property
    def ply(self) -> int:
        """Shots thrown so far."""
        return len(self.executed)

    def to_move(self) -> int:
        return int(self.game.to_move)

    def is_terminal(self) -> bool:
        return bool(self.game.is_game_over)

    def status(self) -> Status:
        """ONGOING, or the result on total points (team 0 is the first player)."""
        if not self.game.is_game_over:
            return Status.ONGOING
        a, b = self.game.total_score()
        if a == b:
            return Status.DRAW
        return Status.FIRST_PLAYER_WIN if a > b else Status.SECOND_PLAYER_WIN

    def is_legal(self, action: object) -> bool:
        """Any target with finite coordinates and a spin of +1 or -1, while the game goes on."""
        return (
            isinstance(action, Target)
            and bool(np.isfinite([action.x, action.y]).all())
            and action.spin in (1, -1)
            and not self.is_terminal()
        )

    def apply(self, action: Target) -> None:
        """Throws ``action`` with the state's execution noise."""
        if not self.is_legal(action):
            raise ValueError(f"{action!r} is not a shot to throw here")
        model = self.game.rules.physics.model
        shot = perturb(
            target_to_shot(action, model), self.noise, model, self.seed * 7919 + self.ply
        )
        self.game.apply(shot)
        self.executed.append(shot)

    def clone(self) -> CurlingState:
        return CurlingState(self.game.copy(), self.noise, self.seed, list(self.executed), self.name)

    def with_seed(self, seed: int) -> CurlingState:
        """A copy whose coming shots draw their noise from ``seed``."""
        copy = self.clone()
        copy.seed = int(seed)
        return copy

    def __str__(self) -> str:
        return render_text(self.game)


def _write_target(target: Target) -> tuple[float, float, int]:
    """A target as a record keeps it: (x, y, spin), a list [x, y, spin] in JSON."""
    return (float(target.x), float(target.y), int(target.spin))


def _read_target(value: Any) -> Target | None:
    """A target from a record's [x, y, spin] (finite coordinates, spin 1 or -1), or None."""
    if not isinstance(value, list) or len(value) != 3:
        return None
    x, y, spin = value
    coordinates = all(isinstance(v, float) and math.isfinite(v) for v in (x, y))
    if not coordinates or type(spin) is not int or spin not in (1, -1):
        return None
    return Target(x, y, spin)


TARGETS = ActionRecord("a target [x, y, spin] (spin 1 or -1)", _write_target, _read_target)
"""How a record keeps curling's actions (:class:`Target`): [x, y, spin]."""


def make_state(
    ends: int = 2,
    noise: str = "gat",
    physics: str = "fcv1",
    extra_ends: int = 0,
    seed: int = 0,
) -> CurlingState:
    """A new :class:`CurlingState`: ``ends`` ends (1..100), noise ``gat``, ``dc3`` or ``none``,
    physics ``fcv1`` or ``gat``, up to ``extra_ends`` (0..100) extra ends to break a tie, the
    noise drawn from ``seed`` (>= 0): what ``pyaz.make("curling", **options)`` builds.
    ValueError naming the option out of its range."""
    if noise not in NOISES:
        raise ValueError(f"noise must be one of {', '.join(NOISES)}, got {noise!r}")
    if not 1 <= ends <= 100:
        raise ValueError(f"ends must be in 1..100, got {ends}")
    if not 0 <= extra_ends <= 100:
        raise ValueError(f"extra_ends must be in 0..100, got {extra_ends}")
    if seed < 0:
        raise ValueError(f"seed must be >= 0, got {seed}")
    game = new_game(num_ends=ends, physics=physics, extra_ends=extra_ends)
    return CurlingState(game, NoiseParams(NOISES[noise]), seed)
