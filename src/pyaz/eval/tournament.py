"""Tournaments: a round robin of trained networks (and the random player), rated with
Bayesian Elo.

Each pair of players plays ``--games`` games with colours alternating; each pair of games (one
per colour assignment) starts from the same short random opening (``--opening-plies``), so that
greedy search players do not replay one game. The results are fitted with
:func:`pyaz.eval.elo.fit_elo` (draws, first-move advantage, virtual-draw prior) and the ratings are
printed, anchored to the uniform random player (rating 0) when ``--random`` is given. Into
``--out`` go ``ratings.csv``, ``games.jsonl`` (the journal: one line per game, written and synced
as the game ends, so that the same tournament run again resumes it,
:mod:`pyaz.eval.tournament_journal`), ``fit.json`` (advantage, drawelo, covariance) and
``ratings.png`` (error bars).

This is seed 001's evaluation (Fig. 11: the final networks of 8 runs x 4 losses plus a random
player in a round robin, rated with Bayesian Elo); :func:`rate_run_iterations` rates the networks
of one run's iterations (Fig. 10).

``pyaz-tournament`` (:mod:`pyaz.cli.tournament`) runs :func:`run_tournament` from the command
line.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from pyaz.common.checked_json import Fields
from pyaz.common.plots import figure, save_figure
from pyaz.common.runlog import atomic_write_bytes
from pyaz.eval.arena import GameRecord, MatchResult, default_opening_plies, play_match
from pyaz.eval.elo import DEFAULT_PRIOR, EloFit, GameResult, Rating, fit_elo
from pyaz.eval.parallel import start_state
from pyaz.eval.players import Player, RandomPlayer, network_player
from pyaz.eval.presets import make_player
from pyaz.eval.tournament_journal import Played, TournamentJournal, match_seed
from pyaz.games import GameState, NetworkGameState, canonical_name

RANDOM = "random"
"""The name of the uniform random player (the usual anchor, rated 0)."""


@dataclass
class Contestant:
    """A player of the tournament and where it came from (``path`` is None for random)."""

    name: str
    player: Player
    path: Path | None = None
    iteration: int | None = None


@dataclass
class Tournament:
    """The matches played (one per pair, ``a`` = the earlier contestant) and the Elo fit."""

    contestants: list[Contestant]
    matches: list[MatchResult] = field(default_factory=list)
    fit: EloFit | None = None


# -- checkpoints and games ----------------------------------------------------------------------


def default_name(path: Path) -> str:
    """A short player name: ``RUN/iter-00005`` for ``runs/RUN/nets/iter-00005.pt``,
    ``RUN`` for ``runs/RUN``, ``runs/RUN/checkpoint.pt`` and ``runs/RUN/best.torchscript.pt``,
    else the file name without its suffix."""
    from pyaz.nets import CHECKPOINT_FILE, TORCHSCRIPT_FILE, run_dir_of

    run = run_dir_of(path)
    if path.is_dir() or path.name in (CHECKPOINT_FILE, TORCHSCRIPT_FILE):
        return run.name or path.stem
    if path.parent.name == "nets" and run.name:
        return f"{run.name}/{path.stem}"
    return path.stem


def start_state_for(
    paths: Sequence[Path], game: str | None = None, options: dict[str, Any] | None = None
) -> tuple[str, dict[str, Any], GameState]:
    """The game to play: ``game`` with ``options`` if given, else the one in the checkpoints'
    ``config.json`` files (which must agree). Returns (name, options, start state)."""
    from pyaz.nets import run_config

    configs = {path: run_config(path) for path in paths}
    if game is None:
        if not paths:
            raise ValueError("no checkpoint to take the game from: pass --game")
        missing = [str(p) for p, c in configs.items() if c is None]
        if missing:
            raise ValueError(
                f"no config.json found for {', '.join(missing)} (looked in the run folder): "
                "pass --game (and --size/--width/--height)"
            )
        seen = {_game_of(path, config) for path, config in configs.items() if config is not None}
        if len(seen) > 1:
            listed = "; ".join(f"{g} {o}" for g, o in sorted(seen))
            raise ValueError(f"the checkpoints come from different games: {listed}")
        name, encoded = seen.pop()
        merged = {**json.loads(encoded), **(options or {})}
    else:
        name = canonical_name(game)
        merged = dict(options or {})
    try:
        state = start_state(name, merged)
    except TypeError as error:
        raise ValueError(str(error)) from None
    return name, merged, state


def _game_of(path: Path, config: dict[str, Any]) -> tuple[str, str]:
    """The game of a checkpoint's run settings ``config`` and its options as sorted JSON; a
    one-line ValueError naming the run's config.json and the field when ``game`` is not a
    string or ``game_options`` not an object of plain values."""
    from pyaz.nets import run_dir_of

    fields = Fields(config, str(run_dir_of(path) / "config.json"))
    game = fields.text("game")
    return canonical_name(game), json.dumps(fields.scalars("game_options"), sort_keys=True)


def checkpoint_contestants(
    specs: Sequence[str | Path],
    state: GameState,
    simulations: int,
    device: str = "cpu",
    seed: int = 0,
    runtime: str | None = None,
) -> list[Contestant]:
    """Players for networks (see :func:`pyaz.nets.load_model`: run folders, ``checkpoint.pt``,
    ``nets/iter-*.pt``, TorchScript) run on ``runtime``; a spec ``LABEL=PATH`` names the player
    ``LABEL``. A method's network (a curling network, an AlphaGomoku pair, a ZetaGo policy)
    plays as ``model:PATH:SIMULATIONS`` does (:func:`pyaz.eval.presets.make_player`)."""
    from pyaz.nets import load_model, model_kind

    contestants: list[Contestant] = []
    used = {RANDOM}
    for index, spec in enumerate(specs):
        label, path = _split_spec(spec)
        name = label or default_name(path)
        if name in used:
            name = next(f"{name}#{k}" for k in itertools.count(2) if f"{name}#{k}" not in used)
        used.add(name)
        if model_kind(path)[0] != "az":
            player = make_player(f"model:{path}:{simulations}", state, seed + index, runtime)
            player.name = name
            contestants.append(Contestant(name, player, path))
            continue
        model = load_model(path, "az")
        model.check(cast(NetworkGameState, state))  # an AlphaZero network: a game with planes
        player = network_player(
            model, simulations, name, seed=seed + index, device=device, runtime=runtime
        )
        contestants.append(Contestant(name, player, path, model.iteration))
    return contestants


def _split_spec(spec: str | Path) -> tuple[str | None, Path]:
    text = str(spec)
    match = re.fullmatch(r"([^=/\\]+)=(.+)", text)
    if match and not Path(text).exists():
        return match.group(1), Path(match.group(2))
    return None, Path(text)


# -- playing ------------------------------------------------------------------------------------


def round_robin_pairs(count: int, neighbours: int | None = None) -> list[tuple[int, int]]:
    """Index pairs (i, j), i < j: every pair, or each player against its ``neighbours`` previous
    ones (a chain: linear cost, still connected, for rating many iterations of one run)."""
    if neighbours is None:
        return list(itertools.combinations(range(count), 2))
    if neighbours < 1:
        raise ValueError(f"neighbours must be >= 1, got {neighbours}")
    return [(i, j) for j in range(count) for i in range(max(0, j - neighbours), j)]


def game_result(record: GameRecord) -> GameResult:
    """The Elo input for one arena game: the first player's score."""
    return GameResult(record.first, record.second, record.first_score)


def play_tournament(
    contestants: Sequence[Contestant],
    games: int,
    start_state: GameState,
    *,
    pairs: Sequence[tuple[int, int]] | None = None,
    opening_plies: int | None = None,
    seed: int = 0,
    progress: bool = True,
    on_game: Callable[[GameRecord, int, int], None] | None = None,
    played: Played | None = None,
) -> list[MatchResult]:
    """Plays ``games`` games for each pair (all pairs by default), colours alternating.

    One tqdm bar counts the games of the whole tournament. ``on_game(record, match, game)``
    is called after each game played (e.g. to append it to the journal). ``played`` holds games
    played before (a resumed tournament's, by match and game number): they count as they are
    and are not played again. If interrupted, the matches played so far (the current one
    included, as far as it got) are in the KeyboardInterrupt's ``matches`` attribute.
    """
    if games < 1:
        raise ValueError(f"games must be >= 1, got {games}")
    names = [c.name for c in contestants]
    if len(set(names)) != len(names):
        raise ValueError(f"player names must be unique: {names}")
    pairs = list(pairs) if pairs is not None else round_robin_pairs(len(contestants))
    from tqdm import tqdm

    played = played or {}
    before = sum(sum(1 for game in kept if game < games) for kept in played.values())
    bar = tqdm(
        total=len(pairs) * games, initial=before, desc="tournament", unit="game",
        disable=not progress,
    )  # fmt: skip
    matches: list[MatchResult] = []
    current: list[MatchResult | None] = [None]
    try:
        for index, (i, j) in enumerate(pairs):
            a, b = contestants[i], contestants[j]
            bar.set_postfix_str(f"{a.name} vs {b.name}")

            def after_game(result: MatchResult, index: int = index) -> bool:
                current[0] = result  # kept for an interrupt: the games played so far
                if on_game is not None:
                    on_game(result.games[-1], index, result.n - 1)  # games before it all counted
                bar.update(1)
                return False  # never stop early: play all the games

            match = play_match(
                a.player,
                b.player,
                games,
                start_state,
                stop=after_game,
                opening_plies=opening_plies,
                seed=match_seed(seed, index),
                played=played.get(index),
            )
            current[0] = None
            matches.append(match)
    except KeyboardInterrupt as interrupt:
        partial = current[0]
        interrupt.matches = [*matches, *([partial] if partial is not None else [])]  # type: ignore[attr-defined]
        raise
    finally:
        bar.close()
    return matches


def fit_matches(matches: Sequence[MatchResult], **options: Any) -> EloFit:
    """:func:`pyaz.eval.elo.fit_elo` on every game of ``matches``."""
    return fit_elo([game_result(g) for m in matches for g in m.games], **options)


# -- output -------------------------------------------------------------------------------------


def write_ratings_csv(
    path: Path, ratings: Sequence[Rating], contestants: Sequence[Contestant]
) -> None:
    """``ratings.csv``: rank, name, elo, lower, upper, stderr, games, score, iteration, path."""
    where = {c.name: c for c in contestants}
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(
        ["rank", "name", "elo", "lower", "upper", "stderr", "games", "score", "iteration", "path"]
    )
    for rank, r in enumerate(ratings, 1):
        c = where.get(r.name)
        writer.writerow(
            [
                rank,
                r.name,
                *(f"{value:.2f}" for value in (r.elo, r.lower, r.upper, r.stderr)),
                r.games,
                f"{r.score:.4f}",
                "" if c is None or c.iteration is None else c.iteration,
                "" if c is None or c.path is None else str(c.path),
            ]
        )
    atomic_write_bytes(path, buffer.getvalue().encode("utf-8"))


def write_fit_json(path: Path, fit: EloFit, matches: Sequence[MatchResult] = ()) -> None:
    """``fit.json``: the model's parameters, the ratings, their covariance, and each match's
    tally with the number of distinct games it held."""
    data = {
        "matches": [
            {
                "a": m.a_name,
                "b": m.b_name,
                "games": m.n,
                "distinct_games": m.distinct_games,
                "a_wins": m.a_wins,
                "draws": m.draws,
                "b_wins": m.b_wins,
            }
            for m in matches
        ],
        "anchor": fit.anchor,
        "prior": fit.prior,
        "confidence": fit.confidence,
        "advantage": fit.advantage,
        "advantage_stderr": fit.advantage_stderr,
        "drawelo": fit.drawelo,
        "drawelo_stderr": fit.drawelo_stderr,
        "ratings": [vars(r) for r in fit.ratings],
        "names": fit.names,
        "covariance": fit.covariance.round(6).tolist(),
    }
    atomic_write_bytes(path, (json.dumps(data, indent=2) + "\n").encode("utf-8"))


def plot_ratings(
    path: Path,
    ratings: Sequence[Rating],
    title: str = "",
    anchor: str | None = None,
    confidence: float = 0.95,
) -> None:
    """``ratings.png``: each player's Elo with its interval, best at the top."""
    ordered = sorted(ratings, key=lambda r: r.elo)
    fig, ax = _figure(7.5, 1.2 + 0.35 * len(ordered))
    y = list(range(len(ordered)))
    elo = [r.elo for r in ordered]
    errors = [[r.elo - r.lower for r in ordered], [r.upper - r.elo for r in ordered]]
    ax.errorbar(elo, y, xerr=errors, fmt="o", capsize=3, color="tab:blue")
    ax.set_yticks(y, [r.name for r in ordered])
    ax.axvline(0.0, color="grey", linewidth=0.8, linestyle="--")
    relative = f"{anchor} = 0" if anchor is not None else "average = 0"
    ax.set_xlabel(f"Bayesian Elo ({round(confidence * 100)}% interval; {relative})")
    ax.grid(axis="x", alpha=0.3)
    _save_png(fig, ax, path, title)


def plot_iteration_elo(path: Path, points: Sequence[tuple[int, Rating]], title: str = "") -> None:
    """Elo of each iteration with its interval (seed 001 Fig. 10)."""
    from matplotlib.ticker import MaxNLocator

    fig, ax = _figure(7.5, 4.5)
    xs = [k for k, _ in points]
    elo = [r.elo for _, r in points]
    errors = [[r.elo - r.lower for _, r in points], [r.upper - r.elo for _, r in points]]
    ax.errorbar(xs, elo, yerr=errors, fmt="o-", capsize=3)
    ax.set_xlabel("iteration (the random player at 0)" if 0 in xs else "iteration")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylabel("Bayesian Elo (95% interval)")
    ax.grid(alpha=0.3)
    _save_png(fig, ax, path, title)


def _figure(width: float, height: float) -> tuple[Any, Any]:
    """A figure of that size (inches), drawn off screen, and its one plot."""
    fig = figure(1, width=width, height=height)
    return fig, fig.add_subplot()


def _save_png(fig: Any, ax: Any, path: Path, title: str) -> None:
    if title:
        ax.set_title(title)
    save_figure(fig, path, 120)


def write_outputs(
    out: Path,
    fit: EloFit,
    contestants: Sequence[Contestant],
    title: str,
    matches: Sequence[MatchResult] = (),
) -> None:
    """``ratings.csv``, ``fit.json`` and ``ratings.png`` in ``out`` (games.jsonl is written
    while playing)."""
    out.mkdir(parents=True, exist_ok=True)
    write_ratings_csv(out / "ratings.csv", fit.ratings, contestants)
    write_fit_json(out / "fit.json", fit, matches)
    plot_ratings(out / "ratings.png", fit.ratings, title, fit.anchor, fit.confidence)


class _GameLog:
    """Appends each game to the tournament's journal as it is played. A write that fails (a
    full disk) stops the log, not the games: :attr:`error` keeps it."""

    def __init__(self, journal: TournamentJournal | None) -> None:
        self.journal = journal
        self.error: OSError | None = None

    def __call__(self, record: GameRecord, match: int, game: int) -> None:
        if self.journal is not None and self.error is None:
            try:
                self.journal.append(record, match, game)
            except OSError as error:
                self.error = error


def run_tournament(
    contestants: Sequence[Contestant],
    games: int,
    start_state: GameState,
    *,
    out: Path | None = None,
    pairs: Sequence[tuple[int, int]] | None = None,
    anchor: str | None = None,
    prior: float = DEFAULT_PRIOR,
    advantage: float | None = None,
    drawelo: float | None = None,
    opening_plies: int | None = None,
    seed: int = 0,
    progress: bool = True,
    title: str = "",
    restart_other: bool = False,
) -> Tournament:
    """Plays the round robin, fits the ratings and writes the outputs into ``out`` (if given).

    With ``out`` each game is kept in ``out/games.jsonl`` as it ends
    (:class:`~pyaz.eval.tournament_journal.TournamentJournal`), and the same tournament run
    again there plays only the games not in it; a file of another tournament is refused
    (ValueError naming the field that differs), or with ``restart_other`` started afresh.

    On KeyboardInterrupt the games played so far are rated and written (if there are enough),
    then the interrupt goes on. A write that fails (games.jsonl while the games are played, or
    the outputs at the end) does not stop the games: the OSError, naming the file, is raised
    at the end with the whole tournament, rated, as its ``tournament`` attribute.
    """
    if anchor is not None and anchor not in {c.name for c in contestants}:
        names = ", ".join(c.name for c in contestants)
        raise ValueError(f"anchor {anchor!r} is not a player; players: {names}")
    tournament = Tournament(list(contestants))
    pairs = list(pairs) if pairs is not None else round_robin_pairs(len(contestants))
    plies = default_opening_plies(start_state) if opening_plies is None else opening_plies
    journal = None
    if out is not None:
        players = [(c.name, c.path) for c in contestants]
        journal = TournamentJournal.open(
            out, players, pairs, games, start_state, plies, seed, restart_other=restart_other
        )
    if journal is not None and progress and (journal.played or journal.beyond):
        before = sum(len(games_of) for games_of in journal.played.values())
        beyond = (
            f" ({journal.beyond} more beyond --games {games} left out)" if journal.beyond else ""
        )
        print(f"resuming: {before} games played before, read from {journal.path}{beyond}",
              file=sys.stderr, flush=True)  # fmt: skip
    log = _GameLog(journal)
    options = {"anchor": anchor, "prior": prior, "advantage": advantage, "drawelo": drawelo}
    try:
        tournament.matches = play_tournament(
            contestants,
            games,
            start_state,
            pairs=pairs,
            opening_plies=plies,
            seed=seed,
            progress=progress,
            on_game=log,
            played=None if journal is None else journal.played,
        )
    except KeyboardInterrupt as interrupt:
        tournament.matches = list(getattr(interrupt, "matches", []))
        try:
            tournament.fit = fit_matches(tournament.matches, **options)
        except ValueError:
            raise interrupt from None
        if out is not None:
            write_outputs(out, tournament.fit, contestants, title, tournament.matches)
        interrupt.tournament = tournament  # type: ignore[attr-defined]
        raise
    finally:
        if journal is not None:
            journal.close()
    tournament.fit = fit_matches(tournament.matches, **options)
    failure = log.error
    if out is not None:
        try:
            write_outputs(out, tournament.fit, contestants, title, tournament.matches)
        except OSError as error:
            failure = failure or error
    if failure is not None:
        failure.tournament = tournament  # type: ignore[attr-defined]
        raise failure
    return tournament


def rate_run_iterations(
    run_dir: str | Path,
    games: int,
    simulations: int,
    every: int = 1,
    *,
    random_player: bool = True,
    neighbours: int | None = None,
    prior: float = DEFAULT_PRIOR,
    opening_plies: int | None = None,
    seed: int = 0,
    device: str = "cpu",
    progress: bool = False,
    out: str | Path | None = None,
) -> list[Rating]:
    """Bayesian Elo of the networks of one run's iterations (seed 001 Fig. 10).

    Takes ``run_dir/nets/iter-*.pt`` for the iterations that are multiples of ``every`` (and
    always the last one), plus the uniform random player as the anchor (rating 0) unless
    ``random_player`` is False (then the first rated iteration is the anchor). The players are
    named ``random`` and ``iter-00005`` and so on. All pairs play ``games`` games each, or with
    ``neighbours=k`` each player only its k predecessors (random, then iterations in order: a
    chain whose cost grows linearly with the number of iterations). With ``out``, the files of
    ``pyaz-tournament`` are written there and ``ratings.png`` shows Elo against iteration.

    Returns the ratings in player order: ``random`` first (if present), then the iterations
    ascending; each :class:`~pyaz.eval.elo.Rating` carries its 95% interval.
    """
    run_dir = Path(run_dir)
    if every < 1:
        raise ValueError(f"every must be >= 1, got {every}")
    files: dict[int, Path] = {}
    for path in (run_dir / "nets").glob("iter-*.pt"):
        match = re.fullmatch(r"iter-(\d+)\.pt", path.name)
        if match:
            files[int(match.group(1))] = path
    if not files:
        raise ValueError(f"{run_dir / 'nets'} holds no iter-*.pt networks")
    last = max(files)
    chosen = sorted(k for k in files if k % every == 0 or k == last)
    _, _, state = start_state_for([files[k] for k in chosen])
    contestants: list[Contestant] = []
    if random_player:
        contestants.append(Contestant(RANDOM, RandomPlayer(seed=seed, name=RANDOM)))
    from pyaz.nets import load_model

    for k in chosen:
        model = load_model(files[k], "az")
        model.check(cast(NetworkGameState, state))  # an AlphaZero run's game has planes
        name = f"iter-{k:05d}"
        player = network_player(model, simulations, name, seed=seed + k, device=device)
        contestants.append(Contestant(name, player, files[k], k))
    if len(contestants) < 2:
        raise ValueError("need at least two players: add the random player or more iterations")
    anchor = contestants[0].name
    tournament = run_tournament(
        contestants,
        games,
        state,
        out=Path(out) if out is not None else None,
        pairs=round_robin_pairs(len(contestants), neighbours),
        anchor=anchor,
        prior=prior,
        opening_plies=opening_plies,
        seed=seed,
        progress=progress,
        title=f"{run_dir.name}: Elo by iteration",
        restart_other=True,  # the run's own folder: other iterations rated before start afresh
    )
    assert tournament.fit is not None
    ratings = [tournament.fit.rating(c.name) for c in contestants]
    if out is not None:
        points = [(c.iteration, r) for c, r in zip(contestants, ratings, strict=True)]
        plot_iteration_elo(
            Path(out) / "ratings.png",
            [(0 if k is None else k, r) for k, r in points],
            f"{run_dir.name}: Elo by iteration (anchor {anchor} = 0)",
        )
    return ratings
