"""Named players: ``make_player(spec, start_state)`` builds any :class:`~pyaz.eval.players.Player`.

The presets (``spec``), each checked against the game of ``start_state``, are listed in
:data:`PRESETS_HELP`, the text the commands print. Beyond it: ``uctN`` is ``uct:N`` (seed 000's
Reversi reference is ``uct200``); the mentor is a VCF/VCT threat search with alpha-beta; ``guard``
is a :class:`~pyaz.eval.threat_guard.ThreatGuardPlayer` (a hybrid, not in seed 004); a run
folder's ``model:`` network searches with the run's ``c_puct``/``draw_value``, and its OPTIONS
are :data:`MODEL_OPTIONS` (``rule=gumbel,solver=on`` is the search of a Gomoku run's self-play
by default); a model file of another kind plays as its method's preset (see
:data:`MODEL_KIND_PRESETS`, :data:`METHOD_PRESETS`); ``gnugo`` takes the board size, komi,
superko and suicide rules from the start state; ``gtp-rhino``'s RAND is GRhino's evaluator
randomness 0..10 (default 0); ``lichess:2`` is ``fairy-stockfish:-5:5:100``; a ``uci:`` engine
plays with ``UCI_Variant racingkings``.

Each kind has one builder in :data:`BUILDERS`; the engines themselves are in
:mod:`pyaz.eval.external`.
"""

from __future__ import annotations

import importlib
import os
import re
from collections.abc import Callable, Sequence
from typing import Any

from pyaz.engines.text_streams import shown
from pyaz.eval import external
from pyaz.eval.oracle import PerfectPlayer
from pyaz.eval.players import (
    GreedyPlayer,
    MentorPlayer,
    OpenSpielMctsPlayer,
    Player,
    RandomPlayer,
    check_mentor_game,
    network_player,
    uct_player,
)
from pyaz.eval.threat_guard import DEFAULT_GUARD_MS, DEFAULT_TREE_NODES, ThreatGuardPlayer
from pyaz.games import GameState
from pyaz.games.profiles import games_where
from pyaz.nets.shipped import MODEL_SIMULATIONS

__all__ = [
    "BUILDERS",
    "DEFAULT_MODEL_SIMULATIONS",
    "METHOD_PRESETS",
    "MODEL_KIND_PRESETS",
    "MODEL_OPTIONS",
    "NETWORK_KINDS",
    "PRESETS_HELP",
    "PresetSpec",
    "guarded_spec",
    "is_external",
    "make_player",
    "network_fields",
    "spec_kind",
    "split_spec",
    "starts_process",
    "with_simulations",
]

PRESETS_HELP = f"""\
player presets (SPEC):
  random                      uniformly random legal moves (any game; curling: grid targets)
  greedy                      one ply: othello, the most own discs; other games, win now, else
                              stop the opponent's immediate win, else random
  perfect                     exact play by the solver (connect_four up to 7x6): a best
                              move, random among equals
  uct200, uct:N               UCT with N random-rollout simulations a move (any board game;
                              seed 000's Reversi reference is uct200)
  openspiel-mcts[:N]          OpenSpiel's own MCTS (pyspiel.MCTSBot, C++): UCT c=2, one random
                              rollout a leaf, N simulations a move (default 200; openspiel:NAME)
  mentor[:MS]                 seed 004's rule-based Gomoku mentor, MS ms a move (default 1000;
                              gomoku, boards 9x9..15x15, five in a row)
  guard[:MS[:NODES]]:SPEC     SPEC's player behind the mentor's threat analysis, MS ms a move
                              at the root (100) and NODES nodes at each leaf of a network's
                              search (3000; 0: root only): plays a forced win, answers a forced
                              loss (gomoku; a hybrid, not in seed 004), e.g.
                              guard:model:runs/g9:800
  alphagomoku:PATH[:SIMS]     seed 004's double networks (a pair.pt or its run folder) + PUCT
                              with SIMS simulations (default 200; gomoku)
  model:PATH[:SIMS][:OPTIONS]
                              a pyaz network + PUCT search with SIMS simulations
                              (default {MODEL_SIMULATIONS});
                              PATH: a checkpoint (runs/x/nets/iter-00010.pt), a run folder
                              (its best network) or a TorchScript file; OPTIONS, comma-
                              separated: rule=puct|gumbel, solver=on|off (the MCTS-solver),
                              e.g. model:runs/g9:800:rule=gumbel,solver=on; an AlphaGomoku pair
                              or a ZetaGo network plays as alphagomoku:PATH / zetago-mcts:PATH,
                              a curling network as kr-dl:PATH
  rule                        the rule-based curling player (curling)
  kr[:SIMS]                   KR-UCT, house-score leaves, SIMS simulations a shot (64; curling)
  kr-dl:PATH[:SIMS]           seed 002's KR-DL-UCT with a curling network (curling)
  gnugo[:LEVEL]               GNU Go over GTP (go), level 0..10 (default 10)
  pachi[:PLAYOUTS]            Pachi over GTP (go), playouts a move (default 1000); needs the
                              Pachi Go engine on PATH (Debian's 'pachi' is another program)
  gtp-rhino[:LEVEL[:RAND]]    GRhino over GTP (othello 8x8), level 1..5 (default 3; level 5's
                              end-game search may take minutes a move: 20 are allowed)
  fairy-stockfish[:SKILL[:DEPTH[:MOVETIME]]]
                              Fairy-Stockfish over UCI (racingkings), Skill Level -20..20
                              (default 20), go depth DEPTH (5) movetime MOVETIME ms (100)
  lichess:N                   lichess's 'Stockfish level N' (1..8) with Fairy-Stockfish
                              (racingkings); seed 000's 'Stockfish level 2' is lichess:2
  gtp:COMMAND ARGS...         any GTP engine (go or othello), e.g. 'gtp:gnugo --mode gtp'
  uci:COMMAND ARGS...         any UCI engine that plays racingkings (go movetime 100)
  zetago:PATH                 seed 003's policy network (go), its most probable legal move
  zetago-mcts:PATH[:SIMS]     seed 003's tree search with that policy, SIMS simulations (200)
A PATH with ':' in it: a path that exists as a whole is taken whole, without SIMS or OPTIONS
(model:runs/a:b, model:runs/a:100 when the folder runs/a:100 exists); otherwise a last field
of digits is SIMS and one holding '=' is OPTIONS (model:runs/a:b:200).
Engines are looked up on PATH and in /usr/games (Debian: apt-get install gnugo grhino
fairy-stockfish)."""

DEFAULT_MODEL_SIMULATIONS = MODEL_SIMULATIONS

_EXTERNAL = ("gnugo", "pachi", "gtp-rhino", "fairy-stockfish", "lichess", "gtp", "uci")

NETWORK_KINDS = frozenset({"model", "alphagomoku", "zetago", "zetago-mcts", "kr-dl"})
"""The kinds whose first field is a network's PATH (see :func:`network_fields`)."""
_PATH_ONLY_KINDS = frozenset({"zetago"})  # KIND:PATH, the whole rest (no SIMS field)

_STARTS_NO_PROCESS = NETWORK_KINDS | {
    "random", "greedy", "perfect", "uct", "mentor", "guard", "rule", "kr"
}  # fmt: skip
"""The preset kinds known to start no process: every other known kind counts as one that
does (:func:`starts_process`), so that a kind added without a word here is taken for an engine."""


class _Spec:
    """A parsed spec: ``kind:rest`` with helpers for its integer fields and checks."""

    def __init__(self, text: str, state: GameState, seed: int, runtime: str | None) -> None:
        self.text = text.strip()
        self.kind, self.rest = split_spec(self.text)
        self.options = ""  # model:PATH[:SIMS][:OPTIONS]: OPTIONS, parsed by _model_options
        if self.kind == "model":
            self.rest, self.options = _options_field(self.rest)
        self.network = network_fields(self.text)  # (PATH, SIMS) of a network preset
        # a GameState; Any: each builder passes it on as what its player takes (a network game,
        # Go, curling), its game checked by name first (need(), check_mentor_game, ...)
        self.state: Any = state
        self.seed = seed
        self.runtime = runtime

    @property
    def label(self) -> str:
        """The spec as error messages name it: quoted, cut to 40 characters."""
        return shown(self.text)

    def ints(
        self, defaults: Sequence[int], names: Sequence[str], parts: Sequence[str] | None = None
    ) -> list[int]:
        """The ``:``-separated integer fields (or ``parts``), ``defaults`` for the missing ones."""
        if parts is None:
            parts = self.rest.split(":") if self.rest else []
        if len(parts) > len(defaults):
            raise ValueError(f"{self.label}: too many fields (expected {':'.join(names)})")
        values = list(defaults)
        for index, part in enumerate(parts):
            values[index] = self.integer(part, names[index])
        return values

    def integer(self, text: str, name: str) -> int:
        """The integer field ``text`` (ASCII digits, an optional sign, spaces around) named
        ``name``; ValueError naming the spec otherwise, or past :data:`MAX_DIGITS` digits
        (Python's ``int`` also takes ``1_000``, other scripts' digits and no more than 4300)."""
        digits = text.strip()
        if not _INTEGER.fullmatch(digits):
            raise ValueError(f"{self.label}: {name} must be an integer, got {shown(text)}")
        if len(digits.lstrip("+-").lstrip("0")) > MAX_DIGITS:
            raise ValueError(
                f"{self.label}: {name} must have at most {MAX_DIGITS} digits, got "
                f"{len(digits.lstrip('+-'))}"
            )
        return int(digits)

    def path_and_simulations(self, default: int, what: str = "network") -> tuple[str, int]:
        """``PATH[:SIMULATIONS]`` of a network preset (a kind of :data:`NETWORK_KINDS`, read by
        :func:`network_fields`; SIMULATIONS ``default`` when absent): ValueError without a PATH
        or with SIMULATIONS outside 1..10**9."""
        path, count = self.network or ("", None)
        if not path:
            raise ValueError(f"{self.label}: say which {what}, {self.kind}:PATH[:SIMULATIONS]")
        simulations = default if count is None else self.integer(count, "SIMULATIONS")
        self.check_range("the number of simulations", simulations, 1, 10**9)
        return path, simulations

    def check_range(self, what: str, value: int, low: int, high: int) -> None:
        if not low <= value <= high:
            raise ValueError(f"{self.label}: {what} must be in {low}..{high}, got {value}")

    def need(self, *games: str) -> None:
        """ValueError unless the start state's game is one of ``games``, or, with none given,
        one whose profile lists this preset's kind among its opponents
        (:attr:`~pyaz.games.profiles.GameProfile.opponents`)."""
        if not games:
            games = tuple(games_where(lambda game: self.kind in game.opponents))
        if str(self.state.name) not in games:
            raise ValueError(
                f"{self.label} plays {' or '.join(games)}, not {self.state.name} (pick a "
                "preset that fits the game; 'random' and 'model:PATH' play every game, 'uct:N' "
                "every board game)"
            )


MAX_DIGITS = 18
"""The most digits of an integer field (every range of a preset is far below 10**18)."""
_INTEGER = re.compile(r"[+-]?[0-9]+")


def _is_path(text: str) -> bool:
    """Whether ``text`` names a file or folder that exists (False for a name the system
    cannot take: too long, a NUL byte)."""
    return os.path.exists(text)


def split_spec(spec: str) -> tuple[str, str]:
    """``(kind, rest)`` of a spec as the builders read it: the kind in lower case, the text
    after its first ``:`` stripped (``uct200`` -> ``("uct", "200")``)."""
    kind, _, rest = spec.strip().partition(":")
    kind = kind.strip().lower()
    match = re.fullmatch(r"uct(\d+)", kind)
    if match:
        return "uct", match.group(1)
    return kind, rest.strip()


def spec_kind(spec: str) -> str:
    """The preset's kind: ``"random"``, ``"uct"``, ``"model"``, ``"gnugo"``, ... (lower case)."""
    return split_spec(spec)[0]


def is_external(spec: str) -> bool:
    """Whether ``spec`` names an external engine (a subprocess worth keeping across games)."""
    return spec_kind(spec) in _EXTERNAL


def starts_process(spec: str) -> bool:
    """Whether building ``spec``'s player starts a process: a known kind (:data:`BUILDERS`,
    :data:`METHOD_PRESETS`) not known to start none (an external engine, :func:`is_external`,
    and any kind added without saying), also behind ``guard:`` (at any depth); False for an
    unknown kind (:func:`make_player` refuses it). Starts nothing."""
    while spec_kind(spec) == "guard":
        spec = guarded_spec(spec)  # shorter each time
    kind = spec_kind(spec)
    known = kind in BUILDERS or kind in METHOD_PRESETS
    return known and kind not in _STARTS_NO_PROCESS


def network_fields(spec: str) -> tuple[str, str | None] | None:
    """The network PATH and the SIMS text (None when absent) of a spec of
    :data:`NETWORK_KINDS`, as its builder reads them (None for the other kinds): OPTIONS of
    ``model:`` left out, a last field of digits taken as SIMS unless the whole is an existing
    path (see :data:`PRESETS_HELP`; ``zetago:PATH`` takes its whole rest). Reads nothing but
    whether a path exists."""
    kind, rest = split_spec(spec)
    if kind not in NETWORK_KINDS:
        return None
    if kind == "model":
        rest = _options_field(rest)[0]
    return (rest, None) if kind in _PATH_ONLY_KINDS else _path_and_count(rest)


def _no_argument(player: Callable[..., Player]) -> Callable[[_Spec], Player]:
    """The builder of a preset without arguments (``random``, ``greedy``)."""

    def build(spec: _Spec) -> Player:
        if spec.rest:
            raise ValueError(f"{spec.label}: {spec.kind!r} takes no argument")
        return player(seed=spec.seed, name=spec.text)

    return build


def _perfect(spec: _Spec) -> Player:
    player = _no_argument(PerfectPlayer)(spec)
    spec.need()
    player.reset(spec.state)  # ValueError for a board the solver does not take
    return player


def _uct(spec: _Spec) -> Player:
    (simulations,) = spec.ints([200], ["SIMULATIONS"])
    spec.check_range("the number of simulations", simulations, 1, 10**9)
    return uct_player(simulations, name=spec.text, seed=spec.seed)


def _openspiel_mcts(spec: _Spec) -> Player:
    (simulations,) = spec.ints([200], ["SIMULATIONS"])
    spec.check_range("the number of simulations", simulations, 1, 10**7)
    player = OpenSpielMctsPlayer(simulations, seed=spec.seed, name=spec.text)
    player.reset(spec.state)  # ValueError for a game that is not OpenSpiel's
    return player


DEFAULT_MENTOR_MS = 1000


def _mentor(spec: _Spec) -> Player:
    spec.need()
    check_mentor_game(spec.state, repr(spec.text))
    (time_ms,) = spec.ints([DEFAULT_MENTOR_MS], ["MS"])
    spec.check_range("the time per move (ms)", time_ms, 1, 10**7)
    return MentorPlayer(time_ms, seed=spec.seed, name=spec.text)


_NUMBER = re.compile(r"[+-]?[0-9]+(\.[0-9]*)?")


def _guard_fields(rest: str) -> tuple[list[str], str]:
    """``guard``'s leading number fields (MS, NODES: at most two) and the guarded player's
    spec, from the text after ``guard:``."""
    numbers: list[str] = []
    while len(numbers) < 2:
        head, _, tail = rest.partition(":")
        if not _NUMBER.fullmatch(head.strip()):
            break
        numbers.append(head.strip())
        rest = tail
    return numbers, rest.strip()


def guarded_spec(spec: str) -> str:
    """The player spec inside ``guard[:MS[:NODES]]:`` (``spec`` itself if it is no guard)."""
    kind, rest = split_spec(spec)
    return _guard_fields(rest)[1] if kind == "guard" else spec


def _guard(spec: _Spec) -> Player:
    spec.need()
    check_mentor_game(spec.state, repr(spec.text))
    fields, inner = _guard_fields(spec.rest)
    time_ms, tree_nodes = spec.ints([DEFAULT_GUARD_MS, DEFAULT_TREE_NODES], ["MS", "NODES"], fields)
    spec.check_range("the time per move (ms)", time_ms, 1, 10**7)
    spec.check_range("the node budget of a leaf's analysis", tree_nodes, 0, 10**9)
    if not inner:
        raise ValueError(f"{spec.label}: say which player to guard, guard[:MS[:NODES]]:SPEC")
    if spec_kind(inner) == "guard":
        raise ValueError(f"{spec.label}: a guard of a guard analyses every position twice")
    player = make_player(inner, spec.state, spec.seed, spec.runtime)
    guard = ThreatGuardPlayer(player, time_ms, tree_nodes, name=spec.text)
    if len(fields) == 2 and tree_nodes > 0 and guard.tree is None:
        raise ValueError(
            f"{spec.label}: NODES is the leaf analysis of a network's search; {inner!r} has "
            "none (give MS alone, or NODES 0)"
        )
    return guard


MODEL_OPTIONS: dict[str, tuple[str, ...]] = {"rule": ("puct", "gumbel"), "solver": ("on", "off")}
"""The search options of ``model:PATH[:SIMS][:OPTIONS]`` and the values each takes: the rule
(PUCT, or Gumbel at the root: Danihelka et al. 2022, deterministic in a match) and the
MCTS-solver (Winands et al. 2008); see :class:`pyaz.Search`."""


def _options_field(rest: str) -> tuple[str, str]:
    """``PATH[:SIMS][:OPTIONS]`` -> (``PATH[:SIMS]``, ``OPTIONS``): a last field holding
    ``=`` is OPTIONS (``""`` when there is none, or when ``rest`` is an existing path)."""
    head, colon, tail = rest.rpartition(":")
    has_options = colon and "=" in tail and not _is_path(rest)
    return (head, tail.strip()) if has_options else (rest, "")


def _path_and_count(rest: str) -> tuple[str, str | None]:
    """``PATH[:COUNT]`` -> (PATH, COUNT's text): COUNT None when the last field is not digits
    (``runs/a:b`` is a PATH) or ``rest`` is an existing path (taken whole); a last field of
    digits of any script, signed or not, is COUNT, for :meth:`_Spec.integer` to check."""
    head, _, tail = rest.rpartition(":")
    looks_like_count = tail.strip().lstrip("+-").isdigit()  # other scripts' digits included
    if not head or not looks_like_count or _is_path(rest):
        return rest, None
    return head, tail


def with_simulations(spec: str, simulations: int) -> str:
    """``model:PATH[:SIMS][:OPTIONS]`` with SIMS set to ``simulations``, OPTIONS kept."""
    rest, options = _options_field(split_spec(spec)[1])
    path = _path_and_count(rest)[0]
    return f"model:{path}:{simulations}" + (f":{options}" if options else "")


def _model_options(spec: _Spec) -> dict[str, Any]:
    """The search options of ``model:PATH[:SIMS][:OPTIONS]`` as :class:`pyaz.Search` options;
    ValueError naming an unknown key or value."""
    if not spec.options:
        return {}
    options: dict[str, Any] = {}
    for item in spec.options.split(","):
        key, _, value = (word.strip().lower() for word in item.partition("="))
        if key not in MODEL_OPTIONS:
            known = ", ".join(MODEL_OPTIONS)
            raise ValueError(f"{spec.label}: unknown search option {key!r} (known: {known})")
        if value not in MODEL_OPTIONS[key]:
            values = " or ".join(MODEL_OPTIONS[key])
            raise ValueError(f"{spec.label}: {key} must be {values}, got {value!r}")
        options[key] = value == "on" if key == "solver" else value
    return options


def _model(spec: _Spec) -> Player:
    options = _model_options(spec)
    path, simulations = spec.path_and_simulations(DEFAULT_MODEL_SIMULATIONS)
    from pyaz.nets import MODEL_KINDS, load_model, model_kind, model_path
    from pyaz.nets.shipped import BUILTIN_PREFIX, shipped_path

    if path.startswith(BUILTIN_PREFIX):  # a network that ships with pyaz
        path = str(shipped_path(path))

    kind, game = model_kind(path)
    if game is not None and game != str(spec.state.name):
        raise ValueError(f"{path} is a model for {game}, not for {spec.state.name}")
    if kind != "az":
        preset = MODEL_KIND_PRESETS.get(kind)
        if preset is None:
            raise ValueError(f"{path} is {MODEL_KINDS[kind]}, which no player preset plays yet")
        if options:
            raise ValueError(
                f"{spec.label}: search options are for a pyaz network; {path} is "
                f"{MODEL_KINDS[kind]}, which plays as {preset}:PATH[:SIMS]"
            )
        builder = _method_builder(preset)
        assert builder is not None
        rest = f"{model_path(path)}{spec.rest[len(path) :]}"  # the file, then :SIMS if given
        method = _Spec(f"{preset}:{rest}", spec.state, spec.seed, spec.runtime)
        method.text = spec.text  # the player keeps the name it was asked for
        return builder(method)
    model = load_model(path, "az", cached=True)
    model.check(spec.state)
    return network_player(
        model, simulations, name=spec.text, seed=spec.seed, runtime=spec.runtime, **options
    )


def _gnugo(spec: _Spec) -> Player:
    spec.need()
    (level,) = spec.ints([10], ["LEVEL"])
    spec.check_range("the GNU Go level", level, 0, 10)
    return external.gnugo_player(spec.text, spec.state, level, spec.seed)


def _pachi(spec: _Spec) -> Player:
    spec.need()
    (playouts,) = spec.ints([1000], ["PLAYOUTS"])
    spec.check_range("the number of playouts", playouts, 1, 10**9)
    return external.pachi_player(spec.text, spec.state, playouts, spec.seed)


def _gtp_rhino(spec: _Spec) -> Player:
    spec.need()
    size = int(spec.state.size)
    if size != 8:
        raise ValueError(f"{spec.label} plays Othello on 8x8 only, not {size}x{size}")
    level, randomness = spec.ints([3, 0], ["LEVEL", "RAND"])
    spec.check_range("the GRhino level", level, 1, 5)
    spec.check_range("the GRhino randomness", randomness, 0, 10)
    return external.gtp_rhino_player(spec.text, spec.state, level, randomness)


def _fairy_stockfish(spec: _Spec) -> Player:
    spec.need()
    skill, depth, movetime = spec.ints([20, 5, 100], ["SKILL", "DEPTH", "MOVETIME"])
    spec.check_range("the Skill Level", skill, -20, 20)
    spec.check_range("the depth", depth, 0, 100)
    spec.check_range("the movetime (ms)", movetime, 1, 10**7)
    return external.fairy_stockfish_player(spec.text, spec.state, skill, depth, movetime)


def _lichess(spec: _Spec) -> Player:
    spec.need()
    (level,) = spec.ints([2], ["LEVEL"])
    if level not in external.LICHESS_LEVELS:
        raise ValueError(f"{spec.label}: the lichess level must be in 1..8, got {level}")
    skill, movetime, depth = external.LICHESS_LEVELS[level]
    return external.fairy_stockfish_player(spec.text, spec.state, skill, depth, movetime)


def _gtp(spec: _Spec) -> Player:
    command = external.split_command(spec.text, spec.rest, "gtp")
    spec.need()
    return external.gtp_player(spec.text, spec.state, command)


def _uci(spec: _Spec) -> Player:
    command = external.split_command(spec.text, spec.rest, "uci")
    spec.need()
    return external.uci_player(spec.text, spec.state, command)


PresetSpec = _Spec
"""A parsed preset (``text``, ``kind``, ``rest``, ``state``, ``seed``, ``runtime``), the argument
of every builder."""

METHOD_PRESETS: dict[str, str] = {
    "zetago": "pyaz.methods.reinforce.players:build_policy_player",
    "zetago-mcts": "pyaz.methods.reinforce.players:build_mcts_player",
    "alphagomoku": "pyaz.methods.alphagomoku.players:build_pair_player",
    "rule": "pyaz.methods.kr_dl_uct.players:build_rule_player",
    "kr": "pyaz.methods.kr_dl_uct.players:build_kr_player",
    "kr-dl": "pyaz.methods.kr_dl_uct.players:build_network_player",
}
"""Presets built by a seed method's subpackage (kind -> ``module:function``), imported when first
asked for: the methods sit above this layer, so it names them instead of importing them."""

MODEL_KIND_PRESETS: dict[str, str] = {
    "alphagomoku-pair": "alphagomoku",
    "zetago-policy": "zetago-mcts",
    "curling": "kr-dl",
}
"""The preset that ``model:PATH`` uses for a model file of each method kind (see
:data:`pyaz.nets.files.MODEL_KINDS`)."""


def _method_builder(kind: str) -> Callable[[_Spec], Player] | None:
    target = METHOD_PRESETS.get(kind)
    if target is None:
        return None
    module, _, function = target.partition(":")
    builder: Callable[[_Spec], Player] = getattr(importlib.import_module(module), function)
    return builder


BUILDERS: dict[str, Callable[[_Spec], Player]] = {
    "random": _no_argument(RandomPlayer),
    "greedy": _no_argument(GreedyPlayer),
    "perfect": _perfect,
    "uct": _uct,
    "openspiel-mcts": _openspiel_mcts,
    "mentor": _mentor,
    "guard": _guard,
    "model": _model,
    "gnugo": _gnugo,
    "pachi": _pachi,
    "gtp-rhino": _gtp_rhino,
    "fairy-stockfish": _fairy_stockfish,
    "lichess": _lichess,
    "gtp": _gtp,
    "uci": _uci,
}
"""The builder of each preset kind."""


def make_player(
    spec: str, start_state: GameState, seed: int = 0, runtime: str | None = None
) -> Player:
    """The player that ``spec`` names (see the module docstring), for ``start_state``'s game.

    ``seed`` seeds the random player, the search players and GNU Go/Pachi; ``runtime`` is where
    a network player runs its network (default: ONNX Runtime on a CPU). Raises ValueError
    for an unknown spec or one that does not fit the game, FileNotFoundError (with how to
    install it) for a missing engine or model. The player's ``name`` is ``spec``.
    """
    if not isinstance(spec, str):
        raise TypeError(f"a player spec is a string such as 'uct:200', got {spec!r}")
    parsed = _Spec(spec, start_state, seed, runtime)
    builder = BUILDERS.get(parsed.kind) or _method_builder(parsed.kind)
    if builder is None:
        raise ValueError(f"unknown player {shown(spec)}\n{PRESETS_HELP}")
    return builder(parsed)
