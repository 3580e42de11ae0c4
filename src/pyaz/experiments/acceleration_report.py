"""The accelerations experiment's report (:mod:`pyaz.experiments.accelerations`): per track
the table of every technique's time factor and final strength, the figure of the curves, the
Othello track's final matches, and the introduction and verdict of the README.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from pyaz.common.plots import figure, save_figure
from pyaz.eval.arena import play_match
from pyaz.eval.players import close_player
from pyaz.eval.presets import make_player
from pyaz.eval.stats import bootstrap_mean
from pyaz.experiments.acceleration_techniques import (
    ALL,
    BASELINE,
    FINAL_GAMES,
    FINAL_MATCH_TRACKS,
    FINAL_MATCHES,
    FINAL_SIMULATIONS,
    HORIZON,
    HORIZONS,
    METRICS,
    SETTINGS,
    TITLES,
    TRACKS,
)
from pyaz.experiments.base import RunSpec, run_folder
from pyaz.experiments.report import Curve, cached, markdown_table, read_run
from pyaz.experiments.time_to_strength import (
    SMOOTHING,
    SpeedUp,
    mean_curve,
    speedup,
    training_curve,
)
from pyaz.games import make
from pyaz.methods.alphazero.preset_files import train_config

__all__ = ["board_of", "introduction", "report_track", "verdict"]


def report_track(
    out: Path, track: str, specs: list[RunSpec], labels: list[str], scale: str, seed: int
) -> tuple[dict[str, Any], str]:
    """``track``'s results (for summary.json) and its README section, from the runs ``specs``
    in ``out``: every configuration of ``labels``' time factor and final strength, the figure
    ``TRACK.png`` (written), and at the scales that have them the final matches (played once)."""
    metric, meaning = METRICS[track]
    played = {
        label: [training_curve(read_run(run_folder(out, spec) / label), metric) for spec in specs]
        for label in labels
    }
    curves = {label: [curve for curve, _, _ in runs] for label, runs in played.items()}
    result: dict[str, Any] = {"metric": metric, "figure": f"{track}.png", "techniques": {}}
    rows = []
    factors = {}
    for index, label in enumerate(labels):
        factor = factors[label] = speedup(curves[BASELINE], curves[label], seed=seed + index)
        finals = [float(c.trailing(SMOOTHING).y[-1]) for c in curves[label] if c.y.size]
        mean, low, high = bootstrap_mean(finals, seed=seed + index)
        iterations, minutes = [p[1] for p in played[label]], [p[2] for p in played[label]]
        result["techniques"][label] = {
            "runs": factor.runs,
            "iterations": iterations,
            "training_minutes": minutes,
            "final": finals,
            "final_mean": mean,
            "final_interval": [low, high],
            "minutes_to_baseline_final": factor.minutes,
            "factor": factor.factor,
            "factor_interval": [factor.low, factor.high],
            "reached_share": factor.reached,
        }
        rows.append(
            [
                label,
                factor.runs,
                f"{np.mean(iterations):.0f}",
                f"{np.mean(minutes):.3g}",
                _interval(mean, low, high),
                "not reached" if factor.minutes is None else f"{factor.minutes:.3g}",
                _factor_text(factor),
            ]
        )
    baseline = factors[BASELINE]
    result["baseline_final"] = baseline.target
    result["baseline_minutes"] = baseline.baseline_minutes
    _plot(out / f"{track}.png", track, curves, specs)
    game = train_config(specs[0].kwargs["configs"][BASELINE]) if specs else None
    board = board_of(game.game_options) if game else ""
    target = "nan" if not np.isfinite(baseline.target) else f"{baseline.target:.3f}"
    section = (
        f"## {TITLES[track]} {board}: {meaning}\n\n![{track}]({track}.png)\n\n"
        + markdown_table(
            [
                "technique",
                "runs",
                "iterations",
                "training minutes",
                f"final {metric} [95% interval]",
                "minutes to the baseline's final",
                "time factor [95% interval]",
            ],
            rows,
        )
        + f"\n\nThe baseline's final strength (mean of its runs' smoothed curves at their common "
        f"end) is {target}, reached after {_minutes(baseline.baseline_minutes)}. The factor is "
        "the baseline's time to it over the technique's (> 1: faster); the baseline's own row "
        "is 1 by definition, and its interval (runs against resampled runs of itself) shows how "
        "noisy the measure is."
    )
    final_matches = FINAL_MATCHES[scale] if track in FINAL_MATCH_TRACKS else ()
    if final_matches and specs:
        matches, text = _final_matches(out, specs, labels, final_matches, scale, seed)
        result["final_matches"] = matches
        section += "\n\n" + text
    return result, section


def board_of(options: dict[str, Any]) -> str:
    """The board of a track's ``options`` (its settings or game options): ``6x6``."""
    if "size" in options:
        return f"{options['size']}x{options['size']}"
    return f"{options.get('width', 7)}x{options.get('height', 6)}"


def _minutes(value: float | None) -> str:
    return "never" if value is None else f"{value:.3g} training minutes"


def _interval(mean: float, low: float, high: float) -> str:
    return "nan" if not np.isfinite(mean) else f"{mean:.3f} [{low:.3f}, {high:.3f}]"


def _factor_text(factor: SpeedUp) -> str:
    point = "not reached" if factor.factor is None else f"{factor.factor:.2f}"
    return f"{point} [{factor.low:.2f}, {factor.high:.2f}]"


def _plot(path: Path, track: str, curves: dict[str, list[Curve]], specs: list[RunSpec]) -> None:
    """Strength against training minutes, one line per technique: the mean of its runs'
    smoothed curves, with the band between the lowest and highest."""
    from matplotlib import colormaps

    fig = figure(1, width=10.0, height=6.0)
    ax = fig.subplots()
    colours = colormaps["tab20"]
    for index, (label, runs) in enumerate(curves.items()):
        smoothed = [c.trailing(SMOOTHING) for c in runs if c.x.size]
        mean = mean_curve(smoothed)
        if not mean.x.size:
            continue
        low = np.min([np.interp(mean.x, c.x, c.y) for c in smoothed], axis=0)
        high = np.max([np.interp(mean.x, c.x, c.y) for c in smoothed], axis=0)
        colour = "black" if label == BASELINE else colours((2 * index) % 20 + index // 10 % 2)
        width = 2.5 if label in (BASELINE, ALL) else 1.2
        ax.plot(mean.x, mean.y, color=colour, linewidth=width, label=label)
        ax.fill_between(mean.x, low, high, color=colour, alpha=0.12)
    metric, meaning = METRICS[track]
    ax.set_xlabel("training minutes (self-play + training, evaluations left out)")
    ax.set_ylabel(f"{metric}: {meaning}")
    ax.set_ylim(-0.02, 1.02)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, ncol=2)
    ax.set_title(
        f"{TITLES[track]}: mean of {len(specs)} run(s) per technique, trailing mean of "
        f"{SMOOTHING} evaluations, band = lowest to highest run"
    )
    save_figure(fig, path, 110)


def _final_matches(
    out: Path,
    specs: list[RunSpec],
    labels: list[str],
    finals: Sequence[tuple[str, int]],
    scale: str,
    seed: int,
) -> tuple[dict[str, Any], str]:
    """Every run's final network against each opponent of ``finals`` at its simulations a move
    (played once, then read back)."""
    games = FINAL_GAMES[scale]
    matches: dict[str, Any] = {}
    rows = []
    distinct = games
    for label in labels:
        row: list[Any] = [label, len(specs)]
        for opponent, simulations in finals:
            name = _final_name(opponent, simulations)
            suffix = "" if simulations == FINAL_SIMULATIONS else f"-{simulations}"
            stem = f"{label}-{opponent.replace(':', '-')}{suffix}"
            results = [
                cached(
                    out / "final-matches" / f"{spec.name}-{stem}.json",
                    partial(_final_match, out, spec, label, opponent, simulations, games, seed),
                )
                for spec in specs
            ]
            scores = [float(r["score"]) for r in results]
            mean, low, high = bootstrap_mean(scores, seed=seed)
            distinct = min([distinct, *(int(r["distinct_games"]) for r in results)])
            matches.setdefault(name, {})[label] = {
                "scores": scores,
                "mean": mean,
                "interval": [low, high],
                "results": results,
                "simulations": simulations,
            }
            row.append(_interval(mean, low, high))
        rows.append(row)
    budgets = sorted({simulations for _, simulations in finals})
    text = (
        f"Final networks (`model:RUN:SIMS`, PUCT, greedy; SIMS = "
        f"{' or '.join(map(str, budgets))} simulations a move) against "
        f"{', '.join(sorted({o for o, _ in finals}))}: {games} games a run from {games // 2} "
        f"random openings, each with both colours (at least {distinct} distinct games in every "
        "match); the score counts draws half, the interval is the bootstrap over the runs.\n\n"
        + markdown_table(
            ["technique", "runs", *[f"vs {_final_name(o, n)}" for o, n in finals]], rows
        )
    )
    return matches, text


def _final_name(opponent: str, simulations: int) -> str:
    """A final match's name: the opponent, and the simulations when not the usual 100."""
    return opponent if simulations == FINAL_SIMULATIONS else f"{opponent} ({simulations} sims)"


def _final_match(
    out: Path, spec: RunSpec, label: str, opponent: str, simulations: int, games: int, seed: int
) -> dict[str, Any]:
    """The final network of ``label`` in run ``spec``, with ``simulations`` a move, against
    ``opponent``."""
    folder = run_folder(out, spec) / label
    settings = train_config(spec.kwargs["configs"][label])
    state = make(settings.game, **settings.game_options)
    player = make_player(f"model:{folder}:{simulations}", state, seed=seed)
    rival = make_player(opponent, state, seed=seed + 1)
    try:
        result = play_match(player, rival, games, state, seed=seed)
    finally:
        close_player(rival)
        close_player(player)
    return result.as_record()


def introduction(
    scale: str,
    repetitions: int,
    overrides: dict[str, dict[str, Any]],
    left_out: dict[str, str],
    tracks: Sequence[str] = TRACKS,
) -> str:
    """The README's first section: the scale and the ``tracks`` run, the ``repetitions``, the
    settings each technique of ``overrides`` changes, the horizon, and what ``all`` left out."""
    boards = []
    for track in tracks:
        settings = SETTINGS[scale][track]
        minutes = f"{float(settings['max_minutes']):g}"
        boards.append(f"{TITLES[track]} {board_of(settings)} ({minutes} minutes a run)")
    what = (
        " and ".join(boards)
        + {
            "short": ", tiny networks, 3 iterations: every stage, numbers without meaning",
            "cpu": " on a 2-core CPU, one core a track",
            "full": "",
        }[scale]
    )
    rows = [[label, _describe(settings)] for label, settings in overrides.items()]
    horizons = ", ".join(f"{TITLES[t]} {HORIZONS[scale][t]}" for t in tracks)
    text = (
        f"Scale: **{scale}**, {what}; {repetitions} run(s) per technique. Each technique is "
        "added to the baseline (pyaz-selfplay's defaults with the track's flags) alone, and "
        "`all` adds them together. The runs of one track and repetition train side by side in "
        "one process, one iteration of each in turn, from the same seed; every curve is "
        "against training minutes (self-play and training, the evaluations' own time left "
        "out). See the docstring of `pyaz.experiments.accelerations` for the method.\n\n"
        + markdown_table(["technique", "settings changed"], rows)
        + f"\n\n`{HORIZON}` is the iterations a schedule spans at this scale: {horizons}."
    )
    if left_out and ALL in overrides:
        text += "\n\nLeft out of `all`: " + "; ".join(f"{k} ({v})" for k, v in left_out.items())
    return text


def _describe(settings: dict[str, Any]) -> str:
    if not settings:
        return "none (the reference)"
    return ", ".join(f"`{k}={v}`" for k, v in settings.items())


def verdict(summary: dict[str, Any]) -> str:
    """The README's last section: per track of ``summary``, the techniques faster or slower
    than the baseline and those whose final strength is apart from its."""
    lines = ["## Verdict\n"]
    for track, result in summary["tracks"].items():
        lines.append(_time_verdict(track, result))
        lines.append(_final_verdict(track, result))
    return "\n".join(lines)


def _final_verdict(track: str, result: dict[str, Any]) -> str:
    """Final strength against the baseline's: apart when the intervals do not overlap (on flat
    curves the time factor says little: a curve that touches the baseline's end early gets any
    factor)."""
    baseline = result["techniques"][BASELINE]
    base_low, base_high = baseline["final_interval"]
    above, below = [], []
    for label, data in result["techniques"].items():
        low, high = data["final_interval"]
        if label == BASELINE or data["runs"] < 2 or baseline["runs"] < 2:
            continue
        text = f"{label} ({data['final_mean']:.3f})"
        if low > base_high:
            above.append(text)
        elif high < base_low:
            below.append(text)
    return (
        f"- {TITLES[track]}, final strength (baseline {baseline['final_mean']:.3f}): above the "
        f"baseline's interval: {', '.join(above) or 'none'}; below it: "
        f"{', '.join(below) or 'none'}; the others' intervals overlap it (or one run: no "
        "interval)."
    )


def _time_verdict(track: str, result: dict[str, Any]) -> str:
    """KataGo's time factor against the baseline: decided when its interval excludes 1."""
    faster, slower, undecided = [], [], []
    repeated = result["techniques"][BASELINE]["runs"] > 1
    for label, data in result["techniques"].items():
        if label == BASELINE:
            continue
        low, high = data["factor_interval"]
        factor = data["factor"]
        text = f"{label} ({'not reached' if factor is None else f'{factor:.2f}'})"
        if not repeated or data["runs"] < 2:
            undecided.append(text)
        elif low > 1:
            faster.append(text)
        elif high < 1:
            slower.append(text)
        else:
            undecided.append(text)
    return (
        f"- {TITLES[track]}, time to the baseline's final strength: faster than the baseline "
        f"(interval above 1): {', '.join(faster) or 'none'}; slower (interval below 1): "
        f"{', '.join(slower) or 'none'}; not decided by these runs: "
        f"{', '.join(undecided) or 'none'}"
        + ("." if repeated else " (one run each: no interval, nothing decided).")
    )
