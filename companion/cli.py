"""`uno-companion`: start the app for a table, or prepare its database."""

from __future__ import annotations

import argparse
import socket
import sys
from collections.abc import Sequence

from flask import Flask
from werkzeug.debug import DebuggedApplication
from werkzeug.serving import make_server

from . import create_app
from .errors import StartupError


def lan_address() -> str | None:
    """This machine's address on the local network, for other phones to use (None if unknown)."""
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return None
    addresses = [str(info[4][0]) for info in infos]
    return next((a for a in addresses if not a.startswith("127.")), None)


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line and run the chosen command."""
    parser = argparse.ArgumentParser(prog="uno-companion", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="start the companion (default: this machine only)")
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on; 0.0.0.0 lets other phones on the LAN connect")
    serve.add_argument("--port", type=int, default=5000)
    serve.add_argument("--db", help="SQLite file (default: the user data folder); "
                                    ":memory: for a throwaway database")
    serve.add_argument("--debug", action="store_true",
                       help="show Werkzeug's debugger on errors (never where others can connect)")
    init = commands.add_parser("init-db", help="create or migrate the database, then exit")
    init.add_argument("--db", help="SQLite file (default: the user data folder)")
    args = parser.parse_args(argv)

    if args.command == "init-db" and args.db == ":memory:":
        return _fail("a throwaway database (--db :memory:) is made by serve and removed when "
                     "it stops: there is nothing to prepare")
    try:
        app = create_app({"DATABASE": args.db} if args.db else None)
    except StartupError as exc:
        return _fail(str(exc))
    if args.command == "init-db":
        readonly = " (read-only)" if app.config["DATABASE_READONLY"] else ""
        print(f"Database ready at {app.config['DATABASE']}{readonly}")
        return 0
    return _serve(app, args.host, args.port, args.debug)


def _serve(app: Flask, host: str, port: int, debug: bool) -> int:
    # Only --debug turns debugging on: not FLASK_DEBUG, which Flask reads from the environment.
    app.debug = debug
    wsgi = DebuggedApplication(app, evalex=True) if debug else app
    server = make_server(host, port, wsgi, threaded=True)
    port = server.server_port
    if app.config.get("DATABASE_THROWAWAY"):
        print("UNO companion: a throwaway database, the scores are not kept once it stops")
    elif app.config["DATABASE_READONLY"]:
        print(f"UNO companion: scores read from {app.config['DATABASE']} "
              "(read-only: they cannot be changed)")
    else:
        print(f"UNO companion: scores kept in {app.config['DATABASE']}")
    if isinstance(wsgi, DebuggedApplication):
        pin = f"asks for PIN {wsgi.pin}" if wsgi.pin else "has no PIN (WERKZEUG_DEBUG_PIN=off)"
        print(f"Debug mode: errors show Werkzeug's debugger; its console {pin}. "
              "Never use it where others can connect.")
    if host in ("0.0.0.0", "::"):
        print(f"Open http://127.0.0.1:{port}/ here", end="")
        address = lan_address()
        print(f", or http://{address}:{port}/ on another phone" if address
              else ", or this machine's LAN address on another phone")
    else:
        print(f"Open http://{host}:{port}/  (add --host 0.0.0.0 for other phones)")
    sys.stdout.flush()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


def _fail(message: str) -> int:
    print(f"uno-companion: {message}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
