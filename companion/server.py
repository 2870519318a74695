"""How ``uno-companion serve`` serves the app: a production WSGI server, sized to the machine.

- **gunicorn** on Linux and macOS: one master that made the app (migrations, secret key)
  before forking ``workers`` processes, each with ``threads`` threads. Its threaded
  worker is given whole requests only (:class:`WholeRequestWorker`), so slow or
  half-sent requests cost a socket, not a thread.
- **waitress** where gunicorn cannot run (Windows; ``UNO_COMPANION_SERVER=waitress``
  forces it elsewhere): one process; it too reads each request whole before a thread
  sees it.
- **Werkzeug's development server** only with ``--debug`` (its debugger needs one process).

Every server listens on the socket :func:`listen` bound, stops on SIGTERM or Ctrl+C after
finishing the requests in flight, and sends no ``Server`` header (it names versions).
"""

from __future__ import annotations

import functools
import os
import re
import selectors
import signal
import socket
import sys
import threading
import time
from collections import deque
from dataclasses import dataclass
from email.utils import formatdate
from functools import partial
from typing import TYPE_CHECKING, Any

from .errors import StartupError
from .settings import MAX_BODY

if TYPE_CHECKING:
    from _typeshed.wsgi import WSGIApplication

#: Seconds an idle kept-alive connection is kept open (phones poll every 2 s).
KEEPALIVE = 5
#: Seconds a request has to arrive whole, from its first byte (or from the connection):
#: a client that trickles it in slower is dropped.
REQUEST_SECONDS = 5
#: Seconds the requests in flight have to finish once the server is told to stop.
GRACE = 10
#: Connections waiting to be accepted (the kernel's listen queue).
BACKLOG = 2048
#: A request head larger than this is handed to the parser, which refuses it.
HEAD_LIMIT = 64 * 1024
#: Threads per gunicorn worker: requests mostly wait on SQLite, a few overlap well.
THREADS = 4
#: Open connections per gunicorn worker: every phone of every table keeps one open
#: (polls every 2 s, KEEPALIVE 5 s), so a thousand tables hold four thousand.
CONNECTIONS = 5000


@dataclass(frozen=True)
class Settings:
    """What to run: which server, how many processes and threads."""

    kind: str  # "gunicorn", "waitress" or "werkzeug"
    workers: int
    threads: int


def cores() -> int:
    """The CPU cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def settings(debug: bool, workers: int | None, threads: int | None) -> Settings:
    """The server for this machine: a worker per core, a few threads each."""
    if debug:
        return Settings("werkzeug", 1, 1)
    if sys.platform == "win32" or os.environ.get("UNO_COMPANION_SERVER") == "waitress":
        # One process: its threads do the work of gunicorn's workers.
        return Settings("waitress", 1, threads or THREADS * (workers or cores()))
    return Settings("gunicorn", workers or cores(), threads or THREADS)


def listen(host: str, port: int) -> socket.socket:
    """A socket listening on ``host``:``port`` (0: any free port), or a StartupError."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        return socket.create_server((host, port), family=family, backlog=BACKLOG)
    except OSError as exc:
        raise StartupError(
            f"Cannot listen on {host} port {port} ({os.strerror(exc.errno or 0)}): choose another "
            "--port, or stop what uses it.") from exc


def run(app: WSGIApplication, sock: socket.socket, chosen: Settings) -> int:
    """Serve ``app`` on ``sock`` until SIGTERM or Ctrl+C; the exit status."""
    if chosen.kind == "gunicorn":
        return _gunicorn(app, sock, chosen)
    if chosen.kind == "waitress":
        return _waitress(app, sock, chosen)
    return _werkzeug(app, sock)


# -- Werkzeug (--debug) ----------------------------------------------------------------


def _werkzeug(app: WSGIApplication, sock: socket.socket) -> int:
    from werkzeug.serving import WSGIRequestHandler, make_server

    class RequestHandler(WSGIRequestHandler):
        """Werkzeug's request handler without the Server header."""

        def send_response(self, code: int, message: str | None = None) -> None:
            """Start the response as http.server does, minus the Server header."""
            self.log_request(code)
            self.send_response_only(code, message)
            self.send_header("Date", self.date_time_string())

    host, port = sock.getsockname()[:2]
    server = make_server(host, port, app, threaded=True, request_handler=RequestHandler,
                         fd=sock.fileno())
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        sock.close()
    return 0


# -- waitress ----------------------------------------------------------------------------


def _waitress(app: WSGIApplication, sock: socket.socket, chosen: Settings) -> int:
    import waitress.server

    server: Any = waitress.server.create_server(
        app, sockets=[sock], threads=chosen.threads, ident="",
        channel_timeout=KEEPALIVE, connection_limit=1000, backlog=BACKLOG,
        cleanup_interval=1, clear_untrusted_proxy_headers=False)

    stopping = threading.Event()

    def stop_gracefully(*_: object) -> None:
        # Runs in the loop's own thread. The first signal stops accepting, and a watcher
        # interrupts the loop (through this handler) once every request taken is answered;
        # the next one, or a second Ctrl+C, ends the loop at once.
        if stopping.is_set():
            raise KeyboardInterrupt
        stopping.set()
        server.accepting = False
        threading.Thread(target=_end_when_idle, args=(server,), daemon=True).start()

    for name in ("SIGTERM", "SIGINT", "SIGBREAK"):  # SIGBREAK: Windows' Ctrl+Break
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), stop_gracefully)
    server.run()  # returns on KeyboardInterrupt
    return 0


def _end_when_idle(server: Any) -> None:
    """Interrupt waitress's loop once no request is being served or sent, or after GRACE."""
    import _thread

    deadline = time.monotonic() + GRACE
    while time.monotonic() < deadline:
        busy = [c for c in list(server.active_channels.values())
                if c.request is not None or c.requests or c.total_outbufs_len]
        if not busy and not server.task_dispatcher.queue:
            break
        time.sleep(0.05)
    _thread.interrupt_main()


# -- gunicorn ----------------------------------------------------------------------------


def _gunicorn(app: WSGIApplication, sock: socket.socket, chosen: Settings) -> int:
    from gunicorn.app.base import BaseApplication
    from gunicorn.arbiter import Arbiter
    from gunicorn.http import wsgi

    # No Server header: gunicorn always writes one, naming itself.
    plain = wsgi.Response.default_headers
    wsgi.Response.default_headers = (
        lambda self: [h for h in plain(self) if not h.startswith("Server:")])

    options = {
        # gunicorn takes over the bound socket (and closes this descriptor).
        "bind": [f"fd://{sock.detach()}"],
        "workers": chosen.workers,
        "threads": chosen.threads,
        "worker_connections": CONNECTIONS,
        "worker_class": f"{__name__}.WholeRequestWorker",
        "keepalive": KEEPALIVE,
        "graceful_timeout": GRACE,
        # The app was made in this process before forking: migrations and the secret key
        # happen once, not in each worker at the same moment.
        "preload_app": True,
        # X-Forwarded-* are trusted only with --proxy (ProxyFix), never by default.
        "forwarded_allow_ips": "",
        "secure_scheme_headers": {},
        "loglevel": "warning",
    }

    class Server(BaseApplication):  # type: ignore[misc]
        def load_config(self) -> None:
            for key, value in options.items():
                self.cfg.set(key, value)

        def load(self) -> WSGIApplication:
            return app

        def run(self) -> None:
            GracefulArbiter(self).run()

    class GracefulArbiter(Arbiter):  # type: ignore[misc]
        """Ctrl+C stops as SIGTERM does: requests in flight are finished (twice: at once)."""

        def handle_int(self) -> None:
            raise StopIteration

    master = os.getpid()
    try:
        Server().run()
    except SystemExit as exc:
        if os.getpid() != master:
            raise  # a worker leaving: nothing after serving is for it to run
        return exc.code if isinstance(exc.code, int) else 0  # the arbiter exits so too
    return 0


def _whole(data: bytes | bytearray) -> bool:
    """Whether a request (head, and a body of known length) has arrived whole, or can be
    handed on as it is (too large, chunked, or waiting for "100 Continue")."""
    end = data.find(b"\r\n\r\n")
    if end < 0:
        return len(data) > HEAD_LIMIT
    head = bytes(data[:end]).lower()
    if b"\nexpect:" in head or b"\ntransfer-encoding:" in head:
        return True
    found = re.search(rb"\ncontent-length:[ \t]*(\d{1,12})", head)
    length = int(found.group(1)) if found else 0
    return length > MAX_BODY or len(data) >= end + 4 + length


#: Request headers that make a poll one for the app's full path: a body, a proxy's view of
#: the client (ProxyFix reads those), or a connection ending.
NOT_A_PLAIN_POLL = ("HTTP_CONTENT_LENGTH", "HTTP_TRANSFER_ENCODING", "HTTP_EXPECT",
                    "HTTP_UPGRADE", "HTTP_FORWARDED", "HTTP_CONNECTION")


def poll_environ(data: bytes | bytearray, server: tuple[str, int]) -> dict[str, Any] | None:
    """The WSGI environ of a request that may be a plain poll (one whole ``GET`` with no
    body, nothing unusual in its head), for the app's poll front to settle; None for any
    other request, which gunicorn parses and the app answers as usual."""
    end = data.find(b"\r\n\r\n")
    if end < 0 or end + 4 != len(data) or not data.startswith(b"GET /"):
        return None
    try:
        lines = bytes(data[:end]).decode("ascii").split("\r\n")
    except UnicodeDecodeError:
        return None
    request = lines[0].split(" ")
    if len(request) != 3 or request[2] != "HTTP/1.1" or "%" in request[1] or "#" in request[1]:
        return None
    path, _, query = request[1].partition("?")
    environ: dict[str, Any] = {}
    for line in lines[1:]:
        name, colon, value = line.partition(":")
        key = "HTTP_" + name.upper().replace("-", "_")
        if (not colon or not name.isascii() or not name.replace("-", "").isalnum()
                or key in environ or key in NOT_A_PLAIN_POLL or key.startswith("HTTP_X_FORWARDED")):
            return None  # folded, repeated or unusual: the full parser decides
        environ[key] = value.strip(" \t")
    environ.update({"REQUEST_METHOD": "GET", "SCRIPT_NAME": "", "PATH_INFO": path,
                    "QUERY_STRING": query, "SERVER_PROTOCOL": "HTTP/1.1",
                    "SERVER_NAME": str(server[0]), "SERVER_PORT": str(server[1]),
                    "wsgi.url_scheme": "http"})
    return environ


def unchanged_answer(front: Any, data: bytes | bytearray,
                     server: tuple[str, int]) -> bytes | None:
    """The whole ``304`` answer to ``data`` when it is a poll the app's front
    (companion.live.PollFront) settles; else None."""
    environ = poll_environ(data, server)
    if environ is None or "HTTP_IF_NONE_MATCH" not in environ:
        return None
    try:
        tag = front.unchanged(environ)
    except Exception:  # noqa: BLE001 - the app's full path answers it, and says what failed
        return None
    if tag is None:
        return None
    headers = [("Date", formatdate(usegmt=True)), ("Connection", "keep-alive"),
               ("ETag", f'"{tag}"'), *front.headers]
    return ("HTTP/1.1 304 NOT MODIFIED\r\n"  # as Flask words it
            + "".join(f"{k}: {v}\r\n" for k, v in headers) + "\r\n").encode("latin-1")


@functools.cache
def _worker_class() -> type:
    from gunicorn.workers.gthread import ThreadWorker

    class WholeRequestWorker(ThreadWorker):  # type: ignore[misc]
        """gunicorn's threaded worker, given whole requests only.

        The stock worker hands a connection to a thread as soon as it is readable, and
        the thread then blocks until the request is complete: 400 half-sent requests
        hold every thread for ever. Here the worker's poller reads each request into a
        buffer first (head, and a body of known length), drops one that is not whole
        within REQUEST_SECONDS, and only then lets a thread parse it from the buffer.
        """

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.arriving: deque[Any] = deque()  # oldest first: one deadline length

        def init_signals(self) -> None:
            super().init_signals()
            # Ctrl+C reaches every process of the terminal's group: finish, as on SIGTERM.
            signal.signal(signal.SIGINT, self.handle_exit)

        def enqueue_req(self, conn: Any) -> None:
            if getattr(conn, "whole", False) or (
                    conn.parser is not None and conn.parser.unreader.buf.getvalue()):
                conn.whole = False  # the next request on this connection is read again
                super().enqueue_req(conn)
                return
            conn.sock.setblocking(False)
            conn.arrived = bytearray()
            conn.timeout = time.monotonic() + REQUEST_SECONDS
            self.arriving.append(conn)
            self.poller.register(conn.sock, selectors.EVENT_READ, partial(self.on_arriving, conn))

        def on_arriving(self, conn: Any, client: Any) -> None:
            try:
                data = conn.sock.recv(65536)
            except BlockingIOError:
                return
            except OSError:
                data = b""
            conn.arrived += data
            if data and not _whole(conn.arrived):
                return
            self.poller.unregister(client)
            self.arriving.remove(conn)
            if not data:  # the client went away
                self.nr_conns -= 1
                conn.close()
                return
            if self.answer_here(conn):
                return
            conn.whole = conn.data_ready = True
            super().enqueue_req(conn)

        def answer_here(self, conn: Any) -> bool:
            """Answer a poll that changed nothing in this loop, without a thread or
            gunicorn's parser (most requests are such polls); the connection then waits
            for its next request as after any other answer."""
            front = getattr(self.wsgi, "wsgi_app", None)  # not when wrapped (--proxy)
            if not hasattr(front, "unchanged") or not self.alive:
                return False
            answer = unchanged_answer(front, conn.arrived, conn.server)
            if answer is None:
                return False
            try:
                sent = conn.sock.send(answer)
            except OSError:
                sent = 0
            if sent != len(answer):  # a full send buffer on a 300-byte answer: give up
                self.nr_conns -= 1
                conn.close()
                return True
            conn.arrived = bytearray()
            conn.set_timeout()
            self.keepalived_conns.append(conn)
            self.poller.register(conn.sock, selectors.EVENT_READ,
                                 partial(self.on_client_socket_readable, conn))
            return True

        def handle(self, conn: Any) -> Any:
            arrived, conn.arrived = getattr(conn, "arrived", b""), b""
            if arrived:
                conn.sock.setblocking(True)
                conn.init()
                conn.parser.unreader.unread(bytes(arrived))
            return super().handle(conn)

        def murder_pending(self) -> None:
            super().murder_pending()
            now = time.monotonic()
            while self.arriving and self.arriving[0].timeout <= now:
                conn = self.arriving.popleft()
                try:
                    self.poller.unregister(conn.sock)
                except (OSError, KeyError, ValueError):
                    pass
                self.nr_conns -= 1
                conn.close()

    return WholeRequestWorker


def __getattr__(name: str) -> Any:
    # gunicorn imports its worker class by name; made on demand, as gunicorn is not
    # installed where it cannot run.
    if name == "WholeRequestWorker":
        return _worker_class()
    raise AttributeError(name)
