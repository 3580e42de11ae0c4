"""``pyaz-experiment alphagomoku``: seed 004's pipeline and its evaluation against the mentor.

One AlphaGomoku run (:mod:`pyaz.methods.alphagomoku.pipeline`: generated attack and defence
positions, imitation of the mentor until the pair beats it or the rounds run out, self-play with the
evaluation step), with double networks and winning value decay; then seed 004's V-A: the pair
against the mentor, half the games with each colour, each pair of games from its own random opening,
sample games drawn as boards (Figs. 5 and 6). ``--option ablations=double,decay,curriculum`` adds a
run without each (a single network for both colours, no decay, self-play from scratch), evaluated
the same way; ``threats`` among them adds a run whose networks read the deep threat planes
(``threat_planes="deep"``, not the paper's), and ``alphazero`` a run of the AlphaZero loop on the
same board (``pyaz-selfplay``'s Gomoku defaults for :data:`ALPHAZERO_MINUTES`, its network at
:data:`ALPHAZERO_SIMULATIONS` a move), played against the mentor from the same openings, so that the
report can say which of the two ways to a Gomoku player is the stronger one here.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from pyaz._core import Gomoku
from pyaz.eval.arena import MatchResult, play_match
from pyaz.eval.players import MentorPlayer
from pyaz.eval.presets import make_player
from pyaz.experiments.base import SELFPLAY, Experiment, RunSpec, read_json_object, run_folder
from pyaz.experiments.report import (
    Estimate,
    against_even,
    cached,
    markdown_table,
    read_run,
    score_estimate,
    write_readme,
)
from pyaz.methods.alphagomoku.pair import GAME
from pyaz.methods.alphagomoku.pipeline import evaluate_against_mentor, play_pairs, read_config
from pyaz.methods.alphagomoku.plots import plot_board, plot_run
from pyaz.methods.alphazero.preset_files import train_config

__all__ = ["AlphaGomokuExperiment"]

CONFIGS: dict[str, dict[str, Any]] = {
    "short": {
        "size": 9, "basic_positions": 2000, "mentor_ms": 10.0, "imitation_games": 10,
        "imitation_rounds": 1, "imitation_eval_games": 2, "iterations": 1, "episodes": 8,
        "simulations": 32, "parallel_games": 8, "epochs": 1, "gate_games": 2,
        "eval_mentor_ms": 10.0, "eval_simulations": 32,
    },
    "cpu": {
        "size": 9, "basic_positions": 20_000, "mentor_ms": 20.0, "imitation_games": 60,
        "imitation_rounds": 3, "imitation_eval_games": 10, "iterations": 6, "episodes": 40,
        "simulations": 100, "parallel_games": 20, "epochs": 1, "buffer_iterations": 3,
        "gate_games": 10, "eval_mentor_ms": 20.0, "eval_simulations": 200,
    },
    "full": {
        "size": 15, "basic_positions": 80_000, "mentor_ms": 1000.0, "imitation_games": 200,
        "imitation_rounds": 20, "imitation_eval_games": 40, "iterations": 100,
        "episodes": 100, "simulations": 400, "parallel_games": 32, "epochs": 2,
        "gate_games": 20, "eval_mentor_ms": 1000.0, "eval_simulations": 800,
    },
}  # fmt: skip
EVAL_GAMES = {"short": 4, "cpu": 100, "full": 100}
ABLATIONS: dict[str, tuple[str, dict[str, Any]]] = {
    "double": ("single-network", {"double": False}),
    "decay": ("no-decay", {"value_decay": 1.0}),
    "curriculum": ("no-curriculum", {"curriculum": False}),
    # not an ablation: the networks read the deep threat planes besides the board
    "threats": ("threat-planes", {"threat_planes": "deep"}),
}
ALPHAZERO = "alphazero"
"""``--option ablations=alphazero``: not an ablation, the AlphaZero loop beside the pair."""
ALPHAZERO_LABEL = "alphazero-loop"
ALPHAZERO_MINUTES = {"short": 0.0, "cpu": 60.0, "full": 2880.0}
"""Training minutes of the loop's run (short: one tiny iteration). 60 at the cpu scale: the time
the loop took on this machine to reach 0.50 against ``mentor:20`` (2026-12-02, two runs)."""
ALPHAZERO_SIMULATIONS = {"short": 32, "cpu": 1200, "full": 1200}
"""Simulations a move of the loop's network against the mentor (greedy, as the pair plays)."""
_ALPHAZERO_RUNS: dict[str, dict[str, Any]] = {
    # one iteration of a few games, sparring and evaluation cut to the bone (CI)
    "short": {"iterations": 1, "episodes": 4, "simulations": 16, "parallel_games": 4,
              "sparring_games": 2, "eval_games": 0, "epochs": 1},
    # the README's main command with the board flags and the evaluations of the measured runs
    "cpu": {"iterations": 100, "threads": 32, "sampling_plies": 6, "eval_every": 5,
            "eval_opponent": "mentor:20", "eval_games": 20},
    "full": {"iterations": 100_000, "threads": 32, "sampling_plies": 6, "eval_every": 10,
             "eval_opponent": "mentor:1000", "eval_games": 20},
}  # fmt: skip


class AlphaGomokuExperiment(Experiment):
    """Seed 004's training and its 100 games against the mentor (see the module docstring)."""

    name = "alphagomoku"
    title = "AlphaGomoku: curriculum, double networks, value decay; 100 games vs the mentor"
    seed_paper = "seed 004, Sections III-IV, V-A"
    costs = {  # noqa: RUF012
        "short": "9x9, seconds of each phase and 4 games against the mentor: under a minute (CI)",
        "cpu": "9x9, 20,000 positions, up to 3 imitation rounds of 60 mentor games, 6 self-play "
        "iterations of 40 games and 100 games against a 20 ms mentor: about 5 minutes for a run "
        "alone on 2 cores (4.6 on 2026-11-27), 35 minutes with all three ablations; alphazero adds "
        "the loop's 60 minutes and about 10 of its games against the mentor",
        "full": "15x15, 80,000 positions, the mentor at 1 s a move, 100 iterations: days",
    }
    option_help = {  # noqa: RUF012
        "ablations": "comma-separated, among double, decay, curriculum (one more run without "
        "each), threats (one more run whose networks read the deep threat planes) and alphazero "
        "(the AlphaZero loop with pyaz-selfplay's Gomoku defaults on the same board, 60 minutes "
        "at the cpu scale, its network at 1,200 simulations against the same mentor)"
    }

    def runs(self, scale: str, seed: int = 0) -> list[RunSpec]:
        base = {**CONFIGS[scale], "seed": seed}
        specs = [RunSpec("alphagomoku", _TARGET, {"config": base}, group="alphagomoku")]
        for name in self.option_names("ablations", [*ABLATIONS, ALPHAZERO]) or []:
            if name == ALPHAZERO:
                specs.append(_alphazero_run(scale, seed))
                continue
            label, change = ABLATIONS[name]
            specs.append(RunSpec(label, _TARGET, {"config": {**base, **change}}, group=label))
        return specs

    def report(self, out: Path, runs: list[RunSpec], scale: str, seed: int = 0) -> dict[str, Any]:
        games = EVAL_GAMES[scale]
        results = {}
        main_folder = run_folder(out, runs[0])
        config = read_config(main_folder)
        curves = []
        for spec in runs:
            folder = run_folder(out, spec)
            if spec.name == ALPHAZERO_LABEL:
                match = partial(
                    evaluate_loop_against_mentor, folder, config.size, ALPHAZERO_SIMULATIONS[scale],
                    config.eval_mentor_ms, games, seed,
                )  # fmt: skip
                plots = (f for f in ("win_ratio.png", "losses.png") if (folder / f).exists())
                curves.append(f"runs/{spec.name}/{next(plots, 'win_ratio.png')}")
            else:
                match = partial(evaluate_against_mentor, folder, games, seed)
                plot_run(read_run(folder), out / f"curves-{spec.name}.png")
                curves.append(f"curves-{spec.name}.png")
            results[spec.name] = cached(
                out / f"vs-mentor-{spec.name}.json",
                partial(_evaluate, out, spec.name, config.size, match),
            )
        main = results["alphagomoku"]
        ablations = [spec for spec in runs[1:] if spec.name != ALPHAZERO_LABEL]
        for spec in ablations:
            results[spec.name]["main_vs_this"] = cached(
                out / f"head-to-head-{spec.name}.json",
                partial(_head_to_head, main_folder, run_folder(out, spec), games, seed),
            )
        progress = read_json_object(main_folder / "progress.json", _REDO)
        rows = [
            [name, r["wins"], r["draws"], r["losses"], r["games"], r["distinct_games"],
             f"{r['score']:.3f}", _interval(_score(name, r)), r["as_black"], r["as_white"]]
            for name, r in results.items()
        ]  # fmt: skip
        mentor = f"the mentor (mentor:{config.eval_mentor_ms:g})"
        verdicts = "\n".join(
            f"- {against_even(_score(name, r), mentor)}" for name, r in results.items()
        )
        if ALPHAZERO_LABEL in results:
            verdicts += "\n\n" + _stronger(results, mentor, ALPHAZERO_SIMULATIONS[scale])
        times = {k: round(v, 1) for k, v in progress.get("times", {}).items()}
        sections = [
            f"Scale: **{scale}**, a {config.size}x{config.size} board; settings in "
            "`runs/alphagomoku/config.json`. The mentor is pyaz's rule-based player "
            f"(`mentor:{config.eval_mentor_ms:g}`, VCF/VCT threat search and alpha-beta); "
            "each pair of games starts from its own random 2-ply opening, played with both "
            "colours; AlphaGomoku plays greedily by visit count.",
            "## Against the mentor (seed 004, Fig. 4)\n\n"
            + markdown_table(HEADER, rows)
            + f"\n\n{verdicts}"
            + '\n\nSeed 004\'s version-14 AlphaGomoku "dominates" its mentor over 100 games on '
            "15x15 after two days of training; compare at the scale run here.",
            "## Sample games (Figs. 5 and 6)\n\n"
            + "\n".join(
                f"![{p}]({p})"
                for name in ("alphagomoku", ALPHAZERO_LABEL)
                for p in results.get(name, {}).get("boards", [])
            ),
            "## Curves\n\n"
            + "\n".join(f"![{s.name}]({c})" for s, c in zip(runs, curves, strict=True)),
            "## Time per phase (seconds)\n\n"
            + markdown_table(["phase", "seconds"], [[k, v] for k, v in times.items()])
            + f"\n\nImitation stopped by the paper's rule (beating the mentor by "
            f"{config.imitation_stop_score:.2f} or more): "
            f"{'yes' if progress.get('imitation_stopped') else 'no (rounds ran out)'}.",
        ]
        if ablations:
            sections.insert(2, _head_to_head_section(results))
        write_readme(out, "Seed 004: AlphaGomoku against its mentor", sections)
        return {
            "vs_mentor": {k: main[k] for k in _RESULT_KEYS},
            "phase_times": times,
            "imitation_stopped": bool(progress.get("imitation_stopped")),
            "ablations": {
                name: {
                    **{k: r[k] for k in _RESULT_KEYS},
                    **({"main_vs_this": r["main_vs_this"]} if "main_vs_this" in r else {}),
                }
                for name, r in results.items()
            },
            "sample_games": main["boards"],
            **({"stronger": _stronger_name(results)} if ALPHAZERO_LABEL in results else {}),
        }


def _alphazero_run(scale: str, seed: int) -> RunSpec:
    """The AlphaZero loop's run beside the pair: Gomoku's defaults on the pair's board."""
    config = {
        "game": GAME, "size": CONFIGS[scale]["size"], "seed": seed,
        "max_minutes": ALPHAZERO_MINUTES[scale], **_ALPHAZERO_RUNS[scale],
    }  # fmt: skip
    train_config(config).validate()
    cost = max(1.0, ALPHAZERO_MINUTES[scale] / 5)
    return RunSpec(ALPHAZERO_LABEL, SELFPLAY, {"config": config}, ALPHAZERO_LABEL, cost)


def _stronger_name(results: dict[str, dict[str, Any]]) -> str:
    """The run with the higher score against the mentor, the pair or the AlphaZero loop
    ("level" when they scored the same)."""
    pair, loop = results["alphagomoku"]["score"], results[ALPHAZERO_LABEL]["score"]
    if pair == loop:
        return "level"
    return ALPHAZERO_LABEL if loop > pair else "alphagomoku"


def _stronger(results: dict[str, dict[str, Any]], mentor: str, simulations: int) -> str:
    """A paragraph on which way to a Gomoku player scored more against the mentor."""
    pair = _score("the pair", results["alphagomoku"])
    loop = _score("the AlphaZero loop", results[ALPHAZERO_LABEL])
    stronger = _stronger_name(results)
    best, other = (loop, pair) if stronger == ALPHAZERO_LABEL else (pair, loop)
    if stronger == "level":
        order = "level"
    elif best.lower > other.upper:
        order = f"{best.name} the stronger (the intervals do not overlap)"
    else:
        order = f"{best.name} ahead, but the intervals overlap: the order is not decided"
    return (
        f"The AlphaZero loop (`pyaz-selfplay`'s Gomoku defaults, its network at {simulations:,} "
        f"simulations a move) and seed 004's pair played {mentor} from the same openings: "
        f"{loop.text()}; {pair.text()}: {order}."
    )


HEADER = ["run", "wins", "draws", "losses", "games", "distinct", "score", "95% Wilson",
          "as Black (W-D-L)", "as White (W-D-L)"]  # fmt: skip
_TARGET = "pyaz.methods.alphagomoku.pipeline:train_alphagomoku"
_REDO = "restore it, or delete the run's folder to run it again"
_RESULT_KEYS = ("wins", "draws", "losses", "games", "distinct_games", "score")


def _by_colour(result: MatchResult, black: bool) -> str:
    games = [game for index, game in enumerate(result.games) if (index % 2 == 0) == black]
    draws = sum(game.winner is None for game in games)
    wins = sum(game.winner is not None and (game.winner == 0) == black for game in games)
    return f"{wins}-{draws}-{len(games) - wins - draws}"


def _head_to_head_section(results: dict[str, dict[str, Any]]) -> str:
    rows, sentences = [], []
    for name, result in results.items():
        h = result.get("main_vs_this")
        if h:
            record = f"{h['wins']}-{h['draws']}-{h['losses']}"
            estimate = _score("the full method", h)
            rows.append(
                [name, record, f"{h['score']:.3f}", _interval(estimate), h["distinct_games"]]
            )
            sentences.append(against_even(estimate, name))
    header = ["other run", "full method's W-D-L", "its score", "95% Wilson", "distinct games"]
    return (
        "## Ablations head to head\n\n"
        + markdown_table(header, rows)
        + "\n\nThe full method (double networks, decay, curriculum) against each other run, "
        "greedy, colours alternating, each pair of games from its own random opening.\n\n"
        + "\n".join(f"- {sentence}" for sentence in sentences)
    )


def _interval(estimate: Estimate) -> str:
    return f"{estimate.lower:.2f} to {estimate.upper:.2f}"


def _score(name: str, result: dict[str, Any]) -> Estimate:
    """A match result's score (wins and half the draws) with its Wilson interval."""
    points = result["wins"] + result["draws"] / 2
    return score_estimate(name, points, int(result["games"]))


def _head_to_head(main: Path, other: Path, games: int, seed: int) -> dict[str, Any]:
    """The full method's pair against an ablation's, each with its own search settings."""
    result = play_pairs(main, other, games, seed)
    return {k: getattr(result, a) for k, a in _MATCH_FIELDS} | {"score": result.score}


_MATCH_FIELDS = (
    ("wins", "a_wins"), ("draws", "draws"), ("losses", "b_wins"), ("games", "n"),
    ("distinct_games", "distinct_games"),
)  # fmt: skip


def evaluate_loop_against_mentor(
    folder: Path, size: int, simulations: int, mentor_ms: float, games: int, seed: int = 0
) -> MatchResult:
    """Seed 004's V-A evaluation for a run of the AlphaZero loop in ``folder``: its latest
    network (greedy, ``simulations`` a move: ``model:FOLDER:SIMULATIONS``) against the mentor, from
    the same openings as :func:`~pyaz.methods.alphagomoku.pipeline.evaluate_against_mentor` with
    the same ``games`` and ``seed``."""
    state = Gomoku(size, 5, True)
    player = make_player(f"model:{folder}:{simulations}", state, seed=seed)
    mentor = MentorPlayer(mentor_ms, seed=seed, name=f"mentor:{mentor_ms:g}")
    return play_match(player, mentor, games, state, seed=seed + 7919)


def _evaluate(out: Path, name: str, size: int, match: Callable[[], MatchResult]) -> dict[str, Any]:
    """Run ``name``'s match against the mentor (its player first); the games saved, two of them
    drawn as boards."""
    result = match()
    records = [
        {
            "alphagomoku": "black" if index % 2 == 0 else "white",
            "winner": None if g.winner is None else ("black" if g.winner == 0 else "white"),
            "opening": g.opening,
            "actions": g.all_actions,
        }
        for index, g in enumerate(result.games)
    ]
    (out / f"games-{name}.json").write_text(json.dumps(records, indent=1) + "\n")
    boards = []
    for black in (True, False):
        mine = [i for i in range(len(result.games)) if (i % 2 == 0) == black]
        won = [i for i in mine if result.games[i].winner == (0 if black else 1)]
        if not mine:
            continue
        index = (won or mine)[0]
        game = result.games[index]
        colour = "Black" if black else "White"
        outcome = {None: "draw", 0: "Black wins", 1: "White wins"}[game.winner]
        path = f"board-{name}-{colour.lower()}.png"
        plot_board(
            game.all_actions, size, out / path,
            f"{name} ({colour}) vs mentor, game {index + 1}: {outcome}",
            opening=len(game.opening),
        )  # fmt: skip
        boards.append(path)
    return {
        **result.as_record(),
        "as_black": _by_colour(result, True),
        "as_white": _by_colour(result, False),
        "boards": boards,
    }
