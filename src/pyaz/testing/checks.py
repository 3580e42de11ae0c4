"""The conformance checks, one function each, all called ``check(make_state, options)``:
each returns a :class:`CheckResult` or raises :class:`ConformanceError` naming itself, the
position and what differed. :data:`CHECKS` holds them in the order :func:`check_game` runs
them, each check relying on the ones before it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from pyaz._core import Status
from pyaz.games import perft
from pyaz.games.state import BoardGameState, protocol_members
from pyaz.testing.options import DIHEDRAL, Options, Symmetries, max_plies
from pyaz.testing.positions import (
    MakeState,
    Moves,
    differences,
    observe,
    random_game,
    replay,
    sample,
)
from pyaz.testing.results import CheckResult, ConformanceError

__all__ = [
    "CHECKS",
    "Check",
    "check_action_text",
    "check_clone",
    "check_legal_actions",
    "check_perft",
    "check_planes",
    "check_playouts",
    "check_protocol",
    "check_symmetries",
    "check_terminal",
]

Check = Callable[[MakeState, Options], CheckResult]

PROTOCOL_MEMBERS = protocol_members(BoardGameState)
"""The members of :class:`pyaz.games.state.BoardGameState`, the protocol every game follows
(``name``, ``ply``, ``to_move``, ``is_terminal``, ``status``, ``is_legal``, ``apply``,
``clone``, ``legal_actions``); the ``protocol`` check asks for them. The richer protocols'
members are checked where the game has them: :class:`~pyaz.games.state.NetworkGameState`'s by
``legal_actions`` (``num_actions``), ``planes`` and ``symmetries``,
:class:`~pyaz.games.state.PlayableGameState`'s by ``action_text``."""


def check_protocol(make_state: MakeState, options: Options) -> CheckResult:
    """``make_state()`` builds a new :class:`~pyaz.games.state.BoardGameState` on every call,
    named, at ply 0, with side 0 to move and the game going on."""
    state = make_state()
    missing = [member for member in PROTOCOL_MEMBERS if getattr(state, member, None) is None]
    if missing or not isinstance(state, BoardGameState):
        raise ConformanceError("protocol", (), f"the state has no {', '.join(missing)}")
    if make_state() is state:
        raise ConformanceError("protocol", (), "make_state() returned the same object twice")
    if not isinstance(state.name, str) or not state.name:
        raise ConformanceError("protocol", (), f"the game's name is {state.name!r}")
    start = (state.ply, state.to_move(), state.status())
    if start != (0, 0, Status.ONGOING):
        detail = f"(ply, to_move(), status()) is {start}, expected (0, 0, Status.ONGOING)"
        raise ConformanceError("protocol", (), detail)
    return CheckResult("protocol", f"{type(state).__name__} {state.name!r}")


def check_clone(make_state: MakeState, options: Options) -> CheckResult:
    """A clone equals its original, and applying an action to either leaves the other as it
    was (legal actions, board, planes, side to move, status, ply, text)."""
    positions = sample(make_state, options)
    for moves in positions:
        state = replay(make_state, moves)
        before = observe(state)
        _same("clone", moves, before, state.clone(), "a clone differs from its original")
        legal = state.legal_actions()
        if not legal:
            continue
        action = legal[len(legal) // 2]
        state.clone().apply(action)
        _same("clone", moves, before, state, f"applying {action} to a clone changed the original")
        clone = state.clone()
        state.apply(action)
        _same("clone", moves, before, clone, f"applying {action} to the original changed a clone")
    return CheckResult("clone", f"{len(positions)} positions")


def _same(check: str, moves: Moves, before: dict[str, Any], state: Any, what: str) -> None:
    """ConformanceError ``what`` unless ``state`` looks as ``before`` (:func:`observe`)."""
    changed = differences(before, observe(state))
    if changed:
        raise ConformanceError(check, moves, f"{what}: {changed}")


def check_legal_actions(make_state: MakeState, options: Options) -> CheckResult:
    """``legal_actions()`` lists distinct actions, the ones ``is_legal`` (and ``legal_mask()``
    where the game has one) accepts; each applies to a clone, one ply later; an illegal action
    raises ValueError and leaves the state as it was."""
    positions = sample(make_state, options)
    states = [replay(make_state, moves) for moves in positions]
    known = sorted({a for state in states for a in state.legal_actions()})
    for moves, state in zip(positions, states, strict=True):
        legal = state.legal_actions()
        if len(set(legal)) != len(legal):
            raise ConformanceError("legal_actions", moves, f"repeated actions in {legal}")
        illegal = _check_action_space(state, moves, sorted(legal), known)
        for action in legal:
            _check_applies(state, moves, action)
        for action in _spread(illegal):
            _check_refused(state, moves, action)
    return CheckResult("legal_actions", f"{len(positions)} positions")


def _check_action_space(state: Any, moves: Moves, legal: list[int], known: list[int]) -> list[int]:
    """Checks ``is_legal`` (every action of the space, else the ``known`` ones) and
    ``legal_mask()`` against ``legal``; returns the illegal actions it saw."""
    size = getattr(state, "num_actions", None)
    actions = list(range(size)) if size is not None else sorted({*known, *legal})
    if size is not None and any(not 0 <= a < size for a in legal):
        raise ConformanceError("legal_actions", moves, f"{legal} leave 0..{size - 1}")
    accepted = [a for a in actions if state.is_legal(a)]
    if accepted != legal:
        raise ConformanceError("legal_actions", moves, _disagree("is_legal", accepted, legal))
    if size is not None and callable(getattr(state, "legal_mask", None)):
        mask = np.asarray(state.legal_mask())
        if mask.shape != (size,) or mask.dtype != np.bool_:
            detail = f"legal_mask() is {mask.dtype} {mask.shape}, expected bool ({size},)"
            raise ConformanceError("legal_actions", moves, detail)
        marked = np.flatnonzero(mask).tolist()
        if marked != legal:
            raise ConformanceError("legal_actions", moves, _disagree("legal_mask()", marked, legal))
    listed = set(legal)
    return [a for a in actions if a not in listed]


def _disagree(what: str, accepted: list[int], legal: list[int]) -> str:
    """How the actions ``what`` accepts differ from ``legal_actions()``'s."""
    only = sorted(set(accepted) - set(legal))
    missing = sorted(set(legal) - set(accepted))
    return f"{what} accepts {only} beyond legal_actions() and refuses {missing} of them"


def _spread(actions: Sequence[int]) -> list[int]:
    """The first, middle and last of ``actions`` (fewer if there are fewer)."""
    picks = {0, len(actions) // 2, len(actions) - 1} if actions else set()
    return [actions[i] for i in sorted(picks)]


def _check_applies(state: Any, moves: Moves, action: int) -> None:
    """The legal ``action`` applies to a clone of ``state`` and adds one ply."""
    child = state.clone()
    try:
        child.apply(action)
    except ValueError as error:
        detail = f"apply refused the legal action {action}: {error}"
        raise ConformanceError("legal_actions", moves, detail) from error
    if child.ply != state.ply + 1:
        detail = f"applying {action} at ply {state.ply} gave ply {child.ply}"
        raise ConformanceError("legal_actions", moves, detail)


def _check_refused(state: Any, moves: Moves, action: int) -> None:
    """Applying the illegal ``action`` to a clone of ``state`` raises ValueError and leaves the
    clone as it was."""
    child = state.clone()
    before = observe(child)
    try:
        child.apply(action)
    except ValueError:
        _same("legal_actions", moves, before, child, f"the refused action {action} changed it")
        return
    raise ConformanceError("legal_actions", moves, f"apply took the illegal action {action}")


def check_terminal(make_state: MakeState, options: Options) -> CheckResult:
    """``status()`` is a :class:`~pyaz.Status`, ONGOING exactly while the game is not
    terminal; no legal actions iff terminal (a game with passes lists its pass); side 0 or 1
    to move; where the game has ``returns()``, two at the end, zero-sum, the winner's higher."""
    positions = sample(make_state, options)
    for moves in positions:
        state = replay(make_state, moves)
        status, terminal, legal = state.status(), state.is_terminal(), state.legal_actions()
        if not isinstance(status, Status) or terminal != (status != Status.ONGOING):
            detail = f"status() is {status!r} and is_terminal() {terminal}"
            raise ConformanceError("terminal", moves, detail)
        if terminal == bool(legal):
            detail = f"is_terminal() is {terminal} with legal actions {legal}"
            raise ConformanceError("terminal", moves, detail)
        if not terminal and state.to_move() not in (0, 1):
            raise ConformanceError("terminal", moves, f"to_move() is {state.to_move()!r}")
        if terminal and callable(getattr(state, "returns", None)):
            _check_returns(moves, [float(r) for r in state.returns()], status)
    return CheckResult("terminal", f"{len(positions)} positions")


def _check_returns(moves: Moves, returns: list[float], status: Status) -> None:
    """A finished game's ``returns``: one per player, zero-sum, agreeing with ``status``."""
    order = {
        Status.FIRST_PLAYER_WIN: returns[0] > returns[-1],
        Status.SECOND_PLAYER_WIN: returns[0] < returns[-1],
        Status.DRAW: returns[0] == returns[-1],
    }
    if len(returns) != 2 or abs(sum(returns)) > 1e-9 or not order[status]:
        detail = f"returns() {returns} for {status.name}: expected two, zero-sum, in its order"
        raise ConformanceError("terminal", moves, detail)


def check_planes(make_state: MakeState, options: Options) -> CheckResult:
    """``encode()`` gives a float array of ``planes_shape`` with finite values (the planes of a
    :class:`~pyaz.games.state.NetworkGameState`; skipped for a game without ``encode()``)."""
    start = make_state()
    if not callable(getattr(start, "encode", None)):
        return CheckResult("planes", "the game has no encode()", skipped=True)
    shape = getattr(start, "planes_shape", None)
    if shape is None:
        raise ConformanceError("planes", (), "the game has encode() but no planes_shape")
    positions = sample(make_state, options)
    for moves in positions:
        planes = replay(make_state, moves).encode()
        if not isinstance(planes, np.ndarray) or planes.dtype.kind != "f":
            detail = f"encode() gave {type(planes).__name__} {getattr(planes, 'dtype', '')}"
            raise ConformanceError("planes", moves, f"{detail}, expected a float array")
        if planes.shape != tuple(shape):
            detail = f"encode() has shape {planes.shape}, planes_shape is {tuple(shape)}"
            raise ConformanceError("planes", moves, detail)
        if not np.isfinite(planes).all():
            raise ConformanceError("planes", moves, "encode() has values that are not finite")
    return CheckResult("planes", f"{len(positions)} positions, shape {tuple(shape)}")


def check_symmetries(make_state: MakeState, options: Options) -> CheckResult:
    """Each declared transform permutes the action space and keeps the planes' shape; one that
    leaves the start as it is also commutes with play: the game of the transformed actions
    has the transformed planes and legal actions at every position."""
    start = make_state()
    declared = len(DIHEDRAL.ids(start)) > 1  # its profile's: pyaz's board games, a registered one
    symmetries = options.symmetries or (DIHEDRAL if declared else None)
    if symmetries is None:
        return CheckResult("symmetries", "the game declares none", skipped=True)
    if not callable(getattr(start, "encode", None)) or not hasattr(start, "num_actions"):
        raise ConformanceError("symmetries", (), "symmetries need encode() and num_actions")
    positions = sample(make_state, options)
    ids, played = list(symmetries.ids(start)), []
    for k in ids:
        image = _action_image(start, symmetries, k)
        if _keeps(start, symmetries, k):
            played.append(k)
            for moves in positions:
                _check_commutes(make_state, symmetries, k, moves, image)
    detail = f"transforms {ids}; {played} keep the start and commute on {len(positions)} positions"
    return CheckResult("symmetries", detail)


def _legal_vector(state: Any) -> np.ndarray:
    """The legal actions of ``state`` as a boolean vector over its action space."""
    vector = np.zeros(state.num_actions, dtype=bool)
    vector[state.legal_actions()] = True
    return vector


def _action_image(start: Any, symmetries: Symmetries, k: int) -> np.ndarray:
    """``image[a]``: the action transform ``k`` takes action ``a`` to (ConformanceError if the
    transform is not a permutation of the actions or changes the planes' shape)."""
    source = np.asarray(symmetries.policy(np.arange(start.num_actions), k, start))
    if sorted(source.tolist()) != list(range(start.num_actions)):
        raise ConformanceError("symmetries", (), f"transform {k} does not permute the actions")
    planes = start.encode()
    if np.shape(symmetries.planes(planes, k)) != planes.shape:
        raise ConformanceError("symmetries", (), f"transform {k} changes the planes' shape")
    return np.argsort(source)


def _keeps(start: Any, symmetries: Symmetries, k: int) -> bool:
    """Whether transform ``k`` leaves the start's planes and legal actions as they are."""
    planes, legal = start.encode(), _legal_vector(start)
    return bool(
        np.array_equal(symmetries.planes(planes, k), planes)
        and np.array_equal(symmetries.policy(legal, k, start), legal)
    )


def _check_commutes(
    make_state: MakeState, symmetries: Symmetries, k: int, moves: Moves, image: np.ndarray
) -> None:
    """The game of the transformed ``moves`` has the transformed planes and legal actions."""
    state = replay(make_state, moves)
    mirrored = make_state()
    for ply, action in enumerate(moves):
        try:
            mirrored.apply(int(image[action]))
        except ValueError as error:
            detail = f"transform {k}: apply refused {int(image[action])}, the image of {action}"
            raise ConformanceError("symmetries", moves[: ply + 1], detail) from error
    planes = symmetries.planes(state.encode(), k)
    legal = symmetries.policy(_legal_vector(state), k, state)
    for what, expected, got in (
        ("planes", planes, mirrored.encode()),
        ("legal actions", legal, _legal_vector(mirrored)),
    ):
        if not np.array_equal(expected, got):
            detail = f"transform {k}: the transformed game's {what} are not the transformed ones"
            raise ConformanceError("symmetries", moves, detail)


def check_action_text(make_state: MakeState, options: Options) -> CheckResult:
    """``str_to_action(action_to_str(a)) == a`` for every legal action, the text non-empty (the
    text of a :class:`~pyaz.games.state.PlayableGameState`; skipped for a game without it)."""
    start = make_state()
    if not all(callable(getattr(start, m, None)) for m in ("action_to_str", "str_to_action")):
        return CheckResult("action_text", "the game has no action_to_str/str_to_action", True)
    positions = sample(make_state, options)
    for moves in positions:
        state = replay(make_state, moves)
        for action in state.legal_actions():
            text = state.action_to_str(action)
            try:
                back = state.str_to_action(text) if isinstance(text, str) and text else None
            except ValueError as error:
                back = f"ValueError: {error}"
            if back != action:
                detail = f"action {action} is written {text!r}, which reads back as {back!r}"
                raise ConformanceError("action_text", moves, detail)
    return CheckResult("action_text", f"{len(positions)} positions")


def check_playouts(make_state: MakeState, options: Options) -> CheckResult:
    """``options.playouts`` random games each end within the game's bound (:func:`max_plies`)."""
    rng = np.random.default_rng([options.seed, 1])
    limit = max_plies(make_state(), options)
    lengths = []
    for _ in range(options.playouts):
        moves = random_game(make_state, rng, limit)
        if len(moves) == limit and not replay(make_state, moves).is_terminal():
            raise ConformanceError("playouts", moves, f"the game did not end in {limit} plies")
        lengths.append(len(moves))
    longest = max(lengths, default=0)
    return CheckResult("playouts", f"{len(lengths)} random games, longest {longest} plies")


def check_perft(make_state: MakeState, options: Options) -> CheckResult:
    """The action sequences from the start equal the author's ``options.perft`` counts
    (:func:`pyaz.perft`: in C++ for pyaz's board games, by the state's methods for any other)."""
    if not options.perft:
        return CheckResult("perft", "no counts given", skipped=True)
    start = make_state()
    for depth, expected in sorted(options.perft.items()):
        got = perft(start, depth, options.count_finished)
        if got != expected:
            detail = f"perft({depth}) is {got}, the author's count is {expected}"
            raise ConformanceError("perft", None, detail)
    return CheckResult("perft", f"depths {sorted(options.perft)}")


CHECKS: dict[str, Check] = {
    "protocol": check_protocol,
    "clone": check_clone,
    "legal_actions": check_legal_actions,
    "terminal": check_terminal,
    "planes": check_planes,
    "symmetries": check_symmetries,
    "action_text": check_action_text,
    "playouts": check_playouts,
    "perft": check_perft,
}
"""Every check by name, in the order :func:`pyaz.testing.check_game` runs them."""
