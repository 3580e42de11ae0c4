"""Every ```python block of the README runs, and its shown outputs are checked (doctest), as
python-chess does with its own README. The blocks share one namespace, in order."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"


def _python_blocks() -> list[tuple[int, str]]:
    text = README.read_text()
    blocks = []
    for match in re.finditer(r"^```python\n(.*?)^```", text, flags=re.S | re.M):
        line = text.count("\n", 0, match.start()) + 2
        blocks.append((line, match.group(1)))
    return blocks


def test_the_readme_has_python_examples() -> None:
    assert len(_python_blocks()) >= 2


def test_readme_python_blocks() -> None:
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    namespace: dict[str, object] = {}
    failures = []
    for line, block in _python_blocks():
        if ">>>" not in block:
            pytest.fail(f"README.md:{line}: a python block without '>>>' cannot be checked")
        test = parser.get_doctest(block, namespace, f"README.md:{line}", str(README), line)
        result = runner.run(test, out=failures.append, clear_globs=False)
        namespace = test.globs
        assert result.attempted > 0
    assert not failures, "".join(failures)
