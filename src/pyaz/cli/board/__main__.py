"""``python -m pyaz.cli.board``: the same as ``pyaz-board``."""

from pyaz.cli.board import main

raise SystemExit(main())
