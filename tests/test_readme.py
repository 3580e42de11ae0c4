"""Every ```python block of the README runs, and its shown outputs are checked (doctest), as
python-chess does with its own README. The blocks share one namespace, in order.

The README's shell commands are checked in order, without running them: each ``pyaz-*`` command's
options parse with that command's own argument parser (``build_parser()`` of the module that
``pyproject.toml`` names for it), and a run folder a command uses (``model:runs/X``, ``--run
runs/X``, ``--out runs/X --resume``, any ``runs/...`` path) was made by an earlier command's
``--out``. ``tests/test_docs.py`` applies the same checks to each docs page."""

from __future__ import annotations

import contextlib
import doctest
import importlib
import io
import re
import shlex
import tomllib
from pathlib import Path

import pytest

from pyaz.experiments import EXPERIMENTS

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
SHELLS = ("bash", "sh", "shell", "console")
SEPARATORS = {"&&", "||", ";", "|"}
RUNS = "runs/"


def code_blocks(text: str, languages: tuple[str, ...]) -> list[tuple[int, str]]:
    """The fenced blocks of ``text`` in ``languages``: (their first line's number, their text)."""
    blocks = []
    pattern = r"^```(\w+)[ \t]*\n(.*?)^```"
    for match in re.finditer(pattern, text, flags=re.S | re.M):
        if match.group(1) in languages:
            blocks.append((text.count("\n", 0, match.start()) + 2, match.group(2)))
    return blocks


def _python_blocks() -> list[tuple[int, str]]:
    return code_blocks(README.read_text(), ("python",))


def shell_commands(text: str, inline: bool = False) -> list[tuple[int, list[str]]]:
    """The commands of the shell blocks of ``text``, in order: (line, argv), continuation lines
    joined, comments dropped, ``a && b`` split into two commands. With ``inline``, also the
    inline code spans outside the blocks that hold a ``pyaz-`` command with its options (a
    table's commands; a command's bare name is not one)."""
    lines_at: list[tuple[int, str]] = []
    for first, block in code_blocks(text, SHELLS):
        lines = block.splitlines()
        index = 0
        while index < len(lines):
            line, start = lines[index], first + index
            while line.endswith("\\") and index + 1 < len(lines):
                index += 1
                line = line[:-1] + " " + lines[index]
            index += 1
            lines_at.append((start, line))
    if inline:
        prose = re.sub(
            r"^```.*?^```", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S | re.M
        )
        for match in re.finditer(r"`(pyaz-[^` ]+ [^`]*)`", prose):
            lines_at.append((text.count("\n", 0, match.start()) + 1, match.group(1)))
    commands = []
    for start, line in sorted(lines_at, key=lambda item: item[0]):
        argv: list[str] = []
        for word in shlex.split(line, comments=True):
            if word not in SEPARATORS:
                argv.append(word)
            elif argv:
                commands.append((start, argv))
                argv = []
        if argv:
            commands.append((start, argv))
    return commands


def console_scripts() -> dict[str, str]:
    """``pyaz-*`` command -> the module that holds its ``main`` (from ``pyproject.toml``)."""
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    return {name: target.split(":")[0] for name, target in scripts.items()}


def parse_problem(argv: list[str], scripts: dict[str, str]) -> str | None:
    """Why ``argv`` (a ``pyaz-*`` command) does not parse with its command's own parser, or
    None when it does. ``--help`` only needs the parser to exist."""
    if argv[0] not in scripts:
        return f"{argv[0]} is not a command of pyproject.toml's [project.scripts]"
    try:
        module = importlib.import_module(scripts[argv[0]])
    except ImportError as error:
        return f"{argv[0]}: its module {scripts[argv[0]]} does not import ({error})"
    build_parser = getattr(module, "build_parser", None)
    if build_parser is None:
        return f"{argv[0]}: {scripts[argv[0]]} has no build_parser()"
    words = argv[1:]
    subcommands = getattr(module, "SUBCOMMANDS", {})  # e.g. pyaz-arena paired
    if words[:1] and words[0] in subcommands:
        build_parser, words = subcommands[words[0]], words[1:]
    stderr = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(stderr):
        try:
            args = build_parser().parse_args(words)
        except SystemExit as stop:
            if stop.code not in (0, None):
                return stderr.getvalue().strip().splitlines()[-1]
            return None
    if argv[0] == "pyaz-experiment" and args.name not in (None, *EXPERIMENTS):
        return f"pyaz-experiment: no experiment named {args.name!r}"
    return None


def _value(argv: list[str], option: str) -> str | None:
    for index, word in enumerate(argv):
        if word == option and index + 1 < len(argv):
            return argv[index + 1]
        if word.startswith(option + "="):
            return word.split("=", 1)[1]
    return None


def _folder(path: str) -> str:
    return path.rstrip("/")


def used_runs(argv: list[str]) -> list[str]:
    """The run folders ``argv`` reads: every ``runs/...`` path in it (alone, after ``=`` or in a
    player spec such as ``model:runs/X:200``), but not the folder its ``--out`` creates; with
    ``--resume``, that folder too."""
    out = _value(argv, "--out")
    used = []
    for word in argv:
        for part in re.split(r"[:=]", word):
            if part.startswith(RUNS) and _folder(part) != _folder(out or ""):
                used.append(_folder(part))
    if out is not None and "--resume" in argv:
        used.append(_folder(out))
    run = _value(argv, "--run")
    if run is not None and not run.startswith(RUNS):
        used.append(_folder(run))
    return used


def command_problems(name: str, text: str, inline: bool = False) -> list[str]:
    """The problems of the shell commands of ``text`` (a page called ``name``; ``inline`` as in
    :func:`shell_commands`), in order: a ``pyaz-*`` command that does not parse, a run folder
    used before an ``--out`` made it."""
    scripts = console_scripts()
    created: list[str] = []
    problems = []
    for line, argv in shell_commands(text, inline):
        where = f"{name}:{line}: {shlex.join(argv)}"
        if argv[0].startswith("pyaz-"):
            problem = parse_problem(argv, scripts)
            if problem is not None:
                problems.append(f"{where}: {problem}")
        for used in used_runs(argv):
            if not any(used == made or used.startswith(made + "/") for made in created):
                problems.append(f"{where}: uses {used}, which no earlier command's --out made")
        out = _value(argv, "--out")
        if out is not None and "--resume" not in argv:
            created.append(_folder(out))
    return problems


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


def test_readme_shell_commands_parse_and_use_runs_made_before() -> None:
    commands = shell_commands(README.read_text(), inline=True)
    assert sum(argv[0].startswith("pyaz-") for _, argv in commands) >= 10
    assert command_problems("README.md", README.read_text(), inline=True) == []


def test_shell_commands_are_split_as_a_shell_would() -> None:
    text = (
        "```bash\n"
        "pyaz-demo --game othello \\\n"
        "    --quiet   # a comment\n"
        "pip install . && python -m pytest\n"
        "```\n"
        "```python\n"
        ">>> 1\n"
        "```\n"
        "| `pyaz-uci --game racingkings` | `ls` |\n"
    )
    assert shell_commands(text) == [
        (2, ["pyaz-demo", "--game", "othello", "--quiet"]),
        (4, ["pip", "install", "."]),
        (4, ["python", "-m", "pytest"]),
    ]
    assert shell_commands(text, inline=True)[3:] == [(9, ["pyaz-uci", "--game", "racingkings"])]


def test_the_command_check_finds_bad_options_and_runs_made_by_nothing() -> None:
    text = (
        "```bash\n"
        "pyaz-arena model:runs/o6 uct200 --game othello --out runs/arena\n"
        "pyaz-selfplay --game othello --no-such-option 3 --out runs/o6\n"
        "pyaz-selfplay --out runs/o6 --resume\n"
        "pyaz-play --game othello --size 6 --model runs/o6/best.torchscript.pt\n"
        "pyaz-selfplay --out runs/other --resume\n"
        "pyaz-nothing --help\n"
        "pyaz-experiment curriculm --out runs/curr --short\n"
        "```\n"
    )
    problems = command_problems("page.md", text)
    assert len(problems) == 5, problems
    assert problems[0].startswith("page.md:2: ") and "uses runs/o6" in problems[0]
    assert problems[1].startswith("page.md:3: ") and "--no-such-option" in problems[1]
    assert problems[2].startswith("page.md:6: ") and "uses runs/other" in problems[2]
    assert problems[3].startswith("page.md:7: ") and "pyaz-nothing is not a command" in problems[3]
    assert problems[4].endswith("no experiment named 'curriculm'")
