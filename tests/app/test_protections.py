"""What every local server needs: it answers only to its own names (no DNS rebinding), sends
security headers and no version banner, and refuses request bodies larger than any form."""

from __future__ import annotations

import base64
import hashlib
import http.client
import re
import threading
from pathlib import Path
from urllib.parse import urlencode

import pytest
from werkzeug.datastructures import MultiDict
from werkzeug.serving import make_server

import engine
from companion import MAX_BODY, cli, create_app

STATIC = Path(__file__).resolve().parents[2] / "static"
#: What a response must carry, and the directives the policy must hold.
HEADERS = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "same-origin",
           "X-Frame-Options": "DENY"}
POLICY = {"default-src 'self'", "frame-ancestors 'none'", "form-action 'self'",
          "base-uri 'none'", "object-src 'none'"}
#: Scripts and styles: the app's files, and one inline element of each named by its hash
#: (app.js and the stylesheet, on a phone's first page).
INLINE = {kind: re.compile(kind + r"-src 'self' 'sha256-([A-Za-z0-9+/]{43}=)'")
          for kind in ("script", "style")}


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

        def serve_only_these(app, sock, chosen):
            # The app as the command made it, served on the socket it bound; the server
            # itself (gunicorn) is tested in a subprocess (test_server.py).
            port = sock.getsockname()[1]
            server = make_server("127.0.0.1", port, app, fd=sock.fileno())
            sock.close()

            def ask():
                for host in hosts:
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                    conn.request("GET", "/", headers={"Host": host.format(port=port)})
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
            server.server_close()
            return 0

        monkeypatch.setattr(cli.server, "run", serve_only_these)
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
        assert response.headers["Content-Security-Policy"]
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
    listen = cli.server.listen
    monkeypatch.setattr(cli.server, "listen", lambda host, port: listen("127.0.0.1", 0))
    out, answers = serve(["--host", "0.0.0.0"],
                         ["192.0.2.7:{port}", "198.51.100.3:{port}", "localhost:{port}",
                          "rebind.example:{port}", "203.0.113.9:{port}"])
    port = re.search(r"http://127\.0\.0\.1:(\d+)/", out).group(1)
    assert f"http://192.0.2.7:{port}/ or http://198.51.100.3:{port}/ on another phone" in out
    assert [status for status, _, _ in answers] == [200, 200, 200, 400, 400]


# -- headers -----------------------------------------------------------------


def assert_protected(response, name):
    for header, value in HEADERS.items():
        assert response.headers.get(header) == value, (name, header)
    policy = {d.strip() for d in response.headers["Content-Security-Policy"].split(";")}
    assert POLICY <= policy, name
    for kind, allowed in INLINE.items():
        directives = [d for d in policy if d.startswith(f"{kind}-src")]
        assert len(directives) == 1 and allowed.fullmatch(directives[0]), name
    assert not any("unsafe" in d for d in policy), name


def test_every_response_carries_the_security_headers(table, client):
    game_id = table.create_game(["Ann", "Bob"])
    responses = {
        "home": client.get("/"), "scoreboard": client.get(f"/games/{game_id}"),
        "picker": client.get(f"/games/{game_id}/hands/new?out=0"),
        "review": table.review(game_id, 0, {1: "red-7"}),
        "redirect": client.post("/games", data=table.new_game_form()),
        "static": client.get("/static/app.js"), "not found": client.get("/nowhere"),
        "expired form": client.post(f"/games/{game_id}/delete"),
        "preview": client.post(f"/games/{game_id}/hands/preview",
                               data=table.hand_fields(0, {1: "red-1"}),
                               headers={"HX-Request": "true", "X-CSRF-Token": table.token()}),
    }
    for name, response in responses.items():
        assert_protected(response, name)
        response.close()


def sha256(text: str) -> str:
    return base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()


def test_pages_hold_no_inline_script_or_style_but_their_own_files(table, client):
    # The policy refuses them: a page that had any would break in the browser. The only
    # ones are app.js and the stylesheet, inline on a phone's first page (no second round
    # trip), and the policy names exactly them by their hashes.
    game_id = table.create_game(["Ann", "Bob", "Cy"])
    table.record(game_id, 0, {1: "red-7 wild", 2: 9})
    stylesheet = re.sub(r"/\*.*?\*/", "", (STATIC / "app.css").read_text(), flags=re.DOTALL)
    script = (STATIC / "app.js").read_text()
    paths = ("/", "/games/new", f"/games/{game_id}", f"/games/{game_id}/hands",
             f"/games/{game_id}/hands/new?out=1", f"/games/{game_id}/delete", "/nowhere")
    for path in paths:
        response = client.get(path)
        source = table.html(response)
        assert re.findall(r"(?s)<style>(.*?)</style>", source) == [stylesheet], path
        assert re.findall(r"(?s)<script(?![^>]*\ssrc=)[^>]*>(.*?)</script>", source) == [script]
        assert source.count("<style") == 1 and source.count("<script") == 1, path
        assert not re.search(r"\sstyle=", source), path
        assert not re.search(r"\son[a-z]+=|javascript:|hx-on|js:", source), path
        policy = response.headers["Content-Security-Policy"]
        for kind, text in (("style", stylesheet), ("script", script)):
            allowed = INLINE[kind].search(policy)
            assert allowed and allowed[1] == sha256(text), (path, kind)
    # A phone that holds both files (its cookie says so) is sent links to them instead.
    kept = client.get("/")
    value = re.search(r'data-kept="([0-9a-f]+)"', table.html(kept))
    assert value
    client.set_cookie("kept", value[1])
    for path in paths:
        source = table.html(client.get(path))
        assert "<style" not in source and not re.search(r"\sstyle=", source), path
        assert re.findall(r"<script(?![^>]*\ssrc=)", source) == [], path
        assert re.search(r'<link rel="stylesheet" href="/static/app\.[0-9a-f]{10}\.css">', source)
    # A part htmx swaps in (a poll's changed page among them) is set up by the page's own.
    client.delete_cookie("kept")
    part = client.get(f"/games/{game_id}", headers={"HX-Request": "true"})
    assert part.status_code == 200
    assert "<style" not in table.html(part) and "<script" not in table.html(part)


def test_serve_sends_no_server_banner(serve):
    _, [(status, headers, body)] = serve([], ["localhost:{port}"])
    assert status == 200 and "UNO companion" in body
    # The Server header of the real servers is checked in test_server.py.
    assert "Werkzeug" not in str(headers.get("X-Powered-By", ""))
    assert headers["X-Frame-Options"] == "DENY"


# -- request bodies ------------------------------------------------------------


def test_a_body_larger_than_the_limit_is_refused_with_a_page(table, client):
    before = table.counts()
    token = table.token()
    big = f"csrf_token={token}&player=" + "A" * MAX_BODY
    response = client.post("/games", data=big, content_type="application/x-www-form-urlencoded")
    assert response.status_code == 413
    assert "That request was too large to accept: nothing was saved." in table.text(response)
    assert table.counts() == before


def test_the_largest_real_form_is_far_below_the_limit(table, client):
    # A ten-player classic game's card picker, one opponent holding the whole deck.
    game_id = table.create_game([f"Player {n}" for n in range(10)])
    deck = engine.find_variant("classic").deck(engine.TableOptions(wild_swap=True))
    form = [("cards-1", " ".join(card.text for card in deck))]
    form += [(f"cards-{seat}", "") for seat in range(2, 10)]
    form += [(f"pts-{seat}", "0") for seat in range(2, 10)]
    form += [("out", "0"), ("hand_id", "0"), ("csrf_token", table.token())]
    response = client.post(f"/games/{game_id}/hands/review", data=MultiDict(form))
    assert response.status_code == 200, table.text(response)
    assert len(urlencode(form)) < MAX_BODY // 64


def test_a_multipart_body_of_too_many_parts_is_refused(table, client):
    fields = {f"f{n}": "x" for n in range(1500)}
    response = client.post("/games", data={**fields, "csrf_token": table.token()},
                           content_type="multipart/form-data")
    assert response.status_code == 413
