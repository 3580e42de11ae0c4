"""The Python package keeps its layers: each folder imports only the folders below it.

Order (bottom first): common, games, search, nets, engines, eval, train, then methods (one
folder per training method: alphazero, alphagomoku, reinforce, kr_dl_uct; none imports
another), distributed (Ray), experiments, and cli on top. ``pyaz/__init__.py`` is
the facade that re-exports the public names, and ``pyaz._core`` (C++) is below everything.
Nothing outside ``cli/`` may import ``cli/``. Every import counts, also the ones inside functions
and under ``TYPE_CHECKING``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "pyaz"

LAYERS = [
    "common",
    "games",
    "testing",  # the conformance kit: checks a game through the games layer
    "search",
    "nets",
    "engines",
    "eval",
    "train",
    "methods",  # alphazero, alphagomoku, reinforce, kr_dl_uct: one folder per method, side by side
    "distributed",  # Ray: self-play actors feeding the training loop, runs of experiments
    "experiments",
    "cli",
]


def _method_of(module: str) -> str | None:
    """The method folder of a ``pyaz.methods.X...`` module name (None for any other)."""
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[:2] == ["pyaz", "methods"] else None


def _folder_of(module: str) -> str | None:
    """The top folder of a ``pyaz.X...`` module name (None for pyaz itself and pyaz._core)."""
    parts = module.split(".")
    if parts[0] != "pyaz" or len(parts) < 2 or parts[1] == "_core":
        return None
    return parts[1]


def _imports(source: str, package: str) -> list[tuple[int, str]]:
    """(line, module) of every pyaz import in ``source`` (a module of ``package``), relative
    imports resolved."""
    tree = ast.parse(source)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            if base == "pyaz":  # from pyaz import X: X is a folder or a facade name
                found += [(node.lineno, f"pyaz.{alias.name}") for alias in node.names]
            else:
                found.append((node.lineno, base))
    return [(line, module) for line, module in found if module.split(".")[0] == "pyaz"]


def _sources() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if p.parent != PACKAGE)


def test_every_folder_is_a_known_layer() -> None:
    folders = {p.relative_to(PACKAGE).parts[0] for p in _sources()}
    unknown = {f for f in folders if f not in LAYERS}
    assert not unknown, f"folders without a layer: {sorted(unknown)}; add them to LAYERS"


def _problems(source: str, relative: Path) -> list[str]:
    """The layering problems of the module at ``relative`` (a path inside pyaz/)."""
    here = relative.parts[0]
    package = ".".join(("pyaz", *relative.parent.parts))
    own_method = _method_of(f"{package}.x")
    problems = []
    for line, module in _imports(source, package):
        folder = _folder_of(module)
        if module in ("pyaz", "pyaz._core") or folder is None:
            if module == "pyaz" and here != "cli":  # the commands may use the public facade
                problems.append(f"line {line}: imports the pyaz facade; import the layer module")
            continue
        if folder not in LAYERS:
            continue  # a facade name such as pyaz.make (checked by the facade rule above)
        if folder == "cli" and here != "cli":
            problems.append(f"line {line}: imports {module} (only cli/ may import cli/)")
        elif LAYERS.index(folder) > LAYERS.index(here):
            problems.append(f"line {line}: {here}/ imports {module}, a layer above it")
        elif own_method and _method_of(module) not in (None, own_method):
            problems.append(f"line {line}: {here}/{own_method} imports {module}, another method")
    return problems


@pytest.mark.parametrize("path", _sources(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_point_down(path: Path) -> None:
    problems = _problems(path.read_text(), path.relative_to(PACKAGE))
    assert not problems, "\n".join(problems)


def test_the_checker_sees_violations() -> None:
    upward = "def f():\n    from pyaz.methods.alphazero.loop import TrainingLoop\n"
    assert "a layer above it" in _problems(upward, Path("games/x.py"))[0]
    relative = "from ..cli import options\n"
    assert "only cli/ may import cli/" in _problems(relative, Path("eval/x.py"))[0]
    facade = "import pyaz\n"
    assert "facade" in _problems(facade, Path("search/x.py"))[0]
    sideways = "from pyaz.methods.kr_dl_uct import new_game\n"
    assert "another method" in _problems(sideways, Path("methods/reinforce/x.py"))[0]
    assert _problems(sideways, Path("methods/kr_dl_uct/x.py")) == []
    assert _problems(sideways, Path("experiments/x.py")) == []
    assert _problems("from pyaz.games import make\nimport pyaz._core\n", Path("eval/x.py")) == []
