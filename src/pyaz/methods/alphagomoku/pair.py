"""Seed 004's double networks (III-B): a black and a white network, each trained only on its
colour's moves; in the search every node is evaluated by the network of the colour to move there.

The colour to move is read off the planes: pyaz's Gomoku planes are (stones of the side to move,
the opponent's stones, the last move), and in Gomoku (no passes, no captures, Black first) Black
is to move exactly when both sides have as many stones (``Gomoku.from_text`` refuses any other
count). :class:`PairEvaluator` splits each batch of leaves by that colour and makes one call per
colour, so the search's batching survives.

A pair is saved as one model file of kind ``"alphagomoku-pair"`` (:func:`save_pair`, the header
of :mod:`pyaz.nets.files` beside ``{"black": net_state, "white": net_state, "single": bool,
"settings": {...}}``); ``single`` marks the single-network ablation (one network for both
colours, stored twice). A pair file written before the header (``"format":
"pyaz-alphagomoku-pair-1"``) still loads. ``pyaz.load_model`` reads a pair file as it reads
every model (a :class:`~pyaz.nets.LoadedModel` whose module is a :class:`PairModule`), and
:func:`network_pair` reads the pair out of it: ``network_pair(pyaz.load_model(path,
"alphagomoku-pair"))``.
"""

from __future__ import annotations

import copy
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from torch import nn

from pyaz._core import Gomoku
from pyaz.games import NetworkGameState
from pyaz.nets import PolicyValueNet, net_from_state, net_state
from pyaz.nets.bounds import shortened
from pyaz.nets.files import ModelFile, write_model_file
from pyaz.nets.loading import LoadedModel, settings_game
from pyaz.nets.runtimes import make_evaluator

__all__ = [
    "BLACK",
    "GAME",
    "PAIR_FILE",
    "WHITE",
    "NetworkPair",
    "PairEvaluator",
    "PairModule",
    "network_pair",
    "pair_from_file",
    "save_pair",
    "side_to_move",
]

BLACK, WHITE = 0, 1
GAME = str(Gomoku().name)
"""The registry name of the game a pair plays (Gomoku), as its file's header names it."""
PAIR_FILE = "pair.pt"
"""The pair's file in a run folder."""


def side_to_move(planes: np.ndarray) -> np.ndarray:
    """The colour to move (0 Black, 1 White) of each Gomoku position in ``planes`` [B, 3, H, W]:
    White when the side to move has one stone fewer than its opponent, else Black."""
    if planes.ndim != 4 or planes.shape[1] < 2:
        raise ValueError(f"Gomoku planes are [B, 3, H, W], got shape {planes.shape}")
    own = planes[:, 0].reshape(len(planes), -1).sum(axis=1)
    other = planes[:, 1].reshape(len(planes), -1).sum(axis=1)
    return (own < other).astype(np.int64)


class PairEvaluator:
    """The search's evaluator for a pair: each batch is split by the colour to move and each part
    goes to its colour's evaluator, one call per colour present. ``calls`` counts the calls made
    to each colour's evaluator."""

    def __init__(self, black: Any, white: Any) -> None:
        self.evaluators = (black, white)
        self.calls = [0, 0]

    def __call__(self, planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        sides = side_to_move(planes)
        logits: np.ndarray | None = None
        values = np.zeros(len(planes), dtype=np.float32)
        for colour in (BLACK, WHITE):
            rows = np.flatnonzero(sides == colour)
            if rows.size == 0:
                continue
            part = planes if rows.size == len(planes) else np.ascontiguousarray(planes[rows])
            part_logits, part_values = self.evaluators[colour](part)
            self.calls[colour] += 1
            part_logits = np.asarray(part_logits, dtype=np.float32)
            if logits is None:
                logits = np.zeros((len(planes), part_logits.shape[1]), dtype=np.float32)
            logits[rows] = part_logits
            values[rows] = np.asarray(part_values, dtype=np.float32).reshape(-1)
        assert logits is not None
        return logits, values


@dataclass
class NetworkPair:
    """A black and a white :class:`~pyaz.nets.PolicyValueNet` of one game. With ``single`` the
    two are one network (the ablation without double networks). ``settings`` travel with the
    pair's file (the game, its options, ``c_puct``, ``value_decay``, ...)."""

    black: PolicyValueNet
    white: PolicyValueNet
    single: bool = False
    settings: dict[str, Any] = field(default_factory=dict)
    path: Path = Path()

    def __post_init__(self) -> None:
        _check_same_game(self.black, self.white, self.path)
        if self.single and self.white is not self.black:
            self.white = self.black

    @classmethod
    def fresh(cls, net: PolicyValueNet, single: bool = False) -> NetworkPair:
        """A pair started from ``net``: two copies (one shared network when ``single``)."""
        return cls(net, net if single else copy.deepcopy(net), single)

    def nets(self) -> list[PolicyValueNet]:
        """The distinct networks: [black, white], or [the one] when ``single``."""
        return [self.black] if self.single else [self.black, self.white]

    def net(self, colour: int) -> PolicyValueNet:
        return self.black if colour == BLACK else self.white

    def clone(self) -> NetworkPair:
        black = copy.deepcopy(self.black)
        white = black if self.single else copy.deepcopy(self.white)
        return NetworkPair(black, white, self.single, dict(self.settings), self.path)

    def check(self, state: NetworkGameState) -> None:
        """ValueError unless the pair plays ``state``'s game (Gomoku planes and actions), with
        the message of :func:`pyaz.nets.loading.check_network` for a network that does not fit."""
        if str(state.name) != GAME:
            raise ValueError(f"{self.path}: an AlphaGomoku pair plays Gomoku, not {state.name}")
        for net in self.nets():
            training = net.training
            net.eval()  # the check runs the network once: no batch-norm statistics may move
            try:
                LoadedModel(net, net.config, path=Path(self.path)).check(state)
            finally:
                net.train(training)

    def evaluator(self, runtime: str | None = None, threads: int = 1) -> Any:
        """The pair as the search's evaluator (a snapshot of the current weights): a
        :class:`PairEvaluator`, or the one network's own evaluator when ``single``."""
        made = [_evaluator(net, runtime, threads) for net in self.nets()]
        return made[0] if self.single else PairEvaluator(made[0], made[1])


def _evaluator(net: PolicyValueNet, runtime: str | None, threads: int) -> Any:
    c = net.config
    return make_evaluator(net, (c.planes, c.height, c.width), runtime, threads=threads)


def _check_same_game(black: PolicyValueNet, white: PolicyValueNet, path: Path) -> None:
    a, b = black.config, white.config
    shape_a = (a.planes, a.height, a.width, a.actions)
    shape_b = (b.planes, b.height, b.width, b.actions)
    if shape_a != shape_b:
        raise ValueError(
            f"{path}: the black and white networks do not play the same game: black takes "
            f"{shape_a[0]}x{shape_a[1]}x{shape_a[2]} planes and {shape_a[3]} actions, white "
            f"{shape_b[0]}x{shape_b[1]}x{shape_b[2]} and {shape_b[3]}"
        )


def save_pair(pair: NetworkPair, path: str | os.PathLike[str]) -> Path:
    """Writes ``pair`` to ``path`` atomically (a temporary file renamed); returns the path."""
    black = net_state(pair.black)
    payload = {
        "black": black,
        "white": net_state(pair.white),
        "single": pair.single,
        "settings": dict(pair.settings),
    }
    options = pair.settings.get("game_options") or {"size": pair.black.config.width}
    return write_model_file(path, "alphagomoku-pair", payload, GAME, options, black["config"])


class PairModule(nn.Module):
    """A loaded pair as one torch module, the ``module`` of the
    :class:`~pyaz.nets.LoadedModel` that ``pyaz.load_model`` returns for a pair file: its
    ``black`` and ``white`` networks as submodules (one network twice when ``single``), and
    ``pair``, the :class:`NetworkPair` they form, which :func:`network_pair` returns."""

    def __init__(self, pair: NetworkPair) -> None:
        super().__init__()
        self.black = pair.black
        self.white = pair.white
        self.pair = pair


def network_pair(loaded: LoadedModel) -> NetworkPair:
    """The AlphaGomoku pair of ``loaded``, what ``pyaz.load_model`` returned for a pair file;
    a one-line ValueError naming both kinds when it holds another kind of model."""
    return loaded.module_of("alphagomoku-pair", PairModule).pair


def pair_from_file(model: ModelFile) -> LoadedModel:
    """The record of a model file of kind ``"alphagomoku-pair"`` (see ``pyaz.load_model``), each
    network checked before it is built (:func:`~pyaz.nets.model.net_from_state`: bounded
    sizes, weights of the config's shapes, finite); a one-line ValueError naming the file
    otherwise."""
    file, data = model.path, model.payload
    try:
        black = net_from_state(data["black"])
        white = black if data.get("single") else net_from_state(data["white"])
    except (KeyError, TypeError, ValueError, RuntimeError) as error:
        raise ValueError(
            f"{file}: a broken network in the pair ({shortened(str(error))})"
        ) from None
    for net in (black, white):
        net.eval()
    saved = data.get("settings")
    settings: dict[str, Any] = dict(saved) if isinstance(saved, dict) else {}
    pair = NetworkPair(black, white, bool(data.get("single")), settings, file)
    game = model.game or settings_game(settings)
    module = PairModule(pair).eval()
    return LoadedModel(module, None, settings, file, kind="alphagomoku-pair", game=game)
