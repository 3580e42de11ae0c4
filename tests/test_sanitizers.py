"""The C++ search under the sanitizers on every test run: the stress driver
(tests/cpp/search_stress.cpp: multithreaded searches, free-running and batched, tree reuse, a full
arena, and self-play on Othello, Connect Four and Gomoku) built with AddressSanitizer +
UndefinedBehaviorSanitizer, and again with ThreadSanitizer, must finish with "all passed" and
without a single sanitizer report. A plain C++ binary, so no instrumented Python is needed.

Each build takes about a minute of two cores; the builds are kept in ``PYAZ_SANITIZER_BUILD``
(default: a folder in the system's temporary directory), one per checkout, so that a second run
only relinks.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SANITIZERS = {  # CMake option -> (environment for the run, what a report starts with)
    "PYAZ_ASAN": (
        {"ASAN_OPTIONS": "detect_leaks=1:abort_on_error=0", "UBSAN_OPTIONS": "print_stacktrace=1"},
        ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:"),
    ),
    "PYAZ_TSAN": (
        {"TSAN_OPTIONS": "second_deadlock_stack=1"},
        ("WARNING: ThreadSanitizer", "ERROR: ThreadSanitizer"),
    ),
}


def _pybind11_cmake_dir() -> str:
    try:
        import pybind11
    except ImportError:
        pytest.skip("pybind11 is not installed (pip install '.[test]')")
    return str(pybind11.get_cmake_dir())


def _build(option: str) -> Path:
    cmake = shutil.which("cmake")
    ninja = shutil.which("ninja")
    if cmake is None or ninja is None:
        pytest.skip("cmake and ninja are needed (pip install '.[test]')")
    base = Path(os.environ.get("PYAZ_SANITIZER_BUILD", Path(tempfile.gettempdir()) / "pyaz-san"))
    tree = hashlib.sha256(str(ROOT).encode()).hexdigest()[:12]  # one build per checkout
    build = base / f"{option.lower()}-{tree}"
    configure = [
        cmake, "-S", str(ROOT), "-B", str(build), "-G", "Ninja", f"-D{option}=ON",
        "-DCMAKE_BUILD_TYPE=RelWithDebInfo", f"-Dpybind11_DIR={_pybind11_cmake_dir()}",
        f"-DPython_EXECUTABLE={sys.executable}",
    ]  # fmt: skip
    for command in (configure, [cmake, "--build", str(build), "--target", "pyaz_stress"]):
        done = subprocess.run(command, capture_output=True, text=True, timeout=1200)
        assert done.returncode == 0, f"{' '.join(command)}\n{done.stdout[-3000:]}{done.stderr}"
    return build / "pyaz_stress"


@pytest.mark.parametrize("option", list(SANITIZERS))
def test_the_search_stress_run_is_clean_under_the_sanitizer(option: str) -> None:
    binary = _build(option)
    extra, reports = SANITIZERS[option]
    done = subprocess.run(
        [str(binary)],
        capture_output=True,
        text=True,
        timeout=900,
        env={**os.environ, **extra},
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-5000:]
    assert "all passed" in done.stdout
    for report in reports:
        assert report not in output, output[-5000:]
