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
from pathlib import Path

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

The page may play networks of the --run folder and the --models folders only, and
engines that start a process (gtp:, uci:, gnugo, pachi, gtp-rhino, fairy-stockfish,
lichess) only with --allow-engines. Open the address it prints: it carries the
secret that the page's requests must send.

examples:
  pyaz-board                         (then open the http://127.0.0.1:8000/?token=... it prints)
  pyaz-board --port 8080 --run runs/c4 (the run browser opens runs/c4)
  pyaz-board --models runs --allow-engines (any network under runs/; GNU Go and others)""",
    )
    parser.add_argument(
        "--port", type=int, default=8000, help="TCP port (default 8000; 0: any free port)"
    )
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1: this machine only; the page reads "
        "run folders for whoever reaches it with the printed address)",
    )
    parser.add_argument(
        "--run",
        metavar="DIR",
        help="a run folder to open in the run browser (its networks may be played)",
    )
    parser.add_argument(
        "--models",
        metavar="DIR",
        action="append",
        default=[],
        help="a folder whose networks (model:PATH and the like) the page may play; repeatable",
    )
    parser.add_argument(
        "--allow-engines",
        action="store_true",
        help="let the page start engine processes (gtp:, uci:, gnugo, pachi, gtp-rhino, "
        "fairy-stockfish, lichess); off by default: a page could otherwise run commands",
    )
    return parser


def page_address(host: str, port: int, token: str) -> str:
    """The address to open: ``http://HOST:PORT/?token=TOKEN`` (127.0.0.1 for a wildcard host)."""
    if host in ("", "0.0.0.0", "::"):
        host = "127.0.0.1"
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"http://{host}:{port}/?token={token}"


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
    for folder in args.models:
        if not Path(folder).is_dir():
            parser.error(f"--models {folder}: not a folder")
    app = create_app(args.run, allow_engines=args.allow_engines, models=args.models, host=args.host)
    try:
        server = make_server(args.host, args.port, app, threaded=True)
    except OSError as error:
        print(f"pyaz-board: cannot listen on {args.host}:{args.port} ({error})", file=sys.stderr)
        return 2
    address = page_address(args.host, server.server_port, app.config["PYAZ_TOKEN"])
    print(f"pyaz-board: open {address} (Ctrl-C stops it)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("\npyaz-board: stopped")
    finally:
        server.server_close()
        app.extensions["pyaz_board"].close()
    return 0
