"""The run targets the AlphaZero-loop experiments use (see :class:`~pyaz.experiments.base.RunSpec`).

Both resume: a folder that holds a checkpoint continues from it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pyaz.common.plots import make_plots
from pyaz.methods.alphazero.loop import TrainingLoop
from pyaz.methods.alphazero.preset_files import train_config
from pyaz.train.checkpoint import CHECKPOINT_FILE

__all__ = ["train_curling", "train_selfplay", "train_side_by_side"]


def _loop(folder: Path, config: dict[str, Any]) -> TrainingLoop:
    resume = (folder / CHECKPOINT_FILE).exists()
    return TrainingLoop(train_config(config), folder, resume=resume, progress=False)


def train_selfplay(folder: Path, config: dict[str, Any]) -> None:
    """One ``pyaz-selfplay`` run with the settings ``config`` (a preset's keys: TrainConfig
    fields and game options, see :func:`~pyaz.methods.alphazero.preset_files.train_config`), in
    ``folder``,
    which ``pyaz-selfplay --out FOLDER --resume`` could continue."""
    loop = _loop(Path(folder), config)
    try:
        loop.run()
    finally:
        make_plots(folder)


def train_side_by_side(folder: Path, configs: dict[str, dict[str, Any]]) -> None:
    """Several runs trained side by side in one process, one iteration of each in turn, so that
    they share the machine's load (seed 000 trained its baseline and curriculum players together
    on one machine for the same reason). Run ``label`` lives in ``folder/label``; each counts its
    own time (``elapsed_s``), so the comparison against wall time is fair."""
    folder = Path(folder)
    loops = {label: _loop(folder / label, config) for label, config in configs.items()}
    try:
        active = list(loops.values())
        while active:
            active = [loop for loop in active if loop.advance() is not None]
        for loop in loops.values():
            loop.finish()
    finally:
        for loop in loops.values():
            loop.close()
        for label in loops:
            make_plots(folder / label)


def train_curling(folder: Path, config: dict[str, Any]) -> None:
    """One ``pyaz-selfplay --game curling`` run (seed 002's pipeline) with the
    :class:`~pyaz.methods.kr_dl_uct.config.CurlingConfig` fields ``config``, in ``folder``."""
    from pyaz.methods.kr_dl_uct.config import CurlingConfig
    from pyaz.methods.kr_dl_uct.loop import CurlingTrainingLoop
    from pyaz.methods.kr_dl_uct.plots import plot_win_table

    folder = Path(folder)
    resume = (folder / CHECKPOINT_FILE).exists()
    loop = CurlingTrainingLoop(CurlingConfig(**config), folder, resume=resume, progress=False)
    try:
        loop.run()
    finally:
        make_plots(folder)
        plot_win_table(folder)
