"""``python -m pyaz.cli.board``: the same as ``pyaz-board``."""

from pyaz.cli import exit_from_main
from pyaz.cli.board import main

exit_from_main(main)
