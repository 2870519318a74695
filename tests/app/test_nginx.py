"""Two `serve` processes behind nginx hashing on the game (docs/scaling.md): each game is
always served by the same process, and live polls pass through as 304s.

Skipped where nginx is not installed (the project installs no system package): on Debian,
``apt-get install nginx-light``.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest
from live_server import TIMEOUT, Phone, ServerProcess

NGINX = shutil.which("nginx") or next(
    (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if Path(p).exists()), None)
pytestmark = pytest.mark.skipif(NGINX is None, reason="nginx is not installed")

GAMES = 16

CONFIG = """
daemon off;
worker_processes 1;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log;
events {{ worker_connections 256; }}
http {{
    access_log off;
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
    # The game a URL is about; any other URL is spread by itself.
    map $uri $game {{
        ~^/games/(?<id>\\d+) $id;
        default $request_uri;
    }}
    upstream app {{
        hash $game consistent;
        server 127.0.0.1:{first};
        server 127.0.0.1:{second};
        keepalive 8;
    }}
    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass http://app;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_set_header X-Forwarded-Host $http_host;
            add_header X-Upstream $upstream_addr always;
        }}
    }}
}}
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_each_game_is_served_by_one_process_behind_nginx(data_dir):
    # Two processes over one database file: as two machines would each hold their shard.
    apps = [ServerProcess(db=data_dir / "s.sqlite3", home=data_dir / "home",
                          secret="nginx-test-secret", log=data_dir / f"app{n}.log",
                          args=["--workers", "1", "--proxy", "1"]) for n in range(2)]
    nginx = None
    try:
        for app in apps:
            app.start()
        port = free_port()
        (data_dir / "nginx.conf").write_text(CONFIG.format(
            tmp=data_dir, first=apps[0].port, second=apps[1].port, port=port))
        nginx = subprocess.Popen([NGINX, "-p", str(data_dir), "-c", str(data_dir / "nginx.conf")],
                                 stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + TIMEOUT
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert nginx.poll() is None and time.monotonic() < deadline, (
                    (data_dir / "error.log").read_text())
                time.sleep(0.05)

        phone = Phone(port)
        served_by: dict[int, set[str]] = {}
        for _ in range(GAMES):
            game_id = phone.new_game(["Ann", "Bob"])
            page = phone.get(f"/games/{game_id}")
            assert page.status == 200
            # The page's poller, with the tag it holds: nothing changed.
            unchanged = phone.request("GET", f"/games/{game_id}", extra={
                "If-None-Match": page.headers["etag"], "HX-Request": "true"})
            assert unchanged.status == 304, unchanged.status
            served_by[game_id] = {r.headers.get("x-upstream", "?")
                                  for r in phone.replies[-2:]}
        assert all(len(upstreams) == 1 for upstreams in served_by.values()), served_by
        assert len(set().union(*served_by.values())) == 2, served_by
        assert not phone.server_errors()
    finally:
        if nginx is not None:
            nginx.terminate()
            nginx.wait(timeout=TIMEOUT)
        for app in apps:
            app.kill()

