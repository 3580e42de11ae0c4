"""Games written in Python that pyaz ships as examples to copy (each registered in
:data:`pyaz.games.plugins.BUNDLED`): :mod:`~pyaz.games.examples.tictactoe`, the tutorial's."""
