"""The matches of the training loop (:class:`~pyaz.methods.alphazero.loop.TrainingLoop`), each
returning the record that the loop logs: the gate between the challenger and the best network
(AlphaGo Zero's loop, :func:`play_gate`) and the evaluation against the reference opponent
(:class:`Evaluation`).

Every match plays distinct games: each pair of games starts from a shared random opening
(``opening_plies``, default per game) played with both colour orders.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pyaz.eval import arena, exhaustive, gates, oracle_sets, presets
from pyaz.eval.players import Player, close_player
from pyaz.games import PlayableGameState
from pyaz.games.profiles import profile
from pyaz.methods.alphazero.config import PERFECT_OPPONENT, TrainConfig


def play_gate(
    config: TrainConfig,
    challenger: Player,
    best: Player,
    start_state: PlayableGameState,
    seed: int,
    progress: bool,
) -> tuple[bool, dict[str, Any]]:
    """Whether ``challenger`` replaces ``best`` by the rule of ``config.gating`` (wilson: the
    sequential 95% Wilson rule; threshold or score: ``arena_games`` games against
    ``update_threshold``), and the gate's record; ``seed`` draws the openings."""
    c = config
    reason = ""
    if c.gating == "wilson":
        gate = gates.WilsonGate(max_games=c.wilson_max_games)
        decision, result = gate.run(challenger, best, start_state, progress, c.opening_plies, seed)
        accepted = decision == "replace"
        reason = gate.reason(result)
    else:
        result = arena.play_match(
            challenger,
            best,
            c.arena_games,
            start_state,
            progress=progress,
            opening_plies=c.opening_plies,
            seed=seed,
        )
        rule = gates.azg_gate if c.gating == "threshold" else gates.score_gate
        accepted = rule(result, c.update_threshold)
    return accepted, {
        "arena_score": result.score,
        "arena_wins": result.a_wins,
        "arena_draws": result.draws,
        "arena_losses": result.b_wins,
        "arena_games": result.n,
        "arena_distinct_games": result.distinct_games,
        "arena_stop": reason,
        "accepted": int(accepted),
    }


class Evaluation:
    """The run's evaluation of its network's greedy player (seed 000): ``eval_games`` games
    against ``eval_opponent``, from the same openings at every evaluation so that the curve
    compares like with like; or, with eval_opponent perfect, the player's share of
    value-keeping moves on ``eval_games`` hard positions (the same seeded set at every
    evaluation, drawn on first use)."""

    def __init__(self, config: TrainConfig, start_state: PlayableGameState):
        self.config = config
        self.start_state = start_state
        self._oracle_positions: list[oracle_sets.StagedPosition] | None = None

    def play(self, player: Callable[[], Player], progress: bool) -> dict[str, Any] | None:
        """The evaluation's record, the network's player built by ``player`` (after the
        opponent); None without an evaluation (eval_opponent none or no eval_games)."""
        c = self.config
        if c.eval_opponent == "none" or c.eval_games < 1:
            return None
        if c.eval_opponent == PERFECT_OPPONENT:
            return self._perfect_play(player)
        opponent = presets.make_player(c.eval_opponent, self.start_state, seed=c.seed)
        try:
            result = arena.play_match(
                player(),
                opponent,
                c.eval_games,
                self.start_state,
                progress=progress,
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

    def _perfect_play(self, player: Callable[[], Player]) -> dict[str, Any]:
        """The record of the player's agreement with exact play on hard positions over the whole
        game, over all and by stage: Connect Four's from its oracle sets
        (:func:`~pyaz.eval.oracle_sets.evaluation_set`), another game's by exhaustive minimax
        (:func:`~pyaz.eval.exhaustive.evaluation_set`)."""
        if self._oracle_positions is None:
            count, seed = self.config.eval_games, self.config.seed
            if profile(str(self.start_state.name)).oracle:  # its exact solver's sets
                width, height = self.start_state.num_actions, self.start_state.board_shape[0]
                self._oracle_positions = oracle_sets.evaluation_set(width, height, count, seed)
            else:  # a game small enough for exhaustive minimax (TrainConfig.validate)
                self._oracle_positions = exhaustive.evaluation_set(self.start_state, count, seed)
        by_stage = oracle_sets.agreement_by_stage(player(), self._oracle_positions)
        agreement = by_stage.pop("all")
        return {
            "perfect_agreement": agreement.agreement,
            "perfect_agreement_lower": agreement.lower,
            "perfect_agreement_upper": agreement.upper,
            **{
                f"perfect_agreement_{stage}": result.agreement for stage, result in by_stage.items()
            },
            "opponent": PERFECT_OPPONENT,
            "eval_positions": agreement.positions,
            "eval_kept": agreement.kept,
        }
