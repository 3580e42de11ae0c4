"""The examples in the package's docstrings (``>>>``) run and print what they say.

They are run on the installed package (a clean clone's CI installs it), module by module, so
that an example that no longer works fails here instead of misleading a reader.
"""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

import pyaz


def _modules_with_examples() -> list[str]:
    """The modules whose source holds ``>>>`` (eval/ and train/ are namespace packages, which
    pkgutil does not list: the files are walked instead)."""
    root = Path(pyaz.__file__).parent
    return sorted(
        ".".join(("pyaz", *path.relative_to(root).with_suffix("").parts)).removesuffix(".__init__")
        for path in root.rglob("*.py")
        if ">>>" in path.read_text(encoding="utf-8")
    )


MODULES = _modules_with_examples()


def test_the_package_has_examples() -> None:
    assert len(MODULES) >= 10, MODULES


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_of_a_module_run(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has '>>>' but no example doctest could find"
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of {name} failed"
