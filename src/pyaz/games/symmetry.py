"""Dihedral symmetries of board planes and policies, for data augmentation.

Transform ``k`` in 0..7: if ``k >= 4`` mirror left-right first, then rotate ``k % 4`` quarter
turns counter-clockwise (``numpy.rot90``). Square-board games (Othello, Gomoku) have all 8;
Connect Four has only 0 and 4 (gravity rules out rotations and the vertical flip), and so has
Racing Kings (both kings race up the board; mirroring the files a <-> h keeps the rules).
"""

from __future__ import annotations

import numbers
from functools import cache

import numpy as np

from pyaz._core import RacingKings
from pyaz.games import GameState, PlayableGameState
from pyaz.games.profiles import profile

_MIRROR_FILE = dict(zip("abcdefgh", "hgfedcba", strict=True))


def num_symmetries(state: GameState) -> int:
    """How many of the transforms 0..7 are symmetries of the game's rules."""
    return len(symmetry_ids(state))


def symmetry_ids(state: GameState) -> list[int]:
    """The transform ids valid for this game (its profile's symmetries): [0, 4] for Connect
    Four and Racing Kings."""
    return list(profile(str(state.name)).symmetries)


@cache
def _racing_kings_mirror() -> np.ndarray:
    """Racing Kings action ids with the files mirrored (a <-> h), promotion slots included."""
    state = RacingKings()
    mirrored = [
        state.parse_uci("".join(_MIRROR_FILE.get(ch, ch) for ch in state.uci(a)))
        for a in range(state.num_actions)
    ]
    return np.array(mirrored, dtype=np.int64)


def _check(k: int, name: str, array: object) -> None:
    """Every transform's checks: the symmetry id, then that ``array`` is a numpy array."""
    if isinstance(k, bool) or not isinstance(k, numbers.Integral):
        raise TypeError(f"symmetry id must be an integer in 0..7, got {k!r}")
    if not 0 <= k < 8:
        raise ValueError(f"symmetry id must be in 0..7, got {k}")
    if not isinstance(array, np.ndarray):
        raise TypeError(f"{name} must be a numpy array, got {type(array).__name__}")


def transform_planes(planes: np.ndarray, k: int) -> np.ndarray:
    """Applies transform ``k`` to the last two axes (H, W) of ``planes``, an array of planes
    ``[C, H, W]`` (or a batch ``[N, C, H, W]``); ValueError for fewer than 3 dimensions (a
    single board ``[H, W]`` goes to :func:`transform_board`)."""
    _check(k, "planes", planes)
    if planes.ndim < 3:
        raise ValueError(
            f"planes must have shape [C, H, W] (or [N, C, H, W]), got shape {planes.shape}; "
            "use transform_board for a single [H, W] board"
        )
    return _transform(planes, k)


def transform_board(board: np.ndarray, k: int) -> np.ndarray:
    """Applies transform ``k`` to a board ``[H, W]`` (e.g. ``state.board()`` or a grid of cell
    indices); ValueError for any other number of dimensions."""
    _check(k, "board", board)
    if board.ndim != 2:
        raise ValueError(f"board must have shape [H, W], got shape {board.shape}")
    return _transform(board, k)


def _transform(array: np.ndarray, k: int) -> np.ndarray:
    out = np.flip(array, axis=-1) if k >= 4 else array
    return np.ascontiguousarray(np.rot90(out, k % 4, axes=(-2, -1)))


def _board_permutation(state: PlayableGameState, k: int) -> np.ndarray:
    """For each cell of the transformed board, the index it came from."""
    if state.name == "racingkings":
        if k not in (0, 4):
            raise ValueError(f"Racing Kings has only symmetries 0 and 4 (mirror), got {k}")
        return np.arange(state.num_actions) if k == 0 else _racing_kings_mirror()
    if state.name == "connect_four":
        if k not in (0, 4):
            raise ValueError(f"Connect Four has only symmetries 0 and 4 (mirror), got {k}")
        columns = np.arange(state.num_actions).reshape(1, -1)
        return transform_board(columns, k).ravel()
    height, width = state.board_shape
    return transform_board(np.arange(height * width).reshape(height, width), k).ravel()


def transform_policy(policy: np.ndarray, k: int, state: PlayableGameState) -> np.ndarray:
    """Applies transform ``k`` to policies over ``state``'s action space (last axis).

    Board actions move with the board; a trailing pass action (Othello) stays in place.
    """
    _check(k, "policy", policy)
    if policy.shape[-1] != state.num_actions:
        raise ValueError(
            f"policy's last axis has {policy.shape[-1]} entries, the game has "
            f"{state.num_actions} actions"
        )
    source = _board_permutation(state, k)
    extra = np.arange(source.size, state.num_actions)
    return policy[..., np.concatenate([source, extra])]
