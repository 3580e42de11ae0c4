"""The techniques registry: every technique tried on top of the AlphaZero loop, one entry each
(:data:`TECHNIQUES`), and the core settings a user needs (:data:`CORE`). Every field of
:class:`~pyaz.methods.alphazero.config.TrainConfig` belongs to exactly one of them
(tests/test_techniques.py checks the partition).

A technique is its settings (the TrainConfig fields it owns), what ``pyaz-selfplay --technique
NAME`` switches on (field values), where it hooks in (for the reader: ``module:qualified.name``),
and its measured effect with its verdict, the date it was measured and a link into the docs
(each figure copied from docs/results.md and the lab notebook, docs/results/accelerations-cpu.md).
Switching a technique on changes nothing but the values of its settings: the run saves them in
its config.json as if they had been given one by one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = [
    "CORE",
    "TECHNIQUES",
    "Technique",
    "markdown_tables",
    "owner",
    "switched_on",
    "switches_text",
]

NOTEBOOK = "results/accelerations-cpu.md#"
"""The lab notebook's dated sections (links are relative to docs/)."""


@dataclass(frozen=True)
class Technique:
    """One technique: ``name`` (kebab-case, what ``--technique`` takes), a one-line
    ``summary``, the TrainConfig fields it owns (``settings``), the values ``--technique NAME``
    gives (``switches_on``; a value may also set a core field the technique needs), where it
    hooks in (``hooks``: ``module:qualified.name``), the ``effect`` measured with its figures,
    the ``verdict``, the date it was ``measured`` ("" where it was not) and a docs ``link``
    (relative to docs/)."""

    name: str
    summary: str
    settings: tuple[str, ...]
    switches_on: Mapping[str, Any]
    hooks: tuple[str, ...]
    effect: str
    verdict: str
    measured: str
    link: str


CORE = (
    "game", "game_options", "iterations", "max_minutes", "episodes", "sampling_plies",
    "simulations", "c_puct", "retrain_iterations", "epochs", "batch_size", "lr", "dropout",
    "opening_plies", "augment", "net", "blocks", "filters", "value_hidden", "dirichlet_alpha",
    "dirichlet_epsilon", "parallel_games", "threads", "torch_threads", "runtime", "eval_every",
    "eval_games", "eval_opponent", "seed",
)  # fmt: skip
"""The TrainConfig fields every run sets: the game and its board, the loop's size and time, the
search, the network and its training, the machine, the evaluation, the seed."""

_LOOP = "pyaz.methods.alphazero.loop:TrainingLoop."
_ENTRIES = (
    Technique(
        name="playout-cap",
        summary="KataGo's playout cap randomisation (Wu 2019, 3.1): a full search on a share "
        "of the moves, the only training examples, a cheap one on the others",
        settings=("full_search_prob", "cheap_simulations"),
        switches_on={"full_search_prob": 0.25, "cheap_simulations": 0},
        hooks=("pyaz.search.selfplay:SelfPlay", _LOOP + "_self_play_job"),
        effect="Othello 8x8, the 30-minute main command, one run, against gtp-rhino level 3: "
        "0.315 at 100 simulations (paired +0.020 [-0.061, +0.101]) and 0.800 [0.706, 0.871] at "
        "800 (paired +0.055 [-0.048, +0.155]), level. Connect Four 6x6, two runs, 12 minutes: "
        "0.857 [0.803, 0.910]",
        verdict="no gain here",
        measured="2026-12-03",
        link=NOTEBOOK
        + "2026-12-03-close-playout-cap-randomisation-in-othellos-30-minute-main-command",
    ),
    Technique(
        name="forced-playouts",
        summary="KataGo's forced playouts and policy target pruning (Wu 2019, 3.2; PUCT only)",
        settings=("forced_playouts",),
        switches_on={"forced_playouts": True},
        hooks=(
            "pyaz.search.search:Search",
            "pyaz.methods.alphazero.config:TrainConfig.search_used",
        ),
        effect="Connect Four 6x6, two runs each: 0.847 [0.843, 0.850] (baseline 0.857 "
        "[0.837, 0.877])",
        verdict="no gain here",
        measured="2026-11-27",
        link=NOTEBOOK + "2026-11-27-gomoku-for-60-minutes-the-alphagomoku-pair-with-threat-"
        "planes-forced-playouts",
    ),
    Technique(
        name="gumbel",
        summary="Gumbel AlphaZero's root search in self-play (Danihelka et al. 2022): "
        "Gumbel-top-k root moves, sequential halving, the completed-Q policy target",
        settings=("search_rule", "gumbel_actions"),
        switches_on={"search_rule": "gumbel", "gumbel_actions": 16},
        hooks=("pyaz.search.search:Search", _LOOP + "_self_play_search"),
        effect="Gomoku 9x9 with the solver, three runs: 0.455 [0.398, 0.513] at 1,200 "
        "simulations over 300 games against PUCT's 0.380 and 0.380 (paired +0.075 [0.019, "
        "0.130]); alone, one run: 0.370 [0.277, 0.473] at 800. At 16 simulations: Connect Four "
        "6x6, two runs, 0.877 [0.837, 0.917] (baseline 0.882 [0.867, 0.897]); Othello 8x8, one "
        "run, 0.779 against UCT-200 (baseline 0.917)",
        verdict="default on gomoku with the solver (search_rule auto, since 2026-11-29); no "
        "gain on the other games",
        measured="2026-11-29",
        link=NOTEBOOK + "2026-11-29-late-night-gumbel-with-the-solver-becomes-gomokus-self-play-"
        "search",
    ),
    Technique(
        name="gumbel-warmup",
        summary="Gumbel with few simulations early in the run, then --search-rule (a hybrid, "
        "not in a paper)",
        settings=("gumbel_warmup", "gumbel_warmup_simulations"),
        switches_on={"gumbel_warmup": 0.33, "gumbel_warmup_simulations": 16},
        hooks=(_LOOP + "_self_play_search",),
        effect="Othello 8x8, one run, against gtp-rhino level 3: 0.240 at 100 simulations "
        "(paired -0.055 [-0.128, +0.020]) and 0.560 [0.457, 0.658] at 800 (paired -0.185 "
        "[-0.287, -0.080])",
        verdict="worse here (behind at 800 simulations)",
        measured="2026-12-03",
        link=NOTEBOOK + "2026-12-03-evening-gumbel-early-puct-later-in-othellos-self-play",
    ),
    Technique(
        name="solver",
        summary="the MCTS-solver in self-play (Winands et al. 2008): proven results "
        "propagated and played",
        settings=("solver",),
        switches_on={"solver": True},
        hooks=(
            "pyaz.search.search:Search",
            "pyaz.methods.alphazero.config:TrainConfig.search_used",
        ),
        effect="Othello 8x8, one run: 0.338 [0.273, 0.408] at 100 simulations (paired -0.099 "
        "[-0.198, -0.007]) and 0.853 [0.794, 0.897] at 800 (paired -0.057 [-0.120, +0.008]). "
        "Gomoku 9x9 with PUCT, one run: 0.295 [0.210, 0.396] at 800. Connect Four 6x6, two "
        "runs: 0.842 [0.803, 0.880]",
        verdict="no gain here alone; on beside gumbel on gomoku (solver none)",
        measured="2026-12-05",
        link=NOTEBOOK + "2026-12-05-the-window-of-retained-iterations-and-the-mcts-solver-in-"
        "self-play-on-othello-8x8",
    ),
    Technique(
        name="rollout-mix",
        summary="AlphaGo's mixed leaf value (Silver et al. 2016): the network's value mixed "
        "with the result of one random playout",
        settings=("rollout_mix",),
        switches_on={"rollout_mix": 0.5},
        hooks=("pyaz.search.selfplay:SelfPlay", _LOOP + "_search_player"),
        effect="Othello 8x8, two runs: against gtp-rhino level 1, 0.356 [0.325, 0.388] "
        "(baseline 0.663 [0.588, 0.738]); against level 3, 0.000 (0.100). Connect Four 6x6, "
        "two runs each: 0.887 [0.880, 0.893] against 0.867 [0.863, 0.870]",
        verdict="worse here (it hurts against an engine)",
        measured="2026-11-26",
        link=NOTEBOOK + "2026-11-26-random-openings-of-varied-length-and-alphagos-rollout-mix",
    ),
    Technique(
        name="progressive-sims",
        summary="MiniZero's progressive simulation: self-play simulations rising over the run "
        "(gates and evaluations keep --simulations)",
        settings=("simulations_schedule",),
        switches_on={"simulations_schedule": [25, 50, 100]},
        hooks=("pyaz.methods.alphazero.schedules:scheduled_simulations", _LOOP + "_simulations"),
        effect="Connect Four 6x6, two runs: 0.865 [0.860, 0.870] against the baseline's 0.883 "
        "[0.860, 0.907]",
        verdict="no gain here",
        measured="2026-11-27",
        link=NOTEBOOK + "2026-11-27-afternoon-the-networks-threads-four-techniques-at-the-cpu-"
        "scale-value-head-planes",
    ),
    Technique(
        name="dedupe",
        summary="one example per repeated position of the training window, its targets "
        "averaged (Oracle's 'Lessons from AlphaZero', part 6)",
        settings=("dedupe",),
        switches_on={"dedupe": True},
        hooks=("pyaz.methods.alphazero.targets:merge_duplicates", _LOOP + "_examples"),
        effect="Connect Four 6x6, two runs: 0.867 [0.860, 0.873] against the baseline's 0.883 "
        "[0.860, 0.907]",
        verdict="no gain here",
        measured="2026-11-27",
        link=NOTEBOOK + "2026-11-27-afternoon-the-networks-threads-four-techniques-at-the-cpu-"
        "scale-value-head-planes",
    ),
    Technique(
        name="window-growth",
        summary="a window of retained iterations that grows to --retrain-iterations (Oracle, "
        "part 6)",
        settings=("window_growth",),
        switches_on={"window_growth": [4, 2]},
        hooks=("pyaz.methods.alphazero.schedules:window_size", _LOOP + "_iteration"),
        effect="Connect Four 6x6, two runs: 0.845 [0.843, 0.847] against the baseline's 0.883 "
        "[0.860, 0.907], below its interval",
        verdict="worse here (below the baseline's interval)",
        measured="2026-11-27",
        link=NOTEBOOK + "2026-11-27-afternoon-the-networks-threads-four-techniques-at-the-cpu-"
        "scale-value-head-planes",
    ),
    Technique(
        name="lr-cosine",
        summary="the learning rate down a schedule over the run: cosine (Loshchilov & Hutter "
        "2017) or onecycle (Smith 2018), not constant",
        settings=("lr_schedule",),
        switches_on={"lr_schedule": "cosine"},
        hooks=("pyaz.methods.alphazero.schedules:lr_factor", _LOOP + "_train_settings"),
        effect="Connect Four 6x6, two runs: 0.948 [0.924, 0.965] and 0.938 [0.912, 0.957] "
        "against 0.926 [0.899, 0.947] and 0.908 [0.878, 0.931] at a constant rate. Othello "
        "8x8, one run, against gtp-rhino level 3: 0.71 [0.55, 0.84] at 800 simulations "
        "(constant: 0.89). Gomoku 9x9, one run: 0.245 [0.167, 0.343] at 800 (constant: 0.350, "
        "0.335). onecycle on Connect Four 6x6, two runs: 0.823 [0.800, 0.847] (baseline 0.883)",
        verdict="default on connect_four (lr_schedule auto, since 2026-11-28); no gain on "
        "othello and gomoku",
        measured="2026-11-28",
        link=NOTEBOOK + "2026-11-28-later-the-learning-rate-down-a-cosine-over-the-time-budget",
    ),
    Technique(
        name="zq-average",
        summary="the value target (1 - w) z + w q, the game's result mixed with the search's "
        "root value (Oracle, part 4)",
        settings=("value_target_q",),
        switches_on={"value_target_q": 0.5},
        hooks=("pyaz.methods.alphazero.targets:value_targets", _LOOP + "_examples_with_score"),
        effect="Gomoku 9x9, four runs: 0.451 [0.402, 0.501] at 1,200 simulations over 400 "
        "games, level with z alone's four (0.451); 0.441 at 800 (z: 0.389). Connect Four 6x6, "
        "two runs, 12 minutes: 0.890 [0.863, 0.917] (baseline 0.882 [0.867, 0.897]). Connect "
        "Four 7x6, three runs a side, 30 minutes, the whole-game set at 100 simulations: 0.927 "
        "[0.908, 0.942] (default 0.913 [0.893, 0.930]); its opening third 0.847 (0.837)",
        verdict="default on gomoku (value_target_q none, since 2026-12-01; level over four "
        "runs); no gain on connect_four (7x6: within the noise, the opening unmoved)",
        measured="2026-12-01",
        link=NOTEBOOK + "2026-12-01-night-a-third-and-a-fourth-zq-run-on-a-slower-machine",
    ),
    Technique(
        name="score-head",
        summary="KataGo's auxiliary score target (Wu 2019, 4.1): a head that learns the final "
        "margin (othello and go)",
        settings=("score_weight",),
        switches_on={"score_weight": 0.5},
        hooks=("pyaz.nets.model:net_config_for", "pyaz.train.trainer:Trainer.train_epoch"),
        effect="Othello 8x8, the main command, two seeds, against gtp-rhino level 3: +0.003 "
        "[-0.046, +0.049] at 100 simulations and +0.026 [-0.021, +0.075] at 800, level",
        verdict="no gain here",
        measured="2026-12-04",
        link=NOTEBOOK + "2026-12-04-evening-the-score-head-in-othellos-main-command-two-seeds",
    ),
    Technique(
        name="value-planes",
        summary="more planes in the value head's 1x1 convolution than AlphaZero's one (resnet "
        "networks)",
        settings=("value_planes",),
        switches_on={"value_planes": 8},
        hooks=("pyaz.nets.model:net_config_for",),
        effect="Gomoku 9x9, one run: 0.225 [0.150, 0.322] at 800 simulations",
        verdict="no gain here",
        measured="2026-11-29",
        link=NOTEBOOK + "2026-11-29-later-the-mcts-solver-value-planes-and-gumbel-in-gomokus-"
        "self-play-the-solvers-visit-floor-under-gumbel",
    ),
    Technique(
        name="threat-planes",
        summary="hand-made input planes (KataGo's input features): the cells that complete a "
        "line (connect_four, gomoku), deeper threats, forks, Allis's parity, Othello's "
        "mobility",
        settings=("threat_planes",),
        switches_on={"threat_planes": "on"},
        hooks=(
            "pyaz.nets.model:net_config_for",
            "pyaz.methods.alphazero.config:TrainConfig.threat_mode",
        ),
        effect="Connect Four 6x6: on, two runs, 12 minutes, 0.925 [0.910, 0.940] against "
        "0.835 [0.823, 0.847]; parity, two runs, 0.972 [0.952, 0.984] and 0.960 [0.938, "
        "0.975] against 0.934-0.948 for six runs without. Gomoku 9x9: deep, one run, 0.350 "
        "[0.259, 0.453] at 800 simulations. Othello 8x8: mobility, against gtp-rhino level 3, "
        "0.850 [0.695, 0.938] at 800 against 0.800 [0.639, 0.904] without, level at the end",
        verdict="default: parity on connect_four (since 2026-11-28), deep on gomoku (since "
        "2026-11-26), by threat_planes auto; no gain on othello",
        measured="2026-11-28",
        link=NOTEBOOK + "2026-11-28-eve-the-parity-plane-reaches-the-6x6-goal-no-dropout-"
        "falls-back",
    ),
    Technique(
        name="threat-targets",
        summary="gomoku: self-play targets corrected by the mentor's threat analysis (a hybrid)",
        settings=("threat_targets",),
        switches_on={"threat_targets": 3000},
        hooks=("pyaz.methods.alphazero.targets:records_with_threat_targets", _LOOP + "_self_play"),
        effect="Gomoku 9x9, one run: 0.340 [0.250, 0.442] at 800 simulations (deep planes "
        "alone: 0.350); missed defences 11% against 17.6%",
        verdict="no gain here",
        measured="2026-11-27",
        link=NOTEBOOK + "2026-11-27-night-subnormal-weights-and-training-targets-from-the-"
        "threat-analysis",
    ),
    Technique(
        name="threat-search",
        summary="gomoku: four input planes from the mentor's threat-space search, the "
        "analogue of KataGo's ladder planes (a hybrid)",
        settings=("threat_search",),
        switches_on={"threat_search": 1000},
        hooks=("pyaz.nets.threat_search:ThreatSearchEvaluator", _LOOP + "_evaluator"),
        effect="Gomoku 9x9, two runs: 0.440 [0.371, 0.512] at 800 simulations over 200 games, "
        "a lift per simulation and none per second of play: with 200 nodes in C++, 0.410 "
        "[0.314, 0.513] at 0.10 s a move, where a plain network at 1,200 simulations in the "
        "same time scored 0.475 and 0.455",
        verdict="no gain here",
        measured="2026-11-29",
        link=NOTEBOOK + "2026-11-29-evening-threat-search-planes-for-gomoku-gumbel-with-the-"
        "solver-in-self-play",
    ),
    Technique(
        name="sparring",
        summary="games against a fixed opponent beside self-play, and imitation of its moves "
        "(seed 004's mentor; AlphaStar's league)",
        settings=("sparring", "sparring_games", "sparring_imitation"),
        switches_on={"sparring": "mentor:20", "sparring_games": 20, "sparring_imitation": True},
        hooks=("pyaz.methods.alphazero.sparring:play_sparring", _LOOP + "_spar"),
        effect="Gomoku 9x9 with imitation, five runs: 0.499 [0.454, 0.544] against mentor:20 at "
        "1,200 simulations over 500 games, against self-play alone's 0.451 [0.402, 0.501] over "
        "four; results only, one run: 0.300 [0.215, 0.401] at 800. Othello 8x8 sparring "
        "against gtp-rhino level 3: 0.875 [0.724, 0.953] at 800 and 0.362 [0.221, 0.530] at 100 "
        "(the board alone: 0.800 and 0.425)",
        verdict="default on gomoku (sparring auto, since 2026-12-02); no gain on othello",
        measured="2026-12-02",
        link=NOTEBOOK + "2026-12-02-evening-the-new-defaults-first-run",
    ),
    Technique(
        name="opening-spread",
        summary="self-play games open with 0..N uniformly random plies, neither searched nor "
        "recorded",
        settings=("opening_spread",),
        switches_on={"opening_spread": 24},
        hooks=(_LOOP + "_self_play_job",),
        effect="Connect Four 6x6, the 30-minute main command, two runs on 500 positions: "
        "0.938 [0.912, 0.957] and 0.932 [0.905, 0.952] against 0.880 [0.847, 0.907] without. "
        "Connect Four 7x6: 0.920 [0.892, 0.942] against 0.922 [0.894, 0.943], level",
        verdict="default on connect_four (opening_spread none, since 2026-11-27)",
        measured="2026-11-27",
        link=NOTEBOOK + "2026-11-27-close-random-openings-with-the-threads-connect-fours-new-"
        "default",
    ),
    Technique(
        name="curriculum",
        summary="seed 000's end-game-first curriculum: the early plies of each self-play game "
        "played at random and not recorded, a share shrinking with training",
        settings=("curriculum", "length_probe_games"),
        switches_on={"curriculum": "reversi"},
        hooks=("pyaz.train.curriculum:Curriculum", _LOOP + "_self_play_job"),
        effect="Reversi 6x6, three runs: the early mean win ratio 0.54 against 0.44, ahead in "
        "3 of 3 runs; at the end level (0.72 and 0.74). Connect Four 6x6, one run, 12 minutes: "
        "0.860 (baseline 0.870)",
        verdict="the seed's claim holds early; not a default",
        measured="2026-11-27",
        link="seed-000-curriculum.md#what-was-measured-here",
    ),
    Technique(
        name="experience-replacement",
        summary="seed 000's replay buffer: drop a share of the oldest games after each "
        "training instead of a window of iterations, and a minimum buffer before training",
        settings=("replacement", "min_buffer_games", "min_buffer_schedule"),
        switches_on={"retrain_iterations": 0},
        hooks=("pyaz.train.replay:ReplayBuffer.drop_oldest", _LOOP + "_min_buffer_games"),
        effect="not measured apart: part of seed 000's loop (the presets reversi8-* and "
        "racingkings-mod-*)",
        verdict="not measured",
        measured="",
        link="seed-000-curriculum.md",
    ),
    Technique(
        name="draw-penalty",
        summary="seed 000's draws: a draw's value below 0 and a chance to drop a drawn game",
        settings=("draw_value", "drop_draw"),
        switches_on={"draw_value": -0.5, "drop_draw": 0.1},
        hooks=("pyaz.train.replay:ReplayBuffer.add", _LOOP + "_search_player"),
        effect="not measured apart: part of seed 000's loop (the presets reversi8-* and "
        "racingkings-mod-*)",
        verdict="not measured",
        measured="",
        link="seed-000-curriculum.md",
    ),
    Technique(
        name="weight-decay",
        summary="an L2 term c ||theta||^2 in the loss (seed 000's eq. 1; AlphaZero's 1e-4)",
        settings=("l2",),
        switches_on={"l2": 0.0001},
        hooks=("pyaz.train.trainer:Trainer.train_epoch",),
        effect="speed, not strength: with l2 1e-4, 7% of the tiny network's weights were "
        "subnormal by iteration 20 and training was 10-100 times slower, until subnormals were "
        "flushed to zero (a training pass 26x faster)",
        verdict="not measured for strength",
        measured="2026-11-27",
        link="seed-000-curriculum.md#what-was-measured-here",
    ),
    Technique(
        name="loss-variants",
        summary="seed 001's loss targets: lp, lv, their product lx, or l_lambda weighting the "
        "value term, not the sum l+",
        settings=("loss", "loss_lambda"),
        switches_on={"loss": "lambda", "loss_lambda": 0.25},
        hooks=("pyaz.train.trainer:Trainer.train_epoch",),
        effect="Connect Four 6x6, the value's share tripled (lambda 0.25), two runs each, 12 "
        "minutes: 0.835 [0.830, 0.840] (baseline 0.873 [0.870, 0.877]). Seed 001's targets on "
        "three 5x5 boards, three runs each: lv best on none; only 'lp is weakest on Othello' "
        "is decided",
        verdict="worse here on Connect Four 6x6; seed 001's claim not reproduced",
        measured="2026-11-26",
        link=NOTEBOOK + "2026-11-26-the-value-head-techniques-on-connect-four",
    ),
    Technique(
        name="gating",
        summary="the AlphaGo Zero loop: a new network replaces the best one only after winning "
        "a gate match (seed 001's threshold, seed 000's Wilson rule)",
        settings=(
            "gating",
            "arena_games",
            "update_threshold",
            "wilson_max_games",
            "arena_sampling_plies",
        ),
        switches_on={"gating": "threshold"},
        hooks=("pyaz.methods.alphazero.matches:play_gate", _LOOP + "_gate"),
        effect="not measured against the AlphaZero loop here; the seeds' experiments run the "
        "gated loops",
        verdict="not measured",
        measured="",
        link="seed-001-hyperparameters.md#what-was-measured-here",
    ),
    Technique(
        name="training-elo",
        summary="seed 001's Bayesian Elo of every iteration at the end of the run (a "
        "measurement: training is unchanged)",
        settings=("elo_games", "elo_every"),
        switches_on={"elo_games": 4},
        hooks=(_LOOP + "_rate_iterations",),
        effect="a measurement, not a change of training (seed 001's Elo figures: the losses "
        "experiment)",
        verdict="measures only",
        measured="2026-11-26",
        link="seed-001-hyperparameters.md#what-was-measured-here",
    ),
)

TECHNIQUES: dict[str, Technique] = {technique.name: technique for technique in _ENTRIES}
"""Name -> technique, in the order of ``--help-technique list``."""


def owner(field: str) -> str:
    """``"core"`` or the name of the technique that owns TrainConfig ``field``; ValueError
    naming a field that is neither."""
    if field in CORE:
        return "core"
    for technique in TECHNIQUES.values():
        if field in technique.settings:
            return technique.name
    raise ValueError(f"{field!r} is no TrainConfig setting of the core or of a technique")


def switched_on(names: Iterable[str]) -> dict[str, Any]:
    """The settings that ``--technique`` NAME gives for each of ``names``, later names winning
    (no two techniques give the same setting); ValueError naming an unknown technique."""
    values: dict[str, Any] = {}
    for name in names:
        if name not in TECHNIQUES:
            known = ", ".join(TECHNIQUES)
            raise ValueError(f"unknown technique {name!r}; known: {known}")
        values.update(_copied(TECHNIQUES[name].switches_on))
    return values


def _copied(values: Mapping[str, Any]) -> dict[str, Any]:
    """``values`` with its lists copied (a run's settings must not share the registry's)."""
    return {key: list(value) if isinstance(value, list) else value for key, value in values.items()}


def _flag(field: str) -> str:
    return "--" + field.replace("_", "-")


def _value(value: Any) -> str:
    """A value as the command line writes it (on/off, comma lists)."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, list):
        return ",".join(map(str, value))
    return str(value)


def switches_text(technique: Technique) -> str:
    """``"--full-search-prob 0.25 --cheap-simulations 0"``: what ``--technique`` gives."""
    return " ".join(f"{_flag(k)} {_value(v)}" for k, v in technique.switches_on.items())


def markdown_tables() -> str:
    """The docs' two tables (docs/training.md, between its techniques-table markers): every
    technique, and every option a technique owns with what replaced it in ``--help``."""
    rows = [
        "| technique | what `--technique NAME` sets | its options | where it hooks in | "
        "measured effect | verdict | measured |",
        "|---|---|---|---|---|---|---|",
    ]
    for t in TECHNIQUES.values():
        options = ", ".join(f"`{_flag(field)}`" for field in t.settings)
        hooks = ", ".join(f"`{hook}`" for hook in t.hooks)
        date = f"[{t.measured or 'the seed'}]({t.link})"
        cells = (f"`{t.name}`: {t.summary}", f"`{switches_text(t)}`", options, hooks, t.effect)
        text = [cell.replace("|", "\\|") for cell in (*cells, t.verdict)]
        rows.append("| " + " | ".join((*text, date)) + " |")
    rows.append("")
    rows += ["| option | now under | shown by |", "|---|---|---|"]
    for t in TECHNIQUES.values():
        for field in t.settings:
            shown = f"`--help-technique {t.name}`"
            rows.append(f"| `{_flag(field)}` | `--technique {t.name}` | {shown} |")
    return "\n".join(rows) + "\n"
