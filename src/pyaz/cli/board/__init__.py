"""``pyaz-board``: pyaz in the browser. A board for every game (Othello, Connect Four, Gomoku,
Go, Racing Kings, and curling as a sheet), where a person plays any player preset or watches two
play, with a live view of the search (visits, Q and prior per move as a heat map, the principal
variation, the value), and a run browser (curves, networks, saved games of a ``pyaz-selfplay``
run folder). A Flask app (:mod:`pyaz.cli.board.app`) bound to 127.0.0.1 by default; the page is
plain HTML, CSS and JavaScript shipped in the package (static/), nothing fetched from outside.
"""

from __future__ import annotations

import argparse
import sys

from pyaz.eval import presets


def build_parser() -> argparse.ArgumentParser:
    """The ``pyaz-board`` argument parser."""
    parser = argparse.ArgumentParser(
        prog="pyaz-board",
        description=(
            "pyaz in the browser: play any game against a player preset (or watch two play),\n"
            "see the search think (visits, Q and prior per move, the principal variation, the\n"
            "value), and browse a training run's curves, networks and saved games. Open the\n"
            "address it prints in a browser; Ctrl-C stops it."
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=presets.PRESETS_HELP
        + """
In the page a player is a preset above or 'human', in curling too (rule, kr:64, kr-dl:PATH,
model:PATH).

examples:
  pyaz-board                                  (then open http://127.0.0.1:8000)
  pyaz-board --port 8080 --run runs/c4        (the run browser opens runs/c4)""",
    )
    parser.add_argument(
        "--port", type=int, default=8000, help="TCP port (default 8000; 0: any free port)"
    )
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1: this machine only; the page runs "
        "engines and reads run folders for whoever reaches it)",
    )
    parser.add_argument("--run", metavar="DIR", help="a run folder to open in the run browser")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``pyaz-board``; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not 0 <= args.port <= 65535:
        parser.error(f"--port must be in 0..65535, got {args.port}")
    from werkzeug.serving import make_server

    from pyaz.cli.board import runs
    from pyaz.cli.board.app import create_app

    if args.run is not None:
        try:
            runs.run_folder(args.run)
        except ValueError as error:
            parser.error(str(error))
    app = create_app(args.run)
    try:
        server = make_server(args.host, args.port, app, threaded=True)
    except OSError as error:
        print(f"pyaz-board: cannot listen on {args.host}:{args.port} ({error})", file=sys.stderr)
        return 2
    print(f"pyaz-board: open http://{args.host}:{server.server_port} (Ctrl-C stops it)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("\npyaz-board: stopped")
    finally:
        server.server_close()
        app.extensions["pyaz_board"].close()
    return 0
