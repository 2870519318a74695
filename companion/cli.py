"""`uno-companion`: start the app for a table, or prepare its database."""

from __future__ import annotations

import argparse
import socket
import sys
from collections.abc import Callable, Sequence

from flask import Flask
from werkzeug.debug import DebuggedApplication
from werkzeug.middleware.proxy_fix import ProxyFix

from . import backup, create_app, server
from .db import get_pool, open_db
from .errors import StartupError
from .settings import default_database
from .store import access

#: Addresses that listen on every network interface.
ANY_ADDRESS = ("0.0.0.0", "::")


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses on the local network, for other phones (may be none)."""
    found: list[str] = []
    try:
        found += [str(info[4][0]) for info in
                  socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
    except OSError:
        pass
    # Many systems map their own name to 127.0.1.1 only; the default route's interface is
    # the LAN one. Connecting a UDP socket only chooses a route: nothing is sent.
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))
            found.append(str(probe.getsockname()[0]))
    except OSError:
        pass
    return list(dict.fromkeys(a for a in found if not a.startswith(("127.", "0."))))


def url_host(address: str) -> str:
    """An address as it appears in a URL or a Host header (IPv6 in brackets)."""
    return f"[{address}]" if ":" in address else address


def _at_least(low: int) -> Callable[[str], int]:
    """An argparse type: a whole number no less than ``low``."""
    def number(text: str) -> int:
        if not text.isdigit() or int(text) < low:
            raise argparse.ArgumentTypeError(f"must be a whole number from {low}")
        return int(text)
    return number


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
    serve.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                       help="also answer to this host name (repeatable; see also "
                            "UNO_COMPANION_ALLOWED_HOSTS)")
    serve.add_argument("--debug", action="store_true",
                       help="run Werkzeug's development server, showing its debugger on errors "
                            "(never where others can connect)")
    serve.add_argument("--workers", type=_at_least(1), metavar="N",
                       help="server processes (default: one per CPU core)")
    serve.add_argument("--threads", type=_at_least(1), metavar="N",
                       help=f"threads per process (default: {server.THREADS})")
    serve.add_argument("--proxy", type=_at_least(0), default=0, metavar="N",
                       help="behind N reverse proxies: trust their X-Forwarded-For, -Proto "
                            "and -Host headers (default: 0, trust none)")
    init = commands.add_parser("init-db", help="create or migrate the database, then exit")
    init.add_argument("--db", help="SQLite file (default: the user data folder)")
    links = commands.add_parser(
        "links", help="print the scorekeeper's link of every game no phone keeps (games from "
                      "before share links, or forgotten by every scorekeeper)")
    links.add_argument("--db", help="SQLite file (default: the user data folder)")
    links.add_argument("--address", default="http://127.0.0.1:5000",
                       help="the address phones open the app at (default: %(default)s)")
    saving = commands.add_parser(
        "backup", help="copy the database to FILE, safely while the server runs")
    saving.add_argument("file", metavar="FILE")
    saving.add_argument("--db", help="SQLite file (default: the user data folder)")
    putting_back = commands.add_parser(
        "restore", help="put the backup FILE back in place of the database (stop the "
                        "server first)")
    putting_back.add_argument("file", metavar="FILE")
    putting_back.add_argument("--db", help="SQLite file (default: the user data folder)")
    args = parser.parse_args(argv)

    if args.command != "serve" and args.db == ":memory:":
        return _fail("a throwaway database (--db :memory:) is made by serve and removed when "
                     "it stops: there is nothing to prepare")
    if args.command == "backup":
        return _backup(args.file, args.db or default_database())
    if args.command == "restore":
        return _restore(args.file, args.db or default_database())
    try:
        app = create_app({"DATABASE": args.db} if args.db else None)
    except StartupError as exc:
        return _fail(str(exc))
    if args.command == "init-db":
        readonly = " (read-only)" if app.config["DATABASE_READONLY"] else ""
        print(f"Database ready at {app.config['DATABASE']}{readonly}")
        return 0
    if args.command == "links":
        return _print_links(app, args.address)
    chosen = server.settings(args.debug, args.workers, args.threads)
    try:
        sock = server.listen(args.host, args.port)
    except StartupError as exc:
        return _fail(str(exc))
    # Held until the process ends: `restore` refuses while it is (companion/backup.py).
    serving = backup.hold_serving_lock(app.config["DATABASE"])
    try:
        return _serve(app, sock, args.host, args.allow_host, chosen, args.proxy)
    finally:
        if serving is not None:
            serving.close()


def _serve(app: Flask, sock: socket.socket, host: str, allow: list[str],
           chosen: server.Settings, proxies: int) -> int:
    debug = chosen.kind == "werkzeug"
    # Only --debug turns debugging on: not FLASK_DEBUG, which Flask reads from the environment.
    app.debug = debug
    if proxies:
        # The client's address, scheme and host as the nearest N proxies saw them.
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies)
    lan = lan_addresses() if host in ANY_ADDRESS else []
    heard = lan if host in ANY_ADDRESS else [url_host(host)]
    app.config["ALLOWED_HOSTS"] = list(dict.fromkeys(
        [*app.config["ALLOWED_HOSTS"], *heard, *allow]))
    wsgi = DebuggedApplication(app, evalex=True) if debug else app
    port = sock.getsockname()[1]
    if app.config.get("DATABASE_THROWAWAY"):
        print("UNO companion: a throwaway database, the scores are not kept once it stops")
    elif app.config["DATABASE_READONLY"]:
        print(f"UNO companion: scores read from {app.config['DATABASE']} "
              "(read-only: they cannot be changed)")
    else:
        print(f"UNO companion: scores kept in {app.config['DATABASE']}")
    unshared = len(_unshared(app))
    if unshared:
        print(f"{unshared} game(s) are on no phone's list (stored before share links, or "
              "forgotten): `uno-companion links` prints their scorekeeper's links.")
    if isinstance(wsgi, DebuggedApplication):
        pin = f"asks for PIN {wsgi.pin}" if wsgi.pin else "has no PIN (WERKZEUG_DEBUG_PIN=off)"
        print(f"Debug mode: errors show Werkzeug's debugger; its console {pin}. "
              "Never use it where others can connect.")
    if host in ANY_ADDRESS:
        others = " or ".join(f"http://{address}:{port}/" for address in lan)
        print(f"Open http://127.0.0.1:{port}/ here, or " +
              (f"{others} on another phone" if others
               else "this machine's LAN address on another phone (add it with --allow-host)"))
    else:
        print(f"Open http://{url_host(host)}:{port}/  (add --host 0.0.0.0 for other phones)")
    if not debug:
        print(f"Serving with {chosen.kind}: {chosen.workers} process(es) of {chosen.threads} "
              "threads; Ctrl+C stops it once the requests under way are answered.")
    sys.stdout.flush()
    # Nothing the master opened is shared with the processes it forks (db.ConnectionPool
    # also checks the process id).
    with app.app_context():
        get_pool().close()
    return server.run(wsgi, sock, chosen)


def _unshared(app: Flask) -> list[tuple[int, str]]:
    """Games no phone keeps, with their scorekeeper's token."""
    db = open_db(app.config["DATABASE"], app.config["DATABASE_READONLY"])
    try:
        return list(access.unshared(db))
    finally:
        db.close()


def _print_links(app: Flask, address: str) -> int:
    found = _unshared(app)
    if not found:
        print("Every game is on some scorekeeper's phone: no link to print.")
    for game_id, token in found:
        print(f"game {game_id}: {address.rstrip('/')}/join/{token}")
    return 0


def _backup(file: str, database: str) -> int:
    try:
        games = backup.backup(database, file)
    except (backup.BackupError, OSError) as exc:
        return _fail(f"no backup made: {exc}")
    print(f"Backed up {games} game(s) from {database} to {file}")
    return 0


def _restore(file: str, database: str) -> int:
    try:
        games, kept = backup.restore(file, database)
    except (backup.BackupError, OSError) as exc:
        return _fail(f"nothing restored: {exc}")
    before = f" (what it held before is kept in {database}.before-restore)" if kept else ""
    print(f"Restored {games} game(s) from {file} to {database}{before}; start the server "
          "again.")
    return 0


def _fail(message: str) -> int:
    print(f"uno-companion: {message}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
