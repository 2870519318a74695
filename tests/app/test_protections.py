"""A local server answers only to its own names, so no web page reaches it by DNS rebinding."""

from __future__ import annotations

import http.client
import re
import threading

import pytest
from werkzeug.serving import BaseWSGIServer, make_server

from companion import cli, create_app


@pytest.fixture(autouse=True)
def no_site_settings(monkeypatch):
    """The machine's own settings do not leak in."""
    for name in ("UNO_COMPANION_HOME", "UNO_COMPANION_DB", "UNO_COMPANION_SECRET_KEY",
                 "UNO_COMPANION_ALLOWED_HOSTS", "FLASK_DEBUG"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def serve(monkeypatch, tmp_path, capsys):
    """Run `uno-companion serve` on a free loopback port, send one GET per Host header, stop.

    Returns a function of (extra arguments, Host headers) giving the printed lines and,
    per Host, (status, headers, body).
    """
    def run(args, hosts):
        answers = []

        def serve_only_these(server, poll_interval=0.5):
            def ask():
                for host in hosts:
                    conn = http.client.HTTPConnection("127.0.0.1", server.server_port, timeout=10)
                    conn.request("GET", "/", headers={"Host": host.format(port=server.server_port)})
                    response = conn.getresponse()
                    answers.append((response.status, dict(response.getheaders()),
                                    response.read().decode()))
                    conn.close()

            asking = threading.Thread(target=ask)
            asking.start()
            server.timeout = 10  # handle_request() gives up after this, so the test ends
            for _ in hosts:
                server.handle_request()
            asking.join(timeout=10)

        monkeypatch.setattr(BaseWSGIServer, "serve_forever", serve_only_these)
        assert cli.main(["serve", "--db", str(tmp_path / "s.sqlite3"), "--port", "0", *args]) == 0
        assert len(answers) == len(hosts)
        return capsys.readouterr().out, answers

    return run


# -- host names --------------------------------------------------------------


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1", "[::1]", "localhost:5000",
                                  "127.0.0.1:8080"])
def test_this_machines_names_are_served(client, host):
    assert client.get("/", headers={"Host": host}).status_code == 200


def test_an_unknown_host_is_refused_with_a_page(table, client):
    token = table.token()
    before = table.counts()
    for response in (client.get("/", headers={"Host": "rebind.example"}),
                     client.post("/games", headers={"Host": "rebind.example:5000"},
                                 data={**table.new_game_form(), "csrf_token": token})):
        assert response.status_code == 400
        assert "does not answer to the name “rebind.example" in table.text(response)
        assert "--allow-host" in table.text(response)
    assert table.counts() == before


def test_names_from_the_environment_are_served(monkeypatch, tmp_path):
    monkeypatch.setenv("UNO_COMPANION_ALLOWED_HOSTS", "table.example, kitchen.lan")
    app = create_app({"DATABASE": str(tmp_path / "s.sqlite3"), "SECRET_KEY": "k"})
    client = app.test_client()
    for host, status in (("table.example", 200), ("kitchen.lan:5000", 200),
                         ("localhost", 200), ("evil.example", 400)):
        assert client.get("/", headers={"Host": host}).status_code == status, host


def test_serve_answers_to_its_address_and_allowed_names_only(serve):
    _, answers = serve(["--allow-host", "table.example", "--allow-host", "den.lan"],
                       ["127.0.0.1:{port}", "table.example:{port}", "den.lan",
                        "rebind.example:{port}"])
    assert [status for status, _, _ in answers] == [200, 200, 200, 400]


def test_serve_on_every_interface_answers_to_the_lan_addresses_it_prints(serve, monkeypatch):
    monkeypatch.setattr(cli, "lan_addresses", lambda: ["192.0.2.7", "198.51.100.3"])
    # Listen on loopback all the same: tests stay off the network.
    monkeypatch.setattr(cli, "make_server",
                        lambda host, port, app, **kw: make_server("127.0.0.1", 0, app, **kw))
    out, answers = serve(["--host", "0.0.0.0"],
                         ["192.0.2.7:{port}", "198.51.100.3:{port}", "localhost:{port}",
                          "rebind.example:{port}", "203.0.113.9:{port}"])
    port = re.search(r"http://127\.0\.0\.1:(\d+)/", out).group(1)
    assert f"http://192.0.2.7:{port}/ or http://198.51.100.3:{port}/ on another phone" in out
    assert [status for status, _, _ in answers] == [200, 200, 200, 400, 400]
