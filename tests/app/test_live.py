"""Live pages (companion/live.py): each carries an ETag made from the game's revision; a
poll naming it gets an empty 304 until something a live page shows changes."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

NAMES = ["Ana", "Ben", "Cy"]
HTMX = {"HX-Request": "true"}
#: The live pages of a game, from its id and the id of a pull of its lever.
LIVE = {
    "scoreboard": "/games/{g}",
    "history": "/games/{g}/hands",
    "rulings": "/games/{g}/rulings",
    "lever": "/games/{g}/jackpot",
    "pull": "/games/{g}/jackpot/spins/{s}",
    "lever history": "/games/{g}/jackpot/history",
}


def poll(client, url: str, tag: str | None):
    """What the page's poller sends: the page's URL, with the tag it was given."""
    return client.get(url, headers={**HTMX, **({"If-None-Match": f'"{tag}"'} if tag else {})})


def tag_of(response) -> str:
    assert response.status_code == 200, response.status_code
    tag, weak = response.get_etag()
    assert tag and not weak
    return str(tag)


def write_cards(table, g: int) -> None:
    for seat, text in enumerate(["Sing", "Hop", "Clap"]):
        reply = table.post(f"/games/{g}/jackpot/cards/{seat}", {"card": [text]})
        assert reply.status_code == 303


def pull(table, g: int, puller: int = 0) -> int:
    reply = table.post(f"/games/{g}/jackpot/spins",
                       {"puller": str(puller), "direction": "clockwise",
                        "submission": f"k{puller}"})
    assert reply.status_code == 303, table.text(reply)[:300]
    return int(re.search(r"/spins/(\d+)", reply.headers["Location"]).group(1))


def keep_ruling(table, g: int):
    reply = table.post("/referee/challenge", {"game": str(g), "by": "Ben", "hand": "red-3",
                                              "color": "red", "submission": "r1", "save": "1"})
    assert reply.status_code == 303, table.text(reply)[:300]


@pytest.fixture
def game(table) -> tuple[int, int]:
    """A Wild Jackpot game with its rule cards written, a hand and a pull: (game, pull)."""
    g = table.create_game(NAMES, variant="wild-jackpot")
    write_cards(table, g)
    assert table.record(g, 0, {1: 10, 2: 5}).status_code == 303
    return g, pull(table, g)


def pages(g: int, s: int) -> dict[str, str]:
    return {name: url.format(g=g, s=s) for name, url in LIVE.items()}


def tags(client, g: int, s: int) -> dict[str, str]:
    return {name: tag_of(client.get(url)) for name, url in pages(g, s).items()}


@pytest.mark.parametrize("name", LIVE)
def test_a_live_page_carries_its_etag_and_a_poll_of_it_gets_an_empty_304(table, client, game,
                                                                         name):
    url = pages(*game)[name]
    page = client.get(url)
    tag = tag_of(page)
    poller = table.page(page).select_one("#live")
    assert poller["data-etag"] == tag
    assert poller["hx-get"] == url  # the page polls itself (companion/htmx.py, rule 2)
    unchanged = poll(client, url, tag)
    assert unchanged.status_code == 304
    assert unchanged.data == b""
    assert tag_of(poll(client, url, "another")) == tag


@pytest.mark.parametrize("name", LIVE)
def test_a_live_page_swaps_only_regions_it_has_and_none_holding_a_field(table, client, game,
                                                                       name):
    """What a person types or chooses (the lever's direction, a form) is never replaced."""
    page = table.page(client.get(pages(*game)[name]))
    regions = page.select_one("#live")["hx-select-oob"].split(",")
    for region in regions:
        found = page.select_one(region)
        assert found is not None, f"{region} is not on the page"
        assert not found.select("input:not([type=hidden]), select, textarea"), region


CHANGES: dict[str, Callable[..., object]] = {
    "new hand": lambda table, g: table.record(g, 1, {0: 7, 2: 3}),
    "edited hand": lambda table, g: table.record(g, 2, {0: 4, 1: 6},
                                                 hand_id=table.hand_ids(g)[0]),
    "deleted hand": lambda table, g: table.post(f"/games/{g}/hands/{table.hand_ids(g)[0]}/delete"),
    "undone hand": lambda table, g: table.undo(g),
    "ruling kept": keep_ruling,
    "lever pull": lambda table, g: pull(table, g, 1),
    "rule cards written": lambda table, g: table.post(f"/games/{g}/jackpot/cards/0",
                                                      {"card": ["Dance"]}),
}


@pytest.mark.parametrize("change", CHANGES)
def test_every_change_a_live_page_shows_gives_every_live_page_a_new_etag(table, client, game,
                                                                        change):
    g, s = game
    before = tags(client, g, s)
    CHANGES[change](table, g)
    for name, url in pages(g, s).items():
        answer = poll(client, url, before[name])
        assert answer.status_code == 200, (change, name)
        assert tag_of(answer) != before[name], (change, name)


def versions(table, g: int) -> tuple[int, int]:
    (row,) = table.rows("select version, revision from games where id = ?", [g])
    return row


def test_rulings_pulls_and_rule_cards_change_the_revision_not_the_version(table, game):
    """A hand being entered is refused when the version moved: a pull must not do that."""
    g, _ = game
    for change in (keep_ruling, lambda t, g: pull(t, g, 2), CHANGES["rule cards written"]):
        version, revision = versions(table, g)
        change(table, g)
        assert versions(table, g)[0] == version
        assert versions(table, g)[1] > revision


def test_a_draft_saved_while_tapping_cards_changes_nothing_live(table, client, game):
    g, s = game
    before = tags(client, g, s)
    fields = {"out": "1", "cards-0": "red-7", "hand_id": "0"}
    preview = client.post(f"/games/{g}/hands/preview", data=fields,
                          headers={**HTMX, "X-CSRF-Token": table.token()})
    assert preview.status_code == 200 and table.drafts(g) == 1
    for name, url in pages(g, s).items():
        assert poll(client, url, before[name]).status_code == 304, name


def test_a_viewer_and_a_keeper_are_given_different_etags(table, client, game):
    g, s = game
    viewer = table.phone(role="viewer", game_id=g)
    for name, url in pages(g, s).items():
        keeper_tag = tag_of(client.get(url))
        viewer_tag = tag_of(viewer.client.get(url))
        assert viewer_tag != keeper_tag, name
        assert poll(viewer.client, url, keeper_tag).status_code == 200, name
        assert poll(viewer.client, url, viewer_tag).status_code == 304, name


def test_a_stranger_polling_with_a_good_tag_gets_404_not_304(table, client, app, game):
    g, s = game
    stranger = app.test_client()
    for name, url in pages(g, s).items():
        assert poll(stranger, url, tag_of(client.get(url))).status_code == 404, name


def test_a_viewer_whose_link_was_renewed_gets_404(table, client, game):
    g, _ = game
    viewer = table.phone(role="viewer", game_id=g)
    tag = tag_of(viewer.client.get(f"/games/{g}"))
    assert table.post(f"/games/{g}/share/renew", {"role": "viewer"}).status_code == 303
    assert poll(viewer.client, f"/games/{g}", tag).status_code == 404


def test_the_rulings_json_has_its_own_etag(table, client, game):
    g, _ = game
    url = f"/games/{g}/rulings"
    html_tag = tag_of(client.get(url))
    answer = client.get(url, headers={"Accept": "application/json",
                                      "If-None-Match": f'"{html_tag}"'})
    assert answer.status_code == 200 and answer.is_json
    json_tag = tag_of(answer)
    assert json_tag != html_tag
    assert client.get(url, headers={"Accept": "application/json",
                                    "If-None-Match": f'"{json_tag}"'}).status_code == 304


def test_a_watching_phone_shows_the_last_pull_on_the_lever_page(table, game):
    g, _ = game
    viewer = table.phone(role="viewer", game_id=g)
    page = table.page(viewer.client.get(f"/games/{g}/jackpot"))
    assert page.select_one("#spin-outcome") is not None
    keeper = table.page(table.client.get(f"/games/{g}/jackpot"))
    assert keeper.select_one("#spin-outcome") is None  # the lever, ready for the next pull
    # What each one's poll swaps in: tests/browser/test_live_phones.py.


def test_a_refusal_shown_at_a_form_s_address_does_not_poll_it(table, client, game):
    """An undo refused (409) shows the scoreboard at the undo form's URL: no poller there."""
    g, _ = game
    refused = table.post(f"/games/{g}/hands/undo", {"hand_id": "999"})
    assert refused.status_code == 409
    assert table.page(refused).select_one("#standings") is not None
    assert table.page(refused).select_one("#live") is None


# -- the poll front (companion/live.py PollFront): most polls never reach Flask ----------


def count_flask_requests(app) -> list[str]:
    """The paths of requests that reached Flask (past the front), from now on."""
    reached: list[str] = []
    flask = app.wsgi_app.inner

    def counting(environ, start_response):
        reached.append(environ["PATH_INFO"])
        return flask(environ, start_response)

    app.wsgi_app.inner = counting
    return reached


def test_a_poll_that_changed_nothing_is_answered_before_flask(table, client, app, game):
    g, s = game
    tags_before = tags(client, g, s)
    reached = count_flask_requests(app)
    for name, url in pages(g, s).items():
        assert poll(client, url, tags_before[name]).status_code == 304, name
    assert reached == []
    table.record(g, 1, {0: 3, 2: 4})
    reached.clear()
    for name, url in pages(g, s).items():
        assert poll(client, url, tags_before[name]).status_code == 200, name
    assert len(reached) == len(LIVE)  # a change: Flask renders the page


def test_the_front_s_304_carries_the_page_s_tag_and_headers(table, client, game):
    g, s = game
    viewer = table.phone(role="viewer", game_id=g)
    for phone in (client, viewer.client):
        for name, url in pages(g, s).items():
            page = phone.get(url)
            answer = poll(phone, url, tag_of(page))
            assert answer.status_code == 304 and answer.data == b"", name
            assert answer.get_etag() == page.get_etag(), name
            for header in ("Content-Security-Policy", "X-Content-Type-Options",
                           "Referrer-Policy", "Cache-Control"):
                assert answer.headers.get(header) == page.headers.get(header), (name, header)


def test_a_poll_the_front_passes_on_gets_the_page_as_it_is(table, client, app, game):
    """Flask never answers 304 itself: a poll the front leaves to it (here, any poll, as
    the front is taken away) gets the page, tagged as the front would tag it."""
    g, s = game
    front = app.wsgi_app
    tags_now = tags(client, g, s)
    app.wsgi_app = front.inner
    for name, url in pages(g, s).items():
        answer = poll(client, url, tags_now[name])
        assert answer.status_code == 200 and tag_of(answer) == tags_now[name], name


@pytest.mark.parametrize("tamper", ["no cookie", "bad signature", "other secret", "not mine"])
def test_a_poll_the_front_cannot_vouch_for_is_refused_by_flask(table, client, app, game,
                                                               tamper):
    g, _ = game
    url = f"/games/{g}"
    tag = tag_of(client.get(url))
    cookie = client.get_cookie("session").value
    other = app.test_client()
    if tamper == "bad signature":
        other.set_cookie("session", cookie[:-2] + ("AA" if not cookie.endswith("AA") else "BB"))
    elif tamper == "other secret":
        from flask import Flask
        forger = Flask(__name__)
        forger.secret_key = "not the server's"
        data = {"device": "forged", "csrf_token": "x"}
        other.set_cookie("session",
                         forger.session_interface.get_signing_serializer(forger).dumps(data))
    elif tamper == "not mine":
        table.phone(client=other).create_game()  # a phone with a key, given no link here
    reached = count_flask_requests(app)
    assert poll(other, url, tag).status_code == 404
    assert reached  # Flask said so, with its page


def test_a_poll_to_a_host_not_served_is_refused_as_any_request_is(client, app, game):
    g, _ = game
    url = f"/games/{g}"
    tag = tag_of(client.get(url))
    answer = client.get(url, headers={**HTMX, "If-None-Match": f'"{tag}"',
                                      "Host": "evil.example"})
    assert answer.status_code == 400


def test_a_poll_of_a_keepers_only_page_is_not_a_live_page(table, client, app, game):
    g, _ = game
    reached = count_flask_requests(app)
    page = client.get(f"/games/{g}/hands/new")
    assert page.status_code == 200 and not page.get_etag()[0]
    assert poll(client, f"/games/{g}/hands/new", "anything").status_code == 200
    assert len(reached) == 2


# -- polls answered in the server's own loop (companion/server.py unchanged_answer) --------

SERVED_AT = ("127.0.0.1", 5000)


def raw_poll(client, url: str, tag: str, *extra: str) -> bytes:
    """The bytes a phone's poller sends (one kept-alive connection, its cookie)."""
    cookie = client.get_cookie("session").value
    lines = [f"GET {url} HTTP/1.1", "Host: 127.0.0.1:5000", f"Cookie: session={cookie}",
             "HX-Request: true", "HX-Trigger: live", f'If-None-Match: "{tag}"', *extra]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def test_the_server_loop_answers_a_poll_exactly_as_the_front_does(client, app, game):
    from companion.server import unchanged_answer

    g, s = game
    front = app.wsgi_app
    for name, url in pages(g, s).items():
        tag = tag_of(client.get(url))
        answer = unchanged_answer(front, raw_poll(client, url, tag), SERVED_AT)
        assert answer is not None, name
        head = answer.decode().split("\r\n")
        assert head[0] == "HTTP/1.1 304 NOT MODIFIED" and answer.endswith(b"\r\n\r\n")
        headers = dict(line.split(": ", 1) for line in head[1:] if line)
        flask = poll(client, url, tag)
        assert flask.status_code == 304
        assert {k: v for k, v in headers.items() if k not in ("Date", "Connection")} == dict(
            flask.headers)
        assert headers["Connection"] == "keep-alive"
        # Out of date: the app renders it.
        assert unchanged_answer(front, raw_poll(client, url, "old"), SERVED_AT) is None


@pytest.mark.parametrize("odd", [
    "pipelined", "a body", "HTTP/1.0", "percent-encoded path", "repeated header",
    "folded header", "proxy header", "connection close", "not ASCII", "a POST",
])
def test_the_server_loop_leaves_any_unusual_request_to_the_full_parser(client, app, game,
                                                                       odd):
    from companion.server import unchanged_answer

    g, _ = game
    url = f"/games/{g}"
    tag = tag_of(client.get(url))
    plain = raw_poll(client, url, tag)
    assert unchanged_answer(app.wsgi_app, plain, SERVED_AT) is not None
    changed = {
        "pipelined": plain + plain,
        "a body": raw_poll(client, url, tag, "Content-Length: 2") + b"{}",
        "HTTP/1.0": plain.replace(b"HTTP/1.1", b"HTTP/1.0", 1),
        "percent-encoded path": plain.replace(f"/games/{g}".encode(), f"/games/%3{g}".encode()),
        "repeated header": raw_poll(client, url, tag, "Host: evil.example"),
        "folded header": raw_poll(client, url, tag, "X-Note: a", " b"),
        "proxy header": raw_poll(client, url, tag, "X-Forwarded-Host: evil.example"),
        "connection close": raw_poll(client, url, tag, "Connection: close"),
        "not ASCII": raw_poll(client, url, tag, "X-Note: é"),
        "a POST": plain.replace(b"GET", b"POST", 1),
    }[odd]
    assert unchanged_answer(app.wsgi_app, changed, SERVED_AT) is None
