"""The package type-checks: mypy is clean on src/pyaz (with the C++ extension's stubs), and the
committed stubs of the extension are what pybind11-stubgen makes of the built module."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_is_clean() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True, timeout=900
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_extension_stubs_are_current() -> None:
    result = subprocess.run(
        [sys.executable, "scripts/generate_stubs.py", "--check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_stubs_ship_with_the_package() -> None:
    package = ROOT / "src" / "pyaz"
    assert (package / "py.typed").is_file()
    assert (package / "_core" / "__init__.pyi").is_file()
    assert (package / "_core" / "curling.pyi").is_file()
