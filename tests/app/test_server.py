"""`uno-companion serve` as production: gunicorn's processes share sessions, slow clients cost
no thread, a stop finishes the requests in flight, and waitress (Windows) works the same way.

Each test runs the real command in a subprocess (tests/app/live_server.py ServerProcess).
"""

from __future__ import annotations

import http.client
import os
import signal
import socket
import threading
import time
import urllib.parse

import pytest
from live_server import TIMEOUT, Phone, ServerProcess, children, together
from test_crash import Player, check_stored

from companion import cli

#: Half-sent requests held open at once against the server.
HALF_SENT = 400


@pytest.fixture
def start(data_dir):
    """Start `serve` with extra arguments (and environment); every server is killed after."""
    servers: list[ServerProcess] = []

    def run(*args: str, env: dict[str, str] | None = None) -> ServerProcess:
        server = ServerProcess(db=data_dir / "s.sqlite3", home=data_dir / "home",
                               secret="server-test-secret", log=data_dir / "server.log",
                               args=args, env=env)
        servers.append(server)
        return server.start()

    yield run
    for server in servers:
        server.kill()


def get(port: int, path: str = "/") -> tuple[int, dict[str, str]]:
    """GET a page on a new connection: its status and headers. A server that could not
    answer it (its threads all held) fails it by the connection's timeout: how quickly it
    answers is the machine's, not asserted here."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
    try:
        conn.request("GET", path, headers={"Host": f"127.0.0.1:{port}"})
        response = conn.getresponse()
        response.read()
        return response.status, dict(response.getheaders())
    finally:
        conn.close()


@pytest.mark.parametrize("kind", ["gunicorn", "waitress"])
def test_half_sent_requests_do_not_stop_a_page(start, kind):
    server = start("--workers", "2", "--threads", "2",
                   env={"UNO_COMPANION_SERVER": kind} if kind == "waitress" else None)
    held: list[socket.socket] = []
    try:
        for n in range(HALF_SENT):
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=TIMEOUT)
            held.append(sock)
            # A request line and part of the headers, never the blank line that ends them.
            sock.sendall(f"GET /?n={n} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".encode())
        for _ in range(3):
            status, headers = get(server.port)
            assert status == 200, (status, server.log_tail())
            # No banner naming the server or its version, whichever server it is.
            assert "Server" not in headers
        if kind == "gunicorn":
            # A request not whole within server.REQUEST_SECONDS is dropped, unanswered.
            assert held[0].recv(100) == b""
    finally:
        for sock in held:
            sock.close()
    assert server.tracebacks() == []


def test_two_workers_share_sessions_and_see_every_game(start):
    server = start("--workers", "2", "--threads", "1")
    phones = [Phone(server.port, f"phone-{n}") for n in range(3)]
    games = [phone.new_game(["Ann", "Bob"], target="100000") for phone in phones]

    def walk(phone: Phone, game_id: int) -> None:
        # Forms are served by one process and posted, on new connections, to whichever
        # process accepts: the session (and so its CSRF token and device) must hold.
        for mark in range(1, 9):
            assert phone.get(f"/games/{game_id}").status == 200
            saved = phone.record(game_id, {"out": "0", "pts-1": str(mark)})
            assert saved.status == 303, (saved.status, saved.words())

    together(*(lambda p=p, g=g: walk(p, g) for p, g in zip(phones, games, strict=True)))
    for phone in phones:
        statuses = [r.status for r in phone.replies]
        assert 400 not in statuses and not phone.server_errors(), statuses
    assert server.tracebacks() == []


@pytest.mark.parametrize(("kind", "sig"), [("gunicorn", signal.SIGINT),
                                            ("waitress", signal.SIGTERM)])
def test_a_stop_answers_requests_in_flight_and_loses_no_saved_hand(start, kind, sig):
    env = {"UNO_COMPANION_SERVER": kind} if kind == "waitress" else None
    server = start("--workers", "2", env=env)
    players = []
    for n in range(4):
        phone = Phone(server.port, f"phone-{n}")
        players.append(Player(phone, phone.new_game(["Ann", "Bob", "Cy"], target="100000")))
    # The last phone's save is sent in two halves: the first before the stop, the rest after.
    *players, late = players
    late.marks += 1
    review = late.phone.review(late.phone.picker(late.game_id, 0),
                               {"out": "0", "pts-1": str(late.marks), "pts-2": "0"})
    body = urllib.parse.urlencode(late.phone.save_form(review).pairs())
    form = late.phone.save_form(review)
    cookie = "; ".join(f"{k}={v}" for k, v in late.phone.cookies.items())
    request = (f"POST {form.action} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
               f"Cookie: {cookie}\r\nContent-Type: application/x-www-form-urlencoded\r\n"
               f"Content-Length: {len(body)}\r\n\r\n{body}").encode()
    in_flight = socket.create_connection(("127.0.0.1", server.port), timeout=TIMEOUT)
    in_flight.sendall(request[:len(request) // 2])

    stop, saved = threading.Event(), threading.Semaphore(0)
    status: list[int] = []

    def stop_when_busy() -> None:
        try:
            for _ in range(6):
                saved.acquire(timeout=TIMEOUT)
            assert server.process is not None
            # Ctrl+C in a terminal signals every process of the group: master and workers.
            for pid in [server.process.pid, *(children(server.process.pid)
                                              if sig == signal.SIGINT else [])]:
                os.kill(pid, sig)
            time.sleep(0.3)
            in_flight.sendall(request[len(request) // 2:])
            status.append(server.process.wait(timeout=TIMEOUT))
        finally:
            stop.set()

    together(*(lambda p=p: p.record_until(stop, saved) for p in players), stop_when_busy)
    answer = in_flight.recv(4096)
    in_flight.close()
    assert answer.startswith(b"HTTP/1.1 303"), answer[:200]
    late.acknowledged.append(late.marks)
    assert status == [0], server.log_tail()
    errors = [e for p in players for e in p.phone.server_errors()]
    assert not errors, errors

    server.start()
    for p in players:
        p.phone.port = server.port
    check_stored(server, [*players, late], "after a stop")
    assert server.tracebacks() == []


def test_serve_behind_a_proxy_trusts_its_forwarded_host_only_when_told(monkeypatch, tmp_path):
    ran = []
    monkeypatch.setattr(cli.server, "run",
                        lambda app, sock, chosen: sock.close() or ran.append(app) or 0)
    monkeypatch.delenv("UNO_COMPANION_ALLOWED_HOSTS", raising=False)
    for proxies in ("0", "1"):
        assert cli.main(["serve", "--db", str(tmp_path / "s.sqlite3"), "--port", "0",
                         "--proxy", proxies, "--allow-host", "table.example"]) == 0
    direct, proxied = (app.test_client() for app in ran)
    forwarded = {"X-Forwarded-Host": "rebind.example", "X-Forwarded-For": "203.0.113.9"}
    # Without --proxy, X-Forwarded-Host is anyone's header: the Host is what counts.
    assert direct.get("/", headers={"Host": "localhost", **forwarded}).status_code == 200
    assert proxied.get("/", headers={"Host": "localhost", **forwarded}).status_code == 400
    public = {"X-Forwarded-Host": "table.example", "X-Forwarded-Proto": "https"}
    assert proxied.get("/", headers={"Host": "127.0.0.1", **public}).status_code == 200



def test_a_throwaway_database_outlives_a_worker_and_goes_with_the_server(start, data_dir):
    temporary = data_dir / "tmp"
    temporary.mkdir()
    server = start("--db", ":memory:", "--workers", "2", env={"TMPDIR": str(temporary)})
    phone = Phone(server.port)
    game_id = phone.new_game(["Ann", "Bob"])
    assert server.process is not None
    # A worker that exits (as one restarted does) runs its exit handlers; gunicorn starts
    # another.
    os.kill(children(server.process.pid)[0], signal.SIGTERM)
    time.sleep(0.5)
    for _ in range(6):
        assert phone.get(f"/games/{game_id}").status == 200
    assert len(list(temporary.iterdir())) == 1
    assert server.stop() == 0
    assert list(temporary.iterdir()) == []


def test_a_port_in_use_stops_the_start_with_one_line(tmp_path, capsys):
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        assert cli.main(["serve", "--db", str(tmp_path / "s.sqlite3"),
                         "--port", str(port)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert f"Cannot listen on 127.0.0.1 port {port} (Address already in use)" in err


def read_answer(sock: socket.socket) -> tuple[list[str], bytes]:
    """One answer on a kept-alive connection: its head's lines and its body."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, "the server closed the connection"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    length = next((int(line.split(":", 1)[1]) for line in lines
                   if line.lower().startswith("content-length:")), 0)
    while len(body) < length:
        body += sock.recv(65536)
    return lines, body


def test_a_served_poll_that_changed_nothing_is_answered_as_the_app_answers_it(start):
    server = start("--workers", "1", "--threads", "1")
    phone = Phone(server.port)
    game = phone.new_game(["Ann", "Bob"])
    tag = phone.get(f"/games/{game}").headers["etag"]
    cookie = "; ".join(f"{k}={v}" for k, v in phone.cookies.items())
    poll = (f"GET /games/{game} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
            f"Cookie: {cookie}\r\nHX-Request: true\r\nIf-None-Match: {tag}\r\n")
    with socket.create_connection(("127.0.0.1", server.port), timeout=TIMEOUT) as sock:
        answers = []
        # The same poll three times on one kept-alive connection: answered in the worker's
        # loop, then (a header the loop leaves to gunicorn's parser) by the app, then
        # in the loop again; then the page itself, on the same connection.
        for extra in ("", "Connection: keep-alive\r\n", ""):
            sock.sendall((poll + extra + "\r\n").encode())
            answers.append(read_answer(sock))
        sock.sendall(f"GET /games/{game} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                     f"Cookie: {cookie}\r\n\r\n".encode())
        page, body = read_answer(sock)
    heads = [{line.split(": ", 1)[0]: line.split(": ", 1)[1] for line in lines[1:]}
             for lines, _ in answers]
    for lines, body304 in answers:
        assert lines[0] == "HTTP/1.1 304 NOT MODIFIED" and body304 == b""
    for head in heads:
        head.pop("Date")
    assert heads[0] == heads[1] == heads[2]
    assert heads[0]["Connection"] == "keep-alive" and heads[0]["ETag"] == tag
    assert page[0] == "HTTP/1.1 200 OK" and b"Ann" in body
    assert server.tracebacks() == []
