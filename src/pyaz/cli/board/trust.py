"""What ``pyaz-board`` lets a request do: the Host allowlist, the per-launch secret and the
Origin of state-changing requests, and the player specs the page may ask for.

The board trusts the person who started it (the command line) and its own page opened from the
address it printed; it does not trust any other web page, nor the Host or Origin a request
claims. A spec from the page is checked here before any player is built: engines that start a
process are refused unless the command was given ``--allow-engines``, the network paths of
``model:`` and the method presets must lie in the ``--run`` folder or a ``--models`` folder
(symbolic links resolved), and simulation counts and times have a ceiling.
"""

from __future__ import annotations

import contextlib
import hmac
import ipaddress
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from pyaz.common.shown import cut
from pyaz.eval import presets

TOKEN_HEADER = "X-Pyaz-Token"
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "[::1]"})
WILDCARD_HOSTS = frozenset({"", "0.0.0.0", "::", "[::]"})

MAX_SIMULATIONS = 200_000  # a page-given simulation (or node) count
MAX_MOVE_MS = 10_000  # a page-given time per move (mentor, guard)
MAX_SPEC_CHARS = 1_000
SHOWN_CHARS = 200  # characters of a spec, path or header quoted in a message


class ForbiddenError(Exception):
    """A request the board refuses to serve (answered with 403 and the message)."""


def host_name(host: str) -> str:
    """``host`` of a Host header without its port, lower case (``[::1]:8000`` -> ``[::1]``)."""
    host = host.strip().lower()
    if host.startswith("["):
        return host.partition("]")[0] + "]"
    return host.rpartition(":")[0] if host.count(":") == 1 else host


def _is_ip_literal(name: str) -> bool:
    try:
        ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return False
    return True


def check_host(host: str, listen: str | None) -> None:
    """ForbiddenError unless the Host header ``host`` names this machine's loopback, the address
    the board listens on (``listen``, ``--host``), or, when that is a wildcard (0.0.0.0, ::),
    any IP address: a name other than those is a DNS rebinding."""
    name = host_name(host)
    allowed = set(LOOPBACK_HOSTS)
    if listen is not None:
        allowed.add(host_name(f"[{listen}]" if ":" in listen and "[" not in listen else listen))
    wildcard = listen is not None and listen.strip().lower() in WILDCARD_HOSTS
    if name not in allowed and not (wildcard and _is_ip_literal(name)):
        raise ForbiddenError(
            f"Host {quoted(host)} is not this board's address (127.0.0.1, localhost, [::1] "
            "or --host)"
        )


def check_token(given: str | None, token: str) -> None:
    """ForbiddenError unless ``given`` (the request's :data:`TOKEN_HEADER`) is the secret."""
    if not given:
        raise ForbiddenError(
            f"no {TOKEN_HEADER}: open the address pyaz-board printed (it ends with ?token=...)"
        )
    if not hmac.compare_digest(given.encode("utf-8", "replace"), token.encode()):
        raise ForbiddenError(
            f"wrong {TOKEN_HEADER}: open the address this pyaz-board printed (a restarted "
            "board has a new token)"
        )


def check_origin(origin: str | None, own: str) -> None:
    """ForbiddenError unless the request's Origin is ``own`` (``scheme://host[:port]``)."""
    if origin is None:
        raise ForbiddenError("a request that changes the board must carry an Origin header")
    if origin.strip().lower().rstrip("/") != own.lower():
        raise ForbiddenError(f"Origin {quoted(origin)} is not this board's page ({own})")


def quoted(text: str) -> str:
    """``text`` quoted for a message, cut to :data:`SHOWN_CHARS` characters (then its length)."""
    shown = cut(text, SHOWN_CHARS, quote=True)
    return shown if len(text) <= SHOWN_CHARS else f"{shown} ({len(text)} characters)"


def _at_most(spec: str, what: str, field: str, ceiling: int) -> None:
    """ValueError when ``field`` is a number above ``ceiling`` (other text is the presets')."""
    text = field.strip()
    if not re.fullmatch(r"[+-]?[0-9]+(\.[0-9]*)?", text):
        return
    if len(text.lstrip("+-").lstrip("0")) > 15 or float(text) > ceiling:
        raise ValueError(
            f"{quoted(spec)}: {what} must be at most {ceiling:,} in the board, got {quoted(text)}"
        )


@dataclass(frozen=True)
class SpecPolicy:
    """The specs the page may ask for: engines only with ``allow_engines``, network paths in
    ``roots`` (resolved folders) only."""

    allow_engines: bool = False
    roots: tuple[Path, ...] = ()

    @classmethod
    def of(cls, allow_engines: bool, folders: Iterable[str | None]) -> SpecPolicy:
        """The policy of a launch: ``folders`` are ``--run`` and the ``--models`` folders."""
        roots = tuple(Path(folder).resolve() for folder in folders if folder)
        return cls(allow_engines, roots)

    def is_engine(self, spec: str) -> bool:
        """Whether ``spec`` (or the spec a ``guard`` wraps) starts a process
        (:func:`~pyaz.eval.presets.starts_process`)."""
        return presets.starts_process(spec)

    def check(self, spec: object, outer: str | None = None) -> None:
        """ForbiddenError for an engine without ``allow_engines`` or a network outside the
        roots; ValueError for a count or time above the board's ceilings; the messages name
        ``outer`` (the guard around ``spec``) or ``spec``. Nothing is built."""
        if not isinstance(spec, str):
            return  # make_player's TypeError names it
        if len(spec) > MAX_SPEC_CHARS:
            raise ValueError(f"a player spec has at most {MAX_SPEC_CHARS} characters")
        kind, rest = presets.split_spec(spec)
        name = outer or spec
        if kind == "guard":
            self._check_guard(spec, rest)
        elif presets.starts_process(spec):
            if not self.allow_engines:
                raise ForbiddenError(
                    f"{quoted(name)} starts an engine process ({kind}); the board runs "
                    "engines only when started with --allow-engines"
                )
        elif kind in ("uct", "kr"):
            _at_most(name, "the number of simulations", rest, MAX_SIMULATIONS)
        elif kind == "mentor":
            _at_most(name, "the time per move (ms)", rest, MAX_MOVE_MS)
        elif (network := presets.network_fields(spec)) is not None:
            path, count = network
            if count is not None:
                _at_most(name, "the number of simulations", count, MAX_SIMULATIONS)
            self._check_path(name, path)

    def _check_guard(self, spec: str, rest: str) -> None:
        inner = presets.guarded_spec(spec)
        numbers = rest[: len(rest) - len(inner)].split(":") if rest.endswith(inner) else []
        ceilings = (("the time per move (ms)", MAX_MOVE_MS), ("the node budget", MAX_SIMULATIONS))
        for field, (what, ceiling) in zip(numbers, ceilings, strict=False):
            _at_most(spec, what, field, ceiling)
        if presets.spec_kind(inner) != "guard":  # the presets refuse a guard of a guard
            self.check(inner, spec)

    def _check_path(self, spec: str, text: str) -> None:
        """ForbiddenError unless the PATH ``text`` (as the presets read it), and the file it
        leads to, lie in a root."""
        from pyaz.nets import model_path
        from pyaz.nets.shipped import BUILTIN_PREFIX, SHIPPED

        if text.startswith(BUILTIN_PREFIX) and text[len(BUILTIN_PREFIX) :] in SHIPPED:
            return  # a network installed with pyaz
        candidates = [Path(text)]
        with contextlib.suppress(OSError, ValueError):  # the loader's message comes later
            candidates.append(model_path(text))
        for path in candidates:
            resolved = path.resolve()
            if not any(resolved.is_relative_to(root) for root in self.roots):
                raise ForbiddenError(self._outside(spec, text))

    def _outside(self, spec: str, path: str) -> str:
        folders = ", ".join(str(root) for root in self.roots) or "none given"
        return (
            f"{quoted(spec)}: {quoted(path)} is outside the folders the board loads networks from "
            f"({folders}); give its folder at launch with --models DIR (or --run DIR)"
        )
