"""Seed 003's training runs as functions of a folder (resumable), for ``pyaz-experiment zetago``:
the 5x5 network, then the 9x9 network with transfer from it (trained as many iterations as its
source) and the same 9x9 network without transfer (twice as many), each a
:class:`~pyaz.methods.reinforce.loop.ReinforceTrainer` in its own subfolder. A finished stage
is skipped: its folder holds the mark of a finished run
(:func:`~pyaz.common.run.run_finished`, which the trainer writes; the empty ``FINISHED`` that
these functions wrote before counts too).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import torch

from pyaz.common.run import run_finished
from pyaz.methods.reinforce.loop import ReinforceConfig, ReinforceTrainer
from pyaz.methods.reinforce.net import (
    SmallConfig,
    SmallPolicyNet,
    TransferConfig,
    TransferNet,
    load_transfer_source,
)

__all__ = ["STAGES", "train_pipeline", "train_small"]

STAGES = ("5x5", "9x9-transfer", "9x9-scratch")


def _train(folder: Path, net: SmallPolicyNet | TransferNet, reinforce: dict[str, Any]) -> None:
    """The run in ``folder``, started or resumed, unless it finished (the trainer marks it)."""
    if run_finished(folder):
        return
    ReinforceTrainer(net, ReinforceConfig(**reinforce), folder).run()


def train_small(folder: Path, config: dict[str, Any]) -> None:
    """A 5x5 run: ``config`` has ``small`` (:class:`SmallConfig` fields), ``reinforce``
    (:class:`ReinforceConfig` fields) and ``threads`` (torch threads)."""
    folder = Path(folder)
    torch.set_num_threads(int(config.get("threads", 1)))
    torch.manual_seed(int(config["reinforce"].get("seed", 0)))
    _train(folder, SmallPolicyNet(SmallConfig(**config["small"])), config["reinforce"])


def train_pipeline(folder: Path, config: dict[str, Any]) -> None:
    """The 5x5 run, then the 9x9 runs with and without transfer, in ``folder/<stage>``.

    ``config``: ``small``, ``reinforce`` (the 5x5 run), ``large`` (:class:`TransferConfig`
    fields but ``transfer``), ``reinforce_large`` (the 9x9 runs; ``iterations`` is set from the
    5x5 run's: the same for transfer, twice for scratch) and ``threads``."""
    folder = Path(folder)
    (folder / "config.json").write_text(json.dumps(config, indent=2) + "\n")
    train_small(folder / "5x5", config)
    iterations = int(config["reinforce"]["iterations"])
    source = load_transfer_source(folder / "5x5" / "net.pt", int(config["small"]["size"]))
    seed = int(config["reinforce_large"].get("seed", 0))
    for stage, transfer, factor in (("9x9-transfer", True, 1), ("9x9-scratch", False, 2)):
        torch.manual_seed(seed + factor)
        large = TransferConfig(**config["large"], transfer=transfer)
        net = TransferNet(source if transfer else None, large)
        reinforce = {**config["reinforce_large"], "iterations": factor * iterations}
        _train(folder / stage, net, reinforce)
