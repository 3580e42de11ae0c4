"""The documentation site (``docs/``): it builds with Sphinx with warnings as errors, every
```python block of every page runs under doctest (the blocks of one page share one namespace, in
order, as ``tests/test_readme.py`` does for the README), and every page's shell commands pass the
README's checks (``pyaz-*`` options parse, run folders are made before they are used)."""

from __future__ import annotations

import doctest
import html
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_readme import code_blocks, command_problems, shell_commands

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = sorted(path for path in DOCS.rglob("*.md") if "_build" not in path.parts)
WITH_PYTHON = [path for path in PAGES if code_blocks(path.read_text(), ("python",))]


def _name(path: Path) -> str:
    return str(path.relative_to(ROOT))


def _text_of(page: Path) -> str:
    """The text of a built page's main article, tags dropped, spaces squeezed."""
    body = page.read_text().split("<article", 1)[1].split("</article>", 1)[0]
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body)))


def _title(page: Path) -> str:
    """A page's first heading as the built site shows it: inline code marks dropped."""
    heading = next(line for line in page.read_text().splitlines() if line.startswith("# "))
    return heading.removeprefix("# ").replace("`", "")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site built once with warnings as errors (nothing on stderr); its HTML folder."""
    where = tmp_path_factory.mktemp("docs")
    out = where / "html"
    command = [sys.executable, "-m", "sphinx", "-W", "-q", "-b", "html", str(DOCS), str(out)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=where)
    assert done.returncode == 0, done.stderr[-4000:]
    assert done.stderr.strip() == "", done.stderr[-4000:]
    return out


def test_the_site_builds_with_warnings_as_errors(site: Path) -> None:
    out = site
    built = {path.relative_to(out).with_suffix(".md") for path in out.rglob("*.html")}
    assert {path.relative_to(DOCS) for path in PAGES} <= built
    training = _text_of(out / "training.html")
    assert "--simulations m 1..1000000 100 MCTS simulations per move (25/100/200)" in training
    api = _text_of(out / "api.html")
    assert "class pyaz. Search" in api and "pyaz. make (" in api
    benchmarks = _text_of(out / "benchmarks.html")
    assert "What is measured" in benchmarks and "891x (775 to 897)" in benchmarks
    assert re.search(
        r'<img [^>]*src="_images/othello6-win-ratio.png"', (out / "training.html").read_text()
    )


@pytest.mark.parametrize("page", PAGES, ids=_name)
def test_every_page_is_its_own_page_of_the_site_with_its_title(site: Path, page: Path) -> None:
    """A page named like one Sphinx makes itself (search, genindex) is replaced by it: its
    HTML file exists but holds none of its text (docs/search.md until issue 77)."""
    built = site / page.relative_to(DOCS).with_suffix(".html")
    assert built.exists(), f"{_name(page)} is not in the built site"
    assert _title(page) in _text_of(built), f"{built.name} does not hold {_name(page)}"


def test_the_docs_have_python_examples() -> None:
    assert len(WITH_PYTHON) >= 10


@pytest.fixture
def one_torch_thread() -> Iterator[None]:
    """PyTorch on one thread while the examples run: on a loaded 2-core machine its default
    threads made search-and-self-play.md's 8 self-play games take 23 s instead of 0.5 s."""
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


@pytest.mark.usefixtures("one_torch_thread")
@pytest.mark.parametrize("page", WITH_PYTHON, ids=_name)
def test_docs_python_blocks(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # an example may write a file (curling.render_png)
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    namespace: dict[str, object] = {}
    failures: list[str] = []
    for line, block in code_blocks(page.read_text(), ("python",)):
        where = f"{_name(page)}:{line}"
        if ">>>" not in block:
            pytest.fail(f"{where}: a python block without '>>>' cannot be checked")
        test = parser.get_doctest(block, namespace, where, str(page), line)
        result = runner.run(test, out=failures.append, clear_globs=False)
        namespace = test.globs
        assert result.attempted > 0
    assert not failures, "".join(failures)


@pytest.mark.parametrize("page", PAGES, ids=_name)
def test_docs_shell_commands_parse_and_use_runs_made_before(page: Path) -> None:
    assert command_problems(_name(page), page.read_text()) == []


def test_the_pages_that_use_runs_make_them() -> None:
    engines = (DOCS / "engines.md").read_text()
    made = [argv for _, argv in shell_commands(engines) if "--out" in argv]
    assert made[0][-2:] == ["--out", "runs/o6"] and made[2][-2:] == ["--out", "runs/go9"]
