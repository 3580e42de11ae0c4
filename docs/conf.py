"""Sphinx configuration of pyaz's documentation site: MyST Markdown pages, autodoc for the API
reference, the furo theme. Build it with warnings as errors:

    python -m sphinx -W -b html docs docs/_build/html
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyaz

project = "pyaz"
author = "the pyaz authors"
release = pyaz.__version__
extensions = ["myst_parser", "sphinx.ext.autodoc"]
source_suffix = {".md": "markdown"}
exclude_patterns = ["_build"]
html_theme = "furo"
html_title = f"pyaz {release}"
myst_heading_anchors = 3
autodoc_member_order = "bysource"
autodoc_typehints = "description"

BOARD_IMAGES = "<!-- board-screenshots -->"


def _board_screenshots(app: Any, docname: str, source: list[str]) -> None:
    """Puts the browser tests' screenshots (``docs/img/board/*.png``, written by the browser
    tests) in place of the marker of the board page, or a sentence saying they are missing."""
    if docname != "board" or BOARD_IMAGES not in source[0]:
        return
    images = sorted((Path(app.srcdir) / "img" / "board").glob("*.png"))
    if images:
        text = "\n\n".join(f"![{path.stem}](img/board/{path.name})" for path in images)
    else:
        text = "(The screenshots appear here once the browser tests have written them.)"
    source[0] = source[0].replace(BOARD_IMAGES, text)


def setup(app: Any) -> None:
    app.connect("source-read", _board_screenshots)
