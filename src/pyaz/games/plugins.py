"""Games from outside pyaz's C++ core, beside the built-in ones of :data:`pyaz.games.GAMES`;
:func:`pyaz.make` builds any of them by its name:

- a game registered in Python: ``pyaz.register_game("mygame", MyGame, summary=...)``;
- a game of an installed package, through the entry point group :data:`ENTRY_POINT_GROUP`
  (``[project.entry-points."pyaz.games"]`` ``mygame = "mypkg.games:MyGame"`` in its
  pyproject.toml makes ``pyaz.make("mygame")`` work; a ``pyaz_profile`` attribute of
  ``MyGame``, a :class:`~pyaz.games.profiles.GameProfile`, is its profile, as
  :func:`register_game`'s ``profile``);
- a module path, ``--game mypkg.games:MyGame`` on the command line (a :func:`code reference
  <is_code_reference>`: importing the module runs its code, so :func:`pyaz.make` imports one
  only once it is allowed: by the person typing it as ``--game``, or by a program calling
  :func:`allow_code_reference`; a name read from a file, a model or a request never is, see
  :func:`refuse_code_reference`);
- one of OpenSpiel's games, ``pyaz.make("openspiel:breakthrough(rows=6,columns=6)")``
  (:mod:`pyaz.games.openspiel`);
- the games pyaz ships written in Python (:data:`BUNDLED`: the tutorial's tic-tac-toe).

Each one's factory (a class or a function) takes the game's options as keyword arguments and
returns the start state, a :class:`~pyaz.games.state.BoardGameState` (check a new game with
:func:`pyaz.testing.check_game`).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import EntryPoint, entry_points
from typing import TYPE_CHECKING, Any

from pyaz.common.shown import cut
from pyaz.games.state import BoardGameState

if TYPE_CHECKING:  # the profiles import the registry, which imports this module
    from pyaz.games.profiles import GameProfile

__all__ = [
    "BUNDLED",
    "ENTRY_POINT_GROUP",
    "OPENSPIEL_PREFIX",
    "PluginGame",
    "allow_code_reference",
    "find_plugin",
    "is_code_reference",
    "make_plugin",
    "plugin_name",
    "plugin_names",
    "refuse_code_reference",
    "register_game",
    "registered_profile",
]

ENTRY_POINT_GROUP = "pyaz.games"
"""The entry point group through which an installed package offers its games."""

OPENSPIEL_PREFIX = "openspiel:"
"""The prefix of an OpenSpiel game's name: ``openspiel:NAME`` or ``openspiel:NAME(k=v,...)``."""

BUNDLED: dict[str, tuple[str, str]] = {
    "tictactoe": (
        "pyaz.games.examples.tictactoe:TicTacToe",
        "tic-tac-toe written in Python, the tutorial's game (docs/tutorial-python-game.md)",
    ),
}
"""The games written in Python that pyaz ships: name -> (module path of the factory, summary);
imported when first made (pyaz's own code)."""

_IDENTIFIERS = r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*"
_CODE_REFERENCE = re.compile(rf"({_IDENTIFIERS}):({_IDENTIFIERS})")


@dataclass(frozen=True)
class PluginGame:
    """A game from outside the C++ core: its name, the factory that builds its start state
    from keyword options, what it is, where it came from ("registered", "entry point
    mypkg.games:MyGame", "bundled", "module path"), and the profile it was registered with
    (None: the neutral one, :data:`pyaz.games.profiles.DEFAULT_PROFILE`)."""

    name: str
    factory: Callable[..., Any]
    summary: str = ""
    source: str = "registered"
    profile: GameProfile | None = None


_REGISTERED: dict[str, PluginGame] = {}
_DECLARED: dict[str, GameProfile] = {}  # the profiles of entry point and module path games loaded
_STATE_NAMES: dict[str, GameProfile] = {}  # plug-in games' profiles by their states' own names
_ALLOWED_CODE: set[str] = set()  # the module paths this process may import (allow_code_reference)


def _key(name: str) -> str:
    """``name`` as the registry looks names up: stripped, lower case, spaces as underscores."""
    return name.strip().lower().replace(" ", "_")


def is_code_reference(name: Any) -> bool:
    """Whether ``name`` names a game by a module path (``"mypkg.games:MyGame"``), which
    :func:`pyaz.make` imports (running the module's code). A loader of saved settings (a run
    folder's config.json, a preset file, a model file) must refuse such a name unless the
    person gives it again (:func:`refuse_code_reference`). ``openspiel:...`` is no code
    reference; neither is a registered, bundled or entry point game's name. Imports nothing."""
    if not isinstance(name, str) or _key(name).startswith(OPENSPIEL_PREFIX):
        return False
    return ":" in name


def refuse_code_reference(name: Any, where: str, allow: str = "") -> None:
    """ValueError naming ``name`` and ``where`` (the file or setting it was read from) when it
    is a :func:`code reference <is_code_reference>`: what a file holds never imports a module.
    ``allow`` says how the person may allow it (default: name the game on the command line or
    register it). Imports nothing."""
    if is_code_reference(name):
        shown = cut(str(name), 120, quote=True)
        allow = allow or (
            "name it on the command line, or register it (pyaz.register_game, or an entry "
            f"point of the group {ENTRY_POINT_GROUP!r})"
        )
        raise ValueError(
            f"{where}: game {shown} is a module path, and a saved setting never imports a "
            f"module (that would run its code): {allow}"
        )


def allow_code_reference(name: str) -> None:
    """Lets :func:`pyaz.make` import the module path ``name`` (``"mypkg.games:MyGame"``) in this
    process: what a person typed as ``--game`` (the commands call this when they parse it), or
    what a program chose. Never call it with a name read from a file, a model or a request:
    importing a module runs its code. ValueError if ``name`` is no module path."""
    if not is_code_reference(name) or _CODE_REFERENCE.fullmatch(name.strip()) is None:
        raise ValueError(f"{cut(repr(name), 80)} is no module path: expected 'package.module:Name'")
    _ALLOWED_CODE.add(name.strip())


def register_game(
    name: str,
    factory: Callable[..., Any],
    *,
    summary: str = "",
    replace: bool = False,
    profile: GameProfile | None = None,
) -> None:
    """Makes ``pyaz.make(name, **options)`` return ``factory(**options)``, the start state of
    a game following :class:`~pyaz.games.state.BoardGameState`, and
    :func:`pyaz.games.profiles.profile` return ``profile`` (what pyaz knows of the game beyond
    its rules; None: the neutral profile). ``name`` is looked up as the built-in names are
    (case-insensitive); ValueError if it is empty, has a ':' (module paths and ``openspiel:``
    use it), is a built-in or bundled game's name or alias, or is registered already (unless
    ``replace``); TypeError if ``factory`` is not callable."""
    if not isinstance(name, str):
        raise TypeError(f"a game name must be a str, got {cut(repr(name), 80)}")
    key = _key(name)
    if not key or ":" in key:
        raise ValueError(f"a game name must be non-empty and have no ':', got {name!r}")
    if key in BUNDLED or _is_builtin(key):
        raise ValueError(f"{name!r} is a game of pyaz's own; register it under another name")
    if key in _REGISTERED and not replace:
        raise ValueError(f"a game {key!r} is registered already (pass replace=True)")
    if not callable(factory):
        raise TypeError(f"the factory of {name!r} must be callable, got {cut(repr(factory), 80)}")
    _REGISTERED[key] = PluginGame(key, factory, summary, profile=_checked_profile(profile, key))


def registered_profile(name: str) -> GameProfile | None:
    """The profile the game of the registry name ``name`` was registered with
    (:func:`register_game`), or that its factory declares as ``pyaz_profile`` (an entry point
    or module path game, once :func:`pyaz.make` has loaded it), or None (no profile given, or
    no such game). ``name`` may also be the name that such a game's states carry, once one has
    been made (a module path game's states have a name of their own). Imports nothing."""
    game = _REGISTERED.get(name)
    if game is not None:
        return game.profile
    return _DECLARED.get(name) or _STATE_NAMES.get(_key(name))


def _checked_profile(profile: Any, name: str) -> GameProfile | None:
    """``profile`` if it is None or a GameProfile; TypeError naming the game otherwise."""
    from pyaz.games.profiles import GameProfile  # the profiles import this module

    if profile is not None and not isinstance(profile, GameProfile):
        raise TypeError(
            f"the profile of game {name!r} must be a pyaz.games.profiles.GameProfile, got "
            f"{cut(repr(profile), 80)}"
        )
    return profile


def _loaded(name: str, factory: Callable[..., Any], source: str) -> PluginGame:
    """An entry point or module path game, with the profile its factory declares as its
    ``pyaz_profile`` attribute (a GameProfile; TypeError for anything else)."""
    profile = _checked_profile(getattr(factory, "pyaz_profile", None), name)
    if profile is not None:
        _DECLARED[name] = profile
    return PluginGame(name, factory, "", source, profile=profile)


def _is_builtin(key: str) -> bool:
    """Whether ``key`` is the name or an alias of a game of :data:`pyaz.games.GAMES`."""
    # the registry imports this module: its table is looked up when a game is registered
    from pyaz.games.registry import GAMES, canonical_name

    try:
        return canonical_name(key) in GAMES
    except ValueError:
        return False


def plugin_names() -> list[str]:
    """The names of the games registered, bundled and offered by installed packages' entry
    points, sorted; loads no entry point."""
    offered = {_key(point.name) for point in entry_points(group=ENTRY_POINT_GROUP)}
    return sorted({*_REGISTERED, *BUNDLED, *offered})


def plugin_name(name: str) -> str | None:
    """The registry name of the plug-in game ``name``: a registered, bundled or entry point
    game's name (lower case), an OpenSpiel game (``openspiel:`` then its text, spaces
    removed), a module path as written; None if it is none of these. Imports nothing: a module
    path and an OpenSpiel game are checked when made."""
    if is_code_reference(name):
        if _CODE_REFERENCE.fullmatch(name.strip()) is None:
            raise ValueError(f"{name!r} is no module path: expected 'package.module:Name'")
        return name.strip()
    key = _key(name)
    if key.startswith(OPENSPIEL_PREFIX):
        return OPENSPIEL_PREFIX + "".join(name.strip()[len(OPENSPIEL_PREFIX) :].split())
    if key in _REGISTERED or key in BUNDLED or _entry_point(key) is not None:
        return key
    return None


def _entry_point(key: str) -> EntryPoint | None:
    """The installed entry point of :data:`ENTRY_POINT_GROUP` named ``key`` (its name
    compared as the registry compares names); None if there is none."""
    for point in entry_points(group=ENTRY_POINT_GROUP):
        if _key(point.name) == key:
            return point
    return None


def find_plugin(name: str) -> PluginGame:
    """The plug-in game of the registry name ``name`` (:func:`plugin_name`'s), its factory
    loaded: importing a module path, an entry point's module or a bundled game; ValueError
    naming ``name`` if the module does not import or has no such attribute, or the game is not
    known."""
    if name in _REGISTERED:
        return _REGISTERED[name]
    if name.startswith(OPENSPIEL_PREFIX):
        from pyaz.games.openspiel import openspiel_factory  # pyspiel is optional

        return PluginGame(name, openspiel_factory(name[len(OPENSPIEL_PREFIX) :]), "", "openspiel")
    if name in BUNDLED:
        path, summary = BUNDLED[name]
        return PluginGame(name, _load(path, name), summary, "bundled")
    if is_code_reference(name):
        if name not in _ALLOWED_CODE:
            raise ValueError(
                f"game {cut(repr(name), 120)} is a module path, which pyaz imports (running its "
                "code) only when a person names it as --game on the command line or a program "
                "allows it (pyaz.games.allow_code_reference); register the game instead "
                f"(pyaz.register_game, or an entry point of the group {ENTRY_POINT_GROUP!r})"
            )
        return _loaded(name, _load(name, name), "module path")
    point = _entry_point(name)
    if point is None:
        raise ValueError(f"unknown game {name!r}")
    return _loaded(name, _load(point.value, name), f"entry point {point.value}")


def _load(path: str, name: str) -> Callable[..., Any]:
    """The callable at ``path`` ('package.module:Attr.attr'); ValueError naming the game
    ``name`` and ``path`` if the module does not import or the attribute is missing or not
    callable."""
    match = _CODE_REFERENCE.fullmatch(path.strip())
    if match is None:
        raise ValueError(f"game {name!r}: {path!r} is no module path ('package.module:Name')")
    module_name, attributes = match.groups()
    try:
        found: Any = importlib.import_module(module_name)
    except Exception as error:  # an ImportError, or whatever the module's own code raised
        detail = cut(f"{type(error).__name__}: {error}", 200)
        raise ValueError(
            f"game {name!r}: module {module_name!r} does not import ({detail})"
        ) from error
    for attribute in attributes.split("."):
        if not hasattr(found, attribute):
            raise ValueError(f"game {name!r}: {path!r} has no {attribute!r}")
        found = getattr(found, attribute)
    if not callable(found):
        raise ValueError(f"game {name!r}: {path!r} is not a class or function")
    return found


def make_plugin(name: str, **options: Any) -> BoardGameState:
    """The start state of the plug-in game of the registry name ``name`` with ``options``:
    its factory's result. ValueError naming the game when that is not a game
    (:class:`~pyaz.games.state.BoardGameState`); a TypeError of the factory (an option it does
    not take) is raised naming the game."""
    game = find_plugin(name)
    try:
        state = game.factory(**options)
    except TypeError as error:
        raise TypeError(f"game {name!r}: {error}") from error
    if not isinstance(state, BoardGameState):
        raise ValueError(
            f"game {name!r} is not a game: its factory gave a {type(state).__name__}, which "
            "lacks what pyaz.games.state.BoardGameState asks for (name, ply, to_move, "
            "is_terminal, status, is_legal, apply, clone, legal_actions); check it with "
            "pyaz.testing.check_game"
        )
    _check_state_name(name, str(state.name), game.profile)
    return state


def _check_state_name(game: str, state_name: str, profile: GameProfile | None) -> None:
    """How pyaz finds a position's game, by the name its states carry: ValueError when the
    states of the plug-in game ``game`` carry the name of a built-in game, which pyaz would
    take them for (its profile: its solver, engines and rules of play); a game with a profile
    whose states carry a name of their own (a module path game's) has it kept under that name
    too, and two such games may not give one name two profiles."""
    key = _key(state_name)
    if key == game or game.startswith(OPENSPIEL_PREFIX):
        return
    if _is_builtin(key):
        raise ValueError(
            f"game {cut(repr(game), 120)} names its states {state_name!r}, the name of a game of "
            "pyaz's own, which pyaz would take them for; give its states another name"
        )
    if profile is None or key in _REGISTERED or key in BUNDLED:
        return
    known = _STATE_NAMES.setdefault(key, profile)
    if known != profile:
        raise ValueError(
            f"game {cut(repr(game), 120)} names its states {state_name!r}, as another game with "
            "another profile does; give its states another name"
        )
