"""The cases of the hostile-input suite (tests/test_hostile.py), and the worker that runs them.

Every case calls one public entry point with one bad argument and names the texts of which one
must appear in the error message (the bad value as Python or C++ prints it). The outcome
expected of every case: ValueError or TypeError whose message names the value; never another
exception, an accepted value, a crash or a hang. ``python tests/hostile_cases.py`` runs every
case and prints one JSON line per case (``start`` before it, so that a crash names its case);
each case gets a few seconds (SIGALRM; the C++ loops poll Python's signal handlers).
"""

from __future__ import annotations

import json
import math
import signal
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

import pyaz
from pyaz.search.search import DEFAULTS as SEARCH_DEFAULTS
from pyaz.search.selfplay import DEFAULTS as SELF_PLAY_DEFAULTS

CASE_SECONDS = 5


@dataclass(frozen=True)
class Case:
    id: str
    call: Callable[[], object]
    names: tuple[str, ...]  # the message must hold one of these


def shown(value: object) -> tuple[str, ...]:
    """How an error message may name ``value``."""
    texts = {repr(value), str(value), type(value).__name__}
    if isinstance(value, float | np.floating) and not isinstance(value, bool):
        number = float(value)
        texts |= {f"{number:g}", repr(number)}
        if math.isnan(number):
            texts.add("nan")
    if isinstance(value, str) and value:
        texts.add(value.strip() or repr(value))
    return tuple(sorted(texts, key=len, reverse=True))


NOT_INTEGERS: list[object] = [None, "3", 1.5, 2.0, np.float32(1.7), 1j, [], b"1", float("nan")]
BAD_INTEGERS: list[object] = [-1, -(2**63) - 1, 2**64, 10**30]
NOT_REALS: list[object] = [None, "1", 1j, [], b"1", {}]
BAD_REALS: list[object] = [float("nan"), float("inf"), float("-inf"), -1.0, -1e300]
BAD_TEXTS: list[object] = [None, 3, b"text", ["x"]]
BAD_STRINGS: list[str] = [
    "",
    " ",
    "\x00",
    "zz99",
    "é",
    "\u202e",
    "a" * 10_000,
    "-1",
    "99999999999999999999",
    "nan",
    "pass pass",
]

GAME_STATES = {name: pyaz.make(name) for name in pyaz.games.board_games()}


def game_cases() -> Iterator[Case]:
    for name, state in GAME_STATES.items():
        for value in [*NOT_INTEGERS, *BAD_INTEGERS, True]:
            names = shown(value)
            for method in ("apply", "child", "action_to_str"):
                call = getattr(state.clone(), method)
                yield Case(f"{name}.{method}({value!r})", lambda c=call, v=value: c(v), names)
        for value in NOT_INTEGERS[:-1]:
            if not isinstance(value, float):
                call = state.is_legal
                yield Case(
                    f"{name}.is_legal({value!r})", lambda c=call, v=value: c(v), shown(value)
                )
        for text in BAD_STRINGS:
            call = state.str_to_action
            yield Case(f"{name}.str_to_action({text[:20]!r})", lambda c=call, t=text: c(t), ("",))
        for value in BAD_TEXTS:
            call = state.clone().play
            yield Case(f"{name}.play({value!r})", lambda c=call, v=value: c(v), shown(value))
    for name, spec in pyaz.GAMES.items():
        for option, default in spec.options.items():
            bad_values = [*NOT_INTEGERS, *BAD_INTEGERS] if isinstance(default, int) else [None, 3]
            if isinstance(default, bool) or default is None:
                bad_values = ["yes", 1j, []]
            for value in bad_values:
                yield Case(
                    f"make({name!r}, {option}={value!r})",
                    lambda n=name, o=option, v=value: pyaz.make(n, **{o: v}),
                    (option,),
                )
    for value in [None, 3, b"go", "chess", "", "é"]:
        yield Case(f"make({value!r})", lambda v=value: pyaz.make(v), shown(value))  # type: ignore[arg-type]


def text_cases() -> Iterator[Case]:
    from pyaz.games.sgf import parse_sgf

    parsers: dict[str, Callable[[Any], object]] = {
        "Othello.from_text": pyaz.Othello.from_text,
        "ConnectFour.from_text": pyaz.ConnectFour.from_text,
        "Gomoku.from_text": pyaz.Gomoku.from_text,
        "RacingKings.from_fen": pyaz.RacingKings.from_fen,
        "parse_sgf": parse_sgf,
    }
    texts = [
        *BAD_STRINGS,
        "........\n" * 3,
        "XO\nOX\nX",
        "(;SZ[9];B[aa];W[aa])",
        "(;SZ[999])",
        "(;KM[1e999])",
        "8/8/8/8/8/8/8/8 w - - 0 1",
        "rnbqkbnr/8/8/8/8/8/8/8 w",
    ]
    for name, parse in parsers.items():
        for text in texts:
            yield Case(f"{name}({text[:24]!r})", lambda p=parse, t=text: p(t), ("",))
        for value in BAD_TEXTS:
            if isinstance(value, bytes) and name != "parse_sgf":
                continue  # pybind11 reads bytes as UTF-8 text, then the text is checked
            yield Case(f"{name}({value!r})", lambda p=parse, v=value: p(v), shown(value))


def search_cases() -> Iterator[Case]:
    state = pyaz.make("connect_four", width=5, height=4)
    for option, default in SEARCH_DEFAULTS.items():
        if isinstance(default, bool):
            values: list[object] = ["no", 1j, None]
        elif isinstance(default, int):
            values = [*NOT_INTEGERS, *BAD_INTEGERS]
        elif isinstance(default, float):
            values = [*NOT_REALS, *BAD_REALS]
        else:
            values = [*BAD_TEXTS, "nope"]
        if option in ("fpu_value", "dirichlet_alpha", "draw_value"):  # negative values are valid
            values = [v for v in values if not (isinstance(v, float) and math.isfinite(v))]
        for value in values:
            yield Case(
                f"Search({option}={value!r})",
                lambda o=option, v=value: pyaz.Search(state, **{o: v}),
                (option,),
            )
            if option not in ("max_nodes",):
                yield Case(
                    f"SelfPlay({option}={value!r}).play(1)",
                    lambda o=option, v=value: pyaz.SelfPlay(state, **{o: v}).play(1),
                    (option,),
                )
    for option, default in SELF_PLAY_DEFAULTS.items():
        if option in SEARCH_DEFAULTS:
            continue
        values = [*NOT_INTEGERS, *BAD_INTEGERS] if isinstance(default, int) else BAD_REALS
        for value in values:
            if option == "sampling_plies" and isinstance(value, int) and value > -(2**31):
                continue  # any int of that size is a valid ply count
            if option == "opening_rollback_plies" and value == -1:
                continue  # -1: the default (half of the opening)
            yield Case(
                f"SelfPlay({option}={value!r}).play(1)",
                lambda o=option, v=value: pyaz.SelfPlay(state, **{o: v}).play(1),
                (option,),
            )
    yield Case("Search(unknown=1)", lambda: pyaz.Search(state, unknown=1), ("unknown",))
    searched = pyaz.Search(state)
    searched.run(10)
    for value in [*NOT_INTEGERS, *BAD_INTEGERS]:
        yield Case(f"Search.run({value!r})", lambda v=value: searched.run(v), ("simulations",))
        yield Case(
            f"Search.choose_action(seed={value!r})",
            lambda v=value: searched.choose_action(0.0, v),
            ("seed",),
        )
        yield Case(f"Search.advance({value!r})", lambda v=value: searched.advance(v), ("action",))
        yield Case(
            f"SelfPlay.play({value!r})", lambda v=value: pyaz.SelfPlay(state).play(v), ("games",)
        )
    for value in [*NOT_REALS, *BAD_REALS]:
        yield Case(
            f"Search.policy({value!r})", lambda v=value: searched.policy(v), ("temperature",)
        )
    yield from evaluator_cases(state)


def evaluator_cases(state: pyaz.NetworkGameState) -> Iterator[Case]:
    actions = state.num_actions

    def returning(result: Callable[[int], object]) -> Callable[[np.ndarray], object]:
        return lambda planes: result(len(planes))

    outputs: dict[str, tuple[Callable[[int], object], str]] = {
        "None": (lambda n: None, "evaluator must return"),
        "one array": (lambda n: np.zeros((n, actions)), "evaluator must return"),
        "three arrays": (lambda n: (np.zeros((n, actions)),) * 3, "exactly"),
        "short logits": (
            lambda n: (np.zeros((n, 2)), np.zeros(n)),
            "policy_logits must have shape",
        ),
        "nan logits": (lambda n: (np.full((n, actions), np.nan), np.zeros(n)), "non-finite"),
        "inf value": (lambda n: (np.zeros((n, actions)), np.full(n, np.inf)), "non-finite"),
        "value 2": (lambda n: (np.zeros((n, actions)), np.full(n, 2.0)), "[-1, 1]"),
        "complex": (lambda n: (np.zeros((n, actions), complex), np.zeros(n)), "real numbers"),
        "strings": (lambda n: (np.zeros((n, actions)), ["a"] * n), "real numbers"),
        "objects": (lambda n: (np.zeros((n, actions)), [None] * n), "real numbers"),
        "2-d values": (
            lambda n: (np.zeros((n, actions)), np.zeros((n, 2))),
            "values must have shape",
        ),
    }
    for label, (result, names) in outputs.items():
        yield Case(
            f"Search.run(evaluator -> {label})",
            lambda r=result: pyaz.Search(state).run(8, returning(r)),
            (names,),
        )
        yield Case(
            f"SelfPlay.play(evaluator -> {label})",
            lambda r=result: pyaz.SelfPlay(state, simulations=4).play(1, returning(r)),
            (names,),
        )
    for value in [None, 3, "network", b"uniform"]:
        yield Case(
            f"Search.run(10, {value!r})",
            lambda v=value: pyaz.Search(state).run(10, v),
            ("evaluator",),
        )


def symmetry_cases() -> Iterator[Case]:
    planes = np.zeros((2, 4, 4))
    state = pyaz.make("othello", size=4)
    for value in [*NOT_INTEGERS, *BAD_INTEGERS, 8, True]:
        yield Case(
            f"transform_planes(k={value!r})",
            lambda v=value: pyaz.transform_planes(planes, v),
            ("symmetry id",),
        )
        yield Case(
            f"transform_policy(k={value!r})",
            lambda v=value: pyaz.transform_policy(np.zeros(17), v, state),
            ("symmetry id",),
        )
    for value in [None, [1, 2], "planes", np.zeros(3)]:
        yield Case(
            f"transform_planes({type(value).__name__})",
            lambda v=value: pyaz.transform_planes(v, 0),
            ("planes",),
        )


def curling_cases() -> Iterator[Case]:
    from pyaz._core import curling as c

    state = c.GameState()
    shot = c.Shot(0.1, 2.5, 1)
    for value in [*BAD_REALS[:3], 1e30, -1e30]:
        names = shown(value)
        yield Case(f"curling.Shot(vx={value!r})", lambda v=value: c.Shot(v, 2.5), names)
        yield Case(f"curling.Shot(vy={value!r})", lambda v=value: c.Shot(0.0, v), names)
        yield Case(f"curling.Target(x={value!r})", lambda v=value: c.Target(v, 38.0), names)
        yield Case(
            f"curling.set_stone(x={value!r})",
            lambda v=value: state.copy().set_stone(0, v, 38.0),
            names,
        )
        yield Case(
            f"curling.set_stone(y={value!r})",
            lambda v=value: state.copy().set_stone(0, 0.0, v),
            names,
        )
        yield Case(
            f"curling.simulate_stones(omega={value!r})",
            lambda v=value: c.simulate_stones(np.array([[0.0, 30.0, 0.0, 1.0, v]])),
            names,
        )
        for sigma in ("sigma_x", "sigma_y", "sigma_speed", "sigma_angle"):
            noise = c.NoiseParams(c.Noise.DC3)
            setattr(noise, sigma, value)
            yield Case(
                f"curling.perturb({sigma}={value!r})", lambda n=noise: c.perturb(shot, n), (sigma,)
            )
    for spin in (0, 2, 7, -3):
        yield Case(f"curling.Shot(spin={spin})", lambda s=spin: c.Shot(0.0, 2.5, s), (str(spin),))
    for index in (-1, 16, 2**31 - 1):
        yield Case(
            f"curling.set_stone({index})",
            lambda i=index: state.copy().set_stone(i, 0.0, 38.0),
            (str(index),),
        )


def preset_cases(folder: str) -> Iterator[Case]:
    from pathlib import Path

    from pyaz.methods.alphazero.preset_files import load_preset, train_config

    texts = {
        "not toml": "iterations = = 3",
        "binary": "\x00\x01",
        "unknown key": "bogus = 1",
        "wrong type": 'iterations = "many"',
        "negative": "iterations = -5",
        "nan": "c_puct = nan",
        "huge": "simulations = 99999999999999999999",
    }

    def load(path: Path, text: str) -> None:
        path.write_text(text)
        train_config(load_preset(path)).validate()

    for label, text in texts.items():
        path = Path(folder) / f"{label.replace(' ', '_')}.toml"
        yield Case(
            f"preset({label})", lambda p=path, t=text: load(p, t), (path.name, text.split(" ")[0])
        )
    yield Case("preset(missing)", lambda: load_preset("no-such-preset"), ("no-such-preset",))


class _RunsCode:
    """Unpickling it runs ``touch MARKER``: what a hostile model file holds."""

    def __init__(self, marker: str) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str]]:
        import os

        return os.system, (f"touch {self.marker}",)


def file_cases(folder: str) -> Iterator[Case]:
    """Hostile files: model files and checkpoints whose unpickling would run code, broken ones,
    SGF the parser must survive. Each case writes its file when it runs (under ``folder``); a
    case whose marker file appears ran code and fails even if its error message is right."""
    from pathlib import Path

    root = Path(folder) / "files"

    def evil_bytes(marker: Path, wrap: str) -> bytes:
        import io

        import torch

        payload: object = _RunsCode(str(marker))
        if wrap == "net":
            payload = {"net": payload, "iteration": 1}
        elif wrap == "checkpoint":
            payload = {"best": payload, "buffer": "buffer-00001.npz"}
        blob = io.BytesIO()
        torch.save(payload, blob)
        return blob.getvalue()

    def load_evil(wrap: str, as_run: bool) -> object:
        from pyaz.nets.loading import load_model
        from pyaz.train.checkpoint import read_checkpoint

        folder = root / f"evil-{wrap}-{'run' if as_run else 'model'}"
        folder.mkdir(parents=True, exist_ok=True)
        marker = folder / "ran"
        path = folder / ("checkpoint.pt" if as_run else "model.pt")
        path.write_bytes(evil_bytes(marker, wrap))
        try:
            return read_checkpoint(folder) if as_run else load_model(path)
        finally:
            if marker.exists():
                raise RuntimeError(f"code from a file ran: {marker} exists")

    for wrap in ("bare", "net", "checkpoint"):
        yield Case(f"load_model(evil {wrap})", lambda w=wrap: load_evil(w, False), ("model.pt",))
        yield Case(
            f"read_checkpoint(evil {wrap})", lambda w=wrap: load_evil(w, True), ("checkpoint.pt",)
        )

    def load_broken(label: str) -> object:
        import io

        import torch

        from pyaz.nets.loading import load_model

        good = io.BytesIO()
        torch.save({"net": {"config": {}, "state_dict": {}}, "iteration": 1}, good)
        data = {
            "empty": b"",
            "random": bytes(range(256)) * 4,
            "text": "é\n".encode("latin-1"),
            "truncated": good.getvalue()[: len(good.getvalue()) // 2],
        }[label]
        root.mkdir(parents=True, exist_ok=True)
        path = root / f"{label}.pt"
        path.write_bytes(data)
        return load_model(path)

    for label in ("empty", "random", "text", "truncated"):
        yield Case(f"load_model({label} file)", lambda x=label: load_broken(x), (f"{label}.pt",))

    from pyaz.games.sgf import parse_sgf

    deep = "(;GM[1]SZ[9]" + "(;" * 5000 + ")" * 5000
    yield Case("parse_sgf(5000 deep, unclosed)", lambda: parse_sgf(deep), ("SGF", "sgf"))
    yield Case("parse_sgf(KM[6_5])", lambda: parse_sgf("(;GM[1]SZ[9]KM[6_5])"), ("6_5",))


def run_cli(main: Callable[[list[str]], int], argv: list[str]) -> None:
    """Runs a command's ``main``: its exit status 2 becomes ValueError(its stderr), so that the
    case checks the message; exit 0 returns (the bad option was accepted)."""
    import contextlib
    import io

    errors = io.StringIO()
    with contextlib.redirect_stderr(errors), contextlib.redirect_stdout(io.StringIO()):
        try:
            status = main(argv)
        except SystemExit as exit_:
            status = exit_.code if isinstance(exit_.code, int) else 1
    if status == 2:
        if "Traceback" in errors.getvalue():
            raise RuntimeError(f"a traceback: {errors.getvalue()}")
        said = [line for line in errors.getvalue().splitlines() if line.startswith("pyaz-")]
        raise ValueError(" / ".join(said) or errors.getvalue())  # not the usage nor the help
    if status != 0:
        raise RuntimeError(f"exit status {status}: {errors.getvalue()}")


def cli_cases(folder: str) -> Iterator[Case]:
    from pyaz.cli import arena, gtp, selfplay, uci

    out = ["--out", f"{folder}/run", "--iterations", "1", "--quiet"]
    bad_numbers = ["x", "-1", "0", "nan", "inf", "1e999", "99999999999999999999", "1.5", ""]
    for option in ("simulations", "episodes", "epochs", "batch-size", "threads", "seed"):
        for value in bad_numbers:
            if option == "seed" and value == "0":
                continue
            argv = [*out, "--game", "connect_four", f"--{option}", value]
            yield Case(
                f"pyaz-selfplay --{option} {value!r}",
                lambda a=argv: run_cli(selfplay.main, a),
                (option.replace("-", "_"), option),
            )
    for option in ("c-puct", "lr", "dropout", "draw-value", "dirichlet-epsilon", "replacement"):
        for value in ["x", "nan", "inf", "-5", "1e999"]:
            argv = [*out, "--game", "connect_four", f"--{option}", value]
            yield Case(
                f"pyaz-selfplay --{option} {value!r}",
                lambda a=argv: run_cli(selfplay.main, a),
                (option.replace("-", "_"), option),
            )
    for option, value in [("game", "chess"), ("width", "99"), ("size", "-3"), ("preset", "nope")]:
        game = "othello" if option == "size" else "connect_four"
        argv = (
            [*out, "--game", game, f"--{option}", value]
            if option != "game"
            else [*out, "--game", value]
        )
        yield Case(
            f"pyaz-selfplay --{option} {value!r}",
            lambda a=argv: run_cli(selfplay.main, a),
            (value,),
        )
    for option in ("nodes", "move-overhead", "threads"):
        for value in ["x", "-1", "nan", "99999999999999999999"]:
            yield Case(
                f"pyaz-uci --{option} {value!r}",
                lambda o=option, v=value: run_cli(uci.main, [f"--{o}", v]),
                (option, value),
            )
    for value in ["x", "-1", "0", "nan"]:
        yield Case(
            f"pyaz-gtp --simulations {value!r}",
            lambda v=value: run_cli(gtp.main, ["--game", "go", "--simulations", v]),
            ("simulations",),
        )
        yield Case(
            f"pyaz-arena --games {value!r}",
            lambda v=value: run_cli(
                arena.main, ["--game", "connect_four", "--games", v, "random", "random"]
            ),
            ("games",),
        )
    for player in ["nope", "uct-5", "uct0", "gnugo:99", "mcts:x"]:
        yield Case(
            f"pyaz-arena {player!r} random",
            lambda p=player: run_cli(
                arena.main, ["--game", "connect_four", "--games", "2", p, "random"]
            ),
            (player,),
        )


def all_cases(folder: str) -> list[Case]:
    cases = [
        *game_cases(),
        *text_cases(),
        *search_cases(),
        *symmetry_cases(),
        *curling_cases(),
        *preset_cases(folder),
        *cli_cases(folder),
        *file_cases(folder),
    ]
    ids = [case.id for case in cases]
    assert len(ids) == len(set(ids)), "case ids must be unique"
    return cases


def _timeout(signum: int, frame: object) -> None:
    raise TimeoutError(f"no answer within {CASE_SECONDS} s")


def main(folder: str, skip: set[str]) -> None:
    """Runs every case but those in ``skip``; one JSON line per case on stdout."""
    signal.signal(signal.SIGALRM, _timeout)
    for case in all_cases(folder):
        if case.id in skip:
            continue
        print(json.dumps({"start": case.id}), flush=True)
        signal.alarm(CASE_SECONDS)
        try:
            case.call()
            outcome = {"type": None, "message": ""}
        except BaseException as error:
            outcome = {"type": type(error).__name__, "message": str(error)[:2000]}
        finally:
            signal.alarm(0)
        print(json.dumps({"id": case.id, **outcome}), flush=True)


if __name__ == "__main__":
    main(sys.argv[1], set(sys.argv[2:]))
