"""docs/results.md, the results per game (issue 75, item 4): a section for every registered game
with the default's current figure (a date, the runs, the command) or an explicit "Not measured."
line, and technique tables whose rows name a technique of the registry (or say what else they
are), give a verdict from the page's list and link to where they were measured; every technique
of :data:`pyaz.train.techniques.TECHNIQUES` has a row. Links and anchors themselves are checked
by the Sphinx build (tests/test_docs.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import pyaz
from pyaz.train.techniques import TECHNIQUES

RESULTS = Path(__file__).resolve().parents[1] / "docs" / "results.md"
TEXT = RESULTS.read_text()

FIGURE = "**The default's current figure.**"
NOT_MEASURED = "**Not measured.**"
TABLE_HEADER = "| technique | what was tried | measured effect | verdict | measured |"
KINDS = ("core", "play", "method", "other")  # a row that is no technique of the registry
VERDICTS = (
    "default",
    "no gain",
    "worse",
    "not measured",
    "not decided",
    "measures only",
    "not built",
)
DATE = re.compile(r"\b20\d\d-\d\d-\d\d\b")
RUNS = re.compile(r"\b(one|two|three|four|five|six|\d+) runs?\b")


def _prose(text: str) -> str:
    """``text`` with its fenced code blocks blanked, each character but a newline a space, so that
    offsets stay those of ``text`` (a ``#`` in a shell block is no heading)."""

    def blank(block: re.Match[str]) -> str:
        return re.sub(r"[^\n]", " ", block.group(0))

    return re.sub(r"^```.*?^```", blank, text, flags=re.M | re.S)


def _sections(text: str, level: int) -> list[tuple[str, str]]:
    """(heading, body) of each heading of ``level`` in ``text``, the body up to the next heading
    of that level or higher (fenced code blocks kept in the body)."""
    marks = "#" * level
    prose = _prose(text)
    starts = [m for m in re.finditer(rf"^{marks} (.+)$", prose, flags=re.M)]
    higher = [m.start() for m in re.finditer(rf"^#{{1,{level - 1}}} ", prose, flags=re.M)]
    sections = []
    for number, start in enumerate(starts):
        ends = [m.start() for m in starts[number + 1 :]] + [p for p in higher if p > start.end()]
        end = min(ends, default=len(text))
        sections.append((start.group(1), text[start.end() : end]))
    return sections


def _game_sections() -> dict[str, tuple[str, str]]:
    """Registry name -> (heading, body) of the level-2 section whose first paragraph names it as
    `--game NAME`."""
    games: dict[str, tuple[str, str]] = {}
    for heading, body in _sections(TEXT, 2):
        first = body.strip().split("\n\n", 1)[0]
        for name in re.findall(r"`--game ([\w-]+)`", first):
            assert name not in games, f"{name} has two sections: {games[name][0]}, {heading}"
            games[name] = (heading, body)
    return games


def _rows() -> list[list[str]]:
    """The cells of every row of the page's technique tables."""
    rows: list[list[str]] = []
    for table in re.split(r"\n\s*\n", _prose(TEXT)):
        lines = table.strip().splitlines()
        if not lines or lines[0] != TABLE_HEADER:
            continue
        assert lines[1] == "|---|---|---|---|---|", table[:200]
        for line in lines[2:]:
            cells = [cell.strip() for cell in line.strip()[1:-1].split("|")]
            assert len(cells) == 5, line
            rows.append(cells)
    return rows


def test_every_registered_game_has_a_section() -> None:
    games = _game_sections()
    missing = [name for name in pyaz.GAMES if name not in games]
    assert not missing, f"no section of docs/results.md names `--game NAME` for {missing}"


@pytest.mark.parametrize("name", list(pyaz.GAMES))
def test_a_games_section_gives_the_defaults_figure_or_says_it_is_not_measured(name: str) -> None:
    heading, body = _game_sections()[name]
    boards = _sections(body, 3) or [(heading, body)]
    for board, text in boards:
        if NOT_MEASURED in text:
            continue
        assert FIGURE in text, f"{board}: neither {FIGURE} nor {NOT_MEASURED}"
        figure = text[text.index(FIGURE) :]
        assert DATE.search(figure), f"{board}: the default's figure has no date"
        assert RUNS.search(figure), f"{board}: the default's figure gives no number of runs"
        commands = re.findall(r"^```bash\n(.*?)^```", figure, flags=re.M | re.S)
        assert any(f"--game {name}" in command for command in commands), (
            f"{board}: no command of `--game {name}` beside the default's figure"
        )


def test_a_technique_row_names_its_technique_verdict_and_measurement() -> None:
    rows = _rows()
    assert len(rows) >= 50
    for what, tried, effect, verdict, measured in rows:
        names = re.findall(r"`([^`]+)`", what)
        if names:
            unknown = [name for name in names if name not in TECHNIQUES]
            assert not unknown, f"{tried}: {unknown} is no technique of the registry"
            assert re.sub(r"`[^`]+`|,|\s", "", what) == "", what
        else:
            assert what in KINDS, f"{tried}: {what!r} is neither a technique nor one of {KINDS}"
        assert verdict.startswith(VERDICTS), f"{tried}: verdict {verdict!r}"
        assert re.search(r"\]\(|\]\[", measured), f"{tried}: no link to its measurement"
        assert tried and effect, f"{what}: an empty cell"


def test_every_technique_of_the_registry_has_a_row() -> None:
    named = {name for row in _rows() for name in re.findall(r"`([^`]+)`", row[0])}
    missing = [name for name in TECHNIQUES if name not in named]
    assert not missing, f"techniques without a row in docs/results.md: {missing}"


def test_every_reference_link_is_defined_and_every_definition_used() -> None:
    """A reference link whose label has no definition renders as plain text, with no warning
    from Sphinx."""
    defined = set(re.findall(r"^\[([^\]]+)\]: \S+$", TEXT, flags=re.M))
    used = set(re.findall(r"\]\[([^\]]+)\]", _prose(TEXT)))
    assert used - defined == set(), "undefined"
    assert defined - used == set(), "unused"
