"""Writes the type stubs of the C++ extension, ``src/pyaz/_core/{__init__,curling}.pyi``, with
pybind11-stubgen; run it after changing a binding (``tests/test_typing.py`` checks that the
committed stubs are current):

    python scripts/generate_stubs.py            # or --check: exit 1 if they are out of date
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET = ROOT / "src" / "pyaz" / "_core"
ENUMS = ["Physics:pyaz._core.curling", "Noise:pyaz._core.curling"]


def generate(out: Path) -> dict[str, str]:
    """Runs pybind11-stubgen into ``out``; the stub files' texts by name."""
    command = [sys.executable, "-m", "pybind11_stubgen", "pyaz._core", "-o", str(out)]
    for enum in ENUMS:
        command += ["--enum-class-locations", enum]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    if result.returncode != 0 or "ERROR" in result.stderr:
        raise RuntimeError(f"pybind11-stubgen failed:\n{result.stdout}{result.stderr}")
    folder = out / "pyaz" / "_core"
    return {path.name: path.read_text() for path in sorted(folder.glob("*.pyi"))}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 if stale")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        stubs = generate(Path(tmp))
    current = {path.name: path.read_text() for path in sorted(TARGET.glob("*.pyi"))}
    if args.check:
        stale = sorted(set(stubs) ^ set(current) | {n for n in stubs if stubs[n] != current.get(n)})
        if stale:
            print(f"stale stubs: {', '.join(stale)}; run python scripts/generate_stubs.py")
            return 1
        return 0
    TARGET.mkdir(parents=True, exist_ok=True)
    for name, text in stubs.items():
        (TARGET / name).write_text(text)
    print(f"wrote {', '.join(stubs)} in {TARGET}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
